//! Perft: counting move sequences, the standard check of a move generator.

use crate::{Game, MoveList};

/// The number of move sequences of exactly `depth` plies from `position` with no earlier end
/// (a sequence that ends the game on its last ply counts; one that ends it sooner does not).
pub fn perft<G: Game>(position: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut child = position.clone();
    moves
        .iter()
        .map(|&mv| {
            child.clone_from(position);
            child.play_unchecked(mv);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft split by first move: each legal move with the count below it.
pub fn perft_divide<G: Game>(position: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| (mv, perft(&position.child(mv), depth.saturating_sub(1))))
        .collect()
}
