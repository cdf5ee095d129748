//! House players, built only on the rules engine.
//!
//! A bot sees exactly what its seat may see (a [`GameView`]) and returns one
//! of the view's `legal_actions`.
//!
//! - `random`: uniformly random legal actions;
//! - `heuristic` (the default): rule-based trump choice, doubles and play;
//! - `montecarlo`: samples the hidden cards consistently with the view
//!   (a [`sample::Sampler`]; [`sample_deals`] draws such deals in one call)
//!   and plays each candidate card out on many deals;
//! - `expert`: the same sampling, each deal weighed by how likely it made
//!   the other seats bid as they did ([`inference`]), the bidding searched
//!   with the others bidding as the fitted model says, and each deal solved
//!   exactly ([`solver::Solver`]) late in the hand;
//! - the strength levels `easy`, `medium`, `hard`, `expert` ([`LEVELS`]).

mod bidding;
pub mod calibrate;
mod cards;
pub mod dds;
mod expert;
mod heuristic;
pub mod inference;
pub mod knowledge;
mod levels;
pub mod maxn;
mod montecarlo;
pub mod playout;
mod random;
pub mod reply;
pub mod sample;
pub mod solver;

use rand::rngs::Xoshiro256PlusPlus;

use crate::rules::view::GameView;
use crate::rules::{Action, CardSet};

pub use expert::{Decision, ExpertBot, Plan, Search};
pub use heuristic::HeuristicBot;
pub use levels::{EasyBot, Level};
pub use montecarlo::{
    Answers, MonteCarloBot, SolvedDouble, SolvedDoubles, choose_double_solved, value_bids,
};
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

/// The names of the house bots, the default first, then the strength
/// levels ([`LEVELS`]).
pub const NAMES: &[&str] = &[
    "heuristic",
    "random",
    "montecarlo",
    "expert",
    "easy",
    "medium",
    "hard",
];

/// The strength levels a front end can offer, weakest first: `easy`
/// ([`EasyBot`]), `medium` (the heuristic player), `hard` (the Monte Carlo
/// player) and `expert` ([`ExpertBot`]).
pub const LEVELS: &[&str] = &["easy", "medium", "hard", "expert"];

/// The default house bot.
pub const DEFAULT: &str = "heuristic";

/// The house bots that search (milliseconds of computation a decision, up
/// to about 100 ms for `expert`): a server runs them off its request
/// threads.
pub const HEAVY: &[&str] = &["montecarlo", "hard", "expert"];

/// The house bot with this name.
pub fn by_name(name: &str) -> Option<&'static dyn Bot> {
    static MONTECARLO: MonteCarloBot = MonteCarloBot::DEFAULT;
    static EXPERT: ExpertBot = ExpertBot::V3;
    static MEDIUM: Level = Level {
        name: "medium",
        bot: &HeuristicBot,
    };
    static HARD: Level = Level {
        name: "hard",
        bot: &MONTECARLO,
    };
    match name {
        "random" => Some(&RandomBot),
        "heuristic" => Some(&HeuristicBot),
        "montecarlo" => Some(&MONTECARLO),
        "expert" => Some(&EXPERT),
        "easy" => Some(&EasyBot),
        "medium" => Some(&MEDIUM),
        "hard" => Some(&HARD),
        _ => None,
    }
}
