//! `mcts`: UCT Monte Carlo tree search with random playouts (for m,n,k optionally the `near`
//! playouts), and MCTS-solver propagation of proven results.
//!
//! The tree lives in one `Vec` of nodes; a node's children sit in one contiguous range of it,
//! created together when the node is expanded. A simulation walks down on a single copy of
//! the position, plays it out in place, and adds its result to every node on the way: +1 for a
//! win, -1 for a loss, 0 for a draw, always from the view of the player who moved into the node.
//! Beyond the growing node array nothing is allocated.
//!
//! Proven results: a node whose position is over is proven (a win, draw or loss for the player
//! who moved into it). A child proven a win for its mover (the player to move at the parent)
//! proves the parent a loss for the parent's mover; when every child is proven, the parent is a
//! win for its mover if every child is a loss, a draw if none wins and one draws. Proven losses
//! are never selected again; a proven root stops the search. The final move is a proven win if
//! there is one, else the most visited child that is not a proven loss.
//!
//! With three or four players the search is UCT with a reward per seat (max^n backup, see
//! [`crate::multi`]), with the same budgets and no proofs.
//!
//! With `solver=false` only the game's end is known: proofs do not propagate, proven losses are
//! selected by their UCT value like any child, and every simulation runs. That is plain UCT as
//! other frameworks implement it (OpenSpiel's `MCTSBot` without `solve`), so `arena bench`
//! compares simulations per second on equal terms.

use std::time::{Duration, Instant};

use rand::{Rng, RngExt, SeedableRng};
use rules::{MoveList, Outcome, Player};

use crate::memory::OutOfMemory;
use crate::multi::{MaxnUct, UctBudget};
use crate::playout::{PLAYOUT_PLY_CAP, PlayoutRng, Rollout};
use crate::root_check::{RootForce, root_check};
use crate::spec::bad_value;
use crate::{Agent, AgentError, AgentGame, Choice, Context, Kind, ParamDoc, Params, Plays};
use crate::{SearchStats, SpecError};

pub(crate) const KIND: Kind = Kind {
    name: "mcts",
    summary: "UCT Monte Carlo tree search with random playouts; proven wins and losses \
              propagate (MCTS-solver); whatever the budget, a win at once is taken and a lone \
              immediate threat blocked at the root",
    plays: Plays::Every,
    params: &[
        ParamDoc {
            name: "iterations",
            default: "10000",
            doc: "simulations per move (all run unless the root is proven); with time_ms alone \
                  none (the time is the budget); with both, whichever ends first",
        },
        ParamDoc {
            name: "c",
            default: "1.4",
            doc: "UCT exploration constant, for rewards in [-1, 1] (1.4 there is about 0.7 for \
                  rewards in [0, 1])",
        },
        ParamDoc {
            name: "rollout",
            default: "random",
            doc: "playout policy: random, or near (m,n,k only: empty cells next to a stone)",
        },
        ParamDoc {
            name: "time_ms",
            default: "0",
            doc: "time budget per move in milliseconds (0 = none); given alone it is the whole \
                  budget; not reproducible",
        },
        ParamDoc {
            name: "solver",
            default: "true",
            doc: "prove wins and losses and stop once the root is proven (MCTS-solver); false: \
                  plain UCT, every simulation runs",
        },
        ParamDoc {
            name: "tree_mb",
            default: "256",
            doc: "memory for the tree in MiB (1-65536, and at most the machine's memory); when \
                  full, leaves are played out but not expanded",
        },
    ],
    multiplayer: true,
    listed: true,
    memory: Some(|| {
        format!(
            "its tree, {} bytes a node on m,n,k boards and {} on O An Quan: a simulation adds \
             one node per legal move of the leaf it expands, so at most iterations x legal moves \
             nodes, and never more than tree_mb MiB (then leaves are played out without being \
             expanded); up to 64 MiB of it is reserved, not touched, when a search starts",
            node_bytes::<rules::Mnk>(),
            node_bytes::<rules::OanQuan>()
        )
    }),
};

