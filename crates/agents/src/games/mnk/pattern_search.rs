//! The `threat` agent's main search: alpha-beta (principal variation search, iterative
//! deepening, a transposition table, killer moves) on a [`Board`] whose line patterns
//! ([`crate::pattern`]) give the evaluation, the move ordering and the pruning:
//!
//! - a side that can win at once does; a side facing an immediate win plays only the cells that
//!   stop it (and loses when there are none), without spending depth (a threat extension, so
//!   the horizon never hides a four);
//! - under `freestyle` and `exact`, a side that can make an open four while the opponent has no
//!   four to answer with wins in three plies;
//! - facing an open three, a side plays only its own fours and the cells where the opponent
//!   would make a four (which hold every defence of the three);
//! - otherwise the cells within two of a stone, best patterns first (own value plus the
//!   opponent's value there), at most [`WIDTH`] of them below the root.

use std::time::Instant;

use rules::mnk::CellSet;
use rules::{ArrayVec, Cell, MAX_MOVES, Mnk, Player, TwoPlayer, WinRule};

use super::threats::Board;
use crate::score::{self, INFINITY, MATE, MATE_BOUND};
use crate::tt::{Bound, Table};

/// Moves searched at a quiet node below the root.
pub const WIDTH: usize = 12;

/// Moves searched at the root when nothing forces the move (the best by pattern value).
pub const ROOT_WIDTH: usize = 24;

/// Plies past which forced replies stop extending the search.
const MAX_PLY: u32 = 100;

/// Fours in a row the quiescence search past the horizon plays at most.
const QUIESCENCE_FOURS: i32 = 8;

/// Fours the quiescence search tries at a node, best first.
const QUIESCENCE_WIDTH: usize = 8;

/// How often the clock is read, in nodes.
const CLOCK_EVERY: u64 = 1024;

/// The moves of a node with their ordering keys.
pub(crate) type Keyed = ArrayVec<(i32, Cell), MAX_MOVES>;

/// How good `cell` is for the side to move `me`: its own patterns there and the opponent's.
#[inline]
pub(crate) fn move_score(board: &Board, cell: Cell, me: Player) -> i32 {
    let patterns = board.patterns();
    5 * patterns.value(cell, me) + 4 * patterns.value(cell, Mnk::opponent(me))
}

/// The empty cells within two of a stone (the centre on an empty board).
pub(crate) fn near_cells(board: &Board) -> CellSet {
    let game = board.game();
    let stones = game.stones(Player::First).or(game.stones(Player::Second));
    if stones.is_empty() {
        let mut set = CellSet::EMPTY;
        set.insert(game.config().center_cell());
        return set;
    }
    let stride = game.config().stride();
    stones
        .dilated(stride)
        .dilated(stride)
        .and(game.empty_cells())
}

/// The cells worth a look for `me` when nothing forces its move: against an open three its
/// own fours and the cells where the opponent would make a four; otherwise the near cells.
pub(crate) fn quiet_candidates(board: &Board, me: Player) -> CellSet {
    let mine = board.patterns().sets(me);
    let theirs = board.patterns().sets(Mnk::opponent(me));
    if !theirs.open_four.is_empty() {
        mine.four.or(&theirs.four).and(board.empty())
    } else {
        near_cells(board)
    }
}

/// The forced replies of `me` to the opponent's immediate wins `wins`, best first (empty:
/// lost).
pub(crate) fn forced_moves(board: &Board, me: Player, wins: &CellSet) -> Keyed {
    let defences = board.defences(wins);
    let mut out = Keyed::new();
    for cell in defences.iter() {
        out.push((move_score(board, cell, me), cell));
    }
    out.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    out
}

/// What the board is worth to the side to move (`ply` plies below the root) before any
/// search, if something is settled: a win now, a loss (an immediate win that cannot be
/// stopped), an open four the opponent cannot answer, a full board. Otherwise `None`, with the
/// forced replies in `forced` when the opponent threatens to win at once (else `forced` is
/// empty).
pub(crate) fn settled(board: &Board, ply: u32, forced: &mut Keyed) -> Option<i32> {
    forced.clear();
    let me = board.to_move();
    let them = Mnk::opponent(me);
    if !board.wins(me).is_empty() {
        return Some(MATE - (ply as i32 + 1));
    }
    if board.empty().is_empty() {
        return Some(0);
    }
    let their_wins = board.wins(them);
    if !their_wins.is_empty() {
        *forced = forced_moves(board, me, &their_wins);
        if forced.is_empty() {
            return Some(-(MATE - (ply as i32 + 2)));
        }
        return None;
    }
    let patterns = board.patterns();
    if board.rule() != WinRule::Caro
        && !patterns.sets(me).open_four.is_empty()
        && patterns.sets(them).four.is_empty()
    {
        return Some(MATE - (ply as i32 + 3));
    }
    None
}

