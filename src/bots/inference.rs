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
//! The model of a speaker ([`Model`]) works on the heuristic player's hand
//! strengths ([`super::bidding`]): the trump-phase choice is a softmax over
//! each option's strength (handing on scores a fixed level, botifarra its
//! strength plus an offset), and a double is said with a logistic
//! probability of the hand's strength above a threshold. Both use the hand
//! the seat held when it spoke: what it holds now and what it has played
//! since. The parameters of each variant ([`Model::for_variant`]) were
//! fitted by maximum likelihood to the bidding of the Monte Carlo player
//! (`botifarra calibrate`, [`super::calibrate::fit`]); they are committed
//! here. Only public information goes in: the bidding and the cards played
//! come from the view, so the weights never depend on a hidden card other
//! than the sampled one.

use rand::RngExt;

use super::bidding::{declare_strength, defend_strength};
use crate::rules::contract::{Call, Trump, TrumpChoice};
use crate::rules::view::GameView;
use crate::rules::{Action, CardSet, Match, Phase, Seat, Variant};

/// How a seat bids, as probabilities of its hand's strengths (strength
/// units are about one trick each).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Softmax temperature of the trump-phase choice: an option one unit
    /// stronger is `e^(1/trump_temperature)` times likelier.
    pub trump_temperature: f64,
    /// The strength handing the choice on stands for.
    pub delegate: f64,
    /// Added to the botifarra strength.
    pub botifarra: f64,
    /// The strength (defence against the trump) at which contro is said
    /// half the time.
    pub contro: f64,
    /// The same for recontro (the declaring side's strength).
    pub recontro: f64,
    /// The same for Sant Vicenç (defence).
    pub sant_vicenc: f64,
    /// Logistic scale of the doubles.
    pub double_temperature: f64,
}

impl Model {
    /// The heuristic player's thresholds, softened: the starting point of
    /// the fit.
    pub const HEURISTIC: Model = Model {
        trump_temperature: 1.5,
        delegate: super::bidding::DELEGATE_BELOW,
        botifarra: 1.0,
        contro: super::bidding::CONTRO_FROM,
        recontro: super::bidding::RECONTRO_FROM,
        sant_vicenc: super::bidding::SANT_VICENC_FROM,
        double_temperature: 1.5,
    };

    /// The fitted model of `variant` (see the module's documentation).
    pub fn for_variant(variant: Variant) -> Model {
        match variant {
            Variant::Pairs => FITTED[0],
            Variant::Abarrotada => FITTED[1],
            Variant::Abarrotada3 => FITTED[2],
        }
    }

    /// An action drawn from the model for a seat holding `hand` that may
    /// say one of `legal` (not empty) with `trump` in force.
    pub fn draw<R: rand::Rng + ?Sized>(
        &self,
        seat: Seat,
        hand: CardSet,
        legal: &[Action],
        trump: Trump,
        rng: &mut R,
    ) -> Action {
        let mut spoken = Spoken {
            seat,
            legal: legal.to_vec(),
            taken: legal[0],
            trump,
        };
        let mut r: f64 = rng.random();
        for &a in legal {
            spoken.taken = a;
            r -= self.likelihood(&spoken, hand);
            if r < 0.0 {
                return a;
            }
        }
        legal[legal.len() - 1]
    }

    /// The probability that a seat holding `hand` took `s.taken`.
    pub fn likelihood(&self, s: &Spoken, hand: CardSet) -> f64 {
        match s.taken {
            Action::Trump { .. } => {
                let score = |a: &Action| match a {
                    Action::Trump {
                        choice: TrumpChoice::Declare(Trump::Botifarra),
                    } => declare_strength(hand, Trump::Botifarra) + self.botifarra,
                    Action::Trump {
                        choice: TrumpChoice::Declare(t),
                    } => declare_strength(hand, *t),
                    Action::Trump {
                        choice: TrumpChoice::Delegate,
                    } => self.delegate,
                    // Never said by the house bots: as unlikely as a weak
                    // hand-on.
                    _ => self.delegate - 3.0,
                };
                let top = s.legal.iter().map(score).fold(f64::MIN, f64::max);
                let t = self.trump_temperature;
                let total: f64 = s.legal.iter().map(|a| ((score(a) - top) / t).exp()).sum();
                ((score(&s.taken) - top) / t).exp() / total
            }
            Action::Double { call } => {
                let Some(offered) = s.legal.iter().find_map(|a| match a {
                    Action::Double { call } if *call != Call::Pass => Some(*call),
                    _ => None,
                }) else {
                    return 1.0;
                };
                let (strength, threshold) = match offered {
                    Call::Recontro => (declare_strength(hand, s.trump), self.recontro),
                    Call::Contro => (defend_strength(hand, s.trump), self.contro),
                    _ => (defend_strength(hand, s.trump), self.sant_vicenc),
                };
                let p = 1.0 / (1.0 + ((threshold - strength) / self.double_temperature).exp());
                if call == Call::Pass { 1.0 - p } else { p }
            }
            _ => 1.0,
        }
    }
}

