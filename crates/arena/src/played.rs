//! The record of games people played, in the terminal (`arena play`) and in the browser
//! (`arena serve`), and the statistics read back from it.
//!
//! Every finished game is appended to the play record, `results/play/games.csv` unless told
//! otherwise, in the arena's CSV format: a person sits as an agent whose spec is [`HUMAN`]
//! and whose name is `human` or the name they give, so `arena report results/play/games.csv`
//! rates people against every agent they met. The record is in schema 2 (the seat columns of
//! three and four players after the two-player ones), so games of 2, 3 and 4 players sit in the
//! one file, a two-player row with `players` 2 and the other seats empty; a record begun in
//! schema 1 (by an earlier version) keeps taking two-player rows, and is rewritten in schema 2,
//! its rows unchanged, when its first larger game comes. A game played under a time control
//! (`tc`, `st`) is written as `arena run` writes one, in schema 3 (the time control and each
//! seat's time left on its game clock at the end): its record is rewritten in schema 3 the same
//! way when its first such game comes, and stays in schema 3.
//!
//! Several writers may share a record (two terminals and a server): [`append`] takes the
//! arena's writer lock on the file ([`crate::lock`], the lock `arena run` takes on its games
//! file), waiting a moment for another appender, writes the header if the file is new, and
//! appends the row in one write, so rows never interleave. A half-written last row (a killed
//! writer) is cut before the next one is appended.
//!
//! ```no_run
//! use std::path::Path;
//!
//! let record = arena::played::default_record(Path::new("results"));
//! let rows = arena::played::read_record(&record)?;
//! let stats = arena::played::stats(&rows, Some("human"));
//! println!("{} games recorded", stats.games);
//! # Ok::<(), arena::ArenaError>(())
//! ```

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use agents::AgentGame as _;
use agents::AgentSpec;
use agents::clock::TimeControl;
use rules::{Outcome, Player, Totals, Variant};
use serde::Serialize;

use crate::names::hidden_in_name;
use crate::record::{self, CSV_SCHEMA, CSV_SCHEMA_CLOCKS, CSV_SCHEMA_SEATS, Row};
use crate::{ArenaError, Termination, lock};

/// The spec a person's seat has in the record, and the name a person has unless they give one.
pub const HUMAN: &str = "human";

/// The `experiment` column of games played in the terminal.
pub const TERMINAL: &str = "play";

/// The `experiment` column of games played in the browser.
pub const BROWSER: &str = "play-web";

/// The longest name a person may give, in characters.
pub const NAME_LIMIT: usize = 40;

/// The play record under a results folder: `RESULTS/play/games.csv`.
pub fn default_record(results: &Path) -> PathBuf {
    results.join("play").join("games.csv")
}

/// Checks a person's name for the record: 1 to [`NAME_LIMIT`] characters after trimming, none
/// that [`hidden_in_name`] refuses. Returns the trimmed name.
pub fn check_name(name: &str) -> Result<String, String> {
    let trimmed = name.trim();
    if trimmed.is_empty() {
        return Err("a name must not be empty".into());
    }
    if trimmed.chars().count() > NAME_LIMIT {
        return Err(format!("a name has at most {NAME_LIMIT} characters"));
    }
    if let Some(hidden) = hidden_in_name(trimmed) {
        return Err(format!("a name must not hold {hidden}"));
    }
    Ok(trimmed.to_string())
}

/// The agent of the menus' "easy" level for `variant` (seed 004's easy AI for m,n,k games,
/// seed 001's greedy player for O An Quan): the game says which ([`AgentGame::easy_spec`]).
pub fn easy_spec(variant: &Variant) -> AgentSpec {
    let text = rules::with_game!(variant, |start| start.easy_spec());
    text.parse().expect("a fixed spec parses")
}

/// The agent of the menus' "hard" level for `variant`, also the one that gives hints: strong,
/// and quick enough to answer within a second or two ([`AgentGame::hard_spec`]).
pub fn hard_spec(variant: &Variant) -> AgentSpec {
    let text = rules::with_game!(variant, |start| start.hard_spec());
    text.parse().expect("a fixed spec parses")
}

