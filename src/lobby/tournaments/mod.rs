//! The tournaments room of the lobby: Swiss, arena and duplicate
//! tournaments for partnerships (fixed or drawn) and for the individual
//! variants, made by a player, public or private with a code, started at
//! their time (or early by their maker) and advanced by every instance's
//! housekeeping, with nobody reading.
//!
//! A tournament is one document of the lobby store, changed only through
//! the lobby's compare-and-set helper. Its life: `open` (taking entries)
//! → `running` (rounds paired, their matches created and read when over)
//! → `over`, or `cancelled` when too few entered. Its matches are
//! ordinary matches, created through the match service under ids derived
//! from the tournament's secret seed; a rated tournament's matches are
//! rated matches, each applied once like any other.
//!
//! By job: the stored record in `record.rs`; pairing (Swiss and arena) in
//! `pairing.rs`; scoring (game points, duplicate matchpoints and
//! differences, standings and tie-breaks) in `scoring.rs`; forming units
//! and the pure step of a tournament in `progress.rs`; making, entering,
//! withdrawing, starting and reading in `ops.rs`; the housekeeping's
//! steps, match creation and the players' events in `advance.rs`; when
//! an instance reads a tournament's matches in `watch.rs`.
//!
//! What it may import: from the lobby, only its shared parts (the `Lobby`
//! handle and its core, `update`, `records`, `store`, `start`,
//! `match_rules`); outside
//! it, `crate::service`, `crate::rating`, `crate::rules` and
//! `crate::bots` (the default house bot).

mod advance;
mod ops;
mod pairing;
mod progress;
mod record;
mod scoring;
mod watch;

pub use ops::{
    ACTIVE, LISTING, MAX_BOARDS, MAX_ENTRANTS, MAX_ROUNDS, MAX_SPAN_S, MadeTournament,
    NewTournament,
};
pub use progress::{Progress, step};
pub use record::{
    Entry, Format, Partners, Round, Table, TableResult, TournamentRecord, TournamentStatus, Unit,
};
pub use scoring::{BoardScore, Standing, board_scores, standings};
pub(super) use watch::Watch;
