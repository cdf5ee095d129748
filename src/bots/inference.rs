//! What the bidding says about the hidden hands.
//!
//! A seat that named a suit is likely long and strong in it; a seat that
//! handed the choice on is likely weak; a defender who said contro is
//! likely strong against the trump, and one who passed likely is not. The
//! sampler ([`super::sample`]) deals the unseen cards uniformly among the
//! hands allowed by the play; [`Bidding::weight`] then says how likely a
//! sampled deal made the other seats speak as they did, so that a search can
//! weigh each sampled deal by it (importance weighting).
//!
//! The model of a speaker is a soft version of the heuristic player's rules
//! ([`super::bidding`]): the trump-phase choice is a softmax over each
//! option's strength (handing on scoring the threshold below which the
//! heuristic hands on), and a double is said with a logistic probability of
//! the hand's strength above the heuristic's threshold. Both use the hand
//! the seat held when it spoke: what it holds now and what it has played
//! since. Only public information goes in: the bidding and the cards played
//! come from the view, so the weights never depend on a hidden card other
//! than the sampled one.

use super::bidding::{
    BOTIFARRA_FROM, CONTRO_FROM, DELEGATE_BELOW, RECONTRO_FROM, SANT_VICENC_FROM,
    declare_strength, defend_strength,
};
use crate::rules::contract::{Call, Trump, TrumpChoice};
use crate::rules::view::GameView;
use crate::rules::{Action, CardSet, Match, Phase, Seat};

/// The scale, in strength units (about one trick each), of the speakers'
/// uncertainty: a strength one unit better than another option makes it
/// `e^(1/TEMPERATURE)` times likelier.
pub const TEMPERATURE: f64 = 1.5;

/// One spoken action of another seat.
#[derive(Clone, Debug)]
struct Spoken {
    seat: Seat,
    /// The actions it could take then.
    legal: Vec<Action>,
    /// What it did.
    taken: Action,
    /// The trump in force (doubles only).
    trump: Trump,
}

/// The other seats' bidding in the hand of a view, ready to weigh deals.
#[derive(Clone, Debug, Default)]
pub struct Bidding {
    spoken: Vec<Spoken>,
    /// Per seat, the cards it has played in this hand (it held them when it
    /// spoke).
    played: [CardSet; 4],
}

impl Bidding {
    /// The bidding of `view`'s hand as the viewer saw it (nothing when the
    /// view has no seat or no hand in progress).
    pub fn from_view(view: &GameView) -> Bidding {
        let mut out = Bidding::default();
        let Some(me) = view.you else {
            return out;
        };
        let own: CardSet = view.hand.iter().flatten().copied().collect();
        let _ = replay(view, own, |m, seat, taken| {
            if seat == me {
                return;
            }
            let trump = m
                .hand
                .as_ref()
                .and_then(|h| h.trump)
                .unwrap_or(Trump::Botifarra);
            out.spoken.push(Spoken {
                seat,
                legal: m.legal_actions(seat),
                taken,
                trump,
            });
        });
        for t in view.tricks.iter().chain(view.trick.as_ref()) {
            for pc in &t.cards {
                if let Some(p) = out.played.get_mut(pc.seat as usize) {
                    p.insert(pc.card);
                }
            }
        }
        out
    }

    /// Whether there is anything to weigh.
    pub fn is_empty(&self) -> bool {
        self.spoken.is_empty()
    }

    /// How likely the deal (each seat's current cards) made the other seats
    /// speak as they did, up to a constant factor (at most 1).
    pub fn weight(&self, deal: &[CardSet; 4]) -> f64 {
        self.spoken
            .iter()
            .map(|s| {
                let hand = deal[s.seat as usize] | self.played[s.seat as usize];
                likelihood(s, hand)
            })
            .product()
    }
}

/// The model's probability that a seat holding `hand` took `s.taken`.
fn likelihood(s: &Spoken, hand: CardSet) -> f64 {
    match s.taken {
        Action::Trump { .. } => {
            let score = |a: &Action| match a {
                Action::Trump {
                    choice: TrumpChoice::Declare(Trump::Botifarra),
                } => {
                    // The heuristic names botifarra over a suit up to one
                    // unit weaker, and never below its threshold.
                    let v = declare_strength(hand, Trump::Botifarra);
                    if v >= BOTIFARRA_FROM { v + 1.0 } else { v - 1.0 }
                }
                Action::Trump {
                    choice: TrumpChoice::Declare(t),
                } => declare_strength(hand, *t),
                Action::Trump {
                    choice: TrumpChoice::Delegate,
                } => DELEGATE_BELOW,
                // Never tried by the house bots: as unlikely as a weak pass.
                _ => DELEGATE_BELOW - 2.0,
            };
            let top = s.legal.iter().map(score).fold(f64::MIN, f64::max);
            let total: f64 = s
                .legal
                .iter()
                .map(|a| ((score(a) - top) / TEMPERATURE).exp())
                .sum();
            ((score(&s.taken) - top) / TEMPERATURE).exp() / total
        }
        Action::Double { call } => {
            let Some(offered) = s.legal.iter().find_map(|a| match a {
                Action::Double { call } if *call != Call::Pass => Some(*call),
                _ => None,
            }) else {
                return 1.0;
            };
            let (strength, threshold) = match offered {
                Call::Recontro => (declare_strength(hand, s.trump), RECONTRO_FROM),
                Call::Contro => (defend_strength(hand, s.trump), CONTRO_FROM),
                _ => (defend_strength(hand, s.trump), SANT_VICENC_FROM),
            };
            let p = 1.0 / (1.0 + ((threshold - strength) / TEMPERATURE).exp());
            if call == Call::Pass { 1.0 - p } else { p }
        }
        _ => 1.0,
    }
}

