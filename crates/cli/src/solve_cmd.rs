//! `arena analyze` and `arena solve`: the move an agent chooses in a position, with what it
//! searched; and the exact game value of a position, with the moves that keep it.

use std::time::{Duration, Instant};

use agents::solve::{Limits, Solution, Value};
use agents::{AgentGame, AgentRng, AgentSpec, Context as AgentContext};
use anyhow::{Context as _, Result, anyhow, bail};
use clap::Args;
use protocol::{OutsideGame, Roster};
use rand::SeedableRng;
use rules::{Game, Outcome, Player, Variant};

/// `arena analyze VARIANT --moves "MOVES" --agent SPEC [--seed S]`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    arena analyze mnk-5x5k4 --moves \"b3 c3 c2 d1 b2 a2\" --agent mcts:iterations=10000\n  \
    arena analyze tictactoe --moves \"b2 a1\" --agent alphabeta --seed 7\n  \
    arena analyze oanquan --moves \"3P 7P\" --agent greedy2")]
pub struct AnalyzeArgs {
    /// The variant id, like `tictactoe`, `mnk-5x5k4` or `oanquan`.
    pub variant: String,
    /// The moves from the start, space-separated, in the game's notation (`b2` or `1,1` for
    /// m,n,k; `3P` for O An Quan). Empty: the starting position.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// The agent spec, like `mcts:iterations=10000` or `alphabeta:depth=6` (see `arena list`).
    #[arg(long)]
    pub agent: String,
    /// The seed of the agent's random number generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// `arena solve VARIANT [--moves "MOVES"] [--tt-mb N] [--time-limit SECONDS]`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    arena solve tictactoe\n  \
    arena solve mnk-5x5k4 --moves \"b3 c3 c2 d1 b2 a2\"\n  \
    arena solve mnk-4x4k4 --tt-mb 256 --time-limit 60")]
pub struct SolveArgs {
    /// The variant id, like `tictactoe`, `mnk-4x4k4` or `oanquan`.
    pub variant: String,
    /// The moves from the start, space-separated, in the game's notation. Empty: the
    /// starting position.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Stop after this many seconds and print what is known by then.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// The deepest search, in plies, for games that can go on for ever (O An Quan); m,n,k games
    /// are always searched to their end.
    #[arg(long, default_value_t = 40)]
    pub max_depth: u32,
}

/// Parses a variant id, naming it in the error.
fn variant(id: &str) -> Result<Variant> {
    id.parse::<Variant>()
        .with_context(|| format!("bad variant id `{id}`"))
}

/// The start of `G`'s variant after `moves`, with an error naming the bad move and its place.
fn position_after<G: Game>(start: G, moves: &str) -> Result<G> {
    start
        .play_line(moves)
        .map_err(|error| anyhow!("bad move list \"{}\": {error}", moves.trim()))
}

/// The player's name in the game's own words.
fn player_name<G: AgentGame>(player: Player) -> String {
    match (G::FAMILY, player.index()) {
        (agents::Family::Mnk, 0) => "X (first player)".into(),
        (agents::Family::Mnk, _) => "O (second player)".into(),
        (_, seat) => format!("player {} ({} player)", seat + 1, player.name()),
    }
}

fn describe_outcome(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(player) => format!("{} player wins", player.name()),
        Outcome::Draw => "draw".into(),
        Outcome::Ranked(ranking) => format!("places {}", Outcome::Ranked(ranking).result_text()),
    }
}

fn print_position<G: AgentGame>(position: &G, moves: &str) {
    let plies = moves.split_whitespace().count();
    println!("{position}");
    if position.is_over() {
        println!("after {plies} moves: the game is over");
    } else {
        println!(
            "after {plies} moves, {} to move",
            player_name::<G>(position.side_to_move())
        );
    }
}

/// `arena analyze`: prints the position, the agent's move on a line starting with `move:`,
/// and its search statistics.
pub fn analyze(args: AnalyzeArgs) -> Result<()> {
    let spec: AgentSpec = args
        .agent
        .parse()
        .with_context(|| format!("bad agent spec `{}`", args.agent))?;
    match variant(&args.variant)? {
        Variant::Mnk(config) => analyze_game(config.start(), &args, &spec),
        Variant::OanQuan(rules) => analyze_game(rules.start(), &args, &spec),
    }
}

