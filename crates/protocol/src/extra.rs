//! Agent kinds built by a program that embeds the arena rather than by this workspace: the
//! Python package seats Python functions as the `py` kind this way.
//!
//! The program describes its kinds as ours are described ([`Kind`]: name, games, number of
//! players, parameters) and builds their agents as [`AnyAgent`]s, which play positions of
//! any game ([`AnyGame`]) and answer with an action ([`rules::Game::action`]); a
//! [`Roster`](crate::Roster) given the factory ([`Roster::with_extra`](crate::Roster::with_extra))
//! looks its kinds up after ours and seats them at any game, so an experiment's checks, its
//! run's workers and `check` all go through the one registry.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Duration;

use agents::{Agent, AgentError, AgentSpec, Choice, Context, Kind, SpecError};
use rules::{AnyGame, Game, Outcome, Player};

/// A player of every game, on positions of any game: an embedding program's agents.
pub trait AnyAgent: Send {
    /// Chooses a move for `position` (not over), as an action of the player to move
    /// ([`rules::Game::action`]). Draws randomness only from `ctx.rng`.
    fn choose(
        &mut self,
        position: &AnyGame,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<u32>, AgentError>;
}

/// Builds the agents of some kinds this workspace does not have.
pub trait ExtraKinds: Send + Sync {
    /// Its kinds. A name that is one of ours is never looked up here (ours come first).
    fn kinds(&self) -> &'static [Kind];

    /// Builds the agent `spec` names (one of [`ExtraKinds::kinds`]), called `name`. The
    /// roster has checked its game and number of players; the parameters are this method's
    /// to check.
    fn build(&self, name: &str, spec: &AgentSpec) -> Result<Box<dyn AnyAgent>, SpecError>;
}

/// An [`AnyAgent`] seated at a game of type `G`.
pub struct Seated<G> {
    agent: Box<dyn AnyAgent>,
    game: PhantomData<fn(G)>,
}

impl<G> Seated<G> {
    /// Seats `agent`.
    pub fn new(agent: Box<dyn AnyAgent>) -> Seated<G> {
        Seated {
            agent,
            game: PhantomData,
        }
    }
}

impl<G: Game> Agent<G> for Seated<G> {
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        let any: AnyGame = position.clone().into();
        let choice = self.agent.choose(&any, ctx)?;
        let mv = position.move_of(choice.mv).ok_or_else(|| {
            AgentError::IllegalMove(format!(
                "action {} is out of range (0 to {})",
                choice.mv,
                position.num_actions() - 1
            ))
        })?;
        let pv = agents::pv::from_actions(position, &choice.pv);
        Ok(Choice {
            mv,
            stats: choice.stats,
            pv,
        })
    }
}

/// An agent of one game's type `A` seated at a game of type `G` that is the same game (the
/// registry's types are only known to match at run time): positions and moves pass through
/// [`AnyGame`] and actions, which cost nothing next to what such agents do (outside engines).
pub struct Via<A: Game, G> {
    agent: Box<dyn Agent<A>>,
    game: PhantomData<fn(G)>,
}

impl<A: Game, G: Game> Via<A, G> {
    /// Seats `agent` at games of type `G`, or gives it back when `G` is another game.
    pub fn seat(agent: Box<dyn Agent<A>>) -> Result<Box<dyn Agent<G>>, Box<dyn Agent<A>>> {
        if A::FAMILY == G::FAMILY {
            Ok(Box::new(Via {
                agent,
                game: PhantomData,
            }))
        } else {
            Err(agent)
        }
    }

    fn position(position: &G) -> Result<A, AgentError> {
        A::from_any(position.clone().into()).ok_or_else(|| {
            AgentError::Crash(format!(
                "a position of {} given to an agent of {}",
                G::FAMILY.title,
                A::FAMILY.title
            ))
        })
    }
}

impl<A: Game, G: Game> Agent<G> for Via<A, G> {
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        let own = Self::position(position)?;
        let choice = self.agent.choose(&own, ctx)?;
        let mv = own
            .action(choice.mv)
            .and_then(|action| position.move_of(action))
            .ok_or_else(|| AgentError::IllegalMove(format!("{:?}", choice.mv)))?;
        let pv = agents::pv::from_actions(position, &agents::pv::actions(&own, &choice.pv));
        Ok(Choice {
            mv,
            stats: choice.stats,
            pv,
        })
    }

    fn start_game(
        &mut self,
        position: &G,
        seat: Player,
        ctx: &mut Context<'_>,
    ) -> Result<(), AgentError> {
        let own = Self::position(position)?;
        self.agent.start_game(&own, seat, ctx)
    }

    fn end_game(&mut self, position: &G, outcome: Outcome, termination: &str) {
        if let Ok(own) = Self::position(position) {
            self.agent.end_game(&own, outcome, termination);
        }
    }

    fn time_margin(&self) -> Duration {
        self.agent.time_margin()
    }
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
