//! Reading the arena's CSV: errors that name the file, line and column, faults and timing.

use crate::common;

use common::{Games, HEADER};
use report::{Error, Intervals, Options, Report};

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
        .analyse(&Options::default().with_intervals(Intervals::Off))
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
        .analyse(&Options::default().with_intervals(Intervals::Off))
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
        .analyse(&Options::default().with_intervals(Intervals::Off))
        .unwrap();
    let total: u64 = summary
        .pool("mnk-15x15k5")
        .unwrap()
        .standings
        .iter()
        .map(|s| s.games)
        .sum();
    assert_eq!(total, 200_000);
}

#[test]
fn the_18_column_core_schema_is_read_and_the_report_says_what_it_cannot_show() {
    // An older or hand-written file: no spec columns.
    let header = HEADER.replace(",first_spec,second_spec", "");
    let rows = [
        "t,mnk-3x3k3,0,1,a,b,1-0,win,5,,,30.0,20.0,12.5,11.0,3000,1000,a1 b1 a2 b2 a3",
        "t,mnk-3x3k3,1,2,b,a,1/2-1/2,draw,9,,,30.0,20.0,12.5,11.0,3000,1000,",
    ];
    let text = format!("{header}\n{}\n{}\n", rows[0], rows[1]);
    let report = read(&text).unwrap();
    assert_eq!(report.games(), 2);
    let dir = common::fresh_dir("core-schema");
    let summary = report.write(&dir, &Options::default()).unwrap();
    let a = summary.pool("mnk-3x3k3").unwrap().standing("a").unwrap();
    assert_eq!((a.wins, a.draws, a.losses), (1, 1, 0));
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        markdown.contains("**Not shown:** `games.csv` has no `first_spec`/`second_spec` columns"),
        "{markdown}"
    );
    // Without the timing columns too.
    let bare = "experiment,variant,game,seed,first,second,result,termination,plies\n\
                t,mnk-3x3k3,0,1,a,b,1-0,win,5\n";
    let report = read(bare).unwrap();
    let dir = common::fresh_dir("bare-schema");
    report.write(&dir, &Options::default()).unwrap();
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.contains("has no timing columns"), "{markdown}");
    // A file with half of a group of columns is an error that names the missing one.
    let half = HEADER.replace(",second_spec", "");
    let row = GOOD_ROW.replacen(",random", "", 1);
    let error = read(&format!("{half}\n{row}\n")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "games.csv: missing column `second_spec` in the header"
    );
}

/// The 13 columns schema 2 appends after the 20 of schema 1.
const SCHEMA_2: &str = "players,third,fourth,third_spec,fourth_spec,third_score,fourth_score,\
third_ms,fourth_ms,third_max_ms,fourth_max_ms,third_nodes,fourth_nodes";

/// The 5 columns schema 3 appends after those of schema 2.
const SCHEMA_3: &str = "time_control,first_clock_ms,second_clock_ms,third_clock_ms,fourth_clock_ms";

#[test]
fn a_time_control_or_clock_the_arena_would_not_write_is_refused_where_it_stands() {
    // A schema-3 row of a two-player game at `tc=60+0.6`, each seat's clock left at the end.
    let header = format!("{HEADER},{SCHEMA_2},{SCHEMA_3}");
    let good = format!("{GOOD_ROW},2,,,,,,,,,,,,,tc=60+0.6,59000.000,58800.500,,");
    let read_rows = |rows: &[&str]| read(&format!("{header}\n{}\n", rows.join("\n")));
    assert!(read_rows(&[&good]).is_ok());
    let untimed = good.replacen("tc=60+0.6,59000.000,58800.500", ",,", 1);
    assert!(
        read_rows(&[&untimed]).is_ok(),
        "no time limit: empty columns"
    );
    for (from, to, column) in [
        ("tc=60+0.6", "garbage here", "time_control"),
        ("tc=60+0.6", "inf", "time_control"),
        ("tc=60+0.6", "tc=60+0.60", "time_control"),
        ("tc=60+0.6", "tc=1:00+0.6", "time_control"),
        ("tc=60+0.6", "60+0.6", "time_control"),
        ("59000.000", "NaN", "first_clock_ms"),
        ("59000.000", "-5", "first_clock_ms"),
        ("58800.500", "inf", "second_clock_ms"),
        ("58800.500,,", "58800.500,1e300,", "third_clock_ms"),
        ("58800.500,,", "58800.500,,soon", "fourth_clock_ms"),
    ] {
        let bad = good
            .replacen(from, to, 1)
            .replacen("mnk-3x3k3,0,", "mnk-3x3k3,1,", 1);
        let error = read_rows(&[&good, &bad]).unwrap_err();
        let message = error.to_string();
        assert!(
            matches!(error, Error::BadField { line: 3, column: at, .. } if at == column),
            "{from} -> {to}: {message}"
        );
        assert!(
            message.starts_with(&format!("games.csv: line 3: column `{column}`: ")),
            "{from} -> {to}: {message}"
        );
    }
    // A game of an agent against itself is left out of the ratings, but read and checked.
    let own = good
        .replacen(",a,b,", ",a,a,", 1)
        .replacen("tc=60+0.6", "tc=x", 1);
    let error = read_rows(&[&own]).unwrap_err().to_string();
    assert!(error.contains("line 2: column `time_control`"), "{error}");
    // The columns of schema 3 come together.
    let short = header.replacen(",fourth_clock_ms", "", 1);
    let row = good.strip_suffix(',').unwrap();
    let error = read(&format!("{short}\n{row}\n")).unwrap_err().to_string();
    assert_eq!(
        error,
        "games.csv: missing column `fourth_clock_ms` in the header"
    );
}

