//! Joins to one band made together. A burst of tickets queueing in one
//! band (every new player starts at the same rating) would each wait for
//! the band's turn and write it once; instead each join is filed under the
//! band, and whoever gets the turn adds every join filed by then in one
//! compare-and-set and one pass, then answers each: a group commit. A
//! join a writer already made finds its answer when its own turn comes.

use tokio::sync::{OwnedMutexGuard, oneshot};

use super::matching::PassReport;
use super::record::{Entry, PoolRecord, Shard};
use crate::lobby::Lobby;
use crate::service::Error;

/// A join waiting for its band's turn.
pub(crate) struct JoinReq {
    entry: Entry,
    cap: usize,
    reply: oneshot::Sender<Result<(PoolRecord, PassReport), Error>>,
}

/// The refusal of a join to a band already holding `cap` tickets.
fn queue_full(cap: usize) -> Error {
    crate::service::metrics::metrics().limit_hit("queue_full");
    Error::QueueFull(format!(
        "this pool's rating band holds {cap} waiting tickets, as many as it may; \
         nothing was queued, retry later"
    ))
}

impl Lobby {
    /// Adds `entry` to band `shard` (refused once it holds `cap` waiting
    /// tickets) and runs a pass, together with the other joins filed for
    /// the band meanwhile; answers the band as written and what the pass
    /// did, as [`pool_write`](Self::pool_write).
    ///
    /// # Errors
    /// `QueueFull` (this join only); what the write returns (every join
    /// of the batch).
    pub(super) async fn join_band(
        &self,
        shard: Shard,
        entry: Entry,
        cap: usize,
    ) -> Result<(PoolRecord, PassReport), Error> {
        let id = shard.id();
        let (reply, answer) = oneshot::channel();
        let n = self.core.joins.push(&id, JoinReq { entry, cap, reply });
        let turn = self.core.turns.take(&id).await;
        if self.core.joins.waiting(&id, n) {
            // Made in a task of its own, so that every join of the batch is
            // answered even if this request goes away meanwhile.
            let batch = self.core.joins.take(&id);
            let lobby = self.clone();
            tokio::spawn(async move { lobby.write_joins(shard, batch, turn).await });
        } else {
            drop(turn);
        }
        answer
            .await
            .unwrap_or_else(|_| Err(Error::Busy("the join was not made; retry".into())))
    }

    /// Makes the joins of `batch` in one write to `shard`, in `turn`, and
    /// answers each.
    async fn write_joins(&self, shard: Shard, batch: Vec<JoinReq>, turn: OwnedMutexGuard<()>) {
        let mut refused: Vec<bool> = vec![false; batch.len()];
        let added: Vec<String> = batch.iter().map(|r| r.entry.ticket.clone()).collect();
        let written = self
            .pool_write_in(
                shard,
                |pool| {
                    for (i, req) in batch.iter().enumerate() {
                        refused[i] = pool.waiting.len() >= req.cap;
                        if !refused[i] {
                            pool.waiting.push(req.entry.clone());
                        }
                    }
                    Ok(refused.iter().any(|r| !r))
                },
                Some(turn),
                &added,
            )
            .await;
        for (req, refused) in batch.into_iter().zip(refused) {
            let answer = if refused {
                Err(queue_full(req.cap))
            } else {
                written.clone()
            };
            let _ = req.reply.send(answer);
        }
    }
}
