//! Experiment files (TOML): what to play, checked before anything is played.
//!
//! ```toml
//! name = "default"            # output goes to results/<name>/ unless --out says otherwise
//! seed = 20261122
//! games_per_pair = 20         # games per pair of agents per variant; colours alternate
//! max_plies = 0               # 0 = the game's own cap
//! opening_plies = 0           # random plies before the agents take over
//! openings = "openings/x.txt" # or: an opening suite (path relative to this file; a list of
//!                             # files for several variants)
//! threads = 0                 # 0 = all cores
//! move_time_ms = 0            # per-move time limit; 0 = budgets only
//! tc = "40/60+0.6"            # or: a game clock, cutechess's moves/time+increment (seconds)
//! st = 1                      # or: a time per move in seconds (cutechess's st=)
//! variants = ["mnk-3x3k3", "oanquan"]
//! format = "round-robin"      # or "gauntlet": each entrant against each `field = true` agent
//! sandbox = "best-effort"     # outside agents confined: "off", "best-effort" or "required"
//! sandbox_memory_mb = 1024    # its limits: memory, CPU seconds, file size, open files,
//! sandbox_cpu_s = 3600        # processes (docs/src/guide/sandbox.md), and paths it may read
//! sandbox_read = []           # besides the system's and its own folder
//! submissions = "submissions" # a class: a folder of sub-folders, one agent each, built and
//! build_time_s = 120          # checked before the first game (docs/src/guide/class-tournament.md)
//!
//! [[agents]]
//! name = "random"
//! spec = "random"
//!
//! [[agents]]
//! name = "alphabeta-4"
//! spec = "alphabeta:depth=4"
//! variants = ["oanquan"]      # optional: only these variants
//! field = false               # in a gauntlet: one of the field (the references)
//! ```

use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use agents::clock::{GameClock, MAX_TIME, TimeControl};
use agents::{AgentGame as _, AgentSpec, Kind};
use protocol::{Extra, ExtraKinds, Roster};
use rules::{Game as _, Variant};
use serde::Deserialize;
use toml::Spanned;

use crate::ArenaError;
use crate::hash::fnv1a;
use crate::openings::Openings;

/// The most worker threads a run takes (`--threads`, an experiment's `threads`): games are
/// CPU work, so more threads than this only add stacks and a larger writer window; outside
/// agents that wait on I/O are well served far below it.
pub const MAX_THREADS: usize = 256;

/// The experiment `arena run` plays when given no file.
pub const DEFAULT_EXPERIMENT: &str = include_str!("../../../experiments/default.toml");

/// One agent of an experiment.
#[derive(Clone, Debug)]
pub struct AgentEntry {
    /// The display name, unique in the experiment.
    pub name: String,
    /// What agent it is.
    pub spec: AgentSpec,
    /// The variants it is restricted to, if the file restricts it.
    pub variants: Option<Vec<Variant>>,
    /// Its kind, as the experiment's roster ([`Experiment::roster`]) knows it: one of ours, an
    /// outside one, or one of the embedding program's ([`protocol::extra`]).
    pub kind: &'static Kind,
    /// Whether it is one of a gauntlet's field (`field = true`): the references each entrant
    /// plays. Always false in a round-robin.
    pub field: bool,
}

impl PartialEq for AgentEntry {
    fn eq(&self, other: &AgentEntry) -> bool {
        // The kind follows from the spec and the roster, which the experiment compares.
        self.name == other.name
            && self.spec == other.spec
            && self.variants == other.variants
            && self.field == other.field
    }
}

impl AgentEntry {
    /// Whether this agent takes part in `variant`: its kind plays the game and the file does
    /// not restrict it elsewhere.
    pub fn plays(&self, variant: &Variant) -> bool {
        protocol::kind_plays(self.kind, variant)
            && self
                .variants
                .as_ref()
                .is_none_or(|only| only.contains(variant))
    }
}

/// How an experiment pairs its agents (the `format` key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Every group of agents that play a variant (the default).
    #[default]
    RoundRobin,
    /// Each entrant against each agent of the field (`field = true`), and no other pair:
    /// cutechess-cli's and fastchess's `-tournament gauntlet`. Two-player variants only.
    Gauntlet,
}

impl Format {
    /// The name the `format` key takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }
}

