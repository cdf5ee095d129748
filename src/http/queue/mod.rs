//! The matchmaking queue: joining it, following a ticket, leaving
//! ([`handlers`]), queueing with a partner ([`parties`]), and the
//! queue's request and response types ([`wire`]).
//!
//! Imports: the shared parts of `http`; the lobby and the rules.

pub mod handlers;
pub mod parties;
pub mod wire;
