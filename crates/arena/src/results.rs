//! The one way into a results file (`games.csv` or a shard's `games.shard-I-of-N.csv`) for every
//! command that writes one: `arena run`, `arena merge`, `arena sprt` and `arena tune` open it
//! alike.
//!
//! [`ResultsFile::open`] takes the writer lock (on the lock file and on the CSV itself, see
//! [`crate::lock`]), moves the old file and its companions aside with `fresh` (never deleting
//! them), refuses a CSV without our meta file, recorded for another experiment or with a header
//! of another schema than its meta file's, and cuts a half-written last line. [`ResultsFile::check_rows`] then checks every recorded row against
//! the schedule and the rules before anything is written; [`ResultsFile::begin`] writes the meta
//! file and the copy of the experiment and opens the CSV for appending.

use std::fs;
use std::path::{Path, PathBuf};

use crate::ArenaError;
use crate::checks::{Checked, check_rows, check_schema};
use crate::experiment::Experiment;
use crate::lock::{WriterLock, lock_writer};
use crate::meta::Meta;
use crate::record::{self, Row, RowWriter};
use crate::schedule::{Schedule, ScheduledGame, Shard};

/// The files that go with a CSV, named after it: `games.meta.toml`, `games.faults.log`,
/// `games.logs/`.
const COMPANIONS: [&str; 3] = ["meta.toml", "faults.log", "logs"];

/// How to open a results file.
#[derive(Clone, Debug)]
pub struct OpenOptions<'a> {
    /// The command that writes, named to a second writer (`arena run`).
    pub command: &'static str,
    /// Start over: move the old CSV and its companions aside.
    pub fresh: bool,
    /// More files of the folder that belong to the games (`sprt.toml`): moved aside with them
    /// under the aside name and this suffix.
    pub also_aside: &'a [(PathBuf, &'static str)],
    /// Whether rows recorded for the same experiment with fewer `games_per_pair` are this
    /// experiment's too: true for a schedule of one pairing (a match), whose seeds and indices
    /// do not depend on it.
    pub more_games: bool,
}

impl OpenOptions<'_> {
    /// Options for `command`, not fresh.
    pub fn new(command: &'static str) -> OpenOptions<'static> {
        OpenOptions {
            command,
            fresh: false,
            also_aside: &[],
            more_games: false,
        }
    }
}

/// A results file open for writing: its lock held, its old rows not yet read.
#[derive(Debug)]
pub struct ResultsFile {
    csv: PathBuf,
    lock: WriterLock,
    /// Where the old CSV went with `fresh`.
    pub moved_aside: Option<PathBuf>,
    /// Whether a half-written last line was cut.
    pub cut_partial_line: bool,
    has_header: bool,
    /// Whether `open` created the (empty) CSV and nothing was written since: it goes again
    /// when the file is closed, so that a writer that stopped before its first row (a
    /// pre-flight check that failed) leaves no file behind.
    created: bool,
}

