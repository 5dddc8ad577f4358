//! Running an experiment: resume from what the CSV holds, play the rest in parallel, write
//! rows in schedule order as they complete.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use agents::AgentGame;
use protocol::Roster;
use rules::Variant;

use crate::dispatch::Dispatch;
use crate::experiment::Experiment;
use crate::experiment::MAX_THREADS;
use crate::live::Board;
use crate::play::{GameSettings, play_game_watched};
use crate::progress::Progress;
use crate::progress::{Estimate, ProgressDisplay};
use crate::record::Row;
use crate::results::{OpenOptions, ResultsFile};
use crate::schedule::{Schedule, ScheduledGame, Shard, position_in_shard};
use crate::{ArenaError, Termination};

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
    /// Faults per agent over the whole CSV: (crash, illegal-move, timeout); a game lost to a
    /// sandbox's limit (`memory-limit`, ...) counts as a crash, its reason names the limit.
    pub faults: BTreeMap<String, [u64; 3]>,
    /// Why, per agent: each kind of fault (its message with the numbers taken out) with a
    /// count and the first message of its kind, from the fault log.
    pub fault_reasons: BTreeMap<String, Vec<FaultReason>>,
    /// The layers of the sandbox its outside agents ran without (`sandbox = "best-effort"` on
    /// a kernel that lacks them, or layers turned off); empty with no outside agent.
    pub sandbox_missing: Vec<String>,
}

/// One kind of fault of one agent, for the end-of-run summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultReason {
    /// Games lost this way.
    pub count: u64,
    /// The termination and the first message of this kind: `timeout: no move within 500 ms ...`.
    pub example: String,
}

/// The number of worker threads: `requested`, else `SLURM_CPUS_PER_TASK`, else the
/// experiment's `threads`, else all cores; at most [`MAX_THREADS`].
pub fn thread_count(requested: Option<usize>, experiment: &Experiment) -> usize {
    let all = || std::thread::available_parallelism().map_or(1, |n| n.get());
    let count = requested
        .filter(|&n| n > 0)
        .or_else(|| {
            std::env::var("SLURM_CPUS_PER_TASK")
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok())
                .filter(|&n| n > 0)
        })
        .or((experiment.threads > 0).then_some(experiment.threads))
        .unwrap_or_else(all);
    count.min(MAX_THREADS)
}

/// Reads a `--threads` value: 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a thread count: give 1 to {MAX_THREADS} (the workers play games \
             side by side; more threads than cores only wait)"
        )),
    }
}

/// Plays one scheduled game and returns its row. The same game always gives the same row
/// outside the timing columns, whatever else is played around it.
pub fn play_scheduled(experiment: &Experiment, game: &ScheduledGame) -> (Row, Option<String>) {
    play_scheduled_with(experiment, game, &experiment.roster())
}

/// [`play_scheduled`] with the agents built by `roster` (which keeps outside processes
/// between games and says where their stderr goes).
pub fn play_scheduled_with(
    experiment: &Experiment,
    game: &ScheduledGame,
    roster: &Roster,
) -> (Row, Option<String>) {
    play_scheduled_watched(experiment, game, roster, &mut |_| {})
}

/// [`play_scheduled_with`], telling `watch` the moves so far after each move
/// ([`crate::play::play_game_watched`]).
pub fn play_scheduled_watched(
    experiment: &Experiment,
    game: &ScheduledGame,
    roster: &Roster,
    watch: &mut dyn FnMut(&[String]),
) -> (Row, Option<String>) {
    let variant = &experiment.variants[game.variant];
    rules::with_game!(variant, |start| play_typed(
        experiment, game, &start, roster, watch
    ))
}

