//! The phases a match goes through, as the API names them.

use serde::{Deserialize, Serialize};

/// The phase of a match, as the API names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

impl Phase {
    /// The API word for the phase.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::AwaitingDeal => "awaiting_deal",
            Phase::ChoosingTrump => "choosing_trump",
            Phase::Doubling => "doubling",
            Phase::Playing => "playing",
            Phase::MatchOver => "match_over",
        }
    }
}
