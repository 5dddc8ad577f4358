//! `arena positions`: the positions of recorded games, with their moves and results, as an
//! `.npz` file for learning (`arena::positions`; the format: docs/src/reference/positions.md).

use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};
use arena::positions::{ExportOptions, Sample};
use clap::Args;

use crate::games_cmd::parse_variant;
use crate::plural;
use crate::verify_cmd::thousands;

/// `arena positions INPUT... --out FILE`.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  arena positions results/strength-gomoku-alphabeta --out gomoku.npz
  arena positions results/sprt-gomoku results/play --variant gomoku --per-game 8 --seed 1 --out g.npz
  arena positions results/default --variant tictactoe --dedup --min-ply 2 --out ttt.npz

Every input is checked as `arena verify` checks it (each row the game its schedule says, its
moves replaying to its result) before a position is taken from it. Each position is the
position before a recorded move, with that move, the side to move, the ply and the game's
final result (the side to move's score and every seat's); games a fault ended are left out.
One variant a file. Python reads it in one call: arenagames.load_positions(FILE).
The format: docs/src/reference/positions.md.")]
pub struct PositionsArgs {
    /// Results folders (`arena run`, `arena sprt`) or play records (a folder or the CSV).
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The `.npz` file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The variant to export (required when the records hold several).
    #[arg(long, value_name = "ID")]
    pub variant: Option<String>,
    /// At most N positions of each game, drawn at random (seeded).
    #[arg(long, value_name = "N", conflicts_with = "fraction")]
    pub per_game: Option<u32>,
    /// Each position with probability F (more than 0, at most 1; seeded).
    #[arg(long, value_name = "F")]
    pub fraction: Option<f64>,
    /// The seed of the sampling.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Leaves out a position seen before, equal up to a symmetry of the board where the game
    /// has symmetries (the first one read is kept, with its game's move and result).
    #[arg(long)]
    pub dedup: bool,
    /// Leaves out the positions before this ply (counted from the variant's start): an
    /// opening's.
    #[arg(long, value_name = "PLY", default_value_t = 0)]
    pub min_ply: u32,
    /// Replaces FILE if it exists.
    #[arg(long)]
    pub force: bool,
}

/// `arena positions`.
pub fn positions(args: PositionsArgs) -> Result<()> {
    let variant = args.variant.as_deref().map(parse_variant).transpose()?;
    let sample = match (args.per_game, args.fraction) {
        (Some(n), _) => Sample::PerGame(n),
        (None, Some(f)) => Sample::Fraction(f),
        (None, None) => Sample::Every,
    };
    if args.out.exists() && !args.force {
        bail!(
            "`{}` exists: give another --out, or --force to replace it",
            args.out.display()
        );
    }
    let options = ExportOptions {
        variant,
        sample,
        seed: args.seed,
        dedup: args.dedup,
        min_ply: args.min_ply,
    };
    // Written aside and renamed into place: a file at FILE is always a whole one.
    let mut partial = args.out.clone().into_os_string();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let summary = match arena::positions::export(&args.inputs, &partial, &options) {
        Ok(summary) => summary,
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            return Err(error.into());
        }
    };
    std::fs::rename(&partial, &args.out)
        .with_context(|| format!("cannot move the positions into `{}`", args.out.display()))?;
    let mut left_out = Vec::new();
    if summary.faulted > 0 {
        left_out.push(format!("{} a fault ended", plural(summary.faulted, "game")));
    }
    if summary.other_variants > 0 {
        left_out.push(format!(
            "{} of other variants",
            plural(summary.other_variants, "game")
        ));
    }
    if summary.duplicates > 0 {
        left_out.push(format!(
            "{} seen before",
            plural(summary.duplicates, "position")
        ));
    }
    let shape: Vec<String> = summary.shape.iter().map(usize::to_string).collect();
    println!(
        "{}: {} positions of `{}` from {} (observations of shape ({}))",
        args.out.display(),
        thousands(summary.positions),
        summary.variant,
        plural(summary.games, "game"),
        shape.join(", ")
    );
    if !left_out.is_empty() {
        println!("left out: {}", left_out.join("; "));
    }
    Ok(())
}
