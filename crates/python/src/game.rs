//! `Game` and `Outcome`: a position of any variant, played move by move from Python.

use numpy::{IntoPyArray, PyArray1, PyArrayDyn};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyString, PyTuple};
use rules::{Game, MoveError, Outcome, Player, Variant};

use rules::{AnyGame, with_position};

use crate::encoding::{legal_mask, observation, observation_bounds, observation_shape};
use crate::moves::PyMoves;

/// The message the CLI gives for a bad variant id.
pub fn variant_error(id: &str, error: &rules::VariantError) -> PyErr {
    PyValueError::new_err(format!("bad variant id `{id}`: {error}"))
}

/// Reads a variant id as the CLI does.
pub fn parse_variant(id: &str) -> PyResult<Variant> {
    id.parse::<Variant>().map_err(|e| variant_error(id, &e))
}

/// A move as Python passes it: an action or the move's text.
pub enum MoveArg {
    /// An action number.
    Action(i64),
    /// The move in the game's notation.
    Text(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for MoveArg {
    type Error = PyErr;

    /// An int (or anything with `__index__`, like NumPy's) or a str; anything else is a
    /// `TypeError` in Python's terms, never the name of this enum.
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<MoveArg> {
        if obj.is_instance_of::<PyString>() {
            return Ok(MoveArg::Text(obj.extract::<String>()?));
        }
        if !obj.is_instance_of::<PyBool>()
            && !obj.is_instance_of::<PyFloat>()
            && let Ok(action) = obj.extract::<i64>()
        {
            return Ok(MoveArg::Action(action));
        }
        let kind = obj.get_type().name()?;
        let shown = obj.repr()?;
        let hint = if obj.is_instance_of::<PyTuple>() {
            "; a cell (row, col) of an m,n,k board is the action row * cols + col"
        } else {
            ""
        };
        Err(PyTypeError::new_err(format!(
            "a move is an action (an int) or its text (a str, like 'b3'), not a {kind}: {shown}{hint}"
        )))
    }
}

/// The move `arg` names in `game`, checked to be legal; the error says why not, in the CLI's
/// words.
pub fn legal_move<G: Game>(game: &G, arg: &MoveArg) -> Result<G::Move, String> {
    match arg {
        MoveArg::Text(text) => game.parse_move(text).map_err(|e| e.to_string()),
        &MoveArg::Action(action) => {
            let mv = in_range(game, action)?;
            if game.is_legal(mv) {
                Ok(mv)
            } else {
                Err(refusal(game, mv).to_string())
            }
        }
    }
}

/// The move action `action` names in `game`, legal or not; an error if it is out of range.
fn in_range<G: Game>(game: &G, action: i64) -> Result<G::Move, String> {
    u32::try_from(action)
        .ok()
        .and_then(|a| game.move_of(a))
        .ok_or_else(|| {
            format!(
                "{action} is not an action of {}: actions are 0 to {}",
                game.variant(),
                game.num_actions() - 1
            )
        })
}

/// Why `mv` cannot be played in `game`, as the move's text would be refused.
fn refusal<G: Game>(game: &G, mv: G::Move) -> MoveError {
    let text = game.format_move(mv);
    match game.parse_move(&text) {
        Err(error) => error,
        // Parsing accepts it but the position does not (cannot happen with these games).
        Ok(_) => MoveError::Illegal {
            text,
            reason: "not among the legal moves".into(),
        },
    }
}

/// A position of a game of the arena, with the moves that led to it.
///
/// `Game("tictactoe")`, `Game("oanquan-3p")`, `Game("mnk-5x5k4", moves="b3 c3 c2")`. Moves are
/// actions (small ints; see the module documentation) or text in the game's notation.
#[pyclass(name = "Game", module = "arenagames")]
pub struct PyGame {
    position: AnyGame,
    /// The position before each move pushed, for `pop`.
    undo: Vec<AnyGame>,
    /// The actions pushed.
    actions: Vec<u32>,
    /// Whether `actions` played from the variant's start give `position` (not so for the
    /// positions the arena hands a Python agent).
    from_start: bool,
    /// The last `Moves` made, refilled when nothing else holds it (see [`PyMoves`]).
    moves: Option<Py<PyMoves>>,
}

impl Clone for PyGame {
    fn clone(&self) -> PyGame {
        PyGame {
            position: self.position.clone(),
            undo: self.undo.clone(),
            actions: self.actions.clone(),
            from_start: self.from_start,
            moves: None,
        }
    }
}

impl PyGame {
    /// A game at `position`, with no moves to take back.
    pub fn at(position: AnyGame) -> PyGame {
        PyGame {
            position,
            undo: Vec::new(),
            actions: Vec::new(),
            from_start: false,
            moves: None,
        }
    }

    /// The moves from the variant's start in the game's notation, when the game knows them
    /// (outside agents are sent them), `None` for a position handed over without them.
    pub fn moves_from_start(&self) -> Option<Vec<String>> {
        self.from_start.then(|| self.move_texts())
    }

    /// The position.
    pub fn position(&self) -> &AnyGame {
        &self.position
    }

    fn push_checked(&mut self, arg: &MoveArg) -> Result<(), String> {
        if self.undo.capacity() == 0 {
            // Room for a whole m,n,k game (or the start of an O An Quan one) at once: a
            // playout would otherwise grow the stack seven times.
            let plies = with_position!(&self.position, |g| g.default_max_plies()) as usize;
            self.undo.reserve(plies.min(400));
            self.actions.reserve(plies.min(400));
        }
        let before = self.position.clone();
        let action = with_position!(&mut self.position, |g| {
            let mv = legal_move(g, arg)?;
            let action = match *arg {
                MoveArg::Action(action) => action as u32,
                MoveArg::Text(_) => g.action(mv).expect("a legal move is the mover's"),
            };
            g.play_unchecked(mv);
            action
        });
        self.undo.push(before);
        self.actions.push(action);
        Ok(())
    }

    /// The moves pushed, in the game's notation.
    fn move_texts(&self) -> Vec<String> {
        self.undo
            .iter()
            .zip(&self.actions)
            .map(|(position, &action)| {
                with_position!(position, |g| g
                    .format_move(g.move_of(action).expect("recorded")))
            })
            .collect()
    }
}

#[pymethods]
impl PyGame {
    /// A game of `variant` (a variant id, like `tictactoe`, `mnk-15x15k5-caro` or
    /// `oanquan-3p`), after `moves` if given (a space-separated text, or a list of actions or
    /// texts).
    #[new]
    #[pyo3(signature = (variant, moves = None))]
    fn new(variant: &str, moves: Option<&Bound<'_, PyAny>>) -> PyResult<PyGame> {
        let variant = parse_variant(variant)?;
        let mut game = PyGame {
            position: AnyGame::start(&variant),
            undo: Vec::new(),
            actions: Vec::new(),
            from_start: true,
            moves: None,
        };
        let Some(moves) = moves else {
            return Ok(game);
        };
        let list: Vec<MoveArg> = if moves.is_instance_of::<PyString>() {
            moves
                .extract::<String>()?
                .split_whitespace()
                .map(|t| MoveArg::Text(t.to_string()))
                .collect()
        } else {
            moves
                .try_iter()
                .map_err(|_| {
                    PyTypeError::new_err(
                        "moves must be a text or a sequence of moves (ints or texts)",
                    )
                })?
                .map(|item| item.and_then(|item| item.extract::<MoveArg>()))
                .collect::<PyResult<_>>()?
        };
        for (index, arg) in list.iter().enumerate() {
            let shown = match arg {
                MoveArg::Text(text) => text.clone(),
                MoveArg::Action(action) => action.to_string(),
            };
            // The CLI's words (`arena replay`): the move's place in the list, then the reason.
            if game.is_over() {
                return Err(PyValueError::new_err(format!(
                    "move {} (`{shown}`): the game is already over after move {index}",
                    index + 1
                )));
            }
            game.push_checked(arg).map_err(|error| {
                PyValueError::new_err(format!("move {} (`{shown}`): {error}", index + 1))
            })?;
        }
        Ok(game)
    }

    /// The canonical variant id (`mnk-3x3k3` for `tictactoe`).
    #[getter]
    fn variant(&self) -> String {
        with_position!(&self.position, |g| g.variant().to_string())
    }

    /// The game family, as `arena list` names the registry's games (`mnk`, ...).
    #[getter]
    fn family(&self) -> &'static str {
        with_position!(&self.position, |g| g.variant().family().name)
    }

    /// The number of players (seats 0 to `num_players - 1`, moving in that order).
    #[getter]
    fn num_players(&self) -> usize {
        with_position!(&self.position, |g| g.num_players())
    }

    /// The number of distinct actions: every action is below it (`rows * cols` for m,n,k).
    #[getter]
    fn num_actions(&self) -> usize {
        with_position!(&self.position, |g| g.num_actions())
    }

    /// Plies played since the start.
    #[getter]
    fn ply(&self) -> u32 {
        with_position!(&self.position, |g| g.ply())
    }

    /// The shape of `observation()`.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            with_position!(&self.position, |g| observation_shape(&g.view())),
        )
    }

    /// The least and greatest value of each entry of `observation()`: two arrays of its shape.
    #[getter]
    fn observation_bounds<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArrayDyn<f32>>, Bound<'py, PyArrayDyn<f32>>) {
        let (low, high) = with_position!(&self.position, |g| observation_bounds(&g.view()));
        (low.into_pyarray(py), high.into_pyarray(py))
    }

    /// The seat to move (0-based); after the end, the seat that would have moved next.
    fn to_move(&self) -> usize {
        with_position!(&self.position, |g| g.side_to_move().index())
    }

    /// The legal moves as actions, in a fixed order, as an immutable sequence (`Moves`:
    /// indexing, `len`, iteration; `list(...)` for a list); empty exactly when the game is
    /// over.
    fn legal_moves(&mut self, py: Python<'_>) -> PyResult<Py<PyMoves>> {
        let moves = PyMoves::of(&self.position);
        // Deprecated because free-threaded Python counts references differently; an abi3
        // module is only ever loaded by a Python with a GIL, where a count of 1 is exact.
        #[allow(deprecated)]
        let unshared = self
            .moves
            .as_ref()
            .is_some_and(|last| last.get_refcnt(py) == 1);
        if let Some(last) = self.moves.as_ref().filter(|_| unshared) {
            // Only this game holds it: no one can see it change.
            last.get().refill(moves);
            return Ok(last.clone_ref(py));
        }
        let fresh = Py::new(py, PyMoves::new(moves))?;
        self.moves = Some(fresh.clone_ref(py));
        Ok(fresh)
    }

    /// One flag per action: `True` where the action is legal.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        with_position!(&self.position, |g| legal_mask(g)).into_pyarray(py)
    }

    /// Whether `move` (an action or a text) is legal here.
    #[pyo3(signature = (r#move))]
    fn is_legal(&self, r#move: MoveArg) -> bool {
        with_position!(&self.position, |g| legal_move(g, &r#move).is_ok())
    }

    /// Plays `move` (an action or a text) in place; `ValueError` if it is not legal.
    #[pyo3(signature = (r#move))]
    fn push(&mut self, r#move: MoveArg) -> PyResult<()> {
        self.push_checked(&r#move).map_err(PyValueError::new_err)
    }

    /// Takes back the last move pushed and returns its action; `IndexError` if there is none.
    fn pop(&mut self) -> PyResult<u32> {
        match (self.undo.pop(), self.actions.pop()) {
            (Some(position), Some(action)) => {
                self.position = position;
                Ok(action)
            }
            _ => Err(PyIndexError::new_err(
                "pop from a game with no moves to take back",
            )),
        }
    }

    /// The game after `move` (an action or a text), as a new `Game`; this one is unchanged.
    #[pyo3(signature = (r#move))]
    fn play(&self, r#move: MoveArg) -> PyResult<PyGame> {
        let mut next = Clone::clone(self);
        next.push_checked(&r#move).map_err(PyValueError::new_err)?;
        Ok(next)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        with_position!(&self.position, |g| g.is_over())
    }

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<PyOutcome> {
        with_position!(&self.position, |g| g
            .outcome()
            .map(|o| PyOutcome::new(o, g.num_players())))
    }

    /// The totals per seat where the game scores points (O An Quan: captures plus the seeds on
    /// one's side, as if the game ended now); `None` for m,n,k.
    fn totals(&self) -> Option<Vec<i32>> {
        with_position!(&self.position, |g| g.totals().map(|t| t.to_vec()))
    }

    /// The action of a move written in the game's notation (`b3`, `2,1`, `3P`); `ValueError`
    /// with the CLI's message if it is not a legal move here.
    fn parse_move(&self, text: &str) -> PyResult<u32> {
        with_position!(&self.position, |g| {
            let mv = g
                .parse_move(text)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            g.action(mv).ok_or_else(|| {
                PyValueError::new_err(format!("`{text}` is not a move of the player to move"))
            })
        })
    }

    /// The notation of an action here (`b3`, `3P`); legal or not, it must be in range.
    #[pyo3(signature = (r#move))]
    fn format_move(&self, r#move: MoveArg) -> PyResult<String> {
        with_position!(&self.position, |g| {
            let mv = match &r#move {
                MoveArg::Text(_) => legal_move(g, &r#move),
                &MoveArg::Action(action) => in_range(g, action),
            };
            mv.map(|mv| g.format_move(mv))
                .map_err(PyValueError::new_err)
        })
    }

    /// The actions pushed since the start (or since the position was handed over).
    fn history(&self) -> Vec<u32> {
        self.actions.clone()
    }

    /// The moves pushed, as the space-separated text `arena replay` reads.
    fn moves_text(&self) -> String {
        self.move_texts().join(" ")
    }

    /// A copy, with its own history.
    fn clone(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        Clone::clone(self)
    }

    /// A 64-bit hash of the position (Zobrist-style; equal positions hash equal).
    fn hash(&self) -> u64 {
        with_position!(&self.position, |g| g.hash_key())
    }

    /// The position as a NumPy `float32` array from the view of `seat` (default: the player to
    /// move); see the package documentation for the layout.
    #[pyo3(signature = (seat = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<usize>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let array = with_position!(&self.position, |g| {
            let viewer = match seat {
                None => g.side_to_move(),
                Some(seat) if seat < g.num_players() => Player::seat(seat),
                Some(seat) => {
                    return Err(PyValueError::new_err(format!(
                        "seat {seat} is not at this table: the seats are 0 to {}",
                        g.num_players() - 1
                    )));
                }
            };
            observation(&g.view(), viewer)
        });
        Ok(array.into_pyarray(py))
    }

    /// The outcome the game's rule gives if a ply cap stopped it now (m,n,k: a draw; O An
    /// Quan: the totals rank the players); the outcome itself once the game is over.
    fn adjudicate(&self) -> PyOutcome {
        with_position!(&self.position, |g| PyOutcome::new(
            g.adjudicate(),
            g.num_players()
        ))
    }

    /// The ply cap the arena uses when an experiment sets none (m,n,k: the number of cells;
    /// O An Quan: 1000).
    #[getter]
    fn default_max_plies(&self) -> u32 {
        with_position!(&self.position, |g| g.default_max_plies())
    }

    /// Move-sequence counts: the number of sequences of exactly `depth` plies (`arena perft`).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let position = self.position.clone();
        py.detach(move || with_position!(&position, |g| rules::perft(g, depth)))
    }

    /// Plays `count` uniformly random games to the end from here, in one call (the GIL is
    /// released), with a generator seeded by `seed`; returns `{"playouts", "plies", "wins",
    /// "draws"}`: total plies played, and per seat the games it won alone.
    #[pyo3(signature = (count, seed = 0))]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        count: u64,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let position = self.position.clone();
        let (plies, wins, draws) = py
            .detach(move || with_position!(&position, |g| crate::playouts::random(g, count, seed)));
        let dict = PyDict::new(py);
        dict.set_item("playouts", count)?;
        dict.set_item("plies", plies)?;
        dict.set_item("wins", wins)?;
        dict.set_item("draws", draws)?;
        Ok(dict)
    }

    fn __str__(&self) -> String {
        with_position!(&self.position, |g| g
            .to_string()
            .trim_end_matches('\n')
            .to_string())
    }

    fn __repr__(&self) -> String {
        with_position!(&self.position, |g| {
            if self.from_start {
                format!(
                    "Game({:?}, moves={:?})",
                    g.variant().to_string(),
                    self.move_texts().join(" ")
                )
            } else {
                format!(
                    "<Game {} at ply {}, seat {} to move>",
                    g.variant(),
                    g.ply(),
                    g.side_to_move().index()
                )
            }
        })
    }

    /// The same variant and position: stones or seeds, the side to move, and the last move.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGame>()
            .is_ok_and(|other| other.borrow().position == self.position)
    }

    // Games change in place (`push`, `pop`): like lists, they are not hashable.
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        if !self.from_start {
            return Err(PyTypeError::new_err(
                "this position was handed over without the moves that led to it, so it cannot be pickled",
            ));
        }
        let class = py.get_type::<PyGame>().into_any();
        Ok((class, (self.variant(), self.moves_text())))
    }
}

