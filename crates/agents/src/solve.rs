//! The exact solver: the alpha-beta search of `alphabeta` with win / draw / loss scores and no
//! horizon, so its answer is the game-theoretic value.
//!
//! Games with a ply bound (m,n,k: the board fills up) are searched to the end. Games that can go
//! on for ever (O An Quan positions repeat) are searched by iterative deepening up to
//! [`Limits::max_depth`]: a forced win or loss found that way is proven, anything else stays
//! unknown (a draw cannot be proven without the end of the game in sight).
//!
//! ```
//! use agents::solve::{Limits, Value, solve};
//! use rules::Game;
//!
//! let game = "tictactoe".parse::<rules::Variant>()?.mnk().unwrap().start();
//! let solution = solve(&game, &Limits::default().with_tt_mb(16));
//! assert_eq!(solution.value, Some(Value::Draw));
//! assert_eq!(solution.best.len(), 9); // every first move draws
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rules::{MoveList, Outcome, Player};

use crate::AgentGame;
use crate::memory::OutOfMemory;
use crate::search::Searcher;

/// A game value from one player's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// The player loses against best play.
    Loss,
    /// Best play draws.
    Draw,
    /// The player wins against best play.
    Win,
}

impl Value {
    /// The value for the other player.
    pub fn flip(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }

    /// The outcome of best play when this is the value for `player`, whose opponent (the only
    /// other player: values are for games of two) is `opponent`.
    pub fn outcome(self, player: Player, opponent: Player) -> Outcome {
        match self {
            Value::Win => Outcome::Win(player),
            Value::Draw => Outcome::Draw,
            Value::Loss => Outcome::Win(opponent),
        }
    }

    fn from_wdl(score: i32) -> Value {
        match score {
            1.. => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        })
    }
}

/// A window on a solve under way, for another thread to show progress and to ask it to stop
/// (Ctrl-C). The solver updates it every few thousand nodes; it then returns what it knows.
#[derive(Debug, Default)]
pub struct Monitor {
    /// Nodes searched so far.
    pub nodes: AtomicU64,
    /// The alpha-beta solver: the depth of the iteration under way (0 for df-pn).
    pub depth: AtomicU32,
    /// df-pn: the question under way, as the attacker's seat plus one (0: none yet).
    pub attacker: AtomicU8,
    /// df-pn: the root's proof number for that question.
    pub pn: AtomicU32,
    /// df-pn: the root's disproof number.
    pub dn: AtomicU32,
    /// The transposition table's size in bytes.
    pub table_bytes: AtomicU64,
    /// How full the table is, per mille.
    pub table_permille: AtomicU32,
    /// Set to ask the solver to stop.
    pub stop: AtomicBool,
}

impl Monitor {
    /// Whether a stop was asked for.
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// What the solver may spend.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Transposition table size in MiB. Default 64.
    pub tt_mb: usize,
    /// Wall time, if limited. Default none.
    pub time: Option<Duration>,
    /// Nodes, if limited. Default none.
    pub nodes: Option<u64>,
    /// The deepest iteration for games without a ply bound (O An Quan). Default 40.
    pub max_depth: u32,
    /// Whether to find the value of every move, not only of the position. Default true.
    pub all_moves: bool,
    /// Where to show progress and take a stop request, if anywhere.
    pub monitor: Option<Arc<Monitor>>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            tt_mb: 64,
            time: None,
            nodes: None,
            max_depth: 40,
            all_moves: true,
            monitor: None,
        }
    }
}

impl Limits {
    /// The same limits with another table size in MiB.
    pub fn with_tt_mb(mut self, tt_mb: usize) -> Self {
        self.tt_mb = tt_mb;
        self
    }

    /// The same limits with a time limit (`None` = unlimited).
    pub fn with_time(mut self, time: Option<Duration>) -> Self {
        self.time = time;
        self
    }

    /// The same limits with a node limit (`None` = unlimited).
    pub fn with_nodes(mut self, nodes: Option<u64>) -> Self {
        self.nodes = nodes;
        self
    }

    /// The same limits with another deepest iteration for games without a ply bound.
    pub fn with_max_depth(mut self, max_depth: u32) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// The same limits, finding the value of every move (`true`) or of the position only.
    pub fn with_all_moves(mut self, all_moves: bool) -> Self {
        self.all_moves = all_moves;
        self
    }

    /// The same limits, reporting to `monitor` (and stopping when it asks).
    pub fn with_monitor(mut self, monitor: Option<Arc<Monitor>>) -> Self {
        self.monitor = monitor;
        self
    }
}

/// A legal move and its value for the player who makes it, if the solver determined it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// Its value for the player to move, or `None` when not determined within the limits.
    pub value: Option<Value>,
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The player to move in the solved position.
    pub to_move: Player,
    /// The other player of the solved position (the solver plays games of two).
    pub opponent: Player,
    /// The value for the player to move, or `None` when not determined within the limits.
    pub value: Option<Value>,
    /// Every legal move with its value (in the game's move order), when
    /// [`Limits::all_moves`] asked for them; otherwise empty.
    pub moves: Vec<MoveValue<M>>,
    /// The moves that achieve the value: every such move when all moves were solved,
    /// otherwise one.
    pub best: Vec<M>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time spent.
    pub elapsed: Duration,
    /// Plies searched: to the end of the game for games with a ply bound, else the deepest
    /// completed iteration.
    pub depth: u32,
    /// Whether everything asked for was determined.
    pub complete: bool,
    /// How full the transposition table was at the end, per mille (sampled).
    pub table_permille: u32,
}

