//! What a seat may ask to do, as the service and its metrics name it.

use crate::rules::{Action, Ending, Move, Seat};

/// What a seat asks to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// A game action.
    Action(Action),
    /// Forfeit the hand for the caller's side.
    Resign,
    /// End the match early: resign it, abort it, or claim victory
    /// (docs/api.md, "Ending a match early").
    End(Ending),
}

impl Act {
    /// This act made by `seat`, as the engine's move log writes it.
    pub fn by(self, seat: Seat) -> Move {
        match self {
            Act::Action(a) => Move::Act(seat, a),
            Act::Resign => Move::Resign(seat),
            Act::End(e) => Move::End(seat, e),
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
            Act::End(Ending::Resigned) => "resign_match",
            Act::End(Ending::Aborted) => "abort",
            Act::End(Ending::Abandoned) => "abandon",
            Act::End(Ending::Claimed { .. }) => "claim",
        }
    }
}
