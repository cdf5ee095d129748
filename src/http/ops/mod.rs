//! What operators ask of a server rather than players: liveness and
//! readiness ([`health`]) and the Prometheus metrics ([`metrics`]).
//!
//! Imports: [`crate::http::middleware`] (the bearer token, who may read
//! `/metrics`), [`crate::http::problem`] and the service; no other domain.

pub mod health;
pub mod metrics;
