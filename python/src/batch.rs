//! `Batch`: many matches stepped at once, numpy in and out, the Python
//! overhead paid once per batch rather than once per card.

use numpy::ndarray::{Array1, Array2};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use botifarra::rules::card::with_bit_instructions;
use botifarra::rules::random::{SplitMix64, below, random_card};
use botifarra::rules::{Action, Event, Match, Phase, RuleError, Rules, Seed};
use rand::Rng;

use crate::encode::{self, ACTIONS, Facts, OBS};
use crate::game::{Game, read_rules};
use crate::{refused, value_error};

/// What [`Batch::observe`] returns: observations, masks, seats to act.
type Observed<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<i64>>,
);

/// What [`Batch::step`] returns: rewards and ends.
type Stepped<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<bool>>);

/// What [`Batch::step_sampled`] returns: the actions drawn, rewards, ends.
type Sampled<'py> = (
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

/// The deal seed of the `k`-th match a batch seeded with `seed` starts.
fn match_seed(seed: u64, k: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&k.to_le_bytes());
    bytes[8..16].copy_from_slice(&seed.to_le_bytes());
    bytes
}

/// `Batch(n, seed=0, rules=None, **options)`: `n` matches of the same
/// rules, each dealt automatically (observations are always at a real
/// decision: trump, double or card) and restarted with a fresh seed when
/// it ends. Match `k` of the batch (counting restarts) has the seed whose
/// bytes 0..8 are `k` and 8..16 are `seed`, little-endian.
#[pyclass(module = "botifarra._botifarra")]
pub struct Batch {
    games: Vec<Match>,
    rules: Rules,
    seed: u64,
    started: u64,
    hands: u64,
    matches: u64,
    events: Vec<Event>,
}

impl Batch {
    /// A new match, dealt.
    fn fresh(&mut self) -> Match {
        let mut m = Match::new(self.rules.clone(), match_seed(self.seed, self.started))
            .expect("the rules were validated");
        self.started += 1;
        deal_if_due(&mut m, &mut self.events);
        m
    }

    /// Applies `action` in game `i` for its seat to act, writing the
    /// seats' rewards into `rewards` (4 per game) and the end into `done`.
    #[inline(always)]
    fn step_one(
        &mut self,
        i: usize,
        action: Action,
        rewards: &mut [f32],
        done: &mut [bool],
    ) -> Result<(), RuleError> {
        let m = &mut self.games[i];
        let seat = m.turn().unwrap_or(0);
        let before = m.scores;
        let played = m.results.len();
        self.events.clear();
        m.apply(seat, action, &mut self.events)?;
        deal_if_due(m, &mut self.events);
        // Scores move only when a hand ends: the rewards stay zero otherwise.
        if m.scores != before {
            let table = m.table();
            for s in 0..table.seats {
                let side = usize::from(table.side(s));
                rewards[i * 4 + usize::from(s)] = (m.scores[side] - before[side]) as f32;
            }
        }
        self.hands += (m.results.len() - played) as u64;
        if m.phase() == Phase::MatchOver {
            done[i] = true;
            self.matches += 1;
            self.games[i] = self.fresh();
        }
        Ok(())
    }

    /// Each game's legal-action mask and seat to act (`n × ACTIONS`, `n`),
    /// and that seat's observation into `obs` (`n × OBS`, zeroed) if given.
    fn seats_and_masks(&self, mut obs: Option<&mut [f32]>) -> (Vec<bool>, Vec<i64>) {
        let n = self.games.len();
        let mut mask = vec![false; n * ACTIONS];
        let mut turn = vec![0i64; n];
        with_bit_instructions(
            #[inline(always)]
            || {
                for (i, m) in self.games.iter().enumerate() {
                    let seat = m.turn().unwrap_or(0);
                    turn[i] = i64::from(seat);
                    if let Some(obs) = obs.as_deref_mut() {
                        Facts::of_match(m, seat).write(&mut obs[i * OBS..(i + 1) * OBS]);
                    }
                    encode::write_mask(m, seat, &mut mask[i * ACTIONS..(i + 1) * ACTIONS]);
                }
            },
        );
        (mask, turn)
    }

    /// Steps every game by its action; `Err((i, refusal))` at the first
    /// refused one (games before it have moved).
    #[inline(always)]
    fn step_all(
        &mut self,
        actions: &[i64],
        rewards: &mut [f32],
        done: &mut [bool],
    ) -> Result<(), (usize, Result<RuleError, String>)> {
        for (i, &a) in actions.iter().enumerate() {
            let id = usize::try_from(a).map_err(|_| (i, Err("negative id".into())))?;
            let action = encode::of_id(id).ok_or((i, Err(format!("no action has id {id}"))))?;
            self.step_one(i, action, rewards, done)
                .map_err(|e| (i, Ok(e)))?;
        }
        Ok(())
    }