/// One search: the board, the table and the budget.
pub(crate) struct PatternSearch<'a> {
    pub board: Board,
    table: &'a mut Table,
    killers: Vec<[Option<Cell>; 2]>,
    /// Nodes searched so far.
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Set when the budget ran out: results since are worthless.
    pub aborted: bool,
}

impl<'a> PatternSearch<'a> {
    /// A search of `board` with `table` (emptied by the caller), within `node_limit` nodes
    /// and the deadline.
    pub(crate) fn new(
        board: Board,
        table: &'a mut Table,
        node_limit: u64,
        deadline: Option<Instant>,
    ) -> Self {
        PatternSearch {
            board,
            table,
            killers: vec![[None; 2]; MAX_PLY as usize + 2],
            nodes: 0,
            node_limit,
            deadline,
            aborted: false,
        }
    }

    #[inline]
    fn check_budget(&mut self) {
        if self.nodes >= self.node_limit
            || self.nodes.is_multiple_of(CLOCK_EVERY)
                && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// The moves worth searching for the side to move when nothing forces them, best first
    /// (at most `width`, after the table move and the killers).
    fn quiet_moves(&self, me: Player, table_move: Option<Cell>, ply: u32, width: usize) -> Keyed {
        let killers = self.killers[ply as usize];
        let mut out = Keyed::new();
        for cell in quiet_candidates(&self.board, me).iter() {
            let key = if Some(cell) == table_move {
                i32::MAX
            } else if Some(cell) == killers[0] {
                i32::MAX - 1
            } else if Some(cell) == killers[1] {
                i32::MAX - 2
            } else {
                move_score(&self.board, cell, me)
            };
            out.push((key, cell));
        }
        let order = |a: &(i32, Cell), b: &(i32, Cell)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        // The best `width` in order: a selection, then a sort of those alone.
        let width = width.max(1);
        if out.len() > width {
            out.select_nth_unstable_by(width - 1, order);
            out.truncate(width);
        }
        out.sort_unstable_by(order);
        out
    }

    fn settled(&self, ply: u32, forced: &mut Keyed) -> Option<i32> {
        settled(&self.board, ply, forced)
    }

    /// The negamax value of the board (`ply` plies below the root) to `depth` plies, within
    /// `(alpha, beta)`, fail-soft.
    pub(crate) fn negamax(&mut self, depth: i32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.check_budget();
        if self.aborted {
            return 0;
        }
        let me = self.board.to_move();
        let mut moves = Keyed::new();
        if let Some(value) = self.settled(ply, &mut moves) {
            return value;
        }
        let forced = !moves.is_empty();
        if !forced && ply >= MAX_PLY {
            return self.board.patterns().evaluate(me);
        }
        if !forced && depth <= 0 {
            return self.quiescence(me, depth, ply, alpha, beta);
        }
        let key = self.board.key();
        let mut table_move = None;
        if let Some(entry) = self.table.probe(key) {
            table_move = entry.mv.map(|index| Cell(index as u16));
            if entry.depth as i32 >= depth.max(0) {
                let stored = score::from_node(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return stored,
                    Bound::Lower if stored >= beta => return stored,
                    Bound::Upper if stored <= alpha => return stored,
                    _ => {}
                }
            }
        }
        let extend = forced && ply < MAX_PLY;
        if !forced {
            moves = self.quiet_moves(me, table_move, ply, WIDTH);
        }
        let child_depth = if extend { depth } else { depth - 1 };
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let them = Mnk::opponent(me);
        for (i, &(_, cell)) in moves.iter().enumerate() {
            // Late moves of a quiet node are searched shallower first (late move reductions),
            // never a cell of either side's open three or better.
            let reduction = if !forced && depth >= 3 && i >= 3 {
                let patterns = self.board.patterns();
                if patterns.sets(me).open_three.contains(cell)
                    || patterns.sets(them).open_three.contains(cell)
                {
                    0
                } else if i >= 6 && depth >= 5 {
                    2
                } else {
                    1
                }
            } else {
                0
            };
            self.board.play(cell);
            let value = if i == 0 {
                -self.negamax(child_depth, ply + 1, -beta, -alpha)
            } else {
                let mut probe = -self.negamax(child_depth - reduction, ply + 1, -alpha - 1, -alpha);
                if reduction > 0 && probe > alpha {
                    probe = -self.negamax(child_depth, ply + 1, -alpha - 1, -alpha);
                }
                if probe > alpha && probe < beta {
                    -self.negamax(child_depth, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            self.board.undo();
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(cell);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        let slot = &mut self.killers[ply as usize];
                        if slot[0] != Some(cell) {
                            slot[1] = slot[0];
                            slot[0] = Some(cell);
                        }
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
        self.table.store(
            key,
            score::to_node(best, ply),
            depth.max(0) as u32,
            bound,
            best_move.map(|c| c.index()),
        );
        best
    }

    /// The value of a quiet node past the horizon (`depth` <= 0): the evaluation as it stands
    /// (the side to move may stop here), or better, what its own fours reach: each four forces
    /// the opponent's reply (searched without spending depth, as every forced reply), so a
    /// win by continuous fours at the horizon is found, and a four that only changes the
    /// evaluation is weighed too. At most [`QUIESCENCE_FOURS`] fours in a row, the
    /// [`QUIESCENCE_WIDTH`] best at a node.
    fn quiescence(&mut self, me: Player, depth: i32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        let stand = self.board.patterns().evaluate(me);
        if stand >= beta || depth <= -QUIESCENCE_FOURS {
            return stand;
        }
        let fours = self.board.patterns().sets(me).four.and(self.board.empty());
        if fours.is_empty() {
            return stand;
        }
        let mut moves = Keyed::new();
        for cell in fours.iter() {
            moves.push((move_score(&self.board, cell, me), cell));
        }
        let order = |a: &(i32, Cell), b: &(i32, Cell)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        if moves.len() > QUIESCENCE_WIDTH {
            moves.select_nth_unstable_by(QUIESCENCE_WIDTH - 1, order);
            moves.truncate(QUIESCENCE_WIDTH);
        }
        moves.sort_unstable_by(order);
        let mut best = stand;
        alpha = alpha.max(stand);
        for &(_, cell) in &moves {
            self.board.play(cell);
            let value = -self.negamax(depth - 1, ply + 1, -beta, -alpha);
            self.board.undo();
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Searches the root `moves` to `depth` and moves the best to the front. Returns the value,
    /// or `None` when the budget ran out before the first move was searched; when it runs out
    /// later, the best move among those searched stays in front.
    pub(crate) fn root(&mut self, moves: &mut [Cell], depth: i32) -> Option<i32> {
        self.nodes += 1;
        let mut alpha = -INFINITY;
        let mut best = (0, -INFINITY);
        for (i, &cell) in moves.iter().enumerate() {
            self.board.play(cell);
            let value = if i == 0 {
                -self.negamax(depth - 1, 1, -INFINITY, INFINITY)
            } else {
                let probe = -self.negamax(depth - 1, 1, -alpha - 1, -alpha);
                if probe > alpha && !self.aborted {
                    -self.negamax(depth - 1, 1, -INFINITY, -alpha)
                } else {
                    probe
                }
            };
            self.board.undo();
            if self.aborted {
                if i == 0 {
                    return None;
                }
                break;
            }
            if value > best.1 {
                best = (i, value);
                alpha = alpha.max(value);
            }
            if value >= MATE_BOUND {
                break;
            }
        }
        moves[..=best.0].rotate_right(1);
        Some(best.1)
    }

    /// The principal variation from `position` (the board's) after the search chose `first`:
    /// the table's best cell for each position reached ([`crate::pv::walk`] checks each), and
    /// where it has none, a win at once (a node that wins at once stores no cell).
    pub(crate) fn line(&self, position: &Mnk, first: Cell) -> Vec<Cell> {
        let mut board = self.board.clone();
        crate::pv::walk(position, first, |_, played| {
            board.play(played);
            let me = board.to_move();
            let stored = self
                .table
                .probe(board.key())
                .and_then(|entry| entry.mv)
                .map(|index| Cell(index as u16));
            stored.or_else(|| board.wins(me).iter().next())
        })
    }

    /// The root moves, best first: the forced replies when the opponent threatens to win at
    /// once, else the [`ROOT_WIDTH`] best cells worth a look (of those `within`, if given).
    pub(crate) fn root_moves(&self, within: Option<&CellSet>) -> Vec<Cell> {
        let me = self.board.to_move();
        let mut moves = Keyed::new();
        self.settled(0, &mut moves);
        let width = if moves.is_empty() {
            moves = self.quiet_moves(me, None, 0, MAX_MOVES);
            ROOT_WIDTH
        } else {
            MAX_MOVES
        };
        let mut out: Vec<Cell> = moves
            .iter()
            .map(|&(_, cell)| cell)
            .filter(|cell| within.is_none_or(|set| set.contains(*cell)))
            .take(width)
            .collect();
        if out.is_empty()
            && let Some(set) = within
        {
            out = set.iter().collect();
        }
        out
    }
}
