//! The fixed action space and the fixed-length information-state encoding
//! of the batched API (docs/python.md, "The encoding").
//!
//! **Actions** (60 ids): 0 `deal`; 1..=48 `play` of the card with index
//! `id - 1` (suit O, C, E, B × strength 2 … 9); 49..=55 `trump` O, C, E,
//! B, botifarra, delegate, estevet; 56..=59 `double` contro, recontro,
//! sant_vicenc, pass.
//!
//! **Observation** ([`OBS`] floats) for one seat, every seat numbered
//! relative to it (0 = the viewer, 1 = the next to play, ...): see the
//! offsets below. Built from the same facts whether read from a match
//! ([`Facts::of_match`]) or from a view a server sent ([`Facts::of_view`]),
//! so a policy trained locally reads server views identically.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

use botifarra::rules::contract::{Call, Trump, TrumpChoice};
use botifarra::rules::view::GameView;
use botifarra::rules::{Action, Card, CardSet, Match, Phase, Rules, Seat, Suit};

use crate::convert::{de, ser};
use crate::value_error;

/// Size of the action space.
pub const ACTIONS: usize = 60;
/// Length of one observation.
pub const OBS: usize = 487;

/// Offsets of the observation's parts (each a block of floats).
pub mod at {
    /// 48: the viewer's cards (1 held).
    pub const HAND: usize = 0;
    /// 4×48: cards each relative seat played in the hand's completed tricks.
    pub const PLAYED: usize = 48;
    /// 4×48: cards each relative seat played to the trick on the table.
    pub const TRICK: usize = 240;
    /// 4: the trick's leader (one-hot, relative).
    pub const LEADER: usize = 432;
    /// 6: trump O, C, E, B, botifarra, none yet (one-hot).
    pub const TRUMP: usize = 436;
    /// 5: the declarer (relative), or none (one-hot).
    pub const DECLARER: usize = 442;
    /// 1: the choice was delegated.
    pub const DELEGATED: usize = 447;
    /// 4: doubles said 0..=3 (one-hot).
    pub const DOUBLES: usize = 448;
    /// 5: awaiting_deal, choosing_trump, doubling, playing, match_over.
    pub const PHASE: usize = 452;
    /// 4: the dealer (one-hot, relative).
    pub const DEALER: usize = 457;
    /// 4: the seat to act (one-hot, relative; zeros when over).
    pub const TURN: usize = 461;
    /// 4: cards held by each relative seat / 12.
    pub const SIZES: usize = 465;
    /// 4: tricks won by each relative seat's side in the hand / 12.
    pub const TRICKS_WON: usize = 469;
    /// 4: hand points taken by each relative seat's side / 72.
    pub const POINTS: usize = 473;
    /// 4: match score of each relative seat's side / target, at most 2.
    pub const SCORES: usize = 477;
    /// 3: pairs, abarrotada, abarrotada3 (one-hot).
    pub const VARIANT: usize = 481;
    /// 3: forced, must_trump, linear doubling.
    pub const OPTIONS: usize = 484;
}

/// Everything the observation holds, in absolute seats.
pub struct Facts {
    rules: Rules,
    viewer: Seat,
    phase: Phase,
    turn: Option<Seat>,
    dealer: Seat,
    hand: CardSet,
    played: [CardSet; 4],
    trick: [CardSet; 4],
    leader: Option<Seat>,
    trump: Option<Trump>,
    declarer: Option<Seat>,
    delegated: bool,
    doubles: usize,
    sizes: [u8; 4],
    tricks_won: [u8; 4],
    points: [u8; 4],
    scores: [i32; 4],
}

