//! Reading the arena's CSV (schema versions 1, 2 and 3) into running totals.
//!
//! Rows are folded into wins, draws and losses per ordered pair, into place counts per seating
//! of N-player games, and into timing sums per agent as they stream past, so memory grows with
//! the number of agents, not of games. Sums are integers (thinking time in nanoseconds), which
//! makes the totals, and so the whole report, independent of the order of rows and files.
//!
//! Columns are found by name. Schema 1 has 20 columns; schema 2 (an experiment with a 3- or
//! 4-player variant) appends `players,third,fourth,third_spec,fourth_spec,third_score,
//! fourth_score,third_ms,fourth_ms,third_max_ms,fourth_max_ms,third_nodes,fourth_nodes`, and a
//! row of an N-player game gives in `result` the places of seats 0..N-1 joined by `-`
//! (`1-3-2`). A missing `players` column means every game has two players. The agents' spec
//! columns and the timing columns may be missing (an older or hand-written file has the
//! 18-column core): the report then leaves out what needs them and says so. Schema 3 (an
//! experiment with a time control) appends `time_control` and each seat's clock left at the
//! end, all five or none: the timing is then also kept per time control. A time control must be
//! one the arena writes (empty for none) and a clock a time like the other time columns, so a
//! hand-edited value is refused where it stands, as `arena verify` refuses it.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

use csv_schema::{Column, Termination};

use crate::MAX_POOL_AGENTS;
use crate::error::{Error, Result};
use crate::time_control;

/// The columns every file must have: without them no game can be rated.
const REQUIRED: [Column; 9] = [
    Column::Experiment,
    Column::Variant,
    Column::Game,
    Column::Seed,
    Column::First,
    Column::Second,
    Column::Result,
    Column::Termination,
    Column::Plies,
];

/// Timing columns of the first two seats: all or none.
const TIMING: [Column; 6] = [
    Column::FirstMs,
    Column::SecondMs,
    Column::FirstMaxMs,
    Column::SecondMaxMs,
    Column::FirstNodes,
    Column::SecondNodes,
];

/// The columns of schema 2 beyond schema 1 (all or none) and of schema 3 beyond schema 2 (all
/// or none), as `csv-schema` lists them.
const SCHEMA_2: [Column; 13] = group(csv_schema::COLUMNS.len());
const SCHEMA_3: [Column; 5] = group(csv_schema::COLUMNS.len() + csv_schema::SEAT_COLUMNS.len());

/// `N` columns of [`Column::ALL`] from `start`.
const fn group<const N: usize>(start: usize) -> [Column; N] {
    let mut out = [Column::Experiment; N];
    let mut i = 0;
    while i < N {
        out[i] = Column::ALL[start + i];
        i += 1;
    }
    out
}