/// The difficulty of an agent spec on `variant`: `easy` or `hard` for the presets, else the
/// spec itself.
pub fn level_of(spec: &str, variant: &Variant) -> String {
    match spec.parse::<AgentSpec>() {
        Ok(parsed) if parsed == easy_spec(variant) => "easy".into(),
        Ok(parsed) if parsed == hard_spec(variant) => "hard".into(),
        _ => spec.to_string(),
    }
}

/// One seat of a played game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedSeat {
    /// The name in the record: the person's name, or the agent's spec.
    pub name: String,
    /// The agent, or `None` for a person (recorded as [`HUMAN`]).
    pub agent: Option<AgentSpec>,
    /// Time spent on this seat's moves (a person's from the prompt to the move).
    pub time: Duration,
    /// The longest single move.
    pub max_time: Duration,
    /// Nodes searched (0 for a person).
    pub nodes: u64,
    /// Time left on the seat's game clock at the end, if the game had one.
    pub clock_left: Option<Duration>,
}

impl PlayedSeat {
    /// A person's seat.
    pub fn person(name: impl Into<String>) -> PlayedSeat {
        PlayedSeat {
            name: name.into(),
            agent: None,
            time: Duration::ZERO,
            max_time: Duration::ZERO,
            nodes: 0,
            clock_left: None,
        }
    }

    /// An agent's seat, named by its spec.
    pub fn agent(spec: AgentSpec) -> PlayedSeat {
        PlayedSeat {
            name: spec.to_string(),
            agent: Some(spec),
            time: Duration::ZERO,
            max_time: Duration::ZERO,
            nodes: 0,
            clock_left: None,
        }
    }

    /// Adds one move's time and nodes.
    pub fn count_move(&mut self, time: Duration, nodes: u64) {
        self.time += time;
        self.max_time = self.max_time.max(time);
        self.nodes += nodes;
    }

    /// The spec column's text: the agent's spec, or [`HUMAN`].
    pub fn spec_text(&self) -> String {
        self.agent
            .as_ref()
            .map_or_else(|| HUMAN.to_string(), ToString::to_string)
    }
}

/// A finished game of people and agents, as the play record keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// Where it was played: [`TERMINAL`] or [`BROWSER`].
    pub experiment: String,
    /// The variant.
    pub variant: Variant,
    /// The seed of the agents' random number generators.
    pub seed: u64,
    /// The seats in turn order.
    pub seats: Vec<PlayedSeat>,
    /// The result.
    pub outcome: Outcome,
    /// How it ended.
    pub termination: Termination,
    /// Plies played.
    pub plies: u32,
    /// Final totals where the game scores points.
    pub totals: Option<Totals>,
    /// The moves in the game's notation.
    pub moves: Vec<String>,
    /// The time control it was played under, if it had one (the record's schema 3).
    pub time_control: Option<TimeControl>,
}

impl PlayedGame {
    /// The schema the record needs for this game's row: 3 with a time control, 2 with more
    /// than two seats, else 1.
    pub fn schema(&self) -> u32 {
        if self.time_control.is_some() {
            CSV_SCHEMA_CLOCKS
        } else if self.seats.len() > 2 {
            CSV_SCHEMA_SEATS
        } else {
            CSV_SCHEMA
        }
    }