/// A checked experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// The name; results go to `results/<name>/` by default.
    pub name: String,
    /// The experiment seed every game's seed derives from.
    pub seed: u64,
    /// Games for each pair of agents on each variant, 1 to 2^63 - 1 (the schedule is
    /// generated game by game, so its size costs no memory).
    pub games_per_pair: u64,
    /// The ply cap; 0 means each game's own default. At most [`crate::play::MAX_PLY_CAP`].
    pub max_plies: u32,
    /// Random plies played before the agents take over (the same for both colour orders): at
    /// most half of what a game of each variant can last (the ply cap, or less where
    /// [`agents::AgentGame::remaining_plies`] says the game ends sooner).
    pub opening_plies: u32,
    /// The opening suite the games start from instead, if the experiment names one.
    pub openings: Option<Openings>,
    /// Worker threads; 0 means all cores.
    pub threads: usize,
    /// The per-move time limit in milliseconds; 0 means none. At most a day
    /// ([`agents::clock::MAX_TIME`]).
    pub move_time_ms: u64,
    /// The time control given with `tc` and `st` (cutechess's names), if the experiment gives
    /// one: its games are written in CSV schema 3 with the time control and the clocks. The
    /// per-move limit is also in `move_time_ms`.
    pub time_control: Option<TimeControl>,
    /// The variants, in file order.
    pub variants: Vec<Variant>,
    /// How the agents are paired: a round-robin, or a gauntlet of entrants against a field.
    pub format: Format,
    /// The agents, in file order.
    pub agents: Vec<AgentEntry>,
    /// Where the experiment was read from, for messages.
    pub source: String,
    /// The experiment's TOML text as read.
    pub text: String,
    /// The kinds an embedding program added ([`Experiment::from_toml_with`]), if any.
    pub extra: Option<Extra>,
    /// The folder of the experiment file, where its outside agents run and their relative
    /// paths resolve from, as its openings files' do (`None`: the current folder).
    pub folder: Option<PathBuf>,
    /// The sandbox its outside agents run in (`sandbox` and the `sandbox_*` keys).
    pub sandbox: protocol::sandbox::Sandbox,
    /// A class's folder of submissions (`submissions`), each an agent after the listed ones
    /// until [`crate::admission::admit`] keeps those that build and answer.
    pub submissions: Option<crate::submissions::Submissions>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExperiment {
    name: Spanned<String>,
    seed: u64,
    // Read as a signed integer (TOML's own integer type), so that 0 and negative numbers get
    // one message, ours.
    games_per_pair: Spanned<i64>,
    #[serde(default)]
    max_plies: Option<Spanned<u32>>,
    #[serde(default)]
    opening_plies: Option<Spanned<u32>>,
    // Read as any value, so that a number or a table gets our message, not serde's.
    #[serde(default)]
    openings: Option<Spanned<toml::Value>>,
    #[serde(default)]
    threads: Option<Spanned<usize>>,
    #[serde(default)]
    move_time_ms: Option<Spanned<u64>>,
    // Read as any value, so that `tc = 180` is told to be quoted.
    #[serde(default)]
    tc: Option<Spanned<toml::Value>>,
    #[serde(default)]
    st: Option<Spanned<toml::Value>>,
    variants: Spanned<Vec<Spanned<String>>>,
    // Read as any value, so that `format = 2` gets our message.
    #[serde(default)]
    format: Option<Spanned<toml::Value>>,
    #[serde(default)]
    agents: Option<Spanned<Vec<RawAgent>>>,
    // Read as any value, so that `sandbox = true` gets our message.
    #[serde(default)]
    sandbox: Option<Spanned<toml::Value>>,
    #[serde(default)]
    sandbox_memory_mb: Option<Spanned<u64>>,
    #[serde(default)]
    sandbox_cpu_s: Option<Spanned<u64>>,
    #[serde(default)]
    sandbox_file_mb: Option<Spanned<u64>>,
    #[serde(default)]
    sandbox_open_files: Option<Spanned<u64>>,
    #[serde(default)]
    sandbox_processes: Option<Spanned<u64>>,
    #[serde(default)]
    sandbox_read: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    submissions: Option<Spanned<String>>,
    #[serde(default)]
    build_time_s: Option<Spanned<u64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAgent {
    name: Spanned<String>,
    spec: Spanned<String>,
    #[serde(default)]
    variants: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    field: Option<Spanned<bool>>,
}

/// A gauntlet's own rules: a field (`field = true`) and at least one entrant, two-player
/// variants only, and on each variant at least one entrant and one field agent.
fn check_gauntlet(
    check: &Checker<'_>,
    raw: &RawExperiment,
    variants: &[Variant],
    entries: &[AgentEntry],
) -> Result<(), ArenaError> {
    let span = raw.format.as_ref().map_or(0..0, Spanned::span);
    if !entries.iter().any(|a| a.field) {
        return Err(check.error(
            "format",
            span,
            "a gauntlet needs a field: mark its reference agents with `field = true` in their \
             [[agents]] tables (each other agent plays each of them)",
        ));
    }
    if entries.iter().all(|a| a.field) {
        return Err(check.error(
            "format",
            span,
            "a gauntlet needs at least one entrant: every agent is marked `field = true`; \
             take `field = true` off the agents that should play the field",
        ));
    }
    for (i, (variant, id)) in variants.iter().zip(raw.variants.get_ref()).enumerate() {
        let key = format!("variants[{i}]");
        if variant.players() != 2 {
            return Err(check.error(
                &key,
                id.span(),
                format!(
                    "`{variant}` seats {} players, and a gauntlet pairs one entrant with one \
                     field agent: play it in a round-robin (`format = \"round-robin\"`)",
                    variant.players()
                ),
            ));
        }
        let playing = |field: bool| entries.iter().any(|a| a.field == field && a.plays(variant));
        for (field, who) in [
            (true, "no field agent (`field = true`)"),
            (false, "no entrant"),
        ] {
            if !playing(field) {
                return Err(check.error(
                    &key,
                    id.span(),
                    format!(
                        "`{variant}` would have no games: {who} plays it; add one that does, \
                         or take it out of `variants`"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Reads `submissions` (a folder relative to the experiment's) and `build_time_s`, and adds
/// an agent for each sub-folder usable as one ([`crate::submissions`]); one whose name a
/// listed agent has is refused.
fn check_submissions(
    check: &Checker<'_>,
    raw: &RawExperiment,
    key: &Spanned<String>,
    folder: Option<&Path>,
    entries: &mut Vec<AgentEntry>,
) -> Result<crate::submissions::Submissions, ArenaError> {
    use crate::submissions::{BUILD_TIME_S, Submissions, read_folder};
    let text = key.get_ref().trim().trim_end_matches('/');
    if text.is_empty() || text.contains(',') || Path::new(text).is_absolute() {
        return Err(check.error(
            "submissions",
            key.span(),
            "give the folder of submissions relative to this file, like `submissions = \
             \"submissions\"`, without commas",
        ));
    }
    let path = folder.map_or_else(|| PathBuf::from(text), |f| f.join(text));
    let mut found =
        read_folder(&path, text).map_err(|e| check.error("submissions", key.span(), e))?;
    let build_time_s = raw
        .build_time_s
        .as_ref()
        .map_or(BUILD_TIME_S, |t| *t.get_ref());
    if !(1..=3600).contains(&build_time_s) {
        let span = raw.build_time_s.as_ref().map_or(0..0, Spanned::span);
        return Err(check.error(
            "build_time_s",
            span,
            format!("{build_time_s} s a build: give 1 to 3600"),
        ));
    }
    let roster = Roster::new();
    let kind = roster
        .kind("proc")
        .map_err(|e| check.error("submissions", key.span(), e.to_string()))?;
    for submission in found.iter_mut().filter(|s| s.refused.is_none()) {
        if entries.iter().any(|e| e.name == submission.name) {
            submission.refused = Some(format!(
                "its name `{}` is another agent's: give it another in its `{}`",
                submission.name,
                crate::submissions::MANIFEST
            ));
            continue;
        }
        let spec: AgentSpec = match submission.spec.parse() {
            Ok(spec) => spec,
            Err(e) => {
                submission.refused = Some(format!("its command makes no spec: {e}"));
                continue;
            }
        };
        entries.push(AgentEntry {
            name: submission.name.clone(),
            spec,
            variants: None,
            kind,
            field: false,
        });
    }
    if found.is_empty() {
        return Err(check.error(
            "submissions",
            key.span(),
            format!(
                "`{}` holds no sub-folder: one per student, each with its program",
                path.display()
            ),
        ));
    }
    Ok(Submissions {
        key: text.to_string(),
        folder: path,
        build_time: Duration::from_secs(build_time_s),
        entries: found,
    })
}

/// Reads `sandbox` (the mode; default best-effort) and the `sandbox_*` limits and paths.
fn check_sandbox(
    check: &Checker<'_>,
    raw: &RawExperiment,
    folder: Option<&Path>,
) -> Result<protocol::sandbox::Sandbox, ArenaError> {
    use protocol::sandbox::{Limits, Mode, Sandbox};
    let mode = match &raw.sandbox {
        None => Mode::default(),
        Some(value) => value
            .get_ref()
            .as_str()
            .and_then(Mode::parse)
            .ok_or_else(|| {
                check.error(
                    "sandbox",
                    value.span(),
                    format!(
                        "`{}` is not a sandbox mode: give one of \"off\", \"best-effort\", \"required\"",
                        value.get_ref()
                    ),
                )
            })?,
    };
    let mut limits = Limits::default();
    let given = [
        &raw.sandbox_memory_mb,
        &raw.sandbox_cpu_s,
        &raw.sandbox_file_mb,
        &raw.sandbox_open_files,
        &raw.sandbox_processes,
    ];
    let slots = [
        &mut limits.memory_mb,
        &mut limits.cpu_s,
        &mut limits.file_mb,
        &mut limits.open_files,
        &mut limits.processes,
    ];
    for ((value, slot), (key, _, min, max)) in given.into_iter().zip(slots).zip(Limits::KEYS) {
        if let Some(value) = value {
            let n = *value.get_ref();
            if !(min..=max).contains(&n) {
                return Err(check.error(
                    key,
                    value.span(),
                    format!("{n} is out of range: give {min} to {max}"),
                ));
            }
            *slot = n;
        }
    }
    let mut read = Vec::new();
    for (i, path) in raw
        .sandbox_read
        .iter()
        .flat_map(|l| l.get_ref())
        .enumerate()
    {
        let text = path.get_ref().trim();
        let resolved = match folder {
            Some(folder) if Path::new(text).is_relative() => folder.join(text),
            _ => PathBuf::from(text),
        };
        if text.is_empty() || !resolved.exists() {
            return Err(check.error(
                &format!("sandbox_read[{i}]"),
                path.span(),
                format!("no such file or folder `{}`", resolved.display()),
            ));
        }
        read.push(resolved);
    }
    Ok(Sandbox {
        limits,
        read,
        ..Sandbox::new(mode)
    })
}

/// The TOML parser's message in the words of an experiment file, for the mistakes it words
/// worst: `[agents]` for `[[agents]]`, a table for a list (`variants = {}`), and a bare word
/// for a value (`games_per_pair = twenty`). `key` is the key written on the error's line.
fn friendlier_toml_error(message: &str, key: &str, line: &str) -> String {
    if message.contains("invalid type: map, expected a sequence") {
        if !key.is_empty() && key != "agents" {
            return format!(
                "`{key}` is a list in brackets, like `{key} = [\"mnk-3x3k3\"]`, not a table"
            );
        }
        return "each agent is a table of its own, written `[[agents]]` (two brackets), one \
                per agent; `[agents]` is a single table"
            .to_string();
    }
    if let Some((key, value)) = line.split_once('=') {
        let value = value.split('#').next().unwrap_or("").trim();
        let bare = !value.is_empty()
            && value
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
            && value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
            && !["true", "false", "inf", "nan"].contains(&value);
        if bare {
            return format!(
                "`{value}` is not a value: write a number in digits (`{key} = 20`), a text in \
                 quotes (`{key} = \"{value}\"`), or true or false",
                key = key.trim()
            );
        }
    }
    message.to_string()
}

/// The 1-based line and column of byte `offset` in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rfind('\n')
        .map_or(before.len(), |nl| before.len() - nl - 1)
        + 1;
    (line, column)
}

struct Checker<'a> {
    source: &'a str,
    text: &'a str,
}

impl Checker<'_> {
    fn error(&self, key: &str, span: Range<usize>, message: impl Into<String>) -> ArenaError {
        let (line, column) = line_column(self.text, span.start);
        ArenaError::Experiment {
            source_name: self.source.to_string(),
            key: key.to_string(),
            location: Some((line, column)),
            message: message.into(),
        }
    }
}

impl Experiment {
    /// Reads and checks an experiment file.
    pub fn from_file(path: &Path) -> Result<Experiment, ArenaError> {
        let text = std::fs::read_to_string(path).map_err(|e| ArenaError::Io {
            path: path.to_path_buf(),
            action: "read the experiment file",
            error: e.to_string(),
        })?;
        Self::from_toml_at(&text, &path.display().to_string(), path.parent())
    }

    /// The registry of the experiment's agent kinds, as a roster of its own (no log folder):
    /// ours, and the embedding program's if it was given some. Runs build their agents with it.
    pub fn roster(&self) -> Roster {
        Roster::new()
            .with_extra(self.extra.clone())
            .with_folder(self.folder.clone())
            .with_sandbox(self.sandbox.clone())
    }

    /// The built-in default experiment (`experiments/default.toml`).
    pub fn default_experiment() -> Experiment {
        Self::from_toml(DEFAULT_EXPERIMENT, "experiments/default.toml (built in)")
            .expect("the built-in default experiment is valid (a test checks it)")
    }

    /// Parses and checks experiment TOML; `source` names it in error messages. An openings
    /// file is looked for relative to the current folder.
    pub fn from_toml(text: &str, source: &str) -> Result<Experiment, ArenaError> {
        Self::parse(text, source, None, None)
    }

    /// Parses and checks experiment TOML read from a file in `folder` (the folder an
    /// openings file is relative to; `None`: the current folder).
    pub fn from_toml_at(
        text: &str,
        source: &str,
        folder: Option<&Path>,
    ) -> Result<Experiment, ArenaError> {
        Self::parse(text, source, folder, None)
    }

    /// [`Experiment::from_toml`], with the kinds `extra` builds looked up after ours
    /// ([`protocol::extra`]: the Python package's `py` agents); the experiment keeps them, and
    /// its runs build their agents with them ([`Experiment::roster`]).
    pub fn from_toml_with(
        text: &str,
        source: &str,
        extra: Option<Arc<dyn ExtraKinds>>,
    ) -> Result<Experiment, ArenaError> {
        Self::parse(text, source, None, extra)
    }

    /// [`Experiment::from_toml_at`] with the embedding program's kinds, as
    /// [`Experiment::from_toml_with`] (a tune's games, [`crate::tune`]).
    pub fn from_toml_in(
        text: &str,
        source: &str,
        folder: Option<&Path>,
        extra: Option<Arc<dyn ExtraKinds>>,
    ) -> Result<Experiment, ArenaError> {
        Self::parse(text, source, folder, extra)
    }

    fn parse(
        text: &str,
        source: &str,
        folder: Option<&Path>,
        extra: Option<Arc<dyn ExtraKinds>>,
    ) -> Result<Experiment, ArenaError> {
        let extra = extra.map(Extra);
        let roster = Roster::new().with_extra(extra.clone());
        let raw: RawExperiment = toml::from_str(text).map_err(|e| {
            let location = e.span().map(|s| line_column(text, s.start));
            // The parser names unknown and missing fields itself; for a bad value, the key is
            // the one written on the error's line.
            let key = location
                .and_then(|(line, _)| text.lines().nth(line - 1))
                .and_then(|line| line.split_once('='))
                .map(|(key, _)| key.trim().to_string())
                .filter(|key| !key.is_empty() && !key.starts_with('#') && !key.contains('"'))
                .unwrap_or_default();
            let line_text = location
                .and_then(|(line, _)| text.lines().nth(line - 1))
                .unwrap_or("")
                .trim();
            let message = friendlier_toml_error(e.message().trim(), &key, line_text);
            let message = message
                .trim()
                .replace("expected i64", GAMES_PER_PAIR_EXPECTED)
                .replace("expected u32", "expected a non-negative integer")
                .replace("expected u64", "expected a non-negative integer")
                .replace("expected usize", "expected a non-negative integer");
            ArenaError::Experiment {
                source_name: source.to_string(),
                key,
                location,
                message,
            }
        })?;
        let check = Checker { source, text };

        let name = raw.name.get_ref().trim().to_string();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            || name.starts_with('.')
        {
            return Err(check.error(
                "name",
                raw.name.span(),
                format!(
                    "`{name}` is not a usable name: use letters, digits, `-`, `_` and `.` \
                     (it names the results folder)"
                ),
            ));
        }
        let games_per_pair = *raw.games_per_pair.get_ref();
        if games_per_pair < 1 {
            return Err(check.error(
                "games_per_pair",
                raw.games_per_pair.span(),
                format!("{GAMES_PER_PAIR_EXPECTED}, found {games_per_pair}"),
            ));
        }
        let games_per_pair = games_per_pair as u64;

        let mut variants: Vec<Variant> = Vec::new();
        for (i, id) in raw.variants.get_ref().iter().enumerate() {
            let key = format!("variants[{i}]");
            let variant: Variant = id
                .get_ref()
                .parse()
                .map_err(|e: rules::VariantError| check.error(&key, id.span(), e.to_string()))?;
            if variants.contains(&variant) {
                return Err(check.error(
                    &key,
                    id.span(),
                    format!("variant `{variant}` is listed twice"),
                ));
            }
            variants.push(variant);
        }
        if variants.is_empty() {
            return Err(check.error(
                "variants",
                raw.variants.span(),
                "lists no variant; give at least one, like [\"mnk-3x3k3\"]",
            ));
        }

        let format = match &raw.format {
            None => Format::RoundRobin,
            Some(value) => match value.get_ref().as_str() {
                Some("round-robin") => Format::RoundRobin,
                Some("gauntlet") => Format::Gauntlet,
                _ => {
                    return Err(check.error(
                        "format",
                        value.span(),
                        format!(
                            "{} is not a format: write \"round-robin\" (every pair; the \
                             default) or \"gauntlet\" (each entrant against the agents marked \
                             `field = true`)",
                            value.get_ref()
                        ),
                    ));
                }
            },
        };

        let mut entries: Vec<AgentEntry> = Vec::new();
        let listed: &[RawAgent] = raw.agents.as_ref().map_or(&[], |a| a.get_ref());
        let agents_span = raw.agents.as_ref().map_or(0..0, Spanned::span);
        for (i, agent) in listed.iter().enumerate() {
            let prefix = format!("agents[{i}]");
            let name = agent.name.get_ref().trim().to_string();
            // Names are printed on terminals and written in logs: no character that would
            // act on the terminal or hide ([`crate::names::hidden_in_name`]), no comma or quote.
            if name.is_empty() || name.contains(',') || name.contains('"') {
                return Err(check.error(
                    &format!("{prefix}.name"),
                    agent.name.span(),
                    "a name must be non-empty and hold no comma or quote",
                ));
            }
            if let Some(hidden) = crate::names::hidden_in_name(&name) {
                return Err(check.error(
                    &format!("{prefix}.name"),
                    agent.name.span(),
                    format!("a name must not hold {hidden}"),
                ));
            }
            if entries.iter().any(|e| e.name == name) {
                return Err(check.error(
                    &format!("{prefix}.name"),
                    agent.name.span(),
                    format!("the name `{name}` is used by another agent; names must be unique"),
                ));
            }
            let spec_key = format!("{prefix}.spec");
            let spec: AgentSpec =
                agent
                    .spec
                    .get_ref()
                    .parse()
                    .map_err(|e: agents::SpecError| {
                        check.error(&spec_key, agent.spec.span(), e.to_string())
                    })?;
            let kind = roster
                .kind(&spec.kind)
                .map_err(|e| check.error(&spec_key, agent.spec.span(), e.to_string()))?;
            let restricted = match &agent.variants {
                None => None,
                Some(list) => {
                    let mut only = Vec::new();
                    for (j, id) in list.get_ref().iter().enumerate() {
                        let key = format!("{prefix}.variants[{j}]");
                        let variant: Variant =
                            id.get_ref().parse().map_err(|e: rules::VariantError| {
                                check.error(&key, id.span(), e.to_string())
                            })?;
                        if !variants.contains(&variant) {
                            return Err(check.error(
                                &key,
                                id.span(),
                                format!(
                                    "variant `{variant}` is not in the experiment's `variants` list"
                                ),
                            ));
                        }
                        if !protocol::kind_plays(kind, &variant) {
                            return Err(check.error(
                                &key,
                                id.span(),
                                format!(
                                    "agent kind `{}` does not play `{variant}`; it plays {}",
                                    spec.kind,
                                    kind.reach()
                                ),
                            ));
                        }
                        only.push(variant);
                    }
                    Some(only)
                }
            };
            let field = match &agent.field {
                Some(marked) if *marked.get_ref() && format != Format::Gauntlet => {
                    return Err(check.error(
                        &format!("{prefix}.field"),
                        marked.span(),
                        "`field = true` marks a reference agent of a gauntlet, and this \
                         experiment is a round-robin: add `format = \"gauntlet\"`, or take the \
                         key out",
                    ));
                }
                Some(marked) => *marked.get_ref(),
                // With a class's submissions, the listed agents are a gauntlet's field.
                None => format == Format::Gauntlet && raw.submissions.is_some(),
            };
            let entry = AgentEntry {
                name,
                spec,
                variants: restricted,
                kind,
                field,
            };
            let played: Vec<&Variant> = variants.iter().filter(|v| entry.plays(v)).collect();
            if played.is_empty() {
                return Err(check.error(
                    &spec_key,
                    agent.spec.span(),
                    format!(
                        "agent `{}` plays none of the experiment's variants ({}): its kind `{}` \
                         plays {}",
                        entry.name,
                        variants
                            .iter()
                            .map(|v| format!("`{v}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        entry.spec.kind,
                        entry.kind.reach()
                    ),
                ));
            }
            for variant in played {
                roster
                    .check(&entry.spec, variant)
                    .map_err(|e| check.error(&spec_key, agent.spec.span(), e.to_string()))?;
            }
            entries.push(entry);
        }
        let submissions = match &raw.submissions {
            None => None,
            Some(key) => Some(check_submissions(&check, &raw, key, folder, &mut entries)?),
        };
        if entries.len() < 2 {
            return Err(check.error(
                "agents",
                agents_span,
                "a tournament needs at least two agents ([[agents]] tables)",
            ));
        }
        if format == Format::Gauntlet {
            check_gauntlet(&check, &raw, &variants, &entries)?;
        }
        // A variant too few agents play would be a silent zero in the schedule.
        for (i, (variant, id)) in variants.iter().zip(raw.variants.get_ref()).enumerate() {
            let playing: Vec<&str> = entries
                .iter()
                .filter(|a| a.plays(variant))
                .map(|a| a.name.as_str())
                .collect();
            if playing.len() < variant.players() {
                let who = match playing.as_slice() {
                    [] => "none of the experiment's agents plays it".to_string(),
                    [one] => format!("only `{one}` plays it"),
                    some => format!("only {} play it", some.join(", ")),
                };
                return Err(check.error(
                    &format!("variants[{i}]"),
                    id.span(),
                    format!(
                        "`{variant}` would have no games: a game seats {} agents and {who}; add \
                         agents that play it, or take it out of `variants`",
                        variant.players()
                    ),
                ));
            }
        }
        let max_plies = raw.max_plies.as_ref().map_or(0, |cap| *cap.get_ref());
        if let Some(cap) = &raw.max_plies
            && *cap.get_ref() > crate::play::MAX_PLY_CAP
        {
            return Err(check.error(
                "max_plies",
                cap.span(),
                format!(
                    "a ply cap of {} plies: give at most {} (0: each game's own cap); a game \
                     that goes round in a cycle plays on to the cap",
                    cap.get_ref(),
                    crate::play::MAX_PLY_CAP
                ),
            ));
        }
        // The random opening must leave the game to the agents: it takes at most half of the
        // plies a game can last (its ply cap, or fewer where the game itself ends sooner, as
        // a board fills up), so that the agents play at least as many plies as chance did.
        if let Some(plies) = &raw.opening_plies {
            for variant in &variants {
                let (longest, why) = rules::with_game!(*variant, |start| {
                    let cap = match max_plies {
                        0 => start.default_max_plies(),
                        cap => cap,
                    };
                    match start.remaining_plies() {
                        Some(end) if end <= cap => (end, "the longest game its rules allow"),
                        _ => (cap, "its ply cap"),
                    }
                });
                if *plies.get_ref() > longest / 2 {
                    return Err(check.error(
                        "opening_plies",
                        plies.span(),
                        format!(
                            "{} random plies are more than half of a game: `{variant}` lasts at \
                             most {longest} plies ({why}), and an opening that long would decide \
                             its games and credit their results to the agents; give at most {}",
                            plies.get_ref(),
                            longest / 2
                        ),
                    ));
                }
            }
        }
        // Game indices are 64-bit: the whole schedule must fit below 2^63. A pair plays
        // `games_per_pair` games, a group of N = 3 or 4 that many in each of its N seat orders.
        let pairs: u128 = variants
            .iter()
            .map(|v| {
                let agents = entries.iter().filter(|a| a.plays(v)).count() as u128;
                if format == Format::Gauntlet {
                    // Two players only: each entrant with each field agent.
                    let field = entries.iter().filter(|a| a.plays(v) && a.field).count() as u128;
                    return (agents - field) * field;
                }
                let seats = v.players() as u128;
                let groups = (0..seats).fold(1u128, |c, i| c * agents.saturating_sub(i) / (i + 1));
                if seats == 2 { groups } else { groups * seats }
            })
            .sum();
        if pairs * u128::from(games_per_pair) > i64::MAX as u128 {
            return Err(check.error(
                "games_per_pair",
                raw.games_per_pair.span(),
                format!(
                    "{games_per_pair} games for each of the {pairs} pairs (and seat orders) \
                     make more than 2^63 games; give at most {}",
                    i64::MAX as u128 / pairs.max(1)
                ),
            ));
        }

        if let Some(threads) = &raw.threads
            && *threads.get_ref() > MAX_THREADS
        {
            return Err(check.error(
                "threads",
                threads.span(),
                format!(
                    "{} worker threads: give at most {} (0: all cores)",
                    threads.get_ref(),
                    MAX_THREADS
                ),
            ));
        }
        let openings = match &raw.openings {
            None => None,
            Some(file) => Some(check_openings(
                &check,
                file,
                raw.opening_plies.as_ref(),
                folder,
                &variants,
            )?),
        };

        let time_control = check_time_control(&check, &raw)?;
        let sandbox = check_sandbox(&check, &raw, folder)?;
        let move_time_ms = match (&time_control, &raw.move_time_ms) {
            (Some(tc), _) => tc.per_move.map_or(0, |limit| limit.as_millis() as u64),
            (None, Some(ms)) => *ms.get_ref(),
            (None, None) => 0,
        };

        Ok(Experiment {
            name,
            seed: raw.seed,
            games_per_pair,
            max_plies,
            opening_plies: raw.opening_plies.as_ref().map_or(0, |p| *p.get_ref()),
            openings,
            threads: raw.threads.as_ref().map_or(0, |t| *t.get_ref()),
            move_time_ms,
            time_control,
            variants,
            format,
            agents: entries,
            source: source.to_string(),
            text: text.to_string(),
            extra,
            folder: folder
                .filter(|f| !f.as_os_str().is_empty())
                .map(Path::to_path_buf),
            sandbox,
            submissions,
        })
    }

    /// Everything that decides the CSV's content, one fact a line, in a fixed form: the seed,
    /// the game settings, the variants and the agents (names, specs, restrictions). Threads
    /// are left out: they change nothing recorded.
    pub fn normalised(&self) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "name = {}", self.name);
        let _ = writeln!(text, "seed = {}", self.seed);
        let _ = writeln!(text, "games_per_pair = {}", self.games_per_pair);
        let _ = writeln!(text, "max_plies = {}", self.max_plies);
        let _ = writeln!(text, "opening_plies = {}", self.opening_plies);
        // Only experiments with a suite get the line, so the hashes of the others stay.
        if let Some(openings) = &self.openings {
            let _ = writeln!(text, "openings = {}", openings.hash(&self.variants));
        }
        let _ = writeln!(text, "move_time_ms = {}", self.move_time_ms);
        // Only experiments with `tc`/`st` get the line, so the hashes of the others stay.
        if let Some(tc) = &self.time_control {
            let _ = writeln!(text, "time_control = {tc}");
        }
        for variant in &self.variants {
            let _ = writeln!(text, "variant = {variant}");
        }
        // Only gauntlets get the lines, so the hashes of round-robins stay.
        if self.format != Format::RoundRobin {
            let _ = writeln!(text, "format = {}", self.format.name());
            for agent in self.agents.iter().filter(|a| a.field) {
                let _ = writeln!(text, "field = {}", agent.name);
            }
        }
        for agent in &self.agents {
            let _ = write!(text, "agent = {} | {}", agent.name, agent.spec);
            if let Some(only) = &agent.variants {
                let ids: Vec<String> = only.iter().map(|v| v.to_string()).collect();
                let _ = write!(text, " | {}", ids.join(" "));
            }
            text.push('\n');
        }
        text
    }

    /// A hash of [`Experiment::normalised`]: 16 hex digits of 64-bit FNV-1a.
    pub fn hash(&self) -> String {
        format!("{:016x}", fnv1a(self.normalised().as_bytes()))
    }

    /// Whether any agent's moves depend on the clock, so a rerun will not reproduce the CSV.
    pub fn depends_on_timing(&self) -> bool {
        self.move_time_ms > 0
            || self.time_control.is_some_and(|tc| tc.is_limited())
            || self
                .agents
                .iter()
                .any(|a| a.spec.params.iter().any(|(k, _)| k == "time_ms"))
    }

    /// The CSV schema its games are written in: 1 when every variant has two players, 2 (the
    /// columns of the third and fourth seats added) when one has more.
    pub fn csv_schema(&self) -> u32 {
        if self.time_control.is_some() {
            crate::record::CSV_SCHEMA_CLOCKS
        } else if self.variants.iter().any(|v| v.players() > 2) {
            crate::record::CSV_SCHEMA_SEATS
        } else {
            crate::record::CSV_SCHEMA
        }
    }

    /// The time control of its games: `tc`/`st`, or `move_time_ms`.
    pub fn games_time_control(&self) -> TimeControl {
        self.time_control.unwrap_or(TimeControl::per_move(
            (self.move_time_ms > 0).then(|| std::time::Duration::from_millis(self.move_time_ms)),
        ))
    }

    /// The default output folder: `results/<name>`.
    pub fn default_out_dir(&self) -> PathBuf {
        PathBuf::from("results").join(&self.name)
    }
}

/// The time control of `tc` and `st`, if either is given; refused next to `move_time_ms`.
fn check_time_control(
    check: &Checker<'_>,
    raw: &RawExperiment,
) -> Result<Option<TimeControl>, ArenaError> {
    if let Some(ms) = &raw.move_time_ms
        && Duration::from_millis(*ms.get_ref()) > MAX_TIME
    {
        return Err(check.error(
            "move_time_ms",
            ms.span(),
            format!(
                "{} ms a move: a time per move is at most a day ({} ms), as `st` and `tc` \
                 are (0: no limit)",
                ms.get_ref(),
                MAX_TIME.as_millis()
            ),
        ));
    }
    if raw.tc.is_none() && raw.st.is_none() {
        return Ok(None);
    }
    if let Some(ms) = &raw.move_time_ms {
        return Err(check.error(
            "move_time_ms",
            ms.span(),
            "give either `move_time_ms` or the time control `tc`/`st` (`st = 1` is 1000 ms a \
             move), not both",
        ));
    }
    let mut control = TimeControl::NONE;
    if let Some(tc) = &raw.tc {
        let text = match tc.get_ref() {
            toml::Value::String(text) => text.trim(),
            number @ (toml::Value::Integer(_) | toml::Value::Float(_)) => {
                return Err(check.error(
                    "tc",
                    tc.span(),
                    format!(
                        "a game clock is written in quotes: `tc = \"{number}\"` ({number} \
                         seconds a game), as in `tc = \"40/60+0.6\"`"
                    ),
                ));
            }
            other => {
                return Err(check.error(
                    "tc",
                    tc.span(),
                    format!(
                        "{} is not a game clock: write one in quotes, like `tc = \"40/60+0.6\"`",
                        quote_tc(&other.to_string())
                    ),
                ));
            }
        };
        if text.is_empty() || text == "inf" {
            return Err(check.error(
                "tc",
                tc.span(),
                format!(
                    "{} is no time control: give a game clock, like `tc = \"40/60+0.6\"`, or \
                     leave `tc` out",
                    if text.is_empty() {
                        "an empty text"
                    } else {
                        "`inf`"
                    }
                ),
            ));
        }
        // The parser `arena play --tc` and the web read `tc` with: one for all.
        let clock = GameClock::parse_tc(text).map_err(|e| {
            check.error("tc", tc.span(), format!("{}: {}", quote_tc(text), e.reason))
        })?;
        control.clock = Some(clock);
    }
    if let Some(st) = &raw.st {
        let text = match st.get_ref() {
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::Float(x) => x.to_string(),
            toml::Value::String(text) => text.clone(),
            other => {
                return Err(check.error(
                    "st",
                    st.span(),
                    format!(
                        "{} is not a time: seconds a move, like `st = 1` or `st = 0.5`",
                        quote_tc(&other.to_string())
                    ),
                ));
            }
        };
        let limit = TimeControl::parse_st(text.trim()).map_err(|e| {
            check.error(
                "st",
                st.span(),
                format!(
                    "{}: {} (seconds a move, like `st = 1` or `st = 0.5`)",
                    quote_tc(&text),
                    e.reason
                ),
            )
        })?;
        control.per_move = Some(limit);
    }
    Ok(Some(control))
}

fn quote_tc(text: &str) -> String {
    format!("`{}`", text.chars().take(40).collect::<String>())
}

/// Reads the openings files `files` (relative to `folder`) and checks them against the
/// experiment: no random opening plies besides, no variant in two files, and a section for
/// every variant.
fn check_openings(
    check: &Checker<'_>,
    files: &Spanned<toml::Value>,
    opening_plies: Option<&Spanned<u32>>,
    folder: Option<&Path>,
    variants: &[Variant],
) -> Result<Openings, ArenaError> {
    if let Some(plies) = opening_plies.filter(|p| *p.get_ref() > 0) {
        return Err(check.error(
            "opening_plies",
            plies.span(),
            "give either `opening_plies` (random openings) or `openings` (a suite), not both",
        ));
    }
    let not_a_name = |value: &toml::Value| {
        check.error(
            "openings",
            files.span(),
            format!(
                "{} is not a file name: give a file name in quotes, like `openings = \
                 \"openings/x.txt\"`, or a list of them",
                quote_tc(&value.to_string())
            ),
        )
    };
    let names: Vec<&str> = match files.get_ref() {
        toml::Value::String(name) => vec![name],
        toml::Value::Array(values) => values
            .iter()
            .map(|value| value.as_str().ok_or_else(|| not_a_name(value)))
            .collect::<Result<_, _>>()?,
        other => return Err(not_a_name(other)),
    };
    if names.is_empty() {
        return Err(check.error("openings", files.span(), "names no file"));
    }
    let mut suite: Option<Openings> = None;
    let mut shown = Vec::new();
    for name in names {
        let relative = Path::new(name);
        let path = match folder {
            Some(folder) if relative.is_relative() => folder.join(relative),
            _ => relative.to_path_buf(),
        };
        let text = std::fs::read_to_string(&path).map_err(|e| {
            check.error(
                "openings",
                files.span(),
                format!("cannot read the openings file `{}`: {e}", path.display()),
            )
        })?;
        let mut more = Openings::parse(&text, &path.display().to_string())?;
        // Kept under the name the experiment gives, for the copy `arena run` writes.
        more.files = vec![(name.to_string(), text)];
        shown.push(format!("`{}`", path.display()));
        suite = Some(match suite {
            None => more,
            Some(mut suite) => {
                for section in more.variants {
                    if suite.of(&section.variant).is_some() {
                        return Err(check.error(
                            "openings",
                            files.span(),
                            format!(
                                "variant `{}` has openings in two of the files {}",
                                section.variant,
                                shown.join(", ")
                            ),
                        ));
                    }
                    suite.variants.push(section);
                }
                suite.files.append(&mut more.files);
                suite
            }
        });
    }
    let openings = suite.expect("at least one file");
    let missing: Vec<String> = variants
        .iter()
        .filter(|v| openings.of(v).is_none())
        .map(Variant::to_string)
        .collect();
    if !missing.is_empty() {
        return Err(check.error(
            "openings",
            files.span(),
            format!(
                "{} {} no section for {}: every variant of the experiment needs its openings",
                shown.join(", "),
                if shown.len() == 1 { "has" } else { "have" },
                missing
                    .iter()
                    .map(|id| format!("[{id}]"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(openings)
}

/// What `games_per_pair` takes, in every message about it.
const GAMES_PER_PAIR_EXPECTED: &str = "expected an integer number of games, 1 or more";