/// The settings of [`Mcts`].
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Simulations per move (at least 1). Default 10,000.
    pub iterations: u64,
    /// The UCT exploration constant for rewards in [-1, 1] (positive, finite). Default 1.4.
    pub c: f64,
    /// The playout policy. Default [`Rollout::Random`].
    pub rollout: Rollout,
    /// A time budget per move, if any. Default none.
    pub time: Option<Duration>,
    /// Memory for the tree in MiB (at least 1). Default 256.
    pub tree_mb: usize,
    /// Whether proofs propagate (MCTS-solver), proven losses are skipped and a proven root
    /// stops the search. Default true; false is plain UCT, for like-for-like benchmarks.
    pub solver: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 10_000,
            c: 1.4,
            rollout: Rollout::Random,
            time: None,
            tree_mb: 256,
            solver: true,
        }
    }
}

impl MctsConfig {
    /// The same settings with another number of simulations.
    pub fn with_iterations(mut self, iterations: u64) -> Self {
        self.iterations = iterations;
        self
    }

    /// The same settings with another exploration constant.
    pub fn with_c(mut self, c: f64) -> Self {
        self.c = c;
        self
    }

    /// The same settings with another playout policy.
    pub fn with_rollout(mut self, rollout: Rollout) -> Self {
        self.rollout = rollout;
        self
    }

    /// The same settings with a time budget (`None` = none).
    pub fn with_time(mut self, time: Option<Duration>) -> Self {
        self.time = time;
        self
    }

    /// The same settings with another tree memory in MiB.
    pub fn with_tree_mb(mut self, tree_mb: usize) -> Self {
        self.tree_mb = tree_mb;
        self
    }

    /// The same settings with (`true`) or without the MCTS-solver.
    pub fn with_solver(mut self, solver: bool) -> Self {
        self.solver = solver;
        self
    }
}

/// The iteration cap of a budget given only in time: in effect none.
const UNLIMITED: u64 = 1 << 62;

/// Visit counts below this take `sqrt(ln(visits))` from a table.
const SQRT_LN_TABLE: usize = 1 << 14;

/// `[sqrt(ln(n)), 1 / n, 1 / sqrt(n)]` for small `n`, in single precision (plenty to rank
/// children): the logarithm, division and square root of the UCT formula are most of the time
/// of a small game's selection step.
static UCT_TERMS: std::sync::LazyLock<Vec<[f32; 3]>> = std::sync::LazyLock::new(|| {
    (0..SQRT_LN_TABLE)
        .map(|n| uct_terms_of(n.max(1) as u32))
        .collect()
});

#[inline]
fn uct_terms_of(visits: u32) -> [f32; 3] {
    let n = visits as f32;
    [n.ln().sqrt(), 1.0 / n, 1.0 / n.sqrt()]
}

#[inline]
fn uct_terms(visits: u32) -> [f32; 3] {
    match UCT_TERMS.get(visits as usize) {
        Some(&terms) => terms,
        None => uct_terms_of(visits),
    }
}

/// What is proven about a node, from the view of the player who moved into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    Unknown,
    Win,
    Draw,
    Loss,
}

/// A node of the tree. Children are `first..first + count` of the node array.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    first: u32,
    visits: u32,
    /// Sum of the rewards of the player who moved into the node.
    reward: i32,
    count: u16,
    expanded: bool,
    proof: Proof,
    mv: M,
}

/// The bytes one node of the tree takes on games of type `G`.
pub(crate) fn node_bytes<G: AgentGame>() -> usize {
    std::mem::size_of::<Node<G::Move>>()
}

