//! Property tests over random seeds, random rule options and random legal
//! play of complete matches (OpenSpiel's RandomSimTest, with docs/rules.md as the
//! oracle): at every turn the legal set is non-empty, agrees with an
//! independent reading of the rules, every listed action is accepted and
//! every other one refused with a reason and no change; every hand is worth
//! 72 and plays every card of the deck once; scores follow section 6.

use botifarra::rules::legal::{legal_cards, why_illegal};
use botifarra::rules::{
    Action, Call, Card, CardSet, Doubling, HandResult, HandState, Match, Phase, RuleError, Rules,
    Seat, Trump, TrumpChoice, Winner,
};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use crate::helpers;
use crate::helpers::oracle;
use crate::helpers::random::{SplitMix, rules_from};

/// Every action a seat could send, of every phase.
fn action_space() -> Vec<Action> {
    let mut all = vec![Action::Deal];
    for w in ["O", "C", "E", "B", "botifarra", "delegate", "estevet"] {
        all.push(helpers::trump(w));
    }
    for c in [Call::Contro, Call::Recontro, Call::SantVicenc, Call::Pass] {
        all.push(helpers::call(c));
    }
    all.extend(CardSet::FULL.iter().map(|card| Action::Play { card }));
    all
}

/// Listed ⇔ accepted, for every action of every seat; a refusal names a
/// reason and leaves the match unchanged.
fn check_actions(m: &Match, space: &[Action]) {
    let table = m.table();
    let turn = m.turn();
    let mut probe = m.clone();
    for seat in 0..table.seats {
        let listed = m.legal_actions(seat);
        if Some(seat) != turn {
            assert!(
                listed.is_empty(),
                "seat {seat} out of turn lists {listed:?}"
            );
        } else if m.phase() != Phase::MatchOver {
            assert!(!listed.is_empty(), "seat {seat} to act has no legal action");
        }
        for &a in space {
            let mut events = Vec::new();
            if listed.contains(&a) {
                let mut c = m.clone();
                if let Err(e) = c.apply(seat, a, &mut events) {
                    panic!("listed {a:?} refused: {e}");
                }
                assert!(!events.is_empty());
                continue;
            }
            let err = probe
                .apply(seat, a, &mut events)
                .expect_err("an unlisted action is refused");
            assert!(events.is_empty());
            assert!(
                probe == *m,
                "refused {a:?} by seat {seat} changed the match"
            );
            match &err {
                RuleError::WrongPhase { phase, expected } => {
                    assert_eq!(*phase, m.phase());
                    assert_eq!(*expected, a.phase());
                    assert_ne!(m.phase(), a.phase());
                }
                RuleError::NotYourTurn { turn: t } => assert_eq!(*t, turn),
                why => {
                    assert!(!why.to_string().is_empty(), "{a:?}: no reason");
                    if let (Action::Play { card }, Some(h)) = (a, &m.hand) {
                        let held = h.hands[seat as usize].contains(card);
                        assert_eq!(*why == RuleError::NotInHand(card), !held, "{why}");
                    }
                }
            }
        }
    }
}

/// The engine's legal cards equal the oracle's, and `legal_cards` equals
/// the cards `why_illegal` accepts.
fn check_play(m: &Match, h: &HandState) {
    let table = m.table();
    let ctx = h.play_context(&m.rules, table);
    let engine = legal_cards(&ctx);
    let explained: CardSet = CardSet::FULL
        .iter()
        .filter(|&c| why_illegal(&ctx, c).is_none())
        .collect();
    assert_eq!(engine, explained);
    let held: Vec<Card> = h.hands[h.turn as usize].iter().collect();
    let spot = oracle::Spot {
        hand: &held,
        played: h.trick.cards(),
        trump: h.trump.and_then(Trump::suit),
        pairs: table.pairs,
        forced: m.rules.forced,
        must_trump: m.rules.must_trump,
    };
    let expected: CardSet = oracle::legal(&spot).into_iter().collect();
    assert_eq!(
        engine,
        expected,
        "hand {:?} trick {:?} trump {:?}",
        held,
        h.trick.cards(),
        h.trump
    );
}

