//! `arena report`: standings, Elo with 95% intervals, head-to-head tables and charts from
//! one or more game CSVs.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// Arguments of `arena report`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "\
Examples:
  arena report results/default/games.csv
  arena report day1.csv day2.csv --out results/merged --anchor random=0
  arena report games.csv --intervals bootstrap --bootstrap 2000 --seed 7

Writes ratings.csv, standings.csv, report.md and the charts (SVG and PNG) into the folder.")]
pub struct ReportArgs {
    /// Game CSVs written by `arena run`; several files are merged.
    #[arg(required = true, value_name = "CSV")]
    pub csv: Vec<PathBuf>,

    /// Folder for the report [default: the folder of the first CSV].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Fix one agent's rating in every pool it played in, e.g. `random=0`: the rest of its
    /// group keeps its differences to it, other groups keep mean 0.
    #[arg(long, value_name = "AGENT=ELO", value_parser = parse_anchor)]
    pub anchor: Option<(String, f64)>,

    /// How the 95% intervals are computed: `profile` (profile likelihood with the Jeffreys
    /// prior, the draw correction and, for 3- and 4-player games, the variance of a game's
    /// whole finishing order; chosen by simulation), `bootstrap` (percentile bootstrap over the
    /// games of each group of agents that met), or `none`.
    #[arg(long, value_name = "METHOD", default_value = "profile", value_parser = parse_intervals)]
    pub intervals: report::Intervals,

    /// Bootstrap replicates, where the bootstrap is used (40 to 100000).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = parse_replicates)]
    pub bootstrap: usize,

    /// Seed of the bootstrap, so the same games give the same report.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Keep the first copy of a game read twice (same experiment, variant and game index) and
    /// drop the others, saying how many; without it such input is refused.
    #[arg(long)]
    pub drop_duplicates: bool,
}

fn parse_intervals(text: &str) -> Result<report::Intervals, String> {
    match text {
        "profile" => Ok(report::Intervals::Profile),
        "bootstrap" => Ok(report::Intervals::Bootstrap),
        "none" => Ok(report::Intervals::Off),
        _ => Err(format!(
            "`{text}` is not an interval method: use profile, bootstrap or none"
        )),
    }
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
    if agent.trim().is_empty() {
        return Err(format!("expected AGENT=ELO, got `{text}`"));
    }
    let max = report::MAX_ANCHOR_ELO;
    if !(-max..=max).contains(&elo) {
        return Err(format!(
            "the anchor's rating must be from -{max} to {max}, got `{}`",
            elo_text(text)
        ));
    }
    Ok((agent.trim().to_owned(), elo))
}

/// The ELO part of `AGENT=ELO` as given.
fn elo_text(text: &str) -> &str {
    text.rsplit_once('=').map_or(text, |(_, elo)| elo.trim())
}

/// A number of bootstrap replicates within [`report::BOOTSTRAP_REPLICATES`].
fn parse_replicates(text: &str) -> Result<usize, String> {
    let range = report::BOOTSTRAP_REPLICATES;
    text.trim()
        .parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "expected a number of replicates from {} to {}, got `{text}`",
                range.start(),
                range.end()
            )
        })
}

/// The class report (`class.md`, `class-standings.csv`) of a run whose folder holds a table
/// of submissions (`arena::admission::TABLE`), written into `out`; `None` for other runs.
fn class_report(
    csv: &Path,
    out: &Path,
    summary: &report::Summary,
) -> anyhow::Result<Option<Vec<PathBuf>>> {
    let run = folder_of(csv);
    if !run.join(arena::admission::TABLE).exists() {
        return Ok(None);
    }
    let admitted = arena::admission::read_table(&run)?;
    let mut agents: Vec<String> = summary
        .pools
        .iter()
        .flat_map(|p| p.standings.iter().map(|s| s.agent.clone()))
        .collect();
    agents.sort_unstable();
    agents.dedup();
    let faults: Vec<report::class::Fault> =
        arena::run::read_fault_log(&csv.with_extension("faults.log"), &agents)
            .into_iter()
            .map(|f| {
                let (verdict, reason) = match protocol::sandbox::Verdict::split(&f.message) {
                    Some((verdict, rest)) => (verdict.to_string(), rest.to_string()),
                    None => (f.termination.clone(), f.message.clone()),
                };
                // The log's place is said once, beside its lines.
                let reason = match reason.split_once(" (its stderr is in ") {
                    Some((before, _)) => before.to_string(),
                    None => reason,
                };
                report::class::Fault {
                    game: f.game,
                    variant: f.variant,
                    agent: f.agent,
                    verdict,
                    reason,
                    termination: f.termination,
                }
            })
            .collect();
    let logs = protocol::Roster::new().with_log_folder(&csv.with_extension("logs"));
    let tails = agents
        .iter()
        .filter_map(|agent| match logs.stderr_of(agent) {
            protocol::Stderr::File(path) => {
                Some((agent.clone(), protocol::compile::tail(&path, 5)))
            }
            _ => None,
        })
        .collect();
    let class = report::class::Class {
        name: arena::meta::Meta::read(csv)?
            .map_or_else(|| run.display().to_string(), |meta| meta.experiment),
        entrants: admitted
            .iter()
            .filter(|a| a.passed())
            .map(|a| a.name.clone())
            .collect(),
        excluded: admitted
            .iter()
            .filter(|a| !a.passed())
            .map(|a| report::class::Excluded {
                folder: a.folder.clone(),
                name: a.name.clone(),
                reason: a.reason.clone(),
                log: a.log.clone(),
                tail: if a.log.is_empty() {
                    Vec::new()
                } else {
                    protocol::compile::tail(&run.join(&a.log), 5)
                },
            })
            .collect(),
        faults,
        logs: tails,
        sandbox_missing: arena::meta::Meta::read(csv)?
            .map(|meta| meta.sandbox_missing)
            .unwrap_or_default(),
    };
    Ok(Some(report::class::write(out, summary, &class)?))
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
        games.add_csv_file(csv)?;
        if let Ok(Some(meta)) = arena::meta::Meta::read(csv) {
            games.add_sandbox_missing(&meta.sandbox_missing);
        }
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
        intervals: args.intervals,
        bootstrap: args.bootstrap,
        seed: args.seed,
    };
    if let Some((agent, _)) = &args.anchor
        && let Ok(plain) =
            games.analyse(&report::Options::default().with_intervals(report::Intervals::Off))
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
    // A game of N seats appears in the standings of N agents.
    let games_in = |pool: &report::PoolRatings| -> u64 {
        let seats = pool
            .pool
            .parse::<rules::Variant>()
            .map_or(2, |variant| variant.players() as u64);
        pool.standings.iter().map(|s| s.games).sum::<u64>() / seats
    };
    let variant_games: u64 = summary
        .pools
        .iter()
        .filter(|pool| pool.pool != report::ALL_POOL)
        .map(games_in)
        .sum();
    let used: Vec<String> = summary
        .pools
        .iter()
        .map(|pool| {
            let games = if pool.pool == report::ALL_POOL {
                variant_games
            } else {
                games_in(pool)
            };
            format!("{} {}", pool.pool, crate::verify_cmd::thousands(games))
        })
        .collect();
    println!("  games used per pool: {}", used.join(", "));
    if let [csv] = args.csv.as_slice()
        && let Some(files) = class_report(csv, &out, &summary)?
    {
        println!(
            "  a class tournament: {} and {}",
            files[0].display(),
            files[1].display()
        );
    }
    for pool in &summary.pools {
        print_standings(pool);
    }
    Ok(())
}

