//! The transposition table: bounds on the hand points still to take from a
//! trick start, keyed on relative ranks, and shared between positions that
//! differ only in their card points.
//!
//! **Keys.** Which card beats which depends only on the order of the cards
//! in play, so the key numbers the cards held suit by suit from the lowest
//! and records who holds each: the *shape* of the trick start. Two trick
//! starts of one shape play the same: the same legal cards (by their
//! relative rank), the same trick winners, the same turns. They differ
//! only in the points of the cards, which the key records apart: which of
//! each suit's five counting cards (the 10 to the 9) are still held. With
//! the same counting cards, two trick starts of one shape are the same
//! position up to card equivalence (the zero-point cards gone do not
//! matter).
//!
//! **Payoff similarity.** Two trick starts of one shape but other counting
//! cards have values close to each other: take each suit's cards from the
//! top, the `j`-th highest of one against the `j`-th highest of the other;
//! every line of play captures the same cards in both, so the side's
//! points differ by at most what the cards it could capture differ by. An
//! entry's bounds therefore bound every trick start of its shape, widened
//! by the points where the two differ (the lower bound by what the entry's
//! cards are worth more, the upper by what they are worth less). Under
//! forced mode the counting cards change which cards are legal, so there
//! an entry serves only its own counting cards.
//!
//! **Memory.** A fixed array of `2^bits` entries of 32 bytes, in buckets of
//! two that fill one 64-byte cache line, picked by the shape alone (so that
//! the trick starts of a shape meet), allocated once: a new entry takes a
//! slot of an older generation first, else the one whose search cost fewer
//! positions. A new generation (new trump, side or rules) empties the table
//! without touching its memory.

use crate::rules::card::gather;
use crate::rules::{Card, CardSet};

use super::pos::Pos;

/// Every card of suit 0.
const SUIT: u64 = 0xFFF;

/// The strength of a suit's lowest counting card (the 10).
const COUNTING: u8 = 7;

/// A trick start's shape (see the module's documentation), its counting
/// cards, and whether only its own counting cards may use an entry.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(super) struct Key {
    /// The cards held in the key's order (suit by suit from the lowest):
    /// word 0 has the low bit of each one's seat and, from bit 48, how
    /// many each suit has (4 bits a suit); word 1 the high bit of each
    /// one's seat and, from bit 48, the leader.
    shape: [u64; 2],
    /// The counting cards held: 5 bits a suit, the 10 lowest.
    counting: u32,
    /// Forced mode: an entry serves only the same counting cards.
    strict: bool,
    /// Mixes every bit of the shape: picks the bucket.
    hash: u64,
}

impl Key {
    /// The key of `pos` (at a trick start) whose cards held are `held`.
    pub fn of(pos: &Pos, held: CardSet) -> Key {
        let [h0, h1, h2, h3] = pos.hands.map(|h| h.0);
        let (lo, hi) = (gather(h1 | h3, held.0), gather(h2 | h3, held.0));
        let (mut counts, mut counting) = (0u64, 0u32);
        for s in 0..4 {
            let cards = held.0 >> (12 * s) & SUIT;
            counts |= u64::from(cards.count_ones()) << (48 + 4 * s);
            counting |= ((cards >> COUNTING) as u32) << (5 * s);
        }
        debug_assert_eq!(held.0, h0 | h1 | h2 | h3);
        let shape = [lo | counts, hi | u64::from(pos.turn) << 48];
        Key {
            shape,
            counting,
            strict: pos.forced,
            hash: hash(shape),
        }
    }
}

