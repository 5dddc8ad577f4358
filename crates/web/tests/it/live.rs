//! Live: a run as it plays, read from the files it writes (`GET /api/live`,
//! `GET /api/live/run`). The run is stood in for by the files themselves: a CSV cut in the
//! middle of a row, its meta file, its fault log and the games-in-progress file.

use crate::common::{Client, results_folder, serve};

use std::path::{Path, PathBuf};

use arena::live::{LiveFile, LiveGame, now_ms};
use serde_json::json;

/// The committed default run's CSV and meta file copied into `results/run/`, cut after `rows`
/// rows and then in the middle of the next one (as a run killed while writing leaves it).
fn half_written_run(results: &Path, rows: usize) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/default");
    let dir = results.join("run");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(source.join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut cut = lines[..=rows].join("\n");
    cut.push('\n');
    cut.push_str(&lines[rows + 1][..20]);
    let csv = dir.join("games.csv");
    std::fs::write(&csv, cut).unwrap();
    std::fs::copy(source.join("games.meta.toml"), dir.join("games.meta.toml")).unwrap();
    csv
}

fn live_file(updated_ms: u64) -> LiveFile {
    LiveFile {
        pid: 1,
        updated_ms,
        heartbeat_ms: 5000,
        games: vec![
            LiveGame {
                game: 40,
                variant: "mnk-3x3k3".into(),
                seats: vec!["random".into(), "easy".into()],
                moves: "b2 a1".into(),
            },
            LiveGame {
                // Recorded already (the live file is up to a second behind the CSV): not shown.
                game: 3,
                variant: "mnk-3x3k3".into(),
                seats: vec!["easy".into(), "random".into()],
                moves: "a1".into(),
            },
        ],
    }
}

#[test]
fn a_run_being_written_shows_its_standings_games_in_progress_and_faults() {
    let results = results_folder("live");
    let csv = half_written_run(&results, 30);
    live_file(now_ms()).write(&csv).unwrap();
    std::fs::write(
        csv.with_extension("faults.log"),
        "game 7 (mnk-3x3k3): `random` timeout: no move within 500 ms\n",
    )
    .unwrap();
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);

    let runs = client.get("/api/live").json();
    assert_eq!(runs["runs"], json!([{ "dir": "run", "playing": true }]));

    let state = client.get("/api/live/run?dir=run").json();
    assert_eq!(state["status"], "playing");
    assert_eq!(state["experiment"], "default");
    // The torn last line is left out, and said so.
    assert_eq!(state["done"], 30);
    assert_eq!(state["partial_line"], true);
    assert_eq!(state["total"], 1020);
    // The standings are the report's, of the whole rows.
    let whole: String = std::fs::read_to_string(&csv)
        .unwrap()
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .collect();
    let rated = report::Report::from_csv_reader("run", whole.as_bytes()).unwrap();
    let summary = rated
        .analyse(&report::Options::default().with_intervals(report::Intervals::Off))
        .unwrap();
    // One variant so far: its pool (with several, `all`).
    assert!(summary.pool(report::ALL_POOL).is_none());
    let pool = &summary.pools[0];
    assert_eq!(state["pool"], "mnk-3x3k3");
    // One variant: no per-variant pools besides it.
    assert_eq!(state["variants"], json!([]));
    let standings = state["standings"].as_array().unwrap();
    assert_eq!(standings.len(), pool.standings.len());
    for (shown, standing) in standings.iter().zip(&pool.standings) {
        assert_eq!(shown["agent"], standing.agent.as_str());
        assert_eq!(shown["wins"], standing.wins);
        assert_eq!(shown["games"], standing.games);
    }
    let agents = state["crosstable"]["agents"].as_array().unwrap();
    assert_eq!(agents.len(), standings.len());
    // The game in progress, drawn after its moves.
    assert_eq!(state["playing"].as_array().unwrap().len(), 1);
    let playing = &state["playing"][0];
    assert_eq!(playing["game"], 40);
    assert_eq!(playing["plies"], 2);
    assert_eq!(playing["last_move"], "a1");
    assert_eq!(playing["position"]["layout"]["kind"], "grid");
    // The latest finished game, one request from its replay.
    let recent = &state["recent"][0];
    assert_eq!(recent["game"], 29);
    let replay = client
        .get(&format!(
            "/api/records/game?file={}&row={}",
            recent["file"].as_str().unwrap(),
            recent["row"]
        ))
        .json();
    assert_eq!(replay["game"], 29, "{replay}");
    // The fault, with its reason and its row.
    let fault = &state["faults"][0];
    assert_eq!(fault["game"], 7);
    assert!(fault["text"].as_str().unwrap().contains("no move within"));
    assert_eq!(fault["row"], 7);

    // Nothing changed: the page's poll costs no reading.
    let version = state["version"].as_str().unwrap();
    let same = client
        .get(&format!("/api/live/run?dir=run&since={version}"))
        .json();
    assert_eq!(same, json!({ "unchanged": true, "version": version }));
    // The run finishes the torn row: it counts, and the version changes.
    let full = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/default/games.csv"),
    )
    .unwrap();
    let upto: String = full.split_inclusive('\n').take(32).collect();
    std::fs::write(&csv, upto).unwrap();
    let grown = client
        .get(&format!("/api/live/run?dir=run&since={version}"))
        .json();
    assert_eq!(grown["done"], 31);
    assert_eq!(grown["partial_line"], false);

    // A run killed (its live file no longer rewritten) is stopped, as is one whose file went
    // with games left to play.
    live_file(now_ms() - 60_000).write(&csv).unwrap();
    let stale = client.get("/api/live/run?dir=run").json();
    assert_eq!(stale["status"], "stopped");
    assert_eq!(stale["playing"], json!([]));
    std::fs::remove_file(arena::live::live_path(&csv)).unwrap();
    assert_eq!(
        client.get("/api/live/run?dir=run").json()["status"],
        "stopped"
    );
    assert_eq!(
        client.get("/api/live").json()["runs"],
        json!([{ "dir": "run", "playing": false }])
    );
}

