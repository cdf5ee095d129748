//! `expert-v4`: `expert-v3` whose doubles in the pairs game are valued by
//! sampling and solving (`choose_double_solved`): every candidate double
//! valued on the same deals, within its budget, from the view alone.

use botifarra::arena::Player;
use botifarra::bots::{
    Bot, ExpertBot, MonteCarloBot, SolvedDoubles, choose_double_solved, playable,
};
use botifarra::rules::contract::Call;
use botifarra::rules::{Action, Match, Phase};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::{bid_one_hand, swap_cards, twin_views};

/// A small budget (debug builds are slow).
const SMALL: SolvedDoubles = SolvedDoubles {
    deals: 6,
    nodes: 120_000,
    max_ms: 600_000,
    played: 1,
};

fn bidder() -> MonteCarloBot {
    ExpertBot::V4.pairs.monte_carlo
}

/// Pairs doubling positions (a contro, or a recontro after one, to say or
/// not), bid by the heuristic player.
fn doubling_positions(count: usize) -> Vec<Match> {
    let mut found = Vec::new();
    for n in 0..400u64 {
        let mut seed = [7u8; 32];
        seed[..8].copy_from_slice(&n.to_le_bytes());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(n);
        let m = bid_one_hand(seed, &mut rng, |m| {
            m.phase() == Phase::Doubling && m.turn().is_some_and(|s| m.legal_actions(s).len() >= 2)
        });
        if m.phase() == Phase::Doubling {
            found.push(m);
        }
        if found.len() == count {
            break;
        }
    }
    assert_eq!(found.len(), count, "too few doubling positions were dealt");
    found
}

#[test]
fn expert_v4_is_v3_with_its_doubles_solved() {
    let v4 = ExpertBot::V4;
    let budget = v4.doubles.expect("v4 solves its doubles");
    assert!(
        budget.deals >= 16 && budget.nodes >= 1_000_000,
        "{budget:?}"
    );
    assert!(budget.max_ms <= 500, "{budget:?}");
    assert_eq!(
        ExpertBot {
            doubles: None,
            ..v4
        },
        ExpertBot::V3
    );
    assert_eq!(ExpertBot::V3.doubles, None);
    assert_eq!(ExpertBot::DEFAULT.doubles, None);
}

#[test]
fn every_candidate_double_is_valued_within_the_budget() {
    for m in doubling_positions(8) {
        let seat = m.turn().unwrap();
        let view = m.view(Some(seat));
        assert!(playable(&view.legal_actions).is_empty());
        let d = choose_double_solved(
            &view,
            &bidder(),
            SMALL,
            &mut Xoshiro256PlusPlus::seed_from_u64(2),
        )
        .expect("a pairs double is valued");
        let tried: Vec<Action> = d.values.iter().map(|v| v.0).collect();
        assert_eq!(tried, view.legal_actions, "every legal double is tried");
        assert!(view.legal_actions.contains(&d.action));
        let best = d.values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
        let chosen = d.values.iter().find(|v| v.0 == d.action).unwrap().1;
        assert_eq!(chosen, best, "{d:?}");
        assert!(d.deals >= 1 && d.deals <= SMALL.deals, "{d:?}");
        assert!(d.solved <= d.deals, "{d:?}");
        // A search stops one position past its share.
        assert!(d.nodes <= SMALL.nodes + u64::from(d.deals), "{d:?}");
        // Every value is a multiplier times an estimate of 72 or 0 points
        // less 36: never more than the highest stake allows.
        for (_, v) in &d.values {
            assert!(v.abs() <= 36.0 * 16.0, "{d:?}");
        }
        // The same draws give the same answer.
        let again = choose_double_solved(
            &view,
            &bidder(),
            SMALL,
            &mut Xoshiro256PlusPlus::seed_from_u64(2),
        );
        assert_eq!(again.as_ref(), Some(&d));
    }
}

