//! The in-process store: the default, and the reference the Redis store is
//! tested against.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::watch;

use super::{Commit, CommitOutcome, MatchStore, Snapshot, StoreError};

/// Keeps every match in a `HashMap` behind a `std::sync::Mutex`.
///
/// A blocking mutex is the right tool here: every critical section is a few
/// map operations and none of them awaits, so the lock is never held across
/// a suspension point and an async mutex would only add overhead. Long polls
/// wait on a per-match [`watch`] channel outside the lock.
///
/// Matches live as long as the process; nothing expires.
#[derive(Debug, Default)]
pub struct MemoryStore {
    matches: Mutex<HashMap<String, Entry>>,
}

/// One match.
#[derive(Debug)]
struct Entry {
    version: u64,
    state: String,
    /// Event `seq` is at index `seq - 1`.
    events: Vec<String>,
    idempotency: HashMap<String, String>,
    /// Carries the last event's seq to long-polling readers.
    last_seq: watch::Sender<u64>,
}

impl MemoryStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        // Nothing panics while holding the lock, and every section leaves
        // the map consistent, so a poisoned lock is still safe to use.
        self.matches.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn seq_of(len: usize) -> u64 {
    u64::try_from(len).unwrap_or(u64::MAX)
}

#[async_trait]
impl MatchStore for MemoryStore {
    async fn create(
        &self,
        id: &str,
        version: u64,
        state: &str,
        events: &[String],
    ) -> Result<bool, StoreError> {
        let mut matches = self.lock();
        if matches.contains_key(id) {
            return Ok(false);
        }
        let entry = Entry {
            version,
            state: state.to_owned(),
            events: events.to_vec(),
            idempotency: HashMap::new(),
            last_seq: watch::Sender::new(seq_of(events.len())),
        };
        matches.insert(id.to_owned(), entry);
        Ok(true)
    }

    async fn load(&self, id: &str) -> Result<Option<Snapshot>, StoreError> {
        Ok(self.lock().get(id).map(|e| Snapshot {
            version: e.version,
            state: e.state.clone(),
        }))
    }

    async fn commit(&self, id: &str, c: Commit<'_>) -> Result<CommitOutcome, StoreError> {
        let mut matches = self.lock();
        let entry = matches.get_mut(id).ok_or(StoreError::NotFound)?;
        if let Some((key, _)) = c.idempotency
            && let Some(response) = entry.idempotency.get(key)
        {
            return Ok(CommitOutcome::Duplicate {
                response: response.clone(),
            });
        }
        if entry.version != c.expected_version {
            return Ok(CommitOutcome::Conflict {
                current_version: entry.version,
            });
        }
        let first_seq = seq_of(entry.events.len()) + 1;
        entry.version = c.new_version;
        c.state.clone_into(&mut entry.state);
        entry.events.extend_from_slice(c.events);
        if let Some((key, response)) = c.idempotency {
            // Only the latest key of each slot is kept (see `Commit`).
            if let Some((slot, _)) = key.split_once(':') {
                let marker = format!("\0last:{slot}");
                if let Some(older) = entry.idempotency.insert(marker, key.to_owned()) {
                    entry.idempotency.remove(&older);
                }
            }
            entry
                .idempotency
                .insert(key.to_owned(), response.to_owned());
        }
        if !c.events.is_empty() {
            entry.last_seq.send_replace(seq_of(entry.events.len()));
        }
        Ok(CommitOutcome::Committed { first_seq })
    }

    async fn idempotent_response(&self, id: &str, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .lock()
            .get(id)
            .and_then(|e| e.idempotency.get(key).cloned()))
    }

    async fn events_after(
        &self,
        id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        let matches = self.lock();
        let entry = matches.get(id).ok_or(StoreError::NotFound)?;
        let start = usize::try_from(after).unwrap_or(usize::MAX);
        Ok(entry
            .events
            .iter()
            .enumerate()
            .skip(start)
            .take(limit)
            .map(|(i, e)| (seq_of(i) + 1, e.clone()))
            .collect())
    }

    async fn last_seq(&self, id: &str) -> Result<u64, StoreError> {
        let matches = self.lock();
        let entry = matches.get(id).ok_or(StoreError::NotFound)?;
        Ok(seq_of(entry.events.len()))
    }

    async fn wait_events(
        &self,
        id: &str,
        after: u64,
        timeout: Duration,
    ) -> Result<u64, StoreError> {
        // Subscribe under the same lock that commits take, so no commit can
        // slip between the check and the subscription.
        let mut rx = {
            let matches = self.lock();
            let entry = matches.get(id).ok_or(StoreError::NotFound)?;
            let rx = entry.last_seq.subscribe();
            if *rx.borrow() > after {
                return Ok(*rx.borrow());
            }
            rx
        };
        let woken = tokio::time::timeout(timeout, rx.wait_for(|&seq| seq > after))
            .await
            .map(|seq| seq.map(|seq| *seq));
        match woken {
            Ok(Ok(seq)) => Ok(seq),
            // The sender lives in the entry, which is never removed, so the
            // channel cannot close; report what we last saw either way.
            Ok(Err(_)) | Err(_) => Ok(*rx.borrow()),
        }
    }

    async fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn kind(&self) -> &'static str {
        "memory"
    }
}
