//! The bots suite: the house bots only play legal actions and know only
//! what their seat may know, and the arena that pits bots against each
//! other (an external bot over HTTP included).

mod arena;
mod expert;
mod expert_v2;
mod expert_v3;
mod expert_v4;
mod house_bots;
mod solve_cli;

use botifarra::bots;
use botifarra::rules::{Match, Phase, Rules};
use rand::rngs::Xoshiro256PlusPlus;

/// A one-hand match of the default rules dealt from `seed`, bid by the
/// heuristic player until `stop` holds or the play begins.
pub fn bid_one_hand(
    seed: [u8; 32],
    rng: &mut Xoshiro256PlusPlus,
    stop: impl Fn(&Match) -> bool,
) -> Match {
    let rules = Rules {
        max_hands: Some(1),
        ..Rules::default()
    };
    let mut m = Match::new(rules, seed).unwrap();
    let mut events = Vec::new();
    let heuristic = bots::by_name("heuristic").unwrap();
    while m.phase() != Phase::Playing && !stop(&m) {
        let seat = m.turn().unwrap();
        let a = heuristic.choose(&m.view(Some(seat)), rng);
        m.apply(seat, a, &mut events).unwrap();
    }
    m
}
