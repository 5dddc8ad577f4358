//! The CSV record of games: one row per game, in schedule order. The schema (its versions,
//! its columns, its terminations) is the `csv-schema` crate's, which `report` reads by too;
//! this module writes, reads, sorts and cuts rows of it.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use crate::ArenaError;
pub use csv_schema::{
    CLOCK_COLUMNS, COLUMNS, CSV_SCHEMA, CSV_SCHEMA_CLOCKS, CSV_SCHEMA_SEATS, SEAT_COLUMNS,
    TIMING_COLUMNS, columns, complete_length, schema_of_header,
};

/// One game as a CSV row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    pub first_ms: f64,
    /// The second player's total thinking time, ms.
    pub second_ms: f64,
    /// The first player's longest move, ms.
    pub first_max_ms: f64,
    /// The second player's longest move, ms.
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
    /// The number of seats (schema 2; `None` in schema 1, which means 2).
    #[serde(default)]
    pub players: Option<u8>,
    /// The agent in the third seat (three or four players).
    #[serde(default)]
    pub third: Option<String>,
    /// The agent in the fourth seat (four players).
    #[serde(default)]
    pub fourth: Option<String>,
    /// The third seat's agent spec.
    #[serde(default)]
    pub third_spec: Option<String>,
    /// The fourth seat's agent spec.
    #[serde(default)]
    pub fourth_spec: Option<String>,
    /// The third seat's final total.
    #[serde(default)]
    pub third_score: Option<i32>,
    /// The fourth seat's final total.
    #[serde(default)]
    pub fourth_score: Option<i32>,
    /// The third seat's total thinking time, ms.
    #[serde(default)]
    pub third_ms: Option<f64>,
    /// The fourth seat's total thinking time, ms.
    #[serde(default)]
    pub fourth_ms: Option<f64>,
    /// The third seat's longest move, ms.
    #[serde(default)]
    pub third_max_ms: Option<f64>,
    /// The fourth seat's longest move, ms.
    #[serde(default)]
    pub fourth_max_ms: Option<f64>,
    /// The third seat's nodes or simulations.
    #[serde(default)]
    pub third_nodes: Option<u64>,
    /// The fourth seat's nodes or simulations.
    #[serde(default)]
    pub fourth_nodes: Option<u64>,
    /// The time control (schema 3): `tc=40/60+0.6`, `st=1`, `tc=180 st=30`.
    #[serde(default)]
    pub time_control: Option<String>,
    /// Time left on the first seat's game clock at the end, ms (schema 3, with a game clock).
    #[serde(default)]
    pub first_clock_ms: Option<f64>,
    /// Time left on the second seat's game clock at the end, ms.
    #[serde(default)]
    pub second_clock_ms: Option<f64>,
    /// Time left on the third seat's game clock at the end, ms.
    #[serde(default)]
    pub third_clock_ms: Option<f64>,
    /// Time left on the fourth seat's game clock at the end, ms.
    #[serde(default)]
    pub fourth_clock_ms: Option<f64>,
}

impl Row {
    /// The number of seats of the game: `players`, or 2 in schema 1.
    pub fn seats(&self) -> usize {
        self.players.map_or(2, usize::from)
    }

    /// The agents' display names, in seat order.
    pub fn seat_names(&self) -> Vec<&str> {
        let mut names = vec![self.first.as_str(), self.second.as_str()];
        names.extend(self.third.as_deref());
        names.extend(self.fourth.as_deref());
        names.truncate(self.seats());
        names
    }

    /// The seat whose fault ended the game (for a `crash`, `illegal-move` or `timeout` row):
    /// the loser of a two-player game, the only last place of a larger one.
    pub fn faulting_seat(&self) -> Option<usize> {
        let seats = self.seats();
        if seats == 2 {
            return match self.result.as_str() {
                "1-0" => Some(1),
                "0-1" => Some(0),
                _ => None,
            };
        }
        let places: Vec<usize> = self
            .result
            .split('-')
            .map(|p| p.parse().unwrap_or(0))
            .collect();
        let last: Vec<usize> = (0..places.len()).filter(|&s| places[s] == seats).collect();
        match last.as_slice() {
            [seat] => Some(*seat),
            _ => None,
        }
    }

