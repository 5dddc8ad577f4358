//! Reading the arena's CSV (schema version 1) into running totals.
//!
//! Rows are folded into wins, draws and losses per ordered pair and into timing sums per agent
//! as they stream past, so memory grows with the number of agents, not of games. Sums are
//! integers (thinking time in nanoseconds), which makes the totals, and so the whole report,
//! independent of the order of rows and files.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// The columns the report reads, in schema order. `moves` is part of the schema but not
/// needed, so a file without it is still accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
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
    FirstSpec,
    SecondSpec,
}

impl Column {
    const ALL: [Column; 19] = [
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
        Column::FirstSpec,
        Column::SecondSpec,
    ];

    fn name(self) -> &'static str {
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
            Column::FirstSpec => "first_spec",
            Column::SecondSpec => "second_spec",
        }
    }
}

/// The name of the pool that rates every variant together.
pub const ALL_POOL: &str = "all";

/// Wins, draws and losses of one agent against one opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn add(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// The same games seen from the opponent's side.
    pub fn reversed(self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// Faults and thinking time of one agent in one variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct AgentTally {
    pub faults: u64,
    pub moves: u64,
    pub thinking_ns: u64,
    pub longest_move_ns: u64,
    pub nodes: u64,
}

impl AgentTally {
    fn add(&mut self, other: &AgentTally) {
        self.faults += other.faults;
        self.moves += other.moves;
        self.thinking_ns = self.thinking_ns.saturating_add(other.thinking_ns);
        self.longest_move_ns = self.longest_move_ns.max(other.longest_move_ns);
        self.nodes = self.nodes.saturating_add(other.nodes);
    }
}

/// Everything one variant's games add up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct VariantTally {
    /// `results[first][second]`: the first mover's wins, draws and losses.
    pub results: BTreeMap<String, BTreeMap<String, Wdl>>,
    pub agents: BTreeMap<String, AgentTally>,
}

/// The totals of every game read so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub games: u64,
    pub variants: BTreeMap<String, VariantTally>,
    pub experiments: BTreeSet<String>,
    /// Every spec text seen for an agent name; normally exactly one.
    pub specs: BTreeMap<String, BTreeSet<String>>,
}

impl Tally {
    pub fn merge(&mut self, other: Tally) {
        self.games += other.games;
        self.experiments.extend(other.experiments);
        for (agent, specs) in other.specs {
            self.specs.entry(agent).or_default().extend(specs);
        }
        for (name, variant) in other.variants {
            let into = self.variants.entry(name).or_default();
            for (first, row) in variant.results {
                let into_row = into.results.entry(first).or_default();
                for (second, wdl) in row {
                    into_row.entry(second).or_default().add(wdl);
                }
            }
            for (agent, tally) in variant.agents {
                into.agents.entry(agent).or_default().add(&tally);
            }
        }
    }

    /// Reads one CSV; `path` names it in error messages.
    pub fn read_csv(path: &Path, reader: impl Read) -> Result<Tally> {
        let mut csv = csv::ReaderBuilder::new()
            .has_headers(true)
            .trim(csv::Trim::All)
            .from_reader(reader);
        let malformed = |error: csv::Error| {
            let line = error.position().map_or(0, |p| p.line());
            match error.into_kind() {
                csv::ErrorKind::Io(error) => Error::Read {
                    path: path.to_path_buf(),
                    error,
                },
                kind => Error::Malformed {
                    path: path.to_path_buf(),
                    line,
                    message: csv_message(kind),
                },
            }
        };
        let header = csv.headers().map_err(malformed)?.clone();
        let mut index = [0usize; Column::ALL.len()];
        for (slot, column) in index.iter_mut().zip(Column::ALL) {
            *slot = header
                .iter()
                .position(|name| name == column.name())
                .ok_or_else(|| Error::MissingColumn {
                    path: path.to_path_buf(),
                    column: column.name(),
                })?;
        }
        let mut tally = Tally::default();
        let mut record = csv::StringRecord::new();
        while csv.read_record(&mut record).map_err(malformed)? {
            let line = record.position().map_or(0, |p| p.line());
            let row = Row {
                path,
                line,
                record: &record,
                index: &index,
            };
            tally.add_row(&row)?;
        }
        Ok(tally)
    }

