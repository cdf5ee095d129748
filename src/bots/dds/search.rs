//! The zero-window search: can the solver's side still take `need` hand
//! points from this position? Exact values come from a few such searches
//! (see [`DealSolver::exact`]), sharing one transposition table.

use crate::rules::{Card, HandState, Rules, Seat, Side, Suit};

use super::bounds::{sure_points, top_trumps};
use super::order::ordered;
use super::pos::Pos;
use super::table::{Key, Table, decode, encode};

/// One card graded by [`DealSolver::grade`]: hand points the side of the
/// seat that played it takes from the position on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// After the card.
    pub value: i32,
    /// After the best legal card.
    pub best: i32,
    /// Every legal card that reaches `best`, in card order.
    pub best_cards: Vec<Card>,
}

/// An exact solver of whole hands (see the module's documentation).
pub struct DealSolver {
    rules: Rules,
    table: Table,
    /// The trump the table's entries are for, and the side (in the
    /// individual variants; in the pairs game one side's points are the
    /// rest of the other's, so the entries serve both).
    context: Option<(Option<Suit>, Option<Side>)>,
    /// Whether the entries count the other side's points: the pairs game's
    /// entries count side 0's, whichever side is searched.
    flip: bool,
    pub(super) pos: Pos,
    side: Side,
    /// The seats of `side`, a bit each.
    seats: u8,
    budget: u64,
    /// Positions visited so far (over every search of this solver).
    pub nodes: u64,
    pub(super) aborted: bool,
    /// The lead that last refuted a trick start, by tricks left and
    /// leader: tried after the table's card.
    killers: [[Option<Card>; 4]; 13],
}

impl DealSolver {
    /// Entries of the default table: `2^18` (8 MiB).
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
            flip: false,
            pos: Pos::new(rules, &h),
            side: 0,
            seats: 0,
            budget: u64::MAX,
            nodes: 0,
            aborted: false,
            killers: [[None; 4]; 13],
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

    /// Forgets every position searched so far and the killer leads: the
    /// searches after it answer and cost what they would on a new solver.
    pub fn forget(&mut self) {
        self.table.clear();
        self.killers = [[None; 4]; 13];
        self.context = None;
    }

    /// Sets the root position and the side searched for; a new trump (or
    /// in the individual variants a new side) empties the table (its
    /// entries are facts about positions under one trump, for one side or
    /// in the pairs game for side 0) and forgets the killer leads.
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
        let pairs = table.sides() == 2;
        self.flip = pairs && self.side != 0;
        let context = Some((self.pos.trump, (!pairs).then_some(self.side)));
        if context != self.context {
            self.forget();
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
        let guess = self.first_guess();
        let v = self.exact(guess);
        (!self.aborted).then_some(v)
    }

    /// One zero-window search from `h`: a bound on the hand points
    /// `seat`'s side takes from `h` on, at least `need` (then the bound is
    /// `need` or more) or not (then it is below `need`); `None` past the
    /// budget or when the hand is not in play.
    pub fn reaches(&mut self, h: &HandState, seat: Seat, need: i32) -> Option<i32> {
        if !self.root(h, seat) {
            return None;
        }
        let v = self.reach(need);
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
        // Each card guessed by the value of the card before it; the first
        // by the line of play after it.
        let mut guess = None;
        let out = super::super::solver::each_distinct(legal, root.alive(), |c| {
            let gained = self.play(c, beat.contains(c));
            let after = match guess {
                Some(v) => v - gained,
                None => self.first_guess(),
            };
            let v = gained + self.exact(after);
            self.pos = root;
            guess = Some(v);
            v
        });
        (!self.aborted).then_some(out)
    }

    /// The exact value of `played` (a legal card of the seat to play in
    /// `h`) beside the best legal card's, as hand points its side takes
    /// from `h` on with best play after the card; `None` past the budget,
    /// when the hand is not in play or when `played` is not legal.
    ///
    /// Only `played` is solved exactly: each other card is first asked
    /// whether it reaches the best value so far (one zero-window search,
    /// which a worse card fails), and solved only when it does better.
    ///
    /// `after`, when known, is the position `played` leads to, already
    /// graded: the seat to play there and the `best` of its grade. Then
    /// `played` needs no search when that seat is of its side, or in the
    /// pairs game (the other side takes the rest).
    pub fn grade(
        &mut self,
        h: &HandState,
        played: Card,
        after: Option<(Seat, i32)>,
    ) -> Option<Grade> {
        if !self.root(h, h.turn) {
            return None;
        }
        let root = self.pos;
        let (legal, beat) = root.legal();
        if !legal.contains(played) {
            return None;
        }
        let alive = root.alive();
        let run = |c| super::super::solver::representative(c, legal, alive);
        let mine = run(played);
        let gained = self.play(mine, beat.contains(mine));
        let known = after.and_then(|(seat, best)| {
            let table = self.pos.table;
            if table.side(seat) == self.side {
                Some(best)
            } else {
                (table.sides() == 2).then(|| self.pos.left - best)
            }
        });
        let value = gained
            + known.unwrap_or_else(|| {
                let guess = self.first_guess();
                self.exact(guess)
            });
        self.pos = root;
        let (mut best, mut best_runs) = (value, vec![mine]);
        for &c in ordered(&root, legal, beat, [None; 2]).as_slice() {
            if self.aborted {
                break;
            }
            if c == mine {
                continue;
            }
            let gained = self.play(c, beat.contains(c));
            let v = gained + self.reach(best - gained);
            if v >= best {
                // At least the best: more, unless it fails one point above.
                let above = if v > best {
                    v
                } else {
                    gained + self.reach(best + 1 - gained)
                };
                if above > best {
                    let lo = above - gained;
                    best = gained + self.exact_within(lo, lo, self.pos.left);
                    best_runs.clear();
                }
                best_runs.push(c);
            }
            self.pos = root;
        }
        let best_cards = legal.iter().filter(|&c| best_runs.contains(&run(c)));
        (!self.aborted).then(|| Grade {
            value,
            best,
            best_cards: best_cards.collect(),
        })
    }

