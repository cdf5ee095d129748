//! docs/rules.md sections 1, 8 and 9: card codes, every hand worth 72, dealing
//! without shuffling, and reproducible, verifiable deals.

use botifarra::rules::deck::HandRng;
use botifarra::rules::{
    Action, Card, CardSet, FirstDealer, Match, Phase, Rules, Seat, ShuffleMode, Variant,
};
use sha2::{Digest, Sha256};

use crate::helpers;
use crate::helpers::oracle;
use crate::helpers::random::{SplitMix, finish_hand, random_step};
use crate::helpers::{act, card, seed};

#[test]
fn every_hand_totals_72() {
    let mut rng = SplitMix::new(72);
    for variant in [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3] {
        let rules = Rules {
            variant,
            target: 100_000,
            ..Rules::default()
        };
        let mut m = Match::new(rules, rng.seed()).unwrap();
        for _ in 0..12 {
            finish_hand(&mut m, &mut rng);
        }
        for (h, r) in m.history.iter().zip(&m.results) {
            let total: u32 = r.points.iter().map(|&p| u32::from(p)).sum();
            assert_eq!(total, 72, "{variant:?} hand {}", r.hand_number);
            let recounted = oracle::recount(h, variant.table());
            let engine: Vec<u32> = r.points.iter().map(|&p| u32::from(p)).collect();
            assert_eq!(engine, recounted, "{variant:?} hand {}", r.hand_number);
            assert_eq!(h.tricks.len(), 12);
        }
    }
}

