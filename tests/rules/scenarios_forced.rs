//! docs/rules.md 4.1 (forced mode, every cell of the table) and 4.2 (must-trump).

use botifarra::rules::{Match, RuleError, Rules, RulesError, Suit, Variant};

use crate::helpers;
use crate::helpers::{hand, legal, pairs, plays, seed, turn, why_refused};

fn forced() -> Rules {
    Rules {
        forced: true,
        ..pairs(3)
    }
}

fn must_trump() -> Rules {
    Rules {
        must_trump: true,
        ..pairs(3)
    }
}

/// Seat 0 leads; copes are trump.
fn deal(rules: Rules, spec: [&[&str]; 4]) -> Match {
    let m = helpers::playing(rules, "C", spec);
    assert_eq!(turn(&m), 0);
    m
}

const OTHER: &[&str] = &["2E", "3E", "4E", "5E", "6E", "7E"];

#[test]
fn forced_partner_winning_following_lowest_or_counting_card() {
    let mut m = deal(
        forced(),
        [
            &["9O", "2B"],
            &["2O", "3B"],
            &["3O", "5O", "12O", "10O", "2C"],
            OTHER,
        ],
    );
    plays(&mut m, &["9O", "2O"]);
    assert_eq!(legal(&m), hand(&["3O", "12O", "10O"]));
    assert_eq!(
        why_refused(&mut m, "5O"),
        RuleError::ForcedLowest {
            suit: Some(Suit::Oros),
            counting_allowed: true
        }
    );
}

#[test]
fn forced_partner_played_not_winning_following_lowest_card() {
    let mut m = deal(
        forced(),
        [
            &["3O", "2B"],
            &["9O", "3B"],
            &["4O", "5O", "12O", "10O", "2C"],
            OTHER,
        ],
    );
    plays(&mut m, &["3O", "9O"]);
    assert_eq!(legal(&m), hand(&["4O"]));
    assert_eq!(
        why_refused(&mut m, "12O"),
        RuleError::ForcedLowest {
            suit: Some(Suit::Oros),
            counting_allowed: false
        }
    );
}

#[test]
fn forced_partner_not_played_following_lowest_card() {
    let mut m = deal(
        forced(),
        [
            &["9O", "2B"],
            &["4O", "5O", "12O", "10O", "2C"],
            &["3O", "3B"],
            OTHER,
        ],
    );
    plays(&mut m, &["9O"]);
    assert_eq!(legal(&m), hand(&["4O"]));
    assert_eq!(
        why_refused(&mut m, "10O"),
        RuleError::ForcedLowest {
            suit: Some(Suit::Oros),
            counting_allowed: false
        }
    );
}

const VOID: &[&str] = &["12B", "4B", "10E", "6E", "8E"];

#[test]
fn forced_partner_winning_void_lowest_of_any_suit_or_counting_card() {
    let mut m = deal(
        forced(),
        [&["9O", "2B"], &["2O", "3B"], VOID, &["3O", "2E"]],
    );
    plays(&mut m, &["9O", "2O"]);
    assert_eq!(legal(&m), hand(&["4B", "6E", "12B", "10E"]));
    assert_eq!(
        why_refused(&mut m, "8E"),
        RuleError::ForcedLowest {
            suit: None,
            counting_allowed: true
        }
    );
}

#[test]
fn forced_partner_played_not_winning_void_lowest_of_any_suit() {
    let mut m = deal(
        forced(),
        [&["3O", "2B"], &["9O", "3B"], VOID, &["4O", "2E"]],
    );
    plays(&mut m, &["3O", "9O"]);
    assert_eq!(legal(&m), hand(&["4B", "6E"]));
    assert_eq!(
        why_refused(&mut m, "12B"),
        RuleError::ForcedLowest {
            suit: None,
            counting_allowed: false
        }
    );
}

#[test]
fn forced_partner_not_played_void_lowest_of_any_suit_or_counting_card() {
    let mut m = deal(
        forced(),
        [&["9O", "2B"], VOID, &["3O", "3B"], &["4O", "2E"]],
    );
    plays(&mut m, &["9O"]);
    assert_eq!(legal(&m), hand(&["4B", "6E", "12B", "10E"]));
}

