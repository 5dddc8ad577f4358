//! Prints the simulated coverage of the 95% intervals of pools with games of 3 or 4 players, at
//! 1, 2, 4 and 10 games per seating: the figures behind the report's method for such pools
//! (the README's N-player coverage table).
//!
//! ```sh
//! cargo run --release -p report --example coverage_tables             # 1000 tournaments per cell
//! cargo run --release -p report --example coverage_tables -- 200      # fewer, faster
//! cargo run --release -p report --example coverage_tables -- 1000 7 report   # seed 7, one method
//! ```
//!
//! Arguments: tournaments per cell (default 1000), seed (default 20261124), and a word that
//! keeps only the methods whose name contains it.

use report::coverage::{TableMethod, TableScenario, simulate_tables};
use report::elo::Method;

fn main() {
    let mut args = std::env::args().skip(1);
    let replicates: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20261124);
    let only = args.next().unwrap_or_default();
    let methods = [
        (
            "report's (profile, Plackett-Luce variance)",
            TableMethod::Report(Method::Profile),
        ),
        (
            "profile, pairs taken as independent",
            TableMethod::Independent,
        ),
        (
            "percentile bootstrap (1000 replicates, per group)",
            TableMethod::Report(Method::Bootstrap {
                replicates: 1000,
                seed: 7,
            }),
        ),
    ];
    println!("{replicates} simulated tournaments per cell (seed {seed}); 95% intervals.\n");
    println!(
        "| scenario | games per seating | method | coverage, all intervals | finite MLE: coverage | mean width (Elo) | no finite MLE: coverage |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|");
    for scenario in TableScenario::standard() {
        for games in [1, 2, 4, 10] {
            for (name, method) in methods.iter().copied().filter(|(n, _)| n.contains(&only)) {
                // The bootstrap refits 1000 times per tournament: fewer tournaments.
                let count = if matches!(method, TableMethod::Report(Method::Bootstrap { .. })) {
                    (replicates / 5).max(1)
                } else {
                    replicates
                };
                let c = simulate_tables(&scenario, games, method, count, seed);
                let finite = if c.finite > 0 {
                    format!("{:.1}% of {}", 100.0 * c.finite_rate(), c.finite)
                } else {
                    "—".to_owned()
                };
                let other = if c.other > 0 {
                    format!("{:.1}% of {}", 100.0 * c.other_rate(), c.other)
                } else {
                    "—".to_owned()
                };
                println!(
                    "| {} | {games} | {name} | {:.1}% of {} | {finite} | {:.0} | {other} |",
                    scenario.name,
                    100.0 * c.rate(),
                    c.finite + c.other,
                    c.mean_width()
                );
            }
        }
    }
}
