//! Oware strength: alphabeta against random, mcts against flat Monte Carlo at the same number
//! of playouts, colours alternated, each game capped at the game's 1,000 plies with its own
//! adjudication (score = wins + draws / 2); and the solver on an endgame.

use crate::common::match_score;
use agents::solve::{Limits, Value, solve};
use rules::Game;
use rules::oware::Oware;

fn score(agent: &str, opponent: &str, games: u64, seed: u64) -> f64 {
    let score = match_score(&Oware::start(), agent, opponent, games, seed, 1000);
    eprintln!("{agent} vs {opponent}: {score:.3} over {games} games");
    score
}

#[test]
fn alphabeta_beats_random_by_far() {
    assert!(score("alphabeta:depth=4", "random", 300, 1) >= 0.95);
}

#[test]
fn mcts_beats_flat_monte_carlo_at_the_same_number_of_playouts() {
    // Six candidate moves at most: 100 playouts each against 600 simulations.
    assert!(score("mcts:iterations=600", "mc-flat:rollouts=100", 200, 2) >= 0.65);
}

#[test]
fn a_four_ply_search_beats_the_one_ply_greedy_search() {
    // One ply takes the biggest capture now and nothing more.
    assert!(score("alphabeta:depth=4", "alphabeta:depth=1", 200, 3) >= 0.75);
}

/// The win / loss value of `game` for the side to move within `depth` plies, by plain
/// negamax (1 a forced win, -1 a forced loss, 0 neither within the depth or a draw).
fn plain_wdl(game: &Oware, depth: u32) -> i32 {
    if let Some(outcome) = game.outcome() {
        return match outcome.winner() {
            Some(winner) if winner == game.side_to_move() => 1,
            Some(_) => -1,
            None => 0,
        };
    }
    if depth == 0 {
        return 0;
    }
    let mut moves = rules::MoveList::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| -plain_wdl(&game.child(mv), depth - 1))
        .max()
        .unwrap()
}

#[test]
fn the_solver_agrees_with_plain_negamax_on_random_endgames() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(25);
    let (mut proven, mut tried) = (0, 0);
    // Random endgames until a dozen are won or lost within 10 plies (about one in six is).
    while proven < 12 && tried < 400 {
        // A random game up to a board of 6 seeds or fewer.
        let mut game = Oware::start();
        let mut moves = rules::MoveList::new();
        while !game.is_over() && (0..12).map(|h| u32::from(game.seeds(h))).sum::<u32>() > 6 {
            game.legal_moves(&mut moves);
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if game.is_over() {
            continue;
        }
        tried += 1;
        let plain = plain_wdl(&game, 10);
        let solution = solve(&game, &Limits::default().with_max_depth(10).with_tt_mb(16));
        let solved = match solution.value {
            Some(Value::Win) => 1,
            Some(Value::Loss) => -1,
            _ => 0,
        };
        if plain != 0 {
            proven += 1;
            assert_eq!(solved, plain, "{game}");
        } else if solved != 0 {
            // A proof through a transposition can be longer than the solver's depth: plain
            // negamax must find it a little deeper.
            assert_eq!(plain_wdl(&game, 14), solved, "{game}");
        }
    }
    assert_eq!(
        proven, 12,
        "only {proven} of {tried} endgames decided within 10 plies"
    );
}

#[test]
fn the_solver_finds_the_move_that_takes_the_25th_seed() {
    // South to move with 23 seeds: `F` into North's `a` makes 2 and takes it, 25.
    let game = Oware::from_parts(
        [4, 0, 0, 0, 0, 1, 1, 0, 0, 0, 3, 2],
        [23, 14],
        rules::Player::First,
    )
    .unwrap();
    let solution = solve(&game, &Limits::default().with_all_moves(true));
    assert_eq!(solution.value, Some(Value::Win));
    let wins: Vec<String> = solution
        .moves
        .iter()
        .filter(|m| m.value == Some(Value::Win))
        .map(|m| game.format_move(m.mv))
        .collect();
    assert!(wins.contains(&"F".to_string()), "{wins:?}");
}
