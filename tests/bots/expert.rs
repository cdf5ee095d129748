//! The expert player and its exact solver: the solver agrees with a plain
//! minimax on small endgames, and the expert only plays legal actions, only
//! uses what its seat may know, and keeps to its budget.

use botifarra::bots::maxn::{MaxN, Values};
use botifarra::bots::playout::value;
use botifarra::bots::solver::Solver;
use botifarra::bots::{self, Answers, Bot, ExpertBot, MonteCarloBot, Plan, Search};
use botifarra::rules::{
    Action, Card, Doubling, FirstDealer, HandState, Match, Phase, Rules, Seat, Variant,
};
use rand::rngs::Xoshiro256PlusPlus;

use crate::{swap_cards, twin_views};
use rand::{RngExt, SeedableRng};

const VARIANTS: [Variant; 3] = [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3];

/// A small budget: debug builds are slow.
const QUICK_MC: MonteCarloBot = MonteCarloBot {
    playouts: 60,
    max_ms: 60_000,
    ..MonteCarloBot::DEFAULT
};

/// A small plan with `search` (and the pairs game's inference when
/// `infer`).
const fn quick(search: Search, infer: bool) -> Plan {
    Plan {
        search,
        samples: 4,
        nodes: 40_000,
        max_tricks: 5,
        monte_carlo: MonteCarloBot { infer, ..QUICK_MC },
    }
}

/// The house searches on a small budget.
const QUICK: ExpertBot = ExpertBot {
    pairs: quick(Search::TwoSided, true),
    abarrotada: quick(Search::Reply, false),
    abarrotada3: quick(Search::MaxN, false),
    min_samples: 2,
    max_ms: 60_000,
    doubles: None,
};

