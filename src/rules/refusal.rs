//! Why the engine refuses a move: one variant per rule a move can break.
//!
//! A refusal carries what its sentence needs (the card to beat, the suit to
//! follow, the call expected). [`RuleError`]'s `Display` is the English
//! sentence clients read; [`RuleError::code`] is a stable machine word,
//! one of [`RuleError::CODES`], that clients can act on without reading
//! the sentence (the HTTP layer sends it as the problem's `rule`, and
//! writes the sentence in the client's language).

use super::card::{Card, Suit};
use super::contract::Call;
use super::phase::Phase;
use super::seat::Seat;

/// A rule a move breaks. The state it was tried on is left untouched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The action belongs to another phase.
    #[error("the match is in phase {phase}, this action needs {expected}", phase = .phase.as_str(), expected = .expected.as_str())]
    WrongPhase {
        /// The phase the match is in.
        phase: Phase,
        /// The phase the action needs.
        expected: Phase,
    },
    /// Another seat is to act.
    #[error("it is not your turn{}", .turn.map(|t| format!(": seat {t} is to act")).unwrap_or_default())]
    NotYourTurn {
        /// The seat to act.
        turn: Option<Seat>,
    },
    /// The card is not in the player's hand.
    #[error("{0} is not in your hand")]
    NotInHand(Card),
    /// A card of the suit led is held and must be played (docs/rules.md 4).
    #[error("must follow suit {0}")]
    MustFollowSuit(Suit),
    /// An opponent is winning and a card of the suit led beats its card.
    #[error("must beat {0}")]
    MustBeat(Card),
    /// Void in the suit led, an opponent winning: a trump that beats its
    /// card must be played (overtrumping a trump).
    #[error("must trump to beat {0}")]
    MustTrumpToBeat(Card),
    /// Must-trump (4.2): void in the suit led, a trump must be played even
    /// when it cannot win.
    #[error("must trump")]
    MustTrump,
    /// Forced mode (4.1): without a card that beats, the lowest card of the
    /// suit led (`suit`), or of a suit when void (`suit` is `None`); or a
    /// counting card when `counting_allowed`.
    #[error(
        "forced mode: must play the lowest card of {}{}",
        .suit.map_or("a suit".to_string(), |s| format!("suit {s}")),
        if *.counting_allowed { " or a counting card" } else { "" }
    )]
    ForcedLowest {
        /// The suit led, when the player holds it.
        suit: Option<Suit>,
        /// Whether a counting card is allowed too.
        counting_allowed: bool,
    },
    /// The seat received the choice of trump and may not hand it on.
    #[error("you received the choice and must name a suit or botifarra")]
    MustNameTrump,
    /// An Estevet outside abarrotada.
    #[error("estevet exists only in abarrotada")]
    EstevetOnlyInAbarrotada,
    /// A doubling call of the wrong level.
    #[error("the call now is {} or pass", .expected.as_str())]
    WrongCall {
        /// The double due now.
        expected: Call,
    },
}

