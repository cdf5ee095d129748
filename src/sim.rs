//! Fast random play of whole hands, for the engine benchmark and tests.
//!
//! Every move goes through the public [`Match::apply`], which validates it;
//! the legal set is computed for the seat to act before each choice, as a
//! real player (or bot) would. Nothing here skips a rule check.

use std::io::Write;
use std::time::{Duration, Instant};

use rand::{Rng, TryRng};

use crate::rules::deck::{self, HandRng};
use crate::rules::legal::beating;
use crate::rules::{
    Action, Card, CardSet, Event, Match, Phase, Rules, Seed, Suit, TrumpChoice, Variant,
};

/// SplitMix64 (Steele, Lea and Flood), the generator of the random choices
/// here: one word of state and a few instructions per number, so that the
/// benchmark measures the engine rather than its dice. Not for anything that
/// must be unpredictable.
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
pub(crate) fn below<R: Rng>(rng: &mut R, n: u32) -> u32 {
    (((rng.next_u64() >> 32) * u64::from(n)) >> 32) as u32
}

/// A uniformly chosen card of the set (`None` when it is empty).
#[inline]
pub fn random_card<R: Rng>(set: CardSet, rng: &mut R) -> Option<Card> {
    let r = rng.next_u64();
    #[cfg(target_arch = "x86_64")]
    if has_pdep() {
        // SAFETY: the CPU has BMI2 and POPCNT, checked just above.
        return unsafe { pick_pdep(set, r) };
    }
    pick_card::<false>(set, r)
}

/// Whether this CPU counts and deposits bits in hardware (x86-64 BMI2 and
/// POPCNT): a random card is then picked in a few instructions.
#[inline]
fn has_pdep() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`pick_card`] compiled for BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
fn pick_pdep(set: CardSet, r: u64) -> Option<Card> {
    pick_card::<true>(set, r)
}

/// The card of `set` that the random word `r` picks, uniformly: its high
/// half scaled to the set's size gives the rank of the card in the set.
/// `PDEP` finds that card with the bit-deposit instruction; it may be true
/// only inside a function compiled for BMI2 and POPCNT.
#[inline(always)]
fn pick_card<const PDEP: bool>(set: CardSet, r: u64) -> Option<Card> {
    let n = ((r >> 32) * u64::from(set.0.count_ones())) >> 32;
    #[cfg(target_arch = "x86_64")]
    if PDEP {
        // SAFETY: `PDEP` is only set in code compiled for BMI2 (see above),
        // which runs only after `has_pdep`.
        let bit = unsafe { std::arch::x86_64::_pdep_u64(1 << n, set.0) };
        return Card::from_index(bit.trailing_zeros() as u8);
    }
    set.nth(n as u32)
}

/// Plays random legal actions until the match is over.
/// Returns the number of hands completed.
pub fn play_random_match<R: Rng>(m: &mut Match, rng: &mut R, events: &mut Vec<Event>) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if has_pdep() {
        // SAFETY: the CPU has BMI2 and POPCNT, checked just above.
        return unsafe { play_match_pdep(m, rng, events) };
    }
    play_match::<R, false>(m, rng, events)
}

/// [`play_random_match`] compiled for BMI2 and POPCNT (the engine's own
/// functions that it calls, [`Match::apply`]'s validation included, are
/// not: only what is inlined here, the picking and the checks in front).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
fn play_match_pdep<R: Rng>(m: &mut Match, rng: &mut R, events: &mut Vec<Event>) -> u32 {
    play_match::<R, true>(m, rng, events)
}

#[inline(always)]
fn play_match<R: Rng, const PDEP: bool>(
    m: &mut Match,
    rng: &mut R,
    events: &mut Vec<Event>,
) -> u32 {
    let start = m.results.len();
    while step::<R, PDEP>(m, rng, events) {
        events.clear();
    }
    (m.results.len() - start) as u32
}

/// Makes one random legal action for the seat to act.
///
/// # Panics
/// When the match refuses an action its own rules listed as legal.
pub fn step_random<R: Rng>(m: &mut Match, rng: &mut R, events: &mut Vec<Event>) {
    #[cfg(target_arch = "x86_64")]
    if has_pdep() {
        // SAFETY: the CPU has BMI2 and POPCNT, checked just above.
        unsafe { step_pdep(m, rng, events) };
        return;
    }
    step::<R, false>(m, rng, events);
}

