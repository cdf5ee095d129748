//! The analysis itself, pure: a finished match replayed move by move; for
//! every card played, the exact value of that card and of the best legal
//! card of its position from the whole-hand solver ([`DealSolver::grade`]),
//! within a node budget per position and one per match (a hand's cards
//! are solved from the last to the first); before every bidding decision,
//! each legal action's value estimated by the expert's bid search
//! ([`super::bids`]).

use super::bids::{self, BidValue};
use crate::bots::dds::DealSolver;
use crate::rules::{Action, Card, HandState, Match, Move, Seat, Trump};

/// Entries of an analysis's solver table: `2^20` (32 MiB, one table per
/// analysis running). A hand's table serves the searches of its earlier
/// cards, which reach the positions of its later ones: at 4,000,000
/// positions a card, four times the default table left about a tenth
/// fewer cards unsolved in the pairs game for the same time
/// (docs/benchmarks.md).
pub const TABLE_BITS: u32 = 20;

/// How much work one analysis may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The hands analysed, from the first (the match's later hands are
    /// left out and counted in [`MatchAnalysis::hands_played`]).
    pub max_hands: u32,
    /// The positions the solver may visit for one card played; past it the
    /// card is left unsolved.
    pub nodes_per_card: u64,
    /// The positions the solver may visit for the whole analysis; once
    /// they are spent, the cards still to value are left unsolved.
    pub nodes_per_match: u64,
    /// The playouts of the bid search for one bidding decision (0: the
    /// bidding is not valued).
    pub playouts_per_bid: u32,
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

/// One hand's bidding and cards, valued.
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
    /// Every bidding decision with a choice, in order.
    pub bids: Vec<BidValue>,
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
        self.unsolved_cards().count()
    }

    /// Each card valued, in the order played, hand after hand.
    pub fn cards(&self) -> impl Iterator<Item = &CardValue> {
        self.hands.iter().flat_map(|h| &h.cards)
    }

    /// Each card left unsolved, in the order played.
    pub fn unsolved_cards(&self) -> impl Iterator<Item = &CardValue> {
        self.cards().filter(|c| c.solved.is_none())
    }
}

/// The cards `game` played in its first `max_hands` hands: the work of
/// [`analyze`] on the cards.
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

/// The steps of [`analyze`] within `budget`, for its progress: the cards
/// to value and the bidding decisions (when the bidding is valued).
pub fn steps(game: &Match, budget: Budget) -> u32 {
    let bids = match budget.playouts_per_bid {
        0 => 0,
        _ => bids::decisions(game, budget.max_hands),
    };
    cards_to_value(game, budget.max_hands) + bids
}

/// Values every card and bidding decision of `game`'s first
/// `budget.max_hands` hands, calling `progress` after each ([`steps`]).
///
/// # Errors
/// A message when the match's moves do not replay (a bug).
pub fn analyze(
    game: &Match,
    budget: Budget,
    mut progress: impl FnMut(),
) -> Result<MatchAnalysis, String> {
    let mut replay = Match::new(game.rules.clone(), game.seed).map_err(|e| e.to_string())?;
    let mut solver = DealSolver::with_table_bits(&game.rules, TABLE_BITS);
    let mut hands: Vec<HandAnalysis> = Vec::new();
    let mut events = Vec::new();
    let mut dealt = 0u32;
    // The cards of the hand being replayed, valued when it ends.
    let mut cards: Vec<(HandState, Seat, Card)> = Vec::with_capacity(48);
    for (index, mv) in game.moves().into_iter().enumerate() {
        match (mv, replay.hand.as_ref()) {
            (Move::Act(_, Action::Deal), _) => dealt += 1,
            (Move::Act(seat, action), Some(h)) if dealt <= budget.max_hands => {
                if hands.last().is_none_or(|last| last.number != h.number) {
                    if let Some(last) = hands.last_mut() {
                        value_cards(&mut solver, budget, &mut cards, last, &mut progress);
                    }
                    hands.push(hand_entry(game, h));
                }
                let entry = hands.last_mut().ok_or("no hand entry")?;
                if let Action::Play { card } = action {
                    cards.push((h.clone(), seat, card));
                } else if budget.playouts_per_bid > 0 && bids::is_decision(action) {
                    let playouts = budget.playouts_per_bid;
                    let valued = bids::value(&replay, seat, action, playouts, index);
                    entry.bids.extend(valued);
                    progress();
                }
            }
            _ => {}
        }
        replay
            .perform(mv, &mut events)
            .map_err(|e| format!("{mv:?}: {e}"))?;
        events.clear();
    }
    if let Some(last) = hands.last_mut() {
        value_cards(&mut solver, budget, &mut cards, last, &mut progress);
    }
    Ok(MatchAnalysis {
        hands,
        hands_played: dealt,
        budget,
        nodes: solver.nodes,
    })
}

