//! What the lobby stores: players (with their key's hash), tables and
//! invite codes, and the events of a player's stream.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rating::Rating;

use crate::rules::{Rules, Seat};
use crate::service::{Error, OnTimeout};
pub use crate::service::{HOUSE_PREFIX, KEY_PREFIX, PlayerKind, SeatPlayer};

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
}

/// How many applied rated matches a player's record lists per pool.
pub const APPLIED_KEPT: usize = 64;

impl PlayerRating {
    /// Whether match `id`, created at `created_ms`, counts as applied.
    pub fn has_applied(&self, id: &str, created_ms: u64) -> bool {
        created_ms <= self.horizon_ms || self.applied.iter().any(|(m, _)| m == id)
    }

    /// Lists a match as applied, dropping the oldest beyond
    /// [`APPLIED_KEPT`] behind the horizon.
    pub fn mark_applied(&mut self, id: &str, created_ms: u64) {
        self.applied.push((id.to_string(), created_ms));
        if self.applied.len() > APPLIED_KEPT {
            let excess = self.applied.len() - APPLIED_KEPT;
            for (_, created) in self.applied.drain(..excess) {
                self.horizon_ms = self.horizon_ms.max(created);
            }
        }
    }
}

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
        }
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
}

/// Whether a table is public (listed in the lobby) or joined by its
/// invite code only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Listed in `GET /v1/lobby`.
    #[default]
    Public,
    /// Joined only by its invite code.
    Private,
}

/// Where a table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Seats are open.
    Open,
    /// Every seat is taken; the match is being created.
    Starting,
    /// The match exists, under the table's id.
    Started,
    /// It expired with seats open (shown, never stored).
    Expired,
}

/// Who holds a table seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableSeatKind {
    /// Free to join.
    Open,
    /// A client with the seat token (or the seated player's key).
    Remote,
    /// A house bot.
    Bot,
}

/// A seat of a table as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSeat {
    /// Open, remote or bot.
    pub kind: TableSeatKind,
    /// The house bot (bot seats, and the stand-in on a timeout).
    pub bot: String,
    /// The display name.
    pub name: Option<String>,
    /// The player seated, if any.
    pub player: Option<SeatPlayer>,
    /// SHA-256 of the seat token, hex (taken remote seats).
    pub token_sha256: Option<String>,
}

/// A table: a match to be, with open seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRecord {
    /// Its id, which the match will have.
    pub id: String,
    /// The rule options.
    pub rules: Rules,
    /// The seed of the match, hex (never shown before the match is over).
    pub seed: String,
    /// Deal every hand as soon as the previous one is scored.
    pub auto_deal: bool,
    /// A move clock.
    pub move_timeout_ms: Option<u64>,
    /// What happens when the clock runs out.
    pub on_timeout: OnTimeout,
    /// Listed or not.
    pub visibility: Visibility,
    /// The invite code (private tables).
    pub invite: Option<String>,
    /// One entry per seat.
    pub seats: Vec<TableSeat>,
    /// Open, starting or started.
    pub status: TableStatus,
    /// When it was created (milliseconds since the Unix epoch).
    pub created_ms: u64,
    /// When it expires if seats are still open.
    pub expires_ms: u64,
    /// Whether its match is rated (tables made by the queue or a rated
    /// challenge).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

impl TableRecord {
    /// How many seats are open.
    pub fn open_seats(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| s.kind == TableSeatKind::Open)
            .count()
    }

    /// The status as of `now`: an open table past its expiry is expired.
    pub fn status_at(&self, now: u64) -> TableStatus {
        if self.status == TableStatus::Open && now >= self.expires_ms {
            TableStatus::Expired
        } else {
            self.status
        }
    }

    /// Its entry in the lobby index: ordered by creation, then id.
    pub fn index_entry(&self) -> String {
        format!("{:015}:{}", self.created_ms, self.id)
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

/// Decodes a stored document.
///
/// # Errors
/// `Internal` if it does not parse.
pub fn decode<T: serde::de::DeserializeOwned>(state: &str) -> Result<T, Error> {
    Ok(serde_json::from_str(state)?)
}

/// Encodes a document for the store.
///
/// # Errors
/// `Internal` if it does not serialize.
pub fn encode<T: Serialize>(doc: &T) -> Result<String, Error> {
    Ok(serde_json::to_string(doc)?)
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
    fn the_applied_list_keeps_its_latest_matches_and_the_horizon_the_newest_dropped() {
        let mut standing = PlayerRating {
            rating: Rating::default(),
            games: 0,
            updated_ms: 0,
            applied: Vec::new(),
            horizon_ms: 0,
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

    #[test]
    fn an_open_table_past_its_expiry_reads_as_expired() {
        let mut t = TableRecord {
            id: "t".into(),
            rules: Rules::default(),
            seed: String::new(),
            auto_deal: false,
            move_timeout_ms: None,
            on_timeout: OnTimeout::Bot,
            visibility: Visibility::Public,
            invite: None,
            seats: Vec::new(),
            status: TableStatus::Open,
            created_ms: 0,
            expires_ms: 1000,
            rated: false,
        };
        assert_eq!(t.status_at(999), TableStatus::Open);
        assert_eq!(t.status_at(1000), TableStatus::Expired);
        t.status = TableStatus::Started;
        assert_eq!(
            t.status_at(5000),
            TableStatus::Started,
            "a started table never expires"
        );
    }
}
