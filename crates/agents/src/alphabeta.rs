//! `alphabeta`: negamax with alpha-beta pruning, iterative deepening, a transposition table,
//! move ordering and the game's evaluation at the horizon; at the root it wins at once when it
//! can and, when the opponent threatens to win at once, considers only the moves that stop it.
//!
//! With three or four players it runs the paranoid search of [`crate::multi`] instead (the
//! same depth, node and time budgets; no table).
//!
//! Its value at a given depth equals `minimax`'s (see `search.rs` for why each shortcut keeps
//! that true; the tests check it on random positions). With a depth or node budget it is
//! reproducible; with a time budget it is not.

use std::time::{Duration, Instant};

use rules::MoveList;

use crate::memory::OutOfMemory;
use crate::minimax::MAX_DEPTH;
use crate::score::{self, INFINITY};
use crate::search::Searcher;
use crate::spec::bad_value;
use crate::{Agent, AgentError, AgentGame, Choice, Context, Kind, ParamDoc, Params, Plays};
use crate::{SearchStats, SpecError};

pub(crate) const KIND: Kind = Kind {
    name: "alphabeta",
    summary: "negamax with alpha-beta, iterative deepening, move ordering and a transposition \
              table; the game's evaluation at the horizon",
    plays: Plays::Every,
    params: &[
        ParamDoc {
            name: "depth",
            default: "64",
            doc: "deepest iteration, in plies (1-64)",
        },
        ParamDoc {
            name: "nodes",
            default: "auto",
            doc: "node budget (reproducible): no deeper iteration starts, and the one under way \
                  is dropped, past it; auto = 1M unless depth or time_ms is given, then none",
        },
        ParamDoc {
            name: "time_ms",
            default: "0",
            doc: "time budget per move in milliseconds (0 = none); given alone it is the whole \
                  budget, with depth or nodes whichever ends first; not reproducible",
        },
        ParamDoc {
            name: "tt_mb",
            default: "64",
            doc: "transposition table size in MiB (1-65536, and at most the machine's memory), \
                  allocated on the first search",
        },
    ],
    multiplayer: true,
    listed: true,
    memory: Some(|| {
        "its transposition table, tt_mb MiB rounded down to a power of two \
         (65,536 entries of 16 bytes per MiB), taken on the first search and touched as the \
         search fills it, plus \
         under 64 KiB of move-ordering tables; the arena keeps up to two tables of at most \
         256 MiB per worker thread for the next game"
            .to_string()
    }),
};

/// The node budget when no depth, node or time budget is given.
pub const DEFAULT_NODES: u64 = 1_000_000;

/// The settings of [`AlphaBeta`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// The deepest iteration, in plies (1 to 64). Default 64.
    pub depth: u32,
    /// The node budget, if any. Default 1,000,000 ([`DEFAULT_NODES`]).
    pub nodes: Option<u64>,
    /// The time budget per move, if any. Default none.
    pub time: Option<Duration>,
    /// The transposition table's size in MiB (at least 1). Default 64.
    pub tt_mb: usize,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            depth: MAX_DEPTH,
            nodes: Some(DEFAULT_NODES),
            time: None,
            tt_mb: 64,
        }
    }
}

impl AlphaBetaConfig {
    /// The same settings with another deepest iteration.
    pub fn with_depth(mut self, depth: u32) -> Self {
        self.depth = depth;
        self
    }

    /// The same settings with another node budget (`None` = unlimited).
    pub fn with_nodes(mut self, nodes: Option<u64>) -> Self {
        self.nodes = nodes;
        self
    }

    /// The same settings with another time budget (`None` = unlimited).
    pub fn with_time(mut self, time: Option<Duration>) -> Self {
        self.time = time;
        self
    }

    /// The same settings with another table size in MiB.
    pub fn with_tt_mb(mut self, tt_mb: usize) -> Self {
        self.tt_mb = tt_mb;
        self
    }
}

/// The alpha-beta agent. It keeps its table between moves only to reuse the memory: every
/// search starts from an empty table, so a move depends on the position alone.
pub struct AlphaBeta<G: AgentGame> {
    config: AlphaBetaConfig,
    searcher: Option<Searcher<G>>,
}

impl<G: AgentGame> AlphaBeta<G> {
    /// An alpha-beta agent; refuses a depth outside 1 to 64, an empty node or time budget,
    /// or a zero-sized table. Allocates nothing until its first search.
    pub fn new(config: AlphaBetaConfig) -> Result<Self, SpecError> {
        if !(1..=MAX_DEPTH).contains(&config.depth) {
            return Err(bad_value(
                KIND.name,
                "depth",
                config.depth,
                "an integer from 1 to 64",
            ));
        }
        if config.nodes == Some(0) {
            return Err(bad_value(KIND.name, "nodes", 0, "a positive node budget"));
        }
        if config.time.is_some_and(|time| time.is_zero()) {
            return Err(bad_value(KIND.name, "time_ms", 0, "a positive time"));
        }
        if !(1..=65536).contains(&config.tt_mb) {
            return Err(bad_value(
                KIND.name,
                "tt_mb",
                config.tt_mb,
                "an integer from 1 to 65536",
            ));
        }
        Ok(AlphaBeta {
            config,
            searcher: None,
        })
    }

    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let depth = params.u64("depth", u64::from(MAX_DEPTH), 1..=u64::from(MAX_DEPTH))?;
        let time_ms = params.u64("time_ms", 0, 0..=86_400_000)?;
        let explicit = params.text("depth").is_some() || time_ms > 0;
        let nodes = params
            .u64_or_auto("nodes", 1..=u64::MAX)?
            .or((!explicit).then_some(DEFAULT_NODES));
        let config = AlphaBetaConfig::default()
            .with_depth(depth as u32)
            .with_nodes(nodes)
            .with_time((time_ms > 0).then(|| Duration::from_millis(time_ms)))
            .with_tt_mb(params.u64("tt_mb", 64, 1..=65536)? as usize);
        crate::memory::check_fits(KIND.name, "tt_mb", config.tt_mb as u64)?;
        AlphaBeta::new(config)
    }
}