/// Mixes a key's shape.
fn hash(shape: [u64; 2]) -> u64 {
    let mut h = 0u64;
    for &x in &shape {
        h = (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    // The low bits of a product see only the low bits of its factors:
    // mix every bit into the ones that pick the bucket.
    h ^= h >> 32;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^ h >> 33
}

/// For two sets of one suit's counting cards held (5 bits, the 10
/// lowest) in trick starts of one shape: what the first's cards are worth
/// more than the second's, and less, card by card from the top.
const SIMILAR: [[(u8, u8); 32]; 32] = similar();

const fn similar() -> [[(u8, u8); 32]; 32] {
    let mut out = [[(0, 0); 32]; 32];
    let mut a = 0;
    while a < 32 {
        let mut b = 0;
        while b < 32 {
            let (mut more, mut less) = (0, 0);
            let (mut x, mut y) = (a as u32, b as u32);
            while x != 0 || y != 0 {
                let px = if x == 0 { 0 } else { 32 - x.leading_zeros() };
                let py = if y == 0 { 0 } else { 32 - y.leading_zeros() };
                if px > py {
                    more += px - py;
                } else {
                    less += py - px;
                }
                if x != 0 {
                    x ^= 1 << (px - 1);
                }
                if y != 0 {
                    y ^= 1 << (py - 1);
                }
            }
            out[a][b] = (more as u8, less as u8);
            b += 1;
        }
        a += 1;
    }
    out
}

/// How far an entry with counting cards `stored` is from a trick start
/// with `here`: what the entry's cards are worth more, and less.
#[inline]
fn distance(stored: u32, here: u32) -> (i32, i32) {
    let (mut more, mut less) = (0, 0);
    for s in 0..4 {
        let (m, l) = SIMILAR[(stored >> (5 * s) & 31) as usize][(here >> (5 * s) & 31) as usize];
        more += i32::from(m);
        less += i32::from(l);
    }
    (more, less)
}

/// `c` in the key's numbering (`alive`: the cards held).
pub(super) fn encode(c: Card, alive: CardSet) -> u8 {
    let s = c.index() / 12 * 12;
    let below = alive.0 & (SUIT << s) & (c.bit().0 - 1);
    s + below.count_ones() as u8
}

/// The card of `alive` numbered `code` by [`encode`].
pub(super) fn decode(code: u8, alive: CardSet) -> Option<Card> {
    let s = code / 12 * 12;
    CardSet(alive.0 & (SUIT << s)).nth(u32::from(code - s))
}

/// Bounds on the points still to take from a trick start (32 bytes).
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Entry {
    shape: [u64; 2],
    counting: u32,
    generation: u16,
    /// The value is at least `lo` and at most `hi`.
    lo: i8,
    hi: i8,
    /// The card that decided the last search ([`encode`]d).
    best: u8,
    /// What searching it cost: the bit length of the positions visited.
    cost: u8,
}

const _: () = assert!(size_of::<Entry>() == 32);

impl Entry {
    /// Whether the entry is of `key`'s shape in generation `g`.
    #[inline]
    fn shaped(&self, key: &Key, g: u16) -> bool {
        self.generation == g && self.shape == key.shape
    }
}

/// What the table knows of a trick start: the value is at least `lo` and
/// at most `hi`; `best`: the card that decided a search of its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Found {
    pub lo: i32,
    pub hi: i32,
    pub best: u8,
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

    /// What the entries of `key`'s shape say of it, if any: their bounds,
    /// widened by how far their counting cards are from the key's.
    #[inline]
    pub fn get(&self, key: &Key) -> Option<Found> {
        let i = key.hash as usize & self.mask;
        let mut found: Option<Found> = None;
        for e in &self.entries[i..i + 2] {
            if !e.shaped(key, self.generation) {
                continue;
            }
            let same = e.counting == key.counting;
            if key.strict && !same {
                continue;
            }
            let (more, less) = distance(e.counting, key.counting);
            let lo = (i32::from(e.lo) - more).max(0);
            let hi = if e.hi == i8::MAX {
                i32::MAX
            } else {
                i32::from(e.hi) + less
            };
            found = Some(match found {
                None => Found {
                    lo,
                    hi,
                    best: e.best,
                },
                Some(f) => Found {
                    lo: f.lo.max(lo),
                    hi: f.hi.min(hi),
                    best: if same { e.best } else { f.best },
                },
            });
        }
        found
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
        let holds = |e: &Entry| e.shaped(key, g) && e.counting == key.counting;
        let e = if holds(a) {
            a
        } else if holds(b) {
            b
        } else {
            let slot = if a.generation != g || (b.generation == g && a.cost <= b.cost) {
                a
            } else {
                b
            };
            *slot = Entry {
                shape: key.shape,
                counting: key.counting,
                generation: g,
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

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::deals::{seeded_deal, seeded_endgame};
    use super::super::pos::Pos;
    use super::super::tests::{minimax, rules_of};
    use super::{Key, Table, decode, encode};
    use crate::rules::{Card, CardSet, HandState, Rules};

    /// The key of a trick start.
    fn key_of(pos: &Pos) -> Key {
        Key::of(pos, pos.held())
    }

    #[test]
    fn keys_forget_only_which_zero_point_cards_are_gone() {
        let rules = Rules::default();
        let table = rules.variant.table();
        let h = seeded_deal(&rules, 3);
        let pos = Pos::new(&rules, &h);
        let held = pos.held();
        for c in held.iter() {
            assert_eq!(decode(encode(c, held), held), Some(c));
        }
        // Two seats swap their lowest cards of a suit: another position.
        let mut swapped = pos;
        let (a, b) = (
            pos.hands[0].lowest().unwrap(),
            pos.hands[1].lowest().unwrap(),
        );
        swapped.hands[0] = CardSet(swapped.hands[0].0 & !a.bit().0) | b.bit();
        swapped.hands[1] = CardSet(swapped.hands[1].0 & !b.bit().0) | a.bit();
        assert_ne!(key_of(&pos), key_of(&swapped));
        assert_ne!(key_of(&pos), key_of(&Pos { turn: 2, ..pos }));
        // A trick of zero-point cards played and another with other cards of
        // the same ranks relative to the rest: the same key when equivalent.
        let mut h2 = h.without_records();
        for _ in 0..table.seats {
            let legal = h2.legal_cards(&rules, table);
            h2.play_known(table, legal.lowest().unwrap());
        }
        let k = key_of(&Pos::new(&rules, &h2));
        assert_eq!(k, key_of(&Pos::new(&rules, &h2)));
    }

    #[test]
    fn the_table_forgets_its_entries_over_every_generation() {
        let rules = Rules::default();
        let key = key_of(&Pos::new(&rules, &seeded_deal(&rules, 5)));
        let mut t = Table::new(4);
        t.store(&key, 30, true, 0, 12);
        assert_eq!(t.get(&key).map(|e| (e.lo, e.hi)), Some((30, i32::MAX)));
        t.store(&key, 40, false, 0, 12);
        assert_eq!(t.get(&key).map(|e| (e.lo, e.hi)), Some((30, 40)));
        for _ in 0..=u32::from(u16::MAX) {
            t.clear();
            assert!(t.get(&key).is_none());
        }
        t.store(&key, 20, true, 0, 12);
        assert_eq!(t.get(&key).map(|e| e.lo), Some(20));
    }

    /// `h` with `c` (held) replaced by `g` (gone) in its holder's hand.
    fn swapped(h: &HandState, c: Card, g: Card) -> HandState {
        let mut out = h.without_records();
        for hand in &mut out.hands {
            if hand.contains(c) {
                hand.remove(c);
                hand.insert(g);
            }
        }
        out
    }

    #[test]
    fn an_entry_bounds_every_trick_start_of_its_shape() {
        let (mut compared, mut moved) = (0, 0);
        for i in 0..240 {
            let rules = Rules {
                forced: false,
                ..rules_of(i)
            };
            let h = seeded_endgame(&rules, 40_000 + i, 4, 0);
            let held = Pos::new(&rules, &h).held();
            let exact = |h: &HandState| minimax(&rules, h, 0, &mut HashMap::new());
            let value = exact(&h);
            let mut t = Table::new(4);
            let key = key_of(&Pos::new(&rules, &h));
            t.store(&key, value, true, 0, 1);
            t.store(&key, value, false, 0, 1);
            // Every card replaced by a gone one of its suit with no card held
            // between them: the same shape, other card points.
            for c in held.iter() {
                for g in (0..48).filter_map(Card::from_index) {
                    let (low, high) = (
                        c.strength().min(g.strength()),
                        c.strength().max(g.strength()),
                    );
                    let between =
                        |x: Card| x.suit() == c.suit() && low < x.strength() && x.strength() < high;
                    if g.suit() != c.suit()
                        || held.contains(g)
                        || held.iter().any(between)
                        || c.points() == g.points()
                    {
                        continue;
                    }
                    let other = swapped(&h, c, g);
                    let found = t.get(&key_of(&Pos::new(&rules, &other)));
                    let found = found.expect("the same shape");
                    let v = exact(&other);
                    assert!(
                        found.lo <= v && v <= found.hi,
                        "endgame {i}: {c:?} → {g:?}, {v} outside {found:?} ({value})"
                    );
                    // Widened by the points the cards differ by (unless a
                    // bound below zero was cut).
                    let d = i32::from(c.points().abs_diff(g.points()));
                    assert!(found.hi - found.lo == d || found.lo == 0, "{found:?}");
                    compared += 1;
                    moved += usize::from(v != value);
                }
            }
        }
        assert!(compared > 200 && moved > 50, "{moved} of {compared}");
    }
}
