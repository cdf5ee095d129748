//! Engine micro-benchmarks: legal-move generation and a whole random hand.
//!
//! `cargo bench --bench legal_moves -- --measurement-time 3 --warm-up-time 1`
//!
//! - `legal_cards/mid_trick`: [`legal_cards`] on positions collected from
//!   random play, each with a trick already led (the case with work to do),
//!   under each of the tests' `play_rule_sets` (defaults, forced, must-trump,
//!   abarrotada, abarrotada3 with must-trump).
//! - `legal_actions/mid_trick`: [`Match::legal_actions`] on whole matches
//!   stopped at such positions (what the service answers, a `Vec` included).
//! - `hand/random`: one complete hand through [`Match::apply`]: the deal,
//!   random trump and doubles, 48 random legal cards, the scoring (matches
//!   follow one another, as in `bench-engine`).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use botifarra::rules::legal::{PlayContext, legal_cards};
use botifarra::rules::random::step_random;
use botifarra::rules::{Match, Phase, Rules, Seed};

#[path = "../tests/rules/helpers/rule_sets.rs"]
mod rule_sets;
use rule_sets::play_rule_sets;

/// Positions to sample per rule set.
const PER_RULES: usize = 256;

fn seed(n: u64) -> Seed {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s[8] = 0xbe;
    s
}

/// Matches stopped where the seat to play faces a led trick, from random
/// play under each rule set.
fn mid_trick_matches() -> Vec<Match> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
    let mut events = Vec::new();
    let mut out = Vec::new();
    for (r, rules) in play_rule_sets().into_iter().enumerate() {
        let mut n = 0u64;
        let mut taken = 0;
        let mut seen = 0u64;
        while taken < PER_RULES {
            let mut m = Match::new(rules.clone(), seed(n + 1000 * r as u64)).expect("valid rules");
            n += 1;
            while m.phase() != Phase::MatchOver && taken < PER_RULES {
                step_random(&mut m, &mut rng, &mut events);
                events.clear();
                let led = m.hand.as_ref().is_some_and(|h| !h.trick.is_empty());
                if m.phase() == Phase::Playing && led {
                    seen += 1;
                    // One such position in five, to spread them over the hands.
                    if seen.is_multiple_of(5) {
                        out.push(m.clone());
                        taken += 1;
                    }
                }
            }
        }
    }
    out
}

fn contexts(matches: &[Match]) -> Vec<PlayContext> {
    matches
        .iter()
        .map(|m| {
            let h = m.hand.as_ref().expect("a hand in play");
            h.play_context(&m.rules, m.table())
        })
        .collect()
}

fn bench_legal(c: &mut Criterion) {
    let matches = mid_trick_matches();
    let ctxs = contexts(&matches);

    let mut g = c.benchmark_group("legal_cards");
    g.throughput(Throughput::Elements(ctxs.len() as u64));
    g.bench_function("mid_trick", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for ctx in black_box(&ctxs) {
                acc ^= legal_cards(ctx).0;
            }
            acc
        })
    });
    g.finish();

    let mut g = c.benchmark_group("legal_actions");
    g.throughput(Throughput::Elements(matches.len() as u64));
    g.bench_function("mid_trick", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for m in black_box(&matches) {
                let seat = m.turn().expect("a seat to play");
                n += m.legal_actions(seat).len();
            }
            n
        })
    });
    g.finish();
}

fn bench_hand(c: &mut Criterion) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut events = Vec::with_capacity(64);
    let mut n = 0u64;
    let mut m = Match::new(Rules::default(), seed(n)).expect("default rules are valid");
    let mut g = c.benchmark_group("hand");
    g.throughput(Throughput::Elements(1));
    g.bench_function("random", |b| {
        b.iter(|| {
            // Matches follow one another as in `bench-engine`: starting one
            // (the first dealer's draw) is part of the hands it holds.
            if m.phase() == Phase::MatchOver {
                n += 1;
                m = Match::new(Rules::default(), seed(n)).expect("default rules are valid");
            }
            // Deal, declare, double or not, 48 cards, score.
            let played = m.results.len();
            while m.results.len() == played {
                step_random(&mut m, &mut rng, &mut events);
                events.clear();
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench_legal, bench_hand);
criterion_main!(benches);
