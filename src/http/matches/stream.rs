//! `GET /v1/matches/{id}/stream`: a match's events as server-sent events,
//! framed by [`crate::http::sse`].

use actix_web::web::{Data, Path, Query};
use actix_web::{HttpRequest, HttpResponse, get};
use serde::Deserialize;
use utoipa::IntoParams;

use super::wire::{EventsPage, MatchView};
use crate::http::middleware::extract::{Bearer, header_or_query_token};
use crate::http::openapi::schema::events::Event;
use crate::http::problem::{ApiError, Lang, Problem};
use crate::http::sse::{self, Frame};
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
    /// Open with the caller's view (a `state` event numbered with the
    /// view's `last_seq`), then the events after it. Only on a fresh
    /// connect: a resume with `Last-Event-ID` gets the events after it;
    /// never together with `after`.
    pub with_state: Option<bool>,
}

/// The match's events as `text/event-stream`: each event's `id` is its
/// `seq`, its `event` its type, its `data` the JSON the events endpoint
/// shows. Resume with `Last-Event-ID` (or `after`); resuming after an event
/// the match never made is refused with `400`. The stream ends after
/// `match_over`; resumed at the end of a finished match it answers `204`,
/// which tells an `EventSource` to stop reconnecting.
///
/// With `with_state=true` a fresh connect opens with a `state` event: the
/// caller's view (as `GET /v1/matches/{id}` shows it, redacted for its
/// seat), whose `id` is the view's `last_seq`, read in one read of the
/// match; the events numbered after it follow, none missed, none twice.
#[utoipa::path(
    tag = "matches",
    params(
        ("id" = String, Path, description = "Match id"),
        ("Last-Event-ID" = Option<String>, Header, description = "Resume after this event number (its `id`: digits)"),
        StreamQuery,
    ),
    security((), ("seat_token" = []), ("player_key" = [])),
    responses(
        (status = 200, description = "An event stream. The schema is each event's `data`, an `Event` as JSON (the event's `id` is its `seq`, its `event` its `type`), as client generators read an event stream's schema. Besides: with `with_state=true` the first event is a `state` whose data is a `MatchView`, and a failure ends the stream with an `error` event whose data is a `Problem`.", content_type = "text/event-stream", body = Event),
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
    let last_event_id = sse::last_event_id(&req)?;
    let token = header_or_query_token(bearer, q.access_token.as_deref())?;
    let with_state = q.with_state.unwrap_or(false) && last_event_id.is_none();
    if with_state && q.after.is_some() {
        return Err(Error::InvalidRequest(
            "with_state opens with the state and the events after it: leave out after".into(),
        )
        .into());
    }
    let slot = sse::open_stream_slot(&req)?;
    // Check the match, the token and the resume point before the stream
    // starts: an event the match never made is refused with `400`.
    let view = svc.view(&id, token.as_deref()).await?;
    let over = view.game.phase == Phase::MatchOver;
    let (start, last_kind) = if with_state {
        // The view and its event number come from one read of the match.
        let after = view.last_seq;
        let first = vec![Frame::opening(Some(after), "state", &MatchView::from(view))];
        // The state of a finished match is all there is to send.
        let last = if over { "state" } else { "match_over" };
        (sse::Start { first, after }, last)
    } else {
        let after = last_event_id.or(q.after).unwrap_or(0);
        let first = svc.events(&id, token.as_deref(), after, 0, 1).await?;
        // Resuming at the end of a finished match: nothing will ever come.
        if over && first.events.is_empty() {
            return Ok(HttpResponse::NoContent()
                .insert_header(("Cache-Control", "no-cache"))
                .finish());
        }
        let first = Vec::new();
        (sse::Start { first, after }, "match_over")
    };
    let (svc, id) = (svc.into_inner(), id.into_inner());
    Ok(sse::respond(
        slot,
        Lang::of(&req),
        start,
        Some(last_kind),
        async move |after| {
            let page = svc
                .events(&id, token.as_deref(), after, sse::HEARTBEAT_MS, sse::PAGE)
                .await?;
            let page = EventsPage::from(page);
            Ok(page
                .events
                .iter()
                .map(|e| Frame::of(e.seq, &e.body, e))
                .collect())
        },
    ))
}
