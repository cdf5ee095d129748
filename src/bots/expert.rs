//! The expert player: determinization with an end-of-hand search.
//!
//! For a card to play late in a hand it deals the unseen cards consistently
//! with what its seat has seen ([`super::sample`], with every inference of
//! [`super::knowledge`]), searches each sampled deal to the end of the hand
//! (the value of every legal card), and plays the card with the best total
//! over the samples (ties to the heuristic's preference). The deals are
//! shared by every card (common random numbers).
//!
//! Each variant has its [`Plan`]: the search, the budget and the Monte
//! Carlo player that bids and plays the earlier tricks. The house plans
//! (the measurements are in docs/arena.md):
//! - pairs: the exact two-sided solver ([`super::solver`]), each deal's
//!   points valued as the seat records them ([`worth`]); the Monte Carlo
//!   player infers ([`super::inference`]): every sampled deal, in its
//!   searches and in this loop, is weighed by how likely it made the other
//!   seats bid as they did, and its bid search expects them to bid as the
//!   fitted model says;
//! - abarrotada3: max-n ([`super::maxn`]: every seat plays for itself);
//! - abarrotada: the seat's best reply to heuristic opponents
//!   ([`super::reply`]);
//! - in both individual variants, no inference (it did not pay there), so
//!   the bids and the earlier tricks are the plain Monte Carlo player's.
//!
//! The loop is anytime and budgeted by counts, so that a fixed rng seed
//! gives the same decision on any machine: at most `samples` deals and
//! `nodes` search positions per decision; it stops early when one card
//! leads every other by more than the rest of the samples could change.
//! Early in a hand (more than the plan's `max_tricks` tricks left), or when
//! the first deal does not finish within `nodes / min_samples` positions
//! (too few deals would fit), the card is the Monte Carlo player's. A
//! wall-clock cap `max_ms` only matters on an overloaded machine.
//!
//! The trump choice and the doubles are the Monte Carlo player's search
//! (`montecarlo/bid_search.rs`): searching 12 tricks per deal for every
//! candidate does not fit the budget. `expert-v4` ([`ExpertBot::V4`])
//! values its doubles by sampling and one threshold search of the
//! whole-deal solver a deal instead ([`choose_double_solved`]); it
//! recorded less than v3 (docs/arena.md), so it is not the house expert.

use std::time::{Duration, Instant};

use rand::rngs::Xoshiro256PlusPlus;

use super::heuristic::choose_card;
use super::knowledge::Knowledge;
use super::maxn::MaxN;
use super::playout::TIE_BREAK;
use super::reply::Reply;
use super::sample::Sampler;
use super::solver::Solver;
use super::{Answers, Bot, MonteCarloBot, SolvedDoubles, choose_double_solved, playable};
use crate::rules::scoring::over_threshold;
use crate::rules::view::GameView;
use crate::rules::{Action, Card, CardSet, HandState, Phase, Rules, Variant};

/// How the expert searches the last tricks of one variant's sampled deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// The two-sided solver ([`super::solver`]): the seat's side against
    /// the others together, on card points.
    TwoSided,
    /// Max-n ([`super::maxn`]): every seat plays for itself, with every
    /// hand known.
    MaxN,
    /// The seat's best reply to heuristic opponents ([`super::reply`]):
    /// the others play the heuristic player's card from what each of them
    /// would know.
    Reply,
    /// The whole-hand solver ([`super::dds`]): the seat's side against the
    /// others together, on hand points, from any trick on.
    Whole,
}

/// The expert's plan for one variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// How the last tricks are searched.
    pub search: Search,
    /// Most sampled deals searched per card decision.
    pub samples: u32,
    /// Most search positions per card decision, over all its deals.
    pub nodes: u64,
    /// Most tricks left (the one in progress included) for the search;
    /// earlier the Monte Carlo player decides (0: it always does).
    pub max_tricks: u8,
    /// The Monte Carlo player: it bids and plays the early tricks, and its
    /// inference (when on) weighs the searched deals.
    pub monte_carlo: MonteCarloBot,
}

/// The expert player and its budget per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpertBot {
    /// The plan of the pairs game.
    pub pairs: Plan,
    /// The plan of `abarrotada`.
    pub abarrotada: Plan,
    /// The plan of `abarrotada3`.
    pub abarrotada3: Plan,
    /// Fewest deals worth searching: when the first deal takes more than
    /// `nodes / min_samples` positions, the Monte Carlo player decides.
    pub min_samples: u32,
    /// Wall-clock limit per decision, in milliseconds (a safety cap: the
    /// counts decide in normal running).
    pub max_ms: u64,
    /// In the pairs game, the doubles valued by sampling and solving
    /// ([`choose_double_solved`]) within this budget; `None`: by the pairs
    /// plan's Monte Carlo player, as the trump choice always is.
    pub doubles: Option<SolvedDoubles>,
}

