//! Opening a [`RedisStore`]: on a standalone server ([`RedisStore::connect`])
//! or on a Redis Cluster ([`RedisStore::connect_cluster`]).
//!
//! Both bound every step by the timeouts of `redis.rs` (a connection
//! attempt, a command's answer; a few attempts for the first connection),
//! load the three Lua scripts, and start the background task that wakes
//! this process's long polls: the dedicated pub/sub connection of
//! `notify.rs` on a standalone server, the reader of the cluster
//! connection's pushes of `sharded.rs` on a cluster. Once open, the store
//! reconnects on its own.

use std::sync::Arc;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::cluster::ClusterClientBuilder;
use redis::cluster_async::ClusterConnection;
use redis::{Client, ProtocolVersion, PushInfo, Script};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::oneshot;
use tokio::time::timeout;

use super::conn::Conn;
use super::due;
use super::notify::run_subscriber;
use super::sharded::{self, Sharded};
use super::{
    CONNECT_TIMEOUT, DEFAULT_RECHECK, NOTIFY_CHANNEL, RESPONSE_TIMEOUT, RedisStore, unavailable,
};
use crate::store::StoreError;
use crate::store::waiters::Waiters;

impl RedisStore {
    /// Connects to the Redis server at `url` (`redis://host:port/db`); every
    /// key of a match expires `ttl` after the match's last write.
    ///
    /// Commands fail within about two seconds while Redis is unreachable,
    /// and the store reconnects on its own when it comes back.
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if the URL is invalid or Redis does not
    /// answer.
    pub async fn connect(url: &str, ttl: Duration) -> Result<Self, StoreError> {
        let (client, conn) = single_connection(url).await?;
        let waiters = Arc::new(Waiters::default());
        let (ready_tx, ready_rx) = oneshot::channel();
        let subscriber = tokio::spawn(run_subscriber(
            client,
            NOTIFY_CHANNEL,
            Arc::clone(&waiters),
            ready_tx,
        ))
        .abort_handle();
        // Until the subscription is confirmed, waiters would only notice
        // events by re-reading; give it a moment so they start woken promptly.
        if timeout(CONNECT_TIMEOUT * 2, ready_rx).await.is_err() {
            tracing::warn!("redis pub/sub not ready yet; long polls fall back to re-reading");
        }

        Ok(Self {
            conn: Conn::Single(conn),
            sharded: None,
            ttl_secs: ttl.as_secs().max(1),
            recheck: DEFAULT_RECHECK,
            create_script: Script::new(include_str!("../create.lua")),
            commit_script: Script::new(include_str!("../commit.lua")),
            load_script: Script::new(include_str!("../load.lua")),
            schedule: due::DEFAULT_NAME.to_string(),
            replica_wait: None,
            waiters,
            subscriber,
        })
    }

    /// Sets how often a long poll re-reads the last seq, the safety net for
    /// notifications lost while the pub/sub connection was down (default
    /// 500 ms).
    #[must_use]
    pub fn with_recheck_interval(mut self, every: Duration) -> Self {
        self.recheck = every.max(Duration::from_millis(10));
        self
    }

    /// Makes every write of a match (creation and commit) wait until
    /// `replicas` replicas of its master have it (`WAIT`), at most
    /// `timeout`: a write they do not all confirm in time is answered
    /// `Unavailable` (a retryable error; the write may still have been
    /// made, which a retry with the same idempotency key finds). With 0
    /// (the default) nothing waits, and a master lost before its replica
    /// copied a write loses that write.
    /// [`with_replica_wait`](Self::with_replica_wait) as `policy` says:
    /// with [`ReplicaWait::Auto`], one replica when every master has one
    /// now (a replicated deployment), none otherwise.
    ///
    /// # Errors
    /// `Unavailable` when the servers cannot be asked.
    pub async fn with_replica_policy(
        self,
        policy: ReplicaWait,
        timeout: Duration,
    ) -> Result<Self, StoreError> {
        let replicas = match policy {
            ReplicaWait::Replicas(n) => n,
            ReplicaWait::Auto => self
                .conn()
                .fewest_replicas()
                .await
                .map_err(|e| StoreError::Unavailable(e.to_string()))?
                .min(1),
        };
        Ok(self.with_replica_wait(replicas, timeout))
    }

    /// How many replicas each write of a match waits for.
    pub fn replicas_waited_for(&self) -> u32 {
        self.replica_wait.map_or(0, |(n, _)| n)
    }

