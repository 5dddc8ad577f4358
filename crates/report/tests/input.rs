//! Reading the arena's CSV: errors that name the file, line and column, faults and timing.

mod common;

use common::{Games, HEADER};
use report::{Error, Options, Report};

fn read(text: &str) -> Result<Report, Error> {
    Report::from_csv_reader("games.csv", text.as_bytes())
}

const GOOD_ROW: &str =
    "t,mnk-3x3k3,0,1,a,b,1-0,win,5,,,30.0,20.0,12.5,11.0,3000,1000,a1 b1 a2 b2 a3,random,random";

#[test]
fn a_bad_field_names_the_file_the_line_and_the_column() {
    let bad = GOOD_ROW.replace(",1-0,", ",1:0,");
    let error = read(&format!("{HEADER}\n{GOOD_ROW}\n{bad}\n")).unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(
            error,
            Error::BadField {
                line: 3,
                column: "result",
                ..
            }
        ),
        "{message}"
    );
    assert!(
        message.contains("games.csv") && message.contains("line 3"),
        "{message}"
    );
    assert!(
        message.contains("`result`") && message.contains("\"1:0\""),
        "{message}"
    );

    for (from, to, column) in [
        (",5,,,", ",five,,,", "plies"),
        (",30.0,", ",-3,", "first_ms"),
        (",30.0,", ",NaN,", "first_ms"),
        (",3000,", ",3e3,", "first_nodes"),
        (",win,", ",abandoned,", "termination"),
        (",win,", ",draw,", "result"),
        (",0,1,a,", ",0,-1,a,", "seed"),
        (",a,b,", ",,b,", "first"),
    ] {
        let bad = GOOD_ROW.replacen(from, to, 1);
        let error = read(&format!("{HEADER}\n{bad}\n")).unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("games.csv: line 2: column `") && message.contains(column),
            "{from} -> {to}: {message}"
        );
    }
}

#[test]
fn a_row_with_the_wrong_number_of_fields_names_its_line() {
    let error = read(&format!(
        "{HEADER}\n{GOOD_ROW}\n{GOOD_ROW}\n{GOOD_ROW},extra\n"
    ))
    .unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, Error::Malformed { line: 4, .. }),
        "{message}"
    );
    assert!(message.contains("games.csv: line 4"), "{message}");
}

#[test]
fn a_missing_column_is_named() {
    let header = HEADER.replace(",second_max_ms", "");
    let row = GOOD_ROW.replacen(",11.0", "", 1);
    let error = read(&format!("{header}\n{row}\n")).unwrap_err();
    assert!(matches!(
        error,
        Error::MissingColumn {
            column: "second_max_ms",
            ..
        }
    ));
    assert_eq!(
        error.to_string(),
        "games.csv: missing column `second_max_ms` in the header"
    );
}

#[test]
fn columns_are_read_by_name_in_any_order_and_extra_ones_are_ignored() {
    let mut names: Vec<&str> = HEADER.split(',').collect();
    let mut fields: Vec<&str> = GOOD_ROW.split(',').collect();
    names.reverse();
    fields.reverse();
    names.push("comment");
    fields.push("ignored");
    let report = read(&format!("{}\n{}\n", names.join(","), fields.join(","))).unwrap();
    assert_eq!(report.games(), 1);
    let summary = report
        .analyse(&Options::default().with_bootstrap(0))
        .unwrap();
    let a = summary.pool("mnk-3x3k3").unwrap().standing("a").unwrap();
    assert_eq!((a.wins, a.draws, a.losses), (1, 0, 0));
}

#[test]
fn a_file_that_cannot_be_opened_is_named() {
    let error = Report::from_csv_files(&["/nonexistent/games.csv"]).unwrap_err();
    assert!(matches!(error, Error::Read { .. }));
    assert!(error.to_string().contains("/nonexistent/games.csv"));
}

#[test]
fn no_games_is_an_error_not_an_empty_report() {
    let report = read(&format!("{HEADER}\n")).unwrap();
    let error = report.analyse(&Options::default()).unwrap_err();
    assert!(matches!(error, Error::NoGames { .. }), "{error}");
}

#[test]
fn the_agent_that_faulted_is_the_one_that_lost() {
    let mut games = Games::new();
    games
        .game_ending("mnk-3x3k3", "a", "b", "0-1", "illegal-move")
        .game_ending("mnk-3x3k3", "a", "b", "1-0", "timeout")
        .game_ending("mnk-3x3k3", "b", "a", "1-0", "crash")
        .game_ending("mnk-3x3k3", "b", "a", "1-0", "ply-cap")
        .game_ending("mnk-3x3k3", "a", "b", "1/2-1/2", "ply-cap");
    let summary = read(&games.csv())
        .unwrap()
        .analyse(&Options::default().with_bootstrap(0))
        .unwrap();
    let pool = summary.pool("mnk-3x3k3").unwrap();
    assert_eq!(pool.standing("a").unwrap().faults, 2);
    assert_eq!(pool.standing("b").unwrap().faults, 1);
    let a = pool.standing("a").unwrap();
    assert_eq!((a.wins, a.draws, a.losses, a.league_points()), (1, 1, 3, 4));
}

#[test]
fn timing_counts_each_side_s_moves() {
    // 5 plies: the first player made 3 moves in 30 ms, the second 2 in 20 ms.
    let second = GOOD_ROW.replacen(",0,1,a,b,", ",1,2,b,a,", 1);
    let report = read(&format!("{HEADER}\n{GOOD_ROW}\n{second}\n")).unwrap();
    let a = report.timing("mnk-3x3k3", "a").unwrap();
    assert_eq!(a.moves, 5);
    assert!((a.total_ms - 50.0).abs() < 1e-9);
    assert!((a.mean_ms_per_move().unwrap() - 10.0).abs() < 1e-9);
    assert!((a.max_ms_per_move - 12.5).abs() < 1e-9);
    assert_eq!(a.nodes, 4000);
    assert!((a.nodes_per_second().unwrap() - 80_000.0).abs() < 1e-6);
    assert_eq!(report.timing("mnk-3x3k3", "nobody"), None);
}

#[test]
fn a_hundred_thousand_games_stream_through() {
    let mut text = String::with_capacity(12_000_000);
    text.push_str(HEADER);
    text.push('\n');
    let agents = ["alpha", "beta", "gamma", "delta"];
    for game in 0..100_000usize {
        let first = agents[game % 4];
        let second = agents[(game / 4 + 1 + game % 4) % 4];
        let second = if second == first {
            agents[(game + 1) % 4]
        } else {
            second
        };
        let result = ["1-0", "0-1", "1/2-1/2"][game % 3];
        let termination = if result == "1/2-1/2" { "draw" } else { "win" };
        text.push_str(&format!(
            "big,mnk-15x15k5,{game},{game},{first},{second},{result},{termination},40,,,\
             20.5,19.5,2.0,2.0,1000,900,,random,random\n"
        ));
    }
    let report = read(&text).unwrap();
    assert_eq!(report.games(), 100_000);
    let summary = report
        .analyse(&Options::default().with_bootstrap(10))
        .unwrap();
    let total: u64 = summary
        .pool("all")
        .unwrap()
        .standings
        .iter()
        .map(|s| s.games)
        .sum();
    assert_eq!(total, 200_000);
}
