//! Reads the arena's game CSVs and writes a report: standings, Elo ratings with 95%
//! confidence intervals, head-to-head tables, timing, and charts (SVG and PNG).
//!
//! Games are folded into totals as they are read ([`Report`]); [`Report::analyse`] rates every
//! variant, and every variant together as the pool [`ALL_POOL`]; [`Report::write`] also writes
//! the files:
//!
//! | file | what |
//! | --- | --- |
//! | `ratings.csv` | `variant,agent,elo,elo_low,elo_high,games,score,wins,draws,losses` |
//! | `standings.csv` | standings per pool: W/D/L, score %, 3/1/0 points, Elo, interval, faults |
//! | `report.md` | every table, the charts, and the method |
//! | `elo-POOL.svg/.png` | Elo with 95% error bars, one chart per variant (and `all` when there are several) |
//! | `head-to-head-POOL.svg/.png` | score % heatmap, one per variant (and `all` likewise) |
//! | `time-per-move.svg/.png` | mean ms per move against board size, log-log |
//! | `elo-vs-budget-VARIANT.svg/.png` | Elo against search budget, where a family has several |
//!
//! PNGs are [`CHART_SIZE`] pixels; text is drawn with the DejaVu Sans font built into the
//! binary, so no system font is needed.
//!
//! # Example
//!
//! ```
//! use report::{Options, Report};
//!
//! let csv = "\
//! experiment,variant,game,seed,first,second,result,termination,plies,first_score,second_score,first_ms,second_ms,first_max_ms,second_max_ms,first_nodes,second_nodes,moves,first_spec,second_spec
//! demo,mnk-3x3k3,0,1,strong,weak,1-0,win,5,,,1.5,0.2,0.5,0.1,900,0,a1 b1 a2 b2 a3,alphabeta:depth=4,random
//! demo,mnk-3x3k3,1,2,weak,strong,0-1,win,6,,,0.3,1.2,0.1,0.4,0,800,a1 b1 a2 b2 c1 b3,random,alphabeta:depth=4
//! demo,mnk-3x3k3,2,3,strong,weak,1/2-1/2,draw,9,,,2.0,0.3,0.5,0.1,1000,0,a1 b1 a2 b2 c1 b3 c2 c3 a3,alphabeta:depth=4,random
//! demo,mnk-3x3k3,3,4,weak,strong,1-0,win,7,,,0.4,1.1,0.1,0.4,0,700,a1 b1 a2 b2 a3 b3 c3,random,alphabeta:depth=4
//! ";
//! let games = Report::from_csv_reader("demo.csv", csv.as_bytes())?;
//! let summary = games.analyse(&Options::default().with_bootstrap(200))?;
//!
//! let pool = summary.pool("mnk-3x3k3").expect("the variant was played");
//! let strong = pool.standing("strong").expect("strong played");
//! // 2 wins, 1 draw, 1 loss: a 62.5% score, so strong is rated above weak.
//! assert_eq!((strong.wins, strong.draws, strong.losses), (2, 1, 1));
//! assert!(strong.elo > 0.0);
//! let (low, high) = strong.interval.expect("bootstrap was on");
//! assert!(low <= strong.elo && strong.elo <= high);
//! # Ok::<(), report::Error>(())
//! ```
//!
//! Writing the files is `games.write(Path::new("results/demo"), &Options::default())`.
//!
//! # Method
//!
//! Ratings are the maximum-likelihood fit of the Bradley-Terry (logistic Elo) model,
//! `P(i beats j) = 1 / (1 + 10^((Rj - Ri) / 400))`, a draw counting as half a win, fitted
//! jointly over all games of a pool by Newton's method ([`elo::fit`]). Ratings have mean 0
//! unless [`Options::anchor`] fixes one agent.
//!
//! The 95% interval is a percentile bootstrap: each replicate redraws, with replacement, as
//! many games as each pairing played from that pairing's own games, and refits; the interval
//! runs from the 2.5th to the 97.5th percentile of [`Options::bootstrap`] replicates. Replicate
//! `b` of a pool draws from ChaCha8 seeded with [`Options::seed`] mixed with the pool's name,
//! stream `b`, so a report reproduces exactly whatever the number of threads.
//!
//! Agents that never met, not even through common opponents, form separate groups; each is
//! fitted on its own with mean 0, and the report says their ratings are not comparable.
//!
//! **Perfect scores.** When an agent won (or lost) every game, or some agents took every point
//! from the rest of their group, no finite maximum exists. Then, and only then, the fit adds a
//! weak prior to that group: one virtual drawn game of every agent against a phantom opponent
//! rated 0. A perfect score then gets a large but finite rating that grows with the number of
//! games, and the report marks the pool and the agents concerned. The same rule applies to
//! every bootstrap replicate. Nothing printed is ever infinite or NaN.
//!
//! Head-to-head lines follow cutechess-cli ([`elo::PairElo`]): the Elo difference implied by the
//! pair's score, its 95% error margin from the normal approximation, and the likelihood of
//! superiority `0.5·(1 + erf((W - L) / sqrt(2(W + L))))`.
#![deny(missing_docs)]

