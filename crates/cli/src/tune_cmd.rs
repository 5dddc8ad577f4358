//! `arena tune`: SPSA on an agent's numeric parameters (`arena::tune`), with the trajectory
//! drawn by the report crate.

use std::path::PathBuf;

use anyhow::Context as _;
use arena::schedule::Shard;
use arena::tune::{Iteration, TuneEvent, TuneOptions, TuneSettings, run_tune};
use report::{TuneSeries, TuneTrajectory, draw_tune};

/// Arguments of `arena tune`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "\
Examples:
  arena tune experiments/tune-mcts-c.toml
  arena tune my-tune.toml --out results/my-tune --threads 2
  arena tune my-tune.toml --out results/my-tune --shard 0/4   # with 1/4, 2/4, 3/4 at the same time

The tune file names the variant, the agent spec with a {name} placeholder per parameter, and a
[params.NAME] table per parameter (start, min, max, c_end, r_end): see the book's \"Tuning
parameters\" page. Each iteration plays theta+c_k*flip against theta-c_k*flip in game pairs and
moves theta as fishtest's SPSA does. Killed, it resumes from games.csv and ends with the same
trajectory and tuned spec.

With --shard I/N a tune plays only its games whose index is I modulo N (games.shard-I-of-N.csv)
and waits, after its part of each iteration, for the other shards' games in the same folder:
start all N at once (on Slurm, one job of N tasks: see the book), then `arena merge DIR`.")]
pub struct TuneArgs {
    /// The tune file (TOML).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// The output folder [default: results/<name>].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Worker threads, 1 to 256 [default: the file's `threads`, else as `arena run`].
    #[arg(long, value_name = "N", value_parser = arena::run::parse_threads)]
    pub threads: Option<usize>,

    /// Start over: move the old games aside (never deleting them).
    #[arg(long)]
    pub fresh: bool,

    /// Play only shard I of N (the games whose index is I modulo N), with the other shards
    /// running at the same time into the same folder; `arena merge` joins them.
    #[arg(long, value_name = "I/N", value_parser = crate::run_cmd::parse_shard)]
    pub shard: Option<Shard>,
}

/// The parameters as `name=value`, as the agent gets them.
fn values(settings: &TuneSettings, theta: &[f64]) -> String {
    settings
        .params
        .iter()
        .zip(theta)
        .map(|(p, &v)| format!("{}={}", p.name, p.text(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `arena tune`.
pub fn tune(args: TuneArgs) -> anyhow::Result<()> {
    let settings = TuneSettings::from_file(&args.file)?;
    let out = args.out.unwrap_or_else(|| settings.default_out_dir());
    std::fs::create_dir_all(&out)
        .with_context(|| format!("cannot create the output folder `{}`", out.display()))?;
    println!(
        "tune {}: {} on {}, {} of {} (theta+ against theta-)",
        settings.name,
        settings.template,
        settings.experiment.variants[0],
        crate::plural(settings.iterations, "iteration"),
        crate::plural(settings.pairs, "game pair"),
    );
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let every = (settings.iterations / 10).max(1);
    let summary = run_tune(
        &settings,
        &TuneOptions {
            out_dir: out.clone(),
            threads: args.threads,
            fresh: args.fresh,
            shard,
        },
        |event: TuneEvent<'_>| match event {
            TuneEvent::Iteration(iteration) => {
                if iteration.number.is_multiple_of(every) || iteration.number == settings.iterations
                {
                    println!(
                        "  iteration {}/{}: {}",
                        iteration.number,
                        settings.iterations,
                        values(&settings, &iteration.theta)
                    );
                }
            }
            TuneEvent::Waiting {
                iteration,
                shards,
                waited,
            } => eprintln!(
                "  waiting {:.0} s for shard{} {} of {} to record iteration {iteration} \
                 (the shards of a tune run at the same time)",
                waited.as_secs_f64(),
                if shards.len() == 1 { "" } else { "s" },
                shards
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                shard.count,
            ),
        },
    )?;
    if let Some(aside) = &summary.moved_aside {
        println!("  (the old games were moved to {})", aside.display());
    }
    if summary.resumed > 0 {
        println!(
            "  resumed {} recorded; played {} in {:.1} s on {}",
            crate::plural(summary.resumed, "game"),
            summary.played,
            summary.wall.as_secs_f64(),
            crate::plural(summary.threads as u64, "thread"),
        );
    } else {
        println!(
            "  played {} in {:.1} s on {}",
            crate::plural(summary.played, "game"),
            summary.wall.as_secs_f64(),
            crate::plural(summary.threads as u64, "thread"),
        );
    }
    let trajectory = TuneTrajectory {
        title: format!(
            "SPSA {}: {} on {}, {} iterations of {} game pairs",
            settings.name,
            settings.experiment.agents[0].spec.kind,
            settings.experiment.variants[0],
            settings.iterations,
            settings.pairs
        ),
        params: settings
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| TuneSeries {
                name: p.name.clone(),
                min: p.min,
                max: p.max,
                values: std::iter::once(p.start)
                    .chain(summary.iterations.iter().map(|it| it.theta[i]))
                    .collect(),
                integer: p.integer,
            })
            .collect(),
        plus_score: summary
            .iterations
            .iter()
            .map(Iteration::plus_score)
            .collect(),
    };
    println!("games in {}", summary.csv.display());
    // The shards compute the same trajectory; shard 0 alone writes it and draws it.
    if shard.index == 0 {
        let files = draw_tune(&out, "tune", &trajectory)?;
        println!("trajectory in {}", summary.trajectory.display());
        println!("chart in {}", files[0].display());
    }
    if shard != Shard::WHOLE {
        println!(
            "when every shard is done: arena merge {}   (the games.csv of an unsharded tune)",
            out.display()
        );
    }
    println!("tuned: {}", values(&settings, &summary.theta));
    println!("tuned spec: {}", summary.spec);
    Ok(())
}
