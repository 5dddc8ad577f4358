//! `arena run`, `arena report` and `arena merge` end to end through the binary.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env_remove("SLURM_CPUS_PER_TASK")
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-cli-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

const SMALL: &str = r#"name = "small"
seed = 4
games_per_pair = 2
variants = ["tictactoe", "oanquan"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "mcts"
spec = "mcts:iterations=200"
"#;

#[test]
fn a_run_writes_the_games_and_the_report_without_escape_codes() {
    let dir = scratch("run");
    let file = dir.join("small.toml");
    fs::write(&file, SMALL).unwrap();
    let out = dir.join("out");
    let output = arena(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
        "--no-report",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    // random and mcts play both games; greedy only O An Quan: 2 + 6 games.
    assert!(text.contains("8 games in shard 0/1"), "{text}");
    assert!(text.contains("faults: none"), "{text}");
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(progress.contains("progress: 8/8 games"), "{progress}");
    assert!(!progress.contains('\x1b') && !text.contains('\x1b'));
    let csv = out.join("games.csv");
    assert_eq!(fs::read_to_string(&csv).unwrap().lines().count(), 9);

    let report = arena(&["report", csv.to_str().unwrap(), "--bootstrap", "50"]);
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    for file in [
        "ratings.csv",
        "standings.csv",
        "report.md",
        "elo-oanquan.png",
        "elo-mnk-3x3k3.svg",
    ] {
        assert!(out.join(file).exists(), "{file} missing");
    }
    let ratings = fs::read_to_string(out.join("ratings.csv")).unwrap();
    assert!(
        ratings.starts_with("variant,agent,elo,elo_low,elo_high,games,score,wins,draws,losses")
    );
}

#[test]
fn a_run_says_on_stderr_that_it_writes_the_report_and_when_it_is_done() {
    let dir = scratch("run-report");
    let file = dir.join("small.toml");
    fs::write(&file, SMALL).unwrap();
    let out = dir.join("out");
    let output = arena(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{progress}");
    let games = progress
        .find("progress: 8/8 games")
        .expect("the games' progress");
    let writing = format!(
        "report: writing {} and its charts ...\n",
        out.join("report.md").display()
    );
    let start = progress.find(&writing).expect("a line before the report");
    let done = progress
        .find("report: written in ")
        .expect("a line after it");
    assert!(games < start && start < done, "{progress}");
    let seconds = progress[done..]
        .strip_prefix("report: written in ")
        .and_then(|rest| rest.split_once(" s\n"))
        .map(|(seconds, _)| seconds);
    assert!(
        seconds.is_some_and(|s| s.parse::<f64>().is_ok()),
        "{progress}"
    );
    assert!(out.join("report.md").exists());
}

#[test]
fn dry_run_prints_the_schedule() {
    let dir = scratch("dry");
    let file = dir.join("small.toml");
    fs::write(&file, SMALL).unwrap();
    let output = arena(&["run", file.to_str().unwrap(), "--dry-run"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("small: 2 variants, 3 agents, 2 games per pair, 8 games"),
        "{text}"
    );
    assert!(text.contains("mnk-3x3k3: 2 games in 1 pair\n"), "{text}");
    assert!(
        text.contains("(not playing this variant: greedy)"),
        "{text}"
    );
    assert!(text.contains("oanquan: 6 games in 3 pairs"), "{text}");
    assert!(!dir.join("results").exists());
    let default = arena(&["run", "--dry-run"]);
    let default = String::from_utf8_lossy(&default.stdout);
    assert!(default.starts_with("default: 6 variants"));
    assert!(!default.contains("gauntlet"), "{default}");
}

#[test]
fn dry_run_prints_a_gauntlet_as_entrants_against_the_field() {
    let dir = scratch("dry-gauntlet");
    let file = dir.join("gauntlet.toml");
    let gauntlet = SMALL
        .replacen("[[agents]]", "format = \"gauntlet\"\n\n[[agents]]", 1)
        .replacen(
            "spec = \"random\"\n",
            "spec = \"random\"\nfield = true\n",
            1,
        );
    fs::write(&file, &gauntlet).unwrap();
    let output = arena(&["run", file.to_str().unwrap(), "--dry-run"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{gauntlet}\n{text}");
    assert!(
        text.contains("a gauntlet: 2 entrants against a field of 1 agent (field = true)"),
        "{text}"
    );
    // O An Quan: random (the field) against each of the two others, not those two together.
    assert!(text.contains("oanquan: 4 games in 2 pairs"), "{text}");
}

#[test]
fn a_bad_experiment_file_names_the_key_and_exits_non_zero() {
    let dir = scratch("bad");
    let file = dir.join("bad.toml");
    fs::write(
        &file,
        SMALL.replace("spec = \"greedy\"", "spec = \"greedier\""),
    )
    .unwrap();
    let output = arena(&["run", file.to_str().unwrap()]);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("bad.toml:12:8: key `agents[1].spec`"),
        "{error}"
    );
    assert!(error.contains("unknown agent kind `greedier`"), "{error}");
    let output = arena(&["run", "no-such-file.toml"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("no-such-file.toml"));
    let output = arena(&["run", "--shard", "4/4"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a shard"));
}

#[test]
fn slurm_writes_the_job_scripts() {
    let dir = scratch("slurm");
    let file = dir.join("small.toml");
    fs::write(&file, SMALL).unwrap();
    let out = dir.join("out");
    let output = arena(&[
        "slurm",
        file.to_str().unwrap(),
        "--shards",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--time",
        "00:05:00",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let array = fs::read_to_string(out.join("slurm/array.sbatch")).unwrap();
    assert!(array.contains("#SBATCH --array=0-2"));
    assert!(array.contains("--shard \"${SLURM_ARRAY_TASK_ID}/3\""));
    assert_eq!(
        fs::read_to_string(out.join("slurm/experiment.toml")).unwrap(),
        SMALL
    );
    assert!(out.join("slurm/submit.sh").exists());
}

/// A finished run of `SMALL` in a new folder, without the report.
fn small_run(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let file = dir.join("small.toml");
    fs::write(&file, SMALL).unwrap();
    let out = dir.join("out");
    let output = arena(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-report",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (file, out)
}

#[test]
fn report_refuses_a_game_read_twice_or_drops_it_with_a_count() {
    let (_, out) = small_run("dup");
    let csv = out.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let third = text.lines().nth(3).unwrap();
    fs::write(&csv, format!("{text}{third}\n")).unwrap();
    let csv = csv.to_str().unwrap();
    let refused = arena(&["report", csv, "--intervals", "none"]);
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(
        error.contains(
            "games.csv: line 10: game 2 of experiment `small`, variant `oanquan`, was already read"
        ),
        "{error}"
    );
    assert!(error.contains("--drop-duplicates"), "{error}");
    let dropped = arena(&["report", csv, "--intervals", "none", "--drop-duplicates"]);
    assert!(
        dropped.status.success(),
        "{}",
        String::from_utf8_lossy(&dropped.stderr)
    );
    let text = String::from_utf8_lossy(&dropped.stdout);
    assert!(text.contains("dropped 1 duplicated game(s)"), "{text}");
    assert!(text.contains("8 games; report written"), "{text}");
    assert!(
        text.contains("games used per pool: mnk-3x3k3 2, oanquan 6, all 8"),
        "{text}"
    );
    // The same file given twice: every game of the second copy is a duplicate too (9 rows),
    // besides the one within the file.
    let twice = arena(&[
        "report",
        csv,
        csv,
        "--intervals",
        "none",
        "--drop-duplicates",
    ]);
    let text = String::from_utf8_lossy(&twice.stdout);
    assert!(text.contains("dropped 10 duplicated game(s)"), "{text}");
    assert!(text.contains("8 games; report written"), "{text}");
}

#[test]
fn report_says_what_is_wrong_with_its_input_in_plain_words() {
    let (file, out) = small_run("words");
    // An experiment file is not a games CSV.
    let output = arena(&["report", file.to_str().unwrap()]);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("small.toml` is not a games CSV: its first line is not a header"),
        "{error}"
    );
    // An anchor that did not play: the agents that did are listed.
    let csv = out.join("games.csv");
    let output = arena(&[
        "report",
        csv.to_str().unwrap(),
        "--anchor",
        "abx=0",
        "--intervals",
        "none",
    ]);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains(
            "`abx` played no game in the input; the agents that played are: greedy, mcts, random"
        ),
        "{error}"
    );
    // A half-written last row (a run writing this moment) is left out, and said so.
    let text = fs::read_to_string(&csv).unwrap();
    let cut = &text[..text.len() - 30];
    fs::write(&csv, cut).unwrap();
    let output = arena(&["report", csv.to_str().unwrap(), "--intervals", "none"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("left out the last line of"), "{text}");
    assert!(text.contains("7 games; report written"), "{text}");
}

#[test]
fn verify_checks_a_folder_and_compares_it_with_another_run() {
    let (file, out) = small_run("verify");
    let output = arena(&["verify", out.to_str().unwrap()]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("8 games of experiment `small`: every row is the game the schedule says and replays to its recorded result"),
        "{text}"
    );
    // A second run checked against the first as it ends.
    let again = out.with_file_name("again");
    let output = arena(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
        "--no-report",
        "--threads",
        "1",
        "--check-against",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains(&format!(
            "verified: 8 games, identical to {} outside timing columns",
            out.display()
        )),
        "{text}"
    );
    // A difference outside the timing columns is named, with a non-zero exit.
    let csv = again.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let fields: Vec<&str> = lines[2].split(',').collect();
    let mut changed: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    changed[15] = (changed[15].parse::<u64>().unwrap() + 1).to_string();
    lines[2] = changed.join(",");
    fs::write(&csv, lines.join("\n") + "\n").unwrap();
    let output = arena(&[
        "verify",
        again.to_str().unwrap(),
        "--against",
        out.to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("line 3 (game 1): column `first_nodes`"),
        "{error}"
    );
}

/// An experiment of `agents` random agents on `variant`, one game per group.
fn crowd(variant: &str, agents: usize) -> String {
    let mut text =
        format!("name = \"crowd\"\nseed = 1\ngames_per_pair = 1\nvariants = [\"{variant}\"]\n");
    for i in 0..agents {
        text.push_str(&format!(
            "\n[[agents]]\nname = \"r{i}\"\nspec = \"random\"\n"
        ));
    }
    text
}

/// The peak resident memory of process `pid`, in KiB (`VmHWM`).
fn peak_kib(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn memory_before_the_first_game_does_not_grow_with_the_number_of_groups() {
    use std::time::{Duration, Instant};
    // 200 agents on a 4-player variant: 64,684,950 groups; 5,000 on tic-tac-toe: 12,497,500
    // pairs. Both once took gigabytes before their first game.
    for (variant, agents) in [("oanquan-4p", 200), ("tictactoe", 5_000)] {
        let dir = scratch("crowd");
        let file = dir.join("crowd.toml");
        fs::write(&file, crowd(variant, agents)).unwrap();
        let out = dir.join("out");
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args([
                "run",
                file.to_str().unwrap(),
                "--no-report",
                "--threads",
                "1",
            ])
            .args(["--out", out.to_str().unwrap()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let csv = out.join("games.csv");
        let waited = Instant::now();
        let mut peak = 0;
        while fs::read_to_string(&csv).map_or(0, |t| t.lines().count()) < 11 {
            assert!(
                child.try_wait().unwrap().is_none(),
                "{variant}: the run ended"
            );
            assert!(
                waited.elapsed() < Duration::from_secs(300),
                "{variant}: no game in 300 s"
            );
            peak = peak.max(peak_kib(child.id()));
            std::thread::sleep(Duration::from_millis(20));
        }
        peak = peak.max(peak_kib(child.id()));
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(
            peak < 200 * 1024,
            "{agents} agents on {variant}: {} MiB before the tenth game",
            peak / 1024
        );
    }
}

/// Issue 34.5: while `arena run` plays, `games.live.toml` beside the CSV names its games in
/// progress; a run stopped by SIGTERM removes it (a page then shows the run stopped at once).
#[test]
fn a_run_stopped_by_a_signal_removes_its_games_in_progress() {
    let dir = scratch("live-signal");
    let experiment = dir.join("live.toml");
    fs::write(
        &experiment,
        "name = \"live\"\nseed = 3\ngames_per_pair = 100\nvariants = [\"mnk-9x9k5\"]\n\
         [[agents]]\nname = \"a\"\nspec = \"mcts:iterations=20000\"\n\
         [[agents]]\nname = \"b\"\nspec = \"mcts:iterations=20000\"\n",
    )
    .unwrap();
    let out = dir.join("out");
    let mut child = crate::proc::arena_with_default_signals(&[
        "run",
        experiment.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
    ])
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let live = out.join("games.live.toml");
    let waited = std::time::Instant::now();
    while !fs::read_to_string(&live).is_ok_and(|t| t.contains("moves = \"")) {
        if waited.elapsed() > std::time::Duration::from_secs(60)
            || child.try_wait().unwrap().is_some()
        {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no game in progress in {} within 60 s", live.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    crate::proc::wait_at_most(&mut child, std::time::Duration::from_secs(30), "the run");
    assert!(!live.exists(), "{} left behind", live.display());
    assert!(!out.join("games.live.toml.part").exists());
}
