//! The OpenAPI schemas of the engine's structured types: phases,
//! rule options, calls and hand results.
//!
//! The engine's types serialize themselves (serde) but know nothing of
//! OpenAPI. Each type here has the same name, fields, documentation and
//! serde attributes as the engine type it describes, and lends it its
//! schema ([`super::lend`]). They are never sent: the `From` conversions
//! below name every field and variant of both sides, so a field added,
//! removed or retyped in the engine fails to compile here, and a test
//! checks that both serialize to the same JSON.

use serde::Serialize;
use utoipa::ToSchema;

use crate::rules::{FirstDealer, Seat, Side, Trump};

/// The engine types described here.
mod engine {
    pub use crate::rules::{
        Call, CallRecord, Doubling, HandResult, Phase, Rules, ShuffleMode, Variant,
    };
}

/// The phase of a match, as the API names it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The dealer is to deal the next hand.
    AwaitingDeal,
    /// Trump is being chosen.
    ChoosingTrump,
    /// Doubles are being said.
    Doubling,
    /// Cards are being played.
    Playing,
    /// The match has ended.
    MatchOver,
}

/// Which game is played.
#[derive(Serialize, ToSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Four players in two teams, partners opposite (the default).
    #[default]
    Pairs,
    /// Botifarra abarrotada: four players, each for themself, threshold 18.
    Abarrotada,
    /// Abarrotada for three players: 36 cards (no 2s, 3s, 4s), threshold 24.
    Abarrotada3,
}

/// How doubles multiply a hand (docs/rules.md section 6).
#[derive(Serialize, ToSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Doubling {
    /// none 1, contro 2, recontro 4, Sant Vicenç 8 (the default).
    #[default]
    Powers,
    /// none 1, contro 2, recontro 3, Sant Vicenç 4 (a regional variant).
    Linear,
}

/// How the deck is prepared between hands (docs/rules.md section 8).
#[derive(Serialize, ToSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum ShuffleMode {
    /// A freshly shuffled deck every hand (the default).
    #[default]
    Full,
    /// The won tricks are stacked, cut and dealt without shuffling.
    StackAndCut,
}

/// The options of a match. Every field is optional, with the default of
/// docs/rules.md (each field's description names it; the schema gives no
/// `default` keyword, which some generators read as "always present").
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// `pairs` (default), `abarrotada` or `abarrotada3`.
    #[schema(required = false)]
    pub variant: engine::Variant,
    /// A side wins when its total reaches this (default 101; 51 for a
    /// "50-point game").
    #[schema(example = 101, minimum = 1, maximum = 100000)]
    #[schema(required = false)]
    pub target: u32,
    /// The match also ends after this many hands (default: no limit).
    #[schema(minimum = 1, maximum = 1000)]
    #[schema(required = false)]
    pub max_hands: Option<u32>,
    /// `powers` (1, 2, 4, 8; default) or `linear` (1, 2, 3, 4).
    #[schema(required = false)]
    pub doubling: engine::Doubling,
    /// Allow Sant Vicenç when the trump is botifarra (pairs game; default false).
    #[schema(required = false)]
    pub sant_vicenc_with_botifarra: bool,
    /// "Modalitat obligada" (docs/rules.md 4.1; pairs game only; default false).
    #[schema(required = false)]
    pub forced: bool,
    /// A player void in the suit led must trump (docs/rules.md 4.2; default false).
    #[schema(required = false)]
    pub must_trump: bool,
    /// `full` (default) or `stack_and_cut`.
    #[schema(required = false)]
    pub shuffle: engine::ShuffleMode,
    /// `"draw"` (default) or a seat number.
    #[schema(required = false)]
    pub first_dealer: FirstDealer,
}

/// A doubling call.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Call {
    /// The first double.
    Contro,
    /// The second double.
    Recontro,
    /// The third double.
    SantVicenc,
    /// No double ("knocking on the table").
    Pass,
}

/// A call said by a seat.
#[derive(Serialize, ToSchema)]
pub struct CallRecord {
    /// Who spoke.
    #[schema(value_type = super::SeatNumber)]
    pub seat: Seat,
    /// What they said.
    pub call: engine::Call,
}

