//! Ratings micro-benchmarks: what rating adds to a request.
//!
//! `cargo bench --bench ratings -- --measurement-time 3 --warm-up-time 1`
//!
//! - `player_record/decode/*`: parsing a stored player record (every
//!   request with a player key does it once, in `Service::authenticate`),
//!   without ratings and with a rating in each of the three pools, each
//!   listing its full 64 applied matches (the history is a document of
//!   its own); the record's size is printed first.
//! - `glicko2/update/*`: one rating period of a pairs match (one game
//!   against the opposing pair) and of an `abarrotada` match (three games).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use botifarra::lobby::records::{self, PlayerKind, PlayerRating, PlayerRecord};
use botifarra::rating::{DEFAULT_TAU, Game, Rating, side_opponent};

fn player(pools: &[&str], entries: usize) -> PlayerRecord {
    let mut p = PlayerRecord {
        id: "p0123456789abcdef01234567".into(),
        name: "robobot".into(),
        kind: PlayerKind::Bot,
        key_sha256: Some("ab".repeat(32)),
        matches_played: 0,
        created_ms: 1_795_000_000_000,
        ratings: Default::default(),
        counted: Vec::new(),
        counted_horizon_ms: 0,
        origin: None,
    };
    for pool in pools {
        let mut standing = PlayerRating {
            rating: Rating::default(),
            games: 0,
            updated_ms: 0,
            applied: Vec::new(),
            horizon_ms: 0,
            recent: Vec::new(),
        };
        for i in 0..entries as u64 {
            let after = Rating {
                rating: 1500.0 + (i as f64) * 1.234_567,
                deviation: 80.0 + (i as f64) * 0.345_678,
                volatility: 0.059_991_234,
            };
            standing.mark_applied(
                &format!("{:024x}", i * 7919),
                1_795_000_000_000 + i * 60_000,
            );
            standing.rating = after;
            standing.games += 1;
        }
        p.ratings.insert(pool.to_string(), standing);
    }
    p
}

fn decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("player_record/decode");
    for (name, rec) in [
        ("no_ratings", player(&[], 0)),
        (
            "3_pools_64_applied",
            player(&["pairs", "abarrotada", "abarrotada3"], 100),
        ),
    ] {
        let state = records::encode(&rec).unwrap();
        println!("player_record/{name}: {} bytes", state.len());
        group.bench_function(name, |b| {
            b.iter(|| records::decode::<PlayerRecord>(black_box(&state)).unwrap())
        });
    }
    group.finish();
}

fn update(c: &mut Criterion) {
    let me = Rating {
        rating: 1620.0,
        deviation: 140.0,
        volatility: 0.06,
    };
    let a = Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let b = Rating {
        rating: 1800.0,
        deviation: 30.0,
        volatility: 0.06,
    };
    let pairs = [Game {
        opponent: side_opponent(&a, &b),
        score: 1.0,
    }];
    let individual = [
        Game {
            opponent: a,
            score: 1.0,
        },
        Game {
            opponent: b,
            score: 0.0,
        },
        Game {
            opponent: me,
            score: 0.5,
        },
    ];
    let mut group = c.benchmark_group("glicko2/update");
    group.bench_function("pairs", |bch| {
        bch.iter(|| black_box(me).update(black_box(&pairs), DEFAULT_TAU))
    });
    group.bench_function("abarrotada", |bch| {
        bch.iter(|| black_box(me).update(black_box(&individual), DEFAULT_TAU))
    });
    group.finish();
}

criterion_group!(benches, decode, update);
criterion_main!(benches);
