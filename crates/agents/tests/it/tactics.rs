//! The tactics suite (`tests/data/tactics.txt`): every answer is what the solvers find again,
//! and the agents solve what they must at fixed node budgets (never wall time): `threat` every
//! win in one, every block and every VCF of up to 15 plies; `mcts` and `alphabeta` at the
//! smallest budgets every win in one and every block (their root check).

use std::collections::BTreeMap;

use agents::tactics::{PuzzleKind, classify, solves, suite};
use agents::{AgentSpec, build};
use rules::Mnk;

#[test]
fn the_suite_has_a_hundred_positions_of_every_kind() {
    let puzzles = suite();
    assert!(puzzles.len() >= 100, "{} positions", puzzles.len());
    let mut groups: BTreeMap<&str, usize> = BTreeMap::new();
    for puzzle in &puzzles {
        *groups.entry(puzzle.kind.group()).or_default() += 1;
    }
    for group in ["win1", "block", "vcf", "win", "draw"] {
        assert!(groups.get(group).copied().unwrap_or(0) >= 10, "{groups:?}");
    }
    let lengths: Vec<u32> = puzzles
        .iter()
        .filter_map(|p| match p.kind {
            PuzzleKind::Vcf(plies) => Some(plies),
            _ => None,
        })
        .collect();
    assert!(lengths.iter().any(|&n| n >= 11), "long VCFs: {lengths:?}");
}

#[test]
fn every_answer_is_what_the_solvers_find() {
    for puzzle in suite() {
        let small = puzzle.position.config().cells() <= 36;
        let (kind, answer) = classify(&puzzle.position, small, 30.0)
            .unwrap_or_else(|why| panic!("line {}: {why}", puzzle.line));
        assert_eq!(kind, puzzle.kind, "line {}", puzzle.line);
        assert_eq!(answer, puzzle.answer, "line {}", puzzle.line);
    }
}

fn agent(spec: &str) -> Box<dyn agents::Agent<Mnk>> {
    build::<Mnk>(&spec.parse::<AgentSpec>().unwrap()).unwrap()
}

#[test]
fn threat_never_misses_a_win_a_block_or_a_vcf() {
    let mut threat = agent("threat:nodes=20000");
    let mut missed = Vec::new();
    for puzzle in suite() {
        let forced = matches!(
            puzzle.kind,
            PuzzleKind::WinNow | PuzzleKind::Block | PuzzleKind::Vcf(_)
        );
        if forced && !solves(threat.as_mut(), &puzzle, 1).unwrap() {
            missed.push(format!("line {} ({})", puzzle.line, puzzle.kind));
        }
    }
    assert!(missed.is_empty(), "missed: {missed:?}");
}

#[test]
fn mcts_and_alphabeta_take_wins_and_block_at_any_budget() {
    for spec in [
        "mcts:iterations=1",
        "mcts:iterations=50,rollout=near",
        "alphabeta:depth=1",
    ] {
        let mut searcher = agent(spec);
        for puzzle in suite() {
            if matches!(puzzle.kind, PuzzleKind::WinNow | PuzzleKind::Block) {
                for seed in 0..3 {
                    assert!(
                        solves(searcher.as_mut(), &puzzle, seed).unwrap(),
                        "{spec}, seed {seed}: line {} ({})",
                        puzzle.line,
                        puzzle.kind
                    );
                }
            }
        }
    }
}
