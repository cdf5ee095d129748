//! A tiny deterministic generator for random play in tests, and the random
//! rule options the property tests range over.

use botifarra::rules::random::SplitMix64;
use botifarra::rules::{Doubling, FirstDealer, Rules, ShuffleMode, Variant};
use rand::Rng;

/// The library's SplitMix64, with the draws the tests use: enough
/// randomness for choosing moves, fully reproducible.
pub struct SplitMix(SplitMix64);

impl SplitMix {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(SplitMix64::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.next_u64().is_multiple_of(n)
    }

    /// A 256-bit seed.
    pub fn seed(&mut self) -> [u8; 32] {
        let mut s = [0u8; 32];
        for chunk in s.chunks_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        s
    }
}

/// A spread of rule options drawn from `bits`: every variant, and every
/// option the variant allows (forced and must_trump never together, forced
/// only in pairs), with `max_hands` from 1 to 3 and a target low enough
/// that some matches end by it.
pub fn rules_from(variant_pick: u8, bits: u32, max_hands: u32) -> Rules {
    let variant =
        [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3][variant_pick as usize % 3];
    let bit = |i: u32| bits >> i & 1 == 1;
    let forced = variant == Variant::Pairs && bit(0);
    let must_trump = !forced && bit(1);
    let seats = variant.table().seats;
    Rules {
        variant,
        target: if bit(2) { 101 } else { 20 + bits % 60 },
        max_hands: Some(max_hands),
        doubling: if bit(3) {
            Doubling::Linear
        } else {
            Doubling::Powers
        },
        sant_vicenc_with_botifarra: bit(4),
        forced,
        must_trump,
        shuffle: if bit(5) {
            ShuffleMode::StackAndCut
        } else {
            ShuffleMode::Full
        },
        first_dealer: if bit(6) {
            FirstDealer::Draw
        } else {
            FirstDealer::Seat((bits >> 8) as u8 % seats)
        },
    }
}

/// Makes a random listed action for the seat to act; returns the events.
pub fn random_step(
    m: &mut botifarra::rules::Match,
    rng: &mut SplitMix,
) -> Vec<botifarra::rules::Event> {
    let seat = m.turn().expect("the match is not over");
    let actions = m.legal_actions(seat);
    assert!(
        !actions.is_empty(),
        "seat {seat} to act has no legal action"
    );
    let action = actions[rng.below(actions.len())];
    super::act(m, seat, action)
}

/// Plays random listed actions until one more hand is scored (dealing it
/// first if needed).
pub fn finish_hand(m: &mut botifarra::rules::Match, rng: &mut SplitMix) {
    let n = m.results.len();
    while m.results.len() == n {
        random_step(m, rng);
    }
}
