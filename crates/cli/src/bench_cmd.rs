//! `arena bench [--quick]`: throughput figures of the games, the agents and the arena, one line
//! each, `name: value unit (details)`, on stdout (what it is doing goes to stderr).
//!
//! Rates are the median of several rounds, each running its work until a fixed time has
//! passed, so that a moment of interference from another process moves no figure. The settings
//! of the MCTS and playout figures are those of `benches/openspiel_compare.py`, which puts them
//! next to OpenSpiel's: from the start, UCT c = 2 on rewards in [-1, 1], one random playout per
//! simulation, 10,000 simulations per search, every simulation run (no solver).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use agents::dfpn::{self, DfpnLimits};
use agents::playout::{self, PLAYOUT_PLY_CAP, Rollout};
use agents::solve::{Limits, solve};
use agents::tactics::{self, PuzzleKind};
use agents::threats;
use agents::{Agent, AgentGame, AgentRng, AgentSpec, Context, build};
use anyhow::{Context as _, Result, anyhow};
use arena::{Experiment, Progress, RunOptions, Shard};
use clap::Args;
use protocol::Roster;
use rand::SeedableRng;
use rules::{Game, Mnk, Variant};

/// `arena bench [--quick]`.
#[derive(Debug, Default, Args)]
#[command(after_help = "Examples:\n  \
    arena bench            # every figure, about two minutes (the default experiment twice)\n  \
    arena bench --quick    # shorter rounds and a shortened experiment, about fifteen seconds\n  \
    arena bench --filter mcts. --filter td4.   # only the figures whose names contain these\n\n\
    Build with --release: a debug build measures the debug build. Run it on a quiet machine.")]
pub struct BenchArgs {
    /// Shorter rounds, fewer searches, and one game per pair of the default experiment instead
    /// of the whole experiment.
    #[arg(long)]
    pub quick: bool,
    /// Only the figures whose names contain this text (repeatable; default: every figure).
    #[arg(long, value_name = "TEXT")]
    pub filter: Vec<String>,
    /// The figures asked about so far.
    #[arg(skip)]
    asked: std::cell::RefCell<Vec<String>>,
}

impl BenchArgs {
    /// Whether the figure `name` is to be measured (a name ending with `.` stands for a group
    /// of figures).
    fn wants(&self, name: &str) -> bool {
        self.asked.borrow_mut().push(name.to_string());
        self.filter.is_empty() || self.filter.iter().any(|text| name.contains(text.as_str()))
    }

    /// An error naming each filter that matched no figure (asked after every figure was), so
    /// that a misspelt one beside others is not passed over in silence.
    fn check_matched(&self) -> Result<()> {
        let asked = self.asked.borrow();
        let unmatched: Vec<String> = self
            .filter
            .iter()
            .filter(|text| !asked.iter().any(|name| name.contains(text.as_str())))
            .map(|text| format!("`{text}`"))
            .collect();
        if unmatched.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = asked
            .iter()
            .map(|name| match name.strip_suffix('.') {
                Some(group) => format!("{group}.*"),
                None => name.clone(),
            })
            .collect();
        Err(anyhow!(
            "no figure's name contains {}; the figures: {}",
            unmatched.join(" or "),
            names.join(", ")
        ))
    }
}

/// The variants of the playout and MCTS figures.
const VARIANTS: [&str; 5] = [
    "tictactoe",
    "mnk-5x5k4",
    "mnk-15x15k5",
    "mnk-19x19k5",
    "oanquan",
];

/// The MCTS settings compared with OpenSpiel's `MCTSBot` (see the module documentation).
pub const MCTS_SPEC: &str = "mcts:iterations=10000,c=2,rollout=random,solver=false";

/// The TD4 exercise of seed 003: 5x5, k = 4, X to move and win.
pub const TD4_MOVES: &str = "b3 c3 c2 d1 b2 a2";

/// How long the figures are measured.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Rounds per rate; the median is printed.
    rounds: usize,
    /// The least time of one round.
    round: Duration,
    /// Timed searches of each TD4 agent per round (after one untimed).
    td4_searches: usize,
    /// Runs of each solve.
    solves: usize,
    /// Games per pair of the default experiment; `None` keeps its own.
    games_per_pair: Option<u32>,
}

