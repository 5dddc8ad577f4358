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
//! - a side with a VCF (probed at every node nothing forces; at the leaves only short ones,
//!   [`LEAF_VCF_DEPTH`] fours within [`LEAF_VCF_NODES`] nodes) wins: the
//!   horizon does not hide a win by fours (Rapfi's search drops into a VCF search at depth 0,
//!   which is where the idea comes from);
//! - a side whose opponent has a VCF searches only the cells of that VCF's line and its own
//!   fours (all of them), where the defences are;
//! - otherwise the cells within two of a stone, best patterns first (own value plus the
//!   opponent's value there), at most [`WIDTH`] of them below the root.

use std::time::Instant;

use rules::mnk::CellSet;
use rules::{ArrayVec, Cell, MAX_MOVES, Mnk, Player, TwoPlayer, WinRule};

use crate::score::{self, INFINITY, MATE, MATE_BOUND};
use crate::threats::{Board, ThreatLimits, ThreatSearch};
use crate::tt::{Bound, Table};

/// Moves searched at a quiet node below the root.
pub const WIDTH: usize = 12;

/// Plies past which forced replies stop extending the search.
const MAX_PLY: u32 = 100;

/// How often the clock is read, in nodes.
const CLOCK_EVERY: u64 = 1024;

/// The deepest VCF probed at a node of the tree, in fours.
pub const PROBE_VCF_DEPTH: u32 = 12;

/// The nodes one VCF probe at a node of the tree may use.
pub const PROBE_VCF_NODES: u64 = 400;

/// The deepest VCF probed at a leaf, in fours: the leaves are most of the nodes, so their
/// probes look only for short wins.
pub const LEAF_VCF_DEPTH: u32 = 4;