mod budget;
mod charts;
pub mod elo;
mod error;
mod games;
mod markdown;
mod ratings;
mod tables;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

pub use charts::CHART_SIZE;
pub use error::{Error, Result};
pub use games::{ALL_POOL, board_cells};
pub use ratings::{PoolRatings, Standing};

use games::{Seen, Tally, Wdl, complete_length};
use ratings::PoolGames;

/// How to rate: anchor, bootstrap count and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Fix this agent's rating in every pool it played in; other pools keep mean 0.
    pub anchor: Option<(String, f64)>,
    /// Bootstrap replicates for the 95% intervals; 0 leaves the intervals out.
    pub bootstrap: usize,
    /// Seed of the bootstrap's random draws.
    pub seed: u64,
}

impl Default for Options {
    /// No anchor, 1000 bootstrap replicates, seed 1.
    fn default() -> Self {
        Self {
            anchor: None,
            bootstrap: 1000,
            seed: 1,
        }
    }
}

impl Options {
    /// Fixes `agent`'s rating at `elo`.
    pub fn with_anchor(mut self, agent: impl Into<String>, elo: f64) -> Self {
        self.anchor = Some((agent.into(), elo));
        self
    }

    /// Sets the number of bootstrap replicates.
    pub fn with_bootstrap(mut self, replicates: usize) -> Self {
        self.bootstrap = replicates;
        self
    }

    /// Sets the bootstrap seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
}

/// The ratings of every pool, and the files written.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games read.
    pub games: u64,
    /// One entry per variant, smaller boards first (then by name), then [`ALL_POOL`].
    pub pools: Vec<PoolRatings>,
    /// The files [`Report::write`] wrote (empty after [`Report::analyse`]).
    pub files: Vec<PathBuf>,
}

impl Summary {
    /// The ratings of a variant, or of [`ALL_POOL`].
    pub fn pool(&self, name: &str) -> Option<&PoolRatings> {
        self.pools.iter().find(|p| p.pool == name)
    }
}

/// Thinking time and search effort of one agent in one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Moves made: `ceil(plies / 2)` per game as first player, `floor(plies / 2)` as second.
    pub moves: u64,
    /// Total thinking time in milliseconds.
    pub total_ms: f64,
    /// The longest single move in milliseconds.
    pub max_ms_per_move: f64,
    /// Total nodes (or simulations) searched.
    pub nodes: u64,
    /// Games lost by an illegal move, a crash or a timeout.
    pub faults: u64,
}

impl Timing {
    /// Mean milliseconds per move; `None` without moves.
    pub fn mean_ms_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.total_ms / self.moves as f64)
    }

    /// Nodes per second of thinking time; `None` when no time was measured.
    pub fn nodes_per_second(&self) -> Option<f64> {
        (self.total_ms > 0.0).then(|| self.nodes as f64 / (self.total_ms / 1e3))
    }
}

/// The games of one or more arena CSVs, folded into the totals a report needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    tally: Tally,
    /// The inputs, for the report's header.
    sources: Vec<String>,
    /// The games read so far, to refuse (or drop) one read twice.
    seen: Seen,
    /// Files whose unterminated last line was left out.
    partial: Vec<String>,
}

impl Report {
    /// Reads and merges CSV files. Their order does not matter.
    pub fn from_csv_files<P: AsRef<Path>>(paths: &[P]) -> Result<Self> {
        let mut report = Self::default();
        for path in paths {
            report.add_csv_file(path.as_ref())?;
        }
        Ok(report)
    }

    /// Reads one CSV from any reader; `name` stands for it in error messages and the report.
    pub fn from_csv_reader(name: impl AsRef<Path>, reader: impl Read) -> Result<Self> {
        let mut report = Self::default();
        report.add_csv_reader(name, reader)?;
        Ok(report)
    }

    /// Adds the games of a CSV file. On error nothing of that file is added.
    ///
    /// A last line without its newline is left out (and listed by
    /// [`Report::partial_lines_left_out`]): a run appending to the file may be writing it this
    /// very moment, and a reader takes no lock, so it never reads half a row.
    pub fn add_csv_file(&mut self, path: &Path) -> Result<()> {
        let read = |error| Error::Read {
            path: path.to_path_buf(),
            error,
        };
        let mut file = File::open(path).map_err(read)?;
        let len = file.metadata().map_err(read)?.len();
        let whole = complete_length(&mut file).map_err(read)?;
        file.seek(SeekFrom::Start(0)).map_err(read)?;
        self.add_csv_reader(path, BufReader::new(file.take(whole)))?;
        if whole < len {
            self.partial.push(path.display().to_string());
        }
        Ok(())
    }

    /// Adds the games of a CSV read from `reader`; `name` stands for it in error messages and
    /// the report. On error nothing of that CSV is added.
    pub fn add_csv_reader(&mut self, name: impl AsRef<Path>, reader: impl Read) -> Result<()> {
        let name = name.as_ref();
        let mut seen = self.seen.clone();
        let tally = Tally::read_csv(name, reader, &mut seen)?;
        self.seen = seen;
        self.tally.merge(tally);
        self.sources.push(name.display().to_string());
        Ok(())
    }

