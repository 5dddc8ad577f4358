//! The CSV record of games (schema version 1): one row per game, in schedule order.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize, Serializer};

use crate::ArenaError;

/// The version of the CSV schema below; bumped on any change of columns or meaning.
pub const CSV_SCHEMA: u32 = 1;

/// The columns, in order.
pub const COLUMNS: [&str; 20] = [
    "experiment",
    "variant",
    "game",
    "seed",
    "first",
    "second",
    "result",
    "termination",
    "plies",
    "first_score",
    "second_score",
    "first_ms",
    "second_ms",
    "first_max_ms",
    "second_max_ms",
    "first_nodes",
    "second_nodes",
    "moves",
    "first_spec",
    "second_spec",
];

/// The columns that hold wall-clock measurements: the only ones that may differ between two
/// runs of the same experiment.
pub const TIMING_COLUMNS: [&str; 4] = ["first_ms", "second_ms", "first_max_ms", "second_max_ms"];

/// One game as a CSV row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The experiment's name.
    pub experiment: String,
    /// The variant id.
    pub variant: String,
    /// The game's index in the schedule.
    pub game: u64,
    /// The game's seed.
    pub seed: u64,
    /// The agent moving first (display name).
    pub first: String,
    /// The agent moving second.
    pub second: String,
    /// `1-0`, `0-1` or `1/2-1/2`, from the first player's view.
    pub result: String,
    /// `win`, `draw`, `ply-cap`, `illegal-move`, `crash` or `timeout`.
    pub termination: String,
    /// Plies played, the random opening included.
    pub plies: u32,
    /// The first player's final total, where the game scores points.
    pub first_score: Option<i32>,
    /// The second player's final total.
    pub second_score: Option<i32>,
    /// The first player's total thinking time, ms.
    #[serde(serialize_with = "millis")]
    pub first_ms: f64,
    /// The second player's total thinking time, ms.
    #[serde(serialize_with = "millis")]
    pub second_ms: f64,
    /// The first player's longest move, ms.
    #[serde(serialize_with = "millis")]
    pub first_max_ms: f64,
    /// The second player's longest move, ms.
    #[serde(serialize_with = "millis")]
    pub second_max_ms: f64,
    /// The first player's nodes or simulations.
    pub first_nodes: u64,
    /// The second player's nodes or simulations.
    pub second_nodes: u64,
    /// The moves, space-separated, in the game's notation.
    pub moves: String,
    /// The first player's agent spec.
    pub first_spec: String,
    /// The second player's agent spec.
    pub second_spec: String,
}

fn millis<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format!("{value:.3}"))
}

/// The header line.
pub fn header_line() -> String {
    COLUMNS.join(",")
}

fn csv_error(path: &Path, line: u64, message: impl Into<String>) -> ArenaError {
    ArenaError::Csv {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

fn io_error(path: &Path, action: &'static str, error: std::io::Error) -> ArenaError {
    ArenaError::Io {
        path: path.to_path_buf(),
        action,
        error: error.to_string(),
    }
}

/// What a CSV already holds, for resuming.
#[derive(Debug, Default)]
pub struct Existing {
    /// Whether a half-written last line was cut off.
    pub truncated: bool,
    /// Whether the file needs a header (it was missing or empty).
    pub needs_header: bool,
}

/// Cuts a half-written last line (one without its newline) off the end of `path`.
/// Returns whether anything was cut.
pub fn cut_partial_line(path: &Path) -> Result<bool, ArenaError> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| io_error(path, "open the CSV", e))?;
    let len = file
        .metadata()
        .map_err(|e| io_error(path, "read the CSV's size", e))?
        .len();
    if len == 0 {
        return Ok(false);
    }
    // Scan back from the end for the last newline, in chunks.
    let mut end = len;
    let mut last_newline: Option<u64> = None;
    let mut buffer = vec![0u8; 64 * 1024];
    let mut first_chunk = true;
    while end > 0 {
        let start = end.saturating_sub(buffer.len() as u64);
        let chunk = &mut buffer[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))
            .and_then(|_| file.read_exact(chunk))
            .map_err(|e| io_error(path, "read the CSV", e))?;
        if first_chunk && chunk.last() == Some(&b'\n') {
            return Ok(false);
        }
        first_chunk = false;
        if let Some(at) = chunk.iter().rposition(|&b| b == b'\n') {
            last_newline = Some(start + at as u64);
            break;
        }
        end = start;
    }
    let keep = last_newline.map_or(0, |at| at + 1);
    file.set_len(keep)
        .map_err(|e| io_error(path, "cut the half-written last line of the CSV", e))?;
    Ok(true)
}

/// Reads every row of an arena CSV, calling `each` with its 1-based line number.
/// The header must be this schema's; a row that does not parse is an error naming its line.
pub fn read_rows(
    path: &Path,
    each: impl FnMut(u64, Row) -> Result<(), ArenaError>,
) -> Result<(), ArenaError> {
    let file = File::open(path).map_err(|e| io_error(path, "open the CSV", e))?;
    read_rows_from(path, BufReader::new(file), each)
}

