//! docs/rules.md section 4 (the default "lliure" play rules), the trick winner,
//! and how a refused play is reported. Each scenario deals short hands and
//! checks the exact legal set of the seat to play.

use botifarra::rules::legal::{PlayContext, TrickSoFar, legal_cards, why_illegal};
use botifarra::rules::{Action, Call, Event, Phase, RuleError, Suit, Variant};

use crate::helpers;
use crate::helpers::{
    act, call, card, hand, legal, pairs_playing, play_action, plays, refused, trump, turn,
    why_refused,
};

#[test]
fn leader_may_play_any_card() {
    let mut m = pairs_playing(
        0,
        "O",
        [
            &["2C", "9O", "5E", "12B"],
            &["3C", "4C", "5C", "6C"],
            &["7C", "8C", "10C", "11C"],
            &["12C", "1C", "9C", "2O"],
        ],
    );
    assert_eq!(legal(&m), hand(&["2C", "9O", "5E", "12B"]));
    // The winner of a trick leads the next one and may play anything too.
    plays(&mut m, &["2C", "3C", "7C", "9C"]);
    assert_eq!(turn(&m), 3);
    assert_eq!(legal(&m), hand(&["12C", "1C", "2O"]));
}

#[test]
fn must_follow_suit_when_possible() {
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["1O", "2E"],
            &["9O", "2O", "5C", "12B"],
            &["3O", "4O"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["1O"]);
    assert_eq!(legal(&m), hand(&["9O"]));
    assert_eq!(
        why_refused(&mut m, "5C"),
        RuleError::MustFollowSuit(Suit::Oros)
    );
    assert_eq!(
        why_refused(&mut m, "12B"),
        RuleError::MustFollowSuit(Suit::Oros)
    );
}

#[test]
fn must_beat_opponent_when_following_suit() {
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["1O", "2E"],
            &["9O", "2O", "5C", "12B"],
            &["3O", "4O"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["1O"]);
    assert_eq!(why_refused(&mut m, "2O"), RuleError::MustBeat(card("1O")));
    let mut m = pairs_playing(
        0,
        "O",
        [
            &["11C", "2E"],
            &["2C", "12C", "1C", "9O"],
            &["3C", "4C"],
            &["5C", "6C"],
        ],
    );
    plays(&mut m, &["11C"]);
    assert_eq!(legal(&m), hand(&["12C", "1C"]));
    assert_eq!(why_refused(&mut m, "2C"), RuleError::MustBeat(card("11C")));
    assert_eq!(
        why_refused(&mut m, "9O"),
        RuleError::MustFollowSuit(Suit::Copes)
    );
}

#[test]
fn cannot_beat_opponent_may_play_any_card_of_the_suit_led() {
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["9O", "2E"],
            &["2O", "1O", "5C"],
            &["3O", "4O"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["9O"]);
    assert_eq!(legal(&m), hand(&["2O", "1O"]));
}

#[test]
fn partner_winning_frees_from_beating() {
    // Following suit: any card of the suit, no need to beat the partner.
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["1O", "2E"],
            &["2O", "3E"],
            &["9O", "3O", "5C"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(turn(&m), 2);
    assert_eq!(legal(&m), hand(&["9O", "3O"]));
    // Void: any card, no obligation to trump.
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["1O", "2E"],
            &["2O", "3E"],
            &["5C", "12B", "4E"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(legal(&m), hand(&["5C", "12B", "4E"]));
}

#[test]
fn partner_winning_with_a_trump_frees_from_overtrumping() {
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["1O", "2E"],
            &["2C", "3E"],
            &["5O", "6O"],
            &["3C", "9C", "12B"],
        ],
    );
    // Seat 1 trumps; seat 2 follows; seat 3's partner (seat 1) wins.
    plays(&mut m, &["1O", "2C", "5O"]);
    assert_eq!(turn(&m), 3);
    assert_eq!(legal(&m), hand(&["3C", "9C", "12B"]));
}

