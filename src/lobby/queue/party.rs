//! Parties: a pair ticket that both players' keys confirm.
//!
//! No request queues a player except with that player's key. A player
//! who wants to queue with a partner proposes a party ([`propose_party`]):
//! a record, `pending`, naming the partner and the ticket's options, and
//! a `party_invited` event on the partner's stream. Nothing is queued and
//! no player's `queued` marker is touched, so a pending invitation locks
//! nobody out of the queue: the invited player may queue on its own
//! meanwhile (and accepting is then refused while that ticket waits).
//! The partner accepts with its own key ([`accept_party`]): the party is
//! marked `accepted` by compare-and-set (so it is queued once, whoever
//! races), then the pair's ticket is queued as any ticket is, the
//! accepting partner's marker claimed first; should that fail (either
//! player waits already, the pool is full) the party is pending again and
//! the refusal answered, naming a ticket only to its own player. The
//! partner may decline; the leader may cancel while it is pending; an
//! unanswered party lapses after [`PARTY_LIFE_S`].
//!
//! [`propose_party`]: Lobby::propose_party
//! [`accept_party`]: Lobby::accept_party

use std::time::Duration;

use super::ops::{Enqueue, TicketView, check_request};
use super::record::{KEEP_FINISHED, PartyRecord, PartyStatus};
use crate::lobby::Lobby;
use crate::lobby::records::{self, PlayerEvent, PlayerRecord};
use crate::lobby::store::Doc;
use crate::lobby::update::{Step, load, update};
use crate::rating;
use crate::service::{Error, SeatPlayer, clock_now_ms, random_bytes, rfc3339};

/// How long a party waits for its partner's answer, in seconds.
pub const PARTY_LIFE_S: u64 = 600;

/// A party as one of its players sees it.
#[derive(Clone, Debug)]
pub struct PartyView {
    /// The party (its status `expired` once lapsed, even if not yet
    /// written so).
    pub party: PartyRecord,
    /// When it was proposed (RFC 3339).
    pub created_at: String,
    /// When it lapses unanswered (RFC 3339).
    pub expires_at: String,
}

impl PartyView {
    fn of(mut party: PartyRecord, now: u64) -> PartyView {
        if party.status == PartyStatus::Pending && now >= party.expires_ms {
            party.status = PartyStatus::Expired;
        }
        PartyView {
            created_at: rfc3339(party.created_ms),
            expires_at: rfc3339(party.expires_ms),
            party,
        }
    }
}

/// The queue request a party stands for.
fn enqueue_of(p: &PartyRecord) -> Enqueue {
    Enqueue {
        variant: p.variant,
        rated: p.rated,
        partner: Some(p.partner.clone()),
        accept_bots: p.accept_bots,
        only_bots: p.only_bots,
        fill_with_house_bots_after_s: p.fill_with_house_bots_after_s,
        fill_level: p.fill_level.clone(),
        expires_in_s: p.expires_in_s,
    }
}

/// The record's time to live: its life, then a day to be read.
fn party_ttl(p: &PartyRecord) -> Option<Duration> {
    let left = p.expires_ms.saturating_sub(clock_now_ms());
    Some(Duration::from_millis(left) + KEEP_FINISHED)
}

