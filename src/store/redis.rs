//! The Redis store, for several server instances sharing their matches.
//!
//! # Key layout
//!
//! Every key of a match carries the hash tag `{<id>}`, so in Redis Cluster
//! they all land in one slot and a script may touch them together:
//!
//! | key | type | content |
//! | --- | --- | --- |
//! | `bf:{<id>}:state` | hash | `v`: the version, `s`: the state |
//! | `bf:{<id>}:ev` | list | the match's log (or, for a whole snapshot, its events); element `seq` is at index `seq - 1` |
//! | `bf:{<id>}:idem` | hash | idempotency key → remembered response, and `\0last:<slot>` → the slot's latest key |
//!
//! All three expire together: every write sets their TTL again.
//!
//! # Concurrency
//!
//! Writes are Lua scripts (`create.lua`, `commit.lua`), which Redis runs
//! atomically; the version check inside the script is the compare-and-set.
//! A load is one script too (`load.lua`), so the state and the log it
//! returns are of the same version; a reader that holds the state already
//! (the usual read of a match) sends a `MULTI`/`EXEC` of plain reads
//! instead, which costs Redis far less than a script call.
//! `WATCH` would be wrong here: the connection is multiplexed and shared,
//! so one request's `WATCH` would guard another's transaction (a
//! `MULTI`/`EXEC` without it is sent whole, as one pipeline).
//!
//! # Waking long polls
//!
//! Each commit that appends events publishes `<id> <last_seq>` on the
//! channel `bf:notify`. Each store keeps one dedicated pub/sub connection
//! (never the shared one, which a blocking read would stall) and wakes its
//! local waiters; since messages sent while that connection is down are
//! lost, waiters also re-read the last seq every so often.
//!
//! # Redis Cluster
//!
//! [`RedisStore::connect_cluster`] talks to a cluster: every command goes
//! to the node owning its key's slot, and since every key of a match
//! carries the hash tag `{<id>}`, a script's keys are always on one node.
//! Commits announce new events with sharded pub/sub instead (see
//! `redis/sharded.rs`), on a channel in the match's own slot.
//!
//! # Files
//!
//! This file holds the store, its key layout and its reads and writes;
//! `redis/connect.rs` opens it, `redis/conn.rs` is the connection commands
//! go on, and `redis/notify.rs` and `redis/sharded.rs` wake long polls.

mod conn;
mod connect;
mod due;
mod notify;
mod sharded;

use std::fmt::Display;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use redis::Script;
use tokio::task::AbortHandle;
use tokio::time::{Instant, timeout};

pub(crate) use self::conn::Conn;
pub use self::connect::ReplicaWait;
pub(crate) use self::connect::{cluster_connection, single_connection};
pub(crate) use self::notify::run_subscriber;
pub(crate) use self::sharded::{Sharded, run_pushes};
use super::waiters::Waiters;
use super::{Commit, CommitOutcome, DueClaim, MatchStore, Snapshot, StoreError, is_snapshot};

/// The pub/sub channel on which commits announce new events.
const NOTIFY_CHANNEL: &str = "bf:notify";

/// How long one connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// How long one command may wait for its answer.
const RESPONSE_TIMEOUT: Duration = Duration::from_millis(1500);
/// How often a waiter re-reads the last seq in case a message was lost.
const DEFAULT_RECHECK: Duration = Duration::from_millis(500);

/// A [`MatchStore`] on a standalone Redis server, with
/// keys laid out so that they would also fit Redis Cluster.
///
/// All commands share one auto-reconnecting multiplexed connection; a
/// background task holds a second connection for pub/sub notifications and
/// is stopped when the store is dropped.
pub struct RedisStore {
    conn: Conn,
    /// Sharded subscriptions, on a cluster.
    sharded: Option<Arc<Sharded>>,
    ttl_secs: u64,
    recheck: Duration,
    create_script: Script,
    commit_script: Script,
    load_script: Script,
    /// The name the schedule of due work is kept under.
    schedule: String,
    /// Replicas each write must reach, and how long to wait for them
    /// (see [`RedisStore::with_replica_wait`]).
    replica_wait: Option<(u32, u64)>,
    waiters: Arc<Waiters>,
    subscriber: AbortHandle,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("ttl_secs", &self.ttl_secs)
            .field("recheck", &self.recheck)
            .finish_non_exhaustive()
    }
}

