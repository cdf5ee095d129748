//! docs/rules.md sections 5, 6 and 7: forfeits, scoring a hand, the end of the
//! match. Each hand is played down to one last trick, with the points taken
//! before it set directly.

use botifarra::rules::{Action, Call, Event, HandResult, Match, Phase, RuleError, Rules, Winner};

use crate::helpers;
use crate::helpers::{
    act, act_now, call, hand, pairs, pass_all, plays, scored, seed, set_points, trump,
};

/// Deals the next hand of `m`, names `trump_word` (dealer), says `calls`,
/// sets the points so far and plays a last trick (worth 6, won by the
/// dealer's partner) that leaves the dealer's team with `points`.
fn play_hand(m: &mut Match, trump_word: &str, calls: &[Call], points: u8) -> Vec<Event> {
    let dealer = m.dealer;
    act(m, dealer, Action::Deal);
    let h = m.hand.as_mut().unwrap();
    for (k, code) in ["2O", "9O", "3O", "4O"].iter().enumerate() {
        let seat = (dealer as usize + 1 + k) % 4;
        h.hands[seat] = hand(&[code]);
        h.dealt[seat] = h.hands[seat];
    }
    act_now(m, trump(trump_word));
    for &c in calls {
        act_now(m, call(c));
    }
    pass_all(m);
    let team = dealer as usize % 2;
    let mut before = [0; 4];
    before[team] = points - 6;
    before[1 - team] = 72 - points;
    set_points(m, before);
    plays(m, &["2O", "9O", "3O", "4O"])
}

/// The winner and totals of the last event, when it ends the match.
fn match_over(events: &[Event]) -> Option<(Winner, Vec<i32>)> {
    match events.last()? {
        Event::MatchOver { winner, scores } => Some((*winner, scores.to_vec())),
        _ => None,
    }
}

fn one_hand(rules: Rules, trump_word: &str, calls: &[Call], points: u8) -> (Match, HandResult) {
    let mut m = Match::new(rules, seed(5)).unwrap();
    let events = play_hand(&mut m, trump_word, calls, points);
    let results = scored(&events);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0], m.results[0]);
    (m, results[0].clone())
}

#[test]
fn team_above_36_records_the_excess_times_the_multiplier() {
    let (m, r) = one_hand(pairs(0), "O", &[], 40);
    assert_eq!(r.points, vec![40, 32]);
    assert_eq!(r.recorded, vec![4, 0]);
    assert_eq!(r.multiplier, 1);
    assert_eq!(m.scores[..2], [4, 0]);
    let (m, r) = one_hand(pairs(0), "O", &[], 30);
    assert_eq!(r.recorded, vec![0, 6]);
    assert_eq!(m.scores[..2], [0, 6]);
}

#[test]
fn tie_36_scores_nothing() {
    let (m, r) = one_hand(pairs(0), "B", &[Call::Contro], 36);
    assert_eq!(r.points, vec![36, 36]);
    assert_eq!(r.recorded, vec![0, 0]);
    assert_eq!(m.scores[..2], [0, 0]);
    assert_eq!(m.phase(), Phase::AwaitingDeal);
}

#[test]
fn botifarra_contro_41_points_scores_20() {
    let (_, r) = one_hand(pairs(0), "botifarra", &[Call::Contro], 41);
    assert_eq!(r.multiplier, 4);
    assert_eq!(r.recorded, vec![20, 0]);
}

fn multipliers(rules: &Rules, trump_word: &str) -> Vec<u32> {
    let sequences: [&[Call]; 4] = [
        &[],
        &[Call::Contro],
        &[Call::Contro, Call::Recontro],
        &[Call::Contro, Call::Recontro, Call::SantVicenc],
    ];
    sequences
        .iter()
        .map(|calls| {
            let (_, r) = one_hand(rules.clone(), trump_word, calls, 40);
            assert_eq!(r.recorded, vec![4 * r.multiplier, 0]);
            r.multiplier
        })
        .collect()
}

#[test]
fn powers_doubling_factors() {
    let rules = Rules {
        sant_vicenc_with_botifarra: true,
        ..pairs(0)
    };
    assert_eq!(multipliers(&rules, "E"), [1, 2, 4, 8]);
    assert_eq!(multipliers(&rules, "botifarra"), [2, 4, 8, 16]);
    // The multiplier is reported after each call.
    let mut m = Match::new(pairs(0), seed(1)).unwrap();
    act(&mut m, 0, Action::Deal);
    act(&mut m, 0, trump("E"));
    let e = act(&mut m, 1, call(Call::Contro));
    assert_eq!(
        e,
        [Event::DoubleCalled {
            seat: 1,
            call: Call::Contro,
            multiplier: 2
        }]
    );
    let e = act(&mut m, 2, call(Call::Recontro));
    assert_eq!(
        e,
        [Event::DoubleCalled {
            seat: 2,
            call: Call::Recontro,
            multiplier: 4
        }]
    );
}

#[test]
fn linear_doubling_factors() {
    let rules = Rules {
        doubling: botifarra::rules::Doubling::Linear,
        sant_vicenc_with_botifarra: true,
        ..pairs(0)
    };
    assert_eq!(multipliers(&rules, "C"), [1, 2, 3, 4]);
    assert_eq!(multipliers(&rules, "botifarra"), [2, 4, 6, 8]);
}