impl Budget {
    fn new(quick: bool) -> Budget {
        if quick {
            Budget {
                rounds: 3,
                round: Duration::from_millis(100),
                td4_searches: 5,
                solves: 1,
                games_per_pair: Some(1),
            }
        } else {
            Budget {
                rounds: 5,
                round: Duration::from_millis(400),
                td4_searches: 7,
                solves: 3,
                games_per_pair: None,
            }
        }
    }
}

/// Prints one figure.
fn figure(name: &str, value: String, unit: &str, details: &str) {
    if details.is_empty() {
        println!("{name}: {value} {unit}");
    } else {
        println!("{name}: {value} {unit} ({details})");
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Work per second: `work` returns the units it did; each round calls it until the round's
/// time has passed (at least once), and the median of the rounds' rates is returned.
fn median_rate(budget: &Budget, mut work: impl FnMut() -> Result<u64>) -> Result<f64> {
    let mut rates = Vec::with_capacity(budget.rounds);
    for _ in 0..budget.rounds {
        let started = Instant::now();
        let mut units = 0;
        loop {
            units += work()?;
            if started.elapsed() >= budget.round {
                break;
            }
        }
        rates.push(units as f64 / started.elapsed().as_secs_f64());
    }
    Ok(median(rates))
}

fn parse_variant(id: &str) -> Result<Variant> {
    id.parse::<Variant>()
        .with_context(|| format!("bad variant id `{id}`"))
}

fn agent<G: AgentGame>(spec: &str) -> Result<Box<dyn Agent<G>>> {
    let spec: AgentSpec = spec
        .parse()
        .with_context(|| format!("bad agent spec `{spec}`"))?;
    build::<G>(&spec).with_context(|| format!("agent `{spec}`"))
}

/// One search of `agent` in `position` with the RNG of seed 1: the move, the nodes searched
/// and the wall time.
fn timed_choice<G: AgentGame>(
    agent: &mut dyn Agent<G>,
    position: &G,
) -> Result<(G::Move, u64, Duration)> {
    let mut rng = AgentRng::seed_from_u64(1);
    let started = Instant::now();
    let choice = agent
        .choose(position, &mut Context::new(&mut rng))
        .map_err(|error| anyhow!("no move: {error}"))?;
    Ok((choice.mv, choice.stats.nodes, started.elapsed()))
}

/// `arena bench`: every figure, in order.
pub fn bench(args: BenchArgs) -> Result<()> {
    if cfg!(debug_assertions) {
        eprintln!("note: a debug build; build with --release for meaningful figures");
    }
    let budget = Budget::new(args.quick);
    for id in VARIANTS
        .into_iter()
        .filter(|id| args.wants(&format!("playouts.{id}")))
    {
        rules::with_game!(parse_variant(id)?, |start| playouts(id, &start, &budget))?;
    }
    for id in VARIANTS
        .into_iter()
        .filter(|id| args.wants(&format!("mcts.{id}")))
    {
        rules::with_game!(parse_variant(id)?, |start| mcts(id, &start, &budget))?;
    }
    for (id, depth) in [
        ("tictactoe", 9),
        ("mnk-5x5k4", 5),
        ("oanquan", 7),
        ("oware", 8),
    ] {
        if !args.wants(&format!("perft.{id}")) {
            continue;
        }
        rules::with_game!(parse_variant(id)?, |start| perft(
            id, &start, depth, &budget
        ))?;
    }
    for (id, moves, depth) in [
        ("mnk-15x15k5", "e5 d4 f6", 3),
        ("mnk-9x9k5", "e5 d4 f6", 4),
        ("oanquan", "", 10),
    ] {
        if !args.wants(&format!("alphabeta.{id}")) {
            continue;
        }
        rules::with_game!(parse_variant(id)?, |start| alphabeta(
            id, &start, moves, depth, &budget
        ))?;
    }
    let td4: Mnk = mnk("mnk-5x5k4")?
        .play_line(TD4_MOVES)
        .map_err(|error| anyhow!("the TD4 moves: {error}"))?;
    flat_monte_carlo(&td4, &budget, &args)?;
    if args.wants("solve.td4") {
        solve_time("td4", &td4, &budget)?;
    }
    if args.wants("solve.mnk-4x4k4") {
        solve_time("mnk-4x4k4", &mnk("mnk-4x4k4")?, &budget)?;
    }
    for (name, position) in [
        ("td4", td4.clone()),
        ("mnk-4x4k4", mnk("mnk-4x4k4")?),
        ("mnk-5x5k4", mnk("mnk-5x5k4")?),
    ] {
        if args.wants(&format!("dfpn.{name}")) {
            dfpn_time(name, &position, &budget)?;
        }
    }
    if args.wants("solve.connect4-8ply") {
        connect4_solve_time(&budget)?;
    }
    if args.wants("vcf.") {
        vcf_rate(&budget)?;
    }
    if args.wants("threat.") {
        threat_rate(&budget)?;
    }
    tactics(&budget, &args)?;
    for (protocol, id) in PROTOCOL_FIGURES {
        if !args.wants(&format!("protocol.{protocol}.{id}")) {
            continue;
        }
        rules::with_game!(parse_variant(id)?, |start| protocol_overhead(
            protocol, id, &start, &budget
        ))?;
    }
    for protocol in ["arena", "arena-sandboxed"] {
        if args.wants(&format!("protocol.start.{protocol}")) {
            protocol_start(protocol, &budget)?;
        }
    }
    default_experiment(&budget, &args)?;
    args.check_matched()
}

/// The protocol figures: which protocol, on which variant. `arena-sandboxed` is the arena
/// protocol with the served agent in the sandbox (`docs/src/guide/sandbox.md`), beside the
/// same figure without it: the sandbox's cost, A/B in one run.
const PROTOCOL_FIGURES: [(&str, &str); 6] = [
    ("arena", "tictactoe"),
    ("arena-sandboxed", "tictactoe"),
    ("arena", "mnk-15x15k5"),
    ("arena-sandboxed", "mnk-15x15k5"),
    ("arena", "oanquan"),
    ("gomocup", "mnk-15x15k5"),
];

/// The roster of a protocol figure: sandboxed for `arena-sandboxed` (every layer this kernel
/// gives), not otherwise.
fn bench_roster(protocol: &str) -> Roster {
    use protocol::sandbox::{Mode, Sandbox};
    let mode = if protocol.ends_with("-sandboxed") {
        Mode::BestEffort
    } else {
        Mode::Off
    };
    Roster::new().with_sandbox(Sandbox::new(mode))
}

/// The start-up of an outside agent per game: tic-tac-toe games with a fresh `serve-agent`
/// process for each (`restart=on`), in the sandbox or not; the figure is the time per game,
/// whose difference between the two is what the sandbox adds to a start.
fn protocol_start(protocol: &str, budget: &Budget) -> Result<()> {
    let exe = std::env::current_exe().context("the path of this binary")?;
    let spec: AgentSpec = format!(
        "proc:cmd={},restart=on,args=serve-agent --agent random",
        exe.display()
    )
    .parse()?;
    let start = mnk("tictactoe")?;
    let roster = bench_roster(protocol);
    let mut outside = roster
        .build::<Mnk>("served", &spec)
        .with_context(|| format!("agent `{spec}`"))?;
    let mut inside = agent::<Mnk>("random")?;
    let settings = arena::GameSettings {
        max_plies: 0,
        opening_plies: 0,
        move_time: None,
        clock: None,
    };
    let mut games = 0u64;
    let rate = median_rate(budget, || {
        let mut agents: [&mut dyn Agent<Mnk>; 2] = [outside.as_mut(), inside.as_mut()];
        let record = arena::play_game(&start, &mut agents, games, games, settings);
        games += 1;
        match record.fault {
            Some(fault) => Err(anyhow!("the served agent failed: {fault}")),
            None => Ok(1),
        }
    })?;
    figure(
        &format!("protocol.start.{protocol}"),
        format!("{:.1}", 1000.0 / rate),
        "ms/game",
        &format!("tic-tac-toe, a fresh process each game, {games} games"),
    );
    Ok(())
}

/// Moves per second through a protocol: our `random` behind it (this binary's `serve-agent`
/// or `engine`, one process kept for every game) against in-process `random`, whole games
/// with the outside agent first and second in turn. Only the outside agent's moves count, and
/// everything it costs counts: the lines both ways, the two processes' parsing and the
/// thread hand-offs; the in-process side's moves cost next to nothing. The Gomocup engine runs
/// with `quiet_ms=0`: the default quiet time (20 ms after each answer, for engines that drop a
/// word sent too soon) is a wait by design, not protocol cost, and would cap the figure near 50
/// moves a second against an opponent that answers at once; our `arena engine` needs none.
fn protocol_overhead<G: AgentGame>(
    protocol: &str,
    id: &str,
    start: &G,
    budget: &Budget,
) -> Result<()> {
    let exe = std::env::current_exe().context("the path of this binary")?;
    let spec = match protocol {
        "arena" | "arena-sandboxed" => {
            format!("proc:cmd={},args=serve-agent --agent random", exe.display())
        }
        _ => format!(
            "engine:cmd={},restart=off,quiet_ms=0,args=engine --agent random",
            exe.display()
        ),
    };
    let spec: AgentSpec = spec.parse()?;
    let roster = bench_roster(protocol);
    let mut outside = roster
        .build::<G>("served", &spec)
        .with_context(|| format!("agent `{spec}`"))?;
    let mut inside = agent::<G>("random")?;
    let settings = arena::GameSettings {
        max_plies: 0,
        opening_plies: 0,
        move_time: None,
        clock: None,
    };
    let mut games = 0u64;
    let mut play = || -> Result<u64> {
        let first = games.is_multiple_of(2);
        let mut agents: [&mut dyn Agent<G>; 2] = if first {
            [outside.as_mut(), inside.as_mut()]
        } else {
            [inside.as_mut(), outside.as_mut()]
        };
        let record = arena::play_game(start, &mut agents, games, games, settings);
        games += 1;
        if let Some(fault) = record.fault {
            return Err(anyhow!("the served agent failed: {fault}"));
        }
        let plies = u64::from(record.plies);
        Ok(if first { plies.div_ceil(2) } else { plies / 2 })
    };
    // The process starts in the first game: not timed.
    play()?;
    let rate = median_rate(budget, play)?;
    figure(
        &format!("protocol.{protocol}.{id}"),
        format!("{rate:.0}"),
        "moves/s",
        &format!(
            "our random behind the {protocol} protocol against in-process random, {games} games"
        ),
    );
    Ok(())
}

fn mnk(id: &str) -> Result<Mnk> {
    parse_variant(id)?
        .rules::<rules::MnkConfig>()
        .map(|config| config.start())
        .ok_or_else(|| anyhow!("`{id}` is not an m,n,k variant"))
}

/// Random playouts from the start per second: the playouts MCTS and flat Monte Carlo run.
fn playouts<G: AgentGame>(id: &str, start: &G, budget: &Budget) -> Result<()> {
    let mut rng = playout::stream_rng(1, 0);
    let (mut games, mut plies) = (0u64, 0u64);
    let rate = median_rate(budget, || {
        for _ in 0..100 {
            let mut game = start.clone();
            game.playout(Rollout::Random, &mut rng, PLAYOUT_PLY_CAP);
            plies += u64::from(game.ply());
        }
        games += 100;
        Ok(100)
    })?;
    figure(
        &format!("playouts.{id}"),
        format!("{rate:.0}"),
        "playouts/s",
        &format!("{:.1} plies each", plies as f64 / games as f64),
    );
    Ok(())
}

/// MCTS simulations per second from the start ([`MCTS_SPEC`]); one agent for every search, as
/// one agent plays every move of a game.
fn mcts<G: AgentGame>(id: &str, start: &G, budget: &Budget) -> Result<()> {
    let mut agent = agent::<G>(MCTS_SPEC)?;
    let rate = median_rate(budget, || Ok(timed_choice(agent.as_mut(), start)?.1))
        .with_context(|| format!("mcts on {id}"))?;
    figure(
        &format!("mcts.{id}"),
        format!("{rate:.0}"),
        "simulations/s",
        "10000 per search, c=2, random playouts, solver off",
    );
    Ok(())
}

/// Perft leaf counts per second (as `arena perft` reports them).
fn perft<G: Game>(id: &str, start: &G, depth: u32, budget: &Budget) -> Result<()> {
    let rate = median_rate(budget, || Ok(rules::perft(start, depth)))?;
    figure(
        &format!("perft.{id}"),
        format!("{rate:.0}"),
        "nodes/s",
        &format!("depth {depth}"),
    );
    Ok(())
}

/// Alpha-beta nodes per second at a fixed depth; one agent for every search (its table is
/// allocated by a first, untimed search and emptied by every search).
fn alphabeta<G: AgentGame>(
    id: &str,
    start: &G,
    moves: &str,
    depth: u32,
    budget: &Budget,
) -> Result<()> {
    let position = start
        .play_line(moves)
        .map_err(|error| anyhow!("{id} after \"{moves}\": {error}"))?;
    let mut agent = agent::<G>(&format!("alphabeta:depth={depth}"))?;
    let (mv, nodes, _) = timed_choice(agent.as_mut(), &position)?;
    let rate = median_rate(budget, || Ok(timed_choice(agent.as_mut(), &position)?.1))?;
    let after = if moves.is_empty() {
        "from the start".to_string()
    } else {
        format!("after {moves}")
    };
    figure(
        &format!("alphabeta.{id}"),
        format!("{rate:.0}"),
        "nodes/s",
        &format!(
            "depth {depth} {after}: {} in {nodes} nodes",
            position.format_move(mv)
        ),
    );
    Ok(())
}

/// The three flat Monte Carlo agents on TD4 at 1,000 playouts per candidate: the median time
/// of a search, the move and the playouts; then `mc-par`'s speed-up over `mc-near`.
///
/// The agents take turns in blocks of searches, each block after an untimed search: a block
/// keeps the cores busy as a game does (a core left idle between parallel searches is slow
/// to wake on a virtual machine), and the turns spread a slower spell of the machine over all
/// the agents. The speed-up is the median of the rounds' ratios.
fn flat_monte_carlo(td4: &Mnk, budget: &Budget, args: &BenchArgs) -> Result<()> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let speedup = args.wants("td4.mc-par-speedup");
    let kinds = ["mc-flat", "mc-near", "mc-par"];
    let wanted: Vec<bool> = kinds
        .iter()
        .map(|kind| args.wants(&format!("td4.{kind}")) || (speedup && *kind != "mc-flat"))
        .collect();
    if !wanted.contains(&true) {
        return Ok(());
    }
    let mut agents = Vec::new();
    for kind in kinds {
        agents.push(agent::<Mnk>(&format!("{kind}:rollouts=1000"))?);
    }
    let mut choices = vec![None; kinds.len()];
    // Per agent, per round: the times of the block's searches.
    let mut times = vec![Vec::new(); kinds.len()];
    for _ in 0..budget.rounds {
        for (i, agent) in agents.iter_mut().enumerate() {
            if !wanted[i] {
                continue;
            }
            let (mv, playouts, _) = timed_choice(agent.as_mut(), td4)?;
            choices[i] = Some((mv, playouts));
            let block = (0..budget.td4_searches)
                .map(|_| Ok(timed_choice(agent.as_mut(), td4)?.2.as_secs_f64()))
                .collect::<Result<Vec<f64>>>()?;
            times[i].push(block);
        }
    }
    for (i, kind) in kinds.into_iter().enumerate() {
        if !args.wants(&format!("td4.{kind}")) {
            continue;
        }
        let Some((mv, playouts)) = choices[i] else {
            continue;
        };
        figure(
            &format!("td4.{kind}"),
            format!("{:.2}", median(times[i].concat()) * 1e3),
            "ms",
            &format!("plays {}, {playouts} playouts", td4.format_move(mv)),
        );
    }
    if speedup {
        let ratios = times[1]
            .iter()
            .zip(&times[2])
            .map(|(near, par)| median(near.clone()) / median(par.clone()));
        figure(
            "td4.mc-par-speedup",
            format!("{:.2}", median(ratios.collect())),
            "x",
            &format!("mc-near time over mc-par time, {threads} threads"),
        );
    }
    Ok(())
}

/// `arena solve`'s search (its default limits) on `position`: the median wall time. Each run
/// has a thread of its own, so that it starts with fresh memory for its table as `arena solve`
/// does (a thread keeps the table of its last search for the next).
fn solve_time(name: &str, position: &Mnk, budget: &Budget) -> Result<()> {
    let mut runs = Vec::new();
    for _ in 0..budget.solves {
        let position = position.clone();
        let run = std::thread::spawn(move || solve(&position, &Limits::default()))
            .join()
            .map_err(|_| anyhow!("the solver panicked on {name}"))?;
        runs.push(run);
    }
    let time = median(runs.iter().map(|s| s.elapsed.as_secs_f64()).collect());
    let last = &runs[runs.len() - 1];
    let value = match last.outcome() {
        Some(rules::Outcome::Win(rules::Player::First)) => "first player wins",
        Some(rules::Outcome::Win(_)) => "second player wins",
        Some(rules::Outcome::Draw) => "draw",
        Some(rules::Outcome::Ranked(_)) | None => "unknown",
    };
    figure(
        &format!("solve.{name}"),
        format!("{time:.3}"),
        "s",
        &format!("{value}, {} nodes", last.nodes),
    );
    Ok(())
}

/// The 6x7 Connect Four position after these 8 plies: X to move wins with b, d or f (c and e
/// draw, a and g lose).
const CONNECT4_8PLY: &str = "d c d e c d e b";

/// Connect Four's solver on [`CONNECT4_8PLY`], every move valued, on one thread with a table of
/// 256 MiB: the median wall time and the nodes per second.
fn connect4_solve_time(budget: &Budget) -> Result<()> {
    let position = rules::Connect4Config::default()
        .start()
        .play_line(CONNECT4_8PLY)
        .map_err(|error| anyhow!("the Connect Four moves: {error}"))?;
    let mut runs = Vec::new();
    for _ in 0..budget.solves {
        let limits = Limits::default().with_tt_mb(256);
        runs.push(agents::games::connect4::solve::try_solve_with(
            &position, &limits, 1,
        )?);
    }
    let time = median(runs.iter().map(|s| s.elapsed.as_secs_f64()).collect());
    let last = &runs[runs.len() - 1];
    figure(
        "solve.connect4-8ply",
        format!("{time:.3}"),
        "s",
        &format!(
            "{} for the side to move, {} nodes, {:.0} nodes/s, one thread; {CONNECT4_8PLY}",
            last.value
                .map_or_else(|| "unknown".to_string(), |v| v.to_string()),
            last.nodes,
            last.nodes as f64 / time.max(1e-9)
        ),
    );
    Ok(())
}

/// `arena solve`'s df-pn (its default limits, the root value and one move) on `position`:
/// the median wall time and the nodes per second. Each run on a fresh thread, as
/// [`solve_time`].
fn dfpn_time(name: &str, position: &Mnk, budget: &Budget) -> Result<()> {
    let mut runs = Vec::new();
    for _ in 0..budget.solves {
        let position = position.clone();
        let run = std::thread::spawn(move || dfpn::solve(&position, &DfpnLimits::default()))
            .join()
            .map_err(|_| anyhow!("df-pn panicked on {name}"))?;
        runs.push(run);
    }
    let time = median(runs.iter().map(|s| s.elapsed.as_secs_f64()).collect());
    let last = &runs[runs.len() - 1];
    let value = match last.outcome() {
        Some(rules::Outcome::Win(rules::Player::First)) => "first player wins",
        Some(rules::Outcome::Win(_)) => "second player wins",
        Some(rules::Outcome::Draw) => "draw",
        Some(rules::Outcome::Ranked(_)) => unreachable!("m,n,k games have two players"),
        None => "unknown",
    };
    figure(
        &format!("dfpn.{name}"),
        format!("{time:.3}"),
        "s",
        &format!(
            "{value}, {} nodes, {:.0} nodes/s",
            last.nodes,
            last.nodes as f64 / time.max(1e-9)
        ),
    );
    Ok(())
}

/// VCF search nodes per second: the search for the shortest VCF of every VCF position of the
/// tactics suite, in turn.
fn vcf_rate(budget: &Budget) -> Result<()> {
    let positions: Vec<Mnk> = tactics::suite()
        .into_iter()
        .filter(|p| matches!(p.kind, PuzzleKind::Vcf(_)))
        .map(|p| p.position)
        .collect();
    if positions.is_empty() {
        return Ok(());
    }
    let mut next = 0;
    let rate = median_rate(budget, || {
        let position = &positions[next % positions.len()];
        next += 1;
        let (_, nodes) = threats::vcf(position, threats::ThreatLimits::default());
        Ok(nodes)
    })?;
    figure(
        "vcf.tactics",
        format!("{rate:.0}"),
        "nodes/s",
        &format!(
            "VCF searches of the {} VCF positions of the tactics suite",
            positions.len()
        ),
    );
    Ok(())
}

/// The `threat` agent's nodes per second (threat searches included) at a fixed budget, on
/// 15x15 after three moves.
fn threat_rate(budget: &Budget) -> Result<()> {
    let position = mnk("mnk-15x15k5")?
        .play_line("h8 i9 h10")
        .map_err(|error| anyhow!("{error}"))?;
    let mut agent = agent::<Mnk>("threat:nodes=100000")?;
    let (mv, nodes, _) = timed_choice(agent.as_mut(), &position)?;
    let rate = median_rate(budget, || Ok(timed_choice(agent.as_mut(), &position)?.1))?;
    figure(
        "threat.mnk-15x15k5",
        format!("{rate:.0}"),
        "nodes/s",
        &format!(
            "100000 nodes after h8 i9 h10: {} in {nodes} nodes",
            position.format_move(mv)
        ),
    );
    Ok(())
}

/// The agents compared on the tactics suite, each at a fixed budget (reproducible).
const TACTICS_AGENTS: [&str; 6] = [
    "threat:nodes=100000",
    "alphabeta:nodes=100000",
    "mcts:iterations=10000",
    "mc-near:rollouts=100",
    "neighbor",
    "easy:mistake=0",
];

/// The share of the tactics suite each agent solves (its move is one of the answer moves),
/// by kind; and the `threat` agent at 1 s a move (full runs only).
fn tactics(budget: &Budget, args: &BenchArgs) -> Result<()> {
    let puzzles = tactics::suite();
    let mut specs: Vec<(String, String)> = TACTICS_AGENTS
        .iter()
        .map(|spec| {
            let kind = spec.split(':').next().unwrap_or(spec);
            (format!("tactics.{kind}"), spec.to_string())
        })
        .collect();
    if budget.games_per_pair.is_none() {
        specs.push(("tactics.threat-1s".into(), "threat:time_ms=1000".into()));
    }
    for (name, spec) in specs {
        if !args.wants(&name) {
            continue;
        }
        let mut searcher = agent::<Mnk>(&spec)?;
        let mut by_group: Vec<(&str, usize, usize)> = Vec::new();
        let mut solved = 0;
        for puzzle in &puzzles {
            let ok = tactics::solves(searcher.as_mut(), puzzle, 1).map_err(|e| anyhow!(e))?;
            solved += usize::from(ok);
            let group = puzzle.kind.group();
            match by_group.iter_mut().find(|(g, _, _)| *g == group) {
                Some(entry) => {
                    entry.1 += usize::from(ok);
                    entry.2 += 1;
                }
                None => by_group.push((group, usize::from(ok), 1)),
            }
        }
        let groups: Vec<String> = by_group
            .iter()
            .map(|(group, ok, all)| format!("{group} {ok}/{all}"))
            .collect();
        figure(
            &name,
            format!("{:.1}", 100.0 * solved as f64 / puzzles.len().max(1) as f64),
            "% solved",
            &format!("{solved}/{}: {}; {spec}", puzzles.len(), groups.join(", ")),
        );
    }
    Ok(())
}

/// A folder under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        // Best effort: a leftover folder in the temporary folder harms nothing.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The default experiment's games per second on one thread and on every core, played into a
/// temporary folder (never `results/`).
fn default_experiment(budget: &Budget, args: &BenchArgs) -> Result<()> {
    let mut experiment = Experiment::default_experiment();
    if let Some(games) = budget.games_per_pair {
        experiment.games_per_pair = u64::from(games);
    }
    let temp = TempDir(std::env::temp_dir().join(format!("arena-bench-{}", std::process::id())));
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts = vec![1];
    if all > 1 {
        counts.push(all);
    }
    counts.retain(|threads| args.wants(&format!("arena.default.threads-{threads}")));
    if counts.is_empty() {
        return Ok(());
    }
    for threads in counts {
        eprintln!(
            "playing the default experiment ({} per pair) on {threads} of {all} threads...",
            experiment.games_per_pair
        );
        let summary = arena::run(
            &experiment,
            &RunOptions {
                out_dir: temp.0.join(format!("threads-{threads}")),
                threads: Some(threads),
                fresh: true,
                shard: Shard::WHOLE,
                progress: Progress::Quiet,
            },
        )?;
        let wall = summary.wall.as_secs_f64();
        figure(
            &format!("arena.default.threads-{threads}"),
            format!("{:.2}", summary.played as f64 / wall.max(1e-9)),
            "games/s",
            &format!("{} games in {wall:.1} s", summary.played),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mcts_figure_runs_every_simulation_even_where_the_solver_would_stop() {
        // Tic-tac-toe after b2 a1 is proven within a few thousand simulations.
        let position = mnk("tictactoe").unwrap().play_line("b2 a1").unwrap();
        let mut searcher = agent::<Mnk>(MCTS_SPEC).unwrap();
        assert_eq!(
            timed_choice(searcher.as_mut(), &position).unwrap().1,
            10_000
        );
        let start = parse_variant("oanquan")
            .unwrap()
            .rules::<rules::OanQuanRules>()
            .unwrap()
            .start();
        let mut searcher = agent::<rules::OanQuan>(MCTS_SPEC).unwrap();
        assert_eq!(timed_choice(searcher.as_mut(), &start).unwrap().1, 10_000);
    }

    #[test]
    fn the_median_is_the_middle_value() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![5.0, 1.0, 9.0, 7.0, 2.0]), 5.0);
    }

    #[test]
    fn filters_pick_figures_by_part_of_their_name() {
        let args = |filter: &[&str]| BenchArgs {
            quick: true,
            filter: filter.iter().map(|text| text.to_string()).collect(),
            ..BenchArgs::default()
        };
        assert!(args(&[]).wants("arena.default.threads-1"));
        assert!(args(&["mcts.", "td4"]).wants("mcts.tictactoe"));
        assert!(args(&["mcts.", "td4"]).wants("td4.mc-flat"));
        assert!(!args(&["mcts.", "td4"]).wants("playouts.tictactoe"));
        // A misspelt filter beside one that matches is named, not passed over.
        let both = args(&["mcts.", "mtcs."]);
        for name in ["playouts.tictactoe", "mcts.tictactoe"] {
            both.wants(name);
        }
        let error = both.check_matched().unwrap_err().to_string();
        assert!(
            error.starts_with("no figure's name contains `mtcs.`;"),
            "{error}"
        );
        let fine = args(&["mcts."]);
        fine.wants("mcts.tictactoe");
        assert!(fine.check_matched().is_ok());
    }

    #[test]
    fn quick_rounds_are_shorter() {
        let (quick, full) = (Budget::new(true), Budget::new(false));
        assert!(quick.td4_searches < full.td4_searches);
        assert!(quick.round < full.round && quick.rounds <= full.rounds);
        assert_eq!(quick.games_per_pair, Some(1));
        assert_eq!(full.games_per_pair, None);
    }
}
