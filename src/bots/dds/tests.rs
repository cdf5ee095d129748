//! The solver against an independent plain minimax, against the
//! last-tricks solver, and its parts against the engine.

use std::collections::HashMap;

use super::DealSolver;
use super::deals::{seeded_deal, seeded_endgame};
use super::order::ordered;
use super::pos::Pos;
use crate::bots::solver::{Solver, representative};
use crate::rules::random::random_card;
use crate::rules::{Card, CardSet, HandState, Rules, Seat, Suit, Trump, Variant};

/// A trick start of the pairs game with these hands (seat 0 to lead) and
/// `trump`, each hand written as the engine writes cards.
pub(super) fn trick_start(hands: [&str; 4], trump: Trump) -> HandState {
    let hand = |s: &str| {
        s.split(' ')
            .map(|c| card(c).bit())
            .fold(CardSet::EMPTY, |a, b| a | b)
    };
    let n = hand(hands[0]).len();
    let mut h = seeded_endgame(&Rules::default(), 1, n, 0);
    h.hands = hands.map(hand);
    h.trump = Some(trump);
    h.turn = 0;
    h.trick = crate::rules::trick::Trick::led_by(0);
    h
}

/// The card written `s` as the engine writes cards.
pub(super) fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// Endgames compared with the plain minimax (1,000 in a release build).
const ENDGAMES: u64 = if cfg!(debug_assertions) { 120 } else { 1000 };

/// The `i`-th rule set of the sweep: every variant with no option, forced
/// mode (pairs only), must-trump, and both.
pub(super) fn rules_of(i: u64) -> Rules {
    let variant = Variant::ALL[(i % 3) as usize];
    let option = (i / 3) % 4;
    Rules {
        variant,
        forced: option % 2 == 1 && variant == Variant::Pairs,
        must_trump: option >= 2,
        ..Rules::default()
    }
}

/// Plain minimax on the engine's own hand (its legal cards, its scoring):
/// the hand points `side` takes from `h` on. Trick starts are remembered by
/// every seat's cards and the leader (nothing else decides the rest).
pub(super) fn minimax(
    rules: &Rules,
    h: &HandState,
    side: u8,
    memo: &mut HashMap<([u64; 4], Seat), i32>,
) -> i32 {
    if !h.in_play() {
        return 0;
    }
    let table = rules.variant.table();
    let key = (h.hands.map(|s| s.0), h.turn);
    if h.trick.is_empty()
        && let Some(&v) = memo.get(&key)
    {
        return v;
    }
    let maximising = table.side(h.turn) == side;
    let values = each_card(rules, h, side, memo);
    let v = values.iter().map(|&(_, v)| v);
    let best = if maximising { v.max() } else { v.min() }.unwrap_or(0);
    if h.trick.is_empty() {
        memo.insert(key, best);
    }
    best
}

/// Every legal card of the seat to play and what `side` takes after it.
fn each_card(
    rules: &Rules,
    h: &HandState,
    side: u8,
    memo: &mut HashMap<([u64; 4], Seat), i32>,
) -> Vec<(Card, i32)> {
    let table = rules.variant.table();
    let mut out = Vec::new();
    for c in h.legal_cards(rules, table).iter() {
        let mut next = h.without_records();
        next.play_known(table, c);
        let gained = i32::from(next.points[side as usize]) - i32::from(h.points[side as usize]);
        out.push((c, gained + minimax(rules, &next, side, memo)));
    }
    out
}

#[test]
fn every_card_s_value_is_the_plain_minimax_s() {
    let mut checked = 0;
    for i in 0..ENDGAMES {
        let rules = rules_of(i);
        let table = rules.variant.table();
        let tricks = 4 + (i / 9) % 3;
        let on_table = ((i / 27) % u64::from(table.seats)) as usize;
        let h = seeded_endgame(&rules, i, tricks as u32, on_table);
        assert!(h.in_play());
        let side = table.side(h.turn);
        let expected = each_card(&rules, &h, side, &mut HashMap::new());
        let mut s = DealSolver::with_table_bits(&rules, 12);
        let got = s.solve_each(&h).unwrap();
        assert_eq!(got, expected, "endgame {i} under {rules:?}");
        checked += got.len();
    }
    assert!(checked as u64 > ENDGAMES);
}

