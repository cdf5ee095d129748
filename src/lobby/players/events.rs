//! What a player's event stream tells: seats filled and freed, matches
//! started and over, its turn, queue matches and challenges.

use serde::{Deserialize, Serialize};

use crate::lobby::ratings::RatingChange;
use crate::rules::Seat;
use crate::service::SeatPlayer;

/// An event of a player's stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PlayerEvent {
    /// A seat of a table where the player sits was taken.
    SeatFilled {
        /// The table (and match-to-be) id.
        table_id: String,
        /// The seat taken.
        seat: Seat,
        /// The name shown at it.
        name: Option<String>,
        /// The player who took it, if it joined as one.
        player: Option<String>,
        /// Seats still open.
        open_seats: usize,
    },
    /// A seat of a table where the player sits was left.
    SeatFreed {
        /// The table id.
        table_id: String,
        /// The seat left.
        seat: Seat,
        /// Seats now open.
        open_seats: usize,
    },
    /// Another player reserved this one a seat at a table: it takes the
    /// seat with its key (`POST /v1/tables/{id}/join`) or declines it
    /// (`POST /v1/tables/{id}/decline`).
    TableInvited {
        /// The table (and match-to-be) id.
        table_id: String,
        /// The player who made the table.
        from: SeatPlayer,
        /// The seat reserved.
        seat: Seat,
        /// The variant's name.
        variant: String,
        /// When the table expires if seats are still open (RFC 3339).
        expires_at: String,
    },
    /// A match with the player in it started.
    MatchStarted {
        /// The match id.
        match_id: String,
        /// The player's seat.
        seat: Seat,
    },
    /// A queue ticket of the player was matched (its match has started).
    QueueMatched {
        /// The ticket.
        ticket_id: String,
        /// The match id.
        match_id: String,
        /// The player's seat.
        seat: Seat,
    },
    /// Another player asks this one to queue with it as its partner.
    PartyInvited {
        /// The party.
        party_id: String,
        /// Who asks.
        from: SeatPlayer,
        /// The variant's name.
        variant: String,
        /// Whether the match would be rated.
        rated: bool,
        /// When the invitation lapses unanswered (RFC 3339).
        expires_at: String,
    },
    /// The invited partner accepted the player's party: the pair queues.
    PartyAccepted {
        /// The party.
        party_id: String,
        /// The pair's ticket.
        ticket_id: String,
    },
    /// The invited partner declined the player's party.
    PartyDeclined {
        /// The party.
        party_id: String,
    },
    /// The player who proposed a party to this one withdrew it.
    PartyCancelled {
        /// The party.
        party_id: String,
    },
    /// The player's seat is to act.
    YourTurn {
        /// The match id.
        match_id: String,
        /// The seat to act.
        seat: Seat,
        /// The match version the turn came at.
        version: u64,
    },
    /// Another player challenged this one (as an opponent or as the
    /// challenger's partner).
    ChallengeReceived {
        /// The challenge (and match-to-be) id.
        challenge_id: String,
        /// The challenger.
        from: SeatPlayer,
        /// The variant's name.
        variant: String,
        /// Whether the match would be rated.
        rated: bool,
        /// The seat the player would have.
        seat: Seat,
        /// When it expires unanswered (RFC 3339).
        expires_at: String,
        /// The finished match this challenge is the rematch of.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rematch_of: Option<String>,
    },
    /// An invited player accepted a challenge the player is in.
    ChallengeAccepted {
        /// The challenge id.
        challenge_id: String,
        /// Who accepted.
        player: String,
        /// Invited players yet to accept.
        waiting_for: usize,
    },
    /// An invited player declined a challenge the player is in: it is
    /// closed.
    ChallengeDeclined {
        /// The challenge id.
        challenge_id: String,
        /// Who declined.
        player: String,
    },
    /// The challenger withdrew a challenge the player was invited to.
    ChallengeCancelled {
        /// The challenge id.
        challenge_id: String,
    },
    /// A challenge the player is in expired before everyone accepted.
    ChallengeExpired {
        /// The challenge id.
        challenge_id: String,
    },
    /// A match with the player in it is over.
    MatchOver {
        /// The match id.
        match_id: String,
        /// The player's seat.
        seat: Seat,
        /// The winning side, `"draw"`.
        winner: serde_json::Value,
        /// The final totals per side.
        scores: Vec<i32>,
        /// For a rated match: what it changed of the player's rating.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rating: Option<RatingChange>,
    },
    /// A round of a tournament the player entered was paired: its match
    /// and seat, or a bye.
    RoundStarted {
        /// The tournament.
        tournament_id: String,
        /// The round (in an arena, the wave) number, from 1.
        round: u32,
        /// The player's match, `None` for a bye.
        match_id: Option<String>,
        /// The player's seat, `None` for a bye.
        seat: Option<Seat>,
    },
    /// A tournament the player entered is over (or was cancelled).
    TournamentOver {
        /// The tournament.
        tournament_id: String,
        /// `over` or `cancelled`.
        status: String,
        /// The player's final rank, `None` when cancelled or never paired.
        rank: Option<usize>,
    },
}
