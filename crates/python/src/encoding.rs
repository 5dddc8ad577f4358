//! What the Python package adds to a game: moves as small integers (actions), and the position
//! as NumPy-ready numbers (observations). No rules here: everything is read off the `rules`
//! crate's positions.
//!
//! **Actions.**
//! - m,n,k: `row * cols + col` (0-based, row-major, `a1` is 0), as OpenSpiel numbers the cells
//!   of its m,n,k games; `rows * cols` actions.
//! - O An Quan: from the view of the player to move, `2 * k + d`, where `k` (0 to 4) is the
//!   rank of the square among that player's five in label order (player 1: 1-5; player 2 of
//!   two: 6-10; seat `s` of three or four: `5s+1` to `5s+5`) and `d` is 0 for `P` and 1 for `T`;
//!   10 actions whatever the number of players. Player 1's `3P` is 4, player 2's `8P` too.
//!
//! **Observations** (`float32`), from the view of one seat (by default the player to move):
//! - m,n,k: planes of shape `(3, rows, cols)`: the seat's stones, the other player's stones,
//!   and a plane of ones when the seat is the first player (X), zeros otherwise (from the
//!   mover's view: the colour to move).
//! - O An Quan: shape `(players, 8)`, one row per seat from the viewer round the table in turn
//!   order; a row holds that seat's five squares, the mandarin cell after them, whether the
//!   mandarin cell still holds its piece (0 or 1), and the seat's captures. Squares are listed
//!   in the order the viewer's `P` sows (so the viewer's row starts with its first square), and
//!   the ring continues from row to row in that direction.

use numpy::ndarray::{Array1, Array2, Array3, ArrayD};
use rules::oanquan::Direction;
use rules::{Game, Mnk, MoveList, OanQuan, Player, Sow};

/// A position of any game of the arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// An m,n,k game.
    Mnk(Mnk),
    /// O An Quan (2 to 4 players).
    OanQuan(OanQuan),
}

/// Runs `$body` with `$g` bound to the typed position inside a [`Position`].
macro_rules! with_game {
    ($position:expr, $g:ident => $body:expr) => {
        match $position {
            $crate::encoding::Position::Mnk($g) => $body,
            $crate::encoding::Position::OanQuan($g) => $body,
        }
    };
}
pub(crate) use with_game;

/// The action encoding and the observation of one game (see the module documentation).
pub trait Encoded: protocol::OutsideGame {
    /// The number of distinct actions of the variant.
    fn num_actions(&self) -> usize;
    /// The action of a move of the player to move, `None` for a move that is not theirs.
    fn action(&self, mv: Self::Move) -> Option<u32>;
    /// The move an action names here (legal or not), `None` when it is out of range.
    fn move_of(&self, action: u32) -> Option<Self::Move>;
    /// The shape of [`Encoded::observation`].
    fn observation_shape(&self) -> Vec<usize>;
    /// The position as numbers, from the view of `viewer`.
    fn observation(&self, viewer: Player) -> ArrayD<f32>;
    /// The position inside a [`Position`].
    fn wrap(self) -> Position;
}

impl Encoded for Mnk {
    fn num_actions(&self) -> usize {
        usize::from(self.config().cells())
    }

    #[inline]
    fn action(&self, cell: rules::Cell) -> Option<u32> {
        let config = self.config();
        let (row, col) = config.row_col(cell);
        (row < config.rows() && col < config.cols())
            .then(|| u32::from(row) * u32::from(config.cols()) + u32::from(col))
    }

    #[inline]
    fn move_of(&self, action: u32) -> Option<rules::Cell> {
        let config = self.config();
        let cols = u32::from(config.cols());
        if action >= u32::from(config.cells()) {
            return None;
        }
        config.cell((action / cols) as u8, (action % cols) as u8)
    }

    fn observation_shape(&self) -> Vec<usize> {
        let config = self.config();
        vec![3, usize::from(config.rows()), usize::from(config.cols())]
    }

    fn observation(&self, viewer: Player) -> ArrayD<f32> {
        let config = self.config();
        let (rows, cols) = (config.rows(), config.cols());
        let me = viewer;
        let mut planes = Array3::<f32>::zeros((3, usize::from(rows), usize::from(cols)));
        for row in 0..rows {
            for col in 0..cols {
                let plane = match self.stone_at(row, col) {
                    Some(owner) if owner == me => 0,
                    Some(_) => 1,
                    None => continue,
                };
                planes[[plane, usize::from(row), usize::from(col)]] = 1.0;
            }
        }
        if me == Player::First {
            planes.index_axis_mut(numpy::ndarray::Axis(0), 2).fill(1.0);
        }
        planes.into_dyn()
    }

    fn wrap(self) -> Position {
        Position::Mnk(self)
    }
}

/// The ring indices of the squares of the player to move, in label order.
#[inline]
fn own_squares(game: &OanQuan) -> [usize; 5] {
    game.squares(game.side_to_move())
}

impl Encoded for OanQuan {
    fn num_actions(&self) -> usize {
        10
    }

    #[inline]
    fn action(&self, sow: Sow) -> Option<u32> {
        let rank = own_squares(self)
            .iter()
            .position(|&square| square == usize::from(sow.square))?;
        let direction = match sow.direction {
            Direction::Right => 0,
            Direction::Left => 1,
        };
        Some(2 * rank as u32 + direction)
    }

    #[inline]
    fn move_of(&self, action: u32) -> Option<Sow> {
        if action >= 10 {
            return None;
        }
        let square = own_squares(self)[(action / 2) as usize];
        let direction = if action.is_multiple_of(2) {
            Direction::Right
        } else {
            Direction::Left
        };
        Some(Sow::new(square as u8, direction))
    }

    fn observation_shape(&self) -> Vec<usize> {
        vec![self.num_players(), 8]
    }

    fn observation(&self, viewer: Player) -> ArrayD<f32> {
        let players = self.num_players();
        let cells = self.cells();
        let first = self.squares(viewer)[0];
        // The viewer's `P` runs towards decreasing ring index only for player 2 of two.
        let backwards = players == 2 && viewer == Player::Second;
        let mut rows = Array2::<f32>::zeros((players, 8));
        for row in 0..players {
            for column in 0..6 {
                let step = 6 * row + column;
                let index = if backwards {
                    (first + cells - step % cells) % cells
                } else {
                    (first + step) % cells
                };
                rows[[row, column]] = f32::from(self.seeds(index));
                if column == 5 {
                    rows[[row, 6]] = if self.has_piece(index) { 1.0 } else { 0.0 };
                }
            }
            let seat = Player::seat((viewer.index() + row) % players);
            rows[[row, 7]] = self.captures(seat) as f32;
        }
        rows.into_dyn()
    }

    fn wrap(self) -> Position {
        Position::OanQuan(self)
    }
}

/// The legal-move mask of `game`: one flag per action.
pub fn legal_mask<G: Encoded>(game: &G) -> Array1<bool> {
    let mut mask = Array1::from_elem(game.num_actions(), false);
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    for &mv in &moves {
        if let Some(action) = game.action(mv) {
            mask[action as usize] = true;
        }
    }
    mask
}
