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
use botifarra::rules::view::GameView;
use botifarra::rules::{Match, Phase, Rules, Seat};
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

/// A copy of `m` in which seat `a`'s lowest card and seat `b`'s last card
/// have changed hands: for a seat other than `a` and `b`, a different deal
/// it cannot tell from `m`'s.
pub fn swap_cards(m: &Match, a: usize, b: usize) -> Match {
    let mut twin = m.clone();
    let h = twin.hand.as_mut().unwrap();
    let ca = h.hands[a].lowest().unwrap();
    let cb = h.hands[b].iter().last().unwrap();
    h.hands[a].remove(ca);
    h.hands[b].remove(cb);
    h.hands[a].insert(cb);
    h.hands[b].insert(ca);
    twin
}

/// `viewer`'s views of `m` and of `twin`, checked to be the same JSON
/// while the two deals differ.
pub fn twin_views(m: &Match, twin: &Match, viewer: Seat) -> (GameView, GameView) {
    assert_ne!(
        m.hand.as_ref().unwrap().hands,
        twin.hand.as_ref().unwrap().hands,
        "the deals differ"
    );
    let (v1, v2) = (m.view(Some(viewer)), twin.view(Some(viewer)));
    assert_eq!(
        serde_json::to_string(&v1).unwrap(),
        serde_json::to_string(&v2).unwrap(),
        "same view"
    );
    (v1, v2)
}
