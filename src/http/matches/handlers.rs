//! The `/v1/matches` resources that create and read matches (the action
//! resources are in `actions.rs`).

use std::convert::identity;

use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse, get, post};
use serde::Deserialize;
use utoipa::IntoParams;

use super::wire::{CreateMatch, Created, EventsPage, LegalMoves, MatchView};
use crate::http::middleware::conditional::{self, IfNoneMatch};
use crate::http::middleware::extract::{Bearer, JsonBytes, header_or_query_token, parse_body};
use crate::http::problem::{ApiError, Problem};
use crate::http::respond;
use crate::rules::view::HistoryView;
use crate::service::{Error, Service};

/// Query of `GET …/events`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Return events numbered after this (default 0: from the start); a
    /// number past the match's last event is refused with `400`.
    pub after: Option<u64>,
    /// Wait up to this long for an event when there is none yet (default 0, at most 30000).
    #[param(maximum = 30000)]
    pub wait_ms: Option<u64>,
    /// Most events to return (default and maximum 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
    /// The seat token, for clients that cannot send `Authorization` (RFC 6750
    /// §2.3); never together with the header. Prefer the header elsewhere.
    pub access_token: Option<String>,
    /// Answer with the caller's view as `state` too, and the events after
    /// its `last_seq` (never together with `after`).
    pub with_state: Option<bool>,
}

/// Query of `GET …/legal-moves`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LegalQuery {
    /// A house bot (`random`, `heuristic`, `montecarlo`, `expert`, or a strength level `easy`, `medium`, `hard`, `expert`) whose choice to include as `hint`.
    #[param(value_type = Option<crate::http::openapi::schema::HouseBot>)]
    pub hint: Option<String>,
}

/// Create a match.
///
/// Rules default to docs/rules.md; seats default to four remote seats. The answer
/// holds one secret token per remote seat — shown only here. A seat may
/// name a registered `player` only when the request carries that player's
/// key (`Authorization: Bearer <key>`): nobody is seated without consent.
/// To play another player, challenge it or reserve it a seat at a table.
#[utoipa::path(
    tag = "matches",
    security((), ("player_key" = [])),
    request_body(content = CreateMatch, examples(
        ("one player against three house bots" = (value = json!({"seats": [{"kind": "remote", "name": "me"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}], "auto_deal": true}))),
        ("four remote seats, defaults" = (value = json!({}))),
        ("abarrotada for three" = (value = json!({"rules": {"variant": "abarrotada3", "max_hands": 6}, "seats": [{"kind": "remote"}, {"kind": "bot"}, {"kind": "bot"}]}))),
    )),
    responses(
        (status = 201, description = "Created: ids, seat tokens and the spectator view", body = Created),
        (status = 400, description = "Invalid rules, seats or seed", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A seat names a player, and the bearer is not a current player key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A seat names a player other than the key's, or any player without a key (`consent_required`)", body = Problem, content_type = "application/problem+json",
            example = json!({"type": "urn:botifarra:problem:consent_required", "title": "Consent required", "status": 403, "detail": crate::service::CONSENT_DETAIL, "code": "consent_required"})),
        (status = 429, description = "Too many matches created", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Store unavailable", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/matches")]
pub async fn create_match(
    svc: Data<Service>,
    bearer: Bearer,
    body: JsonBytes,
) -> Result<HttpResponse, ApiError> {
    let req: CreateMatch = parse_body(&body)?;
    let created = svc.create_as(req.into(), bearer.0.as_deref()).await?;
    let location = format!("/v1/matches/{}", created.match_id);
    Ok(respond::created(location).json(Created::from(created)))
}

/// The match as the token's seat sees it (spectator view without a token).
#[utoipa::path(
    tag = "matches",
    params(("id" = String, Path, description = "Match id")),
    security((), ("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "The view", body = MatchView),
        (status = 401, description = "Wrong token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such match", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}")]
pub async fn get_match(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let cached = IfNoneMatch::of(&req);
    let read = svc
        .view_unless(&id, bearer.0.as_deref(), |t| cached.holds(t))
        .await?;
    Ok(conditional::answer(read, identity))
}

/// The caller's legal actions now (empty when it is not its turn).
#[utoipa::path(
    tag = "matches",
    params(("id" = String, Path, description = "Match id"), LegalQuery),
    security(("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "The legal actions", body = LegalMoves),
        (status = 400, description = "Unknown bot", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or wrong seat token", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}/legal-moves")]
pub async fn legal_moves(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    q: Query<LegalQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let cached = IfNoneMatch::of(&req);
    let token = bearer.0.as_deref();
    let read = svc
        .legal_moves_unless(&id, token, q.hint.as_deref(), |t| cached.holds(t))
        .await?;
    Ok(conditional::answer(read, LegalMoves::from))
}

/// Events after `after`, as the caller may see them; a long poll with `wait_ms`.
///
/// With `with_state=true` the answer holds the caller's view as `state`
/// and the events numbered after the view's `last_seq`: view and events
/// without a gap between them.
#[utoipa::path(
    tag = "matches",
    params(("id" = String, Path, description = "Match id"), EventsQuery),
    security((), ("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "The events", body = EventsPage),
        (status = 400, description = "Bad query, or an `after` past the match's last event", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Wrong token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such match", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}/events")]
pub async fn events(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    q: Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = q.limit.unwrap_or(svc.limits().max_events_page);
    let token = header_or_query_token(bearer, q.access_token.as_deref())?;
    let state = match q.with_state {
        Some(true) if q.after.is_some() => {
            return Err(Error::InvalidRequest(
                "with_state answers the events after the state: leave out after".into(),
            )
            .into());
        }
        // The view and its event number come from one read of the match.
        Some(true) => Some(svc.view(&id, token.as_deref()).await?),
        _ => None,
    };
    let after = state.as_ref().map_or(q.after.unwrap_or(0), |v| v.last_seq);
    let page = svc
        .events(&id, token.as_deref(), after, q.wait_ms.unwrap_or(0), limit)
        .await?;
    let mut page = EventsPage::from(page);
    page.state = state.map(MatchView::from);
    Ok(HttpResponse::Ok().json(page))
}

/// The full record: every hand's deal, calls, tricks and score. A hand's
/// cards are shown once it is over; the seed once the match is over.
#[utoipa::path(
    tag = "matches",
    params(("id" = String, Path, description = "Match id")),
    security((), ("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "The record", body = HistoryView),
        (status = 401, description = "Wrong token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such match", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}/history")]
pub async fn history(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let cached = IfNoneMatch::of(&req);
    let read = svc
        .history_unless(&id, bearer.0.as_deref(), |t| cached.holds(t))
        .await?;
    Ok(conditional::answer(read, identity))
}
