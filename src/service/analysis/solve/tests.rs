//! The analysis's own tests: what it values, in what order, within which
//! budget.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use super::*;
use crate::bots::{Bot, HeuristicBot};
use crate::rules::{Phase, Rules, Variant};

fn budget(max_hands: u32, nodes_per_card: u64, playouts_per_bid: u32) -> Budget {
    Budget {
        max_hands,
        nodes_per_card,
        nodes_per_match: u64::MAX,
        playouts_per_bid,
    }
}

/// A match of `hands` hands of `variant` played to its end by house bots.
fn played(variant: Variant, hands: u32) -> Match {
    let rules = Rules {
        variant,
        max_hands: Some(hands),
        ..Rules::default()
    };
    let mut m = Match::new(rules, [9; 32]).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    while m.phase() != Phase::MatchOver {
        let seat = m.turn().unwrap();
        let action = HeuristicBot.choose(&m.view(Some(seat)), &mut rng);
        m.apply(seat, action, &mut Vec::new()).unwrap();
    }
    m
}

#[test]
fn every_card_is_valued_in_order_and_the_last_tricks_within_any_budget() {
    let mut given_up = 0;
    for variant in Variant::ALL {
        let game = played(variant, 1);
        let budget = budget(1, 5_000, 0);
        let mut calls = 0;
        let a = analyze(&game, budget, || calls += 1).unwrap();
        let h = &game.history[0];
        let table = game.table();
        let played: Vec<(Seat, Card)> = h
            .tricks
            .iter()
            .flat_map(|t| t.seats(table).zip(t.cards().iter().copied()))
            .collect();
        let cards = &a.hands[0].cards;
        let valued: Vec<(Seat, Card)> = cards.iter().map(|c| (c.seat, c.card)).collect();
        assert_eq!(valued, played, "{variant:?}");
        assert_eq!(calls as u32, cards_to_value(&game, 1));
        assert_eq!(calls as u32, steps(&game, budget));
        assert!(a.hands[0].bids.is_empty(), "not valued with 0 playouts");
        assert_eq!(a.hands[0].points, h.points[..usize::from(table.sides())]);
        for c in cards {
            let Some(s) = &c.solved else { continue };
            assert!(s.value <= s.best, "{c:?}");
            assert_eq!(s.best_cards.contains(&c.card), s.cost() == 0, "{c:?}");
        }
        // Each side's cards are solved from its last: the solved ones
        // are its last ones.
        for side in 0..table.sides() {
            let mine = cards.iter().filter(|c| table.side(c.seat) == side);
            let solved: Vec<bool> = mine.map(|c| c.solved.is_some()).collect();
            let first = solved.iter().position(|&s| s).unwrap_or(solved.len());
            let rest = &solved[first..];
            assert!(rest.iter().all(|&s| s), "{variant:?}: {solved:?}");
            given_up += usize::from(first > 0);
        }
        let last = cards.iter().filter(|c| c.trick as usize == h.tricks.len());
        assert!(last.clone().count() > 0 && last.clone().all(|c| c.solved.is_some()));
        // The last card of a hand has nothing to choose.
        let end = cards.last().unwrap().solved.as_ref().unwrap();
        assert_eq!(end.cost(), 0);
    }
    assert!(given_up > 0, "this budget leaves some first cards unsolved");
}

#[test]
fn no_card_is_searched_once_the_match_budget_is_spent() {
    let game = played(Variant::Pairs, 2);
    let free = analyze(&game, budget(2, 50_000, 0), || {}).unwrap();
    let cap = free.nodes / 2;
    let capped = Budget {
        nodes_per_match: cap,
        ..budget(2, 50_000, 0)
    };
    let a = analyze(&game, capped, || {}).unwrap();
    // The search that reaches the cap stops one position past it.
    assert!(a.nodes <= cap + 1, "{} > {cap}", a.nodes);
    assert!(a.unsolved() > free.unsolved());
    assert_eq!(a.cards().count(), free.cards().count(), "every card listed");
    for (c, f) in a.cards().zip(free.cards()) {
        if c.solved.is_some() {
            assert_eq!(c, f, "what it solved, it solved as without the cap");
        }
    }
}

#[test]
fn hands_past_the_budget_are_left_out() {
    let game = played(Variant::Pairs, 2);
    let budget = budget(1, 1_000, 20);
    let a = analyze(&game, budget, || {}).unwrap();
    assert_eq!((a.hands.len(), a.hands_played), (1, 2));
    let one = bids::decisions(&game, 1);
    assert!(bids::decisions(&game, 2) > one);
    assert_eq!(a.hands[0].bids.len() as u32, one);
    assert_eq!(a.hands[0].cards.len() as u32, cards_to_value(&game, 1));
    assert!(cards_to_value(&game, 2) > cards_to_value(&game, 1));
}

/// Every bidding decision with a choice in `game`'s moves, replayed
/// apart from the analysis: (hand, seat, action, actions it could take,
/// the match's phase then).
fn bidding(game: &Match) -> Vec<(u32, Seat, Action, Vec<Action>, Phase)> {
    let mut m = Match::new(game.rules.clone(), game.seed).unwrap();
    let mut out = Vec::new();
    for mv in game.moves() {
        if let (Move::Act(seat, a @ (Action::Trump { .. } | Action::Double { .. })), Some(h)) =
            (mv, m.hand.as_ref())
        {
            let legal = m.legal_actions(seat);
            if legal.len() >= 2 {
                out.push((h.number, seat, a, legal, m.phase()));
            }
        }
        m.perform(mv, &mut Vec::new()).unwrap();
    }
    out
}

#[test]
fn every_bidding_decision_is_valued_in_order_and_the_same_each_time() {
    let mut decisions = 0;
    for variant in Variant::ALL {
        let game = played(variant, 3);
        let budget = budget(3, 200, 60);
        let mut calls = 0;
        let a = analyze(&game, budget, || calls += 1).unwrap();
        assert_eq!(calls, steps(&game, budget), "{variant:?}");
        let valued: Vec<_> = a
            .hands
            .iter()
            .flat_map(|h| h.bids.iter().map(move |b| (h.number, b)))
            .collect();
        let expected = bidding(&game);
        let got: Vec<_> = valued.iter().map(|(n, b)| (*n, b.seat, b.action)).collect();
        let want: Vec<_> = expected.iter().map(|(n, s, a, ..)| (*n, *s, *a)).collect();
        assert_eq!(got, want, "{variant:?}");
        for ((_, b), (_, _, _, legal, phase)) in valued.iter().zip(&expected) {
            let tried: Vec<Action> = b.values.iter().map(|(a, _)| *a).collect();
            let estevet = Action::Trump {
                choice: crate::rules::TrumpChoice::Estevet,
            };
            let untried: Vec<Action> = legal.iter().copied().filter(|a| *a != estevet).collect();
            assert_eq!(tried, untried, "{b:?}");
            assert!(b.deals > 0 && b.deals * tried.len() as u32 <= 60, "{b:?}");
            assert_eq!(b.phase(), *phase, "{b:?}");
            let (Some(value), Some(cost)) = (b.value(), b.cost()) else {
                assert_eq!(b.action, estevet);
                continue;
            };
            assert_eq!(cost, b.best() - value);
            assert!(cost >= 0, "{b:?}");
            assert_eq!(b.best_actions().contains(&b.action), cost == 0, "{b:?}");
        }
        decisions += valued.len();
        assert_eq!(analyze(&game, budget, || {}).unwrap(), a, "{variant:?}");
    }
    assert!(decisions >= 3 * 3, "{decisions}");
}
