//! The outside agents: the one home of both protocols an agent outside the arena's process can
//! speak, and the registry of every agent kind the arena can build.
//!
//! - The `arena` protocol ([`wire`], `docs/src/reference/protocol.md`): lines over stdin/stdout for every
//!   game; the `proc` agent kind drives such a program ([`proc`]), and [`serve::serve`] puts
//!   any agent behind it (`arena serve-agent`).
//! - The Gomocup (piskvork) protocol ([`gomocup`]): the `engine` kind drives a `pbrain-*`
//!   engine on m,n,k boards, and [`gomocup::serve`] puts any agent behind it (`arena engine`).
//!
//! Both share the child-process handling ([`child`]: start-up errors as setup errors, lines in
//! and out with deadlines, stderr to a per-agent log, no process left behind), time keeping (a
//! stated margin past the announced budget, [`outside::Launch`]), bounded lines checked as bytes
//! ([`line`](mod@line)), the pool that keeps a process between games ([`outside::Pool`]), and the
//! pre-flight check of a run ([`preflight`]).
//!
//! The registry: [`build`] builds any kind (the outside ones here, the rest by
//! [`agents::build`]); [`kinds`] lists them all for `arena list`; [`check`] and [`plays`] check
//! experiment files. A [`Roster`] builds the agents of one run: it says where their stderr goes
//! and keeps their processes between games. A program embedding the arena adds kinds of its
//! own to a roster ([`extra`], [`Roster::with_extra`]: the Python package's `py`); the free
//! functions are the roster without them.

// `unsafe_code` is denied workspace-wide; here it is allowed in one module only, the sandbox's
// system calls between fork and exec (`sandbox::sys`), besides the web server's malloc_trim
// (crates/web/src/memory.rs).
#![deny(unsafe_code)]

pub mod child;
pub mod compile;
pub mod extra;
pub mod game;
pub mod gomocup;
pub mod line;
pub mod orphans;
pub mod outside;
pub mod proc;
pub mod sandbox;
pub mod serve;
pub mod wire;

use std::path::{Path, PathBuf};

use agents::clock::TimeControl;
use agents::{Agent, AgentGame, AgentSpec, Kind, Params, SpecError};
use rules::{Mnk, Variant};

pub use child::Stderr;
pub use extra::{AnyAgent, Extra, ExtraKinds};
pub use outside::SetupError;

/// The outside kinds, listed after the agents' own.
pub const OUTSIDE_KINDS: &[Kind] = &[gomocup::KIND, proc::KIND];

/// Every agent kind: the agents' own, then the outside ones.
pub fn kinds() -> impl Iterator<Item = &'static Kind> {
    agents::KINDS.iter().chain(OUTSIDE_KINDS)
}

/// The kind named `name`; the error lists every listed kind.
pub fn kind(name: &str) -> Result<&'static Kind, SpecError> {
    Roster::new().kind(name)
}

/// Whether `spec` names an agent that runs in a process of its own.
pub fn is_outside(spec: &AgentSpec) -> bool {
    is_outside_kind(&spec.kind)
}

/// Whether the kind named `name` runs an outside program (`proc`, `engine`).
pub fn is_outside_kind(name: &str) -> bool {
    OUTSIDE_KINDS.iter().any(|k| k.name == name)
}

/// Whether the kind of `spec` plays `variant` (false for an unknown kind).
pub fn plays(spec: &AgentSpec, variant: &Variant) -> bool {
    Roster::new().plays(spec, variant)
}

/// Whether agents of `kind` play `variant`: its game and its number of players.
pub fn kind_plays(kind: &Kind, variant: &Variant) -> bool {
    kind.plays.includes(variant.family()) && (variant.players() == 2 || kind.multiplayer)
}

/// Checks a spec for `variant` without playing and without starting anything: the kind exists,
/// plays the variant (its game and its number of players), and every parameter is accepted.
pub fn check(spec: &AgentSpec, variant: &Variant) -> Result<(), SpecError> {
    Roster::new().check(spec, variant)
}

/// Builds the agent `spec` names, of any kind, for games of type `G`. Outside agents built here
/// discard their stderr and stop their process after each game; a [`Roster`] does better.
pub fn build<G: AgentGame>(spec: &AgentSpec) -> Result<Box<dyn Agent<G>>, SpecError> {
    Roster::new().build("agent", spec)
}

