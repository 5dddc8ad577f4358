//! Who may sit at the server's tables: a person, or an agent built from a spec. Every agent
//! the server plays is built by [`build_agent`], through the arena's registry of agent kinds
//! (`protocol`), and every spec a request names is read by [`agent_spec`]: both refuse the
//! outside kinds (`proc`, `engine`), which start a program named in their spec, because a web
//! request must never make the server start a program.
//!
//! The one exception is the operator's: `arena serve --agent NAME=SPEC` ([`OwnAgent`]) names
//! agents of any kind when the server starts. They are checked then ([`check_own`]: the runner's
//! pre-flight check on every variant the page offers, in the sandbox), and a request seats one
//! by its name: the spec always comes from the operator, never from the request.

use std::time::Duration;

use agents::AgentGame;
use agents::clock::TimeControl;
use agents::{Agent, AgentSpec, Kind};
use protocol::sandbox::{Mode, Sandbox};
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
    let Ok(kind) = protocol::kind(&spec.kind) else {
        // The kinds a request may name here, not every kind the arena has (`proc` and
        // `engine` are refused above).
        return Err(ApiError::bad(format!(
            "{what} `{text}`: unknown agent kind `{}`; this server seats: {}",
            spec.kind,
            seated_kinds().join(", ")
        )));
    };
    if !kind.listed {
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

/// The agent kinds a request may seat: the listed ones that run in the server's process.
pub fn seated_kinds() -> Vec<&'static str> {
    protocol::kinds()
        .filter(|kind| kind.listed && !protocol::is_outside_kind(kind.name))
        .map(|kind| kind.name)
        .collect()
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

/// An agent the operator seats (`arena serve --agent NAME=SPEC`): a name the pages show and
/// requests give, and a spec of any kind, outside ones included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnAgent {
    /// The name, as the set-up lists it and a request's seat names it.
    pub name: String,
    /// What plays.
    pub spec: AgentSpec,
}

impl OwnAgent {
    /// Reads `NAME=SPEC` (the text of `--agent`): the name is 1 to 32 letters, digits, `-`, `_`
    /// or `.`, and is not `human` nor the name of an agent kind (a seat's text would be read
    /// two ways); the spec is any agent spec whose kind exists. The error says which part is
    /// wrong.
    pub fn parse(text: &str) -> Result<OwnAgent, String> {
        let (name, spec) = text.split_once('=').ok_or_else(|| {
            format!("`{text}`: expected NAME=SPEC, like mine=proc:cmd=./my_agent")
        })?;
        let name = name.trim();
        if name.is_empty()
            || name.len() > 32
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(format!(
                "`{text}`: the name `{name}` should be 1 to 32 letters, digits, `-`, `_` or `.`"
            ));
        }
        if name.eq_ignore_ascii_case(PERSON) || protocol::kind(name).is_ok() {
            return Err(format!(
                "`{text}`: the name `{name}` is taken (`{PERSON}` and the agent kinds' names \
                 stand for themselves in a seat); choose another"
            ));
        }
        let spec: AgentSpec = spec
            .trim()
            .parse()
            .map_err(|error| format!("`{text}`: {error}"))?;
        protocol::kind(&spec.kind).map_err(|error| format!("`{text}`: {error}"))?;
        Ok(OwnAgent {
            name: name.to_string(),
            spec,
        })
    }
}

/// An operator's agent as the server offers it: the variants it passed the pre-flight check
/// on, or why it is unavailable.
#[derive(Clone, Debug)]
pub struct Offered {
    /// The agent.
    pub agent: OwnAgent,
    /// The canonical ids of the offered variants it plays.
    pub variants: Vec<String>,
    /// Why it plays none (its command does not start, the sandbox it needs is missing, it
    /// declined every variant), or `None`.
    pub unavailable: Option<String>,
}

/// Checks each operator agent on every variant the pages offer whose game and number of
/// players its kind plays: outside agents by the runner's pre-flight check
/// ([`protocol::preflight_in`]: started in `sandbox`, asked for the variant, stopped), the
/// others by [`protocol::check`]. Blocks while the programs start (an agent after another,
/// [`CHECKS_AT_ONCE`] of its variants at once); an agent that fails is offered as
/// unavailable, with the reason.
pub fn check_own(agents: &[OwnAgent], sandbox: Mode) -> Vec<Offered> {
    let variants: Vec<Variant> = rules::FAMILIES
        .iter()
        .flat_map(|family| crate::api_analyse::family_variant_ids(family))
        .filter_map(|id| id.parse().ok())
        .collect();
    agents
        .iter()
        .map(|agent| check_one(agent, &variants, sandbox))
        .collect()
}

/// How many of an agent's pre-flight checks run at once (a process each).
pub const CHECKS_AT_ONCE: usize = 8;

