//! Ending a match early, as the service allows it (docs/api.md, "Ending a
//! match early" and "Time and clocks"): when an abort or a claim of victory is
//! allowed, when a silent seat abandons, and the missed moves that decide
//! both.
//!
//! A **missed move** is a move the seat's house bot made for it because
//! its move clock ran out. Each seat counts its missed moves in a row: one
//! more per missed move, back to zero when the seat's client makes a move
//! (a deal aside: deals may be automatic). The counts are a function of
//! the moves and who made them (the compact log keeps the stand-in moves
//! apart), so a replay gives them back.

use super::compact::Actor;
use super::record::{MatchRecord, SeatKind};
use super::{Error, Limits};
use crate::rules::{Action, Ending, Move, Seat};

/// Whether no seat has missed a move (the stored record leaves the counts
/// out then).
pub fn none_missed(missed: &[u8; 4]) -> bool {
    missed.iter().all(|&m| m == 0)
}

impl MatchRecord {
    /// Counts `mv`, made by `actor`, in the seat's missed moves.
    pub fn note(&mut self, mv: Move, actor: Actor) {
        let (seat, deal) = match mv {
            Move::Act(seat, action) => (seat, action == Action::Deal),
            Move::Resign(seat) => (seat, false),
            // The match is over: the counts stay as they ended it.
            Move::End(..) => return,
        };
        let Some(count) = self.missed.get_mut(usize::from(seat)) else {
            return;
        };
        match actor {
            Actor::Timeout => *count = count.saturating_add(1),
            Actor::Client if !deal => *count = 0,
            Actor::Client | Actor::House => {}
        }
    }

    /// The client seat of a rated match that has missed `after` moves in a
    /// row (0: never), if any: its side has abandoned the match.
    pub fn abandoned(&self, after: u8) -> Option<Seat> {
        if after == 0 || self.rated.is_none() {
            return None;
        }
        (0..self.seats.len()).find_map(|s| {
            (self.seats[s].kind == SeatKind::Remote && self.missed[s] >= after).then_some(s as Seat)
        })
    }
}

/// Whether `seat` may end `rec` by `ending` now.
///
/// # Errors
/// [`Error::AbortTooLate`] for an abort after a hand was played to its
/// last trick; [`Error::ClaimTooEarly`] for a claim against a seat that is
/// not a client opponent with [`Limits::claim_after_missed`] missed moves
/// in a row; [`Error::Forbidden`] for an abandonment (the server's alone).
pub fn allowed(
    rec: &MatchRecord,
    seat: Seat,
    ending: Ending,
    limits: &Limits,
) -> Result<(), Error> {
    match ending {
        Ending::Resigned => Ok(()),
        Ending::Aborted if rec.game.played_enough() => Err(Error::AbortTooLate(
            "a hand was played to its last trick: the match can no longer be aborted; resign it instead"
                .into(),
        )),
        Ending::Aborted => Ok(()),
        Ending::Abandoned => Err(Error::Forbidden(
            "only the server ends a match by abandonment".into(),
        )),
        Ending::Claimed { against } => {
            let table = rec.game.table();
            let opponent = against < table.seats && table.side(against) != table.side(seat);
            let remote = rec
                .seats
                .get(usize::from(against))
                .is_some_and(|s| s.kind == SeatKind::Remote);
            let missed = rec.missed.get(usize::from(against)).copied().unwrap_or(0);
            let need = limits.claim_after_missed.max(1);
            if opponent && remote && missed >= need {
                return Ok(());
            }
            Err(Error::ClaimTooEarly(format!(
                "seat {against} must be an opponent's client seat that missed {need} moves in a row on its move clock; it missed {missed}"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Match, Rules};

    /// A pairs match: client seats 0 and 1, house bots at 2 and 3.
    fn record(rated: bool) -> MatchRecord {
        let game = Match::new(Rules::default(), [3; 32]).unwrap();
        let (remote, bot) = (SeatKind::Remote, SeatKind::Bot);
        MatchRecord::sample(game, &[remote, remote, bot, bot], rated)
    }

    const PASS: Action = Action::Double {
        call: crate::rules::Call::Pass,
    };

    #[test]
    fn missed_moves_count_in_a_row_and_a_client_move_resets_them() {
        let mut rec = record(true);
        rec.note(Move::Act(1, PASS), Actor::Timeout);
        rec.note(Move::Act(1, PASS), Actor::Timeout);
        // A house bot's own move and a deal change nothing.
        rec.note(Move::Act(1, PASS), Actor::House);
        rec.note(Move::Act(1, Action::Deal), Actor::Client);
        assert_eq!(rec.missed, [0, 2, 0, 0]);
        assert_eq!(rec.abandoned(3), None);
        rec.note(Move::Act(1, PASS), Actor::Timeout);
        assert_eq!(rec.abandoned(3), Some(1));
        assert_eq!(rec.abandoned(0), None, "0: never");
        assert_eq!(record(false).abandoned(3), None);
        // The ending leaves the counts; the seat's own move resets them.
        rec.note(Move::End(1, Ending::Abandoned), Actor::Client);
        assert_eq!(rec.missed[1], 3);
        rec.note(Move::Act(1, PASS), Actor::Client);
        assert_eq!(rec.missed, [0; 4]);
        assert!(none_missed(&rec.missed));
    }

    #[test]
    fn a_claim_needs_an_absent_client_opponent_and_an_abort_no_full_hand() {
        let limits = Limits::default();
        let mut rec = record(true);
        let claim = |against| Ending::Claimed { against };
        rec.missed = [0, 1, 0, 9];
        for (against, why) in [
            (1, "one miss"),
            (2, "a partner"),
            (3, "a bot"),
            (7, "no seat"),
        ] {
            let refused = allowed(&rec, 0, claim(against), &limits);
            assert!(matches!(refused, Err(Error::ClaimTooEarly(_))), "{why}");
        }
        rec.missed[1] = 2;
        assert!(allowed(&rec, 0, claim(1), &limits).is_ok());
        assert!(
            allowed(&rec, 2, claim(1), &limits).is_ok(),
            "a bot's partner may"
        );
        assert!(allowed(&rec, 0, Ending::Aborted, &limits).is_ok());
        assert!(allowed(&rec, 0, Ending::Resigned, &limits).is_ok());
        let abandon = allowed(&rec, 0, Ending::Abandoned, &limits);
        assert!(matches!(abandon, Err(Error::Forbidden(_))));
    }
}
