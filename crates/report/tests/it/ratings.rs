//! Known answers and defining properties of the Elo fit, the bootstrap and the pair numbers.

use crate::common;

use common::Games;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use report::elo::{ELO_PER_NAT, PairElo, Pairing, fit};
use report::{Intervals, Options, Report, Summary};

fn analyse(games: &Games, options: &Options) -> Summary {
    Report::from_csv_reader("games.csv", games.csv().as_bytes())
        .and_then(|report| report.analyse(options))
        .expect("valid games")
}

fn elo(summary: &Summary, pool: &str, agent: &str) -> f64 {
    summary.pool(pool).unwrap().standing(agent).unwrap().elo
}

#[test]
fn a_75_percent_score_is_400_log10_3_elo() {
    let expected = 400.0 * 3f64.log10(); // 190.848...
    for (wins, draws, losses) in [(3, 0, 1), (30, 0, 10), (1, 1, 0), (20, 20, 0), (6, 6, 0)] {
        let fitted = fit(2, &[Pairing::new(0, 1, wins, draws, losses)]);
        let difference = fitted.elo[0] - fitted.elo[1];
        assert!(
            (difference - expected).abs() < 1e-9,
            "{wins}-{draws}-{losses}: {difference}"
        );
        assert!(!fitted.prior_used);
        // Mean 0.
        assert!((fitted.elo[0] + fitted.elo[1]).abs() < 1e-9);
    }
    let mut games = Games::new();
    games.pairing("mnk-3x3k3", "strong", "weak", 30, 0, 10);
    let summary = analyse(&games, &Options::default().with_intervals(Intervals::Off));
    let difference = elo(&summary, "mnk-3x3k3", "strong") - elo(&summary, "mnk-3x3k3", "weak");
    assert!((difference - expected).abs() < 1e-6, "{difference}");
}

#[test]
fn a_pairing_of_only_draws_gives_equal_ratings() {
    let fitted = fit(2, &[Pairing::new(0, 1, 0, 12, 0)]);
    assert_eq!(fitted.elo, vec![0.0, 0.0]);
    assert!(!fitted.prior_used);
    // Seven draws say the two are close, not that they are exactly equal: the interval has
    // width (a resampling bootstrap would redraw seven draws every time and see none).
    let mut games = Games::new();
    games.pairing("mnk-3x3k3", "a", "b", 0, 7, 0);
    let summary = analyse(&games, &Options::default());
    for agent in ["a", "b"] {
        let standing = summary.pool("mnk-3x3k3").unwrap().standing(agent).unwrap();
        assert_eq!(standing.elo, 0.0);
        let interval = standing.interval.unwrap();
        let (low, high) = (interval.low.unwrap(), interval.high.unwrap());
        assert!((low + high).abs() < 1e-6, "{interval:?} not symmetric");
        assert!(high > 20.0 && high < 150.0, "{interval:?}");
    }
}

