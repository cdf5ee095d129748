//! A 1,000-entrant arena (pairs game, drawn partnerships: 500 units, 250
//! tables a wave): the cost of one step of the tournament, which every
//! housekeeping tick makes for it, as the arena goes on.
//!
//! `cargo bench --bench tournaments -- --measurement-time 3 --warm-up-time 1`
//!
//! - `arena_step/start`: forming the 500 partnerships from the entries and
//!   pairing the first wave of 250 tables.
//! - `arena_step/wave/W`: after `W` waves played, recording the results of
//!   the 250 tables just finished and pairing the next wave (what a tick
//!   does when every game of a wave ends at once): the pairing latency.
//! - `arena_record/encode/W`: writing the tournament document (JSON), as
//!   each step's compare-and-set does.
//! - `swiss_step/1000`: recording a Swiss round of 1,000 single entrants
//!   (abarrotada: 250 tables) and pairing the next.
//!
//! Before the timings, the record's size after each measured wave is
//! printed.

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

use botifarra::lobby::tournaments::{
    Entry, Format, Partners, TableResult, TournamentRecord, TournamentStatus, step,
};
use botifarra::rules::{Rules, Variant};
use botifarra::service::{PlayerKind, SeatPlayer};

const NOW: u64 = 1_800_000_000_000;

/// An open tournament of `n` entrants in `variant`, due to start.
fn tournament(n: usize, variant: Variant, format: Format) -> TournamentRecord {
    let entries = (0..n)
        .map(|i| Entry {
            player: SeatPlayer {
                id: format!("p{i:024x}"),
                name: format!("bot {i}"),
                kind: PlayerKind::Bot,
            },
            partner: None,
            rating: 1000.0 + (i * 7919 % 1000) as f64,
            entered_ms: NOW,
            withdrawn: false,
            unit: None,
        })
        .collect();
    TournamentRecord {
        id: "t000000000000000000000000".into(),
        name: "bench".into(),
        owner: SeatPlayer {
            id: "p0".into(),
            name: "owner".into(),
            kind: PlayerKind::Human,
        },
        variant,
        format,
        partners: Partners::Drawn,
        rules: Rules {
            variant,
            ..Rules::default()
        },
        rated: false,
        code_sha256: None,
        starts_ms: NOW,
        move_timeout_ms: 30_000,
        fill_with: None,
        max_entrants: n,
        seed: "5e".repeat(32),
        status: TournamentStatus::Open,
        created_ms: NOW,
        ended_ms: None,
        entries,
        units: Vec::new(),
        rounds: Vec::new(),
        told_over: true,
    }
}

/// The results of every unfinished table: side `(round + table) % 2` wins
/// 101 to 60, one hand recorded.
fn results(rec: &TournamentRecord) -> HashMap<String, TableResult> {
    let mut out = HashMap::new();
    for r in &rec.rounds {
        for (i, t) in r
            .tables
            .iter()
            .enumerate()
            .filter(|(_, t)| t.result.is_none())
        {
            let w = ((r.number as usize + i) % 2) as u8;
            let sides = t.units.len();
            let mut scores = vec![60; sides];
            scores[usize::from(w)] = 101;
            out.insert(
                t.match_id.clone(),
                TableResult {
                    scores: scores.clone(),
                    winners: vec![w],
                    boards: vec![scores],
                    at_fault: None,
                    finished_ms: NOW,
                },
            );
        }
    }
    out
}

/// The arena after `waves` waves played (the last one's results not yet
/// recorded).
fn arena_after(waves: usize) -> TournamentRecord {
    let mut rec = tournament(
        1000,
        Variant::Pairs,
        Format::Arena {
            duration_ms: 3_600_000,
        },
    );
    step(&mut rec, &HashMap::new(), NOW);
    for w in 1..waves {
        let done = results(&rec);
        step(&mut rec, &done, NOW + w as u64);
    }
    rec
}

fn bench(c: &mut Criterion) {
    let arenas: Vec<(usize, TournamentRecord)> = [1, 10, 40]
        .into_iter()
        .map(|w| (w, arena_after(w)))
        .collect();
    for (waves, rec) in &arenas {
        let tables: usize = rec.rounds.iter().map(|r| r.tables.len()).sum();
        let bytes = serde_json::to_string(rec).unwrap().len();
        println!("arena after {waves} waves: {tables} tables, record {bytes} bytes");
    }
    let mut g = c.benchmark_group("arena_step");
    g.bench_function("start", |b| {
        let open = tournament(
            1000,
            Variant::Pairs,
            Format::Arena {
                duration_ms: 3_600_000,
            },
        );
        b.iter_batched(
            || open.clone(),
            |mut rec| black_box(step(&mut rec, &HashMap::new(), NOW)),
            BatchSize::LargeInput,
        );
    });
    for (waves, rec) in &arenas {
        let done = results(rec);
        g.bench_function(format!("wave/{waves}"), |b| {
            b.iter_batched(
                || rec.clone(),
                |mut r| black_box(step(&mut r, &done, NOW + 1_000_000)),
                BatchSize::LargeInput,
            );
        });
    }
    g.finish();
    let mut g = c.benchmark_group("arena_record");
    for (waves, rec) in &arenas {
        g.bench_function(format!("encode/{waves}"), |b| {
            b.iter(|| black_box(serde_json::to_string(rec).unwrap().len()));
        });
    }
    g.finish();
    let mut swiss = tournament(1000, Variant::Abarrotada, Format::Swiss { rounds: 9 });
    step(&mut swiss, &HashMap::new(), NOW);
    let done = results(&swiss);
    c.bench_function("swiss_step/1000", |b| {
        b.iter_batched(
            || swiss.clone(),
            |mut r| black_box(step(&mut r, &done, NOW + 1)),
            BatchSize::LargeInput,
        );
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