#[test]
fn a_graded_card_and_the_best_are_the_plain_minimax_s() {
    let (mut graded, mut worse) = (0, 0);
    for i in 0..ENDGAMES {
        let rules = rules_of(i + 3);
        let table = rules.variant.table();
        let on_table = ((i / 5) % u64::from(table.seats)) as usize;
        let h = seeded_endgame(&rules, 20_000 + i, 4 + (i % 3) as u32, on_table);
        // One solver, its table kept, grades every card of this position
        // and of the next seat's (the other side in the pairs game).
        let mut s = DealSolver::with_table_bits(&rules, 12);
        let mut next = h.without_records();
        next.play_known(table, h.legal_cards(&rules, table).lowest().unwrap());
        // The plain minimax's memo, one a side (its values are a side's).
        let mut memos: [HashMap<_, _>; 4] = Default::default();
        for pos in [&h, &next, &h].into_iter().filter(|p| p.in_play()) {
            let side = table.side(pos.turn);
            let values = each_card(&rules, pos, side, &mut memos[side as usize]);
            let best = values.iter().map(|&(_, v)| v).max().unwrap();
            let best_cards: Vec<Card> = values
                .iter()
                .filter(|&&(_, v)| v == best)
                .map(|&(c, _)| c)
                .collect();
            for &(c, value) in &values {
                let g = s.grade(pos, c, None).unwrap();
                assert_eq!(g.value, value, "endgame {i}, {c:?} under {rules:?}");
                assert_eq!(g.best, best, "endgame {i}, {c:?} under {rules:?}");
                assert_eq!(g.best_cards, best_cards, "endgame {i}, {c:?}");
                graded += 1;
                worse += usize::from(value < best);
                // Told the best of the position the card leads to, as the
                // next card's grade says it, the same grade.
                let mut after = pos.without_records();
                after.play_known(table, c);
                if after.in_play() {
                    let side = table.side(after.turn);
                    let next = each_card(&rules, &after, side, &mut memos[side as usize]);
                    let next_best = next.iter().map(|&(_, v)| v).max().unwrap();
                    let told = s.grade(pos, c, Some((after.turn, next_best)));
                    assert_eq!(told, Some(g), "endgame {i}, {c:?} under {rules:?}");
                }
            }
        }
    }
    assert!(worse > 0 && worse < graded, "{worse} of {graded}");
}

#[test]
fn it_agrees_with_the_last_tricks_solver() {
    for i in 0..ENDGAMES {
        let rules = rules_of(i + 7);
        let table = rules.variant.table();
        let on_table = (i % u64::from(table.seats)) as usize;
        let h = seeded_endgame(&rules, 10_000 + i, 5, on_table);
        let mut old = Solver::new(&rules, h.turn, u64::MAX);
        let mut new = DealSolver::new(&rules);
        assert_eq!(new.solve_each(&h), old.solve_each(&h), "endgame {i}");
        for seat in 0..table.seats {
            let mut old = Solver::new(&rules, seat, u64::MAX);
            let v = old.solve(&h).map(|s| s.value);
            assert_eq!(new.value(&h, seat), v, "endgame {i}, seat {seat}");
        }
    }
}

#[test]
fn the_legal_cards_are_the_engine_s() {
    for i in 0..90 {
        let rules = rules_of(i);
        let table = rules.variant.table();
        let mut h = seeded_deal(&rules, i);
        let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(i);
        let mut pos = Pos::new(&rules, &h);
        while h.in_play() {
            let legal = h.legal_cards(&rules, table);
            assert_eq!(pos.legal().0, legal, "deal {i} under {rules:?}");
            assert_eq!(pos.turn, h.turn);
            let c = random_card(legal, &mut rng).unwrap();
            let (_, beat) = pos.legal();
            pos.play(c, beat.contains(c));
            h.play_known(table, c);
            if h.in_play() {
                assert_eq!(pos.left, Pos::new(&rules, &h).left);
            }
        }
        assert_eq!(pos.left, 0);
    }
}

#[test]
fn the_moves_are_one_card_of_each_run_the_first_ones_first() {
    for i in 0..90 {
        let rules = rules_of(i);
        let table = rules.variant.table();
        let mut h = seeded_deal(&rules, i);
        let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(i);
        while h.in_play() {
            let pos = Pos::new(&rules, &h);
            let (legal, beat) = pos.legal();
            let runs: Vec<Card> = legal
                .iter()
                .filter(|&c| representative(c, legal, pos.alive()) == c)
                .collect();
            let first = [random_card(legal, &mut rng), random_card(legal, &mut rng)];
            let moves = ordered(&pos, legal, beat, first);
            let mut sorted = moves.as_slice().to_vec();
            sorted.sort();
            assert_eq!(sorted, runs, "deal {i} under {rules:?}");
            // The first cards that lead their run come first, in order.
            let mut leading = first.into_iter().flatten().filter(|c| runs.contains(c));
            let expected: Vec<Card> = match (leading.next(), leading.next()) {
                (Some(a), Some(b)) if a != b => vec![a, b],
                (Some(a), _) => vec![a],
                _ => vec![],
            };
            assert_eq!(moves.as_slice()[..expected.len()], expected[..]);
            let c = random_card(legal, &mut rng).unwrap();
            h.play_known(table, c);
        }
    }
}

/// The `i`-th endgame of a sweep from seed `base`: every rule set of
/// [`rules_of`], 4 or 5 tricks, 0 to all but one card on the trick.
fn endgame(i: u64, base: u64) -> (Rules, HandState) {
    let rules = rules_of(i);
    let on_table = (i % u64::from(rules.variant.table().seats)) as usize;
    let h = seeded_endgame(&rules, base + i, 4 + (i % 2) as u32, on_table);
    (rules, h)
}