/// The largest number of players in a game the report reads.
pub const MAX_PLAYERS: usize = 4;

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

    /// The pairwise result of places `mine` and `theirs` (1 = first): the better place wins,
    /// equal places draw.
    pub fn of_places(mine: u8, theirs: u8) -> Wdl {
        Wdl {
            wins: u64::from(mine < theirs),
            draws: u64::from(mine == theirs),
            losses: u64::from(mine > theirs),
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

/// Pentanomial counts of one pair of agents: game pairs (`2m`, `2m + 1` of a pairing, the
/// same opening with the colours swapped) by the points the first agent (alphabetically) took
/// from the pair: `[0, 1/2, 1, 3/2, 2]` points, that is `[LL, LD, DD+WL, WD, WW]`.
pub type Pentanomial = [u64; 5];

/// Game pairs of one pairing, found whatever the order the rows come in.
///
/// A pairing's games have consecutive schedule indices from the pairing's first game `s`,
/// and its pairs are (`s + 2m`, `s + 2m + 1`). Which parity `s` has is known only once every
/// row is read (the smallest index), so both alignments are counted as rows stream by, each
/// holding a game only until its partner arrives, and the one matching the smallest index is
/// used at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PairTrack {
    /// Per alignment: games waiting for their partner, by pair number: (game, first agent
    /// moved first, points of the first agent).
    pending: [BTreeMap<u64, (u64, bool, u8)>; 2],
    /// Per alignment: pairs completed.
    counts: [Pentanomial; 2],
    smallest: u64,
    games: u64,
}

impl Default for PairTrack {
    fn default() -> Self {
        Self {
            pending: [BTreeMap::new(), BTreeMap::new()],
            counts: [[0; 5]; 2],
            smallest: u64::MAX,
            games: 0,
        }
    }
}

impl PairTrack {
    /// Adds game `game`; `first_moved_first` says whether the alphabetically first agent had
    /// the first move, `half_points` its points times two.
    fn add(&mut self, game: u64, first_moved_first: bool, half_points: u8) {
        self.games += 1;
        self.smallest = self.smallest.min(game);
        for alignment in 0..2 {
            self.pair_up(alignment, game, first_moved_first, half_points);
        }
    }

    /// Completes the pair of `game` in `alignment`, or holds the game until its partner comes.
    fn pair_up(&mut self, alignment: usize, game: u64, first: bool, half_points: u8) {
        let pair = (game + alignment as u64) / 2;
        match self.pending[alignment].remove(&pair) {
            Some((other, other_first, other_points)) if other != game && other_first != first => {
                self.counts[alignment][usize::from(other_points + half_points)] += 1;
            }
            Some(kept) => {
                // Not a colour-swapped pair (a hand-edited file): keep the earlier game.
                self.pending[alignment].insert(pair, kept);
            }
            None => {
                self.pending[alignment].insert(pair, (game, first, half_points));
            }
        }
    }

    fn merge(&mut self, other: PairTrack) {
        self.games += other.games;
        self.smallest = self.smallest.min(other.smallest);
        for alignment in 0..2 {
            for (k, count) in other.counts[alignment].iter().enumerate() {
                self.counts[alignment][k] += count;
            }
        }
        for (alignment, pending) in other.pending.into_iter().enumerate() {
            for (game, first, points) in pending.into_values() {
                self.pair_up(alignment, game, first, points);
            }
        }
    }

    /// The pentanomial counts and the number of games left without a partner.
    pub fn pentanomial(&self) -> (Pentanomial, u64) {
        if self.games == 0 {
            return ([0; 5], 0);
        }
        let alignment = (self.smallest % 2) as usize;
        let counts = self.counts[alignment];
        let paired: u64 = counts.iter().sum::<u64>() * 2;
        (counts, self.games - paired)
    }
}

/// Everything one variant's games add up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct VariantTally {
    /// `results[first][second]`: the first mover's wins, draws and losses (two-player games).
    pub results: BTreeMap<String, BTreeMap<String, Wdl>>,
    /// N-player games: the agents by seat, then how often each placing (places by seat)
    /// occurred.
    pub seatings: BTreeMap<Vec<String>, BTreeMap<Vec<u8>, u64>>,
    pub agents: BTreeMap<String, AgentTally>,
    /// Game pairs per experiment and pair of agents (alphabetical order).
    pub pairs: BTreeMap<(String, String, String), PairTrack>,
    /// The number of players of its games (2 when every game had two).
    pub players: BTreeSet<usize>,
    /// Timing per time control, then agent: games of files with schema 3's `time_control`
    /// column (a file without it, or a row with it empty, adds nothing here).
    pub by_time_control: BTreeMap<String, BTreeMap<String, AgentTally>>,
}

/// The totals of every game read so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub games: u64,
    pub variants: BTreeMap<String, VariantTally>,
    pub experiments: BTreeSet<String>,
    /// Every spec text seen for an agent name; normally exactly one.
    pub specs: BTreeMap<String, BTreeSet<String>>,
    /// Files read without the spec columns.
    pub without_specs: BTreeSet<String>,
    /// Files read without the timing columns.
    pub without_timing: BTreeSet<String>,
    /// Games of an agent against itself, per variant: read and checked, then left out of
    /// everything else.
    pub self_play: BTreeMap<String, u64>,
}

