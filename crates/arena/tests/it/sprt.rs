//! The sequential match: the arena's schedule played in order until the caller stops, the
//! same CSV as `arena run`, and resuming after a kill.

use crate::common;

use std::fs;
use std::io::Write as _;

use arena::sprt::{BASELINE, CANDIDATE, MatchOptions, MatchSettings, PairCount, run_match};
use arena::{Experiment, Schedule, Shard, run};
use common::{options, scratch, without_timing};

fn settings() -> MatchSettings {
    MatchSettings {
        sandbox: protocol::sandbox::Mode::BestEffort,
        name: "sprt".into(),
        variant: "mnk-4x4k3".parse().unwrap(),
        candidate: "mc-flat:rollouts=20".parse().unwrap(),
        baseline: "random".parse().unwrap(),
        seed: 7,
        opening_plies: 1,
        openings: None,
        max_pairs: 40,
        time_control: None,
    }
}

fn match_options(dir: &std::path::Path, threads: usize) -> MatchOptions {
    MatchOptions {
        out_dir: dir.to_path_buf(),
        threads: Some(threads),
        fresh: false,
        test: None,
    }
}

/// Stops after `pairs` complete pairs.
fn after(pairs: u64) -> impl FnMut(&PairCount) -> bool {
    move |count| count.pairs >= pairs
}

#[test]
fn a_match_is_the_schedule_of_a_two_agent_experiment_played_in_order() {
    let dir = scratch("sprt-schedule");
    let summary = run_match(&settings(), &match_options(&dir, 2), after(5)).unwrap();
    assert!(summary.decided);
    assert_eq!(summary.count.pairs, 5);
    // Exactly the deciding pair's games, whatever was still being played on the other thread.
    let rows = without_timing(&dir.join("games.csv"));
    assert_eq!(rows.len(), 1 + 10);
    let experiment = settings().experiment().unwrap();
    let schedule = Schedule::new(&experiment);
    let column = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    for (index, row) in rows[1..].iter().enumerate() {
        let game = schedule.game(index as u64);
        assert_eq!(row[column("game")], index.to_string());
        assert_eq!(row[column("seed")], game.seed.to_string());
        let first = if index % 2 == 0 { CANDIDATE } else { BASELINE };
        assert_eq!(row[column("first")], first);
    }
    // Games 2m and 2m + 1 share the random opening (one ply here).
    let moves = column("moves");
    for pair in rows[1..].chunks(2) {
        let opening = |row: &Vec<String>| row[moves].split(' ').next().unwrap().to_owned();
        assert_eq!(opening(&pair[0]), opening(&pair[1]));
    }
    // The same games as `arena run` on the same experiment, which plays all 80.
    let run_dir = scratch("sprt-as-run");
    fs::write(run_dir.join("sprt.toml"), settings().experiment_text()).unwrap();
    let experiment = Experiment::from_file(&run_dir.join("sprt.toml")).unwrap();
    run(&experiment, &options(&run_dir, 2, Shard::WHOLE)).unwrap();
    let full = without_timing(&run_dir.join("games.csv"));
    assert_eq!(full.len(), 1 + 80);
    assert_eq!(rows[..], full[..11]);
    // And the meta file is the one `arena run` writes, so the run resumes the match's file.
    let meta = arena::meta::Meta::read(&dir.join("games.csv"))
        .unwrap()
        .unwrap();
    assert_eq!(meta.experiment_hash, experiment.hash());
}

#[test]
fn a_match_resumes_where_it_stopped_and_after_a_kill() {
    let whole = scratch("sprt-whole");
    run_match(&settings(), &match_options(&whole, 1), after(8)).unwrap();
    let expected = without_timing(&whole.join("games.csv"));

    let dir = scratch("sprt-resumed");
    run_match(&settings(), &match_options(&dir, 2), after(3)).unwrap();
    // A kill in the middle of writing a row leaves half a line.
    let csv = dir.join("games.csv");
    let mut file = fs::OpenOptions::new().append(true).open(&csv).unwrap();
    file.write_all(b"sprt,mnk-4x4k3,6,123,candi").unwrap();
    drop(file);
    let mut seen = Vec::new();
    let summary = run_match(&settings(), &match_options(&dir, 2), |count| {
        seen.push(*count);
        count.pairs >= 8
    })
    .unwrap();
    assert!(summary.cut_partial_line);
    assert_eq!((summary.resumed, summary.played), (6, 10));
    // The first call reports what was read back.
    assert!(seen[0].resumed && seen[0].pairs == 3);
    assert_eq!(without_timing(&csv), expected);
    // Run again once decided: nothing more is played.
    let again = run_match(&settings(), &match_options(&dir, 2), after(8)).unwrap();
    assert_eq!((again.resumed, again.played), (16, 0));
    assert!(again.decided);
}

