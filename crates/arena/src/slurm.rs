//! Batch scripts for running one experiment as a Slurm job array.
//!
//! `arena slurm` writes, into `<out>/slurm/`: a copy of the experiment, `array.sbatch` (one
//! array task per shard, each running `arena run --shard $SLURM_ARRAY_TASK_ID/N`),
//! `merge.sbatch` (`arena merge`, which also writes the report) and `submit.sh`, which submits
//! the array and then the merge with `--dependency=afterok:<array job>`. The scripts work from
//! the folder they were submitted in (`$SLURM_SUBMIT_DIR`), so the whole output folder can be
//! copied to a cluster by hand and submitted there with `sh <out>/slurm/submit.sh`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::experiment::Experiment;
use crate::schedule::Schedule;

/// What the job scripts ask of the scheduler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmOptions {
    /// The number of shards (array tasks).
    pub shards: u32,
    /// The output folder, as the scripts will see it from the submit folder.
    pub out_dir: PathBuf,
    /// `--partition`, if any.
    pub partition: Option<String>,
    /// `--time` per task, in Slurm's format (`HH:MM:SS`, `D-HH:MM`), if any.
    pub time: Option<String>,
    /// `--cpus-per-task`: the worker threads of each shard.
    pub cpus_per_task: u32,
    /// The `arena` binary the scripts call by default (`$ARENA` overrides it).
    pub arena_binary: PathBuf,
}