    /// The row as one CSV line of schema `schema`, newline included: what a writer that must
    /// append it in a single write (the play record, shared by several processes) needs.
    pub fn line(&self, schema: u32) -> Vec<u8> {
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        // Writing to memory cannot fail; the fallback is never reached.
        let _ = writer.write_record(self.fields(schema));
        writer.into_inner().unwrap_or_default()
    }

    /// The row's fields in the column order of schema `schema`.
    fn fields(&self, schema: u32) -> Vec<String> {
        let number = |n: Option<i32>| n.map(|n| n.to_string()).unwrap_or_default();
        let ms = |v: f64| format!("{v:.3}");
        let mut out = vec![
            self.experiment.clone(),
            self.variant.clone(),
            self.game.to_string(),
            self.seed.to_string(),
            self.first.clone(),
            self.second.clone(),
            self.result.clone(),
            self.termination.clone(),
            self.plies.to_string(),
            number(self.first_score),
            number(self.second_score),
            ms(self.first_ms),
            ms(self.second_ms),
            ms(self.first_max_ms),
            ms(self.second_max_ms),
            self.first_nodes.to_string(),
            self.second_nodes.to_string(),
            self.moves.clone(),
            self.first_spec.clone(),
            self.second_spec.clone(),
        ];
        if schema >= CSV_SCHEMA_SEATS {
            let text = |v: &Option<String>| v.clone().unwrap_or_default();
            let time = |v: Option<f64>| v.map(ms).unwrap_or_default();
            let count = |v: Option<u64>| v.map(|n| n.to_string()).unwrap_or_default();
            out.extend([
                self.seats().to_string(),
                text(&self.third),
                text(&self.fourth),
                text(&self.third_spec),
                text(&self.fourth_spec),
                number(self.third_score),
                number(self.fourth_score),
                time(self.third_ms),
                time(self.fourth_ms),
                time(self.third_max_ms),
                time(self.fourth_max_ms),
                count(self.third_nodes),
                count(self.fourth_nodes),
            ]);
        }
        if schema >= CSV_SCHEMA_CLOCKS {
            let time = |v: Option<f64>| v.map(ms).unwrap_or_default();
            out.extend([
                self.time_control.clone().unwrap_or_default(),
                time(self.first_clock_ms),
                time(self.second_clock_ms),
                time(self.third_clock_ms),
                time(self.fourth_clock_ms),
            ]);
        }
        out
    }
}

/// The header line of schema 1.
pub fn header_line() -> String {
    COLUMNS.join(",")
}

/// The header line of schema `schema`.
pub fn header_line_of(schema: u32) -> String {
    columns(schema).join(",")
}

fn csv_error(path: &Path, line: u64, message: impl Into<String>) -> ArenaError {
    ArenaError::Csv {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

/// An I/O error on `path` while doing `action`, as the arena reports it.
pub(crate) fn io_error(path: &Path, action: &'static str, error: std::io::Error) -> ArenaError {
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

/// A row as read, in the form the arena writes it: a two-player row carries no `players`
/// (schema 2 writes it as 2, schema 1 has no such column).
pub fn normalised(mut row: Row) -> Row {
    if row.players == Some(2) {
        row.players = None;
    }
    row
}

/// The schema version of the arena CSV at `path`, read from its header.
pub fn schema_of(path: &Path) -> Result<u32, ArenaError> {
    let file = File::open(path).map_err(|e| io_error(path, "open the CSV", e))?;
    let mut reader = csv::ReaderBuilder::new().from_reader(BufReader::new(file));
    let headers = reader
        .headers()
        .map_err(|e| csv_error(path, 1, e.to_string()))?
        .clone();
    let found: Vec<&str> = headers.iter().collect();
    schema_of_header(&found).ok_or_else(|| header_error(path, &found))
}

fn header_error(path: &Path, found: &[&str]) -> ArenaError {
    csv_error(
        path,
        1,
        format!(
            "the header is not the arena's CSV schema {CSV_SCHEMA}, {CSV_SCHEMA_SEATS} or \
             {CSV_SCHEMA_CLOCKS}: expected `{}` (or it followed by `{}`, or by that and `{}`), \
             found `{}`",
            header_line(),
            SEAT_COLUMNS.join(","),
            CLOCK_COLUMNS.join(","),
            found.join(",")
        ),
    )
}

/// Reads every row of an arena CSV, calling `each` with its 1-based line number.
/// The header must be one of the schemas'; a row that does not parse is an error naming its
/// line.
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
    let file = File::open(path).map_err(|e| io_error(path, "open the CSV", e))?;
    read_complete_rows_from(path, file, each)
}

/// [`read_complete_rows`] of a file the caller opened (the web server opens its files through
/// its own guard); `path` names it in errors.
pub fn read_complete_rows_from(
    path: &Path,
    mut file: File,
    each: impl FnMut(u64, Row) -> Result<(), ArenaError>,
) -> Result<bool, ArenaError> {
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
    let Some(schema) = schema_of_header(&found) else {
        return Err(header_error(path, &found));
    };
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            csv_error(path, line, e.to_string())
        })?;
        let line = record.position().map_or(0, |p| p.line());
        let row: Row = record
            .deserialize(Some(&headers))
            .map_err(|e| csv_error(path, line, e.to_string()))?;
        let row = normalised(row);
        check_written_form(&record, &row, schema).map_err(|(column, problem)| {
            ArenaError::Mismatch {
                path: path.to_path_buf(),
                line,
                game: row.game,
                column,
                problem,
            }
        })?;
        each(line, row)?;
    }
    Ok(())
}

