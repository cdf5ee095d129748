//! The exact value of a position from zero-window searches
//! ([`DealSolver::reach`]): the first guess, and the order of the searches.

use super::order::ordered;
use super::search::DealSolver;

impl DealSolver {
    /// A first guess of the value for [`DealSolver::exact`] (a line of
    /// play, not a bound): every seat plays the first card of its move
    /// ordering to the end of the hand, then the trick starts of that line
    /// are solved from the last to the first, each guessed by the one after
    /// it (its value plus the points of the playout's trick before it).
    /// Only the first trick's cards are then guessed by the ordering, and
    /// the deeper solves leave the root's searches their table entries.
    pub(super) fn first_guess(&mut self) -> i32 {
        let root = self.pos;
        // The trick starts after the root with two tricks left or more, and
        // the points the side gained on the way to each.
        let mut line = [(root, 0); 12];
        let (mut starts, mut total) = (0, 0);
        while !self.pos.hands[self.pos.turn as usize].is_empty() {
            let (legal, beat) = self.pos.legal();
            let Some(&c) = ordered(&self.pos, legal, beat, [None; 2])
                .as_slice()
                .first()
            else {
                break;
            };
            total += self.play(c, beat.contains(c));
            if self.pos.trick.is_empty() && self.pos.hands[self.pos.turn as usize].len() >= 2 {
                line[starts] = (self.pos, total);
                starts += 1;
            }
        }
        let mut guess = total;
        for &(pos, gained) in line[..starts].iter().rev() {
            if self.aborted {
                break;
            }
            self.pos = pos;
            guess = gained + self.exact(guess - gained);
        }
        self.pos = root;
        guess
    }

    /// The exact value of the position by zero-window searches that answer
    /// a bound (fail-soft): the first at `guess`. After a search that
    /// reached its target the next asks for the bound plus 1, then 2, 4, …
    /// while they keep reaching (the value is most often the bound: the
    /// bounds answered are weak, and a failing search near the value costs
    /// the most); while the searches fail from the first on, the next asks
    /// for the bound answered, then 1, 2, 4, … below it; once a search has
    /// reached, one that fails is followed by bisection between the bounds.
    pub(super) fn exact(&mut self, guess: i32) -> i32 {
        self.exact_within(guess, 0, self.pos.left)
    }

    /// [`DealSolver::exact`] of a position whose value is known to be at
    /// least `lo` and at most `hi`.
    pub(super) fn exact_within(&mut self, guess: i32, mut lo: i32, mut hi: i32) -> i32 {
        let (mut probe, mut first) = (guess, true);
        // How far above the bound the next search asks after one that
        // reached; below 0 while every search failed, 0 after a search
        // failed once one had reached.
        let mut step = 0;
        while lo < hi && !self.aborted {
            let need = probe.clamp(lo + 1, hi);
            let v = self.reach(need);
            if v >= need {
                lo = v;
                step = (step.max(0) * 2).max(1);
                probe = lo + step;
            } else {
                hi = v;
                if first || step < 0 {
                    // The bound itself, then while they keep failing 1, 2,
                    // 4, … below it.
                    step = if first { -1 } else { step * 2 };
                    probe = hi + 1 + step;
                } else {
                    step = 0;
                    probe = (lo + hi + 1) / 2;
                }
            }
            first = false;
        }
        lo
    }
}