fn play_typed<G: AgentGame>(
    experiment: &Experiment,
    game: &ScheduledGame,
    start: &G,
    roster: &Roster,
    watch: &mut dyn FnMut(&[String]),
) -> (Row, Option<String>) {
    let seated: Vec<&crate::experiment::AgentEntry> =
        game.seats.iter().map(|&i| &experiment.agents[i]).collect();
    let time_control = experiment.games_time_control();
    let settings = GameSettings {
        max_plies: experiment.max_plies,
        opening_plies: experiment.opening_plies,
        move_time: time_control.per_move,
        clock: time_control.clock,
    };
    let players = seated.len();
    let mut built = Vec::with_capacity(players);
    let mut failed = None;
    for (seat, entry) in seated.iter().enumerate() {
        match roster.build_for::<G>(&entry.name, &entry.spec, players) {
            Ok(agent) => built.push(agent),
            Err(error) => {
                failed = Some((rules::Player::seat(seat), error));
                break;
            }
        }
    }
    let record = match failed {
        None => {
            let mut seats: Vec<&mut dyn agents::Agent<G>> = Vec::with_capacity(players);
            for agent in built.iter_mut() {
                seats.push(agent.as_mut());
            }
            // The suite's opening of this block, if the experiment has a suite.
            let opening = game.suite_opening(experiment, start);
            play_game_watched(
                start,
                &opening,
                &mut seats,
                game.seed,
                game.opening_seed,
                settings,
                watch,
            )
        }
        // Specs were checked when the experiment was read (and outside commands before the
        // run): an agent that still cannot be built loses the game as a crash.
        Some((seat, error)) => crate::play::forfeit(start, seat, error.to_string()),
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let row_seat = |seat: usize| seated.get(seat).map(|entry| entry.name.clone());
    let spec_of = |seat: usize| seated.get(seat).map(|entry| entry.spec.to_string());
    let extra = |seat: usize| players > seat;
    let total = |seat: usize| record.totals.as_ref().and_then(|t| t.get(seat).copied());
    let mut row = Row {
        experiment: experiment.name.clone(),
        variant: experiment.variants[game.variant].to_string(),
        game: game.index,
        seed: game.seed,
        first: seated[0].name.clone(),
        second: seated[1].name.clone(),
        result: record.outcome.result_text().into_owned(),
        termination: record.termination.as_str().to_string(),
        plies: record.plies,
        first_score: total(0),
        second_score: total(1),
        first_ms: ms(record.time[0]),
        second_ms: ms(record.time[1]),
        first_max_ms: ms(record.max_time[0]),
        second_max_ms: ms(record.max_time[1]),
        first_nodes: record.nodes[0],
        second_nodes: record.nodes[1],
        moves: record.moves.join(" "),
        first_spec: seated[0].spec.to_string(),
        second_spec: seated[1].spec.to_string(),
        // Two-player rows leave it empty: `Row::seats` reads that as 2 in both schemas.
        players: (players > 2).then_some(players as u8),
        // Schema 3 (an experiment with `tc`/`st`): the time control and the clocks left.
        time_control: experiment.time_control.map(|tc| tc.to_string()),
        first_clock_ms: record.clock_left[0].map(ms),
        second_clock_ms: record.clock_left[1].map(ms),
        third_clock_ms: record.clock_left[2].map(ms),
        fourth_clock_ms: record.clock_left[3].map(ms),
        ..Row::default()
    };
    for seat in 2..players.min(4) {
        let (name, spec, score, time, max, nodes) = if seat == 2 {
            (
                &mut row.third,
                &mut row.third_spec,
                &mut row.third_score,
                &mut row.third_ms,
                &mut row.third_max_ms,
                &mut row.third_nodes,
            )
        } else {
            (
                &mut row.fourth,
                &mut row.fourth_spec,
                &mut row.fourth_score,
                &mut row.fourth_ms,
                &mut row.fourth_max_ms,
                &mut row.fourth_nodes,
            )
        };
        if extra(seat) {
            *name = row_seat(seat);
            *spec = spec_of(seat);
            *score = total(seat);
            *time = Some(ms(record.time[seat]));
            *max = Some(ms(record.max_time[seat]));
            *nodes = Some(record.nodes[seat]);
        }
    }
    let fault = record.fault.as_ref().map(|message| {
        let loser = row
            .faulting_seat()
            .and_then(|seat| seated.get(seat))
            .map_or("?", |entry| entry.name.as_str());
        fault_line(
            game.index,
            &experiment.variants[game.variant].to_string(),
            loser,
            record.termination.as_str(),
            message,
        )
    });
    (row, fault)
}

/// A line of the fault log: `game 12 (mnk-5x5k4): `algo1` timeout: no move within ...`.
fn fault_line(game: u64, variant: &str, loser: &str, termination: &str, message: &str) -> String {
    format!("game {game} ({variant}): `{loser}` {termination}: {message}")
}

/// One line of a run's fault log (`games.faults.log`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultEntry {
    /// The game's index.
    pub game: u64,
    /// Its variant.
    pub variant: String,
    /// The agent that lost it by the fault.
    pub agent: String,
    /// The termination (`crash`, `illegal-move`, `timeout`, or a sandbox's `memory-limit`,
    /// `cpu-limit`, `forbidden-call`, `output-limit`).
    pub termination: String,
    /// Why (a sandbox's verdict first where one stopped it).
    pub message: String,
}

