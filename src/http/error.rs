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

/// An RFC 9457 problem document with the stable `code` of API.md.
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
    /// `store_full`, `match_too_large`, `internal_error`.
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

impl From<&Error> for Problem {
    fn from(e: &Error) -> Problem {
        let detail = match e {
            Error::Internal(msg) => {
                tracing::error!(error = %msg, "internal error");
                "the server failed; the failure was logged".to_string()
            }
            other => other.to_string(),
        };
        let mut p = Problem::new(e.status(), e.code(), e.title(), detail);
        match e {
            Error::VersionConflict { current, .. } => p.current_version = Some(*current),
            Error::RateLimited { retry_after, .. } => p.retry_after = Some(*retry_after),
            _ => {}
        }
        p
    }
}

/// The service error as an actix response.
#[derive(Debug)]
pub struct ApiError(pub Error);

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        ApiError(e)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.0.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        Problem::from(&self.0).response()
    }
}

/// Turns an extractor's error into an `invalid_request` problem.
pub fn invalid(detail: impl std::fmt::Display) -> actix_web::Error {
    ApiError(Error::InvalidRequest(detail.to_string())).into()
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