#[test]
fn three_agents_solved_by_hand() {
    // A–B: 1 win, 1 draw, 1 loss (A scores 1.5 of 3: even on its own).
    // B–C: 1 win, 1 draw, 1 loss (B scores 1.5 of 3).
    // A–C: 4 wins, 1 draw (A scores 4.5 of 5).
    //
    // Swapping A with C and reversing every result gives the same games, so the solution has
    // R_B = 0 and R_A = -R_C = x (mean 0). With u = e^(x / ELO_PER_NAT), B's expected score is
    // 3·σ(-x) + 3·σ(x) = 3 = its actual 1.5 + 1.5 whatever x is, and A's equation is
    //     3·u/(1+u) + 5·u²/(1+u²) = 1.5 + 4.5 = 6.
    // u = 2 solves it: 3·2/3 + 5·4/5 = 2 + 4 = 6, and the likelihood is strictly concave, so
    // that is the only solution: R_A = 400·log10 2 ≈ 120.41, R_B = 0, R_C ≈ -120.41.
    // The joint fit puts A 120 Elo above B although A and B scored 50% against each other.
    let fitted = fit(
        3,
        &[
            Pairing::new(0, 1, 1, 1, 1),
            Pairing::new(1, 2, 1, 1, 1),
            Pairing::new(0, 2, 4, 1, 0),
        ],
    );
    let x = 400.0 * 2f64.log10();
    for (got, want) in fitted.elo.iter().zip([x, 0.0, -x]) {
        assert!((got - want).abs() < 1e-9, "{:?}", fitted.elo);
    }

    // A cycle: A beats B 2-1, B beats C 2-1, C beats A 2-1. Every agent scores 3 of 6 and,
    // by the cyclic symmetry, all ratings are equal: 0.
    let cycle = fit(
        3,
        &[
            Pairing::new(0, 1, 2, 0, 1),
            Pairing::new(1, 2, 2, 0, 1),
            Pairing::new(2, 0, 2, 0, 1),
        ],
    );
    assert!(cycle.elo.iter().all(|r| r.abs() < 1e-9), "{:?}", cycle.elo);
}

#[test]
fn ratings_do_not_depend_on_the_order_of_rows_or_files() {
    let games = common::sample_tournament(6);
    let options = Options::default().with_bootstrap(40);
    let in_order = analyse(&games, &options);

    let mut shuffled = games.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for i in (1..shuffled.rows.len()).rev() {
        let j = rng.random_range(0..=i);
        shuffled.rows.swap(i, j);
    }
    assert_eq!(analyse(&shuffled, &options).pools, in_order.pools);

    let dir = common::fresh_dir("file-order");
    let (front, back) = shuffled.rows.split_at(shuffled.rows.len() / 3);
    let first = dir.join("first.csv");
    let second = dir.join("second.csv");
    std::fs::write(&first, common::csv_of(front)).unwrap();
    std::fs::write(&second, common::csv_of(back)).unwrap();
    let forwards = Report::from_csv_files(&[&first, &second]).unwrap();
    let backwards = Report::from_csv_files(&[&second, &first]).unwrap();
    let out_forwards = dir.join("forwards");
    let out_backwards = dir.join("backwards");
    let summary = forwards.write(&out_forwards, &options).unwrap();
    backwards.write(&out_backwards, &options).unwrap();
    assert_eq!(summary.pools, in_order.pools);
    for file in ["ratings.csv", "standings.csv", "report.md"] {
        let a = std::fs::read_to_string(out_forwards.join(file)).unwrap();
        let b = std::fs::read_to_string(out_backwards.join(file)).unwrap();
        assert_eq!(a, b, "{file} differs");
    }
}

/// Expected minus actual score of every agent: zero at the maximum.
fn expected_minus_actual(agents: usize, pairings: &[Pairing], elo: &[f64]) -> Vec<f64> {
    let p = |d: f64| 1.0 / (1.0 + (-d / ELO_PER_NAT).exp());
    let mut residual = vec![0.0; agents];
    for pairing in pairings {
        let (i, j) = (pairing.agent, pairing.opponent);
        let expected = pairing.games() as f64 * p(elo[i] - elo[j]);
        residual[i] += expected - pairing.points();
        residual[j] -= expected - pairing.points();
    }
    residual
}

