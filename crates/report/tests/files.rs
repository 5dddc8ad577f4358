//! The files a report writes: CSVs, report.md and every chart.

mod common;

use common::{Games, fresh_dir, png_size, sample_tournament};
use report::{CHART_SIZE, Options, Report};

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
    games.pairing("oanquan", "lonely", "lonely", 1, 1, 1);
    let summary = Report::from_csv_reader("crowded.csv", games.csv().as_bytes())
        .unwrap()
        .write(&dir, &Options::default().with_bootstrap(0))
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
    assert!(markdown.contains("No bootstrap was run"));
    assert!(markdown.contains("No chart: no agent family"));
    assert!(!dir.join("elo-vs-budget-mnk-9x9k5.png").exists());
}
