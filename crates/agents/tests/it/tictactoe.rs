//! Perfect play in tic-tac-toe: `minimax` and `alphabeta` never lose, against every possible
//! line of the opponent (every reply at every node is enumerated), moving first or second.

use crate::common;

use agents::{AgentSpec, Context, build};
use common::{mnk, rng};
use rules::{Game, Mnk, MoveList, Outcome, Player, TwoPlayer};

/// Walks every game where `spec` plays `me` and the opponent tries every legal move; returns
/// the number of finished games, panicking at the first loss.
fn never_loses(spec: &str, position: &Mnk, me: Player) -> u64 {
    if let Some(outcome) = position.outcome() {
        assert_ne!(
            outcome,
            Outcome::Win(Mnk::opponent(me)),
            "{spec} lost as {me}:\n{position}"
        );
        return 1;
    }
    if position.side_to_move() == me {
        let spec: AgentSpec = spec.parse().unwrap();
        let mut agent = build::<Mnk>(&spec).unwrap();
        let mut rng = rng(position.hash_key(), 0);
        let choice = agent.choose(position, &mut Context::new(&mut rng)).unwrap();
        let next = position.play(choice.mv).expect("a legal move");
        never_loses(&spec.to_string(), &next, me)
    } else {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&mv| never_loses(spec, &position.child(mv), me))
            .sum()
    }
}

#[test]
fn minimax_never_loses_tic_tac_toe() {
    for me in [Player::First, Player::Second] {
        let games = never_loses("minimax", &mnk("tictactoe"), me);
        assert!(games > 50, "{games}");
    }
}

#[test]
fn alphabeta_never_loses_tic_tac_toe() {
    for spec in ["alphabeta", "alphabeta:depth=9", "alphabeta:time_ms=10000"] {
        for me in [Player::First, Player::Second] {
            let games = never_loses(spec, &mnk("tictactoe"), me);
            assert!(games > 50, "{games}");
        }
    }
}

#[test]
fn minimax_and_alphabeta_draw_each_other() {
    for (first, second) in [("minimax", "alphabeta"), ("alphabeta", "minimax")] {
        let outcome = common::play(&mnk("tictactoe"), first, second, 1, 9);
        assert_eq!(outcome, Outcome::Draw);
    }
}
