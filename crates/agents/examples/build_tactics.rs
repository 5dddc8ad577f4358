//! Builds the tactics suite, `crates/agents/tests/data/tactics.txt` (see `agents::tactics`):
//!
//! ```text
//! cargo run --release -p agents --example build_tactics > crates/agents/tests/data/tactics.txt
//! ```
//!
//! Large boards (gomoku, caro): seeded games between weak and strong agents, every position
//! along them classified (a win at once, a block, a VCF and its length), at most one position
//! of a kind per game (the longest VCF), until each kind and VCF length has its quota; VCF
//! lengths the games did not fill come from random stones around the centre. Small boards: seeded
//! random positions solved by df-pn, every move valued, kept when only some moves win (or
//! keep the draw). Deterministic: the same suite every run.

use std::collections::BTreeMap;

use agents::tactics::{Puzzle, PuzzleKind, classify};
use agents::{AgentRng, AgentSpec, Context, build};
use rand::{RngExt, SeedableRng};
use rules::{Game, Mnk, MoveList, Variant};

fn start(id: &str) -> Mnk {
    id.parse::<Variant>()
        .expect("a variant id")
        .rules::<rules::MnkConfig>()
        .expect("an m,n,k variant")
        .start()
}

/// How many positions of each kind a large-board variant contributes.
fn quota(kind: PuzzleKind) -> usize {
    match kind {
        PuzzleKind::WinNow | PuzzleKind::Block => 12,
        PuzzleKind::Vcf(plies) if plies <= 15 => 3,
        _ => 0,
    }
}

/// One game of `specs` from a two-stone opening near the centre; every position visited.
fn play(variant: &str, specs: [&str; 2], rng: &mut AgentRng, mut visit: impl FnMut(&Mnk, &str)) {
    let mut position = start(variant);
    let mut moves = Vec::new();
    let centre = position.config().center_cell();
    let (row, col) = position.config().row_col(centre);
    for _ in 0..2 {
        let r = (i32::from(row) + rng.random_range(-2..=2)) as u8;
        let c = (i32::from(col) + rng.random_range(-2..=2)) as u8;
        let cell = position.config().cell(r, c).expect("on the board");
        if position.is_legal(cell) {
            moves.push(position.format_move(cell));
            position.play_unchecked(cell);
        }
    }
    let mut agents: Vec<_> = specs
        .iter()
        .map(|spec| build::<Mnk>(&spec.parse::<AgentSpec>().expect("a spec")).expect("an agent"))
        .collect();
    while !position.is_over() {
        visit(&position, &moves.join(" "));
        let side = position.side_to_move().index();
        let choice = agents[side]
            .choose(&position, &mut Context::new(rng))
            .expect("a move");
        moves.push(position.format_move(choice.mv));
        position.play_unchecked(choice.mv);
    }
}

