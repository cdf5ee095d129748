//! docs/rules.md section 3: choosing trump, the doubling rounds, who leads, who
//! deals next, and the first dealer.

use botifarra::rules::{
    Action, Call, CallRecord, Event, FirstDealer, Match, Phase, RuleError, Rules, Suit, Trump,
    Variant,
};

use crate::helpers;
use crate::helpers::{
    act, act_now, call, choice, dealt, declares, hands_of, legal_now, must_choose, pairs, refused,
    seed, trump, turn,
};

const HANDS: [&[&str]; 4] = [&["1O"], &["2O"], &["3O"], &["4O"]];

/// The pairs game dealt by `dealer`, trump to be chosen.
fn choosing(dealer: u8) -> Match {
    dealt(pairs(dealer), hands_of(HANDS))
}

#[test]
fn dealer_chooses_trump_first() {
    let m = choosing(2);
    assert_eq!(m.phase(), Phase::ChoosingTrump);
    assert_eq!(turn(&m), 2);
    let mut expected = declares();
    expected.push(trump("delegate"));
    assert_eq!(legal_now(&m), expected);
}

#[test]
fn dealer_may_delegate_to_partner() {
    let mut m = choosing(1);
    let events = act(&mut m, 1, trump("passo"));
    assert_eq!(
        events,
        vec![Event::Delegated {
            seat: 1,
            to: 3,
            estevet: false
        }]
    );
    assert_eq!(turn(&m), 3);
    assert_eq!(legal_now(&m), declares());
    let events = act(&mut m, 3, trump("E"));
    assert_eq!(
        events,
        vec![Event::TrumpChosen {
            seat: 3,
            trump: Trump::Suit(Suit::Espases)
        }]
    );
    let h = m.hand.as_ref().unwrap();
    assert_eq!(h.declarer, Some(3));
    assert_eq!(h.trump, Some(Trump::Suit(Suit::Espases)));
    // The dealer's team still declares: the defenders (seats 0 and 2) speak,
    // from the declarer's right.
    assert_eq!(m.phase(), Phase::Doubling);
    assert_eq!(turn(&m), 0);
}

#[test]
fn partner_cannot_delegate_back() {
    let mut m = choosing(0);
    act(&mut m, 0, trump("delegate"));
    // Estevet does not exist in the pairs game either.
    must_choose(&mut m, 2);
    assert!(matches!(
        refused(&mut m, 0, trump("O")),
        RuleError::NotYourTurn { turn: Some(2) }
    ));
}

#[test]
fn contro_round_starts_at_declarers_right() {
    let mut m = choosing(0);
    act(&mut m, 0, trump("O"));
    assert_eq!(turn(&m), 1);
    assert_eq!(legal_now(&m), vec![call(Call::Contro), call(Call::Pass)]);
    for seat in [0, 2, 3] {
        assert!(matches!(
            refused(&mut m, seat, call(Call::Contro)),
            RuleError::NotYourTurn { turn: Some(1) }
        ));
    }
    act(&mut m, 1, call(Call::Pass));
    assert_eq!(turn(&m), 3);
    // When the partner declared, the order starts at the partner's right.
    let mut m = choosing(0);
    act(&mut m, 0, trump("delegate"));
    act(&mut m, 2, trump("B"));
    assert_eq!(turn(&m), 3);
    act(&mut m, 3, call(Call::Pass));
    assert_eq!(turn(&m), 1);
}

#[test]
fn first_contro_ends_the_round() {
    let mut m = choosing(0);
    act(&mut m, 0, trump("O"));
    let events = act(&mut m, 1, call(Call::Contro));
    assert_eq!(
        events,
        vec![Event::DoubleCalled {
            seat: 1,
            call: Call::Contro,
            multiplier: 2
        }]
    );
    // Seat 3 does not speak: the recontro round begins with seat 2.
    assert_eq!(m.phase(), Phase::Doubling);
    assert_eq!(turn(&m), 2);
    assert_eq!(legal_now(&m), vec![call(Call::Recontro), call(Call::Pass)]);
    assert!(matches!(
        refused(&mut m, 3, call(Call::Pass)),
        RuleError::NotYourTurn { .. }
    ));
    // A double of the wrong level is refused.
    let err = refused(&mut m, 2, call(Call::Contro));
    assert_eq!(
        err,
        RuleError::WrongCall {
            expected: Call::Recontro
        }
    );
    assert_eq!(
        refused(&mut m, 2, call(Call::SantVicenc)),
        RuleError::WrongCall {
            expected: Call::Recontro
        }
    );
}

