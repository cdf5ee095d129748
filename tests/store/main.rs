//! The store suite: the `MatchStore` contract on the in-memory store and on
//! Redis, and the Redis store through an outage.
//!
//! `backends` (shared with the api suite) makes the stores, starts
//! throwaway Redis servers and runs a store-parametrized test on both as
//! `memory::NAME` and `redis::NAME`.

#[path = "../backends/mod.rs"]
mod backends;

mod contract;
mod lobby;
mod outage;
