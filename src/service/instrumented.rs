//! A [`MatchStore`] wrapper that counts and times every round trip, so the
//! service's store traffic, commit conflicts and store errors show in
//! `/metrics` without touching either backend.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;

use super::metrics::metrics;
use crate::store::{Commit, CommitOutcome, DueClaim, MatchStore, Snapshot, StoreError};

/// The store the service uses, measured.
pub struct Instrumented {
    inner: Arc<dyn MatchStore>,
}

impl Instrumented {
    /// Wraps `inner`.
    pub fn new(inner: Arc<dyn MatchStore>) -> Instrumented {
        Instrumented { inner }
    }
}

/// Runs one round trip `op`, counting it, its latency and its failure.
async fn measured<T>(
    op: &'static str,
    f: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    let start = Instant::now();
    let r = f.await;
    metrics()
        .store_duration
        .with_label_values(&[op])
        .observe(start.elapsed().as_secs_f64());
    counted(op, r)
}

/// Counts one round trip `op` and, when the store was unavailable, its
/// failure.
fn counted<T>(op: &'static str, r: Result<T, StoreError>) -> Result<T, StoreError> {
    let m = metrics();
    m.store_ops.with_label_values(&[op]).inc();
    if let Err(StoreError::Unavailable(_)) = &r {
        m.store_errors.with_label_values(&[op]).inc();
    }
    r
}

#[async_trait]
impl MatchStore for Instrumented {
    async fn create(
        &self,
        id: &str,
        version: u64,
        state: &str,
        events: &[String],
    ) -> Result<bool, StoreError> {
        measured("create", self.inner.create(id, version, state, events)).await
    }

    async fn load(&self, id: &str) -> Result<Option<Snapshot>, StoreError> {
        measured("load", self.inner.load(id)).await
    }

    async fn load_tail(
        &self,
        id: &str,
        from: u64,
        with_state: bool,
    ) -> Result<Option<Snapshot>, StoreError> {
        measured("load", self.inner.load_tail(id, from, with_state)).await
    }

    async fn commit(&self, id: &str, c: Commit<'_>) -> Result<CommitOutcome, StoreError> {
        let r = measured("commit", self.inner.commit(id, c)).await;
        let outcome = match &r {
            Ok(CommitOutcome::Committed { .. }) => Some("committed"),
            Ok(CommitOutcome::Conflict { .. }) => Some("conflict"),
            Ok(CommitOutcome::Duplicate { .. }) => Some("duplicate"),
            Err(_) => None,
        };
        if let Some(o) = outcome {
            metrics().commits.with_label_values(&[o]).inc();
        }
        r
    }

    async fn idempotent_response(&self, id: &str, key: &str) -> Result<Option<String>, StoreError> {
        measured(
            "idempotent_response",
            self.inner.idempotent_response(id, key),
        )
        .await
    }

    async fn events_after(
        &self,
        id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        measured("events_after", self.inner.events_after(id, after, limit)).await
    }

    async fn last_seq(&self, id: &str) -> Result<u64, StoreError> {
        measured("last_seq", self.inner.last_seq(id)).await
    }

    async fn wait_events(
        &self,
        id: &str,
        after: u64,
        timeout: Duration,
    ) -> Result<u64, StoreError> {
        // A wait lasts as long as the client asked: counted, not timed.
        counted(
            "wait_events",
            self.inner.wait_events(id, after, timeout).await,
        )
    }

    async fn schedule(&self, id: &str, at_ms: u64) -> Result<(), StoreError> {
        measured("schedule", self.inner.schedule(id, at_ms)).await
    }

    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError> {
        measured("claim_due", self.inner.claim_due(now_ms, lease_ms, limit)).await
    }

    async fn settle_due(
        &self,
        id: &str,
        lease_until_ms: u64,
        next: Option<u64>,
    ) -> Result<bool, StoreError> {
        measured(
            "settle_due",
            self.inner.settle_due(id, lease_until_ms, next),
        )
        .await
    }

    async fn ping(&self) -> Result<(), StoreError> {
        measured("ping", self.inner.ping()).await
    }

    fn kind(&self) -> &'static str {
        self.inner.kind()
    }
}