/// A run with two variants so far: the standings and crosstable of both together, then each
/// variant's, the report's pool for pool.
#[test]
fn a_run_of_several_variants_has_standings_and_a_crosstable_per_variant() {
    let results = results_folder("live-variants");
    // The committed run plays its 210 games of mnk-3x3k3, then mnk-4x4k3's: 20 of those.
    let csv = half_written_run(&results, 230);
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let state = client.get("/api/live/run?dir=run").json();
    assert_eq!(state["done"], 230);
    assert_eq!(state["pool"], report::ALL_POOL);
    let whole: String = std::fs::read_to_string(&csv)
        .unwrap()
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .collect();
    let summary = report::Report::from_csv_reader("run", whole.as_bytes())
        .unwrap()
        .analyse(&report::Options::default().with_intervals(report::Intervals::Off))
        .unwrap();
    let variants = state["variants"].as_array().unwrap();
    let names: Vec<&str> = variants
        .iter()
        .map(|v| v["variant"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["mnk-3x3k3", "mnk-4x4k3"]);
    for shown in variants {
        let pool = summary.pool(shown["variant"].as_str().unwrap()).unwrap();
        let standings = shown["standings"].as_array().unwrap();
        assert_eq!(standings.len(), pool.standings.len());
        for (row, standing) in standings.iter().zip(&pool.standings) {
            assert_eq!(row["agent"], standing.agent.as_str());
            assert_eq!(row["games"], standing.games);
            assert_eq!(row["wins"], standing.wins);
            assert_eq!(row["losses"], standing.losses);
        }
        let agents = shown["crosstable"]["agents"].as_array().unwrap();
        assert_eq!(agents.len(), standings.len());
    }
    let games = |i: usize| -> u64 {
        variants[i]["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["games"].as_u64().unwrap())
            .sum()
    };
    // Each game counts once for each of its two agents.
    assert_eq!(games(1), 2 * 20);
    assert!(games(0) > games(1));
}

#[test]
fn a_folder_without_a_run_or_with_an_unreadable_csv_says_so() {
    let results = results_folder("live-bad");
    std::fs::create_dir_all(results.join("empty")).unwrap();
    std::fs::create_dir_all(results.join("odd/games.csv")).unwrap();
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    for (path, status, words) in [
        ("/api/live/run?dir=empty", 404, "no games.csv"),
        (
            "/api/live/run?dir=missing",
            404,
            "not in the results folder",
        ),
        ("/api/live/run?dir=../..", 400, "outside the results folder"),
        ("/api/live/run?dir=odd", 400, "not a plain file"),
        ("/api/live/run", 400, "dir"),
    ] {
        let answer = client.get(path);
        assert_eq!(answer.status, status, "{path}: {}", answer.body);
        let error = answer.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(words), "{path}: {error}");
    }
}

#[test]
fn a_run_folder_replaced_by_a_file_while_served_is_said_to_be_unreadable() {
    // The tests run as root, so a folder cannot be made unreadable by its mode: it is replaced
    // by a file while the page polls it.
    let results = results_folder("live-gone");
    half_written_run(&results, 5);
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let answer = client.get("/api/live/run?dir=run");
    assert_eq!(answer.status, 200, "{}", answer.body);
    let listed = |client: &mut Client| -> Vec<String> {
        let runs = client.get("/api/live");
        assert_eq!(runs.status, 200, "{}", runs.body);
        runs.json()["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["dir"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(listed(&mut client), ["run"]);
    std::fs::remove_dir_all(results.join("run")).unwrap();
    std::fs::write(results.join("run"), "not a folder any more\n").unwrap();
    for path in ["/api/live/run?dir=run", "/api/live/run?dir=run&since=x"] {
        let answer = client.get(path);
        assert_eq!(answer.status, 400, "{path}: {}", answer.body);
        let error = answer.json()["error"].as_str().unwrap().to_string();
        assert_eq!(error, "`run` is not a folder", "{path}");
    }
    // And the list of runs no longer offers it.
    assert_eq!(listed(&mut client), Vec::<String>::new());
}
