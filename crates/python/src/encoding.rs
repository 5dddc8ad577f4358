//! The position as NumPy-ready numbers (observations), drawn from the game's own
//! [`View`](rules::View); moves as small integers are the game's own actions
//! ([`rules::Game::action`]). No rules and no per-game code here.
//!
//! **Observations** (`float32`), from the view of one seat (by default the player to move):
//! - a grid (m,n,k games): planes of shape `(3, rows, cols)`: the seat's stones, the other
//!   players' stones, and a plane of ones when the seat is the first player (X), zeros
//!   otherwise (from the mover's view: the colour to move).
//! - a ring (O An Quan): shape `(players, per_side [+ 1] [+ 1])`, one row per seat from the
//!   viewer round the table in turn order; a row holds that seat's places (O An Quan: its five
//!   squares and the mandarin cell after them), then where sides end in a big cell whether it
//!   still holds its piece (0 or 1), then where the game keeps points the seat's points.
//!   Places are listed in the order the viewer's moves run round the ring (O An Quan's `P`),
//!   from the viewer's first square, and the ring continues from row to row in that direction.

use numpy::ndarray::{Array1, Array2, Array3, ArrayD};
use rules::{Game, Layout, MoveList, Place, Player, View};

/// The shape of [`observation`] for positions like `view`.
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

/// The least and greatest values of each entry of [`observation`] for positions like `view`,
/// as an observation space states them: a grid's planes hold 0 or 1; a ring's places hold 0 to
/// 255 seeds, a big cell's piece flag 0 or 1, and points any value (O An Quan's borrowing
/// makes them negative).
pub fn observation_bounds(view: &View) -> (ArrayD<f32>, ArrayD<f32>) {
    let shape = observation_shape(view);
    match &view.layout {
        Layout::Grid { .. } => (ArrayD::zeros(shape.clone()), ArrayD::ones(shape)),
        Layout::Ring {
            per_side, big_last, ..
        } => {
            let mut low = Array2::<f32>::zeros((shape[0], shape[1]));
            let mut high = Array2::<f32>::from_elem((shape[0], shape[1]), 255.0);
            let per_side = usize::from(*per_side);
            if *big_last {
                high.column_mut(per_side).fill(1.0);
            }
            if view.scores.is_some() {
                low.column_mut(shape[1] - 1).fill(f32::NEG_INFINITY);
                high.column_mut(shape[1] - 1).fill(f32::INFINITY);
            }
            (low.into_dyn(), high.into_dyn())
        }
    }
}

/// The position of `view` as numbers, from the view of `viewer`.
pub fn observation(view: &View, viewer: Player) -> ArrayD<f32> {
    match &view.layout {
        Layout::Grid { rows, cols, .. } => {
            let (rows, cols) = (usize::from(*rows), usize::from(*cols));
            let mut planes = Array3::<f32>::zeros((3, rows, cols));
            for (index, place) in view.places.iter().enumerate() {
                let plane = match place {
                    Place::Stone(owner) if *owner == viewer => 0,
                    Place::Stone(_) => 1,
                    _ => continue,
                };
                planes[[plane, index / cols, index % cols]] = 1.0;
            }
            if viewer == Player::First {
                planes.index_axis_mut(numpy::ndarray::Axis(0), 2).fill(1.0);
            }
            planes.into_dyn()
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
            let shape = observation_shape(view);
            let mut rows = Array2::<f32>::zeros((shape[0], shape[1]));
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
                    rows[[row, column]] = f32::from(seeds);
                    if *big_last && column == per_side - 1 {
                        rows[[row, per_side]] = if piece { 1.0 } else { 0.0 };
                    }
                }
                if let Some(scores) = &view.scores {
                    let seat = (viewer.index() + row) % players;
                    rows[[row, shape[1] - 1]] = scores[seat] as f32;
                }
            }
            rows.into_dyn()
        }
    }
}

/// The legal-move mask of `game`: one flag per action.
pub fn legal_mask<G: Game>(game: &G) -> Array1<bool> {
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