/// The result of one finished hand.
#[derive(Serialize, ToSchema)]
pub struct HandResult {
    /// 1 for the first hand.
    pub hand_number: u32,
    /// Who dealt.
    #[schema(value_type = super::SeatNumber)]
    pub dealer: Seat,
    /// Who named trump (null when the hand was forfeited before).
    #[schema(value_type = Option<super::SeatNumber>)]
    pub declarer: Option<Seat>,
    /// The declaration (null when forfeited before it).
    pub trump: Option<Trump>,
    /// The doubles said, in order (passes left out; an Estevet's contro
    /// included).
    pub calls: Vec<engine::CallRecord>,
    /// The multiplier applied.
    pub multiplier: u32,
    /// Hand points per side (they sum to 72 unless the hand was forfeited).
    pub points: Vec<u8>,
    /// Match points recorded per side.
    pub recorded: Vec<u32>,
    /// The side that forfeited, if any.
    #[schema(value_type = Option<super::SideNumber>)]
    pub forfeit: Option<Side>,
}

impl From<engine::Phase> for Phase {
    fn from(v: engine::Phase) -> Phase {
        match v {
            engine::Phase::AwaitingDeal => Phase::AwaitingDeal,
            engine::Phase::ChoosingTrump => Phase::ChoosingTrump,
            engine::Phase::Doubling => Phase::Doubling,
            engine::Phase::Playing => Phase::Playing,
            engine::Phase::MatchOver => Phase::MatchOver,
        }
    }
}

impl From<engine::Variant> for Variant {
    fn from(v: engine::Variant) -> Variant {
        match v {
            engine::Variant::Pairs => Variant::Pairs,
            engine::Variant::Abarrotada => Variant::Abarrotada,
            engine::Variant::Abarrotada3 => Variant::Abarrotada3,
        }
    }
}

impl From<engine::Doubling> for Doubling {
    fn from(v: engine::Doubling) -> Doubling {
        match v {
            engine::Doubling::Powers => Doubling::Powers,
            engine::Doubling::Linear => Doubling::Linear,
        }
    }
}

impl From<engine::ShuffleMode> for ShuffleMode {
    fn from(v: engine::ShuffleMode) -> ShuffleMode {
        match v {
            engine::ShuffleMode::Full => ShuffleMode::Full,
            engine::ShuffleMode::StackAndCut => ShuffleMode::StackAndCut,
        }
    }
}

impl From<engine::Rules> for Rules {
    fn from(v: engine::Rules) -> Rules {
        let engine::Rules {
            variant,
            target,
            max_hands,
            doubling,
            sant_vicenc_with_botifarra,
            forced,
            must_trump,
            shuffle,
            first_dealer,
        } = v;
        Rules {
            variant,
            target,
            max_hands,
            doubling,
            sant_vicenc_with_botifarra,
            forced,
            must_trump,
            shuffle,
            first_dealer,
        }
    }
}

impl From<engine::Call> for Call {
    fn from(v: engine::Call) -> Call {
        match v {
            engine::Call::Contro => Call::Contro,
            engine::Call::Recontro => Call::Recontro,
            engine::Call::SantVicenc => Call::SantVicenc,
            engine::Call::Pass => Call::Pass,
        }
    }
}

impl From<engine::CallRecord> for CallRecord {
    fn from(v: engine::CallRecord) -> CallRecord {
        let engine::CallRecord { seat, call } = v;
        CallRecord { seat, call }
    }
}

impl From<engine::HandResult> for HandResult {
    fn from(v: engine::HandResult) -> HandResult {
        let engine::HandResult {
            hand_number,
            dealer,
            declarer,
            trump,
            calls,
            multiplier,
            points,
            recorded,
            forfeit,
        } = v;
        HandResult {
            hand_number,
            dealer,
            declarer,
            trump,
            calls,
            multiplier,
            points,
            recorded,
            forfeit,
        }
    }
}

super::lend!(
    Phase,
    Variant,
    Doubling,
    ShuffleMode,
    Rules,
    Call,
    CallRecord,
    HandResult
);