#[test]
fn a_changed_match_is_refused_and_fresh_moves_the_old_games_aside() {
    let dir = scratch("sprt-changed");
    run_match(&settings(), &match_options(&dir, 1), after(1)).unwrap();
    let mut changed = settings();
    changed.baseline = "mc-flat:rollouts=5".parse().unwrap();
    let error = run_match(&changed, &match_options(&dir, 1), after(1)).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("another version of this experiment"),
        "{error}"
    );
    let mut fresh = match_options(&dir, 1);
    fresh.fresh = true;
    let summary = run_match(&changed, &fresh, after(1)).unwrap();
    assert!(summary.moved_aside.unwrap().exists());
}

#[test]
fn pair_counts_follow_the_candidate() {
    let dir = scratch("sprt-counts");
    let mut last = PairCount::default();
    run_match(&settings(), &match_options(&dir, 2), |count| {
        last = *count;
        count.pairs >= 6
    })
    .unwrap();
    assert_eq!(last.pentanomial.iter().sum::<u64>(), 6);
    assert_eq!(last.wins + last.draws + last.losses, 12);
    // Recount from the CSV: the candidate's points per pair.
    let rows = without_timing(&dir.join("games.csv"));
    let column = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    let mut pentanomial = [0u64; 5];
    for pair in rows[1..].chunks(2) {
        let points: usize = pair
            .iter()
            .map(|row| {
                let candidate_first = row[column("first")] == CANDIDATE;
                match (row[column("result")].as_str(), candidate_first) {
                    ("1-0", true) | ("0-1", false) => 2,
                    ("1/2-1/2", _) => 1,
                    _ => 0,
                }
            })
            .sum();
        pentanomial[points] += 1;
    }
    assert_eq!(last.pentanomial, pentanomial);
}

#[test]
fn a_match_from_a_suite_starts_pair_m_from_line_m_and_its_copy_replays() {
    let dir = scratch("sprt-suite");
    let suite_dir = scratch("sprt-suite-file");
    let suite = suite_dir.join("small.txt");
    fs::write(&suite, "[mnk-4x4k3]\nb2 c3\na1\nd4 a4 b1\n").unwrap();
    let mut settings = settings();
    settings.opening_plies = 0;
    settings.openings = Some(suite.clone());
    let summary = run_match(&settings, &match_options(&dir, 2), after(4)).unwrap();
    assert_eq!(summary.count.pairs, 4);
    let rows = without_timing(&dir.join("games.csv"));
    let moves = rows[0].iter().position(|c| c == "moves").unwrap();
    let lines = ["b2 c3", "a1", "d4 a4 b1", "b2 c3"];
    for (index, row) in rows[1..].iter().enumerate() {
        let line = lines[index / 2];
        assert!(row[moves].starts_with(line), "game {index}: {}", row[moves]);
    }
    // The copy of the experiment in the folder reads the copy of the suite next to it, and
    // `arena run` on it plays the same games.
    assert_eq!(
        fs::read_to_string(dir.join("small.txt")).unwrap(),
        fs::read_to_string(&suite).unwrap()
    );
    let copy = Experiment::from_file(&dir.join("experiment.toml")).unwrap();
    assert_eq!(copy.hash(), settings.experiment().unwrap().hash());
    let run_dir = scratch("sprt-suite-run");
    run(&copy, &options(&run_dir, 1, Shard::WHOLE)).unwrap();
    let full = without_timing(&run_dir.join("games.csv"));
    assert_eq!(rows[..], full[..9]);
}
