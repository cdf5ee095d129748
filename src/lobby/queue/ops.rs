//! What a player does with the queue: queue (a ticket), follow its
//! ticket, leave.
//!
//! Queueing writes three kinds of document in turn, each by
//! compare-and-set: the ticket itself (new, under a fresh id), the
//! `queued` marker of each of its players (refused while another ticket
//! of theirs waits), then the ticket's entry in its pool, in the same
//! write as a matching pass. Should a later step fail, the earlier ones
//! are undone (markers released, ticket cancelled) before the error is
//! returned, so a refused request leaves nothing queued. Following a
//! ticket reads the ticket alone (never its pool, and it runs no pass:
//! passes run when a ticket joins or leaves, and when the housekeeping
//! finds a pool due) and can long-poll on the player's event stream until
//! the ticket stops waiting. Leaving takes the entry out of
//! the pool, unless a pass already seated it: then the ticket is matched
//! and cannot be left.

use std::time::Duration;

use super::pass::window;
use super::record::{
    DEFAULT_EXPIRY_S, Entry, KEEP_FINISHED, MAX_EXPIRY_S, Shard, TicketRecord, TicketStatus,
};
use crate::lobby::records::{self, PlayerKind, PlayerRecord};
use crate::lobby::store::Doc;
use crate::lobby::{HOUSEKEEPING_EVERY, Lobby};
use crate::rating;
use crate::rules::Variant;
use crate::service::{
    Error, Holder, SeatSpec, check_seat_spec, clock_now_ms, random_bytes, rfc3339,
};

/// What a player asks the queue for.
#[derive(Clone, Debug)]
pub struct Enqueue {
    /// The variant.
    pub variant: Variant,
    /// Rated (the default) or casual.
    pub rated: bool,
    /// A partner to sit opposite (pairs only): a registered player.
    pub partner: Option<String>,
    /// Accept other tickets whose players are bots (default true).
    pub accept_bots: bool,
    /// Play only against bots.
    pub only_bots: bool,
    /// After this wait, fill the remaining seats with house bots.
    pub fill_with_house_bots_after_s: Option<u64>,
    /// The house bot (a level) of that fill; default: the level whose
    /// anchor is nearest the group's mean rating.
    pub fill_level: Option<String>,
    /// Seconds until the ticket expires unmatched (default 600).
    pub expires_in_s: Option<u64>,
}

/// A ticket as its player sees it.
#[derive(Clone, Debug)]
pub struct TicketView {
    /// The ticket.
    pub ticket: TicketRecord,
    /// 1-based place among its rating band's waiting tickets (oldest
    /// first).
    pub position: Option<usize>,
    /// How long it has waited (or waited), in ms.
    pub waited_ms: u64,
    /// The rating window now (lowest, highest) while waiting.
    pub window: Option<(f64, f64)>,
    /// When it was queued (RFC 3339).
    pub created_at: String,
    /// When it expires unmatched (RFC 3339).
    pub expires_at: String,
}

/// The ticket's life in seconds, once `req` is found consistent (the
/// partner aside, which needs the store).
///
/// # Errors
/// `InvalidRequest`, naming the first inconsistency found.
pub(super) fn check_request(req: &Enqueue) -> Result<u64, Error> {
    if req.partner.is_some() && !req.variant.table().pairs {
        return Err(Error::InvalidRequest(
            "a partner is for the pairs game only".into(),
        ));
    }
    if req.only_bots && !req.accept_bots {
        return Err(Error::InvalidRequest("only_bots needs accept_bots".into()));
    }
    if req.fill_with_house_bots_after_s.is_some() && !req.accept_bots {
        return Err(Error::InvalidRequest(
            "filling with house bots needs accept_bots".into(),
        ));
    }
    if req
        .fill_with_house_bots_after_s
        .is_some_and(|s| s > MAX_EXPIRY_S)
    {
        return Err(Error::InvalidRequest(format!(
            "fill_with_house_bots_after_s is at most {MAX_EXPIRY_S}"
        )));
    }
    if let Some(level) = &req.fill_level {
        if req.fill_with_house_bots_after_s.is_none() {
            return Err(Error::InvalidRequest(
                "fill_level needs fill_with_house_bots_after_s".into(),
            ));
        }
        crate::service::house_bot(level)?;
    }
    let life = req.expires_in_s.unwrap_or(DEFAULT_EXPIRY_S);
    if !(1..=MAX_EXPIRY_S).contains(&life) {
        return Err(Error::InvalidRequest(format!(
            "expires_in_s is between 1 and {MAX_EXPIRY_S}"
        )));
    }
    Ok(life)
}