impl ResultsFile {
    /// Opens `csv` to write games of `experiment`: takes the writer lock, moves the old file
    /// aside with `fresh`, checks that a CSV already there was recorded for `experiment` (its
    /// meta file), and cuts a half-written last line. Creates the folder and an empty CSV (so
    /// that the CSV itself is locked from the start).
    pub fn open(
        csv: &Path,
        experiment: &Experiment,
        options: &OpenOptions<'_>,
    ) -> Result<ResultsFile, ArenaError> {
        if let Some(folder) = csv.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(folder).map_err(|e| ArenaError::Io {
                path: folder.to_path_buf(),
                action: "create the output folder",
                error: e.to_string(),
            })?;
        }
        let mut lock = lock_writer(csv, options.command)?;
        let mut moved_aside = None;
        if options.fresh {
            moved_aside = move_aside(csv, options.also_aside)?;
        }
        let created = !csv.exists();
        if created {
            fs::write(csv, "").map_err(|e| ArenaError::Io {
                path: csv.to_path_buf(),
                action: "create the CSV",
                error: e.to_string(),
            })?;
        }
        lock.hold(csv)?;
        let mut file = ResultsFile {
            csv: csv.to_path_buf(),
            lock,
            moved_aside,
            cut_partial_line: false,
            has_header: false,
            created,
        };
        if file.len() == 0 {
            return Ok(file);
        }
        let hash = experiment.hash();
        let meta = match Meta::read(csv)? {
            Some(meta) if meta.experiment_hash == hash => meta,
            Some(meta)
                if options.more_games
                    && without_games(&meta.normalised)
                        == without_games(&experiment.normalised()) =>
            {
                meta
            }
            Some(meta) => {
                return Err(ArenaError::ExperimentChanged {
                    csv: csv.to_path_buf(),
                    recorded: meta.experiment_hash,
                    current: hash,
                });
            }
            None => {
                return Err(ArenaError::ForeignCsv {
                    csv: csv.to_path_buf(),
                });
            }
        };
        file.cut_partial_line = record::cut_partial_line(csv)?;
        if record::has_header(csv)? {
            file.has_header = true;
            check_schema(csv, &meta, experiment)?;
        } else if file.len() > 0 {
            return Err(ArenaError::ForeignCsv {
                csv: csv.to_path_buf(),
            });
        }
        Ok(file)
    }

    /// The CSV.
    pub fn csv(&self) -> &Path {
        &self.csv
    }

    fn len(&self) -> u64 {
        fs::metadata(&self.csv).map_or(0, |m| m.len())
    }

    /// Whether the file holds a row (a line after its header).
    pub fn holds_rows(&self) -> bool {
        use std::io::BufRead as _;
        let header = fs::File::open(&self.csv).ok().and_then(|file| {
            let mut line = Vec::new();
            std::io::BufReader::new(file)
                .read_until(b'\n', &mut line)
                .ok()?;
            Some(line.len() as u64)
        });
        self.has_header && header.is_some_and(|length| self.len() > length)
    }

    /// Checks every recorded row against `shard` of `schedule` (each game once, the game the
    /// schedule gives its index, replaying to its result: [`check_row`]), calling `each` with
    /// its line, the row and its game.
    pub fn check_rows(
        &self,
        experiment: &Experiment,
        schedule: &Schedule,
        shard: Shard,
        each: impl FnMut(u64, &Row, &ScheduledGame) -> Result<(), ArenaError>,
    ) -> Result<Checked, ArenaError> {
        if !self.has_header {
            return Ok(Checked {
                in_order: true,
                ..Checked::default()
            });
        }
        check_rows(&self.csv, experiment, schedule, shard, false, each)
    }

    /// Writes the meta file of `shard` (with the sandbox's layers `sandbox_missing` in this
    /// session added to those of the sessions before), the copy of the experiment next to the
    /// games (with its openings files), and opens the CSV for appending (its header first if it
    /// has none).
    pub fn begin(
        &mut self,
        experiment: &Experiment,
        schedule: &Schedule,
        shard: Shard,
        sandbox_missing: &[String],
    ) -> Result<RowWriter, ArenaError> {
        let mut meta = Meta::new(experiment, schedule, shard);
        // `open` checked the meta there: it is this experiment's.
        if self.has_header
            && let Ok(Some(before)) = Meta::read(&self.csv)
        {
            meta.add_sandbox_missing(&before.sandbox_missing);
        }
        meta.add_sandbox_missing(sandbox_missing);
        meta.write(&self.csv)?;
        if let Some(out) = self.csv.parent() {
            // A copy of the experiment next to its results, so anyone can rerun it.
            let copy = out.join("experiment.toml");
            fs::write(&copy, &experiment.text).map_err(|e| ArenaError::Io {
                path: copy.clone(),
                action: "write the copy of the experiment",
                error: e.to_string(),
            })?;
            write_openings_copy(experiment, out)?;
        }
        let writer = RowWriter::append(&self.csv, experiment.csv_schema(), !self.has_header)?;
        self.has_header = true;
        self.created = false;
        Ok(writer)
    }

    /// Rewrites the CSV with its rows in game order (a file edited by hand), keeping it locked.
    pub fn sort(&mut self) -> Result<(), ArenaError> {
        record::sort_rows(&self.csv)?;
        self.lock.hold(&self.csv)
    }
}