/// A schema-2 row of a 3-player game: agents by seat, places as `1-3-2`.
fn three_player(game: u64, seats: [&str; 3], places: &str) -> String {
    let [x, y, z] = seats;
    format!(
        "t,oanquan-3p,{game},{game},{x},{y},{places},win,60,30,40,6.0,6.0,1.0,1.0,600,600,\
         1P 6P 11P,greedy,random,3,{z},,random,,35,,6.0,,1.0,,600,"
    )
}

#[test]
fn games_of_three_players_count_as_their_pairwise_results() {
    // greedy takes places 1, 1, 2; mc 2, 3, 1; random 3, 2, 3 — over three seatings.
    let rows = [
        three_player(0, ["greedy", "mc", "random"], "1-2-3"),
        three_player(1, ["mc", "random", "greedy"], "3-2-1"),
        three_player(2, ["random", "greedy", "mc"], "3-2-1"),
        // A two-player game in the same file: players = 2, the extra columns empty.
        "t,oanquan,3,3,greedy,random,1-0,win,40,40,30,2.0,2.0,1.0,1.0,100,100,1P,greedy,random,\
         2,,,,,,,,,,,,"
            .replace(" ", ""),
    ];
    let text = format!("{HEADER},{SCHEMA_2}\n{}\n", rows.join("\n"));
    let report = read(&text).unwrap();
    assert_eq!(report.games(), 4);
    let dir = common::fresh_dir("three-players");
    let summary = report
        .write(&dir, &Options::default().with_bootstrap(200))
        .unwrap();
    let pool = summary.pool("oanquan-3p").unwrap();
    assert!(pool.multiplayer);
    let greedy = pool.standing("greedy").unwrap();
    let m = greedy.multiplayer.as_ref().unwrap();
    assert_eq!((m.games, m.places.clone()), (3, vec![2, 1]));
    // Pairwise: place 1 beats both others twice (4 wins); place 2 beats one, loses to one.
    assert_eq!((greedy.wins, greedy.draws, greedy.losses), (5, 0, 1));
    assert_eq!((m.beaten, m.tied, m.behind), (5, 0, 1));
    assert!((m.average_place() - 4.0 / 3.0).abs() < 1e-12);
    assert_eq!(m.points(), 5.0);
    assert_eq!(greedy.games, 3);
    // 3 players: 2 points for first, 1 for second, 0 for third.
    let random = pool
        .standing("random")
        .unwrap()
        .multiplayer
        .clone()
        .unwrap();
    assert_eq!(
        (random.places.clone(), random.points()),
        (vec![0, 1, 2], 1.0)
    );
    assert!(greedy.elo > pool.standing("random").unwrap().elo);
    // Head to head from the pairwise results.
    let h = pool.head_to_head("greedy", "mc").unwrap();
    assert_eq!((h.wins, h.draws, h.losses), (2, 0, 1));
    // The pool of all variants adds the two-player game to the pairwise ones.
    let all = summary.pool("all").unwrap();
    let greedy_all = all.standing("greedy").unwrap();
    assert_eq!((greedy_all.wins, greedy_all.games), (6, 4));
    assert_eq!(greedy_all.league_points(), 3);
    // The place chart, and the standings with average place and points.
    assert!(dir.join("places-oanquan-3p.png").exists());
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.contains("| Avg place | Places (1st/2nd/…) | Place points |"));
    assert!(
        markdown.contains("| greedy | 3 | 3 | 1.33 | 2/1 | 5.0 |"),
        "{markdown}"
    );
    let standings = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    assert!(
        standings.contains(",3,1.333,5.0,2/1,profile\n"),
        "{standings}"
    );
}

