//! `arena serve`: the web pages (play, analyse, replay, report, a run live, statistics) on a
//! local server.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use clap::Args;

/// `arena serve [--port P] [--results DIR] [--record FILE] [--name NAME] [--bind ADDRESS]`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena serve                      # http://127.0.0.1:8080/\n  arena serve --port 0             # any free port (the address is printed)\n  arena serve --results runs --name Lan\n  arena serve --agent mine=proc:cmd=python3,args=my_agent.py   # your own agent, in the set-up\n  arena run exp.toml --out results/class & arena serve   # watch it: http://127.0.0.1:8080/#live\n\nLive shows a run under the results folder as it plays (standings, crosstable, games in\nprogress, faults), from the files the run writes: the server only reads them, so it never\nslows or blocks the run.\n\nEvery finished game is appended to the play record (results/play/games.csv), as with\n`arena play`. The server listens on 127.0.0.1 only, unless --bind says otherwise; it has\nno authentication, so open it to a network only where everyone on it may use it.\n\nA request never makes the server start a program: `proc` and `engine` agents play only\nwhere --agent names them when the server starts. Each is checked then, as `arena run`\nchecks its agents, on every variant the set-up offers; it is listed under its name on the\nvariants it passed, or as unavailable with the reason. Each game starts its own process, in\nthe sandbox (--sandbox), stopped when the game ends or is freed."
)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The results folder the Replay, Report and Live pages read (and nothing outside it).
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// The play record [default: RESULTS/play/games.csv].
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The name a person plays under when the page gives none.
    #[arg(long, default_value = arena::played::HUMAN)]
    pub name: String,
    /// Listen on this address instead of 127.0.0.1, like 0.0.0.0 (every network): the server
    /// has no authentication, so anyone who can reach the address can use it.
    #[arg(long, value_name = "ADDRESS")]
    pub bind: Option<IpAddr>,
    /// The longest an agent may think about one move, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub think_limit: f64,
    /// The memory all games together may hold, in MiB, as their agents' settings say
    /// (tt_mb, tree_mb; 1 MiB for other agents): a game over it waits for room or is refused.
    #[arg(long, value_name = "MIB", default_value_t = web::DEFAULT_TABLE_MEMORY_MB)]
    pub table_memory: u64,
    /// An agent of yours that people can play and watch, listed under NAME in the set-up:
    /// SPEC is any agent spec, `proc:cmd=...` or `engine:cmd=...` included. Repeatable.
    #[arg(long = "agent", value_name = "NAME=SPEC", value_parser = web::seats::OwnAgent::parse)]
    pub agents: Vec<web::seats::OwnAgent>,
    /// The sandbox of the --agent programs: off, best-effort or required
    /// (docs/src/guide/sandbox.md); counted as its memory limit against --table-memory.
    #[arg(long, value_name = "MODE", default_value = "best-effort", value_parser = protocol::sandbox::Mode::parse_option)]
    pub sandbox: protocol::sandbox::Mode,
}

/// `arena serve`.
pub fn serve(args: ServeArgs) -> Result<()> {
    let mut options = web::Options::local(args.port, args.results.clone());
    if let Some(ip) = args.bind {
        options.address = SocketAddr::new(ip, args.port);
    }
    if let Some(record) = &args.record {
        options.record = record.clone();
    }
    options.name =
        arena::played::check_name(&args.name).map_err(|e| anyhow::anyhow!("--name: {e}"))?;
    if !(args.think_limit.is_finite() && args.think_limit > 0.0 && args.think_limit <= 86_400.0) {
        bail!(
            "--think-limit {}: expected a number of seconds, more than 0",
            args.think_limit
        );
    }
    options.think_limit = Duration::from_secs_f64(args.think_limit);
    if args.table_memory == 0 {
        bail!("--table-memory 0: expected MiB, at least 1");
    }
    options.table_memory_mb = args.table_memory;
    options.agents = args.agents;
    options.sandbox = args.sandbox;
    if !options.agents.is_empty() {
        eprintln!(
            "arena serve: checking {} agent(s) of --agent on every variant...",
            options.agents.len()
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async move {
        let server = web::Server::bind(options.clone()).await?;
        let address = server.address();
        if !address.ip().is_loopback() {
            eprintln!(
                "warning: listening on {address}, not on 127.0.0.1: the server has no \
                 authentication, so anyone who can reach this address can play, make agents \
                 think, and read the results folder"
            );
        }
        let shown = if address.ip().is_unspecified() {
            SocketAddr::from(([127, 0, 0, 1], address.port()))
        } else {
            address
        };
        println!("arena serve: listening on http://{shown}/");
        println!(
            "  results folder {}, play record {}; Ctrl-C stops it",
            options.results.display(),
            options.record.display()
        );
        for own in server.own_agents() {
            match &own.unavailable {
                None => println!(
                    "  --agent {}: plays {}",
                    own.agent.name,
                    own.variants.join(", ")
                ),
                Some(why) => println!("  --agent {}: unavailable: {why}", own.agent.name),
            }
        }
        let _ = std::io::stdout().flush();
        let signals = crate::EndingSignals::listen();
        server
            .run_until(async move {
                signals.next().await;
            })
            .await?;
        Ok(())
    })
}
