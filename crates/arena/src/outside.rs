//! Agents of kinds the `agents` crate does not know, built by whoever embeds the arena.
//!
//! A program that runs experiments through this crate can seat agents of its own next to ours:
//! it implements [`OutsideAgents`] for the kinds it builds and hands the factory to
//! [`Experiment::from_toml_with`](crate::Experiment::from_toml_with). The experiment then
//! checks specs of those kinds with the factory instead of the roster, and the run builds their
//! agents with it. The Python package seats Python functions this way (`py:name=NAME`); a
//! registry of outside processes could do the same.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use agents::{Agent, AgentGame, AgentSpec};
use rules::{Mnk, OanQuan, Variant};

/// An agent built by an [`OutsideAgents`] factory, for the game of the variant it was built for.
pub enum OutsideAgent {
    /// For an m,n,k game.
    Mnk(Box<dyn Agent<Mnk>>),
    /// For O An Quan.
    OanQuan(Box<dyn Agent<OanQuan>>),
}

impl OutsideAgent {
    /// The agent as one for games of type `G`, `None` if it was built for another game.
    pub fn typed<G: AgentGame>(self) -> Option<Box<dyn Agent<G>>> {
        let any: Box<dyn Any> = match self {
            OutsideAgent::Mnk(agent) => Box::new(agent),
            OutsideAgent::OanQuan(agent) => Box::new(agent),
        };
        any.downcast::<Box<dyn Agent<G>>>().ok().map(|agent| *agent)
    }
}

/// Builds the agents of some kinds the roster does not have.
pub trait OutsideAgents: Send + Sync {
    /// Whether specs of kind `kind` are this factory's.
    fn knows(&self, kind: &str) -> bool;

    /// Checks a spec of one of its kinds for `variant` (parameters, game, number of players):
    /// `Err` says what is wrong, in words for an error message.
    fn check(&self, spec: &AgentSpec, variant: &Variant) -> Result<(), String>;

    /// Builds the agent `spec` names for a game of `variant` (checked before).
    fn build(&self, spec: &AgentSpec, variant: &Variant) -> Result<OutsideAgent, String>;
}

/// A shared factory, as experiments hold it: compared by identity, shown by name only.
#[derive(Clone)]
pub struct Outside(pub Arc<dyn OutsideAgents>);

impl fmt::Debug for Outside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Outside(..)")
    }
}

impl PartialEq for Outside {
    fn eq(&self, other: &Outside) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
