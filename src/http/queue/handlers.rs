//! `/v1/queue`: joining the matchmaking queue, following a ticket, leaving.

use actix_web::web::{Data, Path, Query};
use actix_web::{HttpResponse, delete, get, post};
use serde::Deserialize;
use utoipa::IntoParams;

use super::wire::{QueueRequest, Ticket};
use crate::http::middleware::extract::{Bearer, JsonBytes, parse_body, player_key};
use crate::http::problem::{ApiError, Problem};
use crate::http::respond;
use crate::lobby::Lobby;

/// Queue for a match.
///
/// The ticket waits in the pool of its variant, rated or casual, and is
/// paired with tickets whose rating is within both windows (±100, widening
/// by 50 every 10 s of waiting, up to ±1000). The match is created with
/// the variant's standard rules, hands dealt automatically, every player
/// acting with its own key. Learn of it by polling the ticket or on the
/// player's event stream (`queue_matched`, `match_started`).
///
/// Refused with 400 although each field is valid: any `partner` (a
/// partner queues only through a party it accepts with its own key:
/// `POST /v1/queue/parties`), `only_bots` or
/// `fill_with_house_bots_after_s` without `accept_bots`. A full pool is
/// `507 queue_full`.
#[utoipa::path(
    tag = "queue",
    operation_id = "queue_join",
    security(("player_key" = [])),
    request_body(content = QueueRequest, examples(
        ("rated pairs" = (value = json!({"variant": "pairs"}))),
        ("casual abarrotada, house bots after 30 s" = (value = json!({"variant": "abarrotada", "rated": false, "fill_with_house_bots_after_s": 30}))),
        ("a lone player against hard house bots after 5 s" = (value = json!({"variant": "pairs", "rated": false, "fill_with_house_bots_after_s": 5, "fill_level": "hard"}))),
        ("bots only, three players" = (value = json!({"variant": "abarrotada3", "only_bots": true}))),
    )),
    responses(
        (status = 201, description = "Queued (or already matched): the ticket", body = Ticket),
        (status = 400, description = "Bad request, or a `partner` (use a party)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The player waits in the queue already (`already_queued`, naming its own ticket)", body = Problem, content_type = "application/problem+json"),
        (status = 507, description = "The pool holds as many waiting tickets as it may (`queue_full`)", body = Problem, content_type = "application/problem+json"),
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
    let ticket = lobby.enqueue(&key, req.into()).await?;
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
