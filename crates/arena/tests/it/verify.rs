//! Recorded rows are checked against the schedule and the rules: a row edited in any column
//! that the schedule or the moves decide is refused on resume, on merge and by `verify`,
//! with the file, the line and the column named; untouched runs pass.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use arena::{Experiment, Shard, compare, merge, run, verify};
use common::scratch;

const EXPERIMENT: &str = r#"
name = "checked"
seed = 5
games_per_pair = 6
opening_plies = 2
variants = ["mnk-3x3k3", "oanquan"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "greedy"
spec = "greedy"

[[agents]]
name = "easy"
spec = "easy"

[[agents]]
name = "crashes"
spec = "fault:mode=panic,after=3"
"#;

fn experiment() -> Experiment {
    Experiment::from_toml(EXPERIMENT, "checked.toml").unwrap()
}

/// A finished run in a fresh folder.
fn finished(name: &str, shard: Shard) -> PathBuf {
    let out = scratch(name);
    run(&experiment(), &common::options(&out, 2, shard)).unwrap();
    out
}

fn records(csv: &Path) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut reader = csv::Reader::from_path(csv).unwrap();
    let header = reader.headers().unwrap().clone();
    (header, reader.records().map(Result::unwrap).collect())
}

fn write_records(csv: &Path, header: &csv::StringRecord, rows: &[csv::StringRecord]) {
    let mut writer = csv::Writer::from_path(csv).unwrap();
    writer.write_record(header).unwrap();
    for row in rows {
        writer.write_record(row).unwrap();
    }
    writer.flush().unwrap();
}

/// Sets `column` of data row `index` (0-based) of `csv` with `edit`, returning the old value.
fn edit(csv: &Path, index: usize, column: &str, edit: impl Fn(&str) -> String) -> String {
    let (header, mut rows) = records(csv);
    let at = header.iter().position(|c| c == column).unwrap();
    let old = rows[index][at].to_string();
    let new = edit(&old);
    assert_ne!(old, new, "the edit of `{column}` changes nothing");
    rows[index] = rows[index]
        .iter()
        .enumerate()
        .map(|(i, field)| if i == at { new.as_str() } else { field })
        .collect();
    write_records(csv, &header, &rows);
    old
}

/// The data row (0-based) of the first game of `variant` whose termination is `termination`.
fn row_where(csv: &Path, variant: &str, termination: &str) -> Option<usize> {
    let (header, rows) = records(csv);
    let v = header.iter().position(|c| c == "variant").unwrap();
    let t = header.iter().position(|c| c == "termination").unwrap();
    rows.iter()
        .position(|r| &r[v] == variant && &r[t] == termination)
}

/// Edits that each change one column in a way the checks must catch: (column, description,
/// the row to edit, the edit).
type Edit = (
    &'static str,
    &'static str,
    fn(&Path) -> Option<usize>,
    fn(&str) -> String,
);

fn first_mnk_win(csv: &Path) -> Option<usize> {
    row_where(csv, "mnk-3x3k3", "win")
}
fn first_oanquan_win(csv: &Path) -> Option<usize> {
    row_where(csv, "oanquan", "win")
}
fn first_crash(csv: &Path) -> Option<usize> {
    row_where(csv, "oanquan", "crash")
}