impl RuleError {
    /// Every code [`RuleError::code`] can return, in a stable order.
    pub const CODES: &'static [&'static str] = &[
        "wrong_phase",
        "not_your_turn",
        "not_in_hand",
        "must_follow_suit",
        "must_beat",
        "must_trump_to_beat",
        "must_trump",
        "forced_lowest_of_suit",
        "forced_lowest_of_suit_or_counting",
        "forced_lowest_of_a_suit",
        "forced_lowest_of_a_suit_or_counting",
        "must_name_trump",
        "estevet_only_in_abarrotada",
        "wrong_call",
    ];

    /// A stable snake_case word naming the broken rule. The forced-mode
    /// refusal (4.1) has four: following suit (`…_of_suit`) or void
    /// (`…_of_a_suit`: the lowest card of any suit held), each with
    /// `…_or_counting` when a counting card is allowed too.
    pub fn code(&self) -> &'static str {
        match self {
            RuleError::WrongPhase { .. } => "wrong_phase",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::NotInHand(_) => "not_in_hand",
            RuleError::MustFollowSuit(_) => "must_follow_suit",
            RuleError::MustBeat(_) => "must_beat",
            RuleError::MustTrumpToBeat(_) => "must_trump_to_beat",
            RuleError::MustTrump => "must_trump",
            RuleError::ForcedLowest {
                suit: Some(_),
                counting_allowed: false,
            } => "forced_lowest_of_suit",
            RuleError::ForcedLowest {
                suit: Some(_),
                counting_allowed: true,
            } => "forced_lowest_of_suit_or_counting",
            RuleError::ForcedLowest {
                suit: None,
                counting_allowed: false,
            } => "forced_lowest_of_a_suit",
            RuleError::ForcedLowest {
                suit: None,
                counting_allowed: true,
            } => "forced_lowest_of_a_suit_or_counting",
            RuleError::MustNameTrump => "must_name_trump",
            RuleError::EstevetOnlyInAbarrotada => "estevet_only_in_abarrotada",
            RuleError::WrongCall { .. } => "wrong_call",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sentence clients read, word for word, and its code.
    #[test]
    fn each_refusal_reads_as_before_and_has_its_code() {
        let c: Card = "11C".parse().unwrap();
        let cases = [
            (
                RuleError::WrongPhase {
                    phase: Phase::Doubling,
                    expected: Phase::Playing,
                },
                "the match is in phase doubling, this action needs playing",
                "wrong_phase",
            ),
            (
                RuleError::NotYourTurn { turn: Some(2) },
                "it is not your turn: seat 2 is to act",
                "not_your_turn",
            ),
            (
                RuleError::NotYourTurn { turn: None },
                "it is not your turn",
                "not_your_turn",
            ),
            (
                RuleError::NotInHand(c),
                "11C is not in your hand",
                "not_in_hand",
            ),
            (
                RuleError::MustFollowSuit(Suit::Bastos),
                "must follow suit B",
                "must_follow_suit",
            ),
            (RuleError::MustBeat(c), "must beat 11C", "must_beat"),
            (
                RuleError::MustTrumpToBeat(c),
                "must trump to beat 11C",
                "must_trump_to_beat",
            ),
            (RuleError::MustTrump, "must trump", "must_trump"),
            (
                RuleError::ForcedLowest {
                    suit: Some(Suit::Oros),
                    counting_allowed: false,
                },
                "forced mode: must play the lowest card of suit O",
                "forced_lowest_of_suit",
            ),
            (
                RuleError::ForcedLowest {
                    suit: None,
                    counting_allowed: true,
                },
                "forced mode: must play the lowest card of a suit or a counting card",
                "forced_lowest_of_a_suit_or_counting",
            ),
            (
                RuleError::MustNameTrump,
                "you received the choice and must name a suit or botifarra",
                "must_name_trump",
            ),
            (
                RuleError::EstevetOnlyInAbarrotada,
                "estevet exists only in abarrotada",
                "estevet_only_in_abarrotada",
            ),
            (
                RuleError::WrongCall {
                    expected: Call::Recontro,
                },
                "the call now is recontro or pass",
                "wrong_call",
            ),
        ];
        let mut seen = Vec::new();
        for (e, text, code) in cases {
            assert_eq!(e.to_string(), text);
            assert_eq!(e.code(), code);
            assert!(RuleError::CODES.contains(&code), "{code} is listed");
            seen.push(code);
        }
        for (suit, counting_allowed, code) in [
            (Some(Suit::Copes), true, "forced_lowest_of_suit_or_counting"),
            (None, false, "forced_lowest_of_a_suit"),
        ] {
            let e = RuleError::ForcedLowest {
                suit,
                counting_allowed,
            };
            assert_eq!(e.code(), code);
            seen.push(code);
        }
        // Every listed code is the code of some refusal.
        for code in RuleError::CODES {
            assert!(seen.contains(code), "{code} is never returned");
        }
    }
}
