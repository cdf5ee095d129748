//! Matches: creating and reading them ([`handlers`]: create, view, legal
//! moves, events, history; [`analysis`]: a finished match's cards
//! valued), acting in them ([`actions`]), following their
//! events as server-sent events ([`stream`]), and their request and
//! response types ([`wire`]).
//!
//! Imports: the shared parts of `http` (middleware, problem, openapi
//! schemas, respond, sse) and the players' [`SeatPlayer`]; the service and
//! the rules.
//!
//! [`SeatPlayer`]: crate::http::players::wire::SeatPlayer

pub mod actions;
pub mod analysis;
pub mod endings;
pub mod handlers;
pub mod stream;
pub mod wire;
