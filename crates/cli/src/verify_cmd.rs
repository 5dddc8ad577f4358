//! `arena verify`: every recorded row checked against the schedule and replayed under the
//! rules, and optionally compared with another run of the same experiment.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use arena::{Experiment, Shard};
use clap::Args;

/// `arena verify DIR [--against DIR] [--experiment FILE]`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  arena verify results/default
  arena verify results/default-rerun --against results/default
  arena verify results/play            # a play record: every game replayed

Checks each row of DIR's games.csv (or of its shard CSVs): it must be the game the schedule
gives its index (variant, agents and seats, seed, specs), its moves must begin with the game's
random opening and replay under the rules to the recorded termination, result, plies and
scores. A play record (results/play, or the file itself) has no schedule: each row's moves
replay from the start to its termination (a resignation included) and result. Takes no lock: a run may be writing meanwhile. With --against, the two CSVs must also
be identical outside the timing columns. Exits non-zero on the first problem, naming the file,
the line and the column.")]
pub struct VerifyArgs {
    /// The results folder (holding games.csv, its meta file and experiment.toml), or a play
    /// record (its folder or the CSV itself).
    pub dir: PathBuf,
    /// Another run of the same experiment to compare with, outside the timing columns.
    #[arg(long, value_name = "DIR")]
    pub against: Option<PathBuf>,
    /// The experiment file to check against (default: DIR/experiment.toml, which `arena run`
    /// writes).
    #[arg(long, value_name = "FILE")]
    pub experiment: Option<PathBuf>,
}

/// `arena verify` on the folder of a tune (`arena tune`): its rows hold each iteration's specs,
/// which follow from the tune file and the rows before them.
fn verify_tune(args: &VerifyArgs) -> Result<()> {
    let check = arena::tune::verify(&args.dir)?;
    println!(
        "{}: {} of {} games of the tune ({} iterations complete): every row is the game the \
         schedule says, played with its iteration's specs, and replays to its recorded result",
        check.csv.display(),
        thousands(check.games),
        thousands(check.total),
        thousands(check.iterations)
    );
    println!("spec after them: {}", check.spec);
    if let Some(other) = &args.against {
        println!("{}", against(&args.dir, other)?);
    }
    if check.games < check.total {
        bail!(
            "incomplete: {} of {} games recorded",
            thousands(check.games),
            thousands(check.total)
        );
    }
    Ok(())
}

/// `1020` as `1,020`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `arena verify`.
pub fn verify(args: VerifyArgs) -> Result<()> {
    if args.dir.join(arena::tune::TUNE_FILE).is_file() && args.experiment.is_none() {
        return verify_tune(&args);
    }
    let experiment = args
        .experiment
        .as_ref()
        .map(|path| Experiment::from_file(path))
        .transpose()?;
    let summary = arena::verify(&args.dir, experiment.as_ref())?;
    let files: Vec<String> = summary
        .files
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    if summary.partial_line {
        println!(
            "(left out a half-written last line: a run is writing {})",
            files.join(", ")
        );
    }
    if summary.played {
        println!(
            "{}: {} games of the play record: every row replays under the rules to its \
             recorded result",
            files.join(", "),
            thousands(summary.games)
        );
    } else if summary.complete() {
        println!(
            "{}: {} games of experiment `{}`: every row is the game the schedule says and \
             replays to its recorded result",
            args.dir.display(),
            thousands(summary.games),
            summary.experiment
        );
    } else {
        println!(
            "{}: {} of the {} games of experiment `{}` recorded so far: every row is the game \
             the schedule says and replays to its recorded result",
            args.dir.display(),
            thousands(summary.games),
            thousands(summary.scheduled),
            summary.experiment
        );
    }
    if let Some(other) = &args.against {
        if !summary.complete() {
            bail!(
                "{} is not complete ({} of {} games), so it cannot be identical to {}",
                args.dir.display(),
                thousands(summary.games),
                thousands(summary.scheduled),
                other.display()
            );
        }
        println!("{}", against(&args.dir, other)?);
    }
    Ok(())
}

/// Compares the finished run in `dir` with the one in `other` (same experiment) outside the
/// timing columns: `1,020 games, identical to results/default outside timing columns`, or an
/// error naming the first difference.
pub fn against(dir: &Path, other: &Path) -> Result<String> {
    let name = Shard::WHOLE.csv_name();
    let (ours, theirs) = (dir.join(&name), other.join(&name));
    let hash = |csv: &Path| -> Result<String> {
        match arena::meta::Meta::read(csv)? {
            Some(meta) => Ok(meta.experiment_hash),
            None => bail!(
                "`{}` has no meta file next to it: not a run of `arena run`",
                csv.display()
            ),
        }
    };
    let (a, b) = (hash(&ours)?, hash(&theirs)?);
    if a != b {
        bail!(
            "{} and {} are runs of different experiments (hash {a} and {b}): nothing to compare",
            dir.display(),
            other.display()
        );
    }
    let comparison = arena::compare(&ours, &theirs)?;
    match comparison.difference {
        None => Ok(format!(
            "{} games, identical to {} outside timing columns",
            thousands(comparison.games),
            other.display()
        )),
        Some(difference) => bail!(
            "{} differs from {} outside the timing columns: {difference}",
            ours.display(),
            theirs.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1020), "1,020");
        assert_eq!(thousands(1_000_000_000), "1,000,000,000");
    }
}
