//! What the agents know of Connect Four: an evaluation of the open lines and the threats
//! (with Allis's parity: the first player's threats count more on odd rows, the second
//! player's on even rows), the tactics of gravity (a win now, the only block, two threats at
//! once, and a move under the opponent's winning cell, which hands them the win), a move order
//! by the threats a move makes, the board's mirror symmetry for the generic solver, and the
//! exact solver of its own ([`solve`]).
//!
//! Everything is computed from the position's bitboards with shifts (see `rules::connect4`):
//! a full evaluation is a few hundred word operations, so nothing is kept move by move.

pub mod solve;

use rules::connect4::{Bits, Column, Shape};
use rules::{Connect4, Game, MoveList, Player, TwoPlayer};

use crate::{AgentGame, Tactic};

/// The weight of a line of k cells (a window) holding `count` stones of one player and none
/// of the other, by how many stones it lacks: one short is worth the most.
fn window_weight(count: u32, k: u32) -> i32 {
    match k - count {
        0 => 0,
        1 => 12,
        2 => 4,
        _ => 1,
    }
}

/// The worth of one empty cell where a player would complete a line, and the extra when it
/// lies on the row parity that favours the player (Allis: odd rows for the first player, even
/// rows for the second, counting rows from 1 at the bottom).
const THREAT: i32 = 24;
const GOOD_PARITY: i32 = 16;

/// The worth of having a winning cell that can be played at once, at the horizon.
const PLAYABLE_WIN: i32 = 400;

/// The four line directions as bit steps (see `rules::connect4`).
#[inline]
fn steps(height: u32) -> [u32; 4] {
    [1, height, height + 1, height - 1]
}

/// The cells of a board whose level (0 at the bottom) is even: rows 1, 3, 5 counted from 1.
fn even_levels(shape: &Shape<u128>) -> u128 {
    let mut levels = 0u128;
    for level in (0..shape.rows).step_by(2) {
        levels |= shape.bottom << level;
    }
    levels
}

/// The open-line score of `own` against `theirs`: every window of k cells free of `theirs`,
/// weighted by the stones of `own` in it. The stones of each window are counted for all
/// windows at once in a bit-sliced counter (one bit plane per binary digit of the count).
fn window_score(shape: &Shape<u128>, own: u128, theirs: u128) -> i32 {
    let free = shape.board & !theirs;
    let mut score = 0;
    for step in steps(shape.height) {
        let mut starts = free;
        for i in 1..shape.k {
            starts &= free.down(i * step);
        }
        if starts == 0 {
            continue;
        }
        let mut planes = [0u128; 5];
        for i in 0..shape.k {
            let mut carry = own.down(i * step) & starts;
            for plane in &mut planes {
                let next = *plane & carry;
                *plane ^= carry;
                carry = next;
                if carry == 0 {
                    break;
                }
            }
        }
        for count in 1..=shape.k {
            let mut windows = starts;
            for (digit, plane) in planes.iter().enumerate() {
                windows &= if count >> digit & 1 == 1 {
                    *plane
                } else {
                    !*plane
                };
            }
            score += window_weight(count, shape.k) * windows.count_ones() as i32;
        }
    }
    score
}

/// The threat score of `player`: each empty cell that would complete a line, more on the row
/// parity that favours them.
fn threat_score(game: &Connect4, shape: &Shape<u128>, player: Player) -> i32 {
    let threats = game.winning_cells(player);
    let good = if player == Player::First {
        even_levels(shape)
    } else {
        shape.board & !even_levels(shape)
    };
    THREAT * threats.count_ones() as i32 + GOOD_PARITY * (threats & good).count_ones() as i32
}

/// The evaluation from `me`'s view: open lines and threats, mine minus the opponent's, and a
/// win that can be played at once for the side to move.
fn evaluation(game: &Connect4, me: Player) -> i32 {
    let shape = game.shape();
    let them = Connect4::opponent(me);
    let (own, theirs) = (game.stones(me), game.stones(them));
    let lines = window_score(&shape, own, theirs) - window_score(&shape, theirs, own);
    let threats = threat_score(game, &shape, me) - threat_score(game, &shape, them);
    let mover = game.side_to_move();
    let playable = game.playable();
    let now = if game.winning_cells(mover) & playable != 0 {
        PLAYABLE_WIN
    } else {
        0
    };
    lines + threats + if mover == me { now } else { -now }
}

/// The columns of the cells of `cells` (each column once), left to right.
fn columns_of(shape: &Shape<u128>, cells: u128) -> impl Iterator<Item = Column> + '_ {
    (0..shape.cols)
        .filter_map(move |col| (cells & shape.column(col) != 0).then_some(Column(col as u8)))
}

/// The cell a stone dropped into `col` lands on (the column is not full).
#[inline]
fn landing(game: &Connect4, shape: &Shape<u128>, col: Column) -> u128 {
    game.playable() & shape.column(u32::from(col.0))
}