/// The nodes one VCF probe at a leaf may use.
pub const LEAF_VCF_NODES: u64 = 32;

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
    /// The VCF probes of the nodes, with the failures they share.
    threat: ThreatSearch,
    /// Nodes searched so far (the probes' included).
    pub nodes: u64,
    node_limit: u64,
    /// The node count at which the clock is read next.
    next_clock: u64,
    /// When to stop (the caller may move it between iterations).
    pub deadline: Option<Instant>,
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
            threat: ThreatSearch::new(ThreatLimits::default()),
            nodes: 0,
            node_limit,
            next_clock: CLOCK_EVERY,
            deadline,
            aborted: false,
        }
    }

    /// Ends the search when the nodes or the time ran out. The clock is read once every
    /// [`CLOCK_EVERY`] nodes counted from the last reading: the VCF probes add their nodes in
    /// one step, so a count that must land on a multiple could step over it for long.
    #[inline]
    fn check_budget(&mut self) {
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes >= self.next_clock {
            self.next_clock = self.nodes + CLOCK_EVERY;
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
        }
    }

    /// The moves worth searching for the side to move when nothing forces them, best first
    /// (at most `width`, after the table move and the killers), among `within` when given
    /// (all the candidates when none of them is there).
    fn quiet_moves(
        &self,
        me: Player,
        table_move: Option<Cell>,
        ply: u32,
        width: usize,
        within: Option<&CellSet>,
    ) -> Keyed {
        let killers = self.killers[ply as usize];
        let mut out = Keyed::new();
        let mut candidates = quiet_candidates(&self.board, me);
        if let Some(within) = within {
            let inside = candidates.and(within);
            if !inside.is_empty() {
                candidates = inside;
            }
        }
        for cell in candidates.iter() {
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

    /// A win by continuous fours of the side to move (`ply` plies below the root), as a mate
    /// score: probed at every node nothing forces, the leaves included, so the horizon never
    /// hides a VCF (threat-space search inside the tree, as gomoku engines run it in their
    /// quiescence). Only a side with a cell that makes a four can have one.
    fn own_vcf(&mut self, ply: u32, leaf: bool) -> Option<i32> {
        let me = self.board.to_move();
        if self.board.patterns().sets(me).four.is_empty() {
            return None;
        }
        let (depth, nodes) = if leaf {
            (LEAF_VCF_DEPTH, LEAF_VCF_NODES)
        } else {
            (PROBE_VCF_DEPTH, PROBE_VCF_NODES)
        };
        let found = self.threat.probe_vcf(&mut self.board, depth, nodes);
        self.nodes += self.threat.nodes;
        found.map(|line| MATE - (ply as usize + line.len()) as i32)
    }

    /// When the opponent of the side to move has a VCF (asked as if the side to move
    /// passed), the cells that may stop it: the cells of its line (its fours and the
    /// replies) and the side to move's own fours, which gain a tempo. The defender searches
    /// only these, as the root does (`threat.rs`, step 4), so the width limit cannot leave
    /// the defences out while quieter moves fill it. `None` when the opponent has no VCF
    /// within the probe's depth and nodes.
    fn defences_to_their_vcf(&mut self) -> Option<CellSet> {
        let me = self.board.to_move();
        let them = Mnk::opponent(me);
        if self.board.patterns().sets(them).four.is_empty() {
            return None;
        }
        self.board.pass();
        let found = self
            .threat
            .probe_vcf(&mut self.board, PROBE_VCF_DEPTH, PROBE_VCF_NODES);
        self.board.pass();
        self.nodes += self.threat.nodes;
        let line = found?;
        let mut cells = self.board.patterns().sets(me).four;
        for cell in line {
            cells.insert(cell);
        }
        Some(cells.and(self.board.empty()))
    }

    /// The moves of a node nothing forces that is not a leaf: the defences against the
    /// opponent's VCF when it has one (all of them: the defender's move is as good as its
    /// best defence), otherwise the best [`WIDTH`] quiet moves.
    fn node_moves(&mut self, me: Player, table_move: Option<Cell>, ply: u32) -> Keyed {
        match self.defences_to_their_vcf() {
            Some(within) if !within.is_empty() => {
                self.quiet_moves(me, table_move, ply, MAX_MOVES, Some(&within))
            }
            _ => self.quiet_moves(me, table_move, ply, WIDTH, None),
        }
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
        if !forced && let Some(value) = self.own_vcf(ply, depth <= 0 || ply >= MAX_PLY) {
            return value;
        }
        if !forced && (depth <= 0 || ply >= MAX_PLY) {
            return self.board.patterns().evaluate(me);
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
            moves = self.node_moves(me, table_move, ply);
        }
        let child_depth = if extend { depth } else { depth - 1 };
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for (i, &(_, cell)) in moves.iter().enumerate() {
            self.board.play(cell);
            let value = if i == 0 {
                -self.negamax(child_depth, ply + 1, -beta, -alpha)
            } else {
                let probe = -self.negamax(child_depth, ply + 1, -alpha - 1, -alpha);
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

    /// The root moves: every legal cell worth a look, best first (the forced replies when
    /// the opponent threatens to win at once).
    pub(crate) fn root_moves(&self, within: Option<&CellSet>) -> Vec<Cell> {
        let me = self.board.to_move();
        let mut moves = Keyed::new();
        self.settled(0, &mut moves);
        if moves.is_empty() {
            moves = self.quiet_moves(me, None, 0, MAX_MOVES, None);
        }
        let mut out: Vec<Cell> = moves
            .iter()
            .map(|&(_, cell)| cell)
            .filter(|cell| within.is_none_or(|set| set.contains(*cell)))
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
    use rules::Game;

    use super::*;

    fn start(id: &str) -> Mnk {
        id.parse::<rules::Variant>().unwrap().mnk().unwrap().start()
    }

    /// The value of `game` searched to `depth` plies with a fresh table.
    fn value(game: &Mnk, depth: i32) -> i32 {
        let mut table = Table::new(1);
        table.new_search().unwrap();
        let mut search = PatternSearch::new(Board::new(game), &mut table, u64::MAX, None);
        search.negamax(depth, 0, -INFINITY, INFINITY)
    }

    /// A leaf (depth 0) whose side to move wins by fours is a win, not an evaluation: the
    /// horizon does not hide a VCF. X: h8 i8 j8 (O on g8) and k9 k10 k11 (O on k12), two
    /// closed threes: k8 makes two fours at once (l8 and k7 win); O's other stones are in the
    /// corners. No open four, so nothing is settled before a search.
    #[test]
    fn a_leaf_sees_the_vcf_of_the_side_to_move() {
        for id in ["gomoku", "mnk-15x15k5-caro"] {
            let game = start(id)
                .play_line("h8 g8 i8 k12 j8 a1 k9 o1 k10 a15 k11 o15")
                .unwrap();
            let mut forced = Keyed::new();
            assert_eq!(settled(&Board::new(&game), 0, &mut forced), None, "{id}");
            assert!(forced.is_empty(), "{id}");
            for depth in [0, 1, 2] {
                let found = value(&game, depth);
                assert!(
                    found >= MATE_BOUND,
                    "{id}, depth {depth}: {found} is not a win"
                );
            }
            // The same stones with O to move (O passed): O has no VCF, the leaf is an
            // evaluation.
            let mut board = Board::new(&game);
            board.pass();
            let mut table = Table::new(1);
            table.new_search().unwrap();
            let mut search = PatternSearch::new(board, &mut table, u64::MAX, None);
            let found = search.negamax(0, 0, -INFINITY, INFINITY);
            assert!(!score::is_mate(found), "{id}: {found}");
        }
    }

    /// A search whose deadline has passed stops within a reading of the clock, however the
    /// VCF probes move the node count (a count that had to land on a multiple of
    /// [`CLOCK_EVERY`] stepped over it, and the search ran on far past its deadline). The
    /// deadline is already past when the search starts: nothing here depends on the clock's
    /// speed.
    #[test]
    fn a_search_past_its_deadline_stops_however_the_probes_count() {
        // An opening with threes for both sides: the probes run at most nodes.
        let game = start("gomoku")
            .play_line("h8 i9 j8 g8 h10 h9 g10 f11 j10 i10 k11 e12")
            .unwrap();
        let mut table = Table::new(1);
        table.new_search().unwrap();
        let mut search = PatternSearch::new(
            Board::new(&game),
            &mut table,
            u64::MAX,
            Some(Instant::now()),
        );
        let mut moves = search.root_moves(None);
        let mut depth = 1;
        while search.root(&mut moves, depth).is_some() && !search.aborted && depth < 64 {
            depth += 1;
        }
        assert!(search.aborted, "the search ran to depth {depth}");
        let bound = 2 * CLOCK_EVERY + PROBE_VCF_NODES;
        assert!(
            search.nodes <= bound,
            "{} nodes past the deadline",
            search.nodes
        );
    }

    /// A node whose opponent has a VCF searches only the cells that may stop it. O: h8 i8 j8
    /// (X on g8) and k9 k10 k11 (X on k12): O's k8 makes two fours. The only defences are
    /// k8 and the cells that spoil one of the two fours (l8, k7); X has no four of its own.
    /// Without the restriction the node searches its twelve best quiet cells.
    #[test]
    fn the_defender_searches_only_the_defences_against_a_vcf() {
        let game = start("gomoku")
            .play_line("g8 h8 k12 i8 a1 j8 o1 k9 a15 k10 o15 k11")
            .unwrap();
        let mut forced = Keyed::new();
        assert_eq!(settled(&Board::new(&game), 0, &mut forced), None);
        let mut table = Table::new(1);
        table.new_search().unwrap();
        let mut search = PatternSearch::new(Board::new(&game), &mut table, u64::MAX, None);
        let me = search.board.to_move();
        assert_eq!(search.own_vcf(0, false), None);
        let moves: Vec<String> = search
            .node_moves(me, None, 1)
            .iter()
            .map(|&(_, cell)| game.config().cell_name(cell))
            .collect();
        assert!(moves.contains(&"k8".to_owned()), "{moves:?}");
        for name in &moves {
            assert!(["k8", "l8", "k7"].contains(&name.as_str()), "{moves:?}");
        }
        // With X to move on a quiet board, the node keeps its width.
        let quiet = start("gomoku").play_line("h8 h9 i8 i9").unwrap();
        let mut search = PatternSearch::new(Board::new(&quiet), &mut table, u64::MAX, None);
        let me = search.board.to_move();
        assert_eq!(search.node_moves(me, None, 1).len(), WIDTH);
    }
}
