//! Merging shard CSVs into the CSV a single run would have written.
//!
//! The shards of a folder (`games.shard-I-of-N.csv`) must all carry the same experiment hash
//! and shard count, and together hold every game of the schedule exactly once. Game `g` lives
//! in shard `g mod N`, so the merged file is written by taking rows from the shards in turn,
//! streaming, without holding the games in memory.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::ArenaError;
use crate::checks::folder_experiment;
use crate::experiment::Experiment;
use crate::lock::lock_writer;
use crate::meta::Meta;
use crate::record::{self, Row, RowWriter, Temporary};
use crate::results::{OpenOptions, ResultsFile, set_aside};
use crate::schedule::{Schedule, Shard};

/// What a merge did.
#[derive(Clone, Debug, Default)]
pub struct MergeSummary {
    /// The merged CSV.
    pub csv: PathBuf,
    /// Games written.
    pub games: u64,
    /// The number of shards merged.
    pub shards: u32,
    /// Where a `games.csv` that was there went (it was not the merged file).
    pub moved_aside: Option<PathBuf>,
}

fn merge_error(dir: &Path, message: impl Into<String>) -> ArenaError {
    ArenaError::Merge {
        dir: dir.to_path_buf(),
        message: message.into(),
    }
}

/// The shard CSVs in `dir`, by shard index, with their shard count.
pub(crate) fn shard_files(dir: &Path) -> Result<(u32, Vec<PathBuf>), ArenaError> {
    let entries = fs::read_dir(dir).map_err(|e| ArenaError::Io {
        path: dir.to_path_buf(),
        action: "list the folder",
        error: e.to_string(),
    })?;
    let mut found: Vec<(Shard, PathBuf)> = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(middle) = name
            .strip_prefix("games.shard-")
            .and_then(|rest| rest.strip_suffix(".csv"))
        else {
            continue;
        };
        let Some((index, count)) = middle.split_once("-of-") else {
            continue;
        };
        if let (Ok(index), Ok(count)) = (index.parse(), count.parse()) {
            found.push((Shard { index, count }, entry.path()));
        }
    }
    if found.is_empty() {
        return Err(merge_error(
            dir,
            "no shard CSVs (games.shard-I-of-N.csv) in this folder; run `arena run EXPERIMENT --shard I/N --out DIR` first",
        ));
    }
    let count = found[0].0.count;
    if let Some((other, _)) = found.iter().find(|(s, _)| s.count != count) {
        return Err(merge_error(
            dir,
            format!(
                "shards of different splits are mixed: {} of {count} and {} of {}; keep one split",
                found[0].0.index, other.index, other.count
            ),
        ));
    }
    found.sort_by_key(|(s, _)| s.index);
    let present: Vec<u32> = found.iter().map(|(s, _)| s.index).collect();
    let missing: Vec<String> = (0..count)
        .filter(|i| !present.contains(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(merge_error(
            dir,
            format!(
                "shard files missing for shard(s) {} of {count}; run them with --shard I/{count}",
                missing.join(", ")
            ),
        ));
    }
    Ok((count, found.into_iter().map(|(_, p)| p).collect()))
}

/// Merges the shard CSVs of `dir` into `dir/games.csv` (and its meta file), after checking
/// that they come from one experiment and hold every game exactly once. Missing games are
/// listed by shard in the error, so those shards can be run again (they resume). The rows are
/// checked against the experiment the folder's `experiment.toml` holds (see [`merge_with`]).
pub fn merge(dir: &Path) -> Result<MergeSummary, ArenaError> {
    merge_with(dir, None)
}

/// [`merge`], checking the rows against `experiment` when given (else the folder's copy of
/// the experiment, which `arena run` leaves there). Every row of every shard must be the game
/// the schedule says and replay to its recorded result ([`crate::checks::check_row`]).
///
/// Opens `games.csv` and every shard file as [`ResultsFile`]s (their writer locks held while it
/// works): a shard still being played, or another merge, makes it fail at once. A `games.csv`
/// already there that is not the merged file byte for byte (another experiment's run, a run of
/// this one with its own timings) is moved aside as `--fresh` does, never overwritten.
pub fn merge_with(dir: &Path, experiment: Option<&Experiment>) -> Result<MergeSummary, ArenaError> {
    merge_through(dir, experiment, |temporary, schema| {
        RowWriter::append(temporary, schema, true)
    })
}

