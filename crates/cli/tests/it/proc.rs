//! The arena protocol through the arena: our agents served by `arena serve-agent` play exactly
//! the games they play in-process; misbehaving `proc` agents lose with the right termination,
//! the malformed line named in the fault log, and no process left behind; a command that cannot
//! start, or an agent that refuses a variant, stops the run before its first game.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use arena::{ArenaError, Experiment, Progress, RunOptions, Shard, run};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-proc-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn experiment(text: &str) -> Experiment {
    Experiment::from_toml(text, "proc-test.toml").unwrap()
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

fn script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/agents")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn our_agents_served_through_the_protocol_play_the_games_they_play_in_process() {
    let template = r#"
name = "served"
seed = 11
games_per_pair = 4
opening_plies = 2
variants = ["mnk-3x3k3", "mnk-5x5k4", "oanquan", "oanquan-stop"]

[[agents]]
name = "alphabeta"
spec = "alphabeta:depth=3"

[[agents]]
name = "served"
spec = "SERVED"

[[agents]]
name = "flat"
spec = "FLAT"
"#;
    let inside = experiment(
        &template
            .replace("SERVED", "alphabeta:depth=3")
            .replace("FLAT", "mc-flat:rollouts=10"),
    );
    let through = experiment(
        &template
            .replace(
                "SERVED",
                &format!("proc:cmd={ARENA},args=serve-agent --agent alphabeta:depth=3"),
            )
            .replace(
                "FLAT",
                &format!("proc:cmd={ARENA},args=serve-agent --agent mc-flat:rollouts=10"),
            ),
    );
    let (a, b) = (scratch("inside"), scratch("through"));
    run(&inside, &options(&a)).unwrap();
    let summary = run(&through, &options(&b)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    let (a, b) = (rows(&a.join("games.csv")), rows(&b.join("games.csv")));
    assert_eq!(a.len(), 4 * 3 * 4);
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
        // The nodes column counts what the served agent reports in its `info` lines.
        assert_eq!(
            (x.first_nodes, x.second_nodes),
            (y.first_nodes, y.second_nodes),
            "{x:?}"
        );
    }
}

#[test]
fn served_agents_play_three_and_four_player_games_as_they_do_in_process() {
    // The protocol carries the seat and the number of players; served agents of tables of 3
    // and 4 play the same games as in-process, seat for seat.
    let template = r#"
name = "served-multi"
seed = 12
games_per_pair = 1
opening_plies = 2
variants = ["oanquan-3p", "oanquan-4p"]

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "served"
spec = "SERVED"

[[agents]]
name = "flat"
spec = "FLAT"

[[agents]]
name = "random"
spec = "random"
"#;
    let inside = experiment(
        &template
            .replace("SERVED", "mcts:iterations=200")
            .replace("FLAT", "mc-flat:rollouts=5"),
    );
    let through = experiment(
        &template
            .replace(
                "SERVED",
                &format!("proc:cmd={ARENA},args=serve-agent --agent mcts:iterations=200"),
            )
            .replace(
                "FLAT",
                &format!("proc:cmd={ARENA},args=serve-agent --agent mc-flat:rollouts=5"),
            ),
    );
    let (a, b) = (scratch("inside-multi"), scratch("through-multi"));
    run(&inside, &options(&a)).unwrap();
    let summary = run(&through, &options(&b)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    let (a, b) = (rows(&a.join("games.csv")), rows(&b.join("games.csv")));
    // 3 players: 4 groups x 3 seat orders; 4 players: 1 group x 4.
    assert_eq!(a.len(), 12 + 4);
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            (
                &x.seat_names(),
                &x.result,
                &x.termination,
                x.plies,
                &x.moves
            ),
            (
                &y.seat_names(),
                &y.result,
                &y.termination,
                y.plies,
                &y.moves
            ),
            "game {} ({}) differs through the protocol",
            x.game,
            x.variant
        );
    }
}

