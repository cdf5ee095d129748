//! Ending a match before its target (docs/rules.md, "Ending a match
//! early"): a seat resigns the match, aborts it, abandons it (missed moves
//! on the clock) or claims victory over an absent opponent.
//!
//! The rules engine only applies the ending; when each is allowed (the
//! minimum of play of an abort, the missed moves of an abandonment or a
//! claim) is the service's to decide, from the match and its clocks.
//!
//! - **Resigned / abandoned / claimed**: the losing seat is the resigner,
//!   the absent seat, or the seat claimed against. In `pairs` its side
//!   loses and the other side wins. In `abarrotada` and `abarrotada3` the
//!   losing seat comes last: the winner is the highest total among the
//!   other seats (a draw when they tie), and for ratings the loser lost to
//!   every other seat.
//! - **Aborted**: the match ends with no winner (`winner` stays null).
//!
//! The hand in progress, if any, stays as it stood, unscored.

use super::action::{EndedBy, Ending};
use super::event::Event;
use super::game::Match;
use super::outcome::Winner;
use super::phase::Phase;
use super::refusal::RuleError;
use super::scoring::winner_of;
use super::seat::Seat;

impl Match {
    /// `seat` ends the match early, `ending` says how.
    ///
    /// # Errors
    /// [`RuleError::WrongPhase`] when the match is over;
    /// [`RuleError::NotYourTurn`] never. A claim against a seat of the
    /// claimer's own side, or a seat not at the table, is refused as
    /// [`RuleError::WrongPhase`] too (the service checks it first).
    pub fn end(
        &mut self,
        seat: Seat,
        ending: Ending,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let phase = self.phase();
        let table = self.table();
        let bad_claim = matches!(ending, Ending::Claimed { against }
            if against >= table.seats || table.side(against) == table.side(seat));
        if phase == Phase::MatchOver || seat >= table.seats || bad_claim {
            return Err(RuleError::WrongPhase {
                phase,
                expected: Phase::Playing,
            });
        }
        self.ended_by = Some(EndedBy { seat, ending });
        events.push(Event::MatchEnded { seat, ending });
        let Some(loser) = ending.loser(seat) else {
            return Ok(());
        };
        let sides = table.sides() as usize;
        let lost = table.side(loser) as usize;
        let winner = if table.pairs {
            Winner::Side((1 - lost) as u8)
        } else {
            let mut others = self.scores[..sides].to_vec();
            others[lost] = i32::MIN;
            winner_of(&others)
        };
        self.winner = Some(winner);
        events.push(Event::MatchOver {
            winner,
            scores: Box::new(self.scores[..sides].to_vec()),
        });
        Ok(())
    }

    /// Whether the match saw the minimum of play that rates it (and past
    /// which it can no longer be aborted): a hand played to its last trick.
    pub fn played_enough(&self) -> bool {
        self.results.iter().any(|r| r.forfeit.is_none())
    }

    /// The seat whose side lost the match by an early ending, if any.
    pub fn early_loser(&self) -> Option<Seat> {
        self.ended_by.and_then(|e| e.ending.loser(e.seat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Action;
    use crate::rules::variant::{Rules, Variant};

    fn started(variant: Variant) -> Match {
        let rules = Rules {
            variant,
            ..Rules::default()
        };
        let mut m = Match::new(rules, [7; 32]).unwrap();
        let dealer = m.dealer;
        m.apply(dealer, Action::Deal, &mut Vec::new()).unwrap();
        m
    }

    #[test]
    fn a_resigned_pairs_match_is_won_by_the_other_side_at_once() {
        let mut m = started(Variant::Pairs);
        let mut events = Vec::new();
        m.end(1, Ending::Resigned, &mut events).unwrap();
        assert_eq!(m.phase(), Phase::MatchOver);
        assert_eq!(m.winner, Some(Winner::Side(0)));
        assert_eq!(m.turn(), None);
        assert_eq!(m.early_loser(), Some(1));
        assert!(matches!(events[0], Event::MatchEnded { seat: 1, .. }));
        assert!(matches!(events[1], Event::MatchOver { .. }));
        // Over: nothing more applies, not even another ending.
        assert!(m.end(0, Ending::Resigned, &mut events).is_err());
        // The moves replay to the same match.
        let again = Match::replay(m.rules.clone(), m.seed, &m.moves()).unwrap();
        assert_eq!(again, m);
    }

    #[test]
    fn an_aborted_match_is_over_with_no_winner() {
        let mut m = started(Variant::Pairs);
        let mut events = Vec::new();
        m.end(2, Ending::Aborted, &mut events).unwrap();
        assert_eq!(m.phase(), Phase::MatchOver);
        assert_eq!(m.winner, None);
        assert_eq!(m.early_loser(), None);
        assert_eq!(events.len(), 1);
        let again = Match::replay(m.rules.clone(), m.seed, &m.moves()).unwrap();
        assert_eq!(again, m);
    }

    #[test]
    fn a_claim_names_an_opponent_and_makes_it_lose() {
        let mut m = started(Variant::Pairs);
        let mut events = Vec::new();
        let own_side = Ending::Claimed { against: 2 };
        assert!(m.end(0, own_side, &mut events).is_err());
        assert!(
            m.end(0, Ending::Claimed { against: 9 }, &mut events)
                .is_err()
        );
        assert!(events.is_empty());
        m.end(0, Ending::Claimed { against: 3 }, &mut events)
            .unwrap();
        assert_eq!(m.winner, Some(Winner::Side(0)));
        assert_eq!(m.early_loser(), Some(3));
    }

    #[test]
    fn in_the_individual_game_the_loser_comes_last() {
        let mut m = started(Variant::Abarrotada);
        m.scores = [5, 9, 2, 0];
        m.end(1, Ending::Abandoned, &mut Vec::new()).unwrap();
        assert_eq!(m.winner, Some(Winner::Side(0)));
        let mut tie = started(Variant::Abarrotada3);
        tie.scores = [4, 4, 1, 0];
        tie.end(2, Ending::Resigned, &mut Vec::new()).unwrap();
        assert_eq!(tie.winner, Some(Winner::Draw));
    }
}
