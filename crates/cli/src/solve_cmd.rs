//! `arena analyze` and `arena solve`: the move an agent chooses in a position, with what it
//! searched; and the exact game value of a position, with the moves that keep it.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use agents::dfpn::{self, DfpnLimits};
use agents::solve::{Limits, Monitor, Solution, Value};
use agents::threats;
use agents::{AgentGame, AgentRng, AgentSpec, Context as AgentContext};
use anyhow::{Context as _, Result, anyhow, bail};
use clap::Args;
use protocol::Roster;
use rand::SeedableRng;
use rules::{Game, Mnk, Outcome, Player, Variant};

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

/// `arena solve VARIANT [--moves "MOVES"] [--method M] [--tt-mb N] [--time-limit SECONDS]`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    arena solve tictactoe\n  \
    arena solve mnk-5x5k4                         # df-pn: a draw in about a second\n  \
    arena solve mnk-5x5k4 --moves \"b3 c3 c2 d1 b2 a2\" --all-moves\n  \
    arena solve gomoku --moves \"h8 h9 i8 i9 j8\" --method vcf\n  \
    arena solve mnk-4x4k4 --method alphabeta --tt-mb 256 --time-limit 600\n  \
    arena solve connect4 --moves \"d d d d c c\"     # Connect Four: a few seconds\n  \
    arena solve connect4 --tt-mb 2048 --time-limit 0 # the empty board: minutes (README, Speed)\n\n\
    Methods: auto (df-pn for m,n,k games, the game's own solver where it has one, like \
    Connect Four's, alpha-beta for the rest), own (the game's own solver: Connect Four's \
    bitboards, null-window search, a shared table, the moves on every core), dfpn \
    (proof-number search with the VCF search inside; m,n,k only), alphabeta (the exact \
    alpha-beta solver of every game), vcf and \
    vct (threat-space search only: a win by continuous fours, or by fours and threes, for the \
    side to move and for the opponent; m,n,k only).\n\
    Progress (time, nodes, proof and disproof numbers or depth, table memory) shows on a \
    terminal; Ctrl-C stops the search and prints the best bound found so far.")]
pub struct SolveArgs {
    /// The variant id, like `tictactoe`, `mnk-4x4k4` or `oanquan`.
    pub variant: String,
    /// The moves from the start, space-separated, in the game's notation. Empty: the
    /// starting position.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// The method: auto, own, dfpn, alphabeta, vcf or vct (see below).
    #[arg(long, default_value = "auto")]
    pub method: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt_mb: usize,
    /// Stop after this many seconds and print what is known by then (0: no limit).
    #[arg(long, default_value_t = DEFAULT_TIME_LIMIT)]
    pub time_limit: f64,
    /// The deepest search, in plies, for games that can go on for ever (O An Quan); m,n,k games
    /// are always searched to their end.
    #[arg(long, default_value_t = 40)]
    pub max_depth: u32,
    /// Also find the value of every legal move (df-pn: not only one move that keeps the value;
    /// alpha-beta always does).
    #[arg(long)]
    pub all_moves: bool,
}

/// The default time limit of `arena solve`, in seconds.
pub const DEFAULT_TIME_LIMIT: f64 = 60.0;

/// How `arena solve` solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    DfPn,
    /// The game's own solver ([`AgentGame::own_solver`]), described.
    Own(&'static str),
    AlphaBeta,
    Vcf,
    Vct,
}

