//! The game commands end to end: perft, replay, list, solve, analyze, and their errors.

use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn help_lists_no_games_of_its_own_and_points_to_arena_list() {
    // The games are the registry's (`arena list`); a list in the help would go stale.
    let output = arena(&["--help"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("`arena list` names them"), "{text}");
    for family in rules::FAMILIES {
        assert!(!text.contains(family.title), "{} in {text}", family.title);
    }
}

#[test]
fn perft_prints_a_line_per_depth_ending_with_depth_nine() {
    let output = arena(&["perft", "tictactoe", "9"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9);
    let counts = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
    for (depth, (line, count)) in lines.iter().zip(counts).enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[0], (depth + 1).to_string(), "{line}");
        assert_eq!(fields[1], count.to_string(), "{line}");
        assert!(line.ends_with("nodes/s"), "{line}");
    }
}

#[test]
fn replay_prints_the_golden_positions_of_o_an_quan() {
    let output = arena(&["replay", "oanquan", "3P 7P 5P"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    for golden in [
        "[5, 5, 5, 5, 5] <10> [5, 5, 5, 5, 5] <10> (0 || 0)",
        "[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)",
        "[6, 0, 0, 1, 7] <12> [7, 7, 1, 0, 6] <11> (6 || 6)",
        "[2, 3, 3, 4, 0] <0> [0, 0, 4, 3, 9] <14> (22 || 6)",
    ] {
        assert!(
            lines.contains(&golden),
            "`{golden}` is not a line of:\n{text}"
        );
    }
    // Each position is drawn as a board too: the ring, the square sown from in parentheses.
    assert_eq!(text.matches("captures: player 1").count(), 4, "{text}");
    assert!(text.contains("(0)"), "{text}");
    let multi = stdout(&arena(&["replay", "oanquan-3p", "3P"]));
    assert!(multi.contains("(3:0)"), "{multi}");
}

#[test]
fn replay_prints_the_result_at_the_end() {
    let output = arena(&["replay", "tictactoe", "b2 a1 a2 c1 c2"]);
    let text = stdout(&output);
    assert!(text.contains("[X]"), "{text}");
    assert!(text.trim_end().ends_with("result: 1-0 (X wins)"), "{text}");
    let output = arena(&["replay", "oanquan", "1P"]);
    assert!(stdout(&output).contains("totals if it ended now"));
}

#[test]
fn a_bad_move_stops_the_replay_naming_it_and_its_place() {
    let output = arena(&["replay", "tictactoe", "b2 a1 b2"]);
    assert!(!output.status.success());
    let error = stderr(&output);
    assert!(error.contains("move 3 (`b2`)"), "{error}");
    assert!(error.contains("occupied by X"), "{error}");
    let output = arena(&["replay", "oanquan", "3P 7P zz"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("move 3 (`zz`)"),
        "{}",
        stderr(&output)
    );
    let output = arena(&["replay", "tictactoe", "a1 a2 b1 b2 c1 c2"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("already over"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bad_variants_and_arguments_are_clear_errors() {
    for (args, needle) in [
        (vec!["perft", "chess", "3"], "unknown game"),
        (vec!["perft", "mnk-3x3k4", "3"], "k must be from 1 to 3"),
        (vec!["perft", "mnk-20x20k5", "3"], "1 to 19 rows"),
        (vec!["replay", "mnk-3x3", "a1"], "mnk-MxNkK"),
        (vec!["perft", "tictactoe", "x"], "invalid value"),
        (
            vec!["solve", "tictactoe", "--moves", "a1 a1"],
            "move 2 (`a1`)",
        ),
        (
            vec!["analyze", "tictactoe", "--agent", "greedy"],
            "does not play",
        ),
        (
            vec!["analyze", "tictactoe", "--agent", "mcts:iterations=x"],
            "iterations",
        ),
    ] {
        let output = arena(&args);
        assert!(!output.status.success(), "{args:?} succeeded");
        let error = stderr(&output);
        assert!(error.contains(needle), "{args:?}: {error}");
        assert!(!error.contains("panicked"), "{args:?}: {error}");
    }
}

#[test]
fn list_names_every_listed_kind_with_its_parameters() {
    let text = stdout(&arena(&["list"]));
    for kind in agents::KINDS.iter().filter(|k| k.listed) {
        assert!(
            text.contains(&format!("  {} ", kind.name)),
            "{} missing",
            kind.name
        );
        for param in kind.params {
            assert!(
                text.contains(&format!("{}={}", param.name, param.default)),
                "{}",
                param.name
            );
        }
    }
    assert!(!text.contains("  fault "), "the fault agent is not listed");
    assert!(text.contains("oanquan") && text.contains("mnk-15x15k5-caro"));
    // Every registered game is listed, by its title and an example id.
    for family in rules::FAMILIES {
        assert!(text.contains(family.title), "{} missing", family.title);
        assert!(text.contains(family.example), "{} missing", family.example);
    }
}

#[test]
fn solve_finds_the_td4_wins() {
    for method in ["dfpn", "alphabeta"] {
        let output = arena(&[
            "solve",
            "mnk-5x5k4",
            "--moves",
            "b3 c3 c2 d1 b2 a2",
            "--method",
            method,
            "--all-moves",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(
            text.contains("value: first player wins"),
            "{method}: {text}"
        );
        assert!(text.contains("winning moves: d2 e2 b4"), "{method}: {text}");
        assert!(
            text.contains("d2 win") && text.contains("a1 draw"),
            "{text}"
        );
    }
}

#[test]
fn solve_states_its_method_and_time_limit_and_proves_the_5x5_draw() {
    let output = arena(&["solve", "mnk-5x5k4"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("method: df-pn"), "{text}");
    assert!(text.contains("time limit: 60 s"), "{text}");
    assert!(text.contains("value: draw"), "{text}");
    assert!(text.contains("drawing moves: c3"), "{text}");
    let output = arena(&["solve", "tictactoe", "--time-limit", "5"]);
    assert!(stdout(&output).contains("time limit: 5 s"));
    assert!(stdout(&output).contains("value: draw"));
}

#[test]
fn solve_stops_at_its_time_limit_with_the_bound_it_has() {
    let output = arena(&["solve", "mnk-9x9k5", "--time-limit", "0.5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("value: unknown within the limits"), "{text}");
    assert!(text.contains("best bound so far"), "{text}");
    assert!(
        text.contains("incomplete: stopped by the time limit"),
        "{text}"
    );
}

#[test]
fn solve_with_threat_methods_finds_a_vcf() {
    // X: h8 i8 j8 (blocked at g8) and l10 l11 l12: k8 is a four, then an open four on l.
    let moves = "h8 a1 i8 c3 j8 g8 l10 a15 l11 o1 l12 o15";
    let output = arena(&["solve", "gomoku", "--moves", moves, "--method", "vcf"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("VCF for X (first player), to move: a win in"),
        "{text}"
    );
    assert!(
        text.contains("VCF for O (second player), if it were to move: none"),
        "{text}"
    );
    let output = arena(&["solve", "oanquan", "--method", "vcf"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("not an m,n,k game"),
        "{}",
        stderr(&output)
    );
    let output = arena(&["solve", "tictactoe", "--method", "magic"]);
    assert!(stderr(&output).contains("the methods are auto, own, alphabeta, dfpn, vcf and vct"));
    // A game without a solver of its own says so, whichever game it is.
    for (variant, id) in [("tictactoe", "mnk-3x3k3"), ("oware", "oware")] {
        let output = arena(&["solve", variant, "--method", "own"]);
        assert!(
            stderr(&output).contains(&format!(
                "--method own: {id} has no solver of its own; use auto or alphabeta"
            )),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn solve_values_every_column_of_a_connect_four_position() {
    // X has c2, d2, e2 with b2 open: b wins at once; d and f win too, c and e draw.
    let output = arena(&["solve", "connect4", "--moves", "d c d e c d e b"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("method: the Connect Four solver"), "{text}");
    assert!(text.contains("winning moves: b d f"), "{text}");
    assert!(
        text.contains(
            "move values (for the side to move): a loss, b win, c draw, d win, e draw, f win, \
             g loss"
        ),
        "{text}"
    );
    // The generic solver stays reachable, and on a small board agrees move for move.
    let values = |method: &str| {
        let output = arena(&[
            "solve",
            "connect4-4x4",
            "--method",
            method,
            "--time-limit",
            "0",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(text.contains("value: draw"), "{text}");
        text.lines()
            .find(|line| line.starts_with("move values"))
            .map(String::from)
    };
    assert_eq!(values("own"), values("alphabeta"));
    // `auto` is the game's own solver, asked of the game (AgentGame::OWN_SOLVER).
    let output = arena(&["solve", "connect4-4x4", "--time-limit", "0"]);
    assert!(
        stdout(&output).contains("method: the Connect Four solver"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn analyze_prints_the_move_on_a_line_of_its_own() {
    let output = arena(&[
        "analyze",
        "mnk-5x5k4",
        "--moves",
        "b3 c3 c2 d1 b2 a2",
        "--agent",
        "alphabeta:depth=5",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let line = text
        .lines()
        .find(|l| l.starts_with("move:"))
        .expect("a move: line");
    let mv = line.trim_start_matches("move:").trim();
    assert!(["d2", "e2", "b4"].contains(&mv), "{text}");
}

/// The principal variation: a `pv:` line of move texts from the chosen move; on TD4, a win
/// in three that the game's rules confirm when its moves are played.
#[test]
fn analyze_prints_the_principal_variation_to_the_win() {
    let moves = "b3 c3 c2 d1 b2 a2";
    let output = arena(&[
        "analyze",
        "mnk-5x5k4",
        "--moves",
        moves,
        "--agent",
        "alphabeta:depth=5",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("no `{name}` line: {text}"))
    };
    let pv: Vec<&str> = field("pv: ").split_whitespace().collect();
    assert_eq!(pv.first().copied(), Some(field("move: ")), "{text}");
    assert_eq!(pv.len(), 3, "a win in three plies: {text}");
    // The line played out: legal moves, and the game over with the first player's win.
    let line = format!("{moves} {}", pv.join(" "));
    let played = arena(&[
        "analyze",
        "mnk-5x5k4",
        "--moves",
        &line,
        "--agent",
        "random",
    ]);
    assert!(
        stderr(&played).contains("the game is over after these moves (first player wins)"),
        "{}",
        stderr(&played)
    );
}

#[test]
fn analyze_rounds_a_fractional_score() {
    // MCTS's score is a mean reward: three decimals, not seventeen.
    let output = arena(&[
        "analyze",
        "tictactoe",
        "--moves",
        "b2 a1",
        "--agent",
        "mcts:iterations=19,solver=false",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let score = text
        .lines()
        .find_map(|l| l.strip_prefix("score: "))
        .expect("a score: line");
    let decimals = score.split_once('.').map_or(0, |(_, d)| d.len());
    assert!(decimals <= 3, "{text}");
    assert!(score.parse::<f64>().is_ok(), "{text}");
}

#[test]
fn perft_past_the_longest_game_is_capped_and_a_negative_depth_refused() {
    let output = arena(&["perft", "tictactoe", "1000"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 9, "{}", stdout(&output));
    assert!(
        stderr(&output).contains(
            "no mnk-3x3k3 game lasts more than 9 plies (its cap): counting to depth 9 instead of 1000"
        ),
        "{}",
        stderr(&output)
    );
    // A depth past 2^32 is quoted as given (it was quoted as 4294967295).
    let output = arena(&["perft", "tictactoe", "99999999999"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("counting to depth 9 instead of 99999999999"),
        "{}",
        stderr(&output)
    );
    // Every 2x2 k=2 game ends by ply 3: the count stops there.
    let output = arena(&["perft", "mnk-2x2k2", "4"]);
    let text = stdout(&output);
    assert!(
        text.ends_with("every game has ended by depth 3: nothing more to count\n"),
        "{text}"
    );
    for depth in ["-3", "0"] {
        let output = arena(&["perft", "tictactoe", depth]);
        assert!(!output.status.success());
        assert!(
            stderr(&output).contains(&format!(
                "depth {depth}: expected a number of plies, 1 or more"
            )),
            "{}",
            stderr(&output)
        );
    }
}

/// Runs `arena ARGS` with its address space (`ulimit -v`) or its data (`ulimit -d`) limited to
/// `kb` KiB, so that a table the machine could hold is more than the process may take.
fn arena_limited(ulimit: &str, kb: u64, args: &str) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit {ulimit} {kb} && exec '{}' {args}",
            env!("CARGO_BIN_EXE_arena")
        ))
        .output()
        .unwrap()
}

#[test]
fn a_table_larger_than_the_machine_or_the_process_may_hold_is_a_clear_error() {
    // Larger than any machine this runs on: refused when the spec is read, naming the key.
    let output = arena(&["analyze", "tictactoe", "--agent", "alphabeta:tt_mb=65536"]);
    assert!(!output.status.success());
    let error = stderr(&output);
    assert!(
        error.contains("`tt_mb=65536` is invalid: 65536 MiB is more than this machine's memory ("),
        "{error}"
    );
    assert!(error.contains("available now); give at most"), "{error}");
    // Within the machine but beyond the process's limit (`ulimit -v`, `ulimit -d`): refused
    // before anything is taken, naming the limit.
    for (ulimit, kb, args, says) in [
        (
            "-v",
            3_000_000,
            "analyze tictactoe --agent alphabeta:tt_mb=8000",
            "`tt_mb=8000` is invalid: 8000 MiB is more than this process may take (its \
             address-space limit, `ulimit -v`: 2.9 GiB); give at most 2929",
        ),
        (
            "-v",
            3_000_000,
            "solve mnk-4x4k3 --tt-mb 8000",
            "--tt-mb 8000: 8000 MiB is more than this process may take (its address-space \
             limit, `ulimit -v`: 2.9 GiB)",
        ),
        (
            "-d",
            1 << 20,
            "solve connect4 --tt-mb 1500",
            "--tt-mb 1500: 1500 MiB is more than this process may take (its data limit, \
             `ulimit -d`: 1.0 GiB)",
        ),
    ] {
        let output = arena_limited(ulimit, kb, args);
        let error = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args}: {error}");
        assert!(error.contains(says), "{args}: {error}");
    }
    // Within the limit, and still more than the allocator gives: an error naming the key and
    // the memory, not an abort. The tree grows by doubling until the allocator refuses (about
    // a second of 19x19 simulations).
    let args = "analyze mnk-19x19k5 --agent mcts:tree_mb=900,iterations=100000000";
    let output = arena_limited("-v", 1_000_000, args);
    let error = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{args}: {error}");
    assert!(
        error.contains("cannot allocate ") && error.contains(" for `tree_mb=900`"),
        "{args}: {error}"
    );
    assert!(
        error.contains("available now, per /proc/meminfo"),
        "{args}: {error}"
    );
    assert!(!error.contains("memory allocation of"), "{args}: {error}");
}

#[test]
fn solving_a_game_of_three_or_four_players_is_refused_at_once() {
    for variant in ["oanquan-3p", "oanquan-4p"] {
        // Spawned and bounded: the solver once panicked here and then waited for ever.
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["solve", variant, "--time-limit", "1"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let give_up = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while child.try_wait().unwrap().is_none() {
            if std::time::Instant::now() > give_up {
                child.kill().unwrap();
                panic!("`arena solve {variant}` did not end");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let output = child.wait_with_output().unwrap();
        assert!(!output.status.success());
        let error = stderr(&output);
        assert!(
            error.contains("the solver plays games of two") && !error.contains("panicked"),
            "{variant}: {error}"
        );
    }
}

/// `arena` with `args`, and the most memory it held (Linux's ru_maxrss, KiB), printed by the
/// Python wrapper on its stderr's last line.
fn arena_peak(args: &[&str]) -> (Output, u64) {
    let output = Command::new("python3")
        .args([
            "-c",
            "import resource, subprocess, sys\n\
             done = subprocess.run(sys.argv[1:], capture_output=True)\n\
             sys.stdout.buffer.write(done.stdout)\n\
             sys.stderr.buffer.write(done.stderr)\n\
             print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n\
             sys.exit(done.returncode)",
            env!("CARGO_BIN_EXE_arena"),
        ])
        .args(args)
        .output()
        .unwrap();
    let text = stderr(&output);
    let peak = text
        .lines()
        .last()
        .and_then(|line| line.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak memory: {text}"));
    (output, peak)
}

#[test]
fn a_large_solver_table_is_touched_only_while_the_time_limit_allows_and_the_size_held_is_shown() {
    // 512 MiB asked, 1 ms of search: zeroing the table by hand would fault in all of it (and
    // take longer than the limit); fresh zeroed pages cost nothing until touched, and they are
    // touched only while the time limit allows.
    let (output, peak_kib) = arena_peak(&[
        "solve",
        "connect4",
        "--tt-mb",
        "512",
        "--time-limit",
        "0.001",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        peak_kib < 200 << 10,
        "the solve held {} MiB at its peak",
        peak_kib >> 10
    );
    // 100 MiB asked: the table is a power of two of buckets, 64 MiB.
    let output = arena(&[
        "solve",
        "connect4",
        "--tt-mb",
        "100",
        "--time-limit",
        "0.001",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("table: 64 MiB (--tt-mb 100 rounded down to a power of two)"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn bench_says_when_no_figure_matches_and_has_an_oware_figure() {
    let output = arena(&["bench", "--quick", "--filter", "zzzz"]);
    assert!(!output.status.success(), "{}", stdout(&output));
    assert!(
        stderr(&output).contains("no figure's name contains `zzzz`")
            && stderr(&output).contains("perft.oware"),
        "{}",
        stderr(&output)
    );
    let output = arena(&["bench", "--quick", "--filter", "perft.oware"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("perft.oware: ") && text.trim_end().ends_with(")"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1, "{text}");
}

#[test]
fn serve_refuses_bad_agent_and_sandbox_text_naming_the_argument() {
    for (args, needle) in [
        (vec!["--agent", "mine"], "expected NAME=SPEC"),
        (vec!["--agent", "random=mcts"], "the name `random` is taken"),
        (vec!["--agent", "mine=nosuchkind"], "nosuchkind"),
        (vec!["--sandbox", "tight"], "`tight` is not a sandbox mode"),
    ] {
        let mut all = vec!["serve", "--port", "0"];
        all.extend(&args);
        let output = arena(&all);
        assert!(!output.status.success(), "{args:?} started a server");
        let error = stderr(&output);
        assert!(error.contains(args[0]), "{args:?}: {error}");
        assert!(error.contains(needle), "{args:?}: {error}");
        assert!(!error.contains("panicked"), "{args:?}: {error}");
    }
    let help = stdout(&arena(&["serve", "--help"]));
    assert!(help.contains("--agent <NAME=SPEC>"), "{help}");
    assert!(
        help.contains("A request never makes the server start a program"),
        "{help}"
    );
}