fn main() {
    let mut rng = AgentRng::seed_from_u64(2026);
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let pairings = [
        ["mc-near:rollouts=20", "mc-near:rollouts=20"],
        ["threat:nodes=1000,vct=false", "mc-near:rollouts=20"],
        ["mc-near:rollouts=20", "alphabeta:depth=2"],
    ];
    for variant in ["gomoku", "caro"] {
        let mut counts: BTreeMap<PuzzleKind, usize> = BTreeMap::new();
        let needed = |counts: &BTreeMap<PuzzleKind, usize>, kind| {
            counts.get(&kind).copied().unwrap_or(0) < quota(kind)
        };
        let complete = |counts: &BTreeMap<PuzzleKind, usize>| {
            [PuzzleKind::WinNow, PuzzleKind::Block]
                .into_iter()
                .chain((3..=15).step_by(2).map(PuzzleKind::Vcf))
                .all(|kind| !needed(counts, kind))
        };
        let mut game = 0;
        while !complete(&counts) && game < 1000 {
            let specs = pairings[game % pairings.len()];
            game += 1;
            // Of each game: the first win in one and block still wanted, and the longest VCF
            // whose length is still wanted.
            let mut found: Vec<Puzzle> = Vec::new();
            play(variant, specs, &mut rng, |position, moves| {
                if position.ply() < 6 {
                    return;
                }
                let Ok((kind, answer)) = classify(position, false, 0.0) else {
                    return;
                };
                if !needed(&counts, kind) {
                    return;
                }
                let same = found.iter().position(|p| p.kind.group() == kind.group());
                let longer = match (same.map(|i| found[i].kind), kind) {
                    (None, _) => true,
                    (Some(PuzzleKind::Vcf(old)), PuzzleKind::Vcf(new)) => new > old,
                    _ => false,
                };
                if longer {
                    if let Some(i) = same {
                        found.remove(i);
                    }
                    found.push(Puzzle {
                        line: 0,
                        position: position.clone(),
                        moves: moves.to_string(),
                        kind,
                        answer,
                    });
                }
            });
            for puzzle in found {
                if needed(&counts, puzzle.kind) {
                    *counts.entry(puzzle.kind).or_default() += 1;
                    eprintln!("{variant} game {game}: {}", puzzle.kind);
                    puzzles.push(puzzle);
                }
            }
        }
        eprintln!("{variant}: {game} games, {counts:?}");
        // Long VCFs are rare in games: the rest from random stones around the centre.
        let mut tries = 0;
        while !complete(&counts) && tries < 20_000 {
            tries += 1;
            let mut position = start(variant);
            let mut moves = Vec::new();
            let (row, col) = position.config().row_col(position.config().center_cell());
            let stones = rng.random_range(16..40);
            while moves.len() < stones {
                let r = (i32::from(row) + rng.random_range(-4..=4)) as u8;
                let c = (i32::from(col) + rng.random_range(-4..=4)) as u8;
                let cell = position.config().cell(r, c).expect("on the board");
                if position.is_legal(cell) && !position.child(cell).is_over() {
                    moves.push(position.format_move(cell));
                    position.play_unchecked(cell);
                }
            }
            let Ok((kind, answer)) = classify(&position, false, 0.0) else {
                continue;
            };
            if matches!(kind, PuzzleKind::Vcf(_)) && needed(&counts, kind) {
                *counts.entry(kind).or_default() += 1;
                eprintln!("{variant} random {tries}: {kind}");
                puzzles.push(Puzzle {
                    line: 0,
                    position,
                    moves: moves.join(" "),
                    kind,
                    answer,
                });
            }
        }
        eprintln!("{variant}: {tries} random positions, {counts:?}");
    }
    // Small boards, solved exactly.
    let small = [
        "mnk-5x5k4",
        "mnk-6x5k4",
        "mnk-6x6k5",
        "mnk-5x5k4-caro",
        "mnk-4x5k4-exact",
        "mnk-4x4k3",
    ];
    let (mut wins, mut draws, mut tries) = (0, 0, 0);
    while (wins < 12 || draws < 12) && tries < 5000 {
        tries += 1;
        let variant = small[tries % small.len()];
        let mut position = start(variant);
        let mut moves = Vec::new();
        for _ in 0..rng.random_range(3..9) {
            match position.random_move(&mut rng) {
                Some(cell) if !position.child(cell).is_over() => {
                    moves.push(position.format_move(cell));
                    position.play_unchecked(cell);
                }
                _ => break,
            }
        }
        let Ok((kind, answer)) = classify(&position, true, 5.0) else {
            continue;
        };
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        let keep = match kind {
            PuzzleKind::Win => wins < 12 && answer.len() * 3 <= legal.len(),
            PuzzleKind::Draw => draws < 12 && answer.len() * 3 <= legal.len() * 2,
            _ => false,
        };
        if keep {
            if kind == PuzzleKind::Win {
                wins += 1;
            } else {
                draws += 1;
            }
            eprintln!(
                "{variant}: {kind} ({} of {} moves)",
                answer.len(),
                legal.len()
            );
            puzzles.push(Puzzle {
                line: 0,
                position,
                moves: moves.join(" "),
                kind,
                answer,
            });
        }
    }
    println!("# The tactics suite (see agents::tactics): variant | moves | kind | answer.");
    println!("# Built by `cargo run --release -p agents --example build_tactics`; do not edit by");
    println!("# hand: crates/agents/tests/it/tactics.rs checks every answer with the solvers.");
    for puzzle in &puzzles {
        println!("{}", puzzle.to_line());
    }
}
