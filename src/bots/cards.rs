//! What a card is worth to keep or to give: the choices shared by the
//! heuristic player and the greedy playouts.

use crate::rules::{Card, CardSet, Suit};

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
