//! Every error as `application/problem+json`, from one place.

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::service::Error;

/// An RFC 9457 problem document with the stable `code` of docs/api.md.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Problem {
    /// A URI naming the problem kind (`urn:botifarra:problem:<code>`).
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What exactly went wrong, e.g. "must follow suit O".
    pub detail: String,
    /// The stable machine code: `invalid_request`, `unauthorized`,
    /// `forbidden`, `match_not_found`, `not_found`, `method_not_allowed`,
    /// `payload_too_large`, `unsupported_media_type`, `request_timeout`,
    /// `headers_too_large`, `wrong_phase`, `not_your_turn`, `illegal_move`,
    /// `version_conflict`, `rate_limited`, `store_unavailable`, `busy`,
    /// `store_full`, `match_too_large`, `internal_error`, `player_not_found`,
    /// `table_not_found`, `invite_not_found`, `table_expired`, `seat_taken`.
    #[schema(example = "illegal_move")]
    pub code: String,
    /// With `version_conflict`: the version stored now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,
    /// With `rate_limited`: seconds to wait (also in `Retry-After`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
}

impl Problem {
    /// A problem with this status, code, title and detail.
    pub fn new(status: u16, code: &str, title: &str, detail: impl Into<String>) -> Problem {
        Problem {
            kind: format!("urn:botifarra:problem:{code}"),
            title: title.to_string(),
            status,
            detail: detail.into(),
            code: code.to_string(),
            current_version: None,
            retry_after: None,
        }
    }

    /// The HTTP response carrying this problem.
    pub fn response(&self) -> HttpResponse {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut builder = HttpResponse::build(status);
        builder.content_type("application/problem+json");
        if let Some(secs) = self.retry_after {
            builder.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        builder.body(serde_json::to_string(self).unwrap_or_default())
    }
}

/// Why a request was refused at the HTTP edge: a refusal of the service,
/// or one the edge makes before the service is asked.
#[derive(Clone, Debug)]
pub enum ApiError {
    /// The service refused.
    Service(Error),
    /// Too many requests; retry after this many seconds.
    RateLimited {
        /// Seconds until a retry may succeed.
        retry_after: u64,
        /// The limit that was hit.
        detail: String,
    },
    /// The body is not JSON (by its `Content-Type`).
    UnsupportedMediaType(String),
    /// The client sent its request too slowly.
    RequestTimeout(String),
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::Service(e) => e.fmt(f),
            ApiError::RateLimited { detail, .. }
            | ApiError::UnsupportedMediaType(detail)
            | ApiError::RequestTimeout(detail) => f.write_str(detail),
        }
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        ApiError::Service(e)
    }
}

/// The HTTP status, stable code and title of a service refusal.
fn service_status(e: &Error) -> (u16, &'static str, &'static str) {
    match e {
        Error::InvalidRequest(_) => (400, "invalid_request", "Invalid request"),
        Error::Unauthorized(_) => (401, "unauthorized", "Unauthorized"),
        Error::Forbidden(_) => (403, "forbidden", "Forbidden"),
        Error::MatchNotFound => (404, "match_not_found", "Match not found"),
        Error::PlayerNotFound => (404, "player_not_found", "Player not found"),
        Error::TableNotFound => (404, "table_not_found", "Table not found"),
        Error::InviteNotFound => (404, "invite_not_found", "Invite not found"),
        Error::TableExpired => (410, "table_expired", "Table expired"),
        Error::SeatTaken(_) => (409, "seat_taken", "Seat taken"),
        Error::WrongPhase(_) => (409, "wrong_phase", "Wrong phase"),
        Error::NotYourTurn(_) => (409, "not_your_turn", "Not your turn"),
        Error::VersionConflict { .. } => (409, "version_conflict", "Version conflict"),
        Error::IllegalMove(_) => (422, "illegal_move", "Illegal move"),
        Error::StoreUnavailable => (503, "store_unavailable", "Store unavailable"),
        Error::Busy(_) => (503, "busy", "Busy"),
        Error::StoreFull => (507, "store_full", "Store full"),
        Error::MatchTooLarge(_) => (507, "match_too_large", "Match too large"),
        Error::Internal(_) => (500, "internal_error", "Internal error"),
    }
}

impl ApiError {
    /// The HTTP status, the stable code of docs/api.md and a short title.
    pub fn status_code_title(&self) -> (u16, &'static str, &'static str) {
        match self {
            ApiError::Service(e) => service_status(e),
            ApiError::RateLimited { .. } => (429, "rate_limited", "Too many requests"),
            ApiError::UnsupportedMediaType(_) => {
                (415, "unsupported_media_type", "Unsupported media type")
            }
            ApiError::RequestTimeout(_) => (408, "request_timeout", "Request timeout"),
        }
    }
}

impl From<&ApiError> for Problem {
    fn from(e: &ApiError) -> Problem {
        let detail = match e {
            ApiError::Service(Error::Internal(msg)) => {
                tracing::error!(error = %msg, "internal error");
                "the server failed; the failure was logged".to_string()
            }
            other => other.to_string(),
        };
        let (status, code, title) = e.status_code_title();
        let mut p = Problem::new(status, code, title, detail);
        match e {
            ApiError::Service(Error::VersionConflict { current, .. }) => {
                p.current_version = Some(*current)
            }
            ApiError::RateLimited { retry_after, .. } => p.retry_after = Some(*retry_after),
            _ => {}
        }
        p
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status_code_title().0)
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        Problem::from(self).response()
    }
}

/// Turns an extractor's error into an `invalid_request` problem.
pub fn invalid(detail: impl std::fmt::Display) -> actix_web::Error {
    ApiError::from(Error::InvalidRequest(detail.to_string())).into()
}

/// Rewrites any error response that is not already problem+json (unknown
/// route, wrong method, oversized body, …) as one.
///
/// Some errors never reach the application: a request the HTTP parser
/// rejects (a malformed request line or header, a NUL in a header, both
/// `Content-Length` and `Transfer-Encoding`, two `Content-Length`s, a head
/// over the size limit) is answered by actix-http's connection dispatcher
/// with a bare `400` or `431` and the connection closed, before any
/// middleware runs; those answers cannot be rewritten here.
pub fn problem_for_any_error<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v == HeaderValue::from_static("application/problem+json"));
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let (code, title) = match status.as_u16() {
        404 => ("not_found", "Not found"),
        405 => ("method_not_allowed", "Method not allowed"),
        408 => ("request_timeout", "Request timeout"),
        413 => ("payload_too_large", "Payload too large"),
        415 => ("unsupported_media_type", "Unsupported media type"),
        431 => ("headers_too_large", "Request header fields too large"),
        s if s >= 500 => ("internal_error", "Internal error"),
        _ => ("invalid_request", "Invalid request"),
    };
    let detail = match status.as_u16() {
        404 => format!("no resource at {}", res.request().path()),
        405 => format!(
            "{} is not allowed on {}",
            res.request().method(),
            res.request().path()
        ),
        413 => "the request body is too large".to_string(),
        _ => status.canonical_reason().unwrap_or("error").to_string(),
    };
    let problem = Problem::new(status.as_u16(), code, title, detail);
    let (req, _) = res.into_parts();
    let res = ServiceResponse::new(req, problem.response()).map_into_right_body::<B>();
    Ok(ErrorHandlerResponse::Response(res))
}
