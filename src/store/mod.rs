//! Where matches live between requests.
//!
//! The store knows nothing about Botifarra: it keeps, per match, an opaque
//! state string written by the service, a version number, an append-only
//! list of strings numbered 1, 2, 3, … (the match's log) and, for each
//! idempotency slot (a seat), the response to its latest idempotent
//! request. Every write is a compare-and-set on the version, so two servers
//! acting on the same match can never both win.
//!
//! A state that begins with `{` is a whole snapshot of the match, and its
//! list holds one event per element. Any other state is written once, at
//! creation, and the match lives in its list (one entry per commit, which
//! the service replays): [`MatchStore::load`] then returns the list with
//! the state, and commits leave the state as it is.
//!
//! Two implementations share one contract (see `tests/store_contract.rs`):
//! [`MemoryStore`] for a single process, and [`RedisStore`] for several
//! server instances behind a load balancer. In both, a match expires once it
//! has gone unwritten for the configured TTL.

mod due;
mod memory;
mod redis;
pub(crate) mod waiters;

use std::time::Duration;

use async_trait::async_trait;

pub use self::due::{DueClaim, SHARDS as DUE_SHARDS, shard_of as due_shard_of};
pub use self::memory::{MemoryLimits, MemoryStore};
/// The Redis plumbing the lobby's store shares with the match store: the
/// connection (standalone or cluster), opening it, and the wake-ups of
/// long polls (pub/sub on one server, sharded pub/sub on a cluster).
pub(crate) use self::redis::{
    Conn as RedisConn, Sharded, cluster_connection, run_pushes, run_subscriber, single_connection,
};
pub use self::redis::{RedisStore, ReplicaWait, keys as redis_keys};

/// A match as last written: its version and the service's serialized state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Increases with every commit; the token for the next compare-and-set.
    pub version: u64,
    /// The serialized match, exactly as the service wrote it.
    pub state: String,
    /// Every element of the list, in order, when `state` does not begin
    /// with `{`; empty otherwise.
    pub log: Vec<String>,
}

/// Whether a state is a whole snapshot (its list is not loaded with it).
pub fn is_snapshot(state: &str) -> bool {
    state.starts_with('{')
}

/// What happened to a [`Commit`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommitOutcome {
    /// The write was applied.
    Committed {
        /// The sequence number given to the first appended event (or the
        /// number the next event would get, when none were appended).
        first_seq: u64,
    },
    /// Someone else wrote first: the stored version is not the expected one,
    /// and nothing changed.
    Conflict {
        /// The version currently stored.
        current_version: u64,
    },
    /// The idempotency key is the latest one remembered for its slot;
    /// nothing changed.
    Duplicate {
        /// The response remembered with the key by the first commit.
        response: String,
    },
}

/// One atomic write to a match: new state, new events and, optionally, the
/// response to remember for an idempotency key.
#[derive(Debug, Clone, Copy)]
pub struct Commit<'a> {
    /// The version the caller read; the commit applies only if it is still
    /// the stored one.
    pub expected_version: u64,
    /// The version to store; normally `expected_version + 1`, larger when
    /// the service folds several steps (bot moves, say) into one commit.
    pub new_version: u64,
    /// The new serialized state; `None` keeps the stored one.
    pub state: Option<&'a str>,
    /// Events (or log entries) to append, in order; each gets the next
    /// sequence number.
    pub events: &'a [String],
    /// `(key, response)`: the key, already namespaced by the caller as
    /// `<slot>:<key>` (for example `"seat2:abc"`), and the response a retry
    /// should receive. Only the latest key of each slot is remembered: a
    /// client retries its last request, and keeping every answer for the
    /// life of the match would multiply the match's size.
    pub idempotency: Option<(&'a str, &'a str)>,
}

/// Why the store could not answer.
#[derive(thiserror::Error, Debug)]
pub enum StoreError {
    /// No match with this id exists (or it has expired).
    #[error("match not found")]
    NotFound,
    /// The backend is down or misbehaving; the request may be retried later.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// The store holds as much as it is allowed to (the memory store's
    /// bound on matches or bytes); nothing changed.
    #[error("store full")]
    Full,
}

