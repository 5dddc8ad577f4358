//! Rough speed figures of the agents, for comparing with issue 6's OpenSpiel numbers. Not a
//! benchmark suite (that is `benches/`): one run each, wall time, single-threaded unless said.
//!
//! ```text
//! cargo run --release -p agents --example speed            # everything but the long solve
//! cargo run --release -p agents --example speed -- solve5x5 600   # mnk-5x5k4 from the start
//! cargo run --release -p agents --example speed -- mcts tictactoe 10000 400   # MCTS, profiled
//! cargo run --release -p agents --example speed -- match caro alphabeta:depth=4 neighbor 20
//! ```

use std::time::{Duration, Instant};

use agents::solve::{Limits, solve};
use agents::{AgentRng, AgentSpec, Context, build, playout};
use rand::SeedableRng;
use rules::{Game, Mnk, Variant};

fn mnk(variant: &str) -> Mnk {
    variant.parse::<Variant>().unwrap().mnk().unwrap().start()
}

fn choose_timed(spec: &str, position: &Mnk) -> (String, u64, Duration) {
    let spec: AgentSpec = spec.parse().unwrap();
    let mut agent = build::<Mnk>(&spec).unwrap();
    let mut rng = AgentRng::seed_from_u64(1);
    let started = Instant::now();
    let choice = agent.choose(position, &mut Context::new(&mut rng)).unwrap();
    (
        position.format_move(choice.mv),
        choice.stats.nodes,
        started.elapsed(),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("mcts") {
        // One long MCTS search, for profiling: `speed mcts VARIANT ITERATIONS`.
        let variant = args.get(1).map_or("tictactoe", String::as_str);
        let iterations = args.get(2).map_or("10000", String::as_str);
        let searches: u32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
        let spec = format!("mcts:iterations={iterations},c=2");
        let started = Instant::now();
        let mut simulations = 0;
        for _ in 0..searches {
            simulations += choose_timed(&spec, &mnk(variant)).1;
        }
        println!(
            "{spec} on {variant}: {searches} searches, {:.0} simulations per second",
            simulations as f64 / started.elapsed().as_secs_f64()
        );
        return;
    }
    if args.first().map(String::as_str) == Some("match") {
        // A quick match, colours alternated: `speed match VARIANT AGENT OPPONENT GAMES`.
        let variant: Variant = args.get(1).map_or("caro", String::as_str).parse().unwrap();
        let agent: AgentSpec = args
            .get(2)
            .map_or("alphabeta:depth=4", String::as_str)
            .parse()
            .unwrap();
        let opponent: AgentSpec = args
            .get(3)
            .map_or("neighbor", String::as_str)
            .parse()
            .unwrap();
        let games: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(20);
        let start = variant.mnk().expect("an m,n,k variant").start();
        let started = Instant::now();
        let mut points = 0.0;
        for game in 0..games {
            let me = if game % 2 == 0 {
                rules::Player::First
            } else {
                rules::Player::Second
            };
            let mut players = [
                build::<Mnk>(&agent).unwrap(),
                build::<Mnk>(&opponent).unwrap(),
            ];
            if me == rules::Player::Second {
                players.swap(0, 1);
            }
            let mut rngs = [
                AgentRng::seed_from_u64(game * 2),
                AgentRng::seed_from_u64(game * 2 + 1),
            ];
            let mut position = start.clone();
            while !position.is_over() {
                let side = position.side_to_move().index();
                let choice = players[side]
                    .choose(&position, &mut Context::new(&mut rngs[side]))
                    .unwrap();
                position = position.play(choice.mv).unwrap();
            }
            points += position.adjudicate().score(me);
        }
        println!(
            "{agent} vs {opponent} on {variant}: {points} of {games} in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        return;
    }
    if args.first().map(String::as_str) == Some("solve5x5") {
        let seconds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(600);
        let tt_mb: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1024);
        let limits = Limits::default()
            .with_tt_mb(tt_mb)
            .with_time(Some(Duration::from_secs(seconds)))
            .with_all_moves(false);
        let solution = solve(&mnk("mnk-5x5k4"), &limits);
        println!(
            "solve mnk-5x5k4 from the start: value {:?}, nodes {}, {:.1} s, table {} per mille full, \
             complete {}",
            solution.value,
            solution.nodes,
            solution.elapsed.as_secs_f64(),
            solution.table_permille,
            solution.complete
        );
        return;
    }

    // MCTS simulations per second from the start, c = 2 on rewards in [-1, 1], one random
    // playout per simulation (OpenSpiel's settings in issue 6): a fresh agent per search (as the
    // arena builds one per game), 10,000 simulations each, repeated for a second or more.
    for variant in ["tictactoe", "mnk-5x5k4", "mnk-15x15k5"] {
        let position = mnk(variant);
        let started = Instant::now();
        let (mut searches, mut simulations) = (0u64, 0u64);
        while searches < 3 || started.elapsed() < Duration::from_secs(1) {
            let (_, nodes, _) = choose_timed("mcts:iterations=10000,c=2", &position);
            simulations += nodes;
            searches += 1;
        }
        let elapsed = started.elapsed().as_secs_f64();
        println!(
            "mcts {variant}: {searches} searches of 10,000 simulations, {:.0} simulations per second",
            simulations as f64 / elapsed
        );
    }

    // Random playouts per second from the empty 15x15 board.
    let start = mnk("mnk-15x15k5");
    let mut rng = playout::stream_rng(1, 0);
    let started = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    while started.elapsed() < Duration::from_secs(2) {
        for _ in 0..1000 {
            let mut game = start.clone();
            playout::random_playout(&mut game, &mut rng, u32::MAX);
            plies += u64::from(game.ply());
            games += 1;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "random playouts mnk-15x15k5: {:.0} per second ({:.1} plies each)",
        games as f64 / elapsed,
        plies as f64 / games as f64
    );

    // Flat Monte Carlo on the TD4 position, 1,000 playouts per candidate: the mean of 20
    // searches (rayon's pool warmed up first).
    let td4 = mnk("mnk-5x5k4").play_line("b3 c3 c2 d1 b2 a2").unwrap();
    choose_timed("mc-par:rollouts=10", &td4);
    let mut seconds = Vec::new();
    for spec in [
        "mc-flat:rollouts=1000",
        "mc-near:rollouts=1000",
        "mc-par:rollouts=1000",
    ] {
        let mut total = Duration::ZERO;
        let mut last = (String::new(), 0);
        for _ in 0..20 {
            let (mv, nodes, elapsed) = choose_timed(spec, &td4);
            total += elapsed;
            last = (mv, nodes);
        }
        let mean = total.as_secs_f64() / 20.0;
        seconds.push(mean);
        println!(
            "{spec} on TD4: {} after {} playouts, {:.4} s per search",
            last.0, last.1, mean
        );
    }
    println!(
        "mc-par speed-up over mc-near: {:.2}",
        seconds[1] / seconds[2]
    );

    // Alpha-beta nodes per second.
    for (variant, spec) in [
        ("mnk-15x15k5", "alphabeta:depth=3"),
        ("mnk-9x9k5", "alphabeta:depth=4"),
    ] {
        let game = mnk(variant).play_line("e5 d4 f6").unwrap();
        let (mv, nodes, elapsed) = choose_timed(spec, &game);
        println!(
            "{spec} on {variant}: {mv}, {nodes} nodes in {:.3} s = {:.0} per second",
            elapsed.as_secs_f64(),
            nodes as f64 / elapsed.as_secs_f64()
        );
    }

    // The solver.
    for (name, position) in [("TD4", td4.clone()), ("mnk-4x4k4", mnk("mnk-4x4k4"))] {
        let solution = solve(&position, &Limits::default());
        println!(
            "solve {name}: {:?}, {} best moves, {} nodes in {:.3} s",
            solution.value,
            solution.best.len(),
            solution.nodes,
            solution.elapsed.as_secs_f64()
        );
    }
}