fn unavailable(e: impl Display) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

/// The keys of match `id`: state, events, idempotency answers.
pub fn keys(id: &str) -> [String; 3] {
    [
        format!("bf:{{{id}}}:state"),
        format!("bf:{{{id}}}:ev"),
        format!("bf:{{{id}}}:idem"),
    ]
}

impl RedisStore {
    fn conn(&self) -> Conn {
        self.conn.clone()
    }

    /// How a write to match `id` announces new events: the command and
    /// channel, as the scripts take them.
    fn announce(&self, id: &str) -> String {
        match self.sharded {
            Some(_) => format!("SPUBLISH {}", sharded::channel(id)),
            None => format!("PUBLISH {NOTIFY_CHANNEL}"),
        }
    }

    /// After a write of match `id` on `conn`: waits for the replicas
    /// [`with_replica_wait`](Self::with_replica_wait) asks for, if any.
    async fn confirm(&self, conn: &mut Conn, id: &str) -> Result<(), StoreError> {
        let Some((replicas, timeout_ms)) = self.replica_wait else {
            return Ok(());
        };
        let [state_key, ..] = keys(id);
        let reached = conn
            .wait_replicas(&state_key, replicas, timeout_ms)
            .await
            .map_err(unavailable)?;
        if reached < u64::from(replicas) {
            return Err(unavailable(format!(
                "the write reached {reached} of {replicas} replicas within {timeout_ms} ms"
            )));
        }
        Ok(())
    }
}

impl Drop for RedisStore {
    fn drop(&mut self) {
        self.subscriber.abort();
    }
}

#[async_trait]
impl MatchStore for RedisStore {
    async fn create(
        &self,
        id: &str,
        version: u64,
        state: &str,
        events: &[String],
    ) -> Result<bool, StoreError> {
        let [state_key, events_key, idem_key] = keys(id);
        let mut call = self.create_script.prepare_invoke();
        call.key(state_key).key(events_key).key(idem_key);
        call.arg(version)
            .arg(state)
            .arg(self.ttl_secs)
            .arg(self.announce(id))
            .arg(id);
        for event in events {
            call.arg(event);
        }
        let mut conn = self.conn();
        let created: i64 = call.invoke_async(&mut conn).await.map_err(unavailable)?;
        if created == 1 {
            self.confirm(&mut conn, id).await?;
        }
        Ok(created == 1)
    }

    async fn load(&self, id: &str) -> Result<Option<Snapshot>, StoreError> {
        self.load_tail(id, 0, true).await
    }

    async fn load_tail(
        &self,
        id: &str,
        from: u64,
        with_state: bool,
    ) -> Result<Option<Snapshot>, StoreError> {
        let [state_key, events_key, _] = keys(id);
        if !with_state && let Conn::Single(_) = self.conn {
            // A reader holding the state (the usual read of a match this
            // instance has seen) needs no script: a transaction of two
            // plain commands costs Redis a fraction of a script call. Such
            // a reader holds a match of the compact layout; should the log
            // it gets back hold a whole snapshot's events (JSON objects; a
            // log entry never begins with `{`), the script reads it again,
            // with its state.
            let (version, log): (Option<u64>, Vec<String>) = redis::pipe()
                .atomic()
                .hget(&state_key, "v")
                .lrange(&events_key, isize::try_from(from).unwrap_or(isize::MAX), -1)
                .query_async(&mut self.conn())
                .await
                .map_err(unavailable)?;
            let Some(version) = version else {
                return Ok(None);
            };
            if !log.iter().any(|e| is_snapshot(e)) {
                return Ok(Some(Snapshot {
                    version,
                    state: String::new(),
                    log,
                }));
            }
        }
        let got: Option<(u64, String, Vec<String>)> = self
            .load_script
            .key(state_key)
            .key(events_key)
            .arg(from)
            .arg(if with_state { "1" } else { "0" })
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(got.map(|(version, state, log)| Snapshot {
            version,
            state,
            log,
        }))
    }

