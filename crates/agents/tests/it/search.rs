//! `alphabeta` against plain `minimax`: the same value at the same depth on random positions of
//! both games, and both find a win in one and block a loss in one.

use crate::common;

use agents::{AgentGame, alphabeta, minimax};
use common::{choose, mnk, oanquan, rng};
use rand::RngExt;
use rules::{Game, MoveList, OanQuan, OanQuanRules, Outcome, Player};

/// `count` positions that are not over, reached by random play from `start` (random lengths
/// up to `max_plies`).
fn random_positions<G: Game>(start: &G, count: usize, max_plies: u32, seed: u64) -> Vec<G> {
    let mut rng = rng(seed, 9);
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = start.clone();
        let plies = rng.random_range(0..=max_plies);
        for _ in 0..plies {
            match game.random_move(&mut rng) {
                Some(mv) => game.play_unchecked(mv),
                None => break,
            }
        }
        if !game.is_over() {
            out.push(game);
        }
    }
    out
}

fn assert_same_values<G: AgentGame>(name: &str, positions: &[G], depth: u32) {
    for (i, position) in positions.iter().enumerate() {
        let reference = minimax::value(position, depth);
        let searched = alphabeta::value(position, depth, 4).unwrap();
        assert_eq!(
            searched, reference,
            "{name} position {i} at depth {depth}:\n{position}"
        );
    }
}

#[test]
fn alphabeta_equals_minimax_on_mnk_boards() {
    // (variant, positions, plies of random play at most, depth)
    let cases = [
        ("mnk-3x3k3", 100, 8, 9),
        ("mnk-3x3k3", 100, 8, 3),
        ("mnk-4x4k3", 100, 12, 4),
        ("mnk-4x4k4", 30, 12, 5),
        ("mnk-5x5k4", 60, 18, 3),
        ("mnk-5x5k4-caro", 40, 18, 3),
        ("mnk-6x6k4-exact", 25, 25, 3),
        ("mnk-6x6k3-exact", 25, 25, 3),
        ("mnk-4x6k3-caro", 25, 18, 4),
        ("mnk-7x7k5", 30, 30, 2),
        ("mnk-1x9k3", 30, 6, 5),
    ];
    for (seed, (variant, count, plies, depth)) in cases.into_iter().enumerate() {
        let positions = random_positions(&mnk(variant), count, plies, seed as u64);
        assert_same_values(variant, &positions, depth);
    }
}

#[test]
fn alphabeta_equals_minimax_in_o_an_quan() {
    for (seed, (variant, depth)) in [
        ("oanquan", 4),
        ("oanquan", 6),
        ("oanquan-stop-young5", 5),
        ("oanquan-mandarin5-end", 5),
    ]
    .into_iter()
    .enumerate()
    {
        let positions = random_positions(&oanquan(variant), 60, 40, 100 + seed as u64);
        assert_same_values(variant, &positions, depth);
    }
}

/// The agents report the value they searched: at depth 2 and more it is minimax's value,
/// the root tactics notwithstanding.
#[test]
fn the_alphabeta_agent_reports_the_minimax_value() {
    let mut checked = 0;
    for position in random_positions(&mnk("mnk-5x5k4"), 60, 16, 77) {
        let choice = choose("alphabeta:depth=3", &position, 1);
        let reason = choice.stats.reason.clone().unwrap_or_default();
        if reason == "win now" || reason.contains("only") || choice.stats.depth != Some(3) {
            continue;
        }
        assert_eq!(
            choice.stats.score,
            Some(f64::from(minimax::value(&position, 3))),
            "{position}"
        );
        checked += 1;
    }
    assert!(checked > 30, "too few positions searched fully: {checked}");
}

/// Whether the side to move of `position` could win at once.
fn wins_at_once<G: AgentGame>(position: &G) -> Vec<G::Move> {
    let mut wins = MoveList::new();
    position.immediate_wins(&mut wins);
    wins.to_vec()
}

/// Whether after `mv` the opponent cannot win at once.
fn safe<G: AgentGame>(position: &G, mv: G::Move) -> bool {
    wins_at_once(&position.child(mv)).is_empty()
}