/// [`merge_with`], the merged rows written by the writer `create` makes (given the temporary
/// file they go to, `games.csv.merging`, and their schema). However the merge fails, a write
/// that fails (a full disk) included, the temporary file goes with it: nothing is left but what
/// was there. (The tests give a writer that fails as a full disk does.)
pub fn merge_through<W: Write>(
    dir: &Path,
    experiment: Option<&Experiment>,
    create: impl FnOnce(&Path, u32) -> Result<RowWriter<W>, ArenaError>,
) -> Result<MergeSummary, ArenaError> {
    let (count, files) = shard_files(dir)?;
    let csv = dir.join("games.csv");
    // Locked before anything is read; its old content is judged once the merged file exists.
    let mut lock = lock_writer(&csv, "arena merge")?;
    lock.hold(&csv)?;
    let mut metas = Vec::new();
    for file in &files {
        let meta = Meta::read(file)?.ok_or_else(|| {
            merge_error(
                dir,
                format!("`{}` has no meta file next to it", file.display()),
            )
        })?;
        metas.push(meta);
    }
    let first = &metas[0];
    for (file, meta) in files.iter().zip(&metas) {
        if meta.experiment_hash != first.experiment_hash
            || meta.games_in_schedule != first.games_in_schedule
        {
            return Err(merge_error(
                dir,
                format!(
                    "`{}` belongs to another experiment (hash {}) than `{}` (hash {})",
                    file.display(),
                    meta.experiment_hash,
                    files[0].display(),
                    first.experiment_hash
                ),
            ));
        }
    }
    let total = first.games_in_schedule;
    let experiment = folder_experiment(dir, first, experiment)?;
    let schedule = Schedule::new(&experiment);
    if schedule.len() != total {
        return Err(merge_error(
            dir,
            format!(
                "the meta files say {total} games, the experiment's schedule has {}",
                schedule.len()
            ),
        ));
    }

    // First pass: every row checked, every game of each shard present exactly once.
    let mut problems: Vec<String> = Vec::new();
    let mut shards = Vec::new();
    for (index, file) in files.iter().enumerate() {
        let shard = Shard {
            index: index as u32,
            count,
        };
        let mut opened = ResultsFile::open(file, &experiment, &OpenOptions::new("arena merge"))?;
        let checked = opened.check_rows(&experiment, &schedule, shard, |_, _, _| Ok(()))?;
        if !checked.in_order {
            // Shards are written in order; one edited by hand is sorted first.
            opened.sort()?;
        }
        let seen = &checked.recorded;
        let games = schedule.shard_len(shard);
        if seen.len() < games {
            let shown: Vec<String> = seen
                .missing(games, 10)
                .into_iter()
                .map(|k| (u64::from(shard.index) + k * u64::from(count)).to_string())
                .collect();
            let missing = games - seen.len();
            problems.push(format!(
                "shard {shard} misses {missing} game(s): {}{}",
                shown.join(", "),
                if missing > 10 { ", ..." } else { "" }
            ));
        }
        shards.push(opened);
    }
    if !problems.is_empty() {
        return Err(merge_error(
            dir,
            format!(
                "{}; run those shards again (they resume) and merge again",
                problems.join("; ")
            ),
        ));
    }

    // Second pass: deal rows out of the shards in turn.
    let mut streams = Vec::new();
    for file in &files {
        let reader = csv::Reader::from_path(file).map_err(|e| ArenaError::Csv {
            path: file.clone(),
            line: 0,
            message: e.to_string(),
        })?;
        streams.push(
            reader
                .into_deserialize::<Row>()
                .map(|row| row.map(record::normalised)),
        );
    }
    let temporary = Temporary::new(dir.join("games.csv.merging"));
    {
        let mut writer = create(temporary.path(), first.csv_schema)?;
        for game in 0..total {
            let shard = (game % u64::from(count)) as usize;
            let row = streams[shard]
                .next()
                .ok_or_else(|| merge_error(dir, format!("shard {shard} ended before game {game}")))?
                .map_err(|e| ArenaError::Csv {
                    path: files[shard].clone(),
                    line: e.position().map_or(0, |p| p.line()),
                    message: e.to_string(),
                })?;
            if row.game != game {
                return Err(merge_error(
                    dir,
                    format!(
                        "expected game {game} in shard {shard}, found game {}",
                        row.game
                    ),
                ));
            }
            writer.write(&row)?;
        }
    }
    // What was there is kept unless it is this very file (a merge done again).
    let mut moved_aside = None;
    let holds_games = fs::metadata(&csv).is_ok_and(|m| m.len() > 0);
    if holds_games && !same_bytes(&csv, temporary.path())? {
        moved_aside = Some(set_aside(&csv)?);
        lock.hold(&csv)?;
    }
    temporary.place(&csv, "move the merged CSV in place")?;
    lock.hold(&csv)?;
    let mut merged = Meta {
        shard: Shard::WHOLE.to_string(),
        games_in_shard: total,
        ..first.clone()
    };
    for meta in &metas {
        merged.add_sandbox_missing(&meta.sandbox_missing);
    }
    merged.write(&csv)?;
    drop(shards);
    drop(lock);
    Ok(MergeSummary {
        csv,
        games: total,
        shards: count,
        moved_aside,
    })
}

/// Whether the files `a` and `b` hold the same bytes.
pub(crate) fn same_bytes(a: &Path, b: &Path) -> Result<bool, ArenaError> {
    use std::io::Read as _;
    let open = |path: &Path| {
        fs::File::open(path).map_err(|e| ArenaError::Io {
            path: path.to_path_buf(),
            action: "open the CSV to compare it",
            error: e.to_string(),
        })
    };
    let (fa, fb) = (open(a)?, open(b)?);
    let length = |f: &fs::File| f.metadata().map(|m| m.len()).unwrap_or(0);
    if length(&fa) != length(&fb) {
        return Ok(false);
    }
    let (mut ra, mut rb) = (std::io::BufReader::new(fa), std::io::BufReader::new(fb));
    let (mut x, mut y) = ([0u8; 8192], [0u8; 8192]);
    loop {
        let n = ra.read(&mut x).map_err(|e| ArenaError::Io {
            path: a.to_path_buf(),
            action: "read the CSV to compare it",
            error: e.to_string(),
        })?;
        if n == 0 {
            return Ok(true);
        }
        rb.read_exact(&mut y[..n]).map_err(|e| ArenaError::Io {
            path: b.to_path_buf(),
            action: "read the CSV to compare it",
            error: e.to_string(),
        })?;
        if x[..n] != y[..n] {
            return Ok(false);
        }
    }
}