#[test]
fn recontro_speakers_start_after_the_contro_player() {
    let mut m = choosing(0);
    act(&mut m, 0, trump("O"));
    act(&mut m, 1, call(Call::Pass));
    act(&mut m, 3, call(Call::Contro));
    // After seat 3 come seat 0, then seat 2.
    assert_eq!(turn(&m), 0);
    act(&mut m, 0, call(Call::Pass));
    assert_eq!(turn(&m), 2);
    act(&mut m, 2, call(Call::Recontro));
    // Sant Vicenç: the defenders from the recontro player's right.
    assert_eq!(turn(&m), 3);
    assert_eq!(
        legal_now(&m),
        vec![call(Call::SantVicenc), call(Call::Pass)]
    );
    act(&mut m, 3, call(Call::Pass));
    assert_eq!(turn(&m), 1);
    act(&mut m, 1, call(Call::SantVicenc));
    // No fourth double: play begins.
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(m.multiplier(), 8);
    let h = m.hand.as_ref().unwrap();
    let said: Vec<CallRecord> = h.calls.clone();
    let rec = |seat, call| CallRecord { seat, call };
    assert_eq!(
        said,
        [
            rec(1, Call::Pass),
            rec(3, Call::Contro),
            rec(0, Call::Pass),
            rec(2, Call::Recontro),
            rec(3, Call::Pass),
            rec(1, Call::SantVicenc)
        ]
    );
    assert_eq!(h.doublers, vec![3, 2, 1]);
}

#[test]
fn both_defenders_pass_starts_play() {
    let mut m = choosing(2);
    act(&mut m, 2, trump("C"));
    act(&mut m, 3, call(Call::Pass));
    assert_eq!(
        m.phase(),
        Phase::Doubling,
        "each pass is an action the match waits for"
    );
    act(&mut m, 1, call(Call::Pass));
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(m.multiplier(), 1);
    // Both declaring players passing the recontro round also starts play.
    let mut m = choosing(2);
    act(&mut m, 2, trump("C"));
    act(&mut m, 3, call(Call::Contro));
    act(&mut m, 0, call(Call::Pass));
    act(&mut m, 2, call(Call::Pass));
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(m.multiplier(), 2);
}

#[test]
fn sant_vicenc_not_allowed_with_botifarra() {
    let mut m = choosing(0);
    act(&mut m, 0, trump("botifarra"));
    act(&mut m, 1, call(Call::Contro));
    act(&mut m, 2, call(Call::Recontro));
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(m.multiplier(), 8);
    assert!(matches!(
        refused(&mut m, 3, call(Call::SantVicenc)),
        RuleError::WrongPhase { .. }
    ));
}

#[test]
fn sant_vicenc_with_botifarra_option_allows_it() {
    let rules = Rules {
        sant_vicenc_with_botifarra: true,
        ..pairs(0)
    };
    let mut m = dealt(rules, hands_of(HANDS));
    act(&mut m, 0, trump("botifarra"));
    act(&mut m, 1, call(Call::Contro));
    act(&mut m, 2, call(Call::Recontro));
    assert_eq!(m.phase(), Phase::Doubling);
    assert_eq!(turn(&m), 3);
    let events = act(&mut m, 3, call(Call::SantVicenc));
    assert_eq!(
        events,
        vec![Event::DoubleCalled {
            seat: 3,
            call: Call::SantVicenc,
            multiplier: 16
        }]
    );
    assert_eq!(m.phase(), Phase::Playing);
}

