//! Glicko-2 (`botifarra::rating`): Glickman's worked example and the
//! properties the ladder relies on.

use botifarra::rating::{DEFAULT_TAU, Game, MAX_DEVIATION, Rating, side_opponent};
use proptest::prelude::*;

fn rating(rating: f64, deviation: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

#[test]
fn glickmans_worked_example() {
    // "Example of the Glicko-2 system": a 1500/200/0.06 player beats
    // 1400/30 and loses to 1550/100 and 1700/300, with tau 0.5.
    let player = rating(1500.0, 200.0);
    let games = [
        Game {
            opponent: rating(1400.0, 30.0),
            score: 1.0,
        },
        Game {
            opponent: rating(1550.0, 100.0),
            score: 0.0,
        },
        Game {
            opponent: rating(1700.0, 300.0),
            score: 0.0,
        },
    ];
    let after = player.update(&games, 0.5);
    assert!(
        (after.rating - 1464.06).abs() < 0.01,
        "rating {}",
        after.rating
    );
    assert!(
        (after.deviation - 151.52).abs() < 0.01,
        "deviation {}",
        after.deviation
    );
    assert!(
        (after.volatility - 0.05999).abs() < 0.00001,
        "volatility {}",
        after.volatility
    );
}

#[test]
fn a_period_without_games_grows_the_deviation_only() {
    let player = rating(1620.0, 80.0);
    let idle = player.update(&[], DEFAULT_TAU);
    assert_eq!(idle, player.idle());
    assert!(idle.deviation > player.deviation);
    assert_eq!(idle.rating, player.rating);
    assert_eq!(idle.volatility, player.volatility);
    // Glickman's step 6 alone: sqrt(phi^2 + sigma^2) on the Glicko-2 scale.
    let phi = 80.0 / 173.7178;
    let expected = (phi * phi + 0.06f64 * 0.06).sqrt() * 173.7178;
    assert!((idle.deviation - expected).abs() < 1e-9);
}

#[test]
fn the_deviation_never_passes_a_new_players() {
    let mut player = Rating::default();
    for _ in 0..50 {
        player = player.idle();
    }
    assert_eq!(player.deviation, MAX_DEVIATION);
}

#[test]
fn regular_games_shrink_the_deviation_period_after_period() {
    let mut player = Rating::default();
    let opponent = rating(1500.0, 60.0);
    for period in 0..8 {
        let after = player.update(
            &[
                Game {
                    opponent,
                    score: 1.0,
                },
                Game {
                    opponent,
                    score: 0.0,
                },
            ],
            DEFAULT_TAU,
        );
        assert!(
            after.deviation < player.deviation,
            "period {period}: {} then {}",
            player.deviation,
            after.deviation
        );
        player = after;
    }
    assert!(player.deviation < 120.0, "{}", player.deviation);
}

#[test]
fn a_pair_is_rated_against_the_mean_of_the_opposing_pair() {
    let a = rating(1400.0, 100.0);
    let b = rating(1600.0, 200.0);
    let side = side_opponent(&a, &b);
    assert_eq!(side.rating, 1500.0);
    assert!(side.deviation > 100.0 && side.deviation < 200.0);
    assert_eq!(side_opponent(&a, &b), side_opponent(&b, &a));
}

proptest! {
    #[test]
    fn equal_players_move_symmetrically(
        r1 in 1000.0f64..2200.0,
        r2 in 1000.0f64..2200.0,
        rd in 40.0f64..350.0,
        score in prop::sample::select(vec![0.0, 0.5, 1.0]),
    ) {
        let p1 = rating(r1, rd);
        let p2 = rating(r2, rd);
        let a = p1.update(&[Game { opponent: p2, score }], DEFAULT_TAU);
        let b = p2.update(&[Game { opponent: p1, score: 1.0 - score }], DEFAULT_TAU);
        prop_assert!(((a.rating - r1) + (b.rating - r2)).abs() < 1e-6);
        prop_assert!((a.deviation - b.deviation).abs() < 1e-6);
        prop_assert!((p1.expected_score(&p2) + p2.expected_score(&p1) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_win_never_lowers_and_a_loss_never_raises(
        r1 in 1000.0f64..2200.0,
        r2 in 1000.0f64..2200.0,
        rd1 in 40.0f64..350.0,
        rd2 in 40.0f64..350.0,
    ) {
        let p = rating(r1, rd1);
        let o = rating(r2, rd2);
        let won = p.update(&[Game { opponent: o, score: 1.0 }], DEFAULT_TAU);
        let lost = p.update(&[Game { opponent: o, score: 0.0 }], DEFAULT_TAU);
        prop_assert!(won.rating > r1);
        prop_assert!(lost.rating < r1);
        prop_assert!(won.deviation.is_finite() && won.volatility > 0.0);
        prop_assert!(won.deviation <= MAX_DEVIATION);
    }

    #[test]
    fn a_game_against_a_known_opponent_shrinks_an_uncertain_rating(
        r1 in 1000.0f64..2200.0,
        gap in -400.0f64..400.0,
        rd1 in 120.0f64..350.0,
        rd2 in 30.0f64..150.0,
        score in prop::sample::select(vec![0.0, 0.5, 1.0]),
    ) {
        let p = rating(r1, rd1);
        // Within 400 points: a shock result against a far weaker player
        // rightly raises the volatility, and the deviation with it.
        let after = p.update(&[Game { opponent: rating(r1 + gap, rd2), score }], DEFAULT_TAU);
        prop_assert!(after.deviation < rd1, "{} -> {}", rd1, after.deviation);
    }
}

#[test]
fn a_break_grows_the_deviation_each_period_and_makes_the_next_result_count_more() {
    let settled = rating(1700.0, 50.0);
    let mut away = settled;
    for period in 0..30 {
        let next = away.idle();
        assert!(
            next.deviation > away.deviation || next.deviation == MAX_DEVIATION,
            "period {period}"
        );
        away = next;
    }
    assert!(away.deviation > 60.0, "{}", away.deviation);
    let loss = Game {
        opponent: rating(1500.0, 50.0),
        score: 0.0,
    };
    let fresh = settled.update(&[loss], DEFAULT_TAU);
    let rusty = away.update(&[loss], DEFAULT_TAU);
    assert!(
        settled.rating - fresh.rating < away.rating - rusty.rating,
        "a rating unsure after a break moves more: {} vs {}",
        settled.rating - fresh.rating,
        away.rating - rusty.rating
    );
}

#[test]
fn more_games_in_a_period_shrink_the_deviation_more() {
    let p = Rating::default();
    let o = rating(1500.0, 80.0);
    let one = p.update(
        &[Game {
            opponent: o,
            score: 0.5,
        }],
        DEFAULT_TAU,
    );
    let three = p.update(
        &[Game {
            opponent: o,
            score: 0.5,
        }; 3],
        DEFAULT_TAU,
    );
    assert!(three.deviation < one.deviation);
    assert!(one.deviation < p.deviation);
}

proptest! {
    #[test]
    fn a_pairs_match_between_equal_players_is_zero_sum(
        r in 1000.0f64..2200.0,
        rd in 40.0f64..350.0,
        winner_side in 0usize..2,
    ) {
        // Four equal players: each is rated against the other pair's
        // mean; the winners gain what the losers lose.
        let p = rating(r, rd);
        let side = side_opponent(&p, &p);
        let won = p.update(&[Game { opponent: side, score: 1.0 }], DEFAULT_TAU);
        let lost = p.update(&[Game { opponent: side, score: 0.0 }], DEFAULT_TAU);
        let changes: Vec<f64> = (0..4)
            .map(|s| if s % 2 == winner_side { won.rating - r } else { lost.rating - r })
            .collect();
        prop_assert!(changes.iter().sum::<f64>().abs() < 1e-6);
        prop_assert!((won.deviation - lost.deviation).abs() < 1e-9);
    }

    #[test]
    fn an_individual_match_between_equal_players_is_nearly_zero_sum(
        r in 1000.0f64..2200.0,
        rd in 40.0f64..350.0,
        totals in prop::collection::vec(0i32..150, 3..=4),
    ) {
        // Each seat plays every other, scored by final totals.
        let p = rating(r, rd);
        let changes: Vec<f64> = (0..totals.len())
            .map(|i| {
                let games: Vec<Game> = (0..totals.len())
                    .filter(|&j| j != i)
                    .map(|j| Game {
                        opponent: p,
                        score: match totals[i].cmp(&totals[j]) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Equal => 0.5,
                            std::cmp::Ordering::Less => 0.0,
                        },
                    })
                    .collect();
                p.update(&games, DEFAULT_TAU).rating - r
            })
            .collect();
        // Not exactly: each player's volatility step depends on its own
        // results, which differ in pattern (a win and a loss, or two draws).
        prop_assert!(changes.iter().sum::<f64>().abs() < 0.05, "{:?}", changes);
        let best = totals.iter().max().unwrap();
        let top = (0..totals.len()).find(|&i| totals[i] == *best).unwrap();
        prop_assert!(changes.iter().all(|&c| c <= changes[top] + 1e-9));
    }
}