impl Tally {
    pub fn merge(&mut self, other: Tally) {
        self.games += other.games;
        self.experiments.extend(other.experiments);
        self.without_specs.extend(other.without_specs);
        self.without_timing.extend(other.without_timing);
        for (variant, count) in other.self_play {
            *self.self_play.entry(variant).or_default() += count;
        }
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
            for (seating, outcomes) in variant.seatings {
                let into_seating = into.seatings.entry(seating).or_default();
                for (placing, count) in outcomes {
                    *into_seating.entry(placing).or_default() += count;
                }
            }
            for (agent, tally) in variant.agents {
                into.agents.entry(agent).or_default().add(&tally);
            }
            for (key, track) in variant.pairs {
                into.pairs.entry(key).or_default().merge(track);
            }
            into.players.extend(variant.players);
            for (control, agents) in variant.by_time_control {
                let into_control = into.by_time_control.entry(control).or_default();
                for (agent, tally) in agents {
                    into_control.entry(agent).or_default().add(&tally);
                }
            }
        }
    }

    /// Refuses a pool of more than [`MAX_POOL_AGENTS`] agents: a variant's, or the pool of
    /// every variant; `location` names the files read.
    pub fn check_pool_sizes(&self, location: impl Fn() -> String) -> Result<()> {
        let mut every = BTreeSet::new();
        for (variant, tally) in &self.variants {
            every.extend(tally.agents.keys());
            for (pool, agents) in [
                (variant.as_str(), tally.agents.len()),
                (ALL_POOL, every.len()),
            ] {
                if agents > MAX_POOL_AGENTS {
                    return Err(Error::TooManyAgents {
                        location: location(),
                        pool: pool.to_owned(),
                        limit: MAX_POOL_AGENTS,
                    });
                }
            }
        }
        Ok(())
    }

    /// Reads one CSV; `path` names it in error messages. A game already in `seen` (the same
    /// experiment, variant and game index) is refused, or dropped and counted when
    /// `seen.drop` is set.
    pub fn read_csv(path: &Path, reader: impl Read, seen: &mut Seen) -> Result<Tally> {
        let mut csv = csv::ReaderBuilder::new()
            .has_headers(true)
            .trim(csv::Trim::All)
            .from_reader(RowBound::new(reader));
        let malformed = |error: csv::Error| {
            let line = error.position().map_or(0, |p| p.line());
            match error.into_kind() {
                csv::ErrorKind::Io(error) => match RowTooLong::of(&error) {
                    Some(long) => Error::RowTooLong {
                        path: path.to_path_buf(),
                        line: long.line,
                        limit: MAX_ROW_BYTES,
                    },
                    None => Error::Read {
                        path: path.to_path_buf(),
                        error,
                    },
                },
                kind => Error::Malformed {
                    path: path.to_path_buf(),
                    line,
                    message: csv_message(kind),
                },
            }
        };
        let header = csv.headers().map_err(malformed)?.clone();
        let mut index = [None; Column::ALL.len()];
        for (slot, column) in index.iter_mut().zip(Column::ALL) {
            *slot = header.iter().position(|name| name == column.name());
        }
        let missing = |column: Column| Error::MissingColumn {
            path: path.to_path_buf(),
            column: column.name(),
        };
        // A header with none of the required columns is not a short games CSV but another file.
        if REQUIRED.iter().all(|c| index[*c as usize].is_none()) {
            return Err(Error::NotGamesCsv {
                path: path.to_path_buf(),
            });
        }
        for column in REQUIRED {
            if index[column as usize].is_none() {
                return Err(missing(column));
            }
        }
        // Groups of columns that come together: a file has all of a group or none of it.
        let complete = |group: &[Column]| -> Result<bool> {
            let present = group
                .iter()
                .filter(|c| index[**c as usize].is_some())
                .count();
            if present == 0 {
                Ok(false)
            } else if present == group.len() {
                Ok(true)
            } else {
                let absent = group
                    .iter()
                    .find(|c| index[**c as usize].is_none())
                    .expect("some column is absent");
                Err(missing(*absent))
            }
        };
        let timing = complete(&TIMING)?;
        let specs = complete(&[Column::FirstSpec, Column::SecondSpec])?;
        let multiplayer = complete(&SCHEMA_2)?;
        let clocks = complete(&SCHEMA_3)?;
        let mut tally = Tally::default();
        let name = path.display().to_string();
        if !timing {
            tally.without_timing.insert(name.clone());
        }
        if !specs {
            tally.without_specs.insert(name);
        }
        let layout = Layout {
            timing,
            specs,
            multiplayer,
            clocks,
        };
        let mut duplicate = None;
        let mut record = csv::StringRecord::new();
        while csv.read_record(&mut record).map_err(malformed)? {
            let line = record.position().map_or(0, |p| p.line());
            let row = Row {
                path,
                line,
                record: &record,
                index: &index,
            };
            let (experiment, variant) = (row.text(Column::Experiment)?, row.text(Column::Variant)?);
            let game = row.integer(Column::Game)?;
            if !seen.insert(experiment, variant, game) {
                // A bad row is reported as such, and a malformed line further on too: the
                // duplicate is said only once the whole file has read well.
                Tally::default().add_row(&row, layout)?;
                if seen.drop {
                    seen.dropped += 1;
                } else if duplicate.is_none() {
                    duplicate = Some(Error::Duplicate {
                        path: path.to_path_buf(),
                        line,
                        experiment: experiment.to_owned(),
                        variant: variant.to_owned(),
                        game,
                    });
                }
                continue;
            }
            tally.add_row(&row, layout)?;
        }
        match duplicate {
            Some(error) => Err(error),
            None => Ok(tally),
        }
    }

    fn add_row(&mut self, row: &Row<'_>, layout: Layout) -> Result<()> {
        let variant = row.text(Column::Variant)?;
        if variant == ALL_POOL {
            return Err(row.bad(
                Column::Variant,
                "`all` is reserved for the pool over every variant",
            ));
        }
        let players = if layout.multiplayer {
            let players = row.integer(Column::Players)?;
            if !(2..=MAX_PLAYERS as u64).contains(&players) {
                return Err(row.bad(Column::Players, "expected 2, 3 or 4 players"));
            }
            players as usize
        } else {
            2
        };
        let termination = row.termination()?;
        let game = row.integer(Column::Game)?;
        row.integer(Column::Seed)?;
        let plies = row.integer(Column::Plies)?;
        let mut seats: Vec<&str> = Vec::with_capacity(players);
        for seat in 0..MAX_PLAYERS {
            let [agent, _, score, ..] = Column::seat(seat);
            if seat < players {
                seats.push(row.text(agent)?);
                if seat >= 2 || row.present(score) {
                    row.optional_integer(score)?;
                }
            } else if layout.multiplayer && !row.raw(agent).is_empty() {
                return Err(row.bad(
                    agent,
                    &format!("must be empty in a game of {players} players"),
                ));
            }
        }
        let places = if players == 2 {
            let result = row.result()?;
            match (termination, result) {
                (Termination::Draw, GameResult::Draw) | (Termination::PlyCap, _) => {}
                (Termination::Draw, _) => {
                    return Err(row.bad(Column::Result, "a `draw` termination needs `1/2-1/2`"));
                }
                (_, GameResult::Draw) => {
                    return Err(row.bad(
                        Column::Result,
                        "a won, faulted or resigned game needs `1-0` or `0-1`",
                    ));
                }
                _ => {}
            }
            match result {
                GameResult::FirstWins => vec![1, 2],
                GameResult::SecondWins => vec![2, 1],
                GameResult::Draw => vec![1, 1],
            }
        } else {
            let places = row.places(players)?;
            if (termination.is_fault() || termination == Termination::Resign)
                && places.iter().filter(|&&p| p as usize == players).count() != 1
            {
                return Err(row.bad(
                    Column::Result,
                    "a faulted or resigned game has exactly one seat, the one that faulted or \
                     resigned, in last place",
                ));
            }
            places
        };
        let mut sides: Vec<AgentTally> = Vec::with_capacity(players);
        for (seat, &place) in places.iter().enumerate() {
            let [_, _, _, ms, max_ms, nodes] = Column::seat(seat);
            let timed = layout.timing && (seat < 2 || layout.multiplayer);
            let side = AgentTally {
                // Seats move in turn: seat k makes the plies t < plies with t ≡ k (mod N).
                moves: (plies + (players - 1 - seat) as u64) / players as u64,
                thinking_ns: if timed { row.milliseconds(ms)? } else { 0 },
                longest_move_ns: if timed { row.milliseconds(max_ms)? } else { 0 },
                nodes: if timed { row.integer(nodes)? } else { 0 },
                // The agent that faulted is the one in last place.
                faults: u64::from(termination.is_fault() && usize::from(place) == players),
            };
            sides.push(side);
        }
        let control = if layout.clocks {
            for clock in &SCHEMA_3[1..] {
                row.optional_milliseconds(*clock)?;
            }
            row.time_control()?
        } else {
            None
        };

        self.games += 1;
        let experiment = row.text(Column::Experiment)?;
        if !self.experiments.contains(experiment) {
            self.experiments.insert(experiment.to_owned());
        }
        if layout.specs {
            for (seat, agent) in seats.iter().enumerate() {
                let spec = row.text(Column::seat(seat)[1])?;
                let specs = self.specs.entry((*agent).to_owned()).or_default();
                if !specs.contains(spec) {
                    specs.insert(spec.to_owned());
                }
            }
        } else {
            for agent in &seats {
                self.specs.entry((*agent).to_owned()).or_default();
            }
        }
        // A game of an agent against itself says nothing of its strength, and its results and
        // times would count twice, once per seat: it is left out, and counted for the report's
        // note.
        let mut distinct = seats.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() < seats.len() {
            *self.self_play.entry(variant.to_owned()).or_default() += 1;
            return Ok(());
        }
        let tally = self.variants.entry(variant.to_owned()).or_default();
        tally.players.insert(players);
        if let Some(control) = control {
            let agents = tally.by_time_control.entry(control.to_owned()).or_default();
            for (agent, side) in seats.iter().zip(&sides) {
                agents.entry((*agent).to_owned()).or_default().add(side);
            }
        }
        for (agent, side) in seats.iter().zip(&sides) {
            tally
                .agents
                .entry((*agent).to_owned())
                .or_default()
                .add(side);
        }
        // Checked as rows come, so that a file of too many agents is refused before its
        // tallies take the memory (the pools of several files are checked again when rated).
        if tally.agents.len() > MAX_POOL_AGENTS {
            return Err(Error::TooManyAgents {
                location: format!("{}: line {}", row.path.display(), row.line),
                pool: variant.to_owned(),
                limit: MAX_POOL_AGENTS,
            });
        }
        if players == 2 {
            let wdl = Wdl::of_places(places[0], places[1]);
            tally
                .results
                .entry(seats[0].to_owned())
                .or_default()
                .entry(seats[1].to_owned())
                .or_default()
                .add(wdl);
            let first_is_a = seats[0] < seats[1];
            let (a, b) = if first_is_a {
                (seats[0], seats[1])
            } else {
                (seats[1], seats[0])
            };
            let a_wdl = if first_is_a { wdl } else { wdl.reversed() };
            let half_points = (2 * a_wdl.wins + a_wdl.draws) as u8;
            tally
                .pairs
                .entry((experiment.to_owned(), a.to_owned(), b.to_owned()))
                .or_default()
                .add(game, first_is_a, half_points);
        } else {
            *tally
                .seatings
                .entry(seats.iter().map(|s| (*s).to_owned()).collect())
                .or_default()
                .entry(places)
                .or_default() += 1;
        }
        Ok(())
    }
}

