//! `arena report` on the console: groups, tiers and open ends said where a person reads them.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-cli-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The 18-column core schema (no spec columns): groups a-b and c-d never met; in the second
/// variant x beat y in every game.
const GAMES: &str = "\
experiment,variant,game,seed,first,second,result,termination,plies,first_score,second_score,first_ms,second_ms,first_max_ms,second_max_ms,first_nodes,second_nodes,moves
t,mnk-3x3k3,0,1,a,b,1-0,win,5,,,1.0,1.0,0.5,0.5,10,10,
t,mnk-3x3k3,1,2,b,a,1-0,win,5,,,1.0,1.0,0.5,0.5,10,10,
t,mnk-3x3k3,2,3,a,b,1/2-1/2,draw,9,,,1.0,1.0,0.5,0.5,10,10,
t,mnk-3x3k3,3,4,c,d,1-0,win,5,,,1.0,1.0,0.5,0.5,10,10,
t,mnk-3x3k3,4,5,d,c,1-0,win,5,,,1.0,1.0,0.5,0.5,10,10,
t,mnk-4x4k3,0,6,x,y,1-0,win,7,,,1.0,1.0,0.5,0.5,10,10,
t,mnk-4x4k3,1,7,y,x,0-1,win,7,,,1.0,1.0,0.5,0.5,10,10,
";

#[test]
fn the_console_says_which_groups_and_tiers_there_are() {
    let dir = scratch("report-console");
    let csv = dir.join("games.csv");
    fs::write(&csv, GAMES).unwrap();
    let output = arena(&["report", csv.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("note: 2 groups of agents that never met"),
        "{text}"
    );
    assert!(
        text.contains("  group 1\n") && text.contains("  group 2\n"),
        "{text}"
    );
    assert!(
        text.contains("note: † no finite maximum-likelihood rating"),
        "{text}"
    );
    assert!(
        text.contains("x †") && text.contains("≥ -") && text.contains("≤ +"),
        "{text}"
    );
    let ratings = fs::read_to_string(dir.join("ratings.csv")).unwrap();
    assert!(ratings.starts_with(
        "variant,agent,elo,elo_low,elo_high,games,score,wins,draws,losses,group,tier,estimate,interval\n"
    ));
    let markdown = fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.contains("no `first_spec`/`second_spec` columns"));
}

