//! Tuning an agent's numeric parameters by SPSA (simultaneous perturbation stochastic
//! approximation), as fishtest and OpenBench run it for chess engines.
//!
//! A tune file names a variant, an agent spec whose numbers are parameters (`{name}`
//! placeholders, or parameters appended to the spec as `name=value`), each parameter's range,
//! start and step sizes, and how many iterations of how many game pairs to play. Iteration `k`
//! (0-based, `N` in all) draws a Rademacher vector `flip` (each component ±1, from the tune's
//! seed and `k` alone), plays `theta + c_k * flip` (seat name `plus`) against
//! `theta - c_k * flip` (`minus`) in game pairs (colours swapped, the same opening), and moves
//! every parameter by `a_k / c_k * (wins - losses of plus) * flip`, clipped to its range, with
//!
//! - `c_k = c / (k + 1)^gamma`, `c = c_end * N^gamma` (so the last iteration probes `±c_end`),
//! - `a_k = a / (A + k + 1)^alpha`, `a = r_end * c_end^2 * (A + N)^alpha`, `A = a_ratio * N`,
//! - `alpha = 0.602`, `gamma = 0.101`, `a_ratio = 0.1` unless the file says otherwise.
//!
//! This is fishtest's parameterisation (`c_end`, `r_end = a_end / c_end^2`, the update
//! `R_k * c_k * result * flip` with `R_k = a_k / c_k^2`; learned from fishtest's SPSA handler
//! and OpenBench's SPSA notes; the schedule itself is Spall's). Unlike fishtest, whose workers
//! report batches out of order, the iterations here are played one after another, so the whole
//! trajectory follows from the seed: the same tune file gives the same games, the same
//! trajectory and the same tuned spec, whatever the thread count and however often it was
//! killed and resumed.
//!
//! The games are an ordinary experiment (two agents, one variant, `2 * pairs * iterations`
//! games per pair): the schedule's seeds, openings (suite line `m` for pair `m`), clocks and
//! CSV are `arena run`'s, with each iteration's specs in its rows. The results file is opened
//! as every writer opens one ([`ResultsFile`]: the lock, `--fresh`, the half line cut), and on
//! resume every row is checked against its iteration's specs and replayed under the rules
//! ([`crate::check_row`]). The trajectory (`trajectory.csv`) is derived from the games and
//! rewritten from them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use agents::AgentSpec;
use protocol::ExtraKinds;
use rayon::prelude::*;
use serde::Deserialize;
use toml::Spanned;

use crate::experiment::line_column;
use crate::record::{Row, Temporary, io_error};
use crate::results::{OpenOptions, ResultsFile};
use crate::run::{play_scheduled_with, thread_count};
use crate::schedule::{Schedule, Shard};
use crate::sprt::{append_fault, toml_string};
use crate::{ArenaError, Experiment};

/// The copy of the tune file next to the games: a resumed tune must be the same tune.
pub const TUNE_FILE: &str = "tune.toml";
/// The parameter trajectory, one row per iteration (row 0: the start).
pub const TRAJECTORY_FILE: &str = "trajectory.csv";
/// The seat name of `theta + c_k * flip`.
pub const PLUS: &str = "plus";
/// The seat name of `theta - c_k * flip`.
pub const MINUS: &str = "minus";
/// The most iterations a tune takes.
pub const MAX_ITERATIONS: u64 = 1_000_000;
/// The most game pairs per iteration.
pub const MAX_PAIRS: u64 = 10_000;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneParam {
    /// Its name: the `{name}` placeholder in the spec, or the spec parameter it sets.
    pub name: String,
    /// Where the tune starts.
    pub start: f64,
    /// The smallest value tried.
    pub min: f64,
    /// The largest value tried.
    pub max: f64,
    /// The perturbation of the last iteration.
    pub c_end: f64,
    /// `a_end / c_end^2`, the learning rate of the last iteration.
    pub r_end: f64,
    /// Whether the agent takes a whole number: the values given it are rounded.
    pub integer: bool,
}

impl TuneParam {
    /// `value` clipped to the range.
    pub fn clip(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }

    /// `value` as the agent's spec gets it: rounded to a whole number, or to six decimals
    /// with trailing zeros dropped.
    pub fn text(&self, value: f64) -> String {
        if self.integer {
            return format!("{}", value.round() as i64);
        }
        let text = format!("{value:.6}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        if text == "-0" {
            "0".to_string()
        } else {
            text.to_string()
        }
    }
}

/// A checked tune file.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    /// The tune's name (names the results folder by default).
    pub name: String,
    /// The agent spec with a `{name}` placeholder for each parameter it holds.
    pub template: String,
    /// The parameters, by name.
    pub params: Vec<TuneParam>,
    /// Iterations.
    pub iterations: u64,
    /// Game pairs per iteration.
    pub pairs: u64,
    /// The exponent of `a_k`.
    pub alpha: f64,
    /// The exponent of `c_k`.
    pub gamma: f64,
    /// `A` as a share of the iterations.
    pub a_ratio: f64,
    /// The seed every game's seed and every flip derive from.
    pub seed: u64,
    /// The games as an experiment, both agents at the start.
    pub experiment: Experiment,
    /// The tune file as read.
    pub text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTune {
    name: Spanned<String>,
    seed: u64,
    variant: Spanned<String>,
    spec: Spanned<String>,
    iterations: Spanned<i64>,
    #[serde(default)]
    pairs_per_iteration: Option<Spanned<i64>>,
    #[serde(default)]
    opening_plies: Option<Spanned<toml::Value>>,
    #[serde(default)]
    openings: Option<Spanned<toml::Value>>,
    #[serde(default)]
    max_plies: Option<Spanned<toml::Value>>,
    #[serde(default)]
    move_time_ms: Option<Spanned<toml::Value>>,
    #[serde(default)]
    tc: Option<Spanned<toml::Value>>,
    #[serde(default)]
    st: Option<Spanned<toml::Value>>,
    #[serde(default)]
    threads: Option<Spanned<toml::Value>>,
    #[serde(default)]
    alpha: Option<Spanned<toml::Value>>,
    #[serde(default)]
    gamma: Option<Spanned<toml::Value>>,
    #[serde(default)]
    a_ratio: Option<Spanned<toml::Value>>,
    params: Spanned<BTreeMap<String, Spanned<RawParam>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    start: Spanned<toml::Value>,
    min: Spanned<toml::Value>,
    max: Spanned<toml::Value>,
    c_end: Spanned<toml::Value>,
    r_end: Spanned<toml::Value>,
    #[serde(default)]
    integer: Option<Spanned<bool>>,
}