/// The MCTS agent. The tree is rebuilt for every move; the agent keeps only its memory.
pub struct Mcts<G: AgentGame> {
    config: MctsConfig,
    /// `config.c` in the precision of the selection arithmetic.
    c: f32,
    nodes: Vec<Node<G::Move>>,
    path: Vec<u32>,
    max_nodes: usize,
    /// The only moves the root may have, when the root check restricts them.
    root_moves: Option<Vec<G::Move>>,
    /// The tree for games of three or four players, made on the first such search.
    multi: Option<MaxnUct<G::Move>>,
    /// Set when the allocator refused to grow the tree: the search stops with an error.
    out_of_memory: Option<OutOfMemory>,
}

impl<G: AgentGame> Mcts<G> {
    /// An MCTS agent; refuses zero iterations, a non-positive or non-finite `c`, the `near`
    /// policy on a game without it, a zero time budget or a zero-sized tree.
    pub fn new(config: MctsConfig) -> Result<Self, SpecError> {
        if config.iterations == 0 {
            return Err(bad_value(KIND.name, "iterations", 0, "a positive integer"));
        }
        if !(config.c.is_finite() && config.c > 0.0) {
            return Err(bad_value(KIND.name, "c", config.c, "a positive number"));
        }
        if config.rollout == Rollout::Near && !G::NEAR_PLAYOUTS {
            return Err(bad_value(
                KIND.name,
                "rollout",
                "near",
                "random (near plays m,n,k games only)",
            ));
        }
        if config.time.is_some_and(|time| time.is_zero()) {
            return Err(bad_value(KIND.name, "time_ms", 0, "a positive time"));
        }
        if config.tree_mb == 0 {
            return Err(bad_value(KIND.name, "tree_mb", 0, "a positive size in MiB"));
        }
        let max_nodes = (config.tree_mb << 20) / std::mem::size_of::<Node<G::Move>>();
        Ok(Mcts {
            c: config.c as f32,
            config,
            nodes: Vec::new(),
            path: Vec::new(),
            max_nodes,
            root_moves: None,
            multi: None,
            out_of_memory: None,
        })
    }

    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let rollout = match params.choice("rollout", "random", &["random", "near"])? {
            "near" => Rollout::Near,
            _ => Rollout::Random,
        };
        let time_ms = params.u64("time_ms", 0, 0..=86_400_000)?;
        // A budget given only in time is that time: no iteration cap then.
        let default_iterations = if time_ms > 0 && params.text("iterations").is_none() {
            UNLIMITED
        } else {
            10_000
        };
        let config = MctsConfig::default()
            .with_iterations(params.u64("iterations", default_iterations, 1..=1_000_000_000)?)
            .with_c(params.f64("c", 1.4, 0.0..=100.0)?)
            .with_rollout(rollout)
            .with_time((time_ms > 0).then(|| Duration::from_millis(time_ms)))
            .with_tree_mb(params.u64("tree_mb", 256, 1..=65536)? as usize)
            .with_solver(params.bool("solver", true)?);
        crate::memory::check_fits(KIND.name, "tree_mb", config.tree_mb as u64)?;
        Mcts::new(config)
    }

    /// Creates the children of `node` (whose position is `position`) in a random rotation of
    /// the legal move order, so that unvisited children are tried in no fixed pattern. Returns
    /// false when the tree is full.
    fn expand<R: Rng + ?Sized>(&mut self, node: u32, position: &G, rng: &mut R) -> bool {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if node == 0
            && let Some(only) = &self.root_moves
        {
            moves.retain(|mv| only.contains(mv));
        }
        if node != 0 && self.nodes.len() + moves.len() > self.max_nodes {
            return false;
        }
        if !self.room_for(moves.len()) {
            return false;
        }
        let first = self.nodes.len() as u32;
        let shift = rng.random_range(0..moves.len());
        // The children in move order rotated by `shift`: the two halves, no remainder per child.
        let (before, after) = moves.split_at(shift);
        self.nodes
            .extend(after.iter().chain(before).map(|&mv| Node {
                first: 0,
                visits: 0,
                reward: 0,
                count: 0,
                expanded: false,
                proof: Proof::Unknown,
                mv,
            }));
        let parent = &mut self.nodes[node as usize];
        parent.first = first;
        parent.count = moves.len() as u16;
        parent.expanded = true;
        true
    }

    /// Makes room for `more` nodes, growing the tree's memory (by doubling, never past
    /// `tree_mb`) with a fallible allocation. False, with `out_of_memory` set, when the
    /// allocator refuses.
    fn room_for(&mut self, more: usize) -> bool {
        let needed = self.nodes.len() + more;
        if needed <= self.nodes.capacity() {
            return true;
        }
        let target = needed
            .max(self.nodes.capacity().saturating_mul(2))
            .min(self.max_nodes.max(needed));
        match self.nodes.try_reserve_exact(target - self.nodes.len()) {
            Ok(()) => true,
            Err(_) => {
                self.out_of_memory = Some(OutOfMemory::new(
                    KIND.name,
                    "tree_mb",
                    self.config.tree_mb,
                    (target * node_bytes::<G>()) as u64,
                ));
                false
            }
        }
    }

    /// The child of `node` to descend into: an unvisited one first (in child order), else the
    /// best UCT value, never a proven loss (with the solver).
    #[inline]
    fn select(&self, node: u32) -> u32 {
        let parent = self.nodes[node as usize];
        let explore = self.c * uct_terms(parent.visits.max(1))[0];
        let first = parent.first as usize;
        let children = &self.nodes[first..first + usize::from(parent.count)];
        let mut best = (0, f32::NEG_INFINITY);
        let skip_losses = self.config.solver;
        for (i, child) in children.iter().enumerate() {
            if skip_losses && child.proof == Proof::Loss {
                continue;
            }
            if child.visits == 0 {
                return (first + i) as u32;
            }
            let [_, inverse, inverse_sqrt] = uct_terms(child.visits);
            let value = child.reward as f32 * inverse + explore * inverse_sqrt;
            if value > best.1 {
                best = (i, value);
            }
        }
        (first + best.0) as u32
    }

    /// After the node at `path[depth]` was proven, proves its ancestors where that follows.
    fn propagate(&mut self, mut depth: usize) {
        while depth > 0 {
            let child = self.nodes[self.path[depth] as usize];
            let parent_index = self.path[depth - 1] as usize;
            let parent = self.nodes[parent_index];
            if parent.proof != Proof::Unknown {
                return;
            }
            let proof = if child.proof == Proof::Win {
                Proof::Loss
            } else {
                let children = &self.nodes
                    [parent.first as usize..parent.first as usize + usize::from(parent.count)];
                if children.iter().any(|c| c.proof == Proof::Unknown) {
                    return;
                }
                if children.iter().any(|c| c.proof == Proof::Draw) {
                    Proof::Draw
                } else {
                    Proof::Win
                }
            };
            self.nodes[parent_index].proof = proof;
            depth -= 1;
        }
    }

    /// One simulation from `root`. Returns the depth of the deepest node it reached.
    fn simulate<R: Rng + ?Sized>(&mut self, root: &G, rng: &mut R) -> usize {
        // This tree is two-player (`choose` sends games of more players to `multi`): the seat
        // after the side to move is the one who moved into the root, and the two alternate.
        let root_to_move = root.side_to_move();
        let root_mover = root_to_move.next(root.num_players());
        // The player who moved into the node at `depth` of the path: the side to move at its
        // parent.
        let mover = |depth: usize| {
            if depth.is_multiple_of(2) {
                root_mover
            } else {
                root_to_move
            }
        };
        let mut position = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let mut proven_at = None;
        let winner: Option<Player> = loop {
            let depth = self.path.len() - 1;
            let current = self.nodes[node as usize];
            match current.proof {
                Proof::Win => break Some(mover(depth)),
                // Lost for the player who moved into the node: won by the side to move there.
                Proof::Loss => break Some(position.side_to_move()),
                Proof::Draw => break None,
                Proof::Unknown => {}
            }
            if !current.expanded
                && ((node != 0 && current.visits == 0) || !self.expand(node, &position, rng))
            {
                let outcome = position.playout(self.config.rollout, rng, PLAYOUT_PLY_CAP);
                break outcome.winner();
            }
            node = self.select(node);
            position.play_unchecked(self.nodes[node as usize].mv);
            self.path.push(node);
            if let Some(outcome) = position.outcome() {
                let me = mover(depth + 1);
                self.nodes[node as usize].proof = match outcome {
                    Outcome::Draw => Proof::Draw,
                    Outcome::Win(w) if w == me => Proof::Win,
                    Outcome::Win(_) => Proof::Loss,
                    Outcome::Ranked(_) => unreachable!("two-player tree; see multi.rs"),
                };
                proven_at = Some(depth + 1);
                break outcome.winner();
            }
        };
        for (depth, &index) in self.path.iter().enumerate() {
            let node = &mut self.nodes[index as usize];
            node.visits += 1;
            node.reward += match winner {
                None => 0,
                Some(w) if w == mover(depth) => 1,
                Some(_) => -1,
            };
        }
        if let Some(depth) = proven_at
            && self.config.solver
        {
            self.propagate(depth);
        }
        self.path.len() - 1
    }
}

