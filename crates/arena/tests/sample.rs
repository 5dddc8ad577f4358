//! The committed sample run in `results/default/` stays the run of the built-in default
//! experiment: its meta file carries the current experiment's hash, its rows follow the schedule,
//! and games replayed alone today give the recorded rows outside the timing columns. A change
//! to the rules, an agent or the seeding that alters the default run fails here until the sample
//! is played again (`arena run --fresh`).

mod common;

use std::path::PathBuf;

use arena::{Experiment, Schedule, play_scheduled, run::Meta};
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
