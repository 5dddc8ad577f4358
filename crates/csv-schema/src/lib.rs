//! The arena's games CSV, in one place: its schema versions, its columns in order, the words
//! of its `termination` column, and how much of a file a reader that takes no lock may read.
//!
//! `arena` writes and checks the CSV by it, `report` reads the CSV by it. It knows no game
//! (a variant is a column of text here) and depends on nothing, so `report` stays free of the
//! arena and of the rules.
//!
//! Schema version 1 has the 20 columns of [`COLUMNS`], for two-player games. An experiment with
//! a variant of three or four players writes schema version 2: the same 20 columns followed by
//! [`SEAT_COLUMNS`] (`players`, then the third and fourth seats' agents, specs, scores, times
//! and nodes), empty where a game has fewer seats. A two-player row is the same in both
//! schemas but for the empty columns at its end. An experiment with a time control (`tc`,
//! `st`) writes schema version 3: schema 2's columns followed by [`CLOCK_COLUMNS`] (the time
//! control, then each seat's time left on its game clock at the end, empty without a clock).

#![forbid(unsafe_code)]

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

/// The version of the two-player CSV schema ([`COLUMNS`]); bumped on any change of columns or
/// meaning.
pub const CSV_SCHEMA: u32 = 1;

/// The version of the schema with seats for three and four players ([`COLUMNS`] then
/// [`SEAT_COLUMNS`]).
pub const CSV_SCHEMA_SEATS: u32 = 2;

/// The version of the schema with the time control and the clocks ([`COLUMNS`],
/// [`SEAT_COLUMNS`], then [`CLOCK_COLUMNS`]).
pub const CSV_SCHEMA_CLOCKS: u32 = 3;

/// Every column of the newest schema, in the order a file holds them; the discriminant is the
/// place in [`Column::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // Each is named by its column: see `Column::name`.
pub enum Column {
    Experiment,
    Variant,
    Game,
    Seed,
    First,
    Second,
    Result,
    Termination,
    Plies,
    FirstScore,
    SecondScore,
    FirstMs,
    SecondMs,
    FirstMaxMs,
    SecondMaxMs,
    FirstNodes,
    SecondNodes,
    Moves,
    FirstSpec,
    SecondSpec,
    Players,
    Third,
    Fourth,
    ThirdSpec,
    FourthSpec,
    ThirdScore,
    FourthScore,
    ThirdMs,
    FourthMs,
    ThirdMaxMs,
    FourthMaxMs,
    ThirdNodes,
    FourthNodes,
    TimeControl,
    FirstClockMs,
    SecondClockMs,
    ThirdClockMs,
    FourthClockMs,
}

impl Column {
    /// Every column, in file order (schema 3's header).
    pub const ALL: [Column; 38] = [
        Column::Experiment,
        Column::Variant,
        Column::Game,
        Column::Seed,
        Column::First,
        Column::Second,
        Column::Result,
        Column::Termination,
        Column::Plies,
        Column::FirstScore,
        Column::SecondScore,
        Column::FirstMs,
        Column::SecondMs,
        Column::FirstMaxMs,
        Column::SecondMaxMs,
        Column::FirstNodes,
        Column::SecondNodes,
        Column::Moves,
        Column::FirstSpec,
        Column::SecondSpec,
        Column::Players,
        Column::Third,
        Column::Fourth,
        Column::ThirdSpec,
        Column::FourthSpec,
        Column::ThirdScore,
        Column::FourthScore,
        Column::ThirdMs,
        Column::FourthMs,
        Column::ThirdMaxMs,
        Column::FourthMaxMs,
        Column::ThirdNodes,
        Column::FourthNodes,
        Column::TimeControl,
        Column::FirstClockMs,
        Column::SecondClockMs,
        Column::ThirdClockMs,
        Column::FourthClockMs,
    ];

