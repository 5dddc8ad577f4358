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
//!   opponent's value there; or by a key learned from `threat`'s games where the agent sets
//!   one, [`super::policy`]), at most [`WIDTH`] of them below the root and [`ROOT_WIDTH`] at
//!   the root; from the 4th of them, at depth 3 and more, a cell that makes no open three for
//!   either side is searched a ply shallower first (two from the 7th at depth 5 and more: late
//!   move reductions), and again at full depth when it beats alpha; a cell that cut off
//!   elsewhere in the search rises among them (the history heuristic; not under caro, where
//!   it was not tested to the end);
//! - past the horizon a quiet node is not only its evaluation: the side to move stands pat or
//!   plays its fours, each forcing the reply (a quiescence search of fours), so a win by
//!   continuous fours just beyond the horizon counts as the win it is (at most 8 fours in a
//!   row, 4 under caro, where each four has two defences; the 8 best fours at its first node,
//!   the 3 best deeper in a chain, where most of a search's nodes are).

use std::time::Instant;

use rules::mnk::CellSet;
use rules::{ArrayVec, Cell, MAX_MOVES, Mnk, Player, TwoPlayer, WinRule};

use super::threats::Board;
use crate::score::{self, INFINITY, MATE, MATE_BOUND};
use crate::tt::{Bound, Table};

/// Moves searched at a quiet node below the root.
pub const WIDTH: usize = 12;

/// The same under caro, where a line blocked at both ends wins nothing and a quiet node has
/// more moves that matter.
pub const WIDTH_CARO: usize = 16;

/// Moves searched at the root when nothing forces the move (the best by pattern value).
pub const ROOT_WIDTH: usize = 24;

/// Plies past which forced replies stop extending the search.
const MAX_PLY: u32 = 100;

/// Fours in a row the quiescence search past the horizon plays at most.
const QUIESCENCE_FOURS: i32 = 8;

/// The same under caro, where a four has two defences (its cell, and the cell past it that
/// leaves the five blocked at both ends): the quiescence tree doubles with each four.
const QUIESCENCE_FOURS_CARO: i32 = 4;

/// Fours the quiescence search tries at its first node, best first.
const QUIESCENCE_WIDTH: usize = 8;

/// Fours it tries at a node deeper in a chain of fours (after a four of its own and the
/// reply): most of a search's nodes are in these chains.
const QUIESCENCE_WIDTH_DEEP: usize = 3;

/// How often the clock is read, in nodes.
const CLOCK_EVERY: u64 = 1024;

/// The largest a cell's history score grows (either sign): half of it is added to the cell's
/// ordering key at a quiet node, so it reorders cells of like pattern value.
const HISTORY_MAX: i32 = 1024;

/// Cells a board has at most (a [`CellSet`]'s bits).
const CELLS: usize = CellSet::WORDS * 64;

/// The moves of a node with their ordering keys.
pub(crate) type Keyed = ArrayVec<(i32, Cell), MAX_MOVES>;

/// How good `cell` is for the side to move `me`: its own patterns there and the opponent's.
#[inline]
pub(crate) fn move_score(board: &Board, cell: Cell, me: Player) -> i32 {
    let patterns = board.patterns();
    5 * patterns.value(cell, me) + 4 * patterns.value(cell, Mnk::opponent(me))
}

