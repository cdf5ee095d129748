//! A uniformly random legal player.

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use super::Bot;
use crate::rules::Action;
use crate::rules::view::GameView;

/// Picks uniformly among the legal actions.
pub struct RandomBot;

impl Bot for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&self, view: &GameView, rng: &mut Xoshiro256PlusPlus) -> Action {
        let actions = &view.legal_actions;
        actions[rng.random_range(0..actions.len())]
    }
}