/// Replays the bidding of `view`'s hand on a scratch match (the viewer
/// holding `own`, the other seats nothing), calling `spoke` with the match
/// before each action, who took it and the action. Passes are not listed in
/// the view and are put back in order. It stops at the view's own turn in
/// the bidding, or when the bidding is over; `None` when the hand cannot be
/// rebuilt.
pub(super) fn replay(
    view: &GameView,
    own: CardSet,
    mut spoke: impl FnMut(&Match, Seat, Action),
) -> Option<Match> {
    let me = view.you?;
    let mut dealt = [CardSet::EMPTY; 4];
    dealt[me as usize] = own;
    let mut m = Match::from_deal(view.rules.clone(), view.hand_number, view.dealer, dealt).ok()?;
    let mut events = Vec::new();
    let bidding_now = matches!(view.phase, Phase::ChoosingTrump | Phase::Doubling);
    for c in &view.choices {
        let a = Action::Trump { choice: c.choice };
        spoke(&m, c.seat, a);
        m.apply(c.seat, a, &mut events).ok()?;
    }
    // An Estevet's contro is listed first among the doubles but is part of
    // the delegation.
    let estevet = view
        .choices
        .iter()
        .any(|c| c.choice == TrumpChoice::Estevet);
    let mut calls = view.calls.iter().skip(usize::from(estevet)).peekable();
    while m.phase() == Phase::Doubling {
        let turn = m.turn()?;
        let next = calls.peek().map(|c| (c.seat, c.call));
        let call = match next {
            Some((seat, call)) if seat == turn => {
                calls.next();
                call
            }
            None if turn == me && bidding_now => break,
            _ => Call::Pass,
        };
        let a = Action::Double { call };
        spoke(&m, turn, a);
        m.apply(turn, a, &mut events).ok()?;
    }
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Card, Suit};

    fn hand(cards: &[(Suit, u8)]) -> CardSet {
        cards.iter().map(|&(s, r)| Card::new(s, r)).collect()
    }

    #[test]
    fn a_long_strong_suit_makes_naming_it_likelier() {
        let legal: Vec<Action> = [Suit::Oros, Suit::Copes, Suit::Espases, Suit::Bastos]
            .into_iter()
            .map(|s| Action::Trump {
                choice: TrumpChoice::Declare(Trump::Suit(s)),
            })
            .chain([Action::Trump {
                choice: TrumpChoice::Delegate,
            }])
            .collect();
        let spoken = Spoken {
            seat: 1,
            legal,
            taken: Action::Trump {
                choice: TrumpChoice::Declare(Trump::Suit(Suit::Oros)),
            },
            trump: Trump::Botifarra,
        };
        let long_oros = hand(&[
            (Suit::Oros, 11),
            (Suit::Oros, 10),
            (Suit::Oros, 9),
            (Suit::Oros, 8),
            (Suit::Oros, 7),
            (Suit::Copes, 0),
        ]);
        let long_copes = hand(&[
            (Suit::Copes, 11),
            (Suit::Copes, 10),
            (Suit::Copes, 9),
            (Suit::Copes, 8),
            (Suit::Copes, 7),
            (Suit::Oros, 0),
        ]);
        let a = likelihood(&spoken, long_oros);
        let b = likelihood(&spoken, long_copes);
        assert!(a > 0.5 && b < 0.05 && a > 20.0 * b, "{a} {b}");
    }

    #[test]
    fn a_contro_is_likelier_from_a_strong_defender_and_a_pass_from_a_weak_one() {
        let legal = vec![
            Action::Double { call: Call::Pass },
            Action::Double { call: Call::Contro },
        ];
        let trump = Trump::Suit(Suit::Copes);
        let strong = hand(&[
            (Suit::Copes, 11),
            (Suit::Copes, 10),
            (Suit::Copes, 9),
            (Suit::Oros, 11),
            (Suit::Oros, 10),
            (Suit::Espases, 11),
            (Suit::Espases, 10),
            (Suit::Bastos, 11),
        ]);
        let weak = hand(&[(Suit::Oros, 0), (Suit::Oros, 1), (Suit::Espases, 2)]);
        let said = |taken| Spoken {
            seat: 2,
            legal: legal.clone(),
            taken,
            trump,
        };
        let contro = said(Action::Double { call: Call::Contro });
        let pass = said(Action::Double { call: Call::Pass });
        assert!(likelihood(&contro, strong) > 0.5);
        assert!(likelihood(&contro, weak) < 0.05);
        assert!(likelihood(&pass, weak) > 0.95);
        let sum = likelihood(&contro, strong) + likelihood(&pass, strong);
        assert!((sum - 1.0).abs() < 1e-12);
    }
}