#[test]
fn an_agent_that_lost_every_game_points_to_the_anchor() {
    // y lost both games of mnk-4x4k3: the console says so and how to measure from an agent.
    let dir = scratch("report-lost-all");
    let csv = dir.join("games.csv");
    fs::write(&csv, GAMES).unwrap();
    let output = arena(&["report", csv.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(
            "note: `y` lost every game: its rating has no lower end, and the ratings here are \
             relative to the pool's mean, which moves with it; `arena report CSV --anchor \
             AGENT=ELO` measures every agent from one of them instead"
        ),
        "{text}"
    );
    // With an anchor, the pointer has done its work and is not repeated.
    let anchored = arena(&["report", csv.to_str().unwrap(), "--anchor", "x=0"]);
    let text = String::from_utf8_lossy(&anchored.stdout);
    assert!(anchored.status.success(), "{text}");
    assert!(!text.contains("lost every game"), "{text}");
}

#[test]
fn the_report_names_its_csv_relative_to_its_folder() {
    // Written from anywhere, the report's text is the same: `games.csv`, not the path.
    let dir = scratch("report-source");
    let csv = dir.join("games.csv");
    fs::write(&csv, GAMES).unwrap();
    let output = arena(&[
        "report",
        csv.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(output.status.success());
    let markdown = fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(markdown.contains("games from `games.csv`"), "{markdown}");
    assert!(!markdown.contains(dir.to_str().unwrap()), "{markdown}");
}

#[test]
fn out_of_range_options_and_endless_input_are_refused_with_the_reason() {
    let dir = scratch("bounds");
    let csv = dir.join("games.csv");
    fs::write(&csv, GAMES).unwrap();
    let csv = csv.to_str().unwrap();
    // 9e307 used to spin in the chart's axis; 1e300 gave every agent the same Elo.
    for anchor in ["a=9e307", "a=1e300", "a=-2e5"] {
        let output = arena(&["report", csv, "--anchor", anchor]);
        assert!(!output.status.success(), "{anchor}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(
            error.contains("the anchor's rating must be from -100000 to 100000"),
            "{anchor}: {error}"
        );
    }
    for replicates in ["0", "1", "1000000"] {
        let output = arena(&["report", csv, "--bootstrap", replicates]);
        assert!(!output.status.success(), "{replicates}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(
            error.contains("expected a number of replicates from 40 to 100000"),
            "{replicates}: {error}"
        );
    }
    // Bootstrap intervals are marked as unreliable on the console too.
    let output = arena(&[
        "report",
        csv,
        "--intervals",
        "bootstrap",
        "--bootstrap",
        "40",
        "--out",
        dir.join("bootstrap").to_str().unwrap(),
    ]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("note: ‡ unreliable: in simulated pools with few games, percentile"),
        "{text}"
    );
    // `/dev/zero` has no line end: refused at its first megabyte, naming file and line.
    #[cfg(unix)]
    {
        let output = arena(&["report", "/dev/zero", "--out", dir.to_str().unwrap()]);
        assert!(!output.status.success());
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(
            error.contains("/dev/zero: line 1: a row longer than 1048576 bytes"),
            "{error}"
        );
    }
    let _ = fs::remove_dir_all(&dir);
}

/// Whether `arena report` (the `report` crate, which depends on no crate of the arena's) takes
/// `text` as a row's time control.
fn report_takes_time_control(text: &str) -> bool {
    let header = "experiment,variant,game,seed,first,second,result,termination,plies,\
                  time_control,first_clock_ms,second_clock_ms,third_clock_ms,fourth_clock_ms";
    let csv = format!("{header}\nt,mnk-3x3k3,0,1,a,b,1-0,win,5,{text},1.000,2.000,,\n");
    match report::Report::from_csv_reader("games.csv", csv.as_bytes()) {
        Ok(_) => true,
        Err(report::Error::BadField {
            column: "time_control",
            ..
        }) => false,
        Err(other) => panic!("{text:?}: {other}"),
    }
}

/// The arena's rule for a recorded time control (`arena verify` of a play record): one that
/// `agents::clock` reads and writes back unchanged.
fn arena_writes_time_control(text: &str) -> bool {
    text.parse::<agents::clock::TimeControl>()
        .is_ok_and(|control| control.is_limited() && control.to_string() == text)
}

#[test]
fn report_reads_exactly_the_time_controls_the_arena_writes() {
    // Every combination of a few periods, times, increments and per-move limits, as the arena
    // writes them and written otherwise.
    let mut texts: Vec<String> = Vec::new();
    let times = [
        "0",
        "0.001",
        "0.5",
        "0.60",
        "1",
        "1:30",
        "60",
        "060",
        "86400",
        "86400.001",
    ];
    for moves in ["", "0/", "1/", "40/", "040/", "10000/", "10001/"] {
        for time in times {
            for increment in ["", "+0", "+0.6", "+1.250", "+86400"] {
                texts.push(format!("tc={moves}{time}{increment}"));
            }
        }
    }
    for per_move in times {
        texts.push(format!("st={per_move}"));
        texts.push(format!("tc=40/60+0.6 st={per_move}"));
        texts.push(format!("st={per_move} tc=60"));
    }
    texts.extend(
        [
            "inf",
            "tc=inf",
            "st=inf",
            "tc=inf st=1",
            "garbage",
            "tc=60 tc=60",
            "tc=60  st=1",
            "tc=60\tst=1",
            "tc=+1:30",
            "tc=+40/60",
            "tc=1e3",
            "st=NaN",
            "tc=-5",
            "tc=",
            "st=",
        ]
        .map(String::from),
    );
    // What the arena writes for each text it reads: every such text is one it writes.
    let written: Vec<String> = texts
        .iter()
        .filter_map(|t| t.parse::<agents::clock::TimeControl>().ok())
        .filter(|control| control.is_limited())
        .map(|control| control.to_string())
        .collect();
    assert!(written.len() > 100, "{}", written.len());
    for text in texts.iter().chain(&written) {
        assert_eq!(
            report_takes_time_control(text),
            arena_writes_time_control(text),
            "{text:?}"
        );
    }
}