    /// The column's name in the header.
    pub const fn name(self) -> &'static str {
        match self {
            Column::Experiment => "experiment",
            Column::Variant => "variant",
            Column::Game => "game",
            Column::Seed => "seed",
            Column::First => "first",
            Column::Second => "second",
            Column::Result => "result",
            Column::Termination => "termination",
            Column::Plies => "plies",
            Column::FirstScore => "first_score",
            Column::SecondScore => "second_score",
            Column::FirstMs => "first_ms",
            Column::SecondMs => "second_ms",
            Column::FirstMaxMs => "first_max_ms",
            Column::SecondMaxMs => "second_max_ms",
            Column::FirstNodes => "first_nodes",
            Column::SecondNodes => "second_nodes",
            Column::Moves => "moves",
            Column::FirstSpec => "first_spec",
            Column::SecondSpec => "second_spec",
            Column::Players => "players",
            Column::Third => "third",
            Column::Fourth => "fourth",
            Column::ThirdSpec => "third_spec",
            Column::FourthSpec => "fourth_spec",
            Column::ThirdScore => "third_score",
            Column::FourthScore => "fourth_score",
            Column::ThirdMs => "third_ms",
            Column::FourthMs => "fourth_ms",
            Column::ThirdMaxMs => "third_max_ms",
            Column::FourthMaxMs => "fourth_max_ms",
            Column::ThirdNodes => "third_nodes",
            Column::FourthNodes => "fourth_nodes",
            Column::TimeControl => "time_control",
            Column::FirstClockMs => "first_clock_ms",
            Column::SecondClockMs => "second_clock_ms",
            Column::ThirdClockMs => "third_clock_ms",
            Column::FourthClockMs => "fourth_clock_ms",
        }
    }

    /// The columns of seat `seat` (0-based; 3 and more: the fourth): agent, spec, score,
    /// time, longest move, nodes.
    pub const fn seat(seat: usize) -> [Column; 6] {
        match seat {
            0 => [
                Column::First,
                Column::FirstSpec,
                Column::FirstScore,
                Column::FirstMs,
                Column::FirstMaxMs,
                Column::FirstNodes,
            ],
            1 => [
                Column::Second,
                Column::SecondSpec,
                Column::SecondScore,
                Column::SecondMs,
                Column::SecondMaxMs,
                Column::SecondNodes,
            ],
            2 => [
                Column::Third,
                Column::ThirdSpec,
                Column::ThirdScore,
                Column::ThirdMs,
                Column::ThirdMaxMs,
                Column::ThirdNodes,
            ],
            _ => [
                Column::Fourth,
                Column::FourthSpec,
                Column::FourthScore,
                Column::FourthMs,
                Column::FourthMaxMs,
                Column::FourthNodes,
            ],
        }
    }
}

/// The columns `columns` of [`Column::ALL`] from `start`, by name.
const fn names<const N: usize>(start: usize) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = Column::ALL[start + i].name();
        i += 1;
    }
    out
}

/// The columns of schema version 1, in order.
pub const COLUMNS: [&str; 20] = names(0);

/// The columns schema version 2 adds after [`COLUMNS`], for games of three and four players.
pub const SEAT_COLUMNS: [&str; 13] = names(COLUMNS.len());

/// The columns schema version 3 adds after [`SEAT_COLUMNS`], for games with a time control.
pub const CLOCK_COLUMNS: [&str; 5] = names(COLUMNS.len() + SEAT_COLUMNS.len());

/// The columns that hold wall-clock measurements: the only ones that may differ between two
/// runs of the same experiment.
pub const TIMING_COLUMNS: [&str; 12] = [
    Column::FirstMs.name(),
    Column::SecondMs.name(),
    Column::FirstMaxMs.name(),
    Column::SecondMaxMs.name(),
    Column::ThirdMs.name(),
    Column::FourthMs.name(),
    Column::ThirdMaxMs.name(),
    Column::FourthMaxMs.name(),
    Column::FirstClockMs.name(),
    Column::SecondClockMs.name(),
    Column::ThirdClockMs.name(),
    Column::FourthClockMs.name(),
];

const _: () =
    assert!(COLUMNS.len() + SEAT_COLUMNS.len() + CLOCK_COLUMNS.len() == Column::ALL.len());

/// The columns of schema version `schema` (1, 2 or 3), in order.
pub fn columns(schema: u32) -> Vec<&'static str> {
    let mut all = COLUMNS.to_vec();
    if schema >= CSV_SCHEMA_SEATS {
        all.extend(SEAT_COLUMNS);
    }
    if schema >= CSV_SCHEMA_CLOCKS {
        all.extend(CLOCK_COLUMNS);
    }
    all
}

/// The schema version whose header is `found` exactly, if any.
pub fn schema_of_header(found: &[&str]) -> Option<u32> {
    [CSV_SCHEMA, CSV_SCHEMA_SEATS, CSV_SCHEMA_CLOCKS]
        .into_iter()
        .find(|&schema| found == columns(schema).as_slice())
}

