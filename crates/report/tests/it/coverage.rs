//! The 95% intervals hold the true rating about 95% of the time: a smaller run of the
//! simulation behind the book's coverage table (`cargo run --release -p report --example
//! coverage` prints it in full). The bands are loose: a few hundred round robins measure
//! coverage to about ±1.5%, and agents of one round robin share their misses.

use report::coverage::{Scenario, TableMethod, TableScenario, simulate, simulate_tables};
use report::elo::Method;

fn scenario(name: &str) -> Scenario {
    Scenario::standard()
        .into_iter()
        .chain(Scenario::wide())
        .find(|s| s.name.starts_with(name))
        .unwrap_or_else(|| panic!("no scenario {name}"))
}

#[test]
fn coverage_is_near_95_percent_where_the_maximum_exists() {
    for (name, games, replicates) in [
        ("6 agents, no draws", 10, 300),
        ("7 agents, draws", 10, 200),
        ("7 agents, draws", 40, 200),
        ("10 agents, anchored", 10, 100),
    ] {
        let c = simulate(&scenario(name), games, Method::Profile, replicates, 99);
        let rate = c.finite_rate();
        assert!(
            (0.925..=0.975).contains(&rate),
            "{name}, {games} games per pair: {:.1}% of {}",
            100.0 * rate,
            c.finite
        );
    }
}

#[test]
fn agents_without_a_finite_maximum_keep_honest_bounds() {
    // The sample's mnk-9x9k5: most round robins have tiers. The finite ends held the truth
    // about 98% of the time in the full run.
    let c = simulate(&scenario("6 agents, 2000 Elo"), 10, Method::Profile, 200, 5);
    assert!(c.other > 500, "{c:?}");
    assert!(c.other_rate() >= 0.9, "{:.1}%", 100.0 * c.other_rate());
    assert!(c.bounded_rate() >= 0.9, "{:.1}%", 100.0 * c.bounded_rate());
}

#[test]
fn the_resampling_bootstrap_is_the_worse_method_at_10_games_per_pair() {
    // Why the bootstrap is not the default: it misses more often than 5% with few games.
    let scenario = scenario("6 agents, no draws");
    let bootstrap = simulate(
        &scenario,
        10,
        Method::Bootstrap {
            replicates: 200,
            seed: 1,
        },
        150,
        7,
    );
    let profile = simulate(&scenario, 10, Method::Profile, 150, 7);
    assert!(
        bootstrap.finite_rate() < profile.finite_rate(),
        "bootstrap {:.1}%, profile {:.1}%",
        100.0 * bootstrap.finite_rate(),
        100.0 * profile.finite_rate()
    );
}

#[test]
fn pools_of_nearly_only_draws_hold_the_truth_about_95_percent_of_the_time() {
    // Two agents 20 Elo apart drawing 95% of their games: at 40 games a pairing is all draws
    // one time in nine, and with half a virtual decisive game alone those intervals (±6 Elo)
    // missed the truth (±10): 90% held. `examples/coverage_draws.rs` prints the whole table.
    let scenario = Scenario::drawish()
        .into_iter()
        .find(|s| s.name.starts_with("2 agents, 20 Elo apart"))
        .unwrap();
    let c = simulate(&scenario, 40, Method::Profile, 400, 24);
    assert!(
        c.rate() >= 0.935,
        "{:.1}% of {}",
        100.0 * c.rate(),
        c.finite + c.other
    );
}

fn table_scenario(name: &str) -> TableScenario {
    TableScenario::standard()
        .into_iter()
        .find(|s| s.name.starts_with(name))
        .unwrap_or_else(|| panic!("no scenario {name}"))
}

#[test]
fn n_player_intervals_hold_the_truth_about_95_percent_of_the_time() {
    // A small run of `examples/coverage_tables.rs` (the book's N-player table): one and two
    // games per seating, where resampling within a seating gave 0% and about 80%.
    for (name, games, tournaments) in [
        ("5 agents, 3 players", 1, 150),
        ("4 agents, 4 players", 2, 150),
    ] {
        let c = simulate_tables(
            &table_scenario(name),
            games,
            TableMethod::Report(Method::Profile),
            tournaments,
            11,
        );
        let rate = c.rate();
        assert!(
            (0.925..=0.975).contains(&rate),
            "{name}, {games} per seating: {:.1}% of {}",
            100.0 * rate,
            c.finite + c.other
        );
    }
}

#[test]
fn counting_a_game_s_pairs_as_independent_makes_the_intervals_too_narrow() {
    // Why the report divides by the tables' variance: without it the same tournaments give
    // narrower intervals that miss more often.
    let scenario = table_scenario("5 agents, 4 players");
    let report = simulate_tables(&scenario, 4, TableMethod::Report(Method::Profile), 100, 3);
    let independent = simulate_tables(&scenario, 4, TableMethod::Independent, 100, 3);
    assert!(
        independent.rate() < report.rate() && independent.mean_width() < report.mean_width(),
        "independent {:.1}% ({:.0} Elo), report {:.1}% ({:.0} Elo)",
        100.0 * independent.rate(),
        independent.mean_width(),
        100.0 * report.rate(),
        report.mean_width()
    );
}
