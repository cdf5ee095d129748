//! Card sets: a hand, a suit, the cards still out, as a `u64` bit mask whose
//! bit `i` is the card of index `i` (see the layout in `card.rs`). Union,
//! intersection and complement are single instructions, a count is a
//! `popcnt`, and iteration pops the lowest set bit.
//!
//! [`CardSet::nth`] picks the `n`-th card of a set (random play draws with
//! it): one `PDEP` where the CPU has BMI2, a byte-skipping loop elsewhere.
//! [`with_bit_instructions`] lets a caller run a whole loop compiled for
//! those instructions.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Card, Suit};

/// A set of cards as a 64-bit mask (bits 0..48).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(pub u64);

impl CardSet {
    /// No card.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 48 cards.
    pub const FULL: CardSet = CardSet((1u64 << 48) - 1);

    /// Whether the set holds no card.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many cards the set holds.
    #[inline]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the card is in the set.
    #[inline]
    pub fn contains(self, c: Card) -> bool {
        self.0 >> c.0 & 1 == 1
    }

    /// Adds a card.
    #[inline]
    pub fn insert(&mut self, c: Card) {
        self.0 |= 1u64 << c.0;
    }

    /// Removes a card.
    #[inline]
    pub fn remove(&mut self, c: Card) {
        self.0 &= !(1u64 << c.0);
    }

    /// The cards of this set in suit `s`.
    #[inline]
    pub fn of_suit(self, s: Suit) -> CardSet {
        CardSet(self.0 & s.mask().0)
    }

    /// The lowest-index card (for a one-suit set: its weakest card).
    #[inline]
    pub fn lowest(self) -> Option<Card> {
        (self.0 != 0).then(|| Card(self.0.trailing_zeros() as u8))
    }

    /// The weakest card of every suit present in the set.
    pub fn lowest_of_each_suit(self) -> CardSet {
        let mut out = CardSet::EMPTY;
        for s in Suit::ALL {
            if let Some(c) = self.of_suit(s).lowest() {
                out.insert(c);
            }
        }
        out
    }

    /// The counting cards (9, 1, 12, 11, 10) of the set.
    #[inline]
    pub fn counting(self) -> CardSet {
        // Strengths 7..12 of every suit.
        const COUNTING: u64 = 0xF80 | 0xF80 << 12 | 0xF80 << 24 | 0xF80 << 36;
        CardSet(self.0 & COUNTING)
    }

    /// Sum of the card points of the set.
    pub fn points(self) -> u32 {
        self.iter().map(|c| c.points() as u32).sum()
    }

    /// The `n`-th card of the set in index order (0-based), if any.
    #[inline]
    pub fn nth(self, n: u32) -> Option<Card> {
        if n >= 64 {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: the CPU has BMI2, checked just above.
            let bit = unsafe { deposit(1u64 << n, self.0) };
            return (bit != 0).then(|| Card(bit.trailing_zeros() as u8));
        }
        nth_bit(self.0, n)
    }

    /// The cards in index order (suit O, C, E, B; weakest first in each).
    #[inline]
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }
}

/// The `n`-th set bit of `bits` as a card, without `PDEP`: skips whole bytes
/// by their counts, then steps through the last one.
fn nth_bit(mut bits: u64, mut n: u32) -> Option<Card> {
    let mut base = 0;
    loop {
        let in_byte = (bits & 0xFF).count_ones();
        if n < in_byte || bits == 0 {
            break;
        }
        n -= in_byte;
        bits >>= 8;
        base += 8;
    }
    let mut byte = bits & 0xFF;
    while byte != 0 {
        if n == 0 {
            return Some(Card(base + byte.trailing_zeros() as u8));
        }
        byte &= byte - 1;
        n -= 1;
    }
    None
}

/// Runs `f` compiled, where the CPU has them, for the bit instructions
/// (BMI2 and POPCNT) that [`CardSet::nth`] and the card counts use: a loop
/// over many card sets (random play) runs faster inside it.
#[inline]
pub fn with_bit_instructions<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("popcnt")
    {
        // SAFETY: the CPU has BMI2 and POPCNT, checked just above.
        return unsafe { with_bmi2(f) };
    }
    f()
}

/// [`with_bit_instructions`] on a CPU with BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
fn with_bmi2<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// Scatters the low bits of `bits` to the set bits of `mask` (`PDEP`): with
/// `bits = 1 << n` it picks the `n`-th set bit of `mask` in one instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn deposit(bits: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pdep_u64(bits, mask)
}

/// The bits of `bits` at the set bits of `mask`, packed from bit 0 in
/// order: the inverse of [`deposit`], one `PEXT` where the CPU has BMI2.
#[inline]
pub(crate) fn gather(bits: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2, checked just above.
        return unsafe { extract(bits, mask) };
    }
    gather_bits(bits, mask)
}

/// [`gather`] without `PEXT`: bit by bit.
fn gather_bits(bits: u64, mask: u64) -> u64 {
    let (mut out, mut i, mut left) = (0, 0, mask);
    while left != 0 {
        let b = left & left.wrapping_neg();
        out |= u64::from(bits & b != 0) << i;
        i += 1;
        left ^= b;
    }
    out
}

/// `PEXT`: the bits of `bits` at the set bits of `mask`, packed.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn extract(bits: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pext_u64(bits, mask)
}

impl std::ops::BitOr for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitor(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitand(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }
}

impl std::ops::Not for CardSet {
    type Output = CardSet;
    #[inline]
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::FULL.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(it: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in it {
            s.insert(c);
        }
        s
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Stored compactly as the bit mask.
impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let v = u64::deserialize(d)?;
        if v & !CardSet::FULL.0 != 0 {
            return Err(serde::de::Error::custom(
                "card set has bits beyond the 48 cards",
            ));
        }
        Ok(CardSet(v))
    }
}

/// Iterator over the cards of a [`CardSet`].
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(i as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_counts_the_cards_of_the_set_in_index_order() {
        for mask in [
            0u64,
            1,
            0b1011_0000_0001,
            CardSet::FULL.0,
            0x8000_0000_0001,
            0xF0F0_F0F0_F0F0,
        ] {
            let set = CardSet(mask);
            let listed: Vec<Card> = set.iter().collect();
            for n in 0..70 {
                assert_eq!(
                    set.nth(n),
                    listed.get(n as usize).copied(),
                    "mask {mask:#x} n {n}"
                );
                assert_eq!(
                    nth_bit(mask, n),
                    listed.get(n as usize).copied(),
                    "mask {mask:#x} n {n}"
                );
            }
        }
    }

    #[test]
    fn gathering_bits_is_the_same_with_or_without_pext() {
        let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(9);
        for _ in 0..10_000 {
            let (bits, mask) = (rand::Rng::next_u64(&mut rng), rand::Rng::next_u64(&mut rng));
            let out = gather_bits(bits, mask);
            assert_eq!(gather(bits, mask), out);
            assert!(out < 1 << mask.count_ones() || mask.count_ones() == 64);
        }
        assert_eq!(gather_bits(0b1010, 0b1110), 0b101);
    }
}
