//! What the intervals, anchors and groups promise: points that stay the maximum-likelihood
//! ones, open ends where the games set no bound, anchors that are fixed, groups that stay
//! apart, and no artefacts of the mean-0 constraint.

use crate::common;

use common::Games;
use report::elo::{ELO_PER_NAT, Method, Pairing, rate};
use report::{Intervals, Options, Report, Summary};

fn analyse(games: &Games, options: &Options) -> Summary {
    Report::from_csv_reader("games.csv", games.csv().as_bytes())
        .and_then(|report| report.analyse(options))
        .expect("valid games")
}

/// A pool like the sample's mnk-9x9k5: `top` beats everyone; `second` loses only to `top`;
/// `mid-a` and `mid-b` split 8-2 and lose to both above; `low` beats only `bottom`; `bottom`
/// loses everything. Ten games per pair, no draws.
fn nine_by_nine() -> Games {
    let agents = ["top", "second", "mid-a", "mid-b", "low", "bottom"];
    let mut games = Games::new();
    for (i, a) in agents.iter().enumerate() {
        for b in &agents[i + 1..] {
            if (*a, *b) == ("mid-a", "mid-b") {
                games.pairing("mnk-9x9k5", a, b, 8, 0, 2);
            } else {
                games.pairing("mnk-9x9k5", a, b, 10, 0, 0);
            }
        }
    }
    games
}

#[test]
fn the_weak_prior_does_not_shrink_differences_the_games_fix() {
    // mid-a and mid-b split 8-2: 400·log10(4) = 240.8 Elo apart, whatever the tiers around
    // them. (A prior over the whole pool pulled this to 184.)
    let summary = analyse(&nine_by_nine(), &Options::default());
    let pool = summary.pool("mnk-9x9k5").unwrap();
    let elo = |agent: &str| pool.standing(agent).unwrap().elo;
    let gap = elo("mid-a") - elo("mid-b");
    assert!((gap - 400.0 * 4f64.log10()).abs() < 1e-6, "{gap}");
    // The ratings keep mean 0 and their order.
    let mean: f64 = pool.standings.iter().map(|s| s.elo).sum::<f64>() / 6.0;
    assert!(mean.abs() < 1e-9);
    let order: Vec<&str> = pool.standings.iter().map(|s| s.agent.as_str()).collect();
    assert_eq!(order, ["top", "second", "mid-a", "mid-b", "low", "bottom"]);
}

#[test]
fn agents_without_a_finite_maximum_are_found_from_the_games_not_only_perfect_scores() {
    let summary = analyse(&nine_by_nine(), &Options::default());
    let pool = summary.pool("mnk-9x9k5").unwrap();
    assert!(pool.prior_used);
    let second = pool.standing("second").unwrap();
    // 40-10: no perfect score, yet every game against the rest went one way.
    assert!(!second.has_perfect_score());
    assert!(!second.finite);
    let tiers: Vec<usize> = pool.standings.iter().map(|s| s.tier).collect();
    assert_eq!(tiers, [1, 2, 3, 3, 4, 5]);
    // Open ends: the top tier has no upper bound, the bottom no lower one, and the ratings
    // of the tiers in between, relative to the pool's mean, are bounded by nothing at all
    // (the mean moves with the gaps above and below them).
    let top = pool.standing("top").unwrap().interval.unwrap();
    assert!(top.low.is_some() && top.high.is_none());
    let bottom = pool.standing("bottom").unwrap().interval.unwrap();
    assert!(bottom.low.is_none() && bottom.high.is_some());
    for agent in ["second", "mid-a", "mid-b", "low"] {
        let interval = pool.standing(agent).unwrap().interval.unwrap();
        assert_eq!((interval.low, interval.high), (None, None), "{agent}");
    }
    // What the games do say: each gap between consecutive tiers has a lower bound, below the
    // placeholder the prior puts there.
    assert_eq!(pool.gaps.len(), 4);
    for gap in &pool.gaps {
        let bound = gap.at_least.unwrap();
        assert!(bound > 50.0 && bound < gap.elo, "{gap:?}");
    }
    let dir = common::fresh_dir("nine-by-nine");
    Report::from_csv_reader("games.csv", nine_by_nine().csv().as_bytes())
        .unwrap()
        .write(&dir, &Options::default())
        .unwrap();
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.contains("| second † |"), "{markdown}");
    assert!(markdown.contains("| unbounded |"));
    assert!(markdown.contains("tier 2 (second) above tier 3 (mid-a, mid-b): at least +"));
}

