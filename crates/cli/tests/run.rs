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
    let dir = std::env::temp_dir().join(format!(
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
    assert!(text.contains("mnk-3x3k3: 2 games in 1 pairs"), "{text}");
    assert!(
        text.contains("(not playing this variant: greedy)"),
        "{text}"
    );
    assert!(text.contains("oanquan: 6 games in 3 pairs"), "{text}");
    assert!(!dir.join("results").exists());
    let default = arena(&["run", "--dry-run"]);
    assert!(String::from_utf8_lossy(&default.stdout).starts_with("default: 6 variants"));
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
