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
//! **Memory.** A fixed array of `2^bits` entries of 32 bytes (the four
//! hands packed in three words), in buckets of two that fill one 64-byte
//! cache line, allocated once: a new entry takes a slot of an older
//! generation first, else the one whose search cost fewer positions. A new
//! generation (new trump, side or rules) empties the table without touching
//! its memory.

use crate::rules::{Card, CardSet};

use super::pos::Pos;

/// Every zero-point card of suit 0 (strengths 0 to 6).
const LOW: u64 = 0x7F;

/// A trick start up to card equivalence: each seat's cards renumbered (48
/// bits each, packed in three words), and the leader.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(super) struct Key {
    packed: [u64; 3],
    leader: u8,
    /// Mixes every bit of the rest: picks the bucket.
    hash: u64,
}

impl Key {
    /// The key of `pos` (at a trick start) whose cards held are `held`.
    pub fn of(pos: &Pos, held: CardSet) -> Key {
        let alive = held.0;
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
        let packed = [
            out[0] | out[1] << 48,
            out[1] >> 16 | out[2] << 32,
            out[2] >> 32 | out[3] << 16,
        ];
        Key {
            packed,
            leader: pos.turn,
            hash: hash(packed, pos.turn),
        }
    }
}

/// Mixes a key's cards and leader.
fn hash(packed: [u64; 3], leader: u8) -> u64 {
    let mut h = u64::from(leader);
    for &x in &packed {
        h = (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    // The low bits of a product see only the low bits of its factors:
    // mix every bit into the ones that pick the bucket.
    h ^= h >> 32;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^ h >> 33
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

/// Bounds on the points still to take from a trick start (32 bytes).
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
pub(super) struct Entry {
    packed: [u64; 3],
    generation: u16,
    leader: u8,
    /// The value is at least `lo` and at most `hi`.
    pub lo: i8,
    pub hi: i8,
    /// The card that decided the last search ([`encode`]d).
    pub best: u8,
    /// What searching it cost: the bit length of the positions visited.
    cost: u8,
}

const _: () = assert!(size_of::<Entry>() == 32);

impl Entry {
    /// Whether the entry holds `key` in generation `g`.
    #[inline]
    fn holds(&self, key: &Key, g: u16) -> bool {
        self.generation == g && self.leader == key.leader && self.packed == key.packed
    }
}

/// The table (see the module's documentation).
pub(super) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    generation: u16,
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
        if self.generation == u16::MAX {
            // Every generation used: empty the memory once, start again.
            self.entries.fill(Entry::default());
            self.generation = 0;
        }
        self.generation += 1;
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn get(&self, key: &Key) -> Option<&Entry> {
        let i = key.hash as usize & self.mask;
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.holds(key, self.generation))
    }

    /// Records that the value of `key` is at least `bound` (`reached`) or
    /// at most it, with the card that decided it; `cost`: the bit length of
    /// the positions its search visited.
    pub fn store(&mut self, key: &Key, bound: i32, reached: bool, best: u8, cost: u8) {
        let i = key.hash as usize & self.mask;
        let g = self.generation;
        let [a, b] = &mut self.entries[i..i + 2] else {
            unreachable!()
        };
        let e = if a.holds(key, g) {
            a
        } else if b.holds(key, g) {
            b
        } else {
            let slot = if a.generation != g || (b.generation == g && a.cost <= b.cost) {
                a
            } else {
                b
            };
            *slot = Entry {
                packed: key.packed,
                generation: g,
                leader: key.leader,
                lo: 0,
                hi: i8::MAX,
                best,
                cost,
            };
            slot
        };
        if reached {
            e.lo = e.lo.max(bound as i8);
        } else {
            e.hi = e.hi.min(bound as i8);
        }
        e.best = best;
        e.cost = e.cost.max(cost);
    }
}