#[test]
fn misbehaving_agents_lose_with_the_right_termination_and_the_line_named() {
    let marker = format!("arena-proc-marker-{}", std::process::id());
    let modes = [
        ("silent", "timeout", "no move within 500 ms"),
        ("crash", "crash", "Traceback: something broke"),
        (
            "exit",
            "crash",
            "exited (exit status: 0) before answering `go`",
        ),
        (
            "garbage",
            "illegal-move",
            "`I think b2 is nice`: not a line of the arena protocol",
        ),
        ("illegal", "illegal-move", "the agent played `z99`"),
        ("occupied", "illegal-move", "is illegal here"),
        ("slow", "timeout", "no move within 500 ms"),
        ("error", "crash", "gave up: `something went wrong inside`"),
        (
            "badutf8",
            "illegal-move",
            "not UTF-8 text (byte 0xff at column 6",
        ),
        // Sandboxed (the default, best-effort): a line past the bound is the output limit.
        (
            "longline",
            "output-limit",
            "a line longer than 1048576 bytes",
        ),
        ("badinfo", "illegal-move", "`nodes=-1`: expected an integer"),
        // Exits while a helper it started holds its output: seen exiting, not waited out.
        (
            "helper",
            "crash",
            "exited (exit status: 0) before answering `go`",
        ),
        // Output without end and without a newline: the over-long line, at once.
        ("flood", "output-limit", "a line longer than 1048576 bytes"),
        ("escape", "crash", "gave up: `\\u{1b}[2J\\u{1b}[31m boom`"),
        // Its output closed while it runs on: said so (not an exit), and it is stopped.
        (
            "closeout",
            "crash",
            "the agent closed its output (still running: stopped now) before answering `go`",
        ),
        // A limit of the (default) sandbox hit while the game is set up: that verdict, not a
        // crash.
        (
            "gamememory",
            "memory-limit",
            "could not start the game: memory limit",
        ),
    ];
    // Each agent plays `steady` alone, on a board of its own, so that the slow ones do not
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
        "mnk-4x4k3",
        "mnk-5x5k3",
        "mnk-6x7k4",
        "mnk-7x6k4",
        "mnk-7x7k4",
        "mnk-4x7k4",
        "mnk-7x4k4",
    ];
    let mut text = format!(
        "name = \"misbehave\"\nseed = 3\ngames_per_pair = 2\nvariants = {boards:?}\n\n\
         [[agents]]\nname = \"steady\"\nspec = \"random\"\n"
    );
    for ((mode, _, _), board) in modes.iter().chain([("fine", "", "")].iter()).zip(boards) {
        text.push_str(&format!(
            "\n[[agents]]\nname = \"{mode}\"\nvariants = [\"{board}\"]\n\
             spec = \"proc:cmd=python3,timeout_ms=400,margin_ms=100,args={} {mode} {marker}\"\n",
            script("misbehave.py")
        ));
    }
    let exp = experiment(&text);
    let out = scratch("misbehave");
    let summary = run(&exp, &options(&out)).unwrap();
    assert_eq!(summary.played, 2 * (modes.len() as u64 + 1));
    let log = fs::read_to_string(out.join("games.faults.log")).unwrap();
    for row in rows(&out.join("games.csv")) {
        let agents = [row.first.as_str(), row.second.as_str()];
        if !agents.contains(&"steady") {
            continue;
        }
        let agent = if agents[0] == "steady" {
            agents[1]
        } else {
            agents[0]
        };
        let loser = match row.result.as_str() {
            "1-0" => row.second.as_str(),
            "0-1" => row.first.as_str(),
            _ => "",
        };
        match modes.iter().find(|(m, _, _)| *m == agent) {
            Some((_, termination, says)) => {
                assert_eq!(row.termination, *termination, "{agent}: {row:?}");
                assert_eq!(loser, agent, "{row:?}");
                let line = log
                    .lines()
                    .find(|l| l.starts_with(&format!("game {} ", row.game)))
                    .unwrap_or_else(|| panic!("no fault line for game {}:\n{log}", row.game));
                assert!(line.contains(says), "{agent}: {line}");
                assert!(
                    line.len() < 600,
                    "{agent}: a fault line of {} bytes",
                    line.len()
                );
            }
            None => assert!(
                ["win", "draw"].contains(&row.termination.as_str()),
                "{row:?}"
            ),
        }
    }
    // The summary says why, not only how often.
    let reasons = &summary.fault_reasons["garbage"];
    assert!(
        reasons[0].example.contains("I think b2 is nice"),
        "{reasons:?}"
    );
    // Each agent's stderr and its faults went to its own log file.
    let crash_log = fs::read_to_string(out.join("games.logs/crash.log")).unwrap();
    assert!(
        crash_log.contains("Traceback: something broke"),
        "{crash_log}"
    );
    assert!(
        crash_log.contains("the last lines exchanged"),
        "{crash_log}"
    );
    // Nothing an agent wrote reaches the terminal raw.
    let escaped = &summary.fault_reasons["escape"][0].example;
    assert!(!escaped.contains('\u{1b}'), "{escaped}");
    assert!(!log.contains('\u{1b}'));
    // Every agent and every helper an agent started is gone (a moment for the kernel).
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !processes_with(&marker).is_empty() && std::time::Instant::now() < give_up {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let left = processes_with(&marker);
    assert!(left.is_empty(), "agents left running: {left:?}");
}

