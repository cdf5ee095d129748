//! Fast playouts of the rest of a hand on a fully known (sampled) deal.
//!
//! The state is the engine's own [`HandState`], rebuilt from a seat's view
//! with [`HandState::in_play_from_view`]; the legal cards come from
//! [`HandState::legal_cards`], so a playout obeys every rule option, and
//! each card is played with [`HandState::play_known`], without the events
//! and records the engine keeps for a real match.
//!
//! Two rollout policies ([`Rollout`]): every seat plays the heuristic
//! player's card from what that seat would know (the default: it measured
//! stronger), or a greedy player that sees every hand of the sample: it cashes
//! cards no opponent can beat, wins a trick as cheaply as will hold, loads
//! points on a partner's trick that will hold, and otherwise throws its
//! cheapest card.

use crate::rules::legal::beating;
use crate::rules::scoring::over_threshold;
use crate::rules::{Card, CardSet, HandState, Rules, Seat, Suit, Table, Trump};

use super::cards::{cheapest, cheapest_winner, plain_first, richest};
use super::heuristic::choose_card;
use super::knowledge::Knowledge;

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
    while h.in_play() {
        play_one(h, k, rules, table, policy);
    }
}

/// Plays one card of the seat to play in `h` as `policy` chooses it (its
/// only legal card when it has one), keeping `k` in step when the policy
/// reads it.
pub fn play_one(
    h: &mut HandState,
    k: &mut Knowledge,
    rules: &Rules,
    table: Table,
    policy: Rollout,
) {
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
    h.play_known(table, card);
}

/// The share of its own raw hand points a seat's value adds to the record,
/// so that points below the threshold in abarrotada still break ties.
pub const TIE_BREAK: f64 = 0.05;

/// What a finished playout is worth to `seat`: the points its side
/// records less the average the other sides record, times the multiplier
/// (in the pairs game, `(points - 36) * multiplier`), plus a small share of
/// its raw hand points to break ties below the threshold in abarrotada.
pub fn value(rules: &Rules, seat: Seat, h: &HandState) -> f64 {
    let table = rules.variant.table();
    let me = table.side(seat) as usize;
    let rec = |p: u8| f64::from(over_threshold(rules, p));
    let sides = table.sides() as usize;
    let others: f64 = (0..sides)
        .filter(|&s| s != me)
        .map(|s| rec(h.points[s]))
        .sum();
    let diff = rec(h.points[me]) - others / (sides - 1) as f64;
    diff * f64::from(h.multiplier(rules)) + TIE_BREAK * f64::from(h.points[me])
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