    #[must_use]
    pub fn with_replica_wait(mut self, replicas: u32, timeout: Duration) -> Self {
        let ms = u64::try_from(timeout.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        self.replica_wait = (replicas > 0).then_some((replicas, ms));
        self
    }

    /// Keeps the schedule of due work under `name` (default `bf:due`).
    /// Instances share due work exactly when they share a schedule name;
    /// one with a name of its own plays only what its own writes schedule.
    #[must_use]
    pub fn with_schedule_name(mut self, name: &str) -> Self {
        self.schedule = name.to_string();
        self
    }

    /// Connects to the Redis Cluster that `nodes` (`redis://host:port`
    /// URLs, at least one) belong to; otherwise as [`RedisStore::connect`].
    ///
    /// # Errors
    ///
    /// [`StoreError::Unavailable`] if a URL is invalid or no node answers.
    pub async fn connect_cluster(nodes: &[String], ttl: Duration) -> Result<Self, StoreError> {
        let (conn, rx) = cluster_connection(nodes).await?;
        let waiters = Arc::new(Waiters::default());
        let subscriber = tokio::spawn(sharded::run_pushes(rx, Arc::clone(&waiters))).abort_handle();
        Ok(Self {
            sharded: Some(Sharded::new(conn.clone())),
            conn: Conn::Cluster(conn),
            ttl_secs: ttl.as_secs().max(1),
            recheck: DEFAULT_RECHECK,
            create_script: Script::new(include_str!("../create.lua")),
            commit_script: Script::new(include_str!("../commit.lua")),
            load_script: Script::new(include_str!("../load.lua")),
            schedule: due::DEFAULT_NAME.to_string(),
            replica_wait: None,
            waiters,
            subscriber,
        })
    }
}

/// The standalone server at `url`: its client (for a pub/sub connection)
/// and an auto-reconnecting connection bounded by the store's timeouts.
///
/// # Errors
///
/// [`StoreError::Unavailable`] if the URL is invalid or Redis does not
/// answer.
pub(crate) async fn single_connection(
    url: &str,
) -> Result<(Client, ConnectionManager), StoreError> {
    let client = Client::open(url).map_err(unavailable)?;
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(CONNECT_TIMEOUT))
        .set_response_timeout(Some(RESPONSE_TIMEOUT))
        .set_number_of_retries(1)
        .set_min_delay(Duration::from_millis(100))
        .set_max_delay(Duration::from_millis(500));
    let conn = timeout(
        CONNECT_TIMEOUT * 3,
        ConnectionManager::new_with_config(client.clone(), config),
    )
    .await
    .map_err(unavailable)?
    .map_err(unavailable)?;
    Ok((client, conn))
}

/// A connection to the Redis Cluster that `nodes` belong to (RESP3, bounded
/// by the store's timeouts), and the receiver of its pushes: the messages
/// of the sharded channels it subscribes to.
///
/// # Errors
///
/// [`StoreError::Unavailable`] if a URL is invalid or no node answers.
pub(crate) async fn cluster_connection(
    nodes: &[String],
) -> Result<(ClusterConnection, UnboundedReceiver<PushInfo>), StoreError> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let client = ClusterClientBuilder::new(nodes.to_vec())
        .use_protocol(ProtocolVersion::RESP3)
        .push_sender(tx)
        .connection_timeout(CONNECT_TIMEOUT)
        .response_timeout(RESPONSE_TIMEOUT)
        .retries(1)
        .min_retry_wait(100)
        .max_retry_wait(500)
        .build()
        .map_err(unavailable)?;
    let conn = timeout(CONNECT_TIMEOUT * 3, client.get_async_connection())
        .await
        .map_err(unavailable)?
        .map_err(unavailable)?;
    Ok((conn, rx))
}

/// How many replicas each write of a match waits for (`WAIT`) before it
/// is acknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplicaWait {
    /// One when every master has a replica at start-up, else none.
    Auto,
    /// This many (0: none).
    Replicas(u32),
}

impl std::str::FromStr for ReplicaWait {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("auto") {
            return Ok(ReplicaWait::Auto);
        }
        s.parse()
            .map(ReplicaWait::Replicas)
            .map_err(|_| format!("`auto` or a number of replicas, not {s:?}"))
    }
}

impl std::fmt::Display for ReplicaWait {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplicaWait::Auto => f.write_str("auto"),
            ReplicaWait::Replicas(n) => write!(f, "{n}"),
        }
    }
}
