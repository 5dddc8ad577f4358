//! The conformance suite every game passes, in the manner of OpenSpiel's random simulation
//! test: thousands of random games per variant, checking the invariants of the `Game` trait.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules::{Game, Mnk, MoveList, OanQuan, Variant};

/// Plays `games` random games of `start` and checks, at every position:
/// legal moves are empty exactly at the end; every listed move is legal and round-trips
/// through its text; `random_move` picks a listed move; `play` refuses nothing listed; and the
/// game replayed from its move list text reaches the same state and hash.
fn conformance<G: Game + PartialEq>(start: &G, games: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = MoveList::new();
    for game in 0..games {
        let mut position = start.clone();
        let mut line = Vec::new();
        loop {
            position.legal_moves(&mut moves);
            assert_eq!(
                moves.is_empty(),
                position.is_over(),
                "game {game}: legal moves empty before the end, or not at the end:\n{position}"
            );
            if position.is_over() {
                assert!(position.random_move(&mut rng).is_none());
                break;
            }
            let mut sorted = moves.to_vec();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), moves.len(), "duplicate legal moves");
            for &mv in &moves {
                assert!(position.is_legal(mv), "listed move {mv:?} is not legal");
                let text = position.format_move(mv);
                assert_eq!(
                    position.parse_move(&text),
                    Ok(mv),
                    "`{text}` does not round-trip"
                );
            }
            let picked = position
                .random_move(&mut rng)
                .expect("a move before the end");
            assert!(moves.contains(&picked), "random_move gave an unlisted move");
            let mv = moves[rng.random_range(0..moves.len())];
            let copied = position.play(mv).expect("a listed move plays");
            line.push(position.format_move(mv));
            position.play_unchecked(mv);
            assert_eq!(copied, position, "copy-make and in-place play disagree");
            assert_eq!(position.ply() as usize, line.len());
        }
        let replayed = start
            .play_line(&line.join(" "))
            .expect("the move list replays");
        assert_eq!(replayed, position, "replay reaches another state");
        assert_eq!(replayed.hash_key(), position.hash_key());
        assert_eq!(replayed.to_string(), position.to_string());
    }
}

fn variant(id: &str) -> Variant {
    id.parse().unwrap()
}

#[test]
fn mnk_games_conform() {
    for (id, games) in [
        ("mnk-3x3k3", 3_000),
        ("mnk-1x1k1", 10),
        ("mnk-4x4k3", 1_000),
        ("mnk-5x5k4", 1_000),
        ("mnk-3x7k3-exact", 1_000),
        ("mnk-7x3k4-caro-center", 1_000),
        ("mnk-9x9k5-caro", 300),
        ("mnk-15x15k5-exact", 100),
        ("mnk-19x19k5-center", 50),
        ("mnk-19x2k2", 200),
    ] {
        let start: Mnk = variant(id).mnk().unwrap().start();
        conformance(&start, games, 7);
    }
}

#[test]
fn oanquan_games_conform() {
    for id in [
        "oanquan",
        "oanquan-mandarin5",
        "oanquan-stop",
        "oanquan-young3",
        "oanquan-end",
        "oanquan-mandarin5-stop-young5-end",
        "oanquan-3p",
        "oanquan-4p",
        "oanquan-3p-stop-young5",
        "oanquan-4p-mandarin5-end",
    ] {
        let start: OanQuan = variant(id).oanquan().unwrap().start();
        conformance(&start, 2_000, 11);
    }
}

#[test]
fn equal_positions_reached_by_different_orders_hash_equal() {
    let start: Mnk = variant("mnk-5x5k4").mnk().unwrap().start();
    let a = start.play_line("a1 b1 c1 d1").unwrap();
    let b = start.play_line("c1 d1 a1 b1").unwrap();
    assert_eq!(a.hash_key(), b.hash_key());
    let c = start.play_line("c1 b1 a1 d1").unwrap();
    assert_eq!(a.hash_key(), c.hash_key());
    let d = start.play_line("b1 a1 c1 d1").unwrap();
    assert_ne!(a.hash_key(), d.hash_key());
}
