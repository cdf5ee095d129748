//! The matches room: a match's lifecycle over a store — create, act,
//! view, events, history, move clocks and house bots' moves.
//!
//! Every request loads the match from the [`MatchStore`], works on it in
//! memory with the rules engine, and writes it back with one
//! compare-and-set on its version, so concurrent requests (on one server or
//! many) never lose or duplicate a move. House bots, automatic deals and
//! expired move clocks are played by a write that makes them due, a
//! bounded number of steps at a time, off the async workers (see
//! [`driver`]), and after that by the scheduler (`scheduler.rs`) with
//! nobody reading: reads never write.
//!
//! Matches know players only as the [`SeatPlayer`] stored at a seat. What
//! they need of a player directory (a key's player, a player to seat, a
//! rating) they ask, and what happened (a match created, a commit, a read)
//! they tell, through one interface, [`Hooks`], which the lobby
//! implements; this room never imports the lobby. It may import `rules`,
//! `bots`, `rating` and `store`.
//!
//! By job: [`create`](Service::create) in `create.rs` (its checks in
//! `input.rs`, the one check of a display name in `names.rs` and the one
//! seat check in `seats.rs`), acting with the
//! compare-and-set retry loop in `act.rs`, reads and event pages in
//! `reads.rs`, loading and saving a record in `persist.rs`, the house-bot
//! driver in `driver.rs`, what is told to the hooks in `players.rs`.

mod act;
mod act_kind;
pub mod analysis;
mod bot_pool;
mod cache;
mod clock;
mod compact;
mod conditional;
mod create;
pub mod driver;
mod endings;
mod error;
mod events;
mod hooks;
mod input;
mod instrumented;
pub mod metrics;
mod names;
mod persist;
mod players;
mod reads;
mod record;
mod replayed;
mod scheduler;
mod seat_player;
mod seats;
mod tokens;

use std::sync::Arc;

use crate::store::MatchStore;

pub use act::{Act, ActRequest, Acted};
pub use analysis::AnalysisRead;
pub use clock::{now_ms as clock_now_ms, rfc3339};
pub use conditional::{Conditional, Tag};
pub use create::{Created, NewMatch, NewSeat, SeatToken};
pub use error::Error;
pub use events::EventView;
pub use hooks::{Hooks, NoPlayers};
pub use input::{check_move_timeout, house_bot};
pub use names::check_name as check_display_name;
pub use reads::{EventsPage, LegalMoves};
pub use record::{MatchRecord, MatchView, OnTimeout, RatedMatch, SeatInfo, SeatKind, SeatRecord};
pub use scheduler::{SchedulerOptions, next_due, spawn_scheduler};
pub use seat_player::{HOUSE_PREFIX, KEY_PREFIX, PlayerKind, SeatPlayer};
pub use seats::{CONSENT_DETAIL, CheckedSeat, Holder, SeatSpec, check_seat_spec};
pub use tokens::{
    hash_matches, hash_token, new_token as new_seat_token, os_random as random_bytes, token_key,
};