#[test]
fn forced_applies_only_when_the_player_cannot_win() {
    // An opponent leads low: every oros beats it, so nothing is narrowed.
    let mut m = deal(
        forced(),
        [&["3O", "2B"], &["4O", "5O", "12O"], &["2O", "3B"], OTHER],
    );
    plays(&mut m, &["3O"]);
    assert_eq!(legal(&m), hand(&["4O", "5O", "12O"]));
    // The partner wins but the player could win: the default set stands.
    let mut m = deal(
        forced(),
        [
            &["3O", "2B"],
            &["2O", "3B"],
            &["4O", "5O", "12O", "10O"],
            OTHER,
        ],
    );
    plays(&mut m, &["3O", "2O"]);
    assert_eq!(legal(&m), hand(&["4O", "5O", "12O", "10O"]));
    // Void with a trump that would win: the whole hand stays legal.
    let mut m = deal(
        forced(),
        [
            &["9O", "2B"],
            &["2O", "3B"],
            &["3C", "12B", "4B", "8E"],
            OTHER,
        ],
    );
    plays(&mut m, &["9O", "2O"]);
    assert_eq!(legal(&m), hand(&["3C", "12B", "4B", "8E"]));
}

#[test]
fn must_trump_even_when_partner_is_winning() {
    let mut m = deal(
        must_trump(),
        [&["1O", "2B"], &["2O", "3B"], &["2C", "9C", "12B"], OTHER],
    );
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(legal(&m), hand(&["2C", "9C"]));
    assert_eq!(why_refused(&mut m, "12B"), RuleError::MustTrump);
    // Without the option the partner's lead frees the player.
    let mut m = deal(
        pairs(3),
        [&["1O", "2B"], &["2O", "3B"], &["2C", "9C", "12B"], OTHER],
    );
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(legal(&m), hand(&["2C", "9C", "12B"]));
}

#[test]
fn must_trump_even_when_the_trump_cannot_beat_a_higher_trump() {
    let mut m = deal(
        must_trump(),
        [&["1O", "2B"], &["9C", "3B"], &["2C", "12B"], OTHER],
    );
    plays(&mut m, &["1O", "9C"]);
    assert_eq!(legal(&m), hand(&["2C"]));
    assert_eq!(why_refused(&mut m, "12B"), RuleError::MustTrump);
}

#[test]
fn must_trump_overtrumps_when_possible() {
    let mut m = deal(
        must_trump(),
        [&["1O", "2B"], &["7C", "3B"], &["2C", "10C", "12B"], OTHER],
    );
    plays(&mut m, &["1O", "7C"]);
    assert_eq!(legal(&m), hand(&["10C"]));
}

#[test]
fn must_trump_without_a_trump_allows_any_card() {
    let mut m = deal(
        must_trump(),
        [&["1O", "2B"], &["2O", "3B"], &["12B", "4E"], OTHER],
    );
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(legal(&m), hand(&["12B", "4E"]));
}

#[test]
fn must_trump_leaves_following_suit_unchanged() {
    let mut m = deal(
        must_trump(),
        [&["1O", "2B"], &["2O", "3B"], &["3O", "9O", "2C"], OTHER],
    );
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(legal(&m), hand(&["3O", "9O"]));
}

#[test]
fn must_trump_changes_nothing_under_botifarra() {
    let mut m = helpers::playing(
        must_trump(),
        "botifarra",
        [&["1O", "2B"], &["2O", "3B"], &["2C", "9C", "12B"], OTHER],
    );
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(legal(&m), hand(&["2C", "9C", "12B"]));
}

#[test]
fn forced_and_must_trump_cannot_be_combined() {
    let both = Rules {
        forced: true,
        must_trump: true,
        ..Rules::default()
    };
    let err = Match::new(both, seed(1)).expect_err("refused");
    assert_eq!(
        err,
        RulesError("forced and must_trump cannot be combined".into())
    );
    assert_eq!(
        err.to_string(),
        "invalid rules: forced and must_trump cannot be combined"
    );
    // Each alone is fine; forced is a pairs-game mode.
    assert!(Match::new(forced(), seed(1)).is_ok());
    assert!(Match::new(must_trump(), seed(1)).is_ok());
    let individual = Rules {
        forced: true,
        variant: Variant::Abarrotada,
        ..Rules::default()
    };
    assert!(Match::new(individual, seed(1)).is_err());
}
