//! Server-sent events (`text/event-stream`), as both event streams of the
//! API send them: a match's (`GET /v1/matches/{id}/stream`) and a
//! player's (`GET /v1/players/me/events` with `Accept:
//! text/event-stream`).
//!
//! Each event is framed as `id: <seq>`, `event: <type>` and `data: <the
//! event as JSON>`; a wait that brings nothing sends a keep-alive comment;
//! a failure ends the stream with an `error` event whose data is a problem
//! document. A client resumes after the last `id` it saw with
//! `Last-Event-ID`. A stream holds one of its client address's stream
//! slots and one of its instance's while it lives.
//!
//! A stream opened with a player's API key (the player's own stream, or a
//! match's read with the key) checks the key again after every wait,
//! before it sends what the wait brought: once the key is revoked or
//! rotated, on any instance, the stream ends with a `401` `error` event
//! and delivers nothing more.
//!
//! Imports: [`crate::http::middleware`] (the stream caps),
//! [`crate::http::problem`] and the lobby (to check a player key). The
//! domains say what their events are and when their stream ends.

use std::fmt::Write;

use actix_web::web::{Bytes, Data};
use actix_web::{HttpRequest, HttpResponse};
use futures_util::stream;
use serde::Serialize;
use serde_json::Value;

use crate::http::middleware::extract::bearer_token;
use crate::http::middleware::limit::Limiter;
use crate::http::middleware::open_limit::Slot;
use crate::http::problem::{ApiError, Lang, Problem};
use crate::lobby::Lobby;
use crate::lobby::records::key_player;
use crate::service::Error;

/// How long a stream waits for an event before sending a keep-alive
/// comment.
pub const HEARTBEAT_MS: u64 = 15_000;

/// Most events a stream asks for at once.
pub const PAGE: usize = 100;

/// The comment sent when a wait brought no event: it keeps proxies from
/// closing an idle connection.
const KEEP_ALIVE: &str = ": keep-alive\n\n";

/// One event to send: its number, its type and its JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    seq: Option<u64>,
    kind: String,
    data: String,
}

impl Frame {
    /// The event numbered `seq` whose fields are `body` (its type is
    /// `body`'s `type`, `event` without one), sent as `view` shows it.
    pub fn of(seq: u64, body: &Value, view: &impl Serialize) -> Frame {
        Frame {
            seq: Some(seq),
            kind: body
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("event")
                .to_string(),
            data: serde_json::to_string(view).unwrap_or_default(),
        }
    }

    /// An event of type `kind` sent as `view` shows it, numbered `seq`
    /// (a client resuming after it gets the events after `seq`), or
    /// unnumbered (it leaves the client's `Last-Event-ID` as it was).
    pub fn opening(seq: Option<u64>, kind: &str, view: &impl Serialize) -> Frame {
        Frame {
            seq,
            kind: kind.to_string(),
            data: serde_json::to_string(view).unwrap_or_default(),
        }
    }

    /// Appends the event's `id:` (if numbered), `event:` and `data:` lines
    /// to `out`.
    fn write_to(&self, out: &mut String) {
        if let Some(seq) = self.seq {
            let _ = writeln!(out, "id: {seq}");
        }
        let _ = write!(out, "event: {}\ndata: {}\n\n", self.kind, self.data);
    }
}

