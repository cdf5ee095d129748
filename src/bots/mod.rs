//! House players, built only on the rules engine.
//!
//! A bot sees exactly what its seat may see (a [`GameView`]) and returns one
//! of the view's `legal_actions`.
//!
//! - `random`: uniformly random legal actions;
//! - `heuristic` (the default): rule-based trump choice, doubles and play;
//! - `montecarlo`: samples the hidden cards consistently with the view
//!   (a [`sample::Sampler`]; [`sample_deals`] draws such deals in one call)
//!   and plays each candidate card out on many deals.

mod bid_search;
mod bidding;
mod cards;
mod heuristic;
pub mod knowledge;
mod montecarlo;
pub mod playout;
mod random;
pub mod sample;

use rand::rngs::Xoshiro256PlusPlus;

use crate::rules::view::GameView;
use crate::rules::{Action, CardSet};

pub use heuristic::HeuristicBot;
pub use montecarlo::MonteCarloBot;
pub use playout::Rollout;
pub use random::RandomBot;
pub use sample::sample_deals;

/// A house player.
pub trait Bot: Send + Sync {
    /// The name clients use to pick it.
    fn name(&self) -> &'static str;

    /// Chooses one of `view.legal_actions` (which is not empty).
    fn choose(&self, view: &GameView, rng: &mut Xoshiro256PlusPlus) -> Action;
}

/// The cards among `actions` (the `play` actions).
pub fn playable(actions: &[Action]) -> CardSet {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Play { card } => Some(*card),
            _ => None,
        })
        .collect()
}

/// The names of the house bots, the default first.
pub const NAMES: &[&str] = &["heuristic", "random", "montecarlo"];

/// The default house bot.
pub const DEFAULT: &str = "heuristic";

/// The house bot with this name.
pub fn by_name(name: &str) -> Option<&'static dyn Bot> {
    static MONTECARLO: MonteCarloBot = MonteCarloBot::DEFAULT;
    match name {
        "random" => Some(&RandomBot),
        "heuristic" => Some(&HeuristicBot),
        "montecarlo" => Some(&MONTECARLO),
        _ => None,
    }
}
