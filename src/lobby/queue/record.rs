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

/// A pool document.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PoolRecord {
    /// Waiting tickets, oldest first.
    pub waiting: Vec<Entry>,
    /// Formed matches still to be finished.
    pub formed: Vec<Formed>,
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
