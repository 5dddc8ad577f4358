//! The arena's promises: the same CSV whatever the thread count, a game replays alone,
//! resuming ends with the content of an uninterrupted run, faults lose the game and the
//! tournament goes on.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use arena::{Experiment, RunOptions, Schedule, Shard, play_scheduled, run};
use common::{blank_timing, scratch, without_timing};

fn experiment(text: &str) -> Experiment {
    Experiment::from_toml(text, "test.toml").unwrap()
}

const SMALL: &str = r#"
name = "small"
seed = 42
games_per_pair = 4
opening_plies = 2
variants = ["mnk-3x3k3", "mnk-4x4k3", "oanquan"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "random-b"
spec = "random"

[[agents]]
name = "random-c"
spec = "random"
variants = ["mnk-4x4k3", "oanquan"]
"#;

fn options(out: &Path, threads: usize) -> RunOptions {
    common::options(out, threads, Shard::WHOLE)
}

#[test]
fn the_csv_does_not_depend_on_the_thread_count() {
    let exp = experiment(SMALL);
    let one = scratch("threads-1");
    let two = scratch("threads-2");
    let summary = run(&exp, &options(&one, 1)).unwrap();
    assert_eq!(summary.played, Schedule::new(&exp).len());
    run(&exp, &options(&two, 2)).unwrap();
    let a = without_timing(&one.join("games.csv"));
    let b = without_timing(&two.join("games.csv"));
    assert_eq!(a.len() as u64, 1 + summary.games);
    assert_eq!(a, b);
    // Rows are in schedule order.
    let games: Vec<u64> = a[1..].iter().map(|r| r[2].parse().unwrap()).collect();
    assert_eq!(games, (0..summary.games).collect::<Vec<_>>());
}

#[test]
fn searching_agents_give_the_same_csv_with_one_and_two_threads() {
    // Agents with tables, trees and parallel scoring: nothing they keep between searches, and
    // no thread they run on, may change a move.
    let text = r#"
name = "search"
seed = 8
games_per_pair = 4
opening_plies = 2
variants = ["mnk-4x4k3", "mnk-7x7k4-caro", "oanquan"]

[[agents]]
name = "alphabeta"
spec = "alphabeta:depth=3"

[[agents]]
name = "mcts"
spec = "mcts:iterations=300"

[[agents]]
name = "mc-par"
spec = "mc-par:rollouts=20"

[[agents]]
name = "greedy2"
spec = "greedy2"

[[agents]]
name = "minimax"
spec = "minimax:depth=2"
"#;
    let exp = experiment(text);
    let (one, two) = (scratch("search-1"), scratch("search-2"));
    let summary = run(&exp, &options(&one, 1)).unwrap();
    assert!(summary.played > 40);
    run(&exp, &options(&two, 2)).unwrap();
    assert_eq!(
        without_timing(&one.join("games.csv")),
        without_timing(&two.join("games.csv"))
    );
}

#[test]
fn a_game_replayed_alone_gives_the_same_row() {
    let exp = experiment(SMALL);
    let out = scratch("alone");
    run(&exp, &options(&out, 2)).unwrap();
    let rows = without_timing(&out.join("games.csv"));
    let schedule = Schedule::new(&exp);
    for index in [0, 5, schedule.len() - 1] {
        let (row, _) = play_scheduled(&exp, &schedule.game(index));
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(vec![]);
        writer.serialize(&row).unwrap();
        let bytes = writer.into_inner().unwrap();
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&bytes[..]);
        let record = reader.records().next().unwrap().unwrap();
        let fields = blank_timing(&rows[0], record.iter());
        assert_eq!(fields, rows[index as usize + 1], "game {index}");
    }
}

#[test]
fn colours_alternate_and_openings_repeat_for_both_orders() {
    let exp = experiment(SMALL);
    let schedule = Schedule::new(&exp);
    let (g0, g1) = (schedule.game(0), schedule.game(1));
    assert_eq!((g0.first, g0.second), (g1.second, g1.first));
    assert_eq!(g0.opening_seed, g1.opening_seed);
    assert_ne!(g0.seed, g1.seed);
    let (r0, _) = play_scheduled(&exp, &g0);
    let (r1, _) = play_scheduled(&exp, &g1);
    let opening = |m: &str| m.split(' ').take(2).collect::<Vec<_>>().join(" ");
    assert_eq!(opening(&r0.moves), opening(&r1.moves));
}

#[test]
fn seeds_do_not_change_when_an_agent_is_added() {
    let before = Schedule::new(&experiment(SMALL));
    let larger = format!("{SMALL}\n[[agents]]\nname = \"random-d\"\nspec = \"random\"\n");
    let after = Schedule::new(&experiment(&larger));
    // The first pairing (random vs random-b on tic-tac-toe) keeps its seeds.
    for i in 0..4 {
        assert_eq!(before.game(i).seed, after.game(i).seed);
    }
}

