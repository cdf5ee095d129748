//! The events of a player's stream as the API shows them: one named schema
//! per event type (`YourTurnEvent`, `MatchStartedEvent`, …), each with
//! `type`, `seq` and its own fields, joined in the `PlayerEvent` union
//! with a `type` discriminator.
//!
//! The lobby sends its own event type with `seq` beside it; the types here
//! describe that JSON. [`type_of`] names every variant and field of the
//! lobby's event, so a change there fails to compile here, and a test reads
//! one of each through these types (unknown fields refused) and checks it
//! serializes back unchanged.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::SeatNumber;
use super::actions::tag;
use crate::http::players::seat_player::SeatPlayer as SeatPlayerShown;
use crate::rules::{Seat, Variant, Winner};
use crate::service::SeatPlayer;

/// Defines one player event type: its `type`, its `seq`, then its own
/// fields.
macro_rules! player_event {
    (
        $(#[$doc:meta])*
        $name:ident, $tag:ident, $value:literal { $($(#[$fdoc:meta])* $field:ident : $ty:ty,)* }
    ) => {
        tag!($tag, $value);

        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            #[serde(rename = "type")]
            #[schema(inline)]
            kind: $tag,
            /// 1, 2, 3, … per player, never reused: the stream's event id,
            /// and what `?after=` and `Last-Event-ID` take.
            #[schema(minimum = 1)]
            pub seq: u64,
            $($(#[$fdoc])* pub $field: $ty,)*
        }
    };
}

player_event!(
    /// A seat of a table where the player sits was taken.
    SeatFilledEvent, SeatFilledTag, "seat_filled" {
        /// The table (and match-to-be) id.
        table_id: String,
        /// The seat taken.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// The name shown at it.
        name: Option<String>,
        /// The player who took it, if it joined as one.
        player: Option<String>,
        /// Seats still open.
        open_seats: u32,
    }
);
player_event!(
    /// A seat of a table where the player sits was left.
    SeatFreedEvent, SeatFreedTag, "seat_freed" {
        /// The table id.
        table_id: String,
        /// The seat left.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// Seats now open.
        open_seats: u32,
    }
);
player_event!(
    /// Another player reserved this one a seat at a table: it takes the
    /// seat with its key (`POST /v1/tables/{id}/join`) or declines it
    /// (`POST /v1/tables/{id}/decline`).
    TableInvitedEvent, TableInvitedTag, "table_invited" {
        /// The table (and match-to-be) id.
        table_id: String,
        /// The player who made the table.
        #[schema(value_type = SeatPlayerShown)]
        from: SeatPlayer,
        /// The seat reserved.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// The variant's name.
        variant: Variant,
        /// When the table expires if seats are still open (RFC 3339).
        expires_at: String,
    }
);
player_event!(
    /// A match with the player in it started.
    MatchStartedEvent, MatchStartedTag, "match_started" {
        /// The match id.
        match_id: String,
        /// The player's seat.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
    }
);
player_event!(
    /// A queue ticket of the player was matched (its match has started).
    QueueMatchedEvent, QueueMatchedTag, "queue_matched" {
        /// The ticket.
        ticket_id: String,
        /// The match id.
        match_id: String,
        /// The player's seat.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
    }
);
player_event!(
    /// Another player asks this one to queue with it as its partner.
    PartyInvitedEvent, PartyInvitedTag, "party_invited" {
        /// The party.
        party_id: String,
        /// Who asks.
        #[schema(value_type = SeatPlayerShown)]
        from: SeatPlayer,
        /// The variant's name.
        variant: Variant,
        /// Whether the match would be rated.
        rated: bool,
        /// When the invitation lapses unanswered (RFC 3339).
        expires_at: String,
    }
);
player_event!(
    /// The invited partner accepted the player's party: the pair queues.
    PartyAcceptedEvent, PartyAcceptedTag, "party_accepted" {
        /// The party.
        party_id: String,
        /// The pair's ticket.
        ticket_id: String,
    }
);
player_event!(
    /// The invited partner declined the player's party.
    PartyDeclinedEvent, PartyDeclinedTag, "party_declined" {
        /// The party.
        party_id: String,
    }
);
player_event!(
    /// The player who proposed a party to this one withdrew it.
    PartyCancelledEvent, PartyCancelledTag, "party_cancelled" {
        /// The party.
        party_id: String,
    }
);
player_event!(
    /// The player's seat is to act: fetch `legal-moves` (or the view) and
    /// act with `expected_version` = `version`.
    YourTurnEvent, YourTurnTag, "your_turn" {
        /// The match id.
        match_id: String,
        /// The seat to act.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// The match version the turn came at.
        version: u64,
    }
);
player_event!(
    /// Another player challenged this one (as an opponent or as the
    /// challenger's partner).
    ChallengeReceivedEvent, ChallengeReceivedTag, "challenge_received" {
        /// The challenge (and match-to-be) id.
        challenge_id: String,
        /// The challenger.
        #[schema(value_type = SeatPlayerShown)]
        from: SeatPlayer,
        /// The variant's name.
        variant: Variant,
        /// Whether the match would be rated.
        rated: bool,
        /// The seat the player would have.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// When it expires unanswered (RFC 3339).
        expires_at: String,
        /// The finished match this challenge is the rematch of (absent
        /// for any other challenge).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(required = false)]
        rematch_of: Option<String>,
    }
);
player_event!(
    /// An invited player accepted a challenge the player is in.
    ChallengeAcceptedEvent, ChallengeAcceptedTag, "challenge_accepted" {
        /// The challenge id.
        challenge_id: String,
        /// Who accepted.
        player: String,
        /// Invited players yet to accept.
        waiting_for: u32,
    }
);
player_event!(
    /// An invited player declined a challenge the player is in: it is
    /// closed.
    ChallengeDeclinedEvent, ChallengeDeclinedTag, "challenge_declined" {
        /// The challenge id.
        challenge_id: String,
        /// Who declined.
        player: String,
    }
);
player_event!(
    /// The challenger withdrew a challenge the player was invited to.
    ChallengeCancelledEvent, ChallengeCancelledTag, "challenge_cancelled" {
        /// The challenge id.
        challenge_id: String,
    }
);
player_event!(
    /// A challenge the player is in expired before everyone accepted.
    ChallengeExpiredEvent, ChallengeExpiredTag, "challenge_expired" {
        /// The challenge id.
        challenge_id: String,
    }
);
player_event!(
    /// A match with the player in it is over.
    PlayerMatchOverEvent, PlayerMatchOverTag, "match_over" {
        /// The match id.
        match_id: String,
        /// The player's seat.
        #[schema(value_type = SeatNumber)]
        seat: Seat,
        /// The winning side, or `"draw"`; null when the match ended with
        /// no winner (aborted).
        winner: Option<Winner>,
        /// The final totals per side.
        scores: Vec<i32>,
        /// For a rated match: what it changed of the player's rating.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(required = false)]
        rating: Option<RatingChangeShown>,
    }
);

player_event!(
    /// A round of a tournament the player entered was paired (in an arena,
    /// a new game): its match and seat, or a bye (both null).
    RoundStartedEvent, RoundStartedTag, "round_started" {
        /// The tournament.
        tournament_id: String,
        /// The round (in an arena, the wave of pairings), from 1.
        #[schema(minimum = 1)]
        round: u32,
        /// The player's match; null for a bye.
        match_id: Option<String>,
        /// The player's seat; null for a bye.
        #[schema(value_type = Option<SeatNumber>)]
        seat: Option<Seat>,
    }
);
player_event!(
    /// A tournament the player entered is over, or was cancelled.
    TournamentOverEvent, TournamentOverTag, "tournament_over" {
        /// The tournament.
        tournament_id: String,
        /// How it ended.
        status: TournamentEnd,
        /// The player's final rank; null when cancelled or never paired.
        #[schema(minimum = 1)]
        rank: Option<u32>,
    }
);

/// How a tournament ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentEnd {
    /// Every result is in.
    Over,
    /// Too few entered to seat a table.
    Cancelled,
}

/// What a rated match changed of the player's rating (docs/api.md, "Fair
/// play").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingChangeShown {
    /// The pool (the variant's name).
    pub pool: String,
    /// The rating before the match.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// The player's score (1 a win, 0.5 a draw, 0 a loss; the mean over
    /// the other seats in the individual variants).
    pub score: f64,
    /// Set when the match left the rating as it was, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    pub unrated: Option<UnratedReason>,
}

/// Why a rated match left a rating as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnratedReason {
    /// No hand was played to its end.
    Aborted,
    /// Results against the same opponents already counted as often as
    /// they may that day.
    RepeatedOpponent,
    /// Results against players registered from the player's own address
    /// already counted as often as they may that day.
    SameAddress,
    /// An established rating is not moved by provisional opponents.
    ProvisionalOpponent,
}

/// One event of a player's stream; `type` says which.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
#[schema(discriminator(property_name = "type", mapping(
    ("seat_filled" = "#/components/schemas/SeatFilledEvent"),
    ("seat_freed" = "#/components/schemas/SeatFreedEvent"),
    ("table_invited" = "#/components/schemas/TableInvitedEvent"),
    ("match_started" = "#/components/schemas/MatchStartedEvent"),
    ("queue_matched" = "#/components/schemas/QueueMatchedEvent"),
    ("party_invited" = "#/components/schemas/PartyInvitedEvent"),
    ("party_accepted" = "#/components/schemas/PartyAcceptedEvent"),
    ("party_declined" = "#/components/schemas/PartyDeclinedEvent"),
    ("party_cancelled" = "#/components/schemas/PartyCancelledEvent"),
    ("your_turn" = "#/components/schemas/YourTurnEvent"),
    ("challenge_received" = "#/components/schemas/ChallengeReceivedEvent"),
    ("challenge_accepted" = "#/components/schemas/ChallengeAcceptedEvent"),
    ("challenge_declined" = "#/components/schemas/ChallengeDeclinedEvent"),
    ("challenge_cancelled" = "#/components/schemas/ChallengeCancelledEvent"),
    ("challenge_expired" = "#/components/schemas/ChallengeExpiredEvent"),
    ("match_over" = "#/components/schemas/PlayerMatchOverEvent"),
    ("round_started" = "#/components/schemas/RoundStartedEvent"),
    ("tournament_over" = "#/components/schemas/TournamentOverEvent"),
)))]
pub enum PlayerEvent {
    /// `seat_filled`.
    SeatFilled(SeatFilledEvent),
    /// `seat_freed`.
    SeatFreed(SeatFreedEvent),
    /// `table_invited`.
    TableInvited(TableInvitedEvent),
    /// `match_started`.
    MatchStarted(MatchStartedEvent),
    /// `queue_matched`.
    QueueMatched(QueueMatchedEvent),
    /// `party_invited`.
    PartyInvited(PartyInvitedEvent),
    /// `party_accepted`.
    PartyAccepted(PartyAcceptedEvent),
    /// `party_declined`.
    PartyDeclined(PartyDeclinedEvent),
    /// `party_cancelled`.
    PartyCancelled(PartyCancelledEvent),
    /// `your_turn`.
    YourTurn(YourTurnEvent),
    /// `challenge_received`.
    ChallengeReceived(ChallengeReceivedEvent),
    /// `challenge_accepted`.
    ChallengeAccepted(ChallengeAcceptedEvent),
    /// `challenge_declined`.
    ChallengeDeclined(ChallengeDeclinedEvent),
    /// `challenge_cancelled`.
    ChallengeCancelled(ChallengeCancelledEvent),
    /// `challenge_expired`.
    ChallengeExpired(ChallengeExpiredEvent),
    /// `match_over`.
    MatchOver(PlayerMatchOverEvent),
    /// `round_started`.
    RoundStarted(RoundStartedEvent),
    /// `tournament_over`.
    TournamentOver(TournamentOverEvent),
}

#[cfg(test)]
mod tests;