/// Like [`read_rows`], for a reader that takes no lock while a run may be appending: an
/// unterminated last line (a row being written this very moment) is left out, so the rows
/// read are always whole. Returns whether such a line was left out.
pub fn read_complete_rows(
    path: &Path,
    each: impl FnMut(u64, Row) -> Result<(), ArenaError>,
) -> Result<bool, ArenaError> {
    let mut file = File::open(path).map_err(|e| io_error(path, "open the CSV", e))?;
    let whole = complete_length(&mut file).map_err(|e| io_error(path, "read the CSV", e))?;
    let len = file
        .metadata()
        .map_err(|e| io_error(path, "read the CSV's size", e))?
        .len();
    file.seek(SeekFrom::Start(0))
        .map_err(|e| io_error(path, "read the CSV", e))?;
    read_rows_from(path, BufReader::new(file.take(whole)), each)?;
    Ok(whole < len)
}

/// The length of `file` up to and including its last newline.
fn complete_length(file: &mut File) -> std::io::Result<u64> {
    let mut end = file.metadata()?.len();
    let mut buffer = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(buffer.len() as u64);
        let chunk = &mut buffer[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if let Some(at) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + at as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Like [`read_rows`], from any reader; `path` names it in errors.
pub fn read_rows_from(
    path: &Path,
    reader: impl Read,
    mut each: impl FnMut(u64, Row) -> Result<(), ArenaError>,
) -> Result<(), ArenaError> {
    let mut reader = csv::ReaderBuilder::new().from_reader(reader);
    let headers = reader
        .headers()
        .map_err(|e| csv_error(path, 1, e.to_string()))?
        .clone();
    let found: Vec<&str> = headers.iter().collect();
    if found != COLUMNS {
        return Err(csv_error(
            path,
            1,
            format!(
                "the header is not the arena's CSV schema {CSV_SCHEMA}: expected `{}`, found `{}`",
                header_line(),
                found.join(",")
            ),
        ));
    }
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            csv_error(path, line, e.to_string())
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let row: Row = record
            .deserialize(Some(&headers))
            .map_err(|e| csv_error(path, line, e.to_string()))?;
        each(line, row)?;
    }
    Ok(())
}

/// Appends rows to an arena CSV, flushing each one to disk as it is written.
///
/// Each row goes to the file in one `write` of the whole line, so a reader that ignores an
/// unterminated last line never sees half a row, and a killed run leaves at most one partial
/// line at the end, which the next run cuts.
pub struct RowWriter {
    path: PathBuf,
    file: File,
}

impl RowWriter {
    /// Opens `path` for appending, writing the header first if `header` is set.
    pub fn append(path: &Path, header: bool) -> Result<RowWriter, ArenaError> {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io_error(path, "open the CSV for appending", e))?;
        if header {
            writeln!(file, "{}", header_line())
                .and_then(|_| file.flush())
                .map_err(|e| io_error(path, "write the CSV header", e))?;
        }
        Ok(RowWriter {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Writes one row, whole, and flushes it.
    pub fn write(&mut self, row: &Row) -> Result<(), ArenaError> {
        let mut line = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::with_capacity(512));
        let bytes = line
            .serialize(row)
            .map_err(|e| e.to_string())
            .and_then(|()| line.into_inner().map_err(|e| e.to_string()))
            .map_err(|e| csv_error(&self.path, 0, format!("cannot write a row: {e}")))?;
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.flush())
            .map_err(|e| io_error(&self.path, "write to the CSV", e))
    }
}

/// Rewrites `path` with its rows sorted by game index (through a temporary file and a rename,
/// so a crash leaves either the old or the new file).
pub fn sort_rows(path: &Path) -> Result<(), ArenaError> {
    let mut rows = Vec::new();
    read_rows(path, |_, row| {
        rows.push(row);
        Ok(())
    })?;
    rows.sort_by_key(|r| r.game);
    let temporary = path.with_extension("csv.sorting");
    {
        let mut writer = RowWriter::append(&temporary, true)?;
        for row in &rows {
            writer.write(row)?;
        }
    }
    std::fs::rename(&temporary, path).map_err(|e| io_error(path, "replace the CSV", e))
}

/// Whether the file at `path` has at least one byte before its first newline that looks
/// like our header: used to tell an empty or header-less file from a foreign one.
pub fn has_header(path: &Path) -> Result<bool, ArenaError> {
    let file = File::open(path).map_err(|e| io_error(path, "open the CSV", e))?;
    let mut first = String::new();
    BufReader::new(file)
        .read_line(&mut first)
        .map_err(|e| io_error(path, "read the CSV", e))?;
    Ok(first.trim_end() == header_line())
}
