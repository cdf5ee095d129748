//! The one check of a display name (a player's, a seat's, a joiner's and
//! its partner's): free text that other clients will show, so it must not
//! deceive. A name is read in Unicode NFC, the form that is stored and
//! shown, so that "Núria" typed with a combining accent is the same name
//! as "Núria" typed with `ú`; then it is refused when it hides, reorders
//! or breaks text, when it shows nothing, or when it stacks marks.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::Error;

/// The most combining marks one character of a name may carry.
pub const MAX_MARKS: usize = 3;

/// A character that hides, reorders or breaks text: a control character,
/// a line or paragraph separator, or a format character (Unicode category
/// Cf: the soft hyphen, zero-width characters, bidirectional embeddings,
/// overrides and isolates, the word joiner and invisible operators, the
/// byte-order mark, interlinear annotations, the tag characters, …).
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{2028}' | '\u{2029}'       // line and paragraph separators
            | '\u{00AD}'                  // soft hyphen
            | '\u{0600}'..='\u{0605}'     // Arabic number signs
            | '\u{061C}'                  // Arabic letter mark
            | '\u{06DD}' | '\u{070F}'     // end of ayah, Syriac abbreviation mark
            | '\u{0890}'..='\u{0891}' | '\u{08E2}'
            | '\u{180E}'                  // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}'     // zero-width space … right-to-left mark
            | '\u{202A}'..='\u{202E}'     // bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}'     // word joiner, invisible operators, bidi isolates
            | '\u{FEFF}'                  // byte-order mark
            | '\u{FFF9}'..='\u{FFFB}'     // interlinear annotation
            | '\u{110BD}' | '\u{110CD}'   // Kaithi number signs
            | '\u{13430}'..='\u{1343F}'   // Egyptian hieroglyph format controls
            | '\u{1BCA0}'..='\u{1BCA3}'   // shorthand format controls
            | '\u{1D173}'..='\u{1D17A}'   // musical symbol format controls
            | '\u{E0000}'..='\u{E007F}'   // tag characters
        )
}

/// A character that shows nothing, though it hides nothing either:
/// whitespace, the Hangul fillers, the blank Braille pattern, and the
/// invisible marks (the grapheme joiner, the variation selectors, Khmer's
/// inherent vowels, Mongolian's free variation selectors). A name made of
/// these alone looks blank.
fn blank(c: char) -> bool {
    c.is_whitespace()
        || matches!(c,
            '\u{115F}' | '\u{1160}'       // Hangul choseong and jungseong fillers
            | '\u{3164}' | '\u{FFA0}'     // Hangul filler, halfwidth Hangul filler
            | '\u{2800}'                  // Braille pattern blank
            | '\u{034F}'                  // combining grapheme joiner
            | '\u{17B4}' | '\u{17B5}'     // Khmer inherent vowels
            | '\u{180B}'..='\u{180D}' | '\u{180F}' // Mongolian free variation selectors
            | '\u{FE00}'..='\u{FE0F}'     // variation selectors
            | '\u{E0100}'..='\u{E01EF}'   // variation selectors supplement
        )
}

