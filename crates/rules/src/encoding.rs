//! A position as numbers (an observation), drawn from the game's own [`View`]: the one
//! encoding the Python package's `Game.observation()` and the position export (`arena
//! positions`) share. No rules and no per-game code here: only the view's layout.
//!
//! **Observations**, from the view of one seat (the Python package's default: the player to
//! move), row-major in the shape [`observation_shape`] gives:
//! - a grid (m,n,k games, Connect Four, Othello, Breakthrough): planes of shape
//!   `(3, rows, cols)`: the seat's stones (or pieces), the other players' stones (or pieces),
//!   and a plane of ones when the seat is the first player (X), zeros otherwise (from the
//!   mover's view: the colour to move). A piece's kind is not encoded: every game here with
//!   pieces that move has one kind (Breakthrough's pawn).
//! - a ring (O An Quan, Oware): shape `(players, per_side [+ 1] [+ 1])`, one row per seat from
//!   the viewer round the table in turn order; a row holds that seat's places (O An Quan: its
//!   five squares and the mandarin cell after them), then where sides end in a big cell whether
//!   it still holds its piece (0 or 1), then where the game keeps points the seat's points.
//!   Places are listed in the order the viewer's moves run round the ring (O An Quan's `P`),
//!   from the viewer's first square, and the ring continues from row to row in that direction.

use crate::{Layout, Place, Player, View};

/// The shape of [`observe`]'s numbers for positions like `view`.
pub fn observation_shape(view: &View) -> Vec<usize> {
    match &view.layout {
        Layout::Grid { rows, cols, .. } => vec![3, usize::from(*rows), usize::from(*cols)],
        Layout::Ring {
            per_side, big_last, ..
        } => vec![
            view.players,
            usize::from(*per_side) + usize::from(*big_last) + usize::from(view.scores.is_some()),
        ],
    }
}

/// The least and greatest value of each entry of [`observe`] for positions like `view`,
/// row-major: a grid's planes hold 0 or 1; a ring's places hold 0 to 255 seeds, a big cell's
/// piece flag 0 or 1, and points any value (O An Quan's borrowing makes them negative).
pub fn observation_bounds(view: &View) -> (Vec<f32>, Vec<f32>) {
    let shape = observation_shape(view);
    let size = shape.iter().product();
    match &view.layout {
        Layout::Grid { .. } => (vec![0.0; size], vec![1.0; size]),
        Layout::Ring {
            per_side, big_last, ..
        } => {
            let (mut low, mut high) = (vec![0.0; size], vec![255.0; size]);
            let (per_side, width) = (usize::from(*per_side), shape[1]);
            for row in 0..shape[0] {
                if *big_last {
                    high[row * width + per_side] = 1.0;
                }
                if view.scores.is_some() {
                    low[row * width + width - 1] = f32::NEG_INFINITY;
                    high[row * width + width - 1] = f32::INFINITY;
                }
            }
            (low, high)
        }
    }
}

/// Replaces `out` with the position of `view` as numbers, from the view of `viewer`, row-major
/// in the shape [`observation_shape`] gives.
pub fn observe(view: &View, viewer: Player, out: &mut Vec<f32>) {
    let shape = observation_shape(view);
    out.clear();
    out.resize(shape.iter().product(), 0.0);
    match &view.layout {
        Layout::Grid { rows, cols, .. } => {
            let plane = usize::from(*rows) * usize::from(*cols);
            for index in 0..view.places.len() {
                match view.owner(index) {
                    Some(owner) if owner == viewer => out[index] = 1.0,
                    Some(_) => out[plane + index] = 1.0,
                    None => {}
                }
            }
            if viewer == Player::First {
                out[2 * plane..].fill(1.0);
            }
        }
        Layout::Ring {
            per_side,
            big_last,
            forward,
        } => {
            let players = view.players;
            let per_side = usize::from(*per_side);
            let cells = view.places.len();
            let forward = forward[viewer.index()];
            // The viewer's first square: the start of its side, or its end (before a big cell)
            // when its moves run the other way round.
            let side = viewer.index() * per_side;
            let first = if forward {
                side
            } else {
                side + per_side - 1 - usize::from(*big_last)
            };
            let width = shape[1];
            for row in 0..players {
                for column in 0..per_side {
                    let step = (per_side * row + column) % cells;
                    let index = if forward {
                        (first + step) % cells
                    } else {
                        (first + cells - step) % cells
                    };
                    let (seeds, piece) = match &view.places[index] {
                        Place::Pit { seeds, piece, .. } => (*seeds, *piece),
                        _ => (0, false),
                    };
                    out[row * width + column] = f32::from(seeds);
                    if *big_last && column == per_side - 1 {
                        out[row * width + per_side] = if piece { 1.0 } else { 0.0 };
                    }
                }
                if let Some(scores) = &view.scores {
                    let seat = (viewer.index() + row) % players;
                    out[row * width + width - 1] = scores[seat] as f32;
                }
            }
        }
    }
}
