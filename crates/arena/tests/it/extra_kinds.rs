//! Agents of an embedding program's kinds (`protocol::extra`): looked up by the experiment's
//! roster after ours, checked and played like ours, refused with a clear message without them.

use crate::common;

use std::sync::Arc;

use agents::{AgentSpec, Choice, Context, Kind, Params, Plays, SpecError};
use arena::{Experiment, Shard};
use protocol::{AnyAgent, ExtraKinds};
use rules::{AnyGame, Game, MoveList};

/// An agent that always plays the last legal move.
struct Last;

impl AnyAgent for Last {
    fn choose(
        &mut self,
        position: &AnyGame,
        _ctx: &mut Context<'_>,
    ) -> Result<Choice<u32>, agents::AgentError> {
        rules::with_position!(position, |game| {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            let last = *moves.last().expect("not over");
            Ok(Choice::new(game.action(last).expect("the mover's"), 1))
        })
    }
}

/// Builds `last` agents, for m,n,k games only.
struct Factory;

const LAST: Kind = Kind {
    name: "last",
    summary: "plays the last legal move",
    plays: Plays::Only(&rules::mnk::FAMILY),
    params: &[],
    multiplayer: false,
    listed: true,
    memory: None,
};

impl ExtraKinds for Factory {
    fn kinds(&self) -> &'static [Kind] {
        &[LAST]
    }

    fn build(&self, _name: &str, spec: &AgentSpec) -> Result<Box<dyn AnyAgent>, SpecError> {
        Params::new(spec, LAST.params)?;
        Ok(Box::new(Last))
    }
}

const TEXT: &str = r#"
name = "outside"
seed = 5
games_per_pair = 4
variants = ["tictactoe", "oanquan"]

[[agents]]
name = "last"
spec = "last"

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "greedy"
spec = "greedy"
"#;

fn factory() -> Option<Arc<dyn ExtraKinds>> {
    Some(Arc::new(Factory))
}

#[test]
fn an_extra_kind_is_looked_up_by_the_roster_and_plays_where_it_says() {
    let experiment = Experiment::from_toml_with(TEXT, "outside.toml", factory()).unwrap();
    let last = &experiment.agents[0];
    assert_eq!(last.kind.name, "last");
    assert!(experiment.extra.is_some());
    let roster = experiment.roster();
    assert!(roster.all_kinds().any(|k| k.name == "last"));
    assert!(roster.all_kinds().any(|k| k.name == "proc"));
    assert!(last.plays(&"tictactoe".parse().unwrap()));
    assert!(!last.plays(&"oanquan".parse().unwrap()));

    let out = common::scratch("outside");
    arena::run(&experiment, &common::options(&out, 2, Shard::WHOLE)).unwrap();
    let rows = common::without_timing(&out.join("games.csv"));
    let header = &rows[0];
    let column = |name: &str| header.iter().position(|c| c == name).unwrap();
    // tictactoe: last against random (4 games); oanquan: random against greedy (4 games).
    assert_eq!(rows.len(), 1 + 8);
    for row in &rows[1..] {
        let seated = [&row[column("first")], &row[column("second")]];
        if row[column("variant")] == "oanquan" {
            assert!(!seated.contains(&&"last".to_string()));
            continue;
        }
        assert!(seated.contains(&&"last".to_string()), "{row:?}");
        // The last legal move every time: where `last` moves first, its first stone is c3.
        if row[column("first")] == "last" {
            assert_eq!(row[column("moves")].split(' ').next(), Some("c3"));
        }
        assert_ne!(row[column("termination")], "crash");
    }
    // The same again with one thread: the CSV does not depend on it.
    let again = common::scratch("outside-again");
    arena::run(&experiment, &common::options(&again, 1, Shard::WHOLE)).unwrap();
    assert_eq!(common::without_timing(&again.join("games.csv")), rows);
}

#[test]
fn without_its_factory_an_extra_kind_is_unknown() {
    let error = Experiment::from_toml(TEXT, "outside.toml")
        .unwrap_err()
        .to_string();
    assert!(error.contains("unknown agent kind `last`"), "{error}");
    assert!(error.contains("agents[0].spec"), "{error}");
}

#[test]
fn the_factory_s_refusals_name_the_agent_and_the_variant() {
    let restricted = TEXT.replace(
        "spec = \"last\"",
        "spec = \"last\"\nvariants = [\"oanquan\"]",
    );
    let error = Experiment::from_toml_with(&restricted, "outside.toml", factory())
        .unwrap_err()
        .to_string();
    assert!(error.contains("agents[0].variants[0]"), "{error}");
    assert!(error.contains("`last` does not play `oanquan`"), "{error}");

    let only_oanquan = TEXT.replace("[\"tictactoe\", \"oanquan\"]", "[\"oanquan\"]");
    let error = Experiment::from_toml_with(&only_oanquan, "outside.toml", factory())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("agent `last` plays none of the experiment's variants"),
        "{error}"
    );

    let with_params = TEXT.replace("spec = \"last\"", "spec = \"last:x=1\"");
    let error = Experiment::from_toml_with(&with_params, "outside.toml", factory())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("agent `last` has no parameter `x`"),
        "{error}"
    );

    // An unknown kind's message lists the extra kinds with ours.
    let unknown = TEXT.replace("spec = \"last\"", "spec = \"lats\"");
    let error = Experiment::from_toml_with(&unknown, "outside.toml", factory())
        .unwrap_err()
        .to_string();
    assert!(error.contains("unknown agent kind `lats`"), "{error}");
    assert!(error.contains("proc, last"), "{error}");
}
