//! What the exact solvers ([`crate::solve`], the games' own, `dfpn`) are asked and answer: a
//! game [`Value`], the [`Limits`] of a search and the [`Monitor`] that watches it, and the
//! [`Solution`]. `crate::solve` re-exports them, where callers name them.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use rules::{Outcome, Player};

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

    pub(crate) fn from_wdl(score: i32) -> Value {
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