/// Which optional groups of columns a file has.
#[derive(Clone, Copy, Debug)]
struct Layout {
    timing: bool,
    specs: bool,
    multiplayer: bool,
    /// Schema 3's `time_control` and clock columns.
    clocks: bool,
}

/// The games read so far, by experiment and variant, their indices kept as ranges: a file in
/// schedule order costs a few bytes per variant, not a few per game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Seen {
    games: BTreeMap<(String, String), BTreeMap<u64, u64>>,
    /// Drop a game read again instead of refusing it.
    pub drop: bool,
    /// Games dropped as read before.
    pub dropped: u64,
}

impl Seen {
    /// Marks the game seen; false if it was already.
    fn insert(&mut self, experiment: &str, variant: &str, game: u64) -> bool {
        let key = (experiment.to_owned(), variant.to_owned());
        let ranges = self.games.entry(key).or_default();
        let before = ranges.range(..=game).next_back().map(|(&s, &e)| (s, e));
        if before.is_some_and(|(_, end)| game < end) {
            return false;
        }
        let start = match before {
            Some((start, end)) if end == game => start,
            _ => game,
        };
        let end = match game.checked_add(1).and_then(|next| ranges.remove(&next)) {
            Some(end) => end,
            None => game.saturating_add(1),
        };
        ranges.insert(start, end);
        true
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

/// One CSV row with what is needed to name it in an error.
struct Row<'a> {
    path: &'a Path,
    line: u64,
    record: &'a csv::StringRecord,
    index: &'a [Option<usize>; Column::ALL.len()],
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

    fn present(&self, column: Column) -> bool {
        self.index[column as usize].is_some()
    }

    fn raw(&self, column: Column) -> &str {
        // `Column::ALL` lists the variants in declaration order, so the discriminant indexes it.
        self.index[column as usize]
            .and_then(|at| self.record.get(at))
            .unwrap_or("")
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

    /// A time in milliseconds, or nothing (a clock column of a game without a game clock).
    fn optional_milliseconds(&self, column: Column) -> Result<Option<u64>> {
        if self.raw(column).is_empty() {
            Ok(None)
        } else {
            self.milliseconds(column).map(Some)
        }
    }

    /// Schema 3's time control, as the arena writes it; nothing for no time limit.
    fn time_control(&self) -> Result<Option<&str>> {
        match self.raw(Column::TimeControl) {
            "" => Ok(None),
            text if time_control::is_written(text) => Ok(Some(text)),
            _ => Err(self.bad(Column::TimeControl, time_control::EXPECTED)),
        }
    }

    fn result(&self) -> Result<GameResult> {
        match self.raw(Column::Result) {
            "1-0" => Ok(GameResult::FirstWins),
            "0-1" => Ok(GameResult::SecondWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            _ => Err(self.bad(Column::Result, "expected `1-0`, `0-1` or `1/2-1/2`")),
        }
    }

    /// The places of an N-player game, `1-3-2`: one place per seat, each from 1 to N, equal
    /// places sharing the better one (totals 30,30,20 give `1-1-3`).
    fn places(&self, players: usize) -> Result<Vec<u8>> {
        let text = self.raw(Column::Result);
        let expected = format!(
            "expected the places of the {players} seats joined by `-`, like `{}` (equal places \
             share the better one: `1-1-3`)",
            (1..=players)
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("-")
        );
        let places: Vec<u8> = text
            .split('-')
            .map(|p| p.trim().parse::<u8>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| self.bad(Column::Result, &expected))?;
        if places.len() != players {
            return Err(self.bad(Column::Result, &expected));
        }
        for &place in &places {
            let better = places.iter().filter(|&&other| other < place).count();
            if usize::from(place) != better + 1 {
                return Err(self.bad(Column::Result, &expected));
            }
        }
        Ok(places)
    }

    fn termination(&self) -> Result<Termination> {
        let raw = self.raw(Column::Termination);
        Termination::parse(raw).ok_or_else(|| {
            self.bad(
                Column::Termination,
                &format!("expected {}", Termination::EXPECTED),
            )
        })
    }
}

/// The longest row (the header included) the report reads, in bytes: 1 MiB. A row of the
/// arena's CSV is a few KB (a 15x15 game's moves are under 1.2 KB); anything longer is not a
/// games CSV, and reading it whole could take all the memory there is (`/dev/zero`).
pub const MAX_ROW_BYTES: usize = 1 << 20;

/// A row longer than [`MAX_ROW_BYTES`], carried inside the `io::Error` the CSV reader passes on.
#[derive(Debug)]
struct RowTooLong {
    /// The 1-based line where the row starts.
    line: u64,
}

impl std::fmt::Display for RowTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the row at line {} is longer than {MAX_ROW_BYTES} bytes",
            self.line
        )
    }
}

