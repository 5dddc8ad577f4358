//! `arena run` and `arena merge`: tournaments and their shards.

use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};
use arena::{Experiment, Progress, RunOptions, Shard};
use clap::Args;

/// `arena run [EXPERIMENT.toml]`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena run --out results/default-rerun --check-against results/default   # replay the committed sample and prove it\n  arena run                               # the built-in default experiment into results/default\n  arena run experiments/td4.toml --threads 2\n  arena run experiments/caro.toml --shard 0/4 --out results/caro   # one shard of four\n  arena run experiments/td4.toml --dry-run\n\nOne writer per results file: a second run into the same folder (same shard) fails at once,\nnaming the first one's PID. Rows already recorded are checked against the schedule and\nreplayed under the rules before the run resumes."
)]
pub struct RunArgs {
    /// The experiment file (TOML). Without it, the built-in default experiment
    /// (experiments/default.toml) runs.
    pub experiment: Option<PathBuf>,
    /// The output folder (default: results/<experiment name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: SLURM_CPUS_PER_TASK when set, else the experiment's
    /// `threads`, else all cores; at most 256). The CSV does not depend on it.
    #[arg(long, value_parser = arena::run::parse_threads)]
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
    /// When the run is complete, check it against another run of the same experiment (like
    /// the committed sample, results/default): identical outside the timing columns.
    #[arg(long, value_name = "DIR")]
    pub check_against: Option<PathBuf>,
}

pub(crate) fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

/// `arena merge DIR`.
#[derive(Debug, Args)]
#[command(
    after_help = "Example:\n  arena merge results/caro\n\nEvery row of every shard is checked against the experiment (the folder's experiment.toml,\nwhich arena run writes, or --experiment) and replayed under the rules before anything is\nwritten. Fails at once while a shard is still being played.\n\nThe folder of a sharded tune (arena tune --shard) merges into the games.csv and trajectory.csv\nan unsharded tune writes, each row checked against its iteration's specs."
)]
pub struct MergeArgs {
    /// The output folder holding the shard CSVs (games.shard-I-of-N.csv).
    pub dir: PathBuf,
    /// The experiment file to check the rows against (default: DIR/experiment.toml).
    #[arg(long, value_name = "FILE")]
    pub experiment: Option<PathBuf>,
    /// Do not write the report after merging.
    #[arg(long)]
    pub no_report: bool,
}

/// `arena slurm EXPERIMENT --shards N`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena slurm experiments/caro.toml --shards 16 --cpus-per-task 4 --time 02:00:00\n  arena slurm experiments/caro.toml --shards 16 --partition short --submit\n  arena slurm experiments/tune-mcts-c-9x9.toml --shards 4 --cpus-per-task 2\n\nWithout --submit, submit later with: sh <out>/slurm/submit.sh\n\nA tune file (arena tune's) becomes one job of N tasks started together (tune.sbatch), each\nrunning arena tune --shard I/N, since a tune's shards wait for each other every iteration."
)]
pub struct SlurmArgs {
    /// The experiment file (TOML), or a tune file (`arena tune`'s).
    pub experiment: PathBuf,
    /// The number of shards: one array task each (for a tune, one task of one job each).
    #[arg(long)]
    pub shards: u32,
    /// The output folder (default: results/<experiment name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The Slurm partition.
    #[arg(long)]
    pub partition: Option<String>,
    /// The time limit of each task, in Slurm's format (like 01:30:00).
    #[arg(long)]
    pub time: Option<String>,
    /// CPUs per task: the worker threads of each shard.
    #[arg(long, default_value_t = 1)]
    pub cpus_per_task: u32,
    /// Submit the array and the merge job with sbatch and print their job ids.
    #[arg(long)]
    pub submit: bool,
}

/// `arena slurm`: writes the job scripts, and submits them with `--submit`.
pub fn slurm(args: SlurmArgs) -> Result<()> {
    let tune = if arena::tune::is_tune_file(&args.experiment) {
        Some(arena::tune::TuneSettings::from_file(&args.experiment)?)
    } else {
        None
    };
    let experiment = match &tune {
        Some(tune) => tune.experiment.clone(),
        None => load_experiment(Some(&args.experiment))?,
    };
    if experiment.submissions.is_some() {
        bail!(
            "a class's submissions are built and checked once for the whole run: play it with \
             `arena run`, not in Slurm shards"
        );
    }
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| experiment.default_out_dir());
    let arena_binary = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .unwrap_or_else(|_| PathBuf::from("arena"));
    let options = arena::slurm::SlurmOptions {
        shards: args.shards,
        out_dir: out_dir.clone(),
        partition: args.partition.clone(),
        time: args.time.clone(),
        cpus_per_task: args.cpus_per_task,
        arena_binary,
    };
    // Checked before anything is written.
    let files = match &tune {
        Some(tune) => arena::slurm::tune_scripts(tune, &options),
        None => arena::slurm::scripts(&experiment, &options),
    }
    .map_err(anyhow::Error::msg)?;
    let dir = out_dir.join("slurm");
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the folder `{}`", dir.display()))?;
    for (name, content, executable) in files {
        let path = dir.join(&name);
        std::fs::write(&path, content)
            .with_context(|| format!("cannot write `{}`", path.display()))?;
        if executable {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .with_context(|| format!("cannot make `{}` executable", path.display()))?;
        }
        println!("wrote {}", path.display());
    }
    if !args.submit {
        println!("submit with: sh {}", dir.join("submit.sh").display());
        return Ok(());
    }
    let first = if tune.is_some() {
        "tune.sbatch"
    } else {
        "array.sbatch"
    };
    let array = sbatch(&[dir.join(first).display().to_string()])?;
    println!(
        "{} job: {array}",
        if tune.is_some() { "tune" } else { "array" }
    );
    let merge = sbatch(&[
        format!("--dependency=afterok:{array}"),
        dir.join("merge.sbatch").display().to_string(),
    ])?;
    println!("merge job: {merge}");
    Ok(())
}

