//! Reads the arena's game CSVs and writes a report: standings, Elo ratings with 95%
//! confidence intervals, head-to-head tables with game pairs, timing, and charts (SVG and
//! PNG); and the statistics of a sequential test of one agent against another ([`sprt`]).
//!
//! Games are folded into totals as they are read ([`Report`]); [`Report::analyse`] rates every
//! variant, and, when there are several, every variant together as the pool [`ALL_POOL`] with a
//! test of whether one strength per agent fits them all ([`Consistency`]); [`Report::write`]
//! also writes the files:
//!
//! | file | what |
//! | --- | --- |
//! | `ratings.csv` | `variant,agent,elo,elo_low,elo_high,games,score,wins,draws,losses,group,tier,estimate,interval` |
//! | `standings.csv` | standings per pool: W/D/L, score %, 3/1/0 points, Elo, interval, faults, group, tier, N-player places |
//! | `report.md` | every table, the charts, and the method |
//! | `elo-POOL.svg/.png` | Elo with 95% error bars, one chart per variant (and `all` when there are several) |
//! | `head-to-head-POOL.svg/.png` | score % heatmap, one per variant (and `all` likewise) |
//! | `places-VARIANT.svg/.png` | the place distribution of each agent, per variant with N-player games |
//! | `time-per-move.svg/.png` | mean ms per move: m,n,k against board size (log-log), every other variant in a column of its own |
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
//! let summary = games.analyse(&Options::default())?;
//!
//! let pool = summary.pool("mnk-3x3k3").expect("the variant was played");
//! let strong = pool.standing("strong").expect("strong played");
//! // 2 wins, 1 draw, 1 loss: a 62.5% score, so strong is rated above weak.
//! assert_eq!((strong.wins, strong.draws, strong.losses), (2, 1, 1));
//! assert!(strong.elo > 0.0 && strong.finite);
//! let interval = strong.interval.expect("intervals are on by default");
//! assert!(interval.contains(strong.elo));
//! # Ok::<(), report::Error>(())
//! ```
//!
//! Writing the files is `games.write(Path::new("results/demo"), &Options::default())`.
//!
//! # Method
//!
//! Ratings are the maximum-likelihood fit of the Bradley-Terry (logistic Elo) model,
//! `P(i beats j) = 1 / (1 + 10^((Rj - Ri) / 400))`, a draw counting as half a win, fitted
//! jointly over all games of a pool by Newton's method ([`elo::fit`]). Ratings have mean 0 in
//! each group of agents that met, unless [`Options::anchor`] fixes one agent, which moves only
//! its own group.
//!
//! Where the games of a group have no finite maximum (some agents took every point from the
//! rest, with or without a perfect score), the group splits into tiers: each keeps the
//! maximum-likelihood differences of its own games, and only the gaps between tiers come from
//! a weak prior (see [`elo`]); agents of such groups are marked, the gaps get 95% lower bounds,
//! and interval ends the games leave open stay open ([`elo::Interval`]).
//!
//! The 95% interval is the profile-likelihood interval with the Jeffreys prior and a draw
//! correction ([`elo::Method::Profile`]), chosen by simulated coverage ([`coverage`]). Games of
//! 3 or 4 players count as the pairwise results of their places; those of one game are not
//! independent, and the interval allows for it with the variance of the game's whole finishing
//! order under the Plackett-Luce model (also chosen by simulation:
//! [`coverage::simulate_tables`]). The percentile bootstrap is available
//! ([`Intervals::Bootstrap`]), its games redrawn within each group of agents that met.
//!
//! Head-to-head lines follow cutechess-cli ([`elo::PairElo`]): the Elo difference implied by the
//! pair's score, its 95% error margin from the normal approximation, and the likelihood of
//! superiority `0.5·(1 + erf((W - L) / sqrt(2(W + L))))`; beside them the pentanomial counts of
//! the game pairs and their normalized Elo ([`sprt::PentanomialElo`]).

