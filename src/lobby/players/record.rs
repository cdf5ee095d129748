//! A player as the lobby stores it: its key's hash, its count of matches,
//! its standing in each rated pool; the house bots' players, which are
//! never stored; and the shape of player ids and API keys.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rating::Rating;
use crate::service::{HOUSE_PREFIX, KEY_PREFIX, PlayerKind, SeatPlayer};

/// A player as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// The id (`p` and 24 hex digits).
    pub id: String,
    /// Its display name.
    pub name: String,
    /// `human` or `bot`.
    pub kind: PlayerKind,
    /// SHA-256 of the current API key, hex; `None` once revoked.
    pub key_sha256: Option<String>,
    /// Matches it finished.
    pub matches_played: u64,
    /// When it was registered (milliseconds since the Unix epoch).
    pub created_ms: u64,
    /// Its rating per rated pool (the variant's name: `pairs`,
    /// `abarrotada`, `abarrotada3`); absent until its first rated match.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ratings: BTreeMap<String, PlayerRating>,
    /// The latest finished matches counted in `matches_played` that no
    /// rated pool lists as applied (casual ones, and the seats of a rated
    /// match that are not rated), oldest first, at most [`COUNTED_KEPT`]:
    /// a match listed here is never counted again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counted: Vec<(String, u64)>,
    /// The newest creation time of the matches dropped from `counted`.
    #[serde(default)]
    pub counted_horizon_ms: u64,
    /// SHA-256 of the client address it was registered from, hex (never
    /// shown): rated results between players registered from one address
    /// count a bounded number of times a day (`ratings/fair.rs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
}

/// A player's standing in one rated pool.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// The Glicko-2 rating, deviation and volatility.
    pub rating: Rating,
    /// Rated matches it finished in this pool.
    pub games: u64,
    /// When the rating last changed (milliseconds since the Unix epoch).
    pub updated_ms: u64,
    /// The latest rated matches applied in this pool, oldest first, at
    /// most [`APPLIED_KEPT`] (id and creation time): a match listed here
    /// is never applied again. The changes themselves are in the player's
    /// [`RatingHistory`], a document of its own, so that this record (read
    /// on every request made with the player's key) stays small.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub applied: Vec<(String, u64)>,
    /// The newest creation time of the matches dropped from `applied`: a
    /// match created no later than this and not listed counts as applied.
    #[serde(default)]
    pub horizon_ms: u64,
    /// The registered opponents whose results counted in this pool, with
    /// the creation time of the match, over the last day of matches (see
    /// `ratings/fair.rs`): the same opponents count a bounded number of
    /// times a day.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recent: Vec<(String, u64)>,
}

/// How many applied rated matches a player's record lists per pool.
pub const APPLIED_KEPT: usize = 64;

/// How many counted matches a player's record lists besides the rated ones.
pub const COUNTED_KEPT: usize = 128;

/// Whether match `id`, created at `created_ms`, is in `list` or behind
/// `horizon`.
fn marked(list: &[(String, u64)], horizon: u64, id: &str, created_ms: u64) -> bool {
    created_ms <= horizon || list.iter().any(|(m, _)| m == id)
}

/// Lists match `id` in `list`, dropping the oldest beyond `kept` behind
/// `horizon`.
fn mark(list: &mut Vec<(String, u64)>, horizon: &mut u64, kept: usize, id: &str, created_ms: u64) {
    list.push((id.to_string(), created_ms));
    if list.len() > kept {
        let excess = list.len() - kept;
        for (_, created) in list.drain(..excess) {
            *horizon = (*horizon).max(created);
        }
    }
}

impl PlayerRating {
    /// Whether match `id`, created at `created_ms`, counts as applied.
    pub fn has_applied(&self, id: &str, created_ms: u64) -> bool {
        marked(&self.applied, self.horizon_ms, id, created_ms)
    }

    /// Lists a match as applied, dropping the oldest beyond
    /// [`APPLIED_KEPT`] behind the horizon.
    pub fn mark_applied(&mut self, id: &str, created_ms: u64) {
        mark(
            &mut self.applied,
            &mut self.horizon_ms,
            APPLIED_KEPT,
            id,
            created_ms,
        );
    }
}

impl PlayerRecord {
    /// Whether match `id`, created at `created_ms`, was counted in
    /// `matches_played` outside the rated pools.
    pub fn has_counted(&self, id: &str, created_ms: u64) -> bool {
        marked(&self.counted, self.counted_horizon_ms, id, created_ms)
    }

    /// Counts match `id` in `matches_played`, once: `false` if it was
    /// counted already.
    pub fn count_match(&mut self, id: &str, created_ms: u64) -> bool {
        if self.has_counted(id, created_ms) {
            return false;
        }
        self.matches_played += 1;
        mark(
            &mut self.counted,
            &mut self.counted_horizon_ms,
            COUNTED_KEPT,
            id,
            created_ms,
        );
        true
    }
}

