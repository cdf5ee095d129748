//! The actions as the API shows and takes them: one named schema per kind
//! (`DealAction`, `TrumpAction`, `DoubleAction`, `PlayAction`), each with
//! its `type`, joined in the `Action` union with a `type` discriminator.
//!
//! The same schemas describe `legal_actions` and the body of
//! `POST …/actions`, so a generated client posts a listed action unchanged.
//! A request may add the guards (`expected_version`, `seat`) beside the
//! action's fields; `legal_actions` never carries them. These types are
//! also what `POST …/actions` parses ([`parse_action`]), and they lend the
//! engine's [`Action`](engine::Action) its schema: the conversions name
//! every variant and field, and a test checks both serialize alike.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::rules::{Card, Seat, TrumpChoice};
use crate::service::Error;

/// The engine types described here.
mod engine {
    pub use crate::rules::{Action, Call};
}

/// A single-value string type: the `type` of one kind of object. Its
/// schema is written out (`{"type": "string", "enum": [value]}`), and the
/// field holding it carries no description, so that generators see a plain
/// constant.
macro_rules! tag {
    ($name:ident, $value:literal) => {
        #[doc = concat!("The `type` of a `", $value, "` object.")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        pub enum $name {
            #[doc = concat!("`", $value, "`")]
            #[default]
            #[serde(rename = $value)]
            Tag,
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some([$value]))
                    .into()
            }
        }
        impl utoipa::ToSchema for $name {}
    };
}
pub(super) use tag;

tag!(DealTag, "deal");
tag!(TrumpTag, "trump");
tag!(DoubleTag, "double");
tag!(PlayTag, "play");

/// Reads an optional whole number written either way JSON allows (`7` or
/// `7.0`: JSON Schema's `integer` takes both), refusing a fraction or a
/// value out of `T`'s range.
///
/// # Errors
/// When the value is not a whole number that fits.
pub fn whole<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64>,
{
    use serde::de::Error as _;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    let whole = n.as_u64().or_else(|| {
        n.as_f64()
            .filter(|f| f.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(f))
            .map(|f| f as u64)
    });
    let v =
        whole.ok_or_else(|| D::Error::custom(format!("{n} is not a non-negative whole number")))?;
    T::try_from(v)
        .map(Some)
        .map_err(|_| D::Error::custom(format!("{n} is out of range")))
}

/// Defines one action kind: its `type`, its own fields, then the guards a
/// request may add.
macro_rules! action {
    (
        $(#[$doc:meta])*
        $name:ident, $tag:ident { $($(#[$fdoc:meta])* $field:ident : $ty:ty,)* }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[serde(rename = "type")]
            #[schema(inline)]
            kind: $tag,
            $($(#[$fdoc])* pub $field: $ty,)*
            /// Requests only (never in `legal_actions`): act only if the
            /// match is still at this version (as `If-Match`), else `409
            /// version_conflict`.
            #[serde(default, deserialize_with = "whole", skip_serializing_if = "Option::is_none")]
            pub expected_version: Option<u64>,
            /// Requests only (never in `legal_actions`): the seat the client
            /// acts for; `403` when the token's seat differs.
            #[serde(default, deserialize_with = "whole", skip_serializing_if = "Option::is_none")]
            #[schema(value_type = Option<super::SeatNumber>)]
            pub seat: Option<Seat>,
        }
    };
}

action!(
    /// Deal the next hand: the dealer's action in phase `awaiting_deal`.
    DealAction, DealTag {}
);
action!(
    /// Name trump or hand the choice on (phase `choosing_trump`).
    TrumpAction, TrumpTag {
        /// `O`, `C`, `E`, `B`, `botifarra`, `delegate` or `estevet`.
        choice: TrumpChoice,
    }
);
action!(
    /// Double or pass (phase `doubling`).
    DoubleAction, DoubleTag {
        /// `contro`, `recontro`, `sant_vicenc` or `pass`.
        call: engine::Call,
    }
);
action!(
    /// Play a card (phase `playing`).
    PlayAction, PlayTag {
        /// A card code such as `9O` (case-insensitive).
        card: Card,
    }
);

/// One move of a seat, exactly as `legal_actions` lists it; `type` says
/// which kind. `POST …/actions` takes it unchanged (with optional guards).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(discriminator(property_name = "type", mapping(
    ("deal" = "#/components/schemas/DealAction"),
    ("trump" = "#/components/schemas/TrumpAction"),
    ("double" = "#/components/schemas/DoubleAction"),
    ("play" = "#/components/schemas/PlayAction"),
)))]
pub enum Action {
    /// `deal`.
    Deal(DealAction),
    /// `trump`.
    Trump(TrumpAction),
    /// `double`.
    Double(DoubleAction),
    /// `play`.
    Play(PlayAction),
}

/// An action without guards.
impl From<engine::Action> for Action {
    fn from(v: engine::Action) -> Action {
        let (expected_version, seat) = (None, None);
        match v {
            engine::Action::Deal => Action::Deal(DealAction {
                kind: DealTag::Tag,
                expected_version,
                seat,
            }),
            engine::Action::Trump { choice } => Action::Trump(TrumpAction {
                kind: TrumpTag::Tag,
                choice,
                expected_version,
                seat,
            }),
            engine::Action::Double { call } => Action::Double(DoubleAction {
                kind: DoubleTag::Tag,
                call,
                expected_version,
                seat,
            }),
            engine::Action::Play { card } => Action::Play(PlayAction {
                kind: PlayTag::Tag,
                card,
                expected_version,
                seat,
            }),
        }
    }
}

/// What a request body of `POST …/actions` asks: the action and its guards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Posted {
    /// The action.
    pub action: engine::Action,
    /// Act only at this version.
    pub expected_version: Option<u64>,
    /// The seat the client believes it holds.
    pub seat: Option<Seat>,
}

