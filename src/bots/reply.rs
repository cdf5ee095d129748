//! The seat's best reply to heuristic opponents on a known deal: the other
//! seats play the heuristic player's card from what each of them would
//! know (as in the Monte Carlo playouts), and the seat itself tries every
//! card at each of its turns and keeps the best for itself. A position is
//! worth what the playouts score ([`super::playout::value`]).
//!
//! The opponents' play depends on everything they have seen, so the
//! positions are not transposed; the node budget bounds the search.

use super::knowledge::Knowledge;
use super::playout::{Rollout, play_one, value};
use super::solver::{alive, distinct, each_distinct};
use crate::rules::{Card, HandState, Rules, Seat, Table};

/// A best-reply search for one seat.
pub struct Reply<'a> {
    rules: &'a Rules,
    table: Table,
    seat: Seat,
    budget: u64,
    /// Positions visited so far (over every search of this solver).
    pub nodes: u64,
    aborted: bool,
}

impl<'a> Reply<'a> {
    /// A search for `seat` visiting at most `budget` of its own positions.
    pub fn new(rules: &'a Rules, seat: Seat, budget: u64) -> Reply<'a> {
        Reply {
            rules,
            table: rules.variant.table(),
            seat,
            budget,
            nodes: 0,
            aborted: false,
        }
    }

    /// The value of every legal card of the seat, to play in `h` (whose
    /// public knowledge is `k`); `None` past the node budget.
    pub fn solve_each(&mut self, h: &HandState, k: &Knowledge) -> Option<Vec<(Card, f64)>> {
        if !h.in_play() || h.turn != self.seat {
            return None;
        }
        let legal = h.legal_cards(self.rules, self.table);
        let out = each_distinct(legal, alive(h), |c| self.after(h, k, c));
        (!self.aborted).then_some(out)
    }

    /// The seat's value after it plays `c`.
    fn after(&mut self, h: &HandState, k: &Knowledge, c: Card) -> f64 {
        let mut h = h.clone();
        let mut k = *k;
        k.observe(self.seat, c);
        h.play_known(self.table, c);
        self.search(&mut h, &mut k)
    }

    /// The opponents play until the seat's turn or the end; then the best
    /// of the seat's cards.
    fn search(&mut self, h: &mut HandState, k: &mut Knowledge) -> f64 {
        while h.in_play() && h.turn != self.seat {
            play_one(h, k, self.rules, self.table, Rollout::Heuristic);
        }
        if !h.in_play() {
            return value(self.rules, self.seat, h);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
        }
        if self.aborted {
            return 0.0;
        }
        let legal = h.legal_cards(self.rules, self.table);
        distinct(legal, alive(h))
            .map(|c| self.after(h, k, c))
            .fold(f64::MIN, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::bots::playout::{Rollout, rollout};
    use crate::rules::{Match, Phase, Variant};

    /// On every legal card the best reply is worth at least what the
    /// heuristic's own continuation is (one of the lines it tries), and in
    /// some positions more.
    #[test]
    fn the_best_reply_is_never_worse_than_the_heuristic_continuation() {
        let (mut compared, mut better) = (0, 0);
        for variant in [Variant::Abarrotada, Variant::Abarrotada3] {
            let rules = Rules {
                variant,
                max_hands: Some(1),
                ..Rules::default()
            };
            let table = variant.table();
            for n in 0..30u8 {
                let mut m = Match::new(rules.clone(), [n; 32]).unwrap();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(n));
                let mut events = Vec::new();
                // Random play down to four or five tricks left.
                let left = 4 + u32::from(n % 2);
                while !(m.phase() == Phase::Playing
                    && m.hand.as_ref().unwrap().hands[usize::from(m.turn().unwrap())].len() == left)
                {
                    let seat = m.turn().unwrap();
                    let legal = m.view(Some(seat)).legal_actions;
                    let a = legal[rng.random_range(0..legal.len())];
                    m.apply(seat, a, &mut events).unwrap();
                }
                let seat = m.turn().unwrap();
                let view = m.view(Some(seat));
                let k = Knowledge::from_view(&view);
                let root = HandState::in_play_from_view(&view, m.hand.as_ref().unwrap().hands);
                let each = Reply::new(&rules, seat, u64::MAX)
                    .solve_each(&root, &k)
                    .unwrap();
                let mut best_heuristic = f64::MIN;
                for (c, v) in each.iter().copied() {
                    let mut h = root.clone();
                    let mut public = k;
                    public.observe(seat, c);
                    h.play_known(table, c);
                    rollout(&mut h, &mut public, &rules, table, Rollout::Heuristic);
                    let heuristic = value(&rules, seat, &h);
                    assert!(
                        v >= heuristic - 1e-9,
                        "{variant:?} n={n} {c:?}: {v} < {heuristic}"
                    );
                    best_heuristic = best_heuristic.max(heuristic);
                    compared += 1;
                }
                let best = each.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
                better += usize::from(best > best_heuristic + 1e-9);
            }
        }
        assert!(compared > 100, "only {compared} cards");
        assert!(
            better > 5,
            "the search found better lines in only {better} positions"
        );
    }
}
