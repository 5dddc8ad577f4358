//! `minimax`: plain minimax (negamax form) to a fixed depth, every move searched, no pruning
//! (seed 004). A finished game scores a win sooner higher and a loss later higher
//! ([`crate::score`]); the game's evaluation scores the horizon. It is the reference the other
//! searches are tested against, so it stays as simple as it can be.

use rand::RngExt;
use rules::MoveList;

use crate::score;
use crate::spec::bad_value;
use crate::{Agent, AgentError, AgentGame, Choice, Context, Kind, ParamDoc, Params, Plays};
use crate::{SearchStats, SpecError};

pub(crate) const KIND: Kind = Kind {
    name: "minimax",
    summary: "plain minimax to a fixed depth, no pruning; wins sooner, loses later (the tic-tac-toe tutorial's minimax)",
    plays: Plays::Every,
    params: &[ParamDoc {
        name: "depth",
        default: "auto",
        doc: "plies to search, 1-64; auto = deepen while the next search is expected to stay \
              under about a million nodes (the whole game where it fits, as in tic-tac-toe)",
    }],
    multiplayer: false,
    listed: true,
    memory: Some(|| "a move list per ply of depth, on the stack: under 2 KiB a ply".to_string()),
};

/// The most nodes `depth=auto` expects its last iteration to visit.
const AUTO_NODES: f64 = 1e6;

/// The deepest depth `minimax` and `alphabeta` accept.
pub const MAX_DEPTH: u32 = 64;

/// The settings of [`Minimax`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MinimaxConfig {
    /// Plies to search (1 to [`MAX_DEPTH`]); `None` searches depth 1, 2, ... while the next
    /// depth is expected (from the growth of the node counts so far) to visit about a million
    /// nodes at most, and plays the last. Default `None`.
    pub depth: Option<u32>,
}

impl MinimaxConfig {
    /// The same settings with another depth (`None` = automatic).
    pub fn with_depth(mut self, depth: Option<u32>) -> Self {
        self.depth = depth;
        self
    }
}

/// The plain minimax agent. Ties between equally good moves are broken at random.
#[derive(Clone, Debug)]
pub struct Minimax {
    config: MinimaxConfig,
}

impl Minimax {
    /// A minimax agent; refuses a depth outside 1 to [`MAX_DEPTH`].
    pub fn new(config: MinimaxConfig) -> Result<Self, SpecError> {
        if let Some(depth) = config.depth
            && !(1..=MAX_DEPTH).contains(&depth)
        {
            return Err(bad_value(
                KIND.name,
                "depth",
                depth,
                "`auto` or an integer from 1 to 64",
            ));
        }
        Ok(Minimax { config })
    }

    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let depth = params.u64_or_auto("depth", 1..=u64::from(MAX_DEPTH))?;
        Minimax::new(MinimaxConfig::default().with_depth(depth.map(|d| d as u32)))
    }
}

/// The minimax value of `position` searched `depth` plies deep, from the side to move's view
/// (see [`crate::score`]). The reference for every other search.
pub fn value<G: AgentGame>(position: &G, depth: u32) -> i32 {
    let mut nodes = 0;
    negamax(position, depth, 0, &mut nodes)
}

fn negamax<G: AgentGame>(position: &G, depth: u32, ply: u32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if let Some(outcome) = position.outcome() {
        return score::terminal(outcome, position.side_to_move(), ply);
    }
    if depth == 0 {
        return position.evaluate_scratch();
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let mut best = -score::INFINITY;
    for mv in moves {
        best = best.max(-negamax(&position.child(mv), depth - 1, ply + 1, nodes));
    }
    best
}

/// Every root move with its value at `depth`, and the nodes visited.
fn root_values<G: AgentGame>(
    position: &G,
    moves: &[G::Move],
    depth: u32,
) -> (Vec<(G::Move, i32)>, u64) {
    let mut nodes = 1;
    let values = moves
        .iter()
        .map(|&mv| (mv, -negamax(&position.child(mv), depth - 1, 1, &mut nodes)))
        .collect();
    (values, nodes)
}

impl<G: AgentGame> Agent<G> for Minimax {
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        let (mut values, mut depth, mut nodes);
        match self.config.depth {
            Some(fixed) => {
                depth = fixed;
                (values, nodes) = root_values(position, &moves, depth);
            }
            None => {
                // Deepen while the next iteration, growing as the last one did, stays in
                // budget; never past the end of a game with a ply bound.
                let last = position
                    .remaining_plies()
                    .unwrap_or(MAX_DEPTH)
                    .min(MAX_DEPTH);
                depth = 1;
                (values, nodes) = root_values(position, &moves, depth);
                let mut previous = 1u64;
                let mut total = nodes;
                while depth < last {
                    let growth = nodes as f64 / previous as f64;
                    if nodes as f64 * growth > AUTO_NODES {
                        break;
                    }
                    previous = nodes;
                    depth += 1;
                    (values, nodes) = root_values(position, &moves, depth);
                    total += nodes;
                }
                nodes = total;
            }
        }
        let best = values.iter().map(|&(_, value)| value).max().unwrap_or(0);
        let ties: Vec<G::Move> = values
            .iter()
            .filter(|&&(_, value)| value == best)
            .map(|&(mv, _)| mv)
            .collect();
        let mv = ties[ctx.rng.random_range(0..ties.len())];
        let reason = score::describe(best)
            .unwrap_or_else(|| format!("best of {} moves at depth {depth}", moves.len()));
        Ok(Choice {
            mv,
            stats: SearchStats {
                nodes,
                depth: Some(depth),
                score: Some(f64::from(best)),
                reason: Some(reason),
            },
            pv: Vec::new(),
        })
    }
}
