//! What can go wrong while reading games or writing a report.

use std::path::PathBuf;

/// An error from reading the arena's CSV files or writing the report.
///
/// Every variant names the file involved, and for a bad row the line and the column, so
/// the message alone tells a user what to fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be opened or read.
    #[error("{}: cannot read: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error (already part of the message).
        error: std::io::Error,
    },
    /// The CSV itself is malformed (for example a row with the wrong number of fields).
    #[error("{}: line {line}: {message}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The 1-based line where the bad record starts.
        line: u64,
        /// What the CSV reader found wrong.
        message: String,
    },
    /// A row (the header included) is longer than any row of a games CSV.
    #[error(
        "{}: line {line}: a row longer than {limit} bytes: not a games CSV (the arena's rows are \
         a few KB)",
        path.display()
    )]
    RowTooLong {
        /// The file.
        path: PathBuf,
        /// The 1-based line where the row starts.
        line: u64,
        /// The longest row read, in bytes.
        limit: usize,
    },
    /// The first line is not a header of the arena's columns: not a games CSV at all.
    #[error(
        "`{}` is not a games CSV: its first line is not a header with the columns experiment, \
         variant, game, ... (give the games.csv that `arena run` writes)",
        path.display()
    )]
    NotGamesCsv {
        /// The file.
        path: PathBuf,
    },
    /// The header lacks a column the report needs.
    #[error("{}: missing column `{column}` in the header", path.display())]
    MissingColumn {
        /// The file.
        path: PathBuf,
        /// The column that is not there.
        column: &'static str,
    },
    /// A field does not hold a value of the schema.
    #[error("{}: line {line}: column `{column}`: {reason} (found {value:?})", path.display())]
    BadField {
        /// The file.
        path: PathBuf,
        /// The 1-based line of the row.
        line: u64,
        /// The column of the field.
        column: &'static str,
        /// The text found in the field.
        value: String,
        /// What was expected instead.
        reason: String,
    },
    /// A game was read twice: the same experiment, variant and game index.
    #[error(
        "{}: line {line}: game {game} of experiment `{experiment}`, variant `{variant}`, was \
         already read: the same game twice (two runs wrote into one file, or a file was given \
         twice). Pass --drop-duplicates to keep the first and drop the rest",
        path.display()
    )]
    Duplicate {
        /// The file.
        path: PathBuf,
        /// The 1-based line of the second copy.
        line: u64,
        /// The experiment column.
        experiment: String,
        /// The variant column.
        variant: String,
        /// The game index.
        game: u64,
    },
    /// The files hold no game at all, so there is nothing to rate.
    #[error("no games found in {files}")]
    NoGames {
        /// The files read, comma-separated.
        files: String,
    },
    /// Every game read is a game of an agent against itself, which says nothing of its
    /// strength: nothing to rate.
    #[error(
        "nothing to rate in {files}: all {games} games are games of an agent against itself \
         (self-play), which are left out of the ratings"
    )]
    OnlySelfPlay {
        /// The games read.
        games: u64,
        /// The files read, comma-separated.
        files: String,
    },
    /// The anchor agent played in none of the files.
    #[error("anchor agent `{agent}` played no game in the input")]
    UnknownAnchor {
        /// The name given for the anchor.
        agent: String,
    },
    /// The anchor rating is not a number within [`crate::MAX_ANCHOR_ELO`] of 0.
    #[error(
        "anchor rating for `{agent}` must be a number from -{max} to {max}, got {elo}",
        max = crate::MAX_ANCHOR_ELO
    )]
    BadAnchor {
        /// The name given for the anchor.
        agent: String,
        /// The rating given.
        elo: f64,
    },
    /// The number of bootstrap replicates is outside [`crate::BOOTSTRAP_REPLICATES`].
    #[error(
        "bootstrap replicates must be from {} to {}, got {replicates}",
        crate::BOOTSTRAP_REPLICATES.start(),
        crate::BOOTSTRAP_REPLICATES.end()
    )]
    BadBootstrap {
        /// The number given.
        replicates: usize,
    },
    /// A pool has more agents than [`crate::MAX_POOL_AGENTS`].
    #[error(
        "{location}: pool `{pool}` has more than {limit} agents: the report rates at most {limit} \
         agents in a pool (rating takes time growing like the cube of the agents: 1,000 take \
         about a minute); report on part of the games (fewer agents, or one variant)"
    )]
    TooManyAgents {
        /// Where: the file and line that brought one agent too many, or the files read.
        location: String,
        /// The variant, or `all`.
        pool: String,
        /// [`crate::MAX_POOL_AGENTS`].
        limit: usize,
    },
    /// A report file could not be written.
    #[error("{}: cannot write: {error}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The underlying I/O error (already part of the message).
        error: std::io::Error,
    },
    /// A chart could not be drawn.
    #[error("{}: cannot draw chart: {message}", path.display())]
    Chart {
        /// The chart file.
        path: PathBuf,
        /// What plotters reported.
        message: String,
    },
}

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