    /// Steps every game by an action drawn from its legal ones: softmax of
    /// `logits` (row `i`, 60 wide) over them, or uniformly without logits.
    #[inline(always)]
    fn sample_all(
        &mut self,
        logits: Option<&[f32]>,
        rng: &mut SplitMix64,
        out: (&mut [i64], &mut [f32], &mut [bool]),
    ) {
        let (chosen, rewards, done) = out;
        for i in 0..self.games.len() {
            let m = &self.games[i];
            let action = match (logits, m.hand.as_ref()) {
                // Uniform over the cards: straight from the legal set.
                (None, Some(h)) if m.phase() == Phase::Playing => {
                    let legal = h.legal_cards(&m.rules, m.table());
                    let card = random_card(legal, rng).expect("a legal card");
                    Action::Play { card }
                }
                _ => {
                    let mut mask = [false; ACTIONS];
                    encode::write_mask(m, m.turn().unwrap_or(0), &mut mask);
                    let row = logits.map(|l| &l[i * ACTIONS..(i + 1) * ACTIONS]);
                    encode::of_id(sample(&mask, row, rng)).expect("a legal id")
                }
            };
            chosen[i] = encode::id_of(action) as i64;
            self.step_one(i, action, rewards, done)
                .expect("a legal action is accepted");
        }
    }
}

/// A legal id of `mask`: uniform, or by softmax of `logits` over the legal ids.
#[inline(always)]
fn sample(mask: &[bool; ACTIONS], logits: Option<&[f32]>, rng: &mut SplitMix64) -> usize {
    let legal = mask.iter().filter(|&&b| b).count() as u32;
    let Some(z) = logits else {
        let k = below(rng, legal) as usize;
        return (0..ACTIONS).filter(|&a| mask[a]).nth(k).expect("k < legal");
    };
    let top = (0..ACTIONS)
        .filter(|&a| mask[a])
        .map(|a| z[a])
        .fold(f32::NEG_INFINITY, f32::max);
    let weight = |a: usize| if mask[a] { (z[a] - top).exp() } else { 0.0 };
    let total: f32 = (0..ACTIONS).map(weight).sum();
    let mut u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * total;
    let mut last = 0;
    for a in (0..ACTIONS).filter(|&a| mask[a]) {
        last = a;
        u -= weight(a);
        if u < 0.0 {
            return a;
        }
    }
    last
}