#[test]
fn one_deal_values_each_candidate_at_its_stake() {
    // One deal: one estimate (72 or 0 hand points), less 36, times each
    // candidate's multiplier once the others have answered it. A double
    // at least doubles the stake of the position.
    let mut doubles = 0;
    for m in doubling_positions(8) {
        let seat = m.turn().unwrap();
        let view = m.view(Some(seat));
        // Played by the playouts to the end, the hand is valued by its
        // points, without a search.
        let whole = choose_double_solved(
            &view,
            &bidder(),
            SolvedDoubles {
                deals: 1,
                played: u8::MAX,
                ..SMALL
            },
            &mut Xoshiro256PlusPlus::seed_from_u64(5),
        )
        .unwrap();
        assert_eq!(
            (whole.deals, whole.solved, whole.nodes),
            (1, 0, 0),
            "{whole:?}"
        );
        let d = choose_double_solved(
            &view,
            &bidder(),
            SolvedDoubles { deals: 1, ..SMALL },
            &mut Xoshiro256PlusPlus::seed_from_u64(5),
        )
        .unwrap();
        assert_eq!(d.deals, 1);
        let sign = d.values[0].1.signum();
        let now = f64::from(m.multiplier());
        for &(a, v) in &d.values {
            assert_eq!(v.signum(), sign, "{d:?}");
            // The deal's weight divides out, up to rounding.
            let stake = (v.abs() / 36.0).round();
            assert!((v.abs() - 36.0 * stake).abs() < 1e-6, "{a:?}: {v}");
            assert!(stake >= now, "{a:?}: {v}, stake now {now}");
            if a != (Action::Double { call: Call::Pass }) {
                doubles += 1;
                assert!(stake >= 2.0 * now, "{a:?}: {v}, stake now {now}");
            }
        }
    }
    assert!(doubles >= 8, "{doubles}");
}

#[test]
fn a_solved_double_depends_only_on_the_view() {
    for m in doubling_positions(4) {
        let seat = m.turn().unwrap();
        // Two other seats' cards swapped: what `seat` sees is the same.
        let twin = swap_cards(&m, usize::from((seat + 1) % 4), usize::from((seat + 3) % 4));
        let (v1, v2) = twin_views(&m, &twin, seat);
        let solve = |view| {
            choose_double_solved(
                view,
                &bidder(),
                SMALL,
                &mut Xoshiro256PlusPlus::seed_from_u64(9),
            )
        };
        assert_eq!(solve(&v1), solve(&v2));
        // And the expert says what the search chose.
        let bot = ExpertBot {
            doubles: Some(SMALL),
            ..ExpertBot::V4
        };
        let said = bot.choose(&v1, &mut Xoshiro256PlusPlus::seed_from_u64(9));
        assert_eq!(Some(said), solve(&v1).map(|d| d.action));
        assert_eq!(
            said,
            bot.choose(&v2, &mut Xoshiro256PlusPlus::seed_from_u64(9))
        );
    }
}

#[test]
fn outside_the_pairs_doubling_phase_nothing_is_solved() {
    let m = doubling_positions(1).remove(0);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    // The trump choice is the Monte Carlo player's.
    let trump = bid_one_hand([7u8; 32], &mut rng, |m| m.phase() == Phase::ChoosingTrump);
    let view = trump.view(trump.turn());
    assert_eq!(
        choose_double_solved(&view, &bidder(), SMALL, &mut rng),
        None
    );
    // A seat that is not to speak has no candidates.
    let seat = m.turn().unwrap();
    let other = m.view(Some((seat + 1) % 4));
    assert_eq!(
        choose_double_solved(&other, &bidder(), SMALL, &mut rng),
        None
    );
}

#[test]
fn the_arena_names_expert_v4_and_its_budgets() {
    let doubles = |name: &str| match Player::parse(name) {
        Ok(Player::Expert(b)) => Some(b.doubles),
        _ => None,
    };
    assert_eq!(doubles("expert-v4"), Some(ExpertBot::V4.doubles));
    assert_eq!(doubles("expert-v3"), Some(None));
    let v4 = ExpertBot::V4.doubles.unwrap();
    let set = doubles("expert-v4:16:200000").unwrap().unwrap();
    assert_eq!((set.deals, set.nodes, set.played), (16, 200_000, v4.played));
    assert!(set.max_ms > 3_600_000, "counts alone decide: {set:?}");
    let set = doubles("expert-v4:16:200000:4").unwrap().unwrap();
    assert_eq!(set.played, 4);
    for bad in [
        "expert-v4:",
        "expert-v4:16",
        "expert-v4:0:200000",
        "expert-v4:16:0",
        "expert-v4:16:200000:5",
        "expert-v4:16:200000:1:2",
        "expert-v4:x:200000",
    ] {
        assert_eq!(doubles(bad), None, "{bad}");
    }
}