#[test]
fn ties_and_faults_in_n_player_games() {
    let tie = three_player(0, ["greedy", "mc", "random"], "1-1-3");
    let fault = three_player(1, ["greedy", "mc", "random"], "2-1-3").replace(",win,", ",crash,");
    let text = format!("{HEADER},{SCHEMA_2}\n{tie}\n{fault}\n");
    let summary = read(&text)
        .unwrap()
        .analyse(&Options::default().with_intervals(Intervals::Off))
        .unwrap();
    let pool = summary.pool("oanquan-3p").unwrap();
    let greedy = pool.standing("greedy").unwrap();
    assert_eq!((greedy.wins, greedy.draws, greedy.losses), (2, 1, 1));
    assert_eq!(greedy.multiplayer.as_ref().unwrap().points(), 2.5);
    // The seat alone in last place faulted.
    assert_eq!(pool.standing("random").unwrap().faults, 1);
    assert_eq!(greedy.faults, 0);
}

#[test]
fn bad_n_player_rows_name_their_line_and_column() {
    for (row, column, reason) in [
        (
            three_player(0, ["a", "b", "c"], "1-2"),
            "result",
            "places of the 3 seats",
        ),
        (
            three_player(0, ["a", "b", "c"], "1-1-2"),
            "result",
            "equal places share",
        ),
        (
            three_player(0, ["a", "b", "c"], "1-2-4"),
            "result",
            "places of the 3 seats",
        ),
        (
            three_player(0, ["a", "b", "c"], "1-2-3").replace(",3,c,", ",5,c,"),
            "players",
            "expected 2, 3 or 4 players",
        ),
        (
            three_player(0, ["a", "b", "c"], "1-2-3").replace(",3,c,", ",3,,"),
            "third",
            "must not be empty",
        ),
        (
            three_player(0, ["a", "b", "c"], "1-2-2").replace(",win,", ",timeout,"),
            "result",
            "exactly one seat",
        ),
    ] {
        let text = format!("{HEADER},{SCHEMA_2}\n{row}\n");
        let message = read(&text).unwrap_err().to_string();
        assert!(
            message.contains("games.csv: line 2: column `")
                && message.contains(column)
                && message.contains(reason),
            "{row}: {message}"
        );
    }
}

#[test]
fn a_resignation_is_a_loss_for_the_seat_that_resigned_and_no_fault() {
    // Two players: the one who resigned lost, and no agent faulted.
    let mut games = Games::new();
    games
        .game_ending("mnk-3x3k3", "lan", "random", "0-1", "resign")
        .game_ending("mnk-3x3k3", "random", "lan", "1-0", "resign");
    let three = three_player(2, ["greedy", "lan", "random"], "2-3-1").replace(",win,", ",resign,");
    let two_player = games.csv();
    let (header, rows) = two_player.split_once('\n').unwrap();
    // The same games in schema 2, with a game of three players beside them.
    let rows: String = rows
        .lines()
        .map(|row| format!("{row},2,,,,,,,,,,,,\n"))
        .collect();
    let text = format!("{header},{SCHEMA_2}\n{rows}{three}\n");
    let summary = read(&text)
        .unwrap()
        .analyse(&Options::default().with_intervals(Intervals::Off))
        .unwrap();
    let pool = summary.pool("mnk-3x3k3").unwrap();
    let lan = pool.standing("lan").unwrap();
    assert_eq!((lan.wins, lan.draws, lan.losses, lan.faults), (0, 0, 2, 0));
    let multi = summary.pool("oanquan-3p").unwrap();
    assert_eq!(multi.standing("lan").unwrap().faults, 0);
    let m = multi.standing("lan").unwrap().multiplayer.clone().unwrap();
    assert_eq!(m.places, vec![0, 0, 1]);

    // A resignation is decisive: not a draw, and at 3-4 seats one seat alone in last place.
    let drawn = GOOD_ROW
        .replace(",1-0,", ",1/2-1/2,")
        .replace(",win,", ",resign,");
    let message = read(&format!("{HEADER}\n{drawn}\n"))
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("`result`") && message.contains("resigned"),
        "{message}"
    );
    let shared_last = three_player(0, ["a", "b", "c"], "1-2-2").replace(",win,", ",resign,");
    let message = read(&format!("{HEADER},{SCHEMA_2}\n{shared_last}\n"))
        .unwrap_err()
        .to_string();
    assert!(message.contains("exactly one seat"), "{message}");
}

