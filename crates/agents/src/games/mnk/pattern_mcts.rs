//! The `threat` agent's other search (`search=mcts`): Monte Carlo tree search whose priors and
//! playouts come from the line patterns ([`crate::pattern`]).
//!
//! - A node's children are the moves the alpha-beta would search ([`pattern_search`]: the
//!   forced replies to an immediate win, against an open three the fours and blocks, else the
//!   cells near the stones), at most [`WIDTH`] of them, each with a prior from its pattern
//!   score (a softmax over the scores).
//! - Selection is PUCT: value plus `c` times prior times sqrt(parent visits) / (1 + visits).
//! - A new leaf is settled when it can be (a win now, an unstoppable four, an open four the
//!   opponent cannot answer: a proven result), otherwise played out for at most
//!   [`PLAYOUT_PLIES`] plies by the pattern policy (win at once, else block, else an own four
//!   or open three half the time, else a random cell next to a stone) and scored by the
//!   pattern evaluation, squashed to (-1, 1).
//!
//! Proven wins propagate as in the MCTS-solver: a child proven a win for its mover ends the
//! parent's search.

use std::time::Instant;

use rand::{Rng, RngExt};
use rules::mnk::CellSet;
use rules::{Cell, Mnk, Player, TwoPlayer};

use super::pattern_search::{Keyed, move_score, quiet_candidates, settled};
use super::threats::Board;
use crate::score::MATE_BOUND;

/// Children of a node at most.
pub const WIDTH: usize = 16;

/// Plies of a playout before the evaluation decides.
pub const PLAYOUT_PLIES: u32 = 10;

/// The exploration constant.
const C_PUCT: f32 = 1.5;

/// Pattern score units per unit of the prior softmax's exponent.
const PRIOR_TEMPERATURE: f32 = 400.0;

/// Evaluation units per unit of the squashing tanh.
const EVAL_SCALE: f32 = 600.0;

/// How often the clock is read, in simulations.
const CLOCK_EVERY: u64 = 32;

#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Cell,
    prior: f32,
    visits: u32,
    /// Sum of the rewards of the player who moved into the node.
    reward: f32,
    first: u32,
    count: u16,
    expanded: bool,
    /// +1: proven win for the player who moved into the node; -1: proven loss; 0: unknown.
    proof: i8,
}

/// One search.
pub(crate) struct PatternMcts {
    nodes: Vec<Node>,
    path: Vec<u32>,
    /// Simulations run.
    pub simulations: u64,
    /// The deepest node reached.
    pub depth: u32,
}

impl PatternMcts {
    pub(crate) fn new() -> Self {
        PatternMcts {
            nodes: Vec::new(),
            path: Vec::new(),
            simulations: 0,
            depth: 0,
        }
    }

    /// The children of the board's position: the moves and their priors (empty when the
    /// position is settled).
    fn children(board: &Board) -> (Option<i32>, Vec<(Cell, f32)>) {
        let me = board.to_move();
        let mut forced = Keyed::new();
        if let Some(value) = settled(board, 0, &mut forced) {
            return (Some(value), Vec::new());
        }
        let mut moves: Vec<(i32, Cell)> = if forced.is_empty() {
            quiet_candidates(board, me)
                .iter()
                .map(|cell| (move_score(board, cell, me), cell))
                .collect()
        } else {
            forced.iter().copied().collect()
        };
        moves.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        moves.truncate(WIDTH);
        let top = moves.first().map_or(0, |m| m.0) as f32;
        let weights: Vec<f32> = moves
            .iter()
            .map(|&(score, _)| ((score as f32 - top) / PRIOR_TEMPERATURE).exp())
            .collect();
        let total: f32 = weights.iter().sum::<f32>().max(1e-9);
        (
            None,
            moves
                .iter()
                .zip(weights)
                .map(|(&(_, cell), w)| (cell, w / total))
                .collect(),
        )
    }

    fn expand(&mut self, node: u32, moves: &[(Cell, f32)]) {
        let first = self.nodes.len() as u32;
        for &(mv, prior) in moves {
            self.nodes.push(Node {
                mv,
                prior,
                visits: 0,
                reward: 0.0,
                first: 0,
                count: 0,
                expanded: false,
                proof: 0,
            });
        }
        let parent = &mut self.nodes[node as usize];
        parent.first = first;
        parent.count = moves.len() as u16;
        parent.expanded = true;
    }

