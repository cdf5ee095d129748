//! Ratings: a pool's leaderboard and a player's rating history, both
//! public ([`handlers`]), and their response types ([`wire`]).
//!
//! Imports: the shared parts of `http` and the players' `PlayerKind` and
//! `PoolRating` (players never import ratings); the lobby and the rules.

pub mod handlers;
pub mod wire;