impl Lobby {
    /// Proposes a party: the player whose key is `key` asks `req.partner`
    /// to queue with it, as `req` says.
    ///
    /// # Errors
    /// `Unauthorized`; `InvalidRequest` for a bad request (no partner,
    /// not the pairs game, the caller itself, a house bot);
    /// `PlayerNotFound` for a partner who is not registered;
    /// `StoreUnavailable`.
    pub async fn propose_party(&self, key: &str, req: Enqueue) -> Result<PartyView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        if req.partner.is_none() {
            return Err(Error::InvalidRequest(
                "a party names its partner: a player id".into(),
            ));
        }
        if !req.variant.table().pairs {
            return Err(Error::InvalidRequest(
                "a party is for the pairs game only".into(),
            ));
        }
        check_request(&req)?;
        let from = SeatPlayer {
            id: me.id.clone(),
            name: me.name.clone(),
            kind: me.kind,
        };
        let players = self.ticket_players(me, req.partner.as_deref()).await?;
        let now = clock_now_ms();
        let party = PartyRecord {
            id: format!("y{}", hex::encode(random_bytes::<12>()?)),
            leader: players[0].id.clone(),
            partner: players[1].id.clone(),
            variant: req.variant,
            rated: req.rated,
            accept_bots: req.accept_bots,
            only_bots: req.only_bots,
            fill_with_house_bots_after_s: req.fill_with_house_bots_after_s,
            fill_level: req.fill_level.clone(),
            expires_in_s: req.expires_in_s,
            status: PartyStatus::Pending,
            ticket_id: None,
            created_ms: now,
            expires_ms: now + PARTY_LIFE_S * 1000,
        };
        let state = records::encode(&party)?;
        if !self
            .store()
            .insert(Doc::Party, &party.id, &state, party_ttl(&party))
            .await?
        {
            return Err(Error::Internal("party id collision".into()));
        }
        let event = PlayerEvent::PartyInvited {
            party_id: party.id.clone(),
            from,
            variant: rating::pool(party.variant).to_string(),
            rated: party.rated,
            expires_at: rfc3339(party.expires_ms),
        };
        self.core.publish(&party.partner, &event).await;
        tracing::info!(party = %party.id, leader = %party.leader, "party proposed");
        Ok(PartyView::of(party, now))
    }

    /// Party `id` as its leader or partner (`key`) sees it.
    ///
    /// # Errors
    /// `Unauthorized`; `PartyNotFound` (also for a player not in it);
    /// `StoreUnavailable`.
    pub async fn party(&self, key: &str, id: &str) -> Result<PartyView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let party = self.own_party(&me.id, id).await?;
        Ok(PartyView::of(party, clock_now_ms()))
    }

    /// The invited partner (`key`) accepts party `id`: the pair queues.
    /// Answers the pair's ticket.
    ///
    /// # Errors
    /// `Unauthorized`; `PartyNotFound`; `Forbidden` for its leader;
    /// `PartyClosed` once accepted, declined, cancelled or lapsed;
    /// `PlayerNotFound` when the leader is no longer registered;
    /// `AlreadyQueued` when either player waits already (the party stays
    /// pending); `QueueFull`; `Busy`; `StoreUnavailable`.
    pub async fn accept_party(&self, key: &str, id: &str) -> Result<TicketView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let party = self.answer_party(&me.id, id, PartyStatus::Accepted).await?;
        let leader = self.core.load_player(&party.leader).await;
        let queued = match leader {
            Ok(Some((_, leader))) => {
                let players: Vec<PlayerRecord> = vec![leader, me.clone()];
                self.queue_players(&me.id, players, &enqueue_of(&party))
                    .await
            }
            Ok(None) => Err(Error::PlayerNotFound),
            Err(e) => Err(e),
        };
        let ticket = queued.as_ref().ok().map(|t| t.ticket.id.clone());
        self.settle_party(id, ticket.clone()).await?;
        let view = queued?;
        let event = PlayerEvent::PartyAccepted {
            party_id: id.to_string(),
            ticket_id: view.ticket.id.clone(),
        };
        self.core.publish(&party.leader, &event).await;
        Ok(view)
    }

    /// The invited partner (`key`) declines party `id`.
    ///
    /// # Errors
    /// As [`accept_party`](Self::accept_party) before queueing.
    pub async fn decline_party(&self, key: &str, id: &str) -> Result<PartyView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let party = self.answer_party(&me.id, id, PartyStatus::Declined).await?;
        let event = PlayerEvent::PartyDeclined {
            party_id: id.to_string(),
        };
        self.core.publish(&party.leader, &event).await;
        Ok(PartyView::of(party, clock_now_ms()))
    }

    /// The leader (`key`) withdraws its pending party `id`.
    ///
    /// # Errors
    /// `Unauthorized`; `PartyNotFound`; `Forbidden` for the partner (who
    /// declines instead); `PartyClosed` once it is no longer pending;
    /// `Busy`; `StoreUnavailable`.
    pub async fn cancel_party(&self, key: &str, id: &str) -> Result<PartyView, Error> {
        let (_, me) = self.core.authenticate(key).await?;
        let party = self.own_party(&me.id, id).await?;
        if party.leader != me.id {
            return Err(Error::Forbidden(
                "only the player who proposed a party cancels it; decline it instead".into(),
            ));
        }
        let party = self.close_party(id, PartyStatus::Cancelled).await?;
        let event = PlayerEvent::PartyCancelled {
            party_id: id.to_string(),
        };
        self.core.publish(&party.partner, &event).await;
        Ok(PartyView::of(party, clock_now_ms()))
    }

    /// Party `id` if `player` is its leader or partner.
    ///
    /// # Errors
    /// `PartyNotFound`; `StoreUnavailable`.
    async fn own_party(&self, player: &str, id: &str) -> Result<PartyRecord, Error> {
        let (_, party): (u64, PartyRecord) =
            load(self.store(), Doc::Party, id, || Error::PartyNotFound).await?;
        if party.leader == player || party.partner == player {
            Ok(party)
        } else {
            Err(Error::PartyNotFound)
        }
    }

    /// The partner `player` answers party `id` with `status`.
    ///
    /// # Errors
    /// `PartyNotFound`; `Forbidden` for the leader; `PartyClosed`.
    async fn answer_party(
        &self,
        player: &str,
        id: &str,
        status: PartyStatus,
    ) -> Result<PartyRecord, Error> {
        let party = self.own_party(player, id).await?;
        if party.partner != player {
            return Err(Error::Forbidden(
                "only the invited partner answers a party".into(),
            ));
        }
        self.close_party(id, status).await
    }

    /// Moves pending party `id` to `status`, by compare-and-set; a lapsed
    /// one is written `expired` and refused.
    ///
    /// # Errors
    /// `PartyNotFound`; `PartyClosed` when it is not pending (or lapsed);
    /// `Busy`; `StoreUnavailable`.
    async fn close_party(&self, id: &str, status: PartyStatus) -> Result<PartyRecord, Error> {
        let now = clock_now_ms();
        let closed = self
            .update_party(id, |p| {
                if p.status == PartyStatus::Pending && now >= p.expires_ms {
                    p.status = PartyStatus::Expired;
                    return Ok(Step::Write(false));
                }
                if p.status != PartyStatus::Pending {
                    return Ok(Step::Keep(false));
                }
                p.status = status;
                Ok(Step::Write(true))
            })
            .await?;
        if closed.answer {
            return Ok(closed.record);
        }
        let status = serde_json::to_value(closed.record.status).unwrap_or_default();
        Err(Error::PartyClosed(format!(
            "the party is {}; nothing changed",
            status.as_str().unwrap_or("closed")
        )))
    }

    /// After an accepted party's queueing: records its `ticket`, or, when
    /// queueing failed, makes it pending again.
    ///
    /// # Errors
    /// `Busy`; `StoreUnavailable`.
    async fn settle_party(&self, id: &str, ticket: Option<String>) -> Result<(), Error> {
        self.update_party(id, |p| {
            p.status = if ticket.is_some() {
                PartyStatus::Accepted
            } else {
                PartyStatus::Pending
            };
            p.ticket_id.clone_from(&ticket);
            Ok(Step::Write(()))
        })
        .await
        .map(drop)
    }

    /// Changes party `id` by compare-and-set.
    ///
    /// # Errors
    /// `PartyNotFound`; what `change` returns; `Busy`; `StoreUnavailable`.
    async fn update_party<R>(
        &self,
        id: &str,
        change: impl FnMut(&mut PartyRecord) -> Result<Step<R>, Error>,
    ) -> Result<crate::lobby::update::Updated<PartyRecord, R>, Error> {
        update(
            self.store(),
            Doc::Party,
            id,
            party_ttl,
            || Error::PartyNotFound,
            change,
        )
        .await
    }
}
