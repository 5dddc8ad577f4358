//! The Gomocup protocol both ways: `arena engine` answers every mandatory command; our agents
//! behind the protocol play the games they play in-process; misbehaving outside engines lose
//! with the matching termination, and no engine process outlives the tournament.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use arena::{Experiment, Progress, RunOptions, Shard, run};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-engine-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn engine_session(agent: &str, input: &str) -> Vec<String> {
    let mut child = Command::new(ARENA)
        .args(["engine", "--agent", agent])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .map(String::from)
        .collect()
}

fn is_move(line: &str, width: u8, height: u8) -> bool {
    line.split_once(',').is_some_and(|(x, y)| {
        x.parse::<u8>().is_ok_and(|x| x < width) && y.parse::<u8>().is_ok_and(|y| y < height)
    })
}

#[test]
fn arena_engine_answers_every_mandatory_command() {
    let lines = engine_session(
        "alphabeta:depth=2",
        "START 15\nINFO timeout_turn 5000\nINFO rule 1\nABOUT\nBEGIN\nTURN 7,8\nSTRANGE\n\
         RESTART\nBOARD\n7,7,2\n8,8,1\n6,6,2\nDONE\nRECTSTART 9,4\nINFO win_length 4\nBEGIN\n\
         START 30\nEND\nBEGIN\n",
    );
    assert_eq!(lines[0], "OK");
    assert!(
        lines[1].starts_with("name=\"arena-alphabeta\""),
        "{lines:?}"
    );
    assert!(is_move(&lines[2], 15, 15), "{lines:?}");
    assert!(is_move(&lines[3], 15, 15), "{lines:?}");
    assert_eq!(lines[4], "UNKNOWN STRANGE");
    assert_eq!(lines[5], "OK");
    assert!(is_move(&lines[6], 15, 15), "{lines:?}");
    assert!(!["7,7", "8,8", "6,6"].contains(&lines[6].as_str()));
    assert_eq!(lines[7], "OK");
    assert!(is_move(&lines[8], 9, 4), "{lines:?}");
    assert!(lines[9].starts_with("ERROR"), "{lines:?}");
    // Nothing after END.
    assert_eq!(lines.len(), 10, "{lines:?}");
}

#[test]
fn arena_engine_blocks_and_wins_like_the_agent() {
    // X (the engine) has four in a row on row 0 with the fifth cell free: it wins at once.
    let lines = engine_session(
        "alphabeta:depth=2",
        "START 15\nBOARD\n0,0,1\n1,0,1\n2,0,1\n3,0,1\n0,5,2\n1,5,2\n2,5,2\n3,5,2\nDONE\nEND\n",
    );
    assert_eq!(lines, vec!["OK", "4,0"]);
}

fn experiment(text: &str) -> Experiment {
    Experiment::from_toml(text, "engine-test.toml").unwrap()
}

fn options(out: &Path) -> RunOptions {
    RunOptions {
        out_dir: out.to_path_buf(),
        threads: Some(2),
        fresh: false,
        shard: Shard::WHOLE,
        progress: Progress::Quiet,
    }
}

fn rows(csv: &Path) -> Vec<arena::Row> {
    csv::Reader::from_path(csv)
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn our_agents_through_the_protocol_play_the_games_they_play_in_process() {
    let template = r#"
name = "protocol"
seed = 5
games_per_pair = 4
variants = ["mnk-3x3k3", "mnk-5x5k4", "mnk-7x7k5-caro"]

[[agents]]
name = "mcts"
spec = "mcts:iterations=300"

[[agents]]
name = "flat"
spec = "FLAT"
"#;
    let inside = experiment(&template.replace("FLAT", "mc-flat:rollouts=8"));
    let through = experiment(&template.replace(
        "FLAT",
        &format!(
            "engine:cmd={ARENA},timeout_ms=60000,private=on,args=engine --agent mc-flat:rollouts=8"
        ),
    ));
    let (a, b) = (scratch("inside"), scratch("through"));
    run(&inside, &options(&a)).unwrap();
    let summary = run(&through, &options(&b)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.faults);
    let (a, b) = (rows(&a.join("games.csv")), rows(&b.join("games.csv")));
    assert_eq!(a.len(), 12);
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            (
                &x.variant,
                x.game,
                &x.first,
                &x.result,
                &x.termination,
                x.plies,
                &x.moves
            ),
            (
                &y.variant,
                y.game,
                &y.first,
                &y.result,
                &y.termination,
                y.plies,
                &y.moves
            ),
            "game {} differs through the protocol",
            x.game
        );
    }
}

/// Processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) {
                found.push(text);
            }
        }
    }
    found
}

#[test]
fn misbehaving_engines_lose_with_the_matching_termination() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/misbehave.py");
    let marker = format!("arena-test-marker-{}", std::process::id());
    let modes = [
        ("silent", "timeout"),
        ("crash", "crash"),
        ("garbage", "illegal-move"),
        ("illegal", "illegal-move"),
        ("occupied", "illegal-move"),
        ("slow", "timeout"),
        ("error", "crash"),
        ("badutf8", "illegal-move"),
        // Sandboxed (the default, best-effort): a line past the bound is the output limit.
        ("longline", "output-limit"),
    ];
    // Each engine plays `steady` alone, on a board of its own, so that the slow ones do not
    // make every pairing slow.
    let boards = [
        "mnk-5x5k4",
        "mnk-5x6k4",
        "mnk-6x5k4",
        "mnk-6x6k4",
        "mnk-4x5k4",
        "mnk-5x4k4",
        "mnk-4x6k4",
        "mnk-6x4k4",
        "mnk-5x7k4",
        "mnk-7x5k4",
    ];
    let mut text = format!(
        "name = \"misbehave\"\nseed = 3\ngames_per_pair = 2\nvariants = {boards:?}\n\n\
         [[agents]]\nname = \"steady\"\nspec = \"random\"\n"
    );
    for ((mode, _), board) in modes.iter().chain([("fine", "")].iter()).zip(boards) {
        text.push_str(&format!(
            "\n[[agents]]\nname = \"{mode}\"\nvariants = [\"{board}\"]\n\
             spec = \"engine:cmd=python3,timeout_ms=400,start_ms=5000,setup_ms=0,args={} {mode} {marker}\"\n",
            script.display()
        ));
    }
    let exp = experiment(&text);
    let out = scratch("misbehave");
    let summary = run(&exp, &options(&out)).unwrap();
    assert_eq!(summary.played, summary.games);
    for row in rows(&out.join("games.csv")) {
        let agents = [row.first.as_str(), row.second.as_str()];
        if !agents.contains(&"steady") {
            continue;
        }
        let engine = if agents[0] == "steady" {
            agents[1]
        } else {
            agents[0]
        };
        let loser = match row.result.as_str() {
            "1-0" => row.second.as_str(),
            "0-1" => row.first.as_str(),
            _ => "",
        };
        match modes.iter().find(|(m, _)| *m == engine) {
            Some((_, termination)) => {
                assert_eq!(row.termination, *termination, "{engine}: {row:?}");
                assert_eq!(loser, engine, "{row:?}");
            }
            None => assert!(
                ["win", "draw"].contains(&row.termination.as_str()),
                "{row:?}"
            ),
        }
    }
    let log = fs::read_to_string(out.join("games.faults.log")).unwrap();
    assert!(log.contains("ERROR something went wrong inside"), "{log}");
    assert!(
        log.contains("not UTF-8 text (byte 0xff at column 3"),
        "{log}"
    );
    assert!(log.contains("a line longer than 1048576 bytes"), "{log}");
    assert!(log.lines().all(|l| l.len() < 600), "{log}");
    let left = processes_with(&marker);
    assert!(left.is_empty(), "engines left running: {left:?}");
}

