//! The SPRT's error rates by simulation: many tests of elo0 = 0 against elo1 = 10 (logistic,
//! then normalized; alpha = beta = 0.05) with a candidate whose true strength is 0, 5 or 10
//! logistic Elo above the baseline: its expected score per game pair is `L(true Elo)`. Games
//! have a first-move advantage of 50 Elo and 20% draws; a pair plays the same opening with each
//! side first once (the pairs are simulated, not played), so the per-game difference is a
//! little larger than the true Elo ([`per_game_elo`]: 10.2 for 10).
//!
//! ```sh
//! cargo run --release -p report --example sprt_simulation          # 2000 tests per row
//! cargo run --release -p report --example sprt_simulation -- 200
//! ```

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use report::sprt::{Decision, EloModel, Sprt, logistic_score, per_game_elo};

/// The candidate's half-points from one game with expected score `score` and 20% draws.
fn game(score: f64, rng: &mut ChaCha8Rng) -> usize {
    let draw = 0.2f64.min(2.0 * score.min(1.0 - score));
    let u: f64 = rng.random();
    if u < score - draw / 2.0 {
        2
    } else if u < score + draw / 2.0 {
        1
    } else {
        0
    }
}

fn main() {
    let runs: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    println!(
        "{runs} simulated tests per row; SPRT elo0 = 0, elo1 = 10 (logistic), alpha = beta = 0.05\n"
    );
    println!(
        "| model | true Elo | accepted H1 | accepted H0 | mean pairs | 90th percentile pairs |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for model in [EloModel::Logistic, EloModel::Normalized] {
        // The normalized rows test [0, 10] normalized Elo while the true strengths are still
        // logistic Elo: only their first row (0 is 0 on both scales) is the false-positive rate.
        let test = Sprt::new(0.0, 10.0, 0.05, 0.05, model).expect("valid test");
        for truth in [0.0, 5.0, 10.0] {
            let per_game = per_game_elo(truth, 50.0);
            let results: Vec<(Decision, u64)> = (0..runs)
                .into_par_iter()
                .map(|run| {
                    let mut rng = ChaCha8Rng::seed_from_u64(2026);
                    rng.set_stream(run);
                    let mut counts = [0u64; 5];
                    loop {
                        let first = game(logistic_score(per_game + 50.0), &mut rng);
                        let second = game(logistic_score(per_game - 50.0), &mut rng);
                        counts[first + second] += 1;
                        let decision = test.decide(test.llr(&counts));
                        if decision != Decision::Continue {
                            return (decision, counts.iter().sum());
                        }
                    }
                })
                .collect();
            let h1 = results.iter().filter(|r| r.0 == Decision::AcceptH1).count();
            let mut pairs: Vec<u64> = results.iter().map(|r| r.1).collect();
            pairs.sort_unstable();
            let mean = pairs.iter().sum::<u64>() as f64 / runs as f64;
            println!(
                "| {model} | {truth} | {:.1}% | {:.1}% | {mean:.0} | {} |",
                100.0 * h1 as f64 / runs as f64,
                100.0 * (runs as usize - h1) as f64 / runs as f64,
                pairs[(pairs.len() * 9 / 10).min(pairs.len() - 1)]
            );
        }
    }
}
