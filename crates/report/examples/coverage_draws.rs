//! Prints the simulated coverage of the report's 95% intervals in pools where nearly every
//! game is drawn ([`Scenario::drawish`]), at 10, 40, 100 and 400 games per pair.
//!
//! ```sh
//! cargo run --release -p report --example coverage_draws          # 2000 round robins per cell
//! cargo run --release -p report --example coverage_draws -- 500   # fewer, faster
//! ```

use report::coverage::{Scenario, simulate};
use report::elo::Method;

fn main() {
    let replicates: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    println!("| scenario | games per pair | held | mean width (Elo) |");
    println!("| --- | ---: | ---: | ---: |");
    for scenario in Scenario::drawish() {
        for games in [10, 40, 100, 400] {
            let c = simulate(&scenario, games, Method::Profile, replicates, 24);
            println!(
                "| {} | {games} | {:.1}% of {} | {:.1} |",
                scenario.name,
                100.0 * c.rate(),
                c.finite + c.other,
                c.mean_width()
            );
        }
    }
}
