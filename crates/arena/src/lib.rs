//! The arena: experiments, seeded round-robin scheduling, parallel play, CSV records, resume,
//! and shards that merge back into the CSV of a single run.
//!
//! An [`Experiment`] (read from TOML) names the variants, the agents and the settings. Its
//! [`Schedule`] lists every game with a seed derived from the experiment seed, the variant,
//! the pair of agents and the game's place in the pair. [`run`] plays the games that the CSV
//! does not hold yet on a pool of worker threads and appends their rows in schedule order, so
//! the CSV's content does not depend on the thread count or on interruptions.
//!
//! ```no_run
//! use arena::{Experiment, Progress, RunOptions, Shard, run};
//!
//! let experiment = Experiment::from_file("experiments/default.toml".as_ref())?;
//! let summary = run(&experiment, &RunOptions {
//!     out_dir: experiment.default_out_dir(),
//!     threads: None,
//!     fresh: false,
//!     shard: Shard::WHOLE,
//!     progress: Progress::Auto,
//! })?;
//! println!("{} games in {}", summary.played, summary.csv.display());
//! # Ok::<(), arena::ArenaError>(())
//! ```

// `unsafe_code` is denied workspace-wide and forbidden here: the one exception is the web
// server's malloc_trim (crates/web/src/memory.rs).
#![forbid(unsafe_code)]

mod dispatch;
pub mod experiment;
pub mod lock;
pub mod merge;
pub mod openings;
pub mod play;
pub mod played;
mod progress;
pub mod record;
pub mod recorded;
pub mod results;
pub mod run;
pub mod schedule;
pub mod slurm;
pub mod sprt;
pub mod table;
pub mod verify;

use std::path::PathBuf;

pub use experiment::{AgentEntry, DEFAULT_EXPERIMENT, Experiment};
pub use lock::{WriterLock, lock_writer};
pub use merge::{MergeSummary, merge, merge_with};
pub use openings::Openings;
// The clocks a front shows (the terminal's and the web board's tables) are the arena's own.
pub use agents::clock::{Clock, ClockState, GameClock, Overrun, TimeControl};
pub use play::{GameRecord, GameSettings, Termination, play_game, play_game_from};
pub use record::{COLUMNS, CSV_SCHEMA, Row, TIMING_COLUMNS};
pub use results::{OpenOptions, ResultsFile};
pub use run::{
    FaultReason, Progress, RunOptions, RunSummary, play_scheduled, play_scheduled_with, run,
    schedule_table,
};
pub use schedule::{Schedule, ScheduledGame, Shard};
pub use verify::{Comparison, VerifySummary, check_row, compare, verify};

/// What can go wrong in the arena. Every message names the file and what is wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArenaError {
    /// The experiment file is invalid.
    #[error("{source_name}{}{}: {message}", location.map(|(l, c)| format!(":{l}:{c}")).unwrap_or_default(), if key.is_empty() { String::new() } else { format!(": key `{key}`") })]
    Experiment {
        /// The file (or "built in").
        source_name: String,
        /// The key at fault, like `agents[2].spec` (empty when the parser does not say).
        key: String,
        /// 1-based line and column, where known.
        location: Option<(usize, usize)>,
        /// What is wrong and what is expected.
        message: String,
    },
    /// A file could not be read or written.
    #[error("cannot {action} `{}`: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// The system's message.
        error: String,
    },
    /// A CSV row or header does not parse.
    #[error("{}:{line}: {message}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// The 1-based line (0 when unknown).
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// The CSV belongs to another version of the experiment.
    #[error(
        "`{}` was recorded for another version of this experiment (hash {recorded}, now {current}): \
         the schedule or the settings changed. Run with --fresh to start over (the old CSV is \
         moved aside, not deleted) or with --out to write elsewhere",
        csv.display()
    )]
    ExperimentChanged {
        /// The CSV.
        csv: PathBuf,
        /// The hash its meta file records.
        recorded: String,
        /// The current experiment's hash.
        current: String,
    },
    /// A CSV without the meta file that says which experiment wrote it.
    #[error(
        "`{}` exists but has no arena meta file next to it (or no arena header), so it may \
         belong to something else: move it away, or run with --fresh to move it aside",
        csv.display()
    )]
    ForeignCsv {
        /// The CSV.
        csv: PathBuf,
    },
    /// Shards that do not merge.
    #[error("cannot merge `{}`: {message}", dir.display())]
    Merge {
        /// The folder.
        dir: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The worker pool could not start.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    /// Another process is writing the same results file.
    #[error(
        "`{}` is being written by another arena process ({holder}): one writer per results \
         file. Wait for it to end (readers such as `arena report` need not), or write \
         elsewhere with --out",
        target.display()
    )]
    Locked {
        /// The file both wanted to write.
        target: PathBuf,
        /// Who holds the lock, as its lock file says.
        holder: lock::Holder,
    },
    /// A recorded row is not the game the schedule says, or its moves do not replay to it.
    #[error("{}:{line}: game {game}: column `{column}` {problem}", path.display())]
    Mismatch {
        /// The CSV.
        path: PathBuf,
        /// The 1-based line of the row.
        line: u64,
        /// The row's game index.
        game: u64,
        /// The column at fault.
        column: &'static str,
        /// What is wrong: what the row holds and what it should.
        problem: String,
    },
    /// The games of a sequential match were recorded under another test (or under none that
    /// is known): its error rates hold only with the bounds it started with.
    #[error(
        "the games in `{}` belong to {}: a sequential test's error rates hold only with the \
         bounds it started with. Run with --fresh to start over (the old games are moved aside, \
         not deleted), or --out to write elsewhere",
        csv.display(),
        match recorded {
            Some(text) => format!("another test ({text})"),
            None => "a test whose settings are not known (no sprt.toml next to them)".to_string(),
        }
    )]
    TestChanged {
        /// The CSV.
        csv: PathBuf,
        /// The recorded test's settings, one line, if its file is there.
        recorded: Option<String>,
    },
    /// An outside agent failed the check before the first game: it cannot start, does not
    /// speak its protocol, or refuses a variant it is to play.
    #[error("agent `{agent}` ({spec}) cannot play: {message}")]
    Setup {
        /// The agent's name in the experiment.
        agent: String,
        /// Its spec.
        spec: String,
        /// What went wrong.
        message: String,
    },
    /// The sandbox asked for cannot hold on this kernel (`sandbox = "required"`).
    #[error("{0}")]
    Sandbox(String),
}
