//! `arena play`: a person against any agent, two people, or two agents, in the terminal.

use anyhow::Result;
use clap::Args;

/// `arena play VARIANT [--first SPEC|human] [--second SPEC|human]`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena play tictactoe --first human --second alphabeta:depth=9\n  arena play oanquan --first greedy2 --second human\n  arena play caro                      # a menu of the four modes"
)]
pub struct PlayArgs {
    /// The variant id, like `tictactoe`, `caro` or `oanquan`.
    pub variant: String,
    /// Who moves first: `human` or an agent spec.
    #[arg(long)]
    pub first: Option<String>,
    /// Who moves second: `human` or an agent spec.
    #[arg(long)]
    pub second: Option<String>,
    /// The seed of the agents' random number generators.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds a human has for each move; running out loses the game.
    #[arg(long)]
    pub move_time: Option<f64>,
    /// Seconds to wait after each agent move, so agent-vs-agent games can be followed.
    #[arg(long)]
    pub delay: Option<f64>,
}

/// `arena play`.
pub fn play(args: PlayArgs) -> Result<()> {
    anyhow::bail!("`arena play {}` is not built yet", args.variant)
}