#[test]
fn forfeit_gives_36_times_multiplier_to_the_other_team() {
    let mut m = Match::new(
        Rules {
            target: 1000,
            ..pairs(0)
        },
        seed(2),
    )
    .unwrap();
    act(&mut m, 0, Action::Deal);
    act(&mut m, 0, trump("O"));
    act(&mut m, 1, call(Call::Contro));
    pass_all(&mut m);
    let c = helpers::legal(&m).lowest().unwrap();
    act_now(&mut m, Action::Play { card: c });
    let mut events = Vec::new();
    m.resign(3, &mut events).unwrap();
    assert_eq!(events[0], Event::HandForfeited { seat: 3, side: 1 });
    let r = &scored(&events)[0];
    assert_eq!(r.forfeit, Some(1));
    assert_eq!(r.multiplier, 2);
    assert_eq!(r.recorded, vec![72, 0]);
    assert_eq!(m.scores[..2], [72, 0]);
    assert_eq!(m.phase(), Phase::AwaitingDeal);
    assert_eq!(m.dealer, 1);
    // Before trump is named the multiplier is 1; the declaring team may
    // forfeit too; botifarra with recontro is 36 × 8.
    act(&mut m, 1, Action::Deal);
    let mut events = Vec::new();
    m.resign(1, &mut events).unwrap();
    assert_eq!(scored(&events)[0].recorded, vec![36, 0]);
    act(&mut m, 2, Action::Deal);
    act(&mut m, 2, trump("botifarra"));
    act(&mut m, 3, call(Call::Contro));
    act(&mut m, 0, call(Call::Recontro));
    let mut events = Vec::new();
    m.resign(0, &mut events).unwrap();
    assert_eq!(scored(&events)[0].recorded, vec![0, 288]);
}

#[test]
fn resigning_needs_a_hand_in_progress() {
    let mut m = Match::new(pairs(0), seed(2)).unwrap();
    let before = m.clone();
    let mut events = Vec::new();
    let err = m.resign(0, &mut events).expect_err("no hand yet");
    assert!(matches!(
        err,
        RuleError::WrongPhase {
            phase: Phase::AwaitingDeal,
            ..
        }
    ));
    assert_eq!(m, before);
    assert!(events.is_empty());
}

#[test]
fn match_ends_when_target_reached() {
    let mut m = Match::new(pairs(0), seed(6)).unwrap();
    m.scores = [93, 50, 0, 0];
    play_hand(&mut m, "O", &[], 40);
    assert_eq!(m.scores[..2], [97, 50]);
    assert_eq!(m.phase(), Phase::AwaitingDeal, "97 is not enough");
    // Dealer 1: seats 1 and 3 win this one; then dealer 2's team reaches 101.
    play_hand(&mut m, "O", &[], 30);
    assert_eq!(m.scores[..2], [103, 50]);
    assert_eq!(m.phase(), Phase::MatchOver);
    assert_eq!(m.winner, Some(Winner::Side(0)));
    let mut m = Match::new(pairs(0), seed(6)).unwrap();
    m.scores = [97, 50, 0, 0];
    let events = play_hand(&mut m, "O", &[], 40);
    assert_eq!(match_over(&events), Some((Winner::Side(0), vec![101, 50])));
    assert_eq!(m.phase(), Phase::MatchOver);
    assert_eq!(m.turn(), None);
    assert!((0..4).all(|s| m.legal_actions(s).is_empty()));
    assert!(matches!(
        helpers::refused(&mut m, 1, Action::Deal),
        RuleError::WrongPhase { .. }
    ));
    let mut events = Vec::new();
    assert!(m.resign(1, &mut events).is_err());
}

#[test]
fn fifty_point_game_target_51() {
    let rules = Rules {
        target: 51,
        ..pairs(0)
    };
    let mut m = Match::new(rules, seed(6)).unwrap();
    m.scores = [46, 0, 0, 0];
    play_hand(&mut m, "O", &[], 40);
    assert_eq!(m.scores[..2], [50, 0]);
    assert_eq!(m.phase(), Phase::AwaitingDeal, "50 is not more than 50");
    m.scores = [47, 0, 0, 0];
    m.dealer = 0;
    play_hand(&mut m, "O", &[], 40);
    assert_eq!(m.winner, Some(Winner::Side(0)));
    // The same hand in a 101 game goes on.
    let mut m = Match::new(pairs(0), seed(6)).unwrap();
    m.scores = [47, 0, 0, 0];
    play_hand(&mut m, "O", &[], 40);
    assert_eq!(m.phase(), Phase::AwaitingDeal);
}

#[test]
fn max_hands_ends_match_and_equal_totals_draw() {
    let rules = Rules {
        max_hands: Some(2),
        ..pairs(0)
    };
    let mut m = Match::new(rules.clone(), seed(7)).unwrap();
    play_hand(&mut m, "O", &[], 40);
    assert_eq!(m.phase(), Phase::AwaitingDeal);
    let events = play_hand(&mut m, "O", &[], 40);
    assert_eq!(m.scores[..2], [4, 4]);
    assert_eq!(m.winner, Some(Winner::Draw));
    assert_eq!(match_over(&events), Some((Winner::Draw, vec![4, 4])));
    assert_eq!(serde_json::to_value(Winner::Draw).unwrap(), "draw");
    // Unequal totals: the higher wins.
    let mut m = Match::new(rules, seed(7)).unwrap();
    play_hand(&mut m, "O", &[], 40);
    play_hand(&mut m, "O", &[], 44);
    assert_eq!(m.winner, Some(Winner::Side(1)));
    assert_eq!(m.hands_dealt, 2);
    // A single 36-36 hand is a draw at 0-0.
    let mut m = Match::new(
        Rules {
            max_hands: Some(1),
            ..pairs(3)
        },
        seed(7),
    )
    .unwrap();
    play_hand(&mut m, "botifarra", &[], 36);
    assert_eq!(m.winner, Some(Winner::Draw));
}