/// Limits the service enforces on what clients control.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Longest long-poll wait, in milliseconds.
    pub max_wait_ms: u64,
    /// Most events returned by one request.
    pub max_events_page: usize,
    /// Longest display name, in characters.
    pub max_name_len: usize,
    /// Most engine steps (house-bot moves, automatic deals, clock
    /// stand-ins) one request plays; the rest waits for the next request.
    pub max_steps: usize,
    /// Most house-bot advances running at once (on the low-priority bot threads).
    pub bot_threads: usize,
    /// Most hints computed at once (on the low-priority bot threads).
    pub hint_threads: usize,
    /// The threads match analyses run on (low priority, their own).
    pub analysis_threads: usize,
    /// Most match analyses running or waiting for a thread at once.
    pub analysis_queue: usize,
    /// Most finished match analyses kept (the oldest dropped first).
    pub analysis_kept: usize,
    /// The hands of a match its analysis values, from the first.
    pub analysis_hands: u32,
    /// The solver's budget for one card of an analysis, in positions
    /// visited; past it the card is left unsolved.
    pub analysis_nodes_per_card: u64,
    /// The solver's budget for a whole analysis, in positions visited;
    /// past it the cards still to value are left unsolved.
    pub analysis_nodes_per_match: u64,
    /// The bid search's playouts for one bidding decision of an analysis
    /// (0: the bidding is not valued).
    pub analysis_playouts_per_bid: u32,
    /// Most hands a match may deal, whatever its target: the hard cap on a
    /// match's events and size.
    pub max_hands_per_match: u32,
    /// The move clock of a rated match created without one, with a person
    /// at a client seat (ms).
    pub rated_clock_ms: u64,
    /// The move clock of a rated match created without one whose client
    /// seats are all bot players (ms).
    pub rated_bot_clock_ms: u64,
    /// Most tickets waiting in one queue pool.
    pub max_queue_tickets: usize,
    /// In a rated match, the moves in a row a client seat may miss on its
    /// move clock (its house bot playing them) before its side loses the
    /// match by abandonment (0: never).
    pub abandon_after_missed: u8,
    /// The moves in a row an opponent must have missed on its move clock
    /// before a seat may claim victory.
    pub claim_after_missed: u8,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_wait_ms: 30_000,
            max_events_page: 1000,
            max_name_len: 64,
            max_steps: 64,
            bot_threads: 2,
            hint_threads: 1,
            analysis_threads: 1,
            analysis_queue: 4,
            analysis_kept: 64,
            analysis_hands: 24,
            analysis_nodes_per_card: 64_000_000,
            analysis_nodes_per_match: 2_000_000_000,
            analysis_playouts_per_bid: 2_000,
            max_hands_per_match: 1000,
            rated_clock_ms: 120_000,
            rated_bot_clock_ms: 15_000,
            max_queue_tickets: 100_000,
            abandon_after_missed: 3,
            claim_after_missed: 2,
        }
    }
}

/// The match service over a store.
pub struct Service {
    store: Arc<dyn MatchStore>,
    limits: Limits,
    driver: driver::Driver,
    cache: cache::Cache,
    analyses: analysis::Analyses,
    hooks: Arc<dyn Hooks>,
    /// Wakes this instance's scheduler when a write made work due now,
    /// and tells it the soonest future due time this instance wrote.
    due_wake: Arc<scheduler::DueWake>,
}

impl Service {
    /// A service over `store`; every store round trip is counted in [`metrics`].
    ///
    /// # Errors
    /// `Internal` when the house-bot threads cannot be started.
    pub fn new(store: Arc<dyn MatchStore>, limits: Limits) -> Result<Service, Error> {
        let driver = driver::Driver::new(
            limits.bot_threads,
            limits.hint_threads,
            limits.max_steps,
            limits.caps(),
        )?;
        let analyses = analysis::Analyses::new(&limits)?;
        Ok(Service {
            store: Arc::new(instrumented::Instrumented::new(store)),
            limits,
            driver,
            cache: cache::Cache::default(),
            analyses,
            hooks: Arc::new(NoPlayers),
            due_wake: Arc::default(),
        })
    }

    /// This service telling `hooks` what happens to its matches and asking
    /// them about players (by default, [`NoPlayers`]: anonymous matches only).
    #[must_use]
    pub fn with_hooks(mut self, hooks: Arc<dyn Hooks>) -> Service {
        self.hooks = hooks;
        self
    }

    /// Whether the store answers, for readiness checks.
    ///
    /// # Errors
    /// `StoreUnavailable` when it does not.
    pub async fn ready(&self) -> Result<(), Error> {
        Ok(self.store.ping().await?)
    }

    /// The store's kind: `memory`, `redis` or `redis-cluster`.
    pub fn store_kind(&self) -> &'static str {
        self.store.kind()
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
}
