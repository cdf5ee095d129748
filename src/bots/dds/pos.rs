//! The solver's position: the four hands, the trick on the table and the
//! rule options, in a few machine words (copied to undo a card).
//!
//! The legal cards are the engine's own narrowing
//! ([`crate::rules::legal::narrow`], the function behind
//! [`HandState::legal_cards`]) on the engine's own [`Trick`].

use crate::rules::legal::{Narrowing, beating, narrow};
use crate::rules::trick::Trick;
use crate::rules::{Card, CardSet, HandState, Rules, Seat, Suit, Table, Trump};

/// A position in play, every hand known.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pos {
    /// Each seat's cards (the fourth is empty in `abarrotada3`).
    pub hands: [CardSet; 4],
    /// The trick in progress (empty at a trick start).
    pub trick: Trick,
    /// The seat to play.
    pub turn: Seat,
    /// The seating.
    pub table: Table,
    /// The trump suit (none under botifarra).
    pub trump: Option<Suit>,
    /// Forced mode (4.1).
    pub forced: bool,
    /// Must-trump (4.2).
    pub must_trump: bool,
    /// Hand points still to take: the points of every card in play (the
    /// trick's included) and one per trick not yet won.
    pub left: i32,
}

/// What completing a trick gave: the winner and the trick's hand points.
#[derive(Clone, Copy, Debug)]
pub(super) struct Won {
    pub winner: Seat,
    pub points: i32,
}

impl Pos {
    /// The position of `h` (a hand in play) under `rules`.
    pub fn new(rules: &Rules, h: &HandState) -> Pos {
        let table = rules.variant.table();
        let on_table = h
            .trick
            .cards()
            .iter()
            .fold(CardSet::EMPTY, |a, c| a | c.bit());
        let held = h.hands.iter().fold(CardSet::EMPTY, |a, &s| a | s);
        let tricks = h.hands[h.trick.leader as usize].len() + u32::from(!h.trick.is_empty());
        Pos {
            hands: h.hands,
            trick: h.trick,
            turn: h.turn,
            table,
            trump: h.trump.and_then(Trump::suit),
            forced: rules.forced,
            must_trump: rules.must_trump,
            left: ((held | on_table).points() + tricks) as i32,
        }
    }

    /// The cards in play: held, or on the trick.
    pub fn alive(&self) -> CardSet {
        let on_table = self
            .trick
            .cards()
            .iter()
            .fold(CardSet::EMPTY, |a, c| a | c.bit());
        self.held() | on_table
    }

    /// The cards still held.
    pub fn held(&self) -> CardSet {
        self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
    }

    /// Every card of the trump suit (empty under botifarra).
    pub fn trump_mask(&self) -> CardSet {
        self.trump.map_or(CardSet::EMPTY, Suit::mask)
    }

    /// The legal cards of the seat to play, and the cards that would take
    /// the lead of the trick (every card when leading).
    #[inline]
    pub fn legal(&self) -> (CardSet, CardSet) {
        let hand = self.hands[self.turn as usize];
        let Some(t) = self.trick.facing(self.table, self.turn) else {
            return (hand, CardSet::FULL);
        };
        let beat = beating(t.winning, self.trump);
        let legal = narrow(&Narrowing {
            hand,
            led: t.led,
            beat,
            trump: self.trump_mask(),
            partner_winning: t.partner_winning,
            partner_played: t.partner_played,
            forced: self.forced,
            must_trump: self.must_trump,
        });
        (legal, beat)
    }

    /// Plays `c` (legal; `takes`: whether it takes the lead) for the seat
    /// to play; when that completes the trick, scores it, opens the next
    /// and says who won what.
    #[inline]
    pub fn play(&mut self, c: Card, takes: bool) -> Option<Won> {
        let seat = self.turn;
        self.hands[seat as usize].remove(c);
        self.trick.push_taking(c, takes);
        if (self.trick.len() as u8) < self.table.seats {
            self.turn = self.table.next(seat);
            return None;
        }
        let winner = self.trick.winner(self.table);
        let points = self
            .trick
            .cards()
            .iter()
            .map(|c| i32::from(c.points()))
            .sum::<i32>()
            + 1;
        self.left -= points;
        self.turn = winner;
        self.trick = Trick::led_by(winner);
        Some(Won { winner, points })
    }
}