impl Drop for ResultsFile {
    fn drop(&mut self) {
        // Still under the lock: the empty file this writer made and never wrote.
        if self.created && self.len() == 0 {
            let _ = fs::remove_file(&self.csv);
        }
    }
}

/// Moves the games in `csv` and their companions aside as `fresh` does; returns where they went.
pub(crate) fn set_aside(csv: &Path) -> Result<PathBuf, ArenaError> {
    Ok(move_aside(csv, &[])?.unwrap_or_else(|| csv.to_path_buf()))
}

/// The normalised experiment without its `games_per_pair` line.
fn without_games(normalised: &str) -> String {
    normalised
        .lines()
        .filter(|line| !line.starts_with("games_per_pair ="))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A place to move an old CSV aside to: `<file>.old-N`, the first N not taken by it or by the
/// files that go with it.
fn aside_path(path: &Path, also: &[(PathBuf, &'static str)]) -> PathBuf {
    (1..)
        .map(|n| PathBuf::from(format!("{}.old-{n}", path.display())))
        .find(|p| {
            !p.exists()
                && COMPANIONS
                    .iter()
                    .chain(also.iter().map(|(_, suffix)| suffix))
                    .all(|suffix| !Path::new(&format!("{}.{suffix}", p.display())).exists())
        })
        .expect("some suffix is free")
}

/// Moves `csv` (if it has anything), its companions and `also` aside to `<csv>.old-N[.suffix]`;
/// returns where the CSV went, or `None` if there was nothing to move.
fn move_aside(csv: &Path, also: &[(PathBuf, &'static str)]) -> Result<Option<PathBuf>, ArenaError> {
    let companions: Vec<(PathBuf, &'static str)> = COMPANIONS
        .iter()
        .map(|suffix| (csv.with_extension(suffix), *suffix))
        .chain(also.iter().cloned())
        .collect();
    let holds_games = fs::metadata(csv).is_ok_and(|m| m.len() > 0);
    if !holds_games && companions.iter().all(|(path, _)| !path.exists()) {
        // Nothing recorded (at most the empty file a failed start left).
        return Ok(None);
    }
    let aside = aside_path(csv, also);
    let mut moved = None;
    if csv.exists() {
        fs::rename(csv, &aside).map_err(|e| ArenaError::Io {
            path: csv.to_path_buf(),
            action: "move the old CSV aside",
            error: e.to_string(),
        })?;
        moved = Some(aside.clone());
    }
    // The old run's meta, fault log and agent logs go with its CSV, so that the new run's
    // are its own.
    for (old, suffix) in &companions {
        if old.exists() {
            let to = PathBuf::from(format!("{}.{suffix}", aside.display()));
            fs::rename(old, &to).map_err(|e| ArenaError::Io {
                path: old.clone(),
                action: "move the old games' files aside",
                error: e.to_string(),
            })?;
        }
    }
    Ok(moved)
}

/// The experiment's openings files, written next to its copy under the names it gives them,
/// so that the copy (which names them relative to itself) reads the same suite: `arena verify`
/// and `arena report` on the folder alone then work. A name that is absolute or leaves its
/// folder (`..`) is not written: such a folder is verified with `--experiment`.
fn write_openings_copy(experiment: &Experiment, out: &Path) -> Result<(), ArenaError> {
    let Some(suite) = &experiment.openings else {
        return Ok(());
    };
    for (name, text) in &suite.files {
        let relative = Path::new(name);
        let inside = relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !inside {
            continue;
        }
        let path = out.join(relative);
        let written = path
            .parent()
            .map_or(Ok(()), fs::create_dir_all)
            .and_then(|()| fs::write(&path, text));
        written.map_err(|e| ArenaError::Io {
            path: path.clone(),
            action: "write the copy of the openings file",
            error: e.to_string(),
        })?;
    }
    Ok(())
}