#[test]
fn every_zero_window_answer_is_a_true_bound() {
    for i in 0..48 {
        let (rules, h) = endgame(i, 2_000);
        let mut s = DealSolver::new(&rules);
        let v = s.value(&h, h.turn).unwrap();
        for need in 0..=s.pos.left + 1 {
            if need % 2 == 0 {
                s.clear();
            }
            let b = s.reach(need);
            if b >= need {
                assert!(v >= b, "endgame {i}: {v} below the bound {b} of {need}");
            } else {
                assert!(v <= b, "endgame {i}: {v} above the bound {b} of {need}");
            }
        }
    }
}

#[test]
fn the_value_does_not_depend_on_the_first_guess() {
    for i in 0..24 {
        let (rules, h) = endgame(i, 4_000);
        let expected = minimax(
            &rules,
            &h,
            rules.variant.table().side(h.turn),
            &mut HashMap::new(),
        );
        let mut s = DealSolver::new(&rules);
        assert_eq!(s.value(&h, h.turn), Some(expected), "endgame {i}");
        for guess in -1..=s.pos.left + 1 {
            s.clear();
            assert_eq!(s.exact(guess), expected, "endgame {i}, guess {guess}");
        }
    }
}

#[test]
fn a_search_from_the_root_answers_a_true_bound_for_either_side() {
    for i in 0..24 {
        let (rules, h) = endgame(i, 6_000);
        let table = rules.variant.table();
        // The seat to play, and a seat of another side.
        for seat in [h.turn, (h.turn + 1) % table.seats] {
            let v = minimax(&rules, &h, table.side(seat), &mut HashMap::new());
            let mut s = DealSolver::new(&rules);
            let left = s.value(&h, seat).unwrap();
            assert_eq!(left, v, "endgame {i}, seat {seat}");
            for need in 0..=s.pos.left + 1 {
                let b = s.reaches(&h, seat, need).unwrap();
                assert_eq!(
                    b >= need,
                    v >= need,
                    "endgame {i}, seat {seat}, need {need}"
                );
                if b >= need {
                    assert!(v >= b, "endgame {i}: {v} below the bound {b} of {need}");
                } else {
                    assert!(v <= b, "endgame {i}: {v} above the bound {b} of {need}");
                }
                let (here, _) = super::reaches_here(&rules, &h, seat, need, u64::MAX);
                assert_eq!(here.map(|b| b >= need), Some(v >= need));
            }
        }
    }
    // Past the budget: no answer.
    let rules = Rules::default();
    let h = seeded_endgame(&rules, 1, 8, 0);
    let (bound, cost) = super::reaches_here(&rules, &h, h.turn, 20, 5);
    assert_eq!(bound, None);
    assert!(cost <= 6, "{cost}");
}

#[test]
fn past_the_budget_there_is_no_answer() {
    let rules = Rules::default();
    let h = seeded_endgame(&rules, 1, 6, 1);
    let mut s = DealSolver::new(&rules);
    s.set_budget(10);
    assert_eq!(s.solve_each(&h), None);
    let mut s = DealSolver::new(&rules);
    assert!(s.solve_each(&h).is_some());
    assert!(s.nodes > 10);
}

/// `h` with each suit's zero-point cards dealt again among the seats that
/// held them, each keeping as many of them.
fn shuffle_low_cards(h: &HandState, rng: &mut rand::rngs::Xoshiro256PlusPlus) -> HandState {
    use rand::seq::SliceRandom;
    let mut out = h.clone();
    for suit in Suit::ALL {
        let mut cards = Vec::new();
        let mut owners = Vec::new();
        for (seat, hand) in h.hands.iter().enumerate() {
            for c in hand.iter().filter(|c| c.suit() == suit && c.points() == 0) {
                out.hands[seat].remove(c);
                cards.push(c);
                owners.push(seat);
            }
        }
        cards.shuffle(rng);
        for (c, seat) in cards.into_iter().zip(owners) {
            out.hands[seat].insert(c);
        }
    }
    out
}

#[test]
fn a_table_kept_between_deals_of_one_partition_answers_as_minimax() {
    // The positions differ only by who holds which zero-point cards (as
    // many in each hand): the nearest a position comes to another's key,
    // whose entries must never answer for it.
    let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(7);
    let endgames = if cfg!(debug_assertions) { 12 } else { 90 };
    // Deals whose cards differ from their endgame's (most of them).
    let mut moved = 0;
    for i in 0..endgames {
        let rules = rules_of(i);
        let table = rules.variant.table();
        let on_table = (i % u64::from(table.seats)) as usize;
        let h = seeded_endgame(&rules, 30_000 + i, 4 + (i % 2) as u32, on_table);
        let side = table.side(h.turn);
        let mut s = DealSolver::with_table_bits(&rules, 12);
        for k in 0..8 {
            let h2 = shuffle_low_cards(&h, &mut rng);
            let expected = each_card(&rules, &h2, side, &mut HashMap::new());
            assert_eq!(s.solve_each(&h2).unwrap(), expected, "endgame {i} k {k}");
            moved += u64::from(h2.hands != h.hands);
        }
    }
    assert!(moved * 2 >= endgames * 8, "only {moved} deals were new");
}