#[test]
fn void_must_trump_to_win() {
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["1O", "2E"],
            &["2C", "7C", "9B", "12E"],
            &["3O", "4O"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["1O"]);
    assert_eq!(legal(&m), hand(&["2C", "7C"]));
    assert_eq!(
        why_refused(&mut m, "9B"),
        RuleError::MustTrumpToBeat(card("1O"))
    );
}

#[test]
fn void_must_overtrump_an_opponents_trump() {
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["1O", "2E"],
            &["7C", "3E"],
            &["2C", "10C", "9B"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["1O", "7C"]);
    assert_eq!(legal(&m), hand(&["10C"]));
    assert_eq!(
        why_refused(&mut m, "2C"),
        RuleError::MustTrumpToBeat(card("7C"))
    );
    assert_eq!(
        why_refused(&mut m, "9B"),
        RuleError::MustTrumpToBeat(card("7C"))
    );
}

#[test]
fn overtrumped_opponent_allows_any_card_of_led_suit() {
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["12O", "2E"],
            &["2C", "3E"],
            &["9O", "3O", "1C", "5B"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["12O", "2C"]);
    // 9O would beat 12O but no oros beats a trump; 1C beats 2C but the
    // player must follow suit.
    assert_eq!(legal(&m), hand(&["9O", "3O"]));
    assert_eq!(
        why_refused(&mut m, "1C"),
        RuleError::MustFollowSuit(Suit::Oros)
    );
}

#[test]
fn void_and_cannot_beat_trump_may_play_anything() {
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["12O", "2E"],
            &["9C", "3E"],
            &["2C", "5B", "10E"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["12O", "9C"]);
    assert_eq!(legal(&m), hand(&["2C", "5B", "10E"]));
}

