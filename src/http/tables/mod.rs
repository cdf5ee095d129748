//! Tables: tables with open seats, the lobby of public ones, invite codes,
//! joining and leaving ([`handlers`]), and their request and response
//! types ([`wire`]).
//!
//! Imports: the shared parts of `http`, the matches' wire types a table
//! shares (`OnTimeout`, `SeatToken`) and the players' `SeatPlayer`; the
//! lobby and the rules.

pub mod handlers;
pub mod wire;
