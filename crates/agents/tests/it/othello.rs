//! Othello strength: alphabeta with the game's evaluation against random and against a
//! search that counts discs only, mcts against random, colours alternated (score = wins +
//! draws / 2); and the evaluation's parts each counting the right way.

use crate::common::match_score;
use agents::AgentGame;
use rules::othello::Othello;
use rules::{Game, Player};

fn score(agent: &str, opponent: &str, games: u64, seed: u64) -> f64 {
    let score = match_score(&Othello::start(), agent, opponent, games, seed, 120);
    eprintln!("{agent} vs {opponent}: {score:.3} over {games} games");
    score
}

#[test]
fn alphabeta_beats_random_by_far() {
    assert!(score("alphabeta:depth=3", "random", 60, 1) >= 0.9);
}

#[test]
fn mcts_beats_random() {
    assert!(score("mcts:iterations=300", "random", 40, 2) >= 0.8);
}

/// The evaluation from the side to move's view, on positions written as discs.
fn evaluate(black: u64, white: u64, to_move: Player) -> i32 {
    let game = Othello::from_discs(black, white, to_move).unwrap();
    game.evaluate(&game.aux())
}

#[test]
fn the_evaluation_values_corners_mobility_and_late_discs() {
    let start = Othello::start();
    // The start is symmetric: even.
    assert_eq!(start.evaluate(&start.aux()), 0);
    // One side's view is the other's negated.
    let game = start.play_line("d3").unwrap();
    let white = game.evaluate(&game.aux());
    let black = evaluate(
        game.discs(Player::First),
        game.discs(Player::Second),
        Player::First,
    );
    assert_eq!(white, -black);
    // A corner is worth more than a disc on an edge, other things equal (a1 against b1 for
    // Black, with White's discs on d8 and e8).
    let far = 1u64 << 59 | 1 << 60;
    let corner = evaluate(1, far, Player::First);
    let edge = evaluate(1 << 1, far, Player::First);
    assert!(corner > edge, "{corner} {edge}");
    // On a nearly full board the disc difference is most of it: 40 Black discs against 20.
    let black: u64 = (1u64 << 40) - 1;
    let white: u64 = ((1u64 << 60) - 1) & !black;
    let late = evaluate(black, white, Player::First);
    assert!(late >= 20 * 8, "{late}");
}

#[test]
fn the_remaining_plies_bound_two_a_empty_cell() {
    assert_eq!(Othello::start().remaining_plies(), Some(120));
}
