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
    summary: "plain minimax to a fixed depth, no pruning; wins sooner, loses later (seed 004)",
    plays: Plays::Every,
    params: &[ParamDoc {
        name: "depth",
        default: "auto",
        doc: "plies to search, 1-64; auto = the deepest search of about a million leaves at most \
              (the whole game where it fits, as in tic-tac-toe)",
    }],
    listed: true,
};

/// The most leaves `depth=auto` lets a search have.
const AUTO_LEAVES: f64 = 1e6;

/// The deepest depth `minimax` and `alphabeta` accept.
pub const MAX_DEPTH: u32 = 64;

/// The settings of [`Minimax`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MinimaxConfig {
    /// Plies to search (1 to [`MAX_DEPTH`]); `None` picks the deepest search of about a
    /// million leaves at most ([`auto_depth`]). Default `None`.
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

/// The deepest depth whose full-width tree has about a million leaves at most (at least 1),
/// counting the branching factor down by one per ply in games that fill a board, and never
/// past the end of such a game.
pub fn auto_depth<G: AgentGame>(position: &G) -> u32 {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let branching = moves.len() as f64;
    let bound = position.remaining_plies();
    let cap = bound.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
    let (mut leaves, mut depth) = (1.0, 0);
    while depth < cap {
        let factor = match bound {
            Some(_) => (branching - f64::from(depth)).max(1.0),
            None => branching.max(1.0),
        };
        if depth >= 1 && leaves * factor > AUTO_LEAVES {
            break;
        }
        leaves *= factor;
        depth += 1;
    }
    depth.max(1)
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

impl<G: AgentGame> Agent<G> for Minimax {
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        let depth = self.config.depth.unwrap_or_else(|| auto_depth(position));
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        let mut nodes = 1;
        let mut best = -score::INFINITY;
        let mut ties: MoveList<G::Move> = MoveList::new();
        for &mv in &moves {
            let value = -negamax(&position.child(mv), depth - 1, 1, &mut nodes);
            if value > best {
                best = value;
                ties.clear();
            }
            if value == best {
                ties.push(mv);
            }
        }
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
        })
    }
}