fn run_complete(name: &str) -> (Experiment, PathBuf, Vec<Vec<String>>) {
    let exp = experiment(SMALL);
    let out = scratch(name);
    run(&exp, &options(&out, 2)).unwrap();
    let reference = without_timing(&out.join("games.csv"));
    (exp, out, reference)
}

#[test]
fn resuming_after_a_stop_ends_with_the_uninterrupted_content() {
    let (exp, out, reference) = run_complete("resume");
    let csv = out.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    // Keep the header and the first 7 games, as a run stopped there would have left it.
    let kept: String = text.split_inclusive('\n').take(8).collect();
    fs::write(&csv, kept).unwrap();
    let summary = run(&exp, &options(&out, 2)).unwrap();
    assert_eq!(summary.resumed, 7);
    assert_eq!(summary.played, summary.games - 7);
    assert!(!summary.cut_partial_line);
    assert_eq!(without_timing(&csv), reference);
    // Running again plays nothing.
    let again = run(&exp, &options(&out, 1)).unwrap();
    assert_eq!(again.played, 0);
    assert_eq!(without_timing(&csv), reference);
}

#[test]
fn a_half_written_last_line_is_cut_and_its_game_replayed() {
    let (exp, out, reference) = run_complete("truncated");
    let csv = out.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let kept: String = text.split_inclusive('\n').take(10).collect();
    let partial = &text[kept.len()..kept.len() + 25];
    fs::write(&csv, format!("{kept}{partial}")).unwrap();
    let summary = run(&exp, &options(&out, 2)).unwrap();
    assert!(summary.cut_partial_line);
    assert_eq!(summary.resumed, 9);
    assert_eq!(without_timing(&csv), reference);
}

#[test]
fn missing_games_in_the_middle_are_played_and_the_file_sorted() {
    let (exp, out, reference) = run_complete("holes");
    let csv = out.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let kept: String = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i == 0 || i % 3 != 0)
        .map(|(_, l)| *l)
        .collect();
    fs::write(&csv, kept).unwrap();
    run(&exp, &options(&out, 2)).unwrap();
    assert_eq!(without_timing(&csv), reference);
}

#[test]
fn a_changed_experiment_is_refused_and_fresh_moves_the_old_csv_aside() {
    let (_, out, _) = run_complete("changed");
    let changed = experiment(&SMALL.replace("seed = 42", "seed = 43"));
    let error = run(&changed, &options(&out, 2)).unwrap_err().to_string();
    assert!(
        error.contains("another version of this experiment"),
        "{error}"
    );
    assert!(error.contains("--fresh"), "{error}");
    let mut fresh = options(&out, 2);
    fresh.fresh = true;
    let summary = run(&changed, &fresh).unwrap();
    let aside = summary.moved_aside.expect("the old CSV was moved aside");
    assert!(aside.exists());
    assert_eq!(summary.resumed, 0);
    // Changing only the thread count is not a change.
    let threads = experiment(&SMALL.replace("seed = 42", "seed = 43\nthreads = 1"));
    assert_eq!(run(&threads, &options(&out, 1)).unwrap().played, 0);
}

#[test]
fn a_foreign_csv_is_not_touched() {
    let exp = experiment(SMALL);
    let out = scratch("foreign");
    fs::write(out.join("games.csv"), "a,b\n1,2\n").unwrap();
    let error = run(&exp, &options(&out, 1)).unwrap_err().to_string();
    assert!(error.contains("no arena meta file"), "{error}");
    assert_eq!(
        fs::read_to_string(out.join("games.csv")).unwrap(),
        "a,b\n1,2\n"
    );
}

