//! An exact perfect-information search for the individual variants
//! (`abarrotada`, `abarrotada3`) in which every seat plays for itself: the
//! max-n rule. Each position is worth a vector, one value per seat, and the
//! seat to play picks the card whose vector is best for itself.
//!
//! A seat's value at the end of the hand is what the Monte Carlo playouts
//! score ([`super::playout::value`]): the points it records less the mean
//! the others record, times the multiplier, plus a small share of its raw
//! points. The recorded points only count over the threshold, so the value
//! depends on the points taken before the position as well as after it:
//! the vector is of whole-hand values, and the transposition table (at the
//! start of each trick) is keyed by every seat's remaining cards, the
//! leader and every seat's points so far.
//!
//! Unlike the two-sided solver ([`super::solver`]), which assumes all the
//! other seats play against the solver's seat together, this search lets
//! each of them play for itself, as a real opponent in these variants does.
//! There is no alpha-beta cutoff (max-n admits none worth having); the
//! table and equivalent-card pruning keep the endgames small. A seat with
//! two cards of the same value for itself plays the lower one (cards of a
//! suit rise with their strength), so the result does not depend on the
//! order the cards are tried in.
//!
//! The search counts the positions it visits; past the node budget it
//! stops and answers `None`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use super::playout::value;
use super::solver::{KeyHasher, alive, distinct, each_distinct};
use crate::rules::{Card, HandState, Rules, Table};

/// One value per seat (the fourth is unused with three seats).
pub type Values = [f64; 4];

/// A trick-start position: each seat's cards, the leader and the points
/// taken so far (one byte per seat).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key([u64; 4], u8, u32);

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for &x in &self.0 {
            state.write_u64(x);
        }
        state.write_u64(u64::from(self.1) << 32 | u64::from(self.2));
    }
}

/// A max-n search of one position.
pub struct MaxN<'a> {
    rules: &'a Rules,
    table: Table,
    budget: u64,
    /// Positions visited so far (over every search of this solver).
    pub nodes: u64,
    aborted: bool,
    tt: HashMap<Key, Values, BuildHasherDefault<KeyHasher>>,
}

impl<'a> MaxN<'a> {
    /// A search visiting at most `budget` positions.
    pub fn new(rules: &'a Rules, budget: u64) -> MaxN<'a> {
        MaxN {
            rules,
            table: rules.variant.table(),
            budget,
            nodes: 0,
            aborted: false,
            tt: HashMap::default(),
        }
    }

    /// The value vector of every legal card of the seat to play (the hand
    /// played out by the max-n rule after it); `None` past the node budget
    /// or when the hand is not in play.
    pub fn solve_each(&mut self, h: &HandState) -> Option<Vec<(Card, Values)>> {
        if !h.in_play() {
            return None;
        }
        let mut h = h.without_records();
        let legal = h.legal_cards(self.rules, self.table);
        let out = each_distinct(legal, alive(&h), |c| self.after(&mut h, c));
        (!self.aborted).then_some(out)
    }

    /// The value vector after playing `c`.
    fn after(&mut self, h: &mut HandState, c: Card) -> Values {
        let undo = h.undo_point();
        h.play_known(self.table, c);
        let v = self.search(h);
        h.undo(undo);
        v
    }

    /// The value vector of `h` under the max-n rule.
    fn search(&mut self, h: &mut HandState) -> Values {
        if self.aborted {
            return [0.0; 4];
        }
        if !h.in_play() {
            return self.leaf(h);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return [0.0; 4];
        }
        let key = h.trick.is_empty().then(|| {
            let points = h
                .points
                .iter()
                .fold(0u32, |acc, &p| acc << 8 | u32::from(p));
            Key(h.hands.map(|s| s.0), h.turn, points)
        });
        if let Some(v) = key.and_then(|k| self.tt.get(&k)) {
            return *v;
        }
        let seat = h.turn as usize;
        let mut best: Option<Values> = None;
        let legal = h.legal_cards(self.rules, self.table);
        for c in distinct(legal, alive(h)) {
            let v = self.after(h, c);
            if self.aborted {
                return [0.0; 4];
            }
            if best.is_none_or(|b| v[seat] > b[seat]) {
                best = Some(v);
            }
        }
        let best = best.unwrap_or_else(|| self.leaf(h));
        if let Some(k) = key {
            self.tt.insert(k, best);
        }
        best
    }

    /// Every seat's value of a finished hand.
    fn leaf(&self, h: &HandState) -> Values {
        let mut v = [0.0; 4];
        for (s, x) in v.iter_mut().enumerate().take(self.table.seats as usize) {
            *x = value(self.rules, s as u8, h);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::solver::tests::{last_trick, led_by_seat_0};
    use crate::rules::hand::Stage;
    use crate::rules::{CardSet, Suit, Variant};

    fn abarrotada() -> Rules {
        Rules {
            variant: Variant::Abarrotada,
            ..Rules::default()
        }
    }

    #[test]
    fn the_last_trick_goes_to_its_winner_and_values_follow_the_threshold() {
        let rules = abarrotada();
        // Seat 1 trumps seat 0's 9 of copes and takes 6 points.
        let mut h = last_trick();
        h.points = [20, 15, 10, 21];
        let each = MaxN::new(&rules, 1_000).solve_each(&h).unwrap();
        assert_eq!(each.len(), 1);
        let (card, v) = each[0];
        assert_eq!(card, Card::new(Suit::Copes, 11));
        // Seat 1 ends with 21 points: 3 over the threshold, as seat 3;
        // seat 0 keeps its 2 over it.
        let mut end = h.clone();
        end.points = [20, 21, 10, 21];
        end.stage = Stage::Over;
        for (seat, x) in v.iter().enumerate() {
            assert!((x - value(&rules, seat as u8, &end)).abs() < 1e-9);
        }
        assert!(v[1] > v[0] && v[0] > v[2]);
    }

    #[test]
    fn the_budget_stops_the_search() {
        let rules = abarrotada();
        let two = |a: Suit, b: Suit| Card::new(a, 11).bit() | Card::new(b, 5).bit();
        let h = led_by_seat_0([
            two(Suit::Copes, Suit::Oros),
            two(Suit::Oros, Suit::Espases),
            two(Suit::Bastos, Suit::Bastos),
            two(Suit::Espases, Suit::Copes),
        ]);
        assert!(MaxN::new(&rules, 1).solve_each(&h).is_none());
        let each = MaxN::new(&rules, 1_000).solve_each(&h).unwrap();
        let cards: CardSet = each.iter().map(|(c, _)| *c).collect();
        assert_eq!(cards, h.hands[0]);
    }
}
