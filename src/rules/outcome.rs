//! What a hand and a match come to: the [`HandResult`] of each finished
//! hand (the points per side and the match points recorded) and the
//! [`Winner`] of the match.
//!
//! Plain data, kept apart from `scoring.rs`, which computes them from a
//! hand's state: the events that carry these results (`event.rs`) must not
//! depend on the hand, which pushes events itself.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::contract::{CallRecord, Trump};
use super::seat::{Seat, Side};
use super::variant::word_or_seat;

/// The result of one finished hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandResult {
    /// 1 for the first hand.
    pub hand_number: u32,
    /// Who dealt.
    pub dealer: Seat,
    /// Who named trump (null when the hand was forfeited before).
    pub declarer: Option<Seat>,
    /// The declaration (null when forfeited before it).
    pub trump: Option<Trump>,
    /// The doubles said, in order (passes left out; an Estevet's contro
    /// included).
    pub calls: Vec<CallRecord>,
    /// The multiplier applied.
    pub multiplier: u32,
    /// Hand points per side (they sum to 72 unless the hand was forfeited).
    pub points: Vec<u8>,
    /// Match points recorded per side.
    pub recorded: Vec<u32>,
    /// The side that forfeited, if any.
    pub forfeit: Option<Side>,
}

/// Who won a match: a side, or a draw (equal totals after `max_hands`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// This side won.
    Side(Side),
    /// Equal highest totals.
    Draw,
}

impl Serialize for Winner {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Winner::Side(n) => s.serialize_u8(*n),
            Winner::Draw => s.serialize_str("draw"),
        }
    }
}

impl<'de> Deserialize<'de> for Winner {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Winner, D::Error> {
        Ok(
            word_or_seat(d, "draw", "winner is a side number or \"draw\"")?
                .map_or(Winner::Draw, Winner::Side),
        )
    }
}
