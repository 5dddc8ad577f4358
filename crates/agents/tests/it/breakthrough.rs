//! Breakthrough strength: alphabeta with the game's evaluation against random and against
//! mcts of a thousand playouts, mcts against random, colours alternated (score = wins + draws
//! / 2); the evaluation's parts each counting the right way; the win in one as a tactic; the
//! bound on the plies left.

use crate::common::match_score;
use agents::{AgentGame, Tactic};
use rules::breakthrough::{Breakthrough, BreakthroughConfig};
use rules::{Game, Player};

fn start() -> Breakthrough {
    BreakthroughConfig::default().start()
}

fn score(agent: &str, opponent: &str, games: u64, seed: u64) -> f64 {
    let score = match_score(&start(), agent, opponent, games, seed, 224);
    eprintln!("{agent} vs {opponent}: {score:.3} over {games} games");
    score
}

#[test]
fn alphabeta_beats_random_by_far() {
    assert!(score("alphabeta:depth=3", "random", 60, 1) >= 0.95);
}

#[test]
fn mcts_beats_random() {
    assert!(score("mcts:iterations=300", "random", 40, 2) >= 0.8);
}

/// The evaluation at work: a shallow alphabeta beats mcts of a thousand playouts, which it does
/// not with an evaluation of 0 (then it only sees wins a few plies ahead: 0.35 here, against
/// 1.0 with it).
#[test]
fn alphabeta_with_the_evaluation_beats_mcts() {
    assert!(score("alphabeta:depth=3", "mcts:iterations=1000", 20, 3) >= 0.75);
}

/// The bitboard of the cells named (`a7`, row 1 on top) on the 8x8 board.
fn cells(names: &str) -> u128 {
    names.split_whitespace().fold(0, |bits, name| {
        let row: u32 = name[1..].parse().unwrap();
        bits | 1u128 << ((row - 1) * 8 + u32::from(name.as_bytes()[0] - b'a'))
    })
}

/// The evaluation from the side to move's view.
fn evaluate(black: &str, white: &str, to_move: Player) -> i32 {
    let game = Breakthrough::from_pawns(
        BreakthroughConfig::default(),
        cells(black),
        cells(white),
        to_move,
    )
    .unwrap();
    game.evaluate(&game.aux())
}

#[test]
fn the_evaluation_counts_material_advancement_and_safe_runners() {
    let start = start();
    // The start is symmetric: even.
    assert_eq!(start.evaluate(&start.aux()), 0);
    // One side's view is the other's negated.
    let game = start.play_line("d7d6").unwrap();
    assert_eq!(
        game.evaluate(&game.aux()),
        -evaluate_position(&game, Player::First)
    );
    // Material: a pawn more is worth more than a row of advancement.
    let more = evaluate("a8 b8", "h1", Player::First);
    let even = evaluate("a8", "h1", Player::First);
    assert!(more > even + 50, "{more} {even}");
    // Advancement: the same pawn further forward is worth more.
    let far = evaluate("d5", "h1", Player::First);
    let near = evaluate("d7", "h1", Player::First);
    assert!(far > near, "{far} {near}");
    // A runner three rows from the far row counts more when no pawn of White attacks it
    // (White's pawns attack diagonally downwards: c3 attacks b4 and d4).
    let safe = evaluate("d4", "h1 g1", Player::First);
    let attacked = evaluate("d4", "c3 h1", Player::First);
    let unguarded = evaluate("d4", "a1 h1", Player::First);
    assert!(safe > attacked, "{safe} {attacked}");
    assert!(unguarded > attacked + 50, "{unguarded} {attacked}");
}

fn evaluate_position(game: &Breakthrough, to_move: Player) -> i32 {
    let position = Breakthrough::from_pawns(
        game.config(),
        game.pawns(Player::First),
        game.pawns(Player::Second),
        to_move,
    )
    .unwrap();
    position.evaluate(&position.aux())
}

#[test]
fn a_pawn_one_row_from_the_far_row_wins_at_once() {
    let game = Breakthrough::from_pawns(
        BreakthroughConfig::default(),
        cells("b2 h8"),
        cells("b1 c1 h4"),
        Player::First,
    )
    .unwrap();
    match game.tactic(&game.aux()) {
        Tactic::WinNow(mv) => assert!(game.child(mv).outcome().is_some(), "{mv:?}"),
        other => panic!("{other:?}"),
    }
    // Taking the last pawn wins too.
    let game = Breakthrough::from_pawns(
        BreakthroughConfig::default(),
        cells("d5 h8"),
        cells("e4"),
        Player::First,
    )
    .unwrap();
    assert_eq!(
        game.tactic(&game.aux()),
        Tactic::WinNow(game.parse_move("d5e4*").unwrap())
    );
    assert_eq!(start().tactic(&start().aux()), Tactic::Open);
}

#[test]
fn the_remaining_plies_bound_the_rows_left_to_go() {
    // 16 pawns a side: 8 with 6 rows to go, 8 with 7.
    assert_eq!(start().remaining_plies(), Some(2 * (8 * 6 + 8 * 7)));
    let mut game = start();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(4);
    while !game.is_over() {
        let bound = game.remaining_plies().unwrap();
        let mv = game.random_move(&mut rng).unwrap();
        game.play_unchecked(mv);
        assert!(game.remaining_plies().unwrap() < bound);
    }
}
