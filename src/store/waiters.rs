//! The long polls of this process, by key (a match id, a player id): a
//! channel carrying the highest event number announced for that key. The
//! stores' notifications (Redis pub/sub, or the memory store's own writes)
//! wake them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::watch;

/// The registered long polls.
#[derive(Debug, Default)]
pub(crate) struct Waiters {
    by_key: Mutex<HashMap<String, watch::Sender<u64>>>,
}

/// One registered long poll; unregisters itself when dropped.
pub(crate) struct Waiter {
    waiters: Arc<Waiters>,
    id: String,
    pub(crate) rx: watch::Receiver<u64>,
}

impl Waiters {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<u64>>> {
        self.by_key.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a long poll on `id` (before reading, so that a push in
    /// between still wakes it).
    pub(crate) fn register(self: &Arc<Self>, id: &str) -> Waiter {
        let rx = self
            .lock()
            .entry(id.to_owned())
            .or_insert_with(|| watch::Sender::new(0))
            .subscribe();
        Waiter {
            waiters: Arc::clone(self),
            id: id.to_owned(),
            rx,
        }
    }

    /// Wakes the long polls on `id` when `seq` is newer than they knew.
    pub(crate) fn notify(&self, id: &str, seq: u64) {
        if let Some(tx) = self.lock().get(id) {
            tx.send_if_modified(|last| {
                let newer = seq > *last;
                if newer {
                    *last = seq;
                }
                newer
            });
        }
    }
}

impl Drop for Waiter {
    fn drop(&mut self) {
        let mut map = self.waiters.lock();
        // Our own receiver is still alive here, hence 1.
        if map.get(&self.id).is_some_and(|tx| tx.receiver_count() <= 1) {
            map.remove(&self.id);
        }
    }
}