/// Positions where the side to move can win at once, and positions where it cannot but the
/// opponent threatens to and some move stops it.
fn tactical_positions<G: AgentGame>(start: &G, max_plies: u32, seed: u64) -> (Vec<G>, Vec<G>) {
    let (mut wins, mut blocks) = (Vec::new(), Vec::new());
    for position in random_positions(start, 400, max_plies, seed) {
        if !wins_at_once(&position).is_empty() {
            if wins.len() < 12 {
                wins.push(position);
            }
            continue;
        }
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let safe_moves = moves.iter().filter(|&&mv| safe(&position, mv)).count();
        if safe_moves > 0 && safe_moves < moves.len() && blocks.len() < 12 {
            blocks.push(position);
        }
    }
    (wins, blocks)
}

fn check_tactics<G: AgentGame>(name: &str, start: &G, max_plies: u32, specs: &[&str]) {
    let (wins, blocks) = tactical_positions(start, max_plies, 5);
    assert!(
        wins.len() >= 5 && blocks.len() >= 5,
        "{name}: too few test positions"
    );
    for spec in specs {
        for position in &wins {
            let mv = choose(spec, position, 3).mv;
            let me = position.side_to_move();
            assert_eq!(
                position.child(mv).outcome(),
                Some(Outcome::Win(me)),
                "{spec} on {name} missed a win in one:\n{position}"
            );
        }
        for position in &blocks {
            let mv = choose(spec, position, 3).mv;
            assert!(
                safe(position, mv),
                "{spec} on {name} did not stop a loss in one with {}:\n{position}",
                position.format_move(mv)
            );
        }
    }
}

#[test]
fn both_win_in_one_and_block_a_loss_in_one_on_every_board() {
    // The automatic depth of `minimax` costs about a million nodes a move: small boards only.
    let everywhere = [
        "minimax:depth=2",
        "alphabeta:nodes=20000",
        "alphabeta:depth=1",
    ];
    let small = ["minimax", "alphabeta"];
    for (variant, plies) in [
        ("mnk-3x3k3", 6),
        ("mnk-4x4k3", 8),
        ("mnk-5x5k4", 12),
        ("mnk-7x7k4-caro", 20),
        ("mnk-9x9k5", 40),
        ("mnk-6x8k4-exact", 26),
    ] {
        check_tactics(variant, &mnk(variant), plies, &everywhere);
        if variant.starts_with("mnk-3x3") || variant.starts_with("mnk-4x4") {
            check_tactics(variant, &mnk(variant), plies, &small);
        }
    }
    check_tactics("oanquan", &oanquan("oanquan"), 40, &everywhere);
    check_tactics("oanquan", &oanquan("oanquan"), 40, &small);
}

#[test]
fn both_win_in_one_on_a_built_o_an_quan_position() {
    // 3P captures mandarin A, which ends the game 38 to 32; 3T does not.
    let game = OanQuan::from_parts(
        OanQuanRules::default(),
        [0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0],
        [true, false],
        [27, 27],
        Player::First,
    );
    for spec in [
        "minimax:depth=1",
        "minimax",
        "alphabeta:depth=1",
        "alphabeta",
    ] {
        assert_eq!(game.format_move(choose(spec, &game, 1).mv), "3P", "{spec}");
    }
}

#[test]
fn alphabeta_blocks_on_a_built_o_an_quan_position() {
    // Player 2 to move; player 1 threatens 3P, which captures mandarin A and ends the game in
    // player 1's favour. Some replies stop it (a seed sown into mandarin B keeps the game
    // going), others do not.
    let game = OanQuan::from_parts(
        OanQuanRules::default(),
        [0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0],
        [true, false],
        [30, 26],
        Player::Second,
    );
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let safe_moves: Vec<String> = moves
        .iter()
        .filter(|&&mv| safe(&game, mv))
        .map(|&mv| game.format_move(mv))
        .collect();
    assert!(
        !safe_moves.is_empty() && safe_moves.len() < moves.len(),
        "{safe_moves:?}"
    );
    for spec in ["minimax:depth=2", "alphabeta:depth=1", "alphabeta"] {
        let mv = game.format_move(choose(spec, &game, 1).mv);
        assert!(
            safe_moves.contains(&mv),
            "{spec} played {mv}, safe: {safe_moves:?}"
        );
    }
}
