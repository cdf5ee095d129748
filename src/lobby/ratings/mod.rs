//! Ratings: applying a finished rated match to its players' Glicko-2
//! ratings exactly once (`apply.rs`), each player's rating history
//! (`record.rs`), and the leaderboards and rating pages (`board.rs`).
//!
//! May import the lobby's shared parts (`core`, `update`, `store`), the
//! players' record, `service` (the finished match), `rating` and `rules`.

mod apply;
mod board;
mod record;

pub use apply::{leaderboard_entry, leaderboard_id, leaderboard_index, rated_games};
pub use board::{BoardPage, BoardRow, MAX_BOARD_PAGE};
pub use record::{HISTORY_KEPT, RatingChange, RatingEntry, RatingHistory};
