//! The rule options a table chooses (docs/rules.md sections 3–10).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::card::{CardSet, Suit};
use super::seat::{Seat, Table};

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Four players in two teams, partners opposite (the default).
    #[default]
    Pairs,
    /// Botifarra abarrotada: four players, each for themself, threshold 18.
    Abarrotada,
    /// Abarrotada for three players: 36 cards (no 2s, 3s, 4s), threshold 24.
    Abarrotada3,
}

impl Variant {
    /// Every variant, in declaration order.
    pub const ALL: [Variant; 3] = [Variant::Pairs, Variant::Abarrotada, Variant::Abarrotada3];

    /// The seats and sides of this variant.
    #[inline]
    pub fn table(self) -> Table {
        // A lookup rather than a branch: this is read on every action.
        const TABLES: [Table; 3] = [
            Table {
                seats: 4,
                pairs: true,
            },
            Table {
                seats: 4,
                pairs: false,
            },
            Table {
                seats: 3,
                pairs: false,
            },
        ];
        TABLES[self as usize]
    }

    /// The cards in play.
    pub fn deck(self) -> CardSet {
        match self {
            Variant::Abarrotada3 => {
                // Strengths 0, 1, 2 are the 2, 3 and 4 of each suit.
                let low: u64 = Suit::ALL.iter().map(|s| 0b111u64 << (*s as u32 * 12)).sum();
                CardSet(CardSet::FULL.0 & !low)
            }
            _ => CardSet::FULL,
        }
    }

    /// Hand points above which a side records: 36, 18 or 24.
    pub fn threshold(self) -> u32 {
        match self {
            Variant::Pairs => 36,
            Variant::Abarrotada => 18,
            Variant::Abarrotada3 => 24,
        }
    }
}

/// How doubles multiply a hand (docs/rules.md section 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Doubling {
    /// none 1, contro 2, recontro 4, Sant Vicenç 8 (the default).
    #[default]
    Powers,
    /// none 1, contro 2, recontro 3, Sant Vicenç 4 (a regional variant).
    Linear,
}

impl Doubling {
    /// The factor for this many doubles said (0..=3).
    pub fn factor(self, doubles: u8) -> u32 {
        match self {
            Doubling::Powers => 1 << doubles,
            Doubling::Linear => 1 + doubles as u32,
        }
    }
}

/// How the deck is prepared between hands (docs/rules.md section 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShuffleMode {
    /// A freshly shuffled deck every hand (the default).
    #[default]
    Full,
    /// The won tricks are stacked, cut and dealt without shuffling.
    StackAndCut,
}

/// Who deals the first hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FirstDealer {
    /// Turn a card: the seat owning its suit deals (O→0, C→1, E→2, B→3).
    #[default]
    Draw,
    /// This seat deals first.
    Seat(Seat),
}

impl Serialize for FirstDealer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            FirstDealer::Draw => s.serialize_str("draw"),
            FirstDealer::Seat(n) => s.serialize_u8(*n),
        }
    }
}

impl<'de> Deserialize<'de> for FirstDealer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FirstDealer, D::Error> {
        Ok(
            word_or_seat(d, "draw", "first_dealer must be \"draw\" or a seat number")?
                .map_or(FirstDealer::Draw, FirstDealer::Seat),
        )
    }
}

/// Reads a value that is either the string `word` (`None`) or a seat or
/// side number (`Some`); anything else is refused with `expected`.
pub(crate) fn word_or_seat<'de, D: Deserializer<'de>>(
    d: D,
    word: &str,
    expected: &str,
) -> Result<Option<Seat>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Seat(u8),
        Word(String),
    }
    match Raw::deserialize(d) {
        Ok(Raw::Seat(n)) => Ok(Some(n)),
        Ok(Raw::Word(w)) if w == word => Ok(None),
        _ => Err(serde::de::Error::custom(expected)),
    }
}

/// The options of a match. Every field has the default of docs/rules.md.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// `pairs` (default), `abarrotada` or `abarrotada3`.
    pub variant: Variant,
    /// A side wins when its total reaches this (default 101; 51 for a
    /// "50-point game").
    pub target: u32,
    /// The match also ends after this many hands (default: no limit).
    pub max_hands: Option<u32>,
    /// `powers` (1, 2, 4, 8; default) or `linear` (1, 2, 3, 4).
    pub doubling: Doubling,
    /// Allow Sant Vicenç when the trump is botifarra (pairs game; default false).
    pub sant_vicenc_with_botifarra: bool,
    /// "Modalitat obligada" (docs/rules.md 4.1; pairs game only; default false).
    pub forced: bool,
    /// A player void in the suit led must trump (docs/rules.md 4.2; default false).
    pub must_trump: bool,
    /// `full` (default) or `stack_and_cut`.
    pub shuffle: ShuffleMode,
    /// `"draw"` (default) or a seat number.
    pub first_dealer: FirstDealer,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            variant: Variant::Pairs,
            target: 101,
            max_hands: None,
            doubling: Doubling::Powers,
            sant_vicenc_with_botifarra: false,
            forced: false,
            must_trump: false,
            shuffle: ShuffleMode::Full,
            first_dealer: FirstDealer::Draw,
        }
    }
}

/// A combination of options that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid rules: {0}")]
pub struct RulesError(pub String);

impl Rules {
    /// Checks that the options can be played together.
    ///
    /// # Errors
    /// A [`RulesError`] naming the option at fault.
    pub fn validate(&self) -> Result<(), RulesError> {
        let bad = |m: &str| Err(RulesError(m.to_string()));
        if !(1..=100_000).contains(&self.target) {
            return bad("target must be between 1 and 100000");
        }
        if let Some(h) = self.max_hands
            && !(1..=1000).contains(&h)
        {
            return bad("max_hands must be between 1 and 1000");
        }
        if self.forced && self.must_trump {
            return bad("forced and must_trump cannot be combined");
        }
        if self.forced && self.variant != Variant::Pairs {
            return bad("forced mode is defined for the pairs game only");
        }
        if let FirstDealer::Seat(s) = self.first_dealer
            && s >= self.variant.table().seats
        {
            return bad("first_dealer is not a seat of this variant");
        }
        Ok(())
    }

    /// Whether Sant Vicenç may be said after a botifarra declaration.
    pub fn sant_vicenc_allowed(&self, botifarra: bool) -> bool {
        !botifarra || self.sant_vicenc_with_botifarra || self.variant != Variant::Pairs
    }
}
