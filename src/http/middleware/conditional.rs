//! Conditional reads: `ETag` and `If-None-Match`, the one place that reads
//! which representations a client holds (RFC 9110 §13.1.2: weak
//! comparison, `*` for any, several headers read as one list). Every
//! answer with an entity tag asks it: the reads of a match (the view, the
//! legal moves and the record) and the files of the web client.
//!
//! A representation of a match is made for one match version and one
//! viewer, so its entity tag names both: `"12-seat2"`, `"12-spectator"`.
//! The answers vary with `Authorization` (each seat sees its own cards)
//! and say so in `Vary`. A client that sends the tag back in
//! `If-None-Match` gets `304 Not Modified` with no body while the match
//! stands still; the server then loads the match once (to check the token)
//! and builds nothing. The version in a tag is also what `If-Match` takes
//! on an action.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder};

use crate::http::respond::json_body;
use crate::service::{Conditional, Tag};

/// The entity tag of a representation made for `tag`.
pub fn etag(tag: &Tag) -> String {
    match tag.seat {
        Some(s) => format!("\"{}-seat{s}\"", tag.version),
        None => format!("\"{}-spectator\"", tag.version),
    }
}

/// The entity tags of a request's `If-None-Match` (`None` without one).
pub struct IfNoneMatch(Option<Vec<String>>);

impl IfNoneMatch {
    /// The `If-None-Match` of `req`.
    pub fn of(req: &HttpRequest) -> IfNoneMatch {
        let values: Vec<String> = req
            .headers()
            .get_all(header::IF_NONE_MATCH)
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            // Weak comparison (RFC 9110 §13.1.2): `W/` does not matter.
            .map(|t| t.strip_prefix("W/").unwrap_or(t).to_string())
            .collect();
        IfNoneMatch((!values.is_empty()).then_some(values))
    }

    /// Whether the client holds the representation whose entity tag is
    /// `etag` (a quoted tag, as `ETag` sends it).
    pub fn holds_tag(&self, etag: &str) -> bool {
        let Some(tags) = &self.0 else { return false };
        tags.iter().any(|t| t == "*" || t == etag)
    }

    /// Whether the client holds the representation of a match made for
    /// `tag`.
    pub fn holds(&self, tag: &Tag) -> bool {
        self.holds_tag(&etag(tag))
    }
}

/// The headers every tagged answer carries: the tag, and how it varies.
fn tagged(builder: &mut HttpResponseBuilder, tag: &Tag) {
    if let Ok(v) = HeaderValue::from_str(&etag(tag)) {
        builder.insert_header((header::ETAG, v));
    }
    builder
        .insert_header((header::VARY, "Authorization"))
        .insert_header((header::CACHE_CONTROL, "private, no-cache"));
}

/// `304 Not Modified` for a representation the client holds.
fn not_modified(tag: &Tag) -> HttpResponse {
    let mut b = HttpResponse::NotModified();
    tagged(&mut b, tag);
    b.finish()
}

/// `200 OK` with `body` as JSON, tagged.
fn ok_json(tag: &Tag, body: impl serde::Serialize) -> HttpResponse {
    let mut b = HttpResponse::Ok();
    tagged(&mut b, tag);
    json_body(b, &body)
}

/// The answer to a conditional read of a match: `304` when the client
/// holds the representation, else `200` with `show` of it as JSON; tagged
/// either way.
pub fn answer<T, B: serde::Serialize>(
    read: Conditional<T>,
    show: impl FnOnce(T) -> B,
) -> HttpResponse {
    match read {
        Conditional::Unchanged(tag) => not_modified(&tag),
        Conditional::Changed(tag, body) => ok_json(&tag, show(body)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn a_tag_names_the_version_and_the_viewer_and_matches_weakly() {
        let seat = Tag {
            version: 12,
            seat: Some(2),
        };
        let spectator = Tag {
            version: 12,
            seat: None,
        };
        assert_eq!(etag(&seat), "\"12-seat2\"");
        assert_eq!(etag(&spectator), "\"12-spectator\"");
        let req = TestRequest::default()
            .insert_header((header::IF_NONE_MATCH, "\"11-seat2\", W/\"12-seat2\""))
            .to_http_request();
        let inm = IfNoneMatch::of(&req);
        assert!(inm.holds(&seat));
        assert!(!inm.holds(&spectator));
        let any = TestRequest::default()
            .insert_header((header::IF_NONE_MATCH, "*"))
            .to_http_request();
        assert!(IfNoneMatch::of(&any).holds(&spectator));
        let none = TestRequest::default().to_http_request();
        assert!(!IfNoneMatch::of(&none).holds(&seat));
    }

    #[test]
    fn any_entity_tag_is_held_when_sent_back() {
        let asset = "\"0a1b2c3d4e5f60718293a4b5\"";
        let req = TestRequest::default()
            .insert_header((header::IF_NONE_MATCH, asset))
            .to_http_request();
        assert!(IfNoneMatch::of(&req).holds_tag(asset));
        assert!(!IfNoneMatch::of(&req).holds_tag("\"ffffffffffffffffffffffff\""));
        let none = TestRequest::default().to_http_request();
        assert!(!IfNoneMatch::of(&none).holds_tag(asset));
    }
}
