//! Players: registering them, their API keys and profiles, and a player's
//! event stream, as a long poll or as server-sent events ([`handlers`]);
//! a player's list of matches ([`matches`]);
//! their request and response types ([`wire`]).
//!
//! Imports: the shared parts of `http` and the lobby; no other domain.
//! Players are what other domains build on: matches, tables and
//! challenges seat a `SeatPlayer`, ratings show `PlayerKind` and
//! `PoolRating`.

pub mod handlers;
pub mod matches;
pub mod seat_player;
pub mod wire;
