//! Where a matching pass finds a ticket's nearest compatible tickets
//! without looking at the others.
//!
//! Whether a ticket accepts another depends only on its own
//! `accept_bots` and `only_bots` and on whether the other's players are
//! all bots, some or none: twelve *kinds* of ticket, and a table of which
//! kinds may sit together. Each kind keeps its tickets sorted by rating
//! twice, once upwards and once downwards (ties oldest first both ways),
//! so that a ticket's nearest tickets of the kinds it may sit with are
//! found by a binary search and read outwards in order of distance: the
//! same order the pass has always used (nearest rating, then oldest), at
//! the cost of the few tickets read. A kind that nobody waiting accepts
//! is never read at all, so tickets that cannot match anyone cost a pass
//! nothing but their place in its loop. Seated tickets are skipped in
//! amortized constant time (each lane keeps "next still waiting"
//! pointers, halved on every read).

use super::record::Entry;

/// How many kinds of ticket there are.
pub(super) const KINDS: usize = 12;

/// The kind of ticket `e`: what it accepts, and what its players are.
pub(super) fn kind(e: &Entry) -> usize {
    let players = if e.bots.iter().all(|&b| b) {
        0
    } else if e.bots.iter().any(|&b| b) {
        1
    } else {
        2
    };
    players * 4 + usize::from(e.accept_bots) * 2 + usize::from(e.only_bots)
}

/// Whether a ticket of kind `a` accepts one of kind `b`.
fn kind_accepts(a: usize, b: usize) -> bool {
    let (accept_bots, only_bots) = (a & 2 != 0, a & 1 != 0);
    let players = b / 4;
    (accept_bots || players == 2) && (!only_bots || players == 0)
}

/// Kinds that may sit with each kind (both accept the other), as bits.
pub(super) fn compatible_kinds() -> [u16; KINDS] {
    let mut table = [0u16; KINDS];
    for (a, row) in table.iter_mut().enumerate() {
        for b in 0..KINDS {
            if kind_accepts(a, b) && kind_accepts(b, a) {
                *row |= 1 << b;
            }
        }
    }
    table
}

/// The kinds whose tickets accept bots, as bits.
pub(super) fn accepting_bots() -> u16 {
    (0..KINDS).filter(|k| k & 2 != 0).fold(0, |m, k| m | 1 << k)
}

/// One sorted list of a kind's tickets, with skip pointers past the
/// seated ones.
#[derive(Default)]
struct Lane {
    /// Ticket indices, in the lane's order.
    order: Vec<usize>,
    /// Their ratings, in the same order.
    ratings: Vec<f64>,
    /// `next[p]`: a position at or after `p` to look at for a ticket
    /// still waiting (`p` itself while it waits; `order.len()` at the end).
    next: Vec<usize>,
}

impl Lane {
    fn new(order: Vec<usize>, entries: &[Entry]) -> Lane {
        let ratings = order.iter().map(|&i| entries[i].rating).collect();
        let next = (0..=order.len()).collect();
        Lane {
            order,
            ratings,
            next,
        }
    }

    /// The first position at or after `p` still waiting.
    fn find(&mut self, p: usize) -> usize {
        let mut root = p;
        while self.next[root] != root {
            root = self.next[root];
        }
        let mut at = p;
        while self.next[at] != root {
            let up = self.next[at];
            self.next[at] = root;
            at = up;
        }
        root
    }
}

/// Where one direction of one kind is being read from.
#[derive(Clone, Copy)]
pub(super) struct Cursor {
    /// The lane (kind × 2, plus 1 for downwards).
    lane: usize,
    /// The position in it.
    at: usize,
}

/// Every kind's two lanes, and each ticket's place in them.
pub(super) struct Lanes {
    lanes: Vec<Lane>,
    /// Each ticket's kind.
    kinds: Vec<usize>,
    /// Each ticket's position in its kind's upward and downward lanes.
    places: Vec<(usize, usize)>,
}

