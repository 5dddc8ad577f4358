//! `arena play` driven through pipes, the way a script or a teacher's demo drives it: one move or
//! command per line on stdin, the transcript on stdout. Agents are seeded, so their replies, and
//! so the transcripts, are fixed. Every finished game lands in the play record, which the last
//! tests read back.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The arena binary, run in a scratch folder of this test process: the games the tests finish
/// go to its `results/play/games.csv`, not to the source tree's.
fn arena() -> Command {
    let scratch = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-play-tests-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch folder");
    let mut command = Command::new(env!("CARGO_BIN_EXE_arena"));
    command.current_dir(scratch);
    command
}

/// A fresh folder for one test's play record.
fn record_folder(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-play-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("record folder");
    dir
}

/// The rows of a CSV as header-keyed maps.
fn rows_of(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).expect("the record opens");
    let header = reader.headers().expect("a header").clone();
    reader
        .records()
        .map(|record| {
            let record = record.expect("a whole row");
            header
                .iter()
                .zip(record.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// A person (X) against `random` (O) with seed 3, whose replies in tic-tac-toe to b2 and c1
/// are a2 and c2.
const HUMAN_VS_RANDOM: [&str; 7] = [
    "tictactoe",
    "--first",
    "human",
    "--second",
    "random",
    "--seed",
    "3",
];

/// Runs `arena play ARGS` with `input` on stdin (then end of file).
fn play(args: &[&str], input: &str) -> Output {
    let mut child = arena()
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(input.as_bytes()).expect("input written");
    drop(stdin);
    child.wait_with_output().expect("arena ends")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Checks that `text` holds each of `parts`, in this order.
fn assert_in_order(text: &str, parts: &[&str]) {
    let mut rest = text;
    for part in parts {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => panic!("missing (in this order) {part:?} in:\n{text}"),
        }
    }
}

/// Plays the transcript's `replay:` line with `arena replay` and returns its output.
fn replay_of(transcript: &str) -> String {
    let line = transcript
        .lines()
        .find_map(|line| line.strip_prefix("replay: arena replay "))
        .unwrap_or_else(|| panic!("no replay line in:\n{transcript}"));
    let (variant, moves) = line.split_once(' ').expect("variant and moves");
    let moves = moves.trim_matches('"');
    let output = arena()
        .args(["replay", variant, moves])
        .output()
        .expect("replay runs");
    assert!(
        output.status.success(),
        "replay failed: {}",
        stderr(&output)
    );
    stdout(&output)
}

/// The result text (`1-0`, `0-1`, `1/2-1/2`) of a `result:` line.
fn result_of(transcript: &str) -> &str {
    transcript
        .lines()
        .find_map(|line| line.strip_prefix("result: "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no result in:\n{transcript}"))
}

#[test]
fn a_person_beats_random_at_tictactoe_and_the_moves_replay() {
    // Seed 3's random replies (a2, c2) leave the diagonal c1-b2-a3 open.
    let output = play(&HUMAN_VS_RANDOM, "b2\nc1\na3\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!text.contains('\x1b'), "no escape codes through a pipe");
    assert_in_order(
        &text,
        &[
            "mnk-3x3k3: X (you) against O (random), seed 3",
            "X (you) to move: b2\n1. X (you) plays b2\n",
            "2. O (random) plays a2  [",
            "X (you) to move: c1\n3. X (you) plays c1\n",
            "4. O (random) plays c2  [",
            "X (you) to move: a3\n5. X (you) plays a3\n",
            // The winning line in brackets, the last move inside it.
            "    a  b  c \n 1  .  . [X]\n 2  O [X] O \n 3 [X] .  . \n",
            "result: 1-0 (X (you) wins)\n",
            "moves: b2 a2 c1 c2 a3\n",
            "replay: arena replay mnk-3x3k3 \"b2 a2 c1 c2 a3\"\n",
            "play again? [y/N] or undo: ",
        ],
    );
    let replayed = replay_of(&text);
    assert!(replayed.contains("result: 1-0 (X wins)"), "{replayed}");
}

#[test]
fn hint_names_the_win_and_undo_takes_back_the_last_move_between_two_people() {
    let output = play(
        &["tictactoe", "--first", "human", "--second", "human"],
        "b2\na1\nb1\nc3\nhint\nundo\nb3\nmoves\nquit\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    let after_b1 = "    a  b  c \n 1  O (X) . \n 2  .  X  . \n 3  .  .  . \n";
    assert_in_order(
        &text,
        &[
            "3. X plays b1\n",
            after_b1,
            "4. O plays c3\n",
            // X has b1 and b2: b3 wins at once, and the agent says so.
            "X to move: hint\nhint: b3 (win now; alphabeta:depth=9 says",
            "X to move: undo\ntook back 1 move\n",
            after_b1,
            "O to move: b3\n4. O plays b3\n",
            "X to move: moves\nlegal moves: c1 a2 c2 a3 c3\n",
            "X to move: quit\ngame left unfinished after 4 moves\n",
            "moves: b2 a1 b1 b3\n",
        ],
    );
    // Leaving is not the end of a game: no offer of another.
    assert!(!text.contains("play again?"));
}

#[test]
fn undo_against_an_agent_takes_back_its_reply_too() {
    let output = play(&HUMAN_VS_RANDOM, "undo\nb2\nundo\nquit\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    let empty = "    a  b  c \n 1  .  .  . \n 2  .  .  . \n 3  .  .  . \n";
    assert_in_order(
        &text,
        &[
            "X (you) to move: undo\nnothing to undo: no move of a person yet\n",
            "1. X (you) plays b2\n",
            "2. O (random) plays a2",
            "X (you) to move: undo\ntook back 2 moves\n",
            empty,
            "X (you) to move: quit\ngame left unfinished after 0 moves\nmoves: none\n",
        ],
    );
}

#[test]
fn undo_after_the_end_takes_the_game_up_again() {
    // The same win as above, taken back at the end and finished another way.
    let output = play(&HUMAN_VS_RANDOM, "b2\nc1\na3\nundo\nmoves\nb3\nquit\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_in_order(
        &text,
        &[
            "5. X (you) plays a3\n",
            "result: 1-0 (X (you) wins)\n",
            "play again? [y/N] or undo: undo\ntook back 1 move\n",
            // The position before the winning move, c2 (O's) the last move.
            "    a  b  c \n 1  .  .  X \n 2  O  X (O)\n 3  .  .  . \n",
            "X (you) to move: moves\nlegal moves: a1 b1 a3 b3 c3\n",
            "X (you) to move: b3\n5. X (you) plays b3\n",
            "X (you) to move: quit\ngame left unfinished after 6 moves\n",
            "moves: b2 a2 c1 c2 b3 ",
        ],
    );
}

#[test]
fn an_end_without_a_move_of_a_person_offers_no_undo() {
    let output = play(
        &[
            "tictactoe",
            "--first",
            "random",
            "--second",
            "random",
            "--delay",
            "0",
        ],
        "undo\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_in_order(&text, &["result: ", "play again? [y/N] "]);
    assert!(!text.contains("or undo"), "{text}");
    assert!(!text.contains("took back"), "{text}");
}

#[test]
fn bad_input_is_refused_with_a_reason_and_prompted_again() {
    let output = play(
        &["tictactoe", "--first", "human", "--second", "human"],
        "zz\nd4\nb2\nb2\n\n1,1\nquit\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_in_order(
        &text,
        &[
            "X to move: zz\nrefused: `zz` is not a move: a cell is a column letter and a row \
             number like `b3`, or 0-based `row,col` like `2,1`\n",
            "X to move: d4\nrefused: `d4` is off the board: the board has 3 rows",
            "X to move: b2\n1. X plays b2\n",
            "O to move: b2\nrefused: `b2` is illegal here: cell b2 is occupied by X\n",
            // An empty line asks again without a word; `1,1` is b2 as 0-based row,col.
            "O to move: \nO to move: 1,1\nrefused: `b2` is illegal here",
            "O to move: quit\n",
        ],
    );

    let output = play(
        &["oanquan", "--first", "human", "--second", "human"],
        "3P\n3P\n11T\n7X\n7P\n3T\nquit\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_in_order(
        &text,
        &[
            "player 1 to move: 3P\n1. player 1 plays 3P\n",
            "player 2 to move: 3P\nrefused: `3P` is illegal here: square 3 belongs to player 1; \
             the player to move sows squares 6-10\n",
            "player 2 to move: 11T\nrefused: `11T` is off the board: square 11 does not exist",
            "player 2 to move: 7X\nrefused: `7X` is not a move",
            "player 2 to move: 7P\n2. player 2 plays 7P\n",
            "player 1 to move: 3T\nrefused: `3T` is illegal here: square 3 is empty\n",
            "player 1 to move: quit\n",
        ],
    );
}

#[test]
fn two_people_play_the_seed_moves_of_oanquan_to_its_golden_positions() {
    let golden = [
        "[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)\n",
        "[6, 0, 0, 1, 7] <12> [7, 7, 1, 0, 6] <11> (6 || 6)\n",
        "[2, 3, 3, 4, 0] <0> [0, 0, 4, 3, 9] <14> (22 || 6)\n",
    ];
    // The seed's notation, and its R/L synonyms in either case.
    for input in ["3P\n7P\n5P\nquit\n", "3R\n7r\n5p\nquit\n"] {
        let output = play(&["oanquan", "--first", "human", "--second", "human"], input);
        let text = stdout(&output);
        assert!(output.status.success(), "{}", stderr(&output));
        let mut expected = vec!["[5, 5, 5, 5, 5] <10> [5, 5, 5, 5, 5] <10> (0 || 0)\n"];
        for (number, (mv, position)) in ["3P", "7P", "5P"].iter().zip(golden).enumerate() {
            expected.push(if number % 2 == 0 {
                "player 1 plays "
            } else {
                "player 2 plays "
            });
            expected.push(*mv);
            expected.push(position);
        }
        expected.push("totals if it ended now: player 1 34, player 2 22\nmoves: 3P 7P 5P\n");
        assert_in_order(&text, &expected);
    }
}

#[test]
fn the_oanquan_ring_shows_the_labels_players_type() {
    let output = play(
        &["oanquan", "--first", "human", "--second", "human"],
        "3P\n",
    );
    let text = stdout(&output);
    assert_in_order(
        &text,
        &["[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)\n\
             \x20        6     7     8     9    10     player 2\n\
             +-----+-----+-----+-----+-----+-----+-----+\n\
             |  Q  |  6  |  6  |  0  |  6  |  6  |  Q  |\n\
             | 11  +-----+-----+-----+-----+-----+ 11  |\n\
             |     |  6  |  6  | (0) |  0  |  6  |     |\n\
             +-----+-----+-----+-----+-----+-----+-----+\n\
             \x20  B     1     2     3     4     5     A    player 1\n\
             captures: player 1 6, player 2 0\n"],
    );
}

#[test]
fn the_countdown_ends_the_game_when_it_runs_out() {
    let mut child = arena()
        .args([
            "play",
            "tictactoe",
            "--first",
            "human",
            "--second",
            "random",
        ])
        .args(["--move-time", "0.5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena starts");
    // Stdin stays open and silent until the game is over (or, if the countdown were broken,
    // until a generous guard closes it, so the test fails instead of hanging).
    let stdin = child.stdin.take().expect("stdin is piped");
    let (over, over_seen) = mpsc::channel::<()>();
    let keeper = std::thread::spawn(move || {
        let _ = over_seen.recv_timeout(Duration::from_secs(30));
        drop(stdin);
    });
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut text = String::new();
    let mut buffer = [0u8; 4096];
    while !text.contains("play again? [y/N] ") {
        match out.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => text.push_str(&String::from_utf8_lossy(&buffer[..n])),
        }
    }
    let _ = over.send(());
    keeper.join().expect("the keeper thread ends");
    let _ = out.read_to_string(&mut text);
    let status = child.wait().expect("arena ends");
    assert!(status.success());
    assert_in_order(
        &text,
        &[
            "X (you) to move, 0.5 s left: \n",
            "time is up: X (you) loses on time (took ",
            " ms, the limit is 500 ms)\n",
            "result: 0-1 (O (random) wins)\n",
            "moves: none\n",
            "play again? [y/N] ",
        ],
    );
}

#[test]
fn a_game_clock_shows_every_seat_s_time_and_is_recorded_with_the_time_control() {
    let dir = record_folder("clock");
    let record = dir.join("games.csv");
    let mut args = HUMAN_VS_RANDOM.to_vec();
    args.extend(["--tc", "5+2", "--record", record.to_str().unwrap()]);
    let output = play(&args, "b2\nc1\na3\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_in_order(
        &text,
        &[
            "mnk-3x3k3: X (you) against O (random), seed 3, tc=5+2\n",
            // Every seat's clock before each turn; the prompt says the mover's.
            "clocks: X (you) 5.0 s, O (random) 5.0 s\n",
            "X (you) to move, ",
            " s left: b2\n1. X (you) plays b2\n",
            // X was charged its move and given 2 s; O has not moved.
            "clocks: X (you) ",
            ", O (random) 5.0 s\n2. O (random) plays a2  [",
            "clocks: X (you) ",
            "X (you) to move, ",
            " s left: c1\n",
            "result: 1-0 (X (you) wins)\n",
        ],
    );
    let clocks: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("clocks: X (you) "))
        .collect();
    assert_eq!(clocks.len(), 5, "one line per turn: {text}");
    let x_after_b2: f64 = clocks[1].split(' ').next().unwrap().parse().unwrap();
    assert!(
        x_after_b2 > 5.0 && x_after_b2 <= 7.0,
        "5 s less the move plus 2: {x_after_b2}"
    );
    let rows = rows_of(&record);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(
        row["time_control"], "tc=5+2",
        "schema 3, as `arena run` writes it"
    );
    assert_eq!(row["termination"], "win");
    // X moved three times, O twice: 5 s, less what the moves took, plus 2 s a move.
    for (column, most) in [("first_clock_ms", 11_000.0), ("second_clock_ms", 9_000.0)] {
        let left: f64 = row[column].parse().unwrap();
        assert!(left > 5000.0 && left <= most, "{column}: {left}");
    }
    assert_eq!(row["third_clock_ms"], "", "two seats");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_menu_offers_the_four_modes_and_who_moves_first() {
    let output = play(&["tictactoe"], "9\n3\nmaybe\ny\nquit\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_in_order(
        &text,
        &[
            "mnk-3x3k3: choose a mode\n",
            "  1. Player vs Player\n",
            "  2. Player vs AI (easy: easy)\n",
            "  3. Player vs AI (hard: alphabeta:depth=9)\n",
            "  4. AI vs AI demo (alphabeta:depth=9 against itself)\n",
            "mode [1-4]: 9\nrefused: `9` is not a mode",
            "mode [1-4]: 3\n",
            "do you move first? [Y/n]: maybe\nrefused:",
            "do you move first? [Y/n]: y\n",
            "mnk-3x3k3: X (you) against O (alphabeta:depth=9), seed 1\n",
        ],
    );

    // O An Quan's easy agent is seed 001's greedy player; the person moves second here.
    let output = play(&["oanquan"], "2\nn\nquit\n");
    let text = stdout(&output);
    assert_in_order(
        &text,
        &[
            "  2. Player vs AI (easy: greedy)\n",
            "player 1 (greedy) against player 2 (you), seed 1\n",
            "1. player 1 (greedy) plays ",
            "player 2 (you) to move: quit\n",
        ],
    );

    // The demo: perfect players draw tic-tac-toe, with no pause when nobody watches.
    let output = play(&["tictactoe"], "4\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_in_order(
        &text,
        &[
            "X (alphabeta:depth=9) against O (alphabeta:depth=9)",
            "9. X (alphabeta:depth=9) plays ",
            "result: 1/2-1/2 (draw)\n",
        ],
    );
}

#[test]
fn agents_play_oanquan_to_the_end_and_the_moves_replay_to_the_same_result() {
    let output = play(
        &["oanquan", "--first", "greedy", "--second", "greedy2"],
        "n\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(text.contains("final totals: player 1 (greedy) "), "{text}");
    let result = result_of(&text);
    let replayed = replay_of(&text);
    assert_eq!(result_of(&replayed), result, "{replayed}");
}

#[test]
fn play_again_starts_another_game_with_the_same_sides() {
    let output = play(&HUMAN_VS_RANDOM, "b2\nc1\na3\ny\nquit\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_in_order(
        &text,
        &[
            "result: 1-0",
            "play again? [y/N] or undo: y\n",
            "mnk-3x3k3: X (you) against O (random), seed 3\n",
            "X (you) to move: quit\n",
        ],
    );
}

#[test]
fn the_end_of_input_ends_the_game_cleanly() {
    let output = play(&["tictactoe", "--first", "human"], "");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    // Given alone, a person faces the strong agent.
    assert_in_order(
        &text,
        &[
            "X (you) against O (alphabeta:depth=9)",
            "X (you) to move: \ngame left unfinished after 0 moves\n",
        ],
    );

    // The menu needs a choice: input that ends before one (empty, or an empty line) is an
    // error that says what to type, not a silent success.
    for input in ["", "\n"] {
        let output = play(&["caro"], input);
        assert!(!output.status.success(), "{input:?}: {}", stdout(&output));
        let error = stderr(&output);
        assert!(
            error.contains("the input ended before a mode was chosen: type 1, 2, 3 or 4"),
            "{input:?}: {error}"
        );
        assert!(
            error.contains("arena play mnk-15x15k5-caro --first human"),
            "{error}"
        );
        assert!(
            stdout(&output).ends_with("mode [1-4]: \n"),
            "{}",
            stdout(&output)
        );
    }
    let output = play(&["caro"], "\n");
    assert!(
        stdout(&output).contains("refused: an empty line is not a mode; type 1, 2, 3 or 4"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn bad_arguments_are_clear_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["nope"], "bad variant id `nope`"),
        (
            &["tictactoe", "--first", "alphabeta:depth"],
            "--first `alphabeta:depth`",
        ),
        (
            &["tictactoe", "--second", "wizard"],
            "--second `wizard`: a seat is `human` (a person) or an agent spec, and `wizard` is \
             neither; the agent kinds are: random,",
        ),
        (
            &["tictactoe", "--first", "greedy"],
            "does not play m,n,k games",
        ),
        (&["oanquan", "--second", "easy"], "does not play O An Quan"),
        (
            &["tictactoe", "--first", "alphabeta:depth=99"],
            "`depth=99` is invalid",
        ),
        (&["tictactoe", "--move-time", "0"], "--move-time 0"),
        (
            &["tictactoe", "--tc", "5+x"],
            "--tc 5+x: time control `5+x`",
        ),
        (
            &["tictactoe", "--tc", "0"],
            "the time of a period must be more than 0",
        ),
        (&["tictactoe", "--st", "0"], "--st: time control `0`"),
        (
            &["tictactoe", "--st", "1", "--move-time", "1"],
            "cannot be used with",
        ),
        (&["tictactoe", "--delay", "-1"], "--delay -1"),
    ];
    for (args, expected) in cases {
        let output = play(args, "");
        let err = stderr(&output);
        assert!(!output.status.success(), "{args:?} should fail");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn an_agent_that_fails_loses_and_the_program_goes_on() {
    for (mode, why) in [
        (
            "panic",
            "failed: panicked: the fault agent panics, as asked at ",
        ),
        (
            "illegal",
            "failed: fault:mode=illegal answered the illegal move",
        ),
        ("error", "failed: crash: "),
    ] {
        let spec = format!("fault:mode={mode}");
        let output = play(
            &["tictactoe", "--first", "human", "--second", &spec],
            "b2\n",
        );
        let text = stdout(&output);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_in_order(&text, &["result: 1-0 (X (you) wins: O (fault:mode=", why]);
        assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
    }
}

#[test]
fn a_finished_game_is_recorded_and_rated_and_counted_in_the_stats() {
    let dir = record_folder("recorded");
    let record = dir.join("games.csv");
    let record_text = record.to_str().unwrap();
    let mut args = HUMAN_VS_RANDOM.to_vec();
    args.extend(["--name", "Lan", "--record", record_text]);
    let output = play(&args, "b2\nc1\na3\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_in_order(
        &text,
        &[
            "result: 1-0",
            "play again? [y/N] or undo: \n",
            &format!("recorded: {record_text} (game 0)\n"),
        ],
    );
    let rows = rows_of(&record);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    for (column, value) in [
        ("experiment", "play"),
        ("variant", "mnk-3x3k3"),
        ("game", "0"),
        ("seed", "3"),
        ("first", "Lan"),
        ("first_spec", "human"),
        ("second", "random"),
        ("second_spec", "random"),
        ("result", "1-0"),
        ("termination", "win"),
        ("plies", "5"),
        ("moves", "b2 a2 c1 c2 a3"),
    ] {
        assert_eq!(row[column], value, "{column}");
    }
    assert_eq!(row["players"], "2", "the record is schema 2");
    assert_eq!(
        row["third"], "",
        "a two-player row leaves the other seats empty"
    );

    // A second game, lost on purpose against the easy agent, and one left unfinished.
    let output = play(
        &[
            "tictactoe",
            "--first",
            "easy:mistake=0",
            "--second",
            "human",
            "--name",
            "Lan",
            "--record",
            record_text,
        ],
        "a1\nc3\ny\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        rows_of(&record).len(),
        2,
        "an unfinished game is not recorded"
    );

    let stats = arena()
        .args(["play", "--stats", "--name", "Lan", "--record", record_text])
        .output()
        .unwrap();
    let text = stdout(&stats);
    assert!(stats.status.success(), "{}", stderr(&stats));
    assert_in_order(
        &text,
        &[
            &format!("play record {record_text}: 2 games of Lan"),
            "person vs AI (other agents)    the person              2      1      0      1",
            "a person against each AI level:",
            "mnk-3x3k3                easy:mistake=0                    1      0-0-1      0.0%",
            "mnk-3x3k3                random                            1      1-0-0    100.0%",
        ],
    );

    let report = arena()
        .args(["report", record_text, "--intervals", "none", "--out"])
        .arg(dir.join("report"))
        .output()
        .unwrap();
    assert!(report.status.success(), "{}", stderr(&report));
    assert!(stdout(&report).contains("Lan"), "{}", stdout(&report));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_taken_up_again_after_its_end_is_recorded_once() {
    let dir = record_folder("undo");
    let record = dir.join("games.csv");
    let mut args = HUMAN_VS_RANDOM.to_vec();
    args.extend(["--record", record.to_str().unwrap()]);
    // Won, taken back, won another way (random answers b3 with a1, and b1 makes the column
    // b1-b2-b3), and left at the prompt.
    let output = play(&args, "b2\nc1\na3\nundo\nb3\nb1\nn\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = rows_of(&record);
    assert_eq!(rows.len(), 1, "{text}");
    assert!(rows[0]["moves"].starts_with("b2 a2 c1 c2 b3"), "{rows:?}");
    assert_eq!(rows[0]["first"], "human");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_sittings_at_once_share_one_record_without_mixing_rows() {
    let dir = record_folder("shared");
    let record = dir.join("games.csv");
    let children: Vec<_> = (0..2)
        .map(|_| {
            let mut child = arena()
                .args([
                    "play",
                    "tictactoe",
                    "--first",
                    "random",
                    "--second",
                    "random",
                    "--record",
                ])
                .arg(&record)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("arena starts");
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all("y\n".repeat(29).as_bytes()).unwrap();
            drop(stdin);
            child
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let rows = rows_of(&record);
    assert_eq!(rows.len(), 60);
    let mut games: Vec<u64> = rows.iter().map(|r| r["game"].parse().unwrap()).collect();
    games.sort_unstable();
    assert_eq!(games, (0..60).collect::<Vec<_>>());
    for row in &rows {
        assert_eq!(row["first"], "random");
        let plies: usize = row["plies"].parse().unwrap();
        assert_eq!(row["moves"].split(' ').count(), plies);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The position after `count` moves of `start` picked by a fixed rule (no RNG), and the moves.
fn some_moves<G: rules::Game>(mut position: G, count: usize) -> (G, Vec<String>) {
    let mut moves = Vec::new();
    let mut legal = rules::MoveList::new();
    for i in 0..count {
        assert!(!position.is_over(), "the game ended after {i} moves");
        position.legal_moves(&mut legal);
        let mv = legal[(i * 7 + 3) % legal.len()];
        moves.push(position.format_move(mv));
        position.play_unchecked(mv);
    }
    (position, moves)
}

#[test]
fn a_record_of_two_three_and_four_players_is_verified_rated_and_counted() {
    use arena::played::{self, PlayedGame, PlayedSeat};
    use rules::{Game, Player};

    let dir = record_folder("tables");
    let record = dir.join("play").join("games.csv");
    let record_text = record.to_str().unwrap();
    // Agents only, at tables of 2, 3 and 4: played to the end and recorded by `arena play`.
    for seats in [
        &["tictactoe", "--first", "random", "--second", "easy"][..],
        &[
            "oanquan-3p",
            "--first",
            "random",
            "--second",
            "greedy",
            "--third",
            "random",
        ],
        &[
            "oanquan-4p",
            "--first",
            "random",
            "--second",
            "greedy",
            "--third",
            "random",
            "--fourth",
            "greedy",
        ],
    ] {
        let mut args = seats.to_vec();
        args.extend(["--seed", "4", "--delay", "0", "--record", record_text]);
        let output = play(&args, "n\n");
        assert!(output.status.success(), "{seats:?}: {}", stderr(&output));
    }
    // A person who resigned a game of three after eight moves, out of turn: the page's way.
    let rules: rules::Variant = "oanquan-3p".parse().unwrap();
    let rules::Variant::OanQuan(config) = &rules else {
        unreachable!()
    };
    let (position, moves) = some_moves(config.start(), 8);
    let resigned = PlayedGame {
        experiment: played::BROWSER.into(),
        variant: rules,
        seed: 9,
        seats: vec![
            PlayedSeat::agent("greedy".parse().unwrap()),
            PlayedSeat::person("Lan"),
            PlayedSeat::agent("random".parse().unwrap()),
        ],
        outcome: arena::play::forfeit_outcome(&position, Player::seat(1)),
        termination: arena::Termination::Resign,
        plies: position.ply(),
        totals: position.totals(),
        moves,
        time_control: None,
    };
    assert_eq!(played::append(&record, &resigned).unwrap(), 3);
    let rows = rows_of(&record);
    let seats: Vec<&str> = rows.iter().map(|r| r["players"].as_str()).collect();
    assert_eq!(seats, ["2", "3", "4", "3"], "one record, schema 2");
    assert_eq!(rows[3]["termination"], "resign");

    // Every row replays under the rules: the folder and the file itself.
    for target in [dir.join("play"), record.clone()] {
        let verify = arena().arg("verify").arg(&target).output().unwrap();
        assert!(verify.status.success(), "{}", stderr(&verify));
        assert!(
            stdout(&verify).contains("4 games of the play record: every row replays"),
            "{}",
            stdout(&verify)
        );
    }

    // Rated: a pool per variant, the person among the three-player one.
    let out = dir.join("report");
    let report = arena()
        .args(["report", record_text, "--intervals", "none", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(report.status.success(), "{}", stderr(&report));
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    for pool in ["mnk-3x3k3", "oanquan-3p", "oanquan-4p", "| Lan |"] {
        assert!(markdown.contains(pool), "{pool} missing from the report");
    }

    // Counted: every game, and Lan's one game a loss against the other agents.
    let stats = arena()
        .args(["play", "--stats", "--record", record_text])
        .output()
        .unwrap();
    assert!(stats.status.success(), "{}", stderr(&stats));
    assert!(stdout(&stats).contains(&format!("play record {record_text}: 4 games")));
    let lan = arena()
        .args(["play", "--stats", "--name", "Lan", "--record", record_text])
        .output()
        .unwrap();
    assert_in_order(
        &stdout(&lan),
        &[
            "1 game of Lan",
            "person vs AI (other agents)    the person              1      0      0      1",
        ],
    );

    // A resignation that names the wrong loser is caught, with its line and column.
    let text = std::fs::read_to_string(&record).unwrap();
    let last = text.lines().last().unwrap();
    let result = &rows[3]["result"];
    let changed = last.replacen(&format!(",{result},resign,"), ",1-2-2,resign,", 1);
    assert_ne!(changed, last);
    std::fs::write(&record, text.replace(last, &changed)).unwrap();
    let verify = arena().arg("verify").arg(&record).output().unwrap();
    assert!(!verify.status.success());
    let error = stderr(&verify);
    assert!(
        error.contains("games.csv:5: game 3: column `result`"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_experiment_s_games_file_is_refused_as_the_record_before_a_game_is_played() {
    let dir = record_folder("experiment-record");
    let experiment = dir.join("small.toml");
    std::fs::write(
        &experiment,
        "name = \"small\"\nseed = 1\ngames_per_pair = 2\nvariants = [\"mnk-3x3k3\"]\n\n\
         [[agents]]\nname = \"a\"\nspec = \"random\"\n\n[[agents]]\nname = \"b\"\nspec = \"random\"\n",
    )
    .unwrap();
    let out = dir.join("out");
    let ran = arena()
        .args([
            "run",
            experiment.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", stderr(&ran));
    let games = out.join("games.csv");
    let before = std::fs::read(&games).unwrap();
    // Under a time control the record would have been rewritten in schema 3 first.
    let output = play(
        &[
            "tictactoe",
            "--first",
            "random",
            "--second",
            "random",
            "--tc",
            "10",
            "--record",
            games.to_str().unwrap(),
        ],
        "",
    );
    assert!(!output.status.success(), "{}", stdout(&output));
    let error = stderr(&output);
    assert!(
        error.contains("not a play record: it is an experiment's games file"),
        "{error}"
    );
    assert!(!stdout(&output).contains("wins"), "no game was played");
    assert_eq!(std::fs::read(&games).unwrap(), before, "left untouched");
}