/// How a game ended: the places of the seats, from which every other view follows.
#[pyclass(name = "Outcome", module = "arenagames", frozen, eq)]
#[derive(Clone, Debug, PartialEq)]
pub struct PyOutcome {
    result: String,
    places: Vec<u8>,
    scores: Vec<f64>,
    winner: Option<usize>,
}

impl PyOutcome {
    /// The outcome of a game of `players` seats.
    pub fn new(outcome: Outcome, players: usize) -> PyOutcome {
        let seats: Vec<Player> = Player::all(players).collect();
        PyOutcome {
            result: outcome.result_text().into_owned(),
            places: seats.iter().map(|&p| outcome.place(p)).collect(),
            scores: seats.iter().map(|&p| outcome.score(p)).collect(),
            winner: outcome.winner().map(Player::index),
        }
    }
}

#[pymethods]
impl PyOutcome {
    /// The result as the CSV writes it: `1-0`, `0-1`, `1/2-1/2`; for 3-4 players the places of
    /// the seats joined by `-`, like `1-3-2`.
    #[getter]
    fn result(&self) -> String {
        self.result.clone()
    }

    /// The place of each seat, from 1 (equal totals share a place; a draw is places 1 and 1).
    #[getter]
    fn places(&self) -> Vec<u32> {
        self.places.iter().map(|&p| u32::from(p)).collect()
    }

    /// Each seat's score from 0 to 1: the share of the other seats it finished above, ties
    /// counting half (two players: 1 win, 0.5 draw, 0 loss).
    #[getter]
    fn scores(&self) -> Vec<f64> {
        self.scores.clone()
    }

    /// Each seat's return in [-1, 1], `2 * score - 1` (two players: +1, 0, -1), as
    /// reinforcement-learning code expects.
    #[getter]
    fn returns(&self) -> Vec<f64> {
        self.scores.iter().map(|s| 2.0 * s - 1.0).collect()
    }

    /// The seat (0-based) that took the first place alone; `None` for a draw, or when 3-4
    /// players share the first place. Seat 0 is a winner too: test `winner is not None`.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// Whether every seat shares the first place.
    #[getter]
    fn is_draw(&self) -> bool {
        self.places.iter().all(|&p| p == 1)
    }

    fn __repr__(&self) -> String {
        format!("Outcome({:?}, places={:?})", self.result, self.places)
    }
}
