//! Botifarra: a card-game server.

pub mod rules;
pub mod sim;
pub mod store;