    /// Plays `c` on the position; the points the side gained.
    pub(super) fn play(&mut self, c: Card, takes: bool) -> i32 {
        match self.pos.play(c, takes) {
            Some(w) if self.pos.table.side(w.winner) == self.side => w.points,
            _ => 0,
        }
    }

    /// A zero-window search: whether the side can take at least `need`
    /// hand points from here, as a bound `v` on them: at least `v` when
    /// `v >= need`, at most `v` when below.
    pub(super) fn reach(&mut self, need: i32) -> i32 {
        // A target of zero or fewer is reached and one above all that is
        // left is out of reach: no position is searched, but at a trick
        // start the bounds below still answer as tight a bound as is cheap.
        let decided = need <= 0 || need > self.pos.left;
        if !decided {
            if self.aborted {
                return need - 1;
            }
            self.nodes += 1;
            if self.nodes > self.budget {
                self.aborted = true;
                return need - 1;
            }
        }
        if !self.pos.trick.is_empty() {
            if decided {
                return need.clamp(0, self.pos.left);
            }
            return self.moves(need, None).0;
        }
        if self.pos.hands[self.pos.turn as usize].len() == 1 {
            return self.last_trick();
        }
        // A decided target is answered by the bounds (at least 0, at most
        // all that is left, so they settle it); any other looks in the
        // table first, which settles most trick starts, and counts the
        // bounds only when it does not.
        if decided {
            let (lo, hi) = self.bounds();
            return if need <= lo { lo } else { hi };
        }
        let held = self.pos.held();
        let key = Key::of(&self.pos, held);
        let mut hint = None;
        let left = self.pos.left;
        if let Some(e) = self.table.get(&key) {
            let (elo, ehi) = if self.flip {
                (left - e.hi.min(left), left - e.lo)
            } else {
                (e.lo, e.hi)
            };
            if elo >= need {
                return elo;
            }
            if ehi < need {
                return ehi;
            }
            hint = decode(e.best, held);
        }
        let (lo, hi) = self.bounds();
        if need <= lo {
            return lo;
        }
        if need > hi {
            return hi;
        }
        let before = self.nodes;
        let (v, best) = self.moves(need, hint);
        if !self.aborted
            && let Some(c) = best
        {
            // What the search cost, in powers of two: the entry's worth
            // when a slot must be given up.
            let cost = (u64::BITS - (self.nodes - before).leading_zeros()) as u8;
            let v = if v >= need { v.max(lo) } else { v.min(hi) };
            let (bound, reached) = if self.flip {
                (left - v, v < need)
            } else {
                (v, v >= need)
            };
            self.table
                .store(&key, bound, reached, encode(c, held), cost);
        }
        v
    }

    /// Bounds on the hand points the side takes from a trick start: the
    /// sure points of the side that leads, the strongest trumps each side
    /// holds.
    fn bounds(&self) -> (i32, i32) {
        let leading = self.pos.table.side(self.pos.turn) == self.side;
        let lead_sure = sure_points(&self.pos);
        let (ours, theirs) = top_trumps(&self.pos, self.seats);
        let (lo, theirs) = if leading {
            (lead_sure.max(ours), theirs)
        } else {
            (ours, lead_sure.max(theirs))
        };
        (lo, self.pos.left - theirs)
    }

    /// The points the side takes from the last trick (at its start: every
    /// seat holds one card, so every card is forced).
    fn last_trick(&mut self) -> i32 {
        let saved = self.pos;
        let mut gained = 0;
        for _ in 0..self.pos.table.seats {
            let c = self.pos.hands[self.pos.turn as usize]
                .lowest()
                .unwrap_or_default();
            let (_, beat) = self.pos.legal();
            gained += self.play(c, beat.contains(c));
        }
        self.pos = saved;
        gained
    }

    /// Tries the moves of the seat to play (`hint` first, then at a trick
    /// start the killer lead): a bound on the points (as
    /// [`DealSolver::reach`] answers), and the card that decided it.
    fn moves(&mut self, need: i32, hint: Option<Card>) -> (i32, Option<Card>) {
        let (legal, beat) = self.pos.legal();
        let lead = self.pos.trick.is_empty();
        let (depth, leader) = (
            self.pos.hands[self.pos.turn as usize].len() as usize,
            self.pos.turn as usize,
        );
        let killer = if lead {
            self.killers[depth][leader]
        } else {
            None
        };
        let moves = ordered(&self.pos, legal, beat, [hint, killer]);
        let maximising = self.pos.table.side(self.pos.turn) == self.side;
        let saved = self.pos;
        // Failing every card: the best of the bounds they answered.
        let mut bound = if maximising { i32::MIN } else { i32::MAX };
        for &c in moves.as_slice() {
            let gained = self.play(c, beat.contains(c));
            let v = gained + self.reach(need - gained);
            self.pos = saved;
            if self.aborted {
                return (need - 1, None);
            }
            if (v >= need) == maximising {
                if lead {
                    self.killers[depth][leader] = Some(c);
                }
                return (v, Some(c));
            }
            bound = if maximising {
                bound.max(v)
            } else {
                bound.min(v)
            };
        }
        (bound, moves.as_slice().first().copied())
    }
}
