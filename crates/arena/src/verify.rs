//! `arena verify`: every row of a results folder (or a play record) checked with the row
//! checks of [`crate::checks`], each game of its shard at most once, the rows a prefix of the
//! shard's games; and [`compare`], two games files outside the timing columns.

use std::fs;
use std::path::{Path, PathBuf};

use crate::ArenaError;
use crate::checks::{self, check_played_row, folder_experiment};
use crate::experiment::Experiment;
use crate::meta::{Meta, meta_path};
use crate::played;
use crate::record::{self, Row, TIMING_COLUMNS};
use crate::schedule::{Schedule, Shard};

/// What [`verify`] found.
#[derive(Clone, Debug, Default)]
pub struct VerifySummary {
    /// The files checked.
    pub files: Vec<PathBuf>,
    /// The experiment's name.
    pub experiment: String,
    /// Rows checked (each a distinct game of the schedule).
    pub games: u64,
    /// Games the checked files should hold when complete.
    pub scheduled: u64,
    /// Whether an unterminated last line (a row being written) was left out.
    pub partial_line: bool,
    /// Whether the file was a play record (games people played, no schedule behind them).
    pub played: bool,
}

impl VerifySummary {
    /// Whether every scheduled game is recorded.
    pub fn complete(&self) -> bool {
        self.games == self.scheduled
    }
}

/// Checks every row of the games file(s) in `dir` against its experiment (the folder's copy,
/// or `experiment`): each row with [`check_row`], each game of its shard at most once. Takes
/// no lock: a run may be appending meanwhile (its unterminated last line is left out).
/// `games.csv` if there is one, else every `games.shard-I-of-N.csv`.
pub fn verify(dir: &Path, experiment: Option<&Experiment>) -> Result<VerifySummary, ArenaError> {
    if dir.is_file() {
        return verify_played(dir);
    }
    let whole = dir.join(Shard::WHOLE.csv_name());
    let files: Vec<PathBuf> = if whole.exists() {
        vec![whole.clone()]
    } else {
        let mut shards: Vec<PathBuf> = fs::read_dir(dir)
            .map_err(|e| ArenaError::Io {
                path: dir.to_path_buf(),
                action: "list the folder",
                error: e.to_string(),
            })?
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| {
                path.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("games.shard-") && n.ends_with(".csv"))
            })
            .collect();
        shards.sort();
        shards
    };
    if files.is_empty() {
        return Err(ArenaError::Io {
            path: whole,
            action: "find the games to verify",
            error: "no games.csv and no shard CSVs in the folder".into(),
        });
    }
    let mut summary = VerifySummary::default();
    for csv in &files {
        let Some(meta) = Meta::read(csv)? else {
            if experiment.is_none() && is_play_record(csv)? {
                return verify_played(csv);
            }
            return Err(ArenaError::ForeignCsv { csv: csv.clone() });
        };
        let shard: Shard = meta.shard.parse().map_err(|e: String| ArenaError::Io {
            path: meta_path(csv),
            action: "read the shard of the meta file",
            error: e,
        })?;
        let experiment = folder_experiment(dir, &meta, experiment)?;
        checks::check_schema(csv, &meta, &experiment)?;
        let schedule = Schedule::new(&experiment);
        let checked =
            checks::check_rows(csv, &experiment, &schedule, shard, true, |_, _, _| Ok(()))?;
        // One writer appends in schedule order: the rows are a prefix of the shard's games,
        // and a game missing before a later one is a row lost.
        if let Some((missing, line, later)) = checks::first_gap(csv, &checked, shard)? {
            return Err(ArenaError::Csv {
                path: csv.clone(),
                line,
                message: format!(
                    "game {missing} is missing, yet game {later} after it is recorded here: \
                     rows are written in schedule order, so a row was lost (restore it from a \
                     copy, or let `arena run` play it again: it resumes and sorts the file)"
                ),
            });
        }
        summary.partial_line |= checked.partial_line;
        summary.games += checked.recorded.len();
        summary.scheduled += schedule.shard_len(shard);
        summary.experiment = experiment.name.clone();
    }
    summary.files = files;
    Ok(summary)
}

