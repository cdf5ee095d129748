//! The records this server instance last read or wrote, so that a request
//! on a match it has seen reads only the log entries written since (most
//! often none) instead of replaying the whole match.
//!
//! Always checked against the store: an entry is a fact about the match
//! (at version `v` its log had `n` entries and replayed to this record),
//! and the log only grows, so a load asks the store for the entries after
//! the `n`th and plays them on a copy. Another instance's writes are
//! therefore never missed; the cache only saves work.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::record::MatchRecord;

/// Most records kept; past it an eighth of them is dropped.
const CAPACITY: usize = 2048;

/// A record and where it stands in its log.
#[derive(Clone)]
pub struct Cached {
    /// Its version.
    pub version: u64,
    /// How many log entries it replays.
    pub entries: u64,
    /// The match, shared with the requests reading it (a read copies
    /// nothing; a write makes its own copy).
    pub rec: Arc<MatchRecord>,
}

/// Records by match id.
#[derive(Default)]
pub struct Cache {
    by_id: Mutex<HashMap<String, Cached>>,
}

impl Cache {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Cached>> {
        self.by_id.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The version and entry count of the record kept for `id`.
    pub fn position(&self, id: &str) -> Option<(u64, u64)> {
        self.lock().get(id).map(|c| (c.version, c.entries))
    }

    /// A copy of the record kept for `id`, if it is at `version`.
    pub fn get(&self, id: &str, version: u64) -> Option<Cached> {
        self.lock()
            .get(id)
            .filter(|c| c.version == version)
            .cloned()
    }

    /// Keeps `c` for `id` unless a newer record is kept already.
    pub fn put(&self, id: &str, c: Cached) {
        let mut by_id = self.lock();
        if by_id.get(id).is_some_and(|old| old.version > c.version) {
            return;
        }
        if by_id.len() >= CAPACITY && !by_id.contains_key(id) {
            let drop: Vec<String> = by_id.keys().take(CAPACITY / 8).cloned().collect();
            for k in drop {
                by_id.remove(&k);
            }
        }
        by_id.insert(id.to_owned(), c);
    }

    /// Forgets `id`.
    pub fn forget(&self, id: &str) {
        self.lock().remove(id);
    }
}
