//! Running the matching pass on the stored pools, and finishing what it
//! formed.
//!
//! Every change to a pool (a ticket joining or leaving, or nothing at
//! all) is one compare-and-set on the pool document through
//! `lobby::update::upsert`, with a matching pass ([`run_pass`]) made in
//! the same write: the tickets a pass seats leave `waiting` and their
//! match (a fresh id and its seats) enters `formed` together, so two
//! instances racing on a pool can never seat one ticket twice. Only after
//! the write comes the slow part, so that no pool write waits on a match
//! creation: each formed match is started under its id
//! ([`start_formed`]; creation under a fixed id happens once), its
//! tickets are marked matched (or cancelled, if the match was refused)
//! and their players told, and the entry is dropped from `formed`. An
//! instance that stops half-way leaves the entry in the pool for the next
//! pass (any instance's, at the latest on the next housekeeping tick) to
//! finish, and finishing it again changes nothing.
//!
//! [`run_pass`]: super::pass::run_pass
//! [`start_formed`]: Lobby::start_formed

use std::collections::BTreeSet;

use tokio::sync::OwnedMutexGuard;

use super::pass::earliest;
use super::record::{
    BANDS, DueRecord, Entry, Formed, PoolRecord, Shard, TicketStatus, due_id, shards,
};
use super::shards::edge_due;
use crate::lobby::Lobby;
use crate::lobby::records::{self, PlayerEvent};
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, upsert};
use crate::rating;
use crate::rules::Variant;
use crate::service::{Error, NewMatch, NewSeat, SeatKind, clock_now_ms};

/// What a matching pass over a pool did, as counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassReport {
    /// Tickets read while looking for company (see `pass.rs`).
    pub examined: usize,
    /// Matches formed.
    pub formed: usize,
    /// Tickets left waiting.
    pub waiting: usize,
}

impl Lobby {
    /// A matching pass over every shard of one pool: forms what it can,
    /// then finishes every formed match the pool holds.
    ///
    /// # Errors
    /// `StoreUnavailable`; `Busy` after lost races.
    pub async fn pass(&self, variant: Variant, rated: bool) -> Result<PassReport, Error> {
        let mut total = PassReport::default();
        for band in 0..BANDS {
            let shard = Shard {
                variant,
                rated,
                band,
            };
            let r = self.pool_write(shard, |_| Ok(false)).await?.1;
            total.examined += r.examined;
            total.formed += r.formed;
            total.waiting += r.waiting;
        }
        Ok(total)
    }

    /// A pass over every shard that is due (what each instance's lobby
    /// housekeeping runs once a second): one whose last pass named a time
    /// now past (a fill time, an expiry, a widening window, a window
    /// reaching the band's edge, or a formed match to finish). A shard
    /// whose tickets can only be matched by a newcomer costs the read of
    /// its small due document, nothing more. Besides, one shard a second
    /// in turn is passed whatever its due document says: a writer that
    /// stopped between a shard's write and its due document's leaves that
    /// document stale (or missing), and this sweep bounds how long such a
    /// shard waits (108 shards: under two minutes).
    ///
    /// # Errors
    /// `StoreUnavailable`; `Busy` after lost races.
    pub async fn pass_all(&self) -> Result<(), Error> {
        let now = clock_now_ms();
        let all = shards();
        let sweep = (now / 1000) as usize % all.len();
        for (i, shard) in all.into_iter().enumerate() {
            let due = match self
                .store()
                .get(Doc::QueuePool, &due_id(&shard.id()))
                .await?
            {
                Some(snap) => records::decode::<DueRecord>(&snap.state)?.due_ms,
                None => None,
            };
            if due.is_some_and(|t| t <= now) || i == sweep {
                self.pool_write(shard, |_| Ok(false)).await?;
            }
        }
        Ok(())
    }

    /// Changes a shard with `change` (which says whether it changed
    /// anything) and runs a matching pass, in one write (none if neither
    /// changed anything); when its tickets' windows reach past its band,
    /// a second pass with the neighbours' tickets in reach (see
    /// `shards.rs`). Then records when the shard is next due, expires the
    /// tickets the passes let go, borrows what groups across bands need
    /// and finishes every formed match the shard holds. Answers the shard
    /// as written and what the passes did.
    ///
    /// # Errors
    /// What `change` returns (nothing is written then); `Busy` after lost
    /// races (nothing was written then); `StoreUnavailable`; what
    /// finishing a formed match returns.
    pub(super) async fn pool_write(
        &self,
        shard: Shard,
        change: impl FnMut(&mut PoolRecord) -> Result<bool, Error>,
    ) -> Result<(PoolRecord, PassReport), Error> {
        self.pool_write_in(shard, change, None, &[]).await
    }

