//! The m,n,k game against the facts of `mnk.md`: perft counts, game counts, reachable
//! positions, and each win rule on several boards.

use std::collections::HashSet;

use rules::{
    Cell, Game, Mnk, MnkConfig, MoveError, MoveList, Outcome, Player, Variant, WinRule, perft,
};

fn game(id: &str) -> Mnk {
    id.parse::<Variant>()
        .unwrap()
        .rules::<rules::MnkConfig>()
        .unwrap()
        .start()
}

fn after(id: &str, moves: &str) -> Mnk {
    game(id).play_line(moves).unwrap()
}

#[test]
fn tictactoe_perft_matches_the_literature() {
    let expected = [
        1u64, 9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872,
    ];
    let start = game("tictactoe");
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(perft(&start, depth as u32), count, "depth {depth}");
    }
}

#[test]
fn perft_does_not_depend_on_the_win_rule_when_no_line_can_be_longer_than_k() {
    // On 3x3 with k=3 no line is longer than 3, so exact and caro (no blocking possible at
    // both ends of a full row) count the same games as freestyle.
    for id in ["mnk-3x3k3-exact", "mnk-3x3k3-caro"] {
        assert_eq!(perft(&game(id), 9), 127_872, "{id}");
    }
}

fn count_games(position: &Mnk, totals: &mut [u64; 3]) {
    match position.outcome() {
        Some(Outcome::Win(Player::First)) => totals[0] += 1,
        Some(Outcome::Win(_)) => totals[1] += 1,
        Some(Outcome::Draw) => totals[2] += 1,
        Some(Outcome::Ranked(_)) => unreachable!("m,n,k games have two players"),
        None => {
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            for &mv in &moves {
                count_games(&position.child(mv), totals);
            }
        }
    }
}

#[test]
fn tictactoe_has_255168_complete_games() {
    let mut totals = [0u64; 3];
    count_games(&game("tictactoe"), &mut totals);
    assert_eq!(totals, [131_184, 77_904, 46_080]);
    assert_eq!(totals.iter().sum::<u64>(), 255_168);
}

fn collect_positions(position: &Mnk, seen: &mut HashSet<u64>, boards: &mut HashSet<String>) {
    if !boards.insert(board_key(position)) {
        return;
    }
    seen.insert(position.hash_key());
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    for &mv in &moves {
        collect_positions(&position.child(mv), seen, boards);
    }
}

fn board_key(position: &Mnk) -> String {
    let config = position.config();
    (0..config.rows())
        .flat_map(|r| (0..config.cols()).map(move |c| (r, c)))
        .map(|(r, c)| match position.stone_at(r, c) {
            Some(Player::First) => 'X',
            Some(_) => 'O',
            None => '.',
        })
        .collect()
}

#[test]
fn tictactoe_has_5478_reachable_positions_and_the_hash_tells_them_apart() {
    let mut hashes = HashSet::new();
    let mut boards = HashSet::new();
    collect_positions(&game("tictactoe"), &mut hashes, &mut boards);
    assert_eq!(boards.len(), 5_478);
    assert_eq!(hashes.len(), 5_478, "Zobrist hashes collide");
}

#[test]
fn freestyle_wins_with_k_or_more() {
    // X: a1 b1 c1 with O elsewhere wins on 5x5 k=3.
    let g = after("mnk-5x5k3", "a1 a5 b1 b5 c1");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
    // An overline of 4 with k=3 (filling the gap) wins under freestyle.
    let g = after("mnk-5x5k3", "a1 a5 b1 b5 d1 e5 c1");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
    let line: Vec<Cell> = g.winning_line().unwrap().cells().collect();
    assert_eq!(line.len(), 4);
}

#[test]
fn exact_refuses_an_overline_but_not_an_exact_line() {
    // X fills the gap of a1 b1 _ d1: a line of 4 with k=3 does not win under exact.
    let g = after("mnk-5x5k3-exact", "a1 a5 b1 b5 d1 e5 c1");
    assert_eq!(g.outcome(), None);
    // Exactly three wins.
    let g = after("mnk-5x5k3-exact", "a1 a5 b1 b5 c1");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::First)));
    // Six in a row on gomoku exact does not win; five does.
    let six = "a1 a3 b1 b3 c1 c3 e1 e3 f1 f3 d1";
    assert_eq!(after("mnk-15x15k5-exact", six).outcome(), None);
    assert_eq!(
        after("mnk-15x15k5", six).outcome(),
        Some(Outcome::Win(Player::First))
    );
}

