//! Who may sit at the server's tables: a person, or an agent built from a spec. Every agent
//! the server plays is built by [`build_agent`], through the arena's registry of agent kinds
//! (`protocol`), and every spec a request names is read by [`agent_spec`]: both refuse the
//! outside kinds (`proc`, `engine`), which start a program named in their spec, because a web
//! request must never make the server start a program.

use std::time::Duration;

use agents::AgentGame;
use agents::{Agent, AgentSpec, Kind};
use rules::Variant;

use crate::error::ApiError;

/// The seat text that stands for a person.
pub const PERSON: &str = arena::played::HUMAN;

/// Whether the server seats agents of `kind`: every listed kind of the registry but the
/// outside ones (`proc`, `engine`), which start programs.
pub fn offered(kind: &Kind) -> bool {
    kind.listed && !protocol::OUTSIDE_KINDS.iter().any(|k| k.name == kind.name)
}

/// The kinds the server seats, in the registry's order (for the pages' lists).
pub fn offered_kinds() -> impl Iterator<Item = &'static Kind> {
    protocol::kinds().filter(|k| offered(k))
}

/// The refusal of an outside kind, `what` naming where the spec came from.
fn refuse_outside(what: &str, spec: &AgentSpec) -> ApiError {
    ApiError::bad(format!(
        "{what} `{spec}`: the server does not seat `{}` agents: they start a program, and a web \
         request never makes the server start one. Play them with `arena play` in a terminal",
        spec.kind
    ))
}

/// Reads an agent spec for `variant`: it parses, its kind is offered (never `proc` or
/// `engine`, nor an unlisted kind), plays the variant and its number of players, and every parameter is accepted.
/// `what` names it in the error.
pub fn agent_spec(text: &str, variant: &Variant, what: &str) -> Result<AgentSpec, ApiError> {
    let spec: AgentSpec = text
        .parse()
        .map_err(|error| ApiError::bad(format!("{what} `{text}`: {error}")))?;
    if protocol::is_outside(&spec) {
        return Err(refuse_outside(what, &spec));
    }
    if let Ok(kind) = protocol::kind(&spec.kind)
        && !kind.listed
    {
        return Err(ApiError::bad(format!(
            "{what} `{text}`: `{}` is not among the agent kinds `arena list` shows (it is for \
             the arena's own tests)",
            kind.name
        )));
    }
    // Checking builds the agent, which for the kinds left starts nothing.
    protocol::check(&spec, variant)
        .map_err(|error| ApiError::bad(format!("{what} `{text}`: {error}")))?;
    Ok(spec)
}

/// Refuses a spec that asks to think longer than the server lets an agent think about a move
/// (`time_ms` over `limit`), saying so, where it would be cut short in silence.
pub fn within_think_limit(spec: &AgentSpec, limit: Duration, what: &str) -> Result<(), ApiError> {
    let asked = spec
        .params
        .iter()
        .find(|(key, _)| key == "time_ms")
        .and_then(|(_, value)| value.parse::<u64>().ok());
    match asked {
        Some(ms) if u128::from(ms) > limit.as_millis() => Err(ApiError::bad(format!(
            "{what} `{spec}`: time_ms={ms} is more than this server lets an agent think about a \
             move ({} ms; `arena serve --think-limit` sets it)",
            limit.as_millis()
        ))),
        _ => Ok(()),
    }
}

/// Builds the agent `spec` for a table of `players` seats of game `G`: the one place the
/// server builds agents. Refuses the outside kinds again, so no path to it can start a
/// program.
pub fn build_agent<G: AgentGame>(
    spec: &AgentSpec,
    players: usize,
) -> Result<Box<dyn Agent<G>>, ApiError> {
    if protocol::is_outside(spec) {
        return Err(refuse_outside("agent", spec));
    }
    if protocol::kind(&spec.kind).is_ok_and(|kind| !kind.listed) {
        return Err(ApiError::bad(format!(
            "agent `{spec}`: not a kind the server seats"
        )));
    }
    protocol::build_for::<G>(spec, players)
        .map_err(|error| ApiError::bad(format!("agent `{spec}`: {error}")))
}

/// What an agent of `spec` may hold in memory at most, in MiB, as its settings say: the sum of
/// its kind's memory parameters (`tt_mb`, `tree_mb`: every parameter named `*_mb`, given or by
/// default), and 1 MiB for the small tables of every agent. The server charges a table these
/// figures against [`crate::Options::table_memory_mb`].
pub fn memory_mb(spec: &AgentSpec) -> u64 {
    let Ok(kind) = protocol::kind(&spec.kind) else {
        return 1;
    };
    1 + kind
        .params
        .iter()
        .filter(|doc| doc.name.ends_with("_mb"))
        .map(|doc| {
            let given = spec.params.iter().find(|(key, _)| key == doc.name);
            given
                .map(|(_, value)| value.as_str())
                .unwrap_or(doc.default)
                .parse::<u64>()
                .unwrap_or(0)
        })
        .sum::<u64>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Mnk;

    #[test]
    fn outside_kinds_are_never_offered_nor_built() {
        let names: Vec<&str> = offered_kinds().map(|k| k.name).collect();
        assert!(names.contains(&"random") && names.contains(&"alphabeta"));
        for outside in ["proc", "engine"] {
            assert!(!names.contains(&outside), "{outside} offered: {names:?}");
        }
        let variant: Variant = "tictactoe".parse().unwrap();
        for text in ["proc:cmd=/bin/sh", "engine:cmd=/bin/true"] {
            let error = agent_spec(text, &variant, "seat 2").unwrap_err();
            assert!(
                error.to_string().contains("never makes the server start"),
                "{error}"
            );
            let spec: AgentSpec = text.parse().unwrap();
            assert!(build_agent::<Mnk>(&spec, 2).is_err());
        }
        assert!(agent_spec("random", &variant, "seat 2").is_ok());
        assert!(agent_spec("fault", &variant, "seat 2").is_err(), "unlisted");
    }

    #[test]
    fn a_think_time_over_the_server_s_limit_is_refused_saying_so() {
        let limit = Duration::from_secs(60);
        let check = |text: &str| within_think_limit(&text.parse().unwrap(), limit, "seat 2");
        let error = check("mcts:time_ms=70000").unwrap_err().to_string();
        assert!(
            error.contains(
                "time_ms=70000 is more than this server lets an agent think about a move (60000 ms"
            ),
            "{error}"
        );
        assert!(check("mcts:time_ms=60000").is_ok());
        assert!(check("alphabeta:depth=4").is_ok());
    }

    #[test]
    fn an_agent_is_charged_its_memory_settings() {
        let charge = |text: &str| memory_mb(&text.parse().unwrap());
        assert_eq!(charge("random"), 1);
        assert_eq!(charge("alphabeta"), 65, "64 MiB by default");
        assert_eq!(charge("alphabeta:tt_mb=512,depth=4"), 513);
        assert_eq!(charge("mcts:tree_mb=32"), 33);
    }
}
