//! House players, built only on the rules engine.
//!
//! A bot sees exactly what its seat may see (a [`GameView`]) and returns one
//! of the view's `legal_actions`.

mod random;

use rand::rngs::Xoshiro256PlusPlus;

use crate::rules::Action;
use crate::rules::view::GameView;

pub use random::RandomBot;

/// A house player.
pub trait Bot: Send + Sync {
    /// The name clients use to pick it.
    fn name(&self) -> &'static str;

    /// Chooses one of `view.legal_actions` (which is not empty).
    fn choose(&self, view: &GameView, rng: &mut Xoshiro256PlusPlus) -> Action;
}

/// The names of the house bots, the default first.
pub const NAMES: &[&str] = &["random"];

/// The default house bot.
pub const DEFAULT: &str = "random";

/// The house bot with this name.
pub fn by_name(name: &str) -> Option<&'static dyn Bot> {
    match name {
        "random" => Some(&RandomBot),
        _ => None,
    }
}
