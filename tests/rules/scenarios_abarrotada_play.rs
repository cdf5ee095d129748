//! docs/rules.md section 10, playing and scoring the individual variants: no
//! partners, the 36-card deck, thresholds 18 and 24, forfeit shares,
//! per-seat totals.

use botifarra::rules::{Action, Call, CardSet, HandResult, Match, Phase, Rules, Variant, Winner};

use crate::helpers;
use crate::helpers::{
    act, act_now, call, hand, legal, pass_all, plays, rules, scored, seed, set_points, trump,
};

#[test]
fn abarrotada_no_partner_exemption_when_beating() {
    let spec: [&[&str]; 4] = [
        &["7E"],
        &["1O", "2E"],
        &["2O", "3E"],
        &["3O", "9O", "2C", "12B"],
    ];
    // Seat 3 follows after seat 1 (its partner in the pairs game) led the ace.
    let mut m = helpers::playing(rules(Variant::Abarrotada, 0), "C", spec);
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(legal(&m), hand(&["9O"]));
    let mut m = helpers::playing(rules(Variant::Pairs, 0), "C", spec);
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(
        legal(&m),
        hand(&["3O", "9O"]),
        "in pairs the partner frees seat 3"
    );
    // Void: trump to beat whoever is winning.
    let spec: [&[&str]; 4] = [&["7E"], &["1O", "2E"], &["2O", "3E"], &["2C", "12B", "5E"]];
    let mut m = helpers::playing(rules(Variant::Abarrotada, 0), "C", spec);
    plays(&mut m, &["1O", "2O"]);
    assert_eq!(legal(&m), hand(&["2C"]));
}

#[test]
fn abarrotada3_deck_has_36_cards_without_2s_3s_4s() {
    let deck = Variant::Abarrotada3.deck();
    assert_eq!(deck.len(), 36);
    assert!(deck.iter().all(|c| !matches!(c.rank(), 2..=4)));
    assert_eq!(Variant::Abarrotada.deck(), CardSet::FULL);
    let mut m = Match::new(rules(Variant::Abarrotada3, 2), seed(3)).unwrap();
    act(&mut m, 2, Action::Deal);
    let h = m.hand.as_ref().unwrap();
    assert!(h.dealt[..3].iter().all(|d| d.len() == 12));
    assert!(h.dealt[3].is_empty());
    assert_eq!(h.dealt[0] | h.dealt[1] | h.dealt[2], deck);
    assert_eq!(m.view(Some(0)).hand_sizes, [12, 12, 12]);
    assert_eq!(m.view(None).scores.len(), 3);
}

/// Dealer 0 names `trump_word`, `calls` are said, then a last trick worth
/// 6 (won by seat 2) is played on top of `before`.
fn last_trick(
    variant: Variant,
    trump_word: &str,
    calls: &[Call],
    before: [u8; 4],
) -> (Match, HandResult) {
    let r = Rules {
        target: 10_000,
        ..rules(variant, 0)
    };
    let seats = variant.table().seats as usize;
    let codes = ["5O", "9O", "6O", "7O"];
    let mut spec: [&[&str]; 4] = [&[]; 4];
    for k in 0..seats {
        spec[(1 + k) % seats] = std::slice::from_ref(&codes[k]);
    }
    let mut m = helpers::dealt(r, helpers::hands_of(spec));
    act_now(&mut m, trump(trump_word));
    for &c in calls {
        act_now(&mut m, call(c));
    }
    pass_all(&mut m);
    set_points(&mut m, before);
    let events = plays(&mut m, &codes[..seats]);
    let result = scored(&events).pop().expect("the hand is scored");
    (m, result)
}

#[test]
fn abarrotada_threshold_18() {
    let (m, r) = last_trick(Variant::Abarrotada, "O", &[], [13, 19, 20, 14]);
    assert_eq!(r.points, [13, 19, 26, 14]);
    assert_eq!(r.recorded, [0, 1, 8, 0]);
    assert_eq!(m.scores, [0, 1, 8, 0]);
    // 18 exactly records nothing.
    let (_, r) = last_trick(Variant::Abarrotada, "O", &[], [18, 18, 12, 18]);
    assert_eq!(r.recorded, [0, 0, 0, 0]);
}