fn print_standings(pool: &report::PoolRatings) {
    let width = pool
        .standings
        .iter()
        .map(|s| s.agent.chars().count() + if s.finite { 0 } else { 2 })
        .max()
        .unwrap_or(5)
        .max(5);
    println!();
    println!("{}", pool.pool);
    if pool.groups > 1 {
        println!(
            "  note: {} groups of agents that never met, not even through common opponents; \
             each is rated on its own (mean 0, or placed by the anchor), so ratings of \
             different groups are not comparable",
            pool.groups
        );
    }
    if pool.prior_used {
        println!(
            "  note: † no finite maximum-likelihood rating (every game between some agents went \
             one way): the gaps between those tiers come from the weak prior, and an interval \
             end the games leave open is shown as ≥ or ≤"
        );
        let lost_all: Vec<&str> = pool
            .standings
            .iter()
            .filter(|s| s.games > 0 && s.losses == s.games)
            .map(|s| s.agent.as_str())
            .collect();
        if !lost_all.is_empty() && !pool.standings.iter().any(|s| s.anchor) {
            println!(
                "  note: {} lost every game: {} no lower end, and the ratings here are relative \
                 to the pool's mean, which moves with it; `arena report CSV --anchor \
                 AGENT=ELO` measures every agent from one of them instead",
                lost_all
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if lost_all.len() == 1 {
                    "its rating has"
                } else {
                    "their ratings have"
                }
            );
        }
    }
    let withheld: Vec<&str> = pool
        .standings
        .iter()
        .filter(|s| s.withheld)
        .map(|s| s.agent.as_str())
        .collect();
    if !pool.intervals_reliable() {
        println!(
            "  note: ‡ unreliable: in simulated pools with few games, percentile bootstrap \
             intervals held the true rating as little as 78-85% of the time, not 95%; the \
             default (--intervals profile) held it 94-97%"
        );
    }
    if !withheld.is_empty() {
        println!(
            "  note: no interval (—) for {}: the bootstrap's replicates did not vary (too few \
             games to resample); the profile interval (the default) gives one",
            withheld.join(", ")
        );
    }
    let mut group = 0;
    let mut rank = 0;
    for s in &pool.standings {
        rank += 1;
        if s.group != group {
            group = s.group;
            rank = 1;
            if pool.groups > 1 {
                println!("  group {group}");
            }
            println!(
                "  {:>3}  {:<width$}  {:>6}  {:>14}  {:>6}  {:>7}  95% interval",
                "#", "agent", "games", "W-D-L", "score", "Elo"
            );
        }
        let interval = match (s.anchor, s.interval) {
            (true, _) => "anchor (fixed)".to_owned(),
            (false, None) => "—".to_owned(),
            (false, Some(i)) if pool.intervals_reliable() => i.to_string(),
            (false, Some(i)) => format!("{i} ‡"),
        };
        let name = if s.finite {
            s.agent.clone()
        } else {
            format!("{} †", s.agent)
        };
        println!(
            "  {:>3}  {:<width$}  {:>6}  {:>14}  {:>5.1}%  {:>7}  {}",
            rank,
            name,
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
        // Ratings so far from 0 lose the differences in rounding, or overflow the chart.
        assert!(parse_anchor("random=1e300").is_err());
        assert!(parse_anchor("random=9e307").is_err());
        assert!(parse_anchor("random=-100001").is_err());
        assert_eq!(
            parse_anchor("random=-100000"),
            Ok(("random".to_owned(), -100_000.0))
        );
    }

    #[test]
    fn bootstrap_replicates_are_bounded() {
        assert_eq!(parse_replicates("1000"), Ok(1000));
        for bad in ["0", "1", "39", "100001", "18446744073709551615", "many"] {
            assert!(parse_replicates(bad).is_err(), "{bad}");
        }
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
