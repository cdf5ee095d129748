//! A player's rating history as the lobby stores it, and what one rated
//! match changed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rating::Rating;
use crate::rules::Seat;

/// A player's rating history: per pool, its latest rated matches, oldest
/// first, at most [`HISTORY_KEPT`]. Stored as its own document under the
/// player's id.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RatingHistory {
    /// Entries per pool.
    pub pools: BTreeMap<String, Vec<RatingEntry>>,
}

impl RatingHistory {
    /// Records `entry` in `pool`: in place of an entry for the same match
    /// (a retry computes the same change), else appended, dropping the
    /// oldest beyond [`HISTORY_KEPT`].
    pub fn record(&mut self, pool: &str, entry: RatingEntry) {
        let entries = self.pools.entry(pool.to_string()).or_default();
        if let Some(e) = entries.iter_mut().find(|e| e.match_id == entry.match_id) {
            *e = entry;
            return;
        }
        entries.push(entry);
        if entries.len() > HISTORY_KEPT {
            let excess = entries.len() - HISTORY_KEPT;
            entries.drain(..excess);
        }
    }

    /// The entry of match `id` in `pool`, if kept.
    pub fn entry(&self, pool: &str, id: &str) -> Option<&RatingEntry> {
        self.pools.get(pool)?.iter().find(|e| e.match_id == id)
    }
}

/// How many rated matches a player's history keeps per pool.
pub const HISTORY_KEPT: usize = 100;

/// One rated match in a player's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingEntry {
    /// The match id.
    pub match_id: String,
    /// When the match was created (milliseconds since the Unix epoch).
    pub match_created_ms: u64,
    /// The player's seat.
    pub seat: Seat,
    /// The rating before the match.
    pub before: Rating,
    /// The rating after it.
    pub after: Rating,
    /// The player's score: the mean of its games' (1 a win, 0.5 a draw, 0
    /// a loss).
    pub score: f64,
    /// When it was applied (milliseconds since the Unix epoch).
    pub at_ms: u64,
    /// Why the match left the rating as it was, when it did (then
    /// `after` is `before`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<Unrated>,
}

/// Why a finished rated match left a player's rating as it was (see
/// `fair.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unrated {
    /// The match ended before a minimum of play (no hand played to its
    /// end): aborted, unrated for every seat.
    Aborted,
    /// Every opponent was one whose results against this player already
    /// counted as often as they may in a day.
    RepeatedOpponent,
    /// Every opponent was registered from this player's own client
    /// address, and such results already counted as often as they may in
    /// a day.
    SameAddress,
    /// Every opponent was provisional while this player's rating is
    /// established.
    ProvisionalOpponent,
}

/// What a rated match changed of one player's rating, as told in its
/// `match_over` event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The pool.
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
    pub unrated: Option<Unrated>,
}

impl RatingEntry {
    /// The change this entry records, in `pool`.
    pub fn change(&self, pool: &str) -> RatingChange {
        RatingChange {
            pool: pool.to_string(),
            before: self.before.rating,
            after: self.after.rating,
            deviation: self.after.deviation,
            score: self.score,
            unrated: self.unrated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_keeps_its_latest_entries_once_per_match() {
        let entry = |i: u64, score: f64| RatingEntry {
            match_id: format!("m{i}"),
            match_created_ms: i,
            seat: 0,
            before: Rating::default(),
            after: Rating::default(),
            score,
            at_ms: i,
            unrated: None,
        };
        let mut h = RatingHistory::default();
        for i in 0..150 {
            h.record("pairs", entry(i, 1.0));
        }
        h.record("pairs", entry(149, 0.0));
        let kept = &h.pools["pairs"];
        assert_eq!(kept.len(), HISTORY_KEPT);
        assert_eq!(kept[0].match_id, "m50");
        assert_eq!(h.entry("pairs", "m149").map(|e| e.score), Some(0.0));
        assert!(h.entry("pairs", "m49").is_none());
        assert!(h.entry("abarrotada", "m149").is_none());
    }
}