/// The position mirrored left to right, as the first player's stones and all stones.
fn mirrored(game: &Connect4, shape: &Shape<u128>) -> (u128, u128) {
    let column = (1u128 << shape.height) - 1;
    let (mut first, mut all) = (0u128, 0u128);
    for col in 0..shape.cols {
        let from = col * shape.height;
        let to = (shape.cols - 1 - col) * shape.height;
        first |= (game.stones(Player::First) >> from & column) << to;
        all |= (game.occupied() >> from & column) << to;
    }
    (first, all)
}

/// A hash of a position given by the first player's stones and all stones (Pons's unique key,
/// mixed), the same for a position and its mirror image when their stones are mirrored.
fn key_of(shape: &Shape<u128>, first: u128, all: u128) -> u64 {
    let key = first | (all + shape.bottom);
    rules::splitmix64(key as u64 ^ rules::splitmix64((key >> 64) as u64 ^ 0x5e77))
}

impl AgentGame for Connect4 {
    const DEFENCE: &'static str = "block";

    type Aux = ();

    fn illegal_move(&self) -> Column {
        // One column past the right edge.
        Column(self.config().cols())
    }

    #[inline]
    fn move_index(mv: Column) -> usize {
        usize::from(mv.0)
    }

    fn aux(&self) {}

    fn aux_after(&self, _aux: &(), _mv: Column, _child: &Connect4) {}

    fn evaluate(&self, _aux: &()) -> i32 {
        evaluation(self, self.side_to_move())
    }

    /// A win now; else the opponent's wins at once that can be played: one is the only block,
    /// two or more lose; else a draw when neither player has a line left to fill.
    fn tactic(&self, _aux: &()) -> Tactic<Column> {
        let shape = self.shape();
        let me = self.side_to_move();
        let playable = self.playable();
        let mine = self.winning_cells(me) & playable;
        if mine != 0 {
            return Tactic::WinNow(columns_of(&shape, mine).next().expect("a column"));
        }
        let theirs = self.winning_cells(Connect4::opponent(me)) & playable;
        if theirs != 0 {
            let mut columns = columns_of(&shape, theirs);
            let first = columns.next().expect("a column");
            return if columns.next().is_none() {
                Tactic::MustBlock(first)
            } else {
                Tactic::Lost(first)
            };
        }
        if !self.can_win(&(), me) && !self.can_win(&(), Connect4::opponent(me)) {
            return Tactic::Drawn;
        }
        Tactic::Open
    }

    /// Wins first, moves under the opponent's winning cell (which hand them the win) last,
    /// and between them by the threats the move makes, then towards the centre.
    fn order_hint(&self, _aux: &(), col: Column) -> i32 {
        let shape = self.shape();
        let me = self.side_to_move();
        let stone = landing(self, &shape, col);
        if self.winning_cells(me) & stone != 0 {
            return 1 << 20;
        }
        if self.winning_cells(Connect4::opponent(me)) & (stone << 1) != 0 {
            return -(1 << 20);
        }
        let own = self.stones(me) | stone;
        let threats = shape
            .winning_cells(own, self.occupied() | stone)
            .count_ones() as i32;
        let centre = shape.cols as i32 - (2 * i32::from(col.0) - (shape.cols as i32 - 1)).abs();
        threats * 64 + centre
    }

    /// Whether `player` still has a line of k cells free of the opponent's stones.
    fn can_win(&self, _aux: &(), player: Player) -> bool {
        let shape = self.shape();
        shape.has_line(shape.board & !self.stones(Connect4::opponent(player)))
    }

    /// A move under the opponent's winning cell that does not win at once loses at once: it
    /// is never better than any other move.
    fn solver_hint(&self, aux: &(), col: Column) -> Option<i32> {
        let shape = self.shape();
        let me = self.side_to_move();
        let stone = landing(self, &shape, col);
        let hands_over = self.winning_cells(Connect4::opponent(me)) & (stone << 1) != 0
            && self.winning_cells(me) & stone == 0;
        (!hands_over).then(|| self.order_hint(aux, col))
    }

    /// The board's mirror image shares its entry: the key of the smaller of the two, and
    /// symmetry 1 when that is the mirror.
    fn solver_key(&self) -> (u64, u8) {
        let shape = self.shape();
        let own = key_of(&shape, self.stones(Player::First), self.occupied());
        let (first, all) = mirrored(self, &shape);
        let mirror = key_of(&shape, first, all);
        if mirror < own { (mirror, 1) } else { (own, 0) }
    }

    fn map_move_index(&self, index: usize, symmetry: u8, _inverse: bool) -> usize {
        if symmetry == 1 {
            usize::from(self.config().cols()) - 1 - index
        } else {
            index
        }
    }

