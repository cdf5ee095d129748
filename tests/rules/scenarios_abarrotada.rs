//! docs/rules.md section 10, choosing trump and doubling in the individual
//! variants: delegation to the left, Estevet, and who may double.

use botifarra::rules::{Call, CallRecord, Event, Match, Phase, RuleError, Variant};

use crate::helpers;
use crate::helpers::{
    act, call, dealt, declares, hands_of, legal_now, must_choose, refused, rules, trump, turn,
};

const FOUR: [&[&str]; 4] = [&["1O"], &["2O"], &["3O"], &["4O"]];
const THREE: [&[&str]; 4] = [&["1O"], &["5O"], &["6O"], &[]];

fn abarrotada(dealer: u8) -> Match {
    dealt(rules(Variant::Abarrotada, dealer), hands_of(FOUR))
}

fn abarrotada3(dealer: u8) -> Match {
    dealt(rules(Variant::Abarrotada3, dealer), hands_of(THREE))
}

#[test]
fn abarrotada_dealer_delegates_to_the_left() {
    let mut m = abarrotada(0);
    let mut expected = declares();
    expected.extend([trump("delegate"), trump("estevet")]);
    assert_eq!(legal_now(&m), expected);
    let events = act(&mut m, 0, trump("delegate"));
    assert_eq!(
        events,
        [Event::Delegated {
            seat: 0,
            to: 3,
            estevet: false
        }]
    );
    assert_eq!(turn(&m), 3);
}

#[test]
fn abarrotada_receiver_may_pass_the_choice_on() {
    let mut m = abarrotada(2);
    act(&mut m, 2, trump("delegate"));
    assert!(legal_now(&m).contains(&trump("delegate")));
    assert_eq!(
        act(&mut m, 1, trump("delegate")),
        [Event::Delegated {
            seat: 1,
            to: 0,
            estevet: false
        }]
    );
    assert_eq!(
        act(&mut m, 0, trump("delegate")),
        [Event::Delegated {
            seat: 0,
            to: 3,
            estevet: false
        }]
    );
    act(&mut m, 3, trump("C"));
    assert_eq!(m.hand.as_ref().unwrap().declarer, Some(3));
}

#[test]
fn abarrotada_choice_back_to_dealer_forces_the_dealer_to_choose() {
    let mut m = abarrotada(1);
    for seat in [1, 0, 3] {
        act(&mut m, seat, trump("delegate"));
    }
    act(&mut m, 2, trump("delegate"));
    must_choose(&mut m, 1);
    act(&mut m, 1, trump("B"));
    assert_eq!(m.hand.as_ref().unwrap().declarer, Some(1));
    // Three players: the choice comes back after two delegations.
    let mut m = abarrotada3(0);
    act(&mut m, 0, trump("delegate"));
    assert_eq!(turn(&m), 2);
    act(&mut m, 2, trump("delegate"));
    act(&mut m, 1, trump("delegate"));
    must_choose(&mut m, 0);
}

#[test]
fn estevet_carries_a_contro_and_the_receiver_must_choose() {
    let mut m = abarrotada(0);
    let events = act(&mut m, 0, trump("estevet"));
    assert_eq!(
        events,
        [Event::Delegated {
            seat: 0,
            to: 3,
            estevet: true
        }]
    );
    assert_eq!(m.multiplier(), 2);
    must_choose(&mut m, 3);
    act(&mut m, 3, trump("O"));
    // The contro is already said: the chooser may only recontro or pass.
    assert_eq!(m.phase(), Phase::Doubling);
    assert_eq!(turn(&m), 3);
    assert_eq!(legal_now(&m), [call(Call::Recontro), call(Call::Pass)]);
    assert_eq!(
        refused(&mut m, 3, call(Call::Contro)),
        RuleError::WrongCall {
            expected: Call::Recontro
        }
    );
    act(&mut m, 3, call(Call::Pass));
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(m.multiplier(), 2);
    let v = m.view(None);
    assert_eq!(
        v.calls,
        [CallRecord {
            seat: 0,
            call: Call::Contro
        }]
    );
}

#[test]
fn estevet_receiver_may_recontro_then_the_delegating_player_may_sant_vicenc() {
    // A receiver of a plain delegation may pass it on with an Estevet.
    let mut m = abarrotada(0);
    act(&mut m, 0, trump("delegate"));
    act(&mut m, 3, trump("estevet"));
    must_choose(&mut m, 2);
    act(&mut m, 2, trump("botifarra"));
    act(&mut m, 2, call(Call::Recontro));
    assert_eq!(turn(&m), 3);
    assert_eq!(legal_now(&m), [call(Call::SantVicenc), call(Call::Pass)]);
    for other in [0, 1, 2] {
        assert!(matches!(
            refused(&mut m, other, call(Call::SantVicenc)),
            RuleError::NotYourTurn { .. }
        ));
    }
    let events = act(&mut m, 3, call(Call::SantVicenc));
    // Botifarra 2 × Sant Vicenç 8.
    assert_eq!(
        events,
        [Event::DoubleCalled {
            seat: 3,
            call: Call::SantVicenc,
            multiplier: 16
        }]
    );
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(turn(&m), 1, "the dealer's right leads");
    let rec = |seat, call| CallRecord { seat, call };
    assert_eq!(
        m.view(None).calls,
        [
            rec(3, Call::Contro),
            rec(2, Call::Recontro),
            rec(3, Call::SantVicenc)
        ]
    );
}

