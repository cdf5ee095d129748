//! The stable `code` of a problem document as an enum of the OpenAPI
//! document, with the example each status shows.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The stable machine code of a problem (docs/api.md, "Errors").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProblemCode {
    /// 400: malformed body, header or query.
    InvalidRequest,
    /// 401: missing or wrong seat token.
    Unauthorized,
    /// 403: the token may not do this (the body names another seat).
    Forbidden,
    /// 404: no such match (or it expired).
    MatchNotFound,
    /// 404: no such resource.
    NotFound,
    /// 404: no such player.
    PlayerNotFound,
    /// 404: no such table.
    TableNotFound,
    /// 404: no table has this invite code.
    InviteNotFound,
    /// 409: the seat asked for is not open, or no suitable seat is.
    SeatTaken,
    /// 409: the table's match has started; its seats cannot be left.
    TableStarted,
    /// 410: the table expired before its seats were filled.
    TableExpired,
    /// 404: no such challenge.
    ChallengeNotFound,
    /// 409: the challenge was declined, cancelled or has started.
    ChallengeClosed,
    /// 409: the challenge expired before every invited player accepted.
    ChallengeExpired,
    /// 404: no such tournament.
    TournamentNotFound,
    /// 409: the tournament does not take this entry, withdrawal or start
    /// now.
    TournamentClosed,
    /// 409: the challenger has as many pending challenges as it may.
    TooManyChallenges,
    /// 409: the invited player has as many pending invitations as it may.
    InboxFull,
    /// 403: a seat names another player without its key (invite it instead).
    ConsentRequired,
    /// 404: no such queue ticket for this player.
    TicketNotFound,
    /// 409: the player (or its partner) already waits in the queue.
    AlreadyQueued,
    /// 409: the ticket was matched; it can no longer be left.
    TicketMatched,
    /// 404: no such queue party for this player.
    PartyNotFound,
    /// 409: the party was accepted, declined, cancelled or expired.
    PartyClosed,
    /// 507: the queue pool holds as many waiting tickets as it may.
    QueueFull,
    /// 405: the method is not allowed on this resource.
    MethodNotAllowed,
    /// 408: the request did not arrive in time.
    RequestTimeout,
    /// 413: the body is too large.
    PayloadTooLarge,
    /// 415: the body is not JSON.
    UnsupportedMediaType,
    /// 431: the request head is too large.
    HeadersTooLarge,
    /// 409: the action belongs to another phase.
    WrongPhase,
    /// 409: another seat is to act.
    NotYourTurn,
    /// 409: the match is not at the version the request expected.
    VersionConflict,
    /// 422: the action breaks a rule of the game (`detail` names it).
    IllegalMove,
    /// 422: an `Idempotency-Key` reused with a different request.
    IdempotencyKeyReused,
    /// 429: too many requests; see `Retry-After`.
    RateLimited,
    /// 503: the store is unavailable; nothing changed.
    StoreUnavailable,
    /// 503: the server's bounded pools are busy; retry later.
    Busy,
    /// 507: the store is full; nothing changed.
    StoreFull,
    /// 507: the match dealt every hand it may.
    MatchTooLarge,
    /// 409: an abort after the minimum of play (a hand played to its last
    /// trick).
    AbortTooLate,
    /// 409: a claim of victory before the opponent missed enough moves.
    ClaimTooEarly,
    /// 409: a rematch of a match not over yet.
    MatchNotOver,
    /// 500: a bug, logged.
    InternalError,
}

