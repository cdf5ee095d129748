//! Counters and histograms of this server process, in the Prometheus text
//! format that `GET /metrics` serves.
//!
//! One registry per process (a static): Prometheus scrapes processes, and
//! the service's free functions (house moves, automatic deals) record into
//! it without a handle being threaded through. Every name starts with
//! `botifarra_`.

use std::sync::LazyLock;

use super::act_kind::Act;

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, Opts, Registry, TextEncoder,
};

/// Latency buckets for requests and store round trips, in seconds.
const LATENCY_BUCKETS: &[f64] = &[
    0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
    30.0,
];

/// Bot decision buckets, in seconds: the random bot answers in microseconds,
/// Monte Carlo in tens of milliseconds.
const BOT_BUCKETS: &[f64] = &[
    0.000_005, 0.00002, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0,
];

/// The `Content-Type` of [`render`]'s output.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Every metric the server records.
pub struct Metrics {
    registry: Registry,
    /// HTTP requests by `route` (the pattern, e.g. `/v1/matches/{id}/play`,
    /// or `unmatched`), `method` and `status`.
    pub http_requests: IntCounterVec,
    /// HTTP request latency (until the response head) by `route` and `method`.
    pub http_duration: HistogramVec,
    /// Store round trips by `op` (`create`, `load`, `commit`, …).
    pub store_ops: IntCounterVec,
    /// Store round trips that failed (backend unavailable), by `op`.
    pub store_errors: IntCounterVec,
    /// Store round-trip latency by `op`.
    pub store_duration: HistogramVec,
    /// Commits by `outcome`: `committed`, `conflict` (another write won the
    /// compare-and-set), `duplicate` (idempotency key already used).
    pub commits: IntCounterVec,
    /// Matches created.
    pub matches_created: IntCounter,
    /// Actions applied, by `kind` (`deal`, `trump`, `double`, `play`,
    /// `resign`, and the endings `resign_match`, `abort`, `claim`,
    /// `abandon`) and `by` (`client`, `house` bot, `timeout` stand-in or
    /// server ending, `auto` deal).
    pub actions: IntCounterVec,
    /// Time a house bot took to choose, by `bot`.
    pub bot_decision: HistogramVec,
    /// Requests refused by a rate limit, by `limit` (`ip`, `token`,
    /// `create`, `hint`).
    pub rate_limited: IntCounterVec,
    /// Due matches the scheduler claimed, by `outcome` (`played`,
    /// `failed`).
    pub scheduler_claims: IntCounterVec,
    /// How late the scheduler claimed a due match: the claim's time less
    /// the time it was due from.
    pub scheduler_lateness: HistogramVec,
    /// Other limits reached, by `limit` (`store_full`, `match_too_large`,
    /// `streams_per_ip`, `connections_per_ip`, `body_timeout`,
    /// `bot_pool_busy`, `hint_pool_busy`, `analysis_busy`, `commit_races_lost`).
    pub limits_hit: IntCounterVec,
}

fn counter_vec(r: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let c = IntCounterVec::new(Opts::new(name, help), labels).expect("valid counter definition");
    r.register(Box::new(c.clone()))
        .expect("metric names are unique");
    c
}

fn histogram_vec(
    r: &Registry,
    name: &str,
    help: &str,
    labels: &[&str],
    buckets: &[f64],
) -> HistogramVec {
    let opts = HistogramOpts::new(name, help).buckets(buckets.to_vec());
    let h = HistogramVec::new(opts, labels).expect("valid histogram definition");
    r.register(Box::new(h.clone()))
        .expect("metric names are unique");
    h
}

fn scheduler_claims(r: &Registry) -> IntCounterVec {
    counter_vec(
        r,
        "botifarra_scheduler_claims_total",
        "Due matches (bots, deals, clocks, settling) the scheduler claimed, by outcome (played, failed).",
        &["outcome"],
    )
}

fn scheduler_lateness(r: &Registry) -> HistogramVec {
    histogram_vec(
        r,
        "botifarra_scheduler_lateness_seconds",
        "How late the scheduler claimed a due match (claim time less due time).",
        &[],
        LATENCY_BUCKETS,
    )
}

