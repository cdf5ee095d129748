//! The game of Botifarra, pure: no I/O, no async, no server.
//!
//! [`Match`] is the whole state of a match; [`Match::apply`] takes a seat's
//! [`Action`] and either changes the state and reports [`Event`]s, or
//! refuses with a [`RuleError`] naming the broken rule and changes nothing.
//! [`view::GameView`] is what one seat (or a spectator) may know.

pub mod action;
pub mod card;
pub mod contract;
pub mod deck;
pub mod ending;
pub mod event;
pub mod game;
pub mod hand;
pub mod legal;
pub mod outcome;
pub mod phase;
pub mod position;
pub mod random;
pub mod refusal;
pub mod scoring;
pub mod seat;
pub mod trick;
pub mod variant;
pub mod view;

pub use action::{Action, EndedBy, Ending, Move};
pub use card::{Card, CardSet, Suit};
pub use contract::{Call, CallRecord, Trump, TrumpChoice};
pub use deck::Seed;
pub use event::Event;
pub use game::Match;
pub use hand::HandState;
pub use outcome::{HandResult, Winner};
pub use phase::Phase;
pub use refusal::RuleError;
pub use seat::{Seat, Side, Table};
pub use variant::{Doubling, FirstDealer, Rules, RulesError, ShuffleMode, Variant};