impl<G: AgentGame> Mcts<G> {
    /// The error of a search the allocator stopped.
    fn memory_error(&mut self) -> AgentError {
        let error = self
            .out_of_memory
            .take()
            .unwrap_or_else(|| OutOfMemory::new(KIND.name, "tree_mb", self.config.tree_mb, 0));
        AgentError::Crash(error.to_string())
    }
}

impl<G: AgentGame> Agent<G> for Mcts<G> {
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        if position.is_over() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        let started = Instant::now();
        let deadline = match (ctx.deadline, self.config.time.map(|t| started + t)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if position.num_players() > 2 {
            let tree_bytes = self.config.tree_mb << 20;
            let budget = UctBudget {
                iterations: self.config.iterations,
                c: self.config.c,
                rollout: self.config.rollout,
                deadline,
            };
            return self
                .multi
                .get_or_insert_with(|| MaxnUct::new(tree_bytes))
                .choose(position, budget, ctx);
        }
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.len() == 1 {
            return Ok(Choice {
                mv: moves[0],
                stats: SearchStats {
                    reason: Some("only move".into()),
                    ..SearchStats::default()
                },
                pv: vec![moves[0]],
            });
        }
        let mut rng = PlayoutRng::from_rng(ctx.rng);
        // The root check: a win at once, the only block of an immediate win. The RNG was drawn
        // from as for a search, so the agent's later moves are those it would play anyway.
        self.root_moves = None;
        match root_check(position) {
            RootForce::Play(mv, reason) => {
                return Ok(Choice {
                    mv,
                    stats: SearchStats {
                        nodes: 0,
                        reason: Some(reason.into()),
                        ..SearchStats::default()
                    },
                    pv: vec![mv],
                });
            }
            RootForce::Restrict(moves) => self.root_moves = Some(moves),
            RootForce::Free => {}
        }
        self.nodes.clear();
        self.out_of_memory = None;
        // Reserve what the budget will likely need (a simulation expands at most one node),
        // up to 64 MiB, rather than growing by copies: reserving touches no memory.
        let likely = (self.config.iterations.min(1 << 40) as usize).saturating_mul(moves.len() + 1);
        let cap = (64 << 20) / std::mem::size_of::<Node<G::Move>>();
        if !self.room_for(likely.min(cap).min(self.max_nodes).max(1)) {
            return Err(self.memory_error());
        }
        self.nodes.push(Node {
            first: 0,
            visits: 0,
            reward: 0,
            count: 0,
            expanded: false,
            proof: Proof::Unknown,
            mv: position.illegal_move(),
        });
        let mut simulations = 0;
        let mut deepest = 0;
        while simulations < self.config.iterations && self.nodes[0].proof == Proof::Unknown {
            deepest = deepest.max(self.simulate(position, &mut rng));
            if self.out_of_memory.is_some() {
                return Err(self.memory_error());
            }
            simulations += 1;
            if simulations.is_multiple_of(64)
                && (deadline.is_some_and(|d| Instant::now() >= d) || ctx.stop_asked())
            {
                break;
            }
        }

        let root = self.nodes[0];
        let best_index = self.best_child(0).expect("the root was expanded");
        let best = &self.nodes[best_index];
        let (score, reason) = match best.proof {
            Proof::Win => (1.0, "proven win".to_string()),
            Proof::Draw if root.proof == Proof::Draw => (0.0, "proven draw".to_string()),
            Proof::Loss => (-1.0, "proven loss".to_string()),
            _ => (
                f64::from(best.reward) / f64::from(best.visits.max(1)),
                format!("most visited: {} of {simulations} simulations", best.visits),
            ),
        };
        Ok(Choice {
            mv: best.mv,
            stats: SearchStats {
                nodes: simulations,
                depth: Some(deepest as u32),
                score: Some(score),
                reason: Some(reason),
            },
            pv: self.line(position, best_index),
        })
    }
}