#[test]
fn void_under_botifarra_may_play_anything() {
    let mut m = pairs_playing(
        0,
        "botifarra",
        [
            &["12O", "2E"],
            &["9C", "1B", "3E"],
            &["2C", "5B"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["12O"]);
    assert_eq!(legal(&m), hand(&["9C", "1B", "3E"]));
}

#[test]
fn trick_won_by_highest_trump_else_highest_of_suit_led() {
    // No trump played: the highest card of the suit led wins; the 9 of
    // bastos and the ace of espases played off-suit do not.
    let mut m = pairs_playing(0, "C", [&["2O"], &["9B"], &["3O"], &["1E"]]);
    let events = plays(&mut m, &["2O", "9B", "3O", "1E"]);
    assert!(
        events.contains(&Event::TrickWon {
            seat: 2,
            points: 10
        }),
        "{events:?}"
    );
    assert_eq!(m.results[0].points, vec![10, 0]);
    // Trumps played: the highest trump wins over the manilla of the suit led.
    let mut m = pairs_playing(0, "C", [&["9O"], &["2C"], &["10C"], &["3C"]]);
    let events = plays(&mut m, &["9O", "2C", "10C", "3C"]);
    assert!(
        events.contains(&Event::TrickWon { seat: 2, points: 7 }),
        "{events:?}"
    );
}

#[test]
fn winner_of_a_trick_leads_the_next() {
    let mut m = pairs_playing(
        1,
        "E",
        [&["4O", "5O"], &["2O", "6O"], &["3O", "7O"], &["1O", "8O"]],
    );
    plays(&mut m, &["2O", "3O", "1O", "4O"]);
    assert_eq!(m.hand.as_ref().unwrap().tricks.len(), 1);
    assert_eq!(turn(&m), 3);
}

#[test]
fn refuses_a_card_not_in_hand() {
    let mut m = pairs_playing(
        0,
        "C",
        [&["1O", "2E"], &["2O", "3E"], &["9O", "3O"], &["5O", "6O"]],
    );
    assert_eq!(why_refused(&mut m, "9O"), RuleError::NotInHand(card("9O")));
}

#[test]
fn refuses_a_play_out_of_turn() {
    let mut m = pairs_playing(
        0,
        "C",
        [&["1O", "2E"], &["2O", "3E"], &["9O", "3O"], &["5O", "6O"]],
    );
    let err = refused(&mut m, 2, play_action("9O"));
    assert_eq!(err, RuleError::NotYourTurn { turn: Some(0) });
    assert!(err.to_string().contains("not your turn"), "{err}");
    assert!(m.legal_actions(2).is_empty());
}

#[test]
fn refuses_an_action_of_the_wrong_phase() {
    let mut m = pairs_playing(
        0,
        "C",
        [&["1O", "2E"], &["2O", "3E"], &["9O", "3O"], &["5O", "6O"]],
    );
    let err = refused(&mut m, 0, trump("O"));
    assert_eq!(
        err,
        RuleError::WrongPhase {
            phase: Phase::Playing,
            expected: Phase::ChoosingTrump
        }
    );
    assert_eq!(
        err.to_string(),
        "the match is in phase playing, this action needs choosing_trump"
    );
    let err = refused(&mut m, 0, call(Call::Contro));
    assert_eq!(
        err,
        RuleError::WrongPhase {
            phase: Phase::Playing,
            expected: Phase::Doubling
        }
    );
    let err = refused(&mut m, 0, Action::Deal);
    assert_eq!(
        err,
        RuleError::WrongPhase {
            phase: Phase::Playing,
            expected: Phase::AwaitingDeal
        }
    );
    // And a card while trump is being chosen.
    let mut m = helpers::dealt(
        helpers::pairs(3),
        helpers::hands_of([&["1O"], &["2O"], &["3O"], &["4O"]]),
    );
    let err = refused(&mut m, 3, play_action("4O"));
    assert_eq!(
        err,
        RuleError::WrongPhase {
            phase: Phase::ChoosingTrump,
            expected: Phase::Playing
        }
    );
    act(&mut m, 3, trump("E"));
    let err = refused(&mut m, 0, play_action("1O"));
    assert_eq!(
        err.to_string(),
        "the match is in phase doubling, this action needs playing"
    );
}

#[test]
fn play_context_api_agrees_with_the_rules() {
    // Seat 3 void in oros, trump copes, seat 0 (opponent) winning with 1O.
    let ctx = PlayContext {
        hand: hand(&["2C", "7C", "9B"]),
        trump: Some(Suit::Copes),
        trick: Some(TrickSoFar {
            led: Suit::Oros,
            winning: card("1O"),
            winner: 0,
            partner_played: true,
        }),
        seat: 3,
        table: Variant::Pairs.table(),
        forced: false,
        must_trump: false,
    };
    assert_eq!(legal_cards(&ctx), hand(&["2C", "7C"]));
    assert_eq!(
        why_illegal(&ctx, card("9B")),
        Some(RuleError::MustTrumpToBeat(card("1O")))
    );
    assert_eq!(why_illegal(&ctx, card("2C")), None);
    assert_eq!(
        why_illegal(&ctx, card("9O")),
        Some(RuleError::NotInHand(card("9O")))
    );
    // The same with seat 2 (partner of seat 0 winning): anything goes.
    let partner = PlayContext { seat: 2, ..ctx };
    assert_eq!(legal_cards(&partner), hand(&["2C", "7C", "9B"]));
}

#[test]
fn a_refused_card_never_enters_the_game() {
    let mut m = pairs_playing(
        0,
        "C",
        [
            &["1O", "2E"],
            &["9O", "2O", "3E"],
            &["3O", "4O"],
            &["5O", "6O"],
        ],
    );
    plays(&mut m, &["1O"]);
    // `refused` also checks that the match is unchanged.
    let err = refused(&mut m, 1, play_action("3E"));
    assert_eq!(err, RuleError::MustFollowSuit(Suit::Oros));
    assert_eq!(m.hand.as_ref().unwrap().hands[1], hand(&["9O", "2O", "3E"]));
}
