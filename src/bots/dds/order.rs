//! Move ordering: the distinct legal cards of the seat to play, the most
//! promising first, in a fixed array (no allocation per position).

use crate::rules::{Card, CardSet};

use super::super::solver::leads_run;
use super::bounds::highest;
use super::pos::Pos;

/// At most twelve moves, best guesses first.
pub(super) struct Moves {
    cards: [Card; 12],
    len: usize,
}

impl Moves {
    /// The moves in order.
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len]
    }
}

/// The distinct legal cards of `pos` (one per run of interchangeable cards),
/// the `first` ones in that order (the table's card, the killer lead),
/// then by the guess of [`score`]. `beat`: the cards that would take the
/// lead of the trick.
///
/// The cards are sorted where they are returned, one byte at a time: a
/// copy of byte-wise built arrays read back a word at a time stalls the
/// processor, and this runs at every position searched.
pub(super) fn ordered(pos: &Pos, legal: CardSet, beat: CardSet, first: [Option<Card>; 2]) -> Moves {
    let alive = pos.alive();
    let partner_winning = pos
        .trick
        .facing(pos.table, pos.turn)
        .is_some_and(|f| f.partner_winning);
    let last = pos.trick.len() + 1 == pos.table.seats as usize;
    let mut out = Moves {
        cards: [Card::default(); 12],
        len: 0,
    };
    let mut scores = [0i32; 12];
    for c in legal.iter() {
        if !leads_run(c, legal, alive) || out.len == 12 {
            continue;
        }
        let s = match first.iter().position(|&f| f == Some(c)) {
            Some(i) => 10_000 - i as i32,
            None => score(pos, c, beat.contains(c), partner_winning, last),
        };
        // Insertion sort: at most twelve cards.
        let mut i = out.len;
        while i > 0 && scores[i - 1] < s {
            scores[i] = scores[i - 1];
            out.cards[i] = out.cards[i - 1];
            i -= 1;
        }
        scores[i] = s;
        out.cards[i] = c;
        out.len += 1;
    }
    out
}

/// A guess of how good `c` is for the seat to play.
fn score(pos: &Pos, c: Card, takes: bool, partner_winning: bool, last: bool) -> i32 {
    let p = i32::from(c.points());
    let s = i32::from(c.strength());
    let trump = pos.trump == Some(c.suit());
    if pos.trick.is_empty() {
        // Masters and points first; then low cards to the partner's master;
        // then low cards of long suits.
        let suit = pos.held() & c.suit_mask();
        let master = (c.higher_in_suit() & suit).is_empty();
        let partner = pos
            .table
            .partner(pos.turn)
            .map_or(CardSet::EMPTY, |p| pos.hands[p as usize]);
        if !master && highest(suit).is_some_and(|t| partner.contains(t)) {
            return 250 - s - 4 * p;
        }
        return if master {
            300 + 4 * p
        } else {
            s - 4 * p - 20 * i32::from(trump)
        };
    }
    if partner_winning {
        // Load points on the partner's trick (the last seat surely keeps it).
        return if last { 100 + 4 * p } else { 100 + 2 * p - s };
    }
    if takes {
        // The cheapest card that takes; trumps after the suit's own cards.
        return 200 - s - 12 * i32::from(trump) + if last { 4 * p } else { 0 };
    }
    -4 * p - s
}