#[test]
fn an_anchor_is_fixed_even_when_it_lost_every_game() {
    // The anchor lost all its games: the others are above it by at least something, and by
    // at most nothing the games can tell. (A bootstrap gave the anchor a ±480 interval and the
    // others 0.4-Elo-wide ones.)
    let mut games = Games::new();
    games
        .pairing("mnk-5x5k4", "strong", "middle", 6, 0, 4)
        .pairing("mnk-5x5k4", "strong", "random", 10, 0, 0)
        .pairing("mnk-5x5k4", "middle", "random", 10, 0, 0);
    let summary = analyse(&games, &Options::default().with_anchor("random", 0.0));
    let pool = summary.pool("mnk-5x5k4").unwrap();
    let random = pool.standing("random").unwrap();
    assert!(random.anchor && random.elo == 0.0 && random.interval.is_none());
    for agent in ["strong", "middle"] {
        let s = pool.standing(agent).unwrap();
        let interval = s.interval.unwrap();
        assert_eq!(interval.high, None, "{agent}: {interval:?}");
        let low = interval.low.unwrap();
        assert!(low > 0.0 && low < s.elo - 50.0, "{agent}: {interval:?}");
    }
    // strong and middle share a tier: their difference is the 6-4 one.
    let gap = pool.standing("strong").unwrap().elo - pool.standing("middle").unwrap().elo;
    assert!((gap - 400.0 * 1.5f64.log10()).abs() < 1e-6, "{gap}");
}

#[test]
fn an_anchor_moves_only_its_own_group() {
    let mut games = Games::new();
    games
        .pairing("mnk-3x3k3", "a", "b", 6, 2, 2)
        .pairing("mnk-3x3k3", "c", "d", 3, 1, 6);
    let free = analyse(&games, &Options::default());
    let anchored = analyse(&games, &Options::default().with_anchor("a", 1500.0));
    let (free, anchored) = (
        free.pool("mnk-3x3k3").unwrap(),
        anchored.pool("mnk-3x3k3").unwrap(),
    );
    assert_eq!(anchored.groups, 2);
    let get = |pool: &report::PoolRatings, agent: &str| pool.standing(agent).unwrap().clone();
    // The anchor's group: a fixed at 1500, b at the same distance below it as before.
    assert_eq!(get(anchored, "a").elo, 1500.0);
    assert!(
        ((get(anchored, "a").elo - get(anchored, "b").elo)
            - (get(free, "a").elo - get(free, "b").elo))
            .abs()
            < 1e-9
    );
    // The other group: untouched, still mean 0, the same intervals.
    for agent in ["c", "d"] {
        assert_eq!(get(anchored, agent).elo, get(free, agent).elo);
        assert_eq!(get(anchored, agent).interval, get(free, agent).interval);
    }
    assert!((get(anchored, "c").elo + get(anchored, "d").elo).abs() < 1e-9);
    // Groups are numbered, the anchor's group first here, and kept apart in the standings.
    assert_eq!(get(anchored, "a").group, 1);
    assert_eq!(get(anchored, "c").group, 2);
    let groups: Vec<usize> = anchored.standings.iter().map(|s| s.group).collect();
    assert_eq!(groups, [1, 1, 2, 2]);
}

#[test]
fn the_group_is_a_column_of_both_csvs() {
    let mut games = Games::new();
    games
        .pairing("mnk-3x3k3", "a", "b", 6, 2, 2)
        .pairing("mnk-3x3k3", "c", "d", 3, 1, 6);
    let dir = common::fresh_dir("group-columns");
    Report::from_csv_reader("games.csv", games.csv().as_bytes())
        .unwrap()
        .write(&dir, &Options::default())
        .unwrap();
    for file in ["ratings.csv", "standings.csv"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().unwrap().clone();
        let group = header.iter().position(|h| h == "group").expect(file);
        let agent = header.iter().position(|h| h == "agent").unwrap();
        for record in reader.records() {
            let record = record.unwrap();
            let expected = if ["a", "b"].contains(&&record[agent]) {
                "1"
            } else {
                "2"
            };
            assert_eq!(&record[group], expected, "{file}: {record:?}");
        }
    }
    let standings = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    // Ranks count within each group.
    assert!(standings.contains("mnk-3x3k3,1,a,") && standings.contains("mnk-3x3k3,1,d,"));
}

