//! Fitting the bidding model of [`super::inference`] to a bot's bidding.
//!
//! [`collect`] deals hands and lets a bot do all the bidding of each (the
//! trump choice and the doubles, every seat), recording for every spoken
//! action the hand, what could be said and what was said; [`fit`] finds the
//! [`Model`] parameters of highest likelihood by coordinate search from the
//! heuristic's thresholds. `botifarra calibrate` runs both and prints the
//! model to commit.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rayon::prelude::*;

use super::Bot;
use super::inference::{Model, Spoken};
use crate::rules::contract::Trump;
use crate::rules::{Action, CardSet, Match, Phase, Rules, Variant};

/// One recorded bidding action and the hand it was said with.
pub type Sample = (Spoken, CardSet);

/// The bidding of `hands` deals of `variant` by `bot` at every seat (deal
/// `i` seeded from `seed` and `i`, so a run is reproducible), every action
/// with at least two choices.
pub fn collect(bot: &dyn Bot, variant: Variant, hands: u32, seed: u64) -> Vec<Sample> {
    (0..hands)
        .into_par_iter()
        .flat_map_iter(|i| one_hand(bot, variant, seed, i))
        .collect()
}

fn one_hand(bot: &dyn Bot, variant: Variant, seed: u64, i: u32) -> Vec<Sample> {
    let rules = Rules {
        variant,
        max_hands: Some(1),
        ..Rules::default()
    };
    let mut deal_seed = [0u8; 32];
    deal_seed[..8].copy_from_slice(&seed.to_le_bytes());
    deal_seed[8..12].copy_from_slice(&i.to_le_bytes());
    deal_seed[12..16].copy_from_slice(b"bids");
    let mut out = Vec::new();
    let Ok(mut m) = Match::new(rules, deal_seed) else {
        return out;
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ u64::from(i).rotate_left(20));
    let mut events = Vec::new();
    while let Some(seat) = m.turn() {
        let phase = m.phase();
        if phase == Phase::AwaitingDeal {
            if m.apply(seat, Action::Deal, &mut events).is_err() {
                break;
            }
            continue;
        }
        if !matches!(phase, Phase::ChoosingTrump | Phase::Doubling) {
            break;
        }
        let legal = m.legal_actions(seat);
        let taken = bot.choose(&m.view(Some(seat)), &mut rng);
        if let Some(h) = m.hand.as_ref()
            && legal.len() >= 2
        {
            let spoken = Spoken {
                seat,
                legal,
                taken,
                trump: h.trump.unwrap_or(Trump::Botifarra),
            };
            out.push((spoken, h.hands[seat as usize]));
        }
        if m.apply(seat, taken, &mut events).is_err() {
            break;
        }
        events.clear();
    }
    out
}

/// The mean log-likelihood of `samples` under `model`.
pub fn log_likelihood(model: &Model, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|(s, hand)| model.likelihood(s, *hand).max(1e-9).ln())
        .sum();
    total / samples.len().max(1) as f64
}

/// The model of highest likelihood found by coordinate search from
/// [`Model::HEURISTIC`]: each parameter in turn is moved by the step of a
/// shrinking grid that most improves the likelihood, until no step helps.
pub fn fit(samples: &[Sample]) -> Model {
    let mut model = Model::HEURISTIC;
    let mut best = log_likelihood(&model, samples);
    for step in [2.0, 1.0, 0.5, 0.25, 0.1, 0.05] {
        loop {
            let mut improved = false;
            for i in 0..7 {
                for dir in [-1.0, 1.0] {
                    let mut trial = model;
                    let p = param(&mut trial, i);
                    *p += dir * step;
                    // Temperatures stay positive.
                    if (i == 0 || i == 6) && *p < 0.05 {
                        continue;
                    }
                    let ll = log_likelihood(&trial, samples);
                    if ll > best + 1e-9 {
                        (model, best) = (trial, ll);
                        improved = true;
                    }
                }
            }
            if !improved {
                break;
            }
        }
    }
    model
}

/// The `i`-th parameter of `m`.
fn param(m: &mut Model, i: usize) -> &mut f64 {
    match i {
        0 => &mut m.trump_temperature,
        1 => &mut m.delegate,
        2 => &mut m.botifarra,
        3 => &mut m.contro,
        4 => &mut m.recontro,
        5 => &mut m.sant_vicenc,
        _ => &mut m.double_temperature,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::HeuristicBot;

    #[test]
    fn the_fit_finds_the_heuristics_own_thresholds_in_its_bidding() {
        let samples = collect(&HeuristicBot, Variant::Pairs, 400, 3);
        assert!(samples.len() > 400, "{}", samples.len());
        let fitted = fit(&samples);
        // The heuristic is the hard-threshold limit of the model: the fit
        // sharpens it and beats the soft starting point.
        assert!(log_likelihood(&fitted, &samples) > log_likelihood(&Model::HEURISTIC, &samples));
        assert!(fitted.double_temperature < Model::HEURISTIC.double_temperature);
        assert!(
            (fitted.contro - Model::HEURISTIC.contro).abs() < 1.5,
            "{fitted:?}"
        );
    }
}
