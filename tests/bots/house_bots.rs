//! The house bots: they only ever play legal actions, and the Monte Carlo
//! sampler only uses what its seat may know.

use botifarra::bots::inference::Bidding;
use botifarra::bots::knowledge::Knowledge;
use botifarra::bots::{self, Bot, MonteCarloBot, sample_deals};
use botifarra::rules::view::GameView;
use botifarra::rules::{
    Action, CardSet, FirstDealer, Match, Phase, Rules, Seat, Suit, Trump, Variant,
};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::{swap_cards, twin_views};

const VARIANTS: [Variant; 3] = [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3];

/// A small Monte Carlo budget: debug builds are slow.
const QUICK_MC: MonteCarloBot = MonteCarloBot {
    playouts: 120,
    max_ms: 50,
    ..MonteCarloBot::DEFAULT
};

fn seed(n: u64) -> [u8; 32] {
    let mut s = [7u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

/// Rule options spread over the matches: the default, forced mode (pairs
/// only), must-trump, and linear doubling with Sant Vicenç after botifarra.
fn rules(variant: Variant, n: u64) -> Rules {
    let mut r = Rules {
        variant,
        max_hands: Some(2),
        ..Rules::default()
    };
    match n % 4 {
        1 if variant == Variant::Pairs => r.forced = true,
        2 => r.must_trump = true,
        3 => {
            r.doubling = botifarra::rules::Doubling::Linear;
            r.sant_vicenc_with_botifarra = true;
            r.first_dealer = FirstDealer::Seat(1);
        }
        _ => {}
    }
    r
}

/// Plays a match with `players[seat]` at each seat, calling `check` on every
/// view before the seat acts, and asserting every action is listed as legal
/// and accepted.
fn play(
    m: &mut Match,
    players: &[&dyn Bot],
    rng: &mut Xoshiro256PlusPlus,
    mut check: impl FnMut(&Match, &GameView),
) {
    let mut events = Vec::new();
    while let Some(seat) = m.turn() {
        let view = m.view(Some(seat));
        check(m, &view);
        let bot = players[seat as usize % players.len()];
        let action = bot.choose(&view, rng);
        assert!(
            view.legal_actions.contains(&action),
            "{} chose {action:?}, not in {:?}",
            bot.name(),
            view.legal_actions
        );
        m.apply(seat, action, &mut events)
            .unwrap_or_else(|e| panic!("{} chose {action:?}: refused: {e}", bot.name()));
        events.clear();
    }
}

#[test]
fn every_bot_only_ever_plays_legal_actions_in_every_variant() {
    let random = bots::by_name("random").unwrap();
    let heuristic = bots::by_name("heuristic").unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut actions = 0usize;
    for variant in VARIANTS {
        for n in 0..24u64 {
            let mut m = Match::new(rules(variant, n), seed(n)).unwrap();
            // Each bot in every seat across the matches; Monte Carlo in some.
            let lineup: [&dyn Bot; 4] = match n % 3 {
                0 => [heuristic, random, heuristic, random],
                1 => [random, heuristic, &QUICK_MC, heuristic],
                _ => [&QUICK_MC, heuristic, random, &QUICK_MC],
            };
            play(&mut m, &lineup, &mut rng, |_, _| actions += 1);
            assert_eq!(m.phase(), Phase::MatchOver);
        }
    }
    assert!(actions > 3000, "only {actions} actions");
}

#[test]
fn every_house_bot_is_registered_and_heuristic_is_the_default() {
    assert_eq!(bots::DEFAULT, "heuristic");
    assert_eq!(bots::NAMES[0], bots::DEFAULT);
    for name in bots::NAMES {
        assert_eq!(bots::by_name(name).unwrap().name(), *name);
    }
    assert!(bots::by_name("nobody").is_none());
}

/// The cards each seat has shown it lacks by not following suit, computed
/// here independently of the bots' own code.
fn voids(view: &GameView) -> [CardSet; 4] {
    let mut v = [CardSet::EMPTY; 4];
    for t in view.tricks.iter().chain(view.trick.as_ref()) {
        let Some(led) = t.cards.first().map(|pc| pc.card.suit()) else {
            continue;
        };
        for pc in &t.cards {
            if pc.card.suit() != led {
                v[pc.seat as usize] = v[pc.seat as usize] | led.mask();
            }
        }
    }
    v
}

fn played(view: &GameView) -> CardSet {
    view.tricks
        .iter()
        .chain(view.trick.as_ref())
        .flat_map(|t| t.cards.iter().map(|pc| pc.card))
        .collect()
}

/// Checks every sampled deal for `view` against what the seat knows, and
/// that the seat's inferences hold for the real hands.
fn check_samples(m: &Match, view: &GameView, rng: &mut Xoshiro256PlusPlus) -> usize {
    let Some(me) = view.you else { return 0 };
    let Some(h) = m.hand.as_ref() else { return 0 };
    let seats = view.rules.variant.table().seats as usize;
    let own: CardSet = view.hand.iter().flatten().copied().collect();
    let played = played(view);
    let voids = voids(view);
    let k = Knowledge::from_view(view);
    for s in 0..seats {
        assert!(
            (h.hands[s] & k.forbidden[s]).is_empty(),
            "seat {s} holds a card the view says it cannot hold"
        );
    }
    let deals = sample_deals(view, 20, rng);
    for d in &deals {
        assert_eq!(d[me as usize], own, "own hand exact");
        let mut all = CardSet::EMPTY;
        for s in 0..seats {
            assert_eq!(
                d[s].len(),
                u32::from(view.hand_sizes[s]),
                "seat {s} hand size"
            );
            assert!((d[s] & played).is_empty(), "a played card was dealt");
            assert!(
                (d[s] & voids[s]).is_empty(),
                "seat {s} got a suit it showed void in"
            );
            assert!(
                (d[s] & k.forbidden[s]).is_empty(),
                "seat {s} got a card it showed it lacks"
            );
            assert!((d[s] & all).is_empty(), "a card dealt twice");
            all = all | d[s];
        }
        assert_eq!(
            all | played,
            view.rules.variant.deck(),
            "every card somewhere"
        );
    }
    deals.len()
}

#[test]
fn sampled_deals_respect_hand_sizes_played_cards_and_voids_in_every_variant() {
    let heuristic = bots::by_name("heuristic").unwrap();
    let random = bots::by_name("random").unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut sample_rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut checked = 0;
    for variant in VARIANTS {
        for n in 0..12u64 {
            let mut m = Match::new(rules(variant, n), seed(100 + n)).unwrap();
            play(&mut m, &[heuristic, random], &mut rng, |m, view| {
                if view.phase == Phase::Playing {
                    checked += check_samples(m, view, &mut sample_rng);
                }
            });
        }
    }
    assert!(checked > 10_000, "only {checked} samples checked");
}

/// A match in play and a copy in which two other seats hold different
/// cards (swapped), which `viewer` cannot tell apart.
fn twin_matches(viewer: Seat) -> (Match, Match) {
    let heuristic = bots::by_name("heuristic").unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let rules = Rules {
        first_dealer: FirstDealer::Seat(3),
        max_hands: Some(1),
        ..Rules::default()
    };
    let mut m = Match::new(rules, seed(9)).unwrap();
    let mut events = Vec::new();
    // Play until `viewer` is to play its second card.
    while !(m.phase() == Phase::Playing
        && m.turn() == Some(viewer)
        && m.hand.as_ref().is_some_and(|h| h.tricks.len() == 1))
    {
        let seat = m.turn().unwrap();
        let a = heuristic.choose(&m.view(Some(seat)), &mut rng);
        m.apply(seat, a, &mut events).unwrap();
    }
    let twin = swap_cards(&m, (viewer + 1) as usize % 4, (viewer + 3) as usize % 4);
    (m, twin)
}

#[test]
fn the_sampler_sees_only_the_view_not_the_hidden_hands() {
    let viewer = 0;
    let (m, twin) = twin_matches(viewer);
    let (v1, v2) = twin_views(&m, &twin, viewer);
    let s1 = sample_deals(&v1, 300, &mut Xoshiro256PlusPlus::seed_from_u64(5));
    let s2 = sample_deals(&v2, 300, &mut Xoshiro256PlusPlus::seed_from_u64(5));
    assert_eq!(s1, s2, "the same view and seed give the same samples");
    // And the samples are not the truth more often than chance: with 33
    // unseen cards among three hands, an exact guess is all but impossible.
    let truth = m.hand.as_ref().unwrap().hands;
    let exact = s1
        .iter()
        .filter(|d| d[1] == truth[1] || d[2] == truth[2] || d[3] == truth[3])
        .count();
    assert_eq!(exact, 0);
    // The same holds for the Monte Carlo bot's choice.
    let mc = MonteCarloBot {
        playouts: 400,
        max_ms: 10_000,
        ..MonteCarloBot::DEFAULT
    };
    let a1 = mc.choose(&v1, &mut Xoshiro256PlusPlus::seed_from_u64(6));
    let a2 = mc.choose(&v2, &mut Xoshiro256PlusPlus::seed_from_u64(6));
    assert_eq!(a1, a2);
    assert!(matches!(a1, Action::Play { .. }));
}

#[test]
fn samples_spread_over_many_different_deals() {
    let (m, _) = twin_matches(2);
    let view = m.view(Some(2));
    let deals = sample_deals(&view, 200, &mut Xoshiro256PlusPlus::seed_from_u64(8));
    let mut distinct = deals.clone();
    distinct.sort_by_key(|d| d.map(|s| s.0));
    distinct.dedup();
    assert!(
        distinct.len() > 190,
        "only {} distinct deals",
        distinct.len()
    );
}

#[test]
fn the_bidding_weights_see_only_the_view_not_the_hidden_hands() {
    let viewer = 0;
    let (m, twin) = twin_matches(viewer);
    let (v1, v2) = twin_views(&m, &twin, viewer);
    let (b1, b2) = (Bidding::from_view(&v1), Bidding::from_view(&v2));
    assert!(!b1.is_empty(), "the other seats' bidding is in the view");
    let deals = sample_deals(&v1, 200, &mut Xoshiro256PlusPlus::seed_from_u64(5));
    let weights: Vec<f64> = deals.iter().map(|d| b1.weight(d)).collect();
    assert_eq!(
        weights,
        deals.iter().map(|d| b2.weight(d)).collect::<Vec<_>>()
    );
    // The weights do tell deals apart.
    let (lo, hi) = weights
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &w| (lo.min(w), hi.max(w)));
    assert!(hi > 2.0 * lo, "{lo} {hi}");
    let mc = MonteCarloBot {
        playouts: 400,
        max_ms: 10_000,
        infer: true,
        ..MonteCarloBot::DEFAULT
    };
    let a1 = mc.choose(&v1, &mut Xoshiro256PlusPlus::seed_from_u64(6));
    let a2 = mc.choose(&v2, &mut Xoshiro256PlusPlus::seed_from_u64(6));
    assert_eq!(a1, a2);
}

/// Trumps among the cards `seat` held when the bidding was spoken: what it
/// holds in `deal` and what it has played in the view's hand.
fn trumps_held(view: &GameView, deal: &[CardSet; 4], seat: Seat, trump: Suit) -> f64 {
    let played: CardSet = view
        .tricks
        .iter()
        .chain(view.trick.as_ref())
        .flat_map(|t| &t.cards)
        .filter(|pc| pc.seat == seat)
        .map(|pc| pc.card)
        .collect();
    f64::from((deal[seat as usize] | played).of_suit(trump).len())
}

#[test]
fn weighing_by_the_bidding_brings_the_declarers_trumps_nearer_the_truth() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    let (mut err_uniform, mut err_weighted, mut cases) = (0.0, 0.0, 0);
    for n in 0..80u64 {
        // Play to the first card of the play phase.
        let m = super::bid_one_hand(seed(500 + n), &mut rng, |_| false);
        let h = m.hand.as_ref().unwrap();
        let (Some(declarer), Some(trump)) = (h.declarer, h.trump.and_then(Trump::suit)) else {
            continue;
        };
        // A defender looks at the declarer's hand.
        let viewer = (declarer + 1) % 4;
        let view = m.view(Some(viewer));
        let truth = f64::from(h.hands[declarer as usize].of_suit(trump).len());
        let bidding = Bidding::from_view(&view);
        let deals = sample_deals(&view, 400, &mut rng);
        let (mut sum, mut wsum, mut wtotal) = (0.0, 0.0, 0.0);
        for d in &deals {
            let t = trumps_held(&view, d, declarer, trump);
            let w = bidding.weight(d);
            sum += t;
            wsum += w * t;
            wtotal += w;
        }
        err_uniform += (sum / deals.len() as f64 - truth).abs();
        err_weighted += (wsum / wtotal - truth).abs();
        cases += 1;
    }
    assert!(cases >= 40, "{cases} suit contracts");
    assert!(
        err_weighted < 0.75 * err_uniform,
        "mean error: weighted {} vs uniform {}",
        err_weighted / f64::from(cases),
        err_uniform / f64::from(cases)
    );
}