// `unsafe_code` is denied workspace-wide and forbidden here: the exceptions are the web
// server's malloc_trim (crates/web/src/memory.rs) and the outside agents' sandbox, set up
// between fork and exec (crates/protocol/src/sandbox.rs).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod budget;
mod charts;
pub mod class;
pub mod coverage;
pub mod elo;
mod error;
mod games;
mod markdown;
mod model;
mod ratings;
pub mod special;
pub mod sprt;
mod tables;
mod time_control;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

pub use charts::{CHART_SIZE, TuneSeries, TuneTrajectory, draw_tune};
pub use error::{Error, Result};
pub use games::{ALL_POOL, MAX_ROW_BYTES, board_cells};
pub use markdown::Anchors;
pub use ratings::{Multiplayer, PoolRatings, Standing};

use csv_schema::complete_length;
use games::{Seen, Tally, Wdl};
use ratings::PoolGames;

/// How the 95% intervals are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intervals {
    /// Profile likelihood with the draw correction ([`elo::Method::Profile`]): the default,
    /// chosen by simulation, for pools with games of 3 or 4 players too.
    Profile,
    /// The percentile bootstrap over [`Options::bootstrap`] replicates.
    Bootstrap,
    /// No intervals.
    Off,
}

/// The largest anchor rating, either side of 0: ratings a few hundred thousand Elo from 0
/// would still print, but at 1e300 a difference of 1,000 Elo is lost in rounding and at 9e307
/// the chart's axis overflows.
pub const MAX_ANCHOR_ELO: f64 = 100_000.0;

/// The fewest and the most bootstrap replicates: below 40, the 2.5th percentile falls below the
/// first replicate (40 × 2.5% = 1), and one replicate gives an interval of zero width; each
/// replicate is a refit, and 100,000 already take minutes for a pool of ten agents.
pub const BOOTSTRAP_REPLICATES: std::ops::RangeInclusive<usize> = 40..=100_000;

/// The most agents a pool (a variant, or `all`) may have: the point estimate takes time growing
/// like the cube of the agents and the tallies memory like their square (the times and sizes
/// are on the book's benchmarks page). More are refused as the file is read, before the memory
/// is taken.
pub const MAX_POOL_AGENTS: usize = 1000;

/// How to rate: anchor, interval method, bootstrap count and seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Fix this agent's rating in every pool it played in; the rest of its group keeps its
    /// differences to it, other groups keep mean 0.
    pub anchor: Option<(String, f64)>,
    /// How the 95% intervals are computed.
    pub intervals: Intervals,
    /// Bootstrap replicates, where the bootstrap is used ([`Intervals::Bootstrap`]); within
    /// [`BOOTSTRAP_REPLICATES`].
    pub bootstrap: usize,
    /// Seed of the bootstrap's random draws.
    pub seed: u64,
}