/// Values one hand's `cards` (each with the position it was played in,
/// in the order played) into its `entry`, calling `progress` after each.
///
/// The cards are solved from the last to the first: the later positions
/// cost the least, and the table keeps what their searches found for the
/// earlier ones, whose searches reach them. A card's value is the next
/// card's best, when that card was solved and the solver can read one
/// from the other ([`DealSolver::grade`]'s `after`). In the pairs game one
/// table serves both sides, so the hand is one pass; in the individual
/// variants every seat is a side, with a pass of its own so that the
/// table lives through its cards. Once one of a side's cards is left
/// unsolved, its earlier ones are left unsolved without a search: they
/// would cost more still. Once the analysis has spent
/// `budget.nodes_per_match`, no card is searched.
fn value_cards(
    solver: &mut DealSolver,
    budget: Budget,
    cards: &mut Vec<(HandState, Seat, Card)>,
    entry: &mut HandAnalysis,
    progress: &mut impl FnMut(),
) {
    let table = solver.rules().variant.table();
    let passes = if table.sides() == 2 { 1 } else { table.sides() };
    let mut valued: Vec<Option<Solved>> = vec![None; cards.len()];
    for pass in 0..passes {
        let mut given_up = [false; 4];
        // The seat of the card after this one and its best, when solved.
        let mut after = None;
        for (i, (h, seat, card)) in cards.iter().enumerate().rev() {
            let side = usize::from(table.side(*seat));
            if passes > 1 && side != usize::from(pass) {
                after = None;
                continue;
            }
            // What the analysis may still spend (the solver counts all of
            // its positions).
            let left = budget.nodes_per_match.saturating_sub(solver.nodes);
            if !given_up[side] && left > 0 {
                solver.set_budget(budget.nodes_per_card.min(left));
                valued[i] = solved(solver, h, *card, after);
                given_up[side] = valued[i].is_none();
            }
            after = valued[i].as_ref().map(|s| (*seat, i32::from(s.best)));
            progress();
        }
    }
    let cards = cards.drain(..).zip(valued);
    entry
        .cards
        .extend(cards.map(|((h, seat, card), solved)| CardValue {
            trick: h.tricks.len() as u8 + 1,
            seat,
            card,
            solved,
        }));
}

/// `card` played in `h`, valued by `solver` within its budget (`after`:
/// the next card's seat and best, when solved).
fn solved(
    solver: &mut DealSolver,
    h: &HandState,
    card: Card,
    after: Option<(Seat, i32)>,
) -> Option<Solved> {
    let g = solver.grade(h, card, after)?;
    Some(Solved {
        value: u8::try_from(g.value).ok()?,
        best: u8::try_from(g.best).ok()?,
        best_cards: g.best_cards,
    })
}

/// The entry of the hand `h` (being bid or played), its trump, multiplier
/// and points as the hand ended in `game`.
fn hand_entry(game: &Match, h: &HandState) -> HandAnalysis {
    let sides = usize::from(game.table().sides());
    let end = game
        .history
        .iter()
        .chain(game.hand.as_ref())
        .find(|done| done.number == h.number)
        .unwrap_or(h);
    HandAnalysis {
        number: h.number,
        dealer: h.dealer,
        declarer: end.declarer,
        trump: end.trump,
        multiplier: end.multiplier(&game.rules),
        points: end.points[..sides].to_vec(),
        bids: Vec::new(),
        cards: Vec::with_capacity(48),
    }
}

#[cfg(test)]
mod tests;
