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
mod join;
mod listing;
mod players;
pub mod queue;
mod ratings;
pub mod records;
pub mod store;
mod tables;

use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::service::Service;

pub use challenges::{ChallengeList, ChallengeView, NewChallenge};
pub use listing::LobbyPage;
pub use players::{NewPlayer, PlayerEventsPage, Registered};
pub use ratings::{BoardPage, BoardRow, MAX_BOARD_PAGE};
pub use tables::{Join, Joined, NewTable, NewTableSeat, TableCreated, TableSeatView, TableView};

/// The lobby's operations over a service (whose stores it uses).
pub struct Lobby<'a> {
    svc: &'a Service,
}

impl<'a> Lobby<'a> {
    /// The lobby of `svc`.
    pub fn of(svc: &'a Service) -> Lobby<'a> {
        Lobby { svc }
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
pub fn spawn_housekeeping(svc: &Arc<Service>) {
    let Ok(rt) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let weak: Weak<Service> = Arc::downgrade(svc);
    rt.spawn(async move {
        let mut tick = tokio::time::interval(HOUSEKEEPING_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(svc) = weak.upgrade() else {
                return;
            };
            let lobby = Lobby::of(&svc);
            if let Err(e) = lobby.pass_all().await {
                tracing::warn!(error = %e, "queue pass failed");
            }
            if let Err(e) = lobby.sweep_challenges().await {
                tracing::debug!(error = %e, "challenge sweep failed");
            }
        }
    });
}