/// Keeps the best `width` of `moves` (at least one), best first, ties by cell: a selection,
/// then a sort of those alone.
fn keep_best(moves: &mut Keyed, width: usize) {
    let order = |a: &(i32, Cell), b: &(i32, Cell)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    let width = width.max(1);
    if moves.len() > width {
        moves.select_nth_unstable_by(width - 1, order);
        moves.truncate(width);
    }
    moves.sort_unstable_by(order);
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
    keep_best(&mut out, MAX_MOVES);
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
    /// The history score of each player's cells: raised for a quiet move that cut off, lowered
    /// for those searched before it at the node (the history heuristic, with the gravity
    /// Stockfish gives it: a score moves a fraction of the way to its bound). Never moved under
    /// caro, where its test was stopped without a decision: the scores stay 0.
    history: Vec<i32>,
    /// The learned move ordering the quiet nodes use ([`super::policy`]); `None` (as made):
    /// the pattern values.
    pub policy: Option<&'static super::pattern::ClassOrdering>,
    /// Fours the quiescence search tries deeper in a chain ([`QUIESCENCE_WIDTH_DEEP`]).
    deep_width: usize,
    /// Nodes searched so far.
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// A front's "move now" ([`crate::Context::stop`]), read with the clock.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
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
            policy: None,
            board,
            table,
            killers: vec![[None; 2]; MAX_PLY as usize + 2],
            history: vec![0; 2 * CELLS],
            deep_width: QUIESCENCE_WIDTH_DEEP,
            nodes: 0,
            node_limit,
            deadline,
            stop: None,
            aborted: false,
        }
    }

    #[inline]
    fn check_budget(&mut self) {
        if self.nodes >= self.node_limit
            || self.nodes.is_multiple_of(CLOCK_EVERY)
                && (self.deadline.is_some_and(|d| Instant::now() >= d)
                    || crate::stop_set(self.stop.as_ref()))
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
            } else if let Some(policy) = self.policy {
                policy.score(self.board.patterns(), cell, me)
                    + self.history[Self::slot(me, cell)] / 2
            } else {
                move_score(&self.board, cell, me) + self.history[Self::slot(me, cell)] / 2
            };
            out.push((key, cell));
        }
        keep_best(&mut out, width);
        out
    }

    fn settled(&self, ply: u32, forced: &mut Keyed) -> Option<i32> {
        settled(&self.board, ply, forced)
    }

    /// The index of `cell` of `player` in the history scores.
    #[inline]
    fn slot(player: Player, cell: Cell) -> usize {
        player.index() * CELLS + cell.index()
    }

    /// Moves the history score of `cell` of `player` by `bonus`, a fraction of the way to its
    /// bound.
    fn reward(&mut self, player: Player, cell: Cell, bonus: i32) {
        let score = &mut self.history[Self::slot(player, cell)];
        *score += bonus - *score * bonus.abs() / HISTORY_MAX;
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
            let width = if self.board.rule() == WinRule::Caro {
                WIDTH_CARO
            } else {
                WIDTH
            };
            moves = self.quiet_moves(me, table_move, ply, width);
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
                        if !forced && self.board.rule() != WinRule::Caro {
                            let bonus = (16 * depth * depth).min(HISTORY_MAX);
                            self.reward(me, cell, bonus);
                            for &(_, tried) in &moves[..i] {
                                self.reward(me, tried, -bonus);
                            }
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
    /// evaluation is weighed too. At most [`QUIESCENCE_FOURS`] fours in a row
    /// ([`QUIESCENCE_FOURS_CARO`] under caro), the [`QUIESCENCE_WIDTH`] best at its first
    /// node and the [`QUIESCENCE_WIDTH_DEEP`] best deeper in a chain.
    fn quiescence(&mut self, me: Player, depth: i32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        let stand = self.board.patterns().evaluate(me);
        let limit = if self.board.rule() == WinRule::Caro {
            QUIESCENCE_FOURS_CARO
        } else {
            QUIESCENCE_FOURS
        };
        if stand >= beta || depth <= -limit {
            return stand;
        }
        let fours = self.board.patterns().sets(me).four.and(self.board.empty());
        if fours.is_empty() {
            return stand;
        }
        let mut moves: Keyed = fours
            .iter()
            .map(|cell| (move_score(&self.board, cell, me), cell))
            .collect();
        keep_best(
            &mut moves,
            if depth < 0 {
                self.deep_width
            } else {
                QUIESCENCE_WIDTH
            },
        );
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
    #[cfg(test)]
    pub(crate) fn root(&mut self, moves: &mut [Cell], depth: i32) -> Option<i32> {
        self.root_window(moves, depth, -INFINITY, INFINITY)
    }

    /// The root `moves` searched to `depth` in a window of `delta` either side of `last` (an
    /// aspiration window; the full window without `last`), widened fourfold on the side it
    /// fails until the value falls inside. `None` when the budget ran out before a move beat
    /// the window's low end: the last iteration's result stands.
    pub(crate) fn root_aspirated(
        &mut self,
        moves: &mut [Cell],
        depth: i32,
        last: Option<i32>,
        mut delta: i32,
    ) -> Option<i32> {
        let (mut lo, mut hi) = last.map_or((-INFINITY, INFINITY), |v| (v - delta, v + delta));
        loop {
            let value = self.root_window(moves, depth, lo, hi)?;
            if self.aborted {
                return (value > lo).then_some(value);
            }
            if value <= lo && lo > -INFINITY {
                delta *= 4;
                lo = (value - delta).max(-INFINITY);
            } else if value >= hi && hi < INFINITY {
                delta *= 4;
                hi = (value + delta).min(INFINITY);
            } else {
                return Some(value);
            }
        }
    }

    /// [`PatternSearch::root`] within the window `(lo, hi)` (an aspiration window): a value
    /// at or below `lo` is an upper bound and leaves the moves' order as it was, one at or
    /// above `hi` a lower bound whose move is now in front.
    fn root_window(&mut self, moves: &mut [Cell], depth: i32, lo: i32, hi: i32) -> Option<i32> {
        self.nodes += 1;
        let mut alpha = lo;
        let mut best = (0, -INFINITY);
        for (i, &cell) in moves.iter().enumerate() {
            self.board.play(cell);
            let value = if i == 0 {
                -self.negamax(depth - 1, 1, -hi, -alpha)
            } else {
                let probe = -self.negamax(depth - 1, 1, -alpha - 1, -alpha);
                if probe > alpha && probe < hi && !self.aborted {
                    -self.negamax(depth - 1, 1, -hi, -alpha)
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
            if i == 0 || value > alpha {
                best = (i, value);
                alpha = alpha.max(value);
            }
            if value >= MATE_BOUND || value >= hi {
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

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rules::Game;

    use super::*;
    use crate::AgentRng;
    use crate::games::mnk::threats::{ThreatLimits, ThreatResult, vcf};

    /// Gomoku after the moves of `line`.
    fn gomoku(line: &str) -> Mnk {
        start("gomoku").play_line(line).unwrap()
    }

    /// The start of a variant.
    fn start(variant: &str) -> Mnk {
        variant
            .parse::<rules::Variant>()
            .unwrap()
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start()
    }

    /// Positions of random play near the centre of `variant` where the side to move has a win
    /// by one to three fours and the five (a VCF of 3 to 7 plies, as the threat search finds
    /// it), and nothing settles the board before a search (no win at once, no open four, no
    /// four of the opponent to answer).
    fn vcf_positions(variant: &str, count: usize) -> Vec<(Mnk, usize)> {
        let mut rng = AgentRng::seed_from_u64(11);
        let mut found = Vec::new();
        while found.len() < count {
            let mut game = start(variant);
            for _ in 0..40 {
                let (row, col) = (rng.random_range(4..11u8), rng.random_range(4..11u8));
                let cell = game.config().cell(row, col).unwrap();
                if !game.is_legal(cell) {
                    continue;
                }
                game.play_unchecked(cell);
                if game.outcome().is_some() {
                    break;
                }
                let board = Board::new(&game);
                let mut forced = Keyed::new();
                if settled(&board, 0, &mut forced).is_some() || !forced.is_empty() {
                    continue;
                }
                if let (ThreatResult::Win(line), _) = vcf(&game, ThreatLimits::default())
                    && (3..=7).contains(&line.len())
                {
                    found.push((game.clone(), line.len()));
                    break;
                }
            }
        }
        found
    }

    #[test]
    fn the_root_searches_its_best_cells_and_every_forced_reply() {
        let mut table = Table::new(1);
        // Scattered stones, nothing forced: more near cells than the root searches.
        let game = gomoku("h8 h10 j9 f8 k6 e11 c4 m12");
        let board = Board::new(&game);
        let near = near_cells(&board).len() as usize;
        let search = PatternSearch::new(board.clone(), &mut table, 1, None);
        let moves = search.root_moves(None);
        assert!(near > ROOT_WIDTH, "{near} near cells");
        assert_eq!(moves.len(), ROOT_WIDTH);
        let me = board.to_move();
        let best = near_cells(&board)
            .iter()
            .map(|cell| move_score(&board, cell, me))
            .max()
            .unwrap();
        assert_eq!(move_score(&board, moves[0], me), best);
        // Facing a four (g8 is O's), the stopping cell alone, however wide the root.
        let game = gomoku("h8 g8 i8 a1 j8 a3 k8");
        let search = PatternSearch::new(Board::new(&game), &mut table, 1, None);
        let moves = search.root_moves(None);
        assert_eq!(moves, vec![game.config().parse_cell("l8").unwrap()]);
    }

    #[test]
    fn history_scores_stay_in_their_bound_and_stay_zero_under_caro() {
        let mut table = Table::new(1);
        table.new_search().unwrap();
        // A search of a middle game moves the scores (gomoku), or leaves them all 0 (caro).
        for (variant, moved) in [("gomoku", true), ("caro", false)] {
            let game = start(variant)
                .play_line("h8 h10 j9 f8 k6 e11 i9 g9")
                .unwrap();
            let mut search = PatternSearch::new(Board::new(&game), &mut table, u64::MAX, None);
            let mut moves = search.root_moves(None);
            for depth in 1..=4 {
                search.root(&mut moves, depth).unwrap();
            }
            assert_eq!(search.history.iter().any(|&h| h != 0), moved, "{variant}");
            assert!(search.history.iter().all(|h| h.abs() <= HISTORY_MAX));
        }
        // Rewarded again and again, a score nears its bound and never passes it.
        let game = start("gomoku");
        let mut search = PatternSearch::new(Board::new(&game), &mut table, u64::MAX, None);
        let cell = game.config().center_cell();
        for (bonus, toward) in [(HISTORY_MAX, HISTORY_MAX), (-64, -HISTORY_MAX)] {
            for _ in 0..1000 {
                search.reward(Player::First, cell, bonus);
                let score = search.history[PatternSearch::slot(Player::First, cell)];
                assert!(score.abs() <= HISTORY_MAX, "{score}");
            }
            let score = search.history[PatternSearch::slot(Player::First, cell)];
            assert!(
                (score - toward).abs() <= HISTORY_MAX / 10,
                "{score} {toward}"
            );
        }
    }

    #[test]
    fn deeper_in_a_chain_of_fours_the_quiescence_search_tries_its_three_best() {
        // The same horizon nodes searched with 8 fours a node all the way down, and with 3
        // below the first node: less than half the nodes in all (one node may take more, where
        // a narrower chain stops cutting its parent off); the wins by fours of the positions
        // above are still seen (the next test).
        let mut games = Vec::new();
        let mut rng = AgentRng::seed_from_u64(5);
        while games.len() < 40 {
            let mut game = start("gomoku");
            for _ in 0..24 {
                let (row, col) = (rng.random_range(4..11u8), rng.random_range(4..11u8));
                let cell = game.config().cell(row, col).unwrap();
                if game.is_legal(cell) && game.outcome().is_none() {
                    game.play_unchecked(cell);
                }
            }
            let board = Board::new(&game);
            let mut forced = Keyed::new();
            if game.outcome().is_none() && settled(&board, 0, &mut forced).is_none() {
                games.push(game);
            }
        }
        let mut totals = [0u64; 2];
        for game in &games {
            let mut nodes = [0u64; 2];
            for (i, width) in [QUIESCENCE_WIDTH, QUIESCENCE_WIDTH_DEEP]
                .into_iter()
                .enumerate()
            {
                let mut table = Table::new(1);
                table.new_search().unwrap();
                let mut search = PatternSearch::new(Board::new(game), &mut table, u64::MAX, None);
                search.deep_width = width;
                search.negamax(0, 0, -INFINITY, INFINITY);
                nodes[i] = search.nodes;
            }
            totals[0] += nodes[0];
            totals[1] += nodes[1];
        }
        assert!(totals[1] * 2 < totals[0], "{totals:?}");
    }

    #[test]
    fn the_horizon_sees_a_win_by_fours() {
        // A node with no depth left is not only its evaluation: the side to move's fours are
        // searched past the horizon, so a win by continuous fours there scores as a win; under
        // caro too, where each four has two defences and the search stops at fewer fours.
        for (game, plies) in vcf_positions("gomoku", 8)
            .into_iter()
            .chain(vcf_positions("caro", 8))
        {
            let mut table = Table::new(1);
            table.new_search().unwrap();
            let mut search = PatternSearch::new(Board::new(&game), &mut table, u64::MAX, None);
            let value = search.negamax(0, 0, -INFINITY, INFINITY);
            assert!(
                value >= MATE_BOUND,
                "a VCF of {plies} plies, scored {value} at the horizon\n{game}"
            );
        }
    }

    /// The root of `game` searched to depth 4 with the full window, from an empty `table`: the
    /// moves best first, the value and the nodes.
    fn full_window(game: &Mnk, table: &mut Table) -> (Vec<Cell>, i32, u64) {
        table.new_search().unwrap();
        let mut search = PatternSearch::new(Board::new(game), table, u64::MAX, None);
        let mut best = search.root_moves(None);
        let value = search.root(&mut best, 4).unwrap();
        (best, value, search.nodes)
    }

    #[test]
    fn a_root_window_that_misses_the_value_says_on_which_side() {
        // The value at depth 4 with the full window; then windows above it and below it.
        let game = gomoku("h8 h10 j9 f8 k6 e11 i9 g9");
        let mut table = Table::new(1);
        let (best, value, nodes) = full_window(&game, &mut table);
        // Above it: an upper bound at or below the window, the order of the moves as given
        // (the best given last, where the full window would bring it to the front).
        table.new_search().unwrap();
        let mut search = PatternSearch::new(Board::new(&game), &mut table, u64::MAX, None);
        let mut moves: Vec<Cell> = search.root_moves(None).into_iter().rev().collect();
        let given = moves.clone();
        let above = search
            .root_window(&mut moves, 4, value + 1000, value + 2000)
            .unwrap();
        assert!(above <= value + 1000, "{above} for {value}");
        assert_ne!(
            given[0], best[0],
            "the full window's best is not the first given"
        );
        assert_eq!(moves, given);
        // Below it: a lower bound at or above the window.
        table.new_search().unwrap();
        let mut search = PatternSearch::new(Board::new(&game), &mut table, u64::MAX, None);
        let mut moves = search.root_moves(None);
        let below = search
            .root_window(&mut moves, 4, value - 2000, value - 1000)
            .unwrap();
        assert!(below >= value - 1000, "{below} for {value}");
        assert!(
            search.nodes < nodes,
            "{} nodes, {nodes} with the full window",
            search.nodes
        );
        // Around it: the full window's value and move.
        table.new_search().unwrap();
        let mut search = PatternSearch::new(Board::new(&game), &mut table, u64::MAX, None);
        let mut moves = search.root_moves(None);
        let around = search
            .root_window(&mut moves, 4, value - 50, value + 50)
            .unwrap();
        assert_eq!((around, moves[0]), (value, best[0]));
    }

    #[test]
    fn an_aspirated_root_widens_a_missed_window_to_the_full_windows_value() {
        // A last value far above and far below the true one: the window fails, widens on
        // that side, and ends with the value and move of the full window.
        let game = gomoku("h8 h10 j9 f8 k6 e11 i9 g9");
        let mut table = Table::new(1);
        let (best, value, _) = full_window(&game, &mut table);
        for last in [value + 3000, value - 3000, value] {
            table.new_search().unwrap();
            let mut search = PatternSearch::new(Board::new(&game), &mut table, u64::MAX, None);
            let mut moves = search.root_moves(None);
            let aspirated = search.root_aspirated(&mut moves, 4, Some(last), 80);
            assert_eq!((aspirated, moves[0]), (Some(value), best[0]), "last {last}");
        }
    }
}