/// Checks that `record` (read as `row`) is written as the arena writes it: every time (the
/// clocks of schema 3 included) a finite, non-negative number of milliseconds with three
/// decimals, every other field in the one form
/// the arena writes (numbers without sign or leading zeros). Returns the column at fault and
/// what is wrong. Every reader of recorded rows (resume, merge, sprt, verify) goes through it,
/// so that a value the report would refuse is refused where the row is checked.
fn check_written_form(
    record: &csv::StringRecord,
    row: &Row,
    schema: u32,
) -> Result<(), (&'static str, String)> {
    let times = [
        ("first_ms", Some(row.first_ms)),
        ("second_ms", Some(row.second_ms)),
        ("first_max_ms", Some(row.first_max_ms)),
        ("second_max_ms", Some(row.second_max_ms)),
        ("third_ms", row.third_ms),
        ("fourth_ms", row.fourth_ms),
        ("third_max_ms", row.third_max_ms),
        ("fourth_max_ms", row.fourth_max_ms),
        ("first_clock_ms", row.first_clock_ms),
        ("second_clock_ms", row.second_clock_ms),
        ("third_clock_ms", row.third_clock_ms),
        ("fourth_clock_ms", row.fourth_clock_ms),
    ];
    let columns = columns(schema);
    let text_of = |column: &str| {
        columns
            .iter()
            .position(|c| *c == column)
            .and_then(|at| record.get(at))
            .unwrap_or("")
    };
    for (column, value) in times {
        if let Some(value) = value
            && (!value.is_finite() || value.is_sign_negative())
        {
            return Err((
                column,
                format!(
                    "is `{}`: a time in milliseconds is a finite number, 0 or more",
                    text_of(column)
                ),
            ));
        }
    }
    for ((column, found), written) in columns.iter().zip(record.iter()).zip(row.fields(schema)) {
        if found != written {
            return Err((
                column,
                format!("is written `{found}`; the arena writes it `{written}`"),
            ));
        }
    }
    Ok(())
}

/// Appends rows to an arena CSV, flushing each one to disk as it is written.
///
/// Each row goes to the file in one `write` of the whole line, so a reader that ignores an
/// unterminated last line never sees half a row, and a killed run leaves at most one partial
/// line at the end, which the next run cuts.
pub struct RowWriter<W: Write = File> {
    path: PathBuf,
    file: W,
    schema: u32,
}

impl RowWriter {
    /// Opens `path` for appending rows of schema `schema` (1, 2 or 3), writing the header first
    /// if `header` is set.
    pub fn append(path: &Path, schema: u32, header: bool) -> Result<RowWriter, ArenaError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io_error(path, "open the CSV for appending", e))?;
        RowWriter::over(path, file, schema, header)
    }
}

