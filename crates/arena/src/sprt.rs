//! A sequential match: a candidate against a baseline on one variant, played in game pairs
//! until a caller's test decides.
//!
//! The match is an ordinary experiment of two agents (`candidate` first in the file, then
//! `baseline`) and one variant, so its schedule is the arena's: game `2m` has the candidate
//! moving first, game `2m + 1` the baseline, both with the same random opening, and every game
//! has the seed `arena run` would give it. Its games are played in schedule order (in parallel,
//! written in order) and after each complete pair the caller sees the pair counts so far and
//! says whether to stop; games in flight when it stops are dropped, so the CSV ends at the
//! deciding pair whatever the thread count. The CSV, its meta file and the copy of the
//! experiment are exactly those of `arena run`, so `arena report` reads them, and a killed
//! match resumes from the rows already written.
//!
//! The statistics (the sequential probability ratio test on the pairs) live in the report
//! crate; this module only plays and records.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use agents::AgentSpec;
use rules::Variant;

use crate::record::{Row, io_error};
use crate::results::{OpenOptions, ResultsFile};
use crate::run::{play_scheduled_with, thread_count};
use crate::schedule::{Schedule, Shard};
use crate::{ArenaError, Experiment};

/// The file next to a match's games that holds the settings of its test.
pub const TEST_FILE: &str = "sprt.toml";

/// The display name of the agent under test.
pub const CANDIDATE: &str = "candidate";
/// The display name of the agent it is measured against.
pub const BASELINE: &str = "baseline";

/// What a sequential match plays.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSettings {
    /// The experiment name (names the results folder by default).
    pub name: String,
    /// The variant.
    pub variant: Variant,
    /// The agent under test.
    pub candidate: AgentSpec,
    /// The agent it is measured against.
    pub baseline: AgentSpec,
    /// The experiment seed every game's seed derives from.
    pub seed: u64,
    /// Random plies before the agents play, the same for both games of a pair (none with a
    /// suite).
    pub opening_plies: u32,
    /// An opening suite the pairs start from instead (pair `m` from line `m` modulo the
    /// number of lines), if any.
    pub openings: Option<PathBuf>,
    /// The most game pairs to play if the test never decides.
    pub max_pairs: u32,
    /// The sandbox of outside agents (`--sandbox`).
    pub sandbox: protocol::sandbox::Mode,
    /// The time control (cutechess's `tc=`/`st=`), if the match has one.
    pub time_control: Option<agents::clock::TimeControl>,
}

impl MatchSettings {
    /// The match as an experiment file: what `arena run` would play with the same seeds.
    pub fn experiment_text(&self) -> String {
        // The suite by its file name: the experiment's copy in the output folder reads the
        // copy of the suite written next to it.
        let opening = match self.openings.as_ref().and_then(|p| p.file_name()) {
            Some(file) => format!("openings = {}\n", toml_string(&file.to_string_lossy())),
            None => format!("opening_plies = {}\n", self.opening_plies),
        };
        format!(
            "# A sequential match (arena sprt): the candidate against the baseline in game pairs,\n\
             # played in schedule order until the test decides. `arena run` on this file plays\n\
             # the same games with the same seeds.\n\
             name = \"{}\"\n\
             seed = {}\n\
             games_per_pair = {}\n\
             sandbox = \"{}\"\n\
             {opening}\
             {}variants = [\"{}\"]\n\n\
             [[agents]]\n\
             name = \"{CANDIDATE}\"\n\
             spec = {}\n\n\
             [[agents]]\n\
             name = \"{BASELINE}\"\n\
             spec = {}\n",
            self.name,
            self.seed,
            2 * u64::from(self.max_pairs),
            self.sandbox,
            self.time_control_lines(),
            self.variant,
            toml_string(&self.candidate.to_string()),
            toml_string(&self.baseline.to_string()),
        )
    }

    /// The experiment file's `tc` and `st` lines, if the match has a time control.
    fn time_control_lines(&self) -> String {
        let Some(tc) = self.time_control.filter(|tc| tc.is_limited()) else {
            return String::new();
        };
        let mut lines = String::new();
        if let Some(clock) = tc.clock {
            lines.push_str(&format!("tc = \"{clock}\"\n"));
        }
        if let Some(limit) = tc.per_move {
            lines.push_str(&format!("st = \"{}\"\n", limit.as_secs_f64()));
        }
        lines
    }

    /// The checked experiment (the suite read from its folder).
    pub fn experiment(&self) -> Result<Experiment, ArenaError> {
        let folder = self
            .openings
            .as_ref()
            .map(|p| p.parent().unwrap_or(Path::new("")));
        Experiment::from_toml_at(&self.experiment_text(), "arena sprt", folder)
    }
}

