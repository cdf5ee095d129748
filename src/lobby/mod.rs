//! Players, tables with open seats, the lobby, invite codes and each
//! player's event stream: where bots and people sit down together.
//!
//! A player is registered once and gets a secret API key (shown once,
//! stored as its SHA-256, compared in constant time); the key acts for
//! the player's seats in any match. A table is a match to be: its seats
//! are remote, house bots or open; each joiner gets its seat token at
//! once, and the joiner that takes the last open seat creates the match
//! under the table's id through the ordinary create path (whoever finds a
//! full table not yet started finishes the start, and creation under a
//! fixed id happens once). Every write is a compare-and-set on the
//! document's version in the [`store::LobbyStore`], so two instances
//! racing for a seat can never both get it.
//!
//! By job: the stored types in `records.rs`, players and their streams in
//! `players.rs`, the leaderboard and rating histories in `ratings.rs`,
//! tables in `tables.rs`, joining and leaving in `join.rs`, the lobby
//! listing and invite codes in `listing.rs`, challenges (their stored type
//! among them) in `challenges.rs`, the matchmaking queue in `queue.rs`.

pub mod challenges;
mod core;
mod join;
mod listing;
mod players;
pub mod queue;
mod rating_updates;
mod ratings;
pub mod records;
mod start;
pub mod store;
mod tables;
pub mod update;

use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::service::Service;
use store::LobbyStore;

pub use challenges::{ChallengeList, ChallengeView, NewChallenge};
pub use core::LobbyCore;
pub use listing::LobbyPage;
pub use players::{NewPlayer, PlayerEventsPage, Registered};
pub use rating_updates::{leaderboard_entry, leaderboard_id, leaderboard_index, rated_games};
pub use ratings::{BoardPage, BoardRow, MAX_BOARD_PAGE};
pub use tables::{Join, Joined, NewTable, NewTableSeat, TableCreated, TableSeatView, TableView};

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
/// filling happen on time even when no request comes), and the expiry of
/// challenges past their time. Every instance runs it; the
/// compare-and-set writes make sure each match is formed, and each expiry
/// announced, once.
pub fn spawn_housekeeping(lobby: &Lobby) {
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let weak: (Weak<Service>, Weak<LobbyCore>) =
        (Arc::downgrade(&lobby.svc), Arc::downgrade(&lobby.core));
    rt.spawn(async move {
        let mut tick = tokio::time::interval(HOUSEKEEPING_EVERY);
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
        }
    });
}
