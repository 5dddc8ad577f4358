//! `Moves`: the legal moves of a position as an immutable sequence of actions, made without
//! building a list. A random playout driven from Python asks for the legal moves at every ply
//! and uses one of them: an m,n,k position's moves are kept as its set of legal cells (a few
//! words) and the `i`-th is found by selecting the `i`-th bit, so the call costs the same on
//! an empty 19x19 board as near the end of a game. The `Game` keeps the last `Moves` it made
//! and refills it in place when nothing else holds it any more (as CPython's `zip` reuses its
//! result tuple), so that a playout allocates no object per ply.

use arrayvec::ArrayVec;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice};
use rules::mnk::CellSet;
use rules::{Game, MoveList};

use crate::encoding::{Encoded, Position};

enum Repr {
    /// An m,n,k position's legal cells, in increasing index order (= increasing action).
    Cells {
        set: CellSet,
        len: u32,
        cols: u16,
        stride: u16,
    },
    /// A short list (O An Quan: at most 10 moves).
    List(ArrayVec<u16, 10>),
}

/// The legal moves of a position, as actions in the order `legal_moves` gives them: an
/// immutable sequence (`len`, indexing, slicing, iteration, `in`, `index`, `count`, equality
/// with lists). `list(moves)` makes a list of it.
#[pyclass(name = "Moves", module = "arenagames", sequence)]
pub struct PyMoves {
    repr: Repr,
}

/// The moves of a position, before they become a `Moves`.
pub struct MovesOf(Repr);

impl PyMoves {
    /// The legal moves of `position`.
    pub fn of(position: &Position) -> MovesOf {
        let repr = match position {
            Position::Mnk(g) => {
                let set = g.legal_cells();
                Repr::Cells {
                    len: set.len(),
                    set,
                    cols: u16::from(g.config().cols()),
                    stride: g.config().stride(),
                }
            }
            Position::OanQuan(g) => {
                let mut moves = MoveList::new();
                g.legal_moves(&mut moves);
                Repr::List(
                    moves
                        .iter()
                        .filter_map(|&mv| g.action(mv).map(|a| a as u16))
                        .collect(),
                )
            }
        };
        MovesOf(repr)
    }

    /// A `Moves` of these moves.
    pub fn new(moves: MovesOf) -> PyMoves {
        PyMoves { repr: moves.0 }
    }

    /// Makes this `Moves` hold other moves: only for one nothing in Python holds.
    pub fn refill(&mut self, moves: MovesOf) {
        self.repr = moves.0;
    }

    fn len(&self) -> usize {
        match &self.repr {
            Repr::Cells { len, .. } => *len as usize,
            Repr::List(list) => list.len(),
        }
    }

    /// The action at `index` (in range).
    #[inline]
    fn at(&self, index: usize) -> u16 {
        match &self.repr {
            Repr::Cells {
                set, cols, stride, ..
            } => {
                let cell = set.nth(index as u32).expect("index below the length").0;
                cell / stride * cols + cell % stride
            }
            Repr::List(list) => list[index],
        }
    }

    fn to_vec(&self) -> Vec<u16> {
        (0..self.len()).map(|i| self.at(i)).collect()
    }
}

#[pymethods]
impl PyMoves {
    fn __len__(&self) -> usize {
        self.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let len = self.len();
        if let Ok(i) = index.extract::<isize>() {
            let at = if i < 0 { i + len as isize } else { i };
            if at < 0 || at as usize >= len {
                return Err(PyIndexError::new_err("move index out of range"));
            }
            return Ok(self.at(at as usize).into_pyobject(py)?.into_any().unbind());
        }
        if let Ok(slice) = index.cast::<PySlice>() {
            let range = slice.indices(len as isize)?;
            let mut picked = Vec::with_capacity(range.slicelength);
            let mut at = range.start;
            for _ in 0..range.slicelength {
                picked.push(self.at(at as usize));
                at += range.step;
            }
            return Ok(PyList::new(py, picked)?.into_any().unbind());
        }
        Err(PyTypeError::new_err(
            "move indices must be integers or slices",
        ))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyList::new(py, self.to_vec())?.try_iter()?.into_any())
    }

    fn __reversed__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut all = self.to_vec();
        all.reverse();
        Ok(PyList::new(py, all)?.try_iter()?.into_any())
    }

    fn __contains__(&self, action: &Bound<'_, PyAny>) -> bool {
        action
            .extract::<i64>()
            .is_ok_and(|a| (0..self.len()).any(|i| i64::from(self.at(i)) == a))
    }

    /// The place of `action` among the moves; `ValueError` if it is not one of them.
    fn index(&self, action: i64) -> PyResult<usize> {
        (0..self.len())
            .find(|&i| i64::from(self.at(i)) == action)
            .ok_or_else(|| PyValueError::new_err(format!("{action} is not a legal move")))
    }

    /// How often `action` appears (0 or 1).
    fn count(&self, action: i64) -> usize {
        (0..self.len())
            .filter(|&i| i64::from(self.at(i)) == action)
            .count()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(other) = other.cast::<PyMoves>() {
            return other.borrow().to_vec() == self.to_vec();
        }
        other.extract::<Vec<i64>>().is_ok_and(|list| {
            list.iter()
                .copied()
                .eq(self.to_vec().into_iter().map(i64::from))
        })
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __repr__(&self) -> String {
        format!("Moves({:?})", self.to_vec())
    }
}
