//! The transposition table: bounds on the hand points still to take from a
//! trick start, keyed on relative ranks.
//!
//! **Keys.** Only the order of the cards in play and their points matter to
//! the rest of a hand (which card beats which, the lowest of a suit, the
//! counting cards of forced mode), so two trick starts whose hands differ
//! only by which zero-point cards are already gone have the same value. The
//! key renumbers, suit by suit, the zero-point cards still in play from the
//! bottom (the 2 to the 8: strengths 0 to 6) and keeps the counting cards
//! (the 10 to the 9) where they are; with the leader, it is the position up
//! to card equivalence.
//!
//! **Memory.** A fixed array of `2^bits` entries in buckets of two,
//! allocated once: a new entry takes a slot of an older generation first,
//! else the one with fewer tricks left. A new generation (new trump, side
//! or rules) empties the table without touching its memory.

use crate::rules::{Card, CardSet};

use super::pos::Pos;

/// Every zero-point card of suit 0 (strengths 0 to 6).
const LOW: u64 = 0x7F;

/// A trick start up to card equivalence: each seat's cards renumbered, the
/// leader in the top bits of the first.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(super) struct Key([u64; 4]);

impl Key {
    /// The key of `pos` (at a trick start).
    pub fn of(pos: &Pos) -> Key {
        let alive = pos.held().0;
        let mut out = [0u64; 4];
        for (o, h) in out.iter_mut().zip(pos.hands) {
            *o = h.0 & !spread(LOW);
        }
        for s in 0..4 {
            let base = 12 * s;
            let mut low = alive & (LOW << base);
            let mut k = base;
            while low != 0 {
                let b = low & low.wrapping_neg();
                let owner = pos.hands.iter().position(|h| h.0 & b != 0).unwrap_or(0);
                out[owner] |= 1 << k;
                k += 1;
                low ^= b;
            }
        }
        out[0] |= u64::from(pos.turn) << 60;
        Key(out)
    }

    fn hash(&self) -> u64 {
        let mut h = 0u64;
        for &x in &self.0 {
            h = (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        h
    }
}

/// `m` (a mask of suit 0) repeated in every suit.
const fn spread(m: u64) -> u64 {
    m | m << 12 | m << 24 | m << 36
}

/// `c` in the key's numbering (`alive`: the cards held).
pub(super) fn encode(c: Card, alive: CardSet) -> u8 {
    let s = c.index() / 12 * 12;
    if c.strength() > 6 {
        return c.index();
    }
    let below = alive.0 & (LOW << s) & (c.bit().0 - 1);
    s + below.count_ones() as u8
}

/// The card of `alive` numbered `code` by [`encode`].
pub(super) fn decode(code: u8, alive: CardSet) -> Option<Card> {
    let s = code / 12 * 12;
    if code - s > 6 {
        return Card::from_index(code);
    }
    CardSet(alive.0 & (LOW << s)).nth(u32::from(code - s))
}

/// Bounds on the points still to take from a trick start.
#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    key: Key,
    generation: u32,
    /// The value is at least `lo` and at most `hi`.
    pub lo: i8,
    pub hi: i8,
    /// The card that decided the last search ([`encode`]d).
    pub best: u8,
    depth: u8,
}

/// The table (see the module's documentation).
pub(super) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    generation: u32,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::default(); 1 << bits],
            mask: (1 << bits) - 2,
            generation: 1,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.generation += 1;
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn get(&self, key: &Key) -> Option<&Entry> {
        let i = key.hash() as usize & self.mask;
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.generation == self.generation && e.key == *key)
    }

    /// Records that the value of `key` is at least `bound` (`reached`) or
    /// at most it, with the card that decided it; `depth`: tricks left.
    pub fn store(&mut self, key: &Key, bound: i32, reached: bool, best: u8, depth: u8) {
        let i = key.hash() as usize & self.mask;
        let g = self.generation;
        let [a, b] = &mut self.entries[i..i + 2] else {
            unreachable!()
        };
        let e = if a.generation == g && a.key == *key {
            a
        } else if b.generation == g && b.key == *key {
            b
        } else {
            let slot = if a.generation != g || (b.generation == g && a.depth <= b.depth) {
                a
            } else {
                b
            };
            *slot = Entry {
                key: *key,
                generation: g,
                lo: 0,
                hi: i8::MAX,
                best,
                depth,
            };
            slot
        };
        if reached {
            e.lo = e.lo.max(bound as i8);
        } else {
            e.hi = e.hi.min(bound as i8);
        }
        e.best = best;
    }
}
