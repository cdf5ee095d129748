//! The request and response types of the matchmaking queue, with their
//! OpenAPI schemas: a queue request and a ticket.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::http::openapi::schema::SeatNumber;
use crate::lobby::queue::{self, TicketStatus as Status};
use crate::rules::{Seat, Variant};

/// The body of `POST /v1/queue` and of `POST /v1/queue/parties`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QueueRequest {
    /// `pairs`, `abarrotada` or `abarrotada3`.
    pub variant: Variant,
    /// A rated match (default `true`) or a casual one; rated and casual
    /// tickets wait in separate pools.
    #[serde(default = "yes")]
    #[schema(required = false)]
    pub rated: bool,
    /// `POST /v1/queue/parties`: the registered player (its id) invited to
    /// sit opposite (pairs only; required). `POST /v1/queue`: refused
    /// (`400`), since it would queue a player without its key: queue with
    /// a partner through a party, which the partner accepts.
    #[schema(pattern = "^p[0-9a-f]{24}$", min_length = 25, max_length = 25)]
    pub partner: Option<String>,
    /// Accept opponents or partners whose player is a bot (default `true`).
    #[serde(default = "yes")]
    #[schema(required = false)]
    pub accept_bots: bool,
    /// Play only with bots (needs `accept_bots`).
    #[serde(default)]
    #[schema(required = false)]
    pub only_bots: bool,
    /// After waiting this long (0 to 3600 s), the seats still empty are
    /// filled with house bots: of the level `fill_level` names, else of
    /// the level nearest the players' ratings (needs `accept_bots`).
    #[schema(minimum = 0, maximum = 3600)]
    pub fill_with_house_bots_after_s: Option<u64>,
    /// The house bot level of that fill (`random`, `easy`, `medium`,
    /// `hard`, `expert`; needs `fill_with_house_bots_after_s`) instead of
    /// the level nearest the players' ratings. In a group of several
    /// tickets, the oldest ticket that names a level decides.
    #[schema(max_length = 32, pattern = "^[a-z0-9_-]+$", example = "hard")]
    pub fill_level: Option<String>,
    /// Seconds until the ticket expires unmatched (1 to 3600; default 600).
    #[schema(minimum = 1, maximum = 3600)]
    pub expires_in_s: Option<u64>,
}

fn yes() -> bool {
    true
}

impl From<QueueRequest> for queue::Enqueue {
    fn from(req: QueueRequest) -> queue::Enqueue {
        queue::Enqueue {
            variant: req.variant,
            rated: req.rated,
            partner: req.partner,
            accept_bots: req.accept_bots,
            only_bots: req.only_bots,
            fill_with_house_bots_after_s: req.fill_with_house_bots_after_s,
            fill_level: req.fill_level,
            expires_in_s: req.expires_in_s,
        }
    }
}

/// Where a ticket stands.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TicketStatus {
    /// In its pool.
    Waiting,
    /// Seated: `match_id` and `seat` tell where.
    Matched,
    /// Left the queue.
    Cancelled,
    /// Waited its whole life unmatched.
    Expired,
}

impl From<Status> for TicketStatus {
    fn from(s: Status) -> TicketStatus {
        match s {
            Status::Waiting => TicketStatus::Waiting,
            Status::Matched => TicketStatus::Matched,
            Status::Cancelled => TicketStatus::Cancelled,
            Status::Expired => TicketStatus::Expired,
        }
    }
}

/// The ratings a waiting ticket is paired with now.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RatingWindow {
    /// Lowest rating.
    #[schema(example = 1400.0)]
    pub min: f64,
    /// Highest rating.
    #[schema(example = 1600.0)]
    pub max: f64,
}

/// A matchmaking ticket.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Ticket {
    /// The ticket id.
    #[schema(example = "q1f2e3d4c5b6a79880716253")]
    pub ticket_id: String,
    /// `waiting`, `matched`, `cancelled` or `expired`.
    pub status: TicketStatus,
    /// The variant.
    pub variant: Variant,
    /// Rated or casual.
    pub rated: bool,
    /// The player who queued.
    #[schema(example = "p6f1c0a9e2b4d8c7a5e3f1b2c")]
    pub player: String,
    /// Its partner (pairs).
    pub partner: Option<String>,
    /// The rating it is paired by (a pair's mean).
    #[schema(example = 1500.0)]
    pub rating: f64,
    /// Place among the waiting tickets of its pool's rating band (200
    /// points wide), oldest first: in the answer to queueing only (`null`
    /// when read later: reads never load the pool).
    pub position: Option<usize>,
    /// Milliseconds waited.
    pub waited_ms: u64,
    /// The rating window now (waiting): ±100, widening by 50 every 10 s
    /// of waiting, up to ±1000.
    pub window: Option<RatingWindow>,
    /// The match (matched): act in it with the player's key.
    pub match_id: Option<String>,
    /// The player's seat (matched).
    #[schema(value_type = Option<SeatNumber>)]
    pub seat: Option<Seat>,
    /// The partner's seat (matched, pairs).
    #[schema(value_type = Option<SeatNumber>)]
    pub partner_seat: Option<Seat>,
    /// When it was queued (RFC 3339).
    pub created_at: String,
    /// When it expires unmatched (RFC 3339).
    pub expires_at: String,
}

impl From<queue::TicketView> for Ticket {
    fn from(v: queue::TicketView) -> Ticket {
        let queue::TicketView {
            ticket,
            position,
            waited_ms,
            window,
            created_at,
            expires_at,
        } = v;
        Ticket {
            ticket_id: ticket.id,
            status: ticket.status.into(),
            variant: ticket.variant,
            rated: ticket.rated,
            player: ticket.player,
            partner: ticket.partner,
            rating: ticket.rating,
            position,
            waited_ms,
            window: window.map(|(min, max)| RatingWindow { min, max }),
            match_id: ticket.match_id,
            seat: ticket.seat,
            partner_seat: ticket.partner_seat,
            created_at,
            expires_at,
        }
    }
}