struct Source<'a> {
    name: &'a str,
    text: &'a str,
}

impl Source<'_> {
    fn error(
        &self,
        key: &str,
        span: Option<Range<usize>>,
        message: impl Into<String>,
    ) -> ArenaError {
        ArenaError::Experiment {
            source_name: self.name.to_string(),
            key: key.to_string(),
            location: span.map(|s| line_column(self.text, s.start)),
            message: message.into(),
        }
    }

    /// A number (integer or float, finite).
    fn number(&self, key: &str, value: &Spanned<toml::Value>) -> Result<f64, ArenaError> {
        let number = match value.get_ref() {
            toml::Value::Integer(n) => *n as f64,
            toml::Value::Float(x) => *x,
            other => {
                return Err(self.error(
                    key,
                    Some(value.span()),
                    format!("is {}, expected a number", other.type_str()),
                ));
            }
        };
        if number.is_finite() {
            Ok(number)
        } else {
            Err(self.error(key, Some(value.span()), "must be a finite number"))
        }
    }
}

/// The keys of a tune file that pass to its experiment unchanged.
const PASSED: [&str; 7] = [
    "opening_plies",
    "openings",
    "max_plies",
    "move_time_ms",
    "tc",
    "st",
    "threads",
];

impl TuneSettings {
    /// Reads and checks a tune file.
    pub fn from_file(path: &Path) -> Result<TuneSettings, ArenaError> {
        let text = fs::read_to_string(path).map_err(|e| ArenaError::Io {
            path: path.to_path_buf(),
            action: "read the tune file",
            error: e.to_string(),
        })?;
        Self::from_toml(&text, &path.display().to_string(), path.parent(), None)
    }

    /// Parses and checks tune TOML; `source` names it in errors, `folder` is where its
    /// openings file and outside agents' paths are relative to, and `extra` the embedding
    /// program's agent kinds (as [`Experiment::from_toml_with`]).
    pub fn from_toml(
        text: &str,
        source: &str,
        folder: Option<&Path>,
        extra: Option<Arc<dyn ExtraKinds>>,
    ) -> Result<TuneSettings, ArenaError> {
        let src = Source { name: source, text };
        let raw: RawTune = toml::from_str(text).map_err(|e| {
            let message = e.message().trim().to_string();
            src.error("", e.span(), message)
        })?;

        let positive_count = |key: &str, value: &Spanned<i64>, most: u64| {
            let n = *value.get_ref();
            if n < 1 || n as u64 > most {
                Err(src.error(
                    key,
                    Some(value.span()),
                    format!("is {n}, expected 1 to {most}"),
                ))
            } else {
                Ok(n as u64)
            }
        };
        let iterations = positive_count("iterations", &raw.iterations, MAX_ITERATIONS)?;
        let pairs = match &raw.pairs_per_iteration {
            Some(value) => positive_count("pairs_per_iteration", value, MAX_PAIRS)?,
            None => 1,
        };
        let exponent =
            |key: &str, value: &Option<Spanned<toml::Value>>, default: f64, range: Range<f64>| {
                let Some(value) = value else {
                    return Ok(default);
                };
                let x = src.number(key, value)?;
                if range.contains(&x) {
                    Ok(x)
                } else {
                    Err(src.error(
                        key,
                        Some(value.span()),
                        format!(
                            "is {x}, expected at least {} and below {}",
                            range.start, range.end
                        ),
                    ))
                }
            };
        let alpha = exponent("alpha", &raw.alpha, 0.602, 0.0..2.0)?;
        let gamma = exponent("gamma", &raw.gamma, 0.101, 0.0..2.0)?;
        let a_ratio = exponent("a_ratio", &raw.a_ratio, 0.1, 0.0..10.0)?;

        if raw.params.get_ref().is_empty() {
            return Err(src.error(
                "params",
                Some(raw.params.span()),
                "names no parameter: give a [params.NAME] table for each number to tune",
            ));
        }
        let mut params = Vec::new();
        for (name, param) in raw.params.get_ref() {
            let key = |field: &str| format!("params.{name}.{field}");
            let p = param.get_ref();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(src.error(
                    &format!("params.{name}"),
                    Some(param.span()),
                    "a parameter's name is letters, digits and `_`",
                ));
            }
            let start = src.number(&key("start"), &p.start)?;
            let min = src.number(&key("min"), &p.min)?;
            let max = src.number(&key("max"), &p.max)?;
            let c_end = src.number(&key("c_end"), &p.c_end)?;
            let r_end = src.number(&key("r_end"), &p.r_end)?;
            if min >= max {
                return Err(src.error(
                    &key("min"),
                    Some(p.min.span()),
                    format!("min {min} is not below max {max}"),
                ));
            }
            if !(min..=max).contains(&start) {
                return Err(src.error(
                    &key("start"),
                    Some(p.start.span()),
                    format!("start {start} is outside [min, max] = [{min}, {max}]"),
                ));
            }
            if c_end <= 0.0 || c_end > max - min {
                return Err(src.error(
                    &key("c_end"),
                    Some(p.c_end.span()),
                    format!(
                        "is {c_end}, expected above 0 and at most the range's width {}",
                        max - min
                    ),
                ));
            }
            if r_end <= 0.0 {
                return Err(src.error(
                    &key("r_end"),
                    Some(p.r_end.span()),
                    format!("is {r_end}, expected above 0"),
                ));
            }
            params.push(TuneParam {
                name: name.clone(),
                start,
                min,
                max,
                c_end,
                r_end,
                integer: p.integer.as_ref().is_some_and(|b| *b.get_ref()),
            });
        }

