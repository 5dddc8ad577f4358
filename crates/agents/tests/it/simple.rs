//! The simple agents of the seeds do what their rules say: `easy`, `neighbor`, `greedy`,
//! `greedy2`; and every agent honours a time limit.

use crate::common;

use std::time::{Duration, Instant};

use agents::{AgentSpec, Context, build};
use common::{choose, match_score, mnk, oanquan, rng};
use rules::{Game, Mnk, MoveList, OanQuan, OanQuanRules, Player};

fn names(game: &Mnk, spec: &str, seeds: u64) -> Vec<String> {
    (0..seeds)
        .map(|seed| game.format_move(choose(spec, game, seed).mv))
        .collect()
}

#[test]
fn easy_wins_then_blocks_then_takes_the_centre_then_a_corner() {
    let spec = "easy:mistake=0";
    // X can win at a3 and must otherwise block c3: the win comes first.
    let game = mnk("tictactoe").play_line("a1 c1 a2 c2").unwrap();
    assert_eq!(names(&game, spec, 1), ["a3"]);
    let game = mnk("tictactoe").play_line("a1 b2 b1").unwrap();
    assert_eq!(names(&game, spec, 3), ["c1", "c1", "c1"]);
    assert_eq!(names(&mnk("tictactoe"), spec, 2), ["b2", "b2"]);
    let corners = names(&mnk("tictactoe").play_line("b2").unwrap(), spec, 20);
    assert!(
        corners
            .iter()
            .all(|c| ["a1", "c1", "a3", "c3"].contains(&c.as_str()))
    );
    assert!(
        corners.iter().any(|c| c != &corners[0]),
        "corners chosen at random"
    );
    // With mistakes always, the rules are ignored some of the time.
    let moves = names(&mnk("tictactoe"), "easy:mistake=1", 20);
    assert!(moves.iter().any(|m| m != "b2"));
}

#[test]
fn neighbor_plays_next_to_the_last_stone_and_blocks_an_open_four() {
    let game = mnk("mnk-15x15k5").play_line("h8 a1").unwrap();
    for seed in 0..5 {
        let mv = choose("neighbor", &game, seed).mv;
        let (row, col) = game.config().row_col(mv);
        assert!(row <= 1 && col <= 1, "{}", game.format_move(mv));
    }
    // O has an open four on row 1 (b1-e1); X must block one end.
    let game = mnk("mnk-15x15k5")
        .play_line("h8 b1 h9 c1 j10 d1 k10 e1")
        .unwrap();
    let blocks = names(&game, "neighbor", 5);
    assert!(blocks.iter().all(|m| m == "a1" || m == "f1"), "{blocks:?}");
    // And wins at once when it can.
    let game = mnk("mnk-15x15k5")
        .play_line("h8 a1 h9 a3 h10 a5 h11 a7")
        .unwrap();
    let wins = names(&game, "neighbor", 3);
    assert!(wins.iter().all(|m| m == "h7" || m == "h12"), "{wins:?}");
}

#[test]
fn neighbor_beats_random_on_caro() {
    let score = match_score(&mnk("caro"), "neighbor", "random", 20, 3, 225);
    assert!(score >= 0.9, "{score}");
}

#[test]
fn greedy_takes_the_biggest_capture_and_greedy2_minds_the_reply() {
    // Player 1: 3P captures mandarin A (10) and ends the game; nothing else captures.
    let game = OanQuan::from_parts(
        OanQuanRules::default(),
        [0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0],
        [true, false],
        [27, 27],
        Player::First,
    );
    for spec in ["greedy", "greedy2"] {
        assert_eq!(game.format_move(choose(spec, &game, 1).mv), "3P", "{spec}");
    }
    // From the start every opening captures something (oanquan.md): greedy's choice captures
    // as much as the best one.
    let start = oanquan("oanquan");
    let mut moves = MoveList::new();
    start.legal_moves(&mut moves);
    let best = moves
        .iter()
        .map(|&mv| start.child(mv).captures(Player::First))
        .max()
        .unwrap();
    for seed in 0..5 {
        let mv = choose("greedy", &start, seed).mv;
        assert_eq!(start.child(mv).captures(Player::First), best);
    }
}

#[test]
fn searches_stop_at_the_deadline_with_a_legal_move() {
    let game = mnk("mnk-15x15k5").play_line("h8 h9").unwrap();
    for spec in [
        "alphabeta:nodes=1000000000",
        "mcts:iterations=1000000000",
        "mc-flat:rollouts=100000000",
        "mc-par:rollouts=100000000",
    ] {
        let spec: AgentSpec = spec.parse().unwrap();
        let mut agent = build::<Mnk>(&spec).unwrap();
        let mut rng = rng(1, 0);
        let started = Instant::now();
        let deadline = started + Duration::from_millis(200);
        let choice = agent
            .choose(
                &game,
                &mut Context::new(&mut rng).with_deadline(Some(deadline)),
            )
            .unwrap();
        assert!(game.is_legal(choice.mv), "{spec}");
        // Behaviour, not speed: the search did stop long before its budget.
        assert!(choice.stats.nodes < 1_000_000_000, "{spec}");
    }
    for spec in [
        "alphabeta:time_ms=100",
        "mcts:time_ms=100,iterations=1000000000",
    ] {
        let choice = choose(spec, &game, 1);
        assert!(game.is_legal(choice.mv), "{spec}");
    }
}

/// Issue 36, defect 22: "move now" (the context's stop flag) stops the agents that honour it
/// as their deadline would, with their best move so far: asked before they start, `alphabeta`
/// answers from its first iteration, `mcts` after its first 64 simulations and `threat` within
/// 10,000 nodes of its 5,000,000 (its alpha-beta reads the flag with the clock, every 1,024).
#[test]
fn move_now_stops_alphabeta_mcts_and_threat_with_a_legal_move() {
    let game = mnk("mnk-15x15k5").play_line("h8 h9").unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    for (spec, most) in [
        ("alphabeta:depth=3", 1),
        ("mcts:iterations=20000", 64),
        ("threat:nodes=5000000", 10_000),
    ] {
        let spec: AgentSpec = spec.parse().unwrap();
        let mut agent = build::<Mnk>(&spec).unwrap();
        let mut rng = rng(1, 0);
        let choice = agent
            .choose(
                &game,
                &mut Context::new(&mut rng).with_stop(Some(stop.clone())),
            )
            .unwrap();
        assert!(game.is_legal(choice.mv), "{spec}");
        match spec.kind.as_str() {
            "alphabeta" => assert!(
                choice.stats.depth.unwrap() <= most,
                "{spec}: {:?}",
                choice.stats
            ),
            _ => assert!(
                choice.stats.nodes <= u64::from(most),
                "{spec}: {:?}",
                choice.stats
            ),
        }
    }
}
