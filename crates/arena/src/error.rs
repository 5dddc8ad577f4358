//! What can go wrong in the arena ([`ArenaError`]), and who holds a writer lock ([`Holder`],
//! which [`ArenaError::Locked`] names; `lock` reads and writes it).

use std::path::PathBuf;

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
        holder: Holder,
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
    /// The games of a tune were recorded under another tune file (or under none that is
    /// known): its trajectory follows from its settings, which cannot change halfway.
    #[error(
        "the games in `{}` belong to {}: a tune's trajectory follows from its settings, which \
         cannot change halfway. Run with --fresh to start over (the old games are moved aside, \
         not deleted), or --out to write elsewhere",
        csv.display(),
        if *known { "another version of this tune file (tune.toml next to them differs)" } else { "a tune whose settings are not known (no tune.toml next to them)" }
    )]
    TuneChanged {
        /// The CSV.
        csv: PathBuf,
        /// Whether the recorded tune file is there.
        known: bool,
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
    /// Positions cannot be exported as asked (`arena positions`): the options or the
    /// records' variants.
    #[error("{0}")]
    Export(String),
    /// The sandbox asked for cannot hold on this kernel (`sandbox = "required"`).
    #[error("{0}")]
    Sandbox(String),
}

/// Who holds a writer lock, as its lock file says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holder {
    /// The process id, if the holder has written it yet.
    pub pid: Option<u32>,
    /// The command, like `arena run`.
    pub command: String,
    /// Whether the holder is unknown because its lock file was deleted while it held it (the
    /// games file itself is locked).
    pub lock_file_removed: bool,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.lock_file_removed {
            return write!(
                f,
                "PID unknown: its `.lock` file was deleted while it held the games file"
            );
        }
        let command = if self.command.is_empty() {
            "arena"
        } else {
            &self.command
        };
        match self.pid {
            Some(pid) => write!(f, "PID {pid}, `{command}`"),
            // Locked but not yet written: the holder is starting this very moment.
            None => write!(f, "`{command}`, PID not written yet"),
        }
    }
}
