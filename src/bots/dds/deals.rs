//! Seeded positions for the solver's command, benchmark and tests: a whole
//! deal in play under a drawn trump, or an endgame reached from it by
//! random legal cards.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::rules::hand::Stage;
use crate::rules::random::{below, random_card};
use crate::rules::trick::Trick;
use crate::rules::{Card, CardSet, HandState, Rules, Suit, Trump};

/// The hand dealt by `seed` under `rules`, in play before its first card:
/// every seat holds twelve cards, the trump is one of the four suits or
/// botifarra (drawn from the seed), and the seat after the dealer (seat 0
/// deals) leads.
pub fn seeded_deal(rules: &Rules, seed: u64) -> HandState {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let table = rules.variant.table();
    let mut deck: Vec<Card> = rules.variant.deck().iter().collect();
    for i in (1..deck.len()).rev() {
        deck.swap(i, below(&mut rng, i as u32 + 1) as usize);
    }
    let mut hands = [CardSet::EMPTY; 4];
    for (i, c) in deck.into_iter().enumerate() {
        hands[i % table.seats as usize].insert(c);
    }
    let mut h = HandState::new(1, 0, hands);
    h.stage = Stage::Playing;
    let t = below(&mut rng, 5) as u8;
    h.trump = Some(if t == 4 {
        Trump::Botifarra
    } else {
        Trump::Suit(Suit::from_index(t))
    });
    h.turn = table.next(0);
    h.trick = Trick::led_by(h.turn);
    h
}

/// The deal of `seed` played on by random legal cards until `tricks` tricks
/// are left (the one in progress included) and `on_table` cards (below the
/// seat count) are on the current trick.
pub fn seeded_endgame(rules: &Rules, seed: u64, tricks: u32, on_table: usize) -> HandState {
    let mut h = seeded_deal(rules, seed);
    let table = rules.variant.table();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x0005_EED0_FE1D);
    let to_play = (12 - tricks.min(12)) as usize * table.seats as usize + on_table;
    for _ in 0..to_play {
        let legal = h.legal_cards(rules, table);
        let Some(c) = random_card(legal, &mut rng) else {
            break;
        };
        h.play_known(table, c);
    }
    h
}