/// Checks what goes into the scripts: every value lands in a `#SBATCH` line or a shell line,
/// so a newline or a character Slurm does not take there is refused rather than written; and
/// every shard must have a game (no more shards than games).
pub fn check(experiment: &Experiment, options: &SlurmOptions) -> Result<(), String> {
    let games = Schedule::new(experiment).len();
    if options.shards == 0 || u64::from(options.shards) > games {
        return Err(format!(
            "--shards {}: give 1 to {games} (the experiment has {games} games, and each shard \
             plays at least one)",
            options.shards
        ));
    }
    if options.cpus_per_task == 0 || options.cpus_per_task as usize > crate::experiment::MAX_THREADS
    {
        return Err(format!(
            "--cpus-per-task {}: give 1 to {} (the worker threads of each shard)",
            options.cpus_per_task,
            crate::experiment::MAX_THREADS
        ));
    }
    if let Some(partition) = &options.partition
        && (partition.is_empty()
            || !partition
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.,".contains(c)))
    {
        return Err(format!(
            "--partition `{}`: a partition name (or a comma-separated list of them) holds \
             letters, digits, `-`, `_` and `.`",
            partition.escape_debug()
        ));
    }
    if let Some(time) = &options.time
        && !is_slurm_time(time)
    {
        return Err(format!(
            "--time `{}`: give a time in Slurm's format: MINUTES, MINUTES:SECONDS, \
             HOURS:MINUTES:SECONDS, DAYS-HOURS, DAYS-HOURS:MINUTES or DAYS-HOURS:MINUTES:SECONDS \
             (like 01:30:00), or UNLIMITED",
            time.escape_debug()
        ));
    }
    for (what, path) in [
        ("the output folder", &options.out_dir),
        ("the arena binary's path", &options.arena_binary),
    ] {
        let text = path.display().to_string();
        if text.chars().any(|c| c.is_control() || "\"$`\\".contains(c)) {
            return Err(format!(
                "{what} `{}` holds a control character, a quote, `$`, a backquote or a \
                 backslash, which a job script cannot hold safely: choose another",
                text.escape_debug()
            ));
        }
    }
    Ok(())
}

/// Whether `text` is a time limit in one of Slurm's formats.
fn is_slurm_time(text: &str) -> bool {
    if ["unlimited", "infinite"].contains(&text.to_ascii_lowercase().as_str()) {
        return true;
    }
    let number = |part: &str| {
        !part.is_empty() && part.len() <= 6 && part.bytes().all(|b| b.is_ascii_digit())
    };
    let (days, clock) = match text.split_once('-') {
        Some((days, clock)) => (Some(days), clock),
        None => (None, text),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    // MINUTES[:SECONDS], HOURS:MINUTES:SECONDS, or DAYS-HOURS[:MINUTES[:SECONDS]].
    days.is_none_or(number) && parts.len() <= 3 && parts.iter().all(|p| number(p))
}

/// The generated files: (file name inside `<out>/slurm/`, content, executable), once
/// [`check`] has passed.
pub fn scripts(
    experiment: &Experiment,
    options: &SlurmOptions,
) -> Result<Vec<(String, String, bool)>, String> {
    check(experiment, options)?;
    let out = shell_quote(&options.out_dir);
    let slurm_dir = options.out_dir.join("slurm");
    let experiment_copy = shell_quote(&slurm_dir.join("experiment.toml"));
    let name = &experiment.name;
    let n = options.shards;
    let mut common = String::new();
    let _ = writeln!(common, "#SBATCH --cpus-per-task={}", options.cpus_per_task);
    if let Some(time) = &options.time {
        let _ = writeln!(common, "#SBATCH --time={time}");
    }
    if let Some(partition) = &options.partition {
        let _ = writeln!(common, "#SBATCH --partition={partition}");
    }
    let prelude = format!(
        "set -euo pipefail\n\
         # Paths are relative to the folder the job was submitted from.\n\
         cd \"${{ARENA_WORKDIR:-${{SLURM_SUBMIT_DIR:-.}}}}\"\n\
         ARENA=\"${{ARENA:-{binary}}}\"\n\
         if [ ! -x \"$ARENA\" ]; then ARENA=\"$(command -v arena)\"; fi\n",
        binary = options.arena_binary.display()
    );
    let log_dir = options.out_dir.join("slurm");
    let array = format!(
        "#!/bin/bash\n\
         # Generated by `arena slurm`: experiment `{name}` as {n} shards, one array task each.\n\
         # Each task plays the games whose index is its task id modulo {n}; threads follow\n\
         # --cpus-per-task (SLURM_CPUS_PER_TASK). A task that is rerun resumes its shard.\n\
         #SBATCH --job-name=arena-{name}\n\
         #SBATCH --array=0-{last}\n\
         {common}\
         #SBATCH --output={logs}/shard-%a.log\n\
         {prelude}\
         exec \"$ARENA\" run {experiment_copy} --out {out} --shard \"${{SLURM_ARRAY_TASK_ID}}/{n}\" --no-report\n",
        last = n - 1,
        logs = log_dir.display(),
    );
    let merge = format!(
        "#!/bin/bash\n\
         # Generated by `arena slurm`: merges the {n} shards of `{name}` into games.csv and\n\
         # writes the report. Submit it with --dependency=afterok:<array job id>.\n\
         #SBATCH --job-name=arena-{name}-merge\n\
         #SBATCH --cpus-per-task={cpus}\n\
         {time}{partition}\
         #SBATCH --output={logs}/merge.log\n\
         {prelude}\
         exec \"$ARENA\" merge {out}\n",
        cpus = options.cpus_per_task,
        time = options
            .time
            .as_ref()
            .map(|t| format!("#SBATCH --time={t}\n"))
            .unwrap_or_default(),
        partition = options
            .partition
            .as_ref()
            .map(|p| format!("#SBATCH --partition={p}\n"))
            .unwrap_or_default(),
        logs = log_dir.display(),
    );
    let submit = format!(
        "#!/bin/sh\n\
         # Generated by `arena slurm`: submits the shards of `{name}` as a job array, then the\n\
         # merge as a job that starts when every shard has succeeded. Run it from the folder\n\
         # that holds {out}.\n\
         set -eu\n\
         array=$(sbatch --parsable {dir}/array.sbatch)\n\
         array=${{array%%;*}}\n\
         merge=$(sbatch --parsable --dependency=afterok:\"$array\" {dir}/merge.sbatch)\n\
         merge=${{merge%%;*}}\n\
         echo \"array job: $array\"\n\
         echo \"merge job: $merge\"\n",
        dir = shell_quote(&slurm_dir),
    );
    Ok(vec![
        ("experiment.toml".into(), experiment.text.clone(), false),
        ("array.sbatch".into(), array, true),
        ("merge.sbatch".into(), merge, true),
        ("submit.sh".into(), submit, true),
    ])
}

/// Quotes a path for a POSIX shell when it needs it.
fn shell_quote(path: &Path) -> String {
    let text = path.display().to_string();
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+=:".contains(c))
    {
        text
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
