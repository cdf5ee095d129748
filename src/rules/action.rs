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
    /// `seat` ended the match early (docs/rules.md, "Ending a match early").
    End(Seat, Ending),
}

/// How a match was ended before its target: who ended it is the seat of
/// the [`Move::End`] that names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Ending {
    /// The seat resigned the match: its side loses it.
    Resigned,
    /// The seat aborted the match: it ends with no winner.
    Aborted,
    /// The seat missed too many moves in a row: its side loses the match.
    Abandoned,
    /// The seat claimed victory over `against`, gone from the match: the
    /// side of `against` loses it.
    Claimed {
        /// The absent seat.
        against: Seat,
    },
}

impl Ending {
    /// The seat whose side loses when `by` ends the match this way
    /// (`None` for an abort).
    pub fn loser(self, by: Seat) -> Option<Seat> {
        match self {
            Ending::Resigned | Ending::Abandoned => Some(by),
            Ending::Aborted => None,
            Ending::Claimed { against } => Some(against),
        }
    }

    /// The name of this way of ending, as events and views write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Resigned => "resigned",
            Ending::Aborted => "aborted",
            Ending::Abandoned => "abandoned",
            Ending::Claimed { .. } => "claimed",
        }
    }
}

/// Who ended a match early, and how (the match's `ended_by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndedBy {
    /// The seat that ended it (for an abandonment, the absent seat).
    pub seat: Seat,
    /// How.
    #[serde(flatten)]
    pub ending: Ending,
}