/// What one card decision found.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The card chosen.
    pub card: Card,
    /// Deals searched (0 when the Monte Carlo player decided).
    pub samples: u32,
    /// Search positions visited.
    pub nodes: u64,
}

impl ExpertBot {
    /// The house budget (see `docs/arena.md` for its cost per decision and
    /// how each plan was chosen).
    pub const DEFAULT: ExpertBot = ExpertBot {
        pairs: Plan {
            search: Search::TwoSided,
            samples: 40,
            nodes: 500_000,
            max_tricks: 6,
            monte_carlo: MonteCarloBot {
                infer: true,
                ..MonteCarloBot::DEFAULT
            },
        },
        abarrotada: Plan {
            search: Search::Reply,
            samples: 400,
            nodes: 4_000_000,
            max_tricks: 6,
            monte_carlo: MonteCarloBot::DEFAULT,
        },
        abarrotada3: Plan {
            search: Search::MaxN,
            samples: 40,
            nodes: 500_000,
            max_tricks: 6,
            monte_carlo: MonteCarloBot::DEFAULT,
        },
        min_samples: 10,
        max_ms: 100,
        doubles: None,
    };
}

impl ExpertBot {
    /// `expert-v2`: the house budget, but in the pairs game each sampled
    /// deal is solved by the whole-hand solver ([`super::dds`]) from 7
    /// tricks left on (the Monte Carlo player decides before), at most 40
    /// deals and 4,000,000 positions a decision. The individual variants'
    /// plans are the house ones.
    pub const V2: ExpertBot = ExpertBot {
        pairs: Plan {
            search: Search::Whole,
            samples: 40,
            nodes: 4_000_000,
            max_tricks: 7,
            ..ExpertBot::DEFAULT.pairs
        },
        ..ExpertBot::DEFAULT
    };

    /// `expert-v3`: the house expert whose bid search expects the others
    /// to answer a double by the heuristic player's rules
    /// ([`Answers::HeuristicDoubles`]) rather than the fitted model, which
    /// has a declarer recontro almost always: it doubles whenever the
    /// doubled hand is worth more to it, weak opponents included. Only
    /// the pairs game changes (the individual variants' Monte Carlo player
    /// does not infer, so their doubles were already answered so).
    pub const V3: ExpertBot = ExpertBot {
        pairs: Plan {
            monte_carlo: MonteCarloBot {
                answers: Answers::HeuristicDoubles,
                ..ExpertBot::DEFAULT.pairs.monte_carlo
            },
            ..ExpertBot::DEFAULT.pairs
        },
        ..ExpertBot::DEFAULT
    };
}

/// The cards of the first trick `expert-v4` plays by playouts before
/// solving.
const PLAYED_V4: u8 = 4;

impl ExpertBot {
    /// `expert-v4`: `expert-v3` whose doubles in the pairs game are valued
    /// by sampling and solving ([`choose_double_solved`]): at most 64
    /// deals and 3,000,000 solver positions a double, 400 ms at most.
    pub const V4: ExpertBot = ExpertBot {
        doubles: Some(SolvedDoubles {
            deals: 64,
            nodes: 3_000_000,
            max_ms: 400,
            played: PLAYED_V4,
        }),
        ..ExpertBot::V3
    };
}

impl Default for ExpertBot {
    fn default() -> ExpertBot {
        ExpertBot::DEFAULT
    }
}

impl Bot for ExpertBot {
    fn name(&self) -> &'static str {
        "expert"
    }

    fn choose(&self, view: &GameView, rng: &mut Xoshiro256PlusPlus) -> Action {
        if view.phase == Phase::Doubling
            && let Some(budget) = self.doubles
            && let Some(d) = choose_double_solved(view, &self.pairs.monte_carlo, budget, rng)
        {
            return d.action;
        }
        let cards = playable(&view.legal_actions);
        if view.phase == Phase::Playing
            && cards.len() >= 2
            && let Some(d) = self.decide(view, cards, rng)
        {
            return Action::Play { card: d.card };
        }
        self.plan(view.rules.variant).monte_carlo.choose(view, rng)
    }
}