impl std::error::Error for RowTooLong {}

impl RowTooLong {
    fn of(error: &std::io::Error) -> Option<&RowTooLong> {
        error.get_ref()?.downcast_ref()
    }
}

/// Where a [`RowBound`] is within a row: the states of the CSV reader's own parser (a quote
/// opens a quoted field only at the start of a field; `""` inside one is a quote).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RowState {
    StartField,
    InField,
    InQuotes,
    QuoteInQuotes,
}

/// A reader that fails with [`RowTooLong`] as soon as one row (a line, or several where a quoted
/// field holds newlines) passes [`MAX_ROW_BYTES`], before the CSV reader has buffered it.
struct RowBound<R> {
    inner: R,
    state: RowState,
    /// Bytes of the current row so far.
    row_bytes: usize,
    /// The line the current row started on, and the current line (1-based).
    row_line: u64,
    line: u64,
}

impl<R> RowBound<R> {
    fn new(inner: R) -> Self {
        Self {
            inner,
            state: RowState::StartField,
            row_bytes: 0,
            row_line: 1,
            line: 1,
        }
    }
}

impl<R: Read> Read for RowBound<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &byte in &buf[..n] {
            let end_of_row = matches!(byte, b'\n' | b'\r') && self.state != RowState::InQuotes;
            self.state = match (self.state, byte) {
                (RowState::InQuotes, b'"') => RowState::QuoteInQuotes,
                (RowState::InQuotes, _) => RowState::InQuotes,
                (RowState::StartField, b'"') | (RowState::QuoteInQuotes, b'"') => {
                    RowState::InQuotes
                }
                (_, b',' | b'\n' | b'\r') => RowState::StartField,
                _ => RowState::InField,
            };
            if byte == b'\n' {
                self.line += 1;
            }
            if end_of_row {
                self.row_bytes = 0;
                self.row_line = self.line;
                continue;
            }
            self.row_bytes += 1;
            if self.row_bytes > MAX_ROW_BYTES {
                return Err(std::io::Error::other(RowTooLong {
                    line: self.row_line,
                }));
            }
        }
        Ok(n)
    }
}

