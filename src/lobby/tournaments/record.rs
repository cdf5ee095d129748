//! The stored tournament: its settings, its entries, the units
//! (partnerships or single players) formed from them, and its rounds of
//! tables with their results. One document of the lobby store, changed
//! only by compare-and-set.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::rules::{Rules, Variant};
use crate::service::SeatPlayer;

/// How the tournament is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Format {
    /// `rounds` rounds, each unit paired by score then rating.
    Swiss {
        /// How many rounds.
        rounds: u32,
    },
    /// Units re-paired as soon as they finish, until the time is up.
    Arena {
        /// How long new games are paired, from the start.
        duration_ms: u64,
    },
    /// `rounds` rounds in which every table plays the same `boards` deals,
    /// each result scored against the others in the same direction.
    Duplicate {
        /// How many rounds.
        rounds: u32,
        /// Deals (hands) per round.
        boards: u32,
    },
}

impl Format {
    /// The format's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Format::Swiss { .. } => "swiss",
            Format::Arena { .. } => "arena",
            Format::Duplicate { .. } => "duplicate",
        }
    }

    /// The number of rounds, for the formats that have a fixed number.
    pub fn rounds(self) -> Option<u32> {
        match self {
            Format::Swiss { rounds } | Format::Duplicate { rounds, .. } => Some(rounds),
            Format::Arena { .. } => None,
        }
    }
}

/// How partnerships are made in the pairs game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Partners {
    /// Entrants are drawn into partnerships at the start (from the
    /// tournament's seed), the odd one out with a house bot.
    #[default]
    Drawn,
    /// Each entrant names its partner; a partnership plays once both have
    /// entered naming each other.
    Fixed,
}

/// Where the tournament is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking entries until it starts.
    Open,
    /// Playing.
    Running,
    /// Every result is in.
    Over,
    /// Started with too few entrants to seat one table.
    Cancelled,
}

/// A player's entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The player.
    pub player: SeatPlayer,
    /// The partner it names (fixed partnerships).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partner: Option<String>,
    /// Its rating in the variant's pool when it entered.
    pub rating: f64,
    /// When it entered (ms since the epoch).
    pub entered_ms: u64,
    /// Withdrawn: paired no more.
    #[serde(default)]
    pub withdrawn: bool,
    /// The unit it plays in, once formed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<usize>,
}

/// A unit that is paired and scored: a partnership in the pairs game, a
/// single player in the individual variants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its players in seat order (a house bot as `house-<level>`).
    pub players: Vec<SeatPlayer>,
    /// The mean rating of its entrants (a house bot at its anchor).
    pub rating: f64,
    /// Withdrawn (every entrant of it withdrew): paired no more.
    #[serde(default)]
    pub withdrawn: bool,
    /// House bots only, added to complete the tables: paired, never
    /// ranked.
    #[serde(default)]
    pub house: bool,
}

/// A table of a round: one match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// The match's id.
    pub match_id: String,
    /// The unit at each side (pairs: side 0 at seats 0 and 2, side 1 at
    /// seats 1 and 3; individual variants: one unit per seat).
    pub units: Vec<usize>,
    /// Whether its match was created (by the writer that paired it, or the
    /// next pass after that one stopped).
    #[serde(default)]
    pub created: bool,
    /// The result, once the match is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<TableResult>,
}

/// A finished table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableResult {
    /// Match points per side at the end.
    pub scores: Vec<u32>,
    /// The sides that won: one, several when the highest totals were
    /// equal (a draw), none when the match was aborted.
    pub winners: Vec<u8>,
    /// Per board (hand) played, match points recorded per side.
    #[serde(default)]
    pub boards: Vec<Vec<u32>>,
    /// The side whose seat ended the match early (resigned, abandoned, or
    /// was claimed against), if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_fault: Option<u8>,
    /// When it was read over.
    pub finished_ms: u64,
}

/// A round (in an arena, a wave of tables paired at one time).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// 1 for the first.
    pub number: u32,
    /// When it was paired.
    pub started_ms: u64,
    /// Its tables.
    pub tables: Vec<Table>,
    /// Units with a bye this round.
    #[serde(default)]
    pub byes: Vec<usize>,
    /// Whether its matches all exist, so that its players may be told.
    #[serde(default)]
    pub announced: bool,
    /// Whether every player has been told of it (`round_started`); see
    /// [`Round::told`]. `None` in records written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub told: Option<bool>,
}

