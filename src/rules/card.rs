//! Cards, suits, ranks and card sets (docs/rules.md section 1).
//!
//! A card is a number 0..48: `suit * 12 + strength`, where strength 0 is the
//! lowest card of the suit (the 2) and 11 the highest (the 9, manilla). With
//! this layout a hand is a `u64` bit set in which, inside one suit, a higher
//! bit is a stronger card: "the cards that beat X in its suit" is a shift and
//! a mask, and "the lowest card of a suit" is a trailing-zero count.
//!
//! This file holds the card and the suit and a table of per-card facts the
//! hot paths read in one load; [`CardSet`], its iterator and the bit
//! instructions it can use live in `card/set.rs` and are re-exported here.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

mod set;

pub(crate) use set::gather;
pub use set::{CardIter, CardSet, with_bit_instructions};

/// One of the four suits of the Spanish deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Oros (coins), letter `O`.
    Oros = 0,
    /// Copes (cups), letter `C`.
    Copes = 1,
    /// Espases (swords), letter `E`.
    Espases = 2,
    /// Bastos (clubs), letter `B`.
    Bastos = 3,
}

impl Suit {
    /// All suits, in the order of their codes.
    pub const ALL: [Suit; 4] = [Suit::Oros, Suit::Copes, Suit::Espases, Suit::Bastos];

    /// The suit with this index (0..4).
    #[inline]
    pub fn from_index(i: u8) -> Suit {
        // A match rather than a table: it compiles to the value itself.
        match i & 3 {
            0 => Suit::Oros,
            1 => Suit::Copes,
            2 => Suit::Espases,
            _ => Suit::Bastos,
        }
    }

    /// The one-letter code: `O`, `C`, `E` or `B`.
    pub fn letter(self) -> char {
        ['O', 'C', 'E', 'B'][self as usize]
    }

    /// Parses a one-letter code, case-insensitively.
    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'O' => Some(Suit::Oros),
            'C' => Some(Suit::Copes),
            'E' => Some(Suit::Espases),
            'B' => Some(Suit::Bastos),
            _ => None,
        }
    }

    /// Every card of this suit.
    #[inline]
    pub fn mask(self) -> CardSet {
        CardSet(0xFFF << (self as u32 * 12))
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Ranks from the lowest strength to the highest: 2 3 4 5 6 7 8 10 11 12 1 9.
const RANK_BY_STRENGTH: [u8; 12] = [2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 1, 9];
/// Card points by strength: 9 → 5, 1 → 4, 12 → 3, 11 → 2, 10 → 1, others 0.
const POINTS_BY_STRENGTH: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5];

/// One card of the 48-card Spanish deck.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Card(pub(crate) u8);

impl Card {
    /// The card with this index (0..48); `None` out of range.
    pub fn from_index(i: u8) -> Option<Card> {
        (i < 48).then_some(Card(i))
    }

    /// The card of this suit and strength (0 = the 2, 11 = the 9).
    #[inline]
    pub fn new(suit: Suit, strength: u8) -> Card {
        debug_assert!(strength < 12);
        Card(suit as u8 * 12 + strength)
    }

    /// The card of this suit and printed rank (1..=12); `None` for another rank.
    pub fn from_rank(rank: u8, suit: Suit) -> Option<Card> {
        let strength = RANK_BY_STRENGTH.iter().position(|&r| r == rank)?;
        Some(Card::new(suit, strength as u8))
    }

    /// The index 0..48 (also the bit of this card in a [`CardSet`]).
    #[inline]
    pub fn index(self) -> u8 {
        self.0
    }

    /// The suit.
    #[inline]
    pub fn suit(self) -> Suit {
        Suit::from_index(self.0 / 12)
    }

    /// Strength inside the suit: 0 for the 2 up to 11 for the 9.
    #[inline]
    pub fn strength(self) -> u8 {
        self.0 % 12
    }

