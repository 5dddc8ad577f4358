//! One discipline for every writer of a results file (`arena run`, `arena merge`, `arena sprt`):
//! the writer lock, the meta check, the move aside, every recorded row checked, nothing
//! overwritten; and `verify` refusing what a single writer never leaves behind.

use crate::common;

use std::fs;
use std::path::Path;

use arena::sprt::{MatchOptions, MatchSettings, PairCount, run_match};
use arena::{ArenaError, Experiment, Shard, lock_writer, merge, run, verify};
use common::{options, scratch, without_timing};

fn settings(max_pairs: u32) -> MatchSettings {
    MatchSettings {
        sandbox: protocol::sandbox::Mode::BestEffort,
        name: "sprt".into(),
        variant: "mnk-4x4k3".parse().unwrap(),
        candidate: "mc-flat:rollouts=10".parse().unwrap(),
        baseline: "random".parse().unwrap(),
        seed: 3,
        opening_plies: 1,
        max_pairs,
        openings: None,
        time_control: None,
    }
}

fn match_options(dir: &Path, test: Option<&str>) -> MatchOptions {
    MatchOptions {
        out_dir: dir.to_path_buf(),
        threads: Some(2),
        fresh: false,
        test: test.map(str::to_string),
    }
}

fn after(pairs: u64) -> impl FnMut(&PairCount) -> bool {
    move |count| count.pairs >= pairs
}

fn never(_: &PairCount) -> bool {
    false
}

const SMALL: &str = r#"
name = "small"
seed = 9
games_per_pair = 6
opening_plies = 2
variants = ["mnk-3x3k3", "oanquan"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "easy"
spec = "easy"
"#;

fn small() -> Experiment {
    Experiment::from_toml(SMALL, "small.toml").unwrap()
}

/// Replaces field `column` of data row `index` (0-based) of `csv`, as text.
fn set_field(csv: &Path, index: usize, column: &str, value: &str) {
    let mut reader = csv::Reader::from_path(csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let mut rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let at = header.iter().position(|c| c == column).unwrap();
    let mut fields: Vec<String> = rows[index].iter().map(str::to_string).collect();
    fields[at] = value.to_string();
    rows[index] = csv::StringRecord::from(fields);
    let mut writer = csv::Writer::from_path(csv).unwrap();
    writer.write_record(&header).unwrap();
    for row in &rows {
        writer.write_record(row).unwrap();
    }
    writer.flush().unwrap();
}

fn field(csv: &Path, index: usize, column: &str) -> String {
    let mut reader = csv::Reader::from_path(csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = header.iter().position(|c| c == column).unwrap();
    let row = reader.records().nth(index).unwrap().unwrap();
    row[at].to_string()
}

#[test]
fn a_match_takes_the_writer_lock_and_fresh_never_moves_a_file_being_written() {
    let dir = scratch("sprt-locked");
    run_match(&settings(20), &match_options(&dir, None), after(2)).unwrap();
    let csv = dir.join("games.csv");
    let before = fs::read(&csv).unwrap();
    // Another writer (a run, another match) holds the file.
    let held = lock_writer(&csv, "arena run").unwrap();
    let error = run_match(&settings(20), &match_options(&dir, None), after(4)).unwrap_err();
    assert!(matches!(error, ArenaError::Locked { .. }), "{error}");
    let mut fresh = match_options(&dir, None);
    fresh.fresh = true;
    let error = run_match(&settings(20), &fresh, after(4)).unwrap_err();
    assert!(matches!(error, ArenaError::Locked { .. }), "{error}");
    assert_eq!(fs::read(&csv).unwrap(), before, "the live file was touched");
    assert!(!dir.join("games.csv.old-1").exists());
    drop(held);
    let summary = run_match(&settings(20), &match_options(&dir, None), after(4)).unwrap();
    assert_eq!((summary.resumed, summary.played), (4, 4));
}

#[test]
fn a_match_checks_every_recorded_row_before_it_resumes() {
    let dir = scratch("sprt-checked");
    run_match(&settings(20), &match_options(&dir, None), after(3)).unwrap();
    let csv = dir.join("games.csv");
    let result = field(&csv, 2, "result");
    let other = if result == "1-0" { "0-1" } else { "1-0" };
    set_field(&csv, 2, "result", other);
    let error = run_match(&settings(20), &match_options(&dir, None), after(5))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("games.csv:4: game 2: column `result`"),
        "{error}"
    );
}

#[test]
fn a_match_extends_with_a_larger_max_pairs_and_keeps_its_games() {
    let dir = scratch("sprt-extend");
    // The schedule runs out before any decision.
    let summary = run_match(&settings(3), &match_options(&dir, None), never).unwrap();
    assert!(!summary.decided);
    assert_eq!(summary.played, 6);
    let summary = run_match(&settings(5), &match_options(&dir, None), never).unwrap();
    assert_eq!((summary.resumed, summary.played), (6, 4));
    // The same games as a match played to 5 pairs at once.
    let whole = scratch("sprt-extend-whole");
    run_match(&settings(5), &match_options(&whole, None), never).unwrap();
    assert_eq!(
        without_timing(&dir.join("games.csv")),
        without_timing(&whole.join("games.csv"))
    );
    // The folder verifies against the copy of the longer match.
    assert!(verify(&dir, None).unwrap().complete());
    // A shorter match than the games recorded is refused, naming the game beyond it.
    let error = run_match(&settings(2), &match_options(&dir, None), never)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("game 4 is not in shard 0/1 of this experiment's schedule"),
        "{error}"
    );
}

#[test]
fn a_match_refuses_games_of_another_test_or_of_no_known_test() {
    let dir = scratch("sprt-test");
    let test = "elo0 = 0\nelo1 = 10\nalpha = 0.05\nbeta = 0.05\n";
    run_match(&settings(20), &match_options(&dir, Some(test)), after(2)).unwrap();
    assert_eq!(fs::read_to_string(dir.join("sprt.toml")).unwrap(), test);
    let other = test.replace("alpha = 0.05", "alpha = 0.2");
    let error = run_match(&settings(20), &match_options(&dir, Some(&other)), after(3))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("belong to another test (elo0 = 0, elo1 = 10, alpha = 0.05"),
        "{error}"
    );
    // Deleting the test's file does not let another test continue the games.
    fs::remove_file(dir.join("sprt.toml")).unwrap();
    let error = run_match(&settings(20), &match_options(&dir, Some(&other)), after(3))
        .unwrap_err()
        .to_string();
    assert!(error.contains("no sprt.toml next to them"), "{error}");
    // --fresh moves the games and the test's file aside together.
    fs::write(dir.join("sprt.toml"), test).unwrap();
    let mut fresh = match_options(&dir, Some(&other));
    fresh.fresh = true;
    let summary = run_match(&settings(20), &fresh, after(1)).unwrap();
    let aside = summary.moved_aside.unwrap();
    assert_eq!(
        fs::read_to_string(format!("{}.sprt.toml", aside.display())).unwrap(),
        test
    );
    assert_eq!(fs::read_to_string(dir.join("sprt.toml")).unwrap(), other);
}

