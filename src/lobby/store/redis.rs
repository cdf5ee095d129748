//! The Redis lobby store, for several server instances sharing players and
//! tables: on one Redis server ([`RedisLobbyStore::connect`]) or on a Redis
//! Cluster ([`RedisLobbyStore::connect_cluster`]), with the same scripts.
//!
//! # Key layout
//!
//! Each document's keys carry its id as hash tag, so in Redis Cluster a
//! table shares a slot with the match of the same id, and a player's
//! record with its event stream and rating history; every write below
//! touches one document, or one index, or one player's stream, hence one
//! slot:
//!
//! | key | type | content |
//! | --- | --- | --- |
//! | `bf:{<id>}:<doc>` (`player`, `ratings`, `table`, `invite`, `challenge`, `queue_pool`, `ticket`, `queued`, `pending`, `counter`, `party`) | hash | `v`: the version, `s`: the state |
//! | `bf:{<player>}:pev` | list | `<seq> <event JSON>`, the latest [`EVENTS_KEPT`] |
//! | `bf:{<player>}:pseq` | string | the number of the player's last event |
//! | `bf:{<player>}:ponce` | sorted set | the once-keys of the player's events pushed with one (the latest [`ONCE_KEPT`]), scored by event number |
//! | `bf:{lobby}:<index>` (one server) or `bf:{ix:<index>}` (cluster) | sorted set | public tables, pending challenges, each pool's leaderboard (`leaderboard:<pool>`), each player's matches, starts under way; all at score 0, ordered as text |
//!
//! On one server every index shares the tag `{lobby}` (the layout that
//! server has always had); on a cluster each index is its own tag, so the
//! indexes (one per player for its matches, one per pool for its
//! leaderboard) spread over the masters instead of piling on one slot.
//!
//! # Concurrency
//!
//! Every write is one Lua script, run atomically by Redis: the version
//! check inside it is the compare-and-set, and an event's number is taken
//! and its entry pushed in one step. Never `WATCH`/`MULTI`: the
//! connection is multiplexed and shared. What spans documents (a start, a
//! rating update) the lobby writes as idempotent steps (see
//! `lobby/start.rs`, `lobby/recovery.rs`, `docs/architecture.md`).
//!
//! # Waking long polls
//!
//! Each push announces `<player> <seq>`: on one server with `PUBLISH` on
//! `bf:pnotify`, which a dedicated pub/sub connection hears; on a cluster
//! with `SPUBLISH` on the player's own channel `bf:{<player>}:pn` (in the
//! player's slot), to which a store subscribes while it has long polls on
//! that player, as the match store does (`store/redis/sharded.rs`).
//! Waiters also re-read every [`RECHECK`] (by default) in case a message
//! was lost.

use std::fmt::Display;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use redis::Script;
use tokio::sync::oneshot;
use tokio::task::AbortHandle;
use tokio::time::{Instant, timeout};

use super::redis_scripts::{INSERT, PUSH, READ, REPLACE};
use super::{Doc, EVENTS_KEPT, LobbyStore, ONCE_KEPT, Snapshot, StoreError};
use crate::store::waiters::Waiters;
use crate::store::{
    RedisConn, Sharded, cluster_connection, run_pushes, run_subscriber, single_connection,
};

/// The pub/sub channel on which pushes announce new player events (one
/// server).
const CHANNEL: &str = "bf:pnotify";
/// How often a waiter re-reads in case a notification was lost (by
/// default).
const RECHECK: Duration = Duration::from_millis(500);
/// How long the first subscription may take before waiters rely on
/// re-reading alone.
const SUBSCRIBE_WAIT: Duration = Duration::from_secs(2);

fn unavailable(e: impl Display) -> StoreError {
    StoreError::Unavailable(e.to_string())
}

fn doc_key(doc: Doc, id: &str) -> String {
    format!("bf:{{{id}}}:{}", doc.name())
}

fn stream_keys(player: &str) -> (String, String) {
    (
        format!("bf:{{{player}}}:pev"),
        format!("bf:{{{player}}}:pseq"),
    )
}

/// The sharded channel announcing `player`'s events (cluster).
fn player_channel(player: &str) -> String {
    format!("bf:{{{player}}}:pn")
}

fn ttl_ms(ttl: Option<Duration>) -> u64 {
    ttl.map_or(0, |t| {
        u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1)
    })
}

