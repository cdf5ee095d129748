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

use super::pass::run_pass;
use super::record::{Formed, PoolRecord, TicketStatus, pool_id, pools};
use crate::lobby::Lobby;
use crate::lobby::records::{self, PlayerEvent};
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, upsert};
use crate::rating;
use crate::rules::Variant;
use crate::service::{Error, NewMatch, NewSeat, SeatKind, clock_now_ms, random_bytes};

impl Lobby {
    /// A matching pass over one pool: forms what it can, then finishes
    /// every formed match the pool holds.
    ///
    /// # Errors
    /// `StoreUnavailable`; `Busy` after lost races.
    pub async fn pass(&self, variant: Variant, rated: bool) -> Result<(), Error> {
        self.pool_write(variant, rated, |_| false).await
    }

    /// One pass over every pool that has waiting tickets or unfinished
    /// matches (what each instance's lobby housekeeping runs).
    ///
    /// # Errors
    /// `StoreUnavailable`; `Busy` after lost races.
    pub async fn pass_all(&self) -> Result<(), Error> {
        for (variant, rated) in pools() {
            let pool = self.load_pool(variant, rated).await?;
            if !pool.waiting.is_empty() || !pool.formed.is_empty() {
                self.pass(variant, rated).await?;
            }
        }
        Ok(())
    }

    /// A pool as stored; empty when it was never written.
    ///
    /// # Errors
    /// `StoreUnavailable`; `Internal` if it does not parse.
    pub(super) async fn load_pool(
        &self,
        variant: Variant,
        rated: bool,
    ) -> Result<PoolRecord, Error> {
        match self
            .store()
            .get(Doc::QueuePool, &pool_id(variant, rated))
            .await?
        {
            Some(snap) => records::decode(&snap.state),
            None => Ok(PoolRecord::default()),
        }
    }

    /// Changes a pool with `change` (which says whether it changed
    /// anything) and runs a matching pass, in one write (none if neither
    /// changed anything); then expires the tickets the pass let go and
    /// finishes every formed match the pool holds.
    ///
    /// # Errors
    /// `Busy` after lost races (nothing was written then);
    /// `StoreUnavailable`; what finishing a formed match returns.
    pub(super) async fn pool_write(
        &self,
        variant: Variant,
        rated: bool,
        mut change: impl FnMut(&mut PoolRecord) -> bool,
    ) -> Result<(), Error> {
        let pid = pool_id(variant, rated);
        let written = upsert(
            self.store(),
            Doc::QueuePool,
            &pid,
            |_| None,
            |pool| {
                let changed = change(pool);
                let pass = run_pass(pool, variant, clock_now_ms(), || {
                    Ok(hex::encode(random_bytes::<12>()?))
                })?;
                Ok(
                    if changed || !pass.formed.is_empty() || !pass.expired.is_empty() {
                        Step::Write(pass)
                    } else {
                        Step::Keep(pass)
                    },
                )
            },
        )
        .await?;
        let (pool, pass) = (written.record, written.answer);
        for f in &pass.formed {
            tracing::info!(match_id = %f.match_id, pool = %pid, "queue formed a match");
        }
        for e in &pass.expired {
            self.finish_ticket(&e.ticket, TicketStatus::Expired, None)
                .await?;
            for p in &e.players {
                self.release(p, &e.ticket).await;
            }
        }
        for f in &pool.formed {
            self.finish_formed(variant, rated, f).await?;
        }
        Ok(())
    }

    /// Starts a formed match (once), settles its tickets (matched, or
    /// cancelled if the match was refused), and drops it from its pool.
    ///
    /// # Errors
    /// What [`start_formed`](Self::start_formed) returns; `Busy` and
    /// `StoreUnavailable` from settling a ticket.
    async fn finish_formed(&self, variant: Variant, rated: bool, f: &Formed) -> Result<(), Error> {
        let started = self.start_formed(variant, rated, f).await?;
        for ticket in f.tickets() {
            self.settle_ticket(f, ticket, started).await?;
        }
        self.drop_formed(variant, rated, &f.match_id).await
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
    async fn drop_formed(
        &self,
        variant: Variant,
        rated: bool,
        match_id: &str,
    ) -> Result<(), Error> {
        let dropped = upsert(
            self.store(),
            Doc::QueuePool,
            &pool_id(variant, rated),
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