impl PlayerRecord {
    /// The player's rating in `pool` (a new player's when it has none).
    pub fn rating_in(&self, pool: &str) -> Rating {
        self.ratings.get(pool).map(|r| r.rating).unwrap_or_default()
    }
}

/// The player a house bot is, by its player id (`house-<bot>`): a `bot`
/// without a key, holding its fixed anchor rating in every pool. House players are not stored, and their matches are not
/// counted (every house match would contend for one record).
pub fn house_player(id: &str) -> Option<PlayerRecord> {
    let bot = id.strip_prefix(HOUSE_PREFIX)?;
    let SeatPlayer { id, name, kind } = SeatPlayer::house(bot)?;
    Some(PlayerRecord {
        id,
        name,
        kind,
        key_sha256: None,
        matches_played: 0,
        created_ms: 0,
        counted: Vec::new(),
        counted_horizon_ms: 0,
        origin: None,
        ratings: ["pairs", "abarrotada", "abarrotada3"]
            .into_iter()
            .filter_map(|pool| {
                let rating = crate::rating::house_anchor(bot)?;
                let standing = PlayerRating {
                    rating,
                    games: 0,
                    updated_ms: 0,
                    applied: Vec::new(),
                    horizon_ms: 0,
                    recent: Vec::new(),
                };
                Some((pool.to_string(), standing))
            })
            .collect(),
    })
}

impl PlayerRecord {
    /// The fields shown beside its seats.
    pub fn seat_player(&self) -> SeatPlayer {
        SeatPlayer {
            id: self.id.clone(),
            name: self.name.clone(),
            kind: self.kind,
        }
    }
}

/// The player an API key claims to be (`bp_<player id>_<secret>`), if it
/// has that shape.
pub fn key_player(key: &str) -> Option<&str> {
    let rest = key.strip_prefix(KEY_PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    (valid_player_id(id) && secret.len() == 64).then_some(id)
}

/// Whether `id` has the shape of a player id.
pub fn valid_player_id(id: &str) -> bool {
    id.len() == 25
        && id.starts_with('p')
        && id[1..]
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_keys_of_the_right_shape_name_a_player() {
        let id = "p0123456789abcdef01234567";
        let key = format!("bp_{id}_{}", "a".repeat(64));
        assert_eq!(key_player(&key), Some(id));
        for bad in [
            format!("bt_{id}_{}", "a".repeat(64)),
            format!("bp_{id}_{}", "a".repeat(63)),
            format!("bp_P0123456789ABCDEF01234567_{}", "a".repeat(64)),
            format!("bp_{id}"),
            "bp_".to_string(),
        ] {
            assert_eq!(key_player(&bad), None, "{bad}");
        }
    }

    #[test]
    fn a_match_is_counted_once_and_the_horizon_covers_dropped_ones() {
        let mut p = house_player("house-random").unwrap();
        assert!(p.count_match("m0", 10));
        assert!(!p.count_match("m0", 10), "counted once");
        for i in 1..=COUNTED_KEPT as u64 {
            assert!(p.count_match(&format!("m{i}"), 10 + i));
        }
        assert_eq!(p.matches_played, COUNTED_KEPT as u64 + 1);
        assert_eq!(p.counted.len(), COUNTED_KEPT);
        assert_eq!(p.counted_horizon_ms, 10, "m0 dropped behind the horizon");
        assert!(!p.count_match("m0", 10), "still counted");
        assert!(p.count_match("late", 11 + COUNTED_KEPT as u64));
    }

    #[test]
    fn the_applied_list_keeps_its_latest_matches_and_the_horizon_the_newest_dropped() {
        let mut standing = PlayerRating {
            rating: Rating::default(),
            games: 0,
            updated_ms: 0,
            applied: Vec::new(),
            horizon_ms: 0,
            recent: Vec::new(),
        };
        assert!(!standing.has_applied("m0", 1), "nothing applied yet");
        // Created out of order: match i was created at (i * 7) % 250.
        for i in 0..250u64 {
            standing.mark_applied(&format!("m{i}"), (i * 7) % 250);
        }
        assert_eq!(standing.applied.len(), APPLIED_KEPT);
        assert_eq!(standing.applied[0].0, format!("m{}", 250 - APPLIED_KEPT));
        let dropped = 250 - APPLIED_KEPT as u64;
        let newest_dropped = (0..dropped).map(|i| (i * 7) % 250).max().unwrap();
        assert_eq!(standing.horizon_ms, newest_dropped);
        for i in 0..250u64 {
            assert!(
                standing.has_applied(&format!("m{i}"), (i * 7) % 250),
                "m{i}"
            );
        }
        assert!(!standing.has_applied("new", newest_dropped + 1));
    }
}