/// `text` as a TOML string (an outside agent's spec holds paths and spaces).
pub(crate) fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// The state of the match after a complete game pair, as the caller's test sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairCount {
    /// Complete pairs.
    pub pairs: u64,
    /// Pairs by the candidate's points from them: `[0, ½, 1, 1½, 2]`, that is
    /// `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: [u64; 5],
    /// The candidate's wins, draws and losses over the games counted.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Whether these pairs were all read back from the CSV (the first call after a resume).
    pub resumed: bool,
}

/// How to run a match besides what it plays.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// The output folder.
    pub out_dir: PathBuf,
    /// Worker threads; `None`: as `arena run` chooses.
    pub threads: Option<usize>,
    /// Start over: move the old CSV aside (never deleting it).
    pub fresh: bool,
    /// The test's settings as text, kept in `sprt.toml` next to the games (`None`: no file).
    /// Games recorded under another test, or under no known one, are refused: a sequential
    /// test's error rates hold only with the bounds it started with.
    pub test: Option<String>,
}

/// What a match did.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// The CSV.
    pub csv: PathBuf,
    /// Games read back from the CSV.
    pub resumed: u64,
    /// Games played by this run.
    pub played: u64,
    /// The last count the caller saw.
    pub count: PairCount,
    /// Whether the caller stopped the match (false: the schedule ran out first).
    pub decided: bool,
    /// Where the old CSV went with `fresh`.
    pub moved_aside: Option<PathBuf>,
    /// Whether a half-written last line was cut.
    pub cut_partial_line: bool,
    /// Wall time of this run.
    pub wall: Duration,
    /// Worker threads used.
    pub threads: usize,
}

/// Counts games into pairs: game `2m` has the candidate first, `2m + 1` the baseline.
#[derive(Clone, Debug, Default)]
struct Counter {
    count: PairCount,
    /// The candidate's half-points from the first game of the pair under way.
    open: Option<u8>,
}

impl Counter {
    /// Adds game `index` (its row); returns whether it completed a pair.
    fn add(&mut self, row: &Row) -> bool {
        let candidate_first = row.first == CANDIDATE;
        let half_points = match (row.result.as_str(), candidate_first) {
            ("1-0", true) | ("0-1", false) => 2,
            ("1/2-1/2", _) => 1,
            _ => 0,
        };
        match half_points {
            2 => self.count.wins += 1,
            1 => self.count.draws += 1,
            _ => self.count.losses += 1,
        }
        if row.game.is_multiple_of(2) {
            self.open = Some(half_points);
            false
        } else {
            let first = self.open.take().unwrap_or(0);
            self.count.pentanomial[usize::from(first + half_points)] += 1;
            self.count.pairs += 1;
            true
        }
    }
}