/// Whether `csv` (with no meta file) is a play record: an arena CSV whose first row was
/// played by people. Anything unreadable is not (and is reported as a foreign CSV).
fn is_play_record(csv: &Path) -> Result<bool, ArenaError> {
    let file = fs::File::open(csv).map_err(|e| ArenaError::Io {
        path: csv.to_path_buf(),
        action: "open the CSV",
        error: e.to_string(),
    })?;
    let mut reader = ::csv::Reader::from_reader(std::io::BufReader::new(file));
    let Ok(headers) = reader.headers().cloned() else {
        return Ok(false);
    };
    if record::schema_of_header(&headers.iter().collect::<Vec<_>>()).is_none() {
        return Ok(false);
    }
    let first = reader
        .records()
        .next()
        .and_then(Result::ok)
        .and_then(|r| r.deserialize::<Row>(Some(&headers)).ok());
    Ok(first
        .is_some_and(|row| row.experiment == played::TERMINAL || row.experiment == played::BROWSER))
}

/// Checks every row of the play record `csv` with [`check_played_row`] (no lock taken: an
/// unterminated last line, a row being appended, is left out).
pub fn verify_played(csv: &Path) -> Result<VerifySummary, ArenaError> {
    let mut summary = VerifySummary {
        files: vec![csv.to_path_buf()],
        experiment: "the play record".into(),
        played: true,
        ..VerifySummary::default()
    };
    summary.partial_line = record::read_complete_rows(csv, |line, row| {
        check_played_row(csv, line, &row)?;
        summary.games += 1;
        Ok(())
    })?;
    summary.scheduled = summary.games;
    Ok(summary)
}

/// How two games files compare outside the timing columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Rows compared (the length of the shorter file).
    pub games: u64,
    /// The first difference, if any: where and what.
    pub difference: Option<String>,
}

/// Compares two games files row by row, outside the timing columns ([`TIMING_COLUMNS`]).
pub fn compare(ours: &Path, theirs: &Path) -> Result<Comparison, ArenaError> {
    let open = |path: &Path| {
        csv::ReaderBuilder::new()
            .from_path(path)
            .map_err(|e| ArenaError::Csv {
                path: path.to_path_buf(),
                line: 0,
                message: e.to_string(),
            })
    };
    let (mut a, mut b) = (open(ours)?, open(theirs)?);
    let header = |reader: &mut csv::Reader<fs::File>, path: &Path| {
        reader
            .headers()
            .map(|h| h.iter().map(String::from).collect::<Vec<_>>())
            .map_err(|e| ArenaError::Csv {
                path: path.to_path_buf(),
                line: 1,
                message: e.to_string(),
            })
    };
    let (ha, hb) = (header(&mut a, ours)?, header(&mut b, theirs)?);
    if ha != hb {
        return Ok(Comparison {
            games: 0,
            difference: Some(format!(
                "the headers differ: `{}` and `{}`",
                ha.join(","),
                hb.join(",")
            )),
        });
    }
    let timing: Vec<bool> = ha
        .iter()
        .map(|c| TIMING_COLUMNS.contains(&c.as_str()))
        .collect();
    let (mut ra, mut rb) = (a.records(), b.records());
    let mut games = 0;
    loop {
        let next = |records: &mut csv::StringRecordsIter<'_, fs::File>, path: &Path| {
            records.next().transpose().map_err(|e| ArenaError::Csv {
                path: path.to_path_buf(),
                line: e.position().map_or(0, |p| p.line()),
                message: e.to_string(),
            })
        };
        match (next(&mut ra, ours)?, next(&mut rb, theirs)?) {
            (None, None) => {
                return Ok(Comparison {
                    games,
                    difference: None,
                });
            }
            (Some(_), None) | (None, Some(_)) => {
                return Ok(Comparison {
                    games,
                    difference: Some(format!(
                        "one file ends after {games} games, the other goes on"
                    )),
                });
            }
            (Some(x), Some(y)) => {
                let line = x.position().map_or(0, |p| p.line());
                for (i, column) in ha.iter().enumerate() {
                    if !timing[i] && x.get(i) != y.get(i) {
                        return Ok(Comparison {
                            games,
                            difference: Some(format!(
                                "line {line} (game {}): column `{column}` is `{}` in one and \
                                 `{}` in the other",
                                x.get(2).unwrap_or(""),
                                x.get(i).unwrap_or(""),
                                y.get(i).unwrap_or("")
                            )),
                        });
                    }
                }
                games += 1;
            }
        }
    }
}
