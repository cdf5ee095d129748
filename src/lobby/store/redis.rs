//! The Redis lobby store, for several server instances sharing players and
//! tables.
//!
//! # Key layout
//!
//! Each document's keys carry its id as hash tag, so in Redis Cluster a
//! table shares a slot with the match of the same id, and a player's
//! record with its event stream and rating history:
//!
//! | key | type | content |
//! | --- | --- | --- |
//! | `bf:{<id>}:player`, `bf:{<id>}:ratings`, `bf:{<id>}:table`, `bf:{<code>}:invite`, `bf:{<id>}:challenge` | hash | `v`: the version, `s`: the state |
//! | `bf:{<player>}:pev` | list | `<seq> <event JSON>`, the latest [`EVENTS_KEPT`] |
//! | `bf:{<player>}:pseq` | string | the number of the player's last event |
//! | `bf:{lobby}:<index>` | sorted set | public tables, pending challenges, and each pool's leaderboard (`leaderboard:<pool>`); all at score 0, ordered as text |
//!
//! # Concurrency
//!
//! Every write is one Lua script, run atomically by Redis: the version
//! check inside it is the compare-and-set, and an event's number is taken
//! and its entry pushed in one step. Never `WATCH`/`MULTI`: the
//! connection is multiplexed and shared.
//!
//! # Waking long polls
//!
//! Each push publishes `<player> <seq>` on `bf:pnotify`; a dedicated
//! pub/sub connection wakes this process's waiters, which also re-read
//! every [`RECHECK`] in case a message was lost.

use std::fmt::Display;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, Script};
use tokio::task::AbortHandle;
use tokio::time::{Instant, timeout};

use super::{Doc, EVENTS_KEPT, LobbyStore, Snapshot, StoreError};
use crate::store::waiters::Waiters;

/// The pub/sub channel on which pushes announce new player events.
const CHANNEL: &str = "bf:pnotify";
/// How often a waiter re-reads in case a notification was lost.
const RECHECK: Duration = Duration::from_millis(500);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
const RESPONSE_TIMEOUT: Duration = Duration::from_millis(1500);

/// Insert unless present. KEYS: doc. ARGV: state, ttl ms (0: none).
const INSERT: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 's', ARGV[1])
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1";

/// Compare-and-set. KEYS: doc. ARGV: expected version, state, ttl ms.
/// Returns 1 applied, 0 conflict, -1 missing.
const REPLACE: &str = r"
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tonumber(v) + 1, 's', ARGV[2])
if tonumber(ARGV[3]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
else
  redis.call('PERSIST', KEYS[1])
end
return 1";

/// Appends a player event. KEYS: list, counter. ARGV: event, kept,
/// channel, player. Returns the event's number.
const PUSH: &str = r"
local seq = redis.call('INCR', KEYS[2])
redis.call('RPUSH', KEYS[1], seq .. ' ' .. ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PUBLISH', ARGV[3], ARGV[4] .. ' ' .. seq)
return seq";

/// Events after a number. KEYS: list, counter. ARGV: after, limit.
/// Returns {last, entries...}.
const READ: &str = r"
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local len = redis.call('LLEN', KEYS[1])
local first = last - len + 1
local start = math.max(tonumber(ARGV[1]) + 1 - first, 0)
local out = redis.call('LRANGE', KEYS[1], start, start + tonumber(ARGV[2]) - 1)
table.insert(out, 1, tostring(last))
return out";

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

fn index_key(index: &str) -> String {
    format!("bf:{{lobby}}:{index}")
}

fn ttl_ms(ttl: Option<Duration>) -> u64 {
    ttl.map_or(0, |t| {
        u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1)
    })
}

/// A [`LobbyStore`] on Redis.
pub struct RedisLobbyStore {
    conn: ConnectionManager,
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
        let client = Client::open(url).map_err(unavailable)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_number_of_retries(1);
        let conn = timeout(
            CONNECT_TIMEOUT * 3,
            ConnectionManager::new_with_config(client.clone(), config),
        )
        .await
        .map_err(unavailable)?
        .map_err(unavailable)?;
        let waiters = Arc::new(Waiters::default());
        let subscriber = tokio::spawn(subscribe(client, Arc::clone(&waiters))).abort_handle();
        Ok(RedisLobbyStore {
            conn,
            insert: Script::new(INSERT),
            replace: Script::new(REPLACE),
            push: Script::new(PUSH),
            read: Script::new(READ),
            waiters,
            subscriber,
        })
    }

    fn conn(&self) -> ConnectionManager {
        self.conn.clone()
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

/// Keeps a pub/sub connection on [`CHANNEL`], waking local waiters;
/// reconnects after a pause when the connection is lost.
async fn subscribe(client: Client, waiters: Arc<Waiters>) {
    loop {
        if let Ok(Ok(mut pubsub)) = timeout(CONNECT_TIMEOUT, client.get_async_pubsub()).await
            && pubsub.subscribe(CHANNEL).await.is_ok()
        {
            let mut stream = pubsub.on_message();
            while let Some(msg) = stream.next().await {
                let payload = String::from_utf8_lossy(msg.get_payload_bytes()).into_owned();
                if let Some((id, Ok(seq))) = payload
                    .rsplit_once(' ')
                    .map(|(id, seq)| (id, seq.parse::<u64>()))
                {
                    waiters.notify(id, seq);
                }
            }
            tracing::warn!("redis pub/sub of player events lost; reconnecting");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
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
            .arg(index_key(index))
            .arg(0)
            .arg(entry)
            .query_async::<()>(&mut self.conn())
            .await
            .map_err(unavailable)
    }

    async fn index_remove(&self, index: &str, entry: &str) -> Result<(), StoreError> {
        redis::cmd("ZREM")
            .arg(index_key(index))
            .arg(entry)
            .query_async::<()>(&mut self.conn())
            .await
            .map_err(unavailable)
    }

    async fn index_keep(&self, index: &str, keep: usize) -> Result<(), StoreError> {
        // Every entry has score 0: rank is text order.
        redis::cmd("ZREMRANGEBYRANK")
            .arg(index_key(index))
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
            .arg(index_key(index))
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
        let (list, counter) = stream_keys(player);
        self.push
            .key(list)
            .key(counter)
            .arg(event)
            .arg(EVENTS_KEPT)
            .arg(CHANNEL)
            .arg(player)
            .invoke_async(&mut self.conn())
            .await
            .map_err(unavailable)
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
        let mut waiter = self.waiters.register(player);
        let mut last = self.last(player).await?;
        while last <= after {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            let nap = RECHECK.min(deadline - now);
            if let Ok(Ok(seq)) = timeout(nap, waiter.rx.wait_for(|&s| s > after)).await {
                return Ok(*seq);
            }
            last = self.last(player).await?;
        }
        Ok(last)
    }
}