/// The faults in the fault log at `path` of a run whose agents are `agents` (lines that name
/// none of them are left out); none when there is no log.
pub fn read_fault_log(path: &Path, agents: &[String]) -> Vec<FaultEntry> {
    let Ok(text) = fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("game ")?;
            let (game, rest) = rest.split_once(" (")?;
            let (variant, _) = rest.split_once("): `")?;
            let (agent, after) = split_fault_line(line, agents.iter().map(String::as_str))?;
            let (termination, message) = after.split_once(": ")?;
            Some(FaultEntry {
                game: game.parse().ok()?,
                variant: variant.to_string(),
                agent: agent.to_string(),
                termination: termination.to_string(),
                message: message.to_string(),
            })
        })
        .collect()
}

/// The agent (one of `names`) and the `termination: message` of a fault-log line
/// ([`fault_line`]'s format).
fn split_fault_line<'a>(
    line: &'a str,
    mut names: impl Iterator<Item = &'a str>,
) -> Option<(&'a str, &'a str)> {
    names.find_map(|name| {
        let marker = format!("): `{name}` ");
        let at = line.find(&marker)?;
        Some((name, &line[at + marker.len()..]))
    })
}

/// The agent and `termination: message` of a fault-log line, for the agents of `experiment`.
fn parse_fault_line<'a>(experiment: &'a Experiment, line: &'a str) -> Option<(&'a str, &'a str)> {
    split_fault_line(line, experiment.agents.iter().map(|a| a.name.as_str()))
}

/// Adds one fault to the reasons: faults whose messages differ only in their numbers (times,
/// moves as coordinates, exit codes) are of one kind.
fn add_reason(reasons: &mut BTreeMap<String, Vec<FaultReason>>, agent: &str, reason: &str) {
    // What an outside agent's fault message adds after the reason (its last stderr line, where
    // its log is) varies from game to game; the kind is the reason.
    let kind = |text: &str| -> String {
        let reason = text.split("; its last stderr line").next().unwrap_or(text);
        let reason = reason.split(" (its stderr is in").next().unwrap_or(reason);
        reason
            .chars()
            .map(|c| if c.is_ascii_digit() { '0' } else { c })
            .collect()
    };
    let list = reasons.entry(agent.to_string()).or_default();
    let key = kind(reason);
    match list.iter_mut().find(|r| kind(&r.example) == key) {
        Some(found) => found.count += 1,
        None => list.push(FaultReason {
            count: 1,
            example: reason.to_string(),
        }),
    }
}

