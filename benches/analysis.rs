//! The cost of a finished match's analysis (`GET …/analysis`): seeded
//! matches played to their end by `heuristic` house bots, each analysed as
//! the server does, with the server's default budget unless told.
//!
//! `cargo bench --bench analysis -- [matches] [variant] [nodes_per_card] [max_hands] [playouts_per_bid]`
//! (defaults: 5 pairs matches to 101, `Limits::default()`'s budget).
//! Prints per match its hands, cards, bidding decisions valued, unsolved
//! cards, solver nodes and time (CPU time of the thread, what it costs on
//! one core whatever else the machine runs, and wall time); then the
//! unsolved cards by trick, and mean, p95 and max CPU milliseconds a match
//! and a card.

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use botifarra::bots::{Bot, HeuristicBot};
use botifarra::rules::{Match, Phase, Rules, Variant};
use botifarra::service::Limits;
use botifarra::service::analysis::solve::{Budget, analyze};

/// Match `n` played to its end by [`HeuristicBot`]s.
fn played(rules: &Rules, n: u64) -> Match {
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&n.to_le_bytes());
    seed[8] = 0xa7;
    let mut m = Match::new(rules.clone(), seed).expect("valid rules");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(n);
    let mut events = Vec::new();
    while m.phase() != Phase::MatchOver {
        let seat = m.turn().expect("a seat to act");
        let action = HeuristicBot.choose(&m.view(Some(seat)), &mut rng);
        m.apply(seat, action, &mut events).expect("a legal action");
        events.clear();
    }
    m
}

/// CPU time of the calling thread, in milliseconds.
fn cpu_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the whole call.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}

fn stats(label: &str, mut xs: Vec<f64>) {
    xs.sort_by(f64::total_cmp);
    let mean = xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    let p95 = xs[((xs.len() as f64 * 0.95).ceil() as usize).clamp(1, xs.len()) - 1];
    let max = xs[xs.len() - 1];
    println!("{label}: mean {mean:.1} ms, p95 {p95:.1} ms, max {max:.1} ms");
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    let matches: u64 = arg(0).map_or(5, |a| a.parse().expect("matches"));
    let variant: Variant = arg(1).map_or(Variant::Pairs, |a| {
        serde_json::from_value(serde_json::json!(a)).expect("a variant")
    });
    let limits = Limits::default();
    let budget = Budget {
        nodes_per_card: arg(2).map_or(limits.analysis_nodes_per_card, |a| a.parse().unwrap()),
        nodes_per_match: limits.analysis_nodes_per_match,
        max_hands: arg(3).map_or(limits.analysis_hands, |a| a.parse().unwrap()),
        playouts_per_bid: arg(4).map_or(limits.analysis_playouts_per_bid, |a| a.parse().unwrap()),
    };
    let rules = Rules {
        variant,
        ..Rules::default()
    };
    println!(
        "{matches} {variant:?} matches to {}, {budget:?}",
        rules.target
    );
    let (mut per_match, mut per_card) = (Vec::new(), Vec::new());
    // Unsolved cards by the trick they were played to.
    let mut unsolved = [0usize; 12];
    for n in 0..matches {
        let game = played(&rules, n);
        let (start, cpu) = (Instant::now(), cpu_ms());
        let a = analyze(&game, budget, || {}).expect("the match replays");
        let ms = cpu_ms() - cpu;
        let wall = start.elapsed().as_secs_f64() * 1e3;
        let cards = a.cards().count();
        let bids: usize = a.hands.iter().map(|h| h.bids.len()).sum();
        println!(
            "match {n}: {} hands ({} analysed), {cards} cards, {bids} bids, {} unsolved, {} nodes, {ms:.0} ms CPU ({wall:.0} ms wall)",
            a.hands_played,
            a.hands.len(),
            a.unsolved(),
            a.nodes
        );
        for c in a.unsolved_cards() {
            unsolved[usize::from(c.trick).clamp(1, 12) - 1] += 1;
        }
        per_match.push(ms);
        per_card.push(ms / cards.max(1) as f64);
    }
    println!("unsolved cards by trick (1 to 12): {unsolved:?}");
    stats("per match", per_match);
    stats("per card", per_card);
}
