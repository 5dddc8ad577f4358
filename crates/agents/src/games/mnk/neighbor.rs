//! `neighbor` (seed 002's caro AI): win at once if possible, block the opponent's win at once
//! (which covers an open four: both its ends are such wins), else score the empty cells among
//! the 8 neighbours of the opponent's last stone and play the best; when all 8 are taken, the
//! ring widens until it finds an empty cell. m,n,k only.
//!
//! A cell's score, as in the seed: the chains of the agent's own stones it would extend (the
//! length through the cell along each of the four lines, weighted 10 per stone beyond the
//! cell itself) plus its empty neighbours. Ties are broken at random.

use rand::RngExt;
use rules::{Cell, Game, Mnk, MoveList, Player, TwoPlayer};

use super::geometry::{Geometry, threats_of};
use crate::{Agent, AgentError, Choice, Context, Kind, Params, Plays, SearchStats, SpecError};

pub(crate) const KIND: Kind = Kind {
    name: "neighbor",
    summary: "win now, block a win (an open four), else the best-scored empty cell next to \
              the opponent's last stone (the caro course project's AI)",
    plays: Plays::Only(&rules::mnk::FAMILY),
    params: &[],
    multiplayer: false,
    listed: true,
    memory: Some(|| crate::memory::SMALL.to_string()),
};

/// The settings of [`Neighbor`]: it has none, as in the seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NeighborConfig {}

/// The `neighbor` agent.
#[derive(Clone, Debug, Default)]
pub struct Neighbor {
    _config: NeighborConfig,
}

impl Neighbor {
    /// A `neighbor` agent.
    pub fn new(config: NeighborConfig) -> Result<Self, SpecError> {
        Ok(Neighbor { _config: config })
    }

    pub(crate) fn from_params(_params: &Params<'_>) -> Result<Self, SpecError> {
        Neighbor::new(NeighborConfig::default())
    }
}

/// The seed's score of an empty cell for `me`.
fn cell_score(position: &Mnk, cell: Cell, me: Player) -> i32 {
    let geometry = Geometry::of(position);
    let own = position.stones(me);
    let empty = position.empty_cells();
    let mut chains = 0;
    for step in geometry.steps() {
        let mut length = 1;
        let mut index = cell.index();
        while let Some(next) = geometry.forward(index, step) {
            if !own.contains(Cell(next as u16)) {
                break;
            }
            length += 1;
            index = next;
        }
        let mut index = cell.index();
        while let Some(previous) = geometry.backward(index, step) {
            if !own.contains(Cell(previous as u16)) {
                break;
            }
            length += 1;
            index = previous;
        }
        chains += 10 * (length - 1);
    }
    chains + geometry.neighbours_in(cell, empty).len() as i32
}

impl Agent<Mnk> for Neighbor {
    fn choose(
        &mut self,
        position: &Mnk,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<Cell>, AgentError> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        let choice = |mv: Cell, nodes: usize, reason: String| Choice {
            mv,
            stats: SearchStats {
                nodes: nodes as u64,
                reason: Some(reason),
                ..SearchStats::default()
            },
            pv: Vec::new(),
        };
        if moves.len() == 1 {
            return Ok(choice(moves[0], 1, "only move".into()));
        }
        let me = position.side_to_move();
        let legal = |cell: &Cell| position.is_legal(*cell);
        if let Some(cell) = threats_of(position, me).iter().find(legal) {
            return Ok(choice(cell, moves.len(), "win now".into()));
        }
        if let Some(cell) = threats_of(position, Mnk::opponent(me)).iter().find(legal) {
            return Ok(choice(cell, moves.len(), "block".into()));
        }
        let config = position.config();
        let Some(last) = position.last_move() else {
            let centre = config.center_cell();
            let cell = if position.is_legal(centre) {
                centre
            } else {
                moves[ctx.rng.random_range(0..moves.len())]
            };
            return Ok(choice(cell, 1, "centre".into()));
        };
        let (row, col) = config.row_col(last);
        let (row, col) = (i32::from(row), i32::from(col));
        let widest = i32::from(config.rows().max(config.cols()));
        for radius in 1..=widest {
            let mut best = i32::MIN;
            let mut ties: Vec<Cell> = Vec::new();
            for r in row - radius..=row + radius {
                for c in col - radius..=col + radius {
                    // Only the ring at this distance, not the cells inside it.
                    if (r - row).abs() != radius && (c - col).abs() != radius {
                        continue;
                    }
                    let Some(cell) = u8::try_from(r)
                        .ok()
                        .zip(u8::try_from(c).ok())
                        .and_then(|(r, c)| config.cell(r, c))
                    else {
                        continue;
                    };
                    if !position.is_legal(cell) {
                        continue;
                    }
                    let score = cell_score(position, cell, me);
                    if score > best {
                        best = score;
                        ties.clear();
                    }
                    if score == best {
                        ties.push(cell);
                    }
                }
            }
            if !ties.is_empty() {
                let cell = ties[ctx.rng.random_range(0..ties.len())];
                let reason = format!("best neighbour at distance {radius}, score {best}");
                return Ok(choice(cell, ties.len(), reason));
            }
        }
        // Unreachable on a board with an empty cell, but a move is always better than an error.
        let cell = moves[ctx.rng.random_range(0..moves.len())];
        Ok(choice(cell, 1, "random".into()))
    }
}
