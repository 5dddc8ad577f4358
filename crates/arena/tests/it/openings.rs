//! Opening suites (`openings = "FILE"`): block m of a pair starts from line m modulo the
//! suite's length, in both colour orders; seeds stay those of the schedule; every error names
//! the file, the line and the move.

use crate::common;

use std::fs;

use arena::{Experiment, Schedule, play_scheduled, run};
use common::scratch;

const SUITE: &str = "# test suite\n[mnk-5x5k4]\nc3 b2\nc3 d4 b3\na1\n\n[tictactoe]\nb2\n";
const SUITE_5X5: &str = "[mnk-5x5k4]\nc3 b2\nc3 d4 b3\na1\n";

fn experiment_text(extra: &str) -> String {
    format!(
        r#"name = "suite"
seed = 7
games_per_pair = 8
{extra}
variants = ["mnk-5x5k4", "tictactoe"]

[[agents]]
name = "a"
spec = "random"

[[agents]]
name = "b"
spec = "alphabeta:depth=2"
"#
    )
}

/// An experiment file and its suite in a fresh folder; returns the experiment's path.
fn files(extra: &str, suite: &str) -> std::path::PathBuf {
    let dir = scratch("openings");
    fs::create_dir_all(dir.join("openings")).unwrap();
    fs::write(dir.join("openings/suite.txt"), suite).unwrap();
    let path = dir.join("exp.toml");
    fs::write(&path, experiment_text(extra)).unwrap();
    path
}

#[test]
fn blocks_take_the_suite_lines_in_order_with_both_colour_orders() {
    let path = files("openings = \"openings/suite.txt\"", SUITE);
    let exp = Experiment::from_file(&path).unwrap();
    let schedule = Schedule::new(&exp);
    let lines = ["c3 b2", "c3 d4 b3", "a1"];
    for index in 0..8 {
        let game = schedule.game(index);
        let (row, _) = play_scheduled(&exp, &game);
        let block = index / 2;
        let opening = lines[(block % 3) as usize];
        assert!(
            row.moves.starts_with(opening),
            "game {index}: `{}` should start with `{opening}`",
            row.moves
        );
        assert_eq!(row.first, if index % 2 == 0 { "a" } else { "b" });
    }
    // Tic-tac-toe has one line: every game starts with b2.
    for index in 8..16 {
        let (row, _) = play_scheduled(&exp, &schedule.game(index));
        assert!(row.moves.starts_with("b2"), "{}", row.moves);
    }
    // A whole run plays them too, and the seeds are those of the same experiment without a
    // suite: the suite changes openings, never seeds.
    let out = scratch("openings-run");
    run(&exp, &common::options(&out, 2, arena::Shard::WHOLE)).unwrap();
    let plain = Experiment::from_toml(&experiment_text(""), "plain.toml").unwrap();
    let plain_schedule = Schedule::new(&plain);
    for index in 0..schedule.len() {
        assert_eq!(schedule.game(index).seed, plain_schedule.game(index).seed);
    }
    assert_ne!(exp.hash(), plain.hash());
}

fn error(extra: &str, suite: &str) -> String {
    Experiment::from_file(&files(extra, suite))
        .expect_err("refused")
        .to_string()
}

#[test]
fn a_list_of_files_joins_their_sections() {
    let path = files(
        "openings = [\"openings/suite.txt\", \"openings/ttt.txt\"]",
        SUITE_5X5,
    );
    std::fs::write(
        path.parent().unwrap().join("openings/ttt.txt"),
        "[tictactoe]\nb2\n",
    )
    .unwrap();
    let exp = Experiment::from_file(&path).unwrap();
    let (row, _) = play_scheduled(&exp, &Schedule::new(&exp).game(8));
    assert!(row.moves.starts_with("b2"), "{}", row.moves);
    let (row, _) = play_scheduled(&exp, &Schedule::new(&exp).game(2));
    assert!(row.moves.starts_with("c3 d4 b3"), "{}", row.moves);
}

#[test]
fn errors_name_the_file_the_line_and_the_move() {
    let m = error(
        "openings = \"openings/suite.txt\"",
        "[mnk-5x5k4]\nc3\nc3 c3\n[tictactoe]\nb2\n",
    );
    assert!(
        m.contains("openings/suite.txt:3:1") && m.contains("move 2 `c3`"),
        "{m}"
    );
    let m = error("openings = \"openings/missing.txt\"", SUITE);
    assert!(
        m.contains("exp.toml:4:12") && m.contains("key `openings`") && m.contains("missing.txt"),
        "{m}"
    );
    let m = error("openings = \"openings/suite.txt\"", "[mnk-5x5k4]\nc3\n");
    assert!(m.contains("no section for [mnk-3x3k3]"), "{m}");
    let m = error(
        "openings = [\"openings/suite.txt\", \"openings/suite.txt\"]",
        SUITE,
    );
    assert!(m.contains("has openings in two of the files"), "{m}");
    let m = error(
        "opening_plies = 2\nopenings = \"openings/suite.txt\"",
        SUITE,
    );
    assert!(
        m.contains("key `opening_plies`") && m.contains("not both"),
        "{m}"
    );
}

#[test]
fn a_run_with_a_suite_verifies_resumes_and_catches_a_wrong_opening() {
    let path = files("openings = \"openings/suite.txt\"", SUITE);
    let exp = Experiment::from_file(&path).unwrap();
    let out = scratch("openings-verify");
    run(&exp, &common::options(&out, 2, arena::Shard::WHOLE)).unwrap();
    let csv = out.join("games.csv");
    let whole = common::without_timing(&csv);
    assert_eq!(whole.len(), 17, "a header and 16 games");

    // The folder alone verifies: its copy of the experiment reads the suite written next to it.
    assert_eq!(
        fs::read_to_string(out.join("openings/suite.txt")).unwrap(),
        SUITE
    );
    let summary = arena::verify(&out, None).unwrap();
    assert_eq!(summary.games, 16);

    // Cut to the header and five games: the run checks those rows, plays the rest, and ends
    // with the same file.
    let text = fs::read_to_string(&csv).unwrap();
    let kept: Vec<&str> = text.lines().take(6).collect();
    fs::write(&csv, kept.join("\n") + "\n").unwrap();
    let summary = run(&exp, &common::options(&out, 1, arena::Shard::WHOLE)).unwrap();
    assert_eq!((summary.resumed, summary.played), (5, 11));
    assert_eq!(common::without_timing(&csv), whole);

    // Game 0 (block 0, `c3 b2`) given the moves, result and length of game 2 (block 1, `c3 d4
    // b3`, the same pair and colours): legal moves to a real end, but not its opening.
    let lines: Vec<String> = fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut game0: Vec<String> = lines[1].split(',').map(String::from).collect();
    let game2: Vec<&str> = lines[3].split(',').collect();
    assert_eq!((game0[at("game")].as_str(), game2[at("game")]), ("0", "2"));
    for column in ["result", "termination", "plies", "moves"] {
        game0[at(column)] = game2[at(column)].to_string();
    }
    let mut edited = lines.clone();
    edited[1] = game0.join(",");
    fs::write(&csv, edited.join("\n") + "\n").unwrap();
    let message = arena::verify(&out, None).unwrap_err().to_string();
    assert!(
        message.contains("opening from the suite") && message.contains("`c3 b2`"),
        "{message}"
    );
    // A resume refuses it too, and plays nothing.
    let message = run(&exp, &common::options(&out, 1, arena::Shard::WHOLE))
        .unwrap_err()
        .to_string();
    assert!(message.contains("opening from the suite"), "{message}");
}