    /// The game as a CSV row with index `game`.
    pub fn row(&self, game: u64) -> Row {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let seat = |s: usize| self.seats.get(s);
        let total = |s: usize| self.totals.as_ref().and_then(|t| t.get(s).copied());
        let players = self.seats.len();
        let mut row = Row {
            experiment: self.experiment.clone(),
            variant: self.variant.to_string(),
            game,
            seed: self.seed,
            first: seat(0).map(|s| s.name.clone()).unwrap_or_default(),
            second: seat(1).map(|s| s.name.clone()).unwrap_or_default(),
            result: self.outcome.result_text().into_owned(),
            termination: self.termination.as_str().to_string(),
            plies: self.plies,
            first_score: total(0),
            second_score: total(1),
            first_ms: seat(0).map_or(0.0, |s| ms(s.time)),
            second_ms: seat(1).map_or(0.0, |s| ms(s.time)),
            first_max_ms: seat(0).map_or(0.0, |s| ms(s.max_time)),
            second_max_ms: seat(1).map_or(0.0, |s| ms(s.max_time)),
            first_nodes: seat(0).map_or(0, |s| s.nodes),
            second_nodes: seat(1).map_or(0, |s| s.nodes),
            moves: self.moves.join(" "),
            first_spec: seat(0).map(PlayedSeat::spec_text).unwrap_or_default(),
            second_spec: seat(1).map(PlayedSeat::spec_text).unwrap_or_default(),
            players: (players > 2).then_some(players as u8),
            time_control: self.time_control.map(|tc| tc.to_string()),
            first_clock_ms: seat(0).and_then(|s| s.clock_left).map(ms),
            second_clock_ms: seat(1).and_then(|s| s.clock_left).map(ms),
            third_clock_ms: seat(2).and_then(|s| s.clock_left).map(ms),
            fourth_clock_ms: seat(3).and_then(|s| s.clock_left).map(ms),
            ..Row::default()
        };
        if let Some(third) = seat(2) {
            row.third = Some(third.name.clone());
            row.third_spec = Some(third.spec_text());
            row.third_score = total(2);
            row.third_ms = Some(ms(third.time));
            row.third_max_ms = Some(ms(third.max_time));
            row.third_nodes = Some(third.nodes);
        }
        if let Some(fourth) = seat(3) {
            row.fourth = Some(fourth.name.clone());
            row.fourth_spec = Some(fourth.spec_text());
            row.fourth_score = total(3);
            row.fourth_ms = Some(ms(fourth.time));
            row.fourth_max_ms = Some(ms(fourth.max_time));
            row.fourth_nodes = Some(fourth.nodes);
        }
        row
    }
}

fn io_error(path: &Path, action: &'static str, error: std::io::Error) -> ArenaError {
    ArenaError::Io {
        path: path.to_path_buf(),
        action,
        error: error.to_string(),
    }
}

/// How long an appender waits for another to finish its row before giving up.
const LOCK_PATIENCE: Duration = Duration::from_secs(5);

/// Held by this process's appender while it appends (any record).
static APPENDING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Appends `game` to the play record `record`, creating the folder and the file with its
/// header (schema 2, or 3 for a game with a time control) if needed. Returns the game's index in the record (the number of rows
/// before it).
///
/// The arena's writer lock on the file is held while the file is checked and the row written
/// in one write, so writers in several processes never interleave rows; an `arena run` writing
/// the same file would hold it too. A file that is not a play record ([`check_record`]: an
/// experiment's games, a header that is not an arena CSV header) is refused and left untouched.
pub fn append(record: &Path, game: &PlayedGame) -> Result<u64, ArenaError> {
    if let Some(folder) = record.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|e| io_error(folder, "create the play record's folder", e))?;
    }
    // Appenders of one process (a server's games ending together) queue on a mutex, which
    // wakes the next one as soon as a row is written; the OS lock then only has to part
    // processes, whose waiting is polled.
    let _in_process = APPENDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let _lock = lock::lock_writer_waiting(record, "arena play record", LOCK_PATIENCE)?;
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(record)
        .map_err(|e| io_error(record, "open the play record", e))?;
    let mut text = Vec::new();
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_end(&mut text))
        .map_err(|e| io_error(record, "read the play record", e))?;
    let known = refuse_foreign(record, &text)?;
    let mut out = Vec::new();
    let (schema, rows) = match known {
        None => {
            if !text.is_empty() {
                file.set_len(0)
                    .map_err(|e| io_error(record, "empty the blank play record", e))?;
            }
            let schema = game.schema().max(CSV_SCHEMA_SEATS);
            out.extend_from_slice(record::header_line_of(schema).as_bytes());
            out.push(b'\n');
            (schema, 0)
        }
        Some(schema) => {
            if text.last() != Some(&b'\n') {
                // A writer was killed half-way through a row: that row is lost either way, and
                // cutting it keeps the file readable.
                record::cut_partial_line(record)?;
                let keep = text
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |at| at + 1);
                text.truncate(keep);
            }
            // Names never hold newlines (`check_name`), nor do specs or moves, so lines are rows.
            let rows = text
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                .saturating_sub(1) as u64;
            if game.schema() > schema {
                // Schema 1 has no seats for a third and fourth player, schema 2 no time control:
                // the record moves to the schema the game needs (under the lock), its rows
                // unchanged but for the empty columns.
                drop(file);
                upgrade(record, game.schema())?;
                file = OpenOptions::new()
                    .append(true)
                    .open(record)
                    .map_err(|e| io_error(record, "open the play record", e))?;
                (game.schema(), rows)
            } else {
                (schema, rows)
            }
        }
    };
    out.extend(game.row(rows).line(schema));
    file.write_all(&out)
        .and_then(|_| file.flush())
        .map_err(|e| io_error(record, "append to the play record", e))?;
    Ok(rows)
}

