//! Python bindings of the Botifarra engine (`botifarra._botifarra`).
//!
//! - [`game::Game`]: one match, every variant and option, with actions and
//!   views as Python dicts in the JSON shapes of the HTTP API;
//! - [`batch::Batch`]: many matches stepped at once, observations and
//!   legal-action masks as numpy arrays ([`encode`] documents both);
//! - [`bots`]: the house bots' `decide(level, view)` and the exact solver.
//!
//! Values cross the boundary as `serde_json::Value`s built from the
//! server's own serde types ([`convert`]), so what Python sees is exactly
//! what the server sends.

mod batch;
mod bots;
mod convert;
pub mod encode;
mod game;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

use botifarra::rules::RuleError;

/// The server's allocator: the engine allocates per hand (its record, the
/// events), and a batch steps a thousand matches at a time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(
    _botifarra,
    BotifarraError,
    PyException,
    "The base of every error the engine raises."
);
create_exception!(
    _botifarra,
    RuleRefused,
    BotifarraError,
    "The engine refused an action: `.rule` is the server's `rule` code \
     (`must_follow_suit`, `not_your_turn`, `wrong_phase`, ...)."
);
create_exception!(
    _botifarra,
    InvalidRequest,
    BotifarraError,
    "A malformed action, view, seed or rules (the server's `invalid_request`)."
);

/// The refusal `e` as a [`RuleRefused`] with its `rule` code.
pub(crate) fn refused(py: Python<'_>, e: &RuleError) -> PyErr {
    let err = RuleRefused::new_err(e.to_string());
    let value = err.value(py);
    // Setting an attribute on a fresh exception instance cannot fail.
    let _ = value.setattr("rule", e.code());
    let _ = value.setattr("code", code_of(e));
    err
}

/// The server's problem `code` for a refusal.
fn code_of(e: &RuleError) -> &'static str {
    match e {
        RuleError::WrongPhase { .. } => "wrong_phase",
        RuleError::NotYourTurn { .. } => "not_your_turn",
        _ => "illegal_move",
    }
}

/// An [`InvalidRequest`] with this message.
pub(crate) fn invalid(msg: impl std::fmt::Display) -> PyErr {
    InvalidRequest::new_err(msg.to_string())
}

/// A [`PyValueError`] with this message.
pub(crate) fn value_error(msg: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(msg.to_string())
}

#[pymodule]
fn _botifarra(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("BotifarraError", py.get_type::<BotifarraError>())?;
    m.add("RuleRefused", py.get_type::<RuleRefused>())?;
    m.add("InvalidRequest", py.get_type::<InvalidRequest>())?;
    m.add_class::<game::Game>()?;
    m.add_class::<batch::Batch>()?;
    m.add_function(wrap_pyfunction!(bots::decide, m)?)?;
    m.add_function(wrap_pyfunction!(bots::bot_names, m)?)?;
    m.add_function(wrap_pyfunction!(encode::action_id, m)?)?;
    m.add_function(wrap_pyfunction!(encode::action_of_id, m)?)?;
    m.add_function(wrap_pyfunction!(encode::encode_view, m)?)?;
    m.add("ACTION_SPACE", encode::ACTIONS)?;
    m.add("OBSERVATION_SIZE", encode::OBS)?;
    Ok(())
}
