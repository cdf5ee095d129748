//! An exact perfect-information solver for the rest of a hand: every hand
//! known, it finds the card points (+1 per trick) the solver's side takes
//! from the position to the end of the hand with best play by every seat.
//!
//! The position is the engine's own [`HandState`] in play: the legal cards
//! come from [`HandState::legal_cards`] and every card is played with
//! [`HandState::play_known`], so every rule option (forced mode, must-trump,
//! three seats) is the engine's. The search is alpha-beta on the points of
//! the solver's side, with
//!
//! - a transposition table at the start of each trick, keyed by every
//!   seat's remaining cards and the leader, holding bounds on the points
//!   still to take (they do not depend on how the position was reached);
//! - equivalent-card pruning: two cards of one hand, of the same suit, with
//!   equal points and no other card still in play (held, or on the trick)
//!   between them in strength, lead to the same result, and only the
//!   stronger is searched;
//! - move ordering: the table's best card first, then cards that take the
//!   trick (cheapest first), then the rest (cheapest first), or the richest
//!   first onto a partner's trick.
//!
//! **Sides.** In the pairs game the solver's side is its team and the other
//! team minimises. In the individual variants (`abarrotada`, `abarrotada3`)
//! every seat plays alone: the solver maximises its own seat's points and
//! every other seat is assumed to play against it together (the "paranoid"
//! reduction to two players), the safe assumption for a seat whose score is
//! what it takes above the threshold.
//!
//! The search counts the positions it visits; past the node budget it
//! stops and answers `None`, and the caller falls back to another player.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::rules::legal::beats;
use crate::rules::{Card, CardSet, HandState, Rules, Seat, Table, Trump};

/// Beyond any value (a hand has 72 points at most).
const INF: i32 = 1_000;

/// The result of a solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The points the solver's side takes from the position to the end of
    /// the hand (the trick in progress included, with its cards already
    /// played).
    pub value: i32,
    /// A card of the seat to play that achieves `value`.
    pub best: Card,
}

/// A perfect-information alpha-beta search for one side of one position.
pub struct Solver<'a> {
    rules: &'a Rules,
    table: Table,
    side: u8,
    budget: u64,
    /// Positions visited so far (over every search of this solver).
    pub nodes: u64,
    aborted: bool,
    tt: HashMap<Key, Bounds, BuildHasherDefault<KeyHasher>>,
}

/// A trick-start position: each seat's cards and the leader.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key([u64; 4], Seat);

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for &x in &self.0 {
            state.write_u64(x);
        }
        state.write_u64(u64::from(self.1));
    }
}

/// Bounds on the points still to take from a trick-start position, and the
/// card that gave them.
#[derive(Clone, Copy)]
struct Bounds {
    lo: i32,
    hi: i32,
    best: Card,
}

