//! The queue's shards: each pool (a variant, rated or casual) is split
//! by rating into bands of [`BAND_WIDTH`](super::record::BAND_WIDTH) points, one document each, so
//! that joins in different bands write different documents (on a cluster,
//! different slots, spread over the masters) and no pass holds the whole
//! pool.
//!
//! The pairing rules ignore the bands: two tickets may sit together when
//! their ratings are within both windows, wherever the edge falls. A
//! shard whose waiting tickets' windows reach past its band reads the
//! neighbouring shards in reach ([`Lobby::foreign_in_reach`]) and runs a
//! second pass with their tickets as candidates. Such a ticket may join a
//! group anchored by a younger ticket of this shard, never anchor one: so
//! of two shards that each see the other's ticket, only the shard of the
//! older one forms the group, and they never borrow from each other for
//! one group. A newcomer that an older neighbour's ticket could sit with
//! makes that neighbour pass at once (so does a pass that finds one when
//! nothing joined); a window that reaches the edge, and each widening
//! after that, makes the shard due then ([`edge_due`]).
//!
//! A group with another shard's tickets spans documents (slots), so it
//! is formed in steps, each one compare-and-set, with the intent durable
//! in the forming shard from the first:
//!
//! 1. the pass records the group as an [`Import`] (`pending`), its own
//!    tickets out of `waiting`, in the same write as the pass;
//! 2. each lending shard, in turn, moves the tickets asked for from
//!    `waiting` to `lent` under the group's id, if all are still waiting
//!    (and the group was not called off there: `closed`);
//! 3. the forming shard decides once: `formed` (every loan made: the
//!    group enters `formed` and is started like any other) or
//!    `cancelled` (its own tickets back to `waiting`);
//! 4. each lender drops its loan (formed) or gives the tickets back and
//!    remembers the group as closed (cancelled), so that a late step 2
//!    for it is refused;
//! 5. the forming shard drops the import.
//!
//! A crash between steps leaves the import in the forming shard, which
//! is then due at once: the next pass on it, any instance's, carries on
//! from the step recorded, and each step done again changes nothing.

use std::collections::BTreeSet;

use super::pass::{WINDOW_EVERY_MS, WINDOW_MAX, compatible, earliest, widened_at, window};
use super::record::{
    CLOSED_KEEP_MS, Closed, Entry, Formed, Import, ImportState, Lent, PoolRecord, Shard, band_of,
};
use crate::lobby::Lobby;
use crate::lobby::records;
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, upsert};
use crate::service::{Error, clock_now_ms};

/// When shard `shard` (holding `pool`) must look across its edges again
/// as of `now`: for each waiting ticket, when its window first reaches
/// the band's nearest edge, or, once it has, its next widening (which may
/// bring a neighbour's ticket within both windows); `None` if no window
/// can change anything.
pub(super) fn edge_due(shard: Shard, pool: &PoolRecord, now: u64) -> Option<u64> {
    let (lo, hi) = shard.bounds();
    pool.waiting
        .iter()
        .filter_map(
            |e| match widened_at(e.created_ms, (e.rating - lo).min(hi - e.rating)) {
                Some(t) if t > now => Some(t),
                Some(_) => next_widening(e.created_ms, now),
                None => None,
            },
        )
        .fold(None, |acc, t| earliest(acc, Some(t)))
}

/// The next time after `now` a ticket queued at `created` has a wider
/// window, if it can widen further.
fn next_widening(created: u64, now: u64) -> Option<u64> {
    let waited = now.saturating_sub(created);
    (window(waited) < WINDOW_MAX)
        .then(|| created + (waited / WINDOW_EVERY_MS + 1) * WINDOW_EVERY_MS)
}

/// The range of ratings `entries` may sit with as of `now`.
fn reach(entries: &[Entry], now: u64) -> Option<(f64, f64)> {
    entries.iter().fold(None, |acc, e| {
        let w = window(now.saturating_sub(e.created_ms));
        let (lo, hi) = acc.unwrap_or((f64::INFINITY, f64::NEG_INFINITY));
        Some((lo.min(e.rating - w), hi.max(e.rating + w)))
    })
}

