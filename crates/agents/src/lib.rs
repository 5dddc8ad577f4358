//! The players of the arena: every algorithm of the seeds and strong search, generic over
//! [`rules::Game`] where they can be.
//!
//! The roster ([`KINDS`], as `arena list` shows it; the `roster` module builds them):
//! - every game: `random`, `mc-flat` ([`flat`]), `minimax` ([`minimax`]), `alphabeta`
//!   ([`alphabeta`]), `mcts` ([`mcts`]);
//! - m,n,k games: `easy` ([`games::mnk::easy`]), `neighbor` ([`games::mnk::neighbor`]),
//!   `mc-near` and `mc-par` ([`flat`]), `threat` ([`games::mnk::threat`]: line patterns,
//!   VCF/VCT, pattern alpha-beta);
//! - O An Quan: `greedy` and `greedy2` ([`games::oanquan::greedy`]).
//!
//! Agents that run outside the arena (Gomocup engines, programs speaking the arena protocol)
//! are the `protocol` crate's: this crate holds play only, no I/O.
//!
//! The generic code is at the top of this crate; what only one game has is under
//! [`games`]`::<game>` (its [`AgentGame`] implementation, its own agents and searches).
//! [`solve`] (alpha-beta) and [`dfpn`] (proof-number search, m,n,k) are the exact solvers
//! behind `arena solve`; [`pattern`] and [`threats`] are the line patterns and the threat-space
//! search of m,n,k games, and [`tactics`] the suite of positions with known answers (the four
//! re-exported from [`games::mnk`]). What a game brings to the searches (evaluation, tactics,
//! fast playouts, its own agents) is the [`AgentGame`] trait.
//!
//! An [`Agent`] chooses a move for a position within its budget and reports what it searched.
//! It draws randomness only from the [`AgentRng`] in the [`Context`] it is handed, so with a
//! budget in iterations, rollouts, nodes or depth it is reproducible from the arena's seed.
//! Agents are built from an [`AgentSpec`], the text form used everywhere:
//!
//! ```
//! use agents::{AgentSpec, Context, build};
//! use rand::SeedableRng;
//! use rules::{Game, Variant};
//!
//! let game = "tictactoe".parse::<Variant>()?.rules::<rules::MnkConfig>().unwrap().start();
//! let spec: AgentSpec = "random".parse()?;
//! let mut agent = build::<rules::Mnk>(&spec)?;
//! let mut rng = agents::AgentRng::seed_from_u64(7);
//! let choice = agent.choose(&game, &mut Context::new(&mut rng))?;
//! assert!(game.is_legal(choice.mv));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// `unsafe_code` is denied workspace-wide and forbidden here: the exceptions are the web
// server's malloc_trim (crates/web/src/memory.rs) and the outside agents' sandbox, set up
// between fork and exec (crates/protocol/src/sandbox.rs).
#![forbid(unsafe_code)]

pub mod alphabeta;
pub mod clock;
mod fault;
pub mod flat;
pub mod games;
pub mod mcts;
pub mod memory;
pub mod minimax;
mod multi;
pub mod playout;
pub mod pv;
mod random;
mod root_check;
mod roster;
pub mod score;
mod search;
mod solution;
pub mod solve;
pub mod spec;
mod tt;

use std::fmt;
use std::time::{Duration, Instant};

use rules::{Family, Game, MoveList, Outcome, Player};

pub use alphabeta::{AlphaBeta, AlphaBetaConfig};
pub use fault::Fault;
pub use flat::{FlatMc, FlatMcConfig};
pub use games::mnk::MnkAux;
pub use games::mnk::easy::{Easy, EasyConfig};
pub use games::mnk::neighbor::{Neighbor, NeighborConfig};
pub use games::mnk::threat::{MainSearch, ThreatAgent, ThreatConfig};
/// m,n,k's searches and suite, where `arena solve`, `arena bench` and the benches reach them.
pub use games::mnk::{dfpn, pattern, policy, tactics, threats};
pub use games::oanquan::greedy::{Greedy, GreedyConfig};
pub use mcts::{Mcts, MctsConfig};
pub use minimax::{Minimax, MinimaxConfig};
pub use playout::{PlayoutRng, Rollout};
pub use random::Random;
pub use roster::{KINDS, build, build_for, check, kind, plays};
pub use spec::{AgentSpec, ParamDoc, Params, SpecError};

