//! Players, tables with open seats, challenges, the matchmaking queue and
//! ratings: where bots and people sit down together, one folder per
//! domain, each holding its stored record, its pure logic and its
//! operations.
//!
//! The domains share a few parts kept here: the lobby's store
//! ([`store::LobbyStore`]: versioned documents, indexes and player event
//! lists), [`LobbyCore`] (the store, players looked up by id or key, their
//! event streams; the match service's [`Hooks`](crate::service::Hooks)),
//! [`update`] (the one compare-and-set helper every write goes through,
//! so two instances racing for a seat can never both get it),
//! `pending.rs` (each player's pending invitations, made and received,
//! which the caps count by compare-and-set), `start.rs` (the one routine that starts the match a table, a challenge
//! or a queue group promised) and `match_rules.rs` (the rules a challenge
//! or a tournament asks for, checked one way for both). The lobby imports the match service and
//! below (`service`, `store`, `rating`, `bots`, `rules`); nothing below
//! imports the lobby.

pub mod challenges;
mod core;
mod match_rules;
pub mod pending;
mod players;
pub mod queue;
mod ratings;
mod recovery;
mod start;
pub mod store;
mod tables;
pub mod tournaments;
mod turns;
pub mod update;

use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::service::Service;
use store::LobbyStore;

pub use challenges::{ChallengeList, ChallengeView, NewChallenge};
pub use core::LobbyCore;
pub use players::{
    MAX_MATCHES_PAGE, MatchesFilter, NewPlayer, PlayerEventsPage, PlayerMatch, PlayerMatchesPage,
    Registered, seconds_to_next_day,
};
pub use ratings::{
    BoardPage, BoardRow, DAY_MS, MAX_BOARD_PAGE, SAME_OPPONENT_PER_DAY, leaderboard_entry,
    leaderboard_id, leaderboard_index, played_enough, rated_games,
};
pub use tables::{
    Join, Joined, LobbyPage, NewTable, NewTableSeat, TableCreated, TableSeatView, TableView,
};

/// The stored records of every domain, and their codec, by one name (what
/// the HTTP layer converts to its wire types).
pub mod records {
    pub use super::players::{
        APPLIED_KEPT, COUNTED_KEPT, PlayerEvent, PlayerRating, PlayerRecord, house_player,
        key_player, valid_player_id,
    };
    pub use super::ratings::{HISTORY_KEPT, RatingChange, RatingEntry, RatingHistory, Unrated};
    pub use super::tables::{TableRecord, TableSeat, TableSeatKind, TableStatus, Visibility};
    pub use super::update::{decode, encode};
    pub use crate::service::{HOUSE_PREFIX, KEY_PREFIX, PlayerKind, SeatPlayer};
}

/// The lobby's operations: its own store and the match service it
/// starts matches in. Cheap to clone (two shared pointers).
#[derive(Clone)]
pub struct Lobby {
    svc: Arc<Service>,
    core: Arc<LobbyCore>,
}

impl Lobby {
    /// The lobby kept in `store`, over the match service `svc`, which from
    /// now on tells the lobby what happens to its matches.
    pub fn new(svc: Service, store: Arc<dyn LobbyStore>) -> Lobby {
        let core = Arc::new(LobbyCore::new(store));
        let svc = Arc::new(svc.with_hooks(Arc::clone(&core) as _));
        Lobby { svc, core }
    }

    /// The match service.
    pub fn service(&self) -> &Arc<Service> {
        &self.svc
    }

    /// The players, their streams and the lobby's store.
    pub fn core(&self) -> &LobbyCore {
        &self.core
    }

    /// Where players, tables and player streams are kept.
    pub fn store(&self) -> &dyn LobbyStore {
        self.core.store()
    }
}

/// How often each instance runs the lobby's housekeeping.
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(1);

/// Starts, on the current Tokio runtime, this instance's lobby
/// housekeeping, once a second for as long as the service lives: a
/// matching pass over every queue pool (so that expiry and house-bot
/// filling happen on time even when no request comes), the expiry of
/// challenges past their time, a step of every tournament not yet over, the starts a writer left half-done, and a
/// page of the public listing pruned (see `recovery.rs`). Every instance
/// runs it; the compare-and-set writes make sure each match is formed,
/// and each expiry announced, once. No read does any of this.
pub fn spawn_housekeeping(lobby: &Lobby) {
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let weak: (Weak<Service>, Weak<LobbyCore>) =
        (Arc::downgrade(&lobby.svc), Arc::downgrade(&lobby.core));
    rt.spawn(async move {
        let mut tick = tokio::time::interval(HOUSEKEEPING_EVERY);
        let mut listing: Option<String> = None;
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let (Some(svc), Some(core)) = (weak.0.upgrade(), weak.1.upgrade()) else {
                return;
            };
            let lobby = Lobby { svc, core };
            if let Err(e) = lobby.pass_all().await {
                tracing::warn!(error = %e, "queue pass failed");
            }
            if let Err(e) = lobby.sweep_challenges().await {
                tracing::debug!(error = %e, "challenge sweep failed");
            }
            if let Err(e) = lobby.advance_tournaments().await {
                tracing::warn!(error = %e, "tournament steps failed");
            }
            if let Err(e) = lobby.finish_starts().await {
                tracing::debug!(error = %e, "finishing left-over starts failed");
            }
            match lobby.prune_listing(listing.take()).await {
                Ok(next) => listing = next,
                Err(e) => tracing::debug!(error = %e, "listing pruning failed"),
            }
        }
    });
}