        // The spec: every placeholder names a parameter; a parameter without one is appended.
        let spec_span = Some(raw.spec.span());
        let mut template = raw.spec.get_ref().trim().trim_end_matches(',').to_string();
        let mut rest = template.as_str();
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                return Err(src.error("spec", spec_span, "a `{` without its `}`"));
            };
            let placeholder = &rest[open + 1..open + close];
            if !params.iter().any(|p| p.name == placeholder) {
                return Err(src.error(
                    "spec",
                    spec_span,
                    format!(
                        "`{{{placeholder}}}` names no parameter: the parameters are {}",
                        names(&params)
                    ),
                ));
            }
            rest = &rest[open + close + 1..];
        }
        for param in &params {
            let placeholder = format!("{{{}}}", param.name);
            if !template.contains(&placeholder) {
                let separator = if template.contains(':') { "," } else { ":" };
                write!(template, "{separator}{}={placeholder}", param.name).expect("a string");
            }
        }

        // The games as an experiment, both agents at the start.
        let mut passed = String::new();
        let mut spans: BTreeMap<&str, Range<usize>> = BTreeMap::new();
        for (key, value) in PASSED.iter().zip([
            &raw.opening_plies,
            &raw.openings,
            &raw.max_plies,
            &raw.move_time_ms,
            &raw.tc,
            &raw.st,
            &raw.threads,
        ]) {
            if let Some(value) = value {
                writeln!(passed, "{key} = {}", value.get_ref()).expect("a string");
                spans.insert(key, value.span());
            }
        }
        spans.insert("name", raw.name.span());
        spans.insert("variants", raw.variant.span());
        let games = 2 * pairs * iterations;
        let experiment_text = |plus: &str, minus: &str| {
            format!(
                "# The games of a tune (arena tune): `plus` and `minus` are the two sides of each\n\
                 # iteration's perturbation; each row holds the specs its iteration played, which\n\
                 # follow from tune.toml (`arena verify` on this folder checks them). The specs\n\
                 # below are the start's: `arena run` on this file plays the start against itself.\n\
                 name = {}\nseed = {}\ngames_per_pair = {games}\n{passed}variants = [{}]\n\n\
                 [[agents]]\nname = \"{PLUS}\"\nspec = {}\n\n[[agents]]\nname = \"{MINUS}\"\nspec = {}\n",
                toml_string(raw.name.get_ref()),
                raw.seed,
                toml_string(raw.variant.get_ref()),
                toml_string(plus),
                toml_string(minus),
            )
        };
        let check = |plus: &str, minus: &str, blame: Option<(&str, Range<usize>)>| {
            Experiment::from_toml_in(&experiment_text(plus, minus), source, folder, extra.clone())
                .map_err(|e| match e {
                    ArenaError::Experiment { key, message, .. } => {
                        let (key, span) = match &blame {
                            Some((k, s)) if key.starts_with("agents") => {
                                (k.to_string(), Some(s.clone()))
                            }
                            _ if key.starts_with("agents") => {
                                ("spec".to_string(), spec_span.clone())
                            }
                            _ if key.starts_with("variants") => {
                                ("variant".to_string(), spans.get("variants").cloned())
                            }
                            _ if key == "games_per_pair" => {
                                ("iterations".to_string(), Some(raw.iterations.span()))
                            }
                            _ => {
                                let span = spans.get(key.as_str()).cloned();
                                (key, span)
                            }
                        };
                        let message = message.replace("agents[0].spec", "spec");
                        src.error(&key, span, message)
                    }
                    other => other,
                })
        };
        let mut settings = TuneSettings {
            name: raw.name.get_ref().clone(),
            template,
            params,
            iterations,
            pairs,
            alpha,
            gamma,
            a_ratio,
            seed: raw.seed,
            experiment: Experiment::default_experiment(),
            text: text.to_string(),
        };
        let start: Vec<f64> = settings.params.iter().map(|p| p.start).collect();
        let start_spec = settings.spec_text(&start);
        settings.experiment = check(&start_spec, &start_spec, None)?;
        // Every value the agents may be given must be one their kind takes: each parameter at
        // its ends, the others at the start.
        for (i, param) in settings.params.iter().enumerate() {
            for (end, value) in [("min", param.min), ("max", param.max)] {
                let mut theta = start.clone();
                theta[i] = value;
                let key = format!("params.{}.{end}", param.name);
                let span = raw.params.get_ref()[&param.name].get_ref();
                let span = if end == "min" {
                    span.min.span()
                } else {
                    span.max.span()
                };
                check(&settings.spec_text(&theta), &start_spec, Some((&key, span)))?;
            }
        }
        settings.experiment.text = experiment_text(&start_spec, &start_spec);
        Ok(settings)
    }

    /// The spec with the parameters at `theta` (each clipped and written as the agent gets it).
    pub fn spec_text(&self, theta: &[f64]) -> String {
        let mut spec = self.template.clone();
        for (param, &value) in self.params.iter().zip(theta) {
            spec = spec.replace(
                &format!("{{{}}}", param.name),
                &param.text(param.clip(value)),
            );
        }
        spec
    }

    /// The spec at `theta`, parsed.
    pub fn spec(&self, theta: &[f64]) -> AgentSpec {
        self.spec_text(theta)
            .parse()
            .expect("the spec parsed with these parameters when the tune was checked")
    }

    /// The games' results folder by default: `results/<name>`.
    pub fn default_out_dir(&self) -> PathBuf {
        self.experiment.default_out_dir()
    }

    /// `c` and `a` of the schedule, per parameter.
    fn gains(&self, param: &TuneParam) -> (f64, f64) {
        let n = self.iterations as f64;
        let big_a = self.a_ratio * n;
        let c = param.c_end * n.powf(self.gamma);
        let a = param.r_end * param.c_end * param.c_end * (big_a + n).powf(self.alpha);
        (c, a)
    }

    /// `(c_k, a_k)` of iteration `k` (0-based) for `param`.
    pub fn step(&self, param: &TuneParam, k: u64) -> (f64, f64) {
        let (c, a) = self.gains(param);
        let big_a = self.a_ratio * self.iterations as f64;
        let k = (k + 1) as f64;
        (c / k.powf(self.gamma), a / (big_a + k).powf(self.alpha))
    }

    /// The Rademacher vector of iteration `k`: ±1 per parameter, from the seed and `k` alone.
    pub fn flips(&self, k: u64) -> Vec<f64> {
        const TAG: u64 = 0x5350_5341_666c_6970; // "SPSAflip"
        let mut word = 0;
        (0..self.params.len())
            .map(|i| {
                if i % 64 == 0 {
                    word = rules::splitmix64(
                        self.seed
                            ^ TAG
                            ^ rules::splitmix64(k)
                            ^ rules::splitmix64(i as u64 / 64 + 1),
                    );
                }
                if word >> (i % 64) & 1 == 1 { 1.0 } else { -1.0 }
            })
            .collect()
    }

    /// The games of one iteration.
    pub fn games_per_iteration(&self) -> u64 {
        2 * self.pairs
    }
}

