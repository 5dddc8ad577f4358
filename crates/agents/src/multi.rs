//! Search for games of three and four players (O An Quan for 3 and 4): the searches `alphabeta`
//! and `mcts` switch to when a position seats more than two.
//!
//! - [`Paranoid`], behind `alphabeta`: the paranoid reduction (Sturtevant & Korf 2000). The
//!   player to move at the root maximises its evaluation and every other player is assumed to
//!   minimise it, as one coalition. That makes the game two-sided again, so full alpha-beta
//!   pruning applies and, at equal nodes, the search reaches about twice the depth of max^n,
//!   whose pruning is only shallow when the evaluations of all players are independent
//!   (Korf 1991). Sturtevant's comparisons in Chinese checkers, Hearts and Spades found paranoid
//!   at its greater depth at least as strong as max^n, and O An Quan's captures are a zero-sum
//!   race where every opponent gains from the root player's losses, which is what paranoid
//!   assumes. Its evaluation is the root player's final total minus the best other total
//!   ([`AgentGame::evaluate_for`]), since a place is won by beating the strongest opponent.
//! - [`MaxnUct`], behind `mcts`: UCT with a reward per seat (the max^n backup of
//!   Sturtevant 2008's multi-player UCT). Each node keeps the sum of every seat's playout
//!   rewards; at a node the player to move picks by its own component. A reward is the number
//!   of opponents the seat finished above minus the number that finished above it, divided by
//!   `N - 1`, so it lies in [-1, 1] like the two-player search's and the same `c` fits.
//!   Proofs are not propagated (the MCTS-solver's win/loss logic is a two-player one).
//!
//! Both draw randomness only from the context's RNG and allocate nothing per node beyond the
//! tree (MCTS) or a move list on the stack (paranoid).

use std::time::Instant;

use rand::{Rng, RngExt, SeedableRng};
use rules::{MAX_PLAYERS, MoveList, Outcome, Player};

use crate::playout::{self, PLAYOUT_PLY_CAP, PlayoutRng, Rollout};
use crate::{AgentError, AgentGame, Choice, Context, SearchStats};

/// A finished game's value for the root seat in the paranoid search: the share of opponents
/// it beat, from -1 to 1, scaled above every evaluation, less the plies it took (a win sooner,
/// a loss later).
const DECIDED: i32 = 1_000_000;

/// Scores outside `±DECIDED` cannot occur; used as the window's infinity.
const UNBOUNDED: i32 = 2 * DECIDED;

/// The value of a finished game for `root`, `ply` plies from the root.
fn decided(outcome: Outcome, root: Player, ply: u32) -> i32 {
    let share = 2.0 * outcome.score(root) - 1.0;
    let value = (share * f64::from(DECIDED)) as i32;
    // Prefer good results sooner and bad ones later.
    value - value.signum() * ply as i32
}

