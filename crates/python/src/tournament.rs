//! Experiments from Python: the arena's own run (or the same games played in memory), rows
//! handed back as dicts with the CSV's columns.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

use arena::record::{self, CSV_SCHEMA_SEATS, Row};
use arena::{ArenaError, Experiment, Progress, RunOptions, Schedule, Shard};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;

use crate::agent::PythonAgents;

/// A row as a dict: the CSV's columns of `schema`, in order, with ints, floats, texts and
/// `None` for the empty cells.
fn row_dict<'py>(py: Python<'py>, row: &Row, schema: u32) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("experiment", &row.experiment)?;
    d.set_item("variant", &row.variant)?;
    d.set_item("game", row.game)?;
    d.set_item("seed", row.seed)?;
    d.set_item("first", &row.first)?;
    d.set_item("second", &row.second)?;
    d.set_item("result", &row.result)?;
    d.set_item("termination", &row.termination)?;
    d.set_item("plies", row.plies)?;
    d.set_item("first_score", row.first_score)?;
    d.set_item("second_score", row.second_score)?;
    d.set_item("first_ms", row.first_ms)?;
    d.set_item("second_ms", row.second_ms)?;
    d.set_item("first_max_ms", row.first_max_ms)?;
    d.set_item("second_max_ms", row.second_max_ms)?;
    d.set_item("first_nodes", row.first_nodes)?;
    d.set_item("second_nodes", row.second_nodes)?;
    d.set_item("moves", &row.moves)?;
    d.set_item("first_spec", &row.first_spec)?;
    d.set_item("second_spec", &row.second_spec)?;
    if schema >= CSV_SCHEMA_SEATS {
        d.set_item("players", row.seats())?;
        d.set_item("third", &row.third)?;
        d.set_item("fourth", &row.fourth)?;
        d.set_item("third_spec", &row.third_spec)?;
        d.set_item("fourth_spec", &row.fourth_spec)?;
        d.set_item("third_score", row.third_score)?;
        d.set_item("fourth_score", row.fourth_score)?;
        d.set_item("third_ms", row.third_ms)?;
        d.set_item("fourth_ms", row.fourth_ms)?;
        d.set_item("third_max_ms", row.third_max_ms)?;
        d.set_item("fourth_max_ms", row.fourth_max_ms)?;
        d.set_item("third_nodes", row.third_nodes)?;
        d.set_item("fourth_nodes", row.fourth_nodes)?;
    }
    Ok(d)
}

/// What a run hands back before its rows become dicts.
struct Played {
    rows: Vec<Row>,
    faults: Vec<String>,
    csv: Option<PathBuf>,
}

/// Plays every game of `experiment` on `threads` workers without writing anything; the rows
/// come back in schedule order.
fn play_in_memory(experiment: &Experiment, threads: usize) -> Result<Played, ArenaError> {
    let schedule = Schedule::new(experiment);
    // One roster for the whole run, as `arena run` has: the Python agents by the experiment's
    // extra kinds, outside processes kept between games.
    let roster = experiment.roster();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("arena-worker-{i}"))
        .build()
        .map_err(|e| ArenaError::Threads(e.to_string()))?;
    let played: Vec<(Row, Option<String>)> = pool.install(|| {
        (0..schedule.len())
            .into_par_iter()
            .map(|index| arena::play_scheduled_with(experiment, &schedule.game(index), &roster))
            .collect()
    });
    let mut rows = Vec::with_capacity(played.len());
    let mut faults = Vec::new();
    for (row, fault) in played {
        rows.push(row);
        faults.extend(fault);
    }
    Ok(Played {
        rows,
        faults,
        csv: None,
    })
}

/// Runs `experiment` into `out` as `arena run --out OUT` does (resuming what the CSV holds),
/// then reads the CSV's rows back.
fn run_to_folder(
    experiment: &Experiment,
    out: PathBuf,
    threads: Option<usize>,
    fresh: bool,
) -> Result<Played, ArenaError> {
    let summary = arena::run(
        experiment,
        &RunOptions {
            out_dir: out,
            threads,
            fresh,
            shard: Shard::WHOLE,
            progress: Progress::Quiet,
        },
    )?;
    let mut rows = Vec::new();
    record::read_rows(&summary.csv, |_, row| {
        rows.push(row);
        Ok(())
    })?;
    let log = summary.csv.with_extension("faults.log");
    let faults = std::fs::read_to_string(&log)
        .map(|text| text.lines().map(str::to_string).collect())
        .unwrap_or_default();
    Ok(Played {
        rows,
        faults,
        csv: Some(summary.csv),
    })
}

/// Runs an experiment given as TOML `text` (`source` names it in messages): in memory, or into
/// the folder `out` as `arena run` does. Python agents (`py:name=NAME` specs) come from
/// `agents`, a dict of name to `function(game, seed) -> move`. The GIL is released while games
/// are played. Returns `(schema, rows, faults, csv path or None)`.
#[pyfunction]
#[pyo3(signature = (text, source, out = None, threads = None, fresh = false, agents = None))]
#[allow(clippy::type_complexity)]
pub fn _run_experiment<'py>(
    py: Python<'py>,
    text: &str,
    source: &str,
    out: Option<PathBuf>,
    threads: Option<usize>,
    fresh: bool,
    agents: Option<&Bound<'py, PyDict>>,
) -> PyResult<(u32, Bound<'py, PyList>, Vec<String>, Option<PathBuf>)> {
    let factory = Arc::new(PythonAgents::new(agents)?);
    let experiment = Experiment::from_toml_with(text, source, Some(factory))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let schema = experiment.csv_schema();
    let played = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| match out {
            None => {
                let threads = arena::run::thread_count(threads, &experiment);
                play_in_memory(&experiment, threads)
            }
            Some(out) => run_to_folder(&experiment, out, threads, fresh),
        }))
    });
    let played = match played {
        Ok(Ok(played)) => played,
        Ok(Err(error @ ArenaError::Io { .. })) => {
            return Err(PyOSError::new_err(error.to_string()));
        }
        Ok(Err(error)) => return Err(PyValueError::new_err(error.to_string())),
        Err(_) => {
            return Err(PyRuntimeError::new_err(
                "the arena stopped on an internal error (a panic outside the agents)",
            ));
        }
    };
    let rows = PyList::empty(py);
    for row in &played.rows {
        rows.append(row_dict(py, row, schema)?)?;
    }
    Ok((schema, rows, played.faults, played.csv))
}
