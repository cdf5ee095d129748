//! The request and response types of challenges, with their OpenAPI
//! schemas; the conversions name every field of both sides.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::http::matches::wire::OnTimeout;
use crate::http::players::wire::SeatPlayer;
use crate::lobby::{self, challenges};
use crate::rules::{Rules, Seat, Side, Variant};

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    /// Waiting for the invited players.
    Pending,
    /// Everyone accepted; the match is being created.
    Starting,
    /// The match exists (`match_id`).
    Started,
    /// An invited player declined (`declined_by`).
    Declined,
    /// The challenger withdrew it.
    Cancelled,
    /// It expired before everyone accepted.
    Expired,
}

impl From<challenges::ChallengeStatus> for ChallengeStatus {
    fn from(s: challenges::ChallengeStatus) -> ChallengeStatus {
        use challenges::ChallengeStatus as S;
        match s {
            S::Pending => ChallengeStatus::Pending,
            S::Starting => ChallengeStatus::Starting,
            S::Started => ChallengeStatus::Started,
            S::Declined => ChallengeStatus::Declined,
            S::Cancelled => ChallengeStatus::Cancelled,
            S::Expired => ChallengeStatus::Expired,
        }
    }
}

/// What a seat of a challenge is to its match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeRole {
    /// The player who made the challenge (seat 0).
    Challenger,
    /// The challenger's partner (pairs game, seat 2).
    Partner,
    /// An opponent.
    Opponent,
    /// A house bot, at the challenger's request (`fill_with`).
    Bot,
}

impl From<challenges::ChallengeRole> for ChallengeRole {
    fn from(r: challenges::ChallengeRole) -> ChallengeRole {
        use challenges::ChallengeRole as R;
        match r {
            R::Challenger => ChallengeRole::Challenger,
            R::Partner => ChallengeRole::Partner,
            R::Opponent => ChallengeRole::Opponent,
            R::Bot => ChallengeRole::Bot,
        }
    }
}

/// The body of `POST /v1/challenges`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateChallenge {
    /// `pairs`, `abarrotada` or `abarrotada3`.
    pub variant: Variant,
    /// A rated match (default false): the variant's standard rules, so
    /// `rules` is left out.
    #[serde(default)]
    pub rated: bool,
    /// The rule options of a casual challenge (docs/rules.md), with the
    /// same `variant`; default: the variant's standard rules.
    pub rules: Option<Rules>,
    /// The players challenged, by id. Pairs game: one or two (two sit
    /// opposite each other, at seats 1 and 3); individual variants: 1 to
    /// seats − 1. A house bot's player (`house-<level>`) takes a bot seat
    /// at that level, accepted at once, rated at the level's anchor.
    #[schema(min_items = 1, max_items = 3, inline)]
    pub opponents: Vec<PlayerId>,
    /// The challenger's partner, by id (pairs game; seat 2); a house bot's
    /// player (`house-<level>`) too.
    #[schema(value_type = Option<PlayerId>)]
    pub partner: Option<String>,
    /// The house bot (`random`, `easy`, `medium`, `hard`, `expert`, …) at
    /// every seat not given to a player; without it, every seat must be.
    #[schema(max_length = 32, pattern = "^[a-z0-9_-]+$")]
    pub fill_with: Option<String>,
    /// Deal every hand as soon as the previous one is scored (default true).
    #[serde(default = "yes")]
    pub auto_deal: bool,
    /// A move clock: each seat has this long to act (100 to 86,400,000 ms).
    #[schema(minimum = 100, maximum = 86_400_000)]
    pub move_timeout_ms: Option<u64>,
    /// On a timeout: `bot` (default) or `forfeit`.
    #[serde(default)]
    pub on_timeout: OnTimeout,
    /// Seconds until the challenge expires unanswered (1 to 86,400;
    /// default 600).
    #[schema(minimum = 1, maximum = 86_400)]
    pub expires_in_s: Option<u64>,
}

fn yes() -> bool {
    true
}

/// A player id: `p` and 24 lowercase hex digits, or a house bot's player
/// at its level, `house-<bot>` (`house-easy`, `house-hard`, …).
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[schema(
    value_type = String,
    pattern = "^(p[0-9a-f]{24}|house-[a-z]+)$",
    example = "p6f1c0a9e2b4d8c7a5e3f1b2c"
)]
#[serde(transparent)]
pub struct PlayerId(pub String);

