//! The challenges room of the lobby: a player invites others to a match
//! (in the pairs game with or without a partner, against one or two
//! opponents; in the individual variants against 1 to seats − 1 of them,
//! house bots at the other seats), rated or casual; each invited player
//! accepts or declines, the challenger may cancel, and an unanswered
//! challenge expires.
//!
//! A challenge is one document of the lobby store, changed only through
//! the lobby's compare-and-set helper (`update`), so two acceptances
//! racing on two instances cannot both be the last one. Its life:
//! `pending` → `starting` (the write of the last acceptance) → `started`
//! (its match exists under the challenge's id), or `pending` →
//! `declined` / `cancelled` / `expired`. A writer may stop half-way, so
//! every reader settles what it reads first: it starts a challenge found
//! `starting` (creation under a fixed id happens once) and writes expired
//! a pending one past its time (only that write announces the expiry). It
//! is listed in a pending index ordered by expiry, which each instance's
//! housekeeping sweeps, and in each player's incoming or outgoing index.
//!
//! By job: the stored challenge and every decision on it, pure and unit
//! tested, in `record.rs`; what its players see in `view.rs`; making one
//! in `create.rs` (its seat rules in `create::check_seats`); answers
//! (accept, decline, cancel) in `answer.rs`; reading one and a player's
//! lists in `read.rs`; settling on read and the expiry sweep in
//! `sweep.rs`; a finished match's rematch, a challenge from its seats, in
//! `rematch.rs`; the start of the match in `start.rs`
//! (`Lobby::start_accepted`); the index entries and the players' events
//! in `announce.rs`.
//!
//! What it may import: from the lobby, only its shared parts — the
//! `Lobby` handle and its `LobbyCore` (players, keys, event streams),
//! `update` (the one compare-and-set helper), `pending` (the players'
//! pending invitations the caps count), `records` (players, events,
//! encoding), `store` (documents and indexes) and `match_rules` (the
//! rules asked for, checked) — never another room of
//! the lobby (tables, queue, ratings); outside it, `crate::service` (the
//! match is created through its ordinary create path, and its errors,
//! clock and randomness), `crate::rating` (standard rules and pools of
//! rated play), `crate::rules` (variants, seats, sides) and
//! `crate::bots` (only the default house bot's name).

mod announce;
mod answer;
mod create;
mod read;
mod record;
mod rematch;
mod start;
mod sweep;
mod view;

pub use create::{DEFAULT_EXPIRY_S, MAX_EXPIRY_S, MAX_MADE, MAX_RECEIVED, NewChallenge};
pub use read::LIST_MAX;
pub use record::{ChallengeRecord, ChallengeRole, ChallengeSeat, ChallengeStatus};
pub use rematch::rematch_id;
pub use view::{ChallengeList, ChallengeSeatView, ChallengeView};
