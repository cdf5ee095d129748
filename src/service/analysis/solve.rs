//! The analysis itself, pure: a finished match replayed move by move, and
//! before every card played, the exact value of each legal card of that
//! position from the whole-hand solver ([`DealSolver`]), within a node
//! budget per position.

use crate::bots::dds::DealSolver;
use crate::rules::{Action, Card, HandState, Match, Move, Seat, Trump};

/// How much work one analysis may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The hands analysed, from the first (the match's later hands are
    /// left out and counted in [`MatchAnalysis::hands_played`]).
    pub max_hands: u32,
    /// The positions the solver may visit for one card played; past it the
    /// card is left unsolved.
    pub nodes_per_card: u64,
}

/// One card played, valued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardValue {
    /// The trick it was played to, from 1.
    pub trick: u8,
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
    /// Its value beside the best, when the solver finished within budget.
    pub solved: Option<Solved>,
}

/// The exact values of one position, in hand points the player's side
/// takes from it on (the trick on the table included), with best play by
/// every seat after the card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// After the card played.
    pub value: u8,
    /// After the best legal card.
    pub best: u8,
    /// Every legal card that reaches `best`.
    pub best_cards: Vec<Card>,
}

impl Solved {
    /// The hand points the card played gave away (0: a best card).
    pub fn cost(&self) -> u8 {
        self.best - self.value
    }
}

/// One hand's cards, valued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandAnalysis {
    /// The hand's number, from 1.
    pub number: u32,
    /// Who dealt.
    pub dealer: Seat,
    /// Who named trump.
    pub declarer: Option<Seat>,
    /// Trump.
    pub trump: Option<Trump>,
    /// The multiplier the hand was played at.
    pub multiplier: u32,
    /// The hand points each side took.
    pub points: Vec<u8>,
    /// Every card played, in order.
    pub cards: Vec<CardValue>,
}

/// A match's analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchAnalysis {
    /// The hands analysed, in order.
    pub hands: Vec<HandAnalysis>,
    /// The hands the match dealt (more than `hands.len()` when the budget
    /// left some out).
    pub hands_played: u32,
    /// The budget the analysis ran with.
    pub budget: Budget,
    /// The positions the solver visited in all.
    pub nodes: u64,
}

impl MatchAnalysis {
    /// The cards left unsolved (past the node budget).
    pub fn unsolved(&self) -> usize {
        self.hands
            .iter()
            .flat_map(|h| &h.cards)
            .filter(|c| c.solved.is_none())
            .count()
    }
}

/// The cards `game` played in its first `max_hands` hands: the work of
/// [`analyze`], for its progress.
pub fn cards_to_value(game: &Match, max_hands: u32) -> u32 {
    let table = game.table();
    game.history
        .iter()
        .chain(game.hand.as_ref())
        .take(max_hands as usize)
        .map(|h| {
            let tricks = h.tricks.iter().chain(h.trick_on_table());
            tricks.map(|t| t.seats(table).count() as u32).sum::<u32>()
        })
        .sum()
}

/// Values every card `game` played in its first `budget.max_hands` hands,
/// calling `progress` after each.
///
/// # Errors
/// A message when the match's moves do not replay (a bug).
pub fn analyze(
    game: &Match,
    budget: Budget,
    mut progress: impl FnMut(),
) -> Result<MatchAnalysis, String> {
    let mut replay = Match::new(game.rules.clone(), game.seed).map_err(|e| e.to_string())?;
    let mut solver = DealSolver::new(&game.rules);
    let mut hands: Vec<HandAnalysis> = Vec::new();
    let mut events = Vec::new();
    let mut dealt = 0u32;
    for mv in game.moves() {
        match (mv, replay.hand.as_ref()) {
            (Move::Act(_, Action::Deal), _) => dealt += 1,
            (Move::Act(seat, Action::Play { card }), Some(h)) if dealt <= budget.max_hands => {
                if hands.last().is_none_or(|last| last.number != h.number) {
                    hands.push(hand_entry(game, h));
                }
                solver.set_budget(budget.nodes_per_card);
                let solved = solver
                    .solve_each(h)
                    .and_then(|values| solved(&values, card));
                if let Some(entry) = hands.last_mut() {
                    entry.cards.push(CardValue {
                        trick: h.tricks.len() as u8 + 1,
                        seat,
                        card,
                        solved,
                    });
                }
                progress();
            }
            _ => {}
        }
        replay
            .perform(mv, &mut events)
            .map_err(|e| format!("{mv:?}: {e}"))?;
        events.clear();
    }
    Ok(MatchAnalysis {
        hands,
        hands_played: dealt,
        budget,
        nodes: solver.nodes,
    })
}