/// The schema of the record whose bytes are `text`, read from its header; `None` if its first
/// line is not an arena CSV header.
fn header_schema(text: &[u8]) -> Option<u32> {
    let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
    let first = String::from_utf8_lossy(first);
    let found: Vec<&str> = first.trim_end().split(',').collect();
    record::schema_of_header(&found)
}

/// Refuses, before anything is written to it, a file that is not a play record: an
/// experiment's games file (its meta file next to it), a CSV whose header is not the arena's,
/// or one with a whole row whose experiment is not `play` or `play-web` (a game people did not
/// play). A missing or blank file is a new record.
pub fn check_record(record: &Path) -> Result<(), ArenaError> {
    match std::fs::read(record) {
        Ok(text) => refuse_foreign(record, &text).map(drop),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(io_error(record, "read the play record", error)),
    }
}

/// [`check_record`] of the record `record`, whose bytes are `text`: the schema of its header,
/// `None` for a blank file (a new record).
fn refuse_foreign(record: &Path, text: &[u8]) -> Result<Option<u32>, ArenaError> {
    let foreign = |line: u64, why: String| ArenaError::Csv {
        path: record.to_path_buf(),
        line,
        message: format!(
            "not a play record: {why}. A play record holds only games people played \
             (experiment `{TERMINAL}` or `{BROWSER}`), and is left untouched: give another file \
             with --record"
        ),
    };
    let meta = crate::meta::meta_path(record);
    if meta.exists() {
        return Err(foreign(
            1,
            format!(
                "it is an experiment's games file (its meta file `{}` is next to it)",
                meta.display()
            ),
        ));
    }
    if text.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let Some(schema) = header_schema(text) else {
        let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
        return Err(foreign(
            1,
            format!(
                "a play record is an arena CSV (schema 2, whose header is `{}`, or schema 3 \
                 with the clock columns after it); found `{}`",
                record::header_line_of(CSV_SCHEMA_SEATS),
                String::from_utf8_lossy(first).trim_end()
            ),
        ));
    };
    // Whole lines only: an unterminated last one is a row cut off, which `append` cuts.
    let whole = text
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    let mut reader = csv::ReaderBuilder::new().from_reader(&text[..whole]);
    for row in reader.records() {
        let Ok(row) = row else {
            // Not ours to judge here: the row is refused where rows are read.
            continue;
        };
        let experiment = row.get(0).unwrap_or_default();
        if experiment != TERMINAL && experiment != BROWSER {
            let line = row.position().map_or(0, |p| p.line());
            return Err(foreign(
                line,
                format!(
                    "the game on this line is of experiment `{}`",
                    experiment.chars().take(60).collect::<String>()
                ),
            ));
        }
    }
    Ok(Some(schema))
}