#[test]
fn abarrotada_multiplier_applies_to_every_player() {
    let (_, r) = last_trick(
        Variant::Abarrotada,
        "botifarra",
        &[Call::Contro],
        [13, 19, 20, 14],
    );
    assert_eq!(r.multiplier, 4);
    assert_eq!(r.recorded, [0, 4, 32, 0]);
}

#[test]
fn abarrotada3_threshold_24() {
    let (m, r) = last_trick(Variant::Abarrotada3, "O", &[], [25, 23, 18, 0]);
    assert_eq!(r.points, [25, 23, 24]);
    assert_eq!(r.recorded, [1, 0, 0]);
    assert_eq!(m.scores[..3], [1, 0, 0]);
    assert_eq!(m.view(None).scores, [1, 0, 0]);
}

#[test]
fn abarrotada_forfeit_share_rounded_down() {
    for (variant, share) in [
        (Variant::Abarrotada, 36 * 2 / 3),
        (Variant::Abarrotada3, 36 * 2 / 2),
    ] {
        let mut m = Match::new(
            Rules {
                target: 10_000,
                ..rules(variant, 0)
            },
            seed(4),
        )
        .unwrap();
        act(&mut m, 0, Action::Deal);
        act(&mut m, 0, trump("E"));
        act(&mut m, 1, call(Call::Contro));
        pass_all(&mut m);
        let mut events = Vec::new();
        m.resign(1, &mut events).unwrap();
        let r = &scored(&events)[0];
        assert_eq!(r.forfeit, Some(1));
        let seats = variant.table().seats as usize;
        let expected: Vec<u32> = (0..seats).map(|s| if s == 1 { 0 } else { share }).collect();
        assert_eq!(r.recorded, expected, "{variant:?}");
    }
    // Botifarra, Estevet and recontro: 36 × 8 = 288, shared by three: 96.
    let mut m = Match::new(
        Rules {
            target: 10_000,
            ..rules(Variant::Abarrotada, 0)
        },
        seed(4),
    )
    .unwrap();
    act(&mut m, 0, Action::Deal);
    act(&mut m, 0, trump("estevet"));
    act(&mut m, 3, trump("botifarra"));
    act(&mut m, 3, call(Call::Recontro));
    let mut events = Vec::new();
    m.resign(0, &mut events).unwrap();
    assert_eq!(scored(&events)[0].recorded, [0, 96, 96, 96]);
}

#[test]
fn abarrotada_per_seat_scores_and_winner() {
    // Seat 2 takes the last trick and passes the target.
    let r = Rules {
        target: 101,
        ..rules(Variant::Abarrotada, 0)
    };
    let mut m = helpers::dealt(r, helpers::hands_of([&["7O"], &["5O"], &["9O"], &["6O"]]));
    m.scores = [90, 10, 95, 98];
    act_now(&mut m, trump("O"));
    pass_all(&mut m);
    set_points(&mut m, [10, 10, 20, 26]);
    plays(&mut m, &["5O", "9O", "6O", "7O"]);
    // Seat 2 records 8 (103), seat 3 records 8 (106): the highest total wins.
    assert_eq!(m.scores, [90, 10, 103, 106]);
    assert_eq!(m.phase(), Phase::MatchOver);
    assert_eq!(m.winner, Some(Winner::Side(3)));
    assert_eq!(m.view(Some(0)).scores, [90, 10, 103, 106]);
    // Equal top totals after max_hands: a draw.
    let r = Rules {
        max_hands: Some(1),
        ..rules(Variant::Abarrotada3, 0)
    };
    let mut m = helpers::dealt(r, helpers::hands_of([&["7O"], &["5O"], &["9O"], &[]]));
    act_now(&mut m, trump("O"));
    pass_all(&mut m);
    set_points(&mut m, [30, 30, 6, 0]);
    plays(&mut m, &["5O", "9O", "7O"]);
    assert_eq!(m.scores[..3], [6, 6, 0]);
    assert_eq!(m.winner, Some(Winner::Draw));
}
