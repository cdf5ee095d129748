//! Seats in playing order and the sides that score (docs/rules.md section 2).

use serde::{Deserialize, Serialize};

/// A seat, numbered in playing order from 0. Play passes from `s` to `s + 1`.
pub type Seat = u8;

/// A side that scores: a team (0 or 1) in the pairs game, a seat in the
/// individual variants.
pub type Side = u8;

/// Who takes part: the seat count and how seats group into sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Number of seats (4, or 3 in `abarrotada3`).
    pub seats: u8,
    /// Whether partners sit opposite (the pairs game).
    pub pairs: bool,
}

impl Table {
    /// The seat after `s` in playing order ("to the right").
    #[inline]
    pub fn next(self, s: Seat) -> Seat {
        if s + 1 == self.seats { 0 } else { s + 1 }
    }

    /// The seat `k` places after `s` in playing order.
    #[inline]
    pub fn after(self, s: Seat, k: u8) -> Seat {
        // `k` is almost always below the seat count: skip the division then.
        let k = if k < self.seats { k } else { k % self.seats };
        let t = s + k;
        if t >= self.seats { t - self.seats } else { t }
    }

    /// The seat before `s` in playing order ("to the left").
    #[inline]
    pub fn prev(self, s: Seat) -> Seat {
        if s == 0 { self.seats - 1 } else { s - 1 }
    }

    /// The side a seat scores for.
    #[inline]
    pub fn side(self, s: Seat) -> Side {
        if self.pairs { s & 1 } else { s }
    }

    /// Number of sides: 2 teams in the pairs game, else one per seat.
    #[inline]
    pub fn sides(self) -> u8 {
        if self.pairs { 2 } else { self.seats }
    }

    /// Whether `a` and `b` are partners (never in the individual variants).
    #[inline]
    pub fn partners(self, a: Seat, b: Seat) -> bool {
        self.pairs && a != b && (a & 1) == (b & 1)
    }

    /// The partner of `s` in the pairs game.
    #[inline]
    pub fn partner(self, s: Seat) -> Option<Seat> {
        self.pairs.then(|| (s + 2) % 4)
    }
}
