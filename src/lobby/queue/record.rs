//! What the queue keeps in the lobby store, and under which ids.
//!
//! Three kinds of document: a [`TicketRecord`] per ticket (`Doc::Ticket`,
//! readable by its player for [`KEEP_FINISHED`] after it stops waiting),
//! a [`PoolRecord`] per variant and rated/casual pool (`Doc::QueuePool`:
//! the waiting [`Entry`]s, oldest first, and the [`Formed`] matches not
//! yet finished), and a [`QueuedRecord`] per player (`Doc::Queued`: its
//! one waiting ticket, so that a player never waits twice); besides, a
//! [`PartyRecord`] per party (`Doc::Party`) and a [`DueRecord`] beside
//! each pool (when it next needs a pass). A pool entry
//! is a copy of what the matching pass needs from its ticket, so that a
//! pass reads one document per pool, not one per ticket. Plain data: the
//! reads and writes are in the sibling modules.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::rating;
use crate::rules::{Seat, Variant};

/// Default life of a ticket, in seconds.
pub const DEFAULT_EXPIRY_S: u64 = 600;
/// Longest life of a ticket, in seconds.
pub const MAX_EXPIRY_S: u64 = 3600;
/// How long a finished ticket stays readable.
pub(super) const KEEP_FINISHED: Duration = Duration::from_secs(24 * 3600);

/// Where a ticket stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TicketStatus {
    /// In its pool.
    Waiting,
    /// Seated in a match.
    Matched,
    /// Left the queue.
    Cancelled,
    /// Waited its whole life unmatched.
    Expired,
}

/// A ticket as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TicketRecord {
    /// `q` and 24 hex digits.
    pub id: String,
    /// The player who queued.
    pub player: String,
    /// Its partner (pairs).
    pub partner: Option<String>,
    /// The variant.
    pub variant: Variant,
    /// Rated or casual.
    pub rated: bool,
    /// The players' rating in the pool when queued (a pair's mean).
    pub rating: f64,
    /// Where it stands.
    pub status: TicketStatus,
    /// The match, once matched.
    pub match_id: Option<String>,
    /// The player's seat, once matched.
    pub seat: Option<Seat>,
    /// The partner's seat, once matched.
    pub partner_seat: Option<Seat>,
    /// When it was queued (ms since the epoch).
    pub created_ms: u64,
    /// When it expires unmatched.
    pub expires_ms: u64,
    /// When it stopped waiting.
    pub finished_ms: Option<u64>,
}

/// A waiting ticket in its pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The ticket id.
    pub ticket: String,
    /// Its players (two for a pair ticket, who sit opposite).
    pub players: Vec<String>,
    /// Whether each is a bot.
    pub bots: Vec<bool>,
    /// The rating it is paired by.
    pub rating: f64,
    /// Accepts tickets with bot players.
    pub accept_bots: bool,
    /// Accepts only tickets whose players are all bots.
    pub only_bots: bool,
    /// When its seats left open are filled with house bots.
    pub fill_at_ms: Option<u64>,
    /// The house bot those seats take, if the ticket asked for a level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill_level: Option<String>,
    /// When it was queued.
    pub created_ms: u64,
    /// When it expires.
    pub expires_ms: u64,
}

/// A seat of a formed match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormedSeat {
    /// The player seated (remote seat), or…
    pub player: Option<String>,
    /// …the house bot.
    pub bot: Option<String>,
    /// The ticket that brought the player.
    pub ticket: Option<String>,
}

/// A match formed by a pass and not yet known to be finished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Formed {
    /// The id its match is created under.
    pub match_id: String,
    /// Every seat, in seat order.
    pub seats: Vec<FormedSeat>,
}

impl Formed {
    /// The seat where `player` sits, if it does.
    pub fn seat_of(&self, player: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.player.as_deref() == Some(player))
            .map(|s| s as Seat)
    }

    /// The tickets seated, each once, in the order of their first seat.
    pub fn tickets(&self) -> Vec<&str> {
        let mut tickets: Vec<&str> = Vec::new();
        for t in self.seats.iter().filter_map(|s| s.ticket.as_deref()) {
            if !tickets.contains(&t) {
                tickets.push(t);
            }
        }
        tickets
    }

    /// Whether ticket `id` has a seat here.
    pub fn seats_ticket(&self, id: &str) -> bool {
        self.seats.iter().any(|s| s.ticket.as_deref() == Some(id))
    }
}