    fn add_row(&mut self, row: &Row<'_>) -> Result<()> {
        let variant = row.text(Column::Variant)?;
        if variant == ALL_POOL {
            return Err(row.bad(
                Column::Variant,
                "`all` is reserved for the pool over every variant",
            ));
        }
        let first = row.text(Column::First)?;
        let second = row.text(Column::Second)?;
        let result = row.result()?;
        let termination = row.termination()?;
        match (termination, result) {
            (Termination::Draw, GameResult::Draw) | (Termination::PlyCap, _) => {}
            (Termination::Draw, _) => {
                return Err(row.bad(Column::Result, "a `draw` termination needs `1/2-1/2`"));
            }
            (_, GameResult::Draw) => {
                return Err(row.bad(Column::Result, "a won or faulted game needs `1-0` or `0-1`"));
            }
            _ => {}
        }
        row.integer(Column::Game)?;
        row.integer(Column::Seed)?;
        row.optional_integer(Column::FirstScore)?;
        row.optional_integer(Column::SecondScore)?;
        let plies = row.integer(Column::Plies)?;
        let mut first_side = AgentTally {
            moves: plies.div_ceil(2),
            thinking_ns: row.milliseconds(Column::FirstMs)?,
            longest_move_ns: row.milliseconds(Column::FirstMaxMs)?,
            nodes: row.integer(Column::FirstNodes)?,
            faults: 0,
        };
        let mut second_side = AgentTally {
            moves: plies / 2,
            thinking_ns: row.milliseconds(Column::SecondMs)?,
            longest_move_ns: row.milliseconds(Column::SecondMaxMs)?,
            nodes: row.integer(Column::SecondNodes)?,
            faults: 0,
        };
        if termination.is_fault() {
            // The agent that faulted is the one that lost.
            match result {
                GameResult::FirstWins => second_side.faults = 1,
                GameResult::SecondWins => first_side.faults = 1,
                GameResult::Draw => {}
            }
        }
        let wdl = match result {
            GameResult::FirstWins => Wdl {
                wins: 1,
                ..Wdl::default()
            },
            GameResult::Draw => Wdl {
                draws: 1,
                ..Wdl::default()
            },
            GameResult::SecondWins => Wdl {
                losses: 1,
                ..Wdl::default()
            },
        };

        self.games += 1;
        if !self.experiments.contains(row.text(Column::Experiment)?) {
            self.experiments
                .insert(row.text(Column::Experiment)?.to_owned());
        }
        for (agent, column) in [(first, Column::FirstSpec), (second, Column::SecondSpec)] {
            let spec = row.text(column)?;
            let specs = self.specs.entry(agent.to_owned()).or_default();
            if !specs.contains(spec) {
                specs.insert(spec.to_owned());
            }
        }
        let tally = self.variants.entry(variant.to_owned()).or_default();
        tally
            .results
            .entry(first.to_owned())
            .or_default()
            .entry(second.to_owned())
            .or_default()
            .add(wdl);
        tally
            .agents
            .entry(first.to_owned())
            .or_default()
            .add(&first_side);
        tally
            .agents
            .entry(second.to_owned())
            .or_default()
            .add(&second_side);
        Ok(())
    }
}

fn csv_message(kind: csv::ErrorKind) -> String {
    match kind {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("row has {len} fields, the header has {expected_len}"),
        csv::ErrorKind::Utf8 { err, .. } => format!("text is not UTF-8 ({err})"),
        other => format!("{other:?}"),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameResult {
    FirstWins,
    Draw,
    SecondWins,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Termination {
    Win,
    Draw,
    PlyCap,
    IllegalMove,
    Crash,
    Timeout,
    /// A person gave up (played games only): decisive, and no agent's fault.
    Resign,
}

impl Termination {
    fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::IllegalMove | Termination::Crash | Termination::Timeout
        )
    }
}

/// One CSV row with what is needed to name it in an error.
struct Row<'a> {
    path: &'a Path,
    line: u64,
    record: &'a csv::StringRecord,
    index: &'a [usize; Column::ALL.len()],
}

