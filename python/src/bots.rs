//! The house bots from Python: `decide(level, view)`.

use pyo3::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use botifarra::bots;

use crate::convert::ser;
use crate::game::{Game, read_view};
use crate::{invalid, value_error};

/// `decide(level, view, seed=None) -> dict`: the action the house bot
/// `level` (`random`, `easy`, `medium`, `hard`, `expert`, `heuristic`,
/// `montecarlo`) takes in `view`, a seat's view dict (as `Game.view(seat)`
/// or the server returns it), or a `Game` (then for the seat to act).
/// `seed` makes the bot's own dice repeatable.
#[pyfunction]
#[pyo3(signature = (level, view, seed=None))]
pub fn decide(
    py: Python<'_>,
    level: &str,
    view: &Bound<'_, PyAny>,
    seed: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let bot = bots::by_name(level).ok_or_else(|| {
        invalid(format!(
            "no house bot {level:?}: one of {}",
            bots::NAMES.join(", ")
        ))
    })?;
    let v = match view.cast::<Game>() {
        Ok(g) => {
            let g = g.borrow();
            let seat = g.m.turn().ok_or_else(|| value_error("the match is over"))?;
            g.m.view(Some(seat))
        }
        Err(_) => read_view(view)?,
    };
    if v.legal_actions.is_empty() {
        return Err(value_error("the view has no legal action to choose from"));
    }
    let mut rng = match seed {
        Some(s) => Xoshiro256PlusPlus::seed_from_u64(s),
        None => Xoshiro256PlusPlus::seed_from_u64(rand::random()),
    };
    let action = py.detach(|| bot.choose(&v, &mut rng));
    ser(py, &action)
}

/// `bot_names() -> list[str]`: the house bots, the default first.
#[pyfunction]
pub fn bot_names() -> Vec<&'static str> {
    bots::NAMES.to_vec()
}
