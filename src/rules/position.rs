//! Positions rebuilt for search: what a bot needs to try moves on a copy of
//! the game without reaching into the engine's state.
//!
//! A seat's [`GameView`] and a deal of the cards it cannot see (sampled)
//! give a [`HandState`] in play ([`HandState::in_play_from_view`]) or a
//! scratch [`Match`] at the start of a hand ([`Match::from_deal`]) on which
//! the bidding so far is replayed. [`HandState::play_known`] then plays a
//! card already known to be legal, without the events and records of a real
//! match.

use super::card::{Card, CardSet};
use super::contract::Trump;
use super::game::Match;
use super::hand::{HandState, Stage};
use super::seat::{Seat, Table};
use super::trick::Trick;
use super::variant::{Rules, RulesError};
use super::view::GameView;

impl HandState {
    /// The hand in play that `view` shows, with `deal` as every seat's
    /// cards: trump, declarer, doubles, the trick on the table, the points
    /// and tricks taken so far are the view's. The seat to play is the
    /// view's turn (the viewer's seat, or seat 0, when none).
    pub fn in_play_from_view(view: &GameView, deal: [CardSet; 4]) -> HandState {
        let mut h = HandState::new(view.hand_number, view.dealer, deal);
        let trump = view.trump.and_then(Trump::suit);
        h.stage = Stage::Playing;
        h.trump = view.trump;
        h.declarer = view.declarer;
        h.doubles = view.calls.len().min(3) as u8;
        h.turn = view.turn.or(view.you).unwrap_or(0);
        h.trick = view.trick.as_ref().map_or_else(Trick::default, |t| {
            let mut trick = Trick::led_by(t.leader);
            for pc in &t.cards {
                trick.push(pc.card, trump);
            }
            trick
        });
        for (p, &v) in h.points.iter_mut().zip(&view.points_taken) {
            *p = v;
        }
        for (p, &v) in h.tricks_won.iter_mut().zip(&view.tricks_won) {
            *p = v;
        }
        h
    }

    /// Gives every seat `deal` as its cards, dealt and held: a position
    /// whose hidden cards were sampled.
    pub fn set_cards(&mut self, deal: [CardSet; 4]) {
        self.dealt = deal;
        self.hands = deal;
    }

    /// Plays `card` for the seat to play, closing the trick and the hand
    /// when complete, without events or records; returns whether the hand
    /// is over. `card` must come from [`HandState::legal_cards`]: it is not
    /// checked (playouts call this for every card).
    #[inline]
    pub fn play_known(&mut self, table: Table, card: Card) -> bool {
        let takes = self.trick.takes(card, self.trump.and_then(Trump::suit));
        if self.put(table, card, takes) {
            self.score_trick(table);
        }
        self.stage == Stage::Over
    }

    /// Whether the hand is still being played.
    #[inline]
    pub fn in_play(&self) -> bool {
        self.stage == Stage::Playing
    }
}

impl Match {
    /// A scratch match under `rules` whose hand `number`, dealt by
    /// `dealer`, has just been dealt as `dealt` (the dealer is to choose
    /// trump): the start of a position rebuilt from a seat's view.
    ///
    /// # Errors
    /// [`RulesError`] when the options cannot be played together.
    pub fn from_deal(
        rules: Rules,
        number: u32,
        dealer: Seat,
        dealt: [CardSet; 4],
    ) -> Result<Match, RulesError> {
        let mut m = Match::new(rules, [0; 32])?;
        m.dealer = dealer;
        m.hands_dealt = number;
        m.hand = Some(HandState::new(number, dealer, dealt));
        Ok(m)
    }

    /// Gives every seat of the hand in progress `deal` as its cards (see
    /// [`HandState::set_cards`]); nothing when no hand is in progress.
    pub fn set_cards(&mut self, deal: [CardSet; 4]) {
        if let Some(h) = self.hand.as_mut() {
            h.set_cards(deal);
        }
    }
}

/// What playing cards changes in a hand in play: taken before a card and
/// put back after it, so that a search can try a card and take it back
/// without copying the whole hand (see [`HandState::undo_point`]).
#[derive(Clone, Copy, Debug)]
pub struct UndoPoint {
    hands: [CardSet; 4],
    trick: Trick,
    turn: Seat,
    points: [u8; 4],
    tricks_won: [u8; 4],
    stage: Stage,
}

impl HandState {
    /// The state card play changes, to return to with [`HandState::undo`].
    pub fn undo_point(&self) -> UndoPoint {
        UndoPoint {
            hands: self.hands,
            trick: self.trick,
            turn: self.turn,
            points: self.points,
            tricks_won: self.tricks_won,
            stage: self.stage,
        }
    }

    /// Puts back the state of `point`, taken from this hand by
    /// [`HandState::undo_point`] before the cards played since.
    pub fn undo(&mut self, point: UndoPoint) {
        self.hands = point.hands;
        self.trick = point.trick;
        self.turn = point.turn;
        self.points = point.points;
        self.tricks_won = point.tricks_won;
        self.stage = point.stage;
    }

    /// A copy of this hand for searching its play: the same position, but
    /// without the record of the tricks and calls so far (nothing a search
    /// that only plays cards needs).
    pub fn without_records(&self) -> HandState {
        let mut lean = HandState::new(self.number, self.dealer, self.hands);
        lean.stage = self.stage;
        lean.turn = self.turn;
        lean.trump = self.trump;
        lean.declarer = self.declarer;
        lean.doubles = self.doubles;
        lean.trick = self.trick;
        lean.points = self.points;
        lean.tricks_won = self.tricks_won;
        lean
    }
}
