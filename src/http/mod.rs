//! The HTTP/JSON API: actix handlers, errors and the OpenAPI document.
//!
//! One folder per domain, each with its handlers beside its wire types:
//! `matches/` (with the actions and a match's event stream), `tables/`,
//! `challenges/`, `queue/`, `players/`, `ratings/`, and `ops/` (health,
//! metrics). What the domains share sits apart: `middleware/` (limits,
//! request extraction, conditional reads, request metrics), `problem/`
//! (errors as problem details, their translations), `openapi/` (the
//! document and its schemas), `sse.rs` (server-sent events, for every
//! event stream) and `respond.rs` (answers built alike). `routes.rs`
//! registers every operation; `server.rs` runs them; `web_client.rs`
//! serves the reference web client.
//!
//! A domain may import the shared parts and the wire types of the domains
//! it builds on (players, then matches); the shared parts import no
//! domain.

mod challenges;
mod matches;
mod middleware;
mod openapi;
mod ops;
mod players;
mod problem;
mod queue;
mod ratings;
mod respond;
mod routes;
mod server;
mod sse;
mod tables;
mod tournaments;
mod web_client;

pub use middleware::extract::MAX_BODY_BYTES;
pub use middleware::limit;
pub use openapi::{openapi, openapi_json};
pub use problem::{error, i18n};
pub use server::{ServeOptions, serve, serve_split};