/// As [`build`], for a game of `players` players: refuses a kind that plays only two-player
/// games when `players` is more.
pub fn build_for<G: AgentGame>(
    spec: &AgentSpec,
    players: usize,
) -> Result<Box<dyn Agent<G>>, SpecError> {
    Roster::new().build_for("agent", spec, players)
}

/// Builds the agents of one run, tournament or session: where their stderr goes, and the pool
/// that keeps outside processes between games (stopped when the roster is dropped).
pub struct Roster {
    owner: outside::PoolOwner,
    logs: Logs,
    extra: Option<Extra>,
    folder: Option<PathBuf>,
    sandbox: sandbox::Sandbox,
}

enum Logs {
    Discard,
    Inherit,
    Folder(PathBuf),
}

impl Default for Roster {
    fn default() -> Self {
        Roster::new()
    }
}

impl Roster {
    /// A roster whose outside agents' stderr is discarded (unless their spec names a `log`).
    pub fn new() -> Roster {
        Roster {
            owner: outside::PoolOwner::new(),
            logs: Logs::Discard,
            extra: None,
            folder: None,
            sandbox: sandbox::Sandbox::off(),
        }
    }

    /// The same roster with outside agents run in `sandbox` (off unless set).
    pub fn with_sandbox(mut self, sandbox: sandbox::Sandbox) -> Roster {
        self.sandbox = sandbox;
        self
    }

    /// The sandbox outside agents run in.
    pub fn sandbox(&self) -> &sandbox::Sandbox {
        &self.sandbox
    }

    /// The same roster with outside agents run in `folder` (the experiment file's), their
    /// relative `cmd` and `args` paths resolving from there as its openings files do.
    pub fn with_folder(mut self, folder: Option<PathBuf>) -> Roster {
        self.folder = folder;
        self
    }

    /// The folder outside agents run in, if not the current one.
    pub fn folder(&self) -> Option<&Path> {
        self.folder.as_deref()
    }

    /// The same roster with the kinds `extra` builds looked up after ours.
    pub fn with_extra(mut self, extra: Option<Extra>) -> Roster {
        self.extra = extra;
        self
    }