fn count_fault(faults: &mut BTreeMap<String, [u64; 3]>, row: &Row) {
    let Some(termination) = Termination::parse(&row.termination) else {
        return;
    };
    let slot = match termination {
        Termination::Crash
        | Termination::MemoryLimit
        | Termination::CpuLimit
        | Termination::ForbiddenCall
        | Termination::OutputLimit => 0,
        Termination::IllegalMove => 1,
        Termination::Timeout => 2,
        _ => return,
    };
    let names = row.seat_names();
    if let Some(loser) = row.faulting_seat().and_then(|seat| names.get(seat)) {
        faults.entry((*loser).to_string()).or_default()[slot] += 1;
    }
}

/// Runs (or resumes) `experiment` into `options.out_dir`.
///
/// Takes the writer lock on the CSV first ([`crate::lock::lock_writer`]): a second run into
/// the same file fails at once. Every row already recorded is checked against the schedule
/// and replayed under the rules ([`crate::checks::check_row`]) before anything is played.
/// Memory does not grow with the number of games: the games left are generated one by one
/// from the schedule, and what is recorded is kept as ranges of game indices.
pub fn run(experiment: &Experiment, options: &RunOptions) -> Result<RunSummary, ArenaError> {
    let started = Instant::now();
    if experiment.submissions.is_some() {
        return Err(ArenaError::Experiment {
            source_name: experiment.source.clone(),
            key: "submissions".into(),
            location: None,
            message: "a class's submissions are built and checked before the run: play it with \
                      `arena run` (or `arena::admission::admit` first)"
                .into(),
        });
    }
    let schedule = Schedule::new(experiment);
    let shard = options.shard;
    let out = &options.out_dir;
    create_out_dir(out)?;
    let csv = out.join(shard.csv_name());
    let mut file = ResultsFile::open(
        &csv,
        experiment,
        &OpenOptions {
            fresh: options.fresh,
            ..OpenOptions::new("arena run")
        },
    )?;
    let mut summary = RunSummary {
        csv: csv.clone(),
        games: schedule.shard_len(shard),
        moved_aside: file.moved_aside.clone(),
        cut_partial_line: file.cut_partial_line,
        ..RunSummary::default()
    };
    let log_path = csv.with_extension("faults.log");
    let agent_logs = csv.with_extension("logs");
    let roster = experiment.roster().with_log_folder(&agent_logs);

    // What is recorded already, as positions within the shard: every row checked.
    let threads = thread_count(options.threads, experiment);
    let mut estimate = Estimate::new(experiment, &schedule, shard, threads);
    let checked = file.check_rows(experiment, &schedule, shard, |_, row, game| {
        summary.resumed += 1;
        count_fault(&mut summary.faults, row);
        // Recorded games price the pairings ahead for the time estimate.
        estimate.recorded(schedule.pairing_of(row.game), game, row);
        Ok(())
    })?;
    let (recorded, in_order, last) = (checked.recorded, checked.in_order, checked.last);
    // The reasons of the faults already recorded.
    if summary.resumed > 0
        && let Ok(text) = fs::read_to_string(&log_path)
    {
        for (agent, reason) in text.lines().filter_map(|l| parse_fault_line(experiment, l)) {
            add_reason(&mut summary.fault_reasons, agent, reason);
        }
    }
    let any_left = recorded.len() < summary.games;
    if any_left {
        summary.sandbox_missing = check_sandbox(experiment)?;
        preflight(experiment, &roster)?;
    }
    let mut writer = file.begin(experiment, &schedule, shard, &summary.sandbox_missing)?;

    // The games left, generated lazily in schedule order.
    let recorded_ref = &recorded;
    let mut remaining = schedule
        .shard_games(shard)
        .filter(move |&g| !recorded_ref.contains(position_in_shard(g, shard)))
        .peekable();
    // Rows already there must all precede the new ones for the file to stay in schedule order;
    // otherwise (someone edited the file) it is sorted once at the end.
    let sort_at_end = !in_order
        || remaining
            .peek()
            .is_some_and(|&first| last.is_some_and(|l| l > first));

    summary.threads = threads;
    let mut fault_log: Option<fs::File> = None;

    let mut progress = ProgressDisplay::new(options.progress, summary.games, summary.resumed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("arena-worker-{i}"))
        .build()
        .map_err(|e| ArenaError::Threads(e.to_string()))?;
    // Workers take games in schedule order (`k` numbers them in that order for the writer),
    // never more than a window ahead of the writer, so finished rows waiting their turn stay
    // few whatever the games cost.
    let dispatch = Dispatch::new(
        remaining,
        WRITER_WINDOW + WRITER_WINDOW_PER_THREAD * threads as u64,
    );
    let (sender, receiver) = mpsc::channel::<Finished>();
    let schedule_ref = &schedule;
    let roster_ref = &roster;
    // The games in progress, in a file beside the CSV for `arena serve` (`live.rs`); its
    // thread stops, and removes the file, when the scope ends however it ends.
    let board = Board::new(threads);
    let board_ref = &board;
    let (stop_live, live_stop) = mpsc::channel::<()>();
    let csv_ref = &csv;
    let result: Result<(), ArenaError> = std::thread::scope(|scope| {
        scope.spawn(move || board_ref.keep_written(csv_ref, live_stop));
        let _stop_live = stop_live;
        scope.spawn(|| {
            pool.scope(|workers| {
                for _ in 0..threads {
                    let sender = sender.clone();
                    let dispatch = &dispatch;
                    workers.spawn(move |_| {
                        let worker = rayon::current_thread_index().unwrap_or(usize::MAX);
                        while let Some((k, index)) = dispatch.take() {
                            let game = schedule_ref.game(index);
                            let clock = Instant::now();
                            board_ref.begin(
                                worker,
                                game.index,
                                experiment.variants[game.variant].to_string(),
                                game.seats
                                    .iter()
                                    .map(|&a| experiment.agents[a].name.clone())
                                    .collect(),
                            );
                            let (row, fault) = play_scheduled_watched(
                                experiment,
                                &game,
                                roster_ref,
                                &mut |moves| board_ref.moved(worker, moves),
                            );
                            board_ref.end(worker);
                            let finished = Finished {
                                k,
                                game,
                                row,
                                fault,
                                wall: clock.elapsed(),
                            };
                            if sender.send(finished).is_err() {
                                break;
                            }
                        }
                    });
                }
            });
            drop(sender);
        });
        // Write rows in schedule order: hold early finishers until their turn comes.
        let mut waiting: HashMap<u64, Finished> = HashMap::new();
        let mut next_to_write = 0u64;
        for finished in receiver.iter() {
            waiting.insert(finished.k, finished);
            while let Some(done) = waiting.remove(&next_to_write) {
                let written = writer.write(&done.row).and_then(|()| {
                    if let Some(message) = &done.fault {
                        append_fault(&log_path, &mut fault_log, message)?;
                    }
                    Ok(())
                });
                if let Err(error) = written {
                    dispatch.stop();
                    return Err(error);
                }
                count_fault(&mut summary.faults, &done.row);
                if let Some((agent, reason)) = done
                    .fault
                    .as_deref()
                    .and_then(|l| parse_fault_line(experiment, l))
                {
                    add_reason(&mut summary.fault_reasons, agent, reason);
                }
                summary.played += 1;
                next_to_write += 1;
                dispatch.written(next_to_write);
                let pairing = schedule_ref.pairing_of(done.game.index);
                estimate.played(pairing, &done.game, &done.row, done.wall);
                progress.tick(summary.resumed + summary.played, &estimate);
            }
        }
        Ok(())
    });
    progress.finish();
    // Outside processes kept between games stop now, not when the caller drops the summary.
    drop(roster);
    result?;
    drop(writer);
    if sort_at_end {
        file.sort()?;
    }
    summary.wall = started.elapsed();
    Ok(summary)
}