/// Section 6 and 10, computed from the record.
fn check_result(rules: &Rules, h: &HandState, r: &HandResult) {
    let table = rules.variant.table();
    let deck = rules.variant.deck();
    let sides = table.sides() as usize;
    let base = if r.trump == Some(Trump::Botifarra) {
        2
    } else {
        1
    };
    let doubles = r.calls.iter().filter(|c| c.call != Call::Pass).count();
    let factor = match rules.doubling {
        Doubling::Powers => [1, 2, 4, 8][doubles],
        Doubling::Linear => [1, 2, 3, 4][doubles],
    };
    assert_eq!(r.multiplier, base * factor);
    // The deal: 12 cards each, the whole deck, no card twice.
    let dealt = &h.dealt[..table.seats as usize];
    assert!(dealt.iter().all(|d| d.len() == 12));
    assert_eq!(dealt.iter().map(|d| d.len()).sum::<u32>(), deck.len());
    assert_eq!(dealt.iter().fold(CardSet::EMPTY, |a, &d| a | d), deck);
    if let Some(side) = r.forfeit {
        let share = 36 * r.multiplier / (sides as u32 - 1);
        let expected: Vec<u32> = (0..sides)
            .map(|s| if s == side as usize { 0 } else { share })
            .collect();
        assert_eq!(r.recorded, expected);
        return;
    }
    let total: u32 = r.points.iter().map(|&p| u32::from(p)).sum();
    assert_eq!(total, 72);
    assert_eq!(h.tricks.len(), 12);
    let mut seen = CardSet::EMPTY;
    for t in &h.tricks {
        assert_eq!(t.cards().len(), table.seats as usize);
        for &c in t.cards() {
            assert!(!seen.contains(c), "{c} played twice");
            seen.insert(c);
        }
    }
    let points = oracle::recount(h, table);
    assert_eq!(seen, deck, "every card of the deck is played exactly once");
    let engine: Vec<u32> = r.points.iter().map(|&p| u32::from(p)).collect();
    assert_eq!(engine, points);
    let threshold = rules.variant.threshold();
    let expected: Vec<u32> = points
        .iter()
        .map(|&p| p.saturating_sub(threshold) * r.multiplier)
        .collect();
    assert_eq!(r.recorded, expected);
    if table.pairs {
        assert!(
            r.recorded.iter().filter(|&&x| x > 0).count() <= 1,
            "only one team scores"
        );
    }
}

fn check_match_end(m: &Match) {
    let sides = m.table().sides() as usize;
    let mut totals = vec![0i32; sides];
    for r in &m.results {
        for (t, &x) in totals.iter_mut().zip(&r.recorded) {
            *t += x as i32;
        }
    }
    assert_eq!(m.scores[..sides], totals[..]);
    let reached = totals.iter().any(|&t| t >= m.rules.target as i32);
    let last = m
        .rules
        .max_hands
        .is_some_and(|n| m.results.len() as u32 >= n);
    assert!(reached || last, "the match ended early");
    let best = *totals.iter().max().unwrap();
    let leaders: Vec<usize> = (0..sides).filter(|&s| totals[s] == best).collect();
    let expected = if leaders.len() == 1 {
        Winner::Side(leaders[0] as u8)
    } else {
        Winner::Draw
    };
    assert_eq!(m.winner, Some(expected));
    // Before the last hand the match was not over.
    let mut running = vec![0i32; sides];
    for r in &m.results[..m.results.len() - 1] {
        for (t, &x) in running.iter_mut().zip(&r.recorded) {
            *t += x as i32;
        }
        assert!(running.iter().all(|&t| t < m.rules.target as i32));
    }
}

