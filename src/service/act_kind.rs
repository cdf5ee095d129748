//! What a seat may ask to do, as the service and its metrics name it.

use crate::rules::{Action, Move, Seat};

/// What a seat asks to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// A game action.
    Action(Action),
    /// Forfeit the hand for the caller's side.
    Resign,
}

impl Act {
    /// This act made by `seat`, as the engine's move log writes it.
    pub fn by(self, seat: Seat) -> Move {
        match self {
            Act::Action(a) => Move::Act(seat, a),
            Act::Resign => Move::Resign(seat),
        }
    }

    /// The name of this act's kind, as metrics label it.
    pub fn kind(self) -> &'static str {
        match self {
            Act::Action(Action::Deal) => "deal",
            Act::Action(Action::Trump { .. }) => "trump",
            Act::Action(Action::Double { .. }) => "double",
            Act::Action(Action::Play { .. }) => "play",
            Act::Resign => "resign",
        }
    }
}
