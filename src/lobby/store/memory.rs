//! The in-memory lobby store, for a single server process.
//!
//! One `std::sync::Mutex` over plain maps: every operation is a few map
//! lookups and never awaits while holding it. Expired documents are
//! dropped when touched, and all of them every [`SWEEP_EVERY`] inserts.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use tokio::time::timeout;

use super::{Doc, EVENTS_KEPT, LobbyStore, ONCE_KEPT, Snapshot, StoreError};
use crate::store::waiters::Waiters;

/// Inserts between two sweeps of expired documents.
const SWEEP_EVERY: u64 = 1024;

struct Entry {
    version: u64,
    state: String,
    expires: Option<Instant>,
}

#[derive(Default)]
struct Stream {
    last: u64,
    kept: VecDeque<(u64, String)>,
    /// The latest once-keys pushed with an event, oldest first.
    once: VecDeque<String>,
}

impl Stream {
    /// Appends `event`; returns its number.
    fn push(&mut self, event: &str) -> u64 {
        self.last += 1;
        self.kept.push_back((self.last, event.to_owned()));
        while self.kept.len() > EVENTS_KEPT {
            self.kept.pop_front();
        }
        self.last
    }
}

#[derive(Default)]
struct Inner {
    docs: HashMap<(Doc, String), Entry>,
    indexes: HashMap<String, BTreeSet<String>>,
    streams: HashMap<String, Stream>,
    inserts: u64,
}

/// A [`LobbyStore`] in this process's memory.
#[derive(Default)]
pub struct MemoryLobbyStore {
    inner: Mutex<Inner>,
    waiters: Arc<Waiters>,
}

impl MemoryLobbyStore {
    /// An empty store.
    pub fn new() -> MemoryLobbyStore {
        MemoryLobbyStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn live(e: &Entry, now: Instant) -> bool {
    e.expires.is_none_or(|t| t > now)
}

#[async_trait]
impl LobbyStore for MemoryLobbyStore {
    async fn insert(
        &self,
        doc: Doc,
        id: &str,
        state: &str,
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let now = Instant::now();
        let mut inner = self.lock();
        inner.inserts += 1;
        if inner.inserts.is_multiple_of(SWEEP_EVERY) {
            inner.docs.retain(|_, e| live(e, now));
        }
        let key = (doc, id.to_owned());
        if inner.docs.get(&key).is_some_and(|e| live(e, now)) {
            return Ok(false);
        }
        inner.docs.insert(
            key,
            Entry {
                version: 1,
                state: state.to_owned(),
                expires: ttl.map(|t| now + t),
            },
        );
        Ok(true)
    }

    async fn get(&self, doc: Doc, id: &str) -> Result<Option<Snapshot>, StoreError> {
        let now = Instant::now();
        let inner = self.lock();
        Ok(inner
            .docs
            .get(&(doc, id.to_owned()))
            .filter(|e| live(e, now))
            .map(|e| Snapshot {
                version: e.version,
                state: e.state.clone(),
            }))
    }

    async fn replace(
        &self,
        doc: Doc,
        id: &str,
        expected: u64,
        state: &str,
        ttl: Option<Duration>,
    ) -> Result<bool, StoreError> {
        let now = Instant::now();
        let mut inner = self.lock();
        let Some(e) = inner
            .docs
            .get_mut(&(doc, id.to_owned()))
            .filter(|e| live(e, now))
        else {
            return Err(StoreError::NotFound);
        };
        if e.version != expected {
            return Ok(false);
        }
        e.version += 1;
        e.state = state.to_owned();
        e.expires = ttl.map(|t| now + t);
        Ok(true)
    }

    async fn index_add(&self, index: &str, entry: &str) -> Result<(), StoreError> {
        self.lock()
            .indexes
            .entry(index.to_owned())
            .or_default()
            .insert(entry.to_owned());
        Ok(())
    }

    async fn index_remove(&self, index: &str, entry: &str) -> Result<(), StoreError> {
        if let Some(set) = self.lock().indexes.get_mut(index) {
            set.remove(entry);
        }
        Ok(())
    }

    async fn index_keep(&self, index: &str, keep: usize) -> Result<(), StoreError> {
        if let Some(set) = self.lock().indexes.get_mut(index) {
            while set.len() > keep {
                set.pop_last();
            }
        }
        Ok(())
    }

    async fn index_page(
        &self,
        index: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let inner = self.lock();
        let Some(set) = inner.indexes.get(index) else {
            return Ok(Vec::new());
        };
        let it: Box<dyn Iterator<Item = &String>> = match after {
            Some(a) => Box::new(
                set.range::<str, _>((std::ops::Bound::Excluded(a), std::ops::Bound::Unbounded)),
            ),
            None => Box::new(set.iter()),
        };
        Ok(it.take(limit).cloned().collect())
    }

    async fn push_event(&self, player: &str, event: &str) -> Result<u64, StoreError> {
        let seq = self
            .lock()
            .streams
            .entry(player.to_owned())
            .or_default()
            .push(event);
        self.waiters.notify(player, seq);
        Ok(seq)
    }

    async fn push_event_once(
        &self,
        player: &str,
        once: &str,
        event: &str,
    ) -> Result<Option<u64>, StoreError> {
        let seq = {
            let mut inner = self.lock();
            let s = inner.streams.entry(player.to_owned()).or_default();
            if s.once.iter().any(|k| k == once) {
                return Ok(None);
            }
            s.once.push_back(once.to_owned());
            if s.once.len() > ONCE_KEPT {
                s.once.pop_front();
            }
            s.push(event)
        };
        self.waiters.notify(player, seq);
        Ok(Some(seq))
    }

    async fn events_after(
        &self,
        player: &str,
        after: u64,
        limit: usize,
    ) -> Result<(Vec<(u64, String)>, u64), StoreError> {
        let inner = self.lock();
        let Some(s) = inner.streams.get(player) else {
            return Ok((Vec::new(), 0));
        };
        let events = s
            .kept
            .iter()
            .filter(|(seq, _)| *seq > after)
            .take(limit)
            .cloned()
            .collect();
        Ok((events, s.last))
    }

    async fn wait_events(
        &self,
        player: &str,
        after: u64,
        wait: Duration,
    ) -> Result<u64, StoreError> {
        let mut waiter = self.waiters.register(player);
        let last = self.lock().streams.get(player).map_or(0, |s| s.last);
        if last > after {
            return Ok(last);
        }
        Ok(
            match timeout(wait, waiter.rx.wait_for(|&seq| seq > after)).await {
                Ok(Ok(seq)) => *seq,
                _ => self.lock().streams.get(player).map_or(0, |s| s.last),
            },
        )
    }
}
