//! Tournaments of three and four players: every group of N agents in every cyclic seat order,
//! one CSV row per game with a column per seat, the same CSV whatever the thread count and
//! after a resume, shards that merge, faults that place the faulting seat last, and agents that
//! play only two-player games refused by name.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::time::Duration;

use agents::{AgentSpec, build_for};
use arena::record::{CSV_SCHEMA_SEATS, read_rows, schema_of};
use arena::{Experiment, GameSettings, Schedule, Shard, Termination, merge, play_game, run};
use common::{options, scratch, without_timing};
use rules::{Game, OanQuan, Player, Variant};

fn experiment(text: &str) -> Experiment {
    Experiment::from_toml(text, "multi.toml").unwrap()
}

const MIXED: &str = r#"
name = "mixed"
seed = 5
games_per_pair = 2
opening_plies = 2
variants = ["oanquan", "oanquan-3p", "oanquan-4p", "mnk-3x3k3"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "flat"
spec = "mc-flat:rollouts=4"

[[agents]]
name = "mcts"
spec = "mcts:iterations=40"
"#;

#[test]
fn every_group_plays_in_every_cyclic_seat_order() {
    let exp = experiment(MIXED);
    let schedule = Schedule::new(&exp);
    // oanquan: 6 pairs x 2; 3p: 4 triples x 3 orders x 2; 4p: 1 x 4 x 2; tic-tac-toe: the
    // three agents that play m,n,k games (greedy does not), 3 pairs x 2.
    assert_eq!(schedule.len(), 12 + 24 + 8 + 6);
    let mut seatings: BTreeMap<(usize, Vec<usize>), usize> = BTreeMap::new();
    let mut openings: BTreeMap<(usize, Vec<usize>, u64), BTreeSet<u64>> = BTreeMap::new();
    for pairing in schedule.pairings() {
        let players = exp.variants[pairing.variant].players();
        assert_eq!(pairing.agents.len(), players);
        assert!(pairing.agents.windows(2).all(|w| w[0] < w[1]), "file order");
        for nth in 0..pairing.games {
            let game = schedule.game(pairing.first_game + nth);
            assert_eq!(game.seats.len(), players);
            assert_eq!((game.first, game.second), (game.seats[0], game.seats[1]));
            let mut group = game.seats.to_vec();
            group.sort_unstable();
            assert_eq!(group, pairing.agents.to_vec());
            *seatings
                .entry((pairing.variant, game.seats.to_vec()))
                .or_default() += 1;
            openings
                .entry((
                    pairing.variant,
                    pairing.agents.to_vec(),
                    nth / players as u64,
                ))
                .or_default()
                .insert(game.opening_seed);
        }
    }
    // Each cyclic order of each group, games_per_pair times; no other order.
    for ((variant, seats), count) in &seatings {
        let players = exp.variants[*variant].players();
        if players > 2 {
            assert_eq!(*count, 2, "{seats:?}");
        }
        let smallest = seats.iter().position(|s| s == seats.iter().min().unwrap());
        let mut rotated = seats.clone();
        rotated.rotate_left(smallest.unwrap());
        assert!(
            rotated.windows(2).all(|w| w[0] < w[1]),
            "{seats:?} is not cyclic"
        );
    }
    // The N games of a block share one random opening.
    assert!(openings.values().all(|seeds| seeds.len() == 1));
}

#[test]
fn adding_multi_player_variants_leaves_the_two_player_seeds_alone() {
    let two_only = experiment(&MIXED.replace(
        r#"variants = ["oanquan", "oanquan-3p", "oanquan-4p", "mnk-3x3k3"]"#,
        r#"variants = ["oanquan", "mnk-3x3k3"]"#,
    ));
    let mixed = experiment(MIXED);
    assert_eq!(two_only.csv_schema(), arena::CSV_SCHEMA);
    assert_eq!(mixed.csv_schema(), CSV_SCHEMA_SEATS);
    // Each two-player game by (variant, its pair's agent names, place in the pair): its seed.
    let seeds = |exp: &Experiment| -> BTreeMap<(String, Vec<String>, u64), u64> {
        let schedule = Schedule::new(exp);
        let mut out = BTreeMap::new();
        for pairing in schedule.pairings() {
            let variant = exp.variants[pairing.variant];
            if variant.players() != 2 {
                continue;
            }
            let names: Vec<String> = pairing
                .agents
                .iter()
                .map(|&a| exp.agents[a].name.clone())
                .collect();
            for nth in 0..pairing.games {
                let game = schedule.game(pairing.first_game + nth);
                out.insert((variant.to_string(), names.clone(), nth), game.seed);
            }
        }
        out
    };
    assert_eq!(seeds(&two_only), seeds(&mixed));
}

#[test]
fn rows_carry_every_seat_and_the_csv_is_the_same_on_one_and_two_threads() {
    let exp = experiment(MIXED);
    let (one, two) = (scratch("multi-1"), scratch("multi-2"));
    let summary = run(&exp, &options(&one, 1, Shard::WHOLE)).unwrap();
    assert_eq!(summary.played, 50);
    run(&exp, &options(&two, 2, Shard::WHOLE)).unwrap();
    let csv = one.join("games.csv");
    assert_eq!(without_timing(&csv), without_timing(&two.join("games.csv")));
    assert_eq!(schema_of(&csv).unwrap(), CSV_SCHEMA_SEATS);

    let mut by_players = BTreeMap::new();
    read_rows(&csv, |_, row| {
        let variant: Variant = row.variant.parse().unwrap();
        let players = variant.players();
        *by_players.entry(players).or_insert(0) += 1;
        assert_eq!(row.seats(), players);
        let names = row.seat_names();
        assert_eq!(names.len(), players);
        assert_eq!(
            names.iter().collect::<BTreeSet<_>>().len(),
            players,
            "one agent per seat"
        );
        // The places of the seats, `1-3-2`, for 3 and 4 players; the moves replay to them.
        let start = variant.rules::<rules::OanQuanRules>().map(|r| r.start());
        if let Some(start) = start {
            let end = start.play_line(&row.moves).unwrap();
            let outcome = if row.termination == "ply-cap" {
                end.adjudicate()
            } else {
                end.outcome().expect("a finished game")
            };
            assert_eq!(outcome.result_text(), row.result, "game {}", row.game);
            let totals = end.totals().unwrap();
            let recorded: Vec<i32> = [
                row.first_score,
                row.second_score,
                row.third_score,
                row.fourth_score,
            ]
            .into_iter()
            .flatten()
            .collect();
            assert_eq!(recorded, totals.to_vec());
        }
        if players > 2 {
            assert!(row.third_ms.is_some() && row.third_nodes.is_some());
            assert_eq!(row.fourth.is_some(), players == 4);
        } else {
            assert!(row.third.is_none() && row.third_nodes.is_none());
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(by_players, BTreeMap::from([(2, 18), (3, 24), (4, 8)]));
}

#[test]
fn a_cut_run_resumes_to_the_same_csv_and_shards_merge() {
    let exp = experiment(MIXED);
    let whole = scratch("multi-whole");
    run(&exp, &options(&whole, 2, Shard::WHOLE)).unwrap();
    let expected = without_timing(&whole.join("games.csv"));

    // Cut after 20 rows and half a line: the resume plays the rest.
    let cut = scratch("multi-cut");
    run(&exp, &options(&cut, 2, Shard::WHOLE)).unwrap();
    let csv = cut.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let keep: usize = text.lines().take(21).map(|l| l.len() + 1).sum::<usize>() + 17;
    fs::write(&csv, &text[..keep]).unwrap();
    let resumed = run(&exp, &options(&cut, 1, Shard::WHOLE)).unwrap();
    assert!(resumed.cut_partial_line);
    assert_eq!(resumed.resumed, 20);
    assert_eq!(without_timing(&csv), expected);

    let sharded = scratch("multi-shards");
    for index in 0..3 {
        run(&exp, &options(&sharded, 1, Shard { index, count: 3 })).unwrap();
    }
    let merged = merge(&sharded).unwrap();
    assert_eq!(merged.games, 50);
    assert_eq!(without_timing(&merged.csv), expected);
}

#[test]
fn a_faulting_seat_takes_the_last_place_alone_and_the_run_goes_on() {
    let exp = experiment(
        r#"
name = "faulty"
seed = 3
games_per_pair = 1
variants = ["oanquan-3p"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "broken"
spec = "fault:mode=panic"
"#,
    );
    let out = scratch("multi-fault");
    let summary = run(&exp, &options(&out, 1, Shard::WHOLE)).unwrap();
    assert_eq!(summary.played, 3);
    assert_eq!(summary.faults.get("broken"), Some(&[3, 0, 0]));
    read_rows(&out.join("games.csv"), |_, row| {
        assert_eq!(row.termination, "crash");
        let seat = row
            .seat_names()
            .iter()
            .position(|&n| n == "broken")
            .unwrap();
        assert_eq!(row.faulting_seat(), Some(seat));
        let places: Vec<&str> = row.result.split('-').collect();
        assert_eq!(places[seat], "3");
        assert_eq!(places.iter().filter(|&&p| p == "3").count(), 1);
        Ok(())
    })
    .unwrap();
    let log = fs::read_to_string(out.join("games.faults.log")).unwrap();
    assert_eq!(log.lines().count(), 3);
    assert!(log.lines().all(|l| l.contains("`broken` crash")), "{log}");
}

#[test]
fn an_agent_of_two_players_only_is_refused_by_name_for_a_larger_table() {
    let restricted = Experiment::from_toml(
        r#"
name = "bad"
seed = 1
games_per_pair = 1
variants = ["oanquan", "oanquan-3p"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "deep"
spec = "minimax:depth=2"
variants = ["oanquan-3p"]
"#,
        "bad.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(restricted.contains("bad.toml"), "{restricted}");
    assert!(restricted.contains("`minimax`"), "{restricted}");
    assert!(restricted.contains("oanquan-3p"), "{restricted}");
    assert!(restricted.contains("two players only"), "{restricted}");

    let only = Experiment::from_toml(
        r#"
name = "bad"
seed = 1
games_per_pair = 1
variants = ["oanquan-3p"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "deep"
spec = "minimax:depth=2"
"#,
        "bad.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(only.contains("agent `deep`"), "{only}");
    assert!(only.contains("`oanquan-3p`"), "{only}");
    assert!(only.contains("two players only"), "{only}");
}

/// The mean place of `hero` over games of `variant` where it sits once in each seat against
/// copies of `villain` (every seat equally often), and the villains' mean place.
fn mean_places(variant: &str, hero: &str, villain: &str, games: u64) -> (f64, f64) {
    let rules = variant
        .parse::<Variant>()
        .unwrap()
        .rules::<rules::OanQuanRules>()
        .unwrap();
    let start = rules.start();
    let players = start.num_players();
    let (mut hero_sum, mut villain_sum) = (0.0, 0.0);
    for game in 0..games {
        let seat = (game % players as u64) as usize;
        let mut built: Vec<Box<dyn agents::Agent<OanQuan>>> = (0..players)
            .map(|s| {
                let spec: AgentSpec = if s == seat { hero } else { villain }.parse().unwrap();
                build_for::<OanQuan>(&spec, players).unwrap()
            })
            .collect();
        let mut seats: Vec<&mut dyn agents::Agent<OanQuan>> = Vec::new();
        for agent in built.iter_mut() {
            seats.push(agent.as_mut());
        }
        let settings = GameSettings {
            max_plies: 0,
            opening_plies: 2,
            move_time: None::<Duration>,
            clock: None,
        };
        let record = play_game(&start, &mut seats, 1000 + game, 77 + game / 3, settings);
        assert!(!record.termination.is_fault());
        assert_ne!(record.termination, Termination::IllegalMove);
        for s in 0..players {
            let place = f64::from(record.outcome.place(Player::seat(s)));
            if s == seat {
                hero_sum += place;
            } else {
                villain_sum += place / (players - 1) as f64;
            }
        }
    }
    let means = (hero_sum / games as f64, villain_sum / games as f64);
    eprintln!(
        "{variant}: {hero} mean place {:.2}, {villain} {:.2}",
        means.0, means.1
    );
    means
}

#[test]
fn greedy_places_clearly_better_than_random_at_three() {
    let (greedy, random) = mean_places("oanquan-3p", "greedy", "random", 300);
    // Random against random would average 2.0.
    assert!(
        greedy < 1.5,
        "greedy's mean place {greedy:.2} (random's {random:.2})"
    );
    assert!(random > greedy + 0.5, "{greedy:.2} vs {random:.2}");
}

#[test]
fn mcts_places_better_than_greedy_at_three_and_four() {
    for (variant, games) in [("oanquan-3p", 60), ("oanquan-4p", 40)] {
        let (mcts, greedy) = mean_places(variant, "mcts:iterations=2000", "greedy", games);
        assert!(
            mcts + 0.3 < greedy,
            "{variant}: mcts's mean place {mcts:.2}, greedy's {greedy:.2}"
        );
    }
}

#[test]
fn paranoid_alphabeta_places_better_than_greedy_at_three() {
    let (alphabeta, greedy) = mean_places("oanquan-3p", "alphabeta:depth=6", "greedy", 60);
    assert!(
        alphabeta + 0.3 < greedy,
        "alphabeta's mean place {alphabeta:.2}, greedy's {greedy:.2}"
    );
}