/// The codes an answer with this status can carry, the likeliest first
/// (the first is the status's example).
pub fn codes_of(status: u16) -> &'static [ProblemCode] {
    use ProblemCode::*;
    match status {
        400 => &[InvalidRequest],
        401 => &[Unauthorized],
        403 => &[Forbidden, ConsentRequired],
        404 => &[
            MatchNotFound,
            NotFound,
            PlayerNotFound,
            TableNotFound,
            InviteNotFound,
            ChallengeNotFound,
            TournamentNotFound,
            TicketNotFound,
            PartyNotFound,
        ],
        405 => &[MethodNotAllowed],
        408 => &[RequestTimeout],
        409 => &[
            NotYourTurn,
            WrongPhase,
            VersionConflict,
            SeatTaken,
            TableStarted,
            ChallengeClosed,
            ChallengeExpired,
            TournamentClosed,
            TooManyChallenges,
            InboxFull,
            AlreadyQueued,
            TicketMatched,
            PartyClosed,
            AbortTooLate,
            ClaimTooEarly,
            MatchNotOver,
        ],
        410 => &[TableExpired],
        413 => &[PayloadTooLarge],
        415 => &[UnsupportedMediaType],
        422 => &[IllegalMove, IdempotencyKeyReused],
        429 => &[RateLimited],
        431 => &[HeadersTooLarge],
        503 => &[StoreUnavailable, Busy],
        507 => &[StoreFull, MatchTooLarge, QueueFull],
        _ => &[InternalError],
    }
}

/// The title the server gives a code (as `error.rs` does), for examples.
pub fn example_title(code: ProblemCode) -> String {
    let words = serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
        .replace('_', " ");
    let mut c = words.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::problem::ApiError;
    use crate::rules::{Phase, RuleError};
    use crate::service::Error;

    #[test]
    fn every_code_the_server_gives_is_in_the_enum_under_its_status() {
        let s = || "x".to_string();
        let errors = [
            ApiError::Service(Error::InvalidRequest(s())),
            ApiError::Service(Error::Unauthorized(s())),
            ApiError::Service(Error::Forbidden(s())),
            ApiError::Service(Error::MatchNotFound),
            ApiError::Service(Error::PlayerNotFound),
            ApiError::Service(Error::TableNotFound),
            ApiError::Service(Error::InviteNotFound),
            ApiError::Service(Error::TableExpired),
            ApiError::Service(Error::SeatTaken(s())),
            ApiError::Service(Error::TableStarted),
            ApiError::Service(Error::ChallengeNotFound),
            ApiError::Service(Error::ChallengeClosed(s())),
            ApiError::Service(Error::ChallengeExpired),
            ApiError::Service(Error::TournamentNotFound),
            ApiError::Service(Error::TournamentClosed(s())),
            ApiError::Service(Error::TooManyChallenges(s())),
            ApiError::Service(Error::InboxFull(s())),
            ApiError::Service(Error::ConsentRequired(s())),
            ApiError::Service(Error::TicketNotFound),
            ApiError::Service(Error::AlreadyQueued(s())),
            ApiError::Service(Error::TicketMatched),
            ApiError::Service(Error::PartyNotFound),
            ApiError::Service(Error::PartyClosed(s())),
            ApiError::Service(Error::QueueFull(s())),
            ApiError::Service(Error::from(RuleError::WrongPhase {
                phase: Phase::Playing,
                expected: Phase::Doubling,
            })),
            ApiError::Service(Error::from(RuleError::NotYourTurn { turn: Some(1) })),
            ApiError::Service(Error::from(RuleError::NotInHand("9O".parse().unwrap()))),
            ApiError::Service(Error::VersionConflict {
                expected: 1,
                current: 2,
            }),
            ApiError::Service(Error::StoreUnavailable),
            ApiError::Service(Error::Busy(s())),
            ApiError::Service(Error::StoreFull),
            ApiError::Service(Error::MatchTooLarge(s())),
            ApiError::Service(Error::AbortTooLate(s())),
            ApiError::Service(Error::ClaimTooEarly(s())),
            ApiError::Service(Error::MatchNotOver(s())),
            ApiError::Service(Error::Internal(s())),
            ApiError::RateLimited {
                retry_after: 1,
                detail: s(),
            },
            ApiError::UnsupportedMediaType(s()),
            ApiError::RequestTimeout(s()),
        ];
        for e in errors {
            let (status, code, _) = e.status_code_title();
            let parsed: ProblemCode = serde_json::from_value(code.into())
                .unwrap_or_else(|_| panic!("{code} is not a ProblemCode"));
            assert!(codes_of(status).contains(&parsed), "{status} {code}");
        }
        assert_eq!(example_title(ProblemCode::NotYourTurn), "Not your turn");
    }
}