/// A pool document: one shard (a rating band) of a variant's rated or
/// casual pool.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PoolRecord {
    /// Waiting tickets, oldest first.
    pub waiting: Vec<Entry>,
    /// Formed matches still to be finished.
    pub formed: Vec<Formed>,
    /// Groups this shard's pass formed with tickets of other shards, and
    /// where borrowing those tickets stands (see `shards.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub importing: Vec<Import>,
    /// This shard's tickets lent to a group another shard formed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lent: Vec<Lent>,
    /// Groups whose borrowing was called off here, so that a late
    /// request to lend for them is refused (kept [`CLOSED_KEEP_MS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed: Vec<Closed>,
}

/// How long a called-off group is remembered by the shards that lent to
/// it: far longer than any resolution takes.
pub const CLOSED_KEEP_MS: u64 = 600_000;

/// Where a group with borrowed tickets stands in the shard that formed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportState {
    /// Borrowing its tickets from the other shards.
    Pending,
    /// Every ticket borrowed: the group is in `formed`; the lenders still
    /// hold a note of the loan to drop.
    Formed,
    /// Some ticket could not be borrowed: the shard's own tickets went
    /// back to waiting; the lenders still have loans to give back.
    Cancelled,
}

/// A group formed with tickets of other shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Import {
    /// The group, seated as it will play.
    pub formed: Formed,
    /// This shard's tickets in it, out of `waiting` meanwhile.
    pub own: Vec<Entry>,
    /// The other shards' tickets in it, as this shard read them.
    pub foreign: Vec<Entry>,
    /// Where it stands.
    pub state: ImportState,
}

/// Tickets a shard lent to a group formed elsewhere.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lent {
    /// The group's match id.
    pub match_id: String,
    /// The tickets, out of `waiting` while lent.
    pub entries: Vec<Entry>,
}

/// A group whose borrowing this shard saw called off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Closed {
    /// The group's match id.
    pub match_id: String,
    /// When (ms since the epoch).
    pub at_ms: u64,
}

impl PoolRecord {
    /// Whether ticket `id` is held by a group being formed across shards
    /// (borrowed here, or lent from here).
    pub fn holds_in_transit(&self, id: &str) -> bool {
        self.importing
            .iter()
            .any(|i| i.state == ImportState::Pending && i.own.iter().any(|e| e.ticket == id))
            || self
                .lent
                .iter()
                .any(|l| l.entries.iter().any(|e| e.ticket == id))
    }

    /// Puts `entries` back among the waiting tickets, oldest first.
    pub fn restore(&mut self, entries: &[Entry]) {
        for e in entries {
            if self.waiting.iter().any(|w| w.ticket == e.ticket) {
                continue;
            }
            let at = self
                .waiting
                .partition_point(|w| (w.created_ms, &w.ticket) <= (e.created_ms, &e.ticket));
            self.waiting.insert(at, e.clone());
        }
    }
}

/// Width of a shard's rating band.
pub const BAND_WIDTH: f64 = 200.0;
/// Bands per pool: ratings from 0 to 3,600 and beyond (the last band
/// takes every rating above, the first every rating below).
pub const BANDS: u32 = 18;

/// The band of a rating.
pub fn band_of(rating: f64) -> u32 {
    let b = (rating / BAND_WIDTH).floor();
    if b.is_nan() || b < 0.0 {
        0
    } else {
        (b as u32).min(BANDS - 1)
    }
}

/// One shard of the queue: a rating band of a variant's rated or casual
/// pool, stored as one [`PoolRecord`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// The variant.
    pub variant: Variant,
    /// Rated or casual.
    pub rated: bool,
    /// The rating band.
    pub band: u32,
}