/// A new waiting ticket for `players` (the first queued, the second its
/// partner) as `req` asks, living `life` seconds, and its pool entry.
///
/// # Errors
/// `Internal` if the system has no randomness for its id.
fn new_ticket(
    players: &[PlayerRecord],
    req: &Enqueue,
    life: u64,
) -> Result<(TicketRecord, Entry), Error> {
    let now = clock_now_ms();
    let id = format!("q{}", hex::encode(random_bytes::<12>()?));
    let pool = rating::pool(req.variant);
    let rating = players
        .iter()
        .map(|p| p.rating_in(pool).rating)
        .sum::<f64>()
        / players.len() as f64;
    let ticket = TicketRecord {
        id: id.clone(),
        player: players[0].id.clone(),
        partner: req.partner.clone(),
        variant: req.variant,
        rated: req.rated,
        rating,
        status: TicketStatus::Waiting,
        match_id: None,
        seat: None,
        partner_seat: None,
        created_ms: now,
        expires_ms: now + life * 1000,
        finished_ms: None,
    };
    let entry = Entry {
        ticket: id,
        players: players.iter().map(|p| p.id.clone()).collect(),
        bots: players.iter().map(|p| p.kind == PlayerKind::Bot).collect(),
        rating,
        accept_bots: req.accept_bots,
        only_bots: req.only_bots,
        fill_at_ms: req.fill_with_house_bots_after_s.map(|s| now + s * 1000),
        fill_level: req.fill_level.clone(),
        created_ms: now,
        expires_ms: ticket.expires_ms,
    };
    Ok((ticket, entry))
}