/// The live processes (zombies left out) of process group `group`, from `/proc`.
fn group_members(group: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid pgrp ...`: the command may hold spaces and parentheses.
        let Some((head, rest)) = stat.rsplit_once(") ") else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let pid = head.split_whitespace().next().and_then(|p| p.parse().ok());
        if let (Some(pid), Some(&state), Some(pgrp)) = (pid, fields.first(), fields.get(2))
            && state != "Z"
            && pgrp.parse() == Ok(group)
        {
            found.push(pid);
        }
    }
    found
}

/// The process groups the agents of a run wrote into `dir` (`ARENA_TEST_GROUPS`).
fn agent_groups(dir: &Path) -> Vec<u32> {
    fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| fs::read_to_string(e.path()).ok()?.trim().parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// `ARENA` with `args`, started with the default disposition of the signals the tests send,
/// whatever this test's are: a background job starts `cargo test` with SIGINT ignored, `nohup`
/// with SIGHUP ignored, and an ignored signal stays ignored across `exec` (the arena rightly
/// keeps it). Python resets them and `exec`s the arena.
pub(crate) fn arena_with_default_signals(args: &[&str]) -> Command {
    let mut command = Command::new("python3");
    command
        .args([
            "-c",
            "import os, signal, sys\n\
             for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):\n    \
             signal.signal(s, signal.SIG_DFL)\n\
             os.execv(sys.argv[1], sys.argv[1:])",
            ARENA,
        ])
        .args(args);
    command
}

/// Waits for `child` to exit, `limit` at most: past it the child is killed and the test fails.
pub(crate) fn wait_at_most(
    child: &mut std::process::Child,
    limit: std::time::Duration,
    what: &str,
) -> std::process::ExitStatus {
    let give_up = std::time::Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() >= give_up {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Waits (10 s at most) until no process has `marker` in its command line; returns those left.
fn gone_with(marker: &str) -> Vec<String> {
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let left = processes_with(marker);
        if left.is_empty() || std::time::Instant::now() >= give_up {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn agents_and_their_helpers_die_with_the_arena_however_it_dies() {
    use std::time::{Duration, Instant};
    // (signal, agent mode): `hang` starts a helper in its group on its first `go` and never
    // answers; `setsidhang` starts helpers outside its group (a session of their own, one of
    // them a daemon) and never answers; `noready` never finishes the pre-flight handshake.
    // SIGKILL leaves the arena no moment to act: the watchdog kills the agents' groups, and
    // helpers outside them are out of reach (the reliability page says so).
    for (signal, mode) in [
        ("TERM", "hang"),
        ("INT", "hang"),
        ("TERM", "setsidhang"),
        ("INT", "setsidhang"),
        ("HUP", "setsidhang"),
        ("KILL", "hang"),
        ("KILL", "noready"),
    ] {
        let marker = format!("arena-die-{signal}-{mode}-{}", std::process::id());
        let dir = scratch(&format!("die-{signal}-{mode}"));
        let groups = dir.join("groups");
        fs::create_dir_all(&groups).unwrap();
        let file = dir.join("die.toml");
        fs::write(
            &file,
            format!(
                // The agents write their process groups into a folder outside their own, which
                // the sandbox forbids: this test is about stopping them, not confining them.
                "name = \"die\"\nseed = 1\ngames_per_pair = 2\nvariants = [\"mnk-5x5k4\"]\n\
                 sandbox = \"off\"\n\n\
                 [[agents]]\nname = \"steady\"\nspec = \"random\"\n\n\
                 [[agents]]\nname = \"{mode}\"\n\
                 spec = \"proc:cmd=python3,timeout_ms=600000,start_ms=600000,args={} {mode} \
                 {marker}\"\n",
                script("misbehave.py")
            ),
        )
        .unwrap();
        let out = dir.join("out");
        let mut arena = arena_with_default_signals(&[
            "run",
            file.to_str().unwrap(),
            "--no-report",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
        .env("ARENA_TEST_GROUPS", &groups)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
        // Until the agent waits on its move with its helpers beside it (or hangs in the
        // handshake).
        let members = if mode == "hang" { 2 } else { 1 };
        let helpers = if mode == "setsidhang" { 2 } else { 0 };
        let waited = Instant::now();
        while !agent_groups(&groups)
            .iter()
            .any(|&g| group_members(g).len() >= members)
            || processes_with(&marker).len() < helpers + 1
        {
            assert!(
                waited.elapsed() < Duration::from_secs(60),
                "{mode}: no agent"
            );
            assert!(arena.try_wait().unwrap().is_none(), "the run ended");
            std::thread::sleep(Duration::from_millis(20));
        }
        let killed = Command::new("kill")
            .args([format!("-{signal}"), arena.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = wait_at_most(&mut arena, Duration::from_secs(60), signal);
        assert!(!status.success(), "{signal}: {status}");
        let give_up = Instant::now() + Duration::from_secs(10);
        let left = loop {
            let left: Vec<u32> = agent_groups(&groups)
                .into_iter()
                .flat_map(group_members)
                .collect();
            if left.is_empty() || Instant::now() >= give_up {
                break left;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(
            left.is_empty(),
            "SIG{signal} of the arena ({mode}) left {left:?} running"
        );
        let left = gone_with(&marker);
        assert!(
            left.is_empty(),
            "SIG{signal} of the arena ({mode}) left {left:?} running"
        );
    }
}

#[test]
fn helpers_that_leave_their_agents_group_die_when_the_run_ends() {
    // `setsid` starts, on its first move, a helper in a session of its own and a daemon (its
    // parent exits at once), then plays legal moves; the run and the test end normally.
    let dir = scratch("setsid");
    for command in ["run", "sprt"] {
        let marker = format!("arena-setsid-{command}-{}", std::process::id());
        let spec = format!(
            "proc:cmd=python3,args={} setsid {marker}",
            script("misbehave.py")
        );
        let out = dir.join(command);
        let file = dir.join("setsid.toml");
        fs::write(
            &file,
            format!(
                "name = \"setsid\"\nseed = 1\ngames_per_pair = 4\nvariants = [\"mnk-3x3k3\"]\n\n\
                 [[agents]]\nname = \"steady\"\nspec = \"random\"\n\n\
                 [[agents]]\nname = \"setsid\"\nspec = \"{spec}\"\n"
            ),
        )
        .unwrap();
        let args: Vec<&str> = match command {
            "run" => vec![
                "run",
                file.to_str().unwrap(),
                "--no-report",
                "--threads",
                "2",
                "--out",
                out.to_str().unwrap(),
            ],
            _ => vec![
                "sprt",
                "mnk-3x3k3",
                "--candidate",
                &spec,
                "--baseline",
                "random",
                "--max-pairs",
                "3",
                "--threads",
                "2",
                "--out",
                out.to_str().unwrap(),
            ],
        };
        let mut arena = Command::new(ARENA)
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let status = wait_at_most(&mut arena, std::time::Duration::from_secs(120), command);
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut arena.stderr.take().unwrap(), &mut stderr).unwrap();
        assert!(status.success(), "{command}: {status}\n{stderr}");
        let left = gone_with(&marker);
        assert!(
            left.is_empty(),
            "`arena {command}` ended and left its agent's helpers running: {left:?}"
        );
    }
}

#[test]
fn agent_names_with_control_characters_are_refused() {
    let error = Experiment::from_toml(
        "name = \"x\"\nseed = 1\ngames_per_pair = 2\nvariants = [\"mnk-3x3k3\"]\n\n\
         [[agents]]\nname = \"a\\u001b[2J\"\nspec = \"random\"\n\n\
         [[agents]]\nname = \"b\"\nspec = \"random\"\n",
        "names.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("agents[0].name") && error.contains("control character"),
        "{error}"
    );
}

fn run_cli(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(ARENA).args(args).output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_command_that_cannot_start_stops_the_run_before_its_first_game() {
    let dir = scratch("nostart");
    let not_executable = dir.join("agent.py");
    fs::write(&not_executable, "print('hi')\n").unwrap();
    for (spec, says) in [
        (
            "engine:cmd=/nonexistent/x",
            "cannot start `/nonexistent/x`: no such file",
        ),
        (
            "proc:cmd=/nonexistent/y",
            "cannot start `/nonexistent/y`: no such file",
        ),
        (
            &format!("proc:cmd={}", not_executable.display()),
            "permission denied",
        ),
        (
            &format!(
                "proc:cmd=python3,start_ms=500,args={} noready",
                script("misbehave.py")
            ),
            "no `ready` within 500 ms",
        ),
    ] {
        let file = dir.join("exp.toml");
        fs::write(
            &file,
            format!(
                "name = \"nostart\"\nseed = 1\ngames_per_pair = 2\nvariants = [\"mnk-5x5k4\"]\n\
                 [[agents]]\nname = \"random\"\nspec = \"random\"\n\
                 [[agents]]\nname = \"mine\"\nspec = \"{spec}\"\n"
            ),
        )
        .unwrap();
        let out = dir.join("out");
        let (ok, stdout, stderr) = run_cli(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--no-report",
        ]);
        assert!(!ok, "{spec}: exit 0\n{stdout}");
        assert!(stderr.contains("agent `mine`"), "{spec}: {stderr}");
        assert!(stderr.contains(says), "{spec}: {stderr}");
        assert!(!stderr.contains("crash"), "{spec}: {stderr}");
        assert!(
            !out.join("games.csv").exists(),
            "{spec}: games were recorded"
        );
    }
}

#[test]
fn an_agent_that_refuses_a_variant_is_named_with_the_variant() {
    let exp = experiment(&format!(
        "name = \"refuse\"\nseed = 1\ngames_per_pair = 2\nvariants = [\"oanquan\"]\n\
         [[agents]]\nname = \"random\"\nspec = \"random\"\n\
         [[agents]]\nname = \"chess-only\"\nspec = \"proc:cmd=python3,args={} refuse\"\n",
        script("misbehave.py")
    ));
    let out = scratch("refuse");
    match run(&exp, &options(&out)) {
        Err(ArenaError::Setup { agent, message, .. }) => {
            assert_eq!(agent, "chess-only");
            assert!(message.contains("does not play `oanquan`"), "{message}");
            assert!(message.contains("error I only play chess"), "{message}");
            assert!(message.contains("variants"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_fresh_run_moves_the_old_fault_log_aside() {
    let text = format!(
        "name = \"fresh\"\nseed = 2\ngames_per_pair = 2\nvariants = [\"mnk-3x3k3\"]\n\
         [[agents]]\nname = \"steady\"\nspec = \"random\"\n\
         [[agents]]\nname = \"served\"\nspec = \"proc:cmd={ARENA},args=serve-agent --agent random\"\n\
         [[agents]]\nname = \"faulty\"\nspec = \"fault:mode=illegal\"\n"
    );
    let exp = experiment(&text);
    let out = scratch("fresh");
    run(&exp, &options(&out)).unwrap();
    let first = fs::read_to_string(out.join("games.faults.log")).unwrap();
    assert_eq!(first.lines().count(), 4, "{first}");
    assert!(out.join("games.logs/served.log").exists());
    // A folder left by an earlier run that stopped half-way takes its number.
    fs::create_dir_all(out.join("games.csv.old-1.logs")).unwrap();
    fs::write(out.join("games.csv.old-1.logs/x.log"), "x").unwrap();
    let mut again = options(&out);
    again.fresh = true;
    let summary = run(&exp, &again).unwrap();
    let second = fs::read_to_string(out.join("games.faults.log")).unwrap();
    assert_eq!(
        second.lines().count(),
        4,
        "the old run's lines were kept:\n{second}"
    );
    let aside = summary.moved_aside.unwrap();
    assert!(
        aside.display().to_string().ends_with("games.csv.old-2"),
        "{}",
        aside.display()
    );
    let old = fs::read_to_string(format!("{}.faults.log", aside.display())).unwrap();
    assert_eq!(old, first);
    assert!(Path::new(&format!("{}.logs/served.log", aside.display())).exists());
    // Again: every file of each run keeps its place.
    run(&exp, &again).unwrap();
    assert!(out.join("games.csv.old-3.faults.log").exists());
    // A resumed run's summary has the reasons of the faults recorded before.
    let summary = run(&exp, &options(&out)).unwrap();
    assert_eq!(summary.played, 0);
    assert_eq!(
        summary.fault_reasons["faulty"][0].count, 4,
        "{:?}",
        summary.fault_reasons
    );
}

#[test]
fn an_agent_that_can_play_again_keeps_its_process_between_games() {
    let dir = scratch("reuse");
    let agent = dir.join("pid.py");
    fs::write(
        &agent,
        "import os, sys\nprint('started', os.getpid(), file=sys.stderr, flush=True)\n\
         legal = []\nfor line in sys.stdin:\n    w = line.split()\n    if not w: continue\n\
         \x20   if w[0] == 'arena': print('feature reuse\\nready', flush=True)\n\
         \x20   elif w[0] == 'game': print('ok', flush=True)\n\
         \x20   elif w[0] == 'legal': legal = w[1:]\n\
         \x20   elif w[0] == 'go': print('move', legal[0], flush=True)\n\
         \x20   elif w[0] == 'quit': break\n",
    )
    .unwrap();
    let exp = experiment(&format!(
        "name = \"reuse\"\nseed = 2\ngames_per_pair = 10\nvariants = [\"mnk-3x3k3\", \"oanquan\"]\n\
         [[agents]]\nname = \"random\"\nspec = \"random\"\n\
         [[agents]]\nname = \"again\"\nspec = \"proc:cmd=python3,args={}\"\n",
        agent.display()
    ));
    let out = dir.join("out");
    let summary = run(&exp, &options(&out)).unwrap();
    assert_eq!(summary.played, 20);
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    let log = fs::read_to_string(out.join("games.logs/again.log")).unwrap();
    let starts = log.lines().filter(|l| l.contains("started")).count();
    // One for the pre-flight check, then at most one per worker thread for 20 games.
    assert!(starts <= 3, "{starts} processes for 20 games:\n{log}");
}

#[test]
fn a_program_that_exits_before_the_handshake_is_said_in_plain_words() {
    // It reads the greeting and exits: no run's pre-flight here, the agent's first move starts
    // it.
    let output = Command::new(ARENA)
        .args(["analyze", "tictactoe", "--moves", "b2", "--agent"])
        .arg("proc:cmd=sh,args=-c 'read line; exit 3'")
        .output()
        .unwrap();
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        error.contains(
            "crash: set-up failed: it exited (exit status: 3) before answering `arena 1`"
        ),
        "{error}"
    );
    assert!(!error.contains("the agent it"), "{error}");
}

#[test]
fn only_an_agent_that_keeps_a_clock_plays_a_game_clock() {
    let clocked = |spec: &str| {
        experiment(&format!(
            "name = \"clock\"\nseed = 3\ngames_per_pair = 2\ntc = \"10+0.1\"\n\
             variants = [\"mnk-5x5k4\"]\n\
             [[agents]]\nname = \"random\"\nspec = \"random\"\n\
             [[agents]]\nname = \"outside\"\nspec = \"{spec}\"\n"
        ))
    };
    // It did not announce `feature clock`: `time_ms` would be its whole clock.
    let out = scratch("no-clock");
    let spec = format!("proc:cmd=python3,args={} fine", script("misbehave.py"));
    match run(&clocked(&spec), &options(&out)) {
        Err(ArenaError::Setup { agent, message, .. }) => {
            assert_eq!(agent, "outside");
            assert!(message.contains("tc=10+0.1"), "{message}");
            assert!(message.contains("feature clock"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(!out.join("games.csv").exists());
    // Our agents behind the protocol keep one: they are sent the clock and play.
    let out = scratch("clock");
    let spec = format!("proc:cmd={ARENA},args=serve-agent --agent alphabeta:depth=2");
    let summary = run(&clocked(&spec), &options(&out)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    for row in rows(&out.join("games.csv")) {
        assert_eq!(row.time_control.as_deref(), Some("tc=10+0.1"));
        let left = [row.first_clock_ms.unwrap(), row.second_clock_ms.unwrap()];
        assert!(
            left.iter()
                .all(|&ms| ms > 0.0 && ms <= 10_000.0 + 0.1 * 13.0 * 1e3),
            "{row:?}"
        );
    }
}

#[test]
fn an_outside_agent_that_flags_on_its_game_clock_loses_on_time_in_the_clock_s_words() {
    let marker = format!("arena-proc-flags-{}", std::process::id());
    let exp = experiment(&format!(
        "name = \"flags\"\nseed = 3\ngames_per_pair = 2\ntc = \"0.3\"\n\
         variants = [\"mnk-3x3k3\"]\n\n\
         [[agents]]\nname = \"steady\"\nspec = \"random\"\n\n\
         [[agents]]\nname = \"silent\"\n\
         spec = \"proc:cmd=python3,timeout_ms=5000,margin_ms=100,args={} silent {marker}\"\n",
        script("misbehave.py")
    ));
    let out = scratch("flags");
    let summary = run(&exp, &options(&out)).unwrap();
    assert_eq!(summary.played, 2);
    for row in rows(&out.join("games.csv")) {
        assert_eq!(row.termination, "timeout", "{row:?}");
        let (silent, steady) = if row.first == "silent" {
            (row.first_clock_ms, row.second_clock_ms)
        } else {
            (row.second_clock_ms, row.first_clock_ms)
        };
        assert_eq!(silent, Some(0.0), "the seat that flagged: {row:?}");
        assert!(steady.is_some_and(|ms| ms > 0.0), "{row:?}");
    }
    // The documented wording, not the per-move limit's.
    let log = fs::read_to_string(out.join("games.faults.log")).unwrap();
    assert_eq!(log.matches("lost on time: move 1 took").count(), 2, "{log}");
    assert_eq!(log.matches("on its clock (tc=0.3)").count(), 2, "{log}");
    assert!(!log.contains("no move within"), "{log}");
    // The agents are gone (a moment for the kernel).
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !processes_with(&marker).is_empty() && std::time::Instant::now() < give_up {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let left = processes_with(&marker);
    assert!(left.is_empty(), "agents left running: {left:?}");
}

#[test]
fn a_run_ended_by_a_signal_records_no_game_its_killed_agents_lose() {
    use std::time::{Duration, Instant};
    // The arena kills its agents as it ends on a signal: a game that an agent then "loses"
    // (a `crash` on its closed pipe) is not the agent's doing, and no row may record it; the
    // rows before stand and a resume plays the rest. Enough games that the run cannot end
    // before the signal however long this thread waits on a loaded machine (300 games took
    // 0.4 s, and a run that had ended failed the test now and then).
    const GAMES: usize = 3000;
    for signal in ["TERM", "INT"] {
        let marker = format!("arena-halt-{signal}-{}", std::process::id());
        let dir = scratch(&format!("halt-{signal}"));
        let text = format!(
            "name = \"halt\"\nseed = 5\ngames_per_pair = {GAMES}\nvariants = [\"mnk-5x5k4\"]\n\n\
             [[agents]]\nname = \"steady\"\nspec = \"random\"\n\n\
             [[agents]]\nname = \"fine\"\n\
             spec = \"proc:cmd=python3,args={} fine {marker}\"\n",
            script("misbehave.py")
        );
        let file = dir.join("halt.toml");
        fs::write(&file, &text).unwrap();
        let out = dir.join("out");
        let csv = out.join("games.csv");
        let mut arena = arena_with_default_signals(&[
            "run",
            file.to_str().unwrap(),
            "--no-report",
            "--threads",
            "2",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
        // Until a few games are recorded, both agents playing.
        let waited = Instant::now();
        while fs::read_to_string(&csv).map_or(0, |t| t.lines().count()) < 6 {
            assert!(waited.elapsed() < Duration::from_secs(60), "no games");
            assert!(arena.try_wait().unwrap().is_none(), "the run ended");
            std::thread::sleep(Duration::from_millis(5));
        }
        let killed = Command::new("kill")
            .args([format!("-{signal}"), arena.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = wait_at_most(&mut arena, Duration::from_secs(60), signal);
        assert!(!status.success(), "{signal}: {status}");
        let recorded = rows(&csv);
        assert!(recorded.len() < GAMES, "SIG{signal} came after the run");
        let faults: Vec<_> = recorded
            .iter()
            .filter(|row| row.termination != "win" && row.termination != "draw")
            .collect();
        assert!(faults.is_empty(), "SIG{signal}: {faults:?}");
        // The resume plays the rest, without a fault.
        let summary = run(&experiment(&text), &options(&out)).unwrap();
        assert_eq!(summary.resumed, recorded.len() as u64);
        assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
        assert_eq!(rows(&csv).len(), GAMES);
        assert!(gone_with(&marker).is_empty());
    }
}