#[test]
fn faulty_agents_lose_with_the_right_termination_and_the_rest_completes() {
    let text = r#"
name = "faults"
seed = 7
games_per_pair = 2
move_time_ms = 150
variants = ["mnk-3x3k3", "oanquan"]

[[agents]]
name = "steady"
spec = "random"

[[agents]]
name = "panics"
spec = "fault:mode=panic,after=2"

[[agents]]
name = "illegal"
spec = "fault:mode=illegal"

[[agents]]
name = "sleepy"
spec = "fault:mode=sleep,ms=400"

[[agents]]
name = "fails"
spec = "fault:mode=error"
"#;
    let exp = experiment(text);
    let out = scratch("faults");
    let summary = run(&exp, &options(&out, 2)).unwrap();
    assert_eq!(summary.played, summary.games);
    let csv = out.join("games.csv");
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let mut seen = 0;
    for row in reader.deserialize::<arena::Row>() {
        let row = row.unwrap();
        seen += 1;
        let loser = match row.result.as_str() {
            "1-0" => &row.second,
            "0-1" => &row.first,
            _ => "",
        };
        let both_faulty = row.first != "steady" && row.second != "steady";
        if !both_faulty {
            let faulty = if row.first == "steady" {
                &row.second
            } else {
                &row.first
            };
            let expected = match faulty.as_str() {
                "panics" => "crash",
                "illegal" => "illegal-move",
                "sleepy" => "timeout",
                "fails" => "crash",
                other => panic!("unexpected agent {other}"),
            };
            assert_eq!(row.termination, expected, "{row:?}");
            assert_eq!(loser, faulty, "{row:?}");
        } else {
            assert!(
                ["crash", "illegal-move", "timeout"].contains(&row.termination.as_str()),
                "{row:?}"
            );
        }
    }
    assert_eq!(seen, summary.games);
    assert_eq!(summary.faults["illegal"][1], 12, "{:?}", summary.faults);
    assert_eq!(summary.faults["sleepy"][2], 12, "{:?}", summary.faults);
    let log = fs::read_to_string(out.join("games.faults.log")).unwrap();
    assert!(log.contains("the fault agent panics, as asked"), "{log}");
}

#[test]
fn the_ply_cap_adjudicates_by_the_game_rule() {
    let text = r#"
name = "cap"
seed = 1
games_per_pair = 2
max_plies = 4
variants = ["mnk-5x5k4", "oanquan"]

[[agents]]
name = "a"
spec = "random"

[[agents]]
name = "b"
spec = "random"
"#;
    let exp = experiment(text);
    let out = scratch("cap");
    run(&exp, &options(&out, 1)).unwrap();
    let mut reader = csv::Reader::from_path(out.join("games.csv")).unwrap();
    for row in reader.deserialize::<arena::Row>() {
        let row = row.unwrap();
        if row.termination == "ply-cap" {
            assert_eq!(row.plies, 4);
        }
        if row.variant == "mnk-5x5k4" {
            assert_eq!(row.termination, "ply-cap");
            assert_eq!(row.result, "1/2-1/2");
            assert_eq!(row.first_score, None);
        } else {
            let (first, second) = (row.first_score.unwrap(), row.second_score.unwrap());
            let expected = match first.cmp(&second) {
                std::cmp::Ordering::Greater => "1-0",
                std::cmp::Ordering::Less => "0-1",
                std::cmp::Ordering::Equal => "1/2-1/2",
            };
            assert_eq!(row.result, expected, "{row:?}");
        }
    }
}

#[test]
fn the_default_experiment_parses_and_its_schedule_is_what_the_file_says() {
    let exp = Experiment::default_experiment();
    let raw: toml::Table = toml::from_str(arena::DEFAULT_EXPERIMENT).unwrap();
    let agents = raw["agents"].as_array().unwrap();
    let variants = raw["variants"].as_array().unwrap();
    assert_eq!(exp.agents.len(), agents.len());
    assert_eq!(exp.variants.len(), variants.len());
    let per_pair = raw["games_per_pair"].as_integer().unwrap() as u64;
    // Count, per variant, the agents that play it, from the file alone.
    let mut expected = 0;
    for (v, id) in variants.iter().enumerate() {
        let variant: rules::Variant = id.as_str().unwrap().parse().unwrap();
        let players = agents
            .iter()
            .filter(|a| {
                let spec: agents::AgentSpec = a["spec"].as_str().unwrap().parse().unwrap();
                let allowed = a.get("variants").is_none_or(|only| {
                    only.as_array()
                        .unwrap()
                        .iter()
                        .any(|x| x.as_str().unwrap().parse::<rules::Variant>().unwrap() == variant)
                });
                allowed && agents::plays(&spec, &variant)
            })
            .count() as u64;
        let games = per_pair * players * (players.saturating_sub(1)) / 2;
        let scheduled: u64 = Schedule::new(&exp)
            .pairings()
            .filter(|p| p.variant == v)
            .map(|p| p.games)
            .sum();
        assert_eq!(scheduled, games, "{variant}");
        expected += games;
    }
    assert_eq!(Schedule::new(&exp).len(), expected);
    assert!(expected > 0);
}

