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
use crate::outside::{ARGS, CMD, LOG, Launch, MARGIN, START, TIMEOUT};

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

const PRIVATE: ParamDoc = ParamDoc {
    name: "private",
    default: "off",
    doc: "on: send INFO arena_rng (our own agents behind `arena engine` then replay exactly)",
};

pub(crate) const KIND: Kind = Kind {
    name: "engine",
    summary: "an outside engine speaking the Gomocup (piskvork) protocol",
    plays: Plays::Only(&rules::mnk::FAMILY),
    params: &[CMD, TIMEOUT, MARGIN, START, RESTART, PRIVATE, LOG, ARGS],
    multiplayer: false,
    listed: true,
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
