//! Running an experiment: resume from what the CSV holds, play the rest in parallel, write
//! rows in schedule order as they complete.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use agents::AgentGame;
use rules::{Mnk, OanQuan, Variant};

use crate::experiment::Experiment;
use crate::play::{GameSettings, play_game_from};
use crate::record::{self, CSV_SCHEMA, Row, RowWriter};
use crate::schedule::{Schedule, ScheduledGame, Shard};
use crate::{ArenaError, Termination};

/// How `run` shows progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A bar on a terminal, plain lines every few seconds otherwise.
    Auto,
    /// Nothing.
    Quiet,
}

/// Options of a run besides the experiment.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The output folder.
    pub out_dir: PathBuf,
    /// Worker threads; `None` takes `SLURM_CPUS_PER_TASK`, then the experiment's `threads`,
    /// then all cores.
    pub threads: Option<usize>,
    /// Start over: move the old CSV aside (never deleting it) and play everything.
    pub fresh: bool,
    /// The shard to play.
    pub shard: Shard,
    /// Progress display.
    pub progress: Progress,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct RunSummary {
    /// The CSV written.
    pub csv: PathBuf,
    /// Games in this shard.
    pub games: u64,
    /// Games already recorded before this run.
    pub resumed: u64,
    /// Games played by this run.
    pub played: u64,
    /// Whether a half-written last line was found and dropped.
    pub cut_partial_line: bool,
    /// Where the old CSV went with `fresh`.
    pub moved_aside: Option<PathBuf>,
    /// Wall time of this run.
    pub wall: Duration,
    /// Worker threads used.
    pub threads: usize,
    /// Faults per agent over the whole CSV: (crash, illegal-move, timeout).
    pub faults: BTreeMap<String, [u64; 3]>,
}

/// The file next to a CSV that says which experiment it belongs to.
pub fn meta_path(csv: &Path) -> PathBuf {
    csv.with_extension("meta.toml")
}

/// What the meta file next to a CSV records.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// The CSV schema version.
    pub csv_schema: u32,
    /// The experiment's name.
    pub experiment: String,
    /// [`Experiment::hash`].
    pub experiment_hash: String,
    /// The shard, `I/N`.
    pub shard: String,
    /// Games in the whole schedule.
    pub games_in_schedule: u64,
    /// Games in this shard.
    pub games_in_shard: u64,
    /// [`Experiment::normalised`]: what the hash covers.
    pub normalised: String,
}

impl Meta {
    /// The meta of `shard` of `experiment`.
    pub fn new(experiment: &Experiment, schedule: &Schedule, shard: Shard) -> Meta {
        Meta {
            csv_schema: CSV_SCHEMA,
            experiment: experiment.name.clone(),
            experiment_hash: experiment.hash(),
            shard: shard.to_string(),
            games_in_schedule: schedule.len(),
            games_in_shard: schedule.shard_games(shard).count() as u64,
            normalised: experiment.normalised(),
        }
    }

    /// Reads the meta file of `csv`, if there is one.
    pub fn read(csv: &Path) -> Result<Option<Meta>, ArenaError> {
        let path = meta_path(csv);
        if !path.exists() {
            return Ok(None);
        }
        let text = fs::read_to_string(&path).map_err(|e| ArenaError::Io {
            path: path.clone(),
            action: "read the meta file",
            error: e.to_string(),
        })?;
        toml::from_str(&text).map(Some).map_err(|e| ArenaError::Io {
            path,
            action: "parse the meta file",
            error: e.message().to_string(),
        })
    }

    /// Writes the meta file of `csv`.
    pub fn write(&self, csv: &Path) -> Result<(), ArenaError> {
        let path = meta_path(csv);
        let body = toml::to_string(self).expect("the meta serialises");
        let text = format!(
            "# Written by arena: identifies the experiment the CSV next to this file belongs to.\n{body}"
        );
        fs::write(&path, text).map_err(|e| ArenaError::Io {
            path,
            action: "write the meta file",
            error: e.to_string(),
        })
    }
}

/// The number of worker threads: `requested`, else `SLURM_CPUS_PER_TASK`, else the
/// experiment's `threads`, else all cores.
pub fn thread_count(requested: Option<usize>, experiment: &Experiment) -> usize {
    let all = || std::thread::available_parallelism().map_or(1, |n| n.get());
    requested
        .filter(|&n| n > 0)
        .or_else(|| {
            std::env::var("SLURM_CPUS_PER_TASK")
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok())
                .filter(|&n| n > 0)
        })
        .or((experiment.threads > 0).then_some(experiment.threads))
        .unwrap_or_else(all)
}

