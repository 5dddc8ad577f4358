//! `arena engine`: one of our agents as a Gomocup (piskvork) engine on stdin/stdout.

use anyhow::{Context as _, Result};
use clap::Args;

/// `arena engine --agent SPEC`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena engine --agent alphabeta:depth=4\n  printf 'START 15\\nBEGIN\\nEND\\n' | arena engine --agent mcts:iterations=2000\n\nFor piskvork: copy (or link) the binary as pbrain-arena and pass the agent in the\nARENA_AGENT environment variable, or wrap `arena engine --agent SPEC` in a script."
)]
pub struct EngineArgs {
    /// The agent to play with (an m,n,k agent spec); default: the ARENA_AGENT environment
    /// variable, else `alphabeta:depth=4`.
    #[arg(long)]
    pub agent: Option<String>,
    /// The seed of the agent's RNG (a manager that sends `INFO arena_rng` overrides it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `arena engine`: serves the protocol until `END` or the end of the input.
pub fn engine(args: EngineArgs) -> Result<()> {
    let text = args
        .agent
        .or_else(|| std::env::var("ARENA_AGENT").ok())
        .unwrap_or_else(|| "alphabeta:depth=4".to_string());
    let spec: agents::AgentSpec = text.parse()?;
    agents::build::<rules::Mnk>(&spec).with_context(|| format!("agent `{text}`"))?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    agents::gomocup::serve(&spec, args.seed, stdin.lock(), stdout.lock())
        .context("cannot write to standard output")
}
