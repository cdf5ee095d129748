//! The analysis of the bidding: each trump-phase action and each doubling
//! call (passes included) of a seat that had a choice, valued by the
//! expert's bid search ([`value_bids`]) from that seat's own view, with a
//! fixed number of playouts, no clock and a random generator seeded from
//! the match, so the same match always gives the same values.
//!
//! Unlike a card's value these are estimates: the hidden cards are
//! sampled consistently with what the seat had seen, the other seats
//! finish the bidding as the search expects them to, and each deal is
//! played out by the Monte Carlo player's playouts.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::bots::{ExpertBot, value_bids};
use crate::rules::{Action, Match, Move, Phase, Seat};

/// One bidding decision, valued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidValue {
    /// Who decided.
    pub seat: Seat,
    /// The action taken.
    pub action: Action,
    /// The deals sampled.
    pub deals: u32,
    /// Each action tried (every legal one but an Estevet), in the order
    /// of the legal actions, with its value in hundredths of a point: the
    /// expected recorded points of the seat's side less those of the other
    /// side (in the individual variants, the mean of the other players'),
    /// multiplier included, for the hand.
    pub values: Vec<(Action, i32)>,
}

impl BidValue {
    /// The bidding the decision belongs to: `ChoosingTrump` or `Doubling`
    /// (the action's own phase).
    pub fn phase(&self) -> Phase {
        self.action.phase()
    }

    /// The taken action's value (none for an Estevet, never tried).
    pub fn value(&self) -> Option<i32> {
        let taken = self.values.iter().find(|(a, _)| *a == self.action);
        taken.map(|&(_, v)| v)
    }

    /// The best value of an action tried.
    pub fn best(&self) -> i32 {
        self.values.iter().map(|&(_, v)| v).max().unwrap_or(0)
    }

    /// Every action tried that reaches [`BidValue::best`].
    pub fn best_actions(&self) -> Vec<Action> {
        let best = self.best();
        let top = self.values.iter().filter(|&&(_, v)| v == best);
        top.map(|&(a, _)| a).collect()
    }

    /// `best − value` (0: a best action); none for an Estevet.
    pub fn cost(&self) -> Option<i32> {
        self.value().map(|v| self.best() - v)
    }
}

/// Whether `action` is a bidding decision the analysis values: a
/// trump-phase action or a call. Each is a choice: the seat to choose
/// trump has at least the five declarations, the seat to call a call and
/// a pass.
pub fn is_decision(action: Action) -> bool {
    matches!(action, Action::Trump { .. } | Action::Double { .. })
}

/// The bidding decisions of `game`'s first `max_hands` hands that the
/// analysis values ([`is_decision`]), counted from its moves.
pub fn decisions(game: &Match, max_hands: u32) -> u32 {
    let mut dealt = 0u32;
    let mut n = 0u32;
    for mv in game.moves() {
        match mv {
            Move::Act(_, Action::Deal) => dealt += 1,
            Move::Act(_, action) if dealt <= max_hands => n += u32::from(is_decision(action)),
            _ => {}
        }
    }
    n
}

/// Values `seat`'s `action` on `replay` (an [`is_decision`] action) by the
/// expert's bid search from the seat's view, within `playouts`; `index`
/// (the move's place in the match) seeds its random generator with the
/// match's seed. `None` when the search cannot rebuild the position.
pub fn value(
    replay: &Match,
    seat: Seat,
    action: Action,
    playouts: u32,
    index: usize,
) -> Option<BidValue> {
    let mut bot = ExpertBot::V3.plan(replay.rules.variant).monte_carlo;
    bot.playouts = playouts;
    bot.max_ms = u64::MAX;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed(&replay.seed, index));
    let view = replay.view(Some(seat));
    let (values, deals) = value_bids(&view, &bot, &mut rng)?;
    Some(BidValue {
        seat,
        action,
        deals,
        values: values
            .into_iter()
            .map(|(a, v)| (a, (v * 100.0).round() as i32))
            .collect(),
    })
}

/// A random generator's seed from the match's seed and a move's index.
fn seed(match_seed: &[u8; 32], index: usize) -> u64 {
    let folded = match_seed.chunks_exact(8).fold(0u64, |acc, c| {
        let word = u64::from_le_bytes(c.try_into().unwrap_or_default());
        acc.rotate_left(17) ^ word
    });
    folded ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}