fn edits() -> Vec<Edit> {
    vec![
        ("experiment", "another experiment", first_mnk_win, |_| {
            "other".into()
        }),
        ("variant", "a garbage variant", first_mnk_win, |_| {
            "AAAA".into()
        }),
        ("variant", "another real variant", first_mnk_win, |_| {
            "mnk-4x4k3".into()
        }),
        ("seed", "another seed", first_mnk_win, |s| {
            (s.parse::<u64>().unwrap() ^ 1).to_string()
        }),
        ("first", "another agent", first_mnk_win, |a| {
            if a == "crashes" { "random" } else { "crashes" }.into()
        }),
        (
            "second",
            "another agent in the second seat",
            first_mnk_win,
            |a| if a == "random" { "easy" } else { "random" }.into(),
        ),
        ("result", "the result flipped", first_mnk_win, |r| {
            if r == "1-0" { "0-1" } else { "1-0" }.into()
        }),
        ("result", "a win made a draw", first_oanquan_win, |_| {
            "1/2-1/2".into()
        }),
        ("termination", "a win called a crash", first_mnk_win, |_| {
            "crash".into()
        }),
        ("termination", "a crash called a win", first_crash, |_| {
            "win".into()
        }),
        ("result", "the crash's loser swapped", first_crash, |r| {
            if r == "1-0" { "0-1" } else { "1-0" }.into()
        }),
        ("plies", "one ply more", first_oanquan_win, |p| {
            (p.parse::<u32>().unwrap() + 1).to_string()
        }),
        ("first_score", "a score changed", first_oanquan_win, |s| {
            (s.parse::<i32>().unwrap() + 1).to_string()
        }),
        (
            "second_score",
            "a score on a game without",
            first_mnk_win,
            |_| "3".into(),
        ),
        ("moves", "the last move dropped", first_oanquan_win, |m| {
            m.rsplit_once(' ').unwrap().0.to_string()
        }),
        ("moves", "the opening changed", first_mnk_win, |m| {
            // The first random ply moved to another free cell.
            let mut moves: Vec<String> = m.split(' ').map(String::from).collect();
            let taken: Vec<String> = moves.clone();
            let free = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
                .into_iter()
                .find(|c| !taken.iter().any(|t| t == c))
                .unwrap_or(if moves[0] == "a1" { "b1" } else { "a1" });
            moves[0] = free.to_string();
            moves.join(" ")
        }),
        ("moves", "a move written another way", first_mnk_win, |m| {
            // `b2` and `1,1` name the same cell; the arena writes the first.
            let mut moves: Vec<String> = m.split(' ').map(String::from).collect();
            let last = moves.last_mut().unwrap();
            let col = (last.as_bytes()[0] - b'a') as u32;
            let row: u32 = last[1..].parse().unwrap();
            *last = format!("{},{}", row - 1, col);
            moves.join(" ")
        }),
        ("first_spec", "another spec", first_mnk_win, |_| {
            "random:x=1".into()
        }),
        ("second_spec", "another spec", first_oanquan_win, |_| {
            "greedy2".into()
        }),
    ]
}

/// Asserts that `error` names the file and line, and the edited column (or, where the edit
/// makes two columns disagree and either may be the one changed, the other of the two).
fn assert_names(error: &str, file: &str, line: usize, column: &str, what: &str) {
    let place = format!("{file}:{line}:");
    // Moves cut short and a changed termination look alike: the termination is named, with
    // the moves in the message.
    let also: &[&str] = match column {
        "moves" => &["termination"],
        _ => &[],
    };
    let named = std::iter::once(&column)
        .chain(also)
        .any(|c| error.contains(&format!("column `{c}`")));
    assert!(
        error.contains(&place) && named,
        "{what}: the error does not name `{place}` and column `{column}`: {error}"
    );
}

#[test]
fn an_edited_row_is_caught_on_resume_naming_file_line_and_column() {
    let reference = finished("verify-resume", Shard::WHOLE);
    let csv = reference.join("games.csv");
    // The untouched run verifies and resumes.
    let summary = verify(&reference, None).unwrap();
    assert!(summary.complete());
    assert!(summary.games > 20);
    assert_eq!(
        run(&experiment(), &common::options(&reference, 1, Shard::WHOLE))
            .unwrap()
            .played,
        0
    );
    for (column, what, pick, change) in edits() {
        let out = scratch("verify-edit");
        for name in ["games.csv", "games.meta.toml", "experiment.toml"] {
            fs::copy(reference.join(name), out.join(name)).unwrap();
        }
        let edited = out.join("games.csv");
        let index = pick(&csv).expect("the run has a game of each kind the edits want");
        edit(&edited, index, column, change);
        let before = fs::read(&edited).unwrap();
        let error = run(&experiment(), &common::options(&out, 1, Shard::WHOLE))
            .unwrap_err()
            .to_string();
        assert_names(&error, "games.csv", index + 2, column, what);
        // Nothing recorded is touched by the refusal.
        assert_eq!(fs::read(&edited).unwrap(), before, "{what}");
        let error = verify(&out, None).unwrap_err().to_string();
        assert_names(&error, "games.csv", index + 2, column, what);
    }
}

