//! The one error type of the service; the HTTP layer maps it to problem+json.

use crate::rules::RuleError;
use crate::store::StoreError;

/// Why a request was refused. Each variant has a stable `code` and status.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Malformed or out-of-range input.
    #[error("{0}")]
    InvalidRequest(String),
    /// Missing or wrong seat token.
    #[error("{0}")]
    Unauthorized(String),
    /// The token is valid but may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// No such match (or it expired).
    #[error("no match with this id")]
    MatchNotFound,
    /// The action belongs to another phase.
    #[error("{0}")]
    WrongPhase(String),
    /// Another seat is to act.
    #[error("{0}")]
    NotYourTurn(String),
    /// The action breaks a rule of the game, named by the refusal.
    #[error("{0}")]
    IllegalMove(RuleError),
    /// The match changed since the version the client sent.
    #[error("the match is at version {current}, not {expected}")]
    VersionConflict {
        /// The version the client expected.
        expected: u64,
        /// The version stored.
        current: u64,
    },
    /// Too many requests; retry after this many seconds.
    #[error("{detail}")]
    RateLimited {
        /// Seconds until a retry may succeed.
        retry_after: u64,
        /// The limit that was hit.
        detail: String,
    },
    /// The store cannot be reached; nothing was changed.
    #[error("the match store is unavailable; retry later")]
    StoreUnavailable,
    /// The body is not JSON (by its `Content-Type`).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// The client sent its request too slowly.
    #[error("{0}")]
    RequestTimeout(String),
    /// The server's bounded pools are all busy; retry later.
    #[error("{0}")]
    Busy(String),
    /// The store holds as many matches (or bytes) as it may; nothing changed.
    #[error("the match store is full; retry later")]
    StoreFull,
    /// The match reached its size cap; it can be read, not extended.
    #[error("{0}")]
    MatchTooLarge(String),
    /// A bug: logged, never detailed to the client.
    #[error("internal error")]
    Internal(String),
}

impl Error {
    /// The stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidRequest(_) => "invalid_request",
            Error::Unauthorized(_) => "unauthorized",
            Error::Forbidden(_) => "forbidden",
            Error::MatchNotFound => "match_not_found",
            Error::WrongPhase(_) => "wrong_phase",
            Error::NotYourTurn(_) => "not_your_turn",
            Error::IllegalMove(_) => "illegal_move",
            Error::VersionConflict { .. } => "version_conflict",
            Error::RateLimited { .. } => "rate_limited",
            Error::StoreUnavailable => "store_unavailable",
            Error::UnsupportedMediaType(_) => "unsupported_media_type",
            Error::RequestTimeout(_) => "request_timeout",
            Error::Busy(_) => "busy",
            Error::StoreFull => "store_full",
            Error::MatchTooLarge(_) => "match_too_large",
            Error::Internal(_) => "internal_error",
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            Error::InvalidRequest(_) => 400,
            Error::Unauthorized(_) => 401,
            Error::Forbidden(_) => 403,
            Error::MatchNotFound => 404,
            Error::WrongPhase(_) | Error::NotYourTurn(_) | Error::VersionConflict { .. } => 409,
            Error::IllegalMove(_) => 422,
            Error::RateLimited { .. } => 429,
            Error::StoreUnavailable | Error::Busy(_) => 503,
            Error::UnsupportedMediaType(_) => 415,
            Error::RequestTimeout(_) => 408,
            Error::StoreFull | Error::MatchTooLarge(_) => 507,
            Error::Internal(_) => 500,
        }
    }

    /// A short human title for the code.
    pub fn title(&self) -> &'static str {
        match self {
            Error::InvalidRequest(_) => "Invalid request",
            Error::Unauthorized(_) => "Unauthorized",
            Error::Forbidden(_) => "Forbidden",
            Error::MatchNotFound => "Match not found",
            Error::WrongPhase(_) => "Wrong phase",
            Error::NotYourTurn(_) => "Not your turn",
            Error::IllegalMove(_) => "Illegal move",
            Error::VersionConflict { .. } => "Version conflict",
            Error::RateLimited { .. } => "Too many requests",
            Error::StoreUnavailable => "Store unavailable",
            Error::UnsupportedMediaType(_) => "Unsupported media type",
            Error::RequestTimeout(_) => "Request timeout",
            Error::Busy(_) => "Busy",
            Error::StoreFull => "Store full",
            Error::MatchTooLarge(_) => "Match too large",
            Error::Internal(_) => "Internal error",
        }
    }
}

impl From<RuleError> for Error {
    fn from(e: RuleError) -> Error {
        match e {
            RuleError::WrongPhase { .. } => Error::WrongPhase(e.to_string()),
            RuleError::NotYourTurn { .. } => Error::NotYourTurn(e.to_string()),
            other => Error::IllegalMove(other),
        }
    }
}

impl From<StoreError> for Error {
    fn from(e: StoreError) -> Error {
        match e {
            StoreError::NotFound => Error::MatchNotFound,
            StoreError::Full => {
                super::metrics::metrics().limit_hit("store_full");
                Error::StoreFull
            }
            StoreError::Unavailable(detail) => {
                tracing::warn!(%detail, "store unavailable");
                Error::StoreUnavailable
            }
        }
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Error {
        Error::Internal(format!("stored state does not parse: {e}"))
    }
}
