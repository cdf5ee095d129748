//! Where players, tables, invite codes and players' event streams live.
//!
//! Like the match store, this store knows nothing about Botifarra: it keeps
//! versioned documents (an opaque state string written by the lobby, a
//! version, an optional expiry), written only by compare-and-set; indexes
//! ordered as text (the public tables per variant, each pool's
//! leaderboard); and, per player, an append-only,
//! capped list of event strings numbered 1, 2, 3, …
//!
//! Two implementations share one contract (`tests/store/lobby.rs`):
//! [`MemoryLobbyStore`] for a single process and [`RedisLobbyStore`] for
//! several server instances sharing one Redis or one Redis Cluster.

mod memory;
mod redis;
mod redis_scripts;

use std::time::Duration;

use async_trait::async_trait;

pub use self::memory::MemoryLobbyStore;
pub use self::redis::RedisLobbyStore;
pub use crate::store::StoreError;

/// A lobby document as last written: its version and its JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Increases with every write; the token for the next compare-and-set.
    pub version: u64,
    /// The document, exactly as the service wrote it.
    pub state: String,
}

/// How many events a player's stream keeps; older ones are dropped (a
/// client that falls further behind resumes from the oldest kept).
pub const EVENTS_KEPT: usize = 256;

/// How many once-keys ([`LobbyStore::push_event_once`]) a player's stream
/// remembers, as many as the events it keeps; older ones are forgotten.
/// Every `your_turn` carries one, and a telling is repeated within
/// seconds, so this bounds a player's memory without losing a repeat.
pub const ONCE_KEPT: usize = EVENTS_KEPT;

/// The kinds of document the lobby keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Doc {
    /// A player's record (its key hash among it).
    Player,
    /// A table with open seats (the match to be, under the same id).
    Table,
    /// An invite code, naming its table.
    Invite,
    /// A challenge: players invited to a match, and who has accepted.
    Challenge,
    /// A player's rating history (under the player's id).
    RatingHistory,
    /// A matchmaking pool (one per variant, rated or casual): its waiting
    /// tickets and the matches it formed that are not yet finished.
    QueuePool,
    /// A matchmaking ticket.
    Ticket,
    /// A player's place in the queue: its waiting ticket, if any.
    Queued,
    /// A player's pending invitations, made and received (under the
    /// player's id), each with its expiry: what the caps count.
    Pending,
    /// A counter of a cap (players registered per address per day, and in
    /// all).
    Counter,
    /// A queue party: a pair ticket one player proposed and the other has
    /// still to accept.
    Party,
    /// A tournament: its entries, units, rounds and results.
    Tournament,
}

impl Doc {
    /// The name used in storage keys.
    pub fn name(self) -> &'static str {
        match self {
            Doc::Player => "player",
            Doc::Table => "table",
            Doc::Invite => "invite",
            Doc::Challenge => "challenge",
            Doc::RatingHistory => "ratings",
            Doc::QueuePool => "queue_pool",
            Doc::Ticket => "ticket",
            Doc::Queued => "queued",
            Doc::Pending => "pending",
            Doc::Counter => "counter",
            Doc::Party => "party",
            Doc::Tournament => "tournament",
        }
    }
}

/// Durable storage of the lobby, shared by every request (and, for Redis
/// and Redis Cluster, by every server instance).
#[async_trait]
pub trait LobbyStore: Send + Sync + 'static {
    /// Stores a new document at version 1, unless `id` is taken (then
    /// `false`, nothing changed). With a `ttl`, it is forgotten that long
    /// after its last write.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn insert(
        &self,
        doc: Doc,
        id: &str,
        state: &str,
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError>;

    /// A document's version and state; `None` if it does not exist.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn get(&self, doc: Doc, id: &str) -> Result<Option<Snapshot>, StoreError>;

    /// Replaces a document's state if its version is still `expected`
    /// (the new version is `expected + 1`): `true` if applied, `false` if
    /// another write came first.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] if it does not exist;
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn replace(
        &self,
        doc: Doc,
        id: &str,
        expected: u64,
        state: &str,
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError>;

    /// Lists `entry` (an id, ordered as text) in the public index `index`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn index_add(&self, index: &str, entry: &str) -> Result<(), StoreError>;

    /// Removes `entry` from the index `index` (nothing if absent).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn index_remove(&self, index: &str, entry: &str) -> Result<(), StoreError>;

    /// At most `limit` entries of `index` after `after` (as text), in order.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn index_page(
        &self,
        index: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<String>, StoreError>;

    /// Keeps only the first `keep` entries of `index` (in text order),
    /// removing the rest.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn index_keep(&self, index: &str, keep: usize) -> Result<(), StoreError> {
        let last_kept = match keep {
            0 => None,
            _ => match self.index_page(index, None, keep).await?.pop() {
                Some(last) => Some(last),
                None => return Ok(()),
            },
        };
        loop {
            let extra = self.index_page(index, last_kept.as_deref(), 100).await?;
            if extra.is_empty() {
                return Ok(());
            }
            for e in &extra {
                self.index_remove(index, e).await?;
            }
        }
    }

    /// Appends an event to `player`'s stream; returns its number.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn push_event(&self, player: &str, event: &str) -> Result<u64, StoreError>;

    /// Appends an event to `player`'s stream unless one with the same
    /// `once` key was appended before (the stream remembers its latest
    /// [`ONCE_KEPT`] once-keys); returns its number, or `None` when it was already
    /// there. Telling a player of something any instance may retry.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn push_event_once(
        &self,
        player: &str,
        once: &str,
        event: &str,
    ) -> Result<Option<u64>, StoreError>;

    /// At most `limit` of `player`'s kept events numbered above `after`, and
    /// the number of its last event (0 when it has none).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn events_after(
        &self,
        player: &str,
        after: u64,
        limit: usize,
    ) -> Result<(Vec<(u64, String)>, u64), StoreError>;

    /// Waits until `player` has an event above `after` or `timeout` passes;
    /// returns the last number seen. Woken by pushes through any store
    /// sharing the backend.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] if the backend cannot be reached.
    async fn wait_events(
        &self,
        player: &str,
        after: u64,
        timeout: Duration,
    ) -> Result<u64, StoreError>;
}
