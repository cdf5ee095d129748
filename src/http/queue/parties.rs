//! `/v1/queue/parties`: queueing with a partner, which both players'
//! keys confirm: one proposes, the other accepts (or declines).

use actix_web::web::{Data, Path};
use actix_web::{HttpResponse, delete, get, post};
use serde::Serialize;
use utoipa::ToSchema;

use super::wire::{QueueRequest, Ticket};
use crate::http::middleware::extract::{Bearer, JsonBytes, parse_body, player_key};
use crate::http::problem::{ApiError, Problem};
use crate::http::respond;
use crate::lobby::Lobby;
use crate::lobby::queue::{self, PartyStatus as Status};
use crate::rules::Variant;

/// Where a party stands.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PartyStatus {
    /// Waiting for the partner's answer.
    Pending,
    /// Accepted: `ticket_id` is the pair's ticket.
    Accepted,
    /// The partner declined.
    Declined,
    /// The leader withdrew it.
    Cancelled,
    /// Unanswered in its 10 minutes.
    Expired,
}

impl From<Status> for PartyStatus {
    fn from(s: Status) -> PartyStatus {
        match s {
            Status::Pending => PartyStatus::Pending,
            Status::Accepted => PartyStatus::Accepted,
            Status::Declined => PartyStatus::Declined,
            Status::Cancelled => PartyStatus::Cancelled,
            Status::Expired => PartyStatus::Expired,
        }
    }
}

/// A queue party, as its two players see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Party {
    /// The party id.
    #[schema(example = "y1f2e3d4c5b6a79880716253")]
    pub party_id: String,
    /// `pending`, `accepted`, `declined`, `cancelled` or `expired`.
    pub status: PartyStatus,
    /// The player who proposed it (the ticket's player).
    pub leader: String,
    /// The player invited to sit opposite.
    pub partner: String,
    /// The variant.
    pub variant: Variant,
    /// Rated or casual.
    pub rated: bool,
    /// Accept bots.
    pub accept_bots: bool,
    /// Only bots.
    pub only_bots: bool,
    /// House bots after this wait, once queued.
    pub fill_with_house_bots_after_s: Option<u64>,
    /// The level of those house bots (none: the level nearest the
    /// ratings).
    pub fill_level: Option<String>,
    /// The ticket's life once queued.
    pub expires_in_s: Option<u64>,
    /// The pair's ticket (accepted): both players read it with their keys.
    pub ticket_id: Option<String>,
    /// When it was proposed (RFC 3339).
    pub created_at: String,
    /// When it lapses unanswered (RFC 3339).
    pub expires_at: String,
}

impl From<queue::PartyView> for Party {
    fn from(v: queue::PartyView) -> Party {
        let p = v.party;
        Party {
            party_id: p.id,
            status: p.status.into(),
            leader: p.leader,
            partner: p.partner,
            variant: p.variant,
            rated: p.rated,
            accept_bots: p.accept_bots,
            only_bots: p.only_bots,
            fill_with_house_bots_after_s: p.fill_with_house_bots_after_s,
            fill_level: p.fill_level,
            expires_in_s: p.expires_in_s,
            ticket_id: p.ticket_id,
            created_at: v.created_at,
            expires_at: v.expires_at,
        }
    }
}

/// Propose a party: ask another player to queue with you as your partner.
///
/// The body is a queue request naming its `partner` (required here).
/// Nothing is queued yet, and the partner is not held: it hears
/// `party_invited` on its event stream and accepts with its own key
/// (`POST /v1/queue/parties/{party}/accept`), which queues the pair's
/// ticket, or declines. Unanswered, the party lapses after 10 minutes.
/// Counts against the creates-per-minute limit.
#[utoipa::path(
    tag = "queue",
    operation_id = "queue_party_propose",
    security(("player_key" = [])),
    request_body(content = QueueRequest, examples(
        ("rated pairs with a friend" = (description = "The ids are placeholders of the id form (`p` and 24 hex digits): put those of registered players, from `POST /v1/players` (`player.id`) or `GET /v1/leaderboard` (`player_id`).", value = json!({"partner": "p6f1c0a9e2b4d8c7a5e3f1b2c", "variant": "pairs"}))),
    )),
    responses(
        (status = 201, description = "Proposed: the party, `pending`", body = Party),
        (status = 400, description = "Bad request, not the pairs game, or the partner is the caller or a house bot", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "The partner is no registered player (`player_not_found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/queue/parties")]
pub async fn propose_party(
    lobby: Data<Lobby>,
    bearer: Bearer,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let req: QueueRequest = parse_body(&body)?;
    let party = lobby.propose_party(&key, req.into()).await?;
    let location = format!("/v1/queue/parties/{}", party.party.id);
    Ok(respond::created(location).json(Party::from(party)))
}

/// A party of the caller (its leader or its partner).
#[utoipa::path(
    tag = "queue",
    operation_id = "queue_party",
    params(("party" = String, Path, description = "Party id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "The party", body = Party),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such party of this player (`party_not_found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/queue/parties/{party}")]
pub async fn get_party(
    lobby: Data<Lobby>,
    bearer: Bearer,
    id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let party = lobby.party(&key, &id).await?;
    Ok(HttpResponse::Ok().json(Party::from(party)))
}

/// Accept a party (its invited partner's key): the pair's ticket is
/// queued, both players sitting opposite once matched.
///
/// Refused while either player waits in the queue (`409
/// already_queued`, naming a ticket only to its own player; the party
/// stays pending).
#[utoipa::path(
    tag = "queue",
    operation_id = "queue_party_accept",
    params(("party" = String, Path, description = "Party id")),
    security(("player_key" = [])),
    responses(
        (status = 201, description = "Queued: the pair's ticket", body = Ticket),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller proposed the party: only its partner accepts", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such party of this player (`party_not_found`), or its leader is gone (`player_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The party is no longer pending (`party_closed`), or a player of it waits in the queue (`already_queued`)", body = Problem, content_type = "application/problem+json"),
        (status = 507, description = "The pool holds as many waiting tickets as it may (`queue_full`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/queue/parties/{party}/accept")]
pub async fn accept_party(
    lobby: Data<Lobby>,
    bearer: Bearer,
    id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let ticket = lobby.accept_party(&key, &id).await?;
    let location = format!("/v1/queue/{}", ticket.ticket.id);
    Ok(respond::created(location).json(Ticket::from(ticket)))
}

/// Decline a party (its invited partner's key).
#[utoipa::path(
    tag = "queue",
    operation_id = "queue_party_decline",
    params(("party" = String, Path, description = "Party id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "Declined: the party", body = Party),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller proposed the party: it cancels it instead", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such party of this player (`party_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The party is no longer pending (`party_closed`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/queue/parties/{party}/decline")]
pub async fn decline_party(
    lobby: Data<Lobby>,
    bearer: Bearer,
    id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let party = lobby.decline_party(&key, &id).await?;
    Ok(HttpResponse::Ok().json(Party::from(party)))
}

/// Cancel a pending party (the key of the player who proposed it).
#[utoipa::path(
    tag = "queue",
    operation_id = "queue_party_cancel",
    params(("party" = String, Path, description = "Party id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "Cancelled: the party", body = Party),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller is the invited partner: it declines instead", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such party of this player (`party_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The party is no longer pending (`party_closed`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/queue/parties/{party}")]
pub async fn cancel_party(
    lobby: Data<Lobby>,
    bearer: Bearer,
    id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let party = lobby.cancel_party(&key, &id).await?;
    Ok(HttpResponse::Ok().json(Party::from(party)))
}