/// Plays one scheduled game and returns its row. The same game always gives the same row
/// outside the timing columns, whatever else is played around it.
pub fn play_scheduled(experiment: &Experiment, game: &ScheduledGame) -> (Row, Option<String>) {
    let variant = &experiment.variants[game.variant];
    match variant {
        Variant::Mnk(config) => play_typed::<Mnk>(experiment, game, &config.start()),
        Variant::OanQuan(rules) => play_typed::<OanQuan>(experiment, game, &rules.start()),
    }
}

fn play_typed<G: AgentGame>(
    experiment: &Experiment,
    game: &ScheduledGame,
    start: &G,
) -> (Row, Option<String>) {
    let first = &experiment.agents[game.first];
    let second = &experiment.agents[game.second];
    let settings = GameSettings {
        max_plies: experiment.max_plies,
        opening_plies: experiment.opening_plies,
        move_time: (experiment.move_time_ms > 0)
            .then(|| Duration::from_millis(experiment.move_time_ms)),
    };
    let built = (
        agents::build::<G>(&first.spec),
        agents::build::<G>(&second.spec),
    );
    // The suite's opening of this block; its moves were checked when the experiment was read.
    let variant = &experiment.variants[game.variant];
    let mut opening = Vec::new();
    if let Some(line) = experiment
        .openings
        .as_ref()
        .and_then(|suite| suite.for_block(variant, game.block))
    {
        let mut position = start.clone();
        for text in line {
            let mv = position
                .parse_move(text)
                .expect("opening moves are checked when the experiment is read");
            opening.push(mv);
            position.play_unchecked(mv);
        }
    }
    let record = match built {
        (Ok(mut a), Ok(mut b)) => play_game_from(
            start,
            &opening,
            [&mut *a, &mut *b],
            game.seed,
            game.opening_seed,
            settings,
        ),
        // Specs were checked when the experiment was read; an agent that still cannot be
        // built (an outside engine that fails to start) loses the game as a crash.
        (Err(error), _) => crate::play::forfeit(start, rules::Player::First, error.to_string()),
        (_, Err(error)) => crate::play::forfeit(start, rules::Player::Second, error.to_string()),
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let fault = record.fault.as_ref().map(|message| {
        let loser = match record.outcome.winner() {
            Some(rules::Player::First) => &second.name,
            _ => &first.name,
        };
        format!(
            "game {} ({}): `{loser}` {}: {message}",
            game.index,
            experiment.variants[game.variant],
            record.termination.as_str()
        )
    });
    let row = Row {
        experiment: experiment.name.clone(),
        variant: experiment.variants[game.variant].to_string(),
        game: game.index,
        seed: game.seed,
        first: first.name.clone(),
        second: second.name.clone(),
        result: record.outcome.result_text().to_string(),
        termination: record.termination.as_str().to_string(),
        plies: record.plies,
        first_score: record.totals.map(|t| t[0]),
        second_score: record.totals.map(|t| t[1]),
        first_ms: ms(record.time[0]),
        second_ms: ms(record.time[1]),
        first_max_ms: ms(record.max_time[0]),
        second_max_ms: ms(record.max_time[1]),
        first_nodes: record.nodes[0],
        second_nodes: record.nodes[1],
        moves: record.moves.join(" "),
        first_spec: first.spec.to_string(),
        second_spec: second.spec.to_string(),
    };
    (row, fault)
}

fn count_fault(faults: &mut BTreeMap<String, [u64; 3]>, row: &Row) {
    let Some(termination) = Termination::parse(&row.termination) else {
        return;
    };
    let slot = match termination {
        Termination::Crash => 0,
        Termination::IllegalMove => 1,
        Termination::Timeout => 2,
        _ => return,
    };
    // The loser faulted.
    let loser = if row.result == "1-0" {
        &row.second
    } else {
        &row.first
    };
    faults.entry(loser.clone()).or_default()[slot] += 1;
}

/// A place to move an old file aside to: `<file>.old-N`, the first N not taken.
fn aside_path(path: &Path) -> PathBuf {
    (1..)
        .map(|n| PathBuf::from(format!("{}.old-{n}", path.display())))
        .find(|p| !p.exists())
        .expect("some suffix is free")
}

/// Runs (or resumes) `experiment` into `options.out_dir`.
pub fn run(experiment: &Experiment, options: &RunOptions) -> Result<RunSummary, ArenaError> {
    let started = Instant::now();
    let schedule = Schedule::new(experiment);
    let shard = options.shard;
    let out = &options.out_dir;
    fs::create_dir_all(out).map_err(|e| ArenaError::Io {
        path: out.clone(),
        action: "create the output folder",
        error: e.to_string(),
    })?;
    let csv = out.join(shard.csv_name());
    let mut summary = RunSummary {
        csv: csv.clone(),
        games: schedule.shard_games(shard).count() as u64,
        ..RunSummary::default()
    };

    if options.fresh && csv.exists() {
        let aside = aside_path(&csv);
        fs::rename(&csv, &aside).map_err(|e| ArenaError::Io {
            path: csv.clone(),
            action: "move the old CSV aside",
            error: e.to_string(),
        })?;
        let meta = meta_path(&csv);
        if meta.exists() {
            let _ = fs::rename(&meta, format!("{}.meta.toml", aside.display()));
        }
        summary.moved_aside = Some(aside);
    }

    // What is recorded already.
    let mut done = vec![false; schedule.len() as usize];
    let mut needs_header = true;
    let mut in_order = true;
    let mut last: Option<u64> = None;
    if csv.exists() && fs::metadata(&csv).map(|m| m.len() > 0).unwrap_or(false) {
        let hash = experiment.hash();
        match Meta::read(&csv)?.map(|m| m.experiment_hash) {
            Some(recorded) if recorded == hash => {}
            Some(recorded) => {
                return Err(ArenaError::ExperimentChanged {
                    csv: csv.clone(),
                    recorded,
                    current: hash,
                });
            }
            None => return Err(ArenaError::ForeignCsv { csv: csv.clone() }),
        }
        summary.cut_partial_line = record::cut_partial_line(&csv)?;
        if record::has_header(&csv)? {
            needs_header = false;
            record::read_rows(&csv, |line, row| {
                let index = row.game;
                if index >= schedule.len() || !shard.holds(index) {
                    return Err(ArenaError::Csv {
                        path: csv.clone(),
                        line,
                        message: format!(
                            "game {index} is not in shard {shard} of this experiment's schedule"
                        ),
                    });
                }
                if std::mem::replace(&mut done[index as usize], true) {
                    return Err(ArenaError::Csv {
                        path: csv.clone(),
                        line,
                        message: format!("game {index} is recorded twice"),
                    });
                }
                if last.is_some_and(|l| l > index) {
                    in_order = false;
                }
                last = Some(index);
                summary.resumed += 1;
                count_fault(&mut summary.faults, &row);
                Ok(())
            })?;
        } else if fs::metadata(&csv).map(|m| m.len() > 0).unwrap_or(false) {
            return Err(ArenaError::ForeignCsv { csv: csv.clone() });
        }
    }
    Meta::new(experiment, &schedule, shard).write(&csv)?;
    // A copy of the experiment next to its results, so anyone can rerun it.
    let source_copy = out.join("experiment.toml");
    fs::write(&source_copy, &experiment.text).map_err(|e| ArenaError::Io {
        path: source_copy.clone(),
        action: "write the copy of the experiment",
        error: e.to_string(),
    })?;

    let remaining: Vec<u64> = schedule
        .shard_games(shard)
        .filter(|&g| !done[g as usize])
        .collect();
    drop(done);
    // Rows already there must all precede the new ones for the file to stay in schedule order;
    // otherwise (someone edited the file) it is sorted once at the end.
    let sort_at_end = !in_order
        || remaining
            .first()
            .is_some_and(|&first| last.is_some_and(|l| l > first));

    let threads = thread_count(options.threads, experiment);
    summary.threads = threads;
    let mut writer = RowWriter::append(&csv, needs_header)?;
    let log_path = csv.with_extension("faults.log");
    let mut fault_log: Option<fs::File> = None;

    let progress = ProgressDisplay::new(options.progress, summary.games, summary.resumed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("arena-worker-{i}"))
        .build()
        .map_err(|e| ArenaError::Threads(e.to_string()))?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, Row, Option<String>)>();
    let remaining_ref = &remaining;
    let schedule_ref = &schedule;
    let result: Result<(), ArenaError> = std::thread::scope(|scope| {
        scope.spawn(|| {
            pool.scope(|workers| {
                for _ in 0..threads {
                    let sender = sender.clone();
                    let (next, stop) = (&next, &stop);
                    workers.spawn(move |_| {
                        loop {
                            if stop.load(Ordering::Relaxed) {
                                break;
                            }
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&index) = remaining_ref.get(k) else {
                                break;
                            };
                            let (row, fault) =
                                play_scheduled(experiment, &schedule_ref.game(index));
                            if sender.send((k, row, fault)).is_err() {
                                break;
                            }
                        }
                    });
                }
            });
            drop(sender);
        });
        // Write rows in schedule order: hold early finishers until their turn comes.
        let mut waiting: HashMap<usize, (Row, Option<String>)> = HashMap::new();
        let mut next_to_write = 0usize;
        for (k, row, fault) in receiver.iter() {
            waiting.insert(k, (row, fault));
            while let Some((row, fault)) = waiting.remove(&next_to_write) {
                let written = writer.write(&row).and_then(|()| {
                    if let Some(message) = fault {
                        append_fault(&log_path, &mut fault_log, &message)?;
                    }
                    Ok(())
                });
                if let Err(error) = written {
                    stop.store(true, Ordering::Relaxed);
                    return Err(error);
                }
                count_fault(&mut summary.faults, &row);
                summary.played += 1;
                next_to_write += 1;
                progress.tick(summary.resumed + summary.played);
            }
        }
        Ok(())
    });
    progress.finish();
    result?;
    drop(writer);
    if sort_at_end {
        record::sort_rows(&csv)?;
    }
    summary.wall = started.elapsed();
    Ok(summary)
}