/// [`step_random`] compiled for BMI2 and POPCNT, like [`play_match_pdep`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
fn step_pdep<R: Rng>(m: &mut Match, rng: &mut R, events: &mut Vec<Event>) {
    step::<R, true>(m, rng, events);
}

/// [`step_random`]; `false` when the match was already over. `PDEP` as in
/// [`pick_card`].
#[inline(always)]
fn step<R: Rng, const PDEP: bool>(m: &mut Match, rng: &mut R, events: &mut Vec<Event>) -> bool {
    let table = m.table();
    // The same sets `Match::legal_actions` lists, without building a Vec.
    let (seat, action) = match (m.phase(), m.hand.as_ref()) {
        (Phase::MatchOver, _) => return false,
        // The seat to play is the hand's turn.
        (Phase::Playing, Some(h)) => {
            let legal = h.legal_cards(&m.rules, table);
            let card = pick_card::<PDEP>(legal, rng.next_u64()).expect("legal set is never empty");
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

/// One rule set for each option that changes which cards are legal: the
/// defaults, forced mode, must-trump, abarrotada, and abarrotada for three
/// with must-trump. Benchmarks and tests of the legal-move code sample
/// positions under each.
pub fn play_rule_sets() -> Vec<Rules> {
    vec![
        Rules::default(),
        Rules {
            forced: true,
            ..Rules::default()
        },
        Rules {
            must_trump: true,
            ..Rules::default()
        },
        Rules {
            variant: Variant::Abarrotada,
            ..Rules::default()
        },
        Rules {
            variant: Variant::Abarrotada3,
            must_trump: true,
            ..Rules::default()
        },
    ]
}

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
            hands += u64::from(play_random_match(&mut m, &mut rng, &mut events));
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
    #[cfg(target_arch = "x86_64")]
    if has_pdep() {
        // SAFETY: the CPU has BMI2 and POPCNT, checked just above.
        return unsafe { bare_hand_pdep(seed, number, rng) };
    }
    bare_hand_with::<false>(seed, number, rng)
}

/// [`bare_hand`] compiled for BMI2 and POPCNT, as the engine's random play is.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
fn bare_hand_pdep(seed: &Seed, number: u32, rng: &mut SplitMix64) -> [u32; 2] {
    bare_hand_with::<true>(seed, number, rng)
}

#[inline(always)]
fn bare_hand_with<const PDEP: bool>(seed: &Seed, number: u32, rng: &mut SplitMix64) -> [u32; 2] {
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
            let card = pick_card::<PDEP>(CardSet(legal), rng.next_u64()).expect("a card is held");
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

    #[test]
    fn random_matches_end_and_every_hand_is_scored() {
        let mut rng = SplitMix64::new(9);
        let mut events = Vec::new();
        for n in 0..20 {
            let mut m = Match::new(Rules::default(), match_seed(3, n)).unwrap();
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

    /// The engine's own legal set (read straight from the hand) is the one
    /// the public `legal_cards` computes from the play context, under every
    /// option that changes the play rules; and the fast and the portable
    /// random pick agree.
    #[test]
    fn the_hands_legal_set_is_the_play_contexts_under_every_rule_set() {
        use crate::rules::legal::legal_cards;
        let rule_sets = play_rule_sets();
        let mut rng = SplitMix64::new(11);
        let mut events = Vec::new();
        let mut checked = 0;
        for (r, rules) in rule_sets.iter().enumerate() {
            for n in 0..40 {
                let mut m = Match::new(rules.clone(), match_seed(r as u64, n)).unwrap();
                while m.phase() != Phase::MatchOver {
                    if let (Phase::Playing, Some(h)) = (m.phase(), m.hand.as_ref()) {
                        let table = m.table();
                        let legal = h.legal_cards(&m.rules, table);
                        assert_eq!(legal, legal_cards(&h.play_context(&m.rules, table)));
                        assert!(!legal.is_empty());
                        let mut same = rng.clone();
                        let portable = pick_card::<false>(legal, rng.next_u64());
                        assert_eq!(random_card(legal, &mut same), portable);
                        assert!(portable.is_some_and(|c| legal.contains(c)));
                        checked += 1;
                    }
                    step_random(&mut m, &mut rng, &mut events);
                    events.clear();
                }
            }
        }
        assert!(checked > 10_000, "only {checked} positions checked");
    }

    /// The baseline plays real hands: every card once, 72 points, and the
    /// portable and the fast card pick agree.
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
            assert_eq!(bare_hand_with::<false>(&seed, number, &mut same), points);
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
