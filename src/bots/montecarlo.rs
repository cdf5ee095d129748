//! A Monte Carlo player (determinization, "perfect information Monte
//! Carlo"): it deals the unseen cards at random consistently with what its
//! seat has seen ([`super::sample`]), plays each legal card on every sampled
//! deal and finishes the hand with fast playouts ([`super::playout`]: every
//! seat plays the heuristic player's card, or with the `greedy` rollout the
//! best card seeing every hand of the sample), and plays the card with
//! the best average result. The deals are shared by all candidates (common
//! random numbers), so their differences are measured with little noise.
//!
//! The trump choice and the doubles are searched the same way
//! (`montecarlo/bid_search.rs`): each legal declaration or call is tried on
//! sampled deals, the others finishing the bidding by the heuristic rules.

use std::time::{Duration, Instant};

use rand::rngs::Xoshiro256PlusPlus;

use super::heuristic::{HeuristicBot, choose_card};
use super::inference::Bidding;
use super::knowledge::Knowledge;
use super::playout::{Rollout, rollout, value};
use super::sample::Sampler;
use super::{Bot, playable};
use crate::rules::view::GameView;
use crate::rules::{Action, Card, CardSet, HandState, Phase};

mod bid_search;
mod solved;

use bid_search::choose_bid;
pub use bid_search::value_bids;
pub use solved::{SolvedDouble, SolvedDoubles, choose_double_solved};

/// The Monte Carlo player and its budget per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MonteCarloBot {
    /// Playouts per decision (one playout = one legal card on one sampled
    /// deal, played to the end of the hand).
    pub playouts: u32,
    /// Wall-clock limit per decision, in milliseconds; the search stops at
    /// whichever limit comes first.
    pub max_ms: u64,
    /// How the playouts are played.
    pub rollout: Rollout,
    /// Whether each sampled deal is weighed by how likely it made the other
    /// seats bid as they did ([`super::inference`]); without it every deal
    /// consistent with the play counts alike.
    pub infer: bool,
    /// How its bid search expects the other seats to answer its trump
    /// choice or double.
    pub answers: Answers,
}

/// How the bid search expects the other seats to finish the bidding after
/// the candidate action it tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    /// By the fitted bidding model when the player infers
    /// ([`super::inference::Model`]), else by the heuristic player's rules.
    Fitted,
    /// The trump choice by the fitted model when the player infers, the
    /// doubles by the heuristic player's rules (a double is answered only
    /// by a strong hand): what a player who doubles against any opponent,
    /// weak ones included, expects.
    HeuristicDoubles,
}

impl MonteCarloBot {
    /// The house budget: a decision takes about 4 ms on average and at most
    /// about 20 ms of one core in a release build (see `docs/arena.md`); the
    /// 80 ms wall-clock cap only matters on an overloaded machine.
    pub const DEFAULT: MonteCarloBot = MonteCarloBot {
        playouts: 2_000,
        max_ms: 80,
        rollout: Rollout::Heuristic,
        infer: false,
        answers: Answers::Fitted,
    };
}

impl Default for MonteCarloBot {
    fn default() -> MonteCarloBot {
        MonteCarloBot::DEFAULT
    }
}

impl Bot for MonteCarloBot {
    fn name(&self) -> &'static str {
        "montecarlo"
    }

    fn choose(&self, view: &GameView, rng: &mut Xoshiro256PlusPlus) -> Action {
        let cards = playable(&view.legal_actions);
        if view.legal_actions.len() < 2 {
            return view.legal_actions.first().copied().unwrap_or(Action::Deal);
        }
        if matches!(view.phase, Phase::ChoosingTrump | Phase::Doubling) {
            let bid = choose_bid(view, self, rng);
            return bid.unwrap_or_else(|| HeuristicBot.choose(view, rng));
        }
        if view.phase != Phase::Playing || cards.len() < 2 {
            return HeuristicBot.choose(view, rng);
        }
        Action::Play {
            card: self.search(view, cards, rng),
        }
    }
}

impl MonteCarloBot {
    /// What the bidding of `view`'s hand tells (nothing without `infer`).
    pub(super) fn bidding(&self, view: &GameView) -> Bidding {
        if self.infer {
            Bidding::from_view(view)
        } else {
            Bidding::none()
        }
    }

    /// The legal card with the best mean playout result.
    fn search(&self, view: &GameView, cards: CardSet, rng: &mut Xoshiro256PlusPlus) -> Card {
        let start = Instant::now();
        let limit = Duration::from_millis(self.max_ms);
        let k = Knowledge::from_view(view);
        let sampler = Sampler::new(&k);
        let bidding = self.bidding(view);
        let rules = &view.rules;
        let table = k.table;
        let candidates: Vec<Card> = cards.iter().collect();
        let mut sums = vec![0.0f64; candidates.len()];
        let per_deal = candidates.len() as u32;
        let mut done = 0u32;
        // Built once; only the hidden hands change from one sample to the next.
        let mut root = HandState::in_play_from_view(view, [CardSet::EMPTY; 4]);
        while done + per_deal <= self.playouts.max(per_deal) {
            let deal = sampler.sample(rng);
            let w = bidding.weight(&deal);
            root.set_cards(deal);
            for (sum, &c) in sums.iter_mut().zip(&candidates) {
                let mut h = root.clone();
                let mut public = k;
                public.observe(k.seat, c);
                h.play_known(table, c);
                rollout(&mut h, &mut public, rules, table, self.rollout);
                *sum += w * value(rules, k.seat, &h);
            }
            done += per_deal;
            if start.elapsed() >= limit {
                break;
            }
        }
        // Ties (common late in a hand) go to the heuristic's preference.
        let preferred = choose_card(&k, cards);
        let best = sums.iter().copied().fold(f64::MIN, f64::max);
        let tied: Vec<Card> = candidates
            .iter()
            .zip(&sums)
            .filter(|(_, s)| **s >= best - 1e-9)
            .map(|(c, _)| *c)
            .collect();
        if tied.contains(&preferred) {
            preferred
        } else {
            tied[0]
        }
    }
}