/// A [`LobbyStore`] on Redis or a Redis Cluster.
pub struct RedisLobbyStore {
    conn: RedisConn,
    /// Sharded subscriptions, on a cluster.
    sharded: Option<Arc<Sharded>>,
    /// How often a waiter re-reads in case a notification was lost.
    recheck: Duration,
    insert: Script,
    replace: Script,
    push: Script,
    read: Script,
    waiters: Arc<Waiters>,
    subscriber: AbortHandle,
}

impl RedisLobbyStore {
    /// Connects to the Redis server at `url`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the URL is invalid or Redis does not
    /// answer.
    pub async fn connect(url: &str) -> Result<RedisLobbyStore, StoreError> {
        let (client, conn) = single_connection(url).await?;
        let waiters = Arc::new(Waiters::default());
        let (ready_tx, ready_rx) = oneshot::channel();
        let subscriber = tokio::spawn(run_subscriber(
            client,
            CHANNEL,
            Arc::clone(&waiters),
            ready_tx,
        ))
        .abort_handle();
        if timeout(SUBSCRIBE_WAIT, ready_rx).await.is_err() {
            tracing::warn!("redis pub/sub not ready yet; player streams fall back to re-reading");
        }
        Ok(Self::over(
            RedisConn::Single(conn),
            None,
            waiters,
            subscriber,
        ))
    }

    /// Connects to the Redis Cluster that `nodes` (`redis://host:port`
    /// URLs, at least one) belong to.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if a URL is invalid or no node answers.
    pub async fn connect_cluster(nodes: &[String]) -> Result<RedisLobbyStore, StoreError> {
        let (conn, pushes) = cluster_connection(nodes).await?;
        let waiters = Arc::new(Waiters::default());
        let subscriber = tokio::spawn(run_pushes(pushes, Arc::clone(&waiters))).abort_handle();
        let sharded = Some(Sharded::new(conn.clone()));
        Ok(Self::over(
            RedisConn::Cluster(conn),
            sharded,
            waiters,
            subscriber,
        ))
    }

    fn over(
        conn: RedisConn,
        sharded: Option<Arc<Sharded>>,
        waiters: Arc<Waiters>,
        subscriber: AbortHandle,
    ) -> RedisLobbyStore {
        RedisLobbyStore {
            conn,
            sharded,
            recheck: RECHECK,
            insert: Script::new(INSERT),
            replace: Script::new(REPLACE),
            push: Script::new(PUSH),
            read: Script::new(READ),
            waiters,
            subscriber,
        }
    }

    /// Sets how often a long poll re-reads the last event number, the
    /// safety net for notifications lost while a subscription was down
    /// (default 500 ms).
    #[must_use]
    pub fn with_recheck_interval(mut self, every: Duration) -> Self {
        self.recheck = every.max(Duration::from_millis(10));
        self
    }

    fn conn(&self) -> RedisConn {
        self.conn.clone()
    }

    /// The sorted set of the index `index`: see the module's key layout.
    fn index_key(&self, index: &str) -> String {
        match self.conn {
            RedisConn::Single(_) => format!("bf:{{lobby}}:{index}"),
            RedisConn::Cluster(_) => format!("bf:{{ix:{index}}}"),
        }
    }

    /// How a push announces `player`'s new event, as the script takes it.
    fn announce(&self, player: &str) -> String {
        match self.sharded {
            Some(_) => format!("SPUBLISH {}", player_channel(player)),
            None => format!("PUBLISH {CHANNEL}"),
        }
    }

    /// Runs [`PUSH`] (`once` empty: no once-key).
    async fn push_with(&self, player: &str, once: &str, event: &str) -> Result<u64, StoreError> {
        let (list, counter) = stream_keys(player);
        self.push
            .key(list)
            .key(counter)
            .key(format!("bf:{{{player}}}:ponce"))
            .arg(event)
            .arg(EVENTS_KEPT)
            .arg(self.announce(player))
            .arg(player)
            .arg(once)
            .arg(ONCE_KEPT)
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)
    }

    async fn last(&self, player: &str) -> Result<u64, StoreError> {
        let (_, counter) = stream_keys(player);
        let last: Option<u64> = redis::cmd("GET")
            .arg(counter)
            .query_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(last.unwrap_or(0))
    }
}

impl Drop for RedisLobbyStore {
    fn drop(&mut self) {
        self.subscriber.abort();
    }
}