#[test]
fn a_row_longer_than_the_bound_is_refused_naming_its_line() {
    // The header itself: an endless line (what `/dev/zero` gives) fails at its first megabyte
    // instead of growing until memory runs out.
    let endless = std::io::Read::take(std::io::repeat(b'x'), 1 << 40);
    let error = Report::from_csv_reader("zeros", endless).unwrap_err();
    assert!(
        matches!(error, Error::RowTooLong { line: 1, .. }),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .starts_with("zeros: line 1: a row longer than"),
        "{error}"
    );

    // A row after good ones; and a quoted field whose newlines keep one row going.
    let long = "y".repeat(report::MAX_ROW_BYTES);
    let text = format!("{HEADER}\n{GOOD_ROW}\n{GOOD_ROW}{long}\n");
    let error = read(&text).unwrap_err();
    assert!(
        matches!(error, Error::RowTooLong { line: 3, .. }),
        "{error}"
    );
    let lines = "\n".repeat(report::MAX_ROW_BYTES);
    let text = format!("{HEADER}\n{GOOD_ROW}\nt,\"{lines}\"\n");
    let error = read(&text).unwrap_err();
    assert!(
        matches!(error, Error::RowTooLong { line: 3, .. }),
        "{error}"
    );

    // Just under the bound reads (as a bad row, not a long one).
    let text = format!("{HEADER}\n{}\n", "z".repeat(report::MAX_ROW_BYTES - 1));
    let error = read(&text).unwrap_err();
    assert!(matches!(error, Error::Malformed { line: 2, .. }), "{error}");
}