/// The random number generator every agent draws from: ChaCha8, portable and seedable, handed
/// out by the arena (one stream per agent per game).
pub type AgentRng = rand_chacha::ChaCha8Rng;

/// What an agent gets besides the position: its RNG and the time it may use.
pub struct Context<'a> {
    /// The only source of randomness an agent may use.
    pub rng: &'a mut AgentRng,
    /// When to stop thinking, if the game has a time control: the arena's time management
    /// ([`clock::plan`]: inside the move's limit by a safety share; under a game clock, a share
    /// of what is left plus the increment). Agents with a search loop return their best move
    /// so far before it; others may ignore it.
    pub deadline: Option<Instant>,
    /// The hard limit of this move, if the game has a time control (the per-move limit, or
    /// what is on the game clock, whichever is less): past it (and an outside agent's margin)
    /// the move loses. What outside agents are told they have.
    pub move_time: Option<Duration>,
    /// The seat's game clock before this move, if the game has one: for agents that manage
    /// their time themselves ([`clock::plan_with`]) and for outside agents, who are sent it.
    pub clock: Option<clock::ClockState>,
    /// The moves from the start in the game's notation (the random opening included), where
    /// the caller keeps them: positions carry no history, and outside agents are sent it.
    pub moves: Option<&'a [String]>,
    /// "Move now": set by another thread (a front's button) to ask for the best move found so
    /// far at once. Agents with a search loop check it where they check the deadline
    /// ([`Context::stop_asked`]): `alphabeta` (its two-player search), `mcts` (two players),
    /// `threat`'s alpha-beta; the others finish their move as before.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Whether a front's "move now" flag ([`Context::stop`]) is set: what a search that keeps the
/// flag reads with its clock.
pub(crate) fn stop_set(stop: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>) -> bool {
    stop.is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed))
}

impl<'a> Context<'a> {
    /// A context with no time limit.
    pub fn new(rng: &'a mut AgentRng) -> Self {
        Context {
            rng,
            deadline: None,
            move_time: None,
            clock: None,
            moves: None,
            stop: None,
        }
    }

    /// The same context with a "move now" flag ([`Context::stop`]).
    pub fn with_stop(
        mut self,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> Self {
        self.stop = stop;
        self
    }

    /// Whether "move now" was asked for.
    pub fn stop_asked(&self) -> bool {
        stop_set(self.stop.as_ref())
    }

    /// The same context with the seat's game clock.
    pub fn with_clock(mut self, clock: Option<clock::ClockState>) -> Self {
        self.clock = clock;
        self
    }

    /// The same context with the moves that led to the position.
    pub fn with_moves(mut self, moves: &'a [String]) -> Self {
        self.moves = Some(moves);
        self
    }

    /// The same context with the hard limit of this move.
    pub fn with_move_time(mut self, move_time: Option<Duration>) -> Self {
        self.move_time = move_time;
        self
    }

    /// The same context with a deadline.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Time left before the deadline, if there is one.
    pub fn time_left(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }
}

/// What a search looked at to choose its move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Nodes visited, simulations run or playouts played (the agent's own unit of work).
    pub nodes: u64,
    /// The depth reached (full iterations of iterative deepening, tree depth for MCTS), if any.
    pub depth: Option<u32>,
    /// The value of the chosen move from the mover's view, in the agent's own units, if any.
    pub score: Option<f64>,
    /// Why this move, in a few words, where the agent can say (`win now`, `block`, ...).
    pub reason: Option<String>,
}

/// A chosen move and how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<M> {
    /// The move.
    pub mv: M,
    /// The search statistics.
    pub stats: SearchStats,
    /// The principal variation: the line of play the agent expects from the position, its
    /// move first, each move legal in turn ([`pv::walk`] checks them); at most [`pv::PLIES`]
    /// plies, or a proven forcing line whole (it then ends in the win). Empty where the agent
    /// has none (`random`, the sampling agents, outside engines).
    pub pv: Vec<M>,
}

impl<M> Choice<M> {
    /// A choice with nothing to report but `nodes`.
    pub fn new(mv: M, nodes: u64) -> Self {
        Choice {
            mv,
            stats: SearchStats {
                nodes,
                ..SearchStats::default()
            },
            pv: Vec::new(),
        }
    }

    /// The same choice with the principal variation `pv`.
    pub fn with_pv(mut self, pv: Vec<M>) -> Self {
        self.pv = pv;
        self
    }
}

