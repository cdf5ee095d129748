//! Turns on hot documents within one instance: writers of this instance
//! to one document take turns instead of racing, so that a burst of
//! requests on one queue shard costs one compare-and-set each rather than
//! many lost ones; and requests that waited for the same turn are made
//! together, in one write, by whoever gets it ([`Batches`]). Other
//! instances still race through compare-and-set, which stays the only
//! guarantee; this is only a saving.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{Mutex as TurnLock, OwnedMutexGuard};

/// One lock per document id, made on first use (the ids are few: the
/// queue's shards).
#[derive(Default)]
pub struct Turns {
    locks: Mutex<HashMap<String, Arc<TurnLock<()>>>>,
}

impl Turns {
    /// Waits for `id`'s turn; the turn lasts as long as the guard.
    pub async fn take(&self, id: &str) -> OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(locks.entry(id.to_string()).or_default())
        };
        lock.lock_owned().await
    }
}

/// Requests waiting for a turn on a document, so that whoever gets the
/// turn makes them all in one write (a group commit): each is filed under
/// the document's id with a number, and taken out whole by the writer.
pub struct Batches<T> {
    next: AtomicU64,
    pending: Mutex<HashMap<String, Vec<(u64, T)>>>,
}

impl<T> Default for Batches<T> {
    fn default() -> Self {
        Batches {
            next: AtomicU64::new(0),
            pending: Mutex::new(HashMap::new()),
        }
    }
}

impl<T> Batches<T> {
    fn pending(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<(u64, T)>>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Files `item` for document `id`; answers its number.
    pub fn push(&self, id: &str, item: T) -> u64 {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        self.pending()
            .entry(id.to_string())
            .or_default()
            .push((n, item));
        n
    }

    /// Whether request `n` for `id` is still waiting (no writer took it).
    pub fn waiting(&self, id: &str, n: u64) -> bool {
        self.pending()
            .get(id)
            .is_some_and(|v| v.iter().any(|(m, _)| *m == n))
    }

    /// Takes every request waiting for `id`, oldest first.
    pub fn take(&self, id: &str) -> Vec<T> {
        let taken = self.pending().remove(id).unwrap_or_default();
        taken.into_iter().map(|(_, item)| item).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_id_is_taken_in_turns_and_others_are_free() {
        let turns = Turns::default();
        let a = turns.take("a").await;
        assert!(
            tokio::time::timeout(std::time::Duration::from_millis(20), turns.take("a"))
                .await
                .is_err()
        );
        let _b = turns.take("b").await;
        drop(a);
        let _a = turns.take("a").await;
    }

    #[test]
    fn batched_requests_are_taken_whole_per_document() {
        let b: Batches<&str> = Batches::default();
        let one = b.push("d", "one");
        let two = b.push("d", "two");
        let other = b.push("e", "other");
        assert!(b.waiting("d", one) && b.waiting("d", two) && b.waiting("e", other));
        assert_eq!(b.take("d"), ["one", "two"]);
        assert!(!b.waiting("d", one) && b.waiting("e", other));
        assert!(b.take("d").is_empty());
    }
}