    /// Drops games read a second time (the same experiment, variant and game index), counting
    /// them ([`Report::duplicates_dropped`]), instead of refusing them with
    /// [`Error::Duplicate`]. Applies to the files added after the call.
    pub fn drop_duplicates(&mut self, drop: bool) {
        self.seen.drop = drop;
    }

    /// Games dropped as read before (see [`Report::drop_duplicates`]).
    pub fn duplicates_dropped(&self) -> u64 {
        self.seen.dropped
    }

    /// Files whose unterminated last line was left out (see [`Report::add_csv_file`]).
    pub fn partial_lines_left_out(&self) -> &[String] {
        &self.partial
    }

    /// Games read so far.
    pub fn games(&self) -> u64 {
        self.tally.games
    }

    /// The variant ids read so far, in alphabetical order.
    pub fn variants(&self) -> impl Iterator<Item = &str> {
        self.tally.variants.keys().map(String::as_str)
    }

    /// Timing of `agent` in `variant`, if it played there.
    pub fn timing(&self, variant: &str, agent: &str) -> Option<Timing> {
        let tally = self.tally.variants.get(variant)?.agents.get(agent)?;
        Some(Timing {
            moves: tally.moves,
            total_ms: tally.thinking_ns as f64 / 1e6,
            max_ms_per_move: tally.longest_move_ns as f64 / 1e6,
            nodes: tally.nodes,
            faults: tally.faults,
        })
    }

    /// Rates every variant and the pool of all variants.
    pub fn analyse(&self, options: &Options) -> Result<Summary> {
        if self.tally.games == 0 {
            return Err(Error::NoGames {
                files: self.sources_text(),
            });
        }
        let anchor = match &options.anchor {
            Some((agent, elo)) => {
                if !elo.is_finite() {
                    return Err(Error::BadAnchor {
                        agent: agent.clone(),
                        elo: *elo,
                    });
                }
                if !self.tally.specs.contains_key(agent) {
                    return Err(Error::UnknownAnchor {
                        agent: agent.clone(),
                    });
                }
                Some((agent.as_str(), *elo))
            }
            None => None,
        };
        // Small boards first: the order a reader meets the games in a course.
        let mut variants: Vec<_> = self.tally.variants.iter().collect();
        variants.sort_by_key(|(name, _)| (board_cells(name).unwrap_or(u64::MAX), *name));
        let mut pools: Vec<PoolGames> = variants
            .into_iter()
            .map(|(name, variant)| pool_games(name, std::iter::once(variant)))
            .collect();
        pools.push(pool_games(ALL_POOL, self.tally.variants.values()));
        let pools = pools
            .into_iter()
            .map(|pool| pool.rate(anchor, options.bootstrap, options.seed))
            .collect();
        Ok(Summary {
            games: self.tally.games,
            pools,
            files: Vec::new(),
        })
    }

    /// Rates the games and writes `ratings.csv`, `standings.csv`, `report.md` and the charts
    /// into `out_dir`, creating it if needed.
    pub fn write(&self, out_dir: &Path, options: &Options) -> Result<Summary> {
        let mut summary = self.analyse(options)?;
        std::fs::create_dir_all(out_dir).map_err(|error| Error::Write {
            path: out_dir.to_path_buf(),
            error,
        })?;
        let mut files = vec![
            tables::write_ratings(&out_dir.join("ratings.csv"), &summary)?,
            tables::write_standings(&out_dir.join("standings.csv"), &summary)?,
        ];
        let charts = charts::draw_all(out_dir, &self.tally, &summary, options)?;
        files.extend(charts.files());
        let markdown = out_dir.join("report.md");
        markdown::write(&markdown, self, &summary, &charts, options)?;
        files.push(markdown);
        summary.files = files;
        Ok(summary)
    }

    fn sources_text(&self) -> String {
        let mut sources = self.sources.clone();
        sources.sort();
        if sources.is_empty() {
            "no input".to_owned()
        } else {
            sources.join(", ")
        }
    }
}

/// Collects the games of some variants into one pool, agents in alphabetical order.
fn pool_games<'a>(
    name: &str,
    variants: impl Iterator<Item = &'a games::VariantTally>,
) -> PoolGames {
    let variants: Vec<_> = variants.collect();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for variant in &variants {
        for agent in variant.agents.keys() {
            index.insert(agent, 0);
        }
    }
    let agents: Vec<String> = index.keys().map(|a| (*a).to_owned()).collect();
    for (position, slot) in index.values_mut().enumerate() {
        *slot = position;
    }
    let n = agents.len();
    let mut results = vec![Wdl::default(); n * n];
    let mut faults = vec![0; n];
    for variant in &variants {
        for (first, row) in &variant.results {
            let i = index[first.as_str()];
            for (second, wdl) in row {
                let j = index[second.as_str()];
                results[i * n + j].add(*wdl);
                results[j * n + i].add(wdl.reversed());
            }
        }
        for (agent, tally) in &variant.agents {
            faults[index[agent.as_str()]] += tally.faults;
        }
    }
    PoolGames {
        pool: name.to_owned(),
        agents,
        results,
        faults,
    }
}
