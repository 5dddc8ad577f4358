//! `arena`: plays game-AI agents against each other in seeded, reproducible round-robin
//! tournaments, records every game to CSV, fits Elo ratings and draws charts.

// `unsafe_code` is denied workspace-wide and forbidden here: the exceptions are the web
// server's malloc_trim (crates/web/src/memory.rs) and the outside agents' sandbox, set up
// between fork and exec (crates/protocol/src/sandbox.rs).
#![forbid(unsafe_code)]

mod bench_cmd;
mod engine_cmd;
mod fit_cmd;
mod games_cmd;
mod play_board;
mod play_cmd;
mod play_game;
mod play_keys;
mod positions_cmd;
mod report_cmd;
mod run_cmd;
mod serve_cmd;
mod solve_cmd;
mod sprt_cmd;
mod tune_cmd;
mod verify_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Seeded, reproducible round-robin tournaments of game-AI agents on every game of the
/// registry (`arena list` names them), recorded to CSV, rated with Elo, drawn as charts.
#[derive(Debug, Parser)]
#[command(name = "arena", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Runs (or resumes) a round-robin tournament and writes games.csv and the report.
    Run(run_cmd::RunArgs),
    /// Plays in the terminal: a person against an agent, two people, or two agents.
    Play(play_cmd::PlayArgs),
    /// The web pages on a local server: play, analyse, replay, reports, a run live, statistics.
    Serve(serve_cmd::ServeArgs),
    /// Our agents as a Gomocup (piskvork) engine on stdin/stdout, for pbrain managers.
    Engine(engine_cmd::EngineArgs),
    /// Any agent behind the arena protocol (docs/src/reference/protocol.md) on stdin/stdout.
    ServeAgent(engine_cmd::ServeArgs),
    /// Writes (and with --submit, submits) Slurm job scripts that run an experiment as shards.
    Slurm(run_cmd::SlurmArgs),
    /// Ratings (Elo with 95% intervals), standings, head-to-head tables and charts from game CSVs.
    Report(report_cmd::ReportArgs),
    /// Is the candidate stronger than the baseline? Game pairs until a sequential test decides.
    Sprt(sprt_cmd::SprtArgs),
    /// Tunes an agent's numeric parameters by SPSA (theta+ against theta- in game pairs).
    Tune(tune_cmd::TuneArgs),
    /// Joins the shard CSVs of a sharded run into the games.csv of a single run.
    Merge(run_cmd::MergeArgs),
    /// Checks every recorded game against the schedule and the rules, and optionally against
    /// another run of the same experiment.
    Verify(verify_cmd::VerifyArgs),
    /// What an agent plays in a position, with its search statistics.
    Analyze(solve_cmd::AnalyzeArgs),
    /// The exact value of a position (win, draw or loss) and the moves that keep it.
    Solve(solve_cmd::SolveArgs),
    /// The games, example variant ids, and the agents with their parameters.
    #[command(after_help = "Example:\n  arena list")]
    List,
    /// Counts move sequences of each length from the start, to check the move generator.
    Perft(games_cmd::PerftArgs),
    /// Plays a move list from the start and prints the position after each move.
    Replay(games_cmd::ReplayArgs),
    /// The positions of recorded games, with their moves and results, as NumPy arrays (.npz)
    /// for learning.
    Positions(positions_cmd::PositionsArgs),
    /// The m,n,k pattern weights fitted to game results from positions files (Texel-style).
    Fit(fit_cmd::FitArgs),
    /// Throughput figures: playouts, MCTS simulations, perft, alpha-beta, TD4, the arena.
    Bench(bench_cmd::BenchArgs),
    /// Which layers of the outside agents' sandbox this kernel gives (Landlock, network,
    /// user namespaces, seccomp, rlimits, cgroup), and which `sandbox = "required"` lacks.
    #[command(after_help = "Example:\n  arena sandbox")]
    Sandbox,
}