/// Rewrites the record `record` in schema `schema` (a later one than its own), through a
/// temporary file and a rename, so a crash leaves either the old or the new file. The caller
/// holds the writer lock.
fn upgrade(record: &Path, schema: u32) -> Result<(), ArenaError> {
    let mut rows = Vec::new();
    record::read_rows(record, |_, row| {
        rows.push(row);
        Ok(())
    })?;
    let temporary = record::Temporary::new(record.with_extension("csv.upgrading"));
    {
        let mut writer = record::RowWriter::append(temporary.path(), schema, true)?;
        for row in &rows {
            writer.write(row)?;
        }
    }
    temporary.place(record, "replace the play record with its rewritten copy")
}

/// Every row of the play record `record` (none if it does not exist yet). An unterminated last
/// line (a row being written this very moment) is left out.
pub fn read_record(record: &Path) -> Result<Vec<Row>, ArenaError> {
    let mut rows = Vec::new();
    if record.exists() {
        record::read_complete_rows(record, |_, row| {
            rows.push(row);
            Ok(())
        })?;
    }
    Ok(rows)
}

/// Games, wins, draws and losses from one side's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Won (first place alone).
    pub wins: u64,
    /// Drawn (first place shared).
    pub draws: u64,
    /// Placed between first and last at a table of three or four (second of four, say): neither
    /// won nor lost.
    pub placed: u64,
    /// Lost: last place (alone or shared), below every other seat or tied with the others
    /// below first.
    pub losses: u64,
}

impl Tally {
    /// Counts `seat`'s result in a game of `players` seats that ended `outcome`.
    fn add(&mut self, outcome: Outcome, seat: Player, players: usize) {
        self.games += 1;
        let place = outcome.place(seat);
        let last = outcome.places(players).into_iter().max().unwrap_or(place);
        if outcome.winner() == Some(seat) {
            self.wins += 1;
        } else if place == 1 {
            self.draws += 1;
        } else if place < last {
            self.placed += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Wins as a share of the games, from 0 to 1 (0 without games).
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }
}

/// The statistics of one mode of play, seed 004's four: person vs person, person vs AI (easy,
/// hard, or another agent), AI vs AI; and people with agents at a larger table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ModeStats {
    /// The mode, in words: `person vs AI (easy)`.
    pub mode: String,
    /// Whose view the tally takes: `the person` or `the first player`.
    pub view: String,
    /// The games of this mode.
    pub tally: Tally,
}

/// A person's results against one level of agent on one variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelStats {
    /// The variant id.
    pub variant: String,
    /// `easy`, `hard`, or the opponents' specs.
    pub level: String,
    /// From the person's view.
    pub tally: Tally,
    /// Wins as a share of the games.
    pub win_rate: f64,
}

/// What the play record says about the games people played.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayStats {
    /// The person the statistics are for, if one was named; otherwise every person.
    pub name: Option<String>,
    /// Games counted.
    pub games: u64,
    /// Per mode, in seed 004's order.
    pub modes: Vec<ModeStats>,
    /// A person against each level of agent, per variant.
    pub levels: Vec<LevelStats>,
    /// Rows that could not be read as a game (a result that does not fit the seats).
    pub skipped: u64,
}