impl From<CreateChallenge> for lobby::NewChallenge {
    fn from(c: CreateChallenge) -> lobby::NewChallenge {
        let CreateChallenge {
            variant,
            rated,
            rules,
            opponents,
            partner,
            fill_with,
            auto_deal,
            move_timeout_ms,
            on_timeout,
            expires_in_s,
        } = c;
        lobby::NewChallenge {
            variant,
            rules,
            rated,
            opponents: opponents.into_iter().map(|PlayerId(id)| id).collect(),
            partner,
            fill_with,
            auto_deal,
            move_timeout_ms,
            on_timeout: on_timeout.into(),
            expires_in_s,
        }
    }
}

/// A seat of a challenge.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChallengeSeat {
    /// The seat number in the match.
    pub seat: Seat,
    /// The side it scores for.
    pub team: Side,
    /// `challenger`, `partner`, `opponent` or `bot`.
    pub role: ChallengeRole,
    /// The player (public profile fields), or null at a bot seat.
    pub player: Option<SeatPlayer>,
    /// The house bot of a bot seat.
    pub bot: Option<String>,
    /// Whether it accepted (the challenger and bots always have).
    pub accepted: bool,
}

/// A challenge as its players see it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Challenge {
    /// The challenge's id; its match will have the same id.
    #[schema(example = "9f2c4e1a7b3d5f60a1b2c3d4")]
    pub challenge_id: String,
    /// The match, once started (`GET /v1/matches/{id}`, with the players'
    /// keys).
    pub match_id: Option<String>,
    /// `pending`, `starting`, `started`, `declined`, `cancelled` or
    /// `expired`.
    pub status: ChallengeStatus,
    /// Whether the match is rated.
    pub rated: bool,
    /// The rule options.
    pub rules: Rules,
    /// Every seat of the match.
    pub seats: Vec<ChallengeSeat>,
    /// The ids of the invited players yet to accept.
    pub waiting_for: Vec<String>,
    /// The invited player who declined it.
    pub declined_by: Option<String>,
    /// Whether hands are dealt automatically.
    pub auto_deal: bool,
    /// The move clock.
    pub move_timeout_ms: Option<u64>,
    /// When it was made (RFC 3339).
    pub created_at: String,
    /// When it expires unanswered (RFC 3339).
    pub expires_at: String,
    /// The finished match this challenge is the rematch of (`POST
    /// /v1/matches/{id}/rematch`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "9f2c4e1a7b3d5f60a1b2c3d4")]
    pub rematch_of: Option<String>,
}

impl From<lobby::ChallengeView> for Challenge {
    fn from(c: lobby::ChallengeView) -> Challenge {
        let lobby::ChallengeView {
            challenge_id,
            match_id,
            status,
            rated,
            rules,
            seats,
            waiting_for,
            declined_by,
            auto_deal,
            move_timeout_ms,
            created_at,
            expires_at,
            rematch_of,
        } = c;
        Challenge {
            challenge_id,
            match_id,
            status: status.into(),
            rated,
            rules,
            seats: seats
                .into_iter()
                .map(
                    |challenges::ChallengeSeatView {
                         seat,
                         team,
                         role,
                         player,
                         bot,
                         accepted,
                     }| ChallengeSeat {
                        seat,
                        team,
                        role: role.into(),
                        player: player.map(Into::into),
                        bot,
                        accepted,
                    },
                )
                .collect(),
            waiting_for,
            declined_by,
            auto_deal,
            move_timeout_ms,
            created_at,
            expires_at,
            rematch_of,
        }
    }
}

/// A player's pending challenges.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChallengeList {
    /// Challenges the player is invited to, oldest first (at most 100 a
    /// page; a player is sent at most 50 pending invitations, so one page
    /// holds them all).
    pub incoming: Vec<Challenge>,
    /// Challenges the player made, oldest first (at most 100 a page; a
    /// player makes at most 50 pending invitations).
    pub outgoing: Vec<Challenge>,
    /// Pass as `incoming_after` for the rest of `incoming`; null when it
    /// is all shown.
    pub next_incoming: Option<String>,
    /// Pass as `outgoing_after` for the rest of `outgoing`; null when it
    /// is all shown.
    pub next_outgoing: Option<String>,
}

impl From<lobby::ChallengeList> for ChallengeList {
    fn from(l: lobby::ChallengeList) -> ChallengeList {
        let lobby::ChallengeList {
            incoming,
            outgoing,
            next_incoming,
            next_outgoing,
        } = l;
        ChallengeList {
            incoming: incoming.into_iter().map(Into::into).collect(),
            outgoing: outgoing.into_iter().map(Into::into).collect(),
            next_incoming,
            next_outgoing,
        }
    }
}
