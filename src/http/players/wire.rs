//! The request and response types of players and their event streams,
//! with their OpenAPI schemas; the conversions name every field of both
//! sides. A player's standing in a pool ([`PoolRating`]) is part of its
//! profile, and ratings borrow it from here.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

pub use super::seat_player::{PlayerKind, SeatPlayer};
use crate::http::openapi::schema::player_events::PlayerEvent;
use crate::lobby::{self, records};

/// The body of `POST /v1/players`.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatePlayer {
    /// A display name: 1 to 64 characters, not starting with a blank;
    /// no control, invisible or text-direction characters, and at most 3
    /// combining marks on one character. Stored in Unicode NFC.
    #[schema(
        example = "robobot",
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\u0020\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u2800\u3164\uFFA0\u034F\u17B4\u17B5\u180B-\u180D\u180F\uFE00-\uFE0F][^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]*$"
    )]
    pub name: String,
    /// `human` or `bot`.
    pub kind: PlayerKind,
}

/// A player's public profile.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Player {
    /// The player's id.
    #[schema(example = "p6f1c0a9e2b4d8c7a5e3f1b2c")]
    pub id: String,
    /// Its display name.
    pub name: String,
    /// `human` or `bot`.
    pub kind: PlayerKind,
    /// Matches it played to the end.
    pub matches_played: u64,
    /// When it registered (RFC 3339).
    pub created_at: String,
    /// Its rating in each pool it has played rated matches in (a house
    /// bot: its fixed anchor in every pool).
    pub ratings: Vec<PoolRating>,
}

impl From<records::PlayerRecord> for Player {
    fn from(p: records::PlayerRecord) -> Player {
        let records::PlayerRecord {
            id,
            name,
            kind,
            key_sha256: _,
            matches_played,
            created_ms,
            ratings,
            counted: _,
            counted_horizon_ms: _,
            origin: _,
        } = p;
        Player {
            id,
            name,
            kind: kind.into(),
            matches_played,
            created_at: crate::service::rfc3339(created_ms),
            // A pool where only unrated matches (aborted, …) were applied
            // holds no rating yet: not shown.
            ratings: ratings
                .iter()
                .filter(|(_, r)| r.games > 0 || r.applied.is_empty())
                .map(|(pool, r)| PoolRating::of(pool, r))
                .collect(),
        }
    }
}

/// A player's standing in one rated pool.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"pool": "pairs", "rating": 1562.3, "deviation": 181.4, "volatility": 0.05999, "games": 3, "provisional": true, "updated_at": "2026-11-23T21:04:05.123Z"}))]
pub struct PoolRating {
    /// The pool: `pairs`, `abarrotada` or `abarrotada3`.
    pub pool: String,
    /// The Glicko-2 rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation: how uncertain the rating is (350 for a new
    /// player).
    pub deviation: f64,
    /// The volatility: how erratic the player's results are.
    pub volatility: f64,
    /// Rated matches finished in this pool.
    pub games: u64,
    /// Whether the deviation is still above 110: too few rated matches
    /// for the rating to mean much.
    pub provisional: bool,
    /// When the rating last changed (RFC 3339); null for a house bot's
    /// fixed anchor.
    pub updated_at: Option<String>,
}

impl PoolRating {
    /// The standing `r` in `pool`.
    pub fn of(pool: &str, r: &records::PlayerRating) -> PoolRating {
        PoolRating {
            pool: pool.to_string(),
            rating: r.rating.rating,
            deviation: r.rating.deviation,
            volatility: r.rating.volatility,
            games: r.games,
            provisional: r.rating.provisional(),
            updated_at: (r.updated_ms > 0).then(|| crate::service::rfc3339(r.updated_ms)),
        }
    }
}

/// The answer to `POST /v1/players`: the profile and the API key, shown
/// only here.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Registered {
    /// The new player.
    pub player: Player,
    /// The secret API key (`bp_…`): send as `Authorization: Bearer <key>`.
    /// Stored only as a hash; it cannot be shown again.
    pub api_key: String,
}

/// A new API key, shown once.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ApiKey {
    /// The new key; the previous one no longer works.
    pub api_key: String,
}

/// An event of a player's stream: `seq`, `type` and the type's fields
/// (described by [`PlayerEvent`]).
#[derive(Clone, Debug, Serialize)]
pub struct PlayerEventView {
    /// 1, 2, 3, … per player, never reused.
    pub seq: u64,
    /// The event: `type` and the type's fields.
    #[serde(flatten)]
    pub body: Value,
}

/// A page of a player's events.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerEventsPage {
    /// Events after the requested number, oldest first.
    #[schema(value_type = Vec<PlayerEvent>)]
    pub events: Vec<PlayerEventView>,
    /// The number of the player's last event.
    pub last_seq: u64,
    /// On a fresh poll (no `after`, or `after=0`): the player's ongoing
    /// matches, read after `last_seq` (newest first, at most 100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ongoing: Option<Vec<super::matches::PlayerMatch>>,
}

impl From<lobby::PlayerEventsPage> for PlayerEventsPage {
    fn from(p: lobby::PlayerEventsPage) -> PlayerEventsPage {
        let lobby::PlayerEventsPage { events, last_seq } = p;
        PlayerEventsPage {
            events: events
                .into_iter()
                .map(|(seq, body)| PlayerEventView { seq, body })
                .collect(),
            last_seq,
            ongoing: None,
        }
    }
}