#[cfg(unix)]
#[test]
fn a_device_is_read_as_a_stream_and_bounded() {
    let error = Report::from_csv_files(&["/dev/zero"]).unwrap_err();
    assert!(
        matches!(error, Error::RowTooLong { line: 1, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("/dev/zero: line 1"), "{error}");
    let error = Report::from_csv_files(&["/dev/null"]).unwrap_err();
    assert!(matches!(error, Error::NotGamesCsv { .. }), "{error}");
}

#[test]
fn a_file_of_another_kind_is_named_as_not_a_games_csv() {
    let error = read("name = \"demo\"\nseed = 1\n").unwrap_err();
    assert!(matches!(error, Error::NotGamesCsv { .. }), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("`games.csv` is not a games CSV: its first line is not a header"),
        "{error}"
    );
}

#[test]
fn anchors_and_replicates_out_of_range_are_refused() {
    let report = read(&format!("{HEADER}\n{GOOD_ROW}\n")).unwrap();
    // 1e300 + 100 == 1e300: every agent would get the anchor's rating; 9e307 overflows the
    // chart's axis.
    for elo in [1e300, 9e307, -1e6, f64::NAN, f64::INFINITY] {
        let error = report
            .analyse(&Options::default().with_anchor("a", elo))
            .unwrap_err();
        assert!(matches!(error, Error::BadAnchor { .. }), "{elo}: {error}");
        assert!(
            error.to_string().contains("from -100000 to 100000"),
            "{error}"
        );
    }
    let summary = report
        .analyse(&Options::default().with_anchor("a", report::MAX_ANCHOR_ELO))
        .unwrap();
    let pool = summary.pool("mnk-3x3k3").unwrap();
    let (a, b) = (pool.standing("a").unwrap(), pool.standing("b").unwrap());
    assert!(a.elo > b.elo, "{} vs {}", a.elo, b.elo);
    for replicates in [0, 1, 39, 100_001] {
        let error = report
            .analyse(&Options::default().with_bootstrap(replicates))
            .unwrap_err();
        assert!(matches!(error, Error::BadBootstrap { .. }), "{error}");
    }
}

#[test]
fn one_game_per_seating_still_gets_intervals_of_some_width() {
    // Four agents, every group of three in each of its three seatings, one game each: the
    // bootstrap within a seating used to redraw that one game every time (zero width).
    let agents = ["a", "b", "c", "d"];
    let orders = ["1-2-3", "2-3-1", "3-1-2", "1-3-2", "2-1-3", "3-2-1"];
    let mut rows = Vec::new();
    for skip in 0..4 {
        let group: Vec<&str> = agents
            .iter()
            .copied()
            .filter(|a| *a != agents[skip])
            .collect();
        for rotation in 0..3 {
            let seats = [0, 1, 2].map(|seat| group[(seat + rotation) % 3]);
            let game = rows.len() as u64;
            rows.push(three_player(game, seats, orders[(game % 6) as usize]));
        }
    }
    let text = format!("{HEADER},{SCHEMA_2}\n{}\n", rows.join("\n"));
    let report = read(&text).unwrap();
    for options in [
        Options::default(),
        Options::default().with_intervals(Intervals::Bootstrap),
    ] {
        let summary = report.analyse(&options).unwrap();
        let pool = summary.pool("oanquan-3p").unwrap();
        for s in &pool.standings {
            let interval = s.interval.expect("an interval");
            if let (Some(low), Some(high)) = (interval.low, interval.high) {
                assert!(
                    high - low > 50.0,
                    "{:?} {}: {interval}",
                    options.intervals,
                    s.agent
                );
            }
        }
    }
    // The default is the profile interval, for N-player pools too.
    let summary = report.analyse(&Options::default()).unwrap();
    let pool = summary.pool("oanquan-3p").unwrap();
    assert_eq!(pool.method, Some(report::elo::Method::Profile));
}

#[test]
fn the_bootstrap_with_one_game_per_pairing_has_width_or_says_why_not() {
    // A round robin of four with one game per pair; a bootstrap within each pairing redrew
    // that one game every time and printed `[+91.7, +91.7]`.
    let mut games = Games::new();
    for (first, second, result) in [
        ("a", "b", "1-0"),
        ("a", "c", "1/2-1/2"),
        ("d", "a", "1-0"),
        ("b", "c", "1-0"),
        ("c", "d", "1-0"),
        ("d", "b", "1/2-1/2"),
    ] {
        games.game("mnk-3x3k3", first, second, result);
    }
    let summary = read(&games.csv())
        .unwrap()
        .analyse(&Options::default().with_intervals(Intervals::Bootstrap))
        .unwrap();
    for s in &summary.pool("mnk-3x3k3").unwrap().standings {
        match s.interval {
            Some(interval) => {
                if let (Some(low), Some(high)) = (interval.low, interval.high) {
                    assert!(
                        high - low >= report::elo::MIN_WIDTH,
                        "{}: {interval}",
                        s.agent
                    );
                }
            }
            None => assert!(s.withheld, "{}", s.agent),
        }
    }
    // One drawn game between two agents: every redraw is that draw, so the bootstrap has no
    // spread; the interval is left out and marked so, never printed as `[0.0, 0.0]`.
    let mut games = Games::new();
    games.game("mnk-3x3k3", "a", "b", "1/2-1/2");
    let summary = read(&games.csv())
        .unwrap()
        .analyse(&Options::default().with_intervals(Intervals::Bootstrap))
        .unwrap();
    let pool = summary.pool("mnk-3x3k3").unwrap();
    assert!(
        pool.standings
            .iter()
            .all(|s| s.interval.is_none() && s.withheld)
    );
    // The profile interval has a width there.
    let summary = read(&games.csv())
        .unwrap()
        .analyse(&Options::default())
        .unwrap();
    let a = summary.pool("mnk-3x3k3").unwrap().standing("a").unwrap();
    let interval = a.interval.unwrap();
    assert!(
        interval.high.unwrap() - interval.low.unwrap() > 100.0,
        "{interval}"
    );
}

#[test]
fn bootstrap_intervals_are_marked_unreliable_in_every_file() {
    // The bootstrap held the true rating 84-97% of the time in simulation: wherever its
    // intervals are shown they say so.
    let games = common::sample_tournament(4);
    let report = read(&games.csv()).unwrap();
    let dir = common::fresh_dir("bootstrap-marked");
    let summary = report
        .write(
            &dir,
            &Options::default()
                .with_intervals(Intervals::Bootstrap)
                .with_bootstrap(40),
        )
        .unwrap();
    assert!(summary.pools.iter().all(|p| !p.intervals_reliable()));
    let ratings = std::fs::read_to_string(dir.join("ratings.csv")).unwrap();
    assert!(
        ratings
            .lines()
            .next()
            .unwrap()
            .ends_with(",estimate,interval")
    );
    assert!(ratings.contains(",bootstrap-unreliable\n"), "{ratings}");
    assert!(!ratings.contains(",profile\n"), "{ratings}");
    let standings = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    assert!(standings.contains(",bootstrap-unreliable\n"), "{standings}");
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        markdown.contains("] ‡ |") && markdown.contains("‡ Unreliable"),
        "{markdown}"
    );
    let pool = &summary.pools[0].pool;
    let chart = std::fs::read_to_string(dir.join(format!("elo-{pool}.svg"))).unwrap();
    assert!(chart.contains("unreliable"), "elo-{pool}.svg");

    // The profile interval (the default) carries no mark.
    let summary = report.write(&dir, &Options::default()).unwrap();
    assert!(summary.pools.iter().all(|p| p.intervals_reliable()));
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(!markdown.contains('‡'));
    let ratings = std::fs::read_to_string(dir.join("ratings.csv")).unwrap();
    assert!(ratings.contains(",profile\n") && !ratings.contains("unreliable"));
}

/// Rows of `variant`, game indices from `first`: agent `x` against each agent of `opponents`.
fn star(variant: &str, first: usize, x: &str, opponents: impl Iterator<Item = String>) -> String {
    opponents
        .enumerate()
        .map(|(k, y)| {
            GOOD_ROW.replacen(
                "mnk-3x3k3,0,1,a,b,",
                &format!("{variant},{},1,{x},{y},", first + k),
                1,
            ) + "\n"
        })
        .collect()
}

#[test]
fn a_pool_of_more_agents_than_the_bound_is_refused_as_it_is_read() {
    let max = report::MAX_POOL_AGENTS;
    // One file: `x` against max agents: the row that brings agent max + 1 is named.
    let rows = star("mnk-3x3k3", 0, "x", (0..max).map(|k| format!("y{k}")));
    let Err(error) = read(&format!("{HEADER}\n{rows}")) else {
        panic!("a pool of {} agents was read", max + 1);
    };
    let expected = format!(
        "games.csv: line {}: pool `mnk-3x3k3` has more than {max} agents",
        max + 1
    );
    assert!(error.to_string().starts_with(&expected), "{error}");
    assert!(
        read(&format!(
            "{HEADER}\n{}",
            rows.split_inclusive('\n').skip(1).collect::<String>()
        ))
        .is_ok()
    );
    // Two files of a variant, each within the bound, the pool not: refused before rating.
    let half = max / 2 + 1;
    let options = Options::default().with_intervals(Intervals::Off);
    let mut report = Report::default();
    let first = star("mnk-3x3k3", 0, "x", (0..half).map(|k| format!("y{k}")));
    let second = star(
        "mnk-3x3k3",
        half,
        "x",
        (half..2 * half).map(|k| format!("y{k}")),
    );
    report
        .add_csv_reader("a.csv", format!("{HEADER}\n{first}").as_bytes())
        .unwrap();
    report
        .add_csv_reader("b.csv", format!("{HEADER}\n{second}").as_bytes())
        .unwrap();
    let Err(error) = report.analyse(&options) else {
        panic!("a pool of {} agents was rated", 2 * half + 1);
    };
    assert!(
        error.to_string().starts_with(&format!(
            "a.csv, b.csv: pool `mnk-3x3k3` has more than {max} agents"
        )),
        "{error}"
    );
    // Two variants within the bound, the pool of both not.
    let mut report = Report::default();
    let other = star(
        "mnk-4x4k3",
        0,
        "x",
        (half..2 * half).map(|k| format!("y{k}")),
    );
    report
        .add_csv_reader("a.csv", format!("{HEADER}\n{first}").as_bytes())
        .unwrap();
    report
        .add_csv_reader("c.csv", format!("{HEADER}\n{other}").as_bytes())
        .unwrap();
    let Err(error) = report.analyse(&options) else {
        panic!("a pool of {} agents was rated", 2 * half + 1);
    };
    assert!(
        error.to_string().starts_with(&format!(
            "a.csv, c.csv: pool `all` has more than {max} agents"
        )),
        "{error}"
    );
}