    /// The printed rank, 1..=12.
    pub fn rank(self) -> u8 {
        RANK_BY_STRENGTH[self.strength() as usize]
    }

    /// Card points: 9 → 5, 1 → 4, 12 → 3, 11 → 2, 10 → 1, others 0.
    #[inline]
    pub fn points(self) -> u8 {
        BY_CARD[self.slot()].points
    }

    /// Whether the card counts points (9, 1, 12, 11 or 10).
    #[inline]
    pub fn is_counting(self) -> bool {
        self.strength() >= 7
    }

    /// The set holding only this card.
    #[inline]
    pub fn bit(self) -> CardSet {
        CardSet(1u64 << self.0)
    }

    /// The cards of the same suit that are stronger than this one.
    #[inline]
    pub fn higher_in_suit(self) -> CardSet {
        CardSet(BY_CARD[self.slot()].higher)
    }

    /// Every card of this card's suit (`self.suit().mask()` in one load).
    #[inline]
    pub fn suit_mask(self) -> CardSet {
        CardSet(BY_CARD[self.slot()].suit)
    }

    /// The index into [`BY_CARD`]: masked to its 64 entries so that the
    /// compiler sees no out-of-bounds case.
    #[inline]
    fn slot(self) -> usize {
        (self.0 & 63) as usize
    }
}

/// What the rules look up about a card, computed once: the hot paths
/// (legal sets, trick winners, trick points) then need one load instead of a
/// division and shifts.
#[derive(Clone, Copy)]
struct CardFacts {
    /// The stronger cards of its suit.
    higher: u64,
    /// Every card of its suit.
    suit: u64,
    /// Its card points.
    points: u8,
}

/// [`CardFacts`] per card index; entries 48..64 are never read.
const BY_CARD: [CardFacts; 64] = {
    let mut t = [CardFacts {
        higher: 0,
        suit: 0,
        points: 0,
    }; 64];
    let mut c = 0;
    while c < 48 {
        let suit = 0xFFFu64 << (c / 12 * 12);
        t[c] = CardFacts {
            higher: suit & !((2u64 << c) - 1),
            suit,
            points: POINTS_BY_STRENGTH[c % 12],
        };
        c += 1;
    }
    t
};

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a card code could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown card {0:?}: a card is a rank 1-12 followed by a suit O, C, E or B, like \"9O\"")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError(s.to_string());
        let t = s.trim();
        let suit_char = t.chars().last().ok_or_else(err)?;
        let suit = Suit::from_letter(suit_char).ok_or_else(err)?;
        let digits = &t[..t.len() - suit_char.len_utf8()];
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let rank: u8 = digits.parse().map_err(|_| err())?;
        Card::from_rank(rank, suit).ok_or_else(err)
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_codes_round_trip_and_parse_case_insensitively() {
        for i in 0..48 {
            let c = Card::from_index(i).unwrap();
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
            assert_eq!(c.to_string().to_lowercase().parse::<Card>().unwrap(), c);
        }
        assert_eq!("12b".parse::<Card>().unwrap().to_string(), "12B");
        for bad in ["", "O", "13O", "0O", "9X", "9", "x9O", "09O0", "1 O", "+1O"] {
            assert!(bad.parse::<Card>().is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn order_inside_a_suit_is_9_1_12_11_10_8_down_to_2() {
        let order = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2];
        for w in order.windows(2) {
            let hi = Card::from_rank(w[0], Suit::Copes).unwrap();
            let lo = Card::from_rank(w[1], Suit::Copes).unwrap();
            assert!(lo.higher_in_suit().contains(hi));
            assert!(!hi.higher_in_suit().contains(lo));
        }
    }

    #[test]
    fn deck_holds_60_card_points() {
        assert_eq!(CardSet::FULL.points(), 60);
        let nine = Card::from_rank(9, Suit::Oros).unwrap();
        assert_eq!(nine.points(), 5);
        assert_eq!(CardSet::FULL.counting().len(), 20);
    }
}
