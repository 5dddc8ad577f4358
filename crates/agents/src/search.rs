//! The tree search shared by `alphabeta` and the solver: negamax with alpha-beta pruning, a
//! transposition table, move ordering (table move, urgent block, killers, history, the game's
//! hint) and the game's tactics.
//!
//! Two scorings:
//! - [`Searcher::negamax`]: scores of [`crate::score`] (ply-adjusted wins and losses, the game's
//!   evaluation at the horizon). It returns exactly the value plain minimax returns at the same
//!   depth: every cut it makes beyond alpha-beta is one that cannot change that value (see
//!   [`Searcher::negamax`]).
//! - [`Searcher::wdl`]: win / draw / loss as 1 / 0 / -1, for solving. A horizon (only for games
//!   without a ply bound) scores 0, so 1 and -1 are always proofs.
//!
//! Nothing is allocated per node: move lists live on the stack, the table and the history
//! arrays are allocated once, on the first search.

use std::time::Instant;

use rules::{ArrayVec, MAX_MOVES, MoveList, Outcome};

use crate::memory::OutOfMemory;
use crate::score::{self, INFINITY, MATE, MATE_BOUND};
use crate::tt::{Bound, Table};
use crate::{AgentGame, MOVE_SLOTS, Tactic};

/// Deepest ply that keeps killer moves.
const KILLER_PLIES: usize = 512;

/// How often (in nodes) the search looks at the clock.
const CLOCK_INTERVAL: u64 = 1024;

/// A searcher: its table, its ordering memory, and its budget.
pub(crate) struct Searcher<G: AgentGame> {
    table: Table,
    history: Vec<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
    /// Nodes visited since [`Searcher::begin`].
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    next_clock: u64,
    /// Set when the budget ran out: results since are worthless.
    pub aborted: bool,
    /// Where a solve shows its progress and takes a stop request (`arena solve`).
    pub monitor: Option<std::sync::Arc<crate::solve::Monitor>>,
    /// A front's "move now" ([`crate::Context::stop`]), checked with the deadline.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// One move with its ordering key.
type Keyed<M> = ArrayVec<(i32, M), MAX_MOVES>;

/// Which hints order the moves of a node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hints {
    /// Table move, killers and history only (at the frontier, where a hint costs as much as the
    /// child's evaluation).
    Cheap,
    /// Also the game's [`AgentGame::order_hint`].
    Game,
    /// The solver's [`AgentGame::solver_hint`]: dominated moves are dropped.
    Solver,
}