    /// The kind named `name`: ours, then the extra ones; the error lists every listed kind.
    pub fn kind(&self, name: &str) -> Result<&'static Kind, SpecError> {
        kinds()
            .find(|k| k.name == name)
            .or_else(|| self.extra.as_ref().and_then(|extra| extra.kind(name)))
            .ok_or_else(|| SpecError::UnknownKind {
                kind: name.to_string(),
                known: self
                    .all_kinds()
                    .filter(|k| k.listed)
                    .map(|k| k.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Every kind this roster builds: ours, then the extra ones.
    pub fn all_kinds(&self) -> impl Iterator<Item = &'static Kind> + '_ {
        let extra: &'static [Kind] = self.extra.as_ref().map_or(&[], |extra| extra.0.kinds());
        kinds().chain(
            extra
                .iter()
                .filter(|k| kinds().all(|ours| ours.name != k.name)),
        )
    }

    /// Whether the kind of `spec` plays `variant` (false for an unknown kind).
    pub fn plays(&self, spec: &AgentSpec, variant: &Variant) -> bool {
        self.kind(&spec.kind)
            .is_ok_and(|kind| kind_plays(kind, variant))
    }

    /// Checks a spec for `variant` as [`check`] does, the extra kinds included.
    pub fn check(&self, spec: &AgentSpec, variant: &Variant) -> Result<(), SpecError> {
        rules::with_game!(variant, |start| self.build_at(spec, &start).map(drop))
    }

    /// The same roster with each outside agent's stderr appended to `<folder>/<name>.log`.
    pub fn with_log_folder(mut self, folder: &Path) -> Roster {
        self.logs = Logs::Folder(folder.to_path_buf());
        self
    }

    /// The same roster with outside agents' stderr on the arena's own (for a person watching).
    pub fn with_inherited_stderr(mut self) -> Roster {
        self.logs = Logs::Inherit;
        self
    }

    /// Where the stderr of the agent called `name` goes.
    pub fn stderr_of(&self, name: &str) -> Stderr {
        match &self.logs {
            Logs::Discard => Stderr::Discard,
            Logs::Inherit => Stderr::Inherit,
            Logs::Folder(folder) => Stderr::File(folder.join(format!("{}.log", file_name(name)))),
        }
    }

    /// [`Roster::build_for`] for games like `start` (its type and its number of players).
    fn build_at<G: AgentGame>(
        &self,
        spec: &AgentSpec,
        start: &G,
    ) -> Result<Box<dyn Agent<G>>, SpecError> {
        self.build_for("agent", spec, start.num_players())
    }

    /// As [`Roster::build`], for a game of `players` players: refuses a kind that plays only
    /// two-player games when `players` is more.
    pub fn build_for<G: AgentGame>(
        &self,
        name: &str,
        spec: &AgentSpec,
        players: usize,
    ) -> Result<Box<dyn Agent<G>>, SpecError> {
        let kind = self.kind(&spec.kind)?;
        if players > 2 && !kind.multiplayer {
            return Err(SpecError::Unsupported {
                kind: kind.name.to_string(),
                variant: format!("games of {players} players"),
                plays: kind.reach(),
            });
        }
        self.build(name, spec)
    }

    /// Builds the agent `spec` names, called `name` (its log file's name), for games of `G`.
    /// Nothing starts here: outside agents start their process at their first game.
    pub fn build<G: AgentGame>(
        &self,
        name: &str,
        spec: &AgentSpec,
    ) -> Result<Box<dyn Agent<G>>, SpecError> {
        let kind = self.kind(&spec.kind)?;
        let extra = self
            .extra
            .as_ref()
            .filter(|_| !kinds().any(|k| k.name == kind.name));
        if extra.is_none() && !is_outside(spec) {
            return agents::build::<G>(spec);
        }
        let unsupported = || SpecError::Unsupported {
            kind: kind.name.to_string(),
            variant: G::FAMILY.title.to_string(),
            plays: kind.plays.describe(),
        };
        if !kind.plays.includes(G::FAMILY) {
            return Err(unsupported());
        }
        if let Some(extra) = extra {
            return Ok(Box::new(extra::Seated::new(extra.0.build(name, spec)?)));
        }
        let params = Params::new(spec, kind.params)?;
        let key = format!("{name}\u{0}{spec}");
        let stderr = self.stderr_of(name);
        let pool = self.owner.pool();
        match kind.name {
            "proc" => {
                let mut config = proc::ProcConfig::from_params(&params, stderr, key)?;
                config.launch.folder = self.folder.clone();
                config.launch.sandbox = self.sandbox.clone();
                Ok(Box::new(proc::ProcAgent::<G>::new(config, pool)))
            }
            _ => {
                // Gomocup engines play m,n,k boards only (the kind says so): `G` is `Mnk`.
                let mut config = gomocup::EngineConfig::from_params(&params, stderr, key)?;
                config.launch.folder = self.folder.clone();
                config.launch.sandbox = self.sandbox.clone();
                let engine: Box<dyn Agent<Mnk>> = Box::new(gomocup::Engine::new(config, pool));
                extra::Via::seat(engine).map_err(|_| unsupported())
            }
        }
    }
}

/// A name made safe for a file name: letters, digits, `-`, `_` and `.` kept, the rest `_`.
fn file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    match safe.trim_start_matches('.') {
        "" => "agent".to_string(),
        rest => rest.to_string(),
    }
}

/// The pre-flight check of an outside agent before a run: its command starts, it answers the
/// protocol's handshake, and it accepts a game of each of `variants`; then it is stopped.
/// Agents of other kinds pass at once. `stderr` is where its stderr goes meanwhile.
///
/// What each kind can play is declared here: an `engine` is set up for each variant (the
/// rule it answers `OK` to) and understands every time control (Gomocup's `timeout_turn`,
/// `timeout_match` and `time_left`: an increment and periods reach it through `time_left`); a
/// `proc` agent accepts each variant with `ok` and plays a game clock only when it announces
/// `feature clock`.
pub fn preflight(
    spec: &AgentSpec,
    variants: &[Variant],
    stderr: Stderr,
    time_control: TimeControl,
) -> Result<(), SetupError> {
    preflight_in(
        spec,
        variants,
        stderr,
        time_control,
        None,
        &sandbox::Sandbox::off(),
    )
}

/// [`preflight`] with the agent run in `folder` (an experiment file's: [`Roster::with_folder`])
/// and in `sandbox` (the run's: [`Roster::with_sandbox`]).
pub fn preflight_in(
    spec: &AgentSpec,
    variants: &[Variant],
    stderr: Stderr,
    time_control: TimeControl,
    folder: Option<&Path>,
    sandbox: &sandbox::Sandbox,
) -> Result<(), SetupError> {
    if !is_outside(spec) {
        return Ok(());
    }
    let kind = kind(&spec.kind).map_err(|e| SetupError::Protocol(e.to_string()))?;
    let params = Params::new(spec, kind.params).map_err(|e| SetupError::Protocol(e.to_string()))?;
    let key = spec.to_string();
    match kind.name {
        "proc" => {
            let mut config = proc::ProcConfig::from_params(&params, stderr, key)
                .map_err(|e| SetupError::Protocol(e.to_string()))?;
            config.launch.folder = folder.map(Path::to_path_buf);
            config.launch.sandbox = sandbox.clone();
            proc::preflight(&config.launch, variants, time_control)
        }
        _ => {
            let mut config = gomocup::EngineConfig::from_params(&params, stderr, key)
                .map_err(|e| SetupError::Protocol(e.to_string()))?;
            config.launch.folder = folder.map(Path::to_path_buf);
            config.launch.sandbox = sandbox.clone();
            let boards: Vec<_> = variants
                .iter()
                .filter_map(Variant::rules::<rules::MnkConfig>)
                .collect();
            gomocup::preflight(&config.launch, &boards, config.max_memory)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_that_end_an_args_value_are_the_outside_kinds_own() {
        let mut keys: Vec<&str> = kinds()
            .filter(|k| {
                is_outside(&AgentSpec {
                    kind: k.name.into(),
                    params: vec![],
                })
            })
            .flat_map(|k| k.params.iter().map(|p| p.name))
            .filter(|&name| name != "args")
            .collect();
        keys.sort_unstable();
        keys.dedup();
        let mut listed = agents::spec::OUTSIDE_KEYS.to_vec();
        listed.sort_unstable();
        assert_eq!(keys, listed);
    }

    #[test]
    fn the_registry_knows_every_kind_and_builds_outside_ones_without_starting_them() {
        assert!(kinds().any(|k| k.name == "proc"));
        assert!(kinds().any(|k| k.name == "engine"));
        assert!(kinds().any(|k| k.name == "mcts"));
        let error = kind("nope").unwrap_err().to_string();
        assert!(error.contains("proc") && error.contains("engine") && !error.contains("fault"));
        let spec: AgentSpec = "proc:cmd=/nonexistent/x".parse().unwrap();
        assert!(build::<rules::OanQuan>(&spec).is_ok());
        assert!(plays(&spec, &"oanquan".parse().unwrap()));
        let engine: AgentSpec = "engine:cmd=/nonexistent/x".parse().unwrap();
        assert!(!plays(&engine, &"oanquan".parse().unwrap()));
        assert!(build::<rules::OanQuan>(&engine).is_err());
        assert!(build::<Mnk>(&engine).is_ok());
        assert!(check(&"proc".parse().unwrap(), &"tictactoe".parse().unwrap()).is_err());
        assert!(
            check(
                &"proc:cmd=x,margin_ms=-1".parse().unwrap(),
                &"tictactoe".parse().unwrap()
            )
            .is_err()
        );
    }

    #[test]
    fn log_file_names_are_safe() {
        assert_eq!(file_name("algo1 (python)"), "algo1__python_");
        assert_eq!(file_name("../x"), "_x");
        assert_eq!(file_name(""), "agent");
    }

    #[test]
    fn a_missing_command_fails_the_preflight_naming_it() {
        let spec: AgentSpec = "engine:cmd=/nonexistent/x".parse().unwrap();
        let error = preflight(
            &spec,
            &["gomoku".parse().unwrap()],
            Stderr::Discard,
            TimeControl::NONE,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "cannot start `/nonexistent/x`: no such file"
        );
        let spec: AgentSpec = "proc:cmd=/nonexistent/y".parse().unwrap();
        let error = preflight(
            &spec,
            &["oanquan".parse().unwrap()],
            Stderr::Discard,
            TimeControl::NONE,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "cannot start `/nonexistent/y`: no such file"
        );
    }
}
