//! The committed sample run in `results/default/` stays the run of the built-in default
//! experiment: its meta file carries the current experiment's hash, its rows follow the schedule,
//! and games replayed alone today give the recorded rows outside the timing columns. A change
//! to the rules, an agent or the seeding that alters the default run fails here until the sample
//! is played again (`arena run --fresh`). The committed `results/oanquan-multi/` run is held to
//! `experiments/oanquan-multi.toml` the same way, `results/oware/` to `experiments/oware.toml`,
//! `results/connect4/` to `experiments/connect4.toml`, `results/othello/` to
//! `experiments/othello.toml` and `results/breakthrough/` to `experiments/breakthrough.toml`.

use crate::common;

use std::path::PathBuf;

use arena::{Experiment, Schedule, meta::Meta, play_scheduled};
use common::blank_timing;

fn sample_csv() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../results/default/games.csv")
}

fn rows() -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(sample_csv()).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|record| blank_timing(&header, record.unwrap().iter()))
        .collect();
    (header, rows)
}

#[test]
fn the_sample_run_is_the_default_experiment_in_schedule_order() {
    let experiment = Experiment::default_experiment();
    let meta = Meta::read(&sample_csv()).unwrap().expect("a meta file");
    assert_eq!(meta.experiment_hash, experiment.hash());

    let schedule = Schedule::new(&experiment);
    let (header, rows) = rows();
    assert_eq!(rows.len() as u64, schedule.len());
    let column = |name: &str| header.iter().position(|c| c == name).unwrap();
    for (index, row) in rows.iter().enumerate() {
        let game = schedule.game(index as u64);
        assert_eq!(row[column("game")], index.to_string());
        assert_eq!(row[column("seed")], game.seed.to_string());
        assert_eq!(
            row[column("variant")],
            experiment.variants[game.variant].to_string()
        );
        assert_eq!(row[column("first")], experiment.agents[game.first].name);
        assert_eq!(row[column("second")], experiment.agents[game.second].name);
    }
}

#[test]
fn games_of_the_sample_run_replay_alone() {
    let experiment = Experiment::default_experiment();
    let schedule = Schedule::new(&experiment);
    let (header, rows) = rows();
    // Every seventh game: all variants and pairings turn up, in a few seconds.
    for index in (0..schedule.len()).step_by(7) {
        let (row, _) = play_scheduled(&experiment, &schedule.game(index));
        let mut line = csv::Writer::from_writer(Vec::new());
        line.serialize(&row).unwrap();
        let text = String::from_utf8(line.into_inner().unwrap()).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let replayed = blank_timing(&header, reader.records().next().unwrap().unwrap().iter());
        assert_eq!(replayed, rows[index as usize], "game {index}");
    }
}

#[test]
fn every_row_of_the_sample_run_is_its_scheduled_game_and_replays_to_its_result() {
    let dir = sample_csv().parent().unwrap().to_path_buf();
    let summary = arena::verify(&dir, None).unwrap();
    assert!(summary.complete());
    assert_eq!(summary.games, 1020);
    assert!(!summary.partial_line);
}

/// The committed run in `results/DIR` is still what `experiments/EXPERIMENT` plays: its meta
/// file carries the experiment's hash, every row verifies (`games` of them), and every
/// `step`-th game replayed alone gives the recorded row outside the timing columns.
fn assert_committed_run(experiment: &str, dir: &str, games: u64, step: usize) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let experiment = Experiment::from_file(&root.join("experiments").join(experiment)).unwrap();
    let dir = root.join("results").join(dir);
    let csv = dir.join("games.csv");
    let meta = Meta::read(&csv).unwrap().expect("a meta file");
    assert_eq!(meta.experiment_hash, experiment.hash());
    let summary = arena::verify(&dir, Some(&experiment)).unwrap();
    assert!(summary.complete());
    assert_eq!(summary.games, games);

    let mut rows = Vec::new();
    arena::record::read_rows(&csv, |_, row| {
        rows.push(without_timing(arena::record::normalised(row)));
        Ok(())
    })
    .unwrap();
    let schedule = Schedule::new(&experiment);
    for index in (0..schedule.len()).step_by(step) {
        let (row, _) = play_scheduled(&experiment, &schedule.game(index));
        assert_eq!(without_timing(row), rows[index as usize], "game {index}");
    }
}

/// The committed run of 2, 3 and 4 players the README cites (`results/oanquan-multi`).
#[test]
fn the_committed_oanquan_multi_run_is_its_experiment_and_replays() {
    // Every 25th game: each variant, two- to four-seat tables.
    assert_committed_run("oanquan-multi.toml", "oanquan-multi", 600, 25);
}

/// The committed Oware round robin (docs/oware.md).
#[test]
fn the_committed_oware_run_is_its_experiment_and_replays() {
    // Every 9th game: each of the ten pairings at least once.
    assert_committed_run("oware.toml", "oware", 100, 9);
}

/// The committed Connect Four run the README cites.
#[test]
fn the_committed_connect4_run_is_its_experiment_and_replays() {
    // Every 7th game: both boards, every pair.
    assert_committed_run("connect4.toml", "connect4", 120, 7);
}

/// The committed class tournament (`results/class`, the guide's worked example) is what
/// `experiments/class/class.toml` plays with the submissions its table records as passed: the
/// recorded admissions give the experiment whose hash the meta file carries (nothing is
/// built), and every row verifies. (Its games are replayed by `.ci/class.sh`, which builds and
/// runs the submissions.)
#[test]
fn the_committed_class_run_is_its_experiment_with_the_recorded_admissions() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let experiment = Experiment::from_file(&root.join("experiments/class/class.toml")).unwrap();
    let dir = root.join("results/class");
    let admission = arena::admission::admit(&experiment, &dir, false).unwrap();
    assert!(admission.resumed);
    let passed = admission.rows.iter().filter(|r| r.passed()).count();
    assert_eq!((passed, admission.rows.len()), (8, 10));
    let meta = Meta::read(&dir.join("games.csv"))
        .unwrap()
        .expect("a meta file");
    assert_eq!(meta.experiment_hash, admission.experiment.hash());
    let summary = arena::verify(&dir, Some(&admission.experiment)).unwrap();
    assert!(summary.complete());
    assert_eq!(summary.games, 90);
}

/// The committed Othello round robin (issue 35).
#[test]
fn the_committed_othello_run_is_its_experiment_and_replays() {
    // Every 9th game: each of the ten pairings at least once.
    assert_committed_run("othello.toml", "othello", 100, 9);
}

/// The committed Breakthrough round robin (issue 35).
#[test]
fn the_committed_breakthrough_run_is_its_experiment_and_replays() {
    // Every 9th game: each of the ten pairings at least once.
    assert_committed_run("breakthrough.toml", "breakthrough", 100, 9);
}

/// A row with its timing fields zeroed: they are the only ones a replay may change.
fn without_timing(mut row: arena::record::Row) -> arena::record::Row {
    (
        row.first_ms,
        row.second_ms,
        row.first_max_ms,
        row.second_max_ms,
    ) = (0.0, 0.0, 0.0, 0.0);
    for time in [
        &mut row.third_ms,
        &mut row.fourth_ms,
        &mut row.third_max_ms,
        &mut row.fourth_max_ms,
    ] {
        *time = time.map(|_| 0.0);
    }
    row
}
