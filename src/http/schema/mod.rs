//! The OpenAPI schemas of the engine's wire types, kept here so that the
//! engine knows nothing of OpenAPI: the types that serialize as plain
//! strings or numbers are written out below, the structured ones are
//! described by the same-named types of [`types`] and [`views`].

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::rules::{Card, FirstDealer, Trump, TrumpChoice, Winner};

fn string_enum(description: &str, values: &[&str]) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .enum_values(Some(values.iter().copied()))
        .examples([values[0]])
}

fn word_or_seat(description: &str, word: &str) -> RefOr<Schema> {
    OneOfBuilder::new()
        .description(Some(description))
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([word])),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0))
                .maximum(Some(3)),
        )
        .into()
}

macro_rules! schema {
    ($t:ty, $body:expr) => {
        impl PartialSchema for $t {
            fn schema() -> RefOr<Schema> {
                $body
            }
        }
        impl ToSchema for $t {}
    };
}

schema!(
    Card,
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(
            "A card: rank 1-12 then suit O, C, E or B (input is case-insensitive)."
        ))
        .pattern(Some("^(1[0-2]|[1-9])[OCEBoceb]$"))
        .examples(["9O"])
        .into()
);
schema!(
    Trump,
    string_enum(
        "A trump suit, or botifarra (no trump).",
        &["O", "C", "E", "B", "botifarra"]
    )
    .into()
);
schema!(
    TrumpChoice,
    string_enum(
        "A suit or botifarra names trump; delegate hands the choice on; estevet (abarrotada) delegates with a contro.",
        &["O", "C", "E", "B", "botifarra", "delegate", "estevet"],
    )
    .into()
);
schema!(
    FirstDealer,
    word_or_seat("\"draw\" (a turned card decides) or a seat number.", "draw")
);
schema!(
    Winner,
    word_or_seat(
        "The winning side, or \"draw\" when the top totals are equal.",
        "draw"
    )
);

/// Lends each engine type `engine::T` the schema of the same-named type `T`
/// of the calling module.
macro_rules! lend {
    ($($t:ident),* $(,)?) => {
        $(
            impl utoipa::PartialSchema for engine::$t {
                fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                    <$t as utoipa::PartialSchema>::schema()
                }
            }
            impl utoipa::ToSchema for engine::$t {
                fn schemas(
                    schemas: &mut Vec<(
                        String,
                        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
                    )>,
                ) {
                    <$t as utoipa::ToSchema>::schemas(schemas)
                }
            }
        )*
    };
}
pub(super) use lend;

mod types;
mod views;
