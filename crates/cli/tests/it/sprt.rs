//! `arena sprt` and `arena report` end to end through the binary.

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

#[test]
fn a_clearly_stronger_candidate_is_accepted_and_the_report_reads_the_games() {
    let dir = scratch("sprt");
    let out = dir.join("out");
    let args = [
        "sprt",
        "mnk-4x4k3",
        "--candidate",
        "alphabeta:depth=4",
        "--baseline",
        "random",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    let output = arena(&args);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("accept H0 at LLR <= -2.944, H1 at LLR >= 2.944"),
        "{text}"
    );
    assert!(text.contains("H1 accepted after "), "{text}");
    assert!(text.contains("LL-LD-DD/WL-WD-WW"), "{text}");
    let games = fs::read_to_string(out.join("games.csv")).unwrap();
    let rows = games.lines().count() - 1;
    assert!(rows >= 2 && rows.is_multiple_of(2), "{rows} games");
    for file in ["report.md", "ratings.csv", "games.meta.toml", "sprt.toml"] {
        assert!(out.join(file).exists(), "{file} missing");
    }
    let markdown = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(markdown.contains("| candidate | baseline |"), "{markdown}");
    // Run again: the test is already decided, nothing more is played.
    let again = arena(&args);
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(
        text.contains("resumed: pairs") && text.contains("0 played now"),
        "{text}"
    );
    assert_eq!(fs::read_to_string(out.join("games.csv")).unwrap(), games);
    // Other bounds on the same games: refused, the games untouched.
    let mut other = args.to_vec();
    other.extend(["--elo1", "5"]);
    let refused = arena(&other);
    assert!(!refused.status.success());
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("belong to another test"), "{message}");
}

/// The baseline of a strength test is often an older build of the program: an outside agent
/// (here this binary's `serve-agent`), over the pairs of an opening suite.
#[test]
fn an_outside_baseline_plays_pairs_from_an_opening_suite() {
    let dir = scratch("sprt-outside");
    let out = dir.join("out");
    let suite = dir.join("suite.txt");
    fs::write(&suite, "[mnk-4x4k3]\nb2 c3\na1\n").unwrap();
    let baseline = format!(
        "proc:cmd={},args=serve-agent --agent random",
        env!("CARGO_BIN_EXE_arena")
    );
    let output = arena(&[
        "sprt",
        "mnk-4x4k3",
        "--candidate",
        "alphabeta:depth=4",
        "--baseline",
        &baseline,
        "--openings",
        suite.to_str().unwrap(),
        "--max-pairs",
        "3",
        "--threads",
        "1",
        "--no-report",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = fs::read_to_string(out.join("games.csv")).unwrap();
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(rows.len(), 6, "{games}");
    for (index, row) in rows.iter().enumerate() {
        // The moves field starts with the pair's line of the suite.
        let opening = ["b2 c3", "a1", "b2 c3"][index / 2];
        assert!(row.contains(&format!(",{opening} ")), "{row}");
    }
    assert!(
        fs::read_to_string(out.join("experiment.toml"))
            .unwrap()
            .contains("serve-agent")
    );
    assert!(out.join("suite.txt").exists());
    // A suite and random plies do not go together.
    let refused = arena(&[
        "sprt",
        "mnk-4x4k3",
        "--candidate",
        "random",
        "--baseline",
        "random",
        "--openings",
        suite.to_str().unwrap(),
        "--opening-plies",
        "2",
    ]);
    assert!(!refused.status.success());
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("--opening-plies"), "{message}");
}

#[test]
fn bad_arguments_are_clear_errors() {
    for (args, expected) in [
        (
            vec![
                "sprt",
                "mnk-4x4k3",
                "--candidate",
                "nonsense",
                "--baseline",
                "random",
            ],
            "--candidate `nonsense`",
        ),
        (
            vec![
                "sprt",
                "mnk-4x4k3",
                "--candidate",
                "greedy",
                "--baseline",
                "random",
            ],
            "--candidate `greedy`",
        ),
        (
            vec![
                "sprt",
                "mnk-4x4k3",
                "--candidate",
                "random",
                "--baseline",
                "random",
                "--elo0",
                "5",
                "--elo1",
                "1",
            ],
            "elo0 (5) must be less than elo1 (1)",
        ),
        (
            vec![
                "sprt",
                "mnk-4x4k3",
                "--candidate",
                "random",
                "--baseline",
                "random",
                "--alpha",
                "1.5",
            ],
            "alpha must be between 0 and 1",
        ),
        (
            vec![
                "sprt",
                "mnk-4x4k3",
                "--candidate",
                "random",
                "--baseline",
                "random",
                "--elo1",
                "inf",
            ],
            "elo1 must be a finite number of Elo; got inf",
        ),
        (
            vec![
                "sprt",
                "mnk-4x4k3",
                "--candidate",
                "random",
                "--baseline",
                "random",
                "--alpha",
                "0.6",
                "--beta",
                "0.6",
            ],
            "alpha + beta must be less than 1; got 0.6 + 0.6 = 1.2",
        ),
        (
            vec![
                "sprt",
                "chess",
                "--candidate",
                "random",
                "--baseline",
                "random",
            ],
            "`chess` is not a variant",
        ),
    ] {
        let output = arena(&args);
        assert!(!output.status.success(), "{args:?}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(message.contains(expected), "{args:?}: {message}");
        assert!(!message.contains("panicked"), "{message}");
    }
}

#[test]
fn outside_agents_play_a_match_through_the_registry() {
    let dir = scratch("sprt-proc");
    let out = dir.join("out");
    let served = format!(
        "proc:cmd={},args=serve-agent --agent random",
        env!("CARGO_BIN_EXE_arena")
    );
    let output = arena(&[
        "sprt",
        "mnk-3x3k3",
        "--candidate",
        &served,
        "--baseline",
        "random",
        "--max-pairs",
        "3",
        "--no-report",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("no decision after 3 pairs"), "{text}");
    let games = fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 6);
    assert!(!games.contains("crash"), "{games}");
}