/// The models of `pairs`, `abarrotada` and `abarrotada3`, fitted to the
/// Monte Carlo player's bidding over 2,000 hands of each variant:
/// `botifarra calibrate --variant <variant> --hands 2000 --seed 1`.
const FITTED: [Model; 3] = [
    Model {
        trump_temperature: 1.05,
        delegate: 9.75,
        botifarra: 4.7,
        contro: 6.15,
        recontro: 5.65,
        sant_vicenc: 5.45,
        double_temperature: 1.2,
    },
    Model {
        trump_temperature: 0.7,
        delegate: 3.05,
        botifarra: 3.65,
        contro: 7.2,
        recontro: 6.65,
        sant_vicenc: 0.35,
        double_temperature: 1.1,
    },
    Model {
        trump_temperature: 0.75,
        delegate: 4.4,
        botifarra: 3.25,
        contro: 8.8,
        recontro: 7.3,
        sant_vicenc: 2.5,
        double_temperature: 1.2,
    },
];

/// One spoken action of a seat, with what it could say and the trump then.
#[derive(Clone, Debug)]
pub struct Spoken {
    /// Who spoke.
    pub seat: Seat,
    /// The actions it could take then.
    pub legal: Vec<Action>,
    /// What it did.
    pub taken: Action,
    /// The trump in force (doubles only).
    pub trump: Trump,
}

/// The other seats' bidding in the hand of a view, ready to weigh deals.
#[derive(Clone, Debug)]
pub struct Bidding {
    model: Model,
    spoken: Vec<Spoken>,
    /// Per seat, the cards it has played in this hand (it held them when it
    /// spoke).
    played: [CardSet; 4],
}

impl Bidding {
    /// The bidding of `view`'s hand as the viewer saw it (nothing when the
    /// view has no seat or no hand in progress).
    pub fn from_view(view: &GameView) -> Bidding {
        let mut out = Bidding::none();
        out.model = Model::for_variant(view.rules.variant);
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

    /// Nothing to weigh: every deal counts alike.
    pub fn none() -> Bidding {
        Bidding {
            model: Model::HEURISTIC,
            spoken: Vec::new(),
            played: [CardSet::EMPTY; 4],
        }
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
                self.model.likelihood(s, hand)
            })
            .product()
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
        // Five top cards of `long` and the lowest of `short`.
        let long_in = |long: Suit, short: Suit| {
            let mut cards: Vec<(Suit, u8)> = (7..=11).map(|r| (long, r)).collect();
            cards.push((short, 0));
            hand(&cards)
        };
        let long_oros = long_in(Suit::Oros, Suit::Copes);
        let long_copes = long_in(Suit::Copes, Suit::Oros);
        let a = Model::HEURISTIC.likelihood(&spoken, long_oros);
        let b = Model::HEURISTIC.likelihood(&spoken, long_copes);
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
        assert!(Model::HEURISTIC.likelihood(&contro, strong) > 0.5);
        assert!(Model::HEURISTIC.likelihood(&contro, weak) < 0.05);
        assert!(Model::HEURISTIC.likelihood(&pass, weak) > 0.95);
        let sum = Model::HEURISTIC.likelihood(&contro, strong)
            + Model::HEURISTIC.likelihood(&pass, strong);
        assert!((sum - 1.0).abs() < 1e-12);
    }
}
