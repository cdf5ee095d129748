//! Hand evaluation for the heuristic player's trump choice and doubles.
//!
//! Scores are rough "strength units" calibrated on the arena: about one unit
//! per trick a card or a trump length can be expected to take.

use crate::rules::contract::{Call, Trump, TrumpChoice};
use crate::rules::{Action, CardSet, Suit};

/// Strength of `hand` if `trump` were trump (declaring side's view).
pub fn declare_strength(hand: CardSet, trump: Trump) -> f64 {
    match trump {
        Trump::Suit(t) => suit_strength(hand, t),
        Trump::Botifarra => botifarra_strength(hand),
    }
}

/// Strength of a hand with `t` as trump: trump length and top trumps, plus
/// the plain manilles and aces that should take tricks, plus ruffing
/// chances from short plain suits when trumps are long.
fn suit_strength(hand: CardSet, t: Suit) -> f64 {
    let trumps = hand.of_suit(t);
    let n = trumps.len() as f64;
    let mut v = 1.2 * n + tops(trumps) * 1.0;
    for s in Suit::ALL.into_iter().filter(|&s| s != t) {
        let cards = hand.of_suit(s);
        v += plain_tops(cards);
        if trumps.len() >= 4 {
            v += match cards.len() {
                0 => 1.0,
                1 => 0.5,
                _ => 0.0,
            };
        }
    }
    v
}

/// Strength without trump: only the tops of each suit count, and a long suit
/// headed by the manilla keeps winning once the top cards are out.
fn botifarra_strength(hand: CardSet) -> f64 {
    let mut v = 0.0;
    for s in Suit::ALL {
        let cards = hand.of_suit(s);
        v += plain_tops(cards) * 1.3;
        if has(cards, 9) && cards.len() >= 4 {
            v += 0.4 * (cards.len() as f64 - 3.0);
        }
        if cards.is_empty() || (cards.len() == 1 && !has(cards, 9)) {
            v -= 1.0;
        }
    }
    v
}

/// Value of top cards in the trump suit.
fn tops(trumps: CardSet) -> f64 {
    let mut v = 0.0;
    if has(trumps, 9) {
        v += 2.0;
    }
    if has(trumps, 1) {
        v += 1.5;
    }
    if has(trumps, 12) {
        v += 0.7;
    }
    v
}

/// Value of the top cards of a plain suit: the manilla, an ace behind it, a
/// king behind both; a bare ace is a poor holding.
fn plain_tops(cards: CardSet) -> f64 {
    let nine = has(cards, 9);
    let ace = has(cards, 1);
    let king = has(cards, 12);
    let mut v = 0.0;
    if nine {
        v += 2.0;
    }
    if ace {
        v += if nine {
            1.5
        } else if cards.len() >= 3 {
            0.6
        } else {
            0.3
        };
    }
    if king && nine && ace {
        v += 0.8;
    }
    v
}

fn has(cards: CardSet, rank: u8) -> bool {
    cards.iter().any(|c| c.rank() == rank)
}

/// Defensive strength against `trump`, for contro and Sant Vicenç.
pub fn defend_strength(hand: CardSet, trump: Trump) -> f64 {
    match trump {
        Trump::Suit(t) => {
            let trumps = hand.of_suit(t);
            let mut v = 1.0 * trumps.len() as f64 + tops(trumps);
            for s in Suit::ALL.into_iter().filter(|&s| s != t) {
                v += plain_tops(hand.of_suit(s));
            }
            v
        }
        Trump::Botifarra => botifarra_strength(hand),
    }
}

/// Below this strength the best declaration is handed on when allowed.
pub const DELEGATE_BELOW: f64 = 9.0;
/// Botifarra is preferred to a suit when its strength reaches this.
pub const BOTIFARRA_FROM: f64 = 11.5;
/// A defender with this strength says contro.
pub const CONTRO_FROM: f64 = 11.0;
/// A declaring-side player with this strength says recontro.
pub const RECONTRO_FROM: f64 = 14.0;
/// A defender with this strength says Sant Vicenç.
pub const SANT_VICENC_FROM: f64 = 15.0;

/// The trump-phase choice: the strongest declaration, botifarra when the
/// hand has the tops for it, handed on (never an Estevet) when weak and
/// allowed. Always one of `legal`.
pub fn choose_trump(hand: CardSet, legal: &[Action]) -> Action {
    let mut best = (f64::MIN, Trump::Botifarra);
    for s in Suit::ALL {
        let v = suit_strength(hand, s);
        if v > best.0 {
            best = (v, Trump::Suit(s));
        }
    }
    let bot = botifarra_strength(hand);
    if bot >= BOTIFARRA_FROM && bot >= best.0 - 1.0 {
        best = (bot, Trump::Botifarra);
    }
    let delegate = Action::Trump {
        choice: TrumpChoice::Delegate,
    };
    if best.0 < DELEGATE_BELOW && legal.contains(&delegate) {
        return delegate;
    }
    let declare = Action::Trump {
        choice: TrumpChoice::Declare(best.1),
    };
    if legal.contains(&declare) {
        declare
    } else {
        legal[0]
    }
}

/// The doubling call: the double on offer when the hand reaches its
/// threshold, else pass. Recontro is said by the side that named trump and
/// weighs the hand as a declarer's; contro and Sant Vicenç by the other side.
pub fn choose_double(hand: CardSet, trump: Trump, legal: &[Action]) -> Action {
    let pass = Action::Double { call: Call::Pass };
    let Some(&double) = legal
        .iter()
        .find(|a| !matches!(a, Action::Double { call: Call::Pass }))
    else {
        return legal[0];
    };
    let threshold = match double {
        Action::Double { call: Call::Contro } => CONTRO_FROM,
        Action::Double {
            call: Call::Recontro,
        } => RECONTRO_FROM,
        _ => SANT_VICENC_FROM,
    };
    let declaring = double
        == Action::Double {
            call: Call::Recontro,
        };
    let strength = if declaring {
        declare_strength(hand, trump)
    } else {
        defend_strength(hand, trump)
    };
    if strength >= threshold {
        double
    } else if legal.contains(&pass) {
        pass
    } else {
        legal[0]
    }
}
