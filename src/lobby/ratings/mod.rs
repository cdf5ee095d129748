//! Ratings: applying a finished rated match to its players' Glicko-2
//! ratings exactly once (`apply.rs`), what of it counts (`fair.rs`: rated
//! means earned), each player's rating history
//! (`record.rs`), and the leaderboards and rating pages (`board.rs`).
//!
//! May import the lobby's shared parts (`core`, `update`, `store`), the
//! players' record, `service` (the finished match), `rating` and `rules`.

mod apply;
mod board;
mod fair;
mod record;

pub use apply::{leaderboard_entry, leaderboard_id, leaderboard_index};
pub use board::{BoardPage, BoardRow, MAX_BOARD_PAGE};
pub use fair::{DAY_MS, SAME_OPPONENT_PER_DAY, played_enough, rated_games};
pub use record::{HISTORY_KEPT, RatingChange, RatingEntry, RatingHistory, Unrated};
