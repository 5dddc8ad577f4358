//! `arena fit`: the m,n,k pattern weights fitted to game results, from positions files
//! (`arena::fit`: Texel-style logistic fitting).

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

Reads positions files of one m,n,k variant (`arena positions`), computes each position's line
pattern counts from the side to move's view, fits the scale of the logistic curve for the
current weights, then the weights of the eight patterns for that scale (cross-entropy against
the side to move's final score, Newton's method, a ridge towards the current weights), and
writes them with the losses before and after, on training and held-out games, as TOML. The
seed only splits the games: the same files and seed give the same weights.")]
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
    /// Replaces FILE if it exists.
    #[arg(long)]
    pub force: bool,
    /// Fits a weight per cell class (a cell's four patterns as a multiset) for each side
    /// instead of the eight pattern weights.
    #[arg(long)]
    pub cells: bool,
}

/// `arena fit`.
pub fn fit(args: FitArgs) -> Result<()> {
    if args.out.exists() && !args.force {
        bail!(
            "`{}` exists: give another --out, or --force to replace it",
            args.out.display()
        );
    }
    if args.cells {
        let fitted =
            arena::fit_cells::fit_cells(&args.positions, args.seed, args.validation, args.ridge)?;
        let text = fitted.to_toml(args.seed, args.ridge);
        std::fs::write(&args.out, &text)
            .with_context(|| format!("cannot write `{}`", args.out.display()))?;
        println!("{}", args.out.display());
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