fn check_one(agent: &OwnAgent, variants: &[Variant], mode: Mode) -> Offered {
    let unavailable = |why: String| Offered {
        agent: agent.clone(),
        variants: Vec::new(),
        unavailable: Some(why),
    };
    let sandbox = Sandbox::new(mode);
    let outside = protocol::is_outside(&agent.spec);
    if outside && let Err(missing) = sandbox.check() {
        return unavailable(missing.to_string());
    }
    let check = |variant: &Variant| check_variant(agent, variant, mode);
    let played: Vec<&Variant> = variants
        .iter()
        .filter(|v| protocol::plays(&agent.spec, v))
        .collect();
    let mut passed = Vec::new();
    let mut first_error = None;
    for chunk in played.chunks(CHECKS_AT_ONCE) {
        let results: Vec<Result<(), String>> = std::thread::scope(|scope| {
            let running: Vec<_> = chunk
                .iter()
                .map(|variant| scope.spawn(|| check(variant)))
                .collect();
            running
                .into_iter()
                .map(|run| {
                    run.join()
                        .unwrap_or_else(|_| Err("its check failed".into()))
                })
                .collect()
        });
        for (variant, checked) in chunk.iter().zip(results) {
            match checked {
                Ok(()) => passed.push(variant.to_string()),
                Err(error) => {
                    first_error.get_or_insert(format!("{variant}: {error}"));
                }
            }
        }
    }
    if passed.is_empty() {
        return unavailable(
            first_error.unwrap_or_else(|| "its kind plays none of the games offered".into()),
        );
    }
    Offered {
        agent: agent.clone(),
        variants: passed,
        unavailable: None,
    }
}

/// The operator's agent a request's seat names by its name, if any.
pub fn find_own<'a>(offered: &'a [Offered], text: &str) -> Option<&'a Offered> {
    offered.iter().find(|o| o.agent.name == text.trim())
}

impl Offered {
    /// Whether `variant` is one it did not pass nor fail at start but its kind plays (an id
    /// typed by hand): its check is made when a game asks for it ([`check_variant`]).
    pub fn to_check(&self, variant: &Variant) -> bool {
        self.unavailable.is_none()
            && !self.variants.contains(&variant.to_string())
            && protocol::plays(&self.agent.spec, variant)
            && !crate::api_analyse::family_variant_ids(variant.family())
                .contains(&variant.to_string())
    }
}

/// The spec of the operator's agent `own` for a seat (`what`) of `variant`: refused where it
/// is unavailable or does not play the variant; `checked_now` is its check on a variant it
/// was not checked on at start ([`Offered::to_check`]).
pub fn own_seat(
    own: &Offered,
    variant: &Variant,
    what: &str,
    checked_now: Option<Result<(), String>>,
) -> Result<AgentSpec, ApiError> {
    let name = &own.agent.name;
    if let Some(why) = &own.unavailable {
        return Err(ApiError::bad(format!(
            "{what} `{name}`: this agent is unavailable: {why}"
        )));
    }
    if own.variants.contains(&variant.to_string()) {
        return Ok(own.agent.spec.clone());
    }
    match checked_now {
        Some(Ok(())) => Ok(own.agent.spec.clone()),
        Some(Err(why)) => Err(ApiError::bad(format!(
            "{what} `{name}` cannot play `{variant}`: {why}"
        ))),
        None => Err(ApiError::bad(format!(
            "{what} `{name}`: it plays {} here (what passed its check when the server \
             started), not `{variant}`",
            own.variants.join(", ")
        ))),
    }
}

/// The pre-flight check of the operator's agent `agent` on `variant` (outside agents started in
/// the sandbox of `mode`, asked for the variant, stopped; the others checked as specs).
pub fn check_variant(agent: &OwnAgent, variant: &Variant, mode: Mode) -> Result<(), String> {
    if protocol::is_outside(&agent.spec) {
        protocol::preflight_in(
            &agent.spec,
            std::slice::from_ref(variant),
            protocol::Stderr::Discard,
            TimeControl::NONE,
            None,
            &Sandbox::new(mode),
        )
        .map_err(|error| error.to_string())
    } else {
        protocol::check(&agent.spec, variant).map_err(|error| error.to_string())
    }
}

/// What an agent of `spec` may hold in memory at most, in MiB, as its settings say: the sum of
/// its kind's memory parameters (`tt_mb`, `tree_mb`: every parameter named `*_mb`, given or by
/// default), and 1 MiB for the small tables of every agent; an outside agent (an operator's
/// program) the sandbox's memory limit. The server charges a table these figures against [`crate::Options::table_memory_mb`].
pub fn memory_mb(spec: &AgentSpec) -> u64 {
    if protocol::is_outside(spec) {
        // A program of its own: what the sandbox lets it take (the default limit, which
        // `--sandbox off` does not lift from the server's count).
        return Sandbox::new(Mode::BestEffort).limits.memory_mb;
    }
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
    fn an_unknown_kind_is_refused_listing_only_the_kinds_the_server_seats() {
        let variant: Variant = "tictactoe".parse().unwrap();
        let error = agent_spec("wizard", &variant, "seat 2")
            .unwrap_err()
            .to_string();
        let listed = error
            .split_once("this server seats: ")
            .unwrap_or_else(|| panic!("{error}"))
            .1;
        let kinds: Vec<&str> = listed.split(", ").collect();
        assert!(
            kinds.contains(&"random") && kinds.contains(&"mcts"),
            "{error}"
        );
        for refused in ["proc", "engine", "fault"] {
            assert!(!kinds.contains(&refused), "`{refused}` is listed: {error}");
        }
        // Every kind listed is one the server seats.
        for kind in kinds {
            let seated = agent_spec(kind, &variant, "seat 2");
            let refused = seated
                .as_ref()
                .err()
                .map(ToString::to_string)
                .unwrap_or_default();
            assert!(
                !refused.contains("does not seat") && !refused.contains("not among"),
                "`{kind}`: {refused}"
            );
        }
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
