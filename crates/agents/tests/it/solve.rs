//! The exact solver against the known game values of mnk.md.

use crate::common;

use agents::solve::{Limits, Value, solve};
use common::{mnk, td4};
use rules::{Game, Outcome, Player};

fn limits() -> Limits {
    Limits::default().with_tt_mb(32)
}

#[test]
fn tic_tac_toe_is_a_draw_and_every_first_move_draws() {
    let solution = solve(&mnk("tictactoe"), &limits());
    assert_eq!(solution.value, Some(Value::Draw));
    assert_eq!(solution.outcome(), Some(Outcome::Draw));
    assert!(solution.complete);
    assert_eq!(solution.moves.len(), 9);
    assert!(solution.moves.iter().all(|m| m.value == Some(Value::Draw)));
    assert_eq!(solution.best.len(), 9);
}

#[test]
fn tic_tac_toe_after_an_edge_reply_to_the_centre_is_a_first_player_win() {
    // X b2, O b1 (an edge): X wins with best play.
    let game = mnk("tictactoe").play_line("b2 b1").unwrap();
    let solution = solve(&game, &limits());
    assert_eq!(solution.value, Some(Value::Win));
    assert_eq!(solution.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn four_by_four_with_three_in_a_row_is_a_first_player_win() {
    let solution = solve(&mnk("mnk-4x4k3"), &limits().with_all_moves(false));
    assert_eq!(solution.value, Some(Value::Win));
    assert_eq!(solution.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(solution.best.len(), 1);
}

#[test]
fn four_by_four_with_four_in_a_row_is_a_draw() {
    let solution = solve(&mnk("mnk-4x4k4"), &limits().with_all_moves(false));
    assert_eq!(solution.value, Some(Value::Draw));
}

#[test]
fn td4_is_a_win_and_exactly_three_moves_win() {
    let game = td4();
    assert_eq!(game.side_to_move(), Player::First);
    let solution = solve(&game, &limits());
    assert_eq!(solution.value, Some(Value::Win));
    assert!(solution.complete);
    let mut winning: Vec<(u8, u8)> = solution
        .best
        .iter()
        .map(|&cell| game.config().row_col(cell))
        .collect();
    winning.sort();
    assert_eq!(winning, vec![(1, 3), (1, 4), (3, 1)]);
    let names: Vec<String> = solution.best.iter().map(|&c| game.format_move(c)).collect();
    assert_eq!(names, ["d2", "e2", "b4"]);
}

#[test]
fn a_finished_game_is_its_result() {
    let game = mnk("tictactoe").play_line("a1 b1 a2 b2 a3").unwrap();
    let solution = solve(&game, &limits());
    assert_eq!(solution.outcome(), Some(Outcome::Win(Player::First)));
    assert!(solution.moves.is_empty());
}

#[test]
fn limits_leave_the_value_unknown_rather_than_wrong() {
    let solution = solve(&mnk("mnk-5x5k4"), &limits().with_nodes(Some(10_000)));
    assert_eq!(solution.value, None);
    assert!(!solution.complete);
}

#[test]
fn o_an_quan_forced_wins_are_proven() {
    use rules::{OanQuan, OanQuanRules};
    // Player 1 captures mandarin A with 3P and the game ends 38 to 32.
    let game = OanQuan::from_parts(
        OanQuanRules::default(),
        [0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0],
        [true, false],
        [27, 27],
        Player::First,
    );
    let solution = solve(&game, &limits().with_max_depth(6));
    assert_eq!(solution.value, Some(Value::Win));
    let best: Vec<String> = solution.best.iter().map(|&m| game.format_move(m)).collect();
    assert!(best.contains(&"3P".to_string()), "{best:?}");
}
