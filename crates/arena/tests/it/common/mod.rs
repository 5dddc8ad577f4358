//! Helpers shared by the arena's integration tests.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use arena::{Progress, RunOptions, Shard, TIMING_COLUMNS};

/// A new empty folder under the system's temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "arena-test-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Quiet run options for `out` with `threads` workers, playing `shard`.
pub fn options(out: &Path, threads: usize, shard: Shard) -> RunOptions {
    RunOptions {
        out_dir: out.to_path_buf(),
        threads: Some(threads),
        fresh: false,
        shard,
        progress: Progress::Quiet,
    }
}

/// The CSV's records (the header first) with the timing columns blanked.
pub fn without_timing(csv: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_path(csv).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let mut rows = vec![header.clone()];
    for record in reader.records() {
        rows.push(blank_timing(&header, record.unwrap().iter()));
    }
    rows
}

/// One record's fields with the timing columns blanked.
pub fn blank_timing<'a>(header: &[String], fields: impl Iterator<Item = &'a str>) -> Vec<String> {
    fields
        .zip(header)
        .map(|(field, column)| {
            if TIMING_COLUMNS.contains(&column.as_str()) {
                String::new()
            } else {
                field.to_string()
            }
        })
        .collect()
}