/// Why an agent could not give a move. The arena scores it as a loss with the matching
/// termination (`crash`, `illegal-move`, `timeout`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AgentError {
    /// The agent failed (an outside engine died or answered `ERROR`).
    #[error("crash: {0}")]
    Crash(String),
    /// The agent answered something that is not a legal move.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// The agent ran out of time.
    #[error("timeout: {0}")]
    Timeout(String),
}

impl AgentError {
    /// What happened, without the kind of fault in front.
    pub fn message(&self) -> &str {
        match self {
            AgentError::Crash(text) | AgentError::IllegalMove(text) | AgentError::Timeout(text) => {
                text
            }
        }
    }
}

/// A player: chooses moves for positions of `G`.
///
/// Besides [`Agent::choose`], the arena tells an agent when a game starts and ends; agents that
/// live in the arena's process ignore both (the provided methods do nothing), outside agents
/// set up and end the game in their process there, off the clock.
pub trait Agent<G: Game>: Send {
    /// Chooses a move for `position`, which is not over. Draws randomness only from `ctx.rng`.
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError>;

    /// A game starts at `position` (after any random opening) with this agent in `seat`; called
    /// once before its first move, not timed. An error forfeits the game.
    fn start_game(
        &mut self,
        _position: &G,
        _seat: Player,
        _ctx: &mut Context<'_>,
    ) -> Result<(), AgentError> {
        Ok(())
    }

    /// The game is over: `position` is the last one, `outcome` the result, `termination` how it
    /// ended (the CSV's words: `win`, `draw`, `ply-cap`, `illegal-move`, `crash`, `timeout`).
    fn end_game(&mut self, _position: &G, _outcome: Outcome, _termination: &str) {}

    /// How far past the arena's per-move time limit a move of this agent may come and still
    /// count (outside agents: their stated time margin, for the pipes and process start-up).
    fn time_margin(&self) -> Duration {
        Duration::ZERO
    }

    /// Whether the agent thinks on the thread that calls [`Agent::choose`] (every agent of
    /// ours; not outside agents, which wait on another process). The arena then does not charge
    /// such an agent the time its thread waited for a processor: the time a busy machine takes
    /// the thread away is not the agent's, and never turns into a loss on time.
    fn in_process(&self) -> bool {
        true
    }
}

/// The games agents can be built for, and what each brings of its own: the evaluation and
/// tactics the searches use, the fast playouts, and the agents only that game has.
///
/// Search code keeps an [`AgentGame::Aux`] next to each position it visits: whatever the game
/// can update cheaply move by move (the m,n,k window evaluation and the cells where either
/// player would win at once), so that no node recomputes it from the whole board.
pub trait AgentGame: Game {
    /// What a move that stops the opponent's win in one is called in this game, for the
    /// reason agents give (`block` in m,n,k games).
    const DEFENCE: &'static str = "avoids a loss in one";

    /// Whether the game has the `near` playout policy (m,n,k: playouts only on empty cells next
    /// to a stone).
    const NEAR_PLAYOUTS: bool = false;

    /// Search-side state updated move by move (see the trait documentation).
    type Aux: Clone + fmt::Debug + Send + Sync;

    /// A move that is never legal in `self` (for the `fault` agent).
    fn illegal_move(&self) -> Self::Move;

    /// A small number that identifies `mv` among the moves of this game, below
    /// [`MOVE_SLOTS`]: indexes history tables and packs moves into transposition entries.
    fn move_index(mv: Self::Move) -> usize;

    /// The search state of `self`, computed from scratch.
    fn aux(&self) -> Self::Aux;

    /// The search state of `child`, which is `self` after `mv`, from the state `aux` of `self`.
    fn aux_after(&self, aux: &Self::Aux, mv: Self::Move, child: &Self) -> Self::Aux;

    /// The static evaluation of a position that is not over, from the side to move's view, in
    /// `(-EVAL_LIMIT, EVAL_LIMIT)` ([`score::EVAL_LIMIT`]).
    fn evaluate(&self, aux: &Self::Aux) -> i32;

    /// The static evaluation from `seat`'s view, for the searches of games of three or more
    /// players ([`multi`]). Default, for games of two players only: [`AgentGame::evaluate`],
    /// negated when `seat` is not to move. A game that seats more overrides it.
    fn evaluate_for(&self, aux: &Self::Aux, seat: Player) -> i32 {
        debug_assert_eq!(
            self.num_players(),
            2,
            "a game of more players gives its own evaluate_for"
        );
        let value = self.evaluate(aux);
        if self.side_to_move() == seat {
            value
        } else {
            -value
        }
    }