#[test]
fn caro_refuses_a_line_blocked_at_both_ends() {
    // O at a2 and g2 block both ends; X fills b2..f2 last with d2.
    let blocked = "b2 a2 c2 g2 e2 a9 f2 b9 d2";
    assert_eq!(after("caro", blocked).outcome(), None);
    assert_eq!(
        after("gomoku", blocked).outcome(),
        Some(Outcome::Win(Player::First))
    );
    // One end blocked: the five wins.
    let one_end = "b2 a2 c2 a9 e2 b9 f2 c9 d2";
    assert_eq!(
        after("caro", one_end).outcome(),
        Some(Outcome::Win(Player::First))
    );
    // A board edge is not a block: a2..e2 with O at f2.
    let edge = "a2 f2 b2 a9 c2 b9 e2 c9 d2";
    assert_eq!(
        after("caro", edge).outcome(),
        Some(Outcome::Win(Player::First))
    );
    // Diagonal blocked at both ends.
    let diagonal = "b2 a1 c3 g7 e5 a9 f6 b9 d4";
    assert_eq!(after("caro", diagonal).outcome(), None);
}

#[test]
fn lines_do_not_wrap_around_the_board_edge() {
    // X at d1 e1 (end of row 1) and a2 b2 (start of row 2) on 5x5 k=4: not a line.
    let g = after("mnk-5x5k4", "d1 a5 e1 b5 a2 c5 b2");
    assert_eq!(g.outcome(), None);
    // Anti-diagonal wrap: a2, e1 are not neighbours.
    let g = after("mnk-5x5k3", "a3 e5 b2 d5 e1");
    assert_eq!(g.outcome(), None);
}

#[test]
fn every_direction_wins_on_rectangular_boards() {
    // 4 rows x 7 columns, k=4.
    let cases = [
        ("mnk-4x7k4", "d1 a4 e1 b4 f1 c4 g1", "row"),
        ("mnk-4x7k4", "g1 a1 g2 b1 g3 c1 g4", "column"),
        ("mnk-4x7k4", "a1 g1 b2 g2 c3 g3 d4", "diagonal"),
        ("mnk-4x7k4", "g1 a1 f2 b1 e3 c1 d4", "anti-diagonal"),
        ("mnk-7x4k4", "a7 d1 b7 d2 c7 d3 d7", "row on a tall board"),
        (
            "mnk-7x4k4",
            "a4 b1 a5 c1 a6 d1 a7",
            "column on a tall board",
        ),
        (
            "mnk-2x9k5",
            "a1 a2 b1 b2 c1 c2 d1 d2 e1",
            "k longer than the short side",
        ),
    ];
    for (id, moves, what) in cases {
        assert_eq!(
            after(id, moves).outcome(),
            Some(Outcome::Win(Player::First)),
            "{what} on {id}"
        );
    }
}

