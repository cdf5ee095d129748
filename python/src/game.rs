//! `Game`: one match of any variant and options, the server's engine.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyString};
use serde_json::Value;

use botifarra::bots::solver::Solver;
use botifarra::rules::{Action, Event, Match, Phase, Rules, Seat, Seed};

use crate::convert::{de, from_py, ser, to_py};
use crate::encode::{self, ACTIONS, Facts, OBS};
use crate::{invalid, refused, value_error};

/// A match: `Game(seed=None, rules=None, **options)`.
///
/// `seed` is 64 hex digits (as the server's `seed`), 32 bytes, or an int
/// (the same as its 64-digit hex form); none draws one at random.
/// `rules` is a dict of the server's rule options; keyword options are
/// merged into it (`Game(variant="abarrotada", target=51)`).
#[pyclass(module = "botifarra._botifarra", from_py_object)]
#[derive(Clone)]
pub struct Game {
    pub(crate) m: Match,
    events: Vec<Event>,
}

impl Game {
    /// A game of `rules` and `seed`.
    pub(crate) fn of(rules: Rules, seed: Seed) -> PyResult<Game> {
        let m = Match::new(rules, seed).map_err(invalid)?;
        Ok(Game {
            m,
            events: Vec::with_capacity(64),
        })
    }

    /// The seat an action is made for: `seat`, else the seat to act (seat 0
    /// once the match is over, which the engine refuses as the server does).
    fn actor(&self, seat: Option<Seat>) -> Seat {
        seat.or(self.m.turn()).unwrap_or(0)
    }

    /// Applies `action` for `seat`, raising the engine's refusal.
    pub(crate) fn act(&mut self, py: Python<'_>, seat: Seat, action: Action) -> PyResult<()> {
        self.events.clear();
        self.m
            .apply(seat, action, &mut self.events)
            .map_err(|e| refused(py, &e))
    }
}