fn names(params: &[TuneParam]) -> String {
    params
        .iter()
        .map(|p| format!("`{}`", p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One iteration of the tune.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// 1-based.
    pub number: u64,
    /// `plus`'s wins, the draws, `plus`'s losses.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of `plus`.
    pub losses: u64,
    /// The perturbation per parameter.
    pub c_k: Vec<f64>,
    /// The step per parameter.
    pub a_k: Vec<f64>,
    /// The values `plus` played.
    pub plus: Vec<f64>,
    /// The values `minus` played.
    pub minus: Vec<f64>,
    /// The parameters after the update.
    pub theta: Vec<f64>,
}

impl Iteration {
    /// `plus`'s score over the iteration's games.
    pub fn plus_score(&self) -> f64 {
        let games = self.wins + self.draws + self.losses;
        (self.wins as f64 + 0.5 * self.draws as f64) / games.max(1) as f64
    }
}

/// Whether `path` reads as a tune file (a `[params.NAME]` table and a `spec`) rather than an
/// experiment: for a command that takes either (`arena slurm`).
pub fn is_tune_file(path: &Path) -> bool {
    fs::read_to_string(path)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .is_some_and(|table| table.contains_key("params") && table.contains_key("spec"))
}

/// The state of the tune: the parameters and the games of the iteration under way.
struct State<'a> {
    settings: &'a TuneSettings,
    theta: Vec<f64>,
    /// The iteration under way (0-based).
    k: u64,
    plus: Vec<f64>,
    minus: Vec<f64>,
    counts: [u64; 3],
    games: u64,
    done: Vec<Iteration>,
}

impl<'a> State<'a> {
    fn new(settings: &'a TuneSettings) -> State<'a> {
        let mut state = State {
            settings,
            theta: settings.params.iter().map(|p| p.start).collect(),
            k: 0,
            plus: Vec::new(),
            minus: Vec::new(),
            counts: [0; 3],
            games: 0,
            done: Vec::new(),
        };
        state.perturb();
        state
    }

    fn perturb(&mut self) {
        let flips = self.settings.flips(self.k);
        let params = &self.settings.params;
        let shifted = |sign: f64| -> Vec<f64> {
            params
                .iter()
                .zip(&self.theta)
                .zip(&flips)
                .map(|((p, &t), &f)| p.clip(t + sign * self.settings.step(p, self.k).0 * f))
                .collect()
        };
        self.plus = shifted(1.0);
        self.minus = shifted(-1.0);
    }

    /// The experiment of the iteration under way: its specs in the seats.
    fn experiment(&self) -> Experiment {
        let mut experiment = self.settings.experiment.clone();
        experiment.agents[0].spec = self.settings.spec(&self.plus);
        experiment.agents[1].spec = self.settings.spec(&self.minus);
        experiment
    }

    /// Games counted so far: the next game's index.
    fn counted(&self) -> u64 {
        self.k * self.settings.games_per_iteration() + self.games
    }

    /// Counts a game of the iteration under way; returns the iteration it completed, if any.
    fn add(&mut self, row: &Row) -> Option<Iteration> {
        let plus_first = row.first == PLUS;
        match (row.result.as_str(), plus_first) {
            ("1-0", true) | ("0-1", false) => self.counts[0] += 1,
            ("1/2-1/2", _) => self.counts[1] += 1,
            _ => self.counts[2] += 1,
        }
        self.games += 1;
        if self.games < self.settings.games_per_iteration() {
            return None;
        }
        let [wins, draws, losses] = self.counts;
        let result = wins as f64 - losses as f64;
        let flips = self.settings.flips(self.k);
        let params = &self.settings.params;
        let steps: Vec<(f64, f64)> = params
            .iter()
            .map(|p| self.settings.step(p, self.k))
            .collect();
        for (i, param) in params.iter().enumerate() {
            let (c_k, a_k) = steps[i];
            self.theta[i] = param.clip(self.theta[i] + a_k / c_k * result * flips[i]);
        }
        let iteration = Iteration {
            number: self.k + 1,
            wins,
            draws,
            losses,
            c_k: steps.iter().map(|s| s.0).collect(),
            a_k: steps.iter().map(|s| s.1).collect(),
            plus: self.plus.clone(),
            minus: self.minus.clone(),
            theta: self.theta.clone(),
        };
        self.done.push(iteration.clone());
        self.k += 1;
        self.counts = [0; 3];
        self.games = 0;
        self.perturb();
        Some(iteration)
    }
}

/// How to run a tune besides what it plays.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// The output folder.
    pub out_dir: PathBuf,
    /// Worker threads; `None`: as `arena run` chooses.
    pub threads: Option<usize>,
    /// Start over: move the old games aside (never deleting them).
    pub fresh: bool,
    /// The shard of the games this run plays ([`Shard::WHOLE`]: all of them).
    pub shard: Shard,
}

/// What a tune did.
#[derive(Clone, Debug)]
pub struct TuneSummary {
    /// The games.
    pub csv: PathBuf,
    /// The trajectory.
    pub trajectory: PathBuf,
    /// Every iteration played, those read back included.
    pub iterations: Vec<Iteration>,
    /// The parameters at the end.
    pub theta: Vec<f64>,
    /// The tuned spec.
    pub spec: String,
    /// Games read back from the CSV.
    pub resumed: u64,
    /// Games played by this run.
    pub played: u64,
    /// Where the old games went with `fresh`.
    pub moved_aside: Option<PathBuf>,
    /// Wall time of this run.
    pub wall: Duration,
    /// Worker threads used.
    pub threads: usize,
}

/// Something a tune tells its caller while it plays.
#[derive(Debug)]
pub enum TuneEvent<'a> {
    /// An iteration this run completed (its games played here or, in a sharded tune, read from
    /// the other shards' files).
    Iteration(&'a Iteration),
    /// A shard waits for the other shards' games of `iteration` (1-based): `shards` have not
    /// recorded theirs yet, after `waited` (said once a minute).
    Waiting {
        /// The iteration waited for.
        iteration: u64,
        /// The shards whose games are missing.
        shards: Vec<u32>,
        /// How long this shard has waited.
        waited: Duration,
    },
}

/// A recorded game not counted yet: its row, and where it was read (`None`: played by this
/// run, so not checked again).
struct Recorded {
    row: Row,
    source: Option<(PathBuf, u64)>,
}

/// The recorded games not counted yet, by game index.
type Pending = BTreeMap<u64, Recorded>;

/// How often a shard looks at the other shards' files while it waits for them.
const POLL: Duration = Duration::from_millis(100);
/// How often a waiting shard says so.
const SAY_WAITING: Duration = Duration::from_secs(60);

/// Reads `shard`'s games from `path` into `pending` (those from game `from` on), checking that
/// the file holds its shard's games in order, one after another. `whole_only` leaves out an
/// unterminated last line (another process may be writing it). Returns the rows read.
fn read_shard(
    path: &Path,
    shard: Shard,
    from: u64,
    whole_only: bool,
    pending: &mut Pending,
) -> Result<u64, ArenaError> {
    let mut position = 0u64;
    let visit = |line: u64, row: Row| {
        let expected = u64::from(shard.index) + position * u64::from(shard.count);
        if row.game != expected {
            let whose = if shard == Shard::WHOLE {
                "a tune records its games".to_string()
            } else {
                format!("shard {shard} of a tune records its own games")
            };
            return Err(ArenaError::Csv {
                path: path.to_path_buf(),
                line,
                message: format!(
                    "expected game {expected} here: {whose} in schedule order, one after another"
                ),
            });
        }
        position += 1;
        if row.game >= from {
            pending.entry(row.game).or_insert(Recorded {
                row,
                source: Some((path.to_path_buf(), line)),
            });
        }
        Ok(())
    };
    if whole_only {
        crate::record::read_complete_rows(path, visit)?;
    } else {
        crate::record::read_rows(path, visit)?;
    }
    Ok(position)
}

/// What a shard has read of another shard's file: the rows after `offset` are read at the next
/// look, so a shard that waits for the others reads each of their rows once.
struct PeerFile {
    shard: Shard,
    path: PathBuf,
    /// The header line (with its newline), once read.
    header: Vec<u8>,
    /// Bytes read: the header and the whole rows so far.
    offset: u64,
    /// Rows read.
    rows: u64,
}

impl PeerFile {
    /// The other shards of `shard`, in `out`, none read yet.
    fn others(out: &Path, shard: Shard) -> Vec<PeerFile> {
        (0..shard.count)
            .filter(|&index| index != shard.index)
            .map(|index| {
                let other = Shard {
                    index,
                    count: shard.count,
                };
                PeerFile {
                    shard: other,
                    path: out.join(other.csv_name()),
                    header: Vec::new(),
                    offset: 0,
                    rows: 0,
                }
            })
            .collect()
    }

    /// Reads the whole rows written since the last look (a row being written this moment left
    /// out) into `pending`, those from game `from` on, checking that they are this shard's games
    /// in order. A file not there yet holds none; one that shrank was started again
    /// (`--fresh`), and is read again from its start.
    fn read_new(&mut self, from: u64, pending: &mut Pending) -> Result<(), ArenaError> {
        use std::io::{BufRead as _, Read as _, Seek as _};
        let Ok(mut file) = fs::File::open(&self.path) else {
            return Ok(());
        };
        let whole = csv_schema::complete_length(&mut file)
            .map_err(|e| io_error(&self.path, "read the CSV", e))?;
        if whole < self.offset {
            self.header.clear();
            self.offset = 0;
            self.rows = 0;
        }
        if whole == 0 || whole == self.offset {
            return Ok(());
        }
        let read_error = |e| io_error(&self.path, "read the CSV", e);
        if self.header.is_empty() {
            file.seek(std::io::SeekFrom::Start(0)).map_err(read_error)?;
            std::io::BufReader::new(&mut file)
                .read_until(b'\n', &mut self.header)
                .map_err(read_error)?;
            self.offset = self.header.len() as u64;
        }
        file.seek(std::io::SeekFrom::Start(self.offset))
            .map_err(read_error)?;
        let body = file.take(whole.saturating_sub(self.offset));
        let (shard, before) = (self.shard, self.rows);
        let mut position = self.rows;
        crate::record::read_rows_from(
            &self.path,
            std::io::Cursor::new(self.header.clone()).chain(body),
            |line, row| {
                // The line in the file: the rows before this look come between.
                let line = line + before;
                let expected = u64::from(shard.index) + position * u64::from(shard.count);
                if row.game != expected {
                    return Err(ArenaError::Csv {
                        path: self.path.clone(),
                        line,
                        message: format!(
                            "expected game {expected} here: shard {shard} of a tune records its \
                             own games in schedule order, one after another"
                        ),
                    });
                }
                position += 1;
                if row.game >= from {
                    pending.entry(row.game).or_insert(Recorded {
                        row,
                        source: Some((self.path.clone(), line)),
                    });
                }
                Ok(())
            },
        )?;
        self.rows = position;
        self.offset = whole;
        Ok(())
    }
}

/// Counts the games of `pending` that follow the state's last one, in game order, each read
/// from a file checked against its iteration's specs ([`crate::checks::check_row`]); stops at
/// the first game not recorded yet. Calls `iteration` with each iteration completed and `row`
/// with each game counted.
fn count_pending(
    state: &mut State<'_>,
    schedule: &Schedule,
    pending: &mut Pending,
    iteration: &mut dyn FnMut(&Iteration),
    row: &mut dyn FnMut(&Row),
) -> Result<(), ArenaError> {
    let mut current = state.experiment();
    while let Some(entry) = pending.first_entry() {
        if *entry.key() != state.counted() {
            break;
        }
        let recorded = entry.remove();
        if let Some((path, line)) = &recorded.source {
            crate::checks::check_row(&current, schedule, path, *line, &recorded.row)?;
        }
        row(&recorded.row);
        if let Some(done) = state.add(&recorded.row) {
            iteration(&done);
            current = state.experiment();
        }
    }
    Ok(())
}

/// Plays the tune into `options.out_dir`, resuming from the games there, and calls `each` with
/// every iteration this run completes.
///
/// With a shard `I/N` other than the whole, it plays only the games whose index is `I` modulo
/// `N` into `games.shard-I-of-N.csv`, and after its games of an iteration it waits until the
/// other shards' files (read without a lock) hold theirs: every shard then counts the same games
/// and moves the parameters the same way, so the shards of one tune must run at the same time,
/// into one folder they share. `arena merge` ([`merge`]) joins them into the `games.csv` an
/// unsharded tune writes. Only shard 0 writes the trajectory.
pub fn run_tune(
    settings: &TuneSettings,
    options: &TuneOptions,
    mut each: impl FnMut(TuneEvent<'_>),
) -> Result<TuneSummary, ArenaError> {
    let started = Instant::now();
    let experiment = &settings.experiment;
    let schedule = Schedule::new(experiment);
    let shard = options.shard;
    let out = &options.out_dir;
    let csv = out.join(shard.csv_name());
    let tune_file = out.join(TUNE_FILE);
    let trajectory = out.join(TRAJECTORY_FILE);
    let writes_trajectory = shard.index == 0;
    let also_aside = [
        (tune_file.clone(), TUNE_FILE),
        (trajectory.clone(), TRAJECTORY_FILE),
    ];
    let mut file = ResultsFile::open(
        &csv,
        experiment,
        &OpenOptions {
            fresh: options.fresh,
            also_aside: if writes_trajectory { &also_aside } else { &[] },
            ..OpenOptions::new("arena tune")
        },
    )?;
    if file.holds_rows() {
        let recorded = fs::read_to_string(&tune_file).ok();
        if recorded.as_deref() != Some(settings.text.as_str()) {
            return Err(ArenaError::TuneChanged {
                csv,
                known: recorded.is_some(),
            });
        }
    }
    // Each shard its own temporary name: the shards of a tune may write it at the same moment.
    let temporary = Temporary::new(out.join(format!("{TUNE_FILE}.{}.partial", shard.index)));
    fs::write(temporary.path(), &settings.text)
        .map_err(|e| io_error(&tune_file, "write the copy of the tune file", e))?;
    temporary.place(&tune_file, "write the copy of the tune file")?;

    // What is recorded: this shard's first games, each played with its iteration's specs, and
    // what the other shards have recorded so far.
    let mut state = State::new(settings);
    let mut pending = Pending::new();
    let resumed = if file.holds_rows() {
        read_shard(&csv, shard, 0, false, &mut pending)?
    } else {
        0
    };
    let mut others = PeerFile::others(out, shard);
    for other in &mut others {
        other.read_new(0, &mut pending)?;
    }
    count_pending(
        &mut state,
        &schedule,
        &mut pending,
        &mut |_| {},
        &mut |_| {},
    )?;
    // One roster an iteration: its specs are new each time, and a roster keeps its outside
    // agents' processes between games, so one roster for the whole tune would keep two idle
    // processes for every iteration played.
    let roster = || {
        experiment
            .roster()
            .with_log_folder(&csv.with_extension("logs"))
    };
    let mut sandbox_missing = Vec::new();
    if resumed < schedule.shard_len(shard) {
        sandbox_missing = crate::run::check_sandbox(experiment)?;
        crate::run::preflight(experiment, &roster())?;
    }
    let mut writer = file.begin(experiment, &schedule, shard, &sandbox_missing)?;
    let threads = thread_count(options.threads, experiment);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("arena-tune-{i}"))
        .build()
        .map_err(|e| ArenaError::Threads(e.to_string()))?;
    let log_path = csv.with_extension("faults.log");
    let per_iteration = settings.games_per_iteration();
    let mut played = 0;
    if writes_trajectory {
        write_trajectory(settings, &state.done, &trajectory)?;
    }
    while state.counted() < schedule.len() {
        let end = (state.counted() / per_iteration + 1) * per_iteration;
        let todo: Vec<u64> = (state.counted()..end)
            .filter(|&index| shard.holds(index) && !pending.contains_key(&index))
            .collect();
        if !todo.is_empty() {
            let current = state.experiment();
            let roster = roster();
            let rows: Vec<(Row, Option<String>)> = pool.install(|| {
                todo.par_iter()
                    .map(|&index| play_scheduled_with(&current, &schedule.game(index), &roster))
                    .collect()
            });
            for ((row, fault), index) in rows.into_iter().zip(todo) {
                writer.write(&row)?;
                if let Some(message) = fault {
                    append_fault(&log_path, &message)?;
                }
                played += 1;
                pending.insert(index, Recorded { row, source: None });
            }
        }
        count_pending(
            &mut state,
            &schedule,
            &mut pending,
            &mut |done| each(TuneEvent::Iteration(done)),
            &mut |_| {},
        )?;
        // The other shards' games of this iteration.
        let waiting = Instant::now();
        let mut said = Duration::ZERO;
        while state.counted() < end {
            std::thread::sleep(POLL);
            for other in &mut others {
                other.read_new(state.counted(), &mut pending)?;
            }
            count_pending(
                &mut state,
                &schedule,
                &mut pending,
                &mut |done| each(TuneEvent::Iteration(done)),
                &mut |_| {},
            )?;
            if waiting.elapsed() >= said + SAY_WAITING && state.counted() < end {
                said = waiting.elapsed();
                let mut shards: Vec<u32> = (state.counted()..end)
                    .filter(|index| !pending.contains_key(index))
                    .map(|index| (index % u64::from(shard.count)) as u32)
                    .collect();
                shards.sort_unstable();
                shards.dedup();
                each(TuneEvent::Waiting {
                    iteration: state.k + 1,
                    shards,
                    waited: said,
                });
            }
        }
        // The trajectory follows from the games; rewritten now and then, and at the end.
        let k = state.k;
        if writes_trajectory
            && (k.is_multiple_of(10.max(settings.iterations / 100))
                || state.counted() >= schedule.len())
        {
            write_trajectory(settings, &state.done, &trajectory)?;
        }
    }
    let moved_aside = file.moved_aside.clone();
    drop(file);
    if writes_trajectory {
        write_trajectory(settings, &state.done, &trajectory)?;
    }
    Ok(TuneSummary {
        csv,
        trajectory,
        spec: settings.spec_text(&state.theta),
        theta: state.theta,
        iterations: state.done,
        resumed,
        played,
        moved_aside,
        wall: started.elapsed(),
        threads,
    })
}

/// What [`verify`] found in a tune's folder.
#[derive(Clone, Debug)]
pub struct TuneCheck {
    /// The games.
    pub csv: PathBuf,
    /// Games recorded, all checked.
    pub games: u64,
    /// Games in the whole tune.
    pub total: u64,
    /// Iterations complete.
    pub iterations: u64,
    /// The spec at the end of the last complete iteration.
    pub spec: String,
}

/// Checks the games of the tune in `dir` (`arena verify` on a folder holding `tune.toml`):
/// every row must be its schedule's game played with its iteration's specs, the iterations
/// before it following from the rows before it, and replay under the rules to its result. Takes
/// no lock: a tune may be writing meanwhile.
pub fn verify(dir: &Path) -> Result<TuneCheck, ArenaError> {
    verify_with(dir, &TuneSettings::from_file(&dir.join(TUNE_FILE))?)
}

/// [`verify`] with the tune's settings given (read with agent kinds of the caller's own).
pub fn verify_with(dir: &Path, settings: &TuneSettings) -> Result<TuneCheck, ArenaError> {
    let schedule = Schedule::new(&settings.experiment);
    let csv = dir.join(Shard::WHOLE.csv_name());
    if !csv.exists() && crate::merge::shard_files(dir).is_ok() {
        return Err(ArenaError::Merge {
            dir: dir.to_path_buf(),
            message: "this tune was played in shards and has no games.csv yet: `arena merge` \
                      the folder once every shard is done, then verify it"
                .into(),
        });
    }
    let mut state = State::new(settings);
    let mut pending = Pending::new();
    let games = read_shard(&csv, Shard::WHOLE, 0, true, &mut pending)?;
    count_pending(
        &mut state,
        &schedule,
        &mut pending,
        &mut |_| {},
        &mut |_| {},
    )?;
    Ok(TuneCheck {
        csv,
        games,
        total: schedule.len(),
        iterations: state.k,
        spec: settings.spec_text(&state.theta),
    })
}

/// What [`merge`] did.
#[derive(Clone, Debug)]
pub struct TuneMerge {
    /// The merged games, as an unsharded tune writes them.
    pub csv: PathBuf,
    /// Games merged.
    pub games: u64,
    /// Shards merged.
    pub shards: u32,
    /// Where a `games.csv` that was there went (it was not the merged file).
    pub moved_aside: Option<PathBuf>,
    /// The spec at the end.
    pub spec: String,
}

/// Merges the shards of the tune in `dir` (`games.shard-I-of-N.csv`, from `arena tune --shard`)
/// into the `games.csv` and `trajectory.csv` an unsharded tune writes: every game counted in
/// order and checked against its iteration's specs, every game present exactly once. Each
/// shard's writer lock is taken, so a shard still playing makes it fail at once; a `games.csv`
/// that was there and is not the merged file is moved aside, never overwritten.
pub fn merge(dir: &Path) -> Result<TuneMerge, ArenaError> {
    merge_with(dir, &TuneSettings::from_file(&dir.join(TUNE_FILE))?)
}

/// [`merge`] with the tune's settings given (read with agent kinds of the caller's own).
pub fn merge_with(dir: &Path, settings: &TuneSettings) -> Result<TuneMerge, ArenaError> {
    let experiment = &settings.experiment;
    let schedule = Schedule::new(experiment);
    let (count, files) = crate::merge::shard_files(dir)?;
    let csv = dir.join(Shard::WHOLE.csv_name());
    let mut lock = crate::lock::lock_writer(&csv, "arena merge")?;
    lock.hold(&csv)?;
    let mut opened = Vec::new();
    let mut meta = crate::meta::Meta::new(experiment, &schedule, Shard::WHOLE);
    let mut pending = Pending::new();
    for (index, file) in files.iter().enumerate() {
        let shard = Shard {
            index: index as u32,
            count,
        };
        opened.push(ResultsFile::open(
            file,
            experiment,
            &OpenOptions::new("arena merge"),
        )?);
        if let Some(shard_meta) = crate::meta::Meta::read(file)? {
            meta.add_sandbox_missing(&shard_meta.sandbox_missing);
        }
        if fs::metadata(file).is_ok_and(|m| m.len() > 0) {
            read_shard(file, shard, 0, false, &mut pending)?;
        }
    }
    let mut state = State::new(settings);
    let mut rows = Vec::new();
    count_pending(
        &mut state,
        &schedule,
        &mut pending,
        &mut |_| {},
        &mut |row| rows.push(row.clone()),
    )?;
    if state.counted() < schedule.len() {
        let missing = state.counted();
        return Err(ArenaError::Merge {
            dir: dir.to_path_buf(),
            message: format!(
                "game {missing} (shard {}/{count}) is not recorded, and the tune's games after \
                 it depend on it: run the shards again, all at once (they resume), and merge \
                 again",
                missing % u64::from(count)
            ),
        });
    }
    let temporary = Temporary::new(dir.join("games.csv.merging"));
    {
        let mut writer =
            crate::record::RowWriter::append(temporary.path(), experiment.csv_schema(), true)?;
        for row in &rows {
            writer.write(row)?;
        }
    }
    let mut moved_aside = None;
    let holds_games = fs::metadata(&csv).is_ok_and(|m| m.len() > 0);
    if holds_games && !crate::merge::same_bytes(&csv, temporary.path())? {
        moved_aside = Some(crate::results::set_aside(&csv)?);
        lock.hold(&csv)?;
    }
    temporary.place(&csv, "move the merged CSV in place")?;
    lock.hold(&csv)?;
    meta.write(&csv)?;
    write_trajectory(settings, &state.done, &dir.join(TRAJECTORY_FILE))?;
    drop(opened);
    Ok(TuneMerge {
        csv,
        games: schedule.len(),
        shards: count,
        moved_aside,
        spec: settings.spec_text(&state.theta),
    })
}

/// The trajectory's CSV: a row per iteration (row 0: the start), the parameters after it,
/// what `plus` and `minus` played, and `plus`'s results.
pub fn trajectory_text(settings: &TuneSettings, iterations: &[Iteration]) -> String {
    let mut text = String::from("iteration,games,plus_wins,draws,plus_losses,plus_score");
    for p in &settings.params {
        let n = &p.name;
        write!(text, ",{n},{n}_plus,{n}_minus,{n}_c_k,{n}_a_k").expect("a string");
    }
    text.push('\n');
    text.push_str("0,0,,,,");
    for p in &settings.params {
        write!(text, ",{},,,,", p.start).expect("a string");
    }
    text.push('\n');
    let per = settings.games_per_iteration();
    for it in iterations {
        write!(
            text,
            "{},{},{},{},{},{}",
            it.number,
            it.number * per,
            it.wins,
            it.draws,
            it.losses,
            it.plus_score()
        )
        .expect("a string");
        for i in 0..settings.params.len() {
            write!(
                text,
                ",{},{},{},{},{}",
                it.theta[i], it.plus[i], it.minus[i], it.c_k[i], it.a_k[i]
            )
            .expect("a string");
        }
        text.push('\n');
    }
    text
}

fn write_trajectory(
    settings: &TuneSettings,
    iterations: &[Iteration],
    path: &Path,
) -> Result<(), ArenaError> {
    let temporary = Temporary::new(path.with_extension("csv.partial"));
    fs::write(temporary.path(), trajectory_text(settings, iterations))
        .map_err(|e| io_error(path, "write the trajectory", e))?;
    temporary.place(path, "write the trajectory")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TUNE: &str = r#"
name = "t"
seed = 3
variant = "tictactoe"
spec = "mcts:iterations=50,c={c}"
iterations = 100
pairs_per_iteration = 2

[params.c]
start = 1.0
min = 0.1
max = 4
c_end = 0.2
r_end = 0.002
"#;

    fn settings(text: &str) -> Result<TuneSettings, ArenaError> {
        TuneSettings::from_toml(text, "t.toml", None, None)
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_a_end() {
        let s = settings(TUNE).unwrap();
        let p = &s.params[0];
        let (c_last, a_last) = s.step(p, s.iterations - 1);
        assert!((c_last - 0.2).abs() < 1e-12, "{c_last}");
        assert!((a_last - 0.002 * 0.04).abs() < 1e-12, "{a_last}");
        let (c0, a0) = s.step(p, 0);
        assert!(c0 > c_last && a0 > a_last);
    }

    #[test]
    fn flips_are_plus_or_minus_one_and_depend_on_the_iteration() {
        let s = settings(TUNE).unwrap();
        let signs: Vec<f64> = (0..64).map(|k| s.flips(k)[0]).collect();
        assert!(signs.iter().all(|&f| f == 1.0 || f == -1.0));
        let ups = signs.iter().filter(|&&f| f > 0.0).count();
        assert!((16..=48).contains(&ups), "{ups} of 64");
        assert_eq!(s.flips(7), s.flips(7));
    }

    #[test]
    fn a_parameter_missing_from_the_spec_is_appended_and_values_are_written_short() {
        let s = settings(&TUNE.replace("c={c}", "")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.spec_text(&[1.25]), "mcts:iterations=50,c=1.25");
        assert_eq!(s.spec_text(&[9.0]), "mcts:iterations=50,c=4");
    }

    fn error(text: &str) -> String {
        settings(text).unwrap_err().to_string()
    }

    #[test]
    fn cut_and_mangled_tune_files_are_errors_never_panics() {
        let mut texts: Vec<String> = TUNE
            .char_indices()
            .map(|(i, _)| TUNE[..i].to_string())
            .collect();
        let lines: Vec<&str> = TUNE.lines().collect();
        for skip in 0..lines.len() {
            let mut kept = lines.clone();
            kept.remove(skip);
            texts.push(kept.join("\n"));
        }
        for (from, to) in [
            ("{c}", "{"),
            ("{c}", "}{c}{"),
            ("{c}", "{c}{c}"),
            ("1.0", "nan"),
            ("1.0", "inf"),
            ("0.2", "-0.2"),
            ("4", "4.0000001e308"),
            ("100", "9223372036854775807"),
            ("[params.c]", "[params.\"\"]"),
            ("[params.c]", "[params.c]\ninteger = true"),
        ] {
            texts.push(TUNE.replace(from, to));
        }
        let mut errors = 0;
        for text in &texts {
            // Ok or a clear error; a panic fails the test.
            if let Err(error) = settings(text) {
                assert!(!error.to_string().is_empty());
                errors += 1;
            }
        }
        assert!(errors > texts.len() / 2, "{errors} of {}", texts.len());
    }

    #[test]
    fn bad_tune_files_name_the_key() {
        let e = error(&TUNE.replace("iterations = 100", "iterations = 100\nrounds = 3"));
        assert!(
            e.contains("unknown field `rounds`") && e.contains("t.toml:"),
            "{e}"
        );
        let e = error(&TUNE.replace("r_end = 0.002", "r_end = 0.002\nstep = 1"));
        assert!(e.contains("unknown field `step`"), "{e}");
        let e = error(&TUNE.replace("min = 0.1", "min = 5"));
        assert!(
            e.contains("key `params.c.min`") && e.contains("not below max"),
            "{e}"
        );
        let e = error(&TUNE.replace("start = 1.0", "start = 7"));
        assert!(
            e.contains("key `params.c.start`") && e.contains("outside"),
            "{e}"
        );
        let e = error(&TUNE.replace("c={c}", "c={k}"));
        assert!(
            e.contains("key `spec`") && e.contains("`{k}` names no parameter"),
            "{e}"
        );
        let e = error(&TUNE.replace("max = 4", "max = 400"));
        assert!(
            e.contains("key `params.c.max`") && e.contains("c=400"),
            "{e}"
        );
        let e = error(&TUNE.replace("c={c}", "cee={c}"));
        assert!(
            e.contains("key `spec`") && e.contains("no parameter `cee`"),
            "{e}"
        );
        let e = error(&TUNE.replace("iterations = 100", "iterations = 0"));
        assert!(
            e.contains("key `iterations`") && e.contains("expected 1 to"),
            "{e}"
        );
        let e = error(&TUNE.replace("c_end = 0.2", "c_end = \"big\""));
        assert!(
            e.contains("key `params.c.c_end`") && e.contains("expected a number"),
            "{e}"
        );
        let e = error(&TUNE.replace("\"tictactoe\"", "\"chess\""));
        assert!(e.contains("key `variant`"), "{e}");
    }
}