impl Method {
    fn parse(text: &str, variant: &Variant) -> Result<Method> {
        let mnk = matches!(variant, Variant::Mnk(_));
        // The game says whether it has a solver of its own: no game is named here.
        let own = rules::with_game!(variant, |start| own_solver(&start));
        let method = match text {
            "auto" if mnk => Method::DfPn,
            "auto" => own.map_or(Method::AlphaBeta, Method::Own),
            "own" => match own {
                Some(describe) => Method::Own(describe),
                None => {
                    bail!("--method own: {variant} has no solver of its own; use auto or alphabeta")
                }
            },
            "dfpn" | "df-pn" => Method::DfPn,
            "alphabeta" | "alpha-beta" => Method::AlphaBeta,
            "vcf" => Method::Vcf,
            "vct" => Method::Vct,
            other => {
                bail!("--method {other}: the methods are auto, own, alphabeta, dfpn, vcf and vct")
            }
        };
        if !matches!(method, Method::AlphaBeta | Method::Own(_)) && !mnk {
            bail!("--method {text}: {variant} is not an m,n,k game; use alphabeta (or auto)");
        }
        Ok(method)
    }

    fn describe(self) -> &'static str {
        match self {
            Method::DfPn => "df-pn (proof-number search, VCF inside, symmetric table)",
            Method::Own(describe) => describe,
            Method::AlphaBeta => "alpha-beta (win/draw/loss, transposition table)",
            Method::Vcf => "VCF (a win by continuous fours)",
            Method::Vct => "VCT (a win by continuous fours and open threes)",
        }
    }
}

/// The description of the own solver of the game of `start`, if it has one.
fn own_solver<G: AgentGame>(_start: &G) -> Option<&'static str> {
    G::OWN_SOLVER
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

