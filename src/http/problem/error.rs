//! Every error as `application/problem+json`, from one place, in the
//! language the client asks for (see [`super::i18n`]).

use std::borrow::Cow;

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

use super::i18n::{self, Lang};
use crate::rules::RuleError;
use crate::service::Error;

/// An RFC 9457 problem document with the stable `code` of docs/api.md.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Problem {
    /// A URI naming the problem kind (`urn:botifarra:problem:<code>`).
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind, in the language of `Content-Language`.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What exactly went wrong, e.g. "must follow suit O", in the language
    /// of `Content-Language` (English, Catalan or Spanish by
    /// `Accept-Language`).
    pub detail: String,
    /// The stable machine code: `invalid_request`, `unauthorized`,
    /// `forbidden`, `match_not_found`, `not_found`, `method_not_allowed`,
    /// `payload_too_large`, `unsupported_media_type`, `request_timeout`,
    /// `headers_too_large`, `wrong_phase`, `not_your_turn`, `illegal_move`,
    /// `version_conflict`, `idempotency_key_reused`, `rate_limited`,
    /// `store_unavailable`, `busy`, `store_full`, `capacity_reached`, `match_too_large`,
    /// `internal_error`, `player_not_found`, `table_not_found`,
    /// `invite_not_found`, `table_expired`, `seat_taken`, `table_started`,
    /// `consent_required`, `too_many_challenges`, `inbox_full`.
    #[schema(value_type = crate::http::openapi::schema::problem::ProblemCode)]
    pub code: String,
    /// With `illegal_move`, `wrong_phase` and `not_your_turn`: the rule the
    /// action breaks, as a stable word (the same in every language).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<RuleCode>)]
    pub rule: Option<&'static str>,
    /// With `version_conflict`: the version stored now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<u64>,
    /// With `rate_limited`: seconds to wait (also in `Retry-After`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
    /// The language `title` and `detail` are written in.
    #[serde(skip)]
    pub lang: Lang,
}

/// The rule an action breaks (the `rule` of a problem): one word per rule
/// of docs/rules.md, stable across versions and languages.
pub struct RuleCode;

impl PartialSchema for RuleCode {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "The rule an action breaks: `not_in_hand`, `must_follow_suit`, `must_beat`, \
                 `must_trump_to_beat`, `must_trump` (4.2), the forced mode's (4.1) \
                 `forced_lowest_of_suit` and `forced_lowest_of_a_suit` (void), each also \
                 `…_or_counting` when a counting card is allowed too, `must_name_trump`, \
                 `estevet_only_in_abarrotada`, `wrong_call`; with `409`, `wrong_phase` and \
                 `not_your_turn`.",
            ))
            .enum_values(Some(RuleError::CODES.iter().copied()))
            .examples([serde_json::json!("must_follow_suit")])
            .into()
    }
}

impl ToSchema for RuleCode {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("RuleCode")
    }
}

impl Problem {
    /// A problem with this status, code, title and detail (in English).
    pub fn new(status: u16, code: &str, title: &str, detail: impl Into<String>) -> Problem {
        Problem {
            kind: format!("urn:botifarra:problem:{code}"),
            title: title.to_string(),
            status,
            detail: detail.into(),
            code: code.to_string(),
            rule: None,
            current_version: None,
            retry_after: None,
            lang: Lang::En,
        }
    }

    /// A problem of this status and code, its title and `detail` (an English
    /// sentence of the server) in `lang`.
    pub fn localized(status: u16, code: &str, detail: &str, lang: Lang) -> Problem {
        let mut p = Problem::new(
            status,
            code,
            i18n::title(code, lang),
            i18n::detail(detail, lang),
        );
        p.lang = lang;
        p
    }

    /// The problem of an edge refusal, in `lang`.
    pub fn of(e: &ApiError, lang: Lang) -> Problem {
        let (status, code, _) = e.status_code_title();
        let rule = match e {
            ApiError::Service(
                Error::IllegalMove(r) | Error::WrongPhase(r) | Error::NotYourTurn(r),
            ) => Some(r),
            _ => None,
        };
        let mut p = match rule {
            Some(r) => {
                let mut p =
                    Problem::new(status, code, i18n::title(code, lang), i18n::rule(r, lang));
                p.lang = lang;
                p.rule = Some(r.code());
                p
            }
            None => {
                let detail = match e {
                    ApiError::Service(Error::Internal(_)) => {
                        Cow::Borrowed("the server failed; the failure was logged")
                    }
                    other => Cow::Owned(other.to_string()),
                };
                Problem::localized(status, code, &detail, lang)
            }
        };
        match e {
            ApiError::Service(Error::VersionConflict { current, .. }) => {
                p.current_version = Some(*current)
            }
            ApiError::RateLimited { retry_after, .. } => p.retry_after = Some(*retry_after),
            _ => {}
        }
        p
    }