impl Default for Options {
    /// No anchor, profile-likelihood intervals, 1000 bootstrap replicates, seed 1.
    fn default() -> Self {
        Self {
            anchor: None,
            intervals: Intervals::Profile,
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

    /// Sets how the intervals are computed.
    pub fn with_intervals(mut self, intervals: Intervals) -> Self {
        self.intervals = intervals;
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

    /// The interval method of every pool.
    pub(crate) fn method(&self) -> Option<elo::Method> {
        match self.intervals {
            Intervals::Off => None,
            Intervals::Bootstrap => Some(elo::Method::Bootstrap {
                replicates: self.bootstrap,
                seed: self.seed,
            }),
            Intervals::Profile => Some(elo::Method::Profile),
        }
    }
}

/// The ratings of every pool, and the files written.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games read.
    pub games: u64,
    /// One entry per variant, smaller boards first (then by name), then [`ALL_POOL`].
    pub pools: Vec<PoolRatings>,
    /// The test of one strength per agent across variants, when there are several variants.
    pub consistency: Option<Consistency>,
    /// Games of an agent against itself (self-play), per variant: counted in `games`, left out
    /// of the ratings, the standings and the timing (they say nothing of the agent's strength,
    /// and would count twice, once per seat).
    pub self_play: BTreeMap<String, u64>,
    /// The files [`Report::write`] wrote (empty after [`Report::analyse`]).
    pub files: Vec<PathBuf>,
}

/// The likelihood-ratio test of the pooled model behind [`ALL_POOL`] (one rating per agent in
/// every variant) against ratings of their own in each variant.
///
/// `likelihood_ratio` is `2·(Σ_variants sup ℓ_variant − sup ℓ_all)`, with `degrees_of_freedom`
/// the difference in free ratings. Draws make a half-point likelihood ratio smaller than
/// chi-squared predicts, so `statistic` divides it by the games' draw dispersion (the mean
/// variance ratio of [`elo::Method::Likelihood`]'s draw correction), and `p_value` is its
/// chi-squared tail. A small `p_value` says an agent's strength differs between variants: the
/// pooled ratings average over those strengths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Consistency {
    /// Twice the log-likelihood gained by giving every agent a rating per variant.
    pub likelihood_ratio: f64,
    /// The draw dispersion it is divided by (1 without draws).
    pub dispersion: f64,
    /// `likelihood_ratio / dispersion`.
    pub statistic: f64,
    /// Free ratings gained.
    pub degrees_of_freedom: usize,
    /// The chi-squared probability of a statistic at least this large if one rating per agent
    /// were right.
    pub p_value: f64,
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
    /// The sandbox's layers the games were played without (from the runs' meta files).
    sandbox_missing: Vec<String>,
}

/// The line a report and a class report give a run played without some of the sandbox's
/// layers (`sandbox = "best-effort"`), `missing` as `arena run` names them; `None` for none.
pub fn sandbox_line(missing: &[String]) -> Option<String> {
    (!missing.is_empty()).then(|| {
        format!(
            "**Sandbox:** best-effort; missing here: {} (see `arena sandbox`).",
            missing.join(", ")
        )
    })
}

impl Report {
    /// Adds layers of the sandbox the games were played without (a run's meta file says
    /// which), each once; the report says so under its first line.
    pub fn add_sandbox_missing(&mut self, missing: &[String]) {
        for layer in missing {
            if !self.sandbox_missing.contains(layer) {
                self.sandbox_missing.push(layer.clone());
            }
        }
    }

    /// The layers added by [`Report::add_sandbox_missing`].
    pub fn sandbox_missing(&self) -> &[String] {
        &self.sandbox_missing
    }

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
        let metadata = file.metadata().map_err(read)?;
        if !metadata.is_file() {
            // A pipe or a device has no end to look back from: read it as it comes (every row
            // bounded, so `/dev/zero` fails at its first megabyte).
            return self.add_csv_reader(path, BufReader::new(file));
        }
        let len = metadata.len();
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

    /// The time controls the games of `variant` were played at (schema 3's `time_control`),
    /// with each agent's timing at each; empty when no file says.
    pub fn timing_by_time_control(&self, variant: &str) -> Vec<(String, Vec<(String, Timing)>)> {
        let Some(tally) = self.tally.variants.get(variant) else {
            return Vec::new();
        };
        tally
            .by_time_control
            .iter()
            .map(|(control, agents)| {
                let timings = agents
                    .iter()
                    .map(|(agent, t)| {
                        let timing = Timing {
                            moves: t.moves,
                            total_ms: t.thinking_ns as f64 / 1e6,
                            max_ms_per_move: t.longest_move_ns as f64 / 1e6,
                            nodes: t.nodes,
                            faults: t.faults,
                        };
                        (agent.clone(), timing)
                    })
                    .collect();
                (control.clone(), timings)
            })
            .collect()
    }