#[test]
fn the_fit_solves_its_defining_equations_on_random_tournaments() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut checked = 0;
    for _ in 0..200 {
        let agents = rng.random_range(2..9);
        let truth: Vec<f64> = (0..agents)
            .map(|_| rng.random_range(-300.0..300.0))
            .collect();
        let mut pairings = Vec::new();
        for i in 0..agents {
            for j in i + 1..agents {
                if rng.random_bool(0.3) {
                    continue;
                }
                let p = 1.0 / (1.0 + 10f64.powf((truth[j] - truth[i]) / 400.0));
                let mut pairing = Pairing::new(i, j, 0, 0, 0);
                for _ in 0..rng.random_range(1..40) {
                    if rng.random_bool(0.2) {
                        pairing.draws += 1;
                    } else if rng.random_bool(p) {
                        pairing.wins += 1;
                    } else {
                        pairing.losses += 1;
                    }
                }
                pairings.push(pairing);
            }
        }
        let fitted = fit(agents, &pairings);
        assert!(fitted.elo.iter().all(|r| r.is_finite()));
        let mean = fitted.elo.iter().sum::<f64>() / agents as f64;
        assert!(mean.abs() < 1e-9);
        if fitted.prior_used {
            continue;
        }
        checked += 1;
        let residual = expected_minus_actual(agents, &pairings, &fitted.elo);
        for (agent, r) in residual.iter().enumerate() {
            assert!(r.abs() < 1e-6, "agent {agent}: expected - actual = {r}");
        }
    }
    assert!(
        checked > 100,
        "only {checked} tournaments had a finite maximum"
    );
}

#[test]
fn a_perfect_score_gets_a_finite_rating_from_the_prior() {
    // 10-0: the weak prior gives each side one virtual draw against a phantom at 0, so with
    // R_strong = -R_weak = x: 10·σ(2x) + σ(x) = 10.5. σ(x) ≈ 1 - e^(-x) gives
    // 10·e^(-2x) + e^(-x) = 0.5, e^(-x) = (-1 + √21) / 20, x ≈ 1.72 nats ≈ 299 Elo.
    let fitted = fit(2, &[Pairing::new(0, 1, 10, 0, 0)]);
    assert!(fitted.prior_used);
    let x = fitted.elo[0] / ELO_PER_NAT;
    let sigma = |t: f64| 1.0 / (1.0 + (-t).exp());
    assert!(
        (10.0 * sigma(2.0 * x) + sigma(x) - 10.5).abs() < 1e-9,
        "x = {x}"
    );
    assert!(
        fitted.elo[0] > 250.0 && fitted.elo[0] < 350.0,
        "{:?}",
        fitted.elo
    );
    // More evidence, a larger (still finite) gap.
    let more = fit(2, &[Pairing::new(0, 1, 100, 0, 0)]);
    assert!(more.elo[0] > fitted.elo[0] && more.elo[0].is_finite());
}

#[test]
fn a_perfect_score_gets_a_lower_bound_and_an_open_upper_end() {
    // 8-0. The report's interval of the winner's rating relative to the mean (half the gap g,
    // natural units) is the Jeffreys-penalised profile: ℓ*(g) = 8·ln σ(g) + ½·ln(16·σ(g)σ(−g))
    // (the information of the gap on the mean-0 line is 2·8·σ(g)σ(−g)). ℓ* is largest where
    // 8·σ(−g) = σ(g) − ½, i.e. σ(g) = 17/18, g* = ln 17; the lower end is where
    // 2·(ℓ*(g*) − ℓ*(g)) = 3.8415 below g*; no draws, so no draw correction. Nothing bounds
    // the gap from above: that end is open.
    let sigma = |t: f64| 1.0 / (1.0 + (-t).exp());
    let penalised = |g: f64| 8.0 * sigma(g).ln() + 0.5 * (16.0 * sigma(g) * sigma(-g)).ln();
    let top = 17f64.ln();
    let (mut low, mut high) = (-10.0, top);
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if 2.0 * (penalised(top) - penalised(middle)) > 3.841_458_820_694_124 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let expected = 0.5 * low * ELO_PER_NAT;

    let mut games = Games::new();
    games.pairing("mnk-4x4k3", "winner", "loser", 8, 0, 0);
    let summary = analyse(&games, &Options::default());
    let pool = summary.pool("mnk-4x4k3").unwrap();
    let winner = pool.standing("winner").unwrap();
    assert!(!winner.finite && winner.has_perfect_score());
    let interval = winner.interval.unwrap();
    assert_eq!(interval.high, None, "{interval:?}");
    let bound = interval.low.unwrap();
    assert!((bound - expected).abs() < 1e-3, "{bound} vs {expected}");
    assert!(bound > 0.0 && bound < winner.elo);
    let loser = pool.standing("loser").unwrap().interval.unwrap();
    assert_eq!(loser.low, None);
    assert!((loser.high.unwrap() + expected).abs() < 1e-3);
    // More games, a higher lower bound.
    let mut more = Games::new();
    more.pairing("mnk-4x4k3", "winner", "loser", 32, 0, 0);
    let summary = analyse(&more, &Options::default());
    let more_bound = summary
        .pool("mnk-4x4k3")
        .unwrap()
        .standing("winner")
        .unwrap()
        .interval;
    assert!(more_bound.unwrap().low.unwrap() > bound + 50.0);
}

