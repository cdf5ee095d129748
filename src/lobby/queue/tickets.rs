//! Writes to one ticket and to one player's `queued` marker.
//!
//! A ticket leaves `Waiting` once, for good: [`finish_ticket`] changes it
//! only while it still waits, so whichever of a pass, a leave or an expiry
//! gets there first decides its fate and tells its players, and the others
//! change nothing. The marker is what keeps a player to one waiting
//! ticket: [`claim`] names the new ticket there unless the ticket named
//! already still waits, and [`release`] clears it once its ticket stops
//! waiting (a marker left naming a finished ticket is harmless: the next
//! claim overwrites it). Every write goes through the lobby's
//! compare-and-set helper (`lobby::update`); a missing ticket is the
//! queue's `TicketNotFound`, never a missing match.
//!
//! [`finish_ticket`]: Lobby::finish_ticket
//! [`claim`]: Lobby::claim
//! [`release`]: Lobby::release

use super::record::{KEEP_FINISHED, QueuedRecord, TicketRecord, TicketStatus};
use crate::lobby::Lobby;
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, load, update, update_async, upsert};
use crate::rules::Seat;
use crate::service::{Error, clock_now_ms};

/// Where a matched ticket's players sit: the match, the player's seat and
/// the partner's.
pub(super) type Placed = (String, Option<Seat>, Option<Seat>);

impl Lobby {
    /// Ticket `id` as stored.
    ///
    /// # Errors
    /// `TicketNotFound` when there is no such ticket (or it is long gone);
    /// `StoreUnavailable`; `Internal` if it does not parse.
    pub(super) async fn load_ticket(&self, id: &str) -> Result<TicketRecord, Error> {
        let (_, ticket) = load(self.store(), Doc::Ticket, id, || Error::TicketNotFound).await?;
        Ok(ticket)
    }

    /// Whether ticket `id` still waits (a missing ticket does not).
    ///
    /// # Errors
    /// `StoreUnavailable`; `Internal` if it does not parse.
    async fn still_waiting(&self, id: &str) -> Result<bool, Error> {
        match self.load_ticket(id).await {
            Ok(t) => Ok(t.status == TicketStatus::Waiting),
            Err(Error::TicketNotFound) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Moves ticket `id` from `Waiting` to `status` (with its match and
    /// seats when `placed`), to be kept readable for a day: `true` if this
    /// call did, `false` if the ticket no longer waits or is gone.
    ///
    /// # Errors
    /// `Busy` after lost races; `StoreUnavailable`.
    pub(super) async fn finish_ticket(
        &self,
        id: &str,
        status: TicketStatus,
        placed: Option<Placed>,
    ) -> Result<bool, Error> {
        let finished = update(
            self.store(),
            Doc::Ticket,
            id,
            |_| Some(KEEP_FINISHED),
            || Error::TicketNotFound,
            |t: &mut TicketRecord| {
                if t.status != TicketStatus::Waiting {
                    return Ok(Step::Keep(false));
                }
                t.status = status;
                t.finished_ms = Some(clock_now_ms());
                if let Some((m, seat, partner_seat)) = &placed {
                    t.match_id = Some(m.clone());
                    t.seat = *seat;
                    t.partner_seat = *partner_seat;
                }
                Ok(Step::Write(true))
            },
        )
        .await;
        match finished {
            Ok(updated) => Ok(updated.answer),
            Err(Error::TicketNotFound) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Makes `ticket` the player's waiting ticket: at once when its marker
    /// is new or names no ticket, otherwise once the ticket it names is
    /// found to wait no more (which takes a read of that ticket before the
    /// write, hence the second, awaiting, update). Two claims racing on
    /// one marker (two requests of one key, on any instances) both write
    /// by compare-and-set on its version: one wins, the other reads the
    /// winner's ticket waiting and is refused.
    ///
    /// # Errors
    /// `AlreadyQueued` when another ticket of the player still waits (its
    /// id is named only when `player` is the `caller`);
    /// `Busy` after lost races (or if the marker vanished between the two
    /// updates: retrying creates it again); `StoreUnavailable`.
    pub(super) async fn claim(
        &self,
        player: &str,
        ticket: &str,
        caller: &str,
    ) -> Result<(), Error> {
        let claimed = upsert(
            self.store(),
            Doc::Queued,
            player,
            |_| None,
            |q: &mut QueuedRecord| {
                if q.ticket.is_some() {
                    return Ok(Step::Keep(false));
                }
                q.ticket = Some(ticket.to_string());
                Ok(Step::Write(true))
            },
        )
        .await?
        .answer;
        if claimed {
            return Ok(());
        }
        let vanished = || Error::Busy("the player's place in the queue changed; retry".into());
        update_async(
            self.store(),
            Doc::Queued,
            player,
            |_| None,
            vanished,
            |mut q: QueuedRecord| async move {
                if let Some(other) = &q.ticket
                    && self.still_waiting(other).await?
                {
                    return Err(Error::AlreadyQueued(if player == caller {
                        format!("you wait in the queue already (ticket {other})")
                    } else {
                        "the other player of the party waits in the queue already; \
                         the party stays open until it is answered or lapses"
                            .into()
                    }));
                }
                q.ticket = Some(ticket.to_string());
                Ok((q, Step::Write(())))
            },
        )
        .await
        .map(drop)
    }

    /// Clears the player's waiting ticket if it is still `ticket`. A
    /// failure is logged: a stale marker names a ticket no longer
    /// waiting, which [`claim`](Self::claim) overwrites.
    pub(super) async fn release(&self, player: &str, ticket: &str) {
        let released = upsert(
            self.store(),
            Doc::Queued,
            player,
            |_| None,
            |q: &mut QueuedRecord| {
                if q.ticket.as_deref() != Some(ticket) {
                    return Ok(Step::Keep(()));
                }
                q.ticket = None;
                Ok(Step::Write(()))
            },
        )
        .await;
        if let Err(e) = released {
            tracing::warn!(player, error = %e, "queue entry not released");
        }
    }
}
