//! The Monte Carlo player's trump choice and doubles.
//!
//! The hand so far is rebuilt from the view on a scratch [`Match`] (own
//! cards only, then each sampled deal): the trump-phase actions in
//! `view.choices` and the doubles in `view.calls` are replayed through the
//! engine, so every rule of delegation, Estevet and doubling rounds applies.
//! Each candidate action is then tried on every sampled deal: the other
//! seats finish the bidding with the heuristic player's rules (or, for an
//! inferring player, with actions drawn from the fitted bidding model of
//! [`crate::bots::inference`], which also weighs each deal by how likely it made
//! the bidding seen so far), the hand is played out with the bot's
//! playouts, and the candidate is worth what the seat's side records
//! (multiplier included). An Estevet is never tried.

use std::time::{Duration, Instant};

use rand::rngs::Xoshiro256PlusPlus;

use super::{Answers, MonteCarloBot};
use crate::bots::bidding::{choose_double, choose_trump};
use crate::bots::inference::{Bidding, Model, replay};
use crate::bots::knowledge::Knowledge;
use crate::bots::playout::{Rollout, TIE_BREAK, rollout, value};
use crate::bots::sample::Sampler;
use crate::rules::contract::TrumpChoice;
use crate::rules::view::GameView;
use crate::rules::{Action, CardSet, Match, Phase, Trump};

