//! The request log: `tracing-actix-web`'s request span with the request's
//! secrets left out: the value of every `access_token` query parameter, and
//! an invite code in the path, both found in the request as the router and
//! the query extractor see it ([`routed`]).

use std::borrow::Cow;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::{Error as ActixError, HttpMessage};
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RequestId, RootSpanBuilder};

use super::routed;

/// The request's path and query as logged, `routed` being its path as
/// the router matches it (see [`routed`]): the value of every
/// `access_token` parameter (its name read as the query extractor reads
/// it), and the invite code of a path under `/v1/invites/` (however its
/// path is spelled), replaced by `[redacted]`. The rest is logged as sent:
/// the router's path keeps the request's slashes, so the code is the same
/// segment in both.
pub fn redacted_target<'a>(path_and_query: &'a str, routed: &str) -> Cow<'a, str> {
    let (path, query) = match path_and_query.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path_and_query, None),
    };
    // An invite code in the path is a secret too.
    let path: Cow<'_, str> = if routed.starts_with("/v1/invites/") {
        let mut segments: Vec<&str> = path.split('/').collect();
        if let Some(code) = segments.get_mut(3) {
            *code = "[redacted]";
        }
        Cow::Owned(segments.join("/"))
    } else {
        Cow::Borrowed(path)
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
            if routed::decoded(key) == "access_token" {
                "access_token=[redacted]"
            } else {
                pair
            }
        })
        .collect();
    Cow::Owned(format!("{path}?{}", query.join("&")))
}

/// The request span of the log: `tracing-actix-web`'s default fields, with
/// the target's `access_token` redacted (its own span logs the raw URI).
pub struct RedactedRootSpan;

/// The route pattern of `req`'s path as the router matches it, or
/// `default`.
fn route_of(req: &ServiceRequest) -> String {
    routed::pattern(req.request()).unwrap_or_else(|| "default".into())
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
            http.target = %redacted_target(
                req.uri().path_and_query().map_or("", |p| p.as_str()),
                routed::path(req.request()),
            ),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invite_code_is_redacted_however_the_path_is_spelled() {
        let cases = [
            ("/v1/invites/AB12/join", "/v1/invites/AB12/join"),
            ("/v1/%69nvites/AB12/join", "/v1/invites/AB12/join"),
            ("/%76%31/invites/AB12", "/v1/invites/AB12"),
        ];
        for (raw, routed) in cases {
            let logged = redacted_target(raw, routed);
            assert!(!logged.contains("AB12"), "{logged}");
            assert!(logged.contains("[redacted]"), "{logged}");
        }
        assert_eq!(
            redacted_target("/v1/%69nvites/AB12/join?x=1", "/v1/invites/AB12/join"),
            "/v1/%69nvites/[redacted]/join?x=1"
        );
        assert_eq!(
            redacted_target("/v1/tables/t1?%61ccess_token=s&a=b", "/v1/tables/t1"),
            "/v1/tables/t1?access_token=[redacted]&a=b"
        );
        assert_eq!(redacted_target("/v1/lobby", "/v1/lobby"), "/v1/lobby");
    }
}