fn yes() -> bool {
    true
}

impl Round {
    /// Whether every player has been told of it. Before the flag was kept,
    /// the writer that announced a round told its players at once.
    pub fn told(&self) -> bool {
        self.told.unwrap_or(self.announced)
    }

    /// Whether every table has its result.
    pub fn done(&self) -> bool {
        self.tables.iter().all(|t| t.result.is_some())
    }
}

/// A tournament as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TournamentRecord {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The player who made it.
    pub owner: SeatPlayer,
    /// The variant played.
    pub variant: Variant,
    /// How it is run.
    pub format: Format,
    /// How partnerships are made (pairs game).
    #[serde(default)]
    pub partners: Partners,
    /// The rules of its matches.
    pub rules: Rules,
    /// Whether its matches are rated.
    pub rated: bool,
    /// The hash of the code that enters a private tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_sha256: Option<String>,
    /// When it starts (ms since the epoch).
    pub starts_ms: u64,
    /// Each match's move clock.
    pub move_timeout_ms: u64,
    /// The house bot that completes partnerships and tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill_with: Option<String>,
    /// At most this many entrants.
    pub max_entrants: usize,
    /// The 256-bit seed (hex) every draw and board set derives from: kept
    /// secret until the tournament is over.
    pub seed: String,
    /// Its life.
    pub status: TournamentStatus,
    /// When it was made.
    pub created_ms: u64,
    /// When it ended, once over or cancelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_ms: Option<u64>,
    /// The entries, in the order made.
    pub entries: Vec<Entry>,
    /// The units, once formed.
    #[serde(default)]
    pub units: Vec<Unit>,
    /// The rounds paired so far.
    #[serde(default)]
    pub rounds: Vec<Round>,
    /// False from the moment it ends (over or cancelled) until every
    /// entrant has been told (`tournament_over`); true before.
    #[serde(default = "yes")]
    pub told_over: bool,
}

/// The tournament whose match `match_id` is, when it has the form
/// [`TournamentRecord::match_id`] gives (`t<24 hex>-<16 hex>`).
pub fn tournament_of(match_id: &str) -> Option<&str> {
    let (t, tail) = match_id.split_once('-')?;
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
    (t.strip_prefix('t').is_some_and(|h| hex(h, 24)) && hex(tail, 16)).then_some(t)
}

impl TournamentRecord {
    /// The entry of `player`, if it entered.
    pub fn entry(&self, player: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.player.id == player)
    }

    /// How many entries are not withdrawn.
    pub fn entered(&self) -> usize {
        self.entries.iter().filter(|e| !e.withdrawn).count()
    }

    /// Units per table: two partnerships in the pairs game, one player per
    /// seat otherwise.
    pub fn per_table(&self) -> usize {
        let t = self.variant.table();
        if t.pairs { 2 } else { usize::from(t.seats) }
    }

    /// Whether entries are still taken: before the start, and in an arena
    /// until its time is up.
    pub fn takes_entries(&self, now: u64) -> bool {
        match (self.status, self.format) {
            (TournamentStatus::Open, _) => true,
            (TournamentStatus::Running, Format::Arena { duration_ms }) => {
                now < self.starts_ms + duration_ms
            }
            _ => false,
        }
    }

    /// The 256-bit seed of everything derived for `what` (hex): the board
    /// set of a round, the draw of partnerships.
    pub fn derived_seed(&self, what: &str) -> String {
        let mut h = Sha256::new();
        h.update(self.seed.as_bytes());
        h.update(b"/");
        h.update(what.as_bytes());
        hex::encode(h.finalize())
    }

    /// The id of the match at `table` of round `round`: derived from the
    /// secret seed, so nobody can name another table's match before it is
    /// shown.
    pub fn match_id(&self, round: u32, table: usize) -> String {
        let d = self.derived_seed(&format!("match/{round}/{table}"));
        format!("{}-{}", self.id, &d[..16])
    }

    /// The round in play (the last paired), if any.
    pub fn current(&self) -> Option<&Round> {
        self.rounds.last()
    }
}

#[cfg(test)]
pub(super) mod tests;
