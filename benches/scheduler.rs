//! The scheduler under load, in one process over the memory store (or a
//! Redis given with `--redis`): how late move clocks fire when many
//! clocked matches wait at once, and how many due steps one instance's
//! scheduler plays per second.
//!
//! ```text
//! cargo bench --bench scheduler -- --matches 1000 --timeout-ms 3000
//! cargo bench --bench scheduler -- --matches 10000 --timeout-ms 10000
//! cargo bench --bench scheduler -- --bots 64 --seconds 10
//! cargo bench --bench scheduler -- --matches 1000 --redis redis://127.0.0.1:6379
//! ```
//!
//! 1. **Lateness**: `--matches` matches are created, each with one client
//!    seat that is to deal first and a move clock of `--timeout-ms`, and
//!    three house bots; nobody ever acts. Each match's first write after
//!    its creation is the stand-in deal the scheduler plays when the clock
//!    runs out: its lateness is the time of that write less the deadline
//!    stored with the match. Reported: p50, p99 and the largest.
//! 2. **Throughput**: `--bots` matches of four `random` house bots to a far
//!    target are played by the scheduler for `--seconds`; reported: the
//!    engine steps (versions) written per second.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use botifarra::rules::Rules;
use botifarra::service::{
    Limits, NewMatch, NewSeat, OnTimeout, SchedulerOptions, SeatKind, Service, clock_now_ms,
    spawn_scheduler,
};
use botifarra::store::{
    Commit, CommitOutcome, DueClaim, MatchStore, MemoryLimits, MemoryStore, RedisStore, Snapshot,
    StoreError,
};
use serde_json::json;

#[path = "common/args.rs"]
mod args;
use args::{arg, num};

/// A store that notes when each match is first written after its creation.
struct Recorder {
    inner: Arc<dyn MatchStore>,
    first_write: Mutex<HashMap<String, u64>>,
}

#[async_trait]
impl MatchStore for Recorder {
    async fn create(
        &self,
        id: &str,
        version: u64,
        state: &str,
        events: &[String],
    ) -> Result<bool, StoreError> {
        self.inner.create(id, version, state, events).await
    }
    async fn load(&self, id: &str) -> Result<Option<Snapshot>, StoreError> {
        self.inner.load(id).await
    }
    async fn load_tail(
        &self,
        id: &str,
        from: u64,
        with_state: bool,
    ) -> Result<Option<Snapshot>, StoreError> {
        self.inner.load_tail(id, from, with_state).await
    }
    async fn commit(&self, id: &str, c: Commit<'_>) -> Result<CommitOutcome, StoreError> {
        let out = self.inner.commit(id, c).await?;
        if let CommitOutcome::Committed { .. } = out {
            let mut first = self.first_write.lock().unwrap();
            first.entry(id.to_string()).or_insert_with(clock_now_ms);
        }
        Ok(out)
    }
    async fn idempotent_response(&self, id: &str, key: &str) -> Result<Option<String>, StoreError> {
        self.inner.idempotent_response(id, key).await
    }
    async fn events_after(
        &self,
        id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        self.inner.events_after(id, after, limit).await
    }
    async fn last_seq(&self, id: &str) -> Result<u64, StoreError> {
        self.inner.last_seq(id).await
    }
    async fn wait_events(
        &self,
        id: &str,
        after: u64,
        timeout: Duration,
    ) -> Result<u64, StoreError> {
        self.inner.wait_events(id, after, timeout).await
    }
    async fn schedule(&self, id: &str, at_ms: u64) -> Result<(), StoreError> {
        self.inner.schedule(id, at_ms).await
    }
    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError> {
        self.inner.claim_due(now_ms, lease_ms, limit).await
    }
    async fn settle_due(
        &self,
        id: &str,
        lease_until_ms: u64,
        next: Option<u64>,
    ) -> Result<bool, StoreError> {
        self.inner.settle_due(id, lease_until_ms, next).await
    }
    async fn ping(&self) -> Result<(), StoreError> {
        self.inner.ping().await
    }
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }
}

fn seat(kind: SeatKind) -> NewSeat {
    NewSeat {
        kind,
        bot: Some("random".into()),
        name: None,
        player: None,
        token_sha256: None,
    }
}

fn new_match(rules: serde_json::Value, client: bool, timeout_ms: Option<u64>) -> NewMatch {
    let first = if client {
        SeatKind::Remote
    } else {
        SeatKind::Bot
    };
    NewMatch {
        rules: serde_json::from_value::<Rules>(rules).expect("rules"),
        seats: Some(vec![
            seat(first),
            seat(SeatKind::Bot),
            seat(SeatKind::Bot),
            seat(SeatKind::Bot),
        ]),
        seed: None,
        auto_deal: !client,
        move_timeout_ms: timeout_ms,
        on_timeout: OnTimeout::Bot,
        id: None,
        rated: false,
    }
}

