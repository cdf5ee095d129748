//! The one error type of the service; the HTTP layer gives each variant its
//! status, code and title.

use crate::rules::RuleError;
use crate::store::StoreError;

/// Why a request was refused.
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
    /// No such player.
    #[error("no player with this id")]
    PlayerNotFound,
    /// No such table (or it is long gone).
    #[error("no table with this id")]
    TableNotFound,
    /// No table has this invite code.
    #[error("no table has this invite code")]
    InviteNotFound,
    /// The table expired with seats still open.
    #[error("the table expired before its seats were filled")]
    TableExpired,
    /// The table's match has started: its seats can no longer be left.
    #[error("the match has started; a seat can be left only before")]
    TableStarted,
    /// No such challenge (or it is long gone).
    #[error("no challenge with this id")]
    ChallengeNotFound,
    /// The challenge was declined, cancelled or has started: it can no
    /// longer be answered.
    #[error("{0}")]
    ChallengeClosed(String),
    /// No such tournament.
    #[error("no tournament with this id")]
    TournamentNotFound,
    /// The tournament does not take this entry, withdrawal or start now.
    #[error("{0}")]
    TournamentClosed(String),
    /// The challenge expired before every invited player accepted.
    #[error("the challenge expired before every invited player accepted")]
    ChallengeExpired,
    /// The challenger has as many pending challenges as it may.
    #[error("{0}")]
    TooManyChallenges(String),
    /// The invited player has as many pending invitations (challenges and
    /// reserved seats) waiting for its answer as it may.
    #[error("{0}")]
    InboxFull(String),
    /// The request names another player without that player's key: only
    /// an invitation it answers (a challenge, a reserved seat) can seat it.
    #[error("{0}")]
    ConsentRequired(String),
    /// No such matchmaking ticket (or not the caller's).
    #[error("no queue ticket with this id for this player")]
    TicketNotFound,
    /// The player (or its partner) already waits in the queue.
    #[error("{0}")]
    AlreadyQueued(String),
    /// The ticket was matched: it can no longer be left.
    #[error("the ticket was matched; play the match")]
    TicketMatched,
    /// No such queue party (or the caller is not in it).
    #[error("no queue party with this id for this player")]
    PartyNotFound,
    /// The party was accepted, declined, cancelled or expired.
    #[error("{0}")]
    PartyClosed(String),
    /// The queue pool holds as many waiting tickets as it may.
    #[error("{0}")]
    QueueFull(String),
    /// The seat asked for is taken, or no seat is open.
    #[error("{0}")]
    SeatTaken(String),
    /// The action belongs to another phase (a [`RuleError::WrongPhase`]).
    #[error("{0}")]
    WrongPhase(RuleError),
    /// Another seat is to act (a [`RuleError::NotYourTurn`]).
    #[error("{0}")]
    NotYourTurn(RuleError),
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
    /// The idempotency key was last used for a different request; nothing
    /// was changed.
    #[error(
        "this Idempotency-Key was used for a different request; send a new key with a new request"
    )]
    IdempotencyKeyReused,
    /// The store cannot be reached; nothing was changed.
    #[error("the match store is unavailable; retry later")]
    StoreUnavailable,
    /// The server's bounded pools are all busy; retry later.
    #[error("{0}")]
    Busy(String),
    /// The store holds as many matches (or bytes) as it may; nothing changed.
    #[error("the match store is full; retry later")]
    StoreFull,
    /// The server holds as many of something (players) as it is
    /// configured to; nothing changed.
    #[error("{0}")]
    CapacityReached(String),
    /// An abort after the minimum of play; nothing changed.
    #[error("{0}")]
    AbortTooLate(String),
    /// A claim of victory before the opponent missed enough moves, or
    /// against a seat that is not an absent opponent; nothing changed.
    #[error("{0}")]
    ClaimTooEarly(String),
    /// A rematch of a match not over yet; nothing changed.
    #[error("{0}")]
    MatchNotOver(String),
    /// The match reached its size cap; it can be read, not extended.
    #[error("{0}")]
    MatchTooLarge(String),
    /// A bug: logged, never detailed to the client.
    #[error("internal error")]
    Internal(String),
}

impl From<RuleError> for Error {
    fn from(e: RuleError) -> Error {
        match e {
            RuleError::WrongPhase { .. } => Error::WrongPhase(e),
            RuleError::NotYourTurn { .. } => Error::NotYourTurn(e),
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
