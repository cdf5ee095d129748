//! The response types of ratings: a player's rating history per pool and
//! a pool's leaderboard, with their OpenAPI schemas (a standing in a pool,
//! [`PoolRating`], is part of a player's profile and comes from there).

use serde::Serialize;
use utoipa::ToSchema;

use crate::http::players::wire::{PlayerKind, PoolRating};
use crate::lobby::{self, records};

/// What one rated match changed of a player's rating.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RatingHistoryEntry {
    /// The match.
    #[schema(example = "9f2c4e1a7b3d5f60a1b2c3d4")]
    pub match_id: String,
    /// The player's seat in it.
    pub seat: u8,
    /// The rating before the match.
    pub rating_before: f64,
    /// The rating after it.
    pub rating_after: f64,
    /// The deviation before the match.
    pub deviation_before: f64,
    /// The deviation after it.
    pub deviation_after: f64,
    /// The volatility after it.
    pub volatility_after: f64,
    /// The player's score: 1 a win, 0.5 a draw, 0 a loss (in the
    /// individual variants, the mean of its games against each other seat).
    pub score: f64,
    /// When the rating changed (RFC 3339).
    pub at: String,
    /// Set when the match left the rating as it was (then `rating_after`
    /// is `rating_before`), and why: `aborted` (no hand was played to its
    /// end), `repeated_opponent` (results against the same opponents
    /// already counted 3 times that day), `same_address` (results against
    /// players registered from the player's own address already counted 3
    /// times that day), `provisional_opponent` (an
    /// established rating is not moved by provisional opponents). See
    /// "Fair play: rated means earned" in docs/api.md.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(null))]
    pub unrated: Option<String>,
}

impl From<&records::RatingEntry> for RatingHistoryEntry {
    fn from(e: &records::RatingEntry) -> RatingHistoryEntry {
        RatingHistoryEntry {
            match_id: e.match_id.clone(),
            seat: e.seat,
            rating_before: e.before.rating,
            rating_after: e.after.rating,
            deviation_before: e.before.deviation,
            deviation_after: e.after.deviation,
            volatility_after: e.after.volatility,
            score: e.score,
            at: crate::service::rfc3339(e.at_ms),
            unrated: e.unrated.map(unrated_word),
        }
    }
}

/// The word for why a match left a rating as it was.
pub fn unrated_word(why: records::Unrated) -> String {
    match why {
        records::Unrated::Aborted => "aborted",
        records::Unrated::RepeatedOpponent => "repeated_opponent",
        records::Unrated::SameAddress => "same_address",
        records::Unrated::ProvisionalOpponent => "provisional_opponent",
    }
    .to_string()
}

/// A player's standing in one pool and its latest rated matches there.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PoolHistory {
    /// The standing now.
    #[serde(flatten)]
    pub current: PoolRating,
    /// Its latest rated matches (at most 100), newest first.
    pub history: Vec<RatingHistoryEntry>,
}

/// The answer to `GET /v1/players/{id}/ratings`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerRatings {
    /// The player.
    #[schema(example = "p6f1c0a9e2b4d8c7a5e3f1b2c")]
    pub player_id: String,
    /// One entry per pool it has played rated matches in (the requested
    /// one only, with `variant`).
    pub pools: Vec<PoolHistory>,
}

impl PlayerRatings {
    /// The answer for `player`, with these pools and its history.
    pub fn of(
        player: &records::PlayerRecord,
        pools: &[(String, records::PlayerRating)],
        history: &records::RatingHistory,
    ) -> Self {
        PlayerRatings {
            player_id: player.id.clone(),
            pools: pools
                .iter()
                .map(|(pool, r)| PoolHistory {
                    current: PoolRating::of(pool, r),
                    history: history
                        .pools
                        .get(pool)
                        .into_iter()
                        .flatten()
                        .rev()
                        .map(Into::into)
                        .collect(),
                })
                .collect(),
        }
    }
}

/// A row of a leaderboard.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LeaderboardRow {
    /// The player's id (`house-<bot>` for a house bot).
    #[schema(example = "p6f1c0a9e2b4d8c7a5e3f1b2c")]
    pub player_id: String,
    /// Its name.
    pub name: String,
    /// `human` or `bot`.
    pub kind: PlayerKind,
    /// The rating.
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// Rated matches finished in the pool (0 for an anchor).
    pub games: u64,
    /// Whether the deviation is still above 110.
    pub provisional: bool,
    /// Whether this is a house bot, held at its fixed anchor rating.
    pub anchor: bool,
}

/// A page of a pool's leaderboard.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({"pool": "pairs", "players": [
    {"player_id": "house-expert", "name": "house bot expert", "kind": "bot", "rating": 1850.0, "deviation": 30.0, "games": 0, "provisional": false, "anchor": true},
    {"player_id": "p6f1c0a9e2b4d8c7a5e3f1b2c", "name": "robobot", "kind": "bot", "rating": 1562.3, "deviation": 181.4, "games": 3, "provisional": true, "anchor": false}
], "next": "8443700:p6f1c0a9e2b4d8c7a5e3f1b2c"}))]
pub struct Leaderboard {
    /// The pool.
    pub pool: String,
    /// Highest rating first (equal ratings by id).
    pub players: Vec<LeaderboardRow>,
    /// The cursor of the next page (`after`), or null at the end.
    pub next: Option<String>,
}

impl From<lobby::BoardPage> for Leaderboard {
    fn from(p: lobby::BoardPage) -> Leaderboard {
        let lobby::BoardPage { pool, rows, next } = p;
        Leaderboard {
            pool: pool.to_string(),
            players: rows
                .into_iter()
                .map(|r| LeaderboardRow {
                    player_id: r.player.id,
                    name: r.player.name,
                    kind: r.player.kind.into(),
                    rating: r.standing.rating.rating,
                    deviation: r.standing.rating.deviation,
                    games: r.standing.games,
                    provisional: r.standing.rating.provisional(),
                    anchor: r.anchor,
                })
                .collect(),
            next,
        }
    }
}