#[async_trait]
impl LobbyStore for RedisLobbyStore {
    async fn insert(
        &self,
        doc: Doc,
        id: &str,
        state: &str,
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let done: i64 = self
            .insert
            .key(doc_key(doc, id))
            .arg(state)
            .arg(ttl_ms(ttl))
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(done == 1)
    }

    async fn get(&self, doc: Doc, id: &str) -> Result<Option<Snapshot>, StoreError> {
        let (version, state): (Option<u64>, Option<String>) = redis::cmd("HMGET")
            .arg(doc_key(doc, id))
            .arg("v")
            .arg("s")
            .query_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        Ok(version
            .zip(state)
            .map(|(version, state)| Snapshot { version, state }))
    }

    async fn replace(
        &self,
        doc: Doc,
        id: &str,
        expected: u64,
        state: &str,
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let done: i64 = self
            .replace
            .key(doc_key(doc, id))
            .arg(expected)
            .arg(state)
            .arg(ttl_ms(ttl))
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        match done {
            1 => Ok(true),
            0 => Ok(false),
            _ => Err(StoreError::NotFound),
        }
    }

    async fn index_add(&self, index: &str, entry: &str) -> Result<(), StoreError> {
        redis::cmd("ZADD")
            .arg(self.index_key(index))
            .arg(0)
            .arg(entry)
            .query_async::<()>(&mut self.conn())
            .await
            .map_err(unavailable)
    }

    async fn index_remove(&self, index: &str, entry: &str) -> Result<(), StoreError> {
        redis::cmd("ZREM")
            .arg(self.index_key(index))
            .arg(entry)
            .query_async::<()>(&mut self.conn())
            .await
            .map_err(unavailable)
    }

    async fn index_keep(&self, index: &str, keep: usize) -> Result<(), StoreError> {
        // Every entry has score 0: rank is text order.
        redis::cmd("ZREMRANGEBYRANK")
            .arg(self.index_key(index))
            .arg(keep)
            .arg(-1)
            .query_async::<()>(&mut self.conn())
            .await
            .map_err(unavailable)
    }

    async fn index_page(
        &self,
        index: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let min = after.map_or_else(|| "-".to_string(), |a| format!("({a}"));
        redis::cmd("ZRANGEBYLEX")
            .arg(self.index_key(index))
            .arg(min)
            .arg("+")
            .arg("LIMIT")
            .arg(0)
            .arg(limit)
            .query_async(&mut self.conn())
            .await
            .map_err(unavailable)
    }

    async fn push_event(&self, player: &str, event: &str) -> Result<u64, StoreError> {
        self.push_with(player, "", event).await
    }

    async fn push_event_once(
        &self,
        player: &str,
        once: &str,
        event: &str,
    ) -> Result<Option<u64>, StoreError> {
        let seq = self.push_with(player, once, event).await?;
        Ok((seq > 0).then_some(seq))
    }

    async fn events_after(
        &self,
        player: &str,
        after: u64,
        limit: usize,
    ) -> Result<(Vec<(u64, String)>, u64), StoreError> {
        let (list, counter) = stream_keys(player);
        let out: Vec<String> = self
            .read
            .key(list)
            .key(counter)
            .arg(after)
            .arg(limit.max(1))
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)?;
        let mut it = out.into_iter();
        let last = it.next().and_then(|l| l.parse().ok()).unwrap_or(0);
        let events = it
            .filter_map(|e| {
                let (seq, body) = e.split_once(' ')?;
                Some((seq.parse().ok()?, body.to_owned()))
            })
            .filter(|(seq, _)| *seq > after)
            .take(limit)
            .collect();
        Ok((events, last))
    }

    async fn wait_events(
        &self,
        player: &str,
        after: u64,
        wait: Duration,
    ) -> Result<u64, StoreError> {
        let deadline = Instant::now() + wait;
        // Register (and, on a cluster, subscribe) before the first read, so
        // a push landing in between still wakes us.
        let mut waiter = self.waiters.register(player);
        let _hold = match &self.sharded {
            Some(subs) => Some(subs.hold(player_channel(player)).await?),
            None => None,
        };
        let mut last = self.last(player).await?;
        while last <= after {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            let nap = self.recheck.min(deadline - now);
            if let Ok(Ok(seq)) = timeout(nap, waiter.rx.wait_for(|&s| s > after)).await {
                return Ok(*seq);
            }
            // Re-read only before the deadline: what the wait returns at its
            // end is what it heard or last read, as the match store's.
            if Instant::now() < deadline {
                last = self.last(player).await?;
            }
        }
        Ok(last)
    }
}