/// How a game ended, as the CSV's `termination` column writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The rules ended the game with a winner (or, with more players, a ranking).
    Win,
    /// The rules declared a draw (with more players: every total equal).
    Draw,
    /// The ply cap stopped the game and the game's rule adjudicated it.
    PlyCap,
    /// An agent returned a move that is not legal (it loses).
    IllegalMove,
    /// An agent panicked or failed (it loses).
    Crash,
    /// An agent exceeded the per-move time limit (it loses).
    Timeout,
    /// A person gave the game up (it loses). Only played games (`arena play`, `arena serve`)
    /// have it; tournaments never do.
    Resign,
    /// The sandbox stopped an outside agent at its memory limit (it loses).
    MemoryLimit,
    /// The sandbox stopped an outside agent at its CPU-time limit (it loses).
    CpuLimit,
    /// The sandbox's system-call filter stopped an outside agent (it loses).
    ForbiddenCall,
    /// An outside agent wrote past its file-size limit or a line past the protocol's longest
    /// (it loses).
    OutputLimit,
}

impl Termination {
    /// Every termination, in the order [`Termination::EXPECTED`] lists them.
    pub const ALL: [Termination; 11] = [
        Termination::Win,
        Termination::Draw,
        Termination::PlyCap,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Timeout,
        Termination::Resign,
        Termination::MemoryLimit,
        Termination::CpuLimit,
        Termination::ForbiddenCall,
        Termination::OutputLimit,
    ];

    /// The column's words, for messages about a value that is none of them.
    pub const EXPECTED: &'static str = "win, draw, ply-cap, illegal-move, crash, timeout, resign, \
         memory-limit, cpu-limit, forbidden-call or output-limit";

    /// The column text.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Win => "win",
            Termination::Draw => "draw",
            Termination::PlyCap => "ply-cap",
            Termination::IllegalMove => "illegal-move",
            Termination::Crash => "crash",
            Termination::Timeout => "timeout",
            Termination::Resign => "resign",
            Termination::MemoryLimit => "memory-limit",
            Termination::CpuLimit => "cpu-limit",
            Termination::ForbiddenCall => "forbidden-call",
            Termination::OutputLimit => "output-limit",
        }
    }

    /// Reads the column text.
    pub fn parse(text: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.as_str() == text)
    }

    /// How a game that the rules ended ended: `draw` when nobody did better than anybody else
    /// (`drawn`), `win` otherwise.
    pub fn decided(drawn: bool) -> Termination {
        if drawn {
            Termination::Draw
        } else {
            Termination::Win
        }
    }

    /// Whether an agent's fault ended the game.
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::IllegalMove
                | Termination::Crash
                | Termination::Timeout
                | Termination::MemoryLimit
                | Termination::CpuLimit
                | Termination::ForbiddenCall
                | Termination::OutputLimit
        )
    }
}

/// The length of `file` up to and including its last newline: what a reader that takes no
/// lock reads of a file a run may be appending to. Leaves the file anywhere: seek before reading.
pub fn complete_length(file: &mut File) -> std::io::Result<u64> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headers_of_the_three_schemas_are_the_arena_s() {
        // The headers as the committed results hold them (results/*/games.csv).
        assert_eq!(
            columns(CSV_SCHEMA).join(","),
            "experiment,variant,game,seed,first,second,result,termination,plies,first_score,\
             second_score,first_ms,second_ms,first_max_ms,second_max_ms,first_nodes,\
             second_nodes,moves,first_spec,second_spec"
        );
        assert_eq!(
            SEAT_COLUMNS.join(","),
            "players,third,fourth,third_spec,fourth_spec,third_score,fourth_score,third_ms,\
             fourth_ms,third_max_ms,fourth_max_ms,third_nodes,fourth_nodes"
        );
        assert_eq!(
            CLOCK_COLUMNS.join(","),
            "time_control,first_clock_ms,second_clock_ms,third_clock_ms,fourth_clock_ms"
        );
        for schema in [CSV_SCHEMA, CSV_SCHEMA_SEATS, CSV_SCHEMA_CLOCKS] {
            assert_eq!(schema_of_header(&columns(schema)), Some(schema));
        }
        assert_eq!(schema_of_header(&COLUMNS[1..]), None);
    }

    #[test]
    fn the_discriminant_is_the_place_in_all_and_every_name_is_distinct() {
        for (at, column) in Column::ALL.into_iter().enumerate() {
            assert_eq!(column as usize, at, "{column:?}");
            assert_eq!(
                Column::ALL
                    .iter()
                    .filter(|c| c.name() == column.name())
                    .count(),
                1
            );
        }
        for seat in 0..4 {
            assert!(Column::seat(seat).iter().all(|c| Column::ALL.contains(c)));
        }
    }

    #[test]
    fn terminations_read_back_what_they_write() {
        for termination in Termination::ALL {
            assert_eq!(Termination::parse(termination.as_str()), Some(termination));
            assert!(Termination::EXPECTED.contains(termination.as_str()));
        }
        assert_eq!(Termination::parse("Win"), None);
        assert_eq!(Termination::decided(true), Termination::Draw);
        assert_eq!(Termination::decided(false), Termination::Win);
    }
}