/// Durable storage of matches, shared by every request (and, for Redis, by
/// every server instance).
///
/// Object-safe, so the server holds an `Arc<dyn MatchStore>` chosen at start.
#[async_trait]
pub trait MatchStore: Send + Sync + 'static {
    /// Stores a new match with its first state and events (numbered from 1).
    ///
    /// Returns `false`, and changes nothing, if the id is already taken.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if the backend cannot be reached;
    /// [`StoreError::Full`] if the store may hold no more.
    async fn create(
        &self,
        id: &str,
        version: u64,
        state: &str,
        events: &[String],
    ) -> Result<bool, StoreError>;

    /// Reads a match's current version and state (and its whole list, for a
    /// state that is not a snapshot: see [`Snapshot::log`]), in one
    /// consistent read; `None` if it does not exist.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn load(&self, id: &str) -> Result<Option<Snapshot>, StoreError>;

    /// [`MatchStore::load`] for a reader that already holds the first
    /// `from` elements of the log and, unless `with_state`, the state: the
    /// version, the state (left empty when not asked for, unless it is a
    /// whole snapshot) and the log from element `from` on.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn load_tail(
        &self,
        id: &str,
        from: u64,
        with_state: bool,
    ) -> Result<Option<Snapshot>, StoreError> {
        let mut snap = self.load(id).await?;
        if let Some(s) = snap.as_mut() {
            let skip = usize::try_from(from).unwrap_or(usize::MAX).min(s.log.len());
            s.log.drain(..skip);
            if !with_state && !is_snapshot(&s.state) {
                s.state.clear();
            }
        }
        Ok(snap)
    }

    /// Atomically replaces the state and appends events if the stored version
    /// is still `c.expected_version`; see [`CommitOutcome`] for the outcomes
    /// that are not errors.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if the match does not exist;
    /// [`StoreError::Full`] if the store may hold no more;
    /// [`StoreError::Unavailable`] if the backend cannot be reached (the
    /// commit may or may not have been applied).
    async fn commit(&self, id: &str, c: Commit<'_>) -> Result<CommitOutcome, StoreError>;

    /// The response remembered for an idempotency key of this match, if any.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn idempotent_response(&self, id: &str, key: &str) -> Result<Option<String>, StoreError>;

    /// At most `limit` events with a sequence number above `after`, as
    /// `(seq, event)` in ascending order.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if the match does not exist;
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn events_after(
        &self,
        id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError>;

    /// The sequence number of the match's last event (0 when it has none).
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if the match does not exist;
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn last_seq(&self, id: &str) -> Result<u64, StoreError>;

    /// Waits until the match has an event numbered above `after`, or until
    /// `timeout` passes, and returns the last sequence number seen (which is
    /// `<= after` on timeout). Woken by commits made through any store
    /// instance sharing the same backend.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if the match does not exist;
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn wait_events(&self, id: &str, after: u64, timeout: Duration)
    -> Result<u64, StoreError>;

    /// Schedules match `id` to be looked at from `at_ms` (milliseconds since
    /// the Unix epoch), or earlier if it already is: a time is only ever
    /// moved earlier here. See `due.rs` for how the schedule works.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn schedule(&self, id: &str, at_ms: u64) -> Result<(), StoreError>;

    /// At most `limit` matches whose time is at most `now_ms`, each leased
    /// (its time moved to `now_ms + lease_ms`) in the same atomic step, so
    /// that no other claim hands it out before the lease ends.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError>;

    /// After a claim: sets match `id`'s time to `next` (removes it for
    /// `None`), but only if it still holds the lease `lease_until_ms`;
    /// whether it did (`false`: someone scheduled it earlier meanwhile).
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn settle_due(
        &self,
        id: &str,
        lease_until_ms: u64,
        next: Option<u64>,
    ) -> Result<bool, StoreError>;

    /// Checks that the backend answers, for the readiness probe.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn ping(&self) -> Result<(), StoreError>;

    /// Which backend this is: `"memory"`, `"redis"` or `"redis-cluster"`.
    fn kind(&self) -> &'static str;
}
