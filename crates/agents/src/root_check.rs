//! The cheap threat check at the root of `mcts` (and the same rule `alphabeta` applies at its
//! root): whatever the budget, a win at once is taken, and an immediate win of the opponent is
//! stopped when it can be.
//!
//! It asks the game's [`AgentGame::tactic`] (for m,n,k the incrementally kept cells where
//! either player wins at once), so it costs one [`AgentGame::aux`] per move and nothing for
//! games without cheap tactics (O An Quan: [`Tactic::Open`], nothing changes). Under `caro`
//! more than one move can stop a four (a stone at the far end blocks the line at both ends):
//! then the moves that leave the opponent no immediate win are the only root moves.

use rules::MoveList;

use crate::{AgentGame, Tactic};

/// What the root check decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RootForce<M> {
    /// Play this move, for this reason.
    Play(M, &'static str),
    /// Search only these moves (each stops every immediate win of the opponent).
    Restrict(Vec<M>),
    /// Nothing is forced.
    Free,
}

/// The root check of `position` (not over).
pub(crate) fn root_check<G: AgentGame>(position: &G) -> RootForce<G::Move> {
    let aux = position.aux();
    match position.tactic(&aux) {
        Tactic::WinNow(mv) => RootForce::Play(mv, "win now"),
        Tactic::MustBlock(mv) => RootForce::Play(mv, "block: the only move that stops a win"),
        Tactic::Lost(mv) => RootForce::Play(mv, "lost: the opponent wins next move anyway"),
        Tactic::BlockFirst(first) => {
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            let mut wins = MoveList::new();
            let stopping: Vec<G::Move> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    position.child(mv).immediate_wins(&mut wins);
                    wins.is_empty()
                })
                .collect();
            match stopping.len() {
                0 => RootForce::Play(first, "lost: the opponent wins next move anyway"),
                1 => RootForce::Play(stopping[0], "block: the only move that stops a win"),
                _ => RootForce::Restrict(stopping),
            }
        }
        Tactic::Drawn | Tactic::Open => RootForce::Free,
    }
}

#[cfg(test)]
mod tests {
    use rules::{Game, Mnk};

    use super::*;

    fn after(id: &str, moves: &str) -> Mnk {
        id.parse::<rules::Variant>()
            .unwrap()
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start()
            .play_line(moves)
            .unwrap()
    }

    #[test]
    fn wins_blocks_and_caro_alternatives() {
        let game = after("gomoku", "h8 h12 h9 a15 h10 b15 h11");
        let h7 = game.parse_move("h7").unwrap();
        assert_eq!(
            root_check(&game),
            RootForce::Play(h7, "block: the only move that stops a win")
        );
        let open = after("gomoku", "h8 a1 h9 a3 h10 a5 h11 a7");
        assert!(matches!(root_check(&open), RootForce::Play(_, "win now")));
        let blocked = after("gomoku", "h8 h12 h9 a15 h10 b15 h11 h7");
        assert_eq!(root_check(&blocked), RootForce::Free);
        // Caro: X has a1 b1 c1 d1 against the edge (not a block); O may take e1, or nothing
        // else (the edge end cannot be blocked): one move.
        let caro = after("caro", "a1 h8 b1 h9 c1 h10 d1");
        let e1 = caro.parse_move("e1").unwrap();
        assert_eq!(
            root_check(&caro),
            RootForce::Play(e1, "block: the only move that stops a win")
        );
        // Caro with O at a2... X b2 c2 d2 e2 with O at a2: O stops at f2 or at g2.
        let caro = after("caro", "b2 a2 c2 h8 d2 h9 e2");
        let RootForce::Restrict(mut moves) = root_check(&caro) else {
            panic!("two ways to stop the four");
        };
        moves.sort();
        let expected: Vec<_> = ["f2", "g2"]
            .iter()
            .map(|m| caro.parse_move(m).unwrap())
            .collect();
        assert_eq!(moves, expected);
    }
}
