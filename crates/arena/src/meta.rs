//! The meta file next to a games CSV ([`meta_path`]): which experiment, shard and CSV schema
//! its rows belong to ([`Meta`]). Written when a run begins, read by every command that
//! appends to, checks or merges the CSV.

use std::fs;
use std::path::{Path, PathBuf};

use crate::ArenaError;
use crate::experiment::Experiment;
use crate::schedule::{Schedule, Shard};

/// The file next to a CSV that says which experiment it belongs to.
pub fn meta_path(csv: &Path) -> PathBuf {
    csv.with_extension("meta.toml")
}

/// What the meta file next to a CSV records.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// The CSV schema version.
    pub csv_schema: u32,
    /// The experiment's name.
    pub experiment: String,
    /// [`Experiment::hash`].
    pub experiment_hash: String,
    /// The shard, `I/N`.
    pub shard: String,
    /// Games in the whole schedule.
    pub games_in_schedule: u64,
    /// Games in this shard.
    pub games_in_shard: u64,
    /// [`Experiment::normalised`]: what the hash covers.
    pub normalised: String,
    /// The layers of the sandbox the outside agents played without (`sandbox =
    /// "best-effort"` where some are missing), over every session that wrote the CSV, as
    /// `arena run` names them; absent (not written) when none was missing. The one record of
    /// it: the report and the class report read it here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sandbox_missing: Vec<String>,
}

impl Meta {
    /// The meta of `shard` of `experiment`.
    pub fn new(experiment: &Experiment, schedule: &Schedule, shard: Shard) -> Meta {
        Meta {
            csv_schema: experiment.csv_schema(),
            experiment: experiment.name.clone(),
            experiment_hash: experiment.hash(),
            shard: shard.to_string(),
            games_in_schedule: schedule.len(),
            games_in_shard: schedule.shard_len(shard),
            normalised: experiment.normalised(),
            sandbox_missing: Vec::new(),
        }
    }

    /// Adds the layers `missing` to those recorded, each once, in the order first seen.
    pub fn add_sandbox_missing<'a>(&mut self, missing: impl IntoIterator<Item = &'a String>) {
        for layer in missing {
            if !self.sandbox_missing.contains(layer) {
                self.sandbox_missing.push(layer.clone());
            }
        }
    }

    /// Reads the meta file of `csv`, if there is one.
    pub fn read(csv: &Path) -> Result<Option<Meta>, ArenaError> {
        let path = meta_path(csv);
        if !path.exists() {
            return Ok(None);
        }
        let text = fs::read_to_string(&path).map_err(|e| ArenaError::Io {
            path: path.clone(),
            action: "read the meta file",
            error: e.to_string(),
        })?;
        Meta::parse(&text)
            .map(Some)
            .map_err(|error| ArenaError::Io {
                path,
                action: "parse the meta file",
                error,
            })
    }

    /// Reads a meta file's text (one a reader opened itself).
    pub fn parse(text: &str) -> Result<Meta, String> {
        toml::from_str(text).map_err(|e| e.message().to_string())
    }

    /// Writes the meta file of `csv`.
    pub fn write(&self, csv: &Path) -> Result<(), ArenaError> {
        let path = meta_path(csv);
        let body = toml::to_string(self).expect("the meta serialises");
        let text = format!(
            "# Written by arena: identifies the experiment the CSV next to this file belongs to.\n{body}"
        );
        fs::write(&path, text).map_err(|e| ArenaError::Io {
            path,
            action: "write the meta file",
            error: e.to_string(),
        })
    }
}
