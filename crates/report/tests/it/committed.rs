//! The committed reports (`results/*/`) are what the current code writes from their
//! `games.csv`: every text file of the report (`report.md`, `ratings.csv`, `standings.csv`) and
//! every chart, SVG and PNG (both are drawn deterministically), byte for byte. A change to the report that alters them must regenerate them
//! in the same commit: `arena report results/NAME/games.csv` for each folder the failure names.

use std::fs;
use std::path::{Path, PathBuf};

use report::{Options, Report};

fn results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results")
}

/// The committed folders that hold a report.
fn committed_reports() -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = fs::read_dir(results())
        .expect("the results folder")
        .map(|entry| entry.unwrap().path())
        .filter(|folder| folder.join("report.md").is_file())
        .collect();
    folders.sort();
    folders
}

/// The files of `folder` the report writes: text and charts.
fn report_files(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| {
            ["report.md", "ratings.csv", "standings.csv"].contains(&name.as_str())
                || name.ends_with(".svg")
                || name.ends_with(".png")
        })
        .collect();
    names.sort();
    names
}

/// The first line where two texts differ, for the failure message.
fn first_difference(committed: &str, written: &str) -> String {
    for (n, (a, b)) in committed.lines().zip(written.lines()).enumerate() {
        if a != b {
            let cut = |s: &str| s.chars().take(200).collect::<String>();
            return format!(
                "line {}:\n  committed: {}\n  written:   {}",
                n + 1,
                cut(a),
                cut(b)
            );
        }
    }
    format!(
        "{} lines committed, {} written",
        committed.lines().count(),
        written.lines().count()
    )
}

#[test]
fn every_committed_report_is_what_the_current_code_writes() {
    let folders = committed_reports();
    assert!(
        folders.len() >= 7,
        "{} committed reports: default, oanquan-multi and the five strength runs were expected",
        folders.len()
    );
    let scratch = std::env::temp_dir().join(format!("report-committed-{}", std::process::id()));
    let mut drifted = Vec::new();
    for folder in &folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        // The report is written where its CSV lies, as `arena report results/NAME/games.csv`
        // writes it.
        let out = scratch.join(&name);
        fs::create_dir_all(&out).unwrap();
        let csv = out.join("games.csv");
        fs::copy(folder.join("games.csv"), &csv).unwrap();
        Report::from_csv_files(&[&csv])
            .unwrap()
            .write(&out, &Options::default())
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        let committed = report_files(folder);
        let written = report_files(&out);
        if committed != written {
            drifted.push(format!(
                "results/{name}: files committed {committed:?}, written {written:?}"
            ));
            continue;
        }
        for file in &committed {
            let a = fs::read(folder.join(file)).unwrap();
            let b = fs::read(out.join(file)).unwrap();
            if a == b {
                continue;
            }
            let difference = if file.ends_with(".png") {
                format!("{} bytes committed, {} written", a.len(), b.len())
            } else {
                first_difference(&String::from_utf8_lossy(&a), &String::from_utf8_lossy(&b))
            };
            drifted.push(format!("results/{name}/{file}: {difference}"));
        }
    }
    let _ = fs::remove_dir_all(&scratch);
    assert!(
        drifted.is_empty(),
        "committed reports differ from what the current code writes (regenerate them with \
         `arena report results/NAME/games.csv`):\n{}",
        drifted.join("\n")
    );
}