/// The best bidding action for `view` (phase `choosing_trump` or
/// `doubling`) within `bot`'s playouts and milliseconds, played out with its
/// rollout (each deal weighed by the bidding so far when it infers): the
/// highest of [`value_bids`]' values, ties broken by the seat's side's
/// expected hand points; `None` when the position cannot be rebuilt.
pub fn choose_bid(
    view: &GameView,
    bot: &MonteCarloBot,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Action> {
    let candidates = candidates(view);
    if candidates.len() < 2 {
        rebuild(view, Knowledge::from_view(view).hand)?;
        return candidates.first().copied();
    }
    let trial = trial(view, bot, candidates, rng)?;
    let best = trial.sums.iter().copied().fold(f64::MIN, f64::max);
    trial
        .candidates
        .iter()
        .zip(&trial.sums)
        .find(|(_, s)| **s >= best)
        .map(|(a, _)| *a)
}

/// Every bidding action of `view` the search tries (every legal one but
/// an Estevet), each with its estimated value: the mean over the sampled
/// deals (weighed as [`choose_bid`] weighs them) of what the seat's side
/// records less the mean the other sides record, times the hand's
/// multiplier, per hand ([`value`] without its tie-break share of hand
/// points); and the deals sampled. `None` when the position cannot be
/// rebuilt or nothing is tried.
pub fn value_bids(
    view: &GameView,
    bot: &MonteCarloBot,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<(Vec<(Action, f64)>, u32)> {
    let candidates = candidates(view);
    if candidates.is_empty() {
        return None;
    }
    let t = trial(view, bot, candidates, rng)?;
    let weight = if t.weight > 0.0 { t.weight } else { 1.0 };
    let values = t
        .candidates
        .iter()
        .zip(t.sums.iter().zip(&t.points))
        .map(|(&a, (s, p))| (a, (s - TIE_BREAK * p) / weight))
        .collect();
    Some((values, t.deals))
}

/// The actions the search tries: every legal one but an Estevet.
pub(super) fn candidates(view: &GameView) -> Vec<Action> {
    view.legal_actions
        .iter()
        .filter(|a| {
            !matches!(
                a,
                Action::Trump {
                    choice: TrumpChoice::Estevet
                }
            )
        })
        .copied()
        .collect()
}

/// What the sampled deals gave each candidate.
struct Trial {
    candidates: Vec<Action>,
    /// Per candidate: the weighed sum of its playouts' [`value`]s.
    sums: Vec<f64>,
    /// Per candidate: the weighed sum of the seat's side's hand points.
    points: Vec<f64>,
    /// The deals' weights summed.
    weight: f64,
    /// The deals sampled.
    deals: u32,
}

/// What a search of the bidding needs of the view, made once a decision:
/// the seat's knowledge, the scratch match at its position, the sampler
/// of the hidden cards, the bidding's weights, and how the other seats
/// finish the bidding.
pub(super) struct Setup {
    pub(super) k: Knowledge,
    base: Match,
    sampler: Sampler,
    bidding: Bidding,
    /// An inferring player expects the others to bid as this model says.
    model: Option<Model>,
    /// Their doubles too, not only their trump choices.
    doubles_by_model: bool,
}

impl Setup {
    /// `None` when the position cannot be rebuilt.
    pub(super) fn new(view: &GameView, bot: &MonteCarloBot) -> Option<Setup> {
        let k = Knowledge::from_view(view);
        let base = rebuild(view, k.hand)?;
        let sampler = Sampler::new(&k);
        Some(Setup {
            base,
            sampler,
            bidding: bot.bidding(view),
            model: bot.infer.then(|| Model::for_variant(view.rules.variant)),
            doubles_by_model: bot.answers == Answers::Fitted,
            k,
        })
    }

    /// How the others finish the bidding, for [`finish_bidding`].
    pub(super) fn answers(&self) -> (Option<&Model>, bool) {
        (self.model.as_ref(), self.doubles_by_model)
    }

    /// The scratch match with a sampled deal of the hidden cards, and the
    /// deal's weight (at most 1).
    pub(super) fn deal(&self, rng: &mut Xoshiro256PlusPlus) -> (Match, f64) {
        let deal = self.sampler.sample(rng);
        let w = self.bidding.weight(&deal);
        let mut m = self.base.clone();
        m.set_cards(deal);
        (m, w)
    }
}

/// Tries each of `candidates` on the same sampled deals, within `bot`'s
/// playouts and milliseconds.
fn trial(
    view: &GameView,
    bot: &MonteCarloBot,
    candidates: Vec<Action>,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Trial> {
    let (playouts, policy) = (bot.playouts, bot.rollout);
    let start = Instant::now();
    let limit = Duration::from_millis(bot.max_ms);
    let setup = Setup::new(view, bot)?;
    let n = candidates.len();
    let mut t = Trial {
        candidates,
        sums: vec![0.0; n],
        points: vec![0.0; n],
        weight: 0.0,
        deals: 0,
    };
    let per_deal = n as u32;
    let mut done = 0u32;
    while done + per_deal <= playouts.max(per_deal) {
        let (m, w) = setup.deal(rng);
        for (i, &a) in t.candidates.iter().enumerate() {
            let mut trial = m.clone();
            let (v, p) = play_out(&mut trial, setup.k.seat, a, policy, setup.answers(), rng)?;
            t.sums[i] += w * v;
            t.points[i] += w * p;
        }
        t.weight += w;
        t.deals += 1;
        done += per_deal;
        if start.elapsed() >= limit {
            break;
        }
    }
    Some(t)
}

/// A scratch match at the view's position, the seat holding `own` and the
/// others nothing yet.
pub(super) fn rebuild(view: &GameView, own: CardSet) -> Option<Match> {
    let m = replay(view, own, |_, _, _| {})?;
    (m.phase() == view.phase && m.turn() == view.you).then_some(m)
}

/// Plays `action` for `me`, lets the others finish the bidding
/// ([`finish_bidding`]), plays the hand out, and returns what it is worth
/// to `me` ([`value`]) with the hand points `me`'s side took.
fn play_out(
    m: &mut Match,
    me: u8,
    action: Action,
    policy: Rollout,
    answers: (Option<&Model>, bool),
    rng: &mut Xoshiro256PlusPlus,
) -> Option<(f64, f64)> {
    finish_bidding(m, me, action, answers, rng)?;
    let rules = m.rules.clone();
    let table = m.table();
    let h = m.hand.as_mut()?;
    let mut public = Knowledge::at_start(&rules, h.trump.and_then(Trump::suit), h.turn);
    rollout(h, &mut public, &rules, table, policy);
    let side = usize::from(rules.variant.table().side(me));
    Some((value(&rules, me, h), f64::from(h.points[side])))
}

/// Plays `action` for `me` and lets the others finish the bidding: by the
/// `answers.0` model when given (its doubles too when `answers.1`), else
/// by the heuristic rules. `None` when an action is refused.
pub(super) fn finish_bidding(
    m: &mut Match,
    me: u8,
    action: Action,
    answers: (Option<&Model>, bool),
    rng: &mut Xoshiro256PlusPlus,
) -> Option<()> {
    let (model, doubles_by_model) = answers;
    let mut events = Vec::new();
    m.apply(me, action, &mut events).ok()?;
    while matches!(m.phase(), Phase::ChoosingTrump | Phase::Doubling) {
        let seat = m.turn()?;
        let legal = m.legal_actions(seat);
        let h = m.hand.as_ref()?;
        let hand = h.hands[seat as usize];
        let trump = h.trump.unwrap_or(Trump::Botifarra);
        let model = model.filter(|_| doubles_by_model || m.phase() == Phase::ChoosingTrump);
        let a = match (m.phase(), model) {
            (_, Some(model)) => model.draw(seat, hand, &legal, trump, rng),
            (Phase::ChoosingTrump, None) => choose_trump(hand, &legal),
            (_, None) => choose_double(hand, trump, &legal),
        };
        m.apply(seat, a, &mut events).ok()?;
        events.clear();
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::rules::random::step_random;
    use crate::rules::{Rules, Variant};

    #[test]
    fn every_bidding_position_of_random_matches_is_rebuilt_from_the_view() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut events = Vec::new();
        let mut rebuilt = 0;
        for (i, variant) in Variant::ALL.into_iter().enumerate() {
            for n in 0..40u8 {
                let rules = Rules {
                    variant,
                    max_hands: Some(3),
                    sant_vicenc_with_botifarra: n % 2 == 0,
                    ..Rules::default()
                };
                let mut m = Match::new(rules, [n + 50 * i as u8; 32]).unwrap();
                while let Some(seat) = m.turn() {
                    if matches!(m.phase(), Phase::ChoosingTrump | Phase::Doubling) {
                        let view = m.view(Some(seat));
                        let own = m.hand.as_ref().unwrap().hands[seat as usize];
                        let r = rebuild(&view, own).expect("position rebuilt");
                        assert_eq!(r.hand.as_ref().unwrap().turn, seat);
                        assert_eq!(r.multiplier(), m.multiplier());
                        rebuilt += 1;
                    }
                    step_random(&mut m, &mut rng, &mut events);
                    events.clear();
                }
            }
        }
        assert!(rebuilt > 500, "{rebuilt}");
    }

    #[test]
    fn value_bids_values_what_choose_bid_chooses_from_with_the_same_draws() {
        use rand::Rng;
        let bot = MonteCarloBot {
            playouts: 60,
            infer: true,
            ..MonteCarloBot::DEFAULT
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let (mut events, mut valued) = (Vec::new(), 0);
        for variant in Variant::ALL {
            let rules = Rules {
                variant,
                max_hands: Some(2),
                ..Rules::default()
            };
            let mut m = Match::new(rules, [variant as u8 + 3; 32]).unwrap();
            while let Some(seat) = m.turn() {
                let view = m.view(Some(seat));
                let bidding = matches!(m.phase(), Phase::ChoosingTrump | Phase::Doubling);
                if bidding && candidates(&view).len() >= 2 {
                    let (mut a, mut b) = (rng.clone(), rng.clone());
                    let chosen = choose_bid(&view, &bot, &mut a).unwrap();
                    let (values, deals) = value_bids(&view, &bot, &mut b).unwrap();
                    assert_eq!(a.next_u64(), b.next_u64(), "the same draws");
                    let tried: Vec<Action> = values.iter().map(|v| v.0).collect();
                    assert_eq!(tried, candidates(&view));
                    assert_eq!(deals, 60 / tried.len() as u32);
                    let best = values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
                    let v = values.iter().find(|v| v.0 == chosen).unwrap().1;
                    // Only the tie-break share of hand points separates them.
                    assert!(v >= best - TIE_BREAK * 72.0, "{values:?} {chosen:?}");
                    valued += 1;
                }
                step_random(&mut m, &mut rng, &mut events);
                events.clear();
            }
        }
        assert!(valued >= 6, "{valued}");
    }
}
