//! Doubles valued by sampling and solving (the pairs game).
//!
//! Each candidate double (pass, contro, recontro, Sant Vicenç: every legal
//! action of the doubling phase) is tried on the same sampled deals, the
//! others finishing the bidding as the Monte Carlo player's bid search
//! expects ([`super::bid_search::finish_bidding`]). The card play that
//! follows does not depend on the candidate: in the pairs game a side
//! records `multiplier × (p − 36)` less what the other records, whatever
//! `p`, its hand points, so each deal's `p` is estimated once and weighed
//! by every candidate's multiplier.
//!
//! `p` comes from one zero-window search of the whole-deal solver
//! ([`crate::bots::dds`]) at a random threshold `T` in `1..=72`: whether
//! the side takes at least `T` points with best play. For `T` uniform,
//! `72 × [p ≥ T]` is an unbiased estimate of `p` (the mean of `[p ≥ t]`
//! over every `t` is `p / 72`), and a search at a threshold far from the
//! value is cheap: most of them settle in a few thousand positions where
//! the exact value of a whole deal takes millions. The thresholds are
//! stratified over the deals (each deal takes a different slice of
//! `1..=72`, in a random order), which removes most of their noise when
//! the deals' values are alike. A search that runs past its share of the
//! budget is answered by a playout of the deal instead (the Monte Carlo
//! player's rollout) against the same threshold. The first cards of the
//! hand (`played`: the defenders' opening lead, or the first trick) are
//! the rollout's before the solver searches: seeing every hand, the
//! side on lead always finds its best lead, which overrates the
//! defenders' hands. Each decision starts
//! from an empty table, so that its searches (and which of them finish
//! within the budget) depend on its view and draws alone.

use std::time::{Duration, Instant};

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use super::MonteCarloBot;
use super::bid_search::{Setup, candidates, finish_bidding};
use crate::bots::dds::{forget_here, reaches_here};
use crate::bots::knowledge::Knowledge;
use crate::bots::playout::{play_one, rollout};
use crate::rules::view::GameView;
use crate::rules::{Action, HandState, Phase, Rules, Seat, Trump, Variant};

/// The budget of a solved double.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolvedDoubles {
    /// Most sampled deals per decision.
    pub deals: u32,
    /// Most solver positions per decision, over all its deals; one deal's
    /// search may take at most an eighth of them.
    pub nodes: u64,
    /// Wall-clock limit per decision, in milliseconds (a safety cap: the
    /// counts decide in normal running).
    pub max_ms: u64,
    /// Cards from the start of the hand (4: the first trick) played by
    /// the Monte Carlo player's rollout (each seat seeing its own hand
    /// only) before the solver searches:
    /// with every hand known, the defenders' opening lead would always be
    /// the best one.
    pub played: u8,
}

/// What a solved double found.
#[derive(Clone, Debug, PartialEq)]
pub struct SolvedDouble {
    /// Every candidate with its estimated value: the weighed mean over the
    /// deals of what the seat's side records less what the other records.
    pub values: Vec<(Action, f64)>,
    /// The candidate with the highest value (ties to the first).
    pub action: Action,
    /// Deals sampled.
    pub deals: u32,
    /// Of them, the deals whose search finished (the rest played out).
    pub solved: u32,
    /// Solver positions visited.
    pub nodes: u64,
}