    /// The same evaluation computed from the position alone, as a reference for tests and
    /// for the plain `minimax` agent.
    fn evaluate_scratch(&self) -> i32 {
        self.evaluate(&self.aux())
    }

    /// What is forced here: a win at once, a single defence, or a lost position (see
    /// [`Tactic`]). Games without cheap threat detection answer [`Tactic::Open`].
    fn tactic(&self, _aux: &Self::Aux) -> Tactic<Self::Move> {
        Tactic::Open
    }

    /// A move-ordering hint: larger is searched first. Only its order matters.
    fn order_hint(&self, _aux: &Self::Aux, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether `player` can still win at all. `false` must be certain: the solver then bounds
    /// the value. Default `true`.
    fn can_win(&self, _aux: &Self::Aux, _player: Player) -> bool {
        true
    }

    /// The solver's ordering hint for `mv`, or `None` when `mv` is dominated: its game value is
    /// never better than that of some other legal move, so the solver may skip it (at least one
    /// move is always searched). Default: [`AgentGame::order_hint`], nothing dominated.
    fn solver_hint(&self, aux: &Self::Aux, mv: Self::Move) -> Option<i32> {
        Some(self.order_hint(aux, mv))
    }

    /// The solver's table key: the same for positions that are equal up to a symmetry of the
    /// board, with the symmetry that takes this position to the one the key stands for.
    /// Default: [`Game::hash_key`] and the identity (0).
    fn solver_key(&self) -> (u64, u8) {
        (self.hash_key(), 0)
    }

    /// The [`AgentGame::move_index`] of the move `index` under `symmetry` of
    /// [`AgentGame::solver_key`] (or its inverse). Default: the identity.
    fn map_move_index(&self, index: usize, _symmetry: u8, _inverse: bool) -> usize {
        index
    }

    /// Replaces `out` with the legal moves that end the game at once with a win for the side
    /// to move.
    fn immediate_wins(&self, out: &mut MoveList<Self::Move>) {
        out.clear();
        let me = self.side_to_move();
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        for mv in moves {
            if self.child(mv).outcome() == Some(Outcome::Win(me)) {
                out.push(mv);
            }
        }
    }

    /// Replaces `out` with the moves `mc-near` considers: for m,n,k the empty cells next to a
    /// stone (the centre on an empty board); by default every legal move.
    fn near_moves(&self, out: &mut Vec<Self::Move>) {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        out.clear();
        out.extend(moves);
    }

    /// An upper bound on the plies left in the game, if the game has one (an m,n,k game ends
    /// when its board is full); `None` for games that can go on for ever. Searches use it, and
    /// experiments bound their random openings by it from the start (with the ply cap).
    fn remaining_plies(&self) -> Option<u32> {
        None
    }

    /// Plays `self` to the end with uniformly random moves and returns the outcome; after
    /// `max_plies` plies the game is adjudicated. Default: [`playout::random_playout`]; games
    /// override it with something faster that plays the same distribution of games.
    fn playout_random<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, max_plies: u32) -> Outcome {
        playout::random_playout(self, rng, max_plies)
    }