#[test]
fn a_seat_that_loses_on_time_by_its_game_clock_is_recorded_with_nothing_left() {
    let text = r#"
name = "flags"
seed = 3
games_per_pair = 2
tc = "0.05"
variants = ["mnk-3x3k3"]

[[agents]]
name = "steady"
spec = "random"

[[agents]]
name = "sleepy"
spec = "fault:mode=sleep,ms=200"
"#;
    let out = scratch("flags");
    let summary = run(&experiment(text), &common::options(&out, 2, Shard::WHOLE)).unwrap();
    assert_eq!(summary.played, 2);
    let mut reader = csv::Reader::from_path(out.join("games.csv")).unwrap();
    for row in reader.deserialize::<arena::Row>() {
        let row = row.unwrap();
        assert_eq!(row.termination, "timeout", "{row:?}");
        let (sleepy, steady) = if row.first == "sleepy" {
            (row.first_clock_ms, row.second_clock_ms)
        } else {
            (row.second_clock_ms, row.first_clock_ms)
        };
        assert_eq!(sleepy, Some(0.0), "the seat that flagged: {row:?}");
        assert!(steady.is_some_and(|ms| ms > 0.0), "{row:?}");
    }
    let log = fs::read_to_string(out.join("games.faults.log")).unwrap();
    assert!(
        log.contains("lost on time: move 1 took") && log.contains("on its clock (tc=0.05)"),
        "{log}"
    );
}

/// While a run plays, the file beside its CSV names its games in progress with their moves so
/// far (for `arena serve`'s Live page); the finished run removes it, and the CSV is the one a
/// run without anyone watching writes.
#[test]
fn a_run_shows_its_games_in_progress_beside_the_csv_and_removes_them_at_the_end() {
    let exp = experiment(
        r#"
name = "live"
seed = 5
games_per_pair = 2
variants = ["mnk-9x9k5"]

[[agents]]
name = "slow-a"
spec = "fault:mode=sleep,ms=50"

[[agents]]
name = "slow-b"
spec = "fault:mode=sleep,ms=50"
"#,
    );
    // Every ply takes 50 ms of sleep whatever the machine's speed (the moves are random from
    // the seed), so the run outlasts the live file's write interval on any machine: with
    // searching agents a fast machine finished both games before the second write.
    let out = scratch("live-file");
    let csv = out.join("games.csv");
    let live = arena::live::live_path(&csv);
    let seen = std::thread::scope(|scope| {
        let running = scope.spawn(|| run(&exp, &options(&out, 1)).unwrap());
        let mut seen: Option<arena::live::LiveFile> = None;
        while !running.is_finished() {
            if let Ok(Some(file)) = arena::live::LiveFile::read(&csv)
                && file.games.iter().any(|g| !g.moves.is_empty())
            {
                seen = Some(file);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        running.join().unwrap();
        seen
    });
    let file = seen.expect("the live file named a game with moves while the run played");
    assert_eq!(file.pid, std::process::id());
    let game = file.games.iter().find(|g| !g.moves.is_empty()).unwrap();
    assert_eq!(game.variant, "mnk-9x9k5");
    assert_eq!(game.seats.len(), 2);
    // The moves so far are the start of the game the CSV records.
    let rows = without_timing(&csv);
    let row = rows[1..]
        .iter()
        .find(|r| r[2] == game.game.to_string())
        .expect("the game in progress was recorded");
    let moves_column = rows[0].iter().position(|c| c == "moves").unwrap();
    assert!(
        row[moves_column].starts_with(&game.moves),
        "{} does not start with {}",
        row[moves_column],
        game.moves
    );
    assert!(
        !live.exists(),
        "the finished run removed {}",
        live.display()
    );
    assert!(!csv.with_extension("live.toml.part").exists());
    // A run is verified and resumed as before: nothing to play.
    arena::verify(&out, Some(&exp)).unwrap();
    assert_eq!(run(&exp, &options(&out, 1)).unwrap().played, 0);
}

/// The live file's writer: a move reaches the file, and the file goes when the run ends.
#[test]
fn the_writer_keeps_the_file_up_to_date_and_removes_it_when_told_to_stop() {
    let dir = scratch("live-writer");
    let csv = dir.join("games.csv");
    let board = arena::live::Board::new(1);
    let (stop, stopped) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| board.keep_written(&csv, stopped));
        board.begin(0, 3, "oware".into(), vec!["x".into(), "y".into()]);
        board.moved(0, &["a".to_string()]);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let file = loop {
            let file = arena::live::LiveFile::read(&csv).unwrap();
            if let Some(file) = file.filter(|f| f.games.iter().any(|g| g.moves == "a")) {
                break file;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the move never reached the file"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert_eq!(file.games[0].game, 3);
        assert_eq!(file.heartbeat_ms, arena::live::HEARTBEAT.as_millis() as u64);
        stop.send(()).unwrap();
    });
    assert!(!arena::live::live_path(&csv).exists());
    assert_eq!(arena::live::LiveFile::read(&csv).unwrap(), None);
}