impl<G: AgentGame> Searcher<G> {
    /// A searcher whose table will take `tt_mb` MiB; nothing is allocated yet.
    pub(crate) fn new(tt_mb: usize) -> Self {
        Searcher {
            table: Table::new(tt_mb),
            history: Vec::new(),
            killers: Vec::new(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            next_clock: CLOCK_INTERVAL,
            aborted: false,
            monitor: None,
            stop: None,
        }
    }

    /// Starts a search with a node budget and a deadline: empties the table and the ordering
    /// memory (so no search depends on an earlier one) and allocates them the first time.
    pub(crate) fn begin(
        &mut self,
        node_limit: Option<u64>,
        deadline: Option<Instant>,
    ) -> Result<(), OutOfMemory> {
        self.table.new_search()?;
        self.history.clear();
        self.history.resize(2 * MOVE_SLOTS, 0);
        self.killers.clear();
        self.killers.resize(KILLER_PLIES, [None, None]);
        self.nodes = 0;
        self.node_limit = node_limit.unwrap_or(u64::MAX);
        self.deadline = deadline;
        self.next_clock = CLOCK_INTERVAL;
        self.aborted = false;
        Ok(())
    }

    /// Changes the budget of the search under way (the root's first iteration runs unbudgeted).
    pub(crate) fn set_budget(&mut self, node_limit: Option<u64>, deadline: Option<Instant>) {
        self.node_limit = node_limit.unwrap_or(u64::MAX);
        self.deadline = deadline;
    }

    /// The best move the table holds for the position with hash `key`, as a move index.
    pub(crate) fn table_move(&self, key: u64) -> Option<usize> {
        self.table.probe(key).and_then(|entry| entry.mv)
    }

    /// The principal variation from `position` after a search chose `first`: the table's
    /// best move for each position reached ([`crate::pv::walk`] checks each), and where the
    /// table has none, a win at once (a node that wins at once stores no move).
    pub(crate) fn line(&self, position: &G, first: G::Move) -> Vec<G::Move> {
        crate::pv::walk(position, first, |reached, _| {
            let stored = self
                .table_move(reached.hash_key())
                .and_then(|index| crate::pv::move_with_index(reached, index));
            stored.or_else(|| {
                let mut wins = MoveList::new();
                reached.immediate_wins(&mut wins);
                wins.first().copied()
            })
        })
    }

    /// How full the table is, per mille (sampled).
    pub(crate) fn table_permille(&self) -> u32 {
        self.table.permille_full()
    }

    /// The bytes its table holds (0 before the first search).
    pub(crate) fn table_bytes(&self) -> u64 {
        self.table.bytes()
    }

    #[inline]
    fn check_budget(&mut self) {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes >= self.next_clock {
            self.next_clock = self.nodes + CLOCK_INTERVAL;
            if self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
                || crate::stop_set(self.stop.as_ref())
            {
                self.aborted = true;
            }
            if let Some(monitor) = &self.monitor {
                monitor
                    .nodes
                    .store(self.nodes, std::sync::atomic::Ordering::Relaxed);
                monitor.table_permille.store(
                    self.table.permille_full(),
                    std::sync::atomic::Ordering::Relaxed,
                );
                if monitor.stopping() {
                    self.aborted = true;
                }
            }
        }
    }

    /// The moves of `position` with their ordering keys, in `out` (unsorted: [`pick`] hands
    /// them out in search order). `only` restricts them to one move, `urgent` goes first after
    /// the table move; `hints` says which hints order the rest.
    #[allow(clippy::too_many_arguments)]
    fn ordered(
        &self,
        position: &G,
        aux: &G::Aux,
        only: Option<G::Move>,
        urgent: Option<G::Move>,
        table_move: Option<usize>,
        ply: u32,
        hints: Hints,
        out: &mut Keyed<G::Move>,
    ) {
        out.clear();
        if let Some(mv) = only {
            out.push((0, mv));
            return;
        }
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let side = position.side_to_move().index() * MOVE_SLOTS;
        let killers = self
            .killers
            .get(ply as usize)
            .copied()
            .unwrap_or([None, None]);
        for &mv in &moves {
            let index = G::move_index(mv);
            let key = if Some(index) == table_move {
                i32::MAX
            } else if Some(mv) == urgent {
                i32::MAX - 1
            } else if Some(mv) == killers[0] {
                i32::MAX - 2
            } else if Some(mv) == killers[1] {
                i32::MAX - 3
            } else {
                let hint = match hints {
                    Hints::Cheap => 0,
                    Hints::Game => position.order_hint(aux, mv),
                    Hints::Solver => match position.solver_hint(aux, mv) {
                        Some(hint) => hint,
                        // Dominated: dropped, unless every move is (one is kept below).
                        None => continue,
                    },
                };
                hint.saturating_mul(16)
                    .saturating_add(self.history[side + index])
                    .min(i32::MAX - 4)
            };
            out.push((key, mv));
        }
        if out.is_empty()
            && let Some(&mv) = moves.first()
        {
            out.push((0, mv));
        }
    }

    fn reward_cutoff(&mut self, position: &G, mv: G::Move, depth: u32, ply: u32) {
        let slot = position.side_to_move().index() * MOVE_SLOTS + G::move_index(mv);
        let bonus = (depth * depth) as i32;
        self.history[slot] = self.history[slot].saturating_add(bonus);
        if self.history[slot] > 1 << 24 {
            // Keep history well inside the key range: halve the side's table.
            for value in &mut self.history {
                *value /= 2;
            }
        }
        if let Some(killers) = self.killers.get_mut(ply as usize)
            && killers[0] != Some(mv)
        {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
    }

    /// The negamax value of `position` (`ply` plies below the root) searched `depth` plies
    /// deep, within the window `(alpha, beta)` (fail-soft).
    ///
    /// It equals plain minimax at the same depth, with the same terminal scores and the same
    /// evaluation at the horizon, because every shortcut is exact:
    /// - a table entry is used only at the depth it was searched to, or when it is a forced
    ///   result within the remaining depth (which any deeper or shallower search finds too);
    /// - a win at once returns `MATE - (ply + 1)`, the best score possible here;
    /// - with two plies left, a lone move that stops the opponent's win at once is the only
    ///   move worth searching (every other loses at `ply + 2`, the worst score possible here,
    ///   and no move can do worse), and two such threats lose at `ply + 2` whatever is played.
    pub(crate) fn negamax(
        &mut self,
        position: &G,
        aux: &G::Aux,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if let Some(outcome) = position.outcome() {
            return score::terminal(outcome, position.side_to_move(), ply);
        }
        if depth == 0 {
            return position.evaluate(aux);
        }
        self.check_budget();
        if self.aborted {
            return 0;
        }
        let key = position.hash_key();
        let mut table_move = None;
        if let Some(entry) = self.table.probe(key) {
            table_move = entry.mv;
            if usable(entry.score, entry.depth, entry.bound, depth) {
                let stored = score::from_node(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return stored,
                    Bound::Lower if stored >= beta => return stored,
                    Bound::Upper if stored <= alpha => return stored,
                    _ => {}
                }
            }
        }
        let (only, urgent) = match position.tactic(aux) {
            Tactic::WinNow(_) => return MATE - (ply as i32 + 1),
            Tactic::Drawn => return 0,
            Tactic::Lost(_) if depth >= 2 => return -(MATE - (ply as i32 + 2)),
            Tactic::MustBlock(mv) if depth >= 2 => (Some(mv), None),
            Tactic::MustBlock(mv) | Tactic::Lost(mv) | Tactic::BlockFirst(mv) => (None, Some(mv)),
            Tactic::Open => (None, None),
        };
        let mut moves = Keyed::new();
        let hints = if depth >= 2 {
            Hints::Game
        } else {
            Hints::Cheap
        };
        self.ordered(
            position, aux, only, urgent, table_move, ply, hints, &mut moves,
        );
        let Some((best, best_move, bound)) = self.children(
            position,
            aux,
            &mut moves,
            (depth, ply),
            (alpha, beta),
            -INFINITY,
            |searcher, child, child_aux, alpha, beta| {
                searcher.negamax(child, child_aux, depth - 1, ply + 1, alpha, beta)
            },
        ) else {
            return 0;
        };
        self.table.store(
            key,
            score::to_node(best, ply),
            depth,
            bound,
            best_move.map(G::move_index),
        );
        best
    }

    /// The loop over a node's children shared by both scorings: `moves` in search order, each
    /// child scored by `score_child` (from the child's side, within the window it is given)
    /// and negated, fail-soft alpha-beta within `(alpha, beta)`, a cutoff rewarding its move.
    /// Returns the best score (`floor` if there is no move), its move, and the bound that score
    /// is for the table; `None` if the budget ran out.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn children(
        &mut self,
        position: &G,
        aux: &G::Aux,
        moves: &mut Keyed<G::Move>,
        (depth, ply): (u32, u32),
        (mut alpha, beta): (i32, i32),
        floor: i32,
        score_child: impl Fn(&mut Self, &G, &G::Aux, i32, i32) -> i32,
    ) -> Option<(i32, Option<G::Move>, Bound)> {
        let alpha_start = alpha;
        let mut best = floor;
        let mut best_move = None;
        let mut next = 0;
        while let Some(mv) = pick::<G>(moves, next) {
            next += 1;
            let child = position.child(mv);
            let child_aux = position.aux_after(aux, mv, &child);
            let value = -score_child(self, &child, &child_aux, -beta, -alpha);
            if self.aborted {
                return None;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        self.reward_cutoff(position, mv, depth, ply);
                        break;
                    }
                }
            }
        }
        let bound = if best <= alpha_start {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        Some((best, best_move, bound))
    }