#[test]
fn the_second_player_can_win() {
    let g = after("tictactoe", "a1 b1 a2 b2 c3 b3");
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(g.to_string().matches('[').count(), 3, "{g}");
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    let g = after("tictactoe", "a1 b1 c1 b2 a2 a3 b3 c2 c3");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn tiny_boards_work() {
    let one = game("mnk-1x1k1");
    let mut moves = MoveList::new();
    one.legal_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert_eq!(
        one.child(moves[0]).outcome(),
        Some(Outcome::Win(Player::First))
    );
    assert_eq!(perft(&game("mnk-1x2k2"), 2), 2);
    assert_eq!(after("mnk-1x2k2", "a1 b1").outcome(), Some(Outcome::Draw));
    assert_eq!(perft(&game("mnk-19x19k5"), 2), 361 * 360);
}

#[test]
fn the_center_opening_forces_the_first_stone() {
    let g = game("mnk-15x15k5-center");
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert_eq!(g.format_move(moves[0]), "h8");
    assert!(matches!(g.parse_move("a1"), Err(MoveError::Illegal { .. })));
    let second = g.child(moves[0]);
    second.legal_moves(&mut moves);
    assert_eq!(moves.len(), 224);
    // Even sides: the upper-left of the middle cells.
    let even = game("mnk-4x6k3-center");
    even.legal_moves(&mut moves);
    assert_eq!(even.format_move(moves[0]), "c2");
    assert_eq!(perft(&game("mnk-3x3k3-center"), 2), 8);
}

#[test]
fn moves_parse_in_both_notations() {
    let g = game("mnk-5x5k4");
    let b3 = g.parse_move("b3").unwrap();
    assert_eq!(g.parse_move("2,1").unwrap(), b3);
    assert_eq!(g.parse_move("(2, 1)").unwrap(), b3);
    assert_eq!(g.parse_move("B3").unwrap(), b3);
    assert_eq!(g.config().row_col(b3), (2, 1));
    assert_eq!(g.format_move(b3), "b3");
}

#[test]
fn bad_move_texts_say_what_is_wrong() {
    let g = after("tictactoe", "b2");
    type Check = fn(&MoveError) -> bool;
    let cases: [(&str, Check); 9] = [
        ("", |e| matches!(e, MoveError::Syntax { .. })),
        ("zz", |e| matches!(e, MoveError::Syntax { .. })),
        ("b", |e| matches!(e, MoveError::Syntax { .. })),
        ("3b", |e| matches!(e, MoveError::Syntax { .. })),
        ("d1", |e| matches!(e, MoveError::OffBoard { .. })),
        ("a4", |e| matches!(e, MoveError::OffBoard { .. })),
        ("a0", |e| matches!(e, MoveError::OffBoard { .. })),
        ("3,0", |e| matches!(e, MoveError::OffBoard { .. })),
        ("b2", |e| matches!(e, MoveError::Illegal { .. })),
    ];
    for (text, check) in cases {
        let error = g.parse_move(text).unwrap_err();
        assert!(check(&error), "{text:?} gave {error:?}");
    }
    let occupied = g.parse_move("b2").unwrap_err().to_string();
    assert!(occupied.contains("occupied by X"), "{occupied}");
    let off = g.parse_move("d1").unwrap_err().to_string();
    assert!(off.contains("3 columns (a-c)"), "{off}");
    let over = after("tictactoe", "a1 b1 a2 b2 a3");
    assert!(matches!(
        over.parse_move("c3"),
        Err(MoveError::GameOver { .. })
    ));
}

#[test]
fn a_bad_move_in_a_line_is_named_with_its_place() {
    let error = game("tictactoe").play_line("a1 b2 a1").unwrap_err();
    assert_eq!(error.index, 3);
    assert_eq!(error.text, "a1");
    assert!(error.to_string().starts_with("move 3 (`a1`)"), "{error}");
}

#[test]
fn the_display_marks_the_last_move_and_the_winning_line() {
    let g = after("tictactoe", "a1 b1");
    assert_eq!(
        g.to_string(),
        "    a  b  c \n 1  X (O) . \n 2  .  .  . \n 3  .  .  . \n"
    );
    let won = after("tictactoe", "a1 b1 b2 c1 c3");
    assert_eq!(
        won.to_string(),
        "    a  b  c \n 1 [X] O  O \n 2  . [X] . \n 3  .  . [X]\n"
    );
}

#[test]
fn wins_at_looks_ahead_without_playing() {
    let g = after("mnk-5x5k4", "b3 c3 c2 d1 b2 a2");
    let config = *g.config();
    let cell = |r, c| config.cell(r, c).unwrap();
    // The TD4 position: X (to move) has b3 c2 b2; no immediate win for either side.
    for r in 0..5 {
        for c in 0..5 {
            if g.stone_at(r, c).is_none() {
                assert!(!g.wins_at(cell(r, c), Player::First), "({r},{c})");
            }
        }
    }
    let three = after("mnk-5x5k4", "a1 a5 b1 b5 c1");
    assert!(three.wins_at(cell(0, 3), Player::First));
    assert!(!three.wins_at(cell(0, 3), Player::Second));
}

#[test]
fn configs_are_validated() {
    assert!(MnkConfig::new(0, 3, 3).is_err());
    assert!(MnkConfig::new(20, 3, 3).is_err());
    assert!(MnkConfig::new(3, 3, 0).is_err());
    assert!(MnkConfig::new(3, 3, 4).is_err());
    assert!(MnkConfig::new(2, 9, 9).is_ok());
    let caro = MnkConfig::new(15, 15, 5).unwrap().with_rule(WinRule::Caro);
    assert_eq!(caro.to_string(), "mnk-15x15k5-caro");
}

#[test]
fn legal_cells_are_the_legal_moves_as_a_set() {
    // Every position of whole random games on boards with and without the centre rule, to
    // the end: the set lists exactly the legal moves, in their order.
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
    for id in [
        "tictactoe",
        "mnk-5x5k4-center",
        "mnk-4x7k4-caro",
        "gomoku",
        "mnk-19x19k5",
    ] {
        for _ in 0..20 {
            let mut position = game(id);
            loop {
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                let cells: Vec<Cell> = position.legal_cells().iter().collect();
                assert_eq!(cells, moves.to_vec(), "{id} after {} plies", position.ply());
                if moves.is_empty() {
                    break;
                }
                position.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
}