impl ExpertBot {
    /// The plan of `variant`.
    pub fn plan(&self, variant: Variant) -> &Plan {
        match variant {
            Variant::Pairs => &self.pairs,
            Variant::Abarrotada => &self.abarrotada,
            Variant::Abarrotada3 => &self.abarrotada3,
        }
    }

    /// The same bot with `f` applied to every variant's plan.
    #[must_use]
    pub fn each_plan(self, f: impl Fn(Plan) -> Plan) -> ExpertBot {
        ExpertBot {
            pairs: f(self.pairs),
            abarrotada: f(self.abarrotada),
            abarrotada3: f(self.abarrotada3),
            ..self
        }
    }

    /// The searched card for `view` among `cards` (its legal cards, at
    /// least two), with what it cost; `None` when the Monte Carlo player
    /// must decide (too early in the hand, or the first deal did not finish
    /// within the node budget).
    pub fn decide(
        &self,
        view: &GameView,
        cards: CardSet,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Decision> {
        let start = Instant::now();
        let limit = Duration::from_millis(self.max_ms);
        let rules = &view.rules;
        let plan = self.plan(rules.variant);
        let k = Knowledge::from_view(view);
        // The seat has not played to the trick in progress yet.
        if k.hand.len() > u32::from(plan.max_tricks) {
            return None;
        }
        let sampler = Sampler::new(&k);
        let bidding = plan.monte_carlo.bidding(view);
        let candidates: Vec<Card> = cards.iter().collect();
        let mut sums = vec![0f64; candidates.len()];
        let mut root = HandState::in_play_from_view(view, [CardSet::EMPTY; 4]);
        let spread = deal_spread(view, plan.search, &root);
        let me = rules.variant.table().side(k.seat) as usize;
        let mine = view.points_taken.get(me).copied().unwrap_or(0);
        let mut nodes = 0u64;
        let mut done = 0u32;
        while done < plan.samples {
            let deal = sampler.sample(rng);
            // At most 1: a weighed deal moves a total by at most `spread`.
            let w = bidding.weight(&deal);
            root.set_cards(deal);
            let budget = if done == 0 {
                plan.nodes / u64::from(self.min_samples.max(1))
            } else {
                plan.nodes - nodes
            };
            let (values, cost) = solve_deal(plan.search, rules, &k, mine, &root, budget);
            nodes += cost;
            let Some(values) = values else {
                break;
            };
            for (sum, c) in sums.iter_mut().zip(&candidates) {
                let v = values.iter().find(|(d, _)| d == c).map_or(0.0, |(_, v)| *v);
                *sum += w * v;
            }
            done += 1;
            if dominates(&sums, spread * f64::from(plan.samples - done)) || start.elapsed() >= limit
            {
                break;
            }
        }
        if done == 0 {
            return None;
        }
        Some(Decision {
            card: best_card(&k, cards, &candidates, &sums),
            samples: done,
            nodes,
        })
    }
}

/// The most one deal can move a card's total: every point left, with its
/// tie-break share; a playout value (every search but the two-sided one)
/// moves with the others' records too, times the multiplier of `root`.
fn deal_spread(view: &GameView, search: Search, root: &HandState) -> f64 {
    let taken: i64 = view.points_taken.iter().map(|&p| i64::from(p)).sum();
    let left = (72 - taken).max(0) as f64;
    if matches!(search, Search::TwoSided | Search::Whole) {
        left * (1.0 + TIE_BREAK)
    } else {
        left * (2.0 * f64::from(root.multiplier(&view.rules)) + TIE_BREAK)
    }
}

/// Searches one sampled deal, `root` with every hand set, by `search` within
/// `budget` positions: each legal card of the seat of `k` with its value to
/// the seat (the two-sided solver's points made [`worth`] what they record
/// with the `mine` points the seat's side has taken), or `None` when the
/// budget ran out; and the positions visited.
fn solve_deal(
    search: Search,
    rules: &Rules,
    k: &Knowledge,
    mine: u8,
    root: &HandState,
    budget: u64,
) -> (Option<Vec<(Card, f64)>>, u64) {
    match search {
        Search::TwoSided => {
            let mut solver = Solver::new(rules, k.seat, budget);
            let values = solver.solve_each(root).map(|vs| {
                vs.into_iter()
                    .map(|(c, v)| (c, worth(rules, mine, v)))
                    .collect()
            });
            (values, solver.nodes)
        }
        Search::MaxN => {
            let mut solver = MaxN::new(rules, budget);
            let values = solver.solve_each(root).map(|vs| {
                vs.into_iter()
                    .map(|(c, v)| (c, v[usize::from(k.seat)]))
                    .collect()
            });
            (values, solver.nodes)
        }
        Search::Reply => {
            let mut solver = Reply::new(rules, k.seat, budget);
            (solver.solve_each(root, k), solver.nodes)
        }
        Search::Whole => {
            let (values, nodes) = super::dds::solve_each_here(rules, root, budget);
            let values = values.map(|vs| {
                vs.into_iter()
                    .map(|(c, v)| (c, worth(rules, mine, v)))
                    .collect()
            });
            (values, nodes)
        }
    }
}

/// The candidate with the best total in `sums`; ties (common late in a
/// hand) go to the heuristic player's preference among `cards`, else to the
/// first tied candidate.
fn best_card(k: &Knowledge, cards: CardSet, candidates: &[Card], sums: &[f64]) -> Card {
    let preferred = choose_card(k, cards);
    let best = sums.iter().copied().fold(f64::MIN, f64::max);
    let tied: Vec<Card> = candidates
        .iter()
        .zip(sums)
        .filter(|(_, s)| **s >= best - 1e-9)
        .map(|(c, _)| *c)
        .collect();
    if tied.contains(&preferred) {
        preferred
    } else {
        tied[0]
    }
}

/// What ending the hand with `taken + v` points is worth to the seat,
/// on the scale of [`super::playout::value`] without the multiplier (the
/// same for every card). In the pairs game that is linear in the points,
/// so the solver's points rank the cards as the record does. In the
/// individual variants only the points over the threshold are recorded:
/// points that leave the seat below it are worth only the small
/// tie-breaking share, so the card that takes the most points on average
/// is not always the one that records the most.
fn worth(rules: &Rules, taken: u8, v: i32) -> f64 {
    let points = (i32::from(taken) + v).clamp(0, 255) as u8;
    if rules.variant == Variant::Pairs {
        return f64::from(points);
    }
    f64::from(over_threshold(rules, points)) + TIE_BREAK * f64::from(points)
}

/// Whether the best total leads every other by more than `rest` (what the
/// remaining samples could still change).
fn dominates(sums: &[f64], rest: f64) -> bool {
    let best = sums.iter().copied().fold(f64::MIN, f64::max);
    let second = sums
        .iter()
        .copied()
        .filter(|&s| s < best)
        .fold(f64::MIN / 2.0, f64::max);
    sums.iter().filter(|&&s| s >= best).count() == 1 && best - second > rest
}

#[cfg(test)]
mod tests {
    use super::{dominates, worth};
    use crate::rules::{Rules, Variant};

