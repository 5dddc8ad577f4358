//! `Moves`: the legal moves of a position as an immutable sequence of actions, made without
//! building a list. A random playout driven from Python asks for the legal moves at every ply
//! and uses one of them: an m,n,k position's moves are kept as its set of legal cells (a few
//! words) and the `i`-th is found by selecting the `i`-th bit, so the call costs the same on
//! an empty 19x19 board as near the end of a game. The `Game` keeps the last `Moves` it made
//! and refills it in place when nothing else holds it any more (as CPython's `zip` reuses its
//! result tuple), so that a playout allocates no object per ply. `Moves` is a frozen class
//! (see `Slot`): `len` and indexing take no borrow flag.

use std::sync::atomic::{AtomicU64, Ordering};

use arrayvec::ArrayVec;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice};
use rules::mnk::CellSet;
use rules::{Game, MoveList};

use crate::encoding::{Encoded, Position};

/// The most moves an O An Quan position has (five squares, two directions).
const MAX_LIST: usize = 10;

#[derive(Clone, Copy)]
enum Repr {
    /// An m,n,k position's legal cells, in increasing index order (= increasing action).
    Cells {
        set: CellSet,
        len: u32,
        cols: u16,
        stride: u16,
    },
    /// A short list (O An Quan).
    List { actions: [u16; MAX_LIST], len: u8 },
}

/// A [`Repr`] kept in words that can be rewritten through a shared reference. `Moves` is a
/// frozen class, so PyO3 keeps no borrow flag for it: the flag's two atomic read-modify-writes
/// per call cost more than the rest of a `len(moves)`, and `random.choice(moves)` makes three
/// such calls. The `Game` that made a `Moves` refills it through these words when nothing else
/// holds it. Relaxed atomics are plain loads and stores; the GIL orders the rest (the module is
/// abi3, which only a Python with a GIL loads).
struct Slot {
    /// The cells' words (m,n,k), or the actions four to a word (O An Quan).
    words: [AtomicU64; CellSet::WORDS],
    /// The length in bits 0-15, then (m,n,k) the columns in bits 16-31 and the stride in bits
    /// 32-47; bit 63 marks a list.
    meta: AtomicU64,
}

const LIST: u64 = 1 << 63;

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
        match repr {
            Repr::Cells {
                set,
                len,
                cols,
                stride,
            } => {
                for (word, value) in self.words.iter().zip(set.to_words()) {
                    word.store(value, Ordering::Relaxed);
                }
                let meta = u64::from(len) | u64::from(cols) << 16 | u64::from(stride) << 32;
                self.meta.store(meta, Ordering::Relaxed);
            }
            Repr::List { actions, len } => {
                for (word, four) in self.words.iter().zip(actions.chunks(4)) {
                    let value = four
                        .iter()
                        .enumerate()
                        .fold(0, |acc, (i, &a)| acc | u64::from(a) << (16 * i));
                    word.store(value, Ordering::Relaxed);
                }
                self.meta.store(LIST | u64::from(len), Ordering::Relaxed);
            }
        }
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
        if meta & LIST != 0 {
            Repr::List {
                actions: std::array::from_fn(|i| (words[i / 4] >> (16 * (i % 4))) as u16),
                len: len as u8,
            }
        } else {
            Repr::Cells {
                set: CellSet::from_words(words),
                len,
                cols: (meta >> 16) as u16,
                stride: (meta >> 32) as u16,
            }
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
                let list: ArrayVec<u16, MAX_LIST> = moves
                    .iter()
                    .filter_map(|&mv| g.action(mv).map(|a| a as u16))
                    .collect();
                let mut actions = [0; MAX_LIST];
                actions[..list.len()].copy_from_slice(&list);
                Repr::List {
                    actions,
                    len: list.len() as u8,
                }
            }
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
        let len = match repr {
            Repr::Cells { len, .. } => len as usize,
            Repr::List { len, .. } => usize::from(len),
        };
        (0..len).map(|i| action_at(&repr, i)).collect()
    }
}

/// The action at `index` (in range) of `repr`.
#[inline]
fn action_at(repr: &Repr, index: usize) -> u16 {
    match repr {
        Repr::Cells {
            set, cols, stride, ..
        } => {
            let cell = set.nth(index as u32).expect("index below the length").0;
            cell / stride * cols + cell % stride
        }
        Repr::List { actions, .. } => actions[index],
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
