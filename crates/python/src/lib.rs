//! `arenagames._arenagames`: the Python bindings of the arena (PyO3), wrapped by the Python
//! package `arenagames` (`python/arenagames`).
//!
//! Binding code only: the rules, the agents and the tournaments are the `rules`, `agents` and
//! `arena` crates, called as they are. What lives here is what Python needs on top:
//! - [`encoding`]: moves as small integers (actions) and positions as NumPy arrays;
//! - [`game`]: `Game` (a position with push/pop) and `Outcome`;
//! - [`moves`]: `Moves`, the legal moves as a sequence made without building a list;
//! - [`agent`]: `Agent` (our agents from Python) and the `py` agents (Python functions seated
//!   in the arena through [`protocol::outside`]);
//! - [`tournament`]: experiments run in memory or into a folder, rows as dicts;
//! - [`playouts`]: whole random playouts in one call.
//!
//! No Rust panic reaches Python as a crash: inputs are checked before they reach the crates,
//! agents run under the arena's panic guard, and the tournament entry point catches the rest.

// `unsafe_code` is denied workspace-wide and forbidden here: the exceptions are the web
// server's malloc_trim (crates/web/src/memory.rs) and the outside agents' sandbox, set up
// between fork and exec (crates/protocol/src/sandbox.rs).
#![forbid(unsafe_code)]

mod agent;
mod encoding;
mod game;
mod moves;
mod playouts;
mod tournament;

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Every agent kind of the arena's registry with its games and parameters, as `arena list`
/// shows them, then `py` (Python functions, for `run_experiment` and `play_match`):
/// a list of dicts `{"name", "summary", "games", "multiplayer", "params"}`, `params` a list of
/// `{"name", "default", "doc"}`.
#[pyfunction]
fn kinds(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    protocol::kinds()
        .chain([&agent::PY_KIND])
        .filter(|kind| kind.listed)
        .map(|kind| {
            let d = PyDict::new(py);
            d.set_item("name", kind.name)?;
            d.set_item("summary", kind.summary)?;
            d.set_item("games", kind.plays.describe())?;
            d.set_item("multiplayer", kind.multiplayer)?;
            let params = kind
                .params
                .iter()
                .map(|p| {
                    let param = PyDict::new(py);
                    param.set_item("name", p.name)?;
                    param.set_item("default", p.default)?;
                    param.set_item("doc", p.doc)?;
                    Ok(param)
                })
                .collect::<PyResult<Vec<_>>>()?;
            d.set_item("params", params)?;
            Ok(d)
        })
        .collect()
}

/// The canonical form of a variant id (`tictactoe` -> `mnk-3x3k3`); `ValueError` with the
/// CLI's message for a bad one.
#[pyfunction]
fn canonical_variant(variant: &str) -> PyResult<String> {
    game::parse_variant(variant).map(|v| v.to_string())
}

/// The module.
#[pymodule]
fn _arenagames(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyOutcome>()?;
    m.add_class::<moves::PyMoves>()?;
    m.add_class::<agent::PyAgent>()?;
    m.add_function(wrap_pyfunction!(kinds, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_variant, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::_run_experiment, m)?)?;
    m.add(
        "CSV_COLUMNS",
        arena::record::columns(arena::record::CSV_SCHEMA),
    )?;
    m.add(
        "CSV_COLUMNS_SEATS",
        arena::record::columns(arena::record::CSV_SCHEMA_SEATS),
    )?;
    m.add("TIMING_COLUMNS", arena::TIMING_COLUMNS.to_vec())?;
    Ok(())
}
