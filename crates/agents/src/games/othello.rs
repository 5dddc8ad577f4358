//! What the agents know of Othello: an evaluation of its own (mobility, corners, and the disc
//! difference, which counts more as the board fills), a move order by a table of cell worths
//! (corners first, the cells next to an empty corner last), and the bound on the plies left.
//! Positions are two bitboards and the moves of both sides come from a few shifts, so nothing
//! is kept incrementally.
//!
//! The ideas are the textbook ones for Othello programs (mobility and corners early, discs
//! only late; e.g. Rosenbloom's IAGO and the many programs after it); the weights are ours.

use rules::othello::{Disc, Othello};
use rules::{Game, Player, TwoPlayer};

use crate::AgentGame;

/// The four corners.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The worth of each cell for move ordering, row by row from a1: corners best, the cells
/// beside and diagonal to a corner worst (they hand the corner over), edges good.
#[rustfmt::skip]
const CELL_WORTH: [i8; 64] = [
    100, -20, 10,  5,  5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
     10,  -2,  1,  1,  1,  1,  -2,  10,
      5,  -2,  1,  0,  0,  1,  -2,   5,
      5,  -2,  1,  0,  0,  1,  -2,   5,
     10,  -2,  1,  1,  1,  1,  -2,  10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10,  5,  5, 10, -20, 100,
];

/// The weight of a corner held (against 1 for a disc early on).
const CORNER: i32 = 60;
/// The weight of a move more than the opponent.
const MOBILITY: i32 = 8;

/// The evaluation of `game` from `me`'s view: mobility (the moves each side has), corners
/// (which can never be turned), and the disc difference weighted by how full the board is,
/// from 1 at the start to 9 when it is full (early discs are a liability more than an asset;
/// at the end they are the result).
#[inline]
fn evaluation(game: &Othello, me: Player) -> i32 {
    let them = Othello::opponent(me);
    let (own, theirs) = (game.discs(me), game.discs(them));
    let mobility = game.moves(me).count_ones() as i32 - game.moves(them).count_ones() as i32;
    let corners = (own & CORNERS).count_ones() as i32 - (theirs & CORNERS).count_ones() as i32;
    let filled = (own | theirs).count_ones() as i32;
    let discs = own.count_ones() as i32 - theirs.count_ones() as i32;
    MOBILITY * mobility + CORNER * corners + discs * (1 + filled / 8)
}

impl AgentGame for Othello {
    type Aux = ();

    /// A cell that holds a disc (the board never is empty).
    fn illegal_move(&self) -> Disc {
        let taken = self.discs(Player::First) | self.discs(Player::Second);
        Disc(taken.trailing_zeros() as u8)
    }

    #[inline]
    fn move_index(mv: Disc) -> usize {
        usize::from(mv.0)
    }

    fn aux(&self) {}

    fn aux_after(&self, _aux: &(), _mv: Disc, _child: &Othello) {}

    #[inline]
    fn evaluate(&self, _aux: &()) -> i32 {
        evaluation(self, self.side_to_move())
    }

    /// By [`CELL_WORTH`]; the pass, the only move where it is legal, anything.
    #[inline]
    fn order_hint(&self, _aux: &(), mv: Disc) -> i32 {
        CELL_WORTH
            .get(usize::from(mv.0))
            .map_or(0, |&worth| i32::from(worth))
    }

    /// Two plies a empty cell: a disc, and at most one pass before it.
    fn remaining_plies(&self) -> Option<u32> {
        let taken = self.discs(Player::First) | self.discs(Player::Second);
        Some(2 * (64 - taken.count_ones()))
    }

    fn hard_spec(&self) -> &'static str {
        "alphabeta:nodes=200000"
    }
}