/// Plays `settings`' match into `options.out_dir`, resuming from the CSV there, and calls
/// `stop` with the pair counts after every complete pair (and once with the resumed counts);
/// the match ends when `stop` returns true or the schedule runs out.
pub fn run_match(
    settings: &MatchSettings,
    options: &MatchOptions,
    mut stop: impl FnMut(&PairCount) -> bool,
) -> Result<MatchSummary, ArenaError> {
    let started = Instant::now();
    let experiment = settings.experiment()?;
    let schedule = Schedule::new(&experiment);
    let out = &options.out_dir;
    let csv = out.join(Shard::WHOLE.csv_name());
    let test_file = out.join(TEST_FILE);
    let also_aside = [(test_file.clone(), TEST_FILE)];
    // `--max-pairs` only sets how far the one pairing's games go: a larger one extends a match.
    let mut file = ResultsFile::open(
        &csv,
        &experiment,
        &OpenOptions {
            fresh: options.fresh,
            also_aside: &also_aside,
            more_games: true,
            ..OpenOptions::new("arena sprt")
        },
    )?;
    if let Some(test) = &options.test {
        if file.holds_rows() {
            let recorded = fs::read_to_string(&test_file).ok();
            if recorded.as_deref() != Some(test.as_str()) {
                return Err(ArenaError::TestChanged {
                    csv,
                    recorded: recorded.map(|text| {
                        text.lines()
                            .filter(|l| !l.starts_with('#'))
                            .collect::<Vec<_>>()
                            .join(", ")
                    }),
                });
            }
        }
        fs::write(&test_file, test).map_err(|e| io_error(&test_file, "write the test file", e))?;
    }

    // What is recorded already: it must be the schedule's first games, in order.
    let mut counter = Counter::default();
    let mut resumed = 0u64;
    file.check_rows(&experiment, &schedule, Shard::WHOLE, |line, row, _| {
        if row.game != resumed {
            return Err(ArenaError::Csv {
                path: csv.clone(),
                line,
                message: format!(
                    "expected game {resumed} here: a sequential match records its games \
                     in schedule order, one after another"
                ),
            });
        }
        counter.add(row);
        resumed += 1;
        Ok(())
    })?;
    let roster = experiment
        .roster()
        .with_log_folder(&csv.with_extension("logs"));
    let mut sandbox_missing = Vec::new();
    if resumed < schedule.len() {
        sandbox_missing = crate::run::check_sandbox(&experiment)?;
        crate::run::preflight(&experiment, &roster)?;
    }
    let mut writer = file.begin(&experiment, &schedule, Shard::WHOLE, &sandbox_missing)?;

    let threads = thread_count(options.threads, &experiment);
    let mut summary = MatchSummary {
        csv: csv.clone(),
        resumed,
        played: 0,
        count: counter.count,
        decided: false,
        moved_aside: file.moved_aside.clone(),
        cut_partial_line: file.cut_partial_line,
        wall: Duration::ZERO,
        threads,
    };
    let resumed_count = PairCount {
        resumed: true,
        ..counter.count
    };
    if stop(&resumed_count) {
        summary.decided = true;
        summary.wall = started.elapsed();
        return Ok(summary);
    }
    if resumed >= schedule.len() {
        summary.wall = started.elapsed();
        return Ok(summary);
    }

    let log_path = csv.with_extension("faults.log");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("arena-sprt-{i}"))
        .build()
        .map_err(|e| ArenaError::Threads(e.to_string()))?;
    let next = AtomicU64::new(resumed);
    let halt = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(u64, Row, Option<String>)>();
    let total = schedule.len();
    let result: Result<(), ArenaError> = std::thread::scope(|scope| {
        let (schedule, experiment, roster) = (&schedule, &experiment, &roster);
        let (next, halt) = (&next, &halt);
        scope.spawn(move || {
            pool.scope(|workers| {
                for _ in 0..threads {
                    let sender = sender.clone();
                    workers.spawn(move |_| {
                        while !halt.load(Ordering::Relaxed) {
                            let index = next.fetch_add(1, Ordering::Relaxed);
                            if index >= total {
                                break;
                            }
                            let game = schedule.game(index);
                            let (row, fault) = play_scheduled_with(experiment, &game, roster);
                            if sender.send((index, row, fault)).is_err() {
                                break;
                            }
                        }
                    });
                }
            });
            drop(sender);
        });
        // Rows in schedule order; the test looks at every complete pair.
        let mut waiting: BTreeMap<u64, (Row, Option<String>)> = BTreeMap::new();
        let mut next_to_write = resumed;
        for (index, row, fault) in receiver.iter() {
            if halt.load(Ordering::Relaxed) {
                // Games in flight when the test decided: not part of the match.
                continue;
            }
            waiting.insert(index, (row, fault));
            while let Some((row, fault)) = waiting.remove(&next_to_write) {
                let written = writer.write(&row).and_then(|()| match fault {
                    Some(message) => append_fault(&log_path, &message),
                    None => Ok(()),
                });
                if let Err(error) = written {
                    halt.store(true, Ordering::Relaxed);
                    return Err(error);
                }
                summary.played += 1;
                next_to_write += 1;
                if counter.add(&row) && stop(&counter.count) {
                    summary.decided = true;
                    halt.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
        Ok(())
    });
    // Outside processes kept between games stop now.
    drop(roster);
    result?;
    drop(file);
    summary.count = counter.count;
    summary.wall = started.elapsed();
    Ok(summary)
}

/// Appends `message` to the fault log at `path` (`arena sprt`, `arena tune`).
pub(crate) fn append_fault(path: &Path, message: &str) -> Result<(), ArenaError> {
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| io_error(path, "open the fault log", e))?;
    writeln!(file, "{message}").map_err(|e| io_error(path, "write the fault log", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64, first: &str, result: &str) -> Row {
        Row {
            experiment: "t".into(),
            variant: "mnk-3x3k3".into(),
            game,
            seed: 0,
            first: first.into(),
            second: if first == CANDIDATE {
                BASELINE
            } else {
                CANDIDATE
            }
            .into(),
            result: result.into(),
            termination: "win".into(),
            plies: 5,
            first_score: None,
            second_score: None,
            first_ms: 0.0,
            second_ms: 0.0,
            first_max_ms: 0.0,
            second_max_ms: 0.0,
            first_nodes: 0,
            second_nodes: 0,
            moves: String::new(),
            first_spec: "random".into(),
            second_spec: "random".into(),
            ..Row::default()
        }
    }

    #[test]
    fn pairs_count_the_candidate_s_points() {
        let mut counter = Counter::default();
        // Pair 0: the candidate wins as first, loses as second: 1 point (DD+WL).
        assert!(!counter.add(&row(0, CANDIDATE, "1-0")));
        assert!(counter.add(&row(1, BASELINE, "1-0")));
        // Pair 1: draws as first, wins as second: 1½ (WD).
        counter.add(&row(2, CANDIDATE, "1/2-1/2"));
        counter.add(&row(3, BASELINE, "0-1"));
        assert_eq!(counter.count.pentanomial, [0, 0, 1, 1, 0]);
        assert_eq!(
            (
                counter.count.wins,
                counter.count.draws,
                counter.count.losses
            ),
            (2, 1, 1)
        );
        assert_eq!(counter.count.pairs, 2);
    }
}
