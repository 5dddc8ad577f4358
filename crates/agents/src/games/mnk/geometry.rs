//! The shape of an m,n,k board in the padded index space ([`Geometry`]: steps along the four
//! lines, on-board tests), and the cells where a player wins at once ([`threats_of`]): what
//! the window evaluation, `easy` and `neighbor` walk the board with.

use rules::mnk::CellSet;
use rules::{Cell, Mnk, Player};

/// The shape of a board in the padded index space.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    pub(super) stride: usize,
    pub(super) limit: usize,
    pub(super) k: usize,
    /// Every cell of the board: a bit test instead of a division to spot the sentinel column.
    pub(super) board: CellSet,
}

impl Geometry {
    #[inline]
    pub(crate) fn of(game: &Mnk) -> Geometry {
        let config = game.config();
        let stride = usize::from(config.stride());
        Geometry {
            stride,
            limit: usize::from(config.rows()) * stride,
            k: usize::from(config.k()),
            board: game
                .stones(Player::First)
                .or(game.stones(Player::Second))
                .or(game.empty_cells()),
        }
    }

    /// The four line directions as index steps: along a row, down a column, the two diagonals.
    #[inline]
    pub(crate) fn steps(&self) -> [usize; 4] {
        [1, self.stride, self.stride + 1, self.stride - 1]
    }

    #[inline]
    pub(crate) fn on_board(&self, index: usize) -> bool {
        index < self.limit && has(&self.board, index)
    }

    /// The cell `step` after `index`, if it is on the board.
    #[inline]
    pub(crate) fn forward(&self, index: usize, step: usize) -> Option<usize> {
        let next = index + step;
        self.on_board(next).then_some(next)
    }

    /// The cell `step` before `index`, if it is on the board.
    #[inline]
    pub(crate) fn backward(&self, index: usize, step: usize) -> Option<usize> {
        let previous = index.checked_sub(step)?;
        self.on_board(previous).then_some(previous)
    }

    /// The cells next to `cell` (8-neighbourhood) that are in `set`.
    #[inline]
    pub(crate) fn neighbours_in(&self, cell: Cell, set: &CellSet) -> CellSet {
        let mut out = CellSet::EMPTY;
        let index = cell.index();
        for step in self.steps() {
            for next in [self.forward(index, step), self.backward(index, step)]
                .into_iter()
                .flatten()
            {
                let next = Cell(next as u16);
                if set.contains(next) {
                    out.insert(next);
                }
            }
        }
        out
    }
}

#[inline]
pub(super) fn has(set: &CellSet, index: usize) -> bool {
    set.contains(Cell(index as u16))
}

/// The cells where `player` wins at once, from scratch.
pub(crate) fn threats_of(game: &Mnk, player: Player) -> CellSet {
    let geometry = Geometry::of(game);
    // A winning line through a cell holds another stone of the player next to it (k > 1).
    let candidates = if geometry.k == 1 {
        *game.empty_cells()
    } else {
        game.stones(player)
            .dilated(game.config().stride())
            .and(game.empty_cells())
    };
    let mut threats = CellSet::EMPTY;
    for cell in candidates.iter() {
        if game.wins_at(cell, player) {
            threats.insert(cell);
        }
    }
    threats
}
