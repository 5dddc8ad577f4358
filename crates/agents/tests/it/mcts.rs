//! `mcts`: never loses tic-tac-toe to `random`, proves what it can, and plays reasonably in
//! O An Quan.

use crate::common;

use common::{choose, mnk, play};
use rayon::prelude::*;
use rules::{Game, Mnk, Outcome, Player, TwoPlayer};

#[test]
fn mcts_never_loses_tic_tac_toe_to_random_in_a_thousand_games() {
    let start = mnk("tictactoe");
    let losses: Vec<u64> = (0..1000u64)
        .into_par_iter()
        .filter(|&game| {
            let (first, second, me) = if game % 2 == 0 {
                ("mcts:iterations=10000", "random", Player::First)
            } else {
                ("random", "mcts:iterations=10000", Player::Second)
            };
            play(&start, first, second, game, 9) == Outcome::Win(Mnk::opponent(me))
        })
        .collect();
    assert!(losses.is_empty(), "mcts lost games {losses:?}");
}

#[test]
fn mcts_takes_a_win_and_blocks_a_loss() {
    // X to move wins at c3 (diagonal); O threatens a1-a3 too. The root check takes it.
    let game = mnk("tictactoe").play_line("a1 b1 b2 c1").unwrap();
    let choice = choose("mcts:iterations=2000", &game, 1);
    assert_eq!(game.format_move(choice.mv), "c3");
    assert_eq!(choice.stats.reason.as_deref(), Some("win now"));
    // O to move must block c3.
    let game = mnk("tictactoe").play_line("a1 b1 b2").unwrap();
    let choice = choose("mcts:iterations=2000", &game, 1);
    assert_eq!(game.format_move(choice.mv), "c3");
    // Nothing forced at the root, a win in three plies (a3 threatens a2 and c1 at once): the
    // MCTS-solver proves it.
    let game = mnk("tictactoe").play_line("b2 c3 a1 b1").unwrap();
    let choice = choose("mcts:iterations=2000", &game, 1);
    assert_eq!(game.format_move(choice.mv), "a3");
    assert_eq!(choice.stats.reason.as_deref(), Some("proven win"));
}

#[test]
fn mcts_proves_the_end_of_small_games() {
    // Tic-tac-toe after two moves is small enough to prove within the budget: the search stops
    // early and says so.
    let game = mnk("tictactoe").play_line("b2 a1").unwrap();
    let choice = choose("mcts:iterations=200000", &game, 3);
    assert!(choice.stats.nodes < 200_000, "{:?}", choice.stats);
    assert_eq!(choice.stats.reason.as_deref(), Some("proven draw"));
    assert_eq!(choice.stats.score, Some(0.0));
}

#[test]
fn mcts_beats_random_at_o_an_quan() {
    let score = common::match_score(
        &common::oanquan("oanquan"),
        "mcts:iterations=1000",
        "random",
        40,
        5,
        1000,
    );
    assert!(score >= 0.9, "{score}");
}

#[test]
fn mcts_without_the_solver_runs_every_simulation() {
    // The position the solver proves early (see above): plain UCT runs the whole budget and
    // still finds a drawing move.
    let game = mnk("tictactoe").play_line("b2 a1").unwrap();
    let choice = choose("mcts:iterations=50000,solver=false", &game, 3);
    assert_eq!(choice.stats.nodes, 50_000, "{:?}", choice.stats);
    assert_ne!(choice.stats.reason.as_deref(), Some("proven draw"));
    let solution = agents::solve::solve(&game.child(choice.mv), &Default::default());
    assert_eq!(
        solution.outcome(),
        Some(Outcome::Draw),
        "{}",
        game.format_move(choice.mv)
    );
}
