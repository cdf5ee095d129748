//! `GET /metrics`: requests, latency, store round trips, commit conflicts,
//! store errors, matches created, actions applied and bot decision time all
//! move when the server is used.
//!
//! The registry is per process and the tests of this file share it, so each
//! assertion compares a counter before and after, and only ever expects it
//! to grow by at least the amount this test caused.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use botifarra::store::{
    Commit, CommitOutcome, DueClaim, MatchStore, MemoryStore, Snapshot, StoreError,
};
use serde_json::json;

use crate::app::{TestApp, spawn_with_store};

/// The sum of every series of `name` whose labels include all of `labels`.
pub fn value(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    let mut total = 0.0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((series, v)) = line.rsplit_once(' ') else {
            continue;
        };
        let (n, l) = match series.split_once('{') {
            Some((n, rest)) => (n, rest.trim_end_matches('}')),
            None => (series, ""),
        };
        if n != name {
            continue;
        }
        let has = |(k, val): &(&str, &str)| {
            l.split("\",")
                .any(|p| p.trim_end_matches('"') == format!("{k}=\"{val}"))
        };
        if labels.iter().all(has) {
            total += v.parse::<f64>().expect("a sample value");
        }
    }
    total
}

async fn scrape(app: &TestApp) -> String {
    let r = app.get("/metrics", None).await;
    assert_eq!(r.status, 200);
    assert!(
        r.content_type.starts_with("text/plain"),
        "{}",
        r.content_type
    );
    r.text
}

/// A memory store that loses the next commit's race when told to, and
/// fails pings when told to.
#[derive(Default)]
struct Flaky {
    inner: MemoryStore,
    lose_next_commit: AtomicBool,
    down: AtomicBool,
}

#[async_trait]
impl MatchStore for Flaky {
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
    async fn commit(&self, id: &str, c: Commit<'_>) -> Result<CommitOutcome, StoreError> {
        if self.lose_next_commit.swap(false, Ordering::SeqCst) {
            return Ok(CommitOutcome::Conflict {
                current_version: c.expected_version,
            });
        }
        self.inner.commit(id, c).await
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
        if self.down.load(Ordering::SeqCst) {
            return Err(StoreError::Unavailable("down for the test".into()));
        }
        self.inner.ping().await
    }
    fn kind(&self) -> &'static str {
        "memory"
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_store_traffic_actions_and_bot_time() {
    let store = Arc::new(Flaky::default());
    let app = spawn_with_store(store.clone()).await;
    let before = scrape(&app).await;

    let body = json!({
        "seats": [{"kind": "remote"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
        "auto_deal": true
    });
    let (id, tokens) = app.create(body).await;
    let token = tokens[0].clone().expect("seat 0 is remote");
    let view = app.get(&format!("/v1/matches/{id}"), Some(&token)).await;
    let action = view.json["legal_actions"][0].clone();
    assert!(action.is_object(), "seat 0 is to act: {}", view.text);
    store.lose_next_commit.store(true, Ordering::SeqCst);
    let r = app
        .post(&format!("/v1/matches/{id}/actions"), Some(&token), action)
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = app
        .post(
            &format!("/v1/matches/{id}/actions"),
            Some(&token),
            json!({"type": "bogus"}),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(app.get("/no/such/route", None).await.status, 404);
    store.down.store(true, Ordering::SeqCst);
    assert_eq!(app.get("/readyz", None).await.status, 503);
    store.down.store(false, Ordering::SeqCst);

    let after = scrape(&app).await;
    let grew = |name: &str, labels: &[(&str, &str)], by: f64| {
        let (b, a) = (value(&before, name, labels), value(&after, name, labels));
        assert!(
            a - b >= by,
            "{name}{labels:?} went from {b} to {a}, expected +{by}:\n{after}"
        );
    };
    let actions_route = [("route", "/v1/matches/{id}/actions"), ("method", "POST")];
    grew(
        "botifarra_http_requests_total",
        &[
            ("route", "/v1/matches"),
            ("method", "POST"),
            ("status", "201"),
        ],
        1.0,
    );
    grew(
        "botifarra_http_requests_total",
        &[actions_route[0], actions_route[1], ("status", "200")],
        1.0,
    );
    grew(
        "botifarra_http_requests_total",
        &[actions_route[0], ("status", "400")],
        1.0,
    );
    grew(
        "botifarra_http_requests_total",
        &[("route", "unmatched"), ("status", "404")],
        1.0,
    );
    grew(
        "botifarra_http_requests_total",
        &[("route", "/readyz"), ("status", "503")],
        1.0,
    );
    grew(
        "botifarra_http_request_duration_seconds_count",
        &actions_route,
        2.0,
    );
    grew("botifarra_matches_created_total", &[], 1.0);
    grew("botifarra_actions_applied_total", &[("by", "client")], 1.0);
    grew("botifarra_actions_applied_total", &[("by", "house")], 1.0);
    grew(
        "botifarra_actions_applied_total",
        &[("kind", "deal"), ("by", "auto")],
        1.0,
    );
    grew(
        "botifarra_bot_decision_seconds_count",
        &[("bot", "random")],
        1.0,
    );
    grew(
        "botifarra_store_round_trips_total",
        &[("op", "create")],
        1.0,
    );
    grew("botifarra_store_round_trips_total", &[("op", "load")], 3.0);
    grew(
        "botifarra_store_round_trips_total",
        &[("op", "commit")],
        2.0,
    );
    grew(
        "botifarra_store_round_trip_seconds_count",
        &[("op", "commit")],
        2.0,
    );
    grew(
        "botifarra_store_commits_total",
        &[("outcome", "conflict")],
        1.0,
    );
    grew(
        "botifarra_store_commits_total",
        &[("outcome", "committed")],
        1.0,
    );
    grew("botifarra_store_errors_total", &[("op", "ping")], 1.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_described_in_the_prometheus_text_format() {
    let app = spawn_with_store(Arc::new(MemoryStore::new())).await;
    assert_eq!(app.get("/healthz", None).await.status, 200);
    let text = scrape(&app).await;
    for name in [
        "botifarra_http_requests_total",
        "botifarra_http_request_duration_seconds",
        "botifarra_matches_created_total",
    ] {
        assert!(
            text.contains(&format!("# HELP {name} ")),
            "no HELP for {name}:\n{text}"
        );
        assert!(
            text.contains(&format!("# TYPE {name} ")),
            "no TYPE for {name}:\n{text}"
        );
    }
}
