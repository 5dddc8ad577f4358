//! Search scores: one `i32` scale shared by `minimax`, `alphabeta` and the solver.
//!
//! A finished game scores `±(MATE - ply)` from the side to move's view, where `ply` counts the
//! moves from the root of the search: a win sooner scores higher, a loss later scores higher
//! (less negative), a draw 0. Evaluations of unfinished positions stay strictly inside
//! `±EVAL_LIMIT`, far below any win or loss, so a forced result always outweighs a position.

use rules::{Outcome, Player};

/// The score of a win at the root itself; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 1_000_000_000;

/// Scores with an absolute value of at least this are wins or losses (forced results).
pub const MATE_BOUND: i32 = MATE - 100_000;

/// Every static evaluation lies strictly between `-EVAL_LIMIT` and `EVAL_LIMIT`.
pub const EVAL_LIMIT: i32 = 500_000_000;

/// A score above every real score, for search windows.
pub const INFINITY: i32 = MATE + 1;

/// The score of a finished game at `ply` plies from the root, from the view of `to_move`.
#[inline]
pub fn terminal(outcome: Outcome, to_move: Player, ply: u32) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(winner) if winner == to_move => MATE - ply as i32,
        Outcome::Win(_) => -(MATE - ply as i32),
        Outcome::Ranked(_) => unreachable!("mate scores are for two-player games"),
    }
}

/// Whether `score` is a forced win or loss.
#[inline]
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// For a forced result, the plies until the game ends (from the node the score belongs to).
#[inline]
pub fn mate_distance(score: i32) -> Option<u32> {
    is_mate(score).then(|| (MATE - score.abs()) as u32)
}

/// Converts a score relative to the root into one relative to a node `ply` plies deep, for
/// storing: mate distances are counted from the node so the entry is valid wherever the node
/// is reached.
#[inline]
pub fn to_node(score: i32, ply: u32) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_node`].
#[inline]
pub fn from_node(score: i32, ply: u32) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score in words for hints and statistics: `forced win in 3 plies`, `forced loss in 2
/// plies`, or `None` for an ordinary evaluation.
pub fn describe(score: i32) -> Option<String> {
    let plies = mate_distance(score)?;
    let what = if score > 0 { "win" } else { "loss" };
    let unit = if plies == 1 { "ply" } else { "plies" };
    Some(format!("forced {what} in {plies} {unit}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_scores_round_trip() {
        for score in [0, 17, -17, MATE - 3, -(MATE - 5)] {
            for ply in [0, 1, 7] {
                assert_eq!(from_node(to_node(score, ply), ply), score);
            }
        }
        // A win in 3 from the root, found at a node 2 plies deep, is a win in 1 from that node.
        assert_eq!(to_node(MATE - 3, 2), MATE - 1);
    }

    #[test]
    fn words() {
        assert_eq!(describe(MATE - 3).as_deref(), Some("forced win in 3 plies"));
        assert_eq!(
            describe(-(MATE - 1)).as_deref(),
            Some("forced loss in 1 ply")
        );
        assert_eq!(describe(120), None);
    }
}