/// The player's name in the game's own words, and its seat: `X (first player)`.
fn player_name<G: Game>(position: &G, player: Player) -> String {
    format!("{} ({} player)", position.seat_name(player), player.name())
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
        println!(
            "after {}: the game is over",
            crate::plural(plies as u64, "move")
        );
    } else {
        println!(
            "after {}, {} to move",
            crate::plural(plies as u64, "move"),
            player_name(position, position.side_to_move())
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
    rules::with_game!(variant(&args.variant)?, |start| analyze_game(
        start, &args, &spec
    ))
}

fn analyze_game<G: AgentGame>(start: G, args: &AnalyzeArgs, spec: &AgentSpec) -> Result<()> {
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
    if !choice.pv.is_empty() {
        println!("pv: {}", agents::pv::texts(&position, &choice.pv).join(" "));
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

/// `arena solve`: prints the position, the method and the time limit, then (with progress on
/// a terminal) its exact value (absolute and for the side to move), the moves that keep it,
/// the values of the moves when asked, and the nodes and time spent; or, stopped early, the
/// best bound found.
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
    if let Some((limit, name)) = agents::memory::process_limit()
        && (args.tt_mb as u64) << 20 > limit
    {
        bail!(
            "--tt-mb {}: {}",
            args.tt_mb,
            agents::memory::over_limit(args.tt_mb as u64, limit, name)
        );
    }
    let time = if args.time_limit == 0.0 {
        None
    } else {
        Some(
            Duration::try_from_secs_f64(args.time_limit)
                .ok()
                .filter(|time| !time.is_zero())
                .ok_or_else(|| {
                    anyhow!(
                        "--time-limit {}: give a positive number of seconds (0: no limit)",
                        args.time_limit
                    )
                })?,
        )
    };
    if args.max_depth == 0 {
        bail!("--max-depth 0: give at least 1 ply");
    }
    let variant = variant(&args.variant)?;
    let method = Method::parse(&args.method, &variant)?;
    let monitor = Arc::new(Monitor::default());
    let limits = Limits::default()
        .with_tt_mb(args.tt_mb)
        .with_time(time)
        .with_max_depth(args.max_depth)
        .with_all_moves(true)
        .with_monitor(Some(monitor.clone()));
    match variant {
        Variant::Mnk(config) => {
            let position = position_after(config.start(), &args.moves)?;
            print_position(&position, &args.moves);
            print_method(method, time);
            if position.is_over() {
                return solve_game(position, &args, &limits, monitor);
            }
            match method {
                Method::AlphaBeta | Method::Own(_) => solve_game_with(
                    position,
                    &args,
                    &limits,
                    monitor,
                    agents::solve::try_solve_generic,
                ),
                Method::DfPn => solve_dfpn(&position, &args, &limits, monitor),
                Method::Vcf | Method::Vct => solve_threats(&position, method, time),
            }
        }
        // The solver's values are a side's win, draw or loss: games of two players only.
        other if other.players() > 2 => bail!(
            "`{other}` seats {} players, and the solver plays games of two: ask an agent \
             what it plays there (`arena analyze {other} --agent mcts`)",
            other.players()
        ),
        // Every other game: its own solver if it has one (auto), else the generic one.
        other => rules::with_game!(other, |start| {
            let position = position_after(start, &args.moves)?;
            print_position(&position, &args.moves);
            print_method(method, time);
            if method == Method::AlphaBeta {
                solve_game_with(
                    position,
                    &args,
                    &limits,
                    monitor,
                    agents::solve::try_solve_generic,
                )
            } else {
                solve_game(position, &args, &limits, monitor)
            }
        }),
    }
}

fn print_method(method: Method, time: Option<Duration>) {
    println!("method: {}", method.describe());
    match time {
        Some(time) => println!(
            "time limit: {} s (--time-limit SECONDS to change, 0 for none); Ctrl-C stops early",
            time.as_secs_f64()
        ),
        None => println!("time limit: none; Ctrl-C stops early"),
    }
}

/// Runs `work` on a thread of its own while this one shows `monitor`'s progress, with Ctrl-C
/// asking the work to stop (a second Ctrl-C ends the program).
fn watched<T: Send>(
    monitor: &Arc<Monitor>,
    what: impl Fn(&Monitor) -> String + Sync,
    work: impl FnOnce() -> T + Send,
) -> Result<T> {
    let stop_flag = monitor.clone();
    // A handler can be installed once per process; a second solve in the same process keeps
    // the first (`arena` runs one). SIGINT ignored when the arena started (`nohup`, a
    // background job) stays ignored.
    if !crate::ignored(2) {
        let _ = ctrlc::set_handler(move || {
            if stop_flag.stopping() {
                protocol::orphans::end();
                std::process::exit(130);
            }
            stop_flag.stop.store(true, Ordering::Relaxed);
        });
    }
    let started = Instant::now();
    std::thread::scope(|scope| {
        let worker = scope.spawn(work);
        let mut display = Progress::new();
        // Until the worker ends, whichever way: a panic ends it too, and is an error then.
        while !worker.is_finished() {
            std::thread::sleep(Duration::from_millis(100));
            if worker.is_finished() {
                break;
            }
            display.show(started.elapsed(), &what(monitor));
        }
        display.finish();
        worker.join().map_err(|panic| {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            anyhow!("the solver failed: {message}")
        })
    })
}

/// Progress lines: one line rewritten in place on a terminal, a plain line every five seconds
/// otherwise (both on stderr, so stdout keeps only the answer).
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    last_plain: Instant,
}

impl Progress {
    fn new() -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {msg}")
                    .expect("a valid template"),
            );
            bar
        });
        Progress {
            bar,
            last_plain: Instant::now(),
        }
    }

    fn show(&mut self, elapsed: Duration, state: &str) {
        let line = format!("{:.1} s, {state}", elapsed.as_secs_f64());
        match &self.bar {
            Some(bar) => bar.set_message(line),
            None => {
                if self.last_plain.elapsed() >= Duration::from_secs(5) {
                    self.last_plain = Instant::now();
                    eprintln!("progress: {line}");
                }
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Nodes, rate and table memory, as progress shows them.
fn nodes_and_memory(monitor: &Monitor, elapsed: Duration) -> String {
    let nodes = monitor.nodes.load(Ordering::Relaxed);
    let bytes = monitor.table_bytes.load(Ordering::Relaxed);
    let permille = monitor.table_permille.load(Ordering::Relaxed);
    let rate = nodes as f64 / elapsed.as_secs_f64().max(1e-3);
    let mut text = format!("{} nodes ({}/s)", short(nodes as f64), short(rate));
    if bytes > 0 {
        text.push_str(&format!(
            ", table {} MiB {:.1}% full",
            bytes >> 20,
            f64::from(permille) / 10.0
        ));
    }
    text
}

/// 1234567 as `1.23M`.
fn short(value: f64) -> String {
    if value >= 1e9 {
        format!("{:.2}G", value / 1e9)
    } else if value >= 1e6 {
        format!("{:.2}M", value / 1e6)
    } else if value >= 1e3 {
        format!("{:.1}k", value / 1e3)
    } else {
        format!("{value:.0}")
    }
}

fn solve_game<G: AgentGame>(
    position: G,
    args: &SolveArgs,
    limits: &Limits,
    monitor: Arc<Monitor>,
) -> Result<()> {
    solve_game_with(position, args, limits, monitor, agents::solve::try_solve)
}

/// Solves `position` with `solver` (the generic alpha-beta solver, or a game's own) and prints
/// what it found.
fn solve_game_with<G: AgentGame>(
    position: G,
    args: &SolveArgs,
    limits: &Limits,
    monitor: Arc<Monitor>,
    solver: impl FnOnce(&G, &Limits) -> Result<Solution<G::Move>, agents::memory::OutOfMemory> + Send,
) -> Result<()> {
    let started = Instant::now();
    let solution: Solution<G::Move> = watched(
        &monitor,
        |m| {
            let depth = m.depth.load(Ordering::Relaxed);
            let depth = if depth == 0 {
                String::new()
            } else {
                format!("depth {depth}, ")
            };
            format!("{depth}{}", nodes_and_memory(m, started.elapsed()))
        },
        || solver(&position, limits),
    )??;
    let mover = player_name(&position, solution.to_move);
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
        if solution.value.is_none() {
            let best = solution.moves.iter().filter_map(|m| m.value).max();
            if let Some(best) = best {
                println!(
                    "best bound so far: the side to move at least {}s (a move found worth that)",
                    match best {
                        Value::Win => "win",
                        Value::Draw => "draw",
                        Value::Loss => "lose",
                    }
                );
            }
        }
    }
    if !solution.complete && !position.is_over() {
        let why = if monitor.stopping() {
            "stopped by Ctrl-C"
        } else {
            "the limits ran out"
        };
        println!("incomplete: {why} (searched {} plies deep)", solution.depth);
    }
    let seconds = solution.elapsed.as_secs_f64();
    println!(
        "nodes: {} ({:.0} per second)",
        solution.nodes,
        solution.nodes as f64 / seconds.max(1e-9)
    );
    println!("time: {seconds:.3} s");
    print_table(&monitor, args.tt_mb);
    Ok(())
}

/// The size of the table the solve held, which is `--tt-mb` rounded down to a power of two.
fn print_table(monitor: &Monitor, tt_mb: usize) {
    let held = monitor.table_bytes.load(Ordering::Relaxed);
    if held == 0 {
        return;
    }
    let rounded = if held == (tt_mb as u64) << 20 {
        String::new()
    } else {
        format!(" (--tt-mb {tt_mb} rounded down to a power of two)")
    };
    println!("table: {} MiB{rounded}", held >> 20);
}

/// `--method dfpn`.
fn solve_dfpn(
    position: &Mnk,
    args: &SolveArgs,
    limits: &Limits,
    monitor: Arc<Monitor>,
) -> Result<()> {
    let started = Instant::now();
    let dfpn_limits = DfpnLimits {
        tt_mb: limits.tt_mb,
        time: limits.time,
        nodes: None,
        monitor: Some(monitor.clone()),
        all_moves: args.all_moves,
    };
    let solution = watched(
        &monitor,
        |m| {
            let question = match m.attacker.load(Ordering::Relaxed) {
                1 => "does X win? ",
                2 => "does O win? ",
                _ => "",
            };
            format!(
                "{question}pn {} dn {}, {}",
                short(f64::from(m.pn.load(Ordering::Relaxed))),
                short(f64::from(m.dn.load(Ordering::Relaxed))),
                nodes_and_memory(m, started.elapsed())
            )
        },
        || dfpn::try_solve(position, &dfpn_limits),
    )??;
    let mover = player_name(position, solution.to_move);
    let verb = |value: Value| match value {
        Value::Win => "wins",
        Value::Draw => "draws",
        Value::Loss => "loses",
    };
    let names = |moves: &[rules::Cell]| {
        moves
            .iter()
            .map(|&mv| position.format_move(mv))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match (solution.value, solution.outcome()) {
        (Some(value), Some(outcome)) => {
            println!("value: {}", describe_outcome(outcome));
            println!("side to move: {mover} {}", verb(value));
            if !solution.best.is_empty() {
                let kind = match value {
                    Value::Win => "winning",
                    Value::Draw => "drawing",
                    Value::Loss => "losing (every move loses)",
                };
                let all = if args.all_moves {
                    ""
                } else {
                    " (one; --all-moves for every one)"
                };
                if value == Value::Loss {
                    println!("every move loses");
                } else {
                    println!("{kind} moves: {}{all}", names(&solution.best));
                }
            }
        }
        _ => {
            println!("value: unknown within the limits");
            println!("side to move: {mover}");
            let bound = match (solution.at_least, solution.at_most) {
                (Value::Loss, Value::Draw) => "the side to move does not win (a draw or a loss)",
                (Value::Draw, Value::Win) => "the side to move does not lose (a win or a draw)",
                _ => "none yet",
            };
            println!("best bound so far: {bound}");
        }
    }
    if !solution.moves.is_empty() {
        let values: Vec<String> = solution
            .moves
            .iter()
            .map(|(cell, value)| {
                let value = value.map_or("?".to_string(), |v| v.to_string());
                format!("{} {value}", position.format_move(*cell))
            })
            .collect();
        println!("move values (for the side to move): {}", values.join(", "));
    }
    if let Some(why) = solution.stopped {
        println!("incomplete: stopped by {why}");
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

/// `--method vcf` and `--method vct`: the side to move's threat win, then the opponent's (as
/// if the side to move passed).
fn solve_threats(position: &Mnk, method: Method, time: Option<Duration>) -> Result<()> {
    let started = Instant::now();
    let deadline = time.map(|t| started + t);
    let me = position.side_to_move();
    let mut board = threats::Board::new(position);
    let mut nodes = 0;
    // A pass hands the move to the next seat.
    for (who, pass) in [(me, false), (me.next(position.num_players()), true)] {
        if pass {
            board.pass();
        }
        let mut search = threats::ThreatSearch::new(threats::ThreatLimits {
            depth: if method == Method::Vcf { 30 } else { 10 },
            nodes: u64::MAX,
            deadline,
        });
        let result = if method == Method::Vcf {
            search.vcf(&mut board)
        } else {
            search.vct(&mut board)
        };
        nodes += search.nodes;
        if pass {
            board.pass();
        }
        let name = player_name(position, who);
        let kind = if method == Method::Vcf { "VCF" } else { "VCT" };
        let whose = if pass {
            format!("{name}, if it were to move")
        } else {
            format!("{name}, to move")
        };
        match result {
            threats::ThreatResult::Win(line) => println!(
                "{kind} for {whose}: a win in {} plies: {}",
                line.len(),
                line.iter()
                    .map(|&c| position.format_move(c))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            threats::ThreatResult::NoWin => println!("{kind} for {whose}: none"),
            threats::ThreatResult::Unknown => {
                println!("{kind} for {whose}: unknown (the time limit ran out)")
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "nodes: {nodes} ({:.0} per second)",
        nodes as f64 / seconds.max(1e-9)
    );
    println!("time: {seconds:.3} s");
    Ok(())
}
