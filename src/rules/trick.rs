//! A trick (basa): who led and the cards played, in order.

use serde::{Deserialize, Serialize};

use super::card::{Card, CardSet, Suit};
use super::legal::{TrickSoFar, beats};
use super::seat::{Seat, Table};

/// A trick being played or completed. Cards are in playing order from the
/// leader; at most 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(into = "TrickRepr", try_from = "TrickRepr")]
pub struct Trick {
    /// Who led.
    pub leader: Seat,
    len: u8,
    /// Index of the winning card so far.
    best: u8,
    cards: [Card; 4],
}

impl Trick {
    /// An empty trick to be led by `leader`.
    pub fn led_by(leader: Seat) -> Trick {
        Trick {
            leader,
            len: 0,
            best: 0,
            cards: [Card(0); 4],
        }
    }

    /// The cards played so far.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// How many cards were played.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no card was played yet.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds the next card; `trump` decides whether it takes the lead.
    #[inline]
    pub fn push(&mut self, c: Card, trump: Option<Suit>) {
        self.push_taking(c, self.takes(c, trump));
    }

    /// Whether `c`, played next, would take the lead of the trick.
    #[inline]
    pub(crate) fn takes(&self, c: Card, trump: Option<Suit>) -> bool {
        self.len > 0 && beats(c, self.cards[self.best as usize], trump)
    }

    /// Adds the next card, which takes the lead when `takes` (the caller
    /// already knows which cards beat the winning one).
    #[inline]
    pub(crate) fn push_taking(&mut self, c: Card, takes: bool) {
        if takes {
            self.best = self.len;
        }
        self.cards[self.len as usize] = c;
        self.len += 1;
    }

    /// The card led.
    #[inline]
    pub fn led(&self) -> Option<Card> {
        self.cards().first().copied()
    }

    /// The trick as the rules see it from `seat`, about to play to it: the
    /// suit led, the winning card and its seat, and whether `seat`'s partner
    /// has played. `None` when `seat` leads.
    #[inline]
    pub(crate) fn so_far(&self, table: Table, seat: Seat) -> Option<TrickSoFar> {
        if self.len == 0 {
            return None;
        }
        Some(TrickSoFar {
            led: self.cards[0].suit(),
            winning: self.cards[(self.best & 3) as usize],
            winner: self.winner(table),
            // Partners sit two places apart: the partner has played when
            // they come within the cards already on the table.
            partner_played: table.pairs && (seat + 6 - self.leader) % 4 < self.len,
        })
    }

    /// What the seat to play faces, read for the engine's own legal-set
    /// computation: [`Trick::so_far`] in the form the rules narrow by. `None`
    /// when `seat` leads.
    #[inline(always)]
    pub(crate) fn facing(&self, table: Table, seat: Seat) -> Option<Facing> {
        if self.len == 0 {
            return None;
        }
        let best = self.best & 3;
        // Only the pairs game has partners, and it has four seats: the
        // winner is `leader + best` modulo 4.
        let winner = self.leader.wrapping_add(best) & 3;
        Some(Facing {
            led: self.cards[0].suit_mask(),
            winning: self.cards[best as usize],
            partner_winning: table.pairs && winner != seat && (winner ^ seat) & 1 == 0,
            partner_played: table.pairs
                && seat.wrapping_add(6).wrapping_sub(self.leader) & 3 < self.len,
        })
    }

    /// The seat winning a trick that has been led (the leader's when none
    /// was played).
    #[inline]
    pub(crate) fn winner(&self, table: Table) -> Seat {
        // `best` is below the seat count and `leader` is a seat: one
        // subtraction wraps the sum.
        let t = self.leader + (self.best & 3);
        if t >= table.seats { t - table.seats } else { t }
    }

    /// The seats that played, in order.
    pub fn seats(&self, table: Table) -> impl Iterator<Item = Seat> + '_ {
        (0..self.len).map(move |i| table.after(self.leader, i))
    }

    /// The seat and card winning so far: the highest trump, else the highest
    /// card of the suit led.
    #[inline]
    pub fn winning(&self, table: Table) -> Option<(Seat, Card)> {
        (self.len > 0).then(|| (self.winner(table), self.cards[(self.best & 3) as usize]))
    }
}

/// A led trick as the seat to play faces it (see [`Trick::facing`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Facing {
    /// Every card of the suit led.
    pub led: CardSet,
    /// The card winning so far.
    pub winning: Card,
    /// Whether the seat's partner played it.
    pub partner_winning: bool,
    /// Whether the seat's partner has played to the trick.
    pub partner_played: bool,
}

#[derive(Serialize, Deserialize)]
struct TrickRepr {
    leader: Seat,
    cards: Vec<Card>,
    #[serde(default)]
    best: u8,
}

impl From<Trick> for TrickRepr {
    fn from(t: Trick) -> TrickRepr {
        TrickRepr {
            leader: t.leader,
            cards: t.cards().to_vec(),
            best: t.best,
        }
    }
}

impl TryFrom<TrickRepr> for Trick {
    type Error = String;
    fn try_from(r: TrickRepr) -> Result<Trick, String> {
        if r.cards.len() > 4 || r.leader > 3 || (r.best as usize) >= r.cards.len().max(1) {
            return Err(
                "a trick has at most 4 cards, a leader 0-3 and a winning index among its cards"
                    .into(),
            );
        }
        let mut t = Trick::led_by(r.leader);
        t.cards[..r.cards.len()].copy_from_slice(&r.cards);
        t.len = r.cards.len() as u8;
        t.best = r.best;
        Ok(t)
    }
}
