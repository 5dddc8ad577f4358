//! The files a report writes: CSVs, report.md and every chart.

use crate::common;

use common::{Games, fresh_dir, png_size, sample_tournament};
use report::{CHART_SIZE, Intervals, Options, Report};

#[test]
fn sample_report_writes_every_chart() {
    let dir = fresh_dir("sample-report");
    let csv = dir.join("games.csv");
    std::fs::write(&csv, sample_tournament(20).csv()).unwrap();
    let report = Report::from_csv_files(&[&csv]).unwrap();
    let summary = report
        .write(&dir, &Options::default().with_bootstrap(100))
        .unwrap();
    for variant in [
        "mnk-3x3k3",
        "mnk-7x7k4",
        "mnk-15x15k5-caro",
        "oanquan",
        "all",
    ] {
        for stem in ["elo", "head-to-head"] {
            for extension in ["svg", "png"] {
                let path = dir.join(format!("{stem}-{variant}.{extension}"));
                assert!(
                    summary.files.contains(&path),
                    "{} not listed",
                    path.display()
                );
            }
        }
    }
    for file in &summary.files {
        let bytes = std::fs::read(file).unwrap();
        assert!(!bytes.is_empty(), "{} is empty", file.display());
        if file.extension().is_some_and(|e| e == "png") {
            assert_eq!(png_size(&bytes), CHART_SIZE, "{}", file.display());
        }
    }
}

#[test]
fn crowded_and_tiny_pools_still_chart() {
    let dir = fresh_dir("crowded-report");
    let mut games = Games::new();
    let names: Vec<String> = (0..18)
        .map(|k| format!("agent-with-a-long-name-{k:02}"))
        .collect();
    for (i, a) in names.iter().enumerate() {
        for (j, b) in names.iter().enumerate().skip(i + 1) {
            let lead = (j - i) % 3;
            games.pairing("mnk-9x9k5", a, b, 2 + lead, 1, 1);
        }
    }
    // The smallest pool there is: one game (a game of an agent against itself is left out, so
    // a pool of one agent no longer arises).
    games.pairing("oanquan", "lonely", "alone", 1, 0, 0);
    let summary = Report::from_csv_reader("crowded.csv", games.csv().as_bytes())
        .unwrap()
        .write(&dir, &Options::default().with_intervals(Intervals::Off))
        .unwrap();
    for file in &summary.files {
        let bytes = std::fs::read(file).unwrap();
        assert!(!bytes.is_empty(), "{} is empty", file.display());
        if file.extension().is_some_and(|e| e == "png") {
            assert_eq!(png_size(&bytes), CHART_SIZE, "{}", file.display());
        }
    }
    assert!(dir.join("head-to-head-mnk-9x9k5.png").exists());
    assert!(dir.join("elo-oanquan.png").exists());
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.contains("No intervals were computed"));
    assert!(markdown.contains("No chart: no agent family"));
    assert!(!dir.join("elo-vs-budget-mnk-9x9k5.png").exists());
}

#[test]
fn o_an_quan_has_its_own_panel_of_the_time_chart() {
    // The board-size axis holds m,n,k boards only (9, 49 and 225 cells here); O An Quan, a
    // ring of squares, is a column of its own panel.
    let dir = fresh_dir("time-panels");
    let summary = Report::from_csv_reader("g.csv", sample_tournament(2).csv().as_bytes())
        .unwrap()
        .write(&dir, &Options::default().with_intervals(Intervals::Off))
        .unwrap();
    assert!(summary.files.contains(&dir.join("time-per-move.svg")));
    let svg = std::fs::read_to_string(dir.join("time-per-move.svg")).unwrap();
    let texts: Vec<&str> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| t.split('>').nth(1))
        .map(|t| t.split('<').next().unwrap_or("").trim())
        .collect();
    for expected in [
        "O An Quan",
        "oanquan",
        "9",
        "49",
        "225",
        "m,n,k: against board size",
    ] {
        assert!(texts.contains(&expected), "{expected} not in {texts:?}");
    }
    // Before, O An Quan sat at 12 cells on the board-size axis.
    assert!(!texts.contains(&"12"), "{texts:?}");
}

