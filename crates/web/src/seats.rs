//! Who may sit at the server's tables: a person, or an agent built from a spec. Every agent
//! the server plays is built by [`build_agent`], so a registry of agents (outside engines, say)
//! can take its place in one spot.

use agents::{Agent, AgentGame, AgentSpec};
use rules::Variant;

use crate::error::ApiError;

/// The seat text that stands for a person.
pub const PERSON: &str = arena::played::HUMAN;

/// Whether the server seats agents of `kind`: every listed kind but `engine`, which starts a
/// program named in its spec, and a page must never be able to make the server start a
/// program.
pub fn offered(kind: &agents::Kind) -> bool {
    kind.listed && kind.name != "engine"
}

/// Reads an agent spec for `variant`: it parses, its kind is offered, plays the variant and its
/// number of players, and every parameter is accepted. `what` names it in the error.
pub fn agent_spec(text: &str, variant: &Variant, what: &str) -> Result<AgentSpec, ApiError> {
    let spec: AgentSpec = text
        .parse()
        .map_err(|error| ApiError::bad(format!("{what} `{text}`: {error}")))?;
    match agents::kind(&spec.kind) {
        Ok(kind) if !offered(kind) => {
            return Err(ApiError::bad(format!(
                "{what} `{text}`: the server does not seat `{}` agents (they start programs); \
                 play them with `arena play` in a terminal",
                kind.name
            )));
        }
        _ => {}
    }
    agents::check(&spec, variant)
        .map_err(|error| ApiError::bad(format!("{what} `{text}`: {error}")))?;
    Ok(spec)
}

/// Builds the agent `spec` for a table of `players` seats of game `G`. The one place the
/// server builds agents.
pub fn build_agent<G: AgentGame>(
    spec: &AgentSpec,
    players: usize,
) -> Result<Box<dyn Agent<G>>, ApiError> {
    agents::build_for::<G>(spec, players)
        .map_err(|error| ApiError::bad(format!("agent `{spec}`: {error}")))
}
