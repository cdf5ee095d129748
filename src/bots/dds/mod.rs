//! An exact solver of whole hands: every hand known, the hand points
//! (card points and one per trick) a side takes from any position of the
//! card play to the end of the hand, with best play by every seat, for
//! every variant and option.
//!
//! - **Rules.** The legal cards are the engine's own narrowing on the
//!   engine's own trick ([`pos`]); follow suit, beat, must-trump and forced
//!   mode are exactly the engine's.
//! - **Scores.** A side records its hand points above the variant's
//!   threshold (36, 18 or 24) times the multiplier, and nothing at or below
//!   it (a tie records nothing): a non-decreasing function of its hand
//!   points, so the play that maximises the points maximises the record,
//!   and the record of the solved value is the solved record
//!   ([`DealSolver::record`]). In the pairs game the other team takes the
//!   rest of the 72; in the individual variants the other seats are
//!   assumed to play against the solver's seat together ("paranoid").
//! - **Search.** Zero-window searches ("can the side still take `need`
//!   points?", [`search`]) that answer a bound, not only yes or no
//!   (fail-soft): a guess, then upward steps of 1, 2, 4, … from a bound
//!   reached (the value is most often that bound), downward ones while
//!   every search fails, bisection between the bounds once a search fails
//!   after one reached ([`probes`]); the last trick is
//!   scored without a search (every card is forced). A search whose target
//!   is already reached, or out of reach, still answers a trick start's
//!   bounds (the last trick, the sure points), so the bound it answers
//!   lies nearer the value. The first guess comes from a playout in which
//!   every seat plays the first card of its move ordering: its trick
//!   starts are solved from the last to the first, each guessed by the one
//!   after it, so only the first trick's cards are guessed by the
//!   ordering.
//! - **Transposition table** at trick starts, keyed on relative ranks
//!   (every card renumbered, so positions that differ only by which
//!   zero-point cards are gone share an entry), bounded memory
//!   ([`table`]). An entry also bounds every trick start of its shape
//!   whose counting cards differ (payoff similarity): widened by the
//!   points the cards differ by, rank for rank. In the
//!   pairs game the entries bound side 0's points and serve both sides
//!   (one side takes the rest of what the other does), so a solver kept
//!   between the two sides' positions of a hand keeps its table.
//! - **Sure points** ([`bounds`]): the leader's masters, cashed (with
//!   what the others must follow them with or throw on them, and the cards
//!   left of a suit the others ran out of), then its partner's after a
//!   crossing, and the top trumps each side holds (a trick point for each
//!   one seat holds) settle a search before it starts.
//! - **Move ordering** ([`order`]): the table's card, then at a trick
//!   start the killer lead (the last lead that refuted a trick start with
//!   as many tricks left, by leader), then masters (those an opponent can
//!   trump after the others), low cards to the partner's master; inside a
//!   trick the cards no opponent still to play can beat, then cheap
//!   winners, points onto a partner's trick that it keeps (masters last:
//!   they win tricks of their own); equivalent cards once.
//!
//! - **One card against the best** ([`DealSolver::grade`], for the
//!   analysis of a played card): the card's exact value, then each other
//!   card asked only whether it reaches the best so far, and solved only
//!   when it does better.
//!
//! Single-threaded; the only allocations are the table (once) and the
//! answers of [`DealSolver::solve_each`] and [`DealSolver::grade`].

mod bounds;
#[cfg(test)]
mod bounds_tests;
mod deals;
mod order;
mod pos;
mod probes;
mod search;
mod table;
#[cfg(test)]
mod tests;

pub use deals::{seeded_deal, seeded_endgame};
pub use search::{DealSolver, Grade};

use std::cell::RefCell;

use crate::rules::scoring::over_threshold;
use crate::rules::{Card, HandState, Rules, Seat};

/// Entries of the table of [`solve_each_here`]'s solvers: `2^16` (2 MiB a
/// thread).
const HERE_BITS: u32 = 16;

thread_local! {
    /// This thread's solver for [`solve_each_here`].
    static HERE: RefCell<Option<DealSolver>> = const { RefCell::new(None) };
}

/// [`DealSolver::solve_each`] of `h` with this thread's solver (made once
/// per thread and rules, its table kept between calls: what it holds are
/// facts about positions), within `budget` positions; and the positions
/// visited.
pub fn solve_each_here(
    rules: &Rules,
    h: &HandState,
    budget: u64,
) -> (Option<Vec<(Card, i32)>>, u64) {
    with_solver(&HERE, HERE_BITS, rules, budget, |s| s.solve_each(h))
}

/// `search` run by the solver in `cell` (made for `rules` with a table of
/// `2^bits` entries when it holds none for them) within `budget`
/// positions; its answer and the positions it visited.
fn with_solver<T>(
    cell: &'static std::thread::LocalKey<RefCell<Option<DealSolver>>>,
    bits: u32,
    rules: &Rules,
    budget: u64,
    search: impl FnOnce(&mut DealSolver) -> Option<T>,
) -> (Option<T>, u64) {
    cell.with_borrow_mut(|slot| {
        let solver = match slot {
            Some(s) if s.rules() == rules => s,
            _ => slot.insert(DealSolver::with_table_bits(rules, bits)),
        };
        let before = solver.nodes;
        solver.set_budget(budget);
        let answer = search(solver);
        (answer, solver.nodes - before)
    })
}

/// Entries of the table of [`reaches_here`]'s solvers: `2^18` (8 MiB a
/// thread), for searches from the first trick.
const WHOLE_BITS: u32 = 18;

thread_local! {
    /// This thread's solver for [`reaches_here`].
    static WHOLE: RefCell<Option<DealSolver>> = const { RefCell::new(None) };
}

/// [`DealSolver::reaches`] of `h` for `seat`'s side and `need` hand points
/// with this thread's solver for whole deals (made once per thread and
/// rules, its table kept between calls until [`forget_here`]), within
/// `budget` positions; and the positions visited.
pub fn reaches_here(
    rules: &Rules,
    h: &HandState,
    seat: Seat,
    need: i32,
    budget: u64,
) -> (Option<i32>, u64) {
    with_solver(&WHOLE, WHOLE_BITS, rules, budget, |s| {
        s.reaches(h, seat, need)
    })
}

/// Makes this thread's solver of [`reaches_here`] forget its searches
/// ([`DealSolver::forget`]), so that the searches after it cost what they
/// would alone (a decision made of them then does not depend on the
/// thread's earlier ones).
pub fn forget_here() {
    WHOLE.with_borrow_mut(|whole| {
        if let Some(s) = whole {
            s.forget();
        }
    });
}

impl DealSolver {
    /// What `seat`'s side records from the hand `h` (a hand in play, its
    /// points so far included) with best play by every seat, before the
    /// multiplier; `None` past the budget.
    pub fn record(
        &mut self,
        rules: &crate::rules::Rules,
        h: &HandState,
        seat: Seat,
    ) -> Option<u32> {
        let side = rules.variant.table().side(seat) as usize;
        let rest = self.value(h, seat)?;
        let total = i32::from(h.points[side]) + rest;
        Some(over_threshold(rules, total as u8))
    }
}