impl Row<'_> {
    fn bad(&self, column: Column, reason: &str) -> Error {
        Error::BadField {
            path: self.path.to_path_buf(),
            line: self.line,
            column: column.name(),
            value: self.raw(column).to_owned(),
            reason: reason.to_owned(),
        }
    }

    fn raw(&self, column: Column) -> &str {
        // `Column::ALL` lists the variants in declaration order, so the discriminant indexes it.
        self.record.get(self.index[column as usize]).unwrap_or("")
    }

    fn text(&self, column: Column) -> Result<&str> {
        let text = self.raw(column);
        if text.is_empty() {
            Err(self.bad(column, "must not be empty"))
        } else {
            Ok(text)
        }
    }

    fn integer(&self, column: Column) -> Result<u64> {
        self.raw(column)
            .parse()
            .map_err(|_| self.bad(column, "expected a non-negative integer"))
    }

    fn optional_integer(&self, column: Column) -> Result<Option<i64>> {
        let text = self.raw(column);
        if text.is_empty() {
            return Ok(None);
        }
        text.parse()
            .map(Some)
            .map_err(|_| self.bad(column, "expected an integer or nothing"))
    }

    /// A time in milliseconds, as whole nanoseconds.
    fn milliseconds(&self, column: Column) -> Result<u64> {
        let ms: f64 = self
            .raw(column)
            .parse()
            .map_err(|_| self.bad(column, "expected milliseconds, like 12.345"))?;
        // 1e10 ms is 115 days: anything larger is a corrupt field, not a slow agent.
        if !ms.is_finite() || !(0.0..=1e10).contains(&ms) {
            return Err(self.bad(column, "expected milliseconds between 0 and 1e10"));
        }
        Ok((ms * 1e6).round() as u64)
    }

    fn result(&self) -> Result<GameResult> {
        match self.raw(Column::Result) {
            "1-0" => Ok(GameResult::FirstWins),
            "0-1" => Ok(GameResult::SecondWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            _ => Err(self.bad(Column::Result, "expected `1-0`, `0-1` or `1/2-1/2`")),
        }
    }

    fn termination(&self) -> Result<Termination> {
        match self.raw(Column::Termination) {
            "win" => Ok(Termination::Win),
            "draw" => Ok(Termination::Draw),
            "ply-cap" => Ok(Termination::PlyCap),
            "illegal-move" => Ok(Termination::IllegalMove),
            "crash" => Ok(Termination::Crash),
            "timeout" => Ok(Termination::Timeout),
            "resign" => Ok(Termination::Resign),
            _ => Err(self.bad(
                Column::Termination,
                "expected win, draw, ply-cap, illegal-move, crash, timeout or resign",
            )),
        }
    }
}

/// Board size in cells, from a canonical variant id: `mnk-MxNkK…` has `M·N` cells, every
/// O An Quan variant 12 (10 squares and 2 mandarin squares). `None` for an id of another shape.
pub fn board_cells(variant: &str) -> Option<u64> {
    if variant == "oanquan" || variant.starts_with("oanquan-") {
        return Some(12);
    }
    let shape = variant.strip_prefix("mnk-")?;
    let (m, rest) = shape.split_once('x')?;
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    let (n, rest) = rest.split_at(digits);
    if !rest.starts_with('k') {
        return None;
    }
    let m: u64 = m.parse().ok()?;
    let n: u64 = n.parse().ok()?;
    m.checked_mul(n).filter(|&cells| cells > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_cells_from_variant_ids() {
        for (id, cells) in [
            ("mnk-3x3k3", Some(9)),
            ("mnk-15x15k5-caro", Some(225)),
            ("mnk-7x6k4", Some(42)),
            ("oanquan", Some(12)),
            ("oanquan-borrow", Some(12)),
            ("mnk-3x3", None),
            ("chess", None),
        ] {
            assert_eq!(board_cells(id), cells, "{id}");
        }
    }
}
