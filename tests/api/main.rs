//! The API suite: a real server on a free port, driven over HTTP, on the
//! in-memory store and on Redis.
//!
//! `app` starts servers and holds the client; `backends` (shared with the
//! store suite) makes the stores and runs a store-parametrized test on
//! both as `memory::NAME` and `redis::NAME`. Each other module is one
//! topic; add a file beside this one and a `mod` line below to add one.

#[path = "../backends/mod.rs"]
mod backends;

mod app;
mod lobby_client;
mod logs;
mod raw;
mod tapped_store;

mod analysis;
mod browser;
mod challenge_caps;
mod challenges;
mod clock_stream;
mod cluster_failover;
mod cluster_fleet;
mod cluster_kill;
mod consent;
mod contract;
mod contract_document;
mod daemon;
mod endings;
mod errors;
mod fair_play;
mod hardening;
mod house_levels;
mod left_over_starts;
mod limits;
mod metrics;
mod names;
mod normalized;
mod openapi;
mod openapi_streams;
mod play;
mod player_matches;
mod player_matches_repair;
mod players;
mod queue;
mod queue_fair;
mod queue_shards;
mod rated_clock;
mod ratings;
mod redis_fleet;
mod rematch;
mod scheduler;
mod semantics;
mod server_caps;
mod spec_bounds;
mod spec_examples;
mod stream_end;
mod stream_state;
mod table_races;
mod tables;
mod tournaments;
mod tournaments_kill;
mod tournaments_told;
mod turn_told;
