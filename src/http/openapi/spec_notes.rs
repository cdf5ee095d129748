//! Warnings added to the OpenAPI document where a schema's own doc cannot
//! say them: what an option gives away, beside the option.

use utoipa::openapi::{OpenApi, RefOr, Schema};

/// The warning on `Rules.shuffle`.
pub const STACK_AND_CUT_WARNING: &str = "`full` (default) or `stack_and_cut`. \
    Warning: with `stack_and_cut` the next deal follows from the previous hand's tricks and \
    a cut, so from the second hand on a careful player (or a bot) can rebuild every other \
    seat's cards from the public history and its own hand. Use `full` for any rated or \
    matchmade play.";

/// Adds the warnings to `api`.
pub fn add(api: &mut OpenApi) {
    let Some(components) = api.components.as_mut() else {
        return;
    };
    let Some(RefOr::T(Schema::Object(rules))) = components.schemas.get_mut("Rules") else {
        return;
    };
    if let Some(shuffle) = rules.properties.get_mut("shuffle") {
        match shuffle {
            RefOr::T(Schema::Object(o)) => o.description = Some(STACK_AND_CUT_WARNING.into()),
            RefOr::Ref(r) => r.description = STACK_AND_CUT_WARNING.into(),
            _ => {}
        }
    }
}
