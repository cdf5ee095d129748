//! How often each player doubles, and how often a hand it doubled goes
//! its way: the arena's doubling figures.

use std::fmt;

use crate::rules::Match;
use crate::rules::contract::Call;

/// One player's doubles over the hands an arena run played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Doubles {
    /// Hands in which one of the player's sides defended a declaration
    /// (counted once per side: the hands in which it could say contro).
    pub defending: u64,
    /// Contros the player said (an Estevet's included).
    pub contros: u64,
    /// Recontros and Sant Vicenç the player said.
    pub redoubles: u64,
    /// Hands in which the player said at least one double, per side.
    pub doubled: u64,
    /// Of those, the hands its side recorded points in.
    pub won: u64,
}

impl Doubles {
    /// Adds every hand of the finished match `m`, the player sitting in
    /// the seats of `mask` (a bit per seat).
    pub fn add(&mut self, m: &Match, mask: u8) {
        let table = m.table();
        let mine = |s: u8| mask >> s & 1 == 1;
        // The player's sides: one in the pairs game, one a seat otherwise.
        let mut sides: Vec<u8> = (0..table.seats)
            .filter(|&s| mine(s))
            .map(|s| table.side(s))
            .collect();
        sides.sort_unstable();
        sides.dedup();
        for r in &m.results {
            for &side in &sides {
                if r.declarer.is_some_and(|d| table.side(d) != side) {
                    self.defending += 1;
                }
                let said = r
                    .calls
                    .iter()
                    .filter(|c| mine(c.seat) && table.side(c.seat) == side);
                let mut any = false;
                for c in said {
                    any = true;
                    match c.call {
                        Call::Contro => self.contros += 1,
                        Call::Recontro | Call::SantVicenc => self.redoubles += 1,
                        Call::Pass => {}
                    }
                }
                if any {
                    self.doubled += 1;
                    if r.recorded.get(usize::from(side)).is_some_and(|&p| p > 0) {
                        self.won += 1;
                    }
                }
            }
        }
    }

    /// Adds another count.
    pub fn merge(&mut self, o: &Doubles) {
        self.defending += o.defending;
        self.contros += o.contros;
        self.redoubles += o.redoubles;
        self.doubled += o.doubled;
        self.won += o.won;
    }
}

/// A share as a percentage (0 of nothing).
fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

impl fmt::Display for Doubles {
    /// The row's cells after the player's name: contros (and their share
    /// of the defended hands), recontros and Sant Vicenç, doubled hands
    /// won.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({:.1}% of {}) | {} | {} of {} ({:.1}%)",
            self.contros,
            percent(self.contros, self.defending),
            self.defending,
            self.redoubles,
            self.won,
            self.doubled,
            percent(self.won, self.doubled)
        )
    }
}
