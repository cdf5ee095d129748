//! The matchmaking queue's matching pass on pools of 1,000, 10,000 and
//! 100,000 waiting tickets: how its cost grows.
//!
//! `cargo bench --bench queue_pass -- --measurement-time 3 --warm-up-time 1`
//!
//! Each pool holds a quarter of tickets nobody can sit with (humans that
//! want only bots, with no bot waiting that accepts humans' company: the
//! bots here want only bots too), the rest bots that want only bots:
//!
//! - `pass/settled/N`: the bots' ratings 250 apart, so no two windows
//!   (±100 at queueing) meet: nothing forms, every ticket stays. The
//!   cost of a pass over a pool that waits (a housekeeping pass found
//!   due, a leave).
//! - `pass/forming/N`: the bots' ratings drawn between 1000 and 2000:
//!   about N × 3/16 matches form. The cost of the pass that seats them.
//! - `pool/decode/N` and `pool/encode/N`: reading and writing the pool
//!   document itself (JSON), which every write to a pool does besides the
//!   pass.
//!
//! Before the timings, each pool's size in bytes and the tickets one pass
//! read while looking for company (`examined`) are printed.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

use botifarra::lobby::queue::{Entry, PoolRecord, run_pass};
use botifarra::rules::Variant;

const NOW: u64 = 1_800_000_000_000;

/// A pool of `n` tickets, a quarter of them incompatible with everyone;
/// the bots' ratings `spaced` 250 apart, or drawn between 1000 and 2000.
fn pool(n: usize, spaced: bool) -> PoolRecord {
    let mut seed = 0x5eed_u64;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % m
    };
    let waiting = (0..n)
        .map(|i| {
            let human = i % 4 == 0;
            let rating = if spaced {
                250.0 * i as f64
            } else {
                1000.0 + next(1000) as f64
            };
            Entry {
                ticket: format!("q{i:024x}"),
                players: vec![format!("p{i:024x}")],
                bots: vec![!human],
                rating,
                accept_bots: true,
                only_bots: true,
                fill_at_ms: None,
                fill_level: None,
                created_ms: NOW - next(5_000),
                expires_ms: NOW + 600_000,
            }
        })
        .collect();
    PoolRecord {
        waiting,
        formed: Vec::new(),
        ..PoolRecord::default()
    }
}

fn one_pass(p: &mut PoolRecord) -> (usize, usize) {
    let mut n = 0u64;
    let pass = run_pass(p, Variant::Pairs, NOW, &[], || {
        n += 1;
        Ok(format!("{n:024x}"))
    })
    .expect("a pass");
    (pass.formed.len(), pass.examined)
}

fn bench_pass(c: &mut Criterion) {
    let mut g = c.benchmark_group("pass");
    g.sample_size(10);
    for n in [1_000, 10_000, 100_000] {
        for (name, spaced) in [("settled", true), ("forming", false)] {
            let p = pool(n, spaced);
            let (formed, examined) = one_pass(&mut p.clone());
            eprintln!("pass/{name}/{n}: {formed} matches formed, {examined} tickets examined");
            g.bench_function(format!("{name}/{n}"), |b| {
                b.iter_batched_ref(
                    || p.clone(),
                    |p| black_box(one_pass(p)),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    g.finish();
}

fn bench_pool(c: &mut Criterion) {
    let mut g = c.benchmark_group("pool");
    g.sample_size(10);
    for n in [1_000, 10_000, 100_000] {
        let p = pool(n, true);
        let json = serde_json::to_string(&p).expect("encode");
        eprintln!("pool/{n}: {} bytes of JSON", json.len());
        g.bench_function(format!("decode/{n}"), |b| {
            b.iter(|| black_box(serde_json::from_str::<PoolRecord>(&json).expect("decode")))
        });
        g.bench_function(format!("encode/{n}"), |b| {
            b.iter(|| black_box(serde_json::to_string(&p).expect("encode")))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_pass, bench_pool);
criterion_main!(benches);
