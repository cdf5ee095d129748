//! Property tests of what leaves the engine: a seat's view and history and
//! the events it is shown never mention a card another seat still holds;
//! `moves` + `replay` and a serde round trip reproduce an equal match; a
//! long match stays small as JSON.

use botifarra::rules::view::redact_event;
use botifarra::rules::{Card, CardSet, Event, Match, Phase, Rules, Seat, Variant};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde_json::Value;

use crate::helpers;
use crate::helpers::random::{SplitMix, random_step, rules_from};

/// Every card code mentioned anywhere in a JSON value (parsed, so "1O"
/// inside "11O" is not a false hit); panics on a number too large to be
/// anything but a leaked card-set mask.
fn cards_in(v: &Value, out: &mut CardSet) {
    match v {
        Value::String(s) => {
            if let Ok(c) = s.parse::<Card>() {
                out.insert(c);
            }
        }
        Value::Number(n) => {
            assert!(
                n.as_u64().is_none_or(|x| x < 1 << 24),
                "a number that looks like a card set: {n}"
            );
        }
        Value::Array(a) => a.iter().for_each(|x| cards_in(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                if let Ok(c) = k.parse::<Card>() {
                    out.insert(c);
                }
                cards_in(x, out);
            }
        }
        Value::Bool(_) | Value::Null => {}
    }
}

fn mentioned(v: &impl serde::Serialize) -> CardSet {
    let mut out = CardSet::EMPTY;
    cards_in(&serde_json::to_value(v).expect("serializable"), &mut out);
    out
}

/// The cards seats other than `viewer` hold now.
fn hidden_from(m: &Match, viewer: Option<Seat>) -> CardSet {
    let Some(h) = &m.hand else {
        return CardSet::EMPTY;
    };
    (0..m.table().seats)
        .filter(|&s| Some(s) != viewer)
        .fold(CardSet::EMPTY, |a, s| a | h.hands[s as usize])
}

fn check_secrecy(m: &Match, events: &[Event]) {
    let mut viewers: Vec<Option<Seat>> = (0..m.table().seats).map(Some).collect();
    viewers.push(None);
    for viewer in viewers {
        let hidden = hidden_from(m, viewer);
        let v = m.view(viewer);
        match viewer {
            Some(s) => {
                let own: Vec<Card> = m
                    .hand
                    .as_ref()
                    .map_or(Vec::new(), |h| h.hands[s as usize].iter().collect());
                let shown = v.hand.clone().expect("a seat sees its hand");
                assert_eq!(
                    shown.iter().copied().collect::<CardSet>(),
                    own.iter().copied().collect::<CardSet>()
                );
                assert_eq!(shown.len(), own.len());
            }
            None => assert!(v.hand.is_none()),
        }
        // The card turned to draw the first dealer is public (docs/rules.md 3.1)
        // and may well be dealt to someone.
        assert_eq!(v.first_dealer_card, m.first_dealer_card);
        let mut v = v;
        v.first_dealer_card = None;
        let leak = mentioned(&v) & hidden;
        assert!(
            leak.is_empty(),
            "view of {viewer:?} shows held cards {leak:?}"
        );
        // Finished hands are shown whole (their cards are no longer held);
        // the hand in progress is the last entry of the record.
        let history = m.history_view(viewer);
        assert_eq!(
            history.hands.len(),
            m.history.len() + usize::from(m.hand.is_some())
        );
        if m.hand.is_some() {
            let current = history
                .hands
                .last()
                .expect("the hand in progress is recorded");
            let leak = mentioned(current) & hidden;
            assert!(
                leak.is_empty(),
                "history of {viewer:?} shows held cards {leak:?}"
            );
            let dealt_shown = current.dealt.iter().filter(|d| d.is_some()).count();
            assert_eq!(dealt_shown, usize::from(viewer.is_some()));
        }
        let leak = mentioned(&(&history.rules, &history.scores, &history.winner)) & hidden;
        assert!(leak.is_empty());
        for e in events {
            let seen = mentioned(&redact_event(e, viewer));
            assert!(
                (seen & hidden).is_empty(),
                "event {e:?} shown to {viewer:?} leaks {:?}",
                seen & hidden
            );
        }
    }
}

fn check_replay_and_serde(m: &Match) {
    let replayed = Match::replay(m.rules.clone(), m.seed, &m.moves()).expect("the moves replay");
    assert!(
        replayed == *m,
        "replay differs after {} moves",
        m.moves().len()
    );
    let json = serde_json::to_string(m).expect("serializable");
    let back: Match = serde_json::from_str(&json).expect("deserializable");
    assert!(back == *m, "serde round trip differs");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn views_hide_held_cards_and_matches_replay(variant in 0u8..3, bits in any::<u32>(), hands in 1u32..=3, seed in any::<u64>()) {
        let rules = rules_from(variant, bits, hands);
        let mut rng = SplitMix::new(seed);
        let mut m = Match::new(rules, rng.seed()).expect("valid rules");
        check_secrecy(&m, &[]);
        while m.phase() != Phase::MatchOver {
            let in_hand = matches!(m.phase(), Phase::ChoosingTrump | Phase::Doubling | Phase::Playing);
            let events = if in_hand && rng.one_in(300) {
                let mut events = Vec::new();
                m.resign(rng.below(m.table().seats as usize) as Seat, &mut events).expect("resign");
                events
            } else {
                random_step(&mut m, &mut rng)
            };
            check_secrecy(&m, &events);
            if rng.one_in(25) || m.hand.as_ref().is_some_and(|h| h.forfeit.is_some()) {
                check_replay_and_serde(&m);
            }
            if m.results.last().is_some_and(|r| r.forfeit.is_some()) && m.hand.is_none() {
                check_replay_and_serde(&m);
            }
        }
        check_replay_and_serde(&m);
    }
}

#[test]
fn resigning_mid_trick_replays() {
    for variant in [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3] {
        let rules = Rules {
            variant,
            target: 10_000,
            ..helpers::rules(variant, 0)
        };
        let mut m = Match::new(rules, helpers::seed(5)).unwrap();
        let mut rng = SplitMix::new(5);
        while m
            .hand
            .as_ref()
            .is_none_or(|h| h.tricks.len() < 2 || h.trick.cards().len() != 2)
        {
            random_step(&mut m, &mut rng);
        }
        m.resign(1, &mut Vec::new()).unwrap();
        check_replay_and_serde(&m);
    }
}

#[test]
fn twenty_hand_match_serializes_under_40_kb() {
    let mut largest = 0;
    for variant in [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3] {
        let rules = Rules {
            variant,
            max_hands: Some(20),
            target: 100_000,
            ..Rules::default()
        };
        let mut m = Match::new(rules, helpers::seed(20)).unwrap();
        let mut rng = SplitMix::new(20);
        while m.phase() != Phase::MatchOver {
            random_step(&mut m, &mut rng);
        }
        assert_eq!(m.results.len(), 20);
        let json = serde_json::to_string(&m).unwrap();
        eprintln!(
            "{variant:?}: a finished 20-hand match is {} bytes of JSON",
            json.len()
        );
        assert!(json.len() < 40 * 1024, "{variant:?}: {} bytes", json.len());
        largest = largest.max(json.len());
    }
    eprintln!("largest: {largest} bytes");
}
