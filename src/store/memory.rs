//! The in-process store: the default, and the reference the Redis store is
//! tested against.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use tokio::sync::watch;

use super::due::MemorySchedule;
use super::{Commit, CommitOutcome, DueClaim, MatchStore, Snapshot, StoreError, is_snapshot};

/// Keeps every match in a `HashMap` behind a `std::sync::Mutex`.
///
/// A blocking mutex is the right tool here: every critical section is a few
/// map operations and none of them awaits, so the lock is never held across
/// a suspension point and an async mutex would only add overhead. Long polls
/// wait on a per-match [`watch`] channel outside the lock.
///
/// A match expires once it has gone unwritten for the TTL, as in Redis:
/// it reads as absent from then on, and its memory is reclaimed by the next
/// sweep (at most one every [`SWEEP_EVERY`], run by a create). The store
/// holds at most [`MemoryLimits::max_matches`] matches and about
/// [`MemoryLimits::max_bytes`] bytes of state, events and remembered
/// responses; past either, creates and commits fail with
/// [`StoreError::Full`] and change nothing.
#[derive(Debug)]
pub struct MemoryStore {
    inner: Mutex<Inner>,
    schedule: Mutex<MemorySchedule>,
    limits: MemoryLimits,
}

/// The memory store's bounds.
#[derive(Debug, Clone, Copy)]
pub struct MemoryLimits {
    /// How long an unwritten match is kept.
    pub ttl: Duration,
    /// Most matches held at once.
    pub max_matches: usize,
    /// Most bytes of match data held at once (states, events, responses).
    pub max_bytes: usize,
}

impl Default for MemoryLimits {
    fn default() -> MemoryLimits {
        MemoryLimits {
            ttl: Duration::from_secs(7 * 24 * 3600),
            max_matches: 100_000,
            max_bytes: 512 << 20,
        }
    }
}

/// The longest time between two sweeps of expired matches.
pub const SWEEP_EVERY: Duration = Duration::from_secs(10);

#[derive(Debug)]
struct Inner {
    matches: HashMap<String, Entry>,
    /// The sum of every entry's `bytes`.
    bytes: usize,
    last_sweep: Instant,
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
    /// The last write.
    written: Instant,
    /// What the entry counts toward the store's byte bound.
    bytes: usize,
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::with_limits(MemoryLimits::default())
    }
}

fn total_len(items: &[String]) -> usize {
    items.iter().map(String::len).sum()
}

impl MemoryStore {
    /// An empty store with the default bounds.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store with these bounds.
    #[must_use]
    pub fn with_limits(limits: MemoryLimits) -> Self {
        MemoryStore {
            inner: Mutex::new(Inner {
                matches: HashMap::new(),
                bytes: 0,
                last_sweep: Instant::now(),
            }),
            schedule: Mutex::default(),
            limits,
        }
    }

    /// How many matches it holds now (expired ones not yet swept included).
    pub fn len(&self) -> usize {
        self.lock().matches.len()
    }

    /// Whether it holds no match.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Nothing panics while holding the lock, and every section leaves
        // the map consistent, so a poisoned lock is still safe to use.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn schedule_lock(&self) -> MutexGuard<'_, MemorySchedule> {
        // As above: every section leaves the schedule consistent.
        self.schedule.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many matches the schedule of due work holds.
    pub fn scheduled(&self) -> usize {
        self.schedule_lock().len()
    }