/// Deals when the match awaits a deal.
#[inline(always)]
fn deal_if_due(m: &mut Match, events: &mut Vec<Event>) {
    if m.phase() == Phase::AwaitingDeal {
        let dealer = m.dealer;
        m.apply(dealer, botifarra::rules::Action::Deal, events)
            .expect("the dealer may always deal");
    }
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (n, seed=0, rules=None, **options))]
    fn new(
        n: usize,
        seed: u64,
        rules: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Batch> {
        if n == 0 {
            return Err(value_error("a batch holds at least one game"));
        }
        let mut b = Batch {
            games: Vec::with_capacity(n),
            rules: read_rules(rules, options)?,
            seed,
            started: 0,
            hands: 0,
            matches: 0,
            events: Vec::with_capacity(64),
        };
        for _ in 0..n {
            let m = b.fresh();
            b.games.push(m);
        }
        Ok(b)
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// `(obs, mask, turn)`: for each game, the observation of the seat to
    /// act (float32, `(n, OBSERVATION_SIZE)`), its legal-action mask (bool,
    /// `(n, ACTION_SPACE)`) and that seat (int64, `(n,)`).
    fn observe<'py>(&self, py: Python<'py>) -> Observed<'py> {
        let n = self.games.len();
        let (obs, mask, turn) = py.detach(|| {
            let mut obs = vec![0f32; n * OBS];
            let (mask, turn) = self.seats_and_masks(Some(&mut obs));
            (obs, mask, turn)
        });
        (
            Array2::from_shape_vec((n, OBS), obs)
                .expect("sized")
                .into_pyarray(py),
            Array2::from_shape_vec((n, ACTIONS), mask)
                .expect("sized")
                .into_pyarray(py),
            Array1::from_vec(turn).into_pyarray(py),
        )
    }

    /// `(mask, turn)`: [`Batch::observe`] without the observations, for
    /// players that need only the legal actions.
    fn masks<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray2<bool>>, Bound<'py, PyArray1<i64>>) {
        let n = self.games.len();
        let (mask, turn) = py.detach(|| self.seats_and_masks(None));
        (
            Array2::from_shape_vec((n, ACTIONS), mask)
                .expect("sized")
                .into_pyarray(py),
            Array1::from_vec(turn).into_pyarray(py),
        )
    }

    /// `(rewards, done)` after applying `actions[i]` (an action id) in game
    /// `i` for its seat to act. `rewards` (float32, `(n, 4)`): the match
    /// points each seat's side recorded in the step; `done` (bool, `(n,)`):
    /// the match ended (the game has restarted with a new seed). A refused
    /// action raises `RuleRefused` naming the game (`.game`); games before
    /// it have moved.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Stepped<'py>> {
        let n = self.games.len();
        let actions = actions.as_slice().map_err(value_error)?.to_vec();
        if actions.len() != n {
            return Err(value_error(format!(
                "{} actions for {n} games",
                actions.len()
            )));
        }
        let mut rewards = vec![0f32; n * 4];
        let mut done = vec![false; n];
        let result = py.detach(|| {
            with_bit_instructions(
                #[inline(always)]
                || self.step_all(&actions, &mut rewards, &mut done),
            )
        });
        if let Err((i, e)) = result {
            let err = match e {
                Ok(r) => refused(py, &r),
                Err(msg) => value_error(msg),
            };
            let _ = err.value(py).setattr("game", i);
            return Err(err);
        }
        Ok((
            Array2::from_shape_vec((n, 4), rewards)
                .expect("sized")
                .into_pyarray(py),
            Array1::from_vec(done).into_pyarray(py),
        ))
    }

    /// `(actions, rewards, done)` after stepping every game by an action
    /// drawn in Rust from its legal ones: by softmax of `logits` (float32,
    /// `(n, ACTION_SPACE)`, e.g. a policy's output; illegal entries are
    /// ignored), or uniformly without. `seed` seeds the draw.
    #[pyo3(signature = (logits=None, seed=0))]
    fn step_sampled<'py>(
        &mut self,
        py: Python<'py>,
        logits: Option<PyReadonlyArray2<'py, f32>>,
        seed: u64,
    ) -> PyResult<Sampled<'py>> {
        let n = self.games.len();
        let logits = match &logits {
            Some(l) if l.shape() != [n, ACTIONS] => {
                return Err(value_error(format!("logits must be ({n}, {ACTIONS})")));
            }
            Some(l) => Some(l.as_slice().map_err(value_error)?),
            None => None,
        };
        let mut chosen = vec![0i64; n];
        let mut rewards = vec![0f32; n * 4];
        let mut done = vec![false; n];
        let mut rng = SplitMix64::new(seed);
        py.detach(|| {
            with_bit_instructions(
                #[inline(always)]
                || self.sample_all(logits, &mut rng, (&mut chosen, &mut rewards, &mut done)),
            )
        });
        Ok((
            Array1::from_vec(chosen).into_pyarray(py),
            Array2::from_shape_vec((n, 4), rewards)
                .expect("sized")
                .into_pyarray(py),
            Array1::from_vec(done).into_pyarray(py),
        ))
    }

    /// `decide(level, seed=0) -> int64[n]`: the action id the house bot
    /// `level` takes for the seat to act in each game (labels for
    /// imitation, or opponents); `seed` seeds the bots' dice.
    #[pyo3(signature = (level, seed=0))]
    fn decide<'py>(
        &self,
        py: Python<'py>,
        level: &str,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let bot = botifarra::bots::by_name(level)
            .ok_or_else(|| crate::invalid(format!("no house bot {level:?}")))?;
        let ids = py.detach(|| {
            self.games
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
                        seed.wrapping_add((i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
                    );
                    let view = m.view(m.turn());
                    encode::id_of(bot.choose(&view, &mut rng)) as i64
                })
                .collect::<Vec<i64>>()
        });
        Ok(Array1::from_vec(ids).into_pyarray(py))
    }

    /// A copy of game `i` as a `Game`.
    fn game(&self, i: usize) -> PyResult<Game> {
        let m = self
            .games
            .get(i)
            .ok_or_else(|| value_error("no such game"))?;
        Game::of(m.rules.clone(), m.seed).map(|mut g| {
            g.m = m.clone();
            g
        })
    }

    /// Hands finished in every game since the batch was made.
    #[getter]
    fn hands_played(&self) -> u64 {
        self.hands
    }

    /// Matches finished (and restarted) since the batch was made.
    #[getter]
    fn matches_played(&self) -> u64 {
        self.matches
    }
}
