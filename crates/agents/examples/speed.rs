//! Long single runs of the agents, for profiling and for quick matches. The throughput figures
//! are `arena bench` (and its comparison with OpenSpiel, `benches/openspiel_compare.py`); the
//! micro-benchmarks are `benches/`.
//!
//! ```text
//! cargo run --release -p agents --example speed -- solve5x5 600   # mnk-5x5k4 from the start
//! cargo run --release -p agents --example speed -- mcts tictactoe 10000 400   # MCTS, profiled
//! cargo run --release -p agents --example speed -- match caro alphabeta:depth=4 neighbor 20
//! cargo run --release -p agents --example speed -- connect4 1 1024 "d d d d c c" "d c"  # 6x7 solver
//! cargo run --release -p agents --example speed -- connect4-random 20 8 1 256 1  # 20 random 8-ply
//! ```

use std::time::{Duration, Instant};

use agents::solve::{Limits, solve};
use agents::{AgentRng, AgentSpec, Context, build};
use rand::SeedableRng;
use rules::{Game, Mnk, Variant};

fn mnk(variant: &str) -> Mnk {
    variant
        .parse::<Variant>()
        .unwrap()
        .rules::<rules::MnkConfig>()
        .unwrap()
        .start()
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
    if args.first().map(String::as_str) == Some("connect4-random") {
        // The Connect Four solver on random 6x7 positions of PLIES plies where neither side
        // can win with its next stone (a quiet position, not decided at once):
        // `speed connect4-random COUNT PLIES THREADS TT_MB SEED`.
        let number =
            |at: usize, default: u64| args.get(at).and_then(|s| s.parse().ok()).unwrap_or(default);
        let (count, plies, threads, tt_mb, seed) = (
            number(1, 20),
            number(2, 8) as u32,
            number(3, 1) as usize,
            number(4, 256) as usize,
            number(5, 1),
        );
        let start = rules::Connect4Config::default().start();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut times = Vec::new();
        let (mut nodes, started) = (0, Instant::now());
        while (times.len() as u64) < count {
            let (mut position, mut line) = (start.clone(), Vec::new());
            while position.ply() < plies && position.outcome().is_none() {
                let mv = position.random_move(&mut rng).unwrap();
                line.push(position.format_move(mv));
                position = position.play(mv).unwrap();
            }
            let quiet = position.outcome().is_none()
                && position.winning_cells(rules::Player::First) & position.playable() == 0
                && position.winning_cells(rules::Player::Second) & position.playable() == 0;
            if !quiet {
                continue;
            }
            let solution = agents::games::connect4::solve::try_solve_with(
                &position,
                &Limits::default().with_tt_mb(tt_mb),
                threads,
            )
            .unwrap();
            println!(
                "{:>20}  {:?}  {:>12} nodes  {:>7.3} s",
                line.join(" "),
                solution.value.unwrap(),
                solution.nodes,
                solution.elapsed.as_secs_f64()
            );
            times.push(solution.elapsed.as_secs_f64());
            nodes += solution.nodes;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{count} positions of {plies} plies: median {:.3} s, longest {:.3} s, {nodes} nodes in \
             {:.3} s ({:.2} M nodes/s)",
            times[times.len() / 2],
            times[times.len() - 1],
            started.elapsed().as_secs_f64(),
            nodes as f64 / started.elapsed().as_secs_f64() / 1e6
        );
        return;
    }
    if args.first().map(String::as_str) == Some("connect4") {
        // The Connect Four solver on 6x7 positions, every move's value:
        // `speed connect4 THREADS TT_MB "MOVES" ["MOVES"...]` (moves like "d d c").
        let threads: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
        let tt_mb: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1024);
        let start = rules::Connect4Config::default().start();
        let (mut nodes, started) = (0, Instant::now());
        for line in args.iter().skip(3) {
            let position = start.play_line(line).unwrap();
            let solution = agents::games::connect4::solve::try_solve_with(
                &position,
                &Limits::default().with_tt_mb(tt_mb),
                threads,
            )
            .unwrap();
            let values: Vec<String> = solution
                .moves
                .iter()
                .map(|m| format!("{}:{:?}", position.format_move(m.mv), m.value.unwrap()))
                .collect();
            println!(
                "{line:>24}  {:?}  {:>13} nodes  {:>8.3} s  {:>5.2} M/s  {}",
                solution.value.unwrap(),
                solution.nodes,
                solution.elapsed.as_secs_f64(),
                solution.nodes as f64 / solution.elapsed.as_secs_f64() / 1e6,
                values.join(" ")
            );
            nodes += solution.nodes;
        }
        println!(
            "total {nodes} nodes, {:.3} s",
            started.elapsed().as_secs_f64()
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
        let start = variant
            .rules::<rules::MnkConfig>()
            .expect("an m,n,k variant")
            .start();
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

    eprintln!(
        "usage: speed mcts VARIANT ITERATIONS SEARCHES | speed match VARIANT AGENT OPPONENT GAMES \
         | speed solve5x5 SECONDS TT_MB\n(the throughput figures: `arena bench`)"
    );
    std::process::exit(2);
}