#[test]
fn two_agents_get_mirrored_intervals_that_do_not_stop_at_zero() {
    // An artefact of clamping and the mean-0 constraint gave intervals like [0.0, +190.5]
    // and [-190.5, 0.0] for two agents.
    for (wins, draws, losses) in [(6, 0, 4), (8, 0, 2), (5, 0, 5), (3, 4, 3), (7, 2, 1)] {
        let mut games = Games::new();
        games.pairing("mnk-9x9k5", "a", "b", wins, draws, losses);
        let summary = analyse(&games, &Options::default());
        let pool = summary.pool("mnk-9x9k5").unwrap();
        let a = pool.standing("a").unwrap().interval.unwrap();
        let b = pool.standing("b").unwrap().interval.unwrap();
        let (a_low, a_high) = (a.low.unwrap(), a.high.unwrap());
        let (b_low, b_high) = (b.low.unwrap(), b.high.unwrap());
        assert!((a_low + b_high).abs() < 1e-6 && (a_high + b_low).abs() < 1e-6);
        for end in [a_low, a_high] {
            assert!(end.abs() > 1.0, "{wins}-{draws}-{losses}: {a:?}");
        }
        assert!(
            a_low < 0.0 || wins > losses + 2,
            "{wins}-{draws}-{losses}: {a:?}"
        );
    }
}

#[test]
fn a_single_variant_has_no_duplicate_pool_of_all_variants() {
    let mut games = Games::new();
    games.pairing("mnk-3x3k3", "a", "b", 6, 2, 2);
    let summary = analyse(&games, &Options::default());
    assert_eq!(summary.pools.len(), 1);
    assert!(summary.pool("all").is_none());
    assert!(summary.consistency.is_none());
    let dir = common::fresh_dir("single-variant");
    Report::from_csv_reader("games.csv", games.csv().as_bytes())
        .unwrap()
        .write(&dir, &Options::default())
        .unwrap();
    let ratings = std::fs::read_to_string(dir.join("ratings.csv")).unwrap();
    assert!(!ratings.lines().any(|l| l.starts_with("all,")), "{ratings}");
    assert!(!dir.join("elo-all.png").exists());
}

#[test]
fn one_strength_per_agent_is_tested_when_variants_are_pooled() {
    // In variant x, p beats q 15-5; in variant y, q beats p 15-5: no single pair of ratings
    // fits both.
    let mut flipped = Games::new();
    flipped
        .pairing("mnk-3x3k3", "p", "q", 15, 0, 5)
        .pairing("mnk-4x4k3", "p", "q", 5, 0, 15);
    let test = analyse(&flipped, &Options::default()).consistency.unwrap();
    assert_eq!(test.degrees_of_freedom, 1);
    // LR = 2·(2·(15 ln .75 + 5 ln .25) − 40 ln .5) = 10.47 on 1 df: p = 0.0012.
    let expected = 2.0 * (2.0 * (15.0 * 0.75f64.ln() + 5.0 * 0.25f64.ln()) - 40.0 * 0.5f64.ln());
    assert!((test.likelihood_ratio - expected).abs() < 1e-6, "{test:?}");
    assert_eq!(test.dispersion, 1.0);
    assert!((test.p_value - 0.001_214).abs() < 1e-5, "{test:?}");
    // The same result in both variants: nothing to reject.
    let mut steady = Games::new();
    steady
        .pairing("mnk-3x3k3", "p", "q", 12, 0, 8)
        .pairing("mnk-4x4k3", "p", "q", 12, 0, 8);
    let test = analyse(&steady, &Options::default()).consistency.unwrap();
    assert!(
        test.likelihood_ratio < 1e-9 && test.p_value > 0.99,
        "{test:?}"
    );
    // The figure is next to the pooled table.
    let dir = common::fresh_dir("consistency");
    Report::from_csv_reader("games.csv", flipped.csv().as_bytes())
        .unwrap()
        .write(&dir, &Options::default())
        .unwrap();
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let pooled = markdown.find("## All variants pooled").unwrap();
    let test_at = markdown
        .find("**One strength per agent across variants?**")
        .unwrap();
    let table_at = markdown[pooled..].find("### Standings").unwrap() + pooled;
    assert!(pooled < test_at && test_at < table_at);
    assert!(markdown.contains("χ² = 10.5") && markdown.contains("**rejected**"));
}