impl<W: Write> RowWriter<W> {
    /// Writes rows of schema `schema` to `file`, which `path` names in errors, the header
    /// first if `header` is set.
    pub fn over(
        path: &Path,
        mut file: W,
        schema: u32,
        header: bool,
    ) -> Result<RowWriter<W>, ArenaError> {
        if header {
            writeln!(file, "{}", header_line_of(schema))
                .and_then(|_| file.flush())
                .map_err(|e| io_error(path, "write the CSV header", e))?;
        }
        Ok(RowWriter {
            path: path.to_path_buf(),
            file,
            schema,
        })
    }

    /// Writes one row, whole, and flushes it.
    pub fn write(&mut self, row: &Row) -> Result<(), ArenaError> {
        wait_if_halted();
        let mut line = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::with_capacity(512));
        let bytes = line
            .write_record(row.fields(self.schema))
            .map_err(|e| e.to_string())
            .and_then(|()| line.into_inner().map_err(|e| e.to_string()))
            .map_err(|e| csv_error(&self.path, 0, format!("cannot write a row: {e}")))?;
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.flush())
            .map_err(|e| io_error(&self.path, "write to the CSV", e))
    }
}

/// Whether [`halt_writers`] was called.
static HALTED: AtomicBool = AtomicBool::new(false);

/// Stops every row writer of this process for good, for a process that ends on a signal: its
/// agents are about to be killed, and a game a killed agent loses (a `crash`) is the arena's
/// doing, not the agent's, so no row may follow. A row already written stands whole (each goes
/// out in one write), and the rows stay in schedule order, so a resume plays the rest. A writer
/// that comes to a row after this waits for the process to end.
pub fn halt_writers() {
    HALTED.store(true, Ordering::SeqCst);
}

/// Waits for the process to end once [`halt_writers`] was called.
fn wait_if_halted() {
    while HALTED.load(Ordering::SeqCst) {
        std::thread::park();
    }
}

/// A file written next to the one it replaces, then moved over it by a rename, so a crash
/// leaves either the old or the new file. Removed when dropped unless it was moved in place: a
/// write that fails (a full disk) or a check that refuses leaves nothing behind.
pub(crate) struct Temporary {
    path: PathBuf,
    placed: bool,
}

impl Temporary {
    /// `path`, removed first if an earlier writer left it.
    pub(crate) fn new(path: PathBuf) -> Temporary {
        let _ = std::fs::remove_file(&path);
        Temporary {
            path,
            placed: false,
        }
    }

    /// The temporary file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Moves the file over `to` (`action` names that in an error).
    pub(crate) fn place(mut self, to: &Path, action: &'static str) -> Result<(), ArenaError> {
        std::fs::rename(&self.path, to).map_err(|e| io_error(to, action, e))?;
        self.placed = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.placed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Rewrites `path` with its rows sorted by game index (through a [`Temporary`] file and a
/// rename, so a crash leaves either the old or the new file).
pub fn sort_rows(path: &Path) -> Result<(), ArenaError> {
    let schema = schema_of(path)?;
    let mut rows = Vec::new();
    read_rows(path, |_, row| {
        rows.push(row);
        Ok(())
    })?;
    rows.sort_by_key(|r| r.game);
    let temporary = Temporary::new(path.with_extension("csv.sorting"));
    {
        let mut writer = RowWriter::append(temporary.path(), schema, true)?;
        for row in &rows {
            writer.write(row)?;
        }
    }
    temporary.place(path, "replace the CSV")
}

/// Whether the first line of the file at `path` is one of our headers: used to tell an empty
/// or header-less file from a foreign one.
pub fn has_header(path: &Path) -> Result<bool, ArenaError> {
    let file = File::open(path).map_err(|e| io_error(path, "open the CSV", e))?;
    let mut first = String::new();
    BufReader::new(file)
        .read_line(&mut first)
        .map_err(|e| io_error(path, "read the CSV", e))?;
    let line = first.trim_end();
    Ok(line == header_line()
        || line == header_line_of(CSV_SCHEMA_SEATS)
        || line == header_line_of(CSV_SCHEMA_CLOCKS))
}
