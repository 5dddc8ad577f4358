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

// `unsafe_code` is denied workspace-wide and forbidden here: the exceptions are the web
// server's malloc_trim (crates/web/src/memory.rs) and the outside agents' sandbox, set up
// between fork and exec (crates/protocol/src/sandbox.rs).
#![forbid(unsafe_code)]

pub mod admission;
pub mod checks;
mod dispatch;
mod error;
pub mod experiment;
pub mod fit;
pub mod fit_cells;
mod hash;
pub mod live;
pub mod lock;
pub mod merge;
pub mod meta;
mod names;
pub mod npz;
pub mod openings;
pub mod play;
pub mod played;
pub mod positions;
mod progress;
pub mod record;
pub mod recorded;
pub mod results;
pub mod run;
pub mod schedule;
pub mod slurm;
pub mod sprt;
pub mod submissions;
pub mod table;
pub mod tune;
pub mod verify;

pub use error::ArenaError;
pub use experiment::{AgentEntry, DEFAULT_EXPERIMENT, Experiment};
pub use lock::{WriterLock, lock_writer};
pub use merge::{MergeSummary, merge, merge_with};
pub use openings::Openings;
// The clocks a front shows (the terminal's and the web board's tables) are the arena's own.
pub use agents::clock::{Clock, ClockState, GameClock, Overrun, TimeControl};
pub use checks::check_row;
pub use play::{
    GameRecord, GameSettings, Termination, play_game, play_game_from, play_game_watched,
};
pub use progress::Progress;
pub use record::{COLUMNS, CSV_SCHEMA, Row, TIMING_COLUMNS};
pub use results::{OpenOptions, ResultsFile};
pub use run::{
    FaultReason, RunOptions, RunSummary, play_scheduled, play_scheduled_watched,
    play_scheduled_with, run, schedule_table,
};
pub use schedule::{Schedule, ScheduledGame, Shard};
pub use verify::{Comparison, VerifySummary, compare, verify};