#[test]
fn an_edited_game_index_is_caught_as_a_duplicate_or_as_outside_the_schedule() {
    let reference = finished("verify-index", Shard::WHOLE);
    let csv = reference.join("games.csv");
    edit(&csv, 3, "game", |_| "2".into());
    let error = verify(&reference, None).unwrap_err().to_string();
    assert!(
        error.contains("games.csv:5: game 2 is recorded twice"),
        "{error}"
    );
    edit(&csv, 3, "game", |_| "100000".into());
    let error = run(&experiment(), &common::options(&reference, 1, Shard::WHOLE))
        .unwrap_err()
        .to_string();
    assert!(error.contains("game 100000 is not in shard 0/1"), "{error}");
}

#[test]
fn an_edited_row_in_a_shard_is_caught_on_merge() {
    let reference = scratch("verify-shards");
    for i in 0..2 {
        run(
            &experiment(),
            &common::options(&reference, 1, Shard { index: i, count: 2 }),
        )
        .unwrap();
    }
    for (column, what, pick, change) in edits() {
        let out = scratch("verify-merge-edit");
        for entry in fs::read_dir(&reference).unwrap() {
            let path = entry.unwrap().path();
            fs::copy(&path, out.join(path.file_name().unwrap())).unwrap();
        }
        // The shard holding the row the edit wants (rows of shard 1 are odd games).
        let (shard_file, index) = {
            let zero = out.join("games.shard-0-of-2.csv");
            let one = out.join("games.shard-1-of-2.csv");
            match pick(&zero) {
                Some(index) => (zero, index),
                None => {
                    let index = pick(&one).expect("a game of each kind the edits want");
                    (one, index)
                }
            }
        };
        edit(&shard_file, index, column, change);
        let error = merge(&out).unwrap_err().to_string();
        let name = shard_file.file_name().unwrap().to_str().unwrap();
        assert_names(&error, name, index + 2, column, what);
        assert!(!out.join("games.csv").exists(), "{what}: nothing merged");
    }
    // Untouched, the shards merge into the single run's CSV.
    let merged = merge(&reference).unwrap();
    let single = finished("verify-single", Shard::WHOLE);
    let same = compare(&merged.csv, &single.join("games.csv")).unwrap();
    assert_eq!(same.difference, None);
    assert_eq!(same.games, merged.games);
}

#[test]
fn compare_finds_the_first_difference_outside_the_timing_columns() {
    let a = finished("compare-a", Shard::WHOLE);
    let b = finished("compare-b", Shard::WHOLE);
    let (csv_a, csv_b) = (a.join("games.csv"), b.join("games.csv"));
    // Timing differs between the two runs; nothing else does.
    let same = compare(&csv_a, &csv_b).unwrap();
    assert_eq!(same.difference, None);
    edit(&csv_b, 4, "first_ms", |_| "123456.000".into());
    assert_eq!(compare(&csv_a, &csv_b).unwrap().difference, None);
    edit(&csv_b, 4, "first_nodes", |n| {
        (n.parse::<u64>().unwrap() + 1).to_string()
    });
    let different = compare(&csv_a, &csv_b).unwrap();
    let text = different.difference.unwrap();
    assert!(
        text.contains("line 6 (game 4): column `first_nodes`"),
        "{text}"
    );
    assert_eq!(different.games, 4);
}

#[test]
fn verify_of_a_run_in_progress_leaves_out_the_row_being_written() {
    let out = finished("verify-partial", Shard::WHOLE);
    let csv = out.join("games.csv");
    let text = fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // The header, 7 rows, and half of the 8th as a writer in the middle of its write.
    let kept: String = lines[..8].concat();
    let half = &lines[8][..lines[8].len() / 2];
    fs::write(&csv, format!("{kept}{half}")).unwrap();
    let summary = verify(&out, None).unwrap();
    assert_eq!(summary.games, 7);
    assert!(summary.partial_line);
    assert!(!summary.complete());
}