#[test]
fn first_trick_led_by_dealers_right() {
    for dealer in 0..4 {
        let mut m = choosing(dealer);
        act_now(&mut m, trump("delegate"));
        act_now(&mut m, trump("O"));
        helpers::pass_all(&mut m);
        assert_eq!(turn(&m), (dealer + 1) % 4, "dealer {dealer}");
    }
}

#[test]
fn next_dealer_is_to_the_right() {
    for (variant, seats) in [
        (Variant::Pairs, 4),
        (Variant::Abarrotada, 4),
        (Variant::Abarrotada3, 3),
    ] {
        let mut m = Match::new(
            Rules {
                target: 100_000,
                ..helpers::rules(variant, 1)
            },
            seed(3),
        )
        .unwrap();
        for k in 0..7u8 {
            let dealer = (1 + k) % seats;
            assert_eq!(m.dealer, dealer);
            assert_eq!(m.phase(), Phase::AwaitingDeal);
            assert_eq!(m.legal_actions(dealer), vec![Action::Deal]);
            assert_eq!(m.turn(), Some(dealer));
            act(&mut m, dealer, Action::Deal);
            assert_eq!(m.hand.as_ref().unwrap().dealer, dealer);
            act(&mut m, dealer, trump("O"));
            let mut events = Vec::new();
            m.resign(dealer, &mut events).unwrap();
        }
    }
}

#[test]
fn first_dealer_draw_records_the_turned_card() {
    let mut dealers = [0u32; 4];
    for n in 0..64u8 {
        let m = Match::new(Rules::default(), seed(n)).unwrap();
        let c = m.first_dealer_card.expect("the turned card is recorded");
        // Seat 0 owns oros, 1 copes, 2 espases, 3 bastos.
        assert_eq!(m.dealer, c.suit() as u8);
        assert_eq!(m.view(None).first_dealer_card, Some(c));
        assert_eq!(m.history_view(Some(0)).first_dealer_card, Some(c));
        dealers[m.dealer as usize] += 1;
        // The same seed draws the same card.
        assert_eq!(
            Match::new(Rules::default(), seed(n))
                .unwrap()
                .first_dealer_card,
            Some(c)
        );
    }
    assert!(
        dealers.iter().all(|&d| d > 0),
        "every seat may deal first: {dealers:?}"
    );
    // With three seats bastos belong to nobody.
    for n in 0..32u8 {
        let m = Match::new(
            Rules {
                variant: Variant::Abarrotada3,
                ..Rules::default()
            },
            seed(n),
        )
        .unwrap();
        assert!(m.dealer < 3);
        assert_ne!(m.first_dealer_card.unwrap().suit(), Suit::Bastos);
    }
}

#[test]
fn first_dealer_seat_option() {
    for s in 0..4 {
        let m = Match::new(pairs(s), seed(9)).unwrap();
        assert_eq!(m.dealer, s);
        assert_eq!(m.first_dealer_card, None);
        assert_eq!(m.legal_actions(s), vec![Action::Deal]);
    }
    let three = Rules {
        first_dealer: FirstDealer::Seat(3),
        variant: Variant::Abarrotada3,
        ..Rules::default()
    };
    assert!(Match::new(three, seed(9)).is_err());
    // As JSON the option is "draw" or a seat number.
    let r: Rules = serde_json::from_str(r#"{"first_dealer": 2}"#).unwrap();
    assert_eq!(r.first_dealer, FirstDealer::Seat(2));
    let r: Rules = serde_json::from_str(r#"{"first_dealer": "draw"}"#).unwrap();
    assert_eq!(r.first_dealer, FirstDealer::Draw);
}

#[test]
fn hands_are_dealt_twelve_cards_each_from_the_whole_deck() {
    let mut m = Match::new(pairs(0), seed(4)).unwrap();
    act(&mut m, 0, Action::Deal);
    let h = m.hand.as_ref().unwrap();
    assert!(h.dealt.iter().all(|d| d.len() == 12));
    let union = h
        .dealt
        .iter()
        .fold(botifarra::rules::CardSet::EMPTY, |a, &b| a | b);
    assert_eq!(union, botifarra::rules::CardSet::FULL);
    assert_eq!(choice("passo"), choice("delegate"));
}