#[test]
fn merge_never_overwrites_the_games_of_another_experiment() {
    let dir = scratch("merge-aside");
    // A finished run of one experiment...
    run(&small(), &options(&dir, 2, Shard::WHOLE)).unwrap();
    let theirs = fs::read(dir.join("games.csv")).unwrap();
    // ...then the shards of another into the same folder, and a merge.
    let other = Experiment::from_toml(&SMALL.replace("seed = 9", "seed = 10"), "b.toml").unwrap();
    for index in 0..2 {
        run(&other, &options(&dir, 2, Shard { index, count: 2 })).unwrap();
    }
    let summary = merge(&dir).unwrap();
    let aside = summary.moved_aside.expect("the old games.csv moved aside");
    assert_eq!(fs::read(&aside).unwrap(), theirs, "the first run's games");
    assert!(Path::new(&format!("{}.meta.toml", aside.display())).exists());
    assert!(verify(&dir, None).unwrap().complete());
    // Merging again gives the same file: nothing to keep, nothing moved.
    let again = merge(&dir).unwrap();
    assert!(again.moved_aside.is_none());
}

#[test]
fn verify_refuses_a_row_deleted_from_the_middle_of_a_run() {
    let dir = scratch("verify-gap");
    run(&small(), &options(&dir, 2, Shard::WHOLE)).unwrap();
    let csv = dir.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // The last rows cut: a run in progress, which verifies.
    fs::write(&csv, lines[..lines.len() - 3].concat()).unwrap();
    let summary = verify(&dir, None).unwrap();
    assert_eq!(summary.games as usize, lines.len() - 4);
    assert!(!summary.complete());
    // Game 10 (line 12) deleted: a gap no writer leaves.
    let mut gap = lines.clone();
    gap.remove(11);
    fs::write(&csv, gap.concat()).unwrap();
    let error = verify(&dir, None).unwrap_err().to_string();
    assert!(
        error.contains("games.csv:12: game 10 is missing, yet game 11 after it is recorded"),
        "{error}"
    );
}

#[test]
fn timing_columns_and_numbers_must_be_written_as_the_arena_writes_them() {
    let reference = scratch("verify-form");
    run(&small(), &options(&reference, 2, Shard::WHOLE)).unwrap();
    let csv = reference.join("games.csv");
    let seed = field(&csv, 4, "seed");
    let plies = field(&csv, 4, "plies");
    let cases: Vec<(&str, String, &str)> = vec![
        ("first_ms", "NaN".into(), "a finite number, 0 or more"),
        ("second_ms", "inf".into(), "a finite number, 0 or more"),
        ("first_max_ms", "-1".into(), "a finite number, 0 or more"),
        (
            "second_max_ms",
            "1e400".into(),
            "a finite number, 0 or more",
        ),
        ("first_ms", "-0.000".into(), "a finite number, 0 or more"),
        ("first_ms", "1.5".into(), "the arena writes it `1.500`"),
        ("seed", format!("+{seed}"), "the arena writes it"),
        ("plies", format!("0{plies}"), "the arena writes it"),
        ("first_nodes", "00".into(), "the arena writes it `0`"),
    ];
    for (column, value, expected) in cases {
        let out = scratch("verify-form-edit");
        for name in ["games.csv", "games.meta.toml", "experiment.toml"] {
            fs::copy(reference.join(name), out.join(name)).unwrap();
        }
        set_field(&out.join("games.csv"), 4, column, &value);
        let at = format!("games.csv:6: game 4: column `{column}`");
        let error = verify(&out, None).unwrap_err().to_string();
        assert!(
            error.contains(&at) && error.contains(expected),
            "{column} = {value}: {error}"
        );
        let error = run(&small(), &options(&out, 1, Shard::WHOLE))
            .unwrap_err()
            .to_string();
        assert!(error.contains(&at), "{column} = {value}: {error}");
    }
}
