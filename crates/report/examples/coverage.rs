//! Prints the simulated coverage of the 95% intervals of every method on every scenario, at 1,
//! 10 and 40 games per pair: the figures behind the choice of the profile-likelihood interval.
//!
//! ```sh
//! cargo run --release -p report --example coverage            # 2000 round robins per cell
//! cargo run --release -p report --example coverage -- 500     # fewer, faster
//! ```

use report::coverage::{Scenario, simulate};
use report::elo::Method;

fn main() {
    let replicates: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    // An optional second argument keeps only the methods whose name contains it.
    let only = std::env::args().nth(2).unwrap_or_default();
    let methods = [
        (
            "profile likelihood",
            Method::Likelihood {
                jeffreys: false,
                draws: false,
            },
        ),
        (
            "profile, draw-corrected",
            Method::Likelihood {
                jeffreys: false,
                draws: true,
            },
        ),
        (
            "Jeffreys profile",
            Method::Likelihood {
                jeffreys: true,
                draws: false,
            },
        ),
        (
            "Jeffreys profile, draw-corrected (the report's)",
            Method::Profile,
        ),
        (
            "percentile bootstrap",
            Method::Bootstrap {
                replicates: 1000,
                seed: 7,
            },
        ),
    ];
    println!("{replicates} simulated round robins per cell; 95% intervals.\n");
    println!(
        "| scenario | games per pair | method | coverage | mean width (Elo) | no finite MLE: coverage | of those with a finite end |"
    );
    println!("|---|---:|---|---:|---:|---:|---:|");
    let scenarios: Vec<Scenario> = Scenario::standard()
        .into_iter()
        .chain(Scenario::wide())
        .collect();
    for scenario in &scenarios {
        for games in [1, 10, 40] {
            for (name, method) in methods.iter().copied().filter(|(n, _)| n.contains(&only)) {
                let bootstrap = matches!(method, Method::Bootstrap { .. });
                // The bootstrap refits 1000 times per round robin: fewer round robins.
                let count = if bootstrap {
                    replicates / 4
                } else {
                    replicates
                };
                let c = simulate(scenario, games, method, count, 20261122);
                let other = if c.other > 0 {
                    format!(
                        "{:.1}% of {} | {:.1}% of {}",
                        100.0 * c.other_rate(),
                        c.other,
                        100.0 * c.bounded_rate(),
                        c.other - c.other_unbounded
                    )
                } else {
                    "— | —".to_owned()
                };
                let finite = if c.finite > 0 {
                    format!("{:.1}% of {}", 100.0 * c.finite_rate(), c.finite)
                } else {
                    "—".to_owned()
                };
                println!(
                    "| {} | {games} | {name} | {finite} | {:.0} | {other} |",
                    scenario.name,
                    c.mean_width()
                );
            }
        }
    }
}