/// The alpha-beta value of `position` at `depth` plies, from the side to move's view, found by
/// iterative deepening with a table of `tt_mb` MiB: the same number [`crate::minimax::value`]
/// gives. An error when the table cannot be allocated.
pub fn value<G: AgentGame>(position: &G, depth: u32, tt_mb: usize) -> Result<i32, OutOfMemory> {
    let mut searcher = Searcher::<G>::new(tt_mb);
    searcher.begin(None, None)?;
    let aux = position.aux();
    let mut value = 0;
    for d in 1..=depth.max(1) {
        value = searcher.negamax(position, &aux, d, 0, -INFINITY, INFINITY);
    }
    Ok(value)
}

impl<G: AgentGame> Agent<G> for AlphaBeta<G> {
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        let started = Instant::now();
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        if position.num_players() > 2 {
            let deadline = match (ctx.deadline, self.config.time.map(|t| started + t)) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            return crate::multi::paranoid_choice(
                position,
                self.config.depth,
                self.config.nodes,
                deadline,
            );
        }
        let stats = |nodes, depth, score: i32, reason: String| SearchStats {
            nodes,
            depth,
            score: Some(f64::from(score)),
            reason: Some(reason),
        };
        if moves.len() == 1 {
            return Ok(Choice {
                mv: moves[0],
                stats: SearchStats {
                    nodes: 1,
                    reason: Some("only move".into()),
                    ..SearchStats::default()
                },
                pv: vec![moves[0]],
            });
        }

        // Root tactics: a win at once, then the opponent's wins at once.
        let mut wins = MoveList::new();
        position.immediate_wins(&mut wins);
        if let Some(&mv) = wins.first() {
            let reason = "win now".to_string();
            return Ok(Choice {
                mv,
                stats: stats(moves.len() as u64, Some(1), score::MATE - 1, reason),
                pv: vec![mv],
            });
        }
        let mut root_moves: Vec<G::Move> = Vec::with_capacity(moves.len());
        for &mv in &moves {
            position.child(mv).immediate_wins(&mut wins);
            if wins.is_empty() {
                root_moves.push(mv);
            }
        }
        let checked = moves.len() as u64 * 2;
        let must_defend = !root_moves.is_empty() && root_moves.len() < moves.len();
        let defence = G::DEFENCE;
        if root_moves.is_empty() {
            // Every move loses at once: search them all, the least bad will be found.
            root_moves.extend(moves.iter().copied());
        }
        if root_moves.len() == 1 {
            return Ok(Choice {
                mv: root_moves[0],
                stats: SearchStats {
                    nodes: checked,
                    reason: Some(format!("{defence}: the only move that does")),
                    ..SearchStats::default()
                },
                pv: vec![root_moves[0]],
            });
        }

        // First iteration order: the game's hint, ties by the move's index.
        let aux = position.aux();
        root_moves.sort_by_key(|&mv| {
            (
                std::cmp::Reverse(position.order_hint(&aux, mv)),
                G::move_index(mv),
            )
        });
        let deadline = match (ctx.deadline, self.config.time.map(|t| started + t)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let tt_mb = self.config.tt_mb;
        let searcher = self.searcher.get_or_insert_with(|| Searcher::new(tt_mb));
        // "Move now" stops the search as its deadline would.
        searcher.stop = ctx.stop.clone();
        // The first iteration always completes, so there is always a searched move.
        searcher
            .begin(None, None)
            .map_err(|error| AgentError::Crash(error.to_string()))?;
        let last = position
            .remaining_plies()
            .unwrap_or(MAX_DEPTH)
            .clamp(1, self.config.depth);
        let mut result = (root_moves[0], 0, 0);
        for depth in 1..=last {
            if depth == 2 {
                searcher.set_budget(self.config.nodes, deadline);
            }
            match searcher.root(position, &aux, &mut root_moves, depth) {
                Some(value) => result = (root_moves[0], value, depth),
                None => break,
            }
            // A forced result within the depth searched is what every deeper search finds.
            if score::mate_distance(result.1).is_some_and(|plies| plies <= depth) {
                break;
            }
        }
        let (mv, value, depth) = result;
        let reason = match score::describe(value) {
            Some(words) if must_defend => format!("{defence}; {words}"),
            Some(words) => words,
            None if must_defend => format!("{defence}, depth {depth}"),
            None => format!("best of {} moves at depth {depth}", root_moves.len()),
        };
        Ok(Choice {
            mv,
            stats: stats(searcher.nodes + checked, Some(depth), value, reason),
            pv: searcher.line(position, mv),
        })
    }
}
