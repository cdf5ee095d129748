//! The matchmaking queue (being split by job; see `ops.rs` for now).

mod ops;

pub use ops::*;