/// Ends the program quietly when its output pipe closes (`arena list | head`), as Unix tools
/// do, instead of panicking on the next print.
/// `1 move`, `2 moves`: a count and its noun, singular for one.
pub fn plural(count: impl Into<u64>, noun: &str) -> String {
    let count = count.into();
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// Whether the signal `number` is ignored by this process (as it was started, where nothing
/// changed it since): read from `/proc/self/status` (Linux; elsewhere none is).
pub fn ignored(number: i32) -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let mask = status.lines().find_map(|l| l.strip_prefix("SigIgn:"))?;
            u64::from_str_radix(mask.trim(), 16).ok()
        })
        .is_some_and(|mask| mask >> (number - 1) & 1 == 1)
}

/// The signals that end the program (SIGINT, SIGTERM, SIGHUP), less those it was started with
/// ignored: an ignored signal stays ignored, as POSIX has it (a background job's SIGINT,
/// `nohup`'s SIGHUP).
pub struct EndingSignals(Vec<(tokio::signal::unix::Signal, i32)>);

impl EndingSignals {
    /// Listens for them from now on (inside a tokio runtime).
    pub fn listen() -> EndingSignals {
        use tokio::signal::unix::{SignalKind, signal};
        let listened = [
            (SignalKind::interrupt(), 2),
            (SignalKind::terminate(), 15),
            (SignalKind::hangup(), 1),
        ]
        .into_iter()
        .filter(|&(_, number)| !ignored(number))
        .filter_map(|(kind, number)| Some((signal(kind).ok()?, number)))
        .collect();
        EndingSignals(listened)
    }

    /// The number of the first of them to come (never, when none is listened for).
    pub async fn next(mut self) -> i32 {
        std::future::poll_fn(|context| {
            for (stream, number) in &mut self.0 {
                if stream.poll_recv(context).is_ready() {
                    return std::task::Poll::Ready(*number);
                }
            }
            std::task::Poll::Pending
        })
        .await
    }
}

/// On an ending signal, stops every outside agent and what it started, then exits as the
/// signal would have (128 plus its number). The signals are listened for on a thread of their
/// own; `arena serve` listens in its own runtime instead (it stops its server first).
fn stop_agents_on_signals() {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return;
    };
    let signals = {
        let _inside = runtime.enter();
        EndingSignals::listen()
    };
    let _ = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let number = runtime.block_on(signals.next());
            // No row after this: the games the killed agents would lose are not theirs to lose.
            arena::record::halt_writers();
            // Nor a game in progress shown on a Live page.
            arena::live::remove_files();
            protocol::orphans::end();
            std::process::exit(128 + number);
        });
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    // The orphans of our agents' helpers become ours, to be killed (Linux; elsewhere the
    // agents' process groups are all that is killed).
    let _ = protocol::orphans::adopt();
    // The commands that may start outside agents (`arena serve` listens in its own runtime);
    // the others keep the signals' default, and spare the runtime's start-up.
    if matches!(
        cli.command,
        Command::Run(_)
            | Command::Sprt(_)
            | Command::Tune(_)
            | Command::Play(_)
            | Command::Analyze(_)
            | Command::Engine(_)
            | Command::ServeAgent(_)
            | Command::Bench(_)
    ) {
        stop_agents_on_signals();
    }
    let outcome = match cli.command {
        Command::Run(args) => run_cmd::run(args),
        Command::Merge(args) => run_cmd::merge(args),
        Command::Sprt(args) => sprt_cmd::sprt(args),
        Command::Tune(args) => tune_cmd::tune(args),
        Command::Verify(args) => verify_cmd::verify(args),
        Command::Report(args) => report_cmd::run(args),
        Command::Slurm(args) => run_cmd::slurm(args),
        Command::Engine(args) => engine_cmd::engine(args),
        Command::ServeAgent(args) => engine_cmd::serve_agent(args),
        Command::Play(args) => play_cmd::play(args),
        Command::Serve(args) => serve_cmd::serve(args),
        Command::Analyze(args) => solve_cmd::analyze(args),
        Command::Solve(args) => solve_cmd::solve(args),
        Command::List => games_cmd::list(),
        Command::Perft(args) => games_cmd::perft(args),
        Command::Replay(args) => games_cmd::replay(args),
        Command::Positions(args) => positions_cmd::positions(args),
        Command::Fit(args) => fit_cmd::fit(args),
        Command::Bench(args) => bench_cmd::bench(args),
        Command::Sandbox => games_cmd::sandbox(),
    };
    protocol::orphans::end();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
