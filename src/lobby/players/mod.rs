//! Players: registering one and its secret API key (shown once, stored as
//! its SHA-256, compared in constant time), its public profile, and its
//! event stream (what the lobby and its matches tell it).
//!
//! Holds the stored player (`record.rs`), the events of its stream
//! (`events.rs`) and the operations (`ops.rs`). May import the lobby's
//! shared parts (`core`, `update`, `store`), `service`, `rating` and
//! `rules`; no other domain of the lobby imports anything here but the
//! record and the events.

mod caps;
mod events;
mod matches;
mod ops;
mod record;

pub use caps::seconds_to_next_day;
pub use events::PlayerEvent;
pub use matches::{MAX_MATCHES_PAGE, MatchesFilter, PlayerMatch, PlayerMatchesPage};
pub use ops::{NewPlayer, PlayerEventsPage, Registered};
pub use record::{
    APPLIED_KEPT, COUNTED_KEPT, PlayerRating, PlayerRecord, house_player, key_player,
    valid_player_id,
};
