//! `fault`: an agent that misbehaves on purpose, to test how the arena handles faults. It
//! plays random moves, then from ply `after` on it panics, returns an illegal move, sleeps
//! past any time limit, or returns an agent error, as `mode` says. Not listed by `arena list`.

use std::time::Duration;

use crate::{
    Agent, AgentError, AgentGame, Choice, Context, Kind, ParamDoc, Params, Plays, SpecError,
};

const MODES: &[&str] = &["panic", "illegal", "sleep", "error"];

pub(crate) const KIND: Kind = Kind {
    name: "fault",
    summary: "misbehaves on purpose (panic, illegal move, sleep, error) to test fault handling",
    plays: Plays::Every,
    params: &[
        ParamDoc {
            name: "mode",
            default: "panic",
            doc: "panic | illegal | sleep | error",
        },
        ParamDoc {
            name: "after",
            default: "0",
            doc: "plies of the game before the fault (random moves until then)",
        },
        ParamDoc {
            name: "ms",
            default: "200",
            doc: "how long `sleep` sleeps before answering, in milliseconds",
        },
    ],
    multiplayer: true,
    listed: false,
    memory: Some(|| crate::memory::SMALL.to_string()),
};

/// How the `fault` agent misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultMode {
    /// Panics.
    Panic,
    /// Returns a move that is not legal.
    Illegal,
    /// Sleeps, then plays a random move.
    Sleep,
    /// Returns an [`AgentError::Crash`].
    Error,
}

/// An agent that misbehaves on purpose.
#[derive(Clone, Debug)]
pub struct Fault {
    mode: FaultMode,
    after: u32,
    sleep: Duration,
}

impl Fault {
    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let mode = match params.choice("mode", "panic", MODES)? {
            "illegal" => FaultMode::Illegal,
            "sleep" => FaultMode::Sleep,
            "error" => FaultMode::Error,
            _ => FaultMode::Panic,
        };
        Ok(Fault {
            mode,
            after: params.u64("after", 0, 0..=100_000)? as u32,
            sleep: Duration::from_millis(params.u64("ms", 200, 0..=600_000)?),
        })
    }
}

impl<G: AgentGame> Agent<G> for Fault {
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        if position.ply() >= self.after {
            match self.mode {
                FaultMode::Panic => panic!("the fault agent panics, as asked"),
                FaultMode::Illegal => return Ok(Choice::new(position.illegal_move(), 0)),
                FaultMode::Sleep => std::thread::sleep(self.sleep),
                FaultMode::Error => {
                    return Err(AgentError::Crash("the fault agent fails, as asked".into()));
                }
            }
        }
        position
            .random_move(ctx.rng)
            .map(|mv| Choice::new(mv, 1))
            .ok_or_else(|| AgentError::Crash("asked to move in a finished game".into()))
    }
}