impl Lobby {
    /// The waiting tickets of `shard`'s neighbours that the tickets of
    /// `focus` (its newcomers, or all its waiting tickets) may sit with as
    /// of `now`, and the bands where one of them is older than some ticket
    /// of `focus` (a group it could anchor there).
    ///
    /// # Errors
    /// `StoreUnavailable`; `Internal` if a shard does not parse.
    pub(super) async fn foreign_in_reach(
        &self,
        shard: Shard,
        focus: &[Entry],
        now: u64,
    ) -> Result<(Vec<Entry>, BTreeSet<u32>), Error> {
        let (mut found, mut older) = (Vec::new(), BTreeSet::new());
        let Some((lo, hi)) = reach(focus, now) else {
            return Ok((found, older));
        };
        let (band_lo, band_hi) = shard.bounds();
        if lo >= band_lo && hi < band_hi {
            return Ok((found, older));
        }
        let youngest = focus.iter().map(|e| e.created_ms).max();
        for band in band_of(lo)..=band_of(hi) {
            if band == shard.band {
                continue;
            }
            let Some(snap) = self
                .store()
                .get(Doc::QueuePool, &shard.at(band).id())
                .await?
            else {
                continue;
            };
            let theirs = records::decode::<PoolRecord>(&snap.state)?;
            for e in theirs.waiting {
                if !focus.iter().any(|o| compatible(o, &e, now)) {
                    continue;
                }
                if youngest.is_some_and(|y| e.created_ms <= y) {
                    older.insert(band);
                }
                found.push(e);
            }
        }
        Ok((found, older))
    }

    /// Carries every import of `pool` (shard `shard`) through its steps;
    /// answers the groups that became formed, to be started.
    ///
    /// # Errors
    /// `StoreUnavailable`; `Busy` after lost races (the import stays, and
    /// the shard's next pass carries on).
    pub(super) async fn settle_imports(
        &self,
        shard: Shard,
        pool: &PoolRecord,
    ) -> Result<Vec<Formed>, Error> {
        let mut formed = Vec::new();
        for imp in &pool.importing {
            let id = &imp.formed.match_id;
            let lenders: BTreeSet<u32> = imp.foreign.iter().map(|e| band_of(e.rating)).collect();
            let mut state = imp.state;
            if state == ImportState::Pending {
                let mut all = true;
                for &band in &lenders {
                    if !self.lend(shard.at(band), imp).await? {
                        all = false;
                        break;
                    }
                }
                let want = if all {
                    ImportState::Formed
                } else {
                    ImportState::Cancelled
                };
                let Some(decided) = self.decide(shard, id, want).await? else {
                    continue;
                };
                state = decided;
                if state == ImportState::Formed && want == ImportState::Formed {
                    tracing::info!(match_id = %id, pool = %shard.id(), "queue formed a match across bands");
                    formed.push(imp.formed.clone());
                }
            }
            for &band in &lenders {
                self.end_loan(shard.at(band), id, state == ImportState::Cancelled)
                    .await?;
            }
            self.drop_import(shard, id).await?;
        }
        Ok(formed)
    }

    /// Step 2 in lender `lender`: lends the tickets of `imp` it holds.
    /// Answers whether they are lent to it now.
    async fn lend(&self, lender: Shard, imp: &Import) -> Result<bool, Error> {
        let id = &imp.formed.match_id;
        let wanted: Vec<&str> = imp
            .foreign
            .iter()
            .filter(|e| band_of(e.rating) == lender.band)
            .map(|e| e.ticket.as_str())
            .collect();
        let lent = upsert(
            self.store(),
            Doc::QueuePool,
            &lender.id(),
            |_| None,
            |pool: &mut PoolRecord| {
                if pool.closed.iter().any(|c| &c.match_id == id) {
                    return Ok(Step::Keep(false));
                }
                if pool.lent.iter().any(|l| &l.match_id == id) {
                    return Ok(Step::Keep(true));
                }
                let waits = |t: &str| pool.waiting.iter().any(|e| e.ticket == t);
                if !wanted.iter().all(|t| waits(t)) {
                    return Ok(Step::Keep(false));
                }
                let (entries, rest) = std::mem::take(&mut pool.waiting)
                    .into_iter()
                    .partition(|e| wanted.contains(&e.ticket.as_str()));
                pool.waiting = rest;
                pool.lent.push(Lent {
                    match_id: id.clone(),
                    entries,
                });
                Ok(Step::Write(true))
            },
        )
        .await?;
        Ok(lent.answer)
    }

