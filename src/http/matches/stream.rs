//! `GET /v1/matches/{id}/stream`: the events as server-sent events.

use std::sync::Arc;

use actix_web::web::{Bytes, Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse, get};
use futures_util::stream;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::wire::EventsPage;
use crate::http::middleware::extract::{Bearer, header_or_query_token};
use crate::http::middleware::limit::Limiter;
use crate::http::middleware::open_limit::Slot;
use crate::http::problem::{ApiError, Lang, Problem};
use crate::rules::Phase;
use crate::service::{Error, Service};

/// Query of `GET …/stream`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Start after this event number (the `Last-Event-ID` header wins); a
    /// number past the match's last event is refused with `400`.
    pub after: Option<u64>,
    /// The seat token, for `EventSource`, which cannot send `Authorization`
    /// (RFC 6750 §2.3); never together with the header.
    pub access_token: Option<String>,
}

/// One server-sent event as the stream frames it (for the OpenAPI
/// document: with OpenAPI 3.1 the schema of `text/event-stream` describes
/// each event).
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct SseEvent {
    /// The event's `seq` (absent on a final `error` event).
    id: Option<String>,
    /// The event type (`hand_dealt`, …), or `error` with a problem as data.
    event: String,
    /// The event as JSON, exactly as `GET …/events` shows it (a problem
    /// document for `error`).
    data: String,
}

/// How long the stream waits for an event before sending a keep-alive comment.
const HEARTBEAT_MS: u64 = 15_000;

struct Cursor {
    /// This stream's place under its address's stream cap.
    _slot: Slot,
    svc: Arc<Service>,
    id: String,
    token: Option<String>,
    after: u64,
    done: bool,
    /// The language of a final `error` event.
    lang: Lang,
}

/// The match's events as `text/event-stream`: each event's `id` is its
/// `seq`, its `event` its type, its `data` the JSON the events endpoint
/// shows. Resume with `Last-Event-ID` (or `after`); resuming after an event
/// the match never made is refused with `400`. The stream ends after
/// `match_over`; resumed at the end of a finished match it answers `204`,
/// which tells an `EventSource` to stop reconnecting.
#[utoipa::path(
    tag = "matches",
    params(
        ("id" = String, Path, description = "Match id"),
        ("Last-Event-ID" = Option<u64>, Header, description = "Resume after this event number"),
        StreamQuery,
    ),
    security((), ("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "An event stream", content_type = "text/event-stream", body = SseEvent),
        (status = 204, description = "The match is over and every event was sent"),
        (status = 400, description = "Bad query or `Last-Event-ID`, a resume point past the match's last event, or a token sent twice", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "Wrong token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such match", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/matches/{id}/stream")]
pub async fn stream_events(
    svc: Data<Service>,
    id: Path<String>,
    bearer: Bearer,
    q: Query<StreamQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let last_event_id = last_event_id(&req)?;
    let after = last_event_id.or(q.after).unwrap_or(0);
    let token = header_or_query_token(bearer, q.access_token.as_deref())?;
    let slot = open_stream_slot(&req)?;
    // Check the match, the token and the resume point before the stream
    // starts: an event the match never made is refused with `400`.
    let phase = svc.view(&id, token.as_deref()).await?.game.phase;
    let first = svc.events(&id, token.as_deref(), after, 0, 1).await?;
    // Resuming at the end of a finished match: nothing will ever come.
    if phase == Phase::MatchOver && first.events.is_empty() {
        return Ok(HttpResponse::NoContent()
            .insert_header(("Cache-Control", "no-cache"))
            .finish());
    }
    let cursor = Cursor {
        _slot: slot,
        svc: svc.into_inner(),
        id: id.into_inner(),
        token,
        after,
        done: false,
        lang: Lang::of(&req),
    };
    let body = stream::unfold(cursor, |mut c| async move {
        if c.done {
            return None;
        }
        let page = c
            .svc
            .events(&c.id, c.token.as_deref(), c.after, HEARTBEAT_MS, 100)
            .await;
        let chunk = match page {
            Err(e) => {
                c.done = true;
                format!(
                    "event: error\ndata: {}\n\n",
                    serde_json::to_string(&Problem::of(&ApiError::from(e), c.lang))
                        .unwrap_or_default()
                )
            }
            Ok(p) if p.events.is_empty() => ": keep-alive\n\n".to_string(),
            Ok(p) => {
                let p = EventsPage::from(p);
                let mut out = String::new();
                for e in &p.events {
                    let kind = e
                        .body
                        .get("type")
                        .and_then(|t| t.as_str())
                        .unwrap_or("event");
                    c.done |= kind == "match_over";
                    let data = serde_json::to_string(e).unwrap_or_default();
                    out.push_str(&format!("id: {}\nevent: {kind}\ndata: {data}\n\n", e.seq));
                    c.after = e.seq;
                }
                out
            }
        };
        Some((Ok::<_, actix_web::Error>(Bytes::from(chunk)), c))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}

/// The `Last-Event-ID` a reconnecting event-source client sends, if any.
///
/// # Errors
/// `400` when it is not an event number.
pub fn last_event_id(req: &HttpRequest) -> Result<Option<u64>, ApiError> {
    let Some(v) = req.headers().get("last-event-id") else {
        return Ok(None);
    };
    v.to_str()
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map(Some)
        .ok_or_else(|| Error::InvalidRequest("Last-Event-ID must be an event number".into()).into())
}

/// One of the client address's stream slots, held while the stream lives.
///
/// # Errors
/// `429` when the address holds as many streams as it may.
pub fn open_stream_slot(req: &HttpRequest) -> Result<Slot, ApiError> {
    match req.app_data::<Data<Limiter>>() {
        Some(limiter) => limiter.open_stream(req),
        None => Err(Error::Internal("no limiter".into()).into()),
    }
}