    /// The live entry of `id`, dropping it first if it has expired.
    fn live<'a>(&self, inner: &'a mut Inner, id: &str) -> Option<&'a mut Entry> {
        let ttl = self.limits.ttl;
        if inner
            .matches
            .get(id)
            .is_some_and(|e| e.written.elapsed() >= ttl)
            && let Some(gone) = inner.matches.remove(id)
        {
            inner.bytes -= gone.bytes;
        }
        inner.matches.get_mut(id)
    }

    /// Drops every expired match (at most once per [`SWEEP_EVERY`] unless
    /// `force`).
    fn sweep(&self, inner: &mut Inner, force: bool) {
        let now = Instant::now();
        if !force && now.duration_since(inner.last_sweep) < SWEEP_EVERY.min(self.limits.ttl) {
            return;
        }
        inner.last_sweep = now;
        let ttl = self.limits.ttl;
        let mut freed = 0;
        inner.matches.retain(|_, e| {
            let keep = now.duration_since(e.written) < ttl;
            if !keep {
                freed += e.bytes;
            }
            keep
        });
        inner.bytes -= freed;
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
        let mut inner = self.lock();
        if self.live(&mut inner, id).is_some() {
            return Ok(false);
        }
        let bytes = id.len() + state.len() + total_len(events);
        let full = |inner: &Inner| {
            inner.matches.len() >= self.limits.max_matches
                || inner.bytes + bytes > self.limits.max_bytes
        };
        self.sweep(&mut inner, false);
        if full(&inner) {
            self.sweep(&mut inner, true);
            if full(&inner) {
                return Err(StoreError::Full);
            }
        }
        let entry = Entry {
            version,
            state: state.to_owned(),
            events: events.to_vec(),
            idempotency: HashMap::new(),
            last_seq: watch::Sender::new(seq_of(events.len())),
            written: Instant::now(),
            bytes,
        };
        inner.bytes += bytes;
        inner.matches.insert(id.to_owned(), entry);
        Ok(true)
    }

    async fn load(&self, id: &str) -> Result<Option<Snapshot>, StoreError> {
        let mut inner = self.lock();
        Ok(self.live(&mut inner, id).map(|e| Snapshot {
            version: e.version,
            state: e.state.clone(),
            log: if is_snapshot(&e.state) {
                Vec::new()
            } else {
                e.events.clone()
            },
        }))
    }

    async fn commit(&self, id: &str, c: Commit<'_>) -> Result<CommitOutcome, StoreError> {
        let mut inner = self.lock();
        let max_bytes = self.limits.max_bytes;
        let total = inner.bytes;
        let entry = self.live(&mut inner, id).ok_or(StoreError::NotFound)?;
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
        let grows = (c.state.map_or(entry.state.len(), str::len)
            + total_len(c.events)
            + c.idempotency.map_or(0, |(k, r)| k.len() + r.len()))
        .saturating_sub(entry.state.len());
        if total + grows > max_bytes {
            return Err(StoreError::Full);
        }
        let before = entry.bytes;
        let first_seq = seq_of(entry.events.len()) + 1;
        entry.version = c.new_version;
        if let Some(state) = c.state {
            state.clone_into(&mut entry.state);
        }
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
        entry.written = Instant::now();
        entry.bytes = id.len()
            + entry.state.len()
            + total_len(&entry.events)
            + entry
                .idempotency
                .iter()
                .map(|(k, v)| k.len() + v.len())
                .sum::<usize>();
        let after = entry.bytes;
        inner.bytes = inner.bytes - before + after;
        Ok(CommitOutcome::Committed { first_seq })
    }

    async fn idempotent_response(&self, id: &str, key: &str) -> Result<Option<String>, StoreError> {
        let mut inner = self.lock();
        Ok(self
            .live(&mut inner, id)
            .and_then(|e| e.idempotency.get(key).cloned()))
    }

    async fn events_after(
        &self,
        id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        let mut inner = self.lock();
        let entry = self.live(&mut inner, id).ok_or(StoreError::NotFound)?;
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
        let mut inner = self.lock();
        let entry = self.live(&mut inner, id).ok_or(StoreError::NotFound)?;
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
            let mut inner = self.lock();
            let entry = self.live(&mut inner, id).ok_or(StoreError::NotFound)?;
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
            // The channel closes when the match expires; report what we
            // last saw either way.
            Ok(Err(_)) | Err(_) => Ok(*rx.borrow()),
        }
    }

    async fn schedule(&self, id: &str, at_ms: u64) -> Result<(), StoreError> {
        self.schedule_lock().schedule(id, at_ms);
        Ok(())
    }

    async fn claim_due(
        &self,
        now_ms: u64,
        lease_ms: u64,
        limit: usize,
    ) -> Result<Vec<DueClaim>, StoreError> {
        Ok(self.schedule_lock().claim(now_ms, lease_ms, limit))
    }

    async fn settle_due(
        &self,
        id: &str,
        lease_until_ms: u64,
        next: Option<u64>,
    ) -> Result<bool, StoreError> {
        Ok(self.schedule_lock().settle(id, lease_until_ms, next))
    }

    async fn ping(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn kind(&self) -> &'static str {
        "memory"
    }
}
