//! The position as NumPy-ready numbers (observations): [`rules::encoding`]'s, the one
//! encoding the position export (`arena positions`) shares, as arrays. Moves as small
//! integers are the game's own actions ([`rules::Game::action`]). No rules and no per-game
//! code here.

use numpy::ndarray::{Array1, ArrayD, IxDyn};
use rules::{Game, MoveList, Player, View, encoding};

/// The shape of [`observation`] for positions like `view`.
pub fn observation_shape(view: &View) -> Vec<usize> {
    encoding::observation_shape(view)
}

/// The least and greatest values of each entry of [`observation`] for positions like `view`
/// ([`encoding::observation_bounds`]).
pub fn observation_bounds(view: &View) -> (ArrayD<f32>, ArrayD<f32>) {
    let shape = IxDyn(&encoding::observation_shape(view));
    let (low, high) = encoding::observation_bounds(view);
    let array = |values| ArrayD::from_shape_vec(shape.clone(), values).expect("the view's shape");
    (array(low), array(high))
}

/// The position of `view` as numbers, from the view of `viewer`.
pub fn observation(view: &View, viewer: Player) -> ArrayD<f32> {
    let mut values = Vec::new();
    encoding::observe(view, viewer, &mut values);
    ArrayD::from_shape_vec(IxDyn(&encoding::observation_shape(view)), values)
        .expect("observe fills the view's shape")
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