    /// Plays `self` to the end with the `near` policy ([`AgentGame::NEAR_PLAYOUTS`]), or at
    /// random where the game has no such policy, and returns the outcome; after `max_plies`
    /// plies the game is adjudicated.
    fn playout_near<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, max_plies: u32) -> Outcome {
        playout::random_playout(self, rng, max_plies)
    }

    /// Plays `self` to its end with `policy`: [`AgentGame::playout_random`] or
    /// [`AgentGame::playout_near`] (see [`playout::random_playout`] for `max_plies`). Not a
    /// hook: games override those two.
    #[inline]
    fn playout<R: rand::Rng + ?Sized>(
        &mut self,
        policy: playout::Rollout,
        rng: &mut R,
        max_plies: u32,
    ) -> Outcome {
        match policy {
            playout::Rollout::Random => self.playout_random(rng, max_plies),
            playout::Rollout::Near => self.playout_near(rng, max_plies),
        }
    }

    /// The agent of the menus' "easy" level on this position's variant (`arena play`,
    /// `arena serve`), as a spec. Default: a weak flat Monte Carlo player.
    fn easy_spec(&self) -> &'static str {
        "mc-flat:rollouts=10"
    }

    /// The agent of the menus' "hard" level on this position's variant, which also gives
    /// hints: strong, and quick enough to answer within a second or two on one core. Node
    /// budgets rather than time keep its play reproducible from the seed.
    fn hard_spec(&self) -> &'static str {
        "mcts:iterations=5000"
    }

    /// What the game's own exact solver ([`AgentGame::own_solver`]) is, in a line that
    /// `arena solve` prints; `None`, the default: the game has none. A game that gives
    /// `own_solver` gives this too: `arena solve --method auto` (and `own`) read it to choose
    /// the game's solver without naming the game.
    const OWN_SOLVER: Option<&'static str> = None;

    /// The game's own exact solver, when it has one (Connect Four's): [`solve::try_solve`],
    /// and so `arena solve` and the web's Analyse, use it instead of the generic alpha-beta
    /// solver ([`solve::try_solve_generic`]). `None`, the default: the game has none.
    #[allow(clippy::type_complexity)]
    fn own_solver(
        &self,
        _limits: &solve::Limits,
    ) -> Option<Result<solve::Solution<Self::Move>, memory::OutOfMemory>> {
        None
    }

    /// Builds the agents of `kind` that only this game has (`kind.plays` is not
    /// [`Plays::Every`]). The default, for a game with no agents of its own: `kind` is
    /// unsupported here.
    fn build_own(
        kind: &'static Kind,
        _params: &Params<'_>,
    ) -> Result<Box<dyn Agent<Self>>, SpecError> {
        Err(SpecError::Unsupported {
            kind: kind.name.to_string(),
            variant: Self::FAMILY.title.to_string(),
            plays: kind.plays.describe(),
        })
    }
}

/// The bound on [`AgentGame::move_index`]: a 19x19 board's padded index space.
pub const MOVE_SLOTS: usize = 384;

/// What a position forces, as far as a game can tell cheaply. Search uses it to cut the tree
/// where that cannot change the minimax value (see `alphabeta`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tactic<M> {
    /// Nothing is known to be forced.
    Open,
    /// The side to move wins at once with this move.
    WinNow(M),
    /// The opponent threatens to win at once, and only this move stops it: every other move
    /// loses at the opponent's next move.
    MustBlock(M),
    /// The opponent threatens to win at once in two places the side to move cannot both stop:
    /// every move loses at the opponent's next move. The move blocks one of them.
    Lost(M),
    /// The opponent threatens to win at once here; blocking is urgent, but other moves may
    /// defend too (caro: a stone at the end of the line), so nothing is cut.
    BlockFirst(M),
    /// Neither player can win any more: the game will be drawn, and every evaluation from here
    /// on is 0.
    Drawn,
}

/// Which games a kind plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plays {
    /// Every game.
    Every,
    /// One game only (its agents need what only that game has).
    Only(&'static Family),
}

impl Plays {
    /// Whether a kind with this reach plays games of `family`.
    pub fn includes(self, family: &Family) -> bool {
        match self {
            Plays::Every => true,
            Plays::Only(only) => only == family,
        }
    }

    /// The games, in words: `every game`, `O An Quan only`.
    pub fn describe(self) -> String {
        match self {
            Plays::Every => "every game".to_string(),
            Plays::Only(family) => format!("{} only", family.title),
        }
    }
}

/// One agent kind of the roster, for `arena list` and for checking specs.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// The name specs use.
    pub name: &'static str,
    /// What it is, in a line.
    pub summary: &'static str,
    /// The games it plays.
    pub plays: Plays,
    /// Its parameters.
    pub params: &'static [ParamDoc],
    /// Whether it plays games of three and four players too (O An Quan for 3 and 4).
    pub multiplayer: bool,
    /// Whether `arena list` shows it (the `fault` agent, for testing the arena, is hidden).
    pub listed: bool,
    /// What an agent of this kind takes in memory, per unit of its settings, in a line:
    /// `arena list` prints it under the kind. `None`: nothing is said.
    pub memory: Option<fn() -> String>,
}

impl Kind {
    /// The games it plays, with their number of players, in words: `every game, two players
    /// only`, `O An Quan, 2 to 4 players`.
    pub fn reach(&self) -> String {
        let players = if self.multiplayer {
            "2 to 4 players"
        } else {
            "two players only"
        };
        format!("{}, {players}", self.plays.describe())
    }
}