#[test]
fn disconnected_groups_and_perfect_scores_are_reported_not_infinite() {
    let mut games = Games::new();
    games
        .pairing("mnk-3x3k3", "alpha", "beta", 3, 2, 1)
        .pairing("mnk-3x3k3", "gamma", "delta", 2, 1, 2)
        .pairing("mnk-4x4k3", "winner", "loser", 8, 0, 0);
    let dir = common::fresh_dir("perfect-and-apart");
    let csv = dir.join("games.csv");
    std::fs::write(&csv, games.csv()).unwrap();
    let summary = Report::from_csv_files(&[&csv])
        .unwrap()
        .write(&dir, &Options::default().with_bootstrap(50))
        .unwrap();

    // Two groups that never met: each is fitted on its own with mean 0, no prior needed.
    let apart = summary.pool("mnk-3x3k3").unwrap();
    assert!(!apart.prior_used);
    assert_eq!(apart.groups, 2);
    let rating = |agent: &str| apart.standing(agent).unwrap().elo;
    assert!((rating("alpha") - 400.0 * 2f64.log10() / 2.0).abs() < 1e-9);
    assert!((rating("alpha") + rating("beta")).abs() < 1e-9);
    assert!(rating("gamma").abs() < 1e-9 && rating("delta").abs() < 1e-9);
    let perfect = summary.pool("mnk-4x4k3").unwrap();
    assert!(perfect.prior_used);
    let winner = perfect.standing("winner").unwrap();
    assert!(winner.has_perfect_score() && winner.elo > 0.0);
    for pool in &summary.pools {
        for s in &pool.standings {
            assert!(s.elo.is_finite());
            let interval = s.interval.unwrap();
            for end in [interval.low, interval.high].into_iter().flatten() {
                assert!(end.is_finite());
            }
            assert!(interval.contains(s.elo), "{s:?}");
        }
    }

    let ratings = std::fs::read_to_string(dir.join("ratings.csv")).unwrap();
    let report_md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for (name, text) in [("ratings.csv", &ratings), ("report.md", &report_md)] {
        assert_eq!(
            non_finite_numbers(text),
            Vec::<String>::new(),
            "{name}:\n{text}"
        );
    }
    for line in ratings.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let value: f64 = fields[2].parse().unwrap_or_else(|_| panic!("{line}"));
        assert!(value.is_finite());
        // An open end is an empty field, never a number the prior made up.
        for field in &fields[3..5] {
            if !field.is_empty() {
                let value: f64 = field.parse().unwrap_or_else(|_| panic!("{line}"));
                assert!(value.is_finite());
            }
        }
    }
    assert!(
        ratings.contains("mnk-4x4k3,winner,") && ratings.contains(",,8,1.0000,8,0,0,1,1,tiers"),
        "{ratings}"
    );
    assert!(
        report_md.contains("winner † |"),
        "no finite maximum not marked"
    );
    assert!(report_md.contains("tier 1 (winner) above tier 2 (loser): at least +"));
    assert!(report_md.contains("2 groups that never played each other"));
    assert!(report_md.contains("3 groups that never played each other"));
    assert!(report_md.contains("weak prior"));
}