#[test]
fn points_of_pools_with_a_maximum_are_the_maximum_likelihood_ones() {
    // The sample run's committed ratings (before this change) for the pools whose maximum
    // exists, and the pool of all variants: the points must not move (within 0.05 Elo, the
    // precision of the CSV). `tests/data/sample-2026-11-22.csv` is that run's CSV, the one
    // whose ratings Ordo and BayesElo confirmed; the committed sample has since been played
    // again (mcts's root threat check, issue 19).
    let csv =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample-2026-11-22.csv");
    let summary = Report::from_csv_files(&[csv])
        .unwrap()
        .analyse(&Options::default().with_intervals(Intervals::Off))
        .unwrap();
    for (pool, agent, elo) in [
        ("mnk-3x3k3", "mcts-1k", 168.7),
        ("mnk-3x3k3", "random", -411.8),
        ("mnk-4x4k3", "alphabeta-4", 214.8),
        ("mnk-4x4k3", "neighbor", 24.5),
        ("mnk-5x5k4", "alphabeta-4", 444.4),
        ("mnk-5x5k4", "easy", -368.8),
        ("oanquan", "mcts-1k", 256.8),
        ("oanquan", "greedy2", -11.3),
        ("all", "alphabeta-4", 324.3),
        ("all", "greedy", -167.9),
        ("all", "random", -528.7),
    ] {
        let got = summary.pool(pool).unwrap().standing(agent).unwrap().elo;
        assert!(
            (got - elo).abs() <= 0.05 + 1e-9,
            "{pool} {agent}: {got} vs {elo}"
        );
    }
    // In mnk-9x9k5, mcts-1k and neighbor share a tier: 8-2 is 400·log10(4) apart.
    let pool = summary.pool("mnk-9x9k5").unwrap();
    let gap = pool.standing("mcts-1k").unwrap().elo - pool.standing("neighbor").unwrap().elo;
    assert!((gap - 400.0 * 4f64.log10()).abs() < 1e-6, "{gap}");
    let _ = ELO_PER_NAT;
}

#[test]
fn an_all_draw_pairing_keeps_the_width_of_the_decisive_games_it_cannot_rule_out() {
    // None of n games decisive leaves a decisive share up to z²/(n + z²) (Wilson's 95% bound);
    // were those games all won by one side, the score would be ½ + that share / 2. Each agent's
    // rating relative to the mean is half the gap that score implies, and the interval must
    // reach it: with a dispersion shrinking like 1/n the interval shrank like 1/n four times too
    // fast (10 draws ±22.4, 100 draws ±2.4, 1,000 draws ±0.2).
    let z2 = 1.959_964f64.powi(2);
    for draws in [10u64, 100, 1000] {
        let rated = rate(2, &[Pairing::new(0, 1, 0, draws, 0)], None, Method::Profile);
        let high = rated.intervals[0].unwrap().high.unwrap();
        let share = z2 / (draws as f64 + z2);
        let score = 0.5 + share / 2.0;
        let half_gap = 200.0 * (score / (1.0 - score)).log10();
        assert!(
            high >= 0.95 * half_gap,
            "{draws} draws: +{high:.2} Elo, Wilson's bound +{half_gap:.2}"
        );
    }
}

#[test]
fn a_group_larger_than_the_profile_bound_gets_wald_intervals_close_to_the_profile() {
    // 51 agents 10 Elo apart, 4 games a pair (a win for the stronger, a draw, a split): the
    // profile intervals of such a group take O(m⁴) (a 300-agent report did not finish in 300
    // s); above MAX_PROFILE_AGENTS the Wald interval with the same draw correction is given.
    use report::elo::MAX_PROFILE_AGENTS;
    let m = MAX_PROFILE_AGENTS + 1;
    let mut pairings = Vec::new();
    for i in 0..m {
        for j in i + 1..m {
            let (wins, losses) = if (i + j) % 3 == 0 { (1, 2) } else { (2, 1) };
            pairings.push(Pairing::new(j, i, wins, 1, losses));
        }
    }
    let wald = rate(m, &pairings, None, Method::Profile);
    assert_eq!(wald.wald, (0..m).collect::<Vec<_>>());
    let profile = rate(
        m,
        &pairings,
        None,
        Method::Likelihood {
            jeffreys: true,
            draws: true,
        },
    );
    assert!(profile.wald.is_empty());
    for agent in 0..m {
        let (w, p) = (
            wald.intervals[agent].unwrap(),
            profile.intervals[agent].unwrap(),
        );
        assert!(w.contains(wald.fit.elo[agent]));
        let width = |i: report::elo::Interval| i.high.unwrap() - i.low.unwrap();
        assert!(
            (width(w) / width(p) - 1.0).abs() < 0.1,
            "agent {agent}: Wald {w}, profile {p}"
        );
    }
    // A group at the bound keeps its profile intervals.
    let small: Vec<Pairing> = pairings
        .iter()
        .copied()
        .filter(|p| p.agent < MAX_PROFILE_AGENTS && p.opponent < MAX_PROFILE_AGENTS)
        .collect();
    assert!(rate(m, &small, None, Method::Profile).wald.is_empty());
}
