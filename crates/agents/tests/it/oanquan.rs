//! O An Quan strength, 400 games per match with colours alternated, a ply cap of 1000 with the
//! game's adjudication (score = wins + draws / 2).

use crate::common;

use common::{match_score, oanquan};

fn score(agent: &str, opponent: &str, seed: u64) -> f64 {
    let score = match_score(&oanquan("oanquan"), agent, opponent, 400, seed, 1000);
    eprintln!("{agent} vs {opponent}: {score:.3}");
    score
}

#[test]
fn greedy_beats_random() {
    assert!(score("greedy", "random", 1) >= 0.90);
}

#[test]
fn greedy2_beats_random_and_greedy() {
    assert!(score("greedy2", "random", 2) >= 0.95);
    assert!(score("greedy2", "greedy", 3) >= 0.80);
}

#[test]
fn alphabeta_at_depth_4_beats_greedy2() {
    assert!(score("alphabeta:depth=4", "greedy2", 4) > 0.50);
}