/// Makes data row `index` of `csv` a resignation: its last move taken back (so the game is
/// not over), `termination` resign, `result` as given.
fn resign_before_the_last_move(csv: &Path, index: usize, result: &str) {
    let (header, mut rows) = records(csv);
    let at = |column: &str| header.iter().position(|c| c == column).unwrap();
    let mut fields: Vec<String> = rows[index].iter().map(str::to_string).collect();
    let moves: Vec<String> = fields[at("moves")].split(' ').map(str::to_string).collect();
    fields[at("moves")] = moves[..moves.len() - 1].join(" ");
    fields[at("plies")] = (moves.len() - 1).to_string();
    fields[at("termination")] = "resign".into();
    fields[at("result")] = result.into();
    rows[index] = fields.iter().map(String::as_str).collect();
    write_records(csv, &header, &rows);
}

#[test]
fn a_resignation_replays_to_an_unfinished_game_that_the_resigning_seat_loses() {
    let out = finished("verify-resign", Shard::WHOLE);
    let csv = out.join("games.csv");
    let index = first_mnk_win(&csv).unwrap();
    let pristine = fs::read_to_string(&csv).unwrap();
    // Either seat may resign, on its turn or not: the result says which, and it loses.
    for result in ["1-0", "0-1"] {
        fs::write(&csv, &pristine).unwrap();
        resign_before_the_last_move(&csv, index, result);
        let summary = verify(&out, None).unwrap_or_else(|e| panic!("{result}: {e}"));
        assert!(summary.complete() && !summary.played);
    }
    // A resignation is never a draw.
    fs::write(&csv, &pristine).unwrap();
    resign_before_the_last_move(&csv, index, "1/2-1/2");
    let error = verify(&out, None).unwrap_err().to_string();
    assert_names(
        &error,
        "games.csv",
        index + 2,
        "result",
        "a drawn resignation",
    );
    assert!(error.contains("the seat that resigned loses"), "{error}");
    // Nor a game the rules had already ended: the last move won it.
    fs::write(&csv, &pristine).unwrap();
    edit(&csv, index, "termination", |_| "resign".into());
    let error = verify(&out, None).unwrap_err().to_string();
    assert_names(
        &error,
        "games.csv",
        index + 2,
        "termination",
        "a resignation of a won game",
    );
    assert!(error.contains("the moves end the game by `win`"), "{error}");
}

