//! What happened in a match: every [`Event`] that
//! [`Match::apply`](super::Match::apply) and
//! [`Match::resign`](super::Match::resign) report, in order, with every
//! detail (the dealt cards included; the service redacts hidden cards per
//! viewer before showing them).
//!
//! A file of its own because both the match (`game.rs`) and the hand it
//! drives (`hand.rs`) push events: neither needs to import the other for
//! it. Events are pushed on every action, so each stays 16 bytes (large
//! payloads are boxed); a compile-time assertion below holds that size.

use serde::{Deserialize, Serialize};

use super::action::Ending;
use super::card::{Card, CardSet};
use super::contract::{Call, Trump};
use super::outcome::{HandResult, Winner};
use super::seat::Seat;

/// Something that happened, with every detail (the service redacts hidden
/// cards per viewer before showing it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A hand was dealt; `hands` holds every seat's cards (hidden on output).
    /// Boxed, like the other large payloads, to keep every event 16 bytes:
    /// events are pushed on every action.
    HandDealt {
        hand_number: u32,
        dealer: Seat,
        hands: Box<[CardSet; 4]>,
    },
    /// The trump choice was handed on.
    Delegated { seat: Seat, to: Seat, estevet: bool },
    /// Trump was named.
    TrumpChosen { seat: Seat, trump: Trump },
    /// A doubling call, and the multiplier after it.
    DoubleCalled {
        seat: Seat,
        call: Call,
        multiplier: u32,
    },
    /// A card was played.
    CardPlayed { seat: Seat, card: Card },
    /// A trick was completed; `points` it carried, its trick point included.
    TrickWon { seat: Seat, points: u8 },
    /// A side forfeited the hand.
    HandForfeited { seat: Seat, side: u8 },
    /// A hand was scored.
    HandScored { result: Box<HandResult> },
    /// `seat` ended the match early (`ending` says how); a `match_over`
    /// follows unless it was aborted.
    MatchEnded { seat: Seat, ending: Ending },
    /// The match ended.
    MatchOver {
        winner: Winner,
        scores: Box<Vec<i32>>,
    },
}

const _: () = assert!(std::mem::size_of::<Event>() == 16);
