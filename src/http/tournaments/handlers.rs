//! The handlers of `/v1/tournaments`.

use actix_web::web::{Data, Path, Query};
use actix_web::{HttpResponse, delete, get, post};
use serde::Deserialize;
use utoipa::IntoParams;

use super::rounds::RoundView;
use super::wire::{
    CreateTournament, CreatedTournament, EnterTournament, Tournament, TournamentList,
};
use crate::http::middleware::extract::{Bearer, JsonBytes, parse_body, player_key};
use crate::http::problem::{ApiError, Problem};
use crate::http::respond;
use crate::lobby::Lobby;
use crate::service::Error;

/// Make a tournament.
///
/// Swiss (`rounds` rounds paired by score then rating), arena (for
/// `duration_s`, units re-paired as soon as they finish) or duplicate
/// (`rounds` rounds in which every table plays the same `boards` deals,
/// each result scored against the others in the same direction). It
/// takes entries until `starts_at` (its maker may start it earlier); then
/// the server pairs, creates every match and advances it with nobody
/// reading. Entrants hear `round_started` and `tournament_over` on their
/// event streams.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "create_tournament",
    security(("player_key" = [])),
    request_body(content = CreateTournament, examples(
        ("a Swiss of 4 rounds, rated, partners drawn" = (value = json!({"name": "Dijous a la fresca", "variant": "pairs", "format": "swiss", "rounds": 4, "rated": true, "starts_in_s": 600}))),
        ("a duplicate of 3 rounds of 4 boards, fixed partnerships" = (value = json!({"name": "Duplicat de Lleida", "variant": "pairs", "format": "duplicate", "rounds": 3, "boards": 4, "partners": "fixed", "fill_with": "medium"}))),
        ("a 20-minute arena of abarrotada, private" = (value = json!({"name": "Arena", "variant": "abarrotada", "format": "arena", "duration_s": 1200, "private": true, "fill_with": "easy", "move_timeout_ms": 20000}))),
    )),
    responses(
        (status = 201, description = "Made: the tournament (and a private one's code, shown once)", body = CreatedTournament),
        (status = 400, description = "Bad counts, times, rules or house bot", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tournaments")]
pub async fn create_tournament(
    lobby: Data<Lobby>,
    bearer: Bearer,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let req: CreateTournament = parse_body(&body)?;
    let made = lobby.create_tournament(&key, req.into_new()).await?;
    let location = format!("/v1/tournaments/{}", made.record.id);
    Ok(respond::created(location).json(CreatedTournament {
        tournament: Tournament::from(&made.record),
        code: made.code,
    }))
}

/// Query of `GET /v1/tournaments`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// The `next` of a previous page.
    #[param(pattern = "^[0-9]{15}:t[0-9a-f]{24}$", max_length = 64)]
    pub after: Option<String>,
    /// At most this many (1 to 100; default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

/// The public tournaments, by start time (private ones are not listed).
#[utoipa::path(
    tag = "tournaments",
    operation_id = "list_tournaments",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of tournaments", body = TournamentList),
        (status = 400, description = "A bad cursor or limit", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/tournaments")]
pub async fn list_tournaments(
    lobby: Data<Lobby>,
    q: Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = q.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(Error::InvalidRequest("limit must be between 1 and 100".into()).into());
    }
    let (page, next) = lobby
        .tournaments_page(q.after.as_deref(), limit as usize)
        .await?;
    Ok(HttpResponse::Ok().json(TournamentList {
        tournaments: page.iter().map(Tournament::from).collect(),
        next,
    }))
}

/// A tournament: its settings, entries, units, standings and rounds.
/// Anyone with its id may follow it.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "get_tournament",
    params(("id" = String, Path, description = "Tournament id")),
    responses(
        (status = 200, description = "The tournament", body = Tournament),
        (status = 404, description = "No such tournament (`tournament_not_found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/tournaments/{id}")]
pub async fn get_tournament(
    lobby: Data<Lobby>,
    id: Path<String>,
) -> Result<HttpResponse, ApiError> {
    let rec = lobby.tournament(&id).await?;
    Ok(HttpResponse::Ok().json(Tournament::from(&rec)))
}

/// A round: its tables and results, and in duplicate every board's
/// traveller once the round is done (while it is played, its matches and
/// results are not shown).
#[utoipa::path(
    tag = "tournaments",
    operation_id = "get_tournament_round",
    params(
        ("id" = String, Path, description = "Tournament id"),
        ("n" = i64, Path, description = "Round number, from 1 (no such round: `404 not_found`)"),
    ),
    responses(
        (status = 200, description = "The round", body = RoundView),
        (status = 404, description = "No such tournament (`tournament_not_found`) or round (`not_found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/tournaments/{id}/rounds/{n}")]
pub async fn get_round(
    lobby: Data<Lobby>,
    path: Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, n) = path.into_inner();
    let rec = lobby.tournament(&id).await?;
    let number = n.parse::<u32>().ok();
    let Some(round) = rec.rounds.iter().find(|r| Some(r.number) == number) else {
        return Err(ApiError::NotFound(format!(
            "/v1/tournaments/{id}/rounds/{n}"
        )));
    };
    Ok(HttpResponse::Ok().json(RoundView::of(&rec, round)))
}

/// Enter a tournament (`code` for a private one; `partner` in fixed
/// partnerships). A running arena takes late entries.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "enter_tournament",
    params(("id" = String, Path, description = "Tournament id")),
    security(("player_key" = [])),
    request_body(content = EnterTournament, examples(
        ("drawn partners or an individual variant" = (value = json!({}))),
    )),
    responses(
        (status = 200, description = "Entered: the tournament", body = Tournament),
        (status = 400, description = "A partner where partners are drawn, none where they are fixed, or the player itself", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A private tournament without its code", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Takes no more entries, full, or entered already (`tournament_closed`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tournaments/{id}/entries")]
pub async fn enter_tournament(
    lobby: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let req: EnterTournament = parse_body(&body)?;
    let rec = lobby
        .enter_tournament(&key, &id, req.partner, req.code.as_deref())
        .await?;
    Ok(HttpResponse::Ok().json(Tournament::from(&rec)))
}

/// Withdraw from a tournament: before the start the entry is dropped;
/// after, the player's unit is paired no more (a match it plays goes on).
#[utoipa::path(
    tag = "tournaments",
    operation_id = "withdraw_from_tournament",
    params(("id" = String, Path, description = "Tournament id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "Withdrawn: the tournament", body = Tournament),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not entered, or over (`tournament_closed`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/tournaments/{id}/entries/me")]
pub async fn withdraw(
    lobby: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let rec = lobby.withdraw_tournament(&key, &id).await?;
    Ok(HttpResponse::Ok().json(Tournament::from(&rec)))
}

/// Start a tournament now, as its maker (within a second: the server's
/// scheduler starts it).
#[utoipa::path(
    tag = "tournaments",
    operation_id = "start_tournament",
    params(("id" = String, Path, description = "Tournament id")),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "To start now: the tournament", body = Tournament),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not its maker", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such tournament", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Started already (`tournament_closed`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tournaments/{id}/start")]
pub async fn start(
    lobby: Data<Lobby>,
    id: Path<String>,
    bearer: Bearer,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let rec = lobby.start_tournament_now(&key, &id).await?;
    Ok(HttpResponse::Ok().json(Tournament::from(&rec)))
}