/// The statistics of the play record's `rows`: every game, or with `name` only the games in
/// which a person of that name sat.
pub fn stats(rows: &[Row], name: Option<&str>) -> PlayStats {
    let mut modes: BTreeMap<(u8, String), (String, Tally)> = BTreeMap::new();
    let mut levels: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut out = PlayStats {
        name: name.map(str::to_string),
        ..PlayStats::default()
    };
    for row in rows {
        let seats = row.seats();
        let specs = seat_specs(row);
        let names = row.seat_names();
        let people: Vec<usize> = (0..seats).filter(|&s| specs[s] == HUMAN).collect();
        if let Some(name) = name
            && !people.iter().any(|&s| names.get(s) == Some(&name))
        {
            continue;
        }
        let Some(outcome) = Outcome::parse_result(&row.result, seats) else {
            out.skipped += 1;
            continue;
        };
        let Ok(variant) = row.variant.parse::<Variant>() else {
            out.skipped += 1;
            continue;
        };
        out.games += 1;
        let first_view = "the first player".to_string();
        let (order, mode, view, seat) = match people.len() {
            0 => (4, "AI vs AI".to_string(), first_view, Player::First),
            n if n == seats => (0, "person vs person".to_string(), first_view, Player::First),
            1 => {
                let person = people[0];
                let mut opponents: Vec<String> = (0..seats)
                    .filter(|&s| s != person)
                    .map(|s| level_of(&specs[s], &variant))
                    .collect();
                opponents.dedup();
                let level = opponents.join(" + ");
                let (order, label) = match level.as_str() {
                    "easy" => (1, "person vs AI (easy)".to_string()),
                    "hard" => (2, "person vs AI (hard)".to_string()),
                    _ => (3, "person vs AI (other agents)".to_string()),
                };
                levels.entry((row.variant.clone(), level)).or_default().add(
                    outcome,
                    Player::seat(person),
                    seats,
                );
                (order, label, "the person".into(), Player::seat(person))
            }
            _ => (
                3,
                "people and AI".to_string(),
                "the first person".to_string(),
                Player::seat(people[0]),
            ),
        };
        modes
            .entry((order, mode))
            .or_insert_with(|| (view, Tally::default()))
            .1
            .add(outcome, seat, seats);
    }
    out.modes = modes
        .into_iter()
        .map(|((_, mode), (view, tally))| ModeStats { mode, view, tally })
        .collect();
    out.levels = levels
        .into_iter()
        .map(|((variant, level), tally)| LevelStats {
            variant,
            level,
            win_rate: tally.win_rate(),
            tally,
        })
        .collect();
    out
}

