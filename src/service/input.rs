//! Checks on what clients send: seeds, bot names and move clocks (display
//! names have their own check, in `names.rs`).

use super::Error;
use crate::bots;

/// Parses a 64-hex-digit seed.
pub fn parse_seed(s: &str) -> Result<[u8; 32], Error> {
    let mut seed = [0u8; 32];
    hex::decode_to_slice(s, &mut seed).map_err(|_| {
        Error::InvalidRequest("seed must be 64 hexadecimal digits (256 bits)".into())
    })?;
    Ok(seed)
}

/// The house bot called `name`, or the error naming the ones there are.
pub fn house_bot(name: &str) -> Result<&'static dyn bots::Bot, Error> {
    bots::by_name(name).ok_or_else(|| {
        Error::InvalidRequest(format!(
            "unknown bot {name:?}; house bots: {}",
            bots::NAMES.join(", ")
        ))
    })
}

/// Checks a move clock: between 100 ms and a day.
///
/// # Errors
/// `InvalidRequest` out of range.
pub fn check_move_timeout(ms: Option<u64>) -> Result<(), Error> {
    match ms {
        Some(ms) if !(100..=86_400_000).contains(&ms) => Err(Error::InvalidRequest(
            "move_timeout_ms must be between 100 and 86400000".into(),
        )),
        _ => Ok(()),
    }
}