#[test]
fn the_interval_holds_the_estimate_and_narrows_with_more_games() {
    let build = |scale: usize| {
        let mut games = Games::new();
        games
            .pairing("mnk-3x3k3", "a", "b", 6 * scale, 2 * scale, 4 * scale)
            .pairing("mnk-3x3k3", "b", "c", 5 * scale, 3 * scale, 4 * scale)
            .pairing("mnk-3x3k3", "a", "c", 7 * scale, 2 * scale, 3 * scale)
            .pairing("mnk-3x3k3", "c", "d", 4 * scale, 4 * scale, 4 * scale)
            .pairing("mnk-3x3k3", "a", "d", 6 * scale, 3 * scale, 3 * scale);
        games
    };
    for options in [
        Options::default(),
        Options::default()
            .with_intervals(Intervals::Bootstrap)
            .with_bootstrap(400)
            .with_seed(9),
    ] {
        let once = analyse(&build(1), &options);
        let quadrupled = analyse(&build(4), &options);
        for agent in ["a", "b", "c", "d"] {
            let small = once.pool("mnk-3x3k3").unwrap().standing(agent).unwrap();
            let large = quadrupled
                .pool("mnk-3x3k3")
                .unwrap()
                .standing(agent)
                .unwrap();
            // Same score fractions, same maximum.
            assert!((small.elo - large.elo).abs() < 1e-6);
            for s in [small, large] {
                let interval = s.interval.unwrap();
                assert!(interval.contains(s.elo), "{agent}: {interval:?} {}", s.elo);
            }
            let width = |s: &report::Standing| {
                let interval = s.interval.unwrap();
                interval.high.unwrap() - interval.low.unwrap()
            };
            // Four times the games: about half the width.
            assert!(
                width(large) < 0.7 * width(small),
                "{agent}: {} vs {}",
                width(large),
                width(small)
            );
        }
    }
}

#[test]
fn the_bootstrap_reproduces_from_its_seed_whatever_the_threads() {
    let games = common::sample_tournament(4);
    let options = Options::default()
        .with_intervals(Intervals::Bootstrap)
        .with_bootstrap(60)
        .with_seed(3);
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| analyse(&games, &options))
    };
    let one = on(1);
    assert_eq!(one, on(3));
    let other_seed = analyse(&games, &options.clone().with_seed(4));
    assert_ne!(one.pools, other_seed.pools);
    // The profile intervals are searched agent by agent in parallel: the same too.
    let profile = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| analyse(&games, &Options::default()))
    };
    assert_eq!(profile(1), profile(3));
}

#[test]
fn an_anchor_fixes_one_agent_and_keeps_differences() {
    let games = common::sample_tournament(4);
    let free = analyse(&games, &Options::default().with_intervals(Intervals::Off));
    let anchored = analyse(&games, &Options::default().with_anchor("random", 1000.0));
    for pool in &anchored.pools {
        let random = pool.standing("random").unwrap();
        assert_eq!(random.elo, 1000.0);
        // The anchor is the reference: fixed, no interval.
        assert!(random.anchor);
        assert_eq!(random.interval, None);
        for s in pool.standings.iter().filter(|s| !s.anchor) {
            assert!(s.interval.unwrap().contains(s.elo), "{s:?}");
        }
        let free_pool = free.pool(&pool.pool).unwrap();
        let gap = |p: &report::PoolRatings| {
            p.standing("ab4").unwrap().elo - p.standing("random").unwrap().elo
        };
        assert!((gap(pool) - gap(free_pool)).abs() < 1e-9);
    }
    let report = Report::from_csv_reader("g.csv", games.csv().as_bytes()).unwrap();
    let unknown = report.analyse(&Options::default().with_anchor("nobody", 0.0));
    assert!(matches!(unknown, Err(report::Error::UnknownAnchor { .. })));
}

