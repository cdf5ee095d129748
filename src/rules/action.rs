//! What a seat does to a match: an [`Action`] in the phase that expects it,
//! and the [`Move`] log entry (an action or a resignation) that
//! [`Match::moves`](super::Match::moves) lists and
//! [`Match::replay`](super::Match::replay) applies again.
//!
//! Kept apart from `game.rs` so that the hand, the view and the bots can
//! name actions without reaching into the match itself.

use serde::{Deserialize, Serialize};

use super::card::Card;
use super::contract::{Call, TrumpChoice};
use super::phase::Phase;
use super::seat::Seat;

/// One move of a seat, exactly as `legal_actions` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Deal the next hand (the dealer, in phase `awaiting_deal`).
    Deal,
    /// Name trump or hand the choice on (phase `choosing_trump`).
    Trump {
        /// `O`, `C`, `E`, `B`, `botifarra`, `delegate` or `estevet`.
        choice: TrumpChoice,
    },
    /// Double or pass (phase `doubling`).
    Double {
        /// `contro`, `recontro`, `sant_vicenc` or `pass`.
        call: Call,
    },
    /// Play a card (phase `playing`).
    Play {
        /// A card code such as `9O`.
        card: Card,
    },
}

impl Action {
    /// The phase in which this kind of action is made.
    pub fn phase(self) -> Phase {
        match self {
            Action::Deal => Phase::AwaitingDeal,
            Action::Trump { .. } => Phase::ChoosingTrump,
            Action::Double { .. } => Phase::Doubling,
            Action::Play { .. } => Phase::Playing,
        }
    }
}

/// One entry of a match's move log: an action, or a resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Move {
    /// `seat` made `action`.
    Act(Seat, Action),
    /// `seat` resigned the hand for its side.
    Resign(Seat),
}