    /// Rates every variant and the pool of all variants.
    pub fn analyse(&self, options: &Options) -> Result<Summary> {
        if self.tally.games == 0 {
            return Err(Error::NoGames {
                files: self.sources_text(),
            });
        }
        if self.tally.variants.is_empty() {
            return Err(Error::OnlySelfPlay {
                games: self.tally.games,
                files: self.sources_text(),
            });
        }
        if !BOOTSTRAP_REPLICATES.contains(&options.bootstrap) {
            return Err(Error::BadBootstrap {
                replicates: options.bootstrap,
            });
        }
        let anchor = match &options.anchor {
            Some((agent, elo)) => {
                if !(-MAX_ANCHOR_ELO..=MAX_ANCHOR_ELO).contains(elo) {
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
        self.tally.check_pool_sizes(|| self.sources_text())?;
        // Small boards first: the order a reader meets the games in a course.
        let mut variants: Vec<_> = self.tally.variants.iter().collect();
        variants.sort_by_key(|(name, _)| (board_cells(name).unwrap_or(u64::MAX), *name));
        let mut pools: Vec<PoolGames> = variants
            .into_iter()
            .map(|(name, variant)| pool_games(name, std::iter::once(variant)))
            .collect();
        // With one variant the pool of all variants would be that variant again.
        let mut consistency = None;
        if self.tally.variants.len() > 1 {
            let all = pool_games(ALL_POOL, self.tally.variants.values());
            consistency = Some(consistency_test(&all, &pools));
            pools.push(all);
        }
        let pools = pools
            .into_iter()
            .map(|pool| pool.rate(anchor, options))
            .collect();
        Ok(Summary {
            games: self.tally.games,
            pools,
            consistency,
            self_play: self.tally.self_play.clone(),
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

    /// The pentanomial counts of `agent` against `opponent` in a pool (a variant or
    /// [`ALL_POOL`]): game pairs (`2m`, `2m + 1` of a pairing: the same opening, colours
    /// swapped) by `agent`'s points from the pair, `[LL, LD, DD+WL, WD, WW]`, and the games left
    /// without a partner. `None` when the two played no two-player game there.
    pub fn pentanomial(&self, pool: &str, agent: &str, opponent: &str) -> Option<([u64; 5], u64)> {
        let (a, b, flip) = if agent < opponent {
            (agent, opponent, false)
        } else {
            (opponent, agent, true)
        };
        let mut counts = [0u64; 5];
        let mut unpaired = 0;
        let mut any = false;
        for (name, variant) in &self.tally.variants {
            if pool != ALL_POOL && pool != name {
                continue;
            }
            // Looked up by experiment (few), not by a scan of every pair: a report asks for
            // every pair of agents, and the scan made that O(agents⁴) (209 s of a 300-agent
            // report).
            for experiment in &self.tally.experiments {
                let key = (experiment.clone(), a.to_owned(), b.to_owned());
                if let Some(track) = variant.pairs.get(&key) {
                    let (pairs, alone) = track.pentanomial();
                    for (total, count) in counts.iter_mut().zip(pairs) {
                        *total += count;
                    }
                    unpaired += alone;
                    any = true;
                }
            }
        }
        if flip {
            counts.reverse();
        }
        any.then_some((counts, unpaired))
    }

    /// The files read without the agents' spec columns, and without the timing columns.
    pub fn missing_columns(&self) -> (Vec<&str>, Vec<&str>) {
        (
            self.tally
                .without_specs
                .iter()
                .map(String::as_str)
                .collect(),
            self.tally
                .without_timing
                .iter()
                .map(String::as_str)
                .collect(),
        )
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

/// The likelihood-ratio test of one rating per agent across the variants of `parts`, whose
/// games `all` pools.
fn consistency_test(all: &PoolGames, parts: &[PoolGames]) -> Consistency {
    let joint = all.model();
    let n = all.agents.len();
    let mut split = Vec::new();
    let (mut weighted, mut total) = (0.0, 0.0);
    for part in parts {
        let games = part.model();
        let (fit, _) = elo::fit_games(&games, None);
        let mut mapped = model::Group::new(n);
        let m = part.agents.len();
        for i in 0..m {
            for j in i + 1..m {
                let (wins, draws, losses) = games.wdl(i, j);
                if wins + draws + losses == 0.0 {
                    continue;
                }
                let at = |k: usize| {
                    all.agents
                        .binary_search(&part.agents[k])
                        .expect("every agent of a variant is in the pool of all")
                };
                mapped.add(at(i), at(j), wins, draws, losses);
                let p = 1.0 / (1.0 + ((fit.elo[j] - fit.elo[i]) / elo::ELO_PER_NAT).exp());
                let weight = (wins + draws + losses) * p * (1.0 - p);
                weighted += weight * model::pairing_dispersion(wins, draws, losses);
                total += weight;
            }
        }
        split.push(mapped);
    }
    let (likelihood_ratio, degrees_of_freedom) = elo::split_likelihood_ratio(&joint, &split);
    let dispersion = if total > 0.0 {
        (weighted / total).clamp(1e-6, 1.0)
    } else {
        1.0
    };
    let statistic = likelihood_ratio / dispersion;
    Consistency {
        likelihood_ratio,
        dispersion,
        statistic,
        degrees_of_freedom,
        p_value: if degrees_of_freedom == 0 {
            1.0
        } else {
            special::chi_squared_sf(statistic, degrees_of_freedom as f64)
        },
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
    let mut games = vec![0; n];
    let mut multiplayer_of: Vec<Option<ratings::Multiplayer>> = vec![None; n];
    let mut multiplayer = false;
    // Two-player games: one resampling unit per unordered pairing of each variant.
    let mut pairings: BTreeMap<(usize, usize), Wdl> = BTreeMap::new();
    let mut units = Vec::new();
    for variant in &variants {
        pairings.clear();
        for (first, row) in &variant.results {
            let i = index[first.as_str()];
            for (second, wdl) in row {
                let j = index[second.as_str()];
                results[i * n + j].add(*wdl);
                results[j * n + i].add(wdl.reversed());
                games[i] += wdl.games();
                games[j] += wdl.games();
                if i < j {
                    pairings.entry((i, j)).or_default().add(*wdl);
                } else if j < i {
                    pairings.entry((j, i)).or_default().add(wdl.reversed());
                }
            }
        }
        for (&(i, j), wdl) in &pairings {
            units.push(elo::Unit {
                outcomes: [
                    ((1.0, 0.0, 0.0), wdl.wins),
                    ((0.0, 1.0, 0.0), wdl.draws),
                    ((0.0, 0.0, 1.0), wdl.losses),
                ]
                .into_iter()
                .filter(|(_, count)| *count > 0)
                .map(|((w, d, l), count)| (vec![(i, j, w, d, l)], count))
                .collect(),
                table: Vec::new(),
            });
        }
        // N-player games: one unit per seating; each game counts as the pairwise results its
        // places imply (better place wins, equal places draw).
        for (seating, outcomes) in &variant.seatings {
            multiplayer = true;
            let seats: Vec<usize> = seating.iter().map(|a| index[a.as_str()]).collect();
            let mut unit = elo::Unit {
                table: seats.clone(),
                ..elo::Unit::default()
            };
            for (placing, &count) in outcomes {
                let mut pairwise = Vec::new();
                for a in 0..seats.len() {
                    let (i, place) = (seats[a], usize::from(placing[a]));
                    games[i] += count;
                    let record = multiplayer_of[i].get_or_insert_with(Default::default);
                    record.games += count;
                    if record.places.len() < place {
                        record.places.resize(place, 0);
                    }
                    record.places[place - 1] += count;
                    for (b, &other) in placing.iter().enumerate() {
                        if b != a {
                            let wdl = Wdl::of_places(placing[a], other);
                            record.beaten += wdl.wins * count;
                            record.tied += wdl.draws * count;
                            record.behind += wdl.losses * count;
                        }
                    }
                    for b in a + 1..seats.len() {
                        let j = seats[b];
                        let wdl = Wdl::of_places(placing[a], placing[b]);
                        let mut total = wdl;
                        total.wins *= count;
                        total.draws *= count;
                        total.losses *= count;
                        results[i * n + j].add(total);
                        results[j * n + i].add(total.reversed());
                        pairwise.push((i, j, wdl.wins as f64, wdl.draws as f64, wdl.losses as f64));
                    }
                }
                unit.outcomes.push((pairwise, count));
            }
            units.push(unit);
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
        units,
        multiplayer: multiplayer_of,
        games,
        is_multiplayer: multiplayer,
    }
}