    /// [`pool_write`](Self::pool_write), its first write made in `turn`
    /// when the caller holds the shard's turn already; `added` are the
    /// tickets `change` adds, the ones a change looks across the edges
    /// for.
    pub(super) async fn pool_write_in(
        &self,
        shard: Shard,
        change: impl FnMut(&mut PoolRecord) -> Result<bool, Error>,
        turn: Option<OwnedMutexGuard<()>>,
        added: &[String],
    ) -> Result<(PoolRecord, PassReport), Error> {
        let (pool, report, older) = self.shard_write(shard, change, turn, added).await?;
        // A newcomer, or a window just widened, may complete a group
        // anchored by an older ticket of a neighbouring band: that band's
        // pass forms it. The write is made: a failure here is left to the
        // next pass.
        for band in older {
            if let Err(e) = self
                .shard_write(shard.at(band), |_| Ok(false), None, &[])
                .await
            {
                tracing::warn!(pool = %shard.at(band).id(), error = %e, "queue pass left for later");
            }
        }
        Ok((pool, report))
    }

    /// [`pool_write_in`](Self::pool_write_in) on one shard; answers besides the
    /// neighbouring bands holding an older ticket that one of the tickets
    /// looked at across the edges may sit with (their pass forms it).
    async fn shard_write(
        &self,
        shard: Shard,
        change: impl FnMut(&mut PoolRecord) -> Result<bool, Error>,
        turn: Option<OwnedMutexGuard<()>>,
        added: &[String],
    ) -> Result<(PoolRecord, PassReport, BTreeSet<u32>), Error> {
        let (mut written, changed) = self.write_pass(shard, change, &[], turn).await?;
        let mut expired = std::mem::take(&mut written.answer.expired);
        let mut report = PassReport {
            examined: written.answer.examined,
            formed: written.answer.formed.len(),
            waiting: 0,
        };
        let now = clock_now_ms();
        // A change looks across the edges for the tickets it added (none
        // for a leave); a pass without a change (a due one) for every
        // waiting ticket.
        let focus: Vec<Entry> = if changed {
            (written.record.waiting.iter())
                .filter(|e| added.contains(&e.ticket))
                .cloned()
                .collect()
        } else {
            written.record.waiting.clone()
        };
        // The write is made: from here on a failure is logged and left
        // to the next pass (the band stays due), never answered.
        let (foreign, older) = match self.foreign_in_reach(shard, &focus, now).await {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(pool = %shard.id(), error = %e, "queue pass across edges left for later");
                (Vec::new(), BTreeSet::new())
            }
        };
        if !foreign.is_empty() {
            match self.write_pass(shard, |_| Ok(false), &foreign, None).await {
                Ok((again, _)) => {
                    written = again;
                    expired.append(&mut written.answer.expired);
                    report.examined += written.answer.examined;
                    report.formed += written.answer.formed.len() + written.answer.imports.len();
                }
                Err(e) => {
                    tracing::warn!(pool = %shard.id(), error = %e, "queue pass across edges left for later");
                }
            }
        }
        let (pool, pass) = (written.record, written.answer);
        report.waiting = pool.waiting.len();
        // A formed match to finish makes the shard due at once, in case
        // this instance stops before it is finished.
        let due = if pool.formed.is_empty() && pool.importing.is_empty() {
            earliest(pass.due_ms, edge_due(shard, &pool, now))
        } else {
            Some(now)
        };
        self.record_due(&shard.id(), written.version, due).await;
        // The write is made: what follows is finished by the next pass
        // (the shard is due at once) if it fails here.
        if let Err(e) = self.after_write(shard, &pool, &expired).await {
            tracing::warn!(pool = %shard.id(), error = %e, "queue pass left work for the next pass");
        }
        Ok((pool, report, older))
    }

    /// What follows a write to `shard` (as written: `pool`): the
    /// `expired` tickets settled, the groups across bands carried
    /// through, every formed match finished.
    ///
    /// # Errors
    /// `StoreUnavailable`; `Busy` after lost races; what finishing a
    /// formed match returns.
    async fn after_write(
        &self,
        shard: Shard,
        pool: &PoolRecord,
        expired: &[Entry],
    ) -> Result<(), Error> {
        for e in expired {
            self.finish_ticket(&e.ticket, TicketStatus::Expired, None)
                .await?;
            for p in &e.players {
                self.release(p, &e.ticket).await;
            }
        }
        let mut formed = pool.formed.clone();
        formed.extend(self.settle_imports(shard, pool).await?);
        for f in &formed {
            self.finish_formed(shard, f).await?;
        }
        Ok(())
    }

    /// Starts a formed match (once), settles its tickets (matched, or
    /// cancelled if the match was refused), and drops it from its pool.
    ///
    /// # Errors
    /// What [`start_formed`](Self::start_formed) returns; `Busy` and
    /// `StoreUnavailable` from settling a ticket.
    async fn finish_formed(&self, shard: Shard, f: &Formed) -> Result<(), Error> {
        let started = self.start_formed(shard.variant, shard.rated, f).await?;
        for ticket in f.tickets() {
            self.settle_ticket(f, ticket, started).await?;
        }
        self.drop_formed(shard, &f.match_id).await
    }

    /// Creates the match of formed group `f` through the match service:
    /// under `f.match_id`, with the variant's rated rules, dealt
    /// automatically, rated when the pool is, and one seat per formed
    /// seat (a remote seat for a queued player, a house bot seat
    /// otherwise). Creation under a fixed id happens once, so starting a
    /// group again (after a lost race, or by the next pass after an
    /// instance stopped half-way) finds its match and changes nothing.
    ///
    /// Returns `true` when the match exists now (created by this call or
    /// before), `false` when the service refused it (say, a seated player
    /// no longer registered): that is logged, and the group's tickets are
    /// to be cancelled rather than matched.
    ///
    /// # Errors
    /// What creating the match returns besides a refusal (such as
    /// `StoreUnavailable` or `StoreFull`): nothing was created, and the
    /// entry stays in its pool for the next pass to start again.
    pub(super) async fn start_formed(
        &self,
        variant: Variant,
        rated: bool,
        f: &Formed,
    ) -> Result<bool, Error> {
        let seats = f
            .seats
            .iter()
            .map(|s| match &s.player {
                Some(p) => NewSeat {
                    kind: SeatKind::Remote,
                    player: Some(p.clone()),
                    ..NewSeat::default()
                },
                None => NewSeat {
                    kind: SeatKind::Bot,
                    bot: s.bot.clone(),
                    ..NewSeat::default()
                },
            })
            .collect();
        let req = NewMatch {
            rules: rating::rated_rules(variant),
            seats: Some(seats),
            auto_deal: true,
            id: Some(f.match_id.clone()),
            rated,
            ..NewMatch::default()
        };
        match self.create_promised(req, Doc::QueuePool).await {
            Ok(()) => Ok(true),
            Err(Error::InvalidRequest(why)) => {
                tracing::warn!(match_id = %f.match_id, why, "queue match refused; its tickets are cancelled");
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// Moves `ticket`, seated in `f`, to matched (with its seats) when the
    /// match `started`, else to cancelled; tells its players of the match
    /// if this call matched it; releases its players' markers either way.
    /// A ticket gone from the store is skipped.
    ///
    /// # Errors
    /// `Busy` after lost races; `StoreUnavailable`.
    async fn settle_ticket(&self, f: &Formed, ticket: &str, started: bool) -> Result<(), Error> {
        let rec = match self.load_ticket(ticket).await {
            Ok(rec) => rec,
            Err(Error::TicketNotFound) => return Ok(()),
            Err(e) => return Err(e),
        };
        let seat = f.seat_of(&rec.player);
        let partner_seat = rec.partner.as_deref().and_then(|p| f.seat_of(p));
        let (outcome, placed) = if started {
            let placed = (f.match_id.clone(), seat, partner_seat);
            (TicketStatus::Matched, Some(placed))
        } else {
            (TicketStatus::Cancelled, None)
        };
        if self.finish_ticket(ticket, outcome, placed).await? && started {
            for (p, s) in [
                (Some(&rec.player), seat),
                (rec.partner.as_ref(), partner_seat),
            ] {
                if let (Some(p), Some(s)) = (p, s) {
                    let event = PlayerEvent::QueueMatched {
                        ticket_id: ticket.to_string(),
                        match_id: f.match_id.clone(),
                        seat: s,
                    };
                    self.core.publish(p, &event).await;
                }
            }
        }
        for p in std::iter::once(&rec.player).chain(rec.partner.as_ref()) {
            self.release(p, ticket).await;
        }
        Ok(())
    }

    /// Drops the finished match `match_id` from its pool's `formed`
    /// (nothing to do if another instance did). When every attempt is
    /// lost the entry stays, which is logged and not an error: the next
    /// pass finishes it again, changing nothing but dropping it.
    ///
    /// # Errors
    /// `StoreUnavailable`; `Internal` if the pool does not parse.
    async fn drop_formed(&self, shard: Shard, match_id: &str) -> Result<(), Error> {
        let dropped = upsert(
            self.store(),
            Doc::QueuePool,
            &shard.id(),
            |_| None,
            |pool: &mut PoolRecord| {
                let before = pool.formed.len();
                pool.formed.retain(|x| x.match_id != match_id);
                Ok(if pool.formed.len() == before {
                    Step::Keep(())
                } else {
                    Step::Write(())
                })
            },
        )
        .await;
        match dropped {
            Ok(_) => Ok(()),
            Err(Error::Busy(why)) => {
                tracing::warn!(
                    match_id,
                    why,
                    "formed match left in its pool for the next pass"
                );
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}