    fn select(&self, node: u32) -> u32 {
        let parent = self.nodes[node as usize];
        let explore = C_PUCT * (parent.visits.max(1) as f32).sqrt();
        let mut best = (parent.first, f32::NEG_INFINITY);
        for i in parent.first..parent.first + u32::from(parent.count) {
            let child = self.nodes[i as usize];
            if child.proof < 0 {
                continue;
            }
            let q = if child.visits == 0 {
                0.0
            } else {
                child.reward / child.visits as f32
            };
            let value = q + explore * child.prior / (1.0 + child.visits as f32);
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }

    /// A playout by the pattern policy from the board (restored after); the reward of the
    /// player to move at its start.
    fn playout<R: Rng + ?Sized>(board: &mut Board, rng: &mut R) -> f32 {
        let start = board.to_move();
        let mut played = 0;
        let mut reward = None;
        for _ in 0..PLAYOUT_PLIES {
            let me = board.to_move();
            let them = Mnk::opponent(me);
            if let Some(win) = board.wins(me).iter().next() {
                let _ = win;
                reward = Some(if me == start { 1.0 } else { -1.0 });
                break;
            }
            if board.empty().is_empty() {
                reward = Some(0.0);
                break;
            }
            let theirs = board.wins(them);
            let pool: CellSet = if !theirs.is_empty() {
                let stop = board.defences(&theirs);
                if stop.is_empty() {
                    reward = Some(if me == start { -1.0 } else { 1.0 });
                    break;
                }
                stop
            } else {
                let sets = board.patterns().sets(me);
                let threats = sets.four.or(&sets.open_three).and(board.empty());
                if !threats.is_empty() && rng.random_bool(0.5) {
                    threats
                } else {
                    let game = board.game();
                    let stones = game.stones(Player::First).or(game.stones(Player::Second));
                    let near = stones
                        .dilated(game.config().stride())
                        .and(game.empty_cells());
                    if near.is_empty() {
                        *board.empty()
                    } else {
                        near
                    }
                }
            };
            let count = pool.len();
            let cell = pool
                .nth(rng.random_range(0..count))
                .expect("the pool is not empty");
            board.play(cell);
            played += 1;
        }
        let reward = reward.unwrap_or_else(|| {
            let eval = board.patterns().evaluate(board.to_move()) as f32;
            let value = (eval / EVAL_SCALE).tanh();
            if board.to_move() == start {
                value
            } else {
                -value
            }
        });
        for _ in 0..played {
            board.undo();
        }
        reward
    }

    /// One simulation from the root (the board's position, restored after).
    fn simulate<R: Rng + ?Sized>(&mut self, board: &mut Board, rng: &mut R) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let mut played = 0;
        // The reward of the player who moved into the last node of the path.
        let reward: f32;
        loop {
            let current = self.nodes[node as usize];
            if current.proof != 0 {
                reward = f32::from(current.proof);
                break;
            }
            if !current.expanded {
                let (value, moves) = PatternMcts::children(board);
                if let Some(value) = value {
                    // Settled for the side to move here, the opponent of the node's mover.
                    let proof = if value >= MATE_BOUND {
                        -1
                    } else if value <= -MATE_BOUND {
                        1
                    } else {
                        0
                    };
                    self.nodes[node as usize].proof = proof;
                    reward = if proof != 0 { f32::from(proof) } else { 0.0 };
                    break;
                }
                self.expand(node, &moves);
                reward = -PatternMcts::playout(board, rng);
                break;
            }
            node = self.select(node);
            board.play(self.nodes[node as usize].mv);
            played += 1;
            self.path.push(node);
        }
        self.depth = self.depth.max(played);
        // Back up, the sign changing every ply.
        let mut value = reward;
        for depth in (0..self.path.len()).rev() {
            let index = self.path[depth] as usize;
            self.nodes[index].visits += 1;
            self.nodes[index].reward += value;
            value = -value;
        }
        // A child proven a win proves its parent a loss.
        for depth in (1..self.path.len()).rev() {
            let child = self.nodes[self.path[depth] as usize];
            let parent_index = self.path[depth - 1] as usize;
            if child.proof == 1 && self.nodes[parent_index].proof == 0 {
                self.nodes[parent_index].proof = -1;
            } else {
                break;
            }
        }
        for _ in 0..played {
            board.undo();
        }
    }

    /// Searches `board` over the root `moves` until `simulations` or the deadline; returns the
    /// most visited move (a proven win first) and its mean reward.
    pub(crate) fn search<R: Rng + ?Sized>(
        &mut self,
        board: &mut Board,
        moves: &[Cell],
        simulations: u64,
        deadline: Option<Instant>,
        rng: &mut R,
    ) -> (Cell, f32) {
        self.nodes.clear();
        self.nodes.push(Node {
            mv: moves[0],
            prior: 1.0,
            visits: 0,
            reward: 0.0,
            first: 0,
            count: 0,
            expanded: false,
            proof: 0,
        });
        let me = board.to_move();
        let priors: Vec<(Cell, f32)> = {
            let scores: Vec<f32> = moves
                .iter()
                .map(|&c| move_score(board, c, me) as f32)
                .collect();
            let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let weights: Vec<f32> = scores
                .iter()
                .map(|s| ((s - top) / PRIOR_TEMPERATURE).exp())
                .collect();
            let total: f32 = weights.iter().sum::<f32>().max(1e-9);
            moves
                .iter()
                .zip(weights)
                .map(|(&c, w)| (c, w / total))
                .collect()
        };
        self.expand(0, &priors);
        self.simulations = 0;
        self.depth = 0;
        while self.simulations < simulations && self.nodes[0].proof == 0 {
            self.simulate(board, rng);
            self.simulations += 1;
            if self.simulations.is_multiple_of(CLOCK_EVERY)
                && deadline.is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
        }
        let root = self.nodes[0];
        let children =
            &self.nodes[root.first as usize..(root.first + u32::from(root.count)) as usize];
        let rank = |c: &Node| (c.proof == 1, c.proof != -1, c.visits);
        let best = children
            .iter()
            .max_by(|a, b| rank(a).cmp(&rank(b)))
            .expect("the root has children");
        let value = if best.visits == 0 {
            0.0
        } else {
            best.reward / best.visits as f32
        };
        (best.mv, value)
    }
}