/// The longest run of combining marks (Unicode category M) in `name`.
fn longest_marks(name: &str) -> usize {
    let (mut run, mut longest) = (0, 0);
    for c in name.chars() {
        run = if is_combining_mark(c) { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// Checks a display name and answers it in NFC, the form to store and
/// show: at most `max_len` characters (counted in NFC), no character that
/// hides, reorders or breaks text (`hidden`), at least one that shows
/// (`blank`), and no character carrying more than `MAX_MARKS` combining
/// marks.
///
/// # Errors
/// `InvalidRequest` saying which rule the name breaks.
pub fn check_name(name: &str, max_len: usize) -> Result<String, Error> {
    let name: String = name.nfc().collect();
    if name.chars().count() > max_len {
        return Err(Error::InvalidRequest(format!(
            "names are at most {max_len} characters"
        )));
    }
    if let Some(bad) = name.chars().find(|&c| hidden(c)) {
        return Err(Error::InvalidRequest(format!(
            "names may not contain control, invisible or text-direction characters, such as U+{:04X}",
            u32::from(bad)
        )));
    }
    if name.chars().all(blank) {
        return Err(Error::InvalidRequest(
            "a name needs a visible character, not only spaces or invisible fillers".into(),
        ));
    }
    if longest_marks(&name) > MAX_MARKS {
        return Err(Error::InvalidRequest(format!(
            "names may stack at most {MAX_MARKS} combining marks on one character"
        )));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `check_name` makes of `name` (64 characters at most): the
    /// stored name, or the start of the refusal.
    fn checked(name: &str) -> Result<String, String> {
        check_name(name, 64).map_err(|e| e.to_string())
    }

    #[test]
    fn names_of_visible_text_pass_unchanged() {
        for name in [
            "Núria",
            "Jordi Pujolà",
            "Ñandú",
            "Núria i l'Àlex 🂡",
            "Pere  Martí",
            " Anna ",
            "Ça va",
            "Lluís·Gel·la",
            "Привіт",
            "東京",
            "한국",
            "❤\u{FE0F}",
            "e\u{0301}\u{0302}\u{0323}",
            "robobot",
        ] {
            let nfc: String = name.nfc().collect();
            assert_eq!(checked(name), Ok(nfc), "{name:?}");
        }
    }

    #[test]
    fn decomposed_names_come_out_composed() {
        for (typed, stored) in [
            ("Nu\u{0301}ria", "Núria"),
            ("Jordi Pujola\u{0300}", "Jordi Pujolà"),
            ("N\u{0303}andu\u{0301}", "Ñandú"),
            ("Joa\u{0303}o", "João"),
            ("Ångstro\u{0308}m", "Ångström"),
            // Compatibility forms are kept: NFC is not NFKC.
            ("ﬁ", "ﬁ"),
        ] {
            assert_eq!(checked(typed).as_deref(), Ok(stored), "{typed:?}");
        }
        // Counted as stored: 64 decomposed accents fit.
        assert!(checked(&"u\u{0301}".repeat(64)).is_ok());
        assert!(checked(&"ú".repeat(65)).is_err());
    }

    #[test]
    fn hidden_characters_are_refused() {
        for bad in [
            "a\0b",
            "a\x1bb",
            "a\nb",
            "a\tb",
            "a\u{85}b",
            "a\u{2028}b",
            "a\u{00AD}b",
            "a\u{200B}b",
            "a\u{200D}b",
            "a\u{200E}b",
            "evil\u{202E}txt",
            "a\u{2060}b",
            "a\u{2066}b\u{2069}",
            "\u{FEFF}a",
            "a\u{FFF9}b",
            "a\u{0600}b",
            "a\u{1D173}b",
            "flag\u{E0067}\u{E0062}\u{E007F}",
        ] {
            let refusal = checked(bad).unwrap_err();
            assert!(
                refusal.starts_with("names may not contain control, invisible"),
                "{bad:?}: {refusal}"
            );
        }
        assert!(checked("a\u{202E}b").unwrap_err().ends_with("U+202E"));
    }

    #[test]
    fn blank_looking_names_are_refused() {
        for bad in [
            "",
            " ",
            "   ",
            "\u{00A0}",
            "\u{3000}",
            "\u{2003}\u{2009}",
            "\u{3164}",
            "\u{115F}",
            "\u{1160}",
            "\u{115F}\u{1160}",
            "\u{FFA0}",
            "\u{2800}",
            "\u{2800} \u{3164}",
            "\u{034F}",
            " \u{FE0F}",
        ] {
            let refusal = checked(bad).unwrap_err();
            assert!(
                refusal.starts_with("a name needs a visible character"),
                "{bad:?}: {refusal}"
            );
        }
        // Only invisible or zero-width: refused for the hidden character.
        assert!(checked("\u{200B}").unwrap_err().contains("U+200B"));
        // A filler beside a visible character is just a blank.
        assert!(checked("a\u{3164}b").is_ok());
    }

    #[test]
    fn stacked_marks_are_refused() {
        assert!(checked("x\u{0300}\u{0301}\u{0302}").is_ok());
        for bad in [
            "x\u{0300}\u{0301}\u{0302}\u{0303}",
            "Z\u{0336}\u{0321}\u{0322}\u{031B}algo",
            "\u{0301}\u{0301}\u{0301}\u{0301}",
            "ok e\u{20DD}\u{20DE}\u{20DF}\u{20E0}",
        ] {
            let refusal = checked(bad).unwrap_err();
            assert!(
                refusal.starts_with("names may stack at most 3 combining marks"),
                "{bad:?}: {refusal}"
            );
        }
    }

    #[test]
    fn names_are_at_most_max_len_characters() {
        assert!(checked(&"x".repeat(64)).is_ok());
        assert!(
            checked(&"x".repeat(65))
                .unwrap_err()
                .starts_with("names are at most 64 characters")
        );
        assert!(check_name("Núria", 4).is_err());
    }
}