/// Runs `sbatch --parsable ARGS` and returns the job id.
fn sbatch(args: &[String]) -> Result<String> {
    let output = std::process::Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .context("cannot run sbatch (is Slurm installed and on the PATH?)")?;
    if !output.status.success() {
        anyhow::bail!(
            "sbatch {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&output.stdout);
    // `--parsable` prints `jobid` or `jobid;cluster`.
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        anyhow::bail!("sbatch printed `{}`, not a job id", text.trim());
    }
    Ok(id)
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
    let mut experiment = load_experiment(args.experiment.as_ref())?;
    if args.dry_run {
        return dry_run(&experiment);
    }
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| experiment.default_out_dir());
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    if args.check_against.is_some() && shard != Shard::WHOLE {
        bail!(
            "--check-against compares whole runs; merge the shards, then `arena verify DIR --against OTHER`"
        );
    }
    if experiment.submissions.is_some() {
        if shard != Shard::WHOLE {
            bail!(
                "a class's submissions are built and checked once for the whole run: run it \
                 without --shard"
            );
        }
        let admission = arena::admission::admit(&experiment, &out_dir, args.fresh)?;
        print_admissions(&admission, &out_dir);
        experiment = admission.experiment;
    }
    if experiment.depends_on_timing() {
        eprintln!(
            "note: this experiment has a time control or time-budgeted agents, so a rerun will \
             not reproduce its results exactly (its schedule and seeds, yes)"
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
    if !summary.sandbox_missing.is_empty() {
        println!(
            "sandbox (best-effort): outside agents ran without {} (see `arena sandbox`)",
            summary.sandbox_missing.join(", ")
        );
    }
    if summary.cut_partial_line {
        println!("dropped a half-written last line (a killed run); that game was played again");
    }
    let wall = summary.wall.as_secs_f64();
    println!(
        "{}: {} in shard {} ({} recorded before, {} played now) in {:.1} s on {} ({:.2} games/s)",
        experiment.name,
        crate::plural(summary.games, "game"),
        shard,
        summary.resumed,
        summary.played,
        wall,
        crate::plural(summary.threads as u64, "thread"),
        summary.played as f64 / wall.max(1e-9)
    );
    if summary.faults.is_empty() {
        println!("faults: none");
    } else {
        println!(
            "faults (crash / illegal move / timeout), details in {}:",
            summary.csv.with_extension("faults.log").display()
        );
        // What agents wrote is shown with its control characters escaped.
        let shown = protocol::line::escape;
        for (agent, [crash, illegal, timeout]) in &summary.faults {
            println!("  {}: {crash} / {illegal} / {timeout}", shown(agent));
            let reasons = summary
                .fault_reasons
                .get(agent)
                .map(Vec::as_slice)
                .unwrap_or_default();
            // The most frequent kinds of fault, each with its first message.
            let mut reasons: Vec<_> = reasons.iter().collect();
            reasons.sort_by_key(|r| std::cmp::Reverse(r.count));
            const SHOWN: usize = 4;
            for reason in reasons.iter().take(SHOWN) {
                println!("    {} x {}", reason.count, shown(&reason.example));
            }
            if reasons.len() > SHOWN {
                println!("    ... and {} more kinds of fault", reasons.len() - SHOWN);
            }
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
    if let Some(other) = &args.check_against {
        // Every row checked against the schedule and the rules, then against the other run.
        let verified = arena::verify(&out_dir, Some(&experiment))?;
        println!();
        println!(
            "verified: {} games, each the game the schedule says, replaying to its result",
            crate::verify_cmd::thousands(verified.games)
        );
        println!("verified: {}", crate::verify_cmd::against(&out_dir, other)?);
    }
    Ok(())
}

/// The table of a class's submissions: built, passed, or excluded with the reason and the
/// last lines of its log.
fn print_admissions(admission: &arena::admission::Admission, out_dir: &std::path::Path) {
    let rows = &admission.rows;
    let passed = rows.iter().filter(|r| r.passed()).count();
    println!(
        "submissions: {passed} of {} passed{}",
        rows.len(),
        if admission.resumed {
            " (as recorded when this run began; nothing built again)"
        } else {
            ""
        }
    );
    let shown = protocol::line::escape;
    let width = rows
        .iter()
        .map(|r| r.folder.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    println!(
        "  {:<width$}  {:<8}  {:<8}  agent / why excluded",
        "folder", "build", "status"
    );
    for row in rows {
        let what = if row.passed() {
            row.name.clone()
        } else {
            row.reason.clone()
        };
        println!(
            "  {:<width$}  {:<8}  {:<8}  {}",
            row.folder,
            row.build,
            row.status,
            shown(&what)
        );
        if !row.passed() && !row.log.is_empty() {
            let log = out_dir.join(&row.log);
            println!("  {:<width$}  log: {}", "", log.display());
            for line in protocol::compile::tail(&log, 3) {
                println!("  {:<width$}  | {line}", "");
            }
        }
    }
    println!();
}

fn dry_run(experiment: &Experiment) -> Result<()> {
    let totals = arena::run::variant_totals(experiment);
    let total: u64 = totals.iter().map(|t| t.0).sum();
    let per_seating = if experiment.variants.iter().any(|v| v.players() > 2) {
        " (per seat order for 3-4 players)"
    } else {
        ""
    };
    println!(
        "{}: {}, {}, {} per pair{per_seating}, {}",
        experiment.name,
        crate::plural(experiment.variants.len() as u64, "variant"),
        crate::plural(experiment.agents.len() as u64, "agent"),
        crate::plural(experiment.games_per_pair, "game"),
        crate::plural(total, "game")
    );
    if experiment.format == arena::experiment::Format::Gauntlet {
        let field = experiment.agents.iter().filter(|a| a.field).count() as u64;
        println!(
            "a gauntlet: {} against a field of {} (field = true), never entrant against entrant",
            crate::plural(experiment.agents.len() as u64 - field, "entrant"),
            crate::plural(field, "agent")
        );
    }
    // Groups are made one by one: a schedule of millions of groups prints without holding them.
    let mut groups = arena::schedule_table(experiment).peekable();
    for (v, variant) in experiment.variants.iter().enumerate() {
        let (games, count) = totals[v];
        let kind = match variant.players() {
            2 => crate::plural(count, "pair"),
            n => format!(
                "{} of {n} (each in its {n} seat orders)",
                crate::plural(count, "group")
            ),
        };
        println!("{variant}: {} in {kind}", crate::plural(games, "game"));
        while let Some((_, names, n)) = groups.next_if(|group| group.0 == v) {
            println!("  {}: {n}", names.join(" vs "));
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
    if args.dir.join(arena::tune::TUNE_FILE).is_file() && args.experiment.is_none() {
        return merge_tune(&args);
    }
    let experiment = args
        .experiment
        .as_ref()
        .map(|path| Experiment::from_file(path))
        .transpose()?;
    let summary = arena::merge_with(&args.dir, experiment.as_ref())?;
    if let Some(aside) = &summary.moved_aside {
        println!(
            "moved the games.csv that was there aside to {} (it was not this merge)",
            aside.display()
        );
    }
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

/// `arena merge` on the folder of a sharded tune (`arena tune --shard`): the games.csv and
/// trajectory an unsharded tune writes; a tune has no report.
fn merge_tune(args: &MergeArgs) -> Result<()> {
    let merged = arena::tune::merge(&args.dir)?;
    if let Some(aside) = &merged.moved_aside {
        println!(
            "moved the games.csv that was there aside to {} (it was not this merge)",
            aside.display()
        );
    }
    println!(
        "merged {} games of the tune's {} shards into {}",
        merged.games,
        merged.shards,
        merged.csv.display()
    );
    println!("tuned spec: {}", merged.spec);
    Ok(())
}

/// Writes the report of `csv` into `out_dir`, saying so on stderr first and how long it took
/// after: for a large pool it takes a while after the last game, which would look like a hang.
fn write_report(csv: &std::path::Path, out_dir: &std::path::Path) -> Result<()> {
    println!();
    eprintln!(
        "report: writing {} and its charts ...",
        out_dir.join("report.md").display()
    );
    let started = std::time::Instant::now();
    crate::report_cmd::run(crate::report_cmd::ReportArgs {
        csv: vec![csv.to_path_buf()],
        out: Some(out_dir.to_path_buf()),
        anchor: None,
        intervals: report::Intervals::Profile,
        bootstrap: 1000,
        seed: 1,
        drop_duplicates: false,
    })?;
    eprintln!(
        "report: written in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