    /// Searches the root moves `moves` to `depth` with a full window and moves the best to the
    /// front (the others keep their order). Returns the root value (exactly minimax's over
    /// these moves), or `None` if the budget ran out.
    pub(crate) fn root(
        &mut self,
        position: &G,
        aux: &G::Aux,
        moves: &mut [G::Move],
        depth: u32,
    ) -> Option<i32> {
        self.nodes += 1;
        let mut alpha = -INFINITY;
        let mut best = (0, -INFINITY);
        for (i, &mv) in moves.iter().enumerate() {
            let child = position.child(mv);
            let child_aux = position.aux_after(aux, mv, &child);
            let value = -self.negamax(&child, &child_aux, depth - 1, 1, -INFINITY, -alpha);
            if self.aborted {
                return None;
            }
            if value > best.1 {
                best = (i, value);
                alpha = alpha.max(value);
            }
        }
        moves[..=best.0].rotate_right(1);
        Some(best.1)
    }

    /// The win / draw / loss value (1 / 0 / -1 for the side to move) of `position` within the
    /// window `(alpha, beta)`, searched `depth` plies deep; a horizon counts 0. For games with
    /// a ply bound pass at least [`AgentGame::remaining_plies`] and no horizon is ever met.
    pub(crate) fn wdl(
        &mut self,
        position: &G,
        aux: &G::Aux,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if let Some(outcome) = position.outcome() {
            return match outcome {
                Outcome::Draw => 0,
                Outcome::Win(winner) if winner == position.side_to_move() => 1,
                Outcome::Win(_) => -1,
                Outcome::Ranked(_) => {
                    unreachable!("a two-player search met a game of more players")
                }
            };
        }
        if depth == 0 {
            return 0;
        }
        self.check_budget();
        if self.aborted {
            return 0;
        }
        // A player with no line left cannot win: the value is bounded on that side. The search
        // is two-player (alphabeta sends games of more to `multi`, the solver refuses them), so
        // the seat after the side to move is its opponent.
        let me = position.side_to_move();
        let high = if position.can_win(aux, me) { 1 } else { 0 };
        let low = if position.can_win(aux, me.next(position.num_players())) {
            -1
        } else {
            0
        };
        if high <= alpha || high == low {
            return high;
        }
        if low >= beta {
            return low;
        }
        let (key, symmetry) = position.solver_key();
        let mut table_move = None;
        if let Some(entry) = self.table.probe(key) {
            table_move = entry
                .mv
                .map(|index| position.map_move_index(index, symmetry, true));
            // A deeper (or equal) search knows at least as much; a shallower one only its proofs.
            let proof = match entry.bound {
                Bound::Exact => entry.score != 0,
                Bound::Lower => entry.score == 1,
                Bound::Upper => entry.score == -1,
            };
            if entry.depth >= depth.min(255) || proof {
                match entry.bound {
                    Bound::Exact => return entry.score,
                    Bound::Lower if entry.score >= beta => return entry.score,
                    Bound::Upper if entry.score <= alpha => return entry.score,
                    _ => {}
                }
            }
        }
        let (only, urgent) = match position.tactic(aux) {
            Tactic::WinNow(_) => return 1,
            Tactic::Drawn => return 0,
            Tactic::Lost(_) if depth >= 2 => return -1,
            Tactic::MustBlock(mv) if depth >= 2 => (Some(mv), None),
            Tactic::MustBlock(mv) | Tactic::Lost(mv) | Tactic::BlockFirst(mv) => (None, Some(mv)),
            Tactic::Open => (None, None),
        };
        let mut moves = Keyed::new();
        let hints = Hints::Solver;
        self.ordered(
            position, aux, only, urgent, table_move, ply, hints, &mut moves,
        );
        let Some((best, best_move, bound)) = self.children(
            position,
            aux,
            &mut moves,
            (depth, ply),
            (alpha, beta),
            -2,
            |searcher, child, child_aux, alpha, beta| {
                searcher.wdl(child, child_aux, depth - 1, ply + 1, alpha, beta)
            },
        ) else {
            return 0;
        };
        let best_index =
            best_move.map(|mv| position.map_move_index(G::move_index(mv), symmetry, false));
        self.table.store(key, best, depth, bound, best_index);
        best
    }
}