impl Lanes {
    /// The lanes of `entries` (their indices are the tickets' names).
    pub(super) fn new(entries: &[Entry]) -> Lanes {
        let kinds: Vec<usize> = entries.iter().map(kind).collect();
        let mut by_kind: Vec<Vec<usize>> = vec![Vec::new(); KINDS];
        for (i, &k) in kinds.iter().enumerate() {
            by_kind[k].push(i);
        }
        let mut lanes = Vec::with_capacity(2 * KINDS);
        let mut places = vec![(0, 0); entries.len()];
        for mut up in by_kind {
            up.sort_by(|&a, &b| {
                entries[a]
                    .rating
                    .total_cmp(&entries[b].rating)
                    .then(a.cmp(&b))
            });
            let mut down = up.clone();
            down.sort_by(|&a, &b| {
                entries[b]
                    .rating
                    .total_cmp(&entries[a].rating)
                    .then(a.cmp(&b))
            });
            for (p, &i) in up.iter().enumerate() {
                places[i].0 = p;
            }
            for (p, &i) in down.iter().enumerate() {
                places[i].1 = p;
            }
            lanes.push(Lane::new(up, entries));
            lanes.push(Lane::new(down, entries));
        }
        Lanes {
            lanes,
            kinds,
            places,
        }
    }

    /// The kind of ticket `i`.
    pub(super) fn kind_of(&self, i: usize) -> usize {
        self.kinds[i]
    }

    /// Whether kind `k` has no ticket at all.
    pub(super) fn empty(&self, k: usize) -> bool {
        self.lanes[2 * k].order.is_empty()
    }

    /// Takes ticket `i` out of its lanes (it was seated).
    pub(super) fn remove(&mut self, i: usize) {
        let (k, (up, down)) = (self.kinds[i], self.places[i]);
        self.lanes[2 * k].next[up] = up + 1;
        self.lanes[2 * k + 1].next[down] = down + 1;
    }

    /// The two cursors of kind `k` around `rating`: upwards from the
    /// first rating at or above it, downwards from the first below it.
    pub(super) fn cursors(&mut self, k: usize, rating: f64) -> [Cursor; 2] {
        let up = self.lanes[2 * k].ratings.partition_point(|&r| r < rating);
        let down = self.lanes[2 * k + 1]
            .ratings
            .partition_point(|&r| r >= rating);
        [
            Cursor {
                lane: 2 * k,
                at: self.lanes[2 * k].find(up),
            },
            Cursor {
                lane: 2 * k + 1,
                at: self.lanes[2 * k + 1].find(down),
            },
        ]
    }

    /// The ticket under cursor `c` and its rating, unless the lane is
    /// read to its end.
    pub(super) fn head(&self, c: Cursor) -> Option<(usize, f64)> {
        let lane = &self.lanes[c.lane];
        lane.order.get(c.at).map(|&i| (i, lane.ratings[c.at]))
    }

    /// The kind cursor `c` reads.
    pub(super) fn kind_at(c: Cursor) -> usize {
        c.lane / 2
    }

    /// Moves cursor `c` to the next ticket still waiting.
    pub(super) fn advance(&mut self, c: &mut Cursor) {
        c.at = self.lanes[c.lane].find(c.at + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_sit_together_as_the_tickets_accept_each_other() {
        let table = compatible_kinds();
        // A human accepting bots (kind 2*4+2) sits with humans and bots
        // that accept humans, not with bots that want only bots.
        let human = 2 * 4 + 2;
        let bot = 2;
        let only_bots_bot = 3;
        let only_bots_human = 2 * 4 + 3;
        assert!(table[human] & 1 << bot != 0);
        assert!(table[human] & 1 << only_bots_bot == 0);
        assert!(table[bot] & 1 << only_bots_bot != 0);
        // A human that wants only bots sits with no one but bots.
        assert_eq!(table[only_bots_human] & !0b1111, 0);
        assert!(table[only_bots_human] & 1 << bot != 0);
    }
}