#[test]
fn estevet_does_not_exist_in_the_pairs_game() {
    let mut m = dealt(helpers::pairs(0), hands_of(FOUR));
    assert!(!legal_now(&m).contains(&trump("estevet")));
    assert_eq!(
        refused(&mut m, 0, trump("estevet")),
        RuleError::EstevetOnlyInAbarrotada
    );
}

#[test]
fn abarrotada_contro_round_from_the_declarers_right_first_contro_ends_it() {
    let mut m = abarrotada(0);
    act(&mut m, 0, trump("delegate"));
    act(&mut m, 3, trump("E"));
    // Everyone else, from the declarer's right: 0, 1, 2.
    assert_eq!(turn(&m), 0);
    assert_eq!(legal_now(&m), [call(Call::Contro), call(Call::Pass)]);
    act(&mut m, 0, call(Call::Pass));
    assert_eq!(turn(&m), 1);
    act(&mut m, 1, call(Call::Contro));
    // Seat 2 does not speak: the declarer is to answer.
    assert_eq!(turn(&m), 3);
    assert!(matches!(
        refused(&mut m, 2, call(Call::Pass)),
        RuleError::NotYourTurn { turn: Some(3) }
    ));
    // When all three pass, play begins.
    let mut m = abarrotada(0);
    act(&mut m, 0, trump("E"));
    for seat in [1, 2, 3] {
        assert_eq!(m.phase(), Phase::Doubling);
        act(&mut m, seat, call(Call::Pass));
    }
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(turn(&m), 1);
}

#[test]
fn abarrotada_only_the_declarer_may_recontro() {
    let mut m = abarrotada(0);
    act(&mut m, 0, trump("C"));
    act(&mut m, 1, call(Call::Pass));
    act(&mut m, 2, call(Call::Contro));
    assert_eq!(turn(&m), 0);
    assert_eq!(legal_now(&m), [call(Call::Recontro), call(Call::Pass)]);
    for other in [1, 2, 3] {
        assert!(m.legal_actions(other).is_empty());
        assert!(matches!(
            refused(&mut m, other, call(Call::Recontro)),
            RuleError::NotYourTurn { .. }
        ));
    }
    act(&mut m, 0, call(Call::Pass));
    assert_eq!(m.phase(), Phase::Playing, "no one else is asked");
    assert_eq!(m.multiplier(), 2);
}

#[test]
fn abarrotada_only_the_contro_player_may_sant_vicenc() {
    let mut m = abarrotada(0);
    act(&mut m, 0, trump("C"));
    act(&mut m, 1, call(Call::Pass));
    act(&mut m, 2, call(Call::Contro));
    act(&mut m, 0, call(Call::Recontro));
    assert_eq!(turn(&m), 2);
    assert_eq!(legal_now(&m), [call(Call::SantVicenc), call(Call::Pass)]);
    for other in [0, 1, 3] {
        assert!(matches!(
            refused(&mut m, other, call(Call::SantVicenc)),
            RuleError::NotYourTurn { .. }
        ));
    }
    act(&mut m, 2, call(Call::Pass));
    assert_eq!(m.phase(), Phase::Playing);
    assert_eq!(m.multiplier(), 4);
}

#[test]
fn abarrotada_sant_vicenc_allowed_with_botifarra_and_all_doubles_stack() {
    // The default pairs option (no Sant Vicenç under botifarra) does not
    // apply to the individual variants.
    let mut m = abarrotada(0);
    act(&mut m, 0, trump("botifarra"));
    assert_eq!(m.multiplier(), 2);
    act(&mut m, 1, call(Call::Contro));
    assert_eq!(m.multiplier(), 4);
    act(&mut m, 0, call(Call::Recontro));
    assert_eq!(m.multiplier(), 8);
    assert_eq!(turn(&m), 1);
    act(&mut m, 1, call(Call::SantVicenc));
    assert_eq!(m.multiplier(), 16);
    assert_eq!(m.phase(), Phase::Playing);
    // Three players: the contro round is the two others, from the declarer's right.
    let mut m = abarrotada3(1);
    act(&mut m, 1, trump("botifarra"));
    assert_eq!(turn(&m), 2);
    act(&mut m, 2, call(Call::Pass));
    act(&mut m, 0, call(Call::Contro));
    act(&mut m, 1, call(Call::Recontro));
    act(&mut m, 0, call(Call::SantVicenc));
    assert_eq!(m.multiplier(), 16);
    assert_eq!(turn(&m), 2, "the dealer's right leads");
}