    #[test]
    fn in_the_individual_variants_only_points_over_the_threshold_count() {
        let pairs = Rules::default();
        // Pairs: linear in the points.
        assert_eq!(worth(&pairs, 30, 10) - worth(&pairs, 30, 5), 5.0);
        let abarrotada = Rules {
            variant: Variant::Abarrotada,
            ..Rules::default()
        };
        // Below 18 a point is worth only the tie-break share...
        let below = worth(&abarrotada, 5, 10) - worth(&abarrotada, 5, 5);
        assert!((below - 0.25).abs() < 1e-9, "{below}");
        // ...above it a whole point more.
        let above = worth(&abarrotada, 20, 10) - worth(&abarrotada, 20, 5);
        assert!((above - 5.25).abs() < 1e-9, "{above}");
        // Two deals: 10 points in each (never over 18) are worth less than
        // none in one and 19 in the other, though the raw points say the
        // opposite.
        let steady = 2.0 * worth(&abarrotada, 0, 10);
        let reaching = worth(&abarrotada, 0, 0) + worth(&abarrotada, 0, 19);
        assert!(reaching > steady, "{reaching} vs {steady}");
        assert!(worth(&pairs, 0, 10) * 2.0 > worth(&pairs, 0, 0) + worth(&pairs, 0, 19));
    }

    #[test]
    fn a_card_dominates_only_when_the_rest_cannot_catch_up() {
        assert!(dominates(&[30.0, 10.0, 5.0], 19.0));
        assert!(!dominates(&[30.0, 10.0, 5.0], 20.0));
        // A tie at the top never dominates.
        assert!(!dominates(&[30.0, 30.0, 5.0], 0.0));
        // A single card always does.
        assert!(dominates(&[7.0], 1_000.0));
    }
}
