//! Fast random play of whole hands, for the engine benchmark and tests.

use std::time::{Duration, Instant};

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};

use crate::rules::{Action, Match, Phase, Rules};

/// Plays random legal actions until the match is over, or `max_actions`.
/// Returns the number of hands completed.
pub fn play_random_match<R: Rng>(m: &mut Match, rng: &mut R, events: &mut Vec<crate::rules::Event>) -> u32 {
    let start = m.results.len();
    while m.phase() != Phase::MatchOver {
        step_random(m, rng, events);
        events.clear();
    }
    (m.results.len() - start) as u32
}

/// Makes one random legal action for the seat to act.
pub fn step_random<R: Rng>(m: &mut Match, rng: &mut R, events: &mut Vec<crate::rules::Event>) {
    let Some(seat) = m.turn() else { return };
    let action = match (m.phase(), m.hand.as_ref()) {
        (Phase::Playing, Some(h)) => {
            let legal = h.legal_cards(&m.rules, m.table());
            let card = legal.nth(rng.random_range(0..legal.len())).expect("legal set is never empty");
            Action::Play { card }
        }
        _ => {
            let actions = m.legal_actions(seat);
            actions[rng.random_range(0..actions.len())]
        }
    };
    if let Err(e) = m.apply(seat, action, events) {
        panic!("a listed action was refused: {action:?}: {e}");
    }
}

/// Plays complete random hands on one thread for about `duration`; returns
/// (hands played, elapsed).
pub fn bench_hands(rules: &Rules, duration: Duration, seed: u64) -> (u64, Duration) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut events = Vec::with_capacity(64);
    let start = Instant::now();
    let mut hands = 0u64;
    let mut match_no = 0u64;
    while start.elapsed() < duration {
        // Batches keep the clock out of the inner loop.
        for _ in 0..64 {
            let mut seed_bytes = [0u8; 32];
            seed_bytes[..8].copy_from_slice(&match_no.to_le_bytes());
            seed_bytes[8..16].copy_from_slice(&seed.to_le_bytes());
            match_no += 1;
            let mut m = Match::new(rules.clone(), seed_bytes).expect("valid rules");
            hands += u64::from(play_random_match(&mut m, &mut rng, &mut events));
        }
    }
    (hands, start.elapsed())
}
