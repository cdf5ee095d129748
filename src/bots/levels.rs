//! Strength levels for front ends: `easy`, `medium`, `hard`, `expert`.
//!
//! - `easy` ([`EasyBot`]): the heuristic player's trump choice and doubles,
//!   but only every other card its choice; the others are random legal
//!   cards. It follows suit and beats when the rules say so (every legal
//!   card does), but throws points onto the opponents' tricks and wastes
//!   its aces and manilles about half the time: a casual player who simply
//!   wins tricks with high cards and plays low otherwise beats it.
//! - `medium`: the heuristic player;
//! - `hard`: the Monte Carlo player;
//! - `expert`: the expert player (determinization with an exact solver).

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use super::{Bot, HeuristicBot, RandomBot, playable};
use crate::rules::view::GameView;
use crate::rules::{Action, Phase};

/// The `easy` level: the heuristic player with half its cards random.
pub struct EasyBot;

impl Bot for EasyBot {
    fn name(&self) -> &'static str {
        "easy"
    }

    fn choose(&self, view: &GameView, rng: &mut Xoshiro256PlusPlus) -> Action {
        let cards = playable(&view.legal_actions);
        if view.phase == Phase::Playing && cards.len() >= 2 && rng.random_bool(0.5) {
            return RandomBot.choose(view, rng);
        }
        HeuristicBot.choose(view, rng)
    }
}

/// A level name standing for another house bot: it plays exactly as that
/// bot, under the level's name.
pub struct Level {
    /// The level's name.
    pub name: &'static str,
    /// The bot that plays.
    pub bot: &'static dyn Bot,
}

impl Bot for Level {
    fn name(&self) -> &'static str {
        self.name
    }

    fn choose(&self, view: &GameView, rng: &mut Xoshiro256PlusPlus) -> Action {
        self.bot.choose(view, rng)
    }
}
