//! `arena engine` and `arena serve-agent`: any agent behind the Gomocup (piskvork) protocol or
//! the arena protocol on stdin/stdout.

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
    protocol::build::<rules::Mnk>(&spec).with_context(|| format!("agent `{text}`"))?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    protocol::gomocup::serve(&spec, args.seed, stdin.lock(), stdout.lock())
        .context("the Gomocup session ended: cannot read standard input or write standard output")
}

/// `arena serve-agent --agent SPEC`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena serve-agent --agent alphabeta:depth=4\n  printf 'arena 1\\ngame variant=oanquan seat=1 players=2\\nposition\\ngo time_ms=1000\\nquit\\n' | arena serve-agent --agent greedy2\n\nThe protocol is docs/src/reference/protocol.md. In an experiment, an agent of ours behind it is\n  proc:cmd=/path/to/arena,args=serve-agent --agent SPEC"
)]
pub struct ServeArgs {
    /// The agent to play with (any agent spec; `arena list` shows them).
    #[arg(long)]
    pub agent: String,
}

/// `arena serve-agent`: serves the arena protocol until `quit` or the end of the input.
pub fn serve_agent(args: ServeArgs) -> Result<()> {
    let spec: agents::AgentSpec = args
        .agent
        .parse()
        .with_context(|| format!("bad agent spec `{}`", args.agent))?;
    protocol::kind(&spec.kind).with_context(|| format!("agent `{spec}`"))?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    protocol::serve::serve(&spec, stdin.lock(), stdout.lock(), std::io::stderr().lock())
        .context("the session ended: cannot read standard input or write standard output")
}