    fn immediate_wins(&self, out: &mut MoveList<Column>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let shape = self.shape();
        let wins = self.winning_cells(self.side_to_move()) & self.playable();
        out.extend(columns_of(&shape, wins));
    }

    fn remaining_plies(&self) -> Option<u32> {
        Some(u32::from(self.config().cells()) - self.ply())
    }

    /// Flat Monte Carlo with a few playouts a move: it takes a win and mostly sees a block,
    /// and loses to any plan.
    fn easy_spec(&self) -> &'static str {
        "mc-flat:rollouts=20"
    }

    /// Alpha-beta with the threat evaluation: about 14 plies deep on 6x7 in about a second.
    fn hard_spec(&self) -> &'static str {
        "alphabeta:nodes=1000000"
    }

    const OWN_SOLVER: Option<&'static str> = Some(
        "the Connect Four solver (bitboards, null-window alpha-beta, a shared two-slot table \
         with mirror symmetry, the moves on every core)",
    );

    fn own_solver(
        &self,
        limits: &crate::solve::Limits,
    ) -> Option<Result<crate::solve::Solution<Column>, crate::memory::OutOfMemory>> {
        Some(solve::try_solve(self, limits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> Connect4 {
        rules::Connect4Config::default()
            .start()
            .play_line(moves)
            .unwrap()
    }

    /// The bit-sliced window count against counting each window cell by cell.
    #[test]
    fn window_scores_count_every_window() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for (rows, cols, k) in [(6, 7, 4), (4, 4, 3), (7, 8, 5), (10, 10, 9), (1, 9, 2)] {
            let config = rules::Connect4Config::new(rows, cols, k).unwrap();
            let shape = config.start().shape();
            for _ in 0..50 {
                let (mut own, mut theirs) = (0u128, 0u128);
                for bit in 0..shape.height * shape.cols {
                    if shape.board >> bit & 1 == 1 {
                        match rng.random_range(0..4) {
                            0 => own |= 1 << bit,
                            1 => theirs |= 1 << bit,
                            _ => {}
                        }
                    }
                }
                let mut expected = 0;
                for start in 0..shape.height * shape.cols {
                    for step in steps(shape.height) {
                        let cells: Vec<u32> = (0..shape.k).map(|i| start + i * step).collect();
                        if cells.iter().any(|&c| c >= 128 || shape.board >> c & 1 == 0) {
                            continue;
                        }
                        if cells.iter().any(|&c| theirs >> c & 1 == 1) {
                            continue;
                        }
                        let count = cells.iter().filter(|&&c| own >> c & 1 == 1).count() as u32;
                        if count > 0 {
                            expected += window_weight(count, shape.k);
                        }
                    }
                }
                assert_eq!(window_score(&shape, own, theirs), expected, "{config}");
            }
        }
    }

    #[test]
    fn a_win_now_comes_before_a_block() {
        // X: a1 b1 c1; O: a2 b2 c2; X to move wins at d.
        let position = game("a a b b c c");
        assert_eq!(position.tactic(&()), Tactic::WinNow(Column(3)));
    }

    #[test]
    fn the_only_block_is_forced_and_two_threats_lose() {
        // X threatens d1 after a b c on the bottom row; O to move must block at d.
        let position = game("a g b g c");
        assert_eq!(position.tactic(&()), Tactic::MustBlock(Column(3)));
        // X on b1 c1 d1 with a1 and e1 open: two threats, O is lost.
        let position = game("b g c g d");
        assert!(matches!(position.tactic(&()), Tactic::Lost(_)));
    }

    #[test]
    fn a_move_under_the_opponents_winning_cell_is_dominated() {
        // X holds c1 and a2 b2 c2 (on O's a1 b1), so d2 is X's winning cell while d1 is
        // empty: O's stone in column d would land on d1 and let X win on d2.
        let position = game("c a a b b g c");
        assert_eq!(position.side_to_move(), Player::Second);
        assert_eq!(position.tactic(&()), Tactic::Open);
        assert_eq!(position.solver_hint(&(), Column(3)), None);
        assert!(position.order_hint(&(), Column(3)) < position.order_hint(&(), Column(6)));
        assert!(position.solver_hint(&(), Column(4)).is_some());
    }

    #[test]
    fn mirror_images_share_the_solver_key() {
        let left = game("a b c");
        let right = game("g f e");
        let (key, symmetry) = left.solver_key();
        let (mirror_key, mirror_symmetry) = right.solver_key();
        assert_eq!(key, mirror_key);
        assert_ne!(symmetry, mirror_symmetry);
        assert_eq!(left.map_move_index(0, 1, false), 6);
    }

    #[test]
    fn no_open_line_is_a_draw() {
        // One row of three, three in a row: after a stone of each nobody can fill a line.
        let config = rules::Connect4Config::new(1, 3, 3).unwrap();
        let position = config.start().play_line("a b").unwrap();
        assert_eq!(position.tactic(&()), Tactic::Drawn);
    }
}