impl Lobby {
    /// Queues the player whose key is `key`, alone: a partner joins
    /// through a party (`party.rs`), which its own key accepts.
    ///
    /// # Errors
    /// `Unauthorized`; `InvalidRequest` for a bad request, and for any
    /// `partner`; `AlreadyQueued` when the player waits already;
    /// `QueueFull` when its pool is full; `Busy` after lost races;
    /// `StoreUnavailable`.
    pub async fn enqueue(&self, key: &str, req: Enqueue) -> Result<TicketView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        check_request(&req)?;
        if req.partner.is_some() {
            return Err(Error::InvalidRequest(
                "a partner is never named on a ticket: propose a party with \
                 POST /v1/queue/parties, and the pair queues once the partner \
                 accepts it with its own key"
                    .into(),
            ));
        }
        let caller = me.id.clone();
        self.queue_players(&caller, vec![me], &req).await
    }

    /// Queues `players` (one, or a pair whose both keys consented) as
    /// `req` asks, on behalf of `caller` (one of them): writes the
    /// ticket, claims each player's marker (the caller's first), then
    /// joins the pool with a pass, undoing the earlier steps if a later
    /// one fails.
    ///
    /// # Errors
    /// `InvalidRequest`; `AlreadyQueued` (naming a ticket only to its own
    /// player); `QueueFull`; `Busy`; `StoreUnavailable`.
    pub(super) async fn queue_players(
        &self,
        caller: &str,
        mut players: Vec<PlayerRecord>,
        req: &Enqueue,
    ) -> Result<TicketView, Error> {
        let life = check_request(req)?;
        let (ticket, entry) = new_ticket(&players, req, life)?;
        players.sort_by_key(|p| p.id != caller);
        let id = ticket.id.clone();
        self.store()
            .insert(
                Doc::Ticket,
                &id,
                &records::encode(&ticket)?,
                Some(Duration::from_secs(life) + KEEP_FINISHED),
            )
            .await?;
        let mut claimed = Vec::new();
        for p in &players {
            if let Err(e) = self.claim(&p.id, &id, caller).await {
                return self.withdraw(&claimed, &id, e).await;
            }
            claimed.push(p.id.as_str());
        }
        let cap = self.svc.limits().max_queue_tickets;
        let shard = Shard::of(req.variant, req.rated, entry.rating);
        let joined = self.join_band(shard, entry, cap).await;
        let position = match joined {
            Ok((pool, _)) => pool.waiting.iter().position(|e| e.ticket == id),
            Err(e) => return self.withdraw(&claimed, &id, e).await,
        };
        tracing::info!(ticket = %id, player = %ticket.player, variant = ?req.variant, rated = req.rated, "queued");
        self.view_ticket(&id, position.map(|p| p + 1)).await
    }

    /// The players of a new ticket: `me`, then its `partner` if any.
    ///
    /// # Errors
    /// `InvalidRequest` for a partner who is `me` or no player id;
    /// `PlayerNotFound` for one who is not registered; `StoreUnavailable`.
    pub(super) async fn ticket_players(
        &self,
        me: PlayerRecord,
        partner: Option<&str>,
    ) -> Result<Vec<PlayerRecord>, Error> {
        let Some(pid) = partner else {
            return Ok(vec![me]);
        };
        if pid == me.id {
            return Err(Error::InvalidRequest(
                "the partner is another player".into(),
            ));
        }
        // The partner's seat is checked as every seat is (a house bot's
        // player is refused there), then the id's shape.
        let seat = SeatSpec {
            holder: Holder::Remote,
            bot: crate::bots::DEFAULT,
            name: None,
            player: Some(pid),
        };
        check_seat_spec(seat, &[me.id.as_str()], usize::MAX)?;
        if !records::valid_player_id(pid) {
            return Err(Error::InvalidRequest(
                "partner is a player id: p and 24 lowercase hex digits".into(),
            ));
        }
        let partner = self.core.load_player(pid).await?.map(|(_, p)| p);
        let partner = partner.ok_or(Error::PlayerNotFound)?;
        Ok(vec![me, partner])
    }

    /// Undoes ticket `id`, which could not join its pool: releases the
    /// players `claimed` for it and cancels it, then answers `why`.
    ///
    /// # Errors
    /// `why`; or what cancelling the ticket returns.
    async fn withdraw(&self, claimed: &[&str], id: &str, why: Error) -> Result<TicketView, Error> {
        for c in claimed {
            self.release(c, id).await;
        }
        self.finish_ticket(id, TicketStatus::Cancelled, None)
            .await?;
        Err(why)
    }

    /// A ticket, as seen by its player or partner (`key`), waiting up to
    /// `wait_ms` for it to stop waiting. It reads the ticket only, never
    /// its pool, and runs no pass: it wakes on the player's event stream
    /// (a match tells `queue_matched`), and reads the ticket again at
    /// least every housekeeping tick (an expiry tells no event).
    ///
    /// # Errors
    /// `Unauthorized`; `TicketNotFound`; `InvalidRequest` for a wait too
    /// long; `Busy` after lost races; `StoreUnavailable`.
    pub async fn ticket(&self, key: &str, id: &str, wait_ms: u64) -> Result<TicketView, Error> {
        let limits = self.svc.limits();
        if wait_ms > limits.max_wait_ms {
            return Err(Error::InvalidRequest(format!(
                "wait_ms is at most {}",
                limits.max_wait_ms
            )));
        }
        let (_, me) = self.core.authenticate(key).await?;
        self.own_ticket(&me.id, id).await?;
        let deadline = clock_now_ms() + wait_ms;
        let store = self.store();
        let (_, mut last) = store.events_after(&me.id, 0, 0).await?;
        loop {
            let view = self.view_ticket(id, None).await?;
            let now = clock_now_ms();
            if view.ticket.status != TicketStatus::Waiting || now >= deadline {
                return Ok(view);
            }
            let nap = (deadline - now).min(HOUSEKEEPING_EVERY.as_millis() as u64);
            last = store
                .wait_events(&me.id, last, Duration::from_millis(nap))
                .await?;
        }
    }

    /// Leaves the queue.
    ///
    /// # Errors
    /// `Unauthorized`; `TicketNotFound`; `TicketMatched` once matched;
    /// `Busy` after lost races; `StoreUnavailable`.
    pub async fn leave_queue(&self, key: &str, id: &str) -> Result<TicketView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let t = self.own_ticket(&me.id, id).await?;
        match t.status {
            TicketStatus::Matched => return Err(Error::TicketMatched),
            TicketStatus::Cancelled | TicketStatus::Expired => {
                return self.view_ticket(id, None).await;
            }
            TicketStatus::Waiting => {}
        }
        let mut removed = false;
        let mut formed = false;
        let mut in_transit = false;
        self.pool_write(Shard::of(t.variant, t.rated, t.rating), |pool| {
            let before = pool.waiting.len();
            pool.waiting.retain(|e| e.ticket != id);
            removed = pool.waiting.len() < before;
            formed = pool.formed.iter().any(|f| f.seats_ticket(id));
            in_transit = pool.holds_in_transit(id);
            Ok(removed)
        })
        .await?;
        if formed {
            return Err(Error::TicketMatched);
        }
        if in_transit && !removed {
            return Err(Error::Busy(
                "the ticket is being seated in a match right now; ask again".into(),
            ));
        }
        if removed {
            self.finish_ticket(id, TicketStatus::Cancelled, None)
                .await?;
            for p in std::iter::once(&t.player).chain(t.partner.as_ref()) {
                self.release(p, id).await;
            }
            tracing::info!(ticket = %id, "left the queue");
        }
        let view = self.view_ticket(id, None).await?;
        if view.ticket.status == TicketStatus::Matched {
            return Err(Error::TicketMatched);
        }
        Ok(view)
    }

    /// The ticket `id` if `player` queued with it (or is its partner).
    ///
    /// # Errors
    /// `TicketNotFound` when there is no such ticket or it is another
    /// player's; `StoreUnavailable`.
    async fn own_ticket(&self, player: &str, id: &str) -> Result<TicketRecord, Error> {
        let t = self.load_ticket(id).await?;
        if t.player == player || t.partner.as_deref() == Some(player) {
            Ok(t)
        } else {
            Err(Error::TicketNotFound)
        }
    }

    /// Ticket `id` as its player sees it now: while it waits, with its
    /// rating window and, when the caller just read it in its pool, its
    /// `position` there (1-based).
    ///
    /// # Errors
    /// `TicketNotFound`; `StoreUnavailable`.
    pub(super) async fn view_ticket(
        &self,
        id: &str,
        position: Option<usize>,
    ) -> Result<TicketView, Error> {
        let ticket = self.load_ticket(id).await?;
        let now = clock_now_ms();
        let waited_ms = ticket
            .finished_ms
            .unwrap_or(now)
            .saturating_sub(ticket.created_ms);
        let (position, window) = if ticket.status == TicketStatus::Waiting {
            let w = window(waited_ms);
            (position, Some((ticket.rating - w, ticket.rating + w)))
        } else {
            (None, None)
        };
        Ok(TicketView {
            created_at: rfc3339(ticket.created_ms),
            expires_at: rfc3339(ticket.expires_ms),
            ticket,
            position,
            waited_ms,
            window,
        })
    }
}
