//! Helpers of the engine suite (`crate::helpers` in its modules):
//! card and hand literals, matches set up at a chosen phase with chosen
//! hands, and one-line ways to act and to check a refusal.
#![allow(dead_code)]

pub mod oracle;
pub mod random;
pub mod rule_sets;

use botifarra::rules::{
    Action, Call, Card, CardSet, Event, FirstDealer, Match, Phase, RuleError, Rules, Seat, Seed,
    TrumpChoice, Variant,
};

/// The card with this code; panics on a bad literal.
pub fn card(code: &str) -> Card {
    code.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// The set of these card codes.
pub fn hand(codes: &[&str]) -> CardSet {
    codes.iter().map(|c| card(c)).collect()
}

/// The trump-phase choice for a word: `O`, `botifarra`, `delegate`, `estevet`.
pub fn choice(word: &str) -> TrumpChoice {
    TrumpChoice::parse(word).unwrap_or_else(|| panic!("unknown trump word {word}"))
}

/// The action naming or handing on trump.
pub fn trump(word: &str) -> Action {
    Action::Trump {
        choice: choice(word),
    }
}

/// The doubling action.
pub fn call(c: Call) -> Action {
    Action::Double { call: c }
}

/// The action playing this card.
pub fn play_action(code: &str) -> Action {
    Action::Play { card: card(code) }
}

/// A fixed seed.
pub fn seed(n: u8) -> Seed {
    [n; 32]
}

/// The default rules of `variant` with `dealer` dealing first.
pub fn rules(variant: Variant, dealer: Seat) -> Rules {
    Rules {
        variant,
        first_dealer: FirstDealer::Seat(dealer),
        ..Rules::default()
    }
}

/// The pairs game with default options and `dealer` dealing first.
pub fn pairs(dealer: Seat) -> Rules {
    rules(Variant::Pairs, dealer)
}

/// Four hands from card-code lists (seat 3 empty for `abarrotada3`).
pub fn hands_of(spec: [&[&str]; 4]) -> [CardSet; 4] {
    spec.map(hand)
}

/// Makes `action` for `seat`; panics when it is refused. Returns the events.
pub fn act(m: &mut Match, seat: Seat, action: Action) -> Vec<Event> {
    let mut events = Vec::new();
    if let Err(e) = m.apply(seat, action, &mut events) {
        panic!("seat {seat} {action:?} refused: {e}");
    }
    events
}

/// The seat to act; panics when the match is over.
pub fn turn(m: &Match) -> Seat {
    m.turn().expect("the match is not over")
}

/// Makes `action` for the seat to act.
pub fn act_now(m: &mut Match, action: Action) -> Vec<Event> {
    let s = turn(m);
    act(m, s, action)
}

/// Plays these cards in turn, each by the seat to play.
pub fn plays(m: &mut Match, codes: &[&str]) -> Vec<Event> {
    let mut all = Vec::new();
    for c in codes {
        all.extend(act_now(m, play_action(c)));
    }
    all
}

/// Checks that `seat` may not make `action`: the error is returned, the
/// match is unchanged and no event is reported.
pub fn refused(m: &mut Match, seat: Seat, action: Action) -> RuleError {
    let before = m.clone();
    let mut events = Vec::new();
    let err = m
        .apply(seat, action, &mut events)
        .expect_err("the action should be refused");
    assert_eq!(*m, before, "a refused action changed the match");
    assert!(
        events.is_empty(),
        "a refused action reported events: {events:?}"
    );
    err
}

/// The refusal of `code` by the seat to play.
pub fn why_refused(m: &mut Match, code: &str) -> RuleError {
    let s = turn(m);
    refused(m, s, play_action(code))
}

/// The cards the seat to play may play, as listed by `legal_actions`.
pub fn legal(m: &Match) -> CardSet {
    m.legal_actions(turn(m))
        .into_iter()
        .map(|a| match a {
            Action::Play { card } => card,
            other => panic!("not a card play: {other:?}"),
        })
        .collect()
}

/// The actions the seat to act may make.
pub fn legal_now(m: &Match) -> Vec<Action> {
    m.legal_actions(turn(m))
}

/// The five declarations: a suit or botifarra.
pub fn declares() -> Vec<Action> {
    ["O", "C", "E", "B", "botifarra"]
        .iter()
        .map(|w| trump(w))
        .collect()
}

/// `seat` is to choose trump and may not hand the choice on: only the five
/// declarations are listed, and delegating (or an Estevet) is refused.
pub fn must_choose(m: &mut Match, seat: Seat) {
    assert_eq!(turn(m), seat);
    assert_eq!(legal_now(m), declares());
    let err = refused(m, seat, trump("delegate"));
    assert_eq!(err, RuleError::MustNameTrump);
    assert_eq!(refused(m, seat, trump("estevet")), RuleError::MustNameTrump);
}

/// A match whose first hand is dealt and then replaced by `hands`; the
/// dealer is to choose trump.
pub fn dealt(rules: Rules, hands: [CardSet; 4]) -> Match {
    let mut m = Match::new(rules, seed(1)).expect("valid rules");
    let dealer = m.dealer;
    act(&mut m, dealer, Action::Deal);
    let h = m.hand.as_mut().expect("a hand was dealt");
    h.hands = hands;
    h.dealt = hands;
    m
}

/// Every seat still to speak passes until play begins.
pub fn pass_all(m: &mut Match) {
    while m.phase() == Phase::Doubling {
        act_now(m, call(Call::Pass));
    }
}

/// A match in play: `hands` dealt, the dealer named `trump_word`, nobody
/// doubled. The seat after the dealer leads.
pub fn playing(rules: Rules, trump_word: &str, spec: [&[&str]; 4]) -> Match {
    let mut m = dealt(rules, hands_of(spec));
    act_now(&mut m, trump(trump_word));
    pass_all(&mut m);
    assert_eq!(m.phase(), Phase::Playing);
    m
}

/// The pairs game in play with the seat `leader` leading the first trick.
pub fn pairs_playing(leader: Seat, trump_word: &str, spec: [&[&str]; 4]) -> Match {
    let m = playing(pairs((leader + 3) % 4), trump_word, spec);
    assert_eq!(m.turn(), Some(leader));
    m
}

/// Overwrites the hand points taken so far by each side (for scoring tests
/// that play only the last trick).
pub fn set_points(m: &mut Match, points: [u8; 4]) {
    m.hand.as_mut().expect("a hand in progress").points = points;
}

/// The `HandScored` results among `events`.
pub fn scored(events: &[Event]) -> Vec<botifarra::rules::HandResult> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::HandScored { result } => Some((**result).clone()),
            _ => None,
        })
        .collect()
}