/// How far ahead of the writer workers may take games: this many, plus
/// [`WRITER_WINDOW_PER_THREAD`] per worker (see [`Dispatch`]).
const WRITER_WINDOW: u64 = 256;
/// See [`WRITER_WINDOW`].
const WRITER_WINDOW_PER_THREAD: u64 = 64;

/// A game a worker finished, on its way to the writer.
struct Finished {
    /// Its place among the games this run plays, in schedule order.
    k: u64,
    game: ScheduledGame,
    row: Row,
    fault: Option<String>,
    /// The worker's wall time for the game.
    wall: Duration,
}

/// The sandbox's layers missing for the outside agents of `experiment` (none without one);
/// `sandbox = "required"` with one missing is an error that names it.
pub(crate) fn check_sandbox(experiment: &Experiment) -> Result<Vec<String>, ArenaError> {
    if !experiment
        .agents
        .iter()
        .any(|a| protocol::is_outside(&a.spec))
    {
        return Ok(Vec::new());
    }
    experiment
        .sandbox
        .check()
        .map_err(|missing| ArenaError::Sandbox(missing.to_string()))
}

/// Checks every outside agent of `experiment` before the first game: its command starts, it
/// answers the protocol's handshake and accepts each variant it is to play. A failure is a
/// setup error that names the agent, not a game result.
pub(crate) fn preflight(experiment: &Experiment, roster: &Roster) -> Result<(), ArenaError> {
    for agent in experiment
        .agents
        .iter()
        .filter(|a| protocol::is_outside(&a.spec))
    {
        preflight_agent(experiment, roster, agent)?;
    }
    Ok(())
}

