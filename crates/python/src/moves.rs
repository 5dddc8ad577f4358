//! `Moves`: the legal moves of a position as an immutable sequence of actions, made without
//! building a list. A random playout driven from Python asks for the legal moves at every ply
//! and uses one of them: an m,n,k position's moves are kept as its set of legal cells (a few
//! words) and the `i`-th is found by selecting the `i`-th bit, so the call costs the same on
//! an empty 19x19 board as near the end of a game. The `Game` keeps the last `Moves` it made
//! and refills it in place when nothing else holds it any more (as CPython's `zip` reuses its
//! result tuple), so that a playout allocates no object per ply. `Moves` is a frozen class
//! (see `Slot`): `len` and indexing take no borrow flag.

use std::sync::atomic::{AtomicU64, Ordering};

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice};
use rules::mnk::{Cell, CellSet};
use rules::{Game, MoveList};

use rules::{AnyGame, with_position};

/// The legal moves as a set, read in increasing order: an m,n,k position's legal cells as the
/// game keeps them (cell `c` is action `c / stride * cols + c % stride`), or any other game's
/// legal actions (`cols` = `stride` = 1: cell `c` is action `c`). Every game lists its legal
/// moves in increasing action order, so both read in `legal_moves`' order.
#[derive(Clone, Copy)]
struct Repr {
    set: CellSet,
    len: u32,
    cols: u16,
    stride: u16,
}

/// A [`Repr`] kept in words that can be rewritten through a shared reference. `Moves` is a
/// frozen class, so PyO3 keeps no borrow flag for it: the flag's two atomic read-modify-writes
/// per call cost more than the rest of a `len(moves)`, and `random.choice(moves)` makes three
/// such calls. The `Game` that made a `Moves` refills it through these words when nothing else
/// holds it. Relaxed atomics are plain loads and stores; the GIL orders the rest (the module is
/// abi3, which only a Python with a GIL loads).
struct Slot {
    /// The set's words.
    words: [AtomicU64; CellSet::WORDS],
    /// The length in bits 0-15, the columns in bits 16-31 and the stride in bits 32-47.
    meta: AtomicU64,
}

impl Slot {
    fn new(repr: Repr) -> Slot {
        let slot = Slot {
            words: Default::default(),
            meta: AtomicU64::new(0),
        };
        slot.store(repr);
        slot
    }

    fn store(&self, repr: Repr) {
        for (word, value) in self.words.iter().zip(repr.set.to_words()) {
            word.store(value, Ordering::Relaxed);
        }
        let meta = u64::from(repr.len) | u64::from(repr.cols) << 16 | u64::from(repr.stride) << 32;
        self.meta.store(meta, Ordering::Relaxed);
    }

    #[inline]
    fn len(&self) -> usize {
        (self.meta.load(Ordering::Relaxed) & 0xFFFF) as usize
    }

    #[inline]
    fn load(&self) -> Repr {
        let meta = self.meta.load(Ordering::Relaxed);
        let len = (meta & 0xFFFF) as u32;
        let words: [u64; CellSet::WORDS] =
            std::array::from_fn(|i| self.words[i].load(Ordering::Relaxed));
        Repr {
            set: CellSet::from_words(words),
            len,
            cols: (meta >> 16) as u16,
            stride: (meta >> 32) as u16,
        }
    }
}

/// The legal moves of a position, as actions in the order `legal_moves` gives them: an
/// immutable sequence (`len`, indexing, slicing, iteration, `in`, `index`, `count`, equality
/// with lists). `list(moves)` makes a list of it.
#[pyclass(name = "Moves", module = "arenagames", sequence, frozen)]
pub struct PyMoves {
    slot: Slot,
}

/// The moves of a position, before they become a `Moves`.
pub struct MovesOf(Repr);

impl PyMoves {
    /// The legal moves of `position`.
    pub fn of(position: &AnyGame) -> MovesOf {
        let repr = match position {
            // m,n,k positions keep their legal cells as a set: a select per index, no list.
            AnyGame::Mnk(g) => {
                let set = g.legal_cells();
                Repr {
                    len: set.len(),
                    set,
                    cols: u16::from(g.config().cols()),
                    stride: g.config().stride(),
                }
            }
            other => with_position!(other, |g| {
                let mut moves = MoveList::new();
                g.legal_moves(&mut moves);
                let mut set = CellSet::EMPTY;
                for &mv in &moves {
                    // Actions are below `rules::MAX_ACTIONS`, the set's size.
                    set.insert(Cell(
                        g.action(mv).expect("a legal move is the mover's") as u16
                    ));
                }
                Repr {
                    len: set.len(),
                    set,
                    cols: 1,
                    stride: 1,
                }
            }),
        };
        MovesOf(repr)
    }

    /// A `Moves` of these moves.
    pub fn new(moves: MovesOf) -> PyMoves {
        PyMoves {
            slot: Slot::new(moves.0),
        }
    }

    /// Makes this `Moves` hold other moves: only for one nothing in Python holds (so no one
    /// can see it change).
    pub fn refill(&self, moves: MovesOf) {
        self.slot.store(moves.0);
    }

    #[inline]
    fn len(&self) -> usize {
        self.slot.len()
    }

    /// The action at `index` (in range).
    #[inline]
    fn at(&self, index: usize) -> u16 {
        action_at(&self.slot.load(), index)
    }

    fn to_vec(&self) -> Vec<u16> {
        let repr = self.slot.load();
        (0..repr.len as usize)
            .map(|i| action_at(&repr, i))
            .collect()
    }
}

/// The action at `index` (in range) of `repr`.
#[inline]
fn action_at(repr: &Repr, index: usize) -> u16 {
    let cell = repr
        .set
        .nth(index as u32)
        .expect("index below the length")
        .0;
    cell / repr.stride * repr.cols + cell % repr.stride
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
            let repr = self.slot.load();
            let mut picked = Vec::with_capacity(range.slicelength);
            let mut at = range.start;
            for _ in 0..range.slicelength {
                picked.push(action_at(&repr, at as usize));
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
            .is_ok_and(|a| self.to_vec().into_iter().any(|m| i64::from(m) == a))
    }

    /// The place of `action` among the moves; `ValueError` if it is not one of them.
    fn index(&self, action: i64) -> PyResult<usize> {
        self.to_vec()
            .into_iter()
            .position(|m| i64::from(m) == action)
            .ok_or_else(|| PyValueError::new_err(format!("{action} is not a legal move")))
    }

    /// How often `action` appears (0 or 1).
    fn count(&self, action: i64) -> usize {
        self.to_vec()
            .into_iter()
            .filter(|&m| i64::from(m) == action)
            .count()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(other) = other.cast::<PyMoves>() {
            return other.get().to_vec() == self.to_vec();
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
