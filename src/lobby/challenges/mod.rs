//! Challenges: a player invites others to a match, rated or casual. The
//! code sits in `record.rs` while this folder is being cut up by job.

mod record;

pub use record::*;
