//! A rule-based player: sensible trump choice and doubles from hand
//! strength, and card play that takes points when it can win, feeds a
//! partner's winning trick, and otherwise plays low.

use rand::rngs::Xoshiro256PlusPlus;

use super::bidding::{choose_double, choose_trump};
use super::cards::{cheapest, cheapest_winner, plain_first, richest};
use super::knowledge::Knowledge;
use super::{Bot, playable};
use crate::rules::legal::beating;
use crate::rules::view::GameView;
use crate::rules::{Action, Card, CardSet, Phase, Seat, Suit, Trump};

/// The house's rule-based player (the default house bot).
pub struct HeuristicBot;

impl Bot for HeuristicBot {
    fn name(&self) -> &'static str {
        "heuristic"
    }

    fn choose(&self, view: &GameView, _rng: &mut Xoshiro256PlusPlus) -> Action {
        let legal = &view.legal_actions;
        if legal.len() == 1 {
            return legal[0];
        }
        let hand: CardSet = view.hand.iter().flatten().copied().collect();
        match view.phase {
            Phase::ChoosingTrump => choose_trump(hand, legal),
            Phase::Doubling => choose_double(hand, view.trump.unwrap_or(Trump::Botifarra), legal),
            Phase::Playing => {
                let cards = playable(legal);
                match cards.lowest() {
                    None => legal[0],
                    Some(_) => Action::Play {
                        card: choose_card(&Knowledge::from_view(view), cards),
                    },
                }
            }
            _ => legal[0],
        }
    }
}

/// The heuristic card among `legal` (not empty) for the seat of `k`.
pub fn choose_card(k: &Knowledge, legal: CardSet) -> Card {
    if legal.len() == 1 {
        return legal.lowest().unwrap_or_default();
    }
    let Some((winner, w)) = k.trick.winning(k.table) else {
        return lead(k, legal);
    };
    let led = k.trick.led().map_or(w.suit(), Card::suit);
    if k.is_partner(winner) {
        return if likely_holds(k, led, w) {
            load(k, legal)
        } else {
            discard(k, legal)
        };
    }
    let beaters = legal & beating(w, k.trump);
    if beaters.is_empty() {
        return discard(k, legal);
    }
    let mut cands = beaters;
    while let Some(c) = cheapest_winner(cands, k.trump) {
        if likely_holds(k, led, c) {
            return c;
        }
        cands.remove(c);
    }
    // Nothing is sure to hold: win as cheaply as possible for now.
    cheapest_winner(beaters, k.trump).unwrap_or_default()
}

/// Whether `x` (winning now, or about to be played by this seat) should
/// still win the trick: no opponent still to play may hold a card beating
/// it that they could play.
fn likely_holds(k: &Knowledge, led: Suit, x: Card) -> bool {
    let beat = beating(x, k.trump);
    k.still_to_play().filter(|&q| !k.is_partner(q)).all(|q| {
        let possible = k.possible(q);
        let void =
            k.forbidden[q as usize].of_suit(led) == led.mask() || possible.of_suit(led).is_empty();
        if void {
            // May trump (or overtrump).
            (possible & beat).is_empty()
        } else {
            // Must follow; a void we cannot rule out is a risk only when most
            // of the suit is gone.
            let higher = possible & beat & led.mask();
            let trump_risk = k
                .trump
                .is_some_and(|t| t != led && !(possible & beat & t.mask()).is_empty())
                && possible.of_suit(led).len() <= 2;
            higher.is_empty() && !trump_risk
        }
    })
}

/// On a partner's trick that will hold: the richest card that is not a
/// winner of its own (never a master manilla or ace, never a trump when a
/// plain card will do).
fn load(k: &Knowledge, legal: CardSet) -> Card {
    let pool = plain_first(legal, k.trump);
    let spare: CardSet = pool.iter().filter(|&c| !k.is_master(c)).collect();
    richest(if spare.is_empty() { pool } else { spare }, k.trump)
}

/// A card given away: the cheapest, keeping masters and trumps.
fn discard(k: &Knowledge, legal: CardSet) -> Card {
    let spare: CardSet = legal
        .iter()
        .filter(|&c| !k.is_master(c) || c.points() == 0)
        .collect();
    let pool = if spare.is_empty() { legal } else { spare };
    cheapest(pool, k.trump)
}

/// The lead: cash a plain master nobody is known to trump; draw trumps with
/// the master trump when long in them; lead low into a suit the partner can
/// trump; else the lowest card of the longest plain suit.
fn lead(k: &Knowledge, legal: CardSet) -> Card {
    let opponents = || (0..k.table.seats).filter(|&s| s != k.seat && !k.is_partner(s));
    let trump_mask = k.trump.map_or(CardSet::EMPTY, Suit::mask);
    let may_trump = |q: Seat, s: Suit| {
        let possible = k.possible(q);
        let void = possible.of_suit(s).is_empty();
        let short = k.unseen.of_suit(s).len() <= 2;
        (void || short) && !(possible & trump_mask).is_empty()
    };
    let cash: CardSet = legal
        .iter()
        .filter(|&c| {
            Some(c.suit()) != k.trump
                && k.is_master(c)
                && opponents().all(|q| !may_trump(q, c.suit()))
        })
        .collect();
    if !cash.is_empty() {
        return cash
            .iter()
            .max_by_key(|c| (c.points(), c.strength()))
            .unwrap_or_default();
    }
    let trumps = legal & trump_mask;
    let opp_trumps = opponents().any(|q| !(k.possible(q) & trump_mask).is_empty());
    if let Some(top) = trumps.iter().last()
        && trumps.len() >= 3
        && k.is_master(top)
        && opp_trumps
    {
        return top;
    }
    let pool = plain_first(legal, k.trump);
    if let Some(partner) = k.table.partner(k.seat) {
        let partner_possible = k.possible(partner);
        let ruff = Suit::ALL.into_iter().find(|&s| {
            !pool.of_suit(s).is_empty()
                && k.voids[partner as usize].of_suit(s) == s.mask()
                && !(partner_possible & trump_mask).is_empty()
        });
        if let Some(s) = ruff {
            return cheapest(pool.of_suit(s), k.trump);
        }
    }
    // Lead low from the longest suit, preferring suits without a lone
    // counting card to protect.
    let suit = Suit::ALL
        .into_iter()
        .filter(|&s| !pool.of_suit(s).is_empty())
        .max_by_key(|&s| {
            let cards = pool.of_suit(s);
            let exposed = cards.counting().iter().filter(|&c| !k.is_master(c)).count() as u32;
            (cards.len() * 2).saturating_sub(exposed)
        })
        .unwrap_or(Suit::Oros);
    cheapest(pool.of_suit(suit), k.trump)
}