fn seed(n: u64) -> [u8; 32] {
    let mut s = [3u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

/// Rule options spread over the matches: the default, forced mode (pairs
/// only), must-trump, and linear doubling.
fn rules(variant: Variant, n: u64) -> Rules {
    let mut r = Rules {
        variant,
        max_hands: Some(1),
        ..Rules::default()
    };
    match n % 4 {
        1 if variant == Variant::Pairs => r.forced = true,
        2 => r.must_trump = true,
        3 => {
            r.doubling = Doubling::Linear;
            r.first_dealer = FirstDealer::Seat(1);
        }
        _ => {}
    }
    r
}

/// The points `side` takes from `h` to the end with every seat of `side`
/// maximising and every other seat minimising, over every legal card.
fn minimax(h: &HandState, rules: &Rules, side: u8) -> i32 {
    if !h.in_play() {
        return 0;
    }
    let table = rules.variant.table();
    let values = h.legal_cards(rules, table).iter().map(|c| {
        let mut next = h.clone();
        let before = i32::from(h.points[side as usize]);
        next.play_known(table, c);
        i32::from(next.points[side as usize]) - before + minimax(&next, rules, side)
    });
    if table.side(h.turn) == side {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Plays random legal actions until the hand has `tricks` tricks left
/// (counting the one in progress) and `extra` cards are on the table; the
/// hand in play then.
fn endgame(m: &mut Match, rng: &mut Xoshiro256PlusPlus, tricks: u32, extra: usize) -> HandState {
    let mut events = Vec::new();
    loop {
        if let Some(h) = m.hand.as_ref().filter(|_| m.phase() == Phase::Playing)
            && h.hands[h.turn as usize].len() == tricks
            && h.trick.len() == extra
        {
            return h.clone();
        }
        let seat = m.turn().unwrap();
        let legal = m.view(Some(seat)).legal_actions;
        let a = legal[rng.random_range(0..legal.len())];
        m.apply(seat, a, &mut events).unwrap();
        events.clear();
    }
}

/// `f` of the position after each legal card of `h`, by card.
fn each_card<T>(h: &HandState, rules: &Rules, f: impl Fn(&HandState) -> T) -> Vec<(Card, T)> {
    let table = rules.variant.table();
    let legal = h.legal_cards(rules, table);
    legal
        .iter()
        .map(|c| {
            let mut next = h.clone();
            next.play_known(table, c);
            (c, f(&next))
        })
        .collect()
}

/// `count` endgames of each of `variants`: the last 3 tricks (4 in every
/// seventh), with 0 to all but one card on the table, reached by random
/// play from the match seeded `base + n + 100 * variant`; each with its
/// number `n` and rules.
fn endgames(variants: &[Variant], count: u64, base: u64, rng: u64) -> Vec<(u64, Rules, HandState)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(rng);
    let mut out = Vec::new();
    for &variant in variants {
        let seats = variant.table().seats as usize;
        for n in 0..count {
            let tricks = if n % 7 == 0 { 4 } else { 3 };
            let rules = rules(variant, n);
            let seed = seed(base + n + 100 * variant as u64);
            let mut m = Match::new(rules.clone(), seed).unwrap();
            out.push((
                n,
                rules,
                endgame(&mut m, &mut rng, tricks, n as usize % seats),
            ));
        }
    }
    out
}

#[test]
fn the_solver_agrees_with_a_plain_minimax_on_small_endgames() {
    let mut checked = 0;
    for (n, rules, h) in endgames(&VARIANTS, 70, 0, 17) {
        let variant = rules.variant;
        let seats = variant.table().seats as usize;
        // Every seat's side, so both the maximising and the minimising
        // seats are to play at the root.
        let table = variant.table();
        for seat in 0..seats as Seat {
            let side = table.side(seat);
            // Each legal card's value by plain minimax.
            let by_card = each_card(&h, &rules, |next| {
                let gained = next.points[side as usize] - h.points[side as usize];
                i32::from(gained) + minimax(next, &rules, side)
            });
            let values = by_card.iter().map(|(_, v)| *v);
            let expected = if table.side(h.turn) == side {
                values.max().unwrap()
            } else {
                values.min().unwrap()
            };
            let mut solver = Solver::new(&rules, seat, u64::MAX);
            let sol = solver.solve(&h).expect("solved within an unlimited budget");
            assert_eq!(sol.value, expected, "{variant:?} n={n} seat={seat}");
            // The best card achieves the value.
            assert!(by_card.contains(&(sol.best, expected)), "{}", sol.best);
            // And every card's own value is exact.
            let each = Solver::new(&rules, seat, u64::MAX).solve_each(&h).unwrap();
            assert_eq!(each, by_card);
            checked += 1;
        }
    }
    assert!(checked > 700, "only {checked} positions");
}

/// Every seat's value of `h` played out with each seat to play taking the
/// card best for itself, the lowest such card on a tie, over every legal
/// card, without a table or pruning.
fn plain_maxn(h: &HandState, rules: &Rules) -> Values {
    let table = rules.variant.table();
    if !h.in_play() {
        let mut v = [0.0; 4];
        for (s, x) in v.iter_mut().enumerate().take(table.seats as usize) {
            *x = value(rules, s as Seat, h);
        }
        return v;
    }
    let seat = h.turn as usize;
    let mut best: Option<Values> = None;
    for c in h.legal_cards(rules, table).iter() {
        let mut next = h.clone();
        next.play_known(table, c);
        let v = plain_maxn(&next, rules);
        if best.is_none_or(|b| v[seat] > b[seat]) {
            best = Some(v);
        }
    }
    best.unwrap()
}

#[test]
fn the_max_n_search_agrees_with_a_plain_one_on_small_endgames() {
    let mut checked = 0;
    let mut differ = 0;
    for (n, rules, h) in endgames(&[Variant::Abarrotada, Variant::Abarrotada3], 60, 1_000, 29) {
        let variant = rules.variant;
        let by_card = each_card(&h, &rules, |next| plain_maxn(next, &rules));
        let mut search = MaxN::new(&rules, u64::MAX);
        let each = search
            .solve_each(&h)
            .expect("solved within an unlimited budget");
        assert_eq!(each, by_card, "{variant:?} n={n}");
        // Not every card of the seat to play is worth the same.
        let seat = h.turn as usize;
        if by_card.iter().any(|(_, v)| v[seat] != by_card[0].1[seat]) {
            differ += 1;
        }
        checked += 1;
    }
    assert_eq!(checked, 120);
    assert!(
        differ > 30,
        "only {differ} positions where the card mattered"
    );
}

#[test]
fn the_solver_gives_up_past_its_node_budget() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let rules = rules(Variant::Pairs, 0);
    let mut m = Match::new(rules.clone(), seed(1)).unwrap();
    let h = endgame(&mut m, &mut rng, 6, 0);
    let mut full = Solver::new(&rules, 0, u64::MAX);
    assert!(full.solve(&h).is_some());
    assert!(full.nodes > 50, "{}", full.nodes);
    let mut small = Solver::new(&rules, 0, full.nodes / 2);
    assert_eq!(small.solve(&h), None);
    assert!(small.nodes <= full.nodes / 2 + 1);
}

/// Plays a match with `players[seat]` at each seat, asserting every action
/// is listed as legal and accepted; returns the actions taken.
fn play(m: &mut Match, players: &[&dyn Bot], rng: &mut Xoshiro256PlusPlus) -> usize {
    let mut events = Vec::new();
    let mut actions = 0;
    while let Some(seat) = m.turn() {
        let view = m.view(Some(seat));
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
        actions += 1;
    }
    actions
}

#[test]
fn the_expert_only_ever_plays_legal_actions_in_every_variant() {
    let heuristic = bots::by_name("heuristic").unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut actions = 0;
    for variant in VARIANTS {
        for n in 0..8u64 {
            let mut m = Match::new(rules(variant, n), seed(n)).unwrap();
            let lineup: [&dyn Bot; 4] = if n % 2 == 0 {
                [&QUICK, heuristic, &QUICK, heuristic]
            } else {
                [heuristic, &QUICK, heuristic, &QUICK]
            };
            actions += play(&mut m, &lineup, &mut rng);
            assert_eq!(m.phase(), Phase::MatchOver);
        }
    }
    assert!(actions > 1000, "only {actions} actions");
}

/// In the individual variants the expert bids and plays the early tricks
/// exactly as its plain Monte Carlo player (no inference there): with the
/// same random numbers, every decision before the solver's last tricks is
/// that player's; in the pairs game its inferring player decides instead,
/// and some decision differs.
#[test]
fn in_the_individual_variants_the_expert_decides_early_as_the_plain_monte_carlo_player() {
    const { assert!(QUICK.pairs.monte_carlo.infer) };
    let heuristic = bots::by_name("heuristic").unwrap();
    let mut differ_in_pairs = 0;
    for variant in VARIANTS {
        let plan = QUICK.plan(variant);
        let plain = MonteCarloBot {
            infer: false,
            ..plan.monte_carlo
        };
        let mut compared = 0;
        for n in 0..3u64 {
            // One hand with the default options.
            let mut m = Match::new(rules(variant, 0), seed(300 + n)).unwrap();
            let mut events = Vec::new();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(n);
            while m.phase() != Phase::MatchOver {
                let seat = m.turn().unwrap();
                let view = m.view(Some(seat));
                let early = view.phase != Phase::Playing
                    || view.hand.as_ref().map_or(0, Vec::len) > usize::from(plan.max_tricks);
                if early && view.legal_actions.len() >= 2 && view.phase != Phase::AwaitingDeal {
                    let expert = QUICK.choose(&view, &mut Xoshiro256PlusPlus::seed_from_u64(n));
                    let mc = plain.choose(&view, &mut Xoshiro256PlusPlus::seed_from_u64(n));
                    compared += 1;
                    if variant == Variant::Pairs {
                        differ_in_pairs += usize::from(expert != mc);
                    } else {
                        assert_eq!(expert, mc, "{variant:?}: {view:?}");
                    }
                }
                let a = heuristic.choose(&view, &mut rng);
                m.apply(seat, a, &mut events).unwrap();
            }
        }
        assert!(compared > 20, "{variant:?}: only {compared} decisions");
    }
    assert!(differ_in_pairs > 0, "the pairs expert infers");
}

/// The house expert searches only the last tricks of its plan: in every
/// variant, every card decision with more tricks left goes to the Monte
/// Carlo player (`decide` answers `None`), and most later ones are
/// searched within the house budget (the rest do not fit it).
#[test]
fn the_house_expert_searches_the_last_tricks_of_each_plan() {
    let house = ExpertBot::DEFAULT;
    let heuristic = bots::by_name("heuristic").unwrap();
    for variant in VARIANTS {
        let plan = house.plan(variant);
        assert!(plan.max_tricks > 0 && plan.max_tricks < 12, "{variant:?}");
        let three_hands = Rules {
            max_hands: Some(3),
            ..rules(variant, 0)
        };
        let mut m = Match::new(three_hands, seed(41)).unwrap();
        let mut events = Vec::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
        let (mut early, mut late, mut searched) = (0, 0, 0);
        while m.phase() != Phase::MatchOver {
            let seat = m.turn().unwrap();
            let view = m.view(Some(seat));
            let cards = bots::playable(&view.legal_actions);
            if view.phase == Phase::Playing && cards.len() >= 2 {
                let d = house.decide(&view, cards, &mut rng);
                if view.hand.as_ref().map_or(0, Vec::len) > usize::from(plan.max_tricks) {
                    assert_eq!(d, None, "{variant:?}");
                    early += 1;
                } else {
                    late += 1;
                    searched += usize::from(d.is_some_and(|d| d.samples > 0));
                }
            }
            let a = heuristic.choose(&view, &mut rng);
            m.apply(seat, a, &mut events).unwrap();
        }
        assert!(
            early >= 5 && late >= 5,
            "{variant:?}: {early} early, {late} late"
        );
        assert!(
            searched * 10 >= late * 8,
            "{variant:?}: {searched} of {late} searched"
        );
    }
}

/// A one-hand match of `variant` in play at `viewer`'s turn with at most
/// five cards left and a choice of cards, and a copy in which two other seats hold different cards (swapped), which `viewer`
/// cannot tell apart.
fn twin_matches(variant: Variant, viewer: Seat) -> (Match, Match) {
    let heuristic = bots::by_name("heuristic").unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let seats = variant.table().seats;
    let rules = Rules {
        variant,
        first_dealer: FirstDealer::Seat(seats - 1),
        max_hands: Some(1),
        ..Rules::default()
    };
    let mut m = Match::new(rules, seed(9)).unwrap();
    let mut events = Vec::new();
    while !(m.phase() == Phase::Playing
        && m.turn() == Some(viewer)
        && m.hand
            .as_ref()
            .is_some_and(|h| h.hands[viewer as usize].len() <= 5)
        && m.view(Some(viewer)).legal_actions.len() >= 2)
    {
        let seat = m.turn().unwrap();
        let a = heuristic.choose(&m.view(Some(seat)), &mut rng);
        m.apply(seat, a, &mut events).unwrap();
    }
    let twin = swap_cards(
        &m,
        usize::from((viewer + 1) % seats),
        usize::from((viewer + seats - 1) % seats),
    );
    (m, twin)
}

/// The same in every variant, so with each search: two-sided (pairs), the
/// best reply (abarrotada), max-n (abarrotada3).
#[test]
fn the_expert_sees_only_the_view_not_the_hidden_hands() {
    an_expert_sees_only_the_view(Variant::Pairs, QUICK);
    an_expert_sees_only_the_view(Variant::Abarrotada, QUICK);
    // Max-n has no cutoffs: more positions for five tricks.
    let maxn = ExpertBot {
        abarrotada3: Plan {
            nodes: 1_000_000,
            ..QUICK.abarrotada3
        },
        ..QUICK
    };
    an_expert_sees_only_the_view(Variant::Abarrotada3, maxn);
}

fn an_expert_sees_only_the_view(variant: Variant, bot: ExpertBot) {
    let viewer = 0;
    let (m, twin) = twin_matches(variant, viewer);
    let (v1, v2) = twin_views(&m, &twin, viewer);
    let expert = bot.each_plan(|p| Plan { samples: 12, ..p });
    let cards = bots::playable(&v1.legal_actions);
    let d1 = expert.decide(&v1, cards, &mut Xoshiro256PlusPlus::seed_from_u64(6));
    let d2 = expert.decide(&v2, cards, &mut Xoshiro256PlusPlus::seed_from_u64(6));
    let d1 = d1.expect("the solver decides with five tricks left");
    assert_eq!(Some(d1.clone()), d2);
    assert!(d1.samples > 0);
    let a1 = expert.choose(&v1, &mut Xoshiro256PlusPlus::seed_from_u64(7));
    let a2 = expert.choose(&v2, &mut Xoshiro256PlusPlus::seed_from_u64(7));
    assert_eq!(a1, a2);
    assert!(matches!(a1, Action::Play { .. }));
}

#[test]
fn the_expert_keeps_to_its_sample_and_node_budget() {
    let (m, _) = twin_matches(Variant::Pairs, 0);
    let view = m.view(Some(0));
    let cards = bots::playable(&view.legal_actions);
    assert!(cards.len() >= 2, "a real choice: {cards:?}");
    for samples in [1, 3, 9] {
        let bot = QUICK.each_plan(|p| Plan { samples, ..p });
        let d = bot
            .decide(&view, cards, &mut Xoshiro256PlusPlus::seed_from_u64(1))
            .unwrap();
        assert!(d.samples <= samples && d.samples >= 1, "{d:?}");
        assert!(d.nodes <= QUICK.pairs.nodes, "{d:?}");
        assert!(cards.contains(d.card));
    }
    // Too few nodes to solve one deal: the Monte Carlo player decides.
    let starved = QUICK.each_plan(|p| Plan { nodes: 10, ..p });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(starved.decide(&view, cards, &mut rng), None);
    let a = starved.choose(&view, &mut rng);
    assert!(view.legal_actions.contains(&a));
    // Too many tricks left for the solver: likewise.
    let left = m.hand.as_ref().unwrap().hands[0].len() as u8;
    let early = QUICK.each_plan(|p| Plan {
        max_tricks: left - 1,
        ..p
    });
    assert_eq!(early.decide(&view, cards, &mut rng), None);
}

#[test]
fn the_strength_levels_are_house_bots() {
    assert_eq!(bots::LEVELS, ["easy", "medium", "hard", "expert"]);
    for level in bots::LEVELS {
        let bot = bots::by_name(level).unwrap_or_else(|| panic!("{level}"));
        assert!(bots::NAMES.contains(level), "{level}");
        assert_eq!(bot.name(), *level);
    }
    // `medium` plays exactly as the heuristic player (the Monte Carlo
    // player behind `hard` stops on the clock, so its choices are not
    // compared here).
    let medium = bots::by_name("medium").unwrap();
    let heuristic = bots::by_name("heuristic").unwrap();
    let mut m = Match::new(rules(Variant::Pairs, 0), seed(5)).unwrap();
    let mut events = Vec::new();
    let mut compared = 0;
    while let Some(seat) = m.turn() {
        let view = m.view(Some(seat));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(compared);
        let a = medium.choose(&view, &mut rng.clone());
        assert_eq!(a, heuristic.choose(&view, &mut rng));
        m.apply(seat, a, &mut events).unwrap();
        compared += 1;
    }
    assert!(compared > 40);
}

#[test]
fn the_arena_seats_the_levels_and_an_expert_with_a_budget() {
    use botifarra::arena::{ArenaArgs, ArenaError, Player, run};
    let args = |a: &str, b: &str| ArenaArgs {
        a: a.to_string(),
        b: b.to_string(),
        deals: 2,
        matches: None,
        variant: Variant::Pairs,
        seed: 11,
        threads: Some(1),
        quiet: true,
        per_deal: None,
    };
    let r = run(&args("expert:2:20000:4", "easy")).unwrap();
    assert!(r.a.decisions > 0 && r.b.decisions > 0);
    let r = run(&args("expert:2:20000:4:plain", "easy")).unwrap();
    assert!(r.a.decisions > 0 && r.b.decisions > 0);
    let r = run(&args("expert:2:20000:4:hdoubles", "easy")).unwrap();
    assert!(r.a.decisions > 0 && r.each.len() == 2);
    match Player::parse("expert:2:20000:plain") {
        Ok(Player::Expert(bot)) => {
            assert!(!bot.pairs.monte_carlo.infer);
            for v in VARIANTS {
                let (plan, house) = (bot.plan(v), ExpertBot::DEFAULT.plan(v));
                assert_eq!((plan.samples, plan.nodes), (2, 20_000));
                assert_eq!(plan.max_tricks, house.max_tricks);
                assert_eq!(plan.search, house.search);
            }
        }
        _ => panic!("expert:2:20000:plain is an expert"),
    }
    assert!(
        matches!(Player::parse("expert:2:20000:5"), Ok(Player::Expert(b)) if b.pairs.monte_carlo.infer && b.abarrotada.max_tricks == 5)
    );
    assert!(
        matches!(Player::parse("expert:2:20000:hdoubles"), Ok(Player::Expert(b)) if b.pairs.monte_carlo.answers == Answers::HeuristicDoubles && b.pairs.monte_carlo.infer)
    );
    // The search option sets the individual variants' search only.
    for (option, search) in [
        ("twosided", Search::TwoSided),
        ("maxn", Search::MaxN),
        ("reply", Search::Reply),
    ] {
        match Player::parse(&format!("expert:2:20000:4:plain:{option}")) {
            Ok(Player::Expert(b)) => {
                assert_eq!(
                    (b.abarrotada.search, b.abarrotada3.search),
                    (search, search)
                );
                assert_eq!(b.pairs.search, Search::TwoSided);
                assert_eq!(b.abarrotada3.max_tricks, 4);
            }
            _ => panic!("{option}"),
        }
    }
    assert!(run(&args("medium", "hard:1")).is_err());
    for bad in [
        "expert:0:100",
        "expert:2",
        "expert:2:x",
        "expert:2:10:4:5",
        "expert:2:10:plain:4",
        "expert:2:10:4:fast",
        "expert:2:10:maxn:plain",
        "expert:2:10:reply:maxn",
    ] {
        assert!(
            matches!(run(&args(bad, "easy")), Err(ArenaError::UnknownBot(_))),
            "{bad}"
        );
    }
}

/// The expert's bidding (its Monte Carlo bid search weighs deals by the
/// bidding so far and expects the others to bid as its model says) depends
/// only on the view: in the doubling phase, after the declarer and a
/// defender spoke, two matches whose other hands differ give the same call.
#[test]
fn the_experts_bidding_sees_only_the_view_not_the_hidden_hands() {
    let mut compared = 0;
    for n in 0..40u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(n);
        // Bid until a seat has a doubling decision after someone else has
        // spoken in that phase.
        let m = super::bid_one_hand(seed(700 + n), &mut rng, |m| {
            m.phase() == Phase::Doubling
                && m.view(None).calls.is_empty()
                && m.hand
                    .as_ref()
                    .unwrap()
                    .declarer
                    .is_some_and(|d| Some(d) != m.turn())
        });
        if m.phase() != Phase::Doubling {
            continue;
        }
        let viewer = m.turn().unwrap();
        let others: Vec<usize> = (0..4).filter(|&s| s != viewer as usize).collect();
        let twin = swap_cards(&m, others[0], others[1]);
        let (v1, v2) = (m.view(Some(viewer)), twin.view(Some(viewer)));
        assert_eq!(
            serde_json::to_string(&v1).unwrap(),
            serde_json::to_string(&v2).unwrap()
        );
        let a1 = QUICK.choose(&v1, &mut Xoshiro256PlusPlus::seed_from_u64(n));
        let a2 = QUICK.choose(&v2, &mut Xoshiro256PlusPlus::seed_from_u64(n));
        assert_eq!(a1, a2, "match {n}");
        assert!(v1.legal_actions.contains(&a1));
        compared += 1;
    }
    assert!(compared >= 10, "{compared} doubling positions");
}
