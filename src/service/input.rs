//! Checks on what clients send: seeds, bot names, and the free text they
//! store in a match (seat names), which other clients will display.

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

/// Whether `c` may appear in a display name: printable, and neither a
/// control character nor one that reorders or hides text (bidi controls,
/// zero-width characters, the byte-order mark).
fn printable(c: char) -> bool {
    !c.is_control()
        && !matches!(c,
            '\u{00AD}'                  // soft hyphen
            | '\u{061C}'                // Arabic letter mark
            | '\u{180E}'                // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}'   // zero-width space … right-to-left mark
            | '\u{2028}'..='\u{202E}'   // line/paragraph separators, bidi embeddings
            | '\u{2060}'..='\u{206F}'   // word joiner, invisible operators, bidi isolates
            | '\u{FEFF}'                // byte-order mark
            | '\u{FFF9}'..='\u{FFFB}'   // interlinear annotation
        )
}

/// Checks a seat's display name: at most `max_len` printable characters.
///
/// # Errors
/// `InvalidRequest` naming the fault.
pub fn check_name(name: &str, max_len: usize) -> Result<(), Error> {
    if name.chars().count() > max_len {
        return Err(Error::InvalidRequest(format!(
            "seat names are at most {max_len} characters"
        )));
    }
    if let Some(bad) = name.chars().find(|&c| !printable(c)) {
        return Err(Error::InvalidRequest(format!(
            "seat names must be printable text; U+{:04X} is not allowed",
            u32::from(bad)
        )));
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_printable_text_pass_and_hidden_characters_do_not() {
        assert!(check_name("Núria i l'Àlex 🂡", 64).is_ok());
        for bad in [
            "a\0b",
            "a\x1bb",
            "a\nb",
            "a\u{202E}b",
            "a\u{200B}b",
            "\u{FEFF}a",
        ] {
            assert!(check_name(bad, 64).is_err(), "{bad:?} was accepted");
        }
        assert!(check_name(&"x".repeat(65), 64).is_err());
    }
}
