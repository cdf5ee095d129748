//! The request log: `tracing-actix-web`'s request span with the request's
//! secrets left out: the value of every `access_token` query parameter, and
//! an invite code in the path.

use std::borrow::Cow;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::{Error as ActixError, HttpMessage};
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RequestId, RootSpanBuilder};

/// The request's path and query as logged: the value of every
/// `access_token` parameter, and an invite code in the path, replaced by
/// `[redacted]`.
pub fn redacted_target(path_and_query: &str) -> Cow<'_, str> {
    let (path, query) = match path_and_query.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path_and_query, None),
    };
    // An invite code in the path is a secret too.
    let path: Cow<'_, str> = match path.strip_prefix("/v1/invites/") {
        Some(rest) => {
            let tail = rest.find('/').map_or("", |i| &rest[i..]);
            Cow::Owned(format!("/v1/invites/[redacted]{tail}"))
        }
        None => Cow::Borrowed(path),
    };
    let Some(query) = query else {
        return match path {
            Cow::Borrowed(_) => Cow::Borrowed(path_and_query),
            Cow::Owned(p) => Cow::Owned(p),
        };
    };
    let query: Vec<&str> = query
        .split('&')
        .map(|pair| {
            let key = pair.split_once('=').map_or(pair, |(k, _)| k);
            if percent_decoded(key) == "access_token" {
                "access_token=[redacted]"
            } else {
                pair
            }
        })
        .collect();
    Cow::Owned(format!("{path}?{}", query.join("&")))
}

/// A query key as the query extractor reads it (`%XX` and `+` decoded), so
/// that an encoded `access_token` is redacted too.
fn percent_decoded(key: &str) -> String {
    let bytes = key.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The request span of the log: `tracing-actix-web`'s default fields, with
/// the target's `access_token` redacted (its own span logs the raw URI).
pub struct RedactedRootSpan;

/// The route pattern `req` matched, or `default`.
fn route_of(req: &ServiceRequest) -> String {
    req.match_pattern().unwrap_or_else(|| "default".into())
}

impl RootSpanBuilder for RedactedRootSpan {
    fn on_request_start(req: &ServiceRequest) -> Span {
        // Every field is computed inside the macro, that is only when the
        // span is recorded (the route is a pattern match on the path, the
        // target a copy): at the default log level a request pays for none.
        tracing::info_span!(
            "HTTP request",
            http.method = %req.method(),
            http.route = %route_of(req),
            http.flavor = ?req.version(),
            http.scheme = %req.connection_info().scheme(),
            http.host = %req.connection_info().host(),
            http.client_ip = %req.connection_info().realip_remote_addr().unwrap_or(""),
            http.user_agent = %req.headers().get(header::USER_AGENT).and_then(|h| h.to_str().ok()).unwrap_or(""),
            http.target = %redacted_target(req.uri().path_and_query().map_or("", |p| p.as_str())),
            http.status_code = tracing::field::Empty,
            otel.name = %format!("{} {}", req.method(), route_of(req)),
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            request_id = %req.extensions().get::<RequestId>().copied().map(|r| r.to_string()).unwrap_or_default(),
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    fn on_request_end<B: MessageBody>(
        span: Span,
        outcome: &Result<ServiceResponse<B>, ActixError>,
    ) {
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}