    async fn commit(&self, id: &str, c: Commit<'_>) -> Result<CommitOutcome, StoreError> {
        let [state_key, events_key, idem_key] = keys(id);
        let mut call = self.commit_script.prepare_invoke();
        call.key(state_key).key(events_key).key(idem_key);
        let state = c.state.map_or_else(String::new, |s| format!("={s}"));
        call.arg(c.expected_version)
            .arg(c.new_version)
            .arg(state)
            .arg(self.ttl_secs)
            .arg(self.announce(id))
            .arg(id);
        match c.idempotency {
            Some((key, response)) => call.arg("1").arg(key).arg(response),
            None => call.arg("0").arg("").arg(""),
        };
        for event in c.events {
            call.arg(event);
        }
        let mut conn = self.conn();
        let (kind, value): (String, String) =
            call.invoke_async(&mut conn).await.map_err(unavailable)?;
        if kind == "committed" {
            self.confirm(&mut conn, id).await?;
        }
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| unavailable(format!("commit script returned {kind} {value:?}")))
        };
        match kind.as_str() {
            "committed" => Ok(CommitOutcome::Committed {
                first_seq: number()?,
            }),
            "conflict" => Ok(CommitOutcome::Conflict {
                current_version: number()?,
            }),
            "duplicate" => Ok(CommitOutcome::Duplicate { response: value }),
            "missing" => Err(StoreError::NotFound),
            _ => Err(unavailable(format!("commit script returned {kind:?}"))),
        }
    }

    async fn idempotent_response(&self, id: &str, key: &str) -> Result<Option<String>, StoreError> {
        let [.., idem_key] = keys(id);
        redis::cmd("HGET")
            .arg(idem_key)
            .arg(key)
            .query_async(&mut self.conn())
            .await
            .map_err(unavailable)
    }

    async fn events_after(
        &self,
        id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        if limit == 0 {
            self.last_seq(id).await?;
            return Ok(Vec::new());
        }
        let [state_key, events_key, _] = keys(id);
        let start = isize::try_from(after).unwrap_or(isize::MAX);
        let stop = start.saturating_add(isize::try_from(limit).unwrap_or(isize::MAX) - 1);
        let (exists, events): (bool, Vec<String>) = redis::pipe()
            .exists(state_key)
            .lrange(events_key, start, stop)
            .query_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        if !exists {
            return Err(StoreError::NotFound);
        }
        Ok((after + 1..).zip(events).collect())
    }

    async fn last_seq(&self, id: &str) -> Result<u64, StoreError> {
        let [state_key, events_key, _] = keys(id);
        let (exists, len): (bool, u64) = redis::pipe()
            .exists(state_key)
            .llen(events_key)
            .query_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        if exists {
            Ok(len)
        } else {
            Err(StoreError::NotFound)
        }
    }

    async fn wait_events(
        &self,
        id: &str,
        after: u64,
        timeout_after: Duration,
    ) -> Result<u64, StoreError> {
        let deadline = Instant::now() + timeout_after;
        // Register (and, on a cluster, subscribe) before the first read, so
        // a commit landing in between still wakes us.
        let mut waiter = self.waiters.register(id);
        let _hold = match &self.sharded {
            Some(subs) => Some(subs.hold(sharded::channel(id)).await?),
            None => None,
        };
        let mut last = self.last_seq(id).await?;
        while last <= after {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            let nap = self.recheck.min(deadline - now);
            let woken = timeout(nap, waiter.rx.wait_for(|&seq| seq > after))
                .await
                .map(|seq| seq.map(|seq| *seq));
            match woken {
                Ok(Ok(seq)) => return Ok(seq),
                // Cannot happen while we hold a receiver; just nap instead.
                Ok(Err(_)) => tokio::time::sleep(nap).await,
                Err(_) => {}
            }
            if Instant::now() < deadline {
                last = self.last_seq(id).await?;
            }
        }
        Ok(last)
    }

    async fn schedule(&self, id: &str, at_ms: u64) -> Result<(), StoreError> {
        due::schedule(self.conn(), &self.schedule, id, at_ms).await
    }

    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError> {
        due::claim(self.conn(), &self.schedule, now_ms, lease_ms, limit).await
    }

    async fn settle_due(
        &self,
        id: &str,
        lease_until_ms: u64,
        next: Option<u64>,
    ) -> Result<bool, StoreError> {
        due::settle(self.conn(), &self.schedule, id, lease_until_ms, next).await
    }

    async fn ping(&self) -> Result<(), StoreError> {
        let _: String = redis::cmd("PING")
            .query_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    fn kind(&self) -> &'static str {
        match self.conn {
            Conn::Single(_) => "redis",
            Conn::Cluster(_) => "redis-cluster",
        }
    }
}