#[test]
fn every_variant_is_on_the_time_chart_those_without_a_board_size_in_a_column() {
    // Connect Four and Oware ids give no board size: each is a column of the panel at the
    // right, beside the m,n,k board-size axis. Before, both were left out of the chart.
    let dir = fresh_dir("time-every-variant");
    let mut games = Games::new();
    for variant in ["mnk-5x5k4", "connect4", "connect4-7x8", "oware"] {
        games.pairing(variant, "a", "b", 2, 1, 1);
    }
    Report::from_csv_reader("g.csv", games.csv().as_bytes())
        .unwrap()
        .write(&dir, &Options::default().with_intervals(Intervals::Off))
        .unwrap();
    let svg = std::fs::read_to_string(dir.join("time-per-move.svg")).unwrap();
    let texts: Vec<&str> = svg
        .split("<text")
        .skip(1)
        .filter_map(|t| t.split('>').nth(1))
        .map(|t| t.split('<').next().unwrap_or("").trim())
        .collect();
    for expected in [
        "per variant",
        "connect4",
        "connect4-7x8",
        "oware",
        "25",
        "m,n,k: against board size",
    ] {
        assert!(texts.contains(&expected), "{expected} not in {texts:?}");
    }
    assert!(!texts.contains(&"O An Quan"), "{texts:?}");
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        !markdown.contains("Left out of the time chart"),
        "{markdown}"
    );
    assert!(
        markdown.contains("every other variant (a ring of pits, or a board whose size its id does not say) has a column of its own"),
        "{markdown}"
    );
}

#[test]
fn game_pairs_are_counted_beside_the_cutechess_line() {
    // Games 0-3 of one pairing: pairs (0, 1) and (2, 3). From a's side: pair 1 won twice
    // (WW), pair 2 won with the first move and drawn with the second (WD).
    let mut games = Games::new();
    games
        .game("mnk-5x5k4", "a", "b", "1-0")
        .game("mnk-5x5k4", "b", "a", "0-1")
        .game("mnk-5x5k4", "a", "b", "1-0")
        .game("mnk-5x5k4", "b", "a", "1/2-1/2")
        .game("mnk-5x5k4", "a", "b", "0-1");
    let report = Report::from_csv_reader("g.csv", games.csv().as_bytes()).unwrap();
    assert_eq!(
        report.pentanomial("mnk-5x5k4", "a", "b"),
        Some(([0, 0, 0, 1, 1], 1))
    );
    assert_eq!(
        report.pentanomial("mnk-5x5k4", "b", "a"),
        Some(([1, 1, 0, 0, 0], 1))
    );
    let dir = fresh_dir("pentanomial");
    report
        .write(&dir, &Options::default().with_intervals(Intervals::Off))
        .unwrap();
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let row = markdown
        .lines()
        .find(|l| l.starts_with("| a | b | 5 |"))
        .unwrap_or_else(|| panic!("{markdown}"));
    assert!(row.contains("| 0-0-0-1-1 |"), "{row}");
    // nElo of two pairs scoring 1 and 0.75: mean 0.875, variance 1/64 per pair.
    let nelo = (0.875 - 0.5) / (2.0f64 / 64.0).sqrt() * 800.0 / 10f64.ln();
    assert!(row.contains(&format!("+{nelo:.1} ±")), "{row} vs {nelo}");
    assert!(markdown.contains("1 two-player game had no partner game"));
}

#[test]
fn the_timing_table_has_a_line_per_time_control_and_agent() {
    // Schema 3: schema 2's columns, then the time control and the clocks left.
    let header = "experiment,variant,game,seed,first,second,result,termination,plies,\
                  first_score,second_score,first_ms,second_ms,first_max_ms,second_max_ms,\
                  first_nodes,second_nodes,moves,first_spec,second_spec,players,third,fourth,\
                  third_spec,fourth_spec,third_score,fourth_score,third_ms,fourth_ms,\
                  third_max_ms,fourth_max_ms,third_nodes,fourth_nodes,time_control,\
                  first_clock_ms,second_clock_ms,third_clock_ms,fourth_clock_ms";
    let row = |game: u32, first: &str, second: &str, control: &str, ms: f64| {
        format!(
            "tc,gomoku,{game},{game},{first},{second},1-0,win,9,,,{ms},{ms},{ms},{ms},10,10,\
             h8 a1 h9 a2 h10 a3 h11 a4 h12,{first},{second},2,,,,,,,,,,,,,{control},100.000,\
             200.000,,"
        )
    };
    let csv = [
        header.to_owned(),
        row(0, "a", "b", "tc=60+0.6", 10.0),
        row(1, "b", "a", "tc=60+0.6", 10.0),
        row(2, "a", "b", "st=1", 500.0),
        row(3, "b", "a", "st=1", 500.0),
    ]
    .join("\n")
        + "\n";
    let report = Report::from_csv_reader("tc.csv", csv.as_bytes()).unwrap();
    let controls = report.timing_by_time_control("gomoku");
    let names: Vec<&str> = controls.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(names, ["st=1", "tc=60+0.6"]);
    let (_, agents) = &controls[0];
    assert_eq!(agents.len(), 2);
    // `a` made 5 moves as first and 4 as second at st=1, 500 ms each game's side.
    assert_eq!(agents[0].1.moves, 9);
    assert_eq!(agents[0].1.total_ms, 1000.0);
    let dir = fresh_dir("time-controls");
    report
        .write(&dir, &Options::default().with_bootstrap(40))
        .unwrap();
    let text = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(text.contains("| Time control | Agent |"), "{text}");
    assert!(text.contains("| st=1 | a | 9 | 111.111 |"), "{text}");
    assert!(text.contains("| tc=60+0.6 | b | 9 |"), "{text}");
}

