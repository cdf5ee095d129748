//! The sure points' tests: at every trick start of plain minimax sweeps
//! the leading side takes at least its sure points, and positions where
//! each count of [`super::bounds`] reaches the minimax value.

use std::collections::HashMap;

use super::DealSolver;
use super::bounds::{leader_cashes, sure_points};
use super::deals::seeded_endgame;
use super::pos::Pos;
use super::tests::{minimax, rules_of, trick_start};
use crate::rules::{CardSet, HandState, Rules, Suit, Trump};

#[test]
fn sure_points_never_exceed_the_value() {
    for i in 0..60 {
        let rules = rules_of(i);
        let h = seeded_endgame(&rules, 500 + i, 4, 0);
        let pos = Pos::new(&rules, &h);
        let mut s = DealSolver::new(&rules);
        let v = s.value(&h, h.turn).unwrap();
        assert!(sure_points(&pos) <= v, "endgame {i}");
    }
}

/// At every trick start of a plain minimax over pairs endgames of 5 and 6
/// tricks (every option), the leading side takes at least its sure
/// points; and the partner's masters after a crossing add to them at
/// some of those trick starts (so the check covers them).
#[test]
fn the_partner_s_masters_are_sure_points_too() {
    let (mut starts, mut crossed) = (0, 0);
    for i in 0..40 {
        let rules = rules_of(3 * i);
        let h = seeded_endgame(&rules, 9_000 + i, 5 + (i % 2) as u32, 0);
        let table = rules.variant.table();
        let mut memo = HashMap::new();
        minimax(&rules, &h, 0, &mut memo);
        for (&(hands, turn), &v) in &memo {
            let mut start = h.clone();
            start.hands = hands.map(CardSet);
            start.turn = turn;
            start.trick = crate::rules::trick::Trick::led_by(turn);
            let pos = Pos::new(&rules, &start);
            let sure = sure_points(&pos);
            let theirs = if table.side(turn) == 0 {
                v
            } else {
                pos.left - v
            };
            let hands = start
                .hands
                .map(|h| h.iter().map(|c| c.to_string()).collect::<Vec<_>>());
            assert!(
                sure <= theirs,
                "endgame {i}: sure {sure} above the value {theirs}: {hands:?}, {turn} leads"
            );
            starts += 1;
            crossed += u32::from(sure > leader_cashes(&pos).points);
        }
    }
    assert!(crossed * 50 > starts, "{crossed} of {starts} trick starts");
}

/// The sure points of seat 0 leading `h` under the default rules, and
/// its side's value by the plain minimax.
fn sure_and_value(h: &HandState) -> (i32, i32) {
    let rules = Rules::default();
    let pos = Pos::new(&rules, h);
    (
        sure_points(&pos),
        minimax(&rules, h, 0, &mut HashMap::new()),
    )
}

/// Under must-trump a leader void in the partner's suit must trump the
/// partner's master there and takes the lead back, so the partner's
/// masters of that suit are not counted (the leader holds the 2 of copes
/// under the 9 of copes, and nothing of bastos): only the crossing (the 9
/// of espases) is. Without the option the leader may discard, and the
/// partner's 9 and 1 of bastos count too (the 12 not: the opponent with
/// the 9 of copes holds two bastos).
#[test]
fn a_leader_that_must_trump_its_partner_s_master_stops_the_partner() {
    let h = trick_start(
        ["2C 2E 3E 4E", "9C 5E 5B 6B", "9E 9B 1B 12B", "6E 7E 7B 8B"],
        Trump::Suit(Suit::Copes),
    );
    for must_trump in [true, false] {
        let rules = Rules {
            must_trump,
            ..Rules::default()
        };
        let pos = Pos::new(&rules, &h);
        let v = minimax(&rules, &h, 0, &mut HashMap::new());
        let sure = sure_points(&pos);
        assert!(sure <= v, "must-trump {must_trump}: sure {sure}, value {v}");
        // The crossing (9E) always; 9B and 1B only when the leader may
        // discard on them.
        let expected = if must_trump { 6 } else { 6 + 6 + 5 };
        assert_eq!(sure, expected, "must-trump {must_trump} (value {v})");
    }
}

/// Each master the leader cashes is followed by every other seat holding
/// its suit, so the sure points count their lowest cards of it: the 9 and 1
/// of oros draw the 10 and 12 from seat 1 and the 3 and 11 from seat 3
/// (4 + 2 points besides the masters' 9 and two trick points); the third
/// trick goes to seat 3's 6 of espases.
#[test]
fn the_seats_that_follow_a_master_cashed_give_their_lowest_cards() {
    let h = trick_start(
        ["9O 1O 2E", "12O 10O 3E", "2O 4E 5E", "11O 3O 6E"],
        Trump::Suit(Suit::Copes),
    );
    assert_eq!(sure_and_value(&h), (17, 17));
}

/// A seat void in the suit cashed throws a card on each lead, at least its
/// cheapest: seat 1 throws the 10 of bastos and the 11 of espases on the 9
/// and 1 of oros (3 points), seat 3 follows with its 11 of oros and then
/// throws the 12 of bastos (2 + 3); the last trick goes to seat 1's 12 of
/// espases.
#[test]
fn the_seats_void_in_the_suit_cashed_throw_their_cheapest_cards() {
    let h = trick_start(
        ["9O 1O 2E", "12E 11E 10B", "2O 3O 4E", "11O 1B 12B"],
        Trump::Suit(Suit::Copes),
    );
    assert_eq!(sure_and_value(&h), (19, 19));
}

/// The partner follows its partner's master with its dearest card of the
/// suit: the 1 of oros on the 9 (4 + 5 points and the trick); the
/// opponents take the other two tricks.
#[test]
fn the_partner_follows_a_master_cashed_with_its_dearest_card() {
    let h = trick_start(
        ["9O 2E 3E", "4O 5E 6E", "1O 2O 12B", "5O 7E 8E"],
        Trump::Suit(Suit::Copes),
    );
    assert_eq!(sure_and_value(&h), (10, 10));
}

/// Once the others have run out of a suit, the leader's cards left of it
/// win too: under botifarra the 9 and 1 of oros draw both oros of seats 1
/// and 3, and the 10 of oros then takes the last trick (every point).
#[test]
fn the_cards_left_of_a_suit_the_others_ran_out_of_are_sure_tricks() {
    let h = trick_start(
        ["9O 1O 10O", "12O 4O 7E", "2E 3E 4E", "11O 3O 8E"],
        Trump::Botifarra,
    );
    let left = Pos::new(&Rules::default(), &h).left;
    assert_eq!((sure_and_value(&h), left), ((18, 18), 18));
}

/// The opponents throw their cheapest cards on the partner's masters too:
/// seat 0 crosses with the 2 of oros to its partner's 9, which cashes the
/// 1; seat 1, void in oros, throws the 11 and 12 of espases (5 points).
#[test]
fn the_opponents_throw_on_the_partner_s_masters_after_a_crossing() {
    let h = trick_start(
        ["2O 3E 4E", "1E 12E 11E", "9O 1O 5B", "4O 5O 6B"],
        Trump::Suit(Suit::Copes),
    );
    assert_eq!(sure_and_value(&h), (16, 16));
}
