//! `/v1/players`: registering players, their keys and profiles, and a
//! player's event stream (long poll, or server-sent events).

use actix_web::http::header;
use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse, delete, get, post};
use serde::Deserialize;
use utoipa::IntoParams;

use super::matches::ongoing;
use super::wire::{ApiKey, CreatePlayer, Player, PlayerEventsPage, Registered};
use crate::http::middleware::extract::{
    Bearer, JsonBytes, header_or_query_token, parse_body, player_key,
};
use crate::http::middleware::limit::Limiter;
use crate::http::openapi::schema::player_events::PlayerEvent;
use crate::http::problem::{ApiError, Lang, Problem};
use crate::http::respond;
use crate::http::sse::{self, Frame};
use crate::lobby::{Lobby, NewPlayer};
use crate::service::Error;

/// Register a player.
///
/// The answer holds the player's secret API key, shown only here; it acts
/// for the player (its profile, its stream, joining tables) and for the
/// player's seats in any match. No passwords: a front end maps its own
/// users to players.
#[utoipa::path(
    tag = "players",
    request_body(content = CreatePlayer, examples(
        ("a bot" = (value = json!({"name": "robobot", "kind": "bot"}))),
        ("a person" = (value = json!({"name": "Núria", "kind": "human"}))),
    )),
    responses(
        (status = 201, description = "Registered: the profile and the API key", body = Registered),
        (status = 400, description = "Bad name or kind", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many requests, or as many players registered from this client address today as it may (`rate_limited`, `Retry-After` until the next UTC day)", body = Problem, content_type = "application/problem+json"),
        (status = 507, description = "As many players registered in all as the server takes (`capacity_reached`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/players")]
pub async fn create_player(
    lobby: Data<Lobby>,
    limiter: Data<Limiter>,
    body: JsonBytes,
    http: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let req: CreatePlayer = parse_body(&body)?;
    crate::service::check_display_name(&req.name, lobby.service().limits().max_name_len)?;
    let caps = limiter.limits();
    let ip = limiter.client_ip(&http);
    if !lobby
        .take_daily_registration(&ip, caps.players_per_ip_per_day)
        .await?
    {
        return Err(limiter.players_per_day_refused(&ip));
    }
    lobby.take_player_place(caps.max_players).await?;
    let done = lobby
        .register_from(
            NewPlayer {
                name: req.name,
                kind: req.kind.into(),
            },
            Some(&ip),
        )
        .await?;
    Ok(
        respond::created(format!("/v1/players/{}", done.player.id)).json(Registered {
            player: done.player.into(),
            api_key: done.api_key,
        }),
    )
}

/// The caller's own profile.
#[utoipa::path(
    tag = "players",
    security(("player_key" = [])),
    responses(
        (status = 200, description = "The profile", body = Player),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/me")]
pub async fn me(lobby: Data<Lobby>, bearer: Bearer) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let (_, player) = lobby.core().authenticate(&key).await?;
    Ok(HttpResponse::Ok().json(Player::from(player)))
}

/// Replace the caller's API key: the answer holds the new key (shown only
/// here), and the old one stops working at once.
#[utoipa::path(
    tag = "players",
    security(("player_key" = [])),
    responses(
        (status = 200, description = "The new key", body = ApiKey),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/players/me/key")]
pub async fn rotate_key(lobby: Data<Lobby>, bearer: Bearer) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    let fresh = lobby.replace_key(&key, false).await?;
    let api_key = fresh.ok_or_else(|| ApiError::from(Error::Internal("no key made".into())))?;
    Ok(HttpResponse::Ok().json(ApiKey { api_key }))
}

/// Revoke the caller's API key: it stops working at once and the player
/// has no key any more (seat tokens it holds still work).
#[utoipa::path(
    tag = "players",
    security(("player_key" = [])),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/players/me/key")]
pub async fn revoke_key(lobby: Data<Lobby>, bearer: Bearer) -> Result<HttpResponse, ApiError> {
    let key = player_key(bearer.0)?;
    lobby.replace_key(&key, true).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A player's public profile.
#[utoipa::path(
    tag = "players",
    params(("id" = String, Path, description = "Player id")),
    responses(
        (status = 200, description = "The profile", body = Player),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/{id}")]
pub async fn profile(lobby: Data<Lobby>, id: Path<String>) -> Result<HttpResponse, ApiError> {
    let player = lobby.profile(&id).await?;
    Ok(HttpResponse::Ok().json(Player::from(player)))
}

/// Query of `GET /v1/players/me/events`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PlayerEventsQuery {
    /// Events numbered after this (default 0; `Last-Event-ID` wins on a
    /// stream). Without it (or 0) the answer opens with the ongoing matches.
    pub after: Option<u64>,
    /// Long poll: wait up to this long for an event (default 0, at most 30000).
    #[param(maximum = 30_000)]
    pub wait_ms: Option<u64>,
    /// Most events to return (default and maximum 1000).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
    /// The API key, for `EventSource`, which cannot send `Authorization`;
    /// never together with the header.
    pub access_token: Option<String>,
}

/// The caller's event stream: a seat of its table was filled or freed, a
/// match started (its id and the player's seat), it is the player's turn
/// in a match, a match is over.
///
/// As JSON (`{"events": [...], "last_seq": n}`, a long poll with
/// `wait_ms`), or, with `Accept: text/event-stream`, as server-sent
/// events whose `id` is the event's `seq` (resume with `Last-Event-ID`).
/// A stream keeps the latest 256 events per player.
///
/// A fresh connect (no `after`, or `after=0`; for a stream, no
/// `Last-Event-ID`) opens with the player's ongoing matches: the long poll
/// answers them as `ongoing`; the stream sends first an unnumbered event
/// `matches` (`{"type":"matches","ongoing":[...],"next":…,"last_seq":n}`,
/// no `id`, so resumption is unchanged), then the kept events as before.
#[utoipa::path(
    tag = "players",
    operation_id = "player_events",
    params(
        PlayerEventsQuery,
        ("Last-Event-ID" = Option<String>, Header, description = "Resume a stream after this event number (its `id`: digits)"),
    ),
    security(("player_key" = [])),
    responses(
        (status = 200, description = "The events. As a stream, the schema is each event's `data`, a `PlayerEvent` as JSON (the event's `id` is its `seq`, its `event` its `type`), as client generators read an event stream's schema; besides, a fresh connect opens with an unnumbered `matches` event (`{\"type\": \"matches\", \"ongoing\": [...], \"next\": …, \"last_seq\": n}`) and a failure ends the stream with an `error` event whose data is a `Problem`.", content(
            (PlayerEventsPage = "application/json"),
            (PlayerEvent = "text/event-stream"),
        )),
        (status = 400, description = "Bad query", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing, wrong or revoked key", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/me/events")]
pub async fn events(
    lobby: Data<Lobby>,
    bearer: Bearer,
    q: Query<PlayerEventsQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let key = player_key(header_or_query_token(bearer, q.access_token.as_deref())?)?;
    let (_, player) = lobby.core().authenticate(&key).await?;
    let limit = q.limit.unwrap_or(lobby.service().limits().max_events_page);
    // A fresh connect (no resume point) opens with the ongoing matches.
    let fresh = q.after.unwrap_or(0) == 0;
    if !wants_stream(&req) {
        let page = lobby
            .events(
                &player.id,
                q.after.unwrap_or(0),
                q.wait_ms.unwrap_or(0),
                limit,
            )
            .await?;
        // A key revoked or rotated during the wait gets nothing.
        if q.wait_ms.unwrap_or(0) > 0 && !page.events.is_empty() {
            lobby.core().authenticate(&key).await?;
        }
        let mut page = PlayerEventsPage::from(page);
        if fresh {
            page.ongoing = Some(ongoing(&lobby, &player.id, page.last_seq).await?.ongoing);
        }
        return Ok(HttpResponse::Ok().json(page));
    }
    let last_event_id = sse::last_event_id(&req)?;
    let slot = sse::open_stream_slot(&req)?;
    let after = last_event_id.or(q.after).unwrap_or(0);
    let mut first = Vec::new();
    if fresh && last_event_id.is_none() {
        // Read the last event's number before the list: whatever the list
        // misses comes after it, on the stream.
        let last_seq = lobby.events(&player.id, 0, 0, 1).await?.last_seq;
        let opening = ongoing(&lobby, &player.id, last_seq).await?;
        first.push(Frame::opening(None, "matches", &opening));
    }
    let (lobby, id) = (lobby.into_inner(), player.id);
    Ok(sse::respond(
        slot,
        Lang::of(&req),
        sse::Start { first, after },
        None,
        // The stream checks the key after every wait (see `sse`).
        async move |after| {
            let page = lobby
                .events(&id, after, sse::HEARTBEAT_MS, sse::PAGE)
                .await?;
            let page = PlayerEventsPage::from(page);
            Ok(page
                .events
                .iter()
                .map(|e| Frame::of(e.seq, &e.body, e))
                .collect())
        },
    ))
}

/// Whether the request asks for server-sent events (`Accept:
/// text/event-stream`) rather than JSON.
fn wants_stream(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"))
}
