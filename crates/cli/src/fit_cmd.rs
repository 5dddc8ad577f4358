//! `arena fit`: the m,n,k pattern weights fitted to game results, from positions files
//! (`arena::fit`: Texel-style logistic fitting), or with `--ordering` the move ordering of
//! `threat`'s alpha-beta fitted to the moves played (`agents::games::mnk::policy`).

use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};
use clap::Args;

use crate::verify_cmd::thousands;

/// `arena fit POSITIONS... --out FILE`.
#[derive(Debug, Args)]
#[command(after_help = "\
Example:
  arena positions results/strength-gomoku-alphabeta --out gomoku.npz
  arena fit gomoku.npz --seed 1 --out gomoku-weights.toml
  arena fit gomoku.npz --ordering --seed 1 --validation 0.1 --out policy-freestyle.txt

Reads positions files of one m,n,k variant (`arena positions`), computes each position's line
pattern counts from the side to move's view, fits the scale of the logistic curve for the
current weights, then the weights of the eight patterns for that scale (cross-entropy against
the side to move's final score, Newton's method, a ridge towards the current weights), and
writes them with the losses before and after, on training and held-out games, as TOML. The
seed only splits the games: the same files and seed give the same weights.

With --ordering it fits instead the move ordering of `threat`'s alpha-beta: a weight for each
class of a cell's four line patterns (as a multiset, 495 classes), for the side to move and
for the opponent, so that in each position where nothing forces the move the move played
ranks first (a conditional logit, 300 steps of full-batch Adam from zero: deterministic). It
writes the table `threat` reads (crates/agents/src/games/mnk/policy-RULE.txt), with how often
the built-in and the fitted ordering put the move played first, in the first three, and among
the cells a search looks at, on training and held-out games.")]
pub struct FitArgs {
    /// Positions files (`arena positions --out`), all of one m,n,k variant.
    #[arg(required = true, value_name = "POSITIONS")]
    pub positions: Vec<PathBuf>,
    /// The weights file to write (TOML).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The seed of the split into training and validation games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The share of the games held out for validation (0 to less than 1).
    #[arg(long, default_value_t = 0.2)]
    pub validation: f64,
    /// How strongly each weight is pulled towards its current value (relative to its size).
    #[arg(long, default_value_t = 0.001)]
    pub ridge: f64,
    /// Fits `threat`'s move ordering to the moves played, not the evaluation to the results.
    #[arg(long)]
    pub ordering: bool,
    /// Replaces FILE if it exists.
    #[arg(long)]
    pub force: bool,
}

/// `arena fit`.
pub fn fit(args: FitArgs) -> Result<()> {
    if args.out.exists() && !args.force {
        bail!(
            "`{}` exists: give another --out, or --force to replace it",
            args.out.display()
        );
    }
    if args.ordering {
        let fitted = arena::fit::fit_ordering(&args.positions, args.seed, args.validation)?;
        let text = fitted.to_text(&args.positions, args.seed, args.validation);
        std::fs::write(&args.out, &text)
            .with_context(|| format!("cannot write the ordering to `{}`", args.out.display()))?;
        println!(
            "{}: the move ordering of `{}` fitted to {} positions ({} held out)",
            args.out.display(),
            fitted.variant,
            thousands(fitted.before[0].positions as u64),
            thousands(fitted.before[1].positions as u64)
        );
        for line in text.lines().take_while(|l| l.starts_with('#')) {
            println!("{}", line.trim_start_matches("# "));
        }
        return Ok(());
    }
    let fitted = arena::fit::fit(&args.positions, args.seed, args.validation, args.ridge)?;
    let text = fitted.to_toml(&args.positions, args.seed, args.ridge);
    std::fs::write(&args.out, &text)
        .with_context(|| format!("cannot write the weights to `{}`", args.out.display()))?;
    println!(
        "{}: weights of `{}` fitted to {} positions ({} held out)",
        args.out.display(),
        fitted.variant,
        thousands(fitted.training as u64),
        thousands(fitted.validation as u64)
    );
    print!("{text}");
    Ok(())
}
