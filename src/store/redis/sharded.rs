//! Waking long polls across server instances on Redis Cluster, with
//! sharded pub/sub.
//!
//! A commit announces `<id> <last_seq>` with `SPUBLISH` on the match's own
//! channel `bf:{<id>}:n`, which hashes to the match's slot: the message
//! stays on the shard that holds the match. A store subscribes
//! (`SSUBSCRIBE`) to a match's channel while it has long polls waiting on
//! that match, on its cluster connection (RESP3, so messages arrive as
//! pushes beside the replies), and unsubscribes when the last one is done.
//! The lobby's Redis store wakes its players' event streams the same way,
//! on channels of its own (in each player's slot): subscriptions are
//! counted per channel, whatever it is named.
//! redis-rs subscribes again after a reconnection; messages sent in between
//! are lost, which the waiters' periodic re-read covers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use redis::cluster_async::ClusterConnection;
use redis::{PushInfo, PushKind, Value};
use tokio::sync::mpsc::UnboundedReceiver;

use super::{RESPONSE_TIMEOUT, unavailable};
use crate::store::StoreError;
use crate::store::waiters::Waiters;

/// The sharded channel on which commits to match `id` are announced.
pub(crate) fn channel(id: &str) -> String {
    format!("bf:{{{id}}}:n")
}

/// The sharded subscriptions of one store, counted per channel.
pub(crate) struct Sharded {
    conn: ClusterConnection,
    held: Mutex<HashMap<String, usize>>,
}

/// A long poll's interest in a channel; released when dropped.
pub(crate) struct Hold {
    sharded: Arc<Sharded>,
    channel: String,
}

impl Sharded {
    pub(crate) fn new(conn: ClusterConnection) -> Arc<Sharded> {
        Arc::new(Sharded {
            conn,
            held: Mutex::new(HashMap::new()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, usize>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Subscribes to the sharded `channel` unless this store already is.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when the subscription fails.
    pub(crate) async fn hold(self: &Arc<Self>, channel: String) -> Result<Hold, StoreError> {
        let first = {
            let mut held = self.lock();
            let n = held.entry(channel.clone()).or_insert(0);
            *n += 1;
            *n == 1
        };
        // Built first, so that a failed subscription still releases.
        let hold = Hold {
            sharded: Arc::clone(self),
            channel,
        };
        if first {
            let mut conn = self.conn.clone();
            tokio::time::timeout(RESPONSE_TIMEOUT, conn.ssubscribe(hold.channel.clone()))
                .await
                .map_err(unavailable)?
                .map_err(unavailable)?;
        }
        Ok(hold)
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let last = {
            let mut held = self.sharded.lock();
            match held.get_mut(&self.channel) {
                Some(n) if *n > 1 => {
                    *n -= 1;
                    false
                }
                Some(_) => {
                    held.remove(&self.channel);
                    true
                }
                None => false,
            }
        };
        if last && let Ok(rt) = tokio::runtime::Handle::try_current() {
            let mut conn = self.sharded.conn.clone();
            let channel = self.channel.clone();
            rt.spawn(async move {
                let _ = tokio::time::timeout(RESPONSE_TIMEOUT, conn.sunsubscribe(channel)).await;
            });
        }
    }
}

/// Passes each sharded message (`<id> <last_seq>`) to the local waiters.
pub(crate) async fn run_pushes(mut rx: UnboundedReceiver<PushInfo>, waiters: Arc<Waiters>) {
    while let Some(push) = rx.recv().await {
        if push.kind != PushKind::SMessage {
            continue;
        }
        let payload = match push.data.get(1) {
            Some(Value::BulkString(bytes)) => String::from_utf8_lossy(bytes).into_owned(),
            _ => continue,
        };
        match payload.rsplit_once(' ').map(|(id, seq)| (id, seq.parse())) {
            Some((id, Ok(seq))) => waiters.notify(id, seq),
            _ => tracing::warn!(%payload, "ignoring malformed notification"),
        }
    }
}
