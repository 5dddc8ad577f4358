//! The Gomocup (piskvork) protocol, both ways: the `engine` agent drives an outside engine
//! (`pbrain-*` executables, or any program speaking the protocol on stdin/stdout), and
//! [`serve`] puts any agent behind the protocol (`arena engine --agent SPEC`).
//!
//! Coordinates are 0-based `x,y` = column,row. Besides the standard commands the arena sends
//! two `INFO` keys: `win_length K` when k is not 5, and, only to engines whose spec says
//! `private=on`, `arena_rng SEED:STREAM:WORD` (the state of the RNG the arena handed the agent,
//! so that our own agents behind the protocol draw exactly what they would draw in-process).
//! Real engines answer unknown keys with `ERROR`, so nothing private is sent by default.

pub mod command;
mod engine;
mod serve;

use agents::{Kind, ParamDoc, Params, Plays, SpecError};
use rules::WinRule;

use crate::child::Stderr;
use crate::outside::{ARGS, CMD, DIR, LOG, Launch, MARGIN, START, TIMEOUT};

pub use engine::Engine;
pub(crate) use engine::preflight;
pub use serve::{about, serve};

/// What a Gomocup process is called in messages.
pub const ROLE: &str = "the engine";

const RESTART: ParamDoc = ParamDoc {
    name: "restart",
    default: "on",
    doc: "off: keep the engine between games (RESTART, or START for another board size)",
};

const MAX_MEMORY: ParamDoc = ParamDoc {
    name: "max_memory_mb",
    default: "350",
    doc: "the memory limit sent as INFO max_memory, MiB (Gomocup's 350; 0: no limit, which many \
          engines read as \"take a large table\")",
};

const SETUP: ParamDoc = ParamDoc {
    name: "setup_ms",
    default: "10000",
    doc: "how much longer than its turn the engine's first move of a game may take (engines \
          set up their tables then; not counted as a turn's time by piskvork either)",
};

const QUIET: ParamDoc = ParamDoc {
    name: "quiet_ms",
    default: "20",
    doc: "nothing is written to the engine sooner than this after its answer (engines still \
          finishing a move drop a word that comes sooner)",
};

const PRIVATE: ParamDoc = ParamDoc {
    name: "private",
    default: "off",
    doc: "on: send INFO arena_rng (our own agents behind `arena engine` then replay exactly)",
};

pub(crate) const KIND: Kind = Kind {
    name: "engine",
    summary: "an outside engine speaking the Gomocup (piskvork) protocol",
    plays: Plays::Only(&rules::mnk::FAMILY),
    params: &[
        CMD, TIMEOUT, MARGIN, START, SETUP, MAX_MEMORY, QUIET, RESTART, PRIVATE, LOG, DIR, ARGS,
    ],
    multiplayer: false,
    listed: true,
    memory: Some(|| {
        "an outside process: its own memory (told by INFO max_memory), not ours".to_string()
    }),
};

/// The settings of an `engine` agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// How to start it and its times.
    pub launch: Launch,
    /// A fresh process for every game (the default); `false` keeps it between games.
    pub restart: bool,
    /// Send the private `INFO arena_rng`.
    pub private: bool,
    /// `INFO max_memory`, in bytes (0: no limit).
    pub max_memory: u64,
    /// How long after its answer the engine is left alone before the next line.
    pub quiet: std::time::Duration,
    /// How much longer than its turn the first move of a game may take.
    pub setup: std::time::Duration,
}

impl EngineConfig {
    pub(crate) fn from_params(
        params: &Params<'_>,
        stderr: Stderr,
        key: String,
    ) -> Result<Self, SpecError> {
        Ok(EngineConfig {
            launch: Launch::from_params("engine", params, stderr, key)?,
            restart: params.bool("restart", true)?,
            private: params.bool("private", false)?,
            max_memory: params.u64("max_memory_mb", 350, 0..=1 << 20)? << 20,
            quiet: std::time::Duration::from_millis(params.u64("quiet_ms", 20, 0..=1000)?),
            setup: std::time::Duration::from_millis(params.u64("setup_ms", 10_000, 0..=600_000)?),
        })
    }
}

/// Gomocup's `rule` bits for our win rules: 1 = exactly five, 8 = caro.
pub fn rule_bits(rule: WinRule) -> u32 {
    match rule {
        WinRule::Freestyle => 0,
        WinRule::Exact => 1,
        WinRule::Caro => 8,
    }
}
