//! `Batch`: many matches stepped at once, numpy in and out, the Python
//! overhead paid once per batch rather than once per card.

use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use botifarra::rules::{Event, Match, Phase, RuleError, Rules, Seed};

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

    /// Steps every game by its action; `Err((i, refusal))` at the first
    /// refused one (games before it have moved).
    fn step_all(
        &mut self,
        actions: &[i64],
        rewards: &mut [f32],
        done: &mut [bool],
    ) -> Result<(), (usize, Result<RuleError, String>)> {
        for i in 0..self.games.len() {
            let id = usize::try_from(actions[i]).map_err(|_| (i, Err("negative id".into())))?;
            let action = encode::of_id(id).ok_or((i, Err(format!("no action has id {id}"))))?;
            let m = &mut self.games[i];
            let seat = m.turn().unwrap_or(0);
            let before = m.scores;
            let played = m.results.len();
            self.events.clear();
            m.apply(seat, action, &mut self.events)
                .map_err(|e| (i, Ok(e)))?;
            deal_if_due(m, &mut self.events);
            let table = m.table();
            for s in 0..table.seats {
                let side = usize::from(table.side(s));
                rewards[i * 4 + usize::from(s)] = (m.scores[side] - before[side]) as f32;
            }
            self.hands += (m.results.len() - played) as u64;
            if m.phase() == Phase::MatchOver {
                done[i] = true;
                self.matches += 1;
                self.games[i] = self.fresh();
            }
        }
        Ok(())
    }
}

/// Deals when the match awaits a deal.
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
            let mut mask = vec![false; n * ACTIONS];
            let mut turn = vec![0i64; n];
            for (i, m) in self.games.iter().enumerate() {
                let seat = m.turn().unwrap_or(0);
                turn[i] = i64::from(seat);
                Facts::of_match(m, seat).write(&mut obs[i * OBS..(i + 1) * OBS]);
                encode::write_mask(m, seat, &mut mask[i * ACTIONS..(i + 1) * ACTIONS]);
            }
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
        let (mask, turn) = py.detach(|| {
            let mut mask = vec![false; n * ACTIONS];
            let mut turn = vec![0i64; n];
            for (i, m) in self.games.iter().enumerate() {
                let seat = m.turn().unwrap_or(0);
                turn[i] = i64::from(seat);
                encode::write_mask(m, seat, &mut mask[i * ACTIONS..(i + 1) * ACTIONS]);
            }
            (mask, turn)
        });
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
        let result = py.detach(|| self.step_all(&actions, &mut rewards, &mut done));
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
