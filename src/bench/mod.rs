//! The engine benchmark of the `bench-engine` command, and the bare
//! bit-mask loop it is compared with. Part of the binary only: the library
//! (and so the server's code) does not carry it.
//!
//! The engine's side plays whole random matches through the library's
//! [`random`] play, every action validated by [`Match::apply`]. The
//! baseline plays the same kind of hands with its own minimal copy of the
//! play rules (follow suit, beat an opponent) on bare masks: the measure of
//! what the engine's bookkeeping costs.

pub mod solve;

use std::io::Write;
use std::time::{Duration, Instant};

use botifarra::rules::card::with_bit_instructions;
use botifarra::rules::deck::{self, HandRng};
use botifarra::rules::legal::beating;
use botifarra::rules::random::{self, SplitMix64, below, random_card};
use botifarra::rules::{CardSet, Match, Rules, Seed, Suit, Variant};

/// The deal seed of match `match_no` of a run seeded with `seed`.
fn match_seed(seed: u64, match_no: u64) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&match_no.to_le_bytes());
    bytes[8..16].copy_from_slice(&seed.to_le_bytes());
    bytes
}

/// What [`bench_engine`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchReport {
    /// Complete hands played (dealt, declared, doubled or not, 48 cards, scored).
    pub hands: u64,
    /// Wall-clock time spent playing them.
    pub seconds: f64,
    /// `hands / seconds`.
    pub hands_per_second: f64,
}

/// The engine benchmark: plays complete random matches under the default
/// rules on the calling thread for about `seconds`, printing progress to
/// stderr once a second.
///
/// Each hand is dealt from the match's ChaCha20 generator, trump and doubles
/// are random legal actions, each of the 48 cards is drawn from the legal set
/// of the seat to play, every action goes through [`Match::apply`] (which
/// validates it), and every hand is scored.
pub fn bench_engine(seconds: f64) -> BenchReport {
    let rules = Rules::default();
    let mut rng = SplitMix64::new(0x0b07_1fa7);
    let mut events = Vec::with_capacity(64);
    let mut match_no = 0u64;
    timed("bench-engine", seconds, || {
        // A batch of matches (some 60 hands) between looks at the clock.
        let mut hands = 0;
        for _ in 0..16 {
            let mut m = Match::new(rules.clone(), match_seed(1, match_no))
                .expect("default rules are valid");
            match_no += 1;
            hands += u64::from(random::play_random_match(&mut m, &mut rng, &mut events));
        }
        hands
    })
}

/// The reference the engine benchmark is compared with: the same hands
/// played with bare bit masks and no game state machine, for about
/// `seconds` on the calling thread.
///
/// A hand is dealt as the engine deals it (ChaCha20 keyed by a seed with
/// the hand number as stream, Fisher–Yates, cut, 4 cards at a time), a
/// random trump suit or botifarra is taken, and 12 tricks are played in
/// which each card is drawn from the legal set of the default rules (follow
/// suit; when an opponent is winning, beat if possible, trumping when void),
/// the winner is found and the points counted. Nothing else: no match or
/// hand state, no turn or phase checks, no validation of the card, no
/// doubling, no record, no events, no scoring into match points.
pub fn bench_baseline(seconds: f64) -> BenchReport {
    let mut rng = SplitMix64::new(0x0b07_1fa7);
    let seed = match_seed(2, 0);
    let mut number = 0u32;
    let mut checksum = 0u64;
    let report = timed("bench-baseline", seconds, || {
        for _ in 0..64 {
            number = number.wrapping_add(1);
            checksum = checksum.wrapping_add(u64::from(bare_hand(&seed, number, &mut rng)[0]));
        }
        64
    });
    // Keeps the hands from being optimised away.
    std::hint::black_box(checksum);
    report
}

/// One hand of [`bench_baseline`]; returns the points of each team.
fn bare_hand(seed: &Seed, number: u32, rng: &mut SplitMix64) -> [u32; 2] {
    // Compiled for the bit instructions, as the engine's random play is.
    with_bit_instructions(
        #[inline(always)]
        || bare_hand_masks(seed, number, rng),
    )
}