fn analyze_game<G: OutsideGame>(start: G, args: &AnalyzeArgs, spec: &AgentSpec) -> Result<()> {
    let position = position_after(start.clone(), &args.moves)?;
    // An outside agent's stderr shows here: a person is watching its answer.
    let roster = Roster::new().with_inherited_stderr();
    let mut agent = roster
        .build_for::<G>("agent", spec, start.num_players())
        .with_context(|| format!("agent `{spec}`"))?;
    // The moves in the game's own notation (the command line may say `1,1` for `b2`).
    let mut moves = Vec::new();
    let mut replay = start;
    for text in args.moves.split_whitespace() {
        let mv = replay.parse_move(text)?;
        moves.push(replay.format_move(mv));
        replay.play_unchecked(mv);
    }
    if let Some(outcome) = position.outcome() {
        bail!(
            "the game is over after these moves ({}): there is nothing to choose",
            describe_outcome(outcome)
        );
    }
    print_position(&position, &args.moves);
    let mut rng = AgentRng::seed_from_u64(args.seed);
    let started = Instant::now();
    let choice = agent
        .choose(
            &position,
            &mut AgentContext::new(&mut rng).with_moves(&moves),
        )
        .map_err(|error| anyhow!("agent `{spec}` gave no move: {error}"))?;
    let elapsed = started.elapsed();
    if !position.is_legal(choice.mv) {
        bail!("agent `{spec}` chose an illegal move: {:?}", choice.mv);
    }
    let stats = &choice.stats;
    println!("move: {}", position.format_move(choice.mv));
    println!("agent: {spec} (seed {})", args.seed);
    println!("nodes: {}", stats.nodes);
    if let Some(depth) = stats.depth {
        println!("depth: {depth}");
    }
    if let Some(score) = stats.score {
        println!("score: {}", score_text(score));
    }
    if let Some(reason) = &stats.reason {
        println!("reason: {reason}");
    }
    println!("time: {:.3} s", elapsed.as_secs_f64());
    Ok(())
}

/// A search score as people read it: whole numbers as they are (alpha-beta's evaluation),
/// fractions (MCTS's mean reward, a win rate) to three decimals.
fn score_text(score: f64) -> String {
    if score.fract() == 0.0 && score.abs() < 1e15 {
        format!("{score:.0}")
    } else {
        format!("{score:.3}")
    }
}

/// `arena solve`: prints the position, its exact value (absolute and for the side to move),
/// the moves that keep it, the value of every move, and the nodes and time spent.
pub fn solve(args: SolveArgs) -> Result<()> {
    if !(1..=65536).contains(&args.tt_mb) {
        bail!("--tt-mb {}: the table takes 1 to 65536 MiB", args.tt_mb);
    }
    if let Some(machine) = agents::memory::machine()
        && (args.tt_mb as u64) << 20 > machine.total
    {
        bail!(
            "--tt-mb {}: more than this machine's memory ({}); give at most {}",
            args.tt_mb,
            agents::memory::machine_text(),
            machine.available >> 20
        );
    }
    let time = match args.time_limit {
        None => None,
        Some(seconds) => Some(
            Duration::try_from_secs_f64(seconds)
                .ok()
                .filter(|time| !time.is_zero())
                .ok_or_else(|| {
                    anyhow!("--time-limit {seconds}: give a positive number of seconds")
                })?,
        ),
    };
    if args.max_depth == 0 {
        bail!("--max-depth 0: give at least 1 ply");
    }
    let limits = Limits::default()
        .with_tt_mb(args.tt_mb)
        .with_time(time)
        .with_max_depth(args.max_depth);
    match variant(&args.variant)? {
        Variant::Mnk(config) => solve_game(config.start(), &args, &limits),
        Variant::OanQuan(rules) => solve_game(rules.start(), &args, &limits),
    }
}

fn solve_game<G: AgentGame>(start: G, args: &SolveArgs, limits: &Limits) -> Result<()> {
    let position = position_after(start, &args.moves)?;
    print_position(&position, &args.moves);
    let solution: Solution<G::Move> = agents::solve::try_solve(&position, limits)?;
    let mover = player_name::<G>(solution.to_move);
    match (solution.outcome(), solution.value) {
        (Some(outcome), Some(value)) => {
            println!("value: {}", describe_outcome(outcome));
            let verb = match value {
                Value::Win => "wins",
                Value::Draw => "draws",
                Value::Loss => "loses",
            };
            println!("side to move: {mover} {verb}");
        }
        _ => {
            println!("value: unknown within the limits");
            println!("side to move: {mover}");
        }
    }
    if !solution.moves.is_empty() {
        let names = |moves: &[G::Move]| {
            moves
                .iter()
                .map(|&mv| position.format_move(mv))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match solution.value {
            Some(Value::Win) => println!("winning moves: {}", names(&solution.best)),
            Some(Value::Draw) => println!("drawing moves: {}", names(&solution.best)),
            Some(Value::Loss) => println!("every move loses"),
            None => {}
        }
        let values: Vec<String> = solution
            .moves
            .iter()
            .map(|entry| {
                let value = entry.value.map_or("?".to_string(), |v| v.to_string());
                format!("{} {value}", position.format_move(entry.mv))
            })
            .collect();
        println!("move values (for the side to move): {}", values.join(", "));
    }
    if !solution.complete && !position.is_over() {
        println!(
            "incomplete: the limits ran out (searched {} plies deep)",
            solution.depth
        );
    }
    let seconds = solution.elapsed.as_secs_f64();
    println!(
        "nodes: {} ({:.0} per second)",
        solution.nodes,
        solution.nodes as f64 / seconds.max(1e-9)
    );
    println!("time: {seconds:.3} s");
    Ok(())
}
