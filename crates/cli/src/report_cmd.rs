//! `arena report`: standings, Elo with 95% intervals, head-to-head tables and charts from
//! one or more game CSVs.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// Arguments of `arena report`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "\
Examples:
  arena report results/default/games.csv
  arena report day1.csv day2.csv --out results/merged --anchor random=0 --bootstrap 2000

Writes ratings.csv, standings.csv, report.md and the charts (SVG and PNG) into the folder.")]
pub struct ReportArgs {
    /// Game CSVs written by `arena run`; several files are merged.
    #[arg(required = true, value_name = "CSV")]
    pub csv: Vec<PathBuf>,

    /// Folder for the report [default: the folder of the first CSV].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Fix one agent's rating in every pool it played in, e.g. `random=0`.
    #[arg(long, value_name = "AGENT=ELO", value_parser = parse_anchor)]
    pub anchor: Option<(String, f64)>,

    /// Bootstrap replicates for the 95% intervals (0 leaves them out).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub bootstrap: usize,

    /// Seed of the bootstrap, so the same games give the same report.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Keep the first copy of a game read twice (same experiment, variant and game index) and
    /// drop the others, saying how many; without it such input is refused.
    #[arg(long)]
    pub drop_duplicates: bool,
}

/// `AGENT=ELO`; the last `=` splits, so an agent name may itself contain `=`.
fn parse_anchor(text: &str) -> Result<(String, f64), String> {
    let (agent, elo) = text
        .rsplit_once('=')
        .ok_or_else(|| format!("expected AGENT=ELO, got `{text}`"))?;
    let elo: f64 = elo
        .trim()
        .parse()
        .map_err(|_| format!("`{elo}` is not a number"))?;
    if agent.trim().is_empty() || !elo.is_finite() {
        return Err(format!(
            "expected AGENT=ELO with a finite ELO, got `{text}`"
        ));
    }
    Ok((agent.trim().to_owned(), elo))
}

/// The folder a CSV lives in (`.` for a bare file name).
fn folder_of(csv: &Path) -> PathBuf {
    match csv.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// An Elo value with its sign, never `-0.0`.
fn signed(elo: f64) -> String {
    let text = format!("{:+.1}", elo);
    if text == "-0.0" || text == "+0.0" {
        "0.0".to_owned()
    } else {
        text
    }
}

/// Reads the CSVs, writes the report, and prints where it is and the standings.
pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let out = match &args.out {
        Some(out) => out.clone(),
        None => folder_of(&args.csv[0]),
    };
    let mut games = report::Report::default();
    games.drop_duplicates(args.drop_duplicates);
    for csv in &args.csv {
        games
            .add_csv_file(csv)
            .map_err(|error| explain(error, csv))?;
    }
    for file in games.partial_lines_left_out() {
        println!(
            "left out the last line of {file}: it does not end with a newline (a run may be \
             writing it)"
        );
    }
    if games.duplicates_dropped() > 0 {
        println!(
            "dropped {} duplicated game(s): the same experiment, variant and game index read \
             again (the first copy is kept)",
            games.duplicates_dropped()
        );
    }
    let options = report::Options {
        anchor: args.anchor.clone(),
        bootstrap: args.bootstrap,
        seed: args.seed,
    };
    if let Some((agent, _)) = &args.anchor
        && let Ok(plain) = games.analyse(&report::Options {
            anchor: None,
            bootstrap: 0,
            seed: args.seed,
        })
        && let Some(all) = plain.pool(report::ALL_POOL)
        && all.standing(agent).is_none()
    {
        let mut played: Vec<&str> = all.standings.iter().map(|s| s.agent.as_str()).collect();
        played.sort_unstable();
        anyhow::bail!(
            "--anchor {agent}=...: `{agent}` played no game in the input; the agents that \
             played are: {}",
            played.join(", ")
        );
    }
    let summary = games
        .write(&out, &options)
        .with_context(|| format!("writing the report into {}", out.display()))?;

    let charts = summary
        .files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "png"))
        .count();
    println!(
        "{} games; report written to {}",
        summary.games,
        out.join("report.md").display()
    );
    println!(
        "  with ratings.csv, standings.csv and {charts} charts (SVG and PNG) in {}",
        out.display()
    );
    // What each pool was rated from: every game counts in its variant's pool and in `all`.
    let used: Vec<String> = summary
        .pools
        .iter()
        .map(|pool| {
            let games: u64 = pool.standings.iter().map(|s| s.games).sum::<u64>() / 2;
            format!("{} {}", pool.pool, crate::verify_cmd::thousands(games))
        })
        .collect();
    println!("  games used per pool: {}", used.join(", "));
    let variants = summary.pools.len().saturating_sub(1);
    for pool in &summary.pools {
        if pool.pool == report::ALL_POOL && variants <= 1 {
            continue;
        }
        print_standings(pool);
    }
    Ok(())
}

/// A reading error, with the plain words when the file is not a games CSV at all.
fn explain(error: report::Error, csv: &Path) -> anyhow::Error {
    if let report::Error::MissingColumn { .. } = &error {
        let first = std::fs::read(csv)
            .map(|bytes| {
                let line = bytes.split(|&b| b == b'\n').next().unwrap_or(&[]).to_vec();
                String::from_utf8_lossy(&line).into_owned()
            })
            .unwrap_or_default();
        let columns: Vec<&str> = first.split(',').map(str::trim).collect();
        let known = ["experiment", "variant", "first", "second", "result"];
        if !known.iter().any(|c| columns.contains(c)) {
            return anyhow::anyhow!(
                "`{}` is not a games CSV: its first line is not a header with the columns \
                 experiment, variant, game, ... (give the games.csv that `arena run` writes)",
                csv.display()
            );
        }
    }
    error.into()
}

fn print_standings(pool: &report::PoolRatings) {
    let width = pool
        .standings
        .iter()
        .map(|s| s.agent.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    println!();
    let note = if pool.prior_used {
        "  (weak prior: a perfect score, see report.md)"
    } else {
        ""
    };
    println!("{}{note}", pool.pool);
    println!(
        "  {:>3}  {:<width$}  {:>6}  {:>14}  {:>6}  {:>7}  95% interval",
        "#", "agent", "games", "W-D-L", "score", "Elo"
    );
    for (rank, s) in pool.standings.iter().enumerate() {
        let interval = s.interval.map_or_else(
            || "—".to_owned(),
            |(low, high)| format!("[{}, {}]", signed(low), signed(high)),
        );
        println!(
            "  {:>3}  {:<width$}  {:>6}  {:>14}  {:>5.1}%  {:>7}  {}",
            rank + 1,
            s.agent,
            s.games,
            format!("{}-{}-{}", s.wins, s.draws, s.losses),
            100.0 * s.score(),
            signed(s.elo),
            interval
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_parse_as_agent_and_rating() {
        assert_eq!(parse_anchor("random=0"), Ok(("random".to_owned(), 0.0)));
        assert_eq!(
            parse_anchor("mcts:c=1.4=1500.5"),
            Ok(("mcts:c=1.4".to_owned(), 1500.5))
        );
        assert!(parse_anchor("random").is_err());
        assert!(parse_anchor("=100").is_err());
        assert!(parse_anchor("random=inf").is_err());
    }

    #[test]
    fn the_default_folder_is_the_first_csv_s() {
        assert_eq!(
            folder_of(Path::new("results/x/games.csv")),
            PathBuf::from("results/x")
        );
        assert_eq!(folder_of(Path::new("games.csv")), PathBuf::from("."));
    }
}
