//! The matchmaking queue: tickets waiting in a pool per variant (rated or
//! casual), paired by rating within a window that widens while they wait,
//! and seated together (or with house bots) in matches the queue starts.
//!
//! The room holds three stored kinds, all lobby documents: the tickets,
//! one pool per variant and rated/casual (its waiting tickets and the
//! matches it formed that are not finished yet), and each player's
//! `queued` marker (its one waiting ticket). Every change is a
//! compare-and-set through the lobby's one helper, so several server
//! instances share the queue safely: a matching pass removes the tickets
//! it seats and records the match it formed in the same write as the
//! pool, so no ticket is seated twice; the match is created afterwards
//! under the id recorded (once, whoever gets there), and an instance that
//! stops half-way leaves the formed entry for the next pass to finish.
//!
//! By job:
//! - `record.rs`: the stored types and the pools' ids. Plain data.
//! - `pass.rs`: the matching pass, pure (no store, no clock, no async):
//!   which tickets expire, which groups form, how they are seated and
//!   filled with house bots, and when the pool next needs a pass.
//!   Unit-tested on plain pools.
//! - `lanes.rs`: the pass's index: each kind of ticket sorted by rating,
//!   so that a ticket's nearest compatible tickets are found without
//!   reading the others.
//! - `ops.rs`: what a player does: queue, follow a ticket, leave.
//! - `party.rs`: parties, the only way to queue with a partner: one
//!   player proposes, the other accepts with its own key.
//! - `shards.rs`: the pools' rating bands, one document each; the pass
//!   across a band's edge, and the steps that form a group with another
//!   band's tickets.
//! - `joins.rs`: joins to one band filed together and made in one write
//!   by whoever gets the band's turn.
//! - `matching.rs`: the pass on the stored shards (one, a pool's, or
//!   every due one for the housekeeping), and finishing what it formed:
//!   `start_formed` creates the match, then its tickets are settled and
//!   the entry dropped from its pool.
//! - `tickets.rs`: writes to one ticket and to one player's marker.
//! - `write.rs`: one write to a band (its change and pass, in its turn)
//!   and the band's due time.
//!
//! What it may import: the lobby's shared parts (`lobby::{core, update,
//! records, store}` and the [`Lobby`] handle it adds its operations to),
//! `crate::service` (creating matches, errors, time), `crate::rating`
//! (the pools and house bots' ratings) and `crate::rules` (variants and
//! seats); no other lobby room.
//!
//! [`Lobby`]: crate::lobby::Lobby

mod joins;
mod lanes;
mod matching;
mod ops;
mod party;
mod pass;
mod record;
mod shards;
mod tickets;
mod write;

pub(crate) use joins::JoinReq;
pub use matching::PassReport;
pub use ops::{Enqueue, TicketView};
pub use party::{PARTY_LIFE_S, PartyView};
pub use pass::{
    MAX_EXAMINED, Pass, WINDOW_EVERY_MS, WINDOW_MAX, WINDOW_START, WINDOW_STEP, house_bot_near,
    run_pass, window,
};
pub use record::{
    BAND_WIDTH, BANDS, DEFAULT_EXPIRY_S, Entry, Formed, FormedSeat, Import, ImportState,
    MAX_EXPIRY_S, PartyRecord, PartyStatus, PoolRecord, Shard, TicketRecord, TicketStatus, band_of,
};