/// The double of `view` valued by sampling and solving within `budget`;
/// `None` outside the pairs game's doubling phase, with fewer than two
/// candidates, or when the position cannot be rebuilt.
pub fn choose_double_solved(
    view: &GameView,
    bot: &MonteCarloBot,
    budget: SolvedDoubles,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<SolvedDouble> {
    let rules = &view.rules;
    if view.phase != Phase::Doubling || rules.variant != Variant::Pairs {
        return None;
    }
    let candidates = candidates(view);
    if candidates.len() < 2 {
        return None;
    }
    let start = Instant::now();
    let limit = Duration::from_millis(budget.max_ms);
    let setup = Setup::new(view, bot)?;
    let seat = setup.k.seat;
    let even = rules.variant.threshold() as i32;
    let total = 2 * even;
    let n = budget.deals.max(1);
    let mut strata: Vec<u32> = (0..n).collect();
    strata.shuffle(rng);
    let per_deal = (budget.nodes / 8).max(1);
    let mut sums = vec![0.0f64; candidates.len()];
    let (mut weight, mut deals, mut solved, mut nodes) = (0.0, 0u32, 0u32, 0u64);
    let mut multipliers = vec![0u32; candidates.len()];
    // Each decision from an empty table: the same draws, the same answer.
    forget_here();
    for &stratum in &strata {
        if nodes >= budget.nodes || (deals > 0 && start.elapsed() >= limit) {
            break;
        }
        let (m, w) = setup.deal(rng);
        let mut hand = None;
        for (i, &a) in candidates.iter().enumerate() {
            let mut trial = m.clone();
            finish_bidding(&mut trial, seat, a, setup.answers(), rng)?;
            multipliers[i] = trial.multiplier();
            if hand.is_none() {
                hand = trial.hand.take();
            }
        }
        let need = threshold(stratum, n, rng.random(), total);
        let cap = per_deal.min(budget.nodes - nodes).max(1);
        let (reached, searched, cost) = reaches(hand?, rules, seat, need, cap, budget.played, bot);
        nodes += cost;
        solved += u32::from(searched);
        let estimate = if reached { total } else { 0 };
        for (sum, &mult) in sums.iter_mut().zip(&multipliers) {
            *sum += w * f64::from(mult) * f64::from(estimate - even);
        }
        weight += w;
        deals += 1;
    }
    let weight = if weight > 0.0 { weight } else { 1.0 };
    let values: Vec<(Action, f64)> = candidates
        .iter()
        .zip(&sums)
        .map(|(&a, s)| (a, s / weight))
        .collect();
    let best = values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
    let action = values.iter().find(|v| v.1 >= best)?.0;
    Some(SolvedDouble {
        values,
        action,
        deals,
        solved,
        nodes,
    })
}

/// Whether `seat`'s side takes at least `need` hand points in the hand `h`
/// (at the start of its play): `played` cards by `bot`'s rollout, then one
/// search of the solver within `cap` positions, or the rollout to the end
/// when the search does not finish. Also whether the search finished, and
/// the positions it visited.
fn reaches(
    mut h: HandState,
    rules: &Rules,
    seat: Seat,
    need: i32,
    cap: u64,
    played: u8,
    bot: &MonteCarloBot,
) -> (bool, bool, u64) {
    let table = rules.variant.table();
    let mine = usize::from(table.side(seat));
    // The first cards as the playouts play them, each seeing its own hand
    // only; the solver then sees every hand.
    let mut public = Knowledge::at_start(rules, h.trump.and_then(Trump::suit), h.turn);
    for _ in 0..played {
        if !h.in_play() {
            break;
        }
        play_one(&mut h, &mut public, rules, table, bot.rollout);
    }
    let before = i32::from(h.points[mine]);
    let (bound, cost) = reaches_here(rules, &h, seat, need - before, cap);
    match bound {
        Some(b) => (before + b >= need, true, cost),
        None => {
            rollout(&mut h, &mut public, rules, table, bot.rollout);
            (i32::from(h.points[mine]) >= need, false, cost)
        }
    }
}

/// The threshold of the deal that takes slice `stratum` of `n` (below `n`)
/// for `u` in `[0, 1)`: with `u` uniform it is uniform in that slice of
/// `1..=total`, and with the slice uniform too, uniform in `1..=total`.
fn threshold(stratum: u32, n: u32, u: f64, total: i32) -> i32 {
    let at = (f64::from(stratum) + u) / f64::from(n.max(1));
    1 + ((at * f64::from(total)) as i32).clamp(0, total - 1)
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};

    use super::*;

    #[test]
    fn the_thresholds_are_uniform_over_the_slices() {
        let grid = 7_200;
        for n in [1u32, 7, 64] {
            let mut count = [0i64; 73];
            for stratum in 0..n {
                for j in 0..grid {
                    let u = (f64::from(j) + 0.5) / f64::from(grid);
                    let t = threshold(stratum, n, u, 72);
                    assert!((1..=72).contains(&t), "{t}");
                    count[t as usize] += 1;
                }
            }
            let each = i64::from(n) * i64::from(grid) / 72;
            for (t, &c) in count.iter().enumerate().skip(1) {
                assert!(
                    (c - each).abs() <= i64::from(n),
                    "n {n}, threshold {t}: {c} not {each}"
                );
            }
        }
    }

    /// The estimate of a sample of values by one threshold each, as the
    /// search makes it: `72 × [p ≥ T]` less 36, averaged.
    fn estimate(values: &[i32], stratified: bool, rng: &mut Xoshiro256PlusPlus) -> f64 {
        let n = values.len() as u32;
        let mut strata: Vec<u32> = (0..n).collect();
        strata.shuffle(rng);
        let sum: i32 = values
            .iter()
            .zip(&strata)
            .map(|(&p, &s)| {
                let t = if stratified {
                    threshold(s, n, rng.random(), 72)
                } else {
                    threshold(0, 1, rng.random(), 72)
                };
                if p >= t { 36 } else { -36 }
            })
            .sum();
        f64::from(sum) / f64::from(n)
    }

    #[test]
    fn one_threshold_a_deal_estimates_the_mean_value_and_slices_cut_its_noise() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        // Values of 64 deals, as alike as a hand's deals are.
        let values: Vec<i32> = (0..64).map(|_| rng.random_range(30..=50)).collect();
        let truth = values.iter().map(|&p| f64::from(p - 36)).sum::<f64>() / 64.0;
        let runs = 4_000;
        let moments = |stratified: bool, rng: &mut Xoshiro256PlusPlus| {
            let e: Vec<f64> = (0..runs)
                .map(|_| estimate(&values, stratified, rng))
                .collect();
            let mean = e.iter().sum::<f64>() / f64::from(runs);
            let var = e.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / f64::from(runs);
            (mean, var.sqrt())
        };
        let (mean, sd) = moments(true, &mut rng);
        let (plain_mean, plain_sd) = moments(false, &mut rng);
        // Unbiased both ways (4,000 runs: the means are within a few
        // hundredths of a point of the truth, far inside these margins).
        assert!((mean - truth).abs() < 0.25, "{mean} vs {truth}");
        assert!((plain_mean - truth).abs() < 0.5, "{plain_mean} vs {truth}");
        // The slices keep only the spread of the values near the threshold.
        assert!(sd < plain_sd / 2.0, "stratified {sd}, plain {plain_sd}");
    }
}