#[inline(always)]
fn bare_hand_masks(seed: &Seed, number: u32, rng: &mut SplitMix64) -> [u32; 2] {
    let table = Variant::Pairs.table();
    let dealer = (number % 4) as usize;
    let mut deal_rng = HandRng::new(seed, number);
    let (cards, n) = deck::shuffled_array(CardSet::FULL, &mut deal_rng);
    let mut hands = deck::deal(&cards[..n], dealer as u8, table).map(|h| h.0);
    // A suit, or none (botifarra).
    let trump = Suit::ALL.get(below(rng, 5) as usize).copied();
    let mut leader = (dealer + 1) & 3;
    let mut points = [0u32; 2];
    for _ in 0..12 {
        let mut led = 0u64;
        // The cards that would beat the winning card.
        let mut beat = !0u64;
        let mut winner = leader;
        let mut won = 1u32;
        for k in 0..4 {
            let seat = (leader + k) & 3;
            let hand = hands[seat];
            let follow = hand & led;
            let mut legal = if follow == 0 { hand } else { follow };
            if !table.partners(seat as u8, winner as u8) && legal & beat != 0 {
                legal &= beat;
            }
            let card = random_card(CardSet(legal), rng).expect("a card is held");
            hands[seat] &= !card.bit().0;
            won += u32::from(card.points());
            if k == 0 {
                led = card.suit_mask().0;
            }
            if beat & card.bit().0 != 0 {
                winner = seat;
                beat = beating(card, trump).0;
            }
        }
        points[winner & 1] += won;
        leader = winner;
    }
    points
}

/// Runs `batch` (which returns the hands it played) until about `seconds`
/// have passed, printing progress to stderr once a second under `label`.
fn timed(label: &str, seconds: f64, mut batch: impl FnMut() -> u64) -> BenchReport {
    let duration = Duration::from_secs_f64(seconds.max(0.0));
    let start = Instant::now();
    let mut next_report = start + Duration::from_secs(1);
    let mut hands = 0u64;
    loop {
        let now = Instant::now();
        let elapsed = now - start;
        if elapsed >= duration {
            let secs = elapsed.as_secs_f64();
            let hands_per_second = if secs > 0.0 { hands as f64 / secs } else { 0.0 };
            return BenchReport {
                hands,
                seconds: secs,
                hands_per_second,
            };
        }
        if now >= next_report {
            let secs = elapsed.as_secs_f64();
            let _ = writeln!(
                std::io::stderr(),
                "{label}: {hands} hands in {secs:.1} s ({:.0} hands/s)",
                hands as f64 / secs
            );
            next_report += Duration::from_secs(1);
        }
        hands += batch();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The baseline plays real hands: every card once, 72 points.
    #[test]
    fn baseline_hands_play_every_card_and_total_72() {
        let mut rng = SplitMix64::new(5);
        let seed = match_seed(5, 0);
        let mut number = 0;
        let mut wins = [0; 2];
        for _ in 0..2000 {
            number += 1;
            let mut same = rng.clone();
            let points = bare_hand(&seed, number, &mut rng);
            assert_eq!(bare_hand_masks(&seed, number, &mut same), points);
            assert_eq!(points[0] + points[1], 72, "{points:?}");
            wins[usize::from(points[1] > points[0])] += 1;
        }
        assert!(wins[0] > 500 && wins[1] > 500, "{wins:?}");
        let r = bench_baseline(0.05);
        assert!(r.hands > 0 && r.seconds >= 0.05);
    }

    #[test]
    fn bench_engine_reports_hands_played() {
        let r = bench_engine(0.05);
        assert!(r.hands > 0 && r.seconds >= 0.05);
        assert!((r.hands_per_second - r.hands as f64 / r.seconds).abs() < 1e-6);
    }
}
