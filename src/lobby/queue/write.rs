//! One write to a band: a compare-and-set of its document with a change
//! and a matching pass in it, in the band's turn; and the small document
//! telling when the band is next due.

use tokio::sync::OwnedMutexGuard;

use super::pass::{Pass, run_pass};
use super::record::{DueRecord, Entry, PoolRecord, Shard, due_id};
use crate::lobby::Lobby;
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, Updated, upsert};
use crate::service::{Error, clock_now_ms, random_bytes};

impl Lobby {
    /// Records when shard `pid` is due, as found by the pass over its
    /// version `version`, unless a pass over a later version was recorded
    /// first. A failure is logged: the shard is passed again on its next
    /// change.
    pub(super) async fn record_due(&self, pid: &str, version: u64, due_ms: Option<u64>) {
        let recorded = upsert(
            self.store(),
            Doc::QueuePool,
            &due_id(pid),
            |_| None,
            |d: &mut DueRecord| {
                if d.version > version || (d.version == version && d.due_ms == due_ms) {
                    return Ok(Step::Keep(()));
                }
                *d = DueRecord { version, due_ms };
                Ok(Step::Write(()))
            },
        )
        .await;
        if let Err(e) = recorded {
            tracing::warn!(pool = pid, error = %e, "queue due time not recorded");
        }
    }

    /// One compare-and-set of shard `shard`: `change`, then a matching
    /// pass with `foreign` tickets in reach. Answers the shard as written
    /// (or found), the pass, and whether `change` changed anything.
    ///
    /// # Errors
    /// As [`pool_write`](Self::pool_write).
    pub(super) async fn write_pass(
        &self,
        shard: Shard,
        mut change: impl FnMut(&mut PoolRecord) -> Result<bool, Error>,
        foreign: &[Entry],
        turn: Option<OwnedMutexGuard<()>>,
    ) -> Result<(Updated<PoolRecord, Pass>, bool), Error> {
        let mut changed = false;
        let _turn = match turn {
            Some(t) => t,
            None => self.core.turns.take(&shard.id()).await,
        };
        let written = upsert(
            self.store(),
            Doc::QueuePool,
            &shard.id(),
            |_| None,
            |pool: &mut PoolRecord| {
                changed = change(pool)?;
                let pass = run_pass(pool, shard.variant, clock_now_ms(), foreign, || {
                    Ok(hex::encode(random_bytes::<12>()?))
                })?;
                let passed =
                    !pass.formed.is_empty() || !pass.imports.is_empty() || !pass.expired.is_empty();
                Ok(if changed || passed {
                    Step::Write(pass)
                } else {
                    Step::Keep(pass)
                })
            },
        )
        .await?;
        for f in &written.answer.formed {
            tracing::info!(match_id = %f.match_id, pool = %shard.id(), "queue formed a match");
        }
        Ok((written, changed))
    }
}
