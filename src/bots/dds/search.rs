//! The zero-window search: can the solver's side still take `need` hand
//! points from this position? Exact values come from a few such searches
//! (see [`DealSolver::exact`]), sharing one transposition table.

use crate::rules::{Card, HandState, Rules, Seat, Side, Suit};

use super::bounds::{sure_points, top_trumps};
use super::order::ordered;
use super::pos::Pos;
use super::table::{Key, Table, decode, encode};

/// An exact solver of whole hands (see the module's documentation).
pub struct DealSolver {
    rules: Rules,
    table: Table,
    /// The trump and side the table's entries are for.
    context: Option<(Option<Suit>, Side)>,
    pub(super) pos: Pos,
    side: Side,
    /// The seats of `side`, a bit each.
    seats: u8,
    budget: u64,
    /// Positions visited so far (over every search of this solver).
    pub nodes: u64,
    aborted: bool,
}

impl DealSolver {
    /// Entries of the default table: `2^18` (10 MiB).
    pub const TABLE_BITS: u32 = 18;

    /// A solver for hands played under `rules`, with no node budget.
    pub fn new(rules: &Rules) -> DealSolver {
        DealSolver::with_table_bits(rules, DealSolver::TABLE_BITS)
    }

    /// A solver whose table holds `2^bits` entries (`bits` ≥ 1).
    pub fn with_table_bits(rules: &Rules, bits: u32) -> DealSolver {
        let h = HandState::new(1, 0, [crate::rules::CardSet::EMPTY; 4]);
        DealSolver {
            rules: rules.clone(),
            table: Table::new(bits.max(1)),
            context: None,
            pos: Pos::new(rules, &h),
            side: 0,
            seats: 0,
            budget: u64::MAX,
            nodes: 0,
            aborted: false,
        }
    }

    /// Stops the searches once `nodes` more positions were visited (they
    /// then answer `None`).
    pub fn set_budget(&mut self, nodes: u64) {
        self.budget = self.nodes.saturating_add(nodes);
        self.aborted = false;
    }

    /// The rules the solver plays by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Forgets every position searched so far (a benchmark's deals then
    /// cost what they would alone).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Sets the root position and the side searched for; a new trump or
    /// side empties the table (its entries are facts about positions under
    /// one trump, for one side).
    fn root(&mut self, h: &HandState, seat: Seat) -> bool {
        if !h.in_play() {
            return false;
        }
        self.pos = Pos::new(&self.rules, h);
        self.side = self.pos.table.side(seat);
        let table = self.pos.table;
        self.seats = (0..table.seats)
            .filter(|&s| table.side(s) == self.side)
            .fold(0, |a, s| a | 1 << s);
        let context = Some((self.pos.trump, self.side));
        if context != self.context {
            self.table.clear();
            self.context = context;
        }
        true
    }

    /// The hand points `seat`'s side takes from `h` on (the trick in
    /// progress included) with best play by every seat; `None` past the
    /// budget or when the hand is not in play.
    pub fn value(&mut self, h: &HandState, seat: Seat) -> Option<i32> {
        if !self.root(h, seat) {
            return None;
        }
        let v = self.exact(self.pos.left / 2);
        (!self.aborted).then_some(v)
    }

    /// The exact value of every legal card of the seat to play: the hand
    /// points its side takes from `h` on after playing it, with best play
    /// after. `None` past the budget or when the hand is not in play.
    pub fn solve_each(&mut self, h: &HandState) -> Option<Vec<(Card, i32)>> {
        if !self.root(h, h.turn) {
            return None;
        }
        let root = self.pos;
        let (legal, beat) = root.legal();
        let mut guess = root.left / 2;
        let out = super::super::solver::each_distinct(legal, root.alive(), |c| {
            let gained = self.play(c, beat.contains(c));
            let v = gained + self.exact(guess - gained);
            self.pos = root;
            guess = v;
            v
        });
        (!self.aborted).then_some(out)
    }

    /// Plays `c` on the position; the points the side gained.
    fn play(&mut self, c: Card, takes: bool) -> i32 {
        match self.pos.play(c, takes) {
            Some(w) if self.pos.table.side(w.winner) == self.side => w.points,
            _ => 0,
        }
    }

    /// The exact value of the position: a first zero-window search at
    /// `guess`, one beside it (the answer when the guess was right), then
    /// bisection of what is left.
    fn exact(&mut self, guess: i32) -> i32 {
        let (mut lo, mut hi) = (0, self.pos.left);
        let mut probe = guess.clamp(lo + 1, hi.max(1));
        let mut probes = 0;
        while lo < hi && !self.aborted {
            if self.reach(probe) {
                lo = probe;
            } else {
                hi = probe - 1;
            }
            probes += 1;
            probe = if probes == 1 && lo == probe {
                probe + 1
            } else if probes == 1 {
                probe - 1
            } else {
                (lo + hi + 1) / 2
            };
            probe = probe.clamp(lo + 1, hi.max(lo + 1));
        }
        lo
    }

    /// Whether the side can take at least `need` hand points from here.
    pub(super) fn reach(&mut self, need: i32) -> bool {
        if need <= 0 {
            return true;
        }
        if need > self.pos.left || self.aborted {
            return false;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return false;
        }
        if !self.pos.trick.is_empty() {
            return self.moves(need, None).0;
        }
        let leading = self.pos.table.side(self.pos.turn) == self.side;
        let lead_sure = sure_points(&self.pos);
        let (ours, theirs) = (
            top_trumps(&self.pos, self.seats),
            top_trumps(&self.pos, !self.seats),
        );
        let (lo, theirs) = if leading {
            (lead_sure.max(ours), theirs)
        } else {
            (ours, lead_sure.max(theirs))
        };
        if need <= lo {
            return true;
        }
        if need > self.pos.left - theirs {
            return false;
        }
        let key = Key::of(&self.pos);
        let held = self.pos.held();
        let mut hint = None;
        if let Some(e) = self.table.get(&key) {
            if i32::from(e.lo) >= need {
                return true;
            }
            if i32::from(e.hi) < need {
                return false;
            }
            hint = decode(e.best, held);
        }
        let (reached, best) = self.moves(need, hint);
        if !self.aborted
            && let Some(c) = best
        {
            let depth = self.pos.hands[self.pos.turn as usize].len() as u8;
            self.table
                .store(&key, need, reached, encode(c, held), depth);
        }
        reached
    }

    /// Tries the moves of the seat to play (`hint` first): whether `need`
    /// is reached, and the card that decided it.
    fn moves(&mut self, need: i32, hint: Option<Card>) -> (bool, Option<Card>) {
        let (legal, beat) = self.pos.legal();
        let moves = ordered(&self.pos, legal, beat, hint);
        let maximising = self.pos.table.side(self.pos.turn) == self.side;
        let saved = self.pos;
        for &c in moves.as_slice() {
            let gained = self.play(c, beat.contains(c));
            let reached = self.reach(need - gained);
            self.pos = saved;
            if self.aborted {
                return (false, None);
            }
            if reached == maximising {
                return (reached, Some(c));
            }
        }
        (!maximising, moves.as_slice().first().copied())
    }
}
