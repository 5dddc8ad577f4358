//! The rules' hot paths: the win check after a stone, move generation, a random move, a
//! copy-make move, and O An Quan's sowing.

use std::hint::black_box;
use std::time::Duration;

use arena_benches::{MNK_VARIANTS, mnk, oanquan, random_positions, win_checks};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
use rules::{Game, MoveList};

/// Mid-game positions per benchmark: the time reported is for all of them.
const POSITIONS: usize = 64;

fn win_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("win_check");
    for id in MNK_VARIANTS {
        let checks = win_checks(id, POSITIONS);
        group.bench_with_input(BenchmarkId::from_parameter(id), &checks, |b, checks| {
            b.iter(|| {
                checks
                    .iter()
                    .filter(|(game, cell)| game.wins_at(*cell, game.side_to_move()))
                    .count()
            })
        });
    }
    group.finish();
}

fn move_generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for id in MNK_VARIANTS {
        let start = mnk(id);
        let positions = random_positions(&start, POSITIONS, start.default_max_plies() / 2, 1);
        bench_legal_moves(&mut group, BenchmarkId::from_parameter(id), &positions);
    }
    let positions = random_positions(&oanquan("oanquan"), POSITIONS, 30, 1);
    bench_legal_moves(
        &mut group,
        BenchmarkId::from_parameter("oanquan"),
        &positions,
    );
    group.finish();
}

/// `legal_moves` into one reused buffer, over every position of `positions`.
fn bench_legal_moves<G: Game>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    positions: &[G],
) {
    group.bench_with_input(id, positions, |b, positions| {
        let mut moves = MoveList::new();
        b.iter(|| {
            positions
                .iter()
                .map(|game| {
                    game.legal_moves(&mut moves);
                    moves.len()
                })
                .sum::<usize>()
        })
    });
}

fn random_move(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_move");
    for id in MNK_VARIANTS {
        let start = mnk(id);
        let positions = random_positions(&start, POSITIONS, start.default_max_plies() / 2, 2);
        let mut rng = agents::playout::stream_rng(1, 0);
        group.bench_with_input(
            BenchmarkId::from_parameter(id),
            &positions,
            |b, positions| {
                b.iter(|| {
                    positions
                        .iter()
                        .filter_map(|game| game.random_move(&mut rng))
                        .count()
                })
            },
        );
    }
    group.finish();
}

/// A copy-make move (the position copied, the stone placed, the win checked).
fn play(c: &mut Criterion) {
    let mut group = c.benchmark_group("play");
    for id in MNK_VARIANTS {
        let checks = win_checks(id, POSITIONS);
        group.bench_with_input(BenchmarkId::from_parameter(id), &checks, |b, checks| {
            b.iter(|| {
                checks
                    .iter()
                    .filter(|(game, cell)| game.child(*cell).is_over())
                    .count()
            })
        });
    }
    group.finish();
}

/// O An Quan's sowing: every legal move of mid-game positions, played by copy-make.
fn sowing(c: &mut Criterion) {
    let positions = random_positions(&oanquan("oanquan"), POSITIONS, 30, 4);
    let moves: Vec<_> = positions
        .iter()
        .flat_map(|game| {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            moves.into_iter().map(move |mv| (game.clone(), mv))
        })
        .collect();
    c.bench_function("oanquan_sow", |b| {
        b.iter(|| {
            moves
                .iter()
                .map(|(game, mv)| game.child(*mv).captures(rules::Player::First))
                .sum::<i32>()
        })
    });
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    let tictactoe = mnk("tictactoe");
    group.bench_function("tictactoe/6", |b| {
        b.iter(|| rules::perft(black_box(&tictactoe), 6))
    });
    let start = oanquan("oanquan");
    group.bench_function("oanquan/5", |b| {
        b.iter(|| rules::perft(black_box(&start), 5))
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
    targets = win_check, move_generation, random_move, play, sowing, perft
}
criterion_main!(benches);
