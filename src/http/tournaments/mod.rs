//! `/v1/tournaments`: Swiss, arena and duplicate tournaments: made by a
//! player, entered and withdrawn from, followed by anyone (standings,
//! rounds, travellers).

pub mod handlers;
pub mod rounds;
pub mod wire;
