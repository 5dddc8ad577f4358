//! Agent kinds built by a program that embeds the arena rather than by this workspace: the
//! Python package seats Python functions as the `py` kind this way.
//!
//! The program describes its kinds as ours are described ([`Kind`]: name, games, number of
//! players, parameters) and builds their agents; a [`Roster`](crate::Roster) given the factory
//! ([`Roster::with_extra`](crate::Roster::with_extra)) looks its kinds up after ours, so an
//! experiment's checks, its run's workers and `check` all go through the one registry.

use std::fmt;
use std::sync::Arc;

use agents::{Agent, AgentSpec, Kind, SpecError};
use rules::{Mnk, OanQuan};

/// Builds the agents of some kinds this workspace does not have.
pub trait ExtraKinds: Send + Sync {
    /// Its kinds. A name that is one of ours is never looked up here (ours come first).
    fn kinds(&self) -> &'static [Kind];

    /// Builds the agent `spec` names (one of [`ExtraKinds::kinds`]) for m,n,k games, called
    /// `name`. The roster has checked its game and number of players; the parameters are this
    /// method's to check.
    fn build_mnk(&self, name: &str, spec: &AgentSpec) -> Result<Box<dyn Agent<Mnk>>, SpecError>;

    /// As [`ExtraKinds::build_mnk`], for O An Quan (any number of players the kind plays).
    fn build_oanquan(
        &self,
        name: &str,
        spec: &AgentSpec,
    ) -> Result<Box<dyn Agent<OanQuan>>, SpecError>;
}

/// A shared factory, as rosters and experiments hold it: compared by identity (two experiments
/// are the same only if the same factory builds their agents), shown by its kinds' names.
#[derive(Clone)]
pub struct Extra(pub Arc<dyn ExtraKinds>);

impl Extra {
    /// Its kind named `name`, if it has one.
    pub fn kind(&self, name: &str) -> Option<&'static Kind> {
        self.0.kinds().iter().find(|k| k.name == name)
    }
}

impl fmt::Debug for Extra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.0.kinds().iter().map(|k| k.name).collect();
        write!(f, "Extra({})", names.join(", "))
    }
}

impl PartialEq for Extra {
    fn eq(&self, other: &Extra) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