    /// The HTTP response carrying this problem, with `Content-Language`.
    pub fn response(&self) -> HttpResponse {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut builder = HttpResponse::build(status);
        builder
            .content_type("application/problem+json")
            .insert_header((header::CONTENT_LANGUAGE, self.lang.tag()))
            .insert_header((header::VARY, "Accept-Language"));
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
    /// No resource at this path.
    NotFound(String),
    /// The path names a resource, which does not take this method.
    MethodNotAllowed {
        /// The method asked.
        method: String,
        /// The path asked.
        path: String,
        /// The methods the resource takes, as the `Allow` header lists them.
        allow: String,
    },
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::Service(e) => e.fmt(f),
            ApiError::RateLimited { detail, .. }
            | ApiError::UnsupportedMediaType(detail)
            | ApiError::RequestTimeout(detail) => f.write_str(detail),
            ApiError::NotFound(path) => write!(f, "no resource at {path}"),
            ApiError::MethodNotAllowed {
                method,
                path,
                allow,
            } => write!(f, "{method} is not allowed on {path}; allowed: {allow}"),
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
        Error::TableStarted => (409, "table_started", "Table started"),
        Error::ChallengeNotFound => (404, "challenge_not_found", "Challenge not found"),
        Error::ChallengeClosed(_) => (409, "challenge_closed", "Challenge closed"),
        Error::ChallengeExpired => (409, "challenge_expired", "Challenge expired"),
        Error::TournamentNotFound => (404, "tournament_not_found", "Tournament not found"),
        Error::TournamentClosed(_) => (409, "tournament_closed", "Tournament closed"),
        Error::TooManyChallenges(_) => (409, "too_many_challenges", "Too many challenges"),
        Error::InboxFull(_) => (409, "inbox_full", "Inbox full"),
        Error::ConsentRequired(_) => (403, "consent_required", "Consent required"),
        Error::TicketNotFound => (404, "ticket_not_found", "Ticket not found"),
        Error::AlreadyQueued(_) => (409, "already_queued", "Already queued"),
        Error::TicketMatched => (409, "ticket_matched", "Ticket matched"),
        Error::PartyNotFound => (404, "party_not_found", "Party not found"),
        Error::PartyClosed(_) => (409, "party_closed", "Party closed"),
        Error::QueueFull(_) => (507, "queue_full", "Queue full"),
        Error::WrongPhase(_) => (409, "wrong_phase", "Wrong phase"),
        Error::NotYourTurn(_) => (409, "not_your_turn", "Not your turn"),
        Error::VersionConflict { .. } => (409, "version_conflict", "Version conflict"),
        Error::IdempotencyKeyReused => (422, "idempotency_key_reused", "Idempotency key reused"),
        Error::IllegalMove(_) => (422, "illegal_move", "Illegal move"),
        Error::StoreUnavailable => (503, "store_unavailable", "Store unavailable"),
        Error::Busy(_) => (503, "busy", "Busy"),
        Error::StoreFull => (507, "store_full", "Store full"),
        Error::CapacityReached(_) => (507, "capacity_reached", "Capacity reached"),
        Error::MatchTooLarge(_) => (507, "match_too_large", "Match too large"),
        Error::AbortTooLate(_) => (409, "abort_too_late", "Abort too late"),
        Error::ClaimTooEarly(_) => (409, "claim_too_early", "Claim too early"),
        Error::MatchNotOver(_) => (409, "match_not_over", "Match not over"),
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
            ApiError::NotFound(_) => (404, "not_found", "Not found"),
            ApiError::MethodNotAllowed { .. } => (405, "method_not_allowed", "Method not allowed"),
        }
    }

    /// The response to this refusal, in `lang` (with `Allow` for `405`).
    pub fn response_in(&self, lang: Lang) -> HttpResponse {
        let mut res = Problem::of(self, lang).response();
        if let ApiError::MethodNotAllowed { allow, .. } = self
            && let Ok(v) = HeaderValue::from_str(allow)
        {
            res.headers_mut().insert(header::ALLOW, v);
        }
        res
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status_code_title().0)
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    /// The English answer; [`problem_for_any_error`] writes it again in the
    /// request's language.
    fn error_response(&self) -> HttpResponse {
        if let ApiError::Service(Error::Internal(msg)) = self {
            tracing::error!(error = %msg, "internal error");
        }
        self.response_in(Lang::En)
    }
}

/// Turns an extractor's error into an `invalid_request` problem.
pub fn invalid(detail: impl std::fmt::Display) -> actix_web::Error {
    ApiError::from(Error::InvalidRequest(detail.to_string())).into()
}

/// Writes every error response as a problem in the request's language:
/// a refusal of this server ([`ApiError`]) again in that language, and any
/// other error response that is not already problem+json (an oversized
/// body, a route actix itself refuses, …) as one.
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
    let lang = Lang::of(res.request());
    let refusal = res
        .response()
        .error()
        .and_then(|e| e.as_error::<ApiError>())
        .cloned();
    if let Some(e) = refusal {
        // The same head (its connection handling and the error the request
        // log reads), with the headers and body of the answer in `lang`.
        let fresh = e.response_in(lang);
        let (req, mut res) = res.into_parts();
        for (name, value) in fresh.headers() {
            res.headers_mut().insert(name.clone(), value.clone());
        }
        let res = res.set_body(fresh.into_body());
        let res = ServiceResponse::new(req, res).map_into_right_body::<B>();
        return Ok(ErrorHandlerResponse::Response(res));
    }
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v == HeaderValue::from_static("application/problem+json"));
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let code = match status.as_u16() {
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "request_timeout",
        413 => "payload_too_large",
        415 => "unsupported_media_type",
        431 => "headers_too_large",
        s if s >= 500 => "internal_error",
        _ => "invalid_request",
    };
    let detail = match status.as_u16() {
        404 => format!("no resource at {}", res.request().path()),
        413 => "the request body is too large".to_string(),
        // No sentence of ours: the title says it.
        _ => i18n::title(code, Lang::En).to_string(),
    };
    let problem = Problem::localized(status.as_u16(), code, &detail, lang);
    let (req, _) = res.into_parts();
    let res = ServiceResponse::new(req, problem.response()).map_into_right_body::<B>();
    Ok(ErrorHandlerResponse::Response(res))
}
