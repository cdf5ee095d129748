//! The OpenAPI schemas of the engine's wire types, kept here so that the
//! engine knows nothing of OpenAPI: the types that serialize as plain
//! strings or numbers are written out below, the structured ones are
//! described by the same-named types of [`types`] and [`views`], the
//! actions by [`actions`] and the events as shown by [`events`].

use utoipa::openapi::RefOr;
use utoipa::openapi::extensions::Extensions;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, SchemaType, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::rules::{Card, FirstDealer, Trump, TrumpChoice, Winner};

fn string_enum(description: &str, values: &[&str]) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .enum_values(Some(values.iter().copied()))
        .examples([values[0]])
}

/// A value that is the string `word` or a seat or side number (0 to 3),
/// said without `type`, `enum` or a union: openapi-generator makes a
/// wrapper class of any union of a string and an integer (its `python`,
/// `go` and `java` clients then hand out `Winner(actual_instance=…)`), and
/// of an `enum` mixing both a broken enum; a schema without a type is a
/// plain value in every generator (`Any`, `interface{}`, `Object`,
/// `unknown`). The keywords that each apply to one type of value only
/// (`pattern` to strings; `minimum`, `maximum`, `multipleOf` to numbers)
/// and a `not` of every other type still say exactly what the server
/// sends and takes, for validators.
fn word_or_seat(description: &str, word: &str) -> RefOr<Schema> {
    let mut only_strings_and_numbers = Extensions::default();
    // `not` is a JSON Schema keyword utoipa's builder lacks: inserted as
    // is (`Extensions::add` would prefix it with `x-`).
    only_strings_and_numbers.insert(
        "not".to_string(),
        serde_json::json!({"type": ["null", "boolean", "object", "array"]}),
    );
    ObjectBuilder::new()
        .schema_type(SchemaType::AnyValue)
        .description(Some(description))
        .pattern(Some(format!("^{word}$")))
        .minimum(Some(0))
        .maximum(Some(3))
        .multiple_of(Some(1))
        .examples([serde_json::json!(word), serde_json::json!(0)])
        .extensions(Some(only_strings_and_numbers))
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

/// The schema of a seat number (the engine's `Seat` is a plain `u8`).
pub struct SeatNumber;
/// The schema of a side number (the engine's `Side` is a plain `u8`).
pub struct SideNumber;

fn small_number(description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
        .minimum(Some(0))
        .maximum(Some(3))
        .description(Some(description))
}

impl PartialSchema for SeatNumber {
    fn schema() -> RefOr<Schema> {
        small_number("A seat: 0 to 3 (0 to 2 in abarrotada3), in playing order.").into()
    }
}
impl ToSchema for SeatNumber {
    fn name() -> std::borrow::Cow<'static, str> {
        "Seat".into()
    }
}
impl PartialSchema for SideNumber {
    fn schema() -> RefOr<Schema> {
        small_number(
            "A side: the team (0 or 1; seat s plays for side s mod 2) in pairs, the seat itself in abarrotada.",
        )
        .into()
    }
}
impl ToSchema for SideNumber {
    fn name() -> std::borrow::Cow<'static, str> {
        "Side".into()
    }
}

/// The schema of a house bot's name: the names [`bots::by_name`] knows.
///
/// [`bots::by_name`]: crate::bots::by_name
pub struct HouseBot;

impl PartialSchema for HouseBot {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A house bot (`random`, `heuristic`, `montecarlo`, `expert`) or a strength level (`easy`, `medium`, `hard`, `expert`).",
            ))
            .enum_values(Some(crate::bots::NAMES.iter().copied()))
            .examples(["heuristic"])
            .into()
    }
}
impl ToSchema for HouseBot {}

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
pub(crate) use lend;

/// The operations of a path item, each method that has one.
pub fn operations_mut(
    item: &mut utoipa::openapi::path::PathItem,
) -> impl Iterator<Item = &mut utoipa::openapi::path::Operation> {
    [
        &mut item.get,
        &mut item.post,
        &mut item.put,
        &mut item.delete,
        &mut item.patch,
    ]
    .into_iter()
    .flatten()
}

pub mod actions;
pub mod document;
pub mod events;
pub mod player_events;
pub mod problem;
mod types;
pub mod unions;
mod views;