    /// Step 3 in the forming shard: moves import `id` from pending to
    /// `want` (its group into `formed`, or its own tickets back to
    /// waiting). Answers the import's state as decided (by this call or
    /// an earlier one), `None` if it is gone (settled already).
    async fn decide(
        &self,
        shard: Shard,
        id: &str,
        want: ImportState,
    ) -> Result<Option<ImportState>, Error> {
        let decided = upsert(
            self.store(),
            Doc::QueuePool,
            &shard.id(),
            |_| None,
            |pool: &mut PoolRecord| {
                let Some(at) = pool.importing.iter().position(|i| i.formed.match_id == id) else {
                    return Ok(Step::Keep(None));
                };
                if pool.importing[at].state != ImportState::Pending {
                    return Ok(Step::Keep(Some(pool.importing[at].state)));
                }
                pool.importing[at].state = want;
                let imp = pool.importing[at].clone();
                match want {
                    ImportState::Formed => pool.formed.push(imp.formed),
                    _ => pool.restore(&imp.own),
                }
                Ok(Step::Write(Some(want)))
            },
        )
        .await?;
        Ok(decided.answer)
    }

    /// Step 4 in lender `lender`: drops the loan to group `id`, giving
    /// the tickets back and remembering the group as closed when it was
    /// `cancelled`.
    async fn end_loan(&self, lender: Shard, id: &str, cancelled: bool) -> Result<(), Error> {
        let now = clock_now_ms();
        upsert(
            self.store(),
            Doc::QueuePool,
            &lender.id(),
            |_| None,
            |pool: &mut PoolRecord| {
                let loan = pool.lent.iter().position(|l| l.match_id == id);
                let closed = pool.closed.iter().any(|c| c.match_id == id);
                if loan.is_none() && (closed || !cancelled) {
                    return Ok(Step::Keep(()));
                }
                if let Some(at) = loan {
                    let loan = pool.lent.remove(at);
                    if cancelled {
                        pool.restore(&loan.entries);
                    }
                }
                pool.closed
                    .retain(|c| now.saturating_sub(c.at_ms) < CLOSED_KEEP_MS);
                if cancelled && !closed {
                    pool.closed.push(Closed {
                        match_id: id.to_string(),
                        at_ms: now,
                    });
                }
                Ok(Step::Write(()))
            },
        )
        .await?;
        Ok(())
    }

    /// Step 5: drops import `id`, once decided, from the forming shard.
    async fn drop_import(&self, shard: Shard, id: &str) -> Result<(), Error> {
        upsert(
            self.store(),
            Doc::QueuePool,
            &shard.id(),
            |_| None,
            |pool: &mut PoolRecord| {
                let before = pool.importing.len();
                pool.importing
                    .retain(|i| i.formed.match_id != id || i.state == ImportState::Pending);
                Ok(if pool.importing.len() == before {
                    Step::Keep(())
                } else {
                    Step::Write(())
                })
            },
        )
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::pass::tests::entry;
    use super::*;
    use crate::rules::Variant;

    fn waiting(rating: f64, created_ms: u64) -> PoolRecord {
        PoolRecord {
            waiting: vec![entry("t", &["p"], rating, created_ms)],
            ..PoolRecord::default()
        }
    }

    #[test]
    fn a_shard_is_due_at_each_widening_of_a_window_across_its_edge() {
        let shard = Shard::of(Variant::Pairs, true, 1500.0);
        assert_eq!(shard.bounds(), (1400.0, 1600.0));
        // A band is 200 wide: every window (±100 at first) reaches an
        // edge, so the shard is due at each widening.
        let near = waiting(1520.0, 1_000);
        assert_eq!(edge_due(shard, &near, 1_000), Some(11_000));
        assert_eq!(edge_due(shard, &near, 15_000), Some(21_000));
        assert_eq!(edge_due(shard, &waiting(1500.0, 0), 5_000), Some(10_000));
        // The outer bands are open on their outer side.
        let top = Shard::of(Variant::Pairs, true, 9000.0);
        assert_eq!(top.bounds().1, f64::INFINITY);
        assert_eq!(
            edge_due(top, &waiting(9000.0, 0), 0),
            None,
            "no edge in reach ever"
        );
        // At the widest window nothing changes any more.
        assert_eq!(edge_due(shard, &waiting(1500.0, 0), 10_000_000), None);
        assert_eq!(edge_due(shard, &PoolRecord::default(), 0), None);
    }
}