/// The final `error` event: the problem of `e`, in `lang`.
fn error_event(e: &ApiError, lang: Lang) -> String {
    format!(
        "event: error\ndata: {}\n\n",
        serde_json::to_string(&Problem::of(e, lang)).unwrap_or_default()
    )
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

/// What a stream holds while it lives: its places under the stream caps,
/// and the player key it was opened with, if any.
pub struct StreamSlot {
    _slots: [Slot; 2],
    key: Option<(Data<Lobby>, String)>,
}

/// The client address's and the instance's stream slots for `req`, and
/// the player key it presents (as `Authorization: Bearer` or
/// `access_token`), which the stream checks before each delivery.
///
/// # Errors
/// `429` when the address holds as many streams as it may; `503` when the
/// instance does.
pub fn open_stream_slot(req: &HttpRequest) -> Result<StreamSlot, ApiError> {
    let slots = match req.app_data::<Data<Limiter>>() {
        Some(limiter) => limiter.open_stream(req)?,
        None => return Err(Error::Internal("no limiter".into()).into()),
    };
    let token = match bearer_token(req.headers()) {
        Some(t) => t.map(str::to_string),
        None => form_urlencoded_token(req.query_string()),
    };
    let key = token
        .filter(|t| key_player(t).is_some())
        .and_then(|t| Some((req.app_data::<Data<Lobby>>()?.clone(), t)));
    Ok(StreamSlot { _slots: slots, key })
}

/// The `access_token` of a query string, decoded.
fn form_urlencoded_token(query: &str) -> Option<String> {
    actix_web::web::Query::<std::collections::HashMap<String, String>>::from_query(query)
        .ok()?
        .remove("access_token")
}

/// Where a stream stands between two waits.
struct Follow<F> {
    /// This stream's places under the stream caps, and its key.
    slot: StreamSlot,
    /// Waits for the events after a number.
    next: F,
    /// Events to send before the first wait (see [`Frame::opening`]).
    first: Vec<Frame>,
    /// The number of the last event sent.
    after: u64,
    /// The event type after which the stream ends, if any.
    last_kind: Option<&'static str>,
    /// The language of a final `error` event.
    lang: Lang,
    done: bool,
}

impl<F: AsyncFnMut(u64) -> Result<Vec<Frame>, ApiError>> Follow<F> {
    /// The next chunk of the stream: the events of one wait, a keep-alive
    /// comment when it brought none, or the final `error` event.
    async fn chunk(&mut self) -> String {
        if !self.first.is_empty() {
            let first = std::mem::take(&mut self.first);
            return self.frames(first);
        }
        let waited = (self.next)(self.after).await;
        // A key revoked or rotated during the wait ends the stream before
        // anything the wait brought is sent.
        if let Some((lobby, key)) = &self.slot.key
            && let Err(e) = lobby.core().authenticate(key).await
        {
            self.done = true;
            return error_event(&e.into(), self.lang);
        }
        match waited {
            Err(e) => {
                self.done = true;
                error_event(&e, self.lang)
            }
            Ok(frames) if frames.is_empty() => KEEP_ALIVE.to_string(),
            Ok(frames) => self.frames(frames),
        }
    }

    /// `frames` as the stream sends them, noting the last number sent and
    /// whether the stream ends.
    fn frames(&mut self, frames: Vec<Frame>) -> String {
        let mut out = String::new();
        for frame in frames {
            self.done |= self.last_kind == Some(frame.kind.as_str());
            frame.write_to(&mut out);
            if let Some(seq) = frame.seq {
                self.after = seq;
            }
        }
        out
    }
}

/// Where a stream starts: the events it opens with (sent at once), then
/// the events after number `after`.
pub struct Start {
    /// Sent first, without a wait.
    pub first: Vec<Frame>,
    /// The number after which the waited-for events start (a numbered
    /// event of `first` moves it on).
    pub after: u64,
}

/// The `200` answer that streams `start.first`, then, after `start.after`,
/// the events `next` waits for (up to [`HEARTBEAT_MS`], at most [`PAGE`]
/// at a time), holding `slot` while it lives. It ends after an event of
/// type `last_kind`, or after the `error` event of a failed wait (in
/// `lang`), or of the key `slot` was opened with, no longer current.
pub fn respond<F>(
    slot: StreamSlot,
    lang: Lang,
    start: Start,
    last_kind: Option<&'static str>,
    next: F,
) -> HttpResponse
where
    F: AsyncFnMut(u64) -> Result<Vec<Frame>, ApiError> + 'static,
{
    let follow = Follow {
        slot,
        next,
        first: start.first,
        after: start.after,
        last_kind,
        lang,
        done: false,
    };
    let body = stream::unfold(follow, |mut f| async move {
        if f.done {
            return None;
        }
        let chunk = f.chunk().await;
        Some((Ok::<_, actix_web::Error>(Bytes::from(chunk)), f))
    });
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_event_is_framed_by_its_number_type_and_json() {
        let body = json!({"type": "hand_dealt", "dealer": 1});
        let view = json!({"seq": 3});
        let mut out = String::new();
        Frame::of(3, &body, &view).write_to(&mut out);
        assert_eq!(out, "id: 3\nevent: hand_dealt\ndata: {\"seq\":3}\n\n");
        let untyped = Frame::of(4, &json!({}), &json!({"seq": 4}));
        assert_eq!(untyped.kind, "event");
        let mut out = String::new();
        Frame::opening(None, "matches", &json!({"type": "matches"})).write_to(&mut out);
        assert_eq!(out, "event: matches\ndata: {\"type\":\"matches\"}\n\n");
    }

    #[test]
    fn an_error_event_carries_a_problem() {
        let e = ApiError::from(Error::MatchNotFound);
        let out = error_event(&e, Lang::En);
        assert!(out.starts_with("event: error\ndata: {"), "{out}");
        assert!(out.contains("\"code\":\"match_not_found\""), "{out}");
        assert!(out.ends_with("}\n\n"), "{out}");
        assert_eq!(KEEP_ALIVE, ": keep-alive\n\n");
    }
}
