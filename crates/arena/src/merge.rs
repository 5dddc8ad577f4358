//! Merging shard CSVs into the CSV a single run would have written.

use std::path::{Path, PathBuf};

use crate::ArenaError;

/// What a merge did.
#[derive(Clone, Debug, Default)]
pub struct MergeSummary {
    /// The merged CSV.
    pub csv: PathBuf,
    /// Games written.
    pub games: u64,
}

/// Merges the shard CSVs of `dir` into `dir/games.csv`.
pub fn merge(dir: &Path) -> Result<MergeSummary, ArenaError> {
    Err(ArenaError::Merge {
        dir: dir.to_path_buf(),
        message: "not implemented yet".into(),
    })
}
