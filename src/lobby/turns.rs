//! Turns on hot documents within one instance: writers of this instance
//! to one document take turns instead of racing, so that a burst of
//! requests on one queue shard costs one compare-and-set each rather than
//! many lost ones. Other instances still race through compare-and-set,
//! which stays the only guarantee; this is only a saving.

use std::collections::HashMap;
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
}
