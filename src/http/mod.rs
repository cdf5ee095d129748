//! The HTTP/JSON API: actix handlers, errors and the OpenAPI document.
//!
//! What the handlers share sits apart from them: [`middleware`] (limits,
//! request extraction, conditional reads, request metrics), [`problem`]
//! (errors as problem details, their translations), [`openapi`] (the
//! document and its schemas) and [`respond`] (answers built alike).
//! [`routes`] registers every operation; [`server`] runs them.

mod actions;
mod challenges;
mod challenges_wire;
mod matches;
mod middleware;
mod openapi;
mod ops;
mod players;
mod players_wire;
mod problem;
mod queue;
mod ratings;
mod ratings_wire;
mod respond;
mod routes;
mod server;
mod stream;
mod tables;
mod tables_wire;
mod web_client;
mod wire;

pub use middleware::extract::MAX_BODY_BYTES;
pub use middleware::limit;
pub use openapi::{openapi, openapi_json};
pub use problem::{error, i18n};
pub use server::{ServeOptions, serve, serve_split};
