//! Tables with open seats: a match to be, whose seats are remote, house
//! bots or open; each joiner gets its seat token at once, and the joiner
//! that takes the last open seat starts the match under the table's id
//! (through the lobby's one start routine: whoever finds a full table not
//! yet started finishes the start). Public tables are listed in the lobby;
//! private ones are joined by invite code.
//!
//! Holds the stored table (`record.rs`), creating and reading it
//! (`create.rs`), the seats of a new table and reserved seats, with
//! their invitations and declines (`reserve.rs`), joining and leaving
//! (`join.rs`), and the lobby listing and invite codes (`listing.rs`).
//! A seat names a player only with that player's key: another player
//! named gets a reserved seat that only its own key takes. May import the lobby's shared parts
//! (`core`, `update`, `start`, `store`), the players' record and events,
//! `service`, `bots` and `rules`.

mod create;
mod join;
mod listing;
mod record;
mod reserve;

pub use create::{Join, Joined, NewTable, NewTableSeat, TableCreated, TableSeatView, TableView};
pub(in crate::lobby) use create::{every_index, indexes};
pub use listing::LobbyPage;
pub use record::{TableRecord, TableSeat, TableSeatKind, TableStatus, Visibility};