/// The entry of the hand `h` (in play), its final points from `game`.
fn hand_entry(game: &Match, h: &HandState) -> HandAnalysis {
    let sides = usize::from(game.table().sides());
    let last = game
        .history
        .iter()
        .chain(game.hand.as_ref())
        .find(|done| done.number == h.number);
    HandAnalysis {
        number: h.number,
        dealer: h.dealer,
        declarer: h.declarer,
        trump: h.trump,
        multiplier: h.multiplier(&game.rules),
        points: last.map_or(h.points, |l| l.points)[..sides].to_vec(),
        cards: Vec::with_capacity(48),
    }
}

/// The played card's value beside the best of `values` (every legal card's).
fn solved(values: &[(Card, i32)], played: Card) -> Option<Solved> {
    let value = values.iter().find(|(c, _)| *c == played)?.1;
    let best = values.iter().map(|&(_, v)| v).max()?;
    let best_cards = values
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(c, _)| c)
        .collect();
    Some(Solved {
        value: u8::try_from(value).ok()?,
        best: u8::try_from(best).ok()?,
        best_cards,
    })
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::Xoshiro256PlusPlus;

    use super::*;
    use crate::bots::{Bot, HeuristicBot};
    use crate::rules::{Phase, Rules, Variant};

    /// A match of `hands` hands of `variant` played to its end by house bots.
    fn played(variant: Variant, hands: u32) -> Match {
        let rules = Rules {
            variant,
            max_hands: Some(hands),
            ..Rules::default()
        };
        let mut m = Match::new(rules, [9; 32]).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        while m.phase() != Phase::MatchOver {
            let seat = m.turn().unwrap();
            let action = HeuristicBot.choose(&m.view(Some(seat)), &mut rng);
            m.apply(seat, action, &mut Vec::new()).unwrap();
        }
        m
    }

    #[test]
    fn every_card_is_valued_in_order_and_the_last_tricks_within_any_budget() {
        for variant in Variant::ALL {
            let game = played(variant, 1);
            let budget = Budget {
                max_hands: 1,
                nodes_per_card: 5_000,
            };
            let mut calls = 0;
            let a = analyze(&game, budget, || calls += 1).unwrap();
            let h = &game.history[0];
            let table = game.table();
            let played: Vec<(Seat, Card)> = h
                .tricks
                .iter()
                .flat_map(|t| t.seats(table).zip(t.cards().iter().copied()))
                .collect();
            let cards = &a.hands[0].cards;
            let valued: Vec<(Seat, Card)> = cards.iter().map(|c| (c.seat, c.card)).collect();
            assert_eq!(valued, played, "{variant:?}");
            assert_eq!(calls as u32, cards_to_value(&game, 1));
            assert_eq!(a.hands[0].points, h.points[..usize::from(table.sides())]);
            for c in cards {
                let Some(s) = &c.solved else { continue };
                assert!(s.value <= s.best, "{c:?}");
                assert_eq!(s.best_cards.contains(&c.card), s.cost() == 0, "{c:?}");
            }
            let last = cards.iter().filter(|c| c.trick as usize == h.tricks.len());
            assert!(last.clone().count() > 0 && last.clone().all(|c| c.solved.is_some()));
            // The last card of a hand has nothing to choose.
            let end = cards.last().unwrap().solved.as_ref().unwrap();
            assert_eq!(end.cost(), 0);
        }
    }

    #[test]
    fn hands_past_the_budget_are_left_out() {
        let game = played(Variant::Pairs, 2);
        let budget = Budget {
            max_hands: 1,
            nodes_per_card: 1_000,
        };
        let a = analyze(&game, budget, || {}).unwrap();
        assert_eq!((a.hands.len(), a.hands_played), (1, 2));
        assert_eq!(a.hands[0].cards.len() as u32, cards_to_value(&game, 1));
        assert!(cards_to_value(&game, 2) > cards_to_value(&game, 1));
    }
}