impl Shard {
    /// The shard a ticket rated `rating` waits in.
    pub fn of(variant: Variant, rated: bool, rating: f64) -> Shard {
        Shard {
            variant,
            rated,
            band: band_of(rating),
        }
    }

    /// The same pool's shard of band `band`.
    pub fn at(self, band: u32) -> Shard {
        Shard { band, ..self }
    }

    /// Its document's id.
    pub fn id(self) -> String {
        format!("{}.b{}", pool_id(self.variant, self.rated), self.band)
    }

    /// The lowest and highest rating of its band (the outer bands are
    /// open on their outer side).
    pub fn bounds(self) -> (f64, f64) {
        let lo = if self.band == 0 {
            f64::NEG_INFINITY
        } else {
            f64::from(self.band) * BAND_WIDTH
        };
        let hi = if self.band + 1 >= BANDS {
            f64::INFINITY
        } else {
            f64::from(self.band + 1) * BAND_WIDTH
        };
        (lo, hi)
    }
}

/// A player's `queued` document: the ticket it last queued with, which
/// blocks a new ticket only while it still waits. Created by the
/// player's first ticket and never deleted (a missing one reads as
/// empty).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct QueuedRecord {
    /// The player's ticket, if one may still be waiting.
    pub(super) ticket: Option<String>,
}

/// Where a party stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartyStatus {
    /// Waiting for the invited partner's answer.
    Pending,
    /// Accepted: the pair's ticket is queued.
    Accepted,
    /// The partner said no.
    Declined,
    /// The leader withdrew it.
    Cancelled,
    /// Unanswered in its time.
    Expired,
}

/// A queue party as stored: a pair ticket the leader proposed, queued
/// only once the partner accepts it with its own key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartyRecord {
    /// `y` and 24 hex digits.
    pub id: String,
    /// The player who proposed it (the ticket's player).
    pub leader: String,
    /// The player invited to sit opposite.
    pub partner: String,
    /// The variant (pairs).
    pub variant: Variant,
    /// Rated or casual.
    pub rated: bool,
    /// The queue options of the ticket to be.
    pub accept_bots: bool,
    /// Play only with bots.
    pub only_bots: bool,
    /// Fill with house bots after this wait.
    pub fill_with_house_bots_after_s: Option<u64>,
    /// The level of those house bots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill_level: Option<String>,
    /// The ticket's life once queued.
    pub expires_in_s: Option<u64>,
    /// Where it stands.
    pub status: PartyStatus,
    /// The pair's ticket, once accepted.
    pub ticket_id: Option<String>,
    /// When it was proposed (ms since the epoch).
    pub created_ms: u64,
    /// When the invitation lapses unanswered.
    pub expires_ms: u64,
}

/// When a pool next needs a pass, as the pass on its version `version`
/// found (`Doc::QueuePool` under [`due_id`]): a small document, so that
/// the housekeeping reads a few bytes, not the pool, to learn that
/// nothing is due.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct DueRecord {
    /// The pool's version the pass wrote or read.
    pub(super) version: u64,
    /// When the pool is due; `None` when only a new ticket can match.
    pub(super) due_ms: Option<u64>,
}

/// The id of pool `pool_id`'s due document.
pub(super) fn due_id(pool_id: &str) -> String {
    format!("{pool_id}.due")
}

/// The pool document's id: the rating pool of `variant`, then `-rated`
/// or `-casual`.
pub(super) fn pool_id(variant: Variant, rated: bool) -> String {
    format!(
        "{}-{}",
        rating::pool(variant),
        if rated { "rated" } else { "casual" }
    )
}

/// Every pool: each queueable variant, rated and casual.
pub(super) fn pools() -> Vec<(Variant, bool)> {
    Variant::ALL
        .into_iter()
        .flat_map(|v| [(v, true), (v, false)])
        .collect()
}

/// Every shard of every pool.
pub(super) fn shards() -> Vec<Shard> {
    pools()
        .into_iter()
        .flat_map(|(variant, rated)| {
            (0..BANDS).map(move |band| Shard {
                variant,
                rated,
                band,
            })
        })
        .collect()
}
