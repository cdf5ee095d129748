//! Random legal play, for tests, benchmarks and bots: a cheap generator and
//! moves drawn uniformly from what the engine lists as legal.
//!
//! Every move goes through the public [`Match::apply`], which validates it;
//! the legal set is computed for the seat to act before each choice, as a
//! real player (or bot) would. Nothing here skips a rule check.

use rand::{Rng, TryRng};

use super::action::Action;
use super::card::{Card, CardSet, with_bit_instructions};
use super::contract::TrumpChoice;
use super::event::Event;
use super::game::Match;
use super::phase::Phase;

/// SplitMix64 (Steele, Lea and Flood), the generator of random play: one
/// word of state and a few instructions per number, so that a benchmark
/// measures the engine rather than its dice. Not for anything that must be
/// unpredictable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    #[inline]
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl TryRng for SplitMix64 {
    type Error = std::convert::Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.next() >> 32) as u32)
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.next())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            chunk.copy_from_slice(&self.next().to_le_bytes()[..chunk.len()]);
        }
        Ok(())
    }
}

/// A uniform index in `0..n` from one 64-bit random word (`n` > 0).
///
/// The high 32 bits are scaled by `n` (Lemire's method without the
/// rejection step): the bias is below `n / 2^32`, irrelevant for random play.
#[inline]
pub fn below<R: Rng>(rng: &mut R, n: u32) -> u32 {
    (((rng.next_u64() >> 32) * u64::from(n)) >> 32) as u32
}

/// A uniformly chosen card of the set (`None` when it is empty): the
/// [`below`] rank of the set's size, found with [`CardSet::nth`].
#[inline]
pub fn random_card<R: Rng>(set: CardSet, rng: &mut R) -> Option<Card> {
    set.nth(below(rng, set.len()))
}

/// Plays random legal actions until the match is over; returns the number
/// of hands completed.
pub fn play_random_match<R: Rng>(m: &mut Match, rng: &mut R, events: &mut Vec<Event>) -> u32 {
    // The whole loop is compiled for the bit instructions the legal sets
    // and the card picks use.
    with_bit_instructions(
        #[inline(always)]
        || {
            let start = m.results.len();
            while step(m, rng, events) {
                events.clear();
            }
            (m.results.len() - start) as u32
        },
    )
}

/// Makes one random legal action for the seat to act (nothing when the
/// match is over).
///
/// # Panics
/// When the match refuses an action its own rules listed as legal.
pub fn step_random<R: Rng>(m: &mut Match, rng: &mut R, events: &mut Vec<Event>) {
    step(m, rng, events);
}

/// [`step_random`]; `false` when the match was already over.
#[inline(always)]
fn step<R: Rng>(m: &mut Match, rng: &mut R, events: &mut Vec<Event>) -> bool {
    let table = m.table();
    // The same sets `Match::legal_actions` lists, without building a Vec.
    let (seat, action) = match (m.phase(), m.hand.as_ref()) {
        (Phase::MatchOver, _) => return false,
        // The seat to play is the hand's turn.
        (Phase::Playing, Some(h)) => {
            let legal = h.legal_cards(&m.rules, table);
            let card = random_card(legal, rng).expect("legal set is never empty");
            (h.turn, Action::Play { card })
        }
        (Phase::ChoosingTrump, Some(h)) => {
            let mut choices = [TrumpChoice::Delegate; 8];
            let mut n = 0;
            for choice in h.trump_choices(table) {
                choices[n] = choice;
                n += 1;
            }
            (
                h.turn,
                Action::Trump {
                    choice: choices[below(rng, n as u32) as usize],
                },
            )
        }
        (Phase::Doubling, Some(h)) => {
            let calls = h.double_calls();
            let call = calls[below(rng, calls.len() as u32) as usize];
            (h.turn, Action::Double { call })
        }
        // Dealing is the only action of its phase.
        (Phase::AwaitingDeal, _) => (m.dealer, Action::Deal),
        _ => {
            let seat = m.turn().expect("the match is not over");
            let actions = m.legal_actions(seat);
            (seat, actions[below(rng, actions.len() as u32) as usize])
        }
    };
    debug_assert_eq!(m.turn(), Some(seat));
    if let Err(e) = m.apply(seat, action, events) {
        panic!("a listed action was refused: {action:?}: {e}");
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn random_matches_end_and_every_hand_is_scored() {
        let mut rng = SplitMix64::new(9);
        let mut events = Vec::new();
        for n in 0..20u8 {
            let mut m = Match::new(Rules::default(), [n; 32]).unwrap();
            let hands = play_random_match(&mut m, &mut rng, &mut events);
            assert!(hands >= 1);
            assert_eq!(m.results.len(), hands as usize);
            assert!(
                m.results
                    .iter()
                    .all(|r| r.points.iter().map(|&p| u32::from(p)).sum::<u32>() == 72)
            );
        }
    }

    #[test]
    fn a_random_card_is_one_of_the_set_and_every_card_comes_up() {
        let mut rng = SplitMix64::new(1);
        let set = CardSet::FULL.of_suit(crate::rules::Suit::Copes);
        let mut seen = CardSet::EMPTY;
        for _ in 0..2000 {
            let c = random_card(set, &mut rng).unwrap();
            assert!(set.contains(c));
            seen.insert(c);
        }
        assert_eq!(seen, set);
        assert_eq!(random_card(CardSet::EMPTY, &mut rng), None);
    }
}
