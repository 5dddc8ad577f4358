//! `random`: a uniformly random legal move (every seed's baseline).

use rules::Game;

use crate::{Agent, AgentError, Choice, Context, Kind, Params, Plays, SpecError};

pub(crate) const KIND: Kind = Kind {
    name: "random",
    summary: "a uniformly random legal move",
    plays: Plays::Every,
    params: &[],
    multiplayer: true,
    listed: true,
    memory: Some(|| crate::memory::SMALL.to_string()),
};

/// Plays a uniformly random legal move.
#[derive(Clone, Debug, Default)]
pub struct Random;

impl Random {
    pub(crate) fn from_params(_params: &Params<'_>) -> Result<Self, SpecError> {
        Ok(Random)
    }
}

impl<G: Game> Agent<G> for Random {
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        position
            .random_move(ctx.rng)
            .map(|mv| Choice::new(mv, 1))
            .ok_or_else(|| AgentError::Crash("asked to move in a finished game".into()))
    }
}
