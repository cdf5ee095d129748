//! Fast playouts of the rest of a hand on a fully known (sampled) deal.
//!
//! The state is the engine's own [`HandState`]; the legal cards come from
//! [`HandState::legal_cards`], so a playout obeys every rule option. Only the
//! bookkeeping of a played card (trick, turn, points) is done here, without
//! the events and records the engine keeps for a real match.
//!
//! Two rollout policies ([`Rollout`]): every seat plays the heuristic
//! player's card from what that seat would know (the default: it measured
//! stronger), or a greedy player that sees every hand of the sample: it cashes
//! cards no opponent can beat, wins a trick as cheaply as will hold, loads
//! points on a partner's trick that will hold, and otherwise throws its
//! cheapest card.

use crate::rules::hand::Stage;
use crate::rules::legal::beating;
use crate::rules::view::GameView;
use crate::rules::{Card, CardSet, HandState, Rules, Seat, Suit, Table, Trump};

use super::heuristic::choose_card;
use super::knowledge::Knowledge;

/// The hand of `view` in play, with `deal` as everyone's cards.
pub fn state_from_view(view: &GameView, k: &Knowledge, deal: [CardSet; 4]) -> HandState {
    let mut h = HandState::new(view.hand_number, view.dealer, deal);
    h.stage = Stage::Playing;
    h.trump = view.trump;
    h.declarer = view.declarer;
    h.doubles = view.calls.len().min(3) as u8;
    h.turn = view.turn.unwrap_or(k.seat);
    h.trick = k.trick;
    for (p, &v) in h.points.iter_mut().zip(&view.points_taken) {
        *p = v;
    }
    for (p, &v) in h.tricks_won.iter_mut().zip(&view.tricks_won) {
        *p = v;
    }
    h
}

/// Plays `card` for the seat to play (it must be legal); returns whether the
/// hand is over.
#[inline]
pub fn step(h: &mut HandState, table: Table, card: Card) -> bool {
    let takes = h.trick.takes(card, h.trump.and_then(Trump::suit));
    if h.put(table, card, takes) {
        h.score_trick(table);
    }
    h.stage == Stage::Over
}

/// How the players of a playout choose their cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Every seat plays the heuristic player's card, from what that seat
    /// would know (its own cards and the public plays).
    Heuristic,
    /// Every seat plays the greedy card, seeing every hand of the sample
    /// (faster, weaker).
    Greedy,
}

/// Plays the hand to its end. `k` is the public knowledge of the position of
/// `h` (kept in step with it; its own seat and hand do not matter).
pub fn rollout(h: &mut HandState, k: &mut Knowledge, rules: &Rules, table: Table, policy: Rollout) {
    while h.stage == Stage::Playing {
        let legal = h.legal_cards(rules, table);
        let seat = h.turn;
        let card = match policy {
            _ if legal.len() == 1 => legal.lowest().unwrap_or_default(),
            Rollout::Greedy => greedy(h, table, legal),
            Rollout::Heuristic => choose_card(&k.for_seat(seat, h.hands[seat as usize]), legal),
        };
        if policy == Rollout::Heuristic {
            k.observe(seat, card);
        }
        step(h, table, card);
    }
}

/// The greedy perfect-information choice among `legal` for the seat to play.
pub fn greedy(h: &HandState, table: Table, legal: CardSet) -> Card {
    if legal.len() == 1 {
        return legal.lowest().unwrap_or_default();
    }
    let seat = h.turn;
    let trump = h.trump.and_then(Trump::suit);
    let Some((winner, w)) = h.trick.winning(table) else {
        return lead(h, table, trump, legal);
    };
    let led = h.trick.led().map_or(w.suit(), Card::suit);
    let later = table.seats - h.trick.len() as u8 - 1;
    if table.partners(seat, winner) {
        return if holds(h, table, seat, led, w, trump, later) {
            richest(legal, trump)
        } else {
            cheapest(legal, trump)
        };
    }
    let beaters = legal & beating(w, trump);
    if beaters.is_empty() {
        return cheapest(legal, trump);
    }
    let mut cands = beaters;
    while let Some(c) = cheapest_winner(cands, trump) {
        if holds(h, table, seat, led, c, trump, later) {
            return c;
        }
        cands.remove(c);
    }
    cheapest_winner(beaters, trump).unwrap_or_default()
}

/// The lead: a card no opponent can beat (the richest), else the lowest card
/// of the longest plain suit.
fn lead(h: &HandState, table: Table, trump: Option<Suit>, legal: CardSet) -> Card {
    let seat = h.turn;
    let mut safe = CardSet::EMPTY;
    for c in legal.iter() {
        if holds(h, table, seat, c.suit(), c, trump, table.seats - 1) {
            safe.insert(c);
        }
    }
    if !safe.is_empty() {
        return richest(safe, trump);
    }
    let pool = plain_first(legal, trump);
    let longest = Suit::ALL
        .into_iter()
        .max_by_key(|&s| pool.of_suit(s).len())
        .unwrap_or(Suit::Oros);
    pool.of_suit(longest).lowest().unwrap_or_default()
}

/// Whether `x`, played now by `seat` (or already winning for its side), will
/// still win the trick led in `led`: no opponent among the `later` seats to
/// play can beat it, following suit when they must.
#[inline]
fn holds(
    h: &HandState,
    table: Table,
    seat: Seat,
    led: Suit,
    x: Card,
    trump: Option<Suit>,
    later: u8,
) -> bool {
    let beat = beating(x, trump);
    (1..=later).all(|k| {
        let q = table.after(seat, k);
        if table.partners(seat, q) {
            return true;
        }
        let hand = h.hands[q as usize];
        let follow = hand.of_suit(led);
        let options = if follow.is_empty() { hand } else { follow };
        (options & beat).is_empty()
    })
}

/// The cards of `set` that are not trumps, or all of `set` when every card
/// is a trump.
#[inline]
pub fn plain_first(set: CardSet, trump: Option<Suit>) -> CardSet {
    let plain = trump.map_or(set, |t| set & !t.mask());
    if plain.is_empty() { set } else { plain }
}

/// The card worth the least to keep: plain before trump, fewest points, then
/// weakest.
#[inline]
pub fn cheapest(set: CardSet, trump: Option<Suit>) -> Card {
    let pool = plain_first(set, trump);
    let zero = pool & !pool.counting();
    let pool = if zero.is_empty() { pool } else { zero };
    pool.iter()
        .min_by_key(|c| (c.points(), c.strength()))
        .unwrap_or_default()
}

/// The card carrying the most points: plain before trump.
#[inline]
pub fn richest(set: CardSet, trump: Option<Suit>) -> Card {
    let pool = plain_first(set, trump);
    pool.iter()
        .max_by_key(|c| (c.points(), u8::MAX - c.strength()))
        .unwrap_or_default()
}

/// The weakest card of `set` that beats: a plain card before a trump.
#[inline]
pub fn cheapest_winner(set: CardSet, trump: Option<Suit>) -> Option<Card> {
    let pool = plain_first(set, trump);
    pool.iter().min_by_key(|c| c.strength())
}