impl<'a> Solver<'a> {
    /// A solver for the side of `seat`, visiting at most `budget` positions.
    pub fn new(rules: &'a Rules, seat: Seat, budget: u64) -> Solver<'a> {
        let table = rules.variant.table();
        Solver {
            rules,
            table,
            side: table.side(seat),
            budget,
            nodes: 0,
            aborted: false,
            tt: HashMap::default(),
        }
    }

    /// The value of `h` and a best card for the seat to play; `None` past
    /// the node budget or when the hand is not in play.
    pub fn solve(&mut self, h: &HandState) -> Option<Solution> {
        if !h.in_play() {
            return None;
        }
        let mut h = h.without_records();
        let (value, best) = self.search(&mut h, -INF, INF);
        (!self.aborted).then_some(Solution { value, best: best? })
    }

    /// The exact value of every legal card of the seat to play (what the
    /// side takes from the position on after playing it); `None` past the
    /// node budget or when the hand is not in play.
    pub fn solve_each(&mut self, h: &HandState) -> Option<Vec<(Card, i32)>> {
        if !h.in_play() {
            return None;
        }
        let mut h = h.without_records();
        let legal = h.legal_cards(self.rules, self.table);
        let out = each_distinct(legal, alive(&h), |c| self.after(&mut h, c, -INF, INF));
        (!self.aborted).then_some(out)
    }

    /// Plays `c` and searches on: the points the side takes from here.
    fn after(&mut self, h: &mut HandState, c: Card, alpha: i32, beta: i32) -> i32 {
        let undo = h.undo_point();
        let before = i32::from(h.points[self.side as usize]);
        h.play_known(self.table, c);
        let gained = i32::from(h.points[self.side as usize]) - before;
        let (rest, _) = self.search(h, alpha - gained, beta - gained);
        h.undo(undo);
        gained + rest
    }

    /// Alpha-beta (fail-soft): the points the side takes from `h` on, and
    /// the best card.
    fn search(&mut self, h: &mut HandState, mut alpha: i32, mut beta: i32) -> (i32, Option<Card>) {
        if !h.in_play() || self.aborted {
            return (0, None);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return (0, None);
        }
        let key = h
            .trick
            .is_empty()
            .then(|| Key(h.hands.map(|s| s.0), h.turn));
        let mut hint = None;
        if let Some(e) = key.and_then(|k| self.tt.get(&k)) {
            if e.lo >= beta || e.lo == e.hi {
                return (e.lo, Some(e.best));
            }
            if e.hi <= alpha {
                return (e.hi, Some(e.best));
            }
            alpha = alpha.max(e.lo);
            beta = beta.min(e.hi);
            hint = Some(e.best);
        }
        let maximising = self.table.side(h.turn) == self.side;
        let moves = self.ordered(h, hint);
        let (a0, b0) = (alpha, beta);
        let mut best = if maximising { -INF } else { INF };
        let mut best_card = moves.first().copied();
        for &c in &moves {
            let v = self.after(h, c, alpha, beta);
            if self.aborted {
                return (0, None);
            }
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                best_card = Some(c);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        if let (Some(k), Some(card)) = (key, best_card) {
            let e = self.tt.entry(k).or_insert(Bounds {
                lo: -INF,
                hi: INF,
                best: card,
            });
            if best > a0 && best < b0 {
                (e.lo, e.hi) = (best, best);
            } else if best <= a0 {
                e.hi = e.hi.min(best);
            } else {
                e.lo = e.lo.max(best);
            }
            e.best = card;
        }
        (best, best_card)
    }

    /// The distinct legal cards of the seat to play, best guesses first.
    fn ordered(&self, h: &HandState, hint: Option<Card>) -> Vec<Card> {
        let legal = h.legal_cards(self.rules, self.table);
        let trump = h.trump.and_then(Trump::suit);
        let partner_winning = h
            .trick
            .winning(self.table)
            .is_some_and(|(w, _)| self.table.partners(w, h.turn));
        let mut moves: Vec<(i32, Card)> = distinct(legal, alive(h))
            .map(|c| {
                let takes = h.trick.is_empty()
                    || h.trick
                        .winning(self.table)
                        .is_some_and(|(_, w)| beats(c, w, trump));
                let p = i32::from(c.points());
                let s = i32::from(c.strength());
                let score = if Some(c) == hint {
                    1000
                } else if h.trick.is_empty() {
                    s + 4 * p
                } else if partner_winning {
                    100 + 4 * p - s
                } else if takes {
                    200 - s
                } else {
                    -4 * p - s
                };
                (score, c)
            })
            .collect();
        moves.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        moves.into_iter().map(|(_, c)| c).collect()
    }
}

/// The cards still in play: held by a seat or on the trick.
pub(super) fn alive(h: &HandState) -> CardSet {
    let held = h.hands.iter().fold(CardSet::EMPTY, |a, &s| a | s);
    h.trick.cards().iter().fold(held, |a, &c| a | c.bit())
}

/// `value` of every card of `legal`, by card, computed once per run of
/// interchangeable cards ([`representative`]; `alive`: the cards in play).
pub(super) fn each_distinct<T: Copy>(
    legal: CardSet,
    alive: CardSet,
    mut value: impl FnMut(Card) -> T,
) -> Vec<(Card, T)> {
    let mut out: Vec<(Card, T)> = Vec::with_capacity(legal.len() as usize);
    for c in legal.iter() {
        let rep = representative(c, legal, alive);
        let v = match out.iter().find(|(d, _)| *d == rep) {
            Some(&(_, v)) => v,
            None => {
                let v = value(rep);
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
    out
}

/// One card of each run of interchangeable cards of `legal`, its
/// [`representative`] (`alive`: the cards in play).
pub(super) fn distinct(legal: CardSet, alive: CardSet) -> impl Iterator<Item = Card> {
    legal.iter().filter(move |&c| leads_run(c, legal, alive))
}

/// Whether `c` is its own [`representative`], in one step: the next
/// stronger card in play of its suit, if any, is not a legal card with
/// its points.
#[inline]
pub(super) fn leads_run(c: Card, legal: CardSet, alive: CardSet) -> bool {
    let next = (c.higher_in_suit() & alive).lowest();
    next.is_none_or(|n| !legal.contains(n) || n.points() != c.points())
}

/// The strongest card of `c`'s run in `legal`: the cards of its suit, with
/// its points, that no other card in play separates from it. They are
/// interchangeable: every rule (which cards beat which, the lowest card of a
/// suit, counting cards) sees them alike.
pub(super) fn representative(c: Card, legal: CardSet, alive: CardSet) -> Card {
    let mut rep = c;
    loop {
        // The next stronger card in play of the suit (indices rise with
        // strength inside a suit).
        let Some(next) = (rep.higher_in_suit() & alive).lowest() else {
            return rep;
        };
        if !legal.contains(next) || next.points() != rep.points() {
            return rep;
        }
        rep = next;
    }
}

/// A multiply-xorshift hasher for the table's keys (already well mixed
/// bitsets; the standard SipHash costs more than the search step).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        let h = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rules::hand::Stage;
    use crate::rules::trick::Trick;
    use crate::rules::{Suit, Variant};

    fn c(suit: Suit, strength: u8) -> Card {
        Card::new(suit, strength)
    }

    #[test]
    fn only_adjacent_cards_of_equal_points_are_one_move() {
        let o = |s| c(Suit::Oros, s);
        // Held: 2, 3, 4 and 8 of oros (strengths 0, 1, 2, 6); the 5
        // (strength 3) is elsewhere in play; the 10 and 11 (1 and 2 points)
        // are adjacent but not equal.
        let legal: CardSet = [o(0), o(1), o(2), o(6), o(7), o(8)].into_iter().collect();
        let alive = legal | o(3).bit();
        assert_eq!(representative(o(0), legal, alive), o(2));
        assert_eq!(representative(o(1), legal, alive), o(2));
        assert_eq!(representative(o(2), legal, alive), o(2));
        assert_eq!(representative(o(6), legal, alive), o(6));
        assert_eq!(representative(o(7), legal, alive), o(7));
        // Once the 5 is gone, the 2 to the 8 are one run.
        assert_eq!(representative(o(0), legal, legal), o(6));
        // A card of another suit never joins.
        let legal2 = legal | c(Suit::Copes, 3).bit();
        assert_eq!(
            representative(c(Suit::Copes, 3), legal2, legal2),
            c(Suit::Copes, 3)
        );
    }

    /// A hand in play under oros with seat 0 to lead `hands`.
    pub(crate) fn led_by_seat_0(hands: [CardSet; 4]) -> HandState {
        let mut h = HandState::new(1, 3, hands);
        h.stage = Stage::Playing;
        h.trump = Some(Trump::Suit(Suit::Oros));
        h.turn = 0;
        h.trick = Trick::led_by(0);
        h
    }

    /// The last trick under oros: seat 0 leads the 9 of copes (5 points);
    /// seat 1 holds the 2 of oros (a trump), seats 2 and 3 small copes.
    pub(crate) fn last_trick() -> HandState {
        led_by_seat_0([
            c(Suit::Copes, 11).bit(),
            c(Suit::Oros, 0).bit(),
            c(Suit::Copes, 0).bit(),
            c(Suit::Copes, 1).bit(),
        ])
    }

    #[test]
    fn the_last_trick_is_worth_its_cards_to_whoever_wins_it() {
        let rules = Rules {
            variant: Variant::Pairs,
            ..Rules::default()
        };
        let h = last_trick();
        for (seat, side_value) in [(0, 0), (1, 6), (2, 0), (3, 6)] {
            let mut s = Solver::new(&rules, seat, 1_000);
            let sol = s.solve(&h).unwrap();
            assert_eq!(sol.value, side_value, "seat {seat}");
            assert_eq!(sol.best, c(Suit::Copes, 11));
        }
        // One node is not enough.
        assert_eq!(Solver::new(&rules, 0, 1).solve(&h), None);
    }
}
