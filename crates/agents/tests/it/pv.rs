//! Principal variations (`Choice::pv`): the searching agents give one that starts with their
//! move and is legal move by move, in every game; a proven win's line ends in the win; the
//! same seed gives the same line.

use crate::common::{choose, mnk, mnk_after, oanquan, td4};
use agents::tactics::{self, PuzzleKind, suite};
use agents::{AgentGame, Choice, pv};
use rules::breakthrough::Breakthrough;
use rules::othello::Othello;
use rules::oware::Oware;
use rules::{AnyGame, Connect4, FromAny, Game, Outcome, Variant};

/// The position at the end of `line` from `position`, checking each move is legal in turn.
fn after<G: Game>(position: &G, line: &[G::Move], what: &str) -> G {
    let mut current = position.clone();
    for (i, &mv) in line.iter().enumerate() {
        assert!(
            !current.is_over() && current.is_legal(mv),
            "{what}: ply {i} of the line {} is not legal",
            line.iter()
                .map(|&m| format!("{m:?}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        current = current.child(mv);
    }
    current
}

/// The choice's line is a line: its move first, legal in turn, at most `pv::PLIES` long.
fn check_line<G: AgentGame>(position: &G, choice: &Choice<G::Move>, what: &str) {
    assert_eq!(choice.pv.first(), Some(&choice.mv), "{what}: {choice:?}");
    assert!(choice.pv.len() <= pv::PLIES, "{what}: {choice:?}");
    after(position, &choice.pv, what);
}

const SEARCHERS: &[&str] = &[
    "alphabeta:depth=4",
    "alphabeta:nodes=20000",
    "mcts:iterations=2000",
];

fn every_searcher_gives_a_line<G: AgentGame>(positions: &[G], name: &str) {
    for spec in SEARCHERS {
        let mut longest = 0;
        for (i, position) in positions.iter().enumerate() {
            let choice = choose(spec, position, 7);
            check_line(position, &choice, &format!("{spec}, {name} position {i}"));
            longest = longest.max(choice.pv.len());
        }
        // A search that looks ahead expects a reply: somewhere its line goes past its move.
        assert!(
            longest >= 2,
            "{spec} on {name}: lines of {longest} plies at most"
        );
    }
}

#[test]
fn alphabeta_and_mcts_give_legal_lines_in_every_game() {
    every_searcher_gives_a_line(
        &[mnk("mnk-9x9k5"), mnk_after("gomoku", "h8 h9 i8 g9"), td4()],
        "m,n,k",
    );
    every_searcher_gives_a_line(&[oanquan("oanquan")], "O An Quan");
    let connect4 =
        Connect4::from_any(AnyGame::start(&"connect4".parse::<Variant>().unwrap())).unwrap();
    every_searcher_gives_a_line(
        &[connect4.clone(), connect4.play_line("d d c").unwrap()],
        "Connect Four",
    );
    every_searcher_gives_a_line(&[Oware::start()], "Oware");
    every_searcher_gives_a_line(&[Othello::start()], "Othello");
    let breakthrough =
        Breakthrough::from_any(AnyGame::start(&"breakthrough".parse::<Variant>().unwrap()));
    every_searcher_gives_a_line(&[breakthrough.unwrap()], "Breakthrough");
}

#[test]
fn threat_gives_a_legal_line_from_its_main_search() {
    for (i, position) in [mnk("gomoku"), mnk_after("gomoku", "h8 h9 i8 g9 j8 k8")]
        .iter()
        .enumerate()
    {
        let choice = choose("threat:nodes=20000", position, 1);
        check_line(position, &choice, &format!("threat, position {i}"));
        assert!(choice.pv.len() >= 2, "position {i}: {choice:?}");
    }
}

/// `threat` keeps a proven VCF whole: the line alternates fours and blocks and its last move
/// wins for the side that played the first.
#[test]
fn a_vcf_line_ends_in_the_win() {
    let mut checked = 0;
    for puzzle in suite() {
        let PuzzleKind::Vcf(plies) = puzzle.kind else {
            continue;
        };
        let what = format!("line {} ({})", puzzle.line, puzzle.kind);
        let choice = choose("threat:nodes=20000", &puzzle.position, 1);
        // Some it finds by its main search (the tactics tests check the move).
        if !choice
            .stats
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with("VCF"))
        {
            continue;
        }
        assert_eq!(choice.pv.first(), Some(&choice.mv), "{what}");
        let end = after(&puzzle.position, &choice.pv, &what);
        assert_eq!(
            end.outcome(),
            Some(Outcome::Win(puzzle.position.side_to_move())),
            "{what}: {choice:?}"
        );
        // Not always the shortest VCF, but one the threat search's depth bounds.
        assert!(
            choice.pv.len() as u32 <= 2 * tactics::VCF_ANSWER_DEPTH + 1 && plies >= 1,
            "{what}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "{checked} VCF positions");
}

/// Where alpha-beta proves a win within its depth, the table walk follows it to the end.
#[test]
fn an_alphabeta_win_within_its_depth_ends_in_the_win() {
    let mut checked = 0;
    for puzzle in suite() {
        if !matches!(puzzle.kind, PuzzleKind::WinNow | PuzzleKind::Vcf(3)) {
            continue;
        }
        let what = format!("line {} ({})", puzzle.line, puzzle.kind);
        let choice = choose("alphabeta:depth=5", &puzzle.position, 1);
        let end = after(&puzzle.position, &choice.pv, &what);
        assert_eq!(
            end.outcome(),
            Some(Outcome::Win(puzzle.position.side_to_move())),
            "{what}: {choice:?}"
        );
        checked += 1;
    }
    assert!(checked >= 10, "{checked} positions");
}

#[test]
fn the_same_seed_gives_the_same_line() {
    let position = mnk_after("gomoku", "h8 h9 i8 g9");
    for spec in ["mcts:iterations=2000", "alphabeta:nodes=20000", "threat"] {
        let (a, b) = (choose(spec, &position, 3), choose(spec, &position, 3));
        assert_eq!(a.pv, b.pv, "{spec}");
    }
}

#[test]
fn agents_without_a_search_line_give_none() {
    let position = mnk("tictactoe");
    for spec in ["random", "mc-flat:rollouts=10", "easy"] {
        assert!(choose(spec, &position, 1).pv.is_empty(), "{spec}");
    }
}