fn kind<T: DeserializeOwned>(v: Value, kind: &str) -> Result<T, Error> {
    serde_json::from_value(v).map_err(|e| {
        Error::InvalidRequest(format!(
            "not a `{kind}` action: {e}; post one object of legal_actions, like {{\"type\": \"play\", \"card\": \"9O\"}}"
        ))
    })
}

/// Reads a parsed body of `POST …/actions` as an [`Action`] with guards.
///
/// # Errors
/// `InvalidRequest` naming what is wrong: not an object, no or an unknown
/// `type`, a missing or unknown field.
pub fn parse_action(v: Value) -> Result<Posted, Error> {
    let t = match v.as_object().map(|o| o.get("type")) {
        None => {
            return Err(Error::InvalidRequest(
                "the body must be an action object, like {\"type\": \"play\", \"card\": \"9O\"}"
                    .into(),
            ));
        }
        Some(None) => {
            return Err(Error::InvalidRequest(
                "the action has no `type` (`deal`, `trump`, `double` or `play`)".into(),
            ));
        }
        Some(Some(t)) => t.as_str().unwrap_or_default().to_string(),
    };
    Ok(match t.as_str() {
        "deal" => {
            let DealAction {
                kind: _,
                expected_version,
                seat,
            } = kind(v, "deal")?;
            Posted {
                action: engine::Action::Deal,
                expected_version,
                seat,
            }
        }
        "trump" => {
            let TrumpAction {
                kind: _,
                choice,
                expected_version,
                seat,
            } = kind(v, "trump")?;
            Posted {
                action: engine::Action::Trump { choice },
                expected_version,
                seat,
            }
        }
        "double" => {
            let DoubleAction {
                kind: _,
                call,
                expected_version,
                seat,
            } = kind(v, "double")?;
            Posted {
                action: engine::Action::Double { call },
                expected_version,
                seat,
            }
        }
        "play" => {
            let PlayAction {
                kind: _,
                card,
                expected_version,
                seat,
            } = kind(v, "play")?;
            Posted {
                action: engine::Action::Play { card },
                expected_version,
                seat,
            }
        }
        _ => {
            return Err(Error::InvalidRequest(
                "the action's `type` must be `deal`, `trump`, `double` or `play`".into(),
            ));
        }
    })
}

super::lend!(Action);

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::rules::{Call, Trump};

    #[test]
    fn every_action_reads_back_from_its_own_json_with_or_without_guards() {
        let actions = [
            engine::Action::Deal,
            engine::Action::Trump {
                choice: TrumpChoice::Declare(Trump::Botifarra),
            },
            engine::Action::Trump {
                choice: TrumpChoice::Delegate,
            },
            engine::Action::Double { call: Call::Pass },
            engine::Action::Play {
                card: "9O".parse().unwrap(),
            },
        ];
        for a in actions {
            let listed = serde_json::to_value(a).unwrap();
            assert_eq!(serde_json::to_value(Action::from(a)).unwrap(), listed);
            let posted = parse_action(listed.clone()).unwrap();
            assert_eq!(
                posted,
                Posted {
                    action: a,
                    expected_version: None,
                    seat: None
                }
            );
            let mut guarded = listed;
            guarded["expected_version"] = json!(7);
            guarded["seat"] = json!(2);
            let posted = parse_action(guarded).unwrap();
            assert_eq!(
                (posted.action, posted.expected_version, posted.seat),
                (a, Some(7), Some(2))
            );
        }
    }

    #[test]
    fn a_body_that_is_not_a_listed_action_is_refused_with_the_reason() {
        let refused = |v: Value| match parse_action(v) {
            Err(Error::InvalidRequest(d)) => d,
            other => panic!("{other:?}"),
        };
        assert!(refused(json!([1])).contains("action object"));
        assert!(refused(json!({"card": "9O"})).contains("no `type`"));
        assert!(refused(json!({"type": "pass"})).contains("must be `deal`"));
        assert!(refused(json!({"type": "play"})).contains("card"));
        let d = refused(json!({"action": {"type": "deal"}, "type": "deal"}));
        assert!(d.contains("unknown field `action`"), "{d}");
        // Whole numbers may be written `7.0`; fractions and overflows not.
        let posted =
            parse_action(json!({"type": "deal", "expected_version": 7.0, "seat": 1.0})).unwrap();
        assert_eq!((posted.expected_version, posted.seat), (Some(7), Some(1)));
        assert!(refused(json!({"type": "deal", "expected_version": 7.5})).contains("whole"));
        assert!(refused(json!({"type": "deal", "seat": 300})).contains("range"));
    }
}