/// The pre-flight check of one agent of `experiment` ([`preflight`]).
pub(crate) fn preflight_agent(
    experiment: &Experiment,
    roster: &Roster,
    agent: &crate::experiment::AgentEntry,
) -> Result<(), ArenaError> {
    let variants: Vec<Variant> = experiment
        .variants
        .iter()
        .filter(|v| agent.plays(v))
        .copied()
        .collect();
    protocol::preflight_in(
        &agent.spec,
        &variants,
        roster.stderr_of(&agent.name),
        experiment.games_time_control(),
        roster.folder(),
        roster.sandbox(),
    )
    .map_err(|error| {
        let advice = match error {
            protocol::SetupError::Refused { .. } => {
                "; leave the variant out of this agent's `variants` list in the experiment"
            }
            _ => "",
        };
        ArenaError::Setup {
            agent: agent.name.clone(),
            spec: agent.spec.to_string(),
            message: format!("{error}{advice}"),
        }
    })
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

/// The number of games per variant and group of agents (a pair, or 3 or 4 agents), for
/// `--dry-run`: (variant index, the agents' names, games), made one by one in schedule order
/// (an experiment of thousands of agents has millions of groups).
pub fn schedule_table(
    experiment: &Experiment,
) -> impl Iterator<Item = (usize, Vec<String>, u64)> + '_ {
    let schedule = Schedule::new(experiment);
    (0..schedule.pairing_count()).map(move |number| {
        let p = schedule.pairing(number);
        (
            p.variant,
            p.agents
                .iter()
                .map(|&a| experiment.agents[a].name.clone())
                .collect(),
            p.games,
        )
    })
}

/// The games and groups of each variant of `experiment`, in its order.
pub fn variant_totals(experiment: &Experiment) -> Vec<(u64, u64)> {
    let schedule = Schedule::new(experiment);
    (0..experiment.variants.len())
        .map(|v| {
            let games = schedule.variant_games(v);
            let per_group = match experiment.variants[v].players() {
                2 => experiment.games_per_pair,
                n => experiment.games_per_pair * n as u64,
            };
            (
                games.end - games.start,
                (games.end - games.start) / per_group,
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

/// Makes the run's output folder (and its parents) where it does not exist.
pub(crate) fn create_out_dir(out: &Path) -> Result<(), ArenaError> {
    fs::create_dir_all(out).map_err(|e| ArenaError::Io {
        path: out.to_path_buf(),
        action: "create the output folder",
        error: e.to_string(),
    })
}