/// The spec column of every seat of `row`.
fn seat_specs(row: &Row) -> Vec<String> {
    let mut specs = vec![row.first_spec.clone(), row.second_spec.clone()];
    specs.extend(row.third_spec.clone());
    specs.extend(row.fourth_spec.clone());
    specs.resize(row.seats(), String::new());
    specs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seats: Vec<PlayedSeat>, outcome: Outcome, variant: &str) -> PlayedGame {
        PlayedGame {
            experiment: TERMINAL.into(),
            variant: variant.parse().unwrap(),
            seed: 1,
            seats,
            outcome,
            termination: Termination::Win,
            plies: 5,
            totals: None,
            moves: vec!["b2".into()],
            time_control: None,
        }
    }

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(check_name("  Lan "), Ok("Lan".to_string()));
        assert_eq!(check_name("Nguyễn Văn An"), Ok("Nguyễn Văn An".to_string()));
        assert!(check_name(" ").is_err());
        assert!(check_name("a\nb").is_err());
        assert!(check_name(&"x".repeat(41)).is_err());
        // Format and separator characters (issue 37: U+202E reversed the terminal's table).
        for (hidden, category) in [
            ('\u{202E}', "format"),
            ('\u{200B}', "format"),
            ('\u{FEFF}', "format"),
            ('\u{00AD}', "format"),
            ('\u{E0041}', "format"),
            ('\u{2028}', "line and paragraph separators"),
            ('\u{2029}', "line and paragraph separators"),
            ('\u{00A0}', "spaces other than"),
            ('\u{3000}', "spaces other than"),
            ('\u{1B}', "control"),
        ] {
            let error = check_name(&format!("Lan{hidden}An")).unwrap_err();
            let code = format!("U+{:04X}", u32::from(hidden));
            assert!(error.contains(&code) && error.contains(category), "{error}");
        }
        assert_eq!(check_name("Lan An"), Ok("Lan An".to_string()));
    }

    #[test]
    fn modes_and_levels_come_from_the_seats() {
        let ttt = "tictactoe";
        let easy = || PlayedSeat::agent("easy".parse().unwrap());
        let hard = || PlayedSeat::agent("alphabeta:depth=9".parse().unwrap());
        let rows: Vec<Row> = [
            game(
                vec![PlayedSeat::person("lan"), easy()],
                Outcome::Win(Player::First),
                ttt,
            ),
            game(
                vec![easy(), PlayedSeat::person("lan")],
                Outcome::Win(Player::First),
                ttt,
            ),
            game(vec![PlayedSeat::person("lan"), hard()], Outcome::Draw, ttt),
            game(
                vec![PlayedSeat::person("lan"), PlayedSeat::person("minh")],
                Outcome::Win(Player::Second),
                ttt,
            ),
            game(vec![hard(), easy()], Outcome::Win(Player::First), ttt),
            game(
                vec![PlayedSeat::person("minh"), easy()],
                Outcome::Win(Player::First),
                ttt,
            ),
        ]
        .iter()
        .enumerate()
        .map(|(i, g)| g.row(i as u64))
        .collect();
        let lan = stats(&rows, Some("lan"));
        assert_eq!(lan.games, 4);
        let mode = |name: &str| {
            lan.modes
                .iter()
                .find(|m| m.mode == name)
                .map(|m| m.tally)
                .unwrap_or_default()
        };
        let tally = |games, wins, draws, losses| Tally {
            games,
            wins,
            draws,
            placed: 0,
            losses,
        };
        assert_eq!(mode("person vs AI (easy)"), tally(2, 1, 0, 1));
        assert_eq!(mode("person vs AI (hard)"), tally(1, 0, 1, 0));
        assert_eq!(mode("person vs person"), tally(1, 0, 0, 1));
        assert_eq!(mode("AI vs AI"), Tally::default());
        assert_eq!(lan.levels.len(), 2);
        assert_eq!(lan.levels[0].level, "easy");
        assert_eq!(lan.levels[0].win_rate, 0.5);
        let everyone = stats(&rows, None);
        assert_eq!(everyone.games, 6);
        assert_eq!(everyone.modes[0].mode, "person vs person");
        assert_eq!(everyone.modes.last().unwrap().mode, "AI vs AI");
    }

    #[test]
    fn a_larger_table_counts_first_place_as_a_win() {
        let rules = "oanquan-3p";
        let ranking = rules::Ranking::from_totals(&[40, 40, 25]);
        let row = game(
            vec![
                PlayedSeat::person("lan"),
                PlayedSeat::agent("greedy".parse().unwrap()),
                PlayedSeat::agent("greedy".parse().unwrap()),
            ],
            Outcome::Ranked(ranking),
            rules,
        )
        .row(0);
        assert_eq!(row.players, Some(3));
        assert_eq!(row.third_spec.as_deref(), Some("greedy"));
        let lan = stats(&[row], Some("lan"));
        assert_eq!(lan.modes[0].mode, "person vs AI (easy)");
        assert_eq!(lan.modes[0].tally.draws, 1, "a shared first place");
    }

    #[test]
    fn a_middle_place_at_a_larger_table_is_placed_not_lost() {
        // Issue 36, defect 24: second of four is no loss; last of four is.
        let seats = || {
            vec![
                PlayedSeat::person("lan"),
                PlayedSeat::agent("greedy".parse().unwrap()),
                PlayedSeat::agent("greedy".parse().unwrap()),
                PlayedSeat::agent("greedy".parse().unwrap()),
            ]
        };
        let rows: Vec<Row> = [[30, 40, 20, 10], [20, 30, 40, 25], [5, 30, 30, 30]]
            .iter()
            .enumerate()
            .map(|(i, totals)| {
                let ranking = rules::Ranking::from_totals(totals);
                game(seats(), Outcome::Ranked(ranking), "oanquan-4p").row(i as u64)
            })
            .collect();
        let lan = stats(&rows, Some("lan"));
        let tally = lan.modes[0].tally;
        assert_eq!(
            (
                tally.games,
                tally.wins,
                tally.draws,
                tally.placed,
                tally.losses
            ),
            (3, 0, 0, 1, 2),
            "second of four placed; last alone lost; last while the others tie for first lost"
        );
        assert_eq!(lan.levels[0].tally, tally);
    }
}