/// Moves handed out by scanning for the best remaining one before [`pick`] sorts the rest.
const SCANNED: usize = 4;

/// Whether `a` is searched before `b`: the larger key first, ties by the smaller move index,
/// so the order, and so the search, is reproducible.
#[inline]
fn searched_before<G: AgentGame>(a: &(i32, G::Move), b: &(i32, G::Move)) -> std::cmp::Ordering {
    b.0.cmp(&a.0)
        .then_with(|| G::move_index(a.1).cmp(&G::move_index(b.1)))
}

/// The move searched `next` (0-based) among `moves`, which holds the moves before it in
/// search order already; `None` after the last. Most nodes are cut off after a move or two,
/// so the first few moves are found by a scan for the best remaining one and only a node that
/// goes on sorts the rest: the order is that of sorting everything (the ordering is total, as
/// move indices differ), for a fraction of the work.
#[inline]
fn pick<G: AgentGame>(moves: &mut Keyed<G::Move>, next: usize) -> Option<G::Move> {
    if next >= moves.len() {
        return None;
    }
    if next < SCANNED {
        let mut best = next;
        for i in next + 1..moves.len() {
            if searched_before::<G>(&moves[i], &moves[best]).is_lt() {
                best = i;
            }
        }
        moves.swap(next, best);
    } else if next == SCANNED {
        moves[next..].sort_unstable_by(searched_before::<G>);
    }
    Some(moves[next].1)
}

/// Whether a table entry searched to `stored_depth` may answer a search to `depth` without
/// changing its value: the same depth, or a forced result within `depth` plies (a win as an
/// exact score or lower bound, a loss as an exact score or upper bound).
#[inline]
fn usable(node_score: i32, stored_depth: u32, bound: Bound, depth: u32) -> bool {
    if stored_depth == depth.min(255) {
        return true;
    }
    let within = |score: i32| (MATE - score.abs()) as u32 <= depth;
    if node_score >= MATE_BOUND {
        matches!(bound, Bound::Exact | Bound::Lower) && within(node_score)
    } else if node_score <= -MATE_BOUND {
        matches!(bound, Bound::Exact | Bound::Upper) && within(node_score)
    } else {
        false
    }
}