async fn store() -> Arc<dyn MatchStore> {
    let ttl = Duration::from_secs(3600);
    match std::env::args().position(|a| a == "--redis") {
        Some(_) => Arc::new(
            RedisStore::connect(&arg("--redis", ""), ttl)
                .await
                .expect("connect to Redis")
                .with_schedule_name(&format!("bench:due:{}", std::process::id())),
        ),
        None => Arc::new(MemoryStore::with_limits(MemoryLimits {
            max_matches: 1_000_000,
            max_bytes: 4 << 30,
            ..MemoryLimits::default()
        })),
    }
}

/// This process's CPU time so far (user and system), in milliseconds, from
/// `/proc/self/stat` (Linux; 0 elsewhere). Unlike wall-clock lateness it
/// does not depend on what else the machine runs.
fn cpu_ms() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // Fields after the command name (which ends with the last ')').
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are the 14th and 15th fields: 12th and 13th here.
    (ticks(11) + ticks(12)) * 10
}

fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

async fn lateness(matches: usize, timeout_ms: u64) {
    let recorder = Arc::new(Recorder {
        inner: store().await,
        first_write: Mutex::new(HashMap::new()),
    });
    let svc = Arc::new(Service::new(recorder.clone(), Limits::default()).expect("service"));
    spawn_scheduler(&svc, SchedulerOptions::default());
    let started = Instant::now();
    let mut deadlines = Vec::with_capacity(matches);
    for _ in 0..matches {
        let created = svc
            .create(new_match(
                json!({"first_dealer": 0}),
                true,
                Some(timeout_ms),
            ))
            .await
            .expect("create");
        let rec = svc.record(&created.match_id).await.expect("read back");
        deadlines.push((created.match_id, rec.deadline_ms.expect("a clock runs")));
    }
    eprintln!(
        "lateness: {matches} clocked matches created in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let last = deadlines.iter().map(|d| d.1).max().unwrap_or(0);
    let give_up = last + 60_000;
    let cpu_before = cpu_ms();
    loop {
        let fired = recorder.first_write.lock().unwrap().len();
        if fired >= matches || clock_now_ms() > give_up {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let cpu = cpu_ms().saturating_sub(cpu_before);
    let first = recorder.first_write.lock().unwrap().clone();
    let mut late: Vec<u64> = deadlines
        .iter()
        .filter_map(|(id, d)| first.get(id).map(|w| w.saturating_sub(*d)))
        .collect();
    late.sort_unstable();
    println!(
        "lateness ({} store, {matches} matches, clock {timeout_ms} ms): fired {} of {matches}; \
         p50 {} ms, p99 {} ms, max {} ms",
        recorder.kind(),
        late.len(),
        quantile(&late, 0.5),
        quantile(&late, 0.99),
        late.last().copied().unwrap_or(0)
    );
    // The wait before the first deadline costs next to nothing: the CPU
    // time is the firings'.
    println!(
        "lateness: {cpu} ms of CPU for {} firings ({:.3} ms each: one core fires about {:.0} a second)",
        late.len(),
        cpu as f64 / late.len().max(1) as f64,
        late.len() as f64 * 1000.0 / cpu.max(1) as f64
    );
}

async fn throughput(bots: usize, seconds: u64) {
    let store = store().await;
    let kind = store.kind();
    let svc = Arc::new(Service::new(Arc::clone(&store), Limits::default()).expect("service"));
    let mut ids = Vec::with_capacity(bots);
    for _ in 0..bots {
        let rules = json!({"target": 100_000, "max_hands": 1000});
        let created = svc
            .create(new_match(rules, false, None))
            .await
            .expect("create");
        ids.push(created.match_id);
    }
    let version = |svc: Arc<Service>, ids: Vec<String>| async move {
        let mut sum = 0;
        for id in &ids {
            sum += svc.record(id).await.expect("read").version;
        }
        sum
    };
    let before = version(Arc::clone(&svc), ids.clone()).await;
    spawn_scheduler(&svc, SchedulerOptions::default());
    let start = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let after = version(Arc::clone(&svc), ids.clone()).await;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "throughput ({kind} store, {bots} four-bot matches, {secs:.1} s): {} steps, {:.0} steps/s",
        after - before,
        (after - before) as f64 / secs
    );
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let matches = num::<usize>("--matches", 1000);
        if matches > 0 {
            lateness(matches, num::<u64>("--timeout-ms", 3000)).await;
        }
        let bots = num::<usize>("--bots", 0);
        if bots > 0 {
            throughput(bots, num::<u64>("--seconds", 10)).await;
        }
    });
}