/// The paranoid alpha-beta search of one move.
pub(crate) struct Paranoid {
    /// Nodes visited.
    pub nodes: u64,
    /// The seat that moves at the root and maximises.
    root: Player,
    node_budget: Option<u64>,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Paranoid {
    /// A search with a node budget and a deadline (either may be absent).
    pub fn new(node_budget: Option<u64>, deadline: Option<Instant>) -> Self {
        Paranoid {
            nodes: 0,
            root: Player::First,
            node_budget,
            deadline,
            stopped: false,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if !self.stopped {
            // The node budget every node (it decides reproducible searches), the clock now
            // and then.
            self.stopped = self.node_budget.is_some_and(|budget| self.nodes >= budget)
                || (self.nodes.is_multiple_of(1024)
                    && self.deadline.is_some_and(|d| Instant::now() >= d));
        }
        self.stopped
    }

    /// The paranoid value of `position` for the root seat at `depth` plies.
    fn value<G: AgentGame>(
        &mut self,
        position: &G,
        aux: &G::Aux,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        let root = self.root;
        if let Some(outcome) = position.outcome() {
            return decided(outcome, root, ply);
        }
        if depth == 0 || self.out_of_budget() {
            return position.evaluate_for(aux, root);
        }
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        moves.sort_by_key(|&mv| std::cmp::Reverse(position.order_hint(aux, mv)));
        let maximising = position.side_to_move() == root;
        let mut best = if maximising { -UNBOUNDED } else { UNBOUNDED };
        for mv in moves {
            let child = position.child(mv);
            let child_aux = position.aux_after(aux, mv, &child);
            let value = self.value(&child, &child_aux, depth - 1, ply + 1, alpha, beta);
            if maximising {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Iterative deepening to `max_depth` over the root moves; returns the best move, its value
    /// and the depth of the last completed iteration. The first iteration always completes.
    pub fn choose<G: AgentGame>(
        &mut self,
        position: &G,
        max_depth: u32,
    ) -> Option<(G::Move, i32, u32)> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        self.root = position.side_to_move();
        let aux = position.aux();
        moves.sort_by_key(|&mv| {
            (
                std::cmp::Reverse(position.order_hint(&aux, mv)),
                G::move_index(mv),
            )
        });
        let mut best: Option<(G::Move, i32, u32)> = None;
        for depth in 1..=max_depth.max(1) {
            let mut alpha = -UNBOUNDED;
            let mut values: MoveList<(G::Move, i32)> = MoveList::new();
            for &mv in &moves {
                let child = position.child(mv);
                let child_aux = position.aux_after(&aux, mv, &child);
                let value = self.value(&child, &child_aux, depth - 1, 1, alpha, UNBOUNDED);
                if self.stopped && depth > 1 {
                    break;
                }
                alpha = alpha.max(value);
                values.push((mv, value));
            }
            if self.stopped && depth > 1 {
                break;
            }
            // Best first for the next iteration; equal values keep their order.
            values.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
            moves.clear();
            moves.extend(values.iter().map(|&(mv, _)| mv));
            best = values.first().map(|&(mv, value)| (mv, value, depth));
            if values.first().is_some_and(|&(_, v)| v.abs() >= DECIDED / 2) || self.stopped {
                break;
            }
        }
        best
    }
}

/// A node of the max^n UCT tree. Children are `first..first + count` of the node array.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    first: u32,
    visits: u32,
    count: u16,
    expanded: bool,
    mv: M,
    /// Sum of each seat's rewards over the simulations through this node, in units of
    /// `1 / (N - 1)` so that they stay integers.
    reward: [i32; MAX_PLAYERS],
}

/// The reward of every seat for `outcome`: opponents finished above minus opponents finished
/// below, in units of `1 / (N - 1)`.
fn rewards(outcome: Outcome, players: usize) -> [i32; MAX_PLAYERS] {
    let mut out = [0; MAX_PLAYERS];
    for (seat, slot) in out.iter_mut().enumerate().take(players) {
        *slot = playout::reward(outcome, Player::seat(seat));
    }
    out
}

/// UCT with a reward vector per seat (max^n backup), for three and four players.
pub(crate) struct MaxnUct<M> {
    nodes: Vec<Node<M>>,
    path: Vec<u32>,
    /// The most nodes the tree may hold.
    pub max_nodes: usize,
}

/// The settings a [`MaxnUct`] search takes from `mcts`'s.
#[derive(Clone, Copy, Debug)]
pub(crate) struct UctBudget {
    pub iterations: u64,
    pub c: f64,
    pub rollout: Rollout,
    pub deadline: Option<Instant>,
}

impl<M: Copy> MaxnUct<M> {
    /// An empty tree of at most `tree_bytes` bytes.
    pub fn new(tree_bytes: usize) -> Self {
        MaxnUct {
            nodes: Vec::new(),
            path: Vec::new(),
            max_nodes: (tree_bytes / std::mem::size_of::<Node<M>>()).max(2),
        }
    }

    fn expand<G: AgentGame<Move = M>, R: Rng + ?Sized>(
        &mut self,
        node: u32,
        position: &G,
        rng: &mut R,
    ) -> bool {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if node != 0 && self.nodes.len() + moves.len() > self.max_nodes {
            return false;
        }
        let first = self.nodes.len() as u32;
        let shift = rng.random_range(0..moves.len());
        for i in 0..moves.len() {
            self.nodes.push(Node {
                first: 0,
                visits: 0,
                count: 0,
                expanded: false,
                mv: moves[(i + shift) % moves.len()],
                reward: [0; MAX_PLAYERS],
            });
        }
        let parent = &mut self.nodes[node as usize];
        parent.first = first;
        parent.count = moves.len() as u16;
        parent.expanded = true;
        true
    }

    /// The child of `node` to descend into for `seat`, the player to move there: an unvisited
    /// one first, else the best UCT value of `seat`'s reward.
    fn select(&self, node: u32, seat: usize, c: f64, scale: f64) -> u32 {
        let parent = self.nodes[node as usize];
        let explore = c * f64::from(parent.visits.max(1)).ln().sqrt();
        let first = parent.first as usize;
        let mut best = (first, f64::NEG_INFINITY);
        for (i, child) in self.nodes[first..first + usize::from(parent.count)]
            .iter()
            .enumerate()
        {
            if child.visits == 0 {
                return (first + i) as u32;
            }
            let n = f64::from(child.visits);
            let value = f64::from(child.reward[seat]) / (scale * n) + explore / n.sqrt();
            if value > best.1 {
                best = (first + i, value);
            }
        }
        best.0 as u32
    }

    fn simulate<G: AgentGame<Move = M>, R: Rng + ?Sized>(
        &mut self,
        root: &G,
        budget: &UctBudget,
        rng: &mut R,
    ) -> usize {
        let players = root.num_players();
        let scale = (players - 1) as f64;
        let mut position = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let outcome = loop {
            if let Some(outcome) = position.outcome() {
                break outcome;
            }
            let current = self.nodes[node as usize];
            if !current.expanded
                && ((node != 0 && current.visits == 0) || !self.expand(node, &position, rng))
            {
                break position.playout(budget.rollout, rng, PLAYOUT_PLY_CAP);
            }
            node = self.select(node, position.side_to_move().index(), budget.c, scale);
            position.play_unchecked(self.nodes[node as usize].mv);
            self.path.push(node);
        };
        let reward = rewards(outcome, players);
        for &index in &self.path {
            let node = &mut self.nodes[index as usize];
            node.visits += 1;
            for (sum, r) in node.reward.iter_mut().zip(reward) {
                *sum += r;
            }
        }
        self.path.len() - 1
    }

    /// Searches `position` within `budget` and returns the most visited root move.
    pub fn choose<G: AgentGame<Move = M>>(
        &mut self,
        position: &G,
        budget: UctBudget,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<M>, AgentError> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        if moves.len() == 1 {
            return Ok(Choice {
                mv: moves[0],
                stats: SearchStats {
                    reason: Some("only move".into()),
                    ..SearchStats::default()
                },
                pv: Vec::new(),
            });
        }
        let mut rng = PlayoutRng::from_rng(ctx.rng);
        self.nodes.clear();
        self.nodes.push(Node {
            first: 0,
            visits: 0,
            count: 0,
            expanded: false,
            mv: moves[0],
            reward: [0; MAX_PLAYERS],
        });
        let mut simulations = 0u64;
        let mut deepest = 0;
        while simulations < budget.iterations {
            deepest = deepest.max(self.simulate(position, &budget, &mut rng));
            simulations += 1;
            if simulations.is_multiple_of(64)
                && budget.deadline.is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
        }
        let me = position.side_to_move().index();
        let root = self.nodes[0];
        let children =
            &self.nodes[root.first as usize..root.first as usize + usize::from(root.count)];
        let best = children
            .iter()
            .max_by_key(|c| (c.visits, c.reward[me]))
            .expect("the root has children");
        let scale = (position.num_players() - 1) as f64;
        Ok(Choice {
            mv: best.mv,
            stats: SearchStats {
                nodes: simulations,
                depth: Some(deepest as u32),
                score: Some(f64::from(best.reward[me]) / (scale * f64::from(best.visits.max(1)))),
                reason: Some(format!(
                    "most visited: {} of {simulations} simulations ({} players, max^n UCT)",
                    best.visits,
                    position.num_players()
                )),
            },
            pv: Vec::new(),
        })
    }
}

/// The paranoid search as an agent's move: the stats and reason `alphabeta` reports.
pub(crate) fn paranoid_choice<G: AgentGame>(
    position: &G,
    max_depth: u32,
    node_budget: Option<u64>,
    deadline: Option<Instant>,
) -> Result<Choice<G::Move>, AgentError> {
    let mut search = Paranoid::new(node_budget, deadline);
    let Some((mv, value, depth)) = search.choose(position, max_depth) else {
        return Err(AgentError::Crash("asked to move in a finished game".into()));
    };
    let players = position.num_players();
    let reason = if value >= DECIDED / 2 {
        "wins the game (paranoid search)".to_string()
    } else if value <= -DECIDED / 2 {
        "every move loses against a coalition (paranoid search)".to_string()
    } else {
        format!("paranoid search of {players} players at depth {depth}")
    };
    Ok(Choice {
        mv,
        stats: SearchStats {
            nodes: search.nodes,
            depth: Some(depth),
            score: Some(f64::from(value)),
            reason: Some(reason),
        },
        pv: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{Game, Ranking, Variant};

    #[test]
    fn rewards_count_opponents_beaten_minus_those_that_beat_the_seat() {
        let outcome = Outcome::Ranked(Ranking::from_totals(&[40, 40, 25]));
        assert_eq!(rewards(outcome, 3)[..3], [1, 1, -2]);
        let win = Outcome::Win(Player::Second);
        assert_eq!(rewards(win, 2)[..2], [-1, 1]);
    }

    #[test]
    fn decided_values_rank_places_and_prefer_sooner_wins() {
        let first = Outcome::Ranked(Ranking::from_totals(&[50, 30, 25]));
        let second = Outcome::Ranked(Ranking::from_totals(&[30, 50, 25]));
        let me = Player::First;
        assert!(decided(first, me, 3) > decided(first, me, 5));
        assert!(decided(first, me, 9) > decided(second, me, 1));
        // Second of three beat one and lost to one: neither a win nor a loss.
        assert_eq!(decided(second, me, 1), 0);
        let third = Outcome::Ranked(Ranking::from_totals(&[20, 50, 25]));
        assert!(decided(third, me, 1) < decided(third, me, 7));
        assert!(decided(third, me, 7) <= -DECIDED / 2);
    }

    #[test]
    fn paranoid_completes_its_first_iteration_even_without_budget() {
        let game = "oanquan-3p"
            .parse::<Variant>()
            .unwrap()
            .rules::<rules::OanQuanRules>()
            .unwrap()
            .start();
        let mut search = Paranoid::new(Some(1), None);
        let (mv, _, depth) = search.choose(&game, 6).expect("a move");
        assert!(game.is_legal(mv));
        assert_eq!(depth, 1);
    }
}
