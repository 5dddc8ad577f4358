//! Times a report: reads games CSVs, rates them and writes every file into a folder.
//!
//! ```sh
//! python3 benches/report_scale.py 80 > /tmp/scale-80.csv
//! cargo run --release -p report --example report_time -- /tmp/scale-80.csv /tmp/scale-80
//! ```
//!
//! Prints the seconds taken to read, to rate (`Report::analyse`) and to write (rating again,
//! then the tables, charts and `report.md`).

use std::path::Path;
use std::time::Instant;

use report::{Options, Report};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [csv, out] = args.as_slice() else {
        return Err("usage: report_time GAMES_CSV OUT_FOLDER".into());
    };
    let start = Instant::now();
    let report = Report::from_csv_files(&[csv])?;
    let read = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let summary = report.analyse(&Options::default())?;
    let rated = start.elapsed().as_secs_f64();
    let start = Instant::now();
    report.write(Path::new(out), &Options::default())?;
    let written = start.elapsed().as_secs_f64();
    let agents = summary.pools.iter().map(|p| p.standings.len()).max();
    println!(
        "{csv}: {} games, {} agents; read {read:.2} s, rate {rated:.2} s, write {written:.2} s",
        summary.games,
        agents.unwrap_or(0)
    );
    Ok(())
}