#[test]
fn a_gauntlet_gets_a_table_of_entrants_against_the_field_and_a_round_robin_keeps_its_own() {
    let dir = fresh_dir("gauntlet-report");
    let mut games = Games::new();
    // Four entrants, each against the two agents of the field, none against each other; a
    // round-robin of three on another variant.
    for (k, entrant) in ["e0", "e1", "e2", "e3"].iter().enumerate() {
        games.pairing("mnk-3x3k3", entrant, "ref-a", k, 1, 3 - k);
        games.pairing("mnk-3x3k3", "ref-b", entrant, 2, 0, 2);
    }
    games.pairing("oanquan", "x", "y", 2, 0, 0);
    games.pairing("oanquan", "y", "z", 2, 0, 0);
    games.pairing("oanquan", "x", "z", 1, 0, 1);
    let csv = dir.join("games.csv");
    std::fs::write(&csv, games.csv()).unwrap();
    Report::from_csv_files(&[&csv])
        .unwrap()
        .write(&dir, &Options::default().with_bootstrap(50))
        .unwrap();
    let markdown = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let section = |pool: &str| {
        let start = markdown.find(&format!("## {pool}")).unwrap();
        let rest = &markdown[start + 3..];
        rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
    };
    let gauntlet = section("mnk-3x3k3");
    assert!(gauntlet.contains("### Against the field"), "{gauntlet}");
    assert!(!gauntlet.contains("### Head to head"), "{gauntlet}");
    assert!(gauntlet.contains("4 entrants"), "{gauntlet}");
    // The field's columns, then the whole field and the games.
    let header = gauntlet
        .lines()
        .find(|l| l.starts_with("| |"))
        .unwrap()
        .to_string();
    assert!(
        header.contains("ref-a") && header.contains("ref-b"),
        "{header}"
    );
    assert!(header.ends_with(" Field | Games |"), "{header}");
    assert!(!header.contains("e0"), "{header}");
    // e2 scored 2.5 of 4 against ref-a and 2 of 4 against ref-b: 4.5 of 8.
    let e2 = gauntlet
        .lines()
        .find(|l| l.starts_with("| **e2** |"))
        .unwrap();
    let cells: Vec<&str> = e2.split('|').map(str::trim).collect();
    let column = |name: &str| {
        header
            .split('|')
            .map(str::trim)
            .position(|c| c == name)
            .unwrap()
    };
    assert_eq!(cells[column("ref-a")], "62.5", "{e2}");
    assert_eq!(cells[column("ref-b")], "50.0", "{e2}");
    assert_eq!(cells[column("Field")], "56.2", "{e2}");
    assert_eq!(cells[column("Games")], "8", "{e2}");
    assert!(!gauntlet.contains("| **ref-a** |"), "{gauntlet}");
    // Three agents who all met: the square table.
    let round_robin = section("oanquan");
    assert!(round_robin.contains("### Head to head"), "{round_robin}");
    assert!(
        !round_robin.contains("### Against the field"),
        "{round_robin}"
    );
    // The chart likewise: entrants against the field, and the square map for the others.
    let chart =
        |pool: &str| std::fs::read_to_string(dir.join(format!("head-to-head-{pool}.svg"))).unwrap();
    let gauntlet_chart = chart("mnk-3x3k3");
    assert!(gauntlet_chart.contains("Against the field"));
    assert!(gauntlet_chart.contains("entrant (row)") && gauntlet_chart.contains("field (column)"));
    assert!(chart("oanquan").contains("Head to head"));
}
