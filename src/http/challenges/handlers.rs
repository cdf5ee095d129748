//! `/v1/challenges`: a player challenges others to a match (rated or
//! casual), they accept or decline, the challenger may cancel; the last
//! acceptance starts the match.

use actix_web::web::{Data, Path, Query};
use actix_web::{HttpResponse, delete, get, post};
use serde::Deserialize;
use utoipa::IntoParams;

use super::wire::{Challenge, ChallengeList, CreateChallenge};
use crate::http::middleware::extract::{Bearer, JsonBytes, parse_body, player_key};
use crate::http::problem::{ApiError, Problem};
use crate::http::respond;
use crate::lobby::Lobby;

/// Challenge players to a match.
///
/// In the pairs game the challenger (seat 0) may bring a `partner` (seat
/// 2) against one or two `opponents` (seats 1 and 3, facing each other);
/// in the individual variants it challenges 1 to seats − 1 `opponents`.
/// Seats not given to a player are house bots only when `fill_with` names
/// one; a house bot is also challenged at a chosen level by its player id
/// (`house-easy`, `house-hard`, …), accepted at once and rated at the
/// level's anchor; when only house bots are named the match starts at
/// once (`started`). Each invited player (the partner too) hears of it on its event
/// stream and accepts or declines; the last acceptance creates the match
/// under the challenge's id, every player acting with its API key. A
/// rated challenge is played with the variant's standard rules.
#[utoipa::path(
    tag = "challenges",
    operation_id = "create_challenge",
    security(("player_key" = [])),
    request_body(content = CreateChallenge, examples(
        ("pairs: with a partner against two players, rated" = (description = "The ids are placeholders of the id form (`p` and 24 hex digits): put those of registered players, from `POST /v1/players` (`player.id`) or `GET /v1/leaderboard` (`player_id`).", value = json!({"variant": "pairs", "rated": true, "partner": "p6f1c0a9e2b4d8c7a5e3f1b2c", "opponents": ["p0a1b2c3d4e5f60718293a4b5", "p1b2c3d4e5f60718293a4b5c6"]}))),
        ("abarrotada: two players and a house bot, casual" = (description = "The ids are placeholders of the id form (`p` and 24 hex digits): put those of registered players, from `POST /v1/players` (`player.id`) or `GET /v1/leaderboard` (`player_id`).", value = json!({"variant": "abarrotada", "opponents": ["p0a1b2c3d4e5f60718293a4b5", "p1b2c3d4e5f60718293a4b5c6"], "fill_with": "medium", "expires_in_s": 300}))),
        ("pairs: against house bots at chosen levels, rated, started at once" = (value = json!({"variant": "pairs", "rated": true, "partner": "house-medium", "opponents": ["house-easy", "house-easy"]}))),
        ("pairs, one against one with house-bot partners" = (description = "The ids are placeholders of the id form (`p` and 24 hex digits): put those of registered players, from `POST /v1/players` (`player.id`) or `GET /v1/leaderboard` (`player_id`).", value = json!({"variant": "pairs", "opponents": ["p0a1b2c3d4e5f60718293a4b5"], "fill_with": "heuristic", "rules": {"variant": "pairs", "target": 51}}))),
    )),
    responses(
        (status = 201, description = "Made: the challenge, `pending` (`started` when only house bots were named)", body = Challenge),
        (status = 400, description = "Bad rules, counts or players (the challenger itself, a player named twice, an unknown house bot), or a rated challenge with other rules", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "An unknown player (`player_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The challenger has 50 pending invitations of its own (`too_many_challenges`), or an invited player has 50 waiting for its answer (`inbox_full`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Too many writers raced; nothing was made, retry (`busy`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many created", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/challenges")]
pub async fn create_challenge(
    lobby: Data<Lobby>,
    bearer: Bearer,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let req: CreateChallenge = parse_body(&body)?;
    let made = lobby.create_challenge(&key, req.into()).await?;
    let location = format!("/v1/challenges/{}", made.challenge_id);
    Ok(respond::created(location).json(Challenge::from(made)))
}

/// Query of `GET /v1/challenges`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// The `next_incoming` cursor of a previous list.
    #[param(pattern = "^[0-9a-z:]*$", max_length = 64)]
    pub incoming_after: Option<String>,
    /// The `next_outgoing` cursor of a previous list.
    #[param(pattern = "^[0-9a-z:]*$", max_length = 64)]
    pub outgoing_after: Option<String>,
}

/// The caller's pending challenges: those it is invited to (`incoming`)
/// and those it made (`outgoing`), every one of them: each list ends with
/// a cursor (`next_incoming`, `next_outgoing`) that is null when the list
/// is shown to its end, and otherwise pages on.
#[utoipa::path(
    tag = "challenges",
    operation_id = "list_challenges",
    params(ListQuery),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "Pending challenges, oldest first", body = ChallengeList),
        (status = 400, description = "A cursor no list gave", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/challenges")]
pub async fn list_challenges(
    lobby: Data<Lobby>,
    bearer: Bearer,
    q: Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let list = lobby
        .challenges_of(
            &key,
            q.incoming_after.as_deref(),
            q.outgoing_after.as_deref(),
        )
        .await?;
    Ok(HttpResponse::Ok().json(ChallengeList::from(list)))
}

/// A challenge, for any of its players: who has accepted, and its match
/// once started.
#[utoipa::path(
    tag = "challenges",
    operation_id = "get_challenge",
    params(("id" = String, Path, description = "Challenge id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "The challenge", body = Challenge),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The player is not in this challenge", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such challenge", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/challenges/{id}")]
pub async fn get_challenge(
    lobby: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let view = lobby.challenge(&id, &key).await?;
    Ok(HttpResponse::Ok().json(Challenge::from(view)))
}

/// Accept a challenge, as an invited player (an opponent or the partner).
/// The last acceptance creates the match (`status` `started`, `match_id`);
/// accepting again answers the challenge as it is.
#[utoipa::path(
    tag = "challenges",
    operation_id = "accept_challenge",
    params(("id" = String, Path, description = "Challenge id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "Accepted: the challenge", body = Challenge),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not addressed to this player (or it is the challenger's)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such challenge", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Declined or cancelled (`challenge_closed`), or expired (`challenge_expired`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/challenges/{id}/accept")]
pub async fn accept_challenge(
    lobby: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let view = lobby.accept_challenge(&id, &key).await?;
    Ok(HttpResponse::Ok().json(Challenge::from(view)))
}

/// Decline a challenge, as an invited player: it is closed for everyone.
#[utoipa::path(
    tag = "challenges",
    operation_id = "decline_challenge",
    params(("id" = String, Path, description = "Challenge id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "Declined: the challenge", body = Challenge),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not addressed to this player (or it is the challenger's)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such challenge", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Started, declined or cancelled (`challenge_closed`), or expired (`challenge_expired`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/challenges/{id}/decline")]
pub async fn decline_challenge(
    lobby: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let view = lobby.decline_challenge(&id, &key).await?;
    Ok(HttpResponse::Ok().json(Challenge::from(view)))
}

/// Cancel a pending challenge, as its challenger.
#[utoipa::path(
    tag = "challenges",
    operation_id = "cancel_challenge",
    params(("id" = String, Path, description = "Challenge id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "Cancelled: the challenge", body = Challenge),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not the challenger", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such challenge", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Started, declined or cancelled (`challenge_closed`), or expired (`challenge_expired`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/challenges/{id}")]
pub async fn cancel_challenge(
    lobby: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let view = lobby.cancel_challenge(&id, &key).await?;
    Ok(HttpResponse::Ok().json(Challenge::from(view)))
}

/// Ask for a rematch of a finished match, as one of its players.
///
/// The rematch is a challenge (`rematch_of` the match) with the same
/// rules, rating and clock, each player one seat further on (new seat `i`
/// takes old seat `i + 1`): in the pairs game partners stay together and
/// the sides switch. The player who asks first offers it (`201`, it is
/// the challenger); every other player hears `challenge_received` (with
/// `rematch_of`) and accepts or declines it as any challenge; house bots
/// accept at once. A later ask by another player of the match accepts
/// the offer (`200`). The last acceptance starts the match under the
/// challenge's id.
#[utoipa::path(
    tag = "challenges",
    operation_id = "rematch",
    params(("id" = String, Path, description = "The finished match")),
    security(("player_key" = [])),
    responses(
        (status = 201, description = "Offered: the rematch challenge (`started` at once when every other seat is a house bot)", body = Challenge),
        (status = 200, description = "Another player offered it already: accepted, the rematch challenge", body = Challenge),
        (status = 400, description = "A seat of the match is held by a seat token, not a player (`invalid_request`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller is not a player of the match (`forbidden`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such match (`match_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The match is not over (`match_not_over`), or the offer was declined, cancelled (`challenge_closed`) or expired (`challenge_expired`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/matches/{id}/rematch")]
pub async fn rematch(
    lobby: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let (view, offered) = lobby.rematch(&id, &key).await?;
    let mut res = if offered {
        respond::created(format!("/v1/challenges/{}", view.challenge_id))
    } else {
        HttpResponse::Ok()
    };
    Ok(res.json(Challenge::from(view)))
}
