//! Batch scripts for running one experiment as a Slurm job array.
//!
//! `arena slurm` writes, into `<out>/slurm/`: a copy of the experiment, `array.sbatch` (one
//! array task per shard, each running `arena run --shard $SLURM_ARRAY_TASK_ID/N`),
//! `merge.sbatch` (`arena merge`, which also writes the report) and `submit.sh`, which submits
//! the array and then the merge with `--dependency=afterok:<array job>`. The scripts work from
//! the folder they were submitted in (`$SLURM_SUBMIT_DIR`), so the whole output folder can be
//! copied to a cluster by hand and submitted there with `sh <out>/slurm/submit.sh`.
//!
//! For a tune file ([`tune_scripts`]) the shards are the tasks of one job instead of an array,
//! so that they run at the same time: each waits for the others' games every iteration.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::experiment::Experiment;
use crate::schedule::Schedule;
use crate::tune::TuneSettings;

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
    let parts = Parts::new(options);
    let name = &experiment.name;
    let n = options.shards;
    let experiment_copy = shell_quote(&options.out_dir.join("slurm").join("experiment.toml"));
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
        common = parts.common,
        logs = parts.logs,
        prelude = parts.prelude,
        out = parts.out,
    );
    Ok(vec![
        ("experiment.toml".into(), experiment.text.clone(), false),
        ("array.sbatch".into(), array, true),
        ("merge.sbatch".into(), parts.merge(name, "shards"), true),
        ("submit.sh".into(), parts.submit(name, "array.sbatch"), true),
    ])
}

/// The generated files of a tune (`arena slurm TUNE_FILE`): `tune.sbatch` is one job of
/// `shards` tasks started together (`srun`), task `I` running `arena tune --shard I/N`, since
/// the shards of a tune wait for each other's games every iteration (an array's tasks may run
/// one after another); `merge.sbatch` and `submit.sh` as for a run.
pub fn tune_scripts(
    settings: &TuneSettings,
    options: &SlurmOptions,
) -> Result<Vec<(String, String, bool)>, String> {
    check(&settings.experiment, options)?;
    let per = settings.games_per_iteration();
    if u64::from(options.shards) > per {
        return Err(format!(
            "--shards {}: give 1 to {per} (the shards of a tune share each iteration's {per} \
             games; more would wait idle)",
            options.shards
        ));
    }
    let parts = Parts::new(options);
    let name = &settings.name;
    let n = options.shards;
    let cpus = options.cpus_per_task;
    let tune_copy = shell_quote(&options.out_dir.join("slurm").join("tune.toml"));
    let tune = format!(
        "#!/bin/bash\n\
         # Generated by `arena slurm`: tune `{name}` as {n} shards, the {n} tasks of one job\n\
         # started together: after its games of an iteration each shard waits for the others'\n\
         # in the shared folder. Task I plays the games whose index is I modulo {n}; a job\n\
         # that is rerun resumes every shard.\n\
         #SBATCH --job-name=arena-tune-{name}\n\
         #SBATCH --ntasks={n}\n\
         {common}\
         #SBATCH --output={logs}/tune.log\n\
         {prelude}\
         exec srun --kill-on-bad-exit=1 --ntasks={n} --cpus-per-task={cpus} bash -c \
         'exec \"$0\" tune \"$1\" --out \"$2\" --threads {cpus} --shard \"$SLURM_PROCID/{n}\"' \
         \"$ARENA\" {tune_copy} {out}\n",
        common = parts.common,
        logs = parts.logs,
        prelude = parts.prelude,
        out = parts.out,
    );
    Ok(vec![
        ("tune.toml".into(), settings.text.clone(), false),
        ("tune.sbatch".into(), tune, true),
        (
            "merge.sbatch".into(),
            parts.merge(name, "shards of the tune"),
            true,
        ),
        ("submit.sh".into(), parts.submit(name, "tune.sbatch"), true),
    ])
}

/// What the scripts of a run and of a tune share.
struct Parts<'a> {
    options: &'a SlurmOptions,
    /// The output folder, quoted.
    out: String,
    /// The folder of the scripts and their logs.
    logs: String,
    /// The `#SBATCH` lines of every task: CPUs, time, partition.
    common: String,
    /// The shell lines that find the folder and the binary.
    prelude: String,
}

impl Parts<'_> {
    fn new(options: &SlurmOptions) -> Parts<'_> {
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
        Parts {
            options,
            out: shell_quote(&options.out_dir),
            logs: options.out_dir.join("slurm").display().to_string(),
            common,
            prelude,
        }
    }

    /// `merge.sbatch`: `arena merge` of the output folder (`what`: what it merges).
    fn merge(&self, name: &str, what: &str) -> String {
        let options = self.options;
        format!(
            "#!/bin/bash\n\
             # Generated by `arena slurm`: merges the {n} {what} of `{name}` into games.csv\n\
             # (and a run's report). Submit it with --dependency=afterok:<the first job's id>.\n\
             #SBATCH --job-name=arena-{name}-merge\n\
             #SBATCH --cpus-per-task={cpus}\n\
             {time}{partition}\
             #SBATCH --output={logs}/merge.log\n\
             {prelude}\
             exec \"$ARENA\" merge {out}\n",
            n = options.shards,
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
            logs = self.logs,
            prelude = self.prelude,
            out = self.out,
        )
    }

    /// `submit.sh`: submits `first` (the shards), then the merge once it has succeeded.
    fn submit(&self, name: &str, first: &str) -> String {
        let dir = shell_quote(&self.options.out_dir.join("slurm"));
        format!(
            "#!/bin/sh\n\
             # Generated by `arena slurm`: submits the shards of `{name}` ({first}), then the\n\
             # merge as a job that starts when every shard has succeeded. Run it from the folder\n\
             # that holds {out}.\n\
             set -eu\n\
             array=$(sbatch --parsable {dir}/{first})\n\
             array=${{array%%;*}}\n\
             merge=$(sbatch --parsable --dependency=afterok:\"$array\" {dir}/merge.sbatch)\n\
             merge=${{merge%%;*}}\n\
             echo \"{label} job: $array\"\n\
             echo \"merge job: $merge\"\n",
            out = self.out,
            label = if first == "tune.sbatch" {
                "tune"
            } else {
                "array"
            },
        )
    }
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