impl<G: AgentGame> Mcts<G> {
    /// The child of `node` the search rates best, as an index of the node array (`None` if
    /// the node has no children): a proven win first; else the most visited child not proven
    /// lost (more reward, then child order, break ties); if all are lost, the most visited
    /// (the longest defence). Ranks are from the view of the player moving at `node`.
    fn best_child(&self, node: usize) -> Option<usize> {
        let parent = self.nodes[node];
        if !parent.expanded || parent.count == 0 {
            return None;
        }
        let rank = |c: &Node<G::Move>| {
            (
                c.proof == Proof::Win,
                c.proof != Proof::Loss,
                c.visits,
                c.reward,
            )
        };
        let first = parent.first as usize;
        let mut best = first;
        for child in first..first + usize::from(parent.count) {
            if rank(&self.nodes[child]) > rank(&self.nodes[best]) {
                best = child;
            }
        }
        Some(best)
    }

    /// The principal variation through the root's child `first`: the best child of each node
    /// in turn ([`Mcts::best_child`]) while it has at least [`PV_VISITS`] visits (below that
    /// its rating is noise); a proven win is followed whatever its visits.
    fn line(&self, position: &G, first: usize) -> Vec<G::Move> {
        let mut node = first;
        crate::pv::walk(position, self.nodes[first].mv, |_, _| {
            let child = self.best_child(node)?;
            let next = self.nodes[child];
            if next.visits < PV_VISITS && next.proof != Proof::Win {
                return None;
            }
            node = child;
            Some(next.mv)
        })
    }
}

/// Visits a node needs to stand in an MCTS principal variation.
const PV_VISITS: u32 = 10;

#[cfg(test)]
mod tests {
    use super::*;

    fn config(spec: &str) -> MctsConfig {
        let spec: crate::AgentSpec = spec.parse().unwrap();
        let params = Params::new(&spec, KIND.params).unwrap();
        Mcts::<rules::Mnk>::from_params(&params).unwrap().config
    }

    /// A budget given only in time is that time; with iterations too, whichever ends first.
    #[test]
    fn time_alone_is_the_whole_budget() {
        assert_eq!(config("mcts").iterations, 10_000);
        assert_eq!(config("mcts").time, None);
        let timed = config("mcts:time_ms=1000");
        assert_eq!(timed.iterations, UNLIMITED);
        assert_eq!(timed.time, Some(Duration::from_millis(1000)));
        let both = config("mcts:time_ms=1000,iterations=500");
        assert_eq!(
            (both.iterations, both.time),
            (500, Some(Duration::from_secs(1)))
        );
    }
}