#[test]
fn card_codes_parse_case_insensitively() {
    for rank in 1..=12u8 {
        for suit in ["O", "C", "E", "B"] {
            let upper = format!("{rank}{suit}");
            let c: Card = upper.parse().unwrap();
            assert_eq!(c.to_string(), upper, "output is canonical upper case");
            assert_eq!(upper.to_lowercase().parse::<Card>().unwrap(), c);
            assert_eq!(c.rank(), rank);
        }
    }
    for bad in ["", "13O", "0O", "9X", "O9", "9", "1 0O"] {
        assert!(bad.parse::<Card>().is_err(), "{bad:?}");
    }
    // Through the wire form of an action, too.
    let a: Action = serde_json::from_str(r#"{"type": "play", "card": "12b"}"#).unwrap();
    assert_eq!(a, Action::Play { card: card("12B") });
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        r#"{"type":"play","card":"12B"}"#
    );
    let t: Action = serde_json::from_str(r#"{"type": "trump", "choice": "e"}"#).unwrap();
    assert_eq!(t, helpers::trump("E"));
}

/// Deals `deck` from the top, 4 cards at a time, from the dealer's right.
fn deal_by_hand(deck: &[Card], dealer: Seat, seats: u8) -> [CardSet; 4] {
    let mut hands = [CardSet::EMPTY; 4];
    for (i, packet) in deck.chunks(4).enumerate() {
        let seat = (dealer as usize + 1 + i) % seats as usize;
        hands[seat] = packet.iter().fold(hands[seat], |mut h, &c| {
            h.insert(c);
            h
        });
    }
    hands
}

#[test]
fn stack_and_cut_deals_previous_piles_cut() {
    let mut rng = SplitMix::new(8);
    for _ in 0..4 {
        let rules = Rules {
            shuffle: ShuffleMode::StackAndCut,
            target: 100_000,
            ..Rules::default()
        };
        let mut m = Match::new(rules, rng.seed()).unwrap();
        for _ in 0..3 {
            finish_hand(&mut m, &mut rng);
            let prev = m.history.last().unwrap().clone();
            let trump = prev.trump.and_then(|t| t.suit());
            // The previous dealer's team's pile on top, each pile in the
            // order won, each trick in the order played.
            let team = prev.dealer % 2;
            let mut deck: Vec<Card> = Vec::new();
            for side in [team, 1 - team] {
                for t in &prev.tricks {
                    let winner = oracle::trick_winner_seat(t, trump, Variant::Pairs.table());
                    if winner % 2 == side {
                        deck.extend_from_slice(t.cards());
                    }
                }
            }
            assert_eq!(deck.len(), 48);
            let dealer = m.dealer;
            act(&mut m, dealer, Action::Deal);
            let dealt = m.hand.as_ref().unwrap().dealt;
            let cuts: Vec<usize> = (0..48)
                .filter(|&k| {
                    let mut d = deck.clone();
                    d.rotate_left(k);
                    deal_by_hand(&d, dealer, 4) == dealt
                })
                .collect();
            // Cuts 16 cards apart deal the same hands (4 packets go round).
            assert!(!cuts.is_empty(), "the deal is the stacked deck cut once");
            assert!(cuts.iter().all(|k| k % 16 == cuts[0] % 16), "{cuts:?}");
            assert!(cuts.iter().any(|k| (4..=44).contains(k)), "{cuts:?}");
            // Which pile is on top is only seen through the hand's own cut.
            let mut exact = deck.clone();
            HandRng::new(&m.seed, m.hands_dealt).cut(&mut exact);
            assert_eq!(
                deal_by_hand(&exact, dealer, 4),
                dealt,
                "the dealer's team's pile on top"
            );
        }
    }
}

#[test]
fn deal_depends_only_on_seed_and_hand_number() {
    let rules = Rules {
        first_dealer: FirstDealer::Seat(0),
        target: 100_000,
        ..Rules::default()
    };
    let s = seed(11);
    let mut a = Match::new(rules.clone(), s).unwrap();
    let mut b = Match::new(rules.clone(), s).unwrap();
    finish_hand(&mut a, &mut SplitMix::new(1));
    finish_hand(&mut b, &mut SplitMix::new(2));
    assert_ne!(a.history[0].tricks, b.history[0].tricks, "different play");
    act(&mut a, 1, Action::Deal);
    act(&mut b, 1, Action::Deal);
    assert_eq!(
        a.hand.as_ref().unwrap().dealt,
        b.hand.as_ref().unwrap().dealt
    );
    let mut c = Match::new(rules, seed(12)).unwrap();
    act(&mut c, 0, Action::Deal);
    assert_ne!(c.hand.as_ref().unwrap().dealt, a.history[0].dealt);
}

#[test]
fn same_seed_replays_same_match() {
    for variant in [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3] {
        let rules = Rules {
            variant,
            max_hands: Some(3),
            ..Rules::default()
        };
        let play = |seed_bytes| {
            let mut m = Match::new(rules.clone(), seed_bytes).unwrap();
            let mut rng = SplitMix::new(99);
            while m.phase() != Phase::MatchOver {
                random_step(&mut m, &mut rng);
            }
            m
        };
        let a = play(seed(21));
        let b = play(seed(21));
        assert_eq!(a, b);
        assert_ne!(a.history[0].dealt, play(seed(22)).history[0].dealt);
        let replayed = Match::replay(rules.clone(), seed(21), &a.moves()).unwrap();
        assert_eq!(replayed, a);
    }
}

#[test]
fn seed_commitment_is_sha256_of_seed() {
    let s = seed(33);
    let m = Match::new(Rules::default(), s).unwrap();
    let expected = hex::encode(Sha256::digest(s));
    assert_eq!(m.view(Some(0)).seed_sha256, expected);
    assert_eq!(m.view(None).seed_sha256, expected);
    assert_eq!(m.history_view(Some(2)).seed_sha256, expected);
    assert_eq!(botifarra::rules::deck::seed_commitment(&s), expected);
}

#[test]
fn seed_hidden_until_match_over() {
    let s = seed(44);
    let seed_hex = hex::encode(s);
    let mut m = Match::new(
        Rules {
            max_hands: Some(1),
            ..Rules::default()
        },
        s,
    )
    .unwrap();
    let mut rng = SplitMix::new(4);
    while m.phase() != Phase::MatchOver {
        for viewer in [None, Some(0), Some(3)] {
            let v = m.view(viewer);
            assert_eq!(v.seed, None);
            let json = serde_json::to_string(&v).unwrap()
                + &serde_json::to_string(&m.history_view(viewer)).unwrap();
            assert!(!json.contains(&seed_hex), "the seed leaked before the end");
            assert!(!json.contains("\"seed\""));
        }
        random_step(&mut m, &mut rng);
    }
    assert_eq!(m.view(Some(1)).seed.as_deref(), Some(seed_hex.as_str()));
    assert_eq!(m.view(None).seed.as_deref(), Some(seed_hex.as_str()));
    let revealed = m.history_view(None).seed.unwrap();
    let bytes = hex::decode(&revealed).unwrap();
    assert_eq!(
        hex::encode(Sha256::digest(&bytes)),
        m.view(None).seed_sha256
    );
}
