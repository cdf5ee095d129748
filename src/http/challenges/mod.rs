//! Challenges: a player challenges others to a match, they accept or
//! decline, the challenger may cancel ([`handlers`]), and their request
//! and response types ([`wire`]).
//!
//! Imports: the shared parts of `http`, the matches' `OnTimeout` and the
//! players' `SeatPlayer`; the lobby and the rules.

pub mod handlers;
pub mod wire;