impl<M> Solution<M> {
    /// The outcome of best play, absolute (first player wins / draw / second player wins).
    pub fn outcome(&self) -> Option<Outcome> {
        self.value
            .map(|value| value.outcome(self.to_move, self.opponent))
    }
}

/// Solves `position` within `limits`.
///
/// Panics when the transposition table of `limits.tt_mb` MiB cannot be allocated; [`try_solve`]
/// returns that as an error instead (the `arena solve` command uses it). Panics as
/// [`try_solve`] does on a game of more than two players.
pub fn solve<G: AgentGame>(position: &G, limits: &Limits) -> Solution<G::Move> {
    try_solve(position, limits).unwrap_or_else(|error| panic!("{error}"))
}

/// Solves `position` within `limits` with the game's own solver if it has one
/// ([`AgentGame::own_solver`]), else with the generic one, or says that its table cannot be
/// allocated.
///
/// # Panics
/// If `position` has more than two players: a win, draw or loss is a value of two-player
/// games (callers ask [`rules::Game::num_players`] first, as `arena solve` does).
pub fn try_solve<G: AgentGame>(
    position: &G,
    limits: &Limits,
) -> Result<Solution<G::Move>, OutOfMemory> {
    match position.own_solver(limits) {
        Some(found) => found,
        None => try_solve_generic(position, limits),
    }
}

/// The generic exact alpha-beta solver on any two-player game, whether or not the game has a
/// solver of its own; or says that its table cannot be allocated.
pub fn try_solve_generic<G: AgentGame>(
    position: &G,
    limits: &Limits,
) -> Result<Solution<G::Move>, OutOfMemory> {
    let started = Instant::now();
    let players = position.num_players();
    assert_eq!(players, 2, "the solver plays games of two players");
    let to_move = position.side_to_move();
    let mut solution = Solution {
        to_move,
        // Round a table of two, the next seat is the opponent.
        opponent: to_move.next(players),
        value: None,
        moves: Vec::new(),
        best: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
        depth: 0,
        complete: false,
        table_permille: 0,
    };
    if let Some(outcome) = position.outcome() {
        solution.value = Some(match outcome {
            Outcome::Draw => Value::Draw,
            Outcome::Win(winner) if winner == to_move => Value::Win,
            Outcome::Win(_) => Value::Loss,
            Outcome::Ranked(_) => unreachable!("the solver plays two-player games"),
        });
        solution.complete = true;
        return Ok(solution);
    }
    let deadline = limits.time.map(|time| started + time);
    let mut searcher = Searcher::<G>::new(limits.tt_mb);
    searcher.begin(limits.nodes, deadline)?;
    searcher.monitor = limits.monitor.clone();
    if let Some(monitor) = &limits.monitor {
        monitor
            .table_bytes
            .store(searcher.table_bytes(), Ordering::Relaxed);
    }
    let aux = position.aux();

    // The root value: to the end when the game has a ply bound, else deepening until a proof.
    let bounded = position.remaining_plies();
    let depths = match bounded {
        Some(plies) => plies..=plies,
        None => 1..=limits.max_depth.max(1),
    };
    let mut root = None;
    for depth in depths {
        if let Some(monitor) = &limits.monitor {
            monitor.depth.store(depth, Ordering::Relaxed);
        }
        let score = searcher.wdl(position, &aux, depth, 0, -2, 2);
        if searcher.aborted {
            break;
        }
        solution.depth = depth;
        if bounded.is_some() || score != 0 {
            root = Some(score);
            break;
        }
    }
    solution.value = root.map(Value::from_wdl);

    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    if limits.all_moves && !searcher.aborted {
        for &mv in &moves {
            let mut value = None;
            if !searcher.aborted && solution.depth > 0 {
                let child = position.child(mv);
                let child_aux = position.aux_after(&aux, mv, &child);
                let score = -searcher.wdl(&child, &child_aux, solution.depth - 1, 1, -2, 2);
                // Without a ply bound only proofs count: a 0 may hide a deeper result.
                if !searcher.aborted && (bounded.is_some() || score != 0) {
                    value = Some(Value::from_wdl(score));
                }
            }
            solution.moves.push(MoveValue { mv, value });
        }
        if let Some(value) = solution.value {
            solution.best = solution
                .moves
                .iter()
                .filter(|entry| entry.value == Some(value))
                .map(|entry| entry.mv)
                .collect();
        }
        solution.complete =
            solution.value.is_some() && solution.moves.iter().all(|entry| entry.value.is_some());
    } else {
        if solution.value.is_some()
            && let Some(index) = searcher.table_move(position.hash_key())
        {
            solution
                .best
                .extend(moves.iter().copied().find(|&mv| G::move_index(mv) == index));
        }
        solution.complete = solution.value.is_some() && !limits.all_moves;
    }
    solution.nodes = searcher.nodes;
    solution.table_permille = searcher.table_permille();
    solution.elapsed = started.elapsed();
    Ok(solution)
}