/// Plays a whole match at random (with the odd resignation), checking
/// every invariant at every step.
fn run_match(rules: Rules, rng: &mut SplitMix) -> Match {
    let space = action_space();
    let mut m = Match::new(rules, rng.seed()).expect("valid rules");
    let mut steps = 0;
    while m.phase() != Phase::MatchOver {
        steps += 1;
        assert!(steps < 2000, "the match does not end");
        check_actions(&m, &space);
        if let (Phase::Playing, Some(h)) = (m.phase(), &m.hand) {
            check_play(&m, h);
        }
        let finished = m.results.len();
        let in_hand = matches!(
            m.phase(),
            Phase::ChoosingTrump | Phase::Doubling | Phase::Playing
        );
        if in_hand && rng.one_in(400) {
            let seat = rng.below(m.table().seats as usize) as Seat;
            m.resign(seat, &mut Vec::new())
                .expect("resign during a hand");
        } else {
            helpers::random::random_step(&mut m, rng);
        }
        if m.results.len() > finished {
            let (h, r) = (m.history.last().unwrap(), m.results.last().unwrap());
            check_result(&m.rules, h, r);
        }
    }
    check_actions(&m, &space);
    check_match_end(&m);
    m
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn random_matches_keep_every_invariant(variant in 0u8..3, bits in any::<u32>(), hands in 1u32..=4, seed in any::<u64>()) {
        let rules = rules_from(variant, bits, hands);
        run_match(rules, &mut SplitMix::new(seed));
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Many single hands in each play mode, the engine's legal sets checked
    /// against the oracle at every card.
    #[test]
    fn legal_sets_follow_the_rules_in_every_mode(variant in 0u8..3, mode in 0u8..3, seed in any::<u64>()) {
        let mut rng = SplitMix::new(seed);
        let mut rules = rules_from(variant, 0, 1);
        rules.forced = mode == 1 && rules.variant.table().pairs;
        rules.must_trump = mode == 2;
        let mut m = Match::new(rules, rng.seed()).expect("valid rules");
        while m.results.is_empty() {
            if let (Phase::Playing, Some(h)) = (m.phase(), &m.hand) {
                check_play(&m, h);
            }
            helpers::random::random_step(&mut m, &mut rng);
        }
        check_result(&m.rules, &m.history[0], &m.results[0]);
    }
}

#[test]
fn every_trump_word_is_tried() {
    // The action space covers every trump choice the wire format knows.
    let words: Vec<TrumpChoice> = action_space()
        .into_iter()
        .filter_map(|a| match a {
            Action::Trump { choice } => Some(choice),
            _ => None,
        })
        .collect();
    assert_eq!(words.len(), 7);
    // Exactly the choices the engine offers a dealer who may still hand the
    // choice on in abarrotada (every declaration, delegate and estevet).
    let rules = helpers::rules(botifarra::rules::Variant::Abarrotada, 0);
    let mut m = Match::new(rules, helpers::seed(1)).unwrap();
    m.apply(0, Action::Deal, &mut Vec::new()).unwrap();
    let offered: Vec<TrumpChoice> = m
        .legal_actions(0)
        .into_iter()
        .filter_map(|a| match a {
            Action::Trump { choice } => Some(choice),
            _ => None,
        })
        .collect();
    assert_eq!(offered.len(), 7, "{offered:?}");
    for w in &words {
        assert!(
            offered.contains(w),
            "{w:?} is not a choice the engine offers"
        );
    }
}

/// The engine's own legal set (read straight from the hand) is the one the
/// public `legal_cards` computes from the play context, under every option
/// that changes the play rules.
#[test]
fn the_hands_legal_set_is_the_play_contexts_under_every_rule_set() {
    use botifarra::rules::random::{SplitMix64, step_random};
    let mut rng = SplitMix64::new(11);
    let mut events = Vec::new();
    let mut checked = 0;
    for (r, rules) in crate::helpers::rule_sets::play_rule_sets()
        .iter()
        .enumerate()
    {
        for n in 0..40u8 {
            let mut m = Match::new(rules.clone(), [n.wrapping_add(40 * r as u8); 32]).unwrap();
            while m.phase() != Phase::MatchOver {
                if let (Phase::Playing, Some(h)) = (m.phase(), m.hand.as_ref()) {
                    let table = m.table();
                    let legal = h.legal_cards(&m.rules, table);
                    assert_eq!(legal, legal_cards(&h.play_context(&m.rules, table)));
                    assert!(!legal.is_empty());
                    checked += 1;
                }
                step_random(&mut m, &mut rng, &mut events);
                events.clear();
            }
        }
    }
    assert!(checked > 10_000, "only {checked} positions checked");
}