fn append_fault(path: &Path, file: &mut Option<fs::File>, message: &str) -> Result<(), ArenaError> {
    use std::io::Write;
    if file.is_none() {
        *file = Some(
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| ArenaError::Io {
                    path: path.to_path_buf(),
                    action: "open the fault log",
                    error: e.to_string(),
                })?,
        );
    }
    let f = file.as_mut().expect("opened above");
    writeln!(f, "{message}").map_err(|e| ArenaError::Io {
        path: path.to_path_buf(),
        action: "write the fault log",
        error: e.to_string(),
    })
}

/// The progress display: an indicatif bar on a terminal, plain lines otherwise.
struct ProgressDisplay {
    bar: Option<indicatif::ProgressBar>,
    plain: bool,
    total: u64,
    start_done: u64,
    started: Instant,
    last_line: std::cell::Cell<Instant>,
    last_tenth: std::cell::Cell<u64>,
}

impl ProgressDisplay {
    fn new(mode: Progress, total: u64, done: u64) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let bar = (mode == Progress::Auto && terminal).then(|| {
            let bar = indicatif::ProgressBar::new(total);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}",
                )
                .expect("a valid template"),
            );
            bar.set_position(done);
            bar
        });
        ProgressDisplay {
            bar,
            plain: mode == Progress::Auto && !terminal,
            total,
            start_done: done,
            started: Instant::now(),
            last_line: std::cell::Cell::new(Instant::now()),
            last_tenth: std::cell::Cell::new(done * 10 / total.max(1)),
        }
    }

    fn tick(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        } else if self.plain {
            let tenth = done * 10 / self.total.max(1);
            let now = Instant::now();
            if tenth > self.last_tenth.get()
                || now.duration_since(self.last_line.get()) >= Duration::from_secs(5)
                || done == self.total
            {
                self.last_tenth.set(tenth);
                self.last_line.set(now);
                let elapsed = self.started.elapsed().as_secs_f64();
                let rate = (done - self.start_done) as f64 / elapsed.max(1e-9);
                let left = self.total - done;
                let eta = if rate > 0.0 { left as f64 / rate } else { 0.0 };
                eprintln!(
                    "progress: {done}/{} games ({:.0}%), {rate:.1} games/s, ETA {eta:.0} s",
                    self.total,
                    100.0 * done as f64 / self.total.max(1) as f64
                );
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The number of games per variant and pair, for `--dry-run`.
pub fn schedule_table(experiment: &Experiment) -> Vec<(String, String, String, u64)> {
    let schedule = Schedule::new(experiment);
    schedule
        .pairings()
        .iter()
        .map(|p| {
            (
                experiment.variants[p.variant].to_string(),
                experiment.agents[p.a].name.clone(),
                experiment.agents[p.b].name.clone(),
                p.games,
            )
        })
        .collect()
}

/// The agents of `experiment` that take part in no pairing of `variant`.
pub fn idle_agents(experiment: &Experiment, variant: &Variant) -> Vec<String> {
    experiment
        .agents
        .iter()
        .filter(|a| !a.plays(variant))
        .map(|a| a.name.clone())
        .collect()
}