impl Metrics {
    fn new() -> Metrics {
        let r = Registry::new();
        let matches_created =
            IntCounter::new("botifarra_matches_created_total", "Matches created.")
                .expect("valid counter definition");
        r.register(Box::new(matches_created.clone()))
            .expect("metric names are unique");
        Metrics {
            http_requests: counter_vec(
                &r,
                "botifarra_http_requests_total",
                "HTTP requests by route pattern, method and status.",
                &["route", "method", "status"],
            ),
            http_duration: histogram_vec(
                &r,
                "botifarra_http_request_duration_seconds",
                "HTTP request latency until the response head, by route pattern and method.",
                &["route", "method"],
                LATENCY_BUCKETS,
            ),
            store_ops: counter_vec(
                &r,
                "botifarra_store_round_trips_total",
                "Store round trips by operation.",
                &["op"],
            ),
            store_errors: counter_vec(
                &r,
                "botifarra_store_errors_total",
                "Store round trips that failed (backend unavailable), by operation.",
                &["op"],
            ),
            store_duration: histogram_vec(
                &r,
                "botifarra_store_round_trip_seconds",
                "Store round-trip latency by operation.",
                &["op"],
                LATENCY_BUCKETS,
            ),
            commits: counter_vec(
                &r,
                "botifarra_store_commits_total",
                "Match commits by outcome: committed, conflict (lost the compare-and-set), duplicate (idempotent retry).",
                &["outcome"],
            ),
            matches_created,
            actions: counter_vec(
                &r,
                "botifarra_actions_applied_total",
                "Actions applied by kind and by whom (client, house, timeout, auto).",
                &["kind", "by"],
            ),
            bot_decision: histogram_vec(
                &r,
                "botifarra_bot_decision_seconds",
                "Time a house bot took to choose an action, by bot.",
                &["bot"],
                BOT_BUCKETS,
            ),
            rate_limited: counter_vec(
                &r,
                "botifarra_rate_limited_total",
                "Requests refused with 429 by a rate limit, by limit (ip, token, create, hint).",
                &["limit"],
            ),
            scheduler_claims: scheduler_claims(&r),
            scheduler_lateness: scheduler_lateness(&r),
            limits_hit: counter_vec(
                &r,
                "botifarra_limits_hit_total",
                "Other limits reached, by limit (store_full, match_too_large, streams_per_ip, streams_total, players_per_ip_per_day, players_total, connections_per_ip, body_timeout, bot_pool_busy, hint_pool_busy, analysis_busy, commit_races_lost).",
                &["limit"],
            ),
            registry: r,
        }
    }

    /// Counts one time `limit` was reached.
    pub fn limit_hit(&self, limit: &str) {
        self.limits_hit.with_label_values(&[limit]).inc();
    }

    /// Counts one applied action.
    pub fn action(&self, kind: &str, by: &str) {
        self.actions.with_label_values(&[kind, by]).inc();
    }
}

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}

/// Every metric in the Prometheus text exposition format.
pub fn render() -> String {
    let mut buf = Vec::new();
    // Encoding into a Vec only fails on metric families that cannot be
    // written, which the registry never holds.
    let _ = TextEncoder::new().encode(&metrics().registry.gather(), &mut buf);
    String::from_utf8(buf).unwrap_or_default()
}

/// Moves the server made by itself (house bots, timeouts, automatic
/// deals) while working on one state; counted only once that state is
/// committed, since a lost compare-and-set throws them away.
#[derive(Debug, Default)]
pub struct Applied(Vec<(&'static str, &'static str)>);

impl Applied {
    /// Notes `act`, made for `reason` (`house`, `timeout`; none for an
    /// automatic deal or a forfeit on timeout).
    pub fn push(&mut self, act: &Act, reason: Option<&'static str>) {
        let by = match (reason, act) {
            (Some(r), _) => r,
            (None, Act::Resign | Act::End(_)) => "timeout",
            (None, Act::Action(_)) => "auto",
        };
        self.0.push((act.kind(), by));
    }

    /// Counts the moves in [`Metrics::actions`].
    pub fn record(&self) {
        for (kind, by) in &self.0 {
            metrics().action(kind, by);
        }
    }
}