fn strong_experiment(engine: &str, restricted: bool, marker: &str) -> Experiment {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/strong.py");
    let only = if restricted {
        "variants = [\"mnk-9x9k5\"]\n"
    } else {
        ""
    };
    experiment(&format!(
        "name = \"strong\"\nseed = 8\ngames_per_pair = 4\nmove_time_ms = 200\n\
         variants = [\"mnk-9x9k5\", \"mnk-9x9k5-caro\"]\n\
         [[agents]]\nname = \"random\"\nspec = \"random\"\n\
         [[agents]]\nname = \"mcts\"\nspec = \"mcts:iterations=50\"\n\
         [[agents]]\nname = \"strong\"\n{only}spec = \"engine:cmd=python3,{engine}args={} {marker}\"\n",
        script.display()
    ))
}

#[test]
fn an_engine_like_the_strongest_open_source_one_plays_clean_games() {
    let marker = format!("arena-strong-marker-{}", std::process::id());
    // Kept alive between games, with the default margin: its slow first move (240 ms on a
    // 200 ms budget) is within the margin, no private key is sent, and it plays only the
    // variant it supports.
    let out = scratch("strong");
    let summary = run(
        &strong_experiment("restart=off,", true, &marker),
        &options(&out),
    )
    .unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    let games = rows(&out.join("games.csv"));
    let played: Vec<_> = games
        .iter()
        .filter(|r| r.first == "strong" || r.second == "strong")
        .collect();
    assert_eq!(played.len(), 8);
    for row in &played {
        assert!(
            ["win", "draw"].contains(&row.termination.as_str()),
            "{row:?}"
        );
        assert_eq!(row.variant, "mnk-9x9k5");
    }
    assert!(processes_with(&marker).is_empty());

    // Unrestricted, the pre-flight check names the variant it refuses, and nothing is played.
    let out = scratch("strong-caro");
    match run(&strong_experiment("", false, &marker), &options(&out)) {
        Err(arena::ArenaError::Setup { agent, message, .. }) => {
            assert_eq!(agent, "strong");
            assert!(
                message.contains("does not play `mnk-9x9k5-caro`"),
                "{message}"
            );
            assert!(message.contains("ERROR Unsupported rule 8"), "{message}");
            assert!(message.contains("INFO rule 8"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(!out.join("games.csv").exists());

    // What went wrong before, and no longer does: the private key it does not know is
    // answered `ERROR Unknown command`, a warning in its log; its slow first move (240 ms on a
    // 200 ms budget, with no margin) is within the first move's set-up allowance.
    let out = scratch("strong-private");
    let summary = run(
        &strong_experiment("private=on,margin_ms=0,", true, &marker),
        &options(&out),
    )
    .unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    let log = fs::read_to_string(out.join("games.logs/strong.log")).unwrap();
    assert_eq!(
        log.matches("warning: the engine answered an INFO line with `ERROR Unknown command")
            .count(),
        8,
        "{log}"
    );
    // Without the allowance, its first move is late in every game.
    let out = scratch("strong-margin");
    run(
        &strong_experiment("margin_ms=0,setup_ms=0,", true, &marker),
        &options(&out),
    )
    .unwrap();
    let log = fs::read_to_string(out.join("games.faults.log")).unwrap();
    assert_eq!(log.lines().count(), 8, "{log}");
    assert!(log.lines().all(|l| l.contains("`strong` timeout")), "{log}");
    assert!(processes_with(&marker).is_empty());
}

#[test]
fn an_agent_of_the_arena_protocol_serves_as_a_gomocup_engine() {
    // `arena engine` wraps any agent: here a Python agent behind the arena protocol, which is
    // sent the moves so far (after BOARD, an order of its stones).
    let algo1 =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../clients/python/examples/algo1.py");
    let lines = engine_session(
        &format!("proc:cmd=python3,args={} 30", algo1.display()),
        "START 5\nINFO win_length 4\nBEGIN\nTURN 0,0\nBOARD\n2,2,1\n0,0,2\n1,1,1\n3,3,2\nDONE\nEND\n",
    );
    assert_eq!(lines[0], "OK");
    assert!(is_move(&lines[1], 5, 5), "{lines:?}");
    assert!(
        is_move(&lines[2], 5, 5) && lines[2] != "0,0" && lines[2] != lines[1],
        "{lines:?}"
    );
    assert!(is_move(&lines[3], 5, 5), "{lines:?}");
    assert!(
        !["2,2", "0,0", "1,1", "3,3"].contains(&lines[3].as_str()),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 4, "{lines:?}");
}

/// An experiment of 16 games on gomoku from the opening suite between `threat` (a small node
/// budget: it answers fast) and the strict scripted engine, under `time`.
fn strict_experiment(time: &str, engine: &str, games: u32, marker: &str) -> Experiment {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("crates/cli/tests/engines/pisq.py");
    let openings = root.join("experiments/openings/gomoku.txt");
    experiment(&format!(
        "name = \"strict\"\nseed = 28\ngames_per_pair = {games}\n{time}\n\
         openings = \"{}\"\nvariants = [\"gomoku\"]\n\
         [[agents]]\nname = \"threat\"\nspec = \"threat:nodes=3000\"\n\
         [[agents]]\nname = \"pisq\"\nspec = \"engine:cmd=python3,{engine}args={} {marker}\"\n",
        openings.display(),
        script.display()
    ))
}

/// The games `pisq` played first and second, and its log: the colour it took in each game and
/// every protocol violation it saw.
fn strict_colours(out: &Path) -> ((usize, usize), String) {
    let games = rows(&out.join("games.csv"));
    let first = games.iter().filter(|r| r.first == "pisq").count();
    let second = games.iter().filter(|r| r.second == "pisq").count();
    let log = fs::read_to_string(out.join("games.logs/pisq.log")).unwrap_or_default();
    ((first, second), log)
}

#[test]
fn a_strict_engine_plays_an_opening_suite_on_its_right_colour_at_a_move_time_and_a_clock() {
    let marker = format!("arena-pisq-marker-{}", std::process::id());
    for time in ["st = 1", "tc = \"60+0.6\""] {
        let out = scratch("strict");
        let summary = run(&strict_experiment(time, "", 16, &marker), &options(&out)).unwrap();
        assert!(
            summary.faults.is_empty(),
            "{time}: {:?}",
            summary.fault_reasons
        );
        assert_eq!(summary.played, 16);
        let ((first, second), log) = strict_colours(&out);
        assert_eq!((first, second), (8, 8), "{time}");
        // Colours from what it received: BEGIN, TURN, or a BOARD replayed in order.
        assert_eq!(log.matches("colour black").count(), first, "{time}: {log}");
        assert_eq!(log.matches("colour white").count(), second, "{time}: {log}");
        assert!(!log.contains("VIOLATION"), "{time}: {log}");
        assert!(!log.contains("warning"), "{time}: {log}");
        // Gomocup's memory limit, 350 MiB, in every game (and the pre-flight check).
        assert_eq!(
            log.matches("max_memory 367001600").count(),
            17,
            "{time}: {log}"
        );
        let games = rows(&out.join("games.csv"));
        for row in &games {
            assert!(
                ["win", "draw"].contains(&row.termination.as_str()),
                "{row:?}"
            );
        }
        // The time control and, under a clock, what is left of both clocks.
        let control = if time.starts_with("st") {
            "st=1"
        } else {
            "tc=60+0.6"
        };
        assert!(
            games
                .iter()
                .all(|r| r.time_control.as_deref() == Some(control))
        );
        let clocked = games.iter().all(|r| {
            r.first_clock_ms.is_some_and(|ms| ms > 0.0)
                && r.second_clock_ms.is_some_and(|ms| ms > 0.0)
        });
        assert_eq!(clocked, control.starts_with("tc"), "{games:?}");
    }
    assert!(processes_with(&marker).is_empty());
}

#[test]
fn an_engine_kept_between_games_without_restart_starts_each_game_with_start() {
    // RESTART is optional in the protocol: pbrain-figrid 1.2.0 answers UNKNOWN, and every game
    // after its first was lost as a crash ("it answered `UNKNOWN` to `RESTART`").
    let marker = format!("arena-pisq-norestart-{}", std::process::id());
    let out = scratch("norestart");
    let exp = strict_experiment(
        "st = 1",
        "restart=off,",
        4,
        &format!("--no-restart {marker}"),
    );
    let summary = run(&exp, &options(&out)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    assert_eq!(summary.played, 4);
    let (_, log) = strict_colours(&out);
    assert!(log.contains("`RESTART` refused"), "{log}");
    assert!(!log.contains("VIOLATION"), "{log}");
    assert!(processes_with(&marker).is_empty());
}

#[test]
fn a_clocked_experiment_has_the_same_schedule_and_seeds_twice_and_is_flagged_as_timed() {
    let marker = format!("arena-pisq-twice-{}", std::process::id());
    let experiment = strict_experiment("tc = \"40/20+0.1\"", "", 4, &marker);
    assert!(experiment.depends_on_timing());
    assert_eq!(experiment.csv_schema(), 3);
    let (a, b) = (scratch("twice-a"), scratch("twice-b"));
    run(&experiment, &options(&a)).unwrap();
    run(&experiment, &options(&b)).unwrap();
    let (ra, rb) = (rows(&a.join("games.csv")), rows(&b.join("games.csv")));
    assert_eq!(ra.len(), 4);
    for (x, y) in ra.iter().zip(&rb) {
        assert_eq!(
            (x.game, x.seed, &x.first, &x.second),
            (y.game, y.seed, &y.first, &y.second)
        );
    }
    // Both agents are deterministic here: only the timing and clock columns differ.
    let same = arena::verify::compare(&a.join("games.csv"), &b.join("games.csv")).unwrap();
    assert_eq!(same.difference, None);
}

#[test]
fn an_error_that_answers_an_info_line_is_a_warning_not_a_fault() {
    let marker = format!("arena-pisq-refuse-{}", std::process::id());
    let out = scratch("refuse");
    // `arena_rng` is sent only to engines that ask for it (`private=on`), and not at the
    // pre-flight check: there an ERROR to the set-up refuses the variant.
    let experiment = strict_experiment(
        "st = 1",
        "private=on,",
        2,
        &format!("--refuse-info arena_rng {marker}"),
    );
    let summary = run(&experiment, &options(&out)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    let (_, log) = strict_colours(&out);
    assert_eq!(
        log.matches(
            "warning: the engine answered an INFO line with `ERROR unsupported INFO arena_rng`"
        )
        .count(),
        2,
        "{log}"
    );
}

#[test]
fn the_first_move_has_the_set_up_allowance_and_max_memory_is_sent() {
    let marker = format!("arena-pisq-memory-{}", std::process::id());
    // No memory limit: the engine takes a second to set up its table on its first move, at
    // half a second a move; the set-up allowance (start_ms) covers it.
    let out = scratch("memory");
    let summary = run(
        &strict_experiment("st = 0.5", "max_memory_mb=0,", 2, &marker),
        &options(&out),
    )
    .unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    // With a shorter allowance, both games are lost on the first move.
    let out = scratch("memory-no-allowance");
    run(
        &strict_experiment(
            "st = 0.5",
            "max_memory_mb=0,margin_ms=0,setup_ms=400,",
            2,
            &marker,
        ),
        &options(&out),
    )
    .unwrap();
    let log = fs::read_to_string(out.join("games.faults.log")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");
    assert!(
        log.lines()
            .all(|l| l.contains("`pisq` timeout") && l.contains("set-up allowance 400 ms")),
        "{log}"
    );
    assert!(processes_with(&marker).is_empty());
}
