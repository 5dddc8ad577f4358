//! The play record: rows of people's games appended by many writers at once, read back whole,
//! games of 2, 3 and 4 players in the one schema 2 file, an older schema 1 record carried
//! over, the arena's writer lock respected, and refused where a file is not a play record.

use std::path::PathBuf;
use std::time::Duration;

use arena::Termination;
use arena::played::{self, PlayedGame, PlayedSeat};
use arena::record::{self, CSV_SCHEMA, CSV_SCHEMA_SEATS};
use rules::{Outcome, Player, Ranking};

fn folder(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-played-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn tictactoe_win(name: &str, moves: usize) -> PlayedGame {
    let mut person = PlayedSeat::person(name);
    person.count_move(Duration::from_millis(1500), 0);
    let mut agent = PlayedSeat::agent("random".parse().unwrap());
    agent.count_move(Duration::from_micros(20), 1);
    PlayedGame {
        experiment: played::BROWSER.into(),
        variant: "tictactoe".parse().unwrap(),
        seed: 7,
        seats: vec![person, agent],
        outcome: Outcome::Win(Player::First),
        termination: Termination::Win,
        plies: 5,
        totals: None,
        // Long rows cross the csv writer's buffer size: they must still land in one piece.
        moves: (0..moves).map(|i| format!("m{i}")).collect(),
        time_control: None,
    }
}

#[test]
fn many_writers_at_once_append_whole_rows_with_distinct_indices() {
    let dir = folder("writers");
    let record = played::default_record(&dir);
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let record = record.clone();
            std::thread::spawn(move || {
                for g in 0..25 {
                    let game = tictactoe_win(&format!("person {t}"), 1 + (t * 25 + g) * 40);
                    played::append(&record, &game).expect("appended");
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("writer ends");
    }
    assert_eq!(record::schema_of(&record).unwrap(), CSV_SCHEMA_SEATS);
    let rows = played::read_record(&record).expect("the record reads back");
    assert_eq!(rows.len(), 200);
    let mut indices: Vec<u64> = rows.iter().map(|r| r.game).collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..200).collect::<Vec<_>>());
    for row in &rows {
        assert_eq!(row.first_spec, "human");
        assert_eq!(row.second, "random");
        assert_eq!(row.termination, "win");
        let moves = row.moves.split(' ').count();
        assert_eq!((moves - 1) % 40, 0, "a whole move list: {moves} moves");
        assert!(row.moves.ends_with(&format!("m{}", moves - 1)));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn three_player_resignation() -> PlayedGame {
    PlayedGame {
        experiment: played::TERMINAL.into(),
        variant: "oanquan-3p".parse().unwrap(),
        seed: 1,
        seats: vec![
            PlayedSeat::person("lan"),
            PlayedSeat::agent("greedy".parse().unwrap()),
            PlayedSeat::agent("mcts:iterations=5000".parse().unwrap()),
        ],
        outcome: Outcome::Ranked(Ranking::from_totals(&[50, 30, 25])),
        termination: Termination::Resign,
        plies: 3,
        totals: Some([50, 30, 25].into_iter().collect()),
        moves: vec!["1P".into(), "7T".into(), "12P".into()],
        time_control: None,
    }
}

#[test]
fn games_of_two_three_and_four_players_share_the_schema_2_record() {
    let dir = folder("multi");
    let record = played::default_record(&dir);
    assert_eq!(
        played::append(&record, &three_player_resignation()).unwrap(),
        0
    );
    assert_eq!(record::schema_of(&record).unwrap(), CSV_SCHEMA_SEATS);
    assert_eq!(
        played::append(&record, &tictactoe_win("lan", 5)).unwrap(),
        1
    );
    let mut four = three_player_resignation();
    four.variant = "oanquan-4p".parse().unwrap();
    four.seats
        .push(PlayedSeat::agent("random".parse().unwrap()));
    four.outcome = Outcome::Ranked(Ranking::from_totals(&[10, 30, 25, 5]));
    four.totals = Some([10, 30, 25, 5].into_iter().collect());
    assert_eq!(played::append(&record, &four).unwrap(), 2);
    let files: Vec<_> = std::fs::read_dir(dir.join("play"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".csv"))
        .collect();
    assert_eq!(files, ["games.csv"], "one record, no file beside it");
    let rows = played::read_record(&record).unwrap();
    assert_eq!(
        rows.iter().map(|r| r.seats()).collect::<Vec<_>>(),
        [3, 2, 4]
    );
    let multi = &rows[0];
    assert_eq!(multi.result, "1-2-3");
    assert_eq!(multi.termination, "resign");
    assert_eq!(multi.third.as_deref(), Some("mcts:iterations=5000"));
    assert_eq!(multi.first_score, Some(50));
    assert_eq!(
        rows[1].third, None,
        "a two-player row leaves the seat columns empty"
    );
    assert_eq!(rows[2].fourth_spec.as_deref(), Some("random"));
    let lan = played::stats(&rows, Some("lan"));
    assert_eq!(lan.games, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_schema_1_record_keeps_its_rows_and_moves_to_schema_2_for_a_larger_table() {
    let dir = folder("upgrade");
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.csv");
    // A record an earlier version wrote: schema 1, two-player rows.
    let mut text = record::header_line_of(CSV_SCHEMA) + "\n";
    for game in 0..2 {
        text.push_str(
            std::str::from_utf8(&tictactoe_win("lan", 5).row(game).line(CSV_SCHEMA)).unwrap(),
        );
    }
    std::fs::write(&record, &text).unwrap();
    assert_eq!(
        played::append(&record, &tictactoe_win("minh", 5)).unwrap(),
        2
    );
    assert_eq!(
        record::schema_of(&record).unwrap(),
        CSV_SCHEMA,
        "two seats fit schema 1"
    );
    let before = played::read_record(&record).unwrap();
    assert_eq!(
        played::append(&record, &three_player_resignation()).unwrap(),
        3
    );
    assert_eq!(record::schema_of(&record).unwrap(), CSV_SCHEMA_SEATS);
    let after = played::read_record(&record).unwrap();
    assert_eq!(after.len(), 4);
    assert_eq!(
        &after[..3],
        &before[..],
        "the rows already there are kept as they were"
    );
    assert_eq!(after[3].seats(), 3);
    assert!(!dir.join("games.csv.upgrading").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_appender_waits_for_the_writer_lock_and_a_run_is_never_interleaved() {
    let dir = folder("lock");
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.csv");
    let held = arena::lock::lock_writer(&record, "arena run").unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let writer = {
        let record = record.clone();
        std::thread::spawn(move || {
            let index = played::append(&record, &tictactoe_win("lan", 5));
            tx.send(()).unwrap();
            index
        })
    };
    // While the lock is held nothing is written; once it goes the row is.
    assert!(
        rx.recv_timeout(Duration::from_millis(300)).is_err(),
        "appended under a held lock"
    );
    assert!(!record.exists() || std::fs::read(&record).unwrap().is_empty());
    drop(held);
    assert_eq!(writer.join().unwrap().unwrap(), 0);
    assert_eq!(played::read_record(&record).unwrap().len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_half_written_row_is_cut_and_a_foreign_file_is_left_alone() {
    let dir = folder("repair");
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("mine.csv");
    played::append(&record, &tictactoe_win("lan", 5)).unwrap();
    let mut text = std::fs::read_to_string(&record).unwrap();
    text.push_str("play-web,mnk-3x3k3,1,7,lan,ran");
    std::fs::write(&record, &text).unwrap();
    let index = played::append(&record, &tictactoe_win("lan", 5)).unwrap();
    assert_eq!(index, 1, "the broken row does not count");
    let rows = played::read_record(&record).unwrap();
    assert_eq!(rows.len(), 2);

    let foreign = dir.join("foreign.csv");
    std::fs::write(&foreign, "name,score\nlan,3\n").unwrap();
    let error = played::append(&foreign, &tictactoe_win("lan", 5))
        .unwrap_err()
        .to_string();
    assert!(error.contains("not a play record"), "{error}");
    assert!(error.contains("foreign.csv:1"), "{error}");
    assert_eq!(
        std::fs::read_to_string(&foreign).unwrap(),
        "name,score\nlan,3\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_experiment_s_games_are_no_play_record_and_are_left_untouched() {
    let dir = folder("experiment");
    let experiment = arena::Experiment::from_toml(
        "name = \"small\"\nseed = 1\ngames_per_pair = 2\nvariants = [\"mnk-3x3k3\"]\n\n\
         [[agents]]\nname = \"a\"\nspec = \"random\"\n\n[[agents]]\nname = \"b\"\nspec = \"random\"\n",
        "small.toml",
    )
    .unwrap();
    let options = arena::RunOptions {
        out_dir: dir.clone(),
        threads: Some(1),
        fresh: false,
        shard: arena::Shard::WHOLE,
        progress: arena::Progress::Quiet,
    };
    arena::run(&experiment, &options).unwrap();
    let games = dir.join("games.csv");
    let before = std::fs::read(&games).unwrap();
    // A game under a time control would have rewritten it in schema 3 first.
    let clocked = PlayedGame {
        time_control: Some("tc=10".parse().unwrap()),
        ..tictactoe_win("lan", 5)
    };
    for game in [&clocked, &tictactoe_win("lan", 5)] {
        let error = played::append(&games, game).unwrap_err().to_string();
        assert!(
            error.contains("not a play record: it is an experiment's games file"),
            "{error}"
        );
        assert_eq!(std::fs::read(&games).unwrap(), before);
    }
    assert!(played::check_record(&games).is_err());

    // Without its meta file, its rows still say whose games they are.
    let copy = dir.join("copy.csv");
    std::fs::write(&copy, &before).unwrap();
    let error = played::append(&copy, &clocked).unwrap_err().to_string();
    assert!(
        error.contains(
            "copy.csv:2: not a play record: the game on this line is of experiment `small`"
        ),
        "{error}"
    );
    assert_eq!(std::fs::read(&copy).unwrap(), before);
    assert!(!dir.join("copy.csv.upgrading").exists());
    // A play record and a new file pass.
    let mine = dir.join("mine.csv");
    played::check_record(&mine).unwrap();
    played::append(&mine, &clocked).unwrap();
    played::check_record(&mine).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