impl Facts {
    /// What `viewer` knows of `m`.
    pub fn of_match(m: &Match, viewer: Seat) -> Facts {
        let table = m.table();
        let shown = m.shown_hand();
        let live = m.hand.as_ref();
        let mut played = [CardSet::EMPTY; 4];
        let mut trick = [CardSet::EMPTY; 4];
        if let Some(h) = shown {
            for t in &h.tricks {
                for (s, &c) in t.seats(table).zip(t.cards()) {
                    played[s as usize].insert(c);
                }
            }
        }
        let on_table = live
            .filter(|_| m.phase() == Phase::Playing)
            .map(|h| &h.trick);
        if let Some(t) = on_table {
            for (s, &c) in t.seats(table).zip(t.cards()) {
                trick[s as usize].insert(c);
            }
        }
        let mut sizes = [0u8; 4];
        if let Some(h) = live {
            for (n, set) in sizes.iter_mut().zip(&h.hands) {
                *n = set.len() as u8;
            }
        }
        Facts {
            rules: m.rules.clone(),
            viewer,
            phase: m.phase(),
            turn: m.turn(),
            dealer: live.map_or(m.dealer, |h| h.dealer),
            hand: live.map_or(CardSet::EMPTY, |h| h.hands[viewer as usize]),
            played,
            trick,
            leader: on_table.map(|t| t.leader),
            trump: shown.and_then(|h| h.trump),
            declarer: shown.and_then(|h| h.declarer),
            delegated: shown
                .is_some_and(|h| h.choices.iter().any(|c| c.choice == TrumpChoice::Delegate)),
            doubles: shown.map_or(0, |h| usize::from(h.doubles)),
            sizes,
            tricks_won: shown.map_or([0; 4], |h| h.tricks_won),
            points: shown.map_or([0; 4], |h| h.points),
            scores: m.scores,
        }
    }

    /// What a view (the viewer's own) tells.
    pub fn of_view(v: &GameView) -> Result<Facts, String> {
        let viewer = v
            .you
            .ok_or("a spectator view has no viewer to encode for")?;
        let mut played = [CardSet::EMPTY; 4];
        let mut trick = [CardSet::EMPTY; 4];
        for t in &v.tricks {
            for pc in &t.cards {
                played[usize::from(pc.seat & 3)].insert(pc.card);
            }
        }
        if let Some(t) = &v.trick {
            for pc in &t.cards {
                trick[usize::from(pc.seat & 3)].insert(pc.card);
            }
        }
        let copy4 = |xs: &[u8]| {
            let mut out = [0u8; 4];
            for (o, x) in out.iter_mut().zip(xs) {
                *o = *x;
            }
            out
        };
        let mut scores = [0i32; 4];
        for (o, x) in scores.iter_mut().zip(&v.scores) {
            *o = *x;
        }
        Ok(Facts {
            rules: v.rules.clone(),
            viewer,
            phase: v.phase,
            turn: v.turn,
            dealer: v.dealer,
            hand: v.hand.iter().flatten().copied().collect(),
            played,
            trick,
            leader: v.trick.as_ref().map(|t| t.leader),
            trump: v.trump,
            declarer: v.declarer,
            delegated: v.choices.iter().any(|c| c.choice == TrumpChoice::Delegate),
            doubles: v.calls.len(),
            sizes: copy4(&v.hand_sizes),
            tricks_won: copy4(&v.tricks_won),
            points: copy4(&v.points_taken),
            scores,
        })
    }

    /// Writes the observation into `out` (length [`OBS`], zeroed).
    pub fn write(&self, out: &mut [f32]) {
        let table = self.rules.variant.table();
        let n = table.seats;
        let rel = |s: Seat| usize::from((s + n - self.viewer) % n);
        let abs = |r: u8| (self.viewer + r) % n;
        let mut set = |base: usize, cards: CardSet| {
            for c in cards.iter() {
                out[base + usize::from(c.index())] = 1.0;
            }
        };
        set(at::HAND, self.hand);
        for s in 0..n {
            set(at::PLAYED + 48 * rel(s), self.played[usize::from(s)]);
            set(at::TRICK + 48 * rel(s), self.trick[usize::from(s)]);
        }
        if let Some(l) = self.leader {
            out[at::LEADER + rel(l)] = 1.0;
        }
        let trump = match self.trump {
            Some(Trump::Suit(s)) => s as usize,
            Some(Trump::Botifarra) => 4,
            None => 5,
        };
        out[at::TRUMP + trump] = 1.0;
        out[at::DECLARER + self.declarer.map_or(4, rel)] = 1.0;
        out[at::DELEGATED] = f32::from(u8::from(self.delegated));
        out[at::DOUBLES + self.doubles.min(3)] = 1.0;
        out[at::PHASE + phase_index(self.phase)] = 1.0;
        out[at::DEALER + rel(self.dealer)] = 1.0;
        if let Some(t) = self.turn {
            out[at::TURN + rel(t)] = 1.0;
        }
        let target = self.rules.target.max(1) as f32;
        for r in 0..n {
            let s = abs(r);
            let side = usize::from(table.side(s));
            let r = usize::from(r);
            out[at::SIZES + r] = f32::from(self.sizes[usize::from(s)]) / 12.0;
            out[at::TRICKS_WON + r] = f32::from(self.tricks_won[side]) / 12.0;
            out[at::POINTS + r] = f32::from(self.points[side]) / 72.0;
            out[at::SCORES + r] = (self.scores[side] as f32 / target).min(2.0);
        }
        out[at::VARIANT + self.rules.variant as usize] = 1.0;
        out[at::OPTIONS] = f32::from(u8::from(self.rules.forced));
        out[at::OPTIONS + 1] = f32::from(u8::from(self.rules.must_trump));
        out[at::OPTIONS + 2] = f32::from(u8::from(
            self.rules.doubling == botifarra::rules::Doubling::Linear,
        ));
    }
}

