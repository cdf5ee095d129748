//! The seat's best reply to heuristic opponents on a known deal: the other
//! seats play the heuristic player's card from what each of them would
//! know (as in the Monte Carlo playouts), and the seat itself tries every
//! card at each of its turns and keeps the best for itself. A position is
//! worth what the playouts score ([`super::playout::value`]).
//!
//! The opponents' play depends on everything they have seen, so the
//! positions are not transposed; the node budget bounds the search.

use super::heuristic::choose_card;
use super::knowledge::Knowledge;
use super::playout::value;
use super::solver::{alive, representative};
use crate::rules::{Card, HandState, Rules, Seat, Table};

/// A best-reply search for one seat.
pub struct Response<'a> {
    rules: &'a Rules,
    table: Table,
    seat: Seat,
    budget: u64,
    /// Positions visited so far (over every search of this solver).
    pub nodes: u64,
    aborted: bool,
}

impl<'a> Response<'a> {
    /// A search for `seat` visiting at most `budget` of its own positions.
    pub fn new(rules: &'a Rules, seat: Seat, budget: u64) -> Response<'a> {
        Response {
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
        let alive = alive(h);
        let mut out: Vec<(Card, f64)> = Vec::with_capacity(legal.len() as usize);
        for c in legal.iter() {
            let rep = representative(c, legal, alive);
            let v = match out.iter().find(|(d, _)| *d == rep) {
                Some(&(_, v)) => v,
                None => {
                    let v = self.after(h, k, rep);
                    if rep != c {
                        out.push((rep, v));
                    }
                    v
                }
            };
            out.push((c, v));
        }
        out.retain(|(c, _)| legal.contains(*c));
        out.sort_by_key(|(c, _)| *c);
        out.dedup_by_key(|(c, _)| *c);
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
            let seat = h.turn;
            let legal = h.legal_cards(self.rules, self.table);
            let card = if legal.len() == 1 {
                legal.lowest().unwrap_or_default()
            } else {
                choose_card(&k.for_seat(seat, h.hands[seat as usize]), legal)
            };
            k.observe(seat, card);
            h.play_known(self.table, card);
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
        let alive = alive(h);
        let mut best = f64::MIN;
        for c in legal.iter() {
            if representative(c, legal, alive) == c {
                best = best.max(self.after(h, k, c));
            }
        }
        best
    }
}