#[test]
fn pair_numbers_match_cutechess_cli() {
    // Reference values from cutechess-cli's formulas (elo.cpp), computed independently.
    for (wins, draws, losses, diff, margin, los) in [
        (
            30,
            10,
            10,
            147.19071411783776,
            94.99232556978544,
            0.9992172988709987,
        ),
        (
            12,
            30,
            8,
            27.85437125655782,
            61.36244565284705,
            0.8144533152386513,
        ),
        (5, 0, 5, 0.0, 251.27746725188962, 0.5),
    ] {
        let pair = PairElo::new(wins, draws, losses);
        assert!((pair.difference().unwrap() - diff).abs() < 1e-9);
        assert!((pair.error_margin().unwrap() - margin).abs() < 1e-9);
        assert!((pair.likelihood_of_superiority() - los).abs() < 1e-12);
    }
    // Where cutechess-cli prints inf or nan, we have no number.
    let sweep = PairElo::new(10, 0, 0);
    assert_eq!(sweep.difference(), None);
    assert_eq!(sweep.error_margin(), None);
    assert!((sweep.likelihood_of_superiority() - 0.999_217_298_870_998_7).abs() < 1e-12);
    assert_eq!(PairElo::new(9, 0, 1).error_margin(), None);
    assert_eq!(PairElo::new(0, 4, 0).likelihood_of_superiority(), 0.5);
    assert_eq!(PairElo::new(0, 0, 0).score(), None);
}

/// Words of `text` that read as a number but are not finite (`inf`, `NaN`, `-infinity`…).
fn non_finite_numbers(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || ",|[]()".contains(c))
        .filter(|word| word.parse::<f64>().is_ok_and(|x| !x.is_finite()))
        .map(str::to_owned)
        .collect()
}

#[test]
fn games_of_an_agent_against_itself_are_left_out_and_said() {
    // 40 games of random against itself (as the terminal's AI-against-AI mode records them),
    // and random 3-1 against weak.
    let mut games = Games::new();
    for k in 0..40 {
        let result = if k % 2 == 0 { "1-0" } else { "0-1" };
        games.game("mnk-3x3k3", "random", "random", result);
    }
    games.pairing("mnk-3x3k3", "random", "weak", 3, 0, 1);
    let report = Report::from_csv_reader("games.csv", games.csv().as_bytes()).unwrap();
    let summary = report.analyse(&Options::default()).unwrap();
    assert_eq!(summary.games, 44);
    assert_eq!(summary.self_play.get("mnk-3x3k3"), Some(&40));
    let random = summary
        .pool("mnk-3x3k3")
        .unwrap()
        .standing("random")
        .unwrap();
    assert_eq!(random.games, 4);
    assert_eq!((random.wins, random.draws, random.losses), (3, 0, 1));
    let expected = 400.0 * 3f64.log10();
    let weak = summary.pool("mnk-3x3k3").unwrap().standing("weak").unwrap();
    assert!((random.elo - weak.elo - expected).abs() < 1e-6);
    // 7-ply games: random moved 4 times as first player, 3 as second, in 2 games each.
    assert_eq!(report.timing("mnk-3x3k3", "random").unwrap().moves, 14);

    let out = common::fresh_dir("self-play");
    report.write(&out, &Options::default()).unwrap();
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        markdown.contains("**Left out:** 40 games of an agent against itself (40 in mnk-3x3k3)"),
        "{markdown}"
    );

    // Nothing but self-play: nothing to rate, said as such.
    let mut alone = Games::new();
    alone.game("mnk-3x3k3", "random", "random", "1-0");
    let error = Report::from_csv_reader("games.csv", alone.csv().as_bytes())
        .unwrap()
        .analyse(&Options::default())
        .unwrap_err();
    assert!(
        matches!(error, report::Error::OnlySelfPlay { games: 1, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("against itself"), "{error}");
}
