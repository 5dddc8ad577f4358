//! Agent specs that are refused, and what the errors say.

use agents::{AgentSpec, SpecError, build, check, plays};
use rules::{Mnk, OanQuan, Variant};

fn error(spec: &str, variant: &str) -> SpecError {
    let spec: AgentSpec = spec.parse().unwrap();
    let variant: Variant = variant.parse().unwrap();
    check(&spec, &variant).expect_err("refused")
}

#[test]
fn an_unknown_kind_lists_the_kinds() {
    let message = error("alfabeta", "tictactoe").to_string();
    for kind in [
        "random",
        "mc-flat",
        "minimax",
        "alphabeta",
        "mcts",
        "easy",
        "neighbor",
        "mc-near",
        "mc-par",
        "greedy",
        "greedy2",
    ] {
        assert!(message.contains(kind), "{message}");
    }
    assert!(
        !message.contains("fault"),
        "hidden kinds stay hidden: {message}"
    );
}

#[test]
fn an_unknown_parameter_lists_the_parameters() {
    let message = error("alphabeta:deep=3", "tictactoe").to_string();
    assert!(message.contains("`deep`"), "{message}");
    for key in ["depth", "nodes", "time_ms", "tt_mb"] {
        assert!(message.contains(key), "{message}");
    }
    let message = error("mcts:rollouts=5", "oanquan").to_string();
    for key in ["iterations", "c", "rollout", "time_ms"] {
        assert!(message.contains(key), "{message}");
    }
}

#[test]
fn a_bad_value_says_what_is_accepted() {
    for (spec, accepted) in [
        ("alphabeta:depth=0", "1 to 64"),
        ("alphabeta:depth=x", "1 to 64"),
        ("alphabeta:tt_mb=0", "1 to 65536"),
        ("minimax:depth=100", "`auto` or an integer from 1 to 64"),
        ("mcts:c=-1", "a number from 0 to 100"),
        ("mcts:c=0", "a positive number"),
        ("mcts:iterations=0", "1 to"),
        ("mcts:rollout=smart", "one of random, near"),
        ("mc-flat:rollouts=0", "1 to"),
        ("mc-par:threads=5000", "0 to 1024"),
        ("easy:mistake=1.5", "0 to 1"),
    ] {
        let message = error(spec, "tictactoe").to_string();
        assert!(
            matches!(error(spec, "tictactoe"), SpecError::BadValue { .. }),
            "{spec}: {message}"
        );
        assert!(message.contains(accepted), "{spec}: {message}");
    }
}

#[test]
fn a_kind_on_the_wrong_game_is_refused_clearly() {
    for (spec, variant, says) in [
        ("easy", "oanquan", "m,n,k games only"),
        ("neighbor", "oanquan", "m,n,k games only"),
        ("mc-near", "oanquan", "m,n,k games only"),
        ("mc-par", "oanquan", "m,n,k games only"),
        ("greedy", "tictactoe", "O An Quan only"),
        ("greedy2", "gomoku", "O An Quan only"),
    ] {
        let err = error(spec, variant);
        assert!(matches!(err, SpecError::Unsupported { .. }), "{err}");
        assert!(err.to_string().contains(says), "{err}");
        assert!(!plays(&spec.parse().unwrap(), &variant.parse().unwrap()));
    }
    // `rollout=near` is an m,n,k policy.
    let message = error("mcts:rollout=near", "oanquan").to_string();
    assert!(message.contains("m,n,k"), "{message}");
}

#[test]
fn every_listed_kind_builds_with_its_defaults_where_it_plays() {
    let (mnk, oanquan): (Variant, Variant) =
        ("gomoku".parse().unwrap(), "oanquan".parse().unwrap());
    for kind in agents::KINDS {
        // Kinds with a required parameter (an outside engine's command) build only with it.
        if kind.params.iter().any(|p| p.default == "(required)") {
            continue;
        }
        let spec: AgentSpec = kind.name.parse().unwrap();
        assert_eq!(
            plays(&spec, &mnk),
            build::<Mnk>(&spec).is_ok(),
            "{}",
            kind.name
        );
        assert_eq!(
            plays(&spec, &oanquan),
            build::<OanQuan>(&spec).is_ok(),
            "{}",
            kind.name
        );
        assert!(!kind.summary.is_empty());
        for param in kind.params.iter().filter(|p| !p.default.starts_with('(')) {
            // The documented default is accepted as a value.
            let spec: AgentSpec = format!("{}:{}={}", kind.name, param.name, param.default)
                .parse()
                .unwrap();
            let variant = if plays(&spec, &mnk) { &mnk } else { &oanquan };
            assert!(check(&spec, variant).is_ok(), "{spec}");
        }
    }
}
