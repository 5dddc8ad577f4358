//! The agents' hot paths: one random playout per variant, an MCTS search of fixed size, an
//! alpha-beta search of fixed depth, flat Monte Carlo on the TD4 position, and the m,n,k
//! strength code (VCF, df-pn, the `threat` agent).

use std::time::Duration;

use agents::playout::{self, PLAYOUT_PLY_CAP, Rollout};
use agents::{Agent, AgentGame, AgentRng, AgentSpec, Context, build};
use arena_benches::{mnk, oanquan, td4};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rules::Game;

fn agent<G: AgentGame>(spec: &str) -> Box<dyn Agent<G>> {
    build::<G>(&spec.parse::<AgentSpec>().expect("a spec")).expect("an agent")
}

/// One search of `agent` in `position`, with the same seed every time.
fn search<G: AgentGame>(agent: &mut dyn Agent<G>, position: &G) -> u64 {
    let mut rng = AgentRng::seed_from_u64(1);
    let choice = agent
        .choose(position, &mut Context::new(&mut rng))
        .expect("a move");
    choice.stats.nodes
}

/// One random playout from the start, to the end (each iteration a different game).
fn random_playout(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    fn one<G: AgentGame>(
        group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
        id: &str,
        start: G,
    ) {
        let mut rng = playout::stream_rng(1, 0);
        group.bench_with_input(BenchmarkId::from_parameter(id), &start, |b, start| {
            b.iter(|| {
                let mut game = start.clone();
                game.playout(Rollout::Random, &mut rng, PLAYOUT_PLY_CAP)
            })
        });
    }
    for id in ["tictactoe", "mnk-5x5k4", "mnk-15x15k5", "mnk-19x19k5"] {
        one(&mut group, id, mnk(id));
    }
    one(&mut group, "oanquan", oanquan("oanquan"));
    // The `near` policy of mc-near and mc-par, from TD4.
    let mut rng = playout::stream_rng(1, 0);
    let position = td4();
    group.bench_function("td4-near", |b| {
        b.iter(|| {
            let mut game = position.clone();
            game.playout(Rollout::Near, &mut rng, PLAYOUT_PLY_CAP)
        })
    });
    group.finish();
}

/// MCTS, 1,000 simulations without the solver (so the size is fixed), one agent throughout.
fn mcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts-1000");
    let spec = "mcts:iterations=1000,c=2,solver=false";
    for id in ["tictactoe", "mnk-5x5k4", "mnk-15x15k5"] {
        let start = mnk(id);
        let mut searcher = agent::<rules::Mnk>(spec);
        group.bench_function(id, |b| b.iter(|| search(searcher.as_mut(), &start)));
    }
    let start = oanquan("oanquan");
    let mut searcher = agent::<rules::OanQuan>(spec);
    group.bench_function("oanquan", |b| b.iter(|| search(searcher.as_mut(), &start)));
    group.finish();
}

/// Alpha-beta at a fixed depth (its table emptied by every search).
fn alphabeta(c: &mut Criterion) {
    let mut group = c.benchmark_group("alphabeta");
    let position = mnk("mnk-9x9k5").play_line("e5 d4 f6").expect("legal moves");
    let mut searcher = agent::<rules::Mnk>("alphabeta:depth=4,tt_mb=16");
    group.bench_function("mnk-9x9k5/depth-4", |b| {
        b.iter(|| search(searcher.as_mut(), &position))
    });
    let start = oanquan("oanquan");
    let mut searcher = agent::<rules::OanQuan>("alphabeta:depth=8,tt_mb=16");
    group.bench_function("oanquan/depth-8", |b| {
        b.iter(|| search(searcher.as_mut(), &start))
    });
    group.finish();
}

/// Flat Monte Carlo on TD4 at 100 playouts per candidate.
fn flat_monte_carlo(c: &mut Criterion) {
    let mut group = c.benchmark_group("td4-100");
    let position = td4();
    for kind in ["mc-flat", "mc-near"] {
        let mut searcher = agent::<rules::Mnk>(&format!("{kind}:rollouts=100"));
        group.bench_function(kind, |b| b.iter(|| search(searcher.as_mut(), &position)));
    }
    group.finish();
}

/// The m,n,k strength code: a VCF search (the tactics suite's longest VCF positions), df-pn
/// solves of TD4 and 4x4 k=4, and the `threat` agent at a fixed node budget.
fn threats(c: &mut Criterion) {
    use agents::dfpn::{self, DfpnLimits};
    use agents::tactics::{self, PuzzleKind};
    use agents::threats::{ThreatLimits, vcf};
    let mut group = c.benchmark_group("threats");
    let longest: Vec<rules::Mnk> = tactics::suite()
        .into_iter()
        .filter(|p| p.kind == PuzzleKind::Vcf(15))
        .map(|p| p.position)
        .collect();
    group.bench_function("vcf/15-plies", |b| {
        b.iter(|| {
            longest
                .iter()
                .map(|position| vcf(position, ThreatLimits::default()).1)
                .sum::<u64>()
        })
    });
    let limits = DfpnLimits {
        tt_mb: 16,
        ..DfpnLimits::default()
    };
    let position = td4();
    group.bench_function("dfpn/td4", |b| {
        b.iter(|| dfpn::solve(&position, &limits).nodes)
    });
    let square = mnk("mnk-4x4k4");
    group.bench_function("dfpn/mnk-4x4k4", |b| {
        b.iter(|| dfpn::solve(&square, &limits).nodes)
    });
    // A stone put and taken back on mid-game 15x15 boards: the patterns' incremental update.
    let start = mnk("mnk-15x15k5");
    let mut boards: Vec<(agents::pattern::Patterns, rules::Cell, rules::Player)> =
        arena_benches::random_positions(&start, 64, 60, 5)
            .into_iter()
            .map(|game| {
                let cell = game.empty_cells().iter().next().expect("an empty cell");
                (
                    agents::pattern::Patterns::new(&game),
                    cell,
                    game.side_to_move(),
                )
            })
            .collect();
    group.bench_function("patterns/play-undo-64", |b| {
        b.iter(|| {
            for (patterns, cell, player) in boards.iter_mut() {
                patterns.play(*cell, *player);
                patterns.undo(*cell, *player);
            }
        })
    });
    let position = mnk("mnk-15x15k5")
        .play_line("h8 i9 h10")
        .expect("legal moves");
    let mut searcher = agent::<rules::Mnk>("threat:nodes=20000,tt_mb=16");
    group.bench_function("threat/mnk-15x15k5/20000-nodes", |b| {
        b.iter(|| search(searcher.as_mut(), &position))
    });
    group.finish();
}

fn config() -> Criterion {
    // Short runs: the whole suite in a few minutes; the figures are stable to a few per cent.
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = random_playout, mcts, alphabeta, flat_monte_carlo, threats
}
criterion_main!(benches);
