//! `arena merge` input: two shard CSVs of a fixed experiment with any content (the input split
//! at its first 0xFF byte), with true meta files and the experiment's copy next to them. The
//! merge succeeds or names the problem; it never panics and never leaves a half-merged file.
#![no_main]

use std::fs;
use std::path::PathBuf;
use std::sync::LazyLock;

use arena::meta::Meta;
use arena::{Experiment, Schedule, Shard};
use libfuzzer_sys::fuzz_target;

const EXPERIMENT: &str = include_str!("../seeds/experiment.toml");

static DIR: LazyLock<PathBuf> = LazyLock::new(|| {
    let dir = std::env::temp_dir().join(format!("arena-fuzz-merge-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("a scratch folder");
    let experiment = Experiment::from_toml(EXPERIMENT, "fuzz.toml").expect("a valid experiment");
    let schedule = Schedule::new(&experiment);
    for index in 0..2 {
        let shard = Shard { index, count: 2 };
        Meta::new(&experiment, &schedule, shard)
            .write(&dir.join(shard.csv_name()))
            .expect("the meta file");
    }
    fs::write(dir.join("experiment.toml"), EXPERIMENT).expect("the experiment's copy");
    dir
});

fuzz_target!(|data: &[u8]| {
    let dir = &*DIR;
    let (first, second) = match data.iter().position(|&b| b == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[][..]),
    };
    for (index, content) in [first, second].into_iter().enumerate() {
        let shard = Shard {
            index: index as u32,
            count: 2,
        };
        fs::write(dir.join(shard.csv_name()), content).expect("a shard file");
    }
    let _ = fs::remove_file(dir.join("games.csv"));
    if arena::merge(dir).is_ok() {
        // A merge that succeeded wrote every game of the schedule.
        let text = fs::read_to_string(dir.join("games.csv")).expect("the merged CSV");
        assert!(text.lines().count() > 1);
    }
    assert!(!dir.join("games.csv.merging").exists());
});