/// Reads a seed argument: hex string, bytes or int.
pub(crate) fn read_seed(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Seed> {
    let Some(s) = seed.filter(|s| !s.is_none()) else {
        return Ok(rand::random());
    };
    let mut out = [0u8; 32];
    if let Ok(text) = s.cast::<PyString>() {
        let text = text.to_str()?;
        if text.len() != 64 {
            return Err(invalid("a seed is 64 hex digits"));
        }
        std::iter::zip(out.iter_mut(), text.as_bytes().chunks(2)).try_for_each(|(o, pair)| {
            let pair = std::str::from_utf8(pair).map_err(invalid)?;
            *o = u8::from_str_radix(pair, 16).map_err(|_| invalid("a seed is 64 hex digits"))?;
            PyResult::Ok(())
        })?;
    } else if let Ok(b) = s.cast::<PyBytes>() {
        out = b
            .as_bytes()
            .try_into()
            .map_err(|_| invalid("a seed is 32 bytes"))?;
    } else if s.is_instance_of::<PyInt>() {
        let n: u128 = s
            .extract()
            .map_err(|_| invalid("an int seed is 0..2**128"))?;
        out[16..].copy_from_slice(&n.to_be_bytes());
    } else {
        return Err(invalid("a seed is 64 hex digits, 32 bytes or an int"));
    }
    Ok(out)
}

/// Reads rules from a dict and keyword options.
pub(crate) fn read_rules(
    rules: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Rules> {
    let mut v = match rules.filter(|r| !r.is_none()) {
        Some(r) => from_py(r)?,
        None => Value::Object(Default::default()),
    };
    if let (Some(o), Some(map)) = (options, v.as_object_mut()) {
        for (k, x) in o.iter() {
            map.insert(k.extract::<String>()?, from_py(&x)?);
        }
    }
    let rules: Rules =
        serde_json::from_value(v).map_err(|e| invalid(format!("invalid rules: {e}")))?;
    rules.validate().map_err(invalid)?;
    Ok(rules)
}

/// Reads an action: a dict in the API's shape (an optional `seat` names
/// the acting seat, an `expected_version` is ignored) or an action id.
fn read_action(obj: &Bound<'_, PyAny>) -> PyResult<(Action, Option<Seat>)> {
    if obj.is_instance_of::<PyInt>() {
        let id: usize = obj.extract()?;
        let a = encode::of_id(id).ok_or_else(|| invalid(format!("no action has id {id}")))?;
        return Ok((a, None));
    }
    let mut v = from_py(obj)?;
    let Some(map) = v.as_object_mut() else {
        return Err(invalid(
            "an action is an object, like {\"type\": \"play\", \"card\": \"9O\"}",
        ));
    };
    map.remove("expected_version");
    let seat = match map.remove("seat") {
        Some(s) => {
            Some(serde_json::from_value::<Seat>(s).map_err(|_| invalid("seat is a seat number"))?)
        }
        None => None,
    };
    let a = serde_json::from_value(v).map_err(|e| invalid(format!("invalid action: {e}")))?;
    Ok((a, seat))
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (seed=None, rules=None, **options))]
    fn new(
        seed: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Game> {
        Game::of(read_rules(rules, options)?, read_seed(seed)?)
    }

    /// The seed, 64 hex digits (the local game holds every card).
    #[getter]
    fn seed(&self) -> String {
        self.m.seed.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The rule options, as the server writes them.
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        ser(py, &self.m.rules)
    }

    /// Seats at the table (4, or 3 in `abarrotada3`).
    #[getter]
    fn seats(&self) -> u8 {
        self.m.table().seats
    }

    /// The phase, as views write it.
    #[getter]
    fn phase(&self) -> &'static str {
        self.m.phase().as_str()
    }

    /// The seat to act, or None once the match is over.
    #[getter]
    fn turn(&self) -> Option<Seat> {
        self.m.turn()
    }

    /// The actions `seat` (default: the seat to act) may make now, as dicts.
    #[pyo3(signature = (seat=None))]
    fn legal_actions(&self, py: Python<'_>, seat: Option<Seat>) -> PyResult<Py<PyAny>> {
        ser(py, &self.m.legal_actions(self.actor(seat)))
    }

    /// The same as ids of the fixed action space.
    #[pyo3(signature = (seat=None))]
    fn legal_action_ids(&self, seat: Option<Seat>) -> Vec<usize> {
        let mut mask = [false; ACTIONS];
        encode::write_mask(&self.m, self.actor(seat), &mut mask);
        (0..ACTIONS).filter(|&i| mask[i]).collect()
    }

    /// Applies an action (a dict as the API takes it, or an action id) for
    /// `seat` (default: the action's `seat`, else the seat to act). Raises
    /// `RuleRefused` (with `.rule`) when the engine refuses it, or
    /// `InvalidRequest` for a malformed action; the game is then unchanged.
    #[pyo3(signature = (action, seat=None))]
    fn apply(
        &mut self,
        py: Python<'_>,
        action: &Bound<'_, PyAny>,
        seat: Option<Seat>,
    ) -> PyResult<()> {
        let (a, named) = read_action(action)?;
        if let (Some(s), Some(n)) = (seat, named)
            && s != n
        {
            return Err(invalid(format!("the action names seat {n}, not seat {s}")));
        }
        let seat = self.actor(seat.or(named));
        self.act(py, seat, a)
    }

    /// The events of the last successful action (unredacted: every seat's
    /// cards in `hand_dealt`).
    fn last_events(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        ser(py, &self.events)
    }

    /// `seat`'s side forfeits the hand in progress.
    fn resign(&mut self, py: Python<'_>, seat: Seat) -> PyResult<()> {
        self.events.clear();
        self.m
            .resign(seat, &mut self.events)
            .map_err(|e| refused(py, &e))
    }

    /// What `seat` may know (None: a spectator), as the server's view.
    #[pyo3(signature = (seat=None))]
    fn view(&self, py: Python<'_>, seat: Option<Seat>) -> PyResult<Py<PyAny>> {
        if seat.is_some_and(|s| s >= self.m.table().seats) {
            return Err(value_error("no such seat"));
        }
        ser(py, &self.m.view(seat))
    }

    /// The record of every hand as `seat` may see it (the API's history).
    #[pyo3(signature = (seat=None))]
    fn history(&self, py: Python<'_>, seat: Option<Seat>) -> PyResult<Py<PyAny>> {
        ser(py, &self.m.history_view(seat))
    }

    /// Whether the match is over.
    fn is_over(&self) -> bool {
        self.m.phase() == Phase::MatchOver
    }

    /// Match totals per side (a team in pairs, a seat in abarrotada).
    fn scores(&self) -> Vec<i32> {
        self.m.scores[..usize::from(self.m.table().sides())].to_vec()
    }

    /// The winning side, "draw", or None while the match goes on.
    #[getter]
    fn winner(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        ser(py, &self.m.winner)
    }

    /// The side `seat` scores for.
    fn side(&self, seat: Seat) -> u8 {
        self.m.table().side(seat)
    }

    /// Hands finished so far.
    #[getter]
    fn hands_played(&self) -> usize {
        self.m.results.len()
    }

    /// An independent copy.
    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Game {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        Clone::clone(self)
    }

    /// The observation of `seat` (docs/python.md, "The encoding").
    fn observation<'py>(&self, py: Python<'py>, seat: Seat) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let arr = PyArray1::<f32>::zeros(py, OBS, false);
        {
            let mut rw = arr.readwrite();
            Facts::of_match(&self.m, seat).write(rw.as_slice_mut().map_err(value_error)?);
        }
        Ok(arr)
    }

    /// The legal-action mask of `seat` (default: the seat to act).
    #[pyo3(signature = (seat=None))]
    fn legal_mask<'py>(&self, py: Python<'py>, seat: Option<Seat>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = [false; ACTIONS];
        encode::write_mask(&self.m, self.actor(seat), &mut mask);
        PyArray1::from_slice(py, &mask)
    }

    /// The exact solver's value of every legal card of the seat to play,
    /// every hand known: `{card: points}`, the points (+1 a trick) its side
    /// (its own seat in abarrotada) takes from here to the end of the hand
    /// with best play by all. None past `budget` positions or out of play.
    #[pyo3(signature = (budget=2_000_000))]
    fn solve(&self, py: Python<'_>, budget: u64) -> PyResult<Py<PyAny>> {
        let Some(h) = self
            .m
            .hand
            .as_ref()
            .filter(|_| self.m.phase() == Phase::Playing)
        else {
            return Ok(py.None());
        };
        let mut solver = Solver::new(&self.m.rules, h.turn, budget);
        let values = py.detach(|| solver.solve_each(h));
        match values {
            None => Ok(py.None()),
            Some(v) => {
                let map: serde_json::Map<String, Value> = v
                    .into_iter()
                    .map(|(c, x)| (c.to_string(), Value::from(x)))
                    .collect();
                to_py(py, &Value::Object(map))
            }
        }
    }

    /// The whole state as JSON (the server's stored form of a match).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.m).map_err(value_error)
    }

    /// A game from `to_json`'s output.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Game> {
        let m: Match = serde_json::from_str(text).map_err(invalid)?;
        Ok(Game {
            m,
            events: Vec::new(),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(variant={:?}, phase={}, turn={:?}, scores={:?})",
            self.m.rules.variant,
            self.m.phase().as_str(),
            self.m.turn(),
            self.scores()
        )
    }
}

/// Reads a view dict as the server's view type.
pub(crate) fn read_view(view: &Bound<'_, PyAny>) -> PyResult<botifarra::rules::view::GameView> {
    de(view, "view")
}
