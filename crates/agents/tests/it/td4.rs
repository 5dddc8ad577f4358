//! The TD4 exercise of seed 003: the Monte Carlo agents find a winning move, and `mc-par`
//! plays exactly what `mc-near` plays.

use crate::common;

use common::{choose, mnk, td4};
use rules::{Game, Mnk};

/// The winning moves of the TD4 position, as 0-based (row, col) (see `solve.rs`).
const WINNING: [(u8, u8); 3] = [(1, 3), (1, 4), (3, 1)];

fn wins_for_seeds(spec: &str) -> usize {
    let game = td4();
    (0..10)
        .filter(|&seed| {
            let mv = choose(spec, &game, seed).mv;
            WINNING.contains(&game.config().row_col(mv))
        })
        .count()
}

#[test]
fn flat_monte_carlo_finds_a_winning_move() {
    for spec in [
        "mc-flat:rollouts=1000",
        "mc-near:rollouts=1000",
        "mc-par:rollouts=1000",
    ] {
        let wins = wins_for_seeds(spec);
        assert!(wins >= 9, "{spec}: a winning move for {wins} of 10 seeds");
    }
}

#[test]
fn mcts_finds_a_winning_move() {
    for spec in [
        "mcts:iterations=10000",
        "mcts:iterations=10000,rollout=near",
    ] {
        let wins = wins_for_seeds(spec);
        assert!(wins >= 9, "{spec}: a winning move for {wins} of 10 seeds");
    }
}

fn positions() -> Vec<Mnk> {
    vec![
        td4(),
        mnk("mnk-5x5k4"),
        mnk("tictactoe").play_line("b2 a1").unwrap(),
        mnk("mnk-9x9k5").play_line("e5 d4 f6 e4 d5").unwrap(),
        mnk("mnk-7x7k4-caro").play_line("d4 c3 e5").unwrap(),
    ]
}

#[test]
fn mc_par_plays_what_mc_near_plays() {
    for game in positions() {
        for seed in 0..4 {
            let near = choose("mc-near:rollouts=200", &game, seed);
            for threads in [0, 1, 3] {
                let par = choose(
                    &format!("mc-par:rollouts=200,threads={threads}"),
                    &game,
                    seed,
                );
                assert_eq!(par, near, "seed {seed}, {threads} threads:\n{game}");
            }
        }
    }
}

#[test]
fn mc_near_considers_only_cells_next_to_stones() {
    for game in positions().into_iter().skip(1) {
        let mv = choose("mc-near:rollouts=20", &game, 1).mv;
        let (row, col) = game.config().row_col(mv);
        let touches = (-1i32..=1).any(|dr| {
            (-1i32..=1).any(|dc| {
                let (r, c) = (i32::from(row) + dr, i32::from(col) + dc);
                r >= 0 && c >= 0 && game.stone_at(r as u8, c as u8).is_some()
            })
        });
        assert!(
            touches || game.ply() == 0,
            "{}\n{game}",
            game.format_move(mv)
        );
        if game.ply() == 0 {
            assert_eq!(mv, game.config().center_cell());
        }
    }
}

#[test]
fn mc_par_plays_what_mc_near_plays_when_candidates_split_into_chunks() {
    // 300 playouts per candidate: chunks of 250 and 50, shared out among the threads.
    let game = mnk("mnk-7x7k4").play_line("d4 c3 e5 c5").unwrap();
    for seed in 0..3 {
        let near = choose("mc-near:rollouts=300", &game, seed);
        assert_eq!(near.stats.nodes % 300, 0, "{:?}", near.stats);
        for threads in [0, 3] {
            let par = choose(
                &format!("mc-par:rollouts=300,threads={threads}"),
                &game,
                seed,
            );
            assert_eq!(par, near, "seed {seed}, {threads} threads");
        }
    }
}
