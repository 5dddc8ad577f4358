//! Same seed and budget, same move and the same statistics, for every agent kind, in both
//! games; and agents keep no state between moves that changes their play.

use crate::common;

use agents::{AgentGame, AgentSpec, Context, build};
use common::{mnk, oanquan, rng, td4};
use rules::{Game, Mnk, OanQuan};

/// A small budget for each kind that takes one; every listed kind but outside engines.
const MNK_SPECS: &[&str] = &[
    "random",
    "mc-flat:rollouts=30",
    "minimax:depth=2",
    "alphabeta:depth=4",
    "alphabeta:nodes=5000",
    "mcts:iterations=3000",
    "mcts:iterations=3000,rollout=near,c=0.7",
    "easy",
    "easy:mistake=0.9",
    "neighbor",
    "mc-near:rollouts=30",
    "mc-par:rollouts=30",
    "mc-par:rollouts=30,threads=2",
];

const OANQUAN_SPECS: &[&str] = &[
    "random",
    "mc-flat:rollouts=30",
    "minimax:depth=3",
    "minimax",
    "alphabeta:depth=6",
    "alphabeta:nodes=5000",
    "mcts:iterations=3000",
    "greedy",
    "greedy2",
];

fn same_twice<G: AgentGame>(specs: &[&str], positions: &[G]) {
    for spec in specs {
        let spec: AgentSpec = spec.parse().unwrap();
        for (i, position) in positions.iter().enumerate() {
            for seed in [1, 2, 3] {
                let run = || {
                    let mut agent = build::<G>(&spec).unwrap();
                    let mut rng = rng(seed, 0);
                    agent.choose(position, &mut Context::new(&mut rng)).unwrap()
                };
                let (a, b) = (run(), run());
                assert_eq!(a, b, "{spec}, position {i}, seed {seed}");
                assert!(position.is_legal(a.mv), "{spec}: illegal move");
            }
        }
    }
}

fn mnk_positions() -> Vec<Mnk> {
    vec![
        mnk("tictactoe"),
        mnk("tictactoe").play_line("b2 a1 c3").unwrap(),
        td4(),
        mnk("mnk-9x9k5-caro")
            .play_line("e5 d4 f6 e4 d5 e6")
            .unwrap(),
        mnk("mnk-6x6k4-exact-center"),
    ]
}

fn oanquan_positions() -> Vec<OanQuan> {
    let start = oanquan("oanquan");
    vec![
        start.clone(),
        start.play_line("3P 7P 5P").unwrap(),
        oanquan("oanquan-stop-young5").play_line("1P 8T").unwrap(),
    ]
}

#[test]
fn every_kind_repeats_its_move_in_mnk_games() {
    same_twice(MNK_SPECS, &mnk_positions());
}

#[test]
fn every_kind_repeats_its_move_in_o_an_quan() {
    same_twice(OANQUAN_SPECS, &oanquan_positions());
}

/// An agent asked about a position after other searches answers as a fresh one does: nothing
/// kept between moves changes play.
#[test]
fn earlier_searches_do_not_change_a_move() {
    let positions = mnk_positions();
    for spec in MNK_SPECS {
        let spec: AgentSpec = spec.parse().unwrap();
        let mut used = build::<Mnk>(&spec).unwrap();
        for position in &positions {
            let mut rng = rng(9, 0);
            used.choose(position, &mut Context::new(&mut rng)).unwrap();
        }
        let target = &positions[2];
        let mut fresh = build::<Mnk>(&spec).unwrap();
        let (mut r1, mut r2) = (rng(4, 0), rng(4, 0));
        let a = used.choose(target, &mut Context::new(&mut r1)).unwrap();
        let b = fresh.choose(target, &mut Context::new(&mut r2)).unwrap();
        assert_eq!(a, b, "{spec}");
    }
}

#[test]
fn every_kind_finishes_games_with_legal_moves() {
    for spec in MNK_SPECS {
        for variant in ["tictactoe", "mnk-6x6k4-exact-center", "mnk-7x7k5-caro"] {
            common::play(&mnk(variant), spec, "random", 7, 100);
            common::play(&mnk(variant), "random", spec, 8, 100);
        }
    }
    for spec in OANQUAN_SPECS {
        common::play(&oanquan("oanquan"), spec, "random", 7, 1000);
        common::play(&oanquan("oanquan-end"), "random", spec, 8, 1000);
    }
}
