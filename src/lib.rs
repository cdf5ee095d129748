//! Botifarra: the reference game server for the Catalan trick-taking card game.
//!
//! - [`rules`]: the game itself, pure and fast (no I/O);
//! - [`bots`]: house players built only on the rules;
//! - [`arena`]: bot against bot over duplicate deals;
//! - [`store`]: where matches live (memory or Redis);
//! - [`service`]: the match lifecycle over a store;
//! - [`http`]: the HTTP/JSON API and its OpenAPI document;
//! - [`rating`]: Glicko-2 player ratings.

pub mod arena;
pub mod bots;
pub mod config;
pub mod http;
pub mod lobby;
pub mod rating;
pub mod rules;
pub mod service;
pub mod store;
