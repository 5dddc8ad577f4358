//! CSV rows: any bytes are rows or an error naming the line; each row read is checked against
//! a fixed experiment's schedule and replayed (`arena::check_row`, what resume, merge and
//! verify do), and the report's reader folds the same bytes, all without a panic.
#![no_main]

use std::path::Path;
use std::sync::LazyLock;

use arena::{Experiment, Schedule, check_row};
use libfuzzer_sys::fuzz_target;

/// The experiment of the seed corpus (fuzz/seeds/csv_rows).
pub const EXPERIMENT: &str = include_str!("../seeds/experiment.toml");

static FIXED: LazyLock<(Experiment, Schedule)> = LazyLock::new(|| {
    let experiment = Experiment::from_toml(EXPERIMENT, "fuzz.toml").expect("a valid experiment");
    let schedule = Schedule::new(&experiment);
    (experiment, schedule)
});

fuzz_target!(|data: &[u8]| {
    let (experiment, schedule) = &*FIXED;
    let path = Path::new("fuzz.csv");
    let _ = arena::record::read_rows_from(path, data, |line, row| {
        let _ = check_row(experiment, schedule, path, line, &row);
        Ok(())
    });
    if let Ok(report) = report::Report::from_csv_reader(path, data) {
        let _ = report.analyse(&report::Options::default().with_bootstrap(2));
    }
});
