//! `/v1/queue`: the matchmaking queue, with its wire types.

use actix_web::web::{Data, Path, Query};
use actix_web::{HttpResponse, delete, get, post};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::players::player_key;
use crate::http::middleware::extract::{Bearer, JsonBytes, parse_body};
use crate::http::openapi::schema::SeatNumber;
use crate::http::problem::{ApiError, Problem};
use crate::http::respond;
use crate::lobby::Lobby;
use crate::lobby::queue::{self, TicketStatus as Status};
use crate::rules::{Seat, Variant};

/// The body of `POST /v1/queue`.
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
    /// Pairs only: a registered player (its id) who sits opposite. Its key
    /// is not needed; it must not be waiting in the queue itself.
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
    /// filled with house bots of the level nearest the players' ratings
    /// (needs `accept_bots`).
    #[schema(minimum = 0, maximum = 3600)]
    pub fill_with_house_bots_after_s: Option<u64>,
    /// Seconds until the ticket expires unmatched (1 to 3600; default 600).
    #[schema(minimum = 1, maximum = 3600)]
    pub expires_in_s: Option<u64>,
}

fn yes() -> bool {
    true
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
    /// Place among the pool's waiting tickets, oldest first (waiting).
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

/// Queue for a match.
///
/// The ticket waits in the pool of its variant, rated or casual, and is
/// paired with tickets whose rating is within both windows (±100, widening
/// by 50 every 10 s of waiting, up to ±1000). The match is created with
/// the variant's standard rules, hands dealt automatically, every player
/// acting with its own key. Learn of it by polling the ticket or on the
/// player's event stream (`queue_matched`, `match_started`).
///
/// Refused with 400 although each field is valid: a `partner` outside the
/// pairs game or the caller itself, `only_bots` or
/// `fill_with_house_bots_after_s` without `accept_bots`.
#[utoipa::path(
    tag = "queue",
    operation_id = "queue_join",
    security(("player_key" = [])),
    request_body(content = QueueRequest, examples(
        ("rated pairs" = (value = json!({"variant": "pairs"}))),
        ("casual abarrotada, house bots after 30 s" = (value = json!({"variant": "abarrotada", "rated": false, "fill_with_house_bots_after_s": 30}))),
        ("bots only, three players" = (value = json!({"variant": "abarrotada3", "only_bots": true}))),
    )),
    responses(
        (status = 201, description = "Queued (or already matched): the ticket", body = Ticket),
        (status = 400, description = "Bad request or partner", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The partner is no registered player (`player_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The player or its partner waits in the queue already (`already_queued`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/queue")]
pub async fn join_queue(
    lobby: Data<Lobby>,
    bearer: Bearer,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let req: QueueRequest = parse_body(&body)?;
    let ticket = lobby
        .enqueue(
            &key,
            queue::Enqueue {
                variant: req.variant,
                rated: req.rated,
                partner: req.partner,
                accept_bots: req.accept_bots,
                only_bots: req.only_bots,
                fill_with_house_bots_after_s: req.fill_with_house_bots_after_s,
                expires_in_s: req.expires_in_s,
            },
        )
        .await?;
    let location = format!("/v1/queue/{}", ticket.ticket.id);
    Ok(respond::created(location).json(Ticket::from(ticket)))
}

/// Query of `GET /v1/queue/{ticket}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TicketQuery {
    /// Long poll: wait up to this long for the ticket to stop waiting
    /// (default 0, at most 30000).
    #[param(minimum = 0, maximum = 30000)]
    pub wait_ms: Option<u64>,
}

/// A ticket of the caller (or of its partner): waiting, matched (the
/// match and seat), cancelled or expired.
#[utoipa::path(
    tag = "queue",
    operation_id = "queue_ticket",
    params(
        ("ticket" = String, Path, description = "Ticket id"),
        TicketQuery,
    ),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "The ticket", body = Ticket),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such ticket of this player", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/queue/{ticket}")]
pub async fn get_ticket(
    lobby: Data<Lobby>,
    bearer: Bearer,
    id: Path<String>,
    q: Query<TicketQuery>,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let ticket = lobby.ticket(&key, &id, q.wait_ms.unwrap_or(0)).await?;
    Ok(HttpResponse::Ok().json(Ticket::from(ticket)))
}

/// Leave the queue. A ticket already cancelled or expired is answered as
/// it is; a matched one cannot be left (play the match, or resign).
#[utoipa::path(
    tag = "queue",
    operation_id = "queue_leave",
    params(("ticket" = String, Path, description = "Ticket id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "Left: the ticket, `cancelled`", body = Ticket),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such ticket of this player", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The ticket was matched (`ticket_matched`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/queue/{ticket}")]
pub async fn leave_queue(
    lobby: Data<Lobby>,
    bearer: Bearer,
    id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let ticket = lobby.leave_queue(&key, &id).await?;
    Ok(HttpResponse::Ok().json(Ticket::from(ticket)))
}
