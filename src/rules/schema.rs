//! OpenAPI schemas of the types that serialize as plain strings or numbers.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use super::card::Card;
use super::contract::{Trump, TrumpChoice};
use super::scoring::Winner;
use super::variant::FirstDealer;

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