fn phase_index(p: Phase) -> usize {
    match p {
        Phase::AwaitingDeal => 0,
        Phase::ChoosingTrump => 1,
        Phase::Doubling => 2,
        Phase::Playing => 3,
        Phase::MatchOver => 4,
    }
}

const CALLS: [Call; 4] = [Call::Contro, Call::Recontro, Call::SantVicenc, Call::Pass];

/// The id of an action in the fixed action space.
pub fn id_of(a: Action) -> usize {
    match a {
        Action::Deal => 0,
        Action::Play { card } => 1 + usize::from(card.index()),
        Action::Trump { choice } => {
            49 + match choice {
                TrumpChoice::Declare(Trump::Suit(s)) => s as usize,
                TrumpChoice::Declare(Trump::Botifarra) => 4,
                TrumpChoice::Delegate => 5,
                TrumpChoice::Estevet => 6,
            }
        }
        Action::Double { call } => 56 + CALLS.iter().position(|c| *c == call).unwrap_or(3),
    }
}

/// The action with this id, if any.
pub fn of_id(id: usize) -> Option<Action> {
    Some(match id {
        0 => Action::Deal,
        1..=48 => Action::Play {
            card: Card::from_index((id - 1) as u8)?,
        },
        49..=52 => Action::Trump {
            choice: TrumpChoice::Declare(Trump::Suit(Suit::from_index((id - 49) as u8))),
        },
        53 => Action::Trump {
            choice: TrumpChoice::Declare(Trump::Botifarra),
        },
        54 => Action::Trump {
            choice: TrumpChoice::Delegate,
        },
        55 => Action::Trump {
            choice: TrumpChoice::Estevet,
        },
        56..=59 => Action::Double {
            call: CALLS[id - 56],
        },
        _ => return None,
    })
}

/// Marks the legal actions of `seat` in `m` in `mask` (length [`ACTIONS`],
/// zeroed): the sets `Match::legal_actions` lists, without building a Vec.
#[inline(always)]
pub fn write_mask(m: &Match, seat: Seat, mask: &mut [bool]) {
    let phase = m.phase();
    if m.turn() != Some(seat) {
        return;
    }
    match (phase, m.hand.as_ref()) {
        (Phase::AwaitingDeal, _) => mask[id_of(Action::Deal)] = true,
        (Phase::Playing, Some(h)) => {
            for c in h.legal_cards(&m.rules, m.table()).iter() {
                mask[1 + usize::from(c.index())] = true;
            }
        }
        (Phase::ChoosingTrump, Some(h)) => {
            for choice in h.trump_choices(m.table()) {
                mask[id_of(Action::Trump { choice })] = true;
            }
        }
        (Phase::Doubling, Some(h)) => {
            for call in h.double_calls() {
                mask[id_of(Action::Double { call })] = true;
            }
        }
        _ => {}
    }
}

/// `action_id(action) -> int`: the id of an action dict in the action space.
#[pyfunction]
pub fn action_id(action: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(id_of(de::<Action>(action, "action")?))
}

/// `action_of_id(id) -> dict`: the action with this id.
#[pyfunction]
pub fn action_of_id(py: Python<'_>, id: usize) -> PyResult<Py<PyAny>> {
    let a = of_id(id).ok_or_else(|| value_error(format!("no action has id {id}")))?;
    ser(py, &a)
}

/// `encode_view(view) -> numpy.ndarray[float32]`: the observation of a
/// seat's view (a dict as `Game.view(seat)` or the server returns it).
#[pyfunction]
pub fn encode_view<'py>(
    py: Python<'py>,
    view: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let v: GameView = de(view, "view")?;
    let facts = Facts::of_view(&v).map_err(value_error)?;
    let arr = PyArray1::<f32>::zeros(py, OBS, false);
    {
        let mut rw = arr.readwrite();
        facts.write(rw.as_slice_mut().map_err(value_error)?);
    }
    Ok(arr)
}