/// An experiment with a game clock: its games are written in schema 3, with the time control
/// and each seat's clock at the end.
const CLOCKED: &str = r#"
name = "clocked"
seed = 8
games_per_pair = 4
tc = "60+1"
variants = ["mnk-3x3k3"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "easy"
spec = "easy"
"#;

fn clocked() -> Experiment {
    Experiment::from_toml(CLOCKED, "clocked.toml").unwrap()
}

/// Edits of the schema-3 columns that every reader must refuse: (column, the edit).
const CLOCK_EDITS: [(&str, &str); 6] = [
    ("time_control", "garbage here"),
    ("time_control", "tc=30+1"),
    ("first_clock_ms", "NaN"),
    ("second_clock_ms", "-5"),
    ("first_clock_ms", "inf"),
    ("second_clock_ms", "-5.000"),
];

#[test]
fn the_schema_3_columns_are_checked_on_resume_by_verify_and_on_merge() {
    let reference = scratch("verify-clocked");
    run(&clocked(), &common::options(&reference, 1, Shard::WHOLE)).unwrap();
    assert!(verify(&reference, None).unwrap().complete());
    for (column, value) in CLOCK_EDITS {
        let what = format!("`{column}` made `{value}`");
        let out = scratch("verify-clock-edit");
        for name in ["games.csv", "games.meta.toml", "experiment.toml"] {
            fs::copy(reference.join(name), out.join(name)).unwrap();
        }
        let edited = out.join("games.csv");
        edit(&edited, 1, column, |_| value.to_string());
        let before = fs::read(&edited).unwrap();
        let error = run(&clocked(), &common::options(&out, 1, Shard::WHOLE))
            .unwrap_err()
            .to_string();
        assert_names(&error, "games.csv", 3, column, &what);
        assert_eq!(fs::read(&edited).unwrap(), before, "{what}");
        let error = verify(&out, None).unwrap_err().to_string();
        assert_names(&error, "games.csv", 3, column, &what);
    }

    let shards = scratch("verify-clocked-shards");
    for index in 0..2 {
        let shard = Shard { index, count: 2 };
        run(&clocked(), &common::options(&shards, 1, shard)).unwrap();
    }
    for (column, value) in CLOCK_EDITS {
        let what = format!("`{column}` made `{value}` in a shard");
        let out = scratch("verify-clocked-merge");
        for entry in fs::read_dir(&shards).unwrap() {
            let path = entry.unwrap().path();
            fs::copy(&path, out.join(path.file_name().unwrap())).unwrap();
        }
        edit(&out.join("games.shard-1-of-2.csv"), 0, column, |_| {
            value.to_string()
        });
        let error = merge(&out).unwrap_err().to_string();
        assert_names(&error, "games.shard-1-of-2.csv", 2, column, &what);
        assert!(!out.join("games.csv").exists(), "{what}: nothing merged");
    }
    // Untouched, they merge.
    assert_eq!(merge(&shards).unwrap().games, 4);
}

/// Rewrites `csv` in schema `schema`, its rows unchanged but for the columns that schema has
/// or lacks (a file that another command rewrote, or that was cut back by hand).
fn rewrite_in_schema(csv: &Path, schema: usize) {
    let width = match schema {
        1 => 20,
        2 => 33,
        _ => 38,
    };
    let (header, rows) = records(csv);
    let fit = |record: &csv::StringRecord, fill: &dyn Fn(usize) -> String| {
        (0..width)
            .map(|at| record.get(at).map_or_else(|| fill(at), String::from))
            .collect::<csv::StringRecord>()
    };
    let columns = arena::record::columns(schema as u32);
    let header = fit(&header, &|at| columns[at].to_string());
    let rows: Vec<csv::StringRecord> = rows
        .iter()
        .map(|row| fit(row, &|at| if at == 20 { "2".into() } else { String::new() }))
        .collect();
    write_records(csv, &header, &rows);
}

#[test]
fn a_games_file_whose_header_is_of_another_schema_is_refused_on_resume_verify_and_merge() {
    // A run of schema 1 cut short, then rewritten in schema 3 (as `arena play --record` did
    // to an experiment's games file): resuming would append schema-1 rows under it.
    let out = finished("schema-resume", Shard::WHOLE);
    let csv = out.join("games.csv");
    let (header, rows) = records(&csv);
    write_records(&csv, &header, &rows[..3]);
    rewrite_in_schema(&csv, 3);
    let before = fs::read(&csv).unwrap();
    for error in [
        run(&experiment(), &common::options(&out, 1, Shard::WHOLE)).unwrap_err(),
        verify(&out, None).unwrap_err(),
    ] {
        let error = error.to_string();
        assert!(
            error.contains("games.csv:1: the header is of CSV schema 3, but its meta file")
                && error.contains("says schema 1"),
            "{error}"
        );
    }
    assert_eq!(fs::read(&csv).unwrap(), before, "nothing appended");

    // A shard of a clocked experiment cut back to schema 1 (its time control and clocks
    // gone), its meta file too or not: the merge refuses it.
    let shards = scratch("schema-merge");
    for index in 0..2 {
        let shard = Shard { index, count: 2 };
        run(&clocked(), &common::options(&shards, 1, shard)).unwrap();
    }
    let shard = shards.join("games.shard-1-of-2.csv");
    rewrite_in_schema(&shard, 1);
    let error = merge(&shards).unwrap_err().to_string();
    assert!(
        error.contains("games.shard-1-of-2.csv:1: the header is of CSV schema 1, but its meta"),
        "{error}"
    );
    let meta = shards.join("games.shard-1-of-2.meta.toml");
    let text = fs::read_to_string(&meta).unwrap();
    fs::write(&meta, text.replace("csv_schema = 3", "csv_schema = 1")).unwrap();
    let error = merge(&shards).unwrap_err().to_string();
    assert!(
        error.contains("the header and the meta file say CSV schema 1, but this experiment's"),
        "{error}"
    );
    assert!(!shards.join("games.csv").exists(), "nothing merged");
}