/// Board size in cells, from a canonical variant id: `mnk-MxNkK…` has `M·N` cells. `None` for an
/// id of another shape (O An Quan has a ring of squares, not a board of this kind).
pub fn board_cells(variant: &str) -> Option<u64> {
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

/// Whether `variant` is an O An Quan variant.
pub fn is_oanquan(variant: &str) -> bool {
    variant == "oanquan" || variant.starts_with("oanquan-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_seen_twice_are_told_apart_by_experiment_and_variant() {
        let mut seen = Seen::default();
        for game in [0, 1, 2, 5, 4, 3] {
            assert!(seen.insert("e", "v", game), "{game}");
        }
        assert!(!seen.insert("e", "v", 4));
        assert!(seen.insert("e", "w", 4));
        assert!(seen.insert("f", "v", 4));
        assert_eq!(seen.games[&("e".into(), "v".into())].len(), 1, "one range");
    }

    #[test]
    fn a_game_read_twice_is_refused_after_the_file_reads_well_or_dropped() {
        // The 19 columns of schema 1 the report reads (every column but `moves`).
        let header = csv_schema::COLUMNS
            .iter()
            .copied()
            .filter(|&name| name != Column::Moves.name())
            .collect::<Vec<_>>()
            .join(",");
        let row = |game: u32| {
            format!("t,mnk-3x3k3,{game},1,a,b,1-0,win,5,,,3.0,2.0,1.5,1.0,30,10,random,random")
        };
        let text = format!("{header}\n{}\n{}\n{}\n{}\n", row(0), row(1), row(0), row(2));
        let path = Path::new("g.csv");
        let error = Tally::read_csv(path, text.as_bytes(), &mut Seen::default()).unwrap_err();
        assert!(
            matches!(
                error,
                Error::Duplicate {
                    line: 4,
                    game: 0,
                    ..
                }
            ),
            "{error}"
        );
        let mut seen = Seen {
            drop: true,
            ..Seen::default()
        };
        let tally = Tally::read_csv(path, text.as_bytes(), &mut seen).unwrap();
        assert_eq!((tally.games, seen.dropped), (3, 1));
        // A malformed line after the duplicate is what is reported.
        let text = format!("{text}{},extra\n", row(3));
        let error = Tally::read_csv(path, text.as_bytes(), &mut Seen::default()).unwrap_err();
        assert!(matches!(error, Error::Malformed { line: 6, .. }), "{error}");
    }

    #[test]
    fn board_cells_from_variant_ids() {
        for (id, cells) in [
            ("mnk-3x3k3", Some(9)),
            ("mnk-15x15k5-caro", Some(225)),
            ("mnk-7x6k4", Some(42)),
            ("oanquan", None),
            ("oanquan-3p", None),
            ("mnk-3x3", None),
            ("chess", None),
        ] {
            assert_eq!(board_cells(id), cells, "{id}");
        }
        assert!(is_oanquan("oanquan-4p") && is_oanquan("oanquan") && !is_oanquan("mnk-3x3k3"));
    }

    #[test]
    fn game_pairs_are_found_in_any_order_and_across_files() {
        // A pairing starting at game 6: pairs (6, 7), (8, 9); game 10 is alone.
        let games = [
            (6, true, 2),
            (7, false, 0),
            (8, true, 1),
            (9, false, 2),
            (10, true, 2),
        ];
        let mut in_order = PairTrack::default();
        for &(g, f, p) in &games {
            in_order.add(g, f, p);
        }
        // 2 + 0 = 2 half-points: DD+WL; 1 + 2 = 3: WD.
        assert_eq!(in_order.pentanomial(), ([0, 0, 1, 1, 0], 1));
        let mut split = [PairTrack::default(), PairTrack::default()];
        for &(g, f, p) in games.iter().rev() {
            split[(g % 2) as usize].add(g, f, p);
        }
        let [mut a, b] = split;
        a.merge(b);
        assert_eq!(a.pentanomial(), ([0, 0, 1, 1, 0], 1));
        // A pairing starting at an odd index pairs (7, 8).
        let mut odd = PairTrack::default();
        for &(g, f, p) in &[(7, true, 2), (8, false, 2), (9, true, 0)] {
            odd.add(g, f, p);
        }
        assert_eq!(odd.pentanomial(), ([0, 0, 0, 0, 1], 1));
    }
}
