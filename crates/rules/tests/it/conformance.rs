//! The conformance suite every game passes, in the manner of OpenSpiel's random simulation
//! test: thousands of random games per variant, checking the invariants of the `Game` trait.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules::{
    AnyGame, Connect4, FromAny, Game, Layout, Mnk, MoveList, OanQuan, Player, TwoPlayer, Variant,
};

/// Plays `games` random games of `start` and checks, at every position:
/// legal moves are empty exactly at the end; every listed move is legal and round-trips
/// through its text and its action; `random_move` picks a listed move; `play` refuses nothing
/// listed; the traced play reaches the same position and its steps take the view before the
/// move to the view after it; and the game replayed from its move list text reaches the same
/// state and hash. A game still going at its default ply cap stops there, as in the arena.
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
            if position.ply() >= position.default_max_plies() {
                // A game that can go round in a cycle (Oware) stops at the arena's cap, where
                // the game's own rule decides it.
                let _ = position.adjudicate();
                break;
            }
            let mut sorted = moves.to_vec();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), moves.len(), "duplicate legal moves");
            let mut actions = Vec::new();
            for &mv in &moves {
                assert!(position.is_legal(mv), "listed move {mv:?} is not legal");
                let text = position.format_move(mv);
                assert_eq!(
                    position.parse_move(&text),
                    Ok(mv),
                    "`{text}` does not round-trip"
                );
                let action = position.action(mv).expect("a legal move has an action");
                assert!(
                    (action as usize) < position.num_actions(),
                    "`{text}`: {action}"
                );
                assert_eq!(
                    position.move_of(action),
                    Some(mv),
                    "action {action} of `{text}`"
                );
                actions.push(action);
            }
            assert!(position.num_actions() <= rules::MAX_ACTIONS);
            assert!(
                actions.is_sorted(),
                "legal moves are not in increasing action order: {actions:?}"
            );
            actions.dedup();
            assert_eq!(
                actions.len(),
                moves.len(),
                "two legal moves share an action"
            );
            assert_eq!(position.move_of(position.num_actions() as u32), None);
            check_view(&position);
            let picked = position
                .random_move(&mut rng)
                .expect("a move before the end");
            assert!(moves.contains(&picked), "random_move gave an unlisted move");
            let mv = moves[rng.random_range(0..moves.len())];
            let copied = position.play(mv).expect("a listed move plays");
            line.push(position.format_move(mv));
            let mut traced = position.clone();
            let mut steps = Vec::new();
            traced.play_traced(mv, &mut steps);
            let before = position.view();
            let (from, to) = (position.move_from(mv), position.move_place(mv).place);
            if let Some(from) = from {
                // A move from one place to another takes the mover's own piece.
                assert_eq!(before.owner(from), Some(position.side_to_move()), "{mv:?}");
            }
            position.play_unchecked(mv);
            if from.is_some() {
                let after = position.view();
                assert_eq!((after.last_from, after.last), (from, Some(to)), "{mv:?}");
            }
            assert_eq!(copied, position, "copy-make and in-place play disagree");
            assert_eq!(traced, position, "traced and untraced play disagree");
            let (animated, after) = (before.after(&steps), position.view());
            assert_eq!(
                (&animated.places, &animated.scores),
                (&after.places, &after.scores),
                "the steps of {} do not end where the rules do: {steps:?}",
                line.last().unwrap()
            );
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

/// The view agrees with the position: one place per cell or pit, the side to move, points
/// where the game keeps them, places in range.
fn check_view<G: Game>(position: &G) {
    let view = position.view();
    assert_eq!(view.places.len() as u32, position.variant().board_size());
    assert_eq!(view.players, position.num_players());
    assert_eq!(view.ply, position.ply());
    assert_eq!(
        view.to_move,
        (!position.is_over()).then(|| position.side_to_move())
    );
    if let Some(scores) = &view.scores {
        assert_eq!(scores.len(), position.num_players());
    }
    for place in view.last.iter().chain(&view.line) {
        assert!(*place < view.places.len(), "{place} is off the board");
    }
    match view.layout {
        Layout::Grid { rows, cols, .. } => {
            assert_eq!(view.places.len(), usize::from(rows) * usize::from(cols));
        }
        Layout::Ring {
            per_side,
            ref forward,
            ..
        } => {
            assert_eq!(view.places.len(), usize::from(per_side) * view.players);
            assert_eq!(forward.len(), view.players);
        }
    }
}

/// What a game that is two-player by its type promises ([`TwoPlayer`]): its family seats two
/// and nobody else, every position of `games` random games has two players, and the opponent
/// of each seat is the other seat.
fn two_players_by_type<G: TwoPlayer>(start: &G, games: usize, seed: u64) {
    assert_eq!(G::FAMILY.players, (2, 2), "{}", G::FAMILY.title);
    assert_eq!(G::opponent(Player::First), Player::Second);
    assert_eq!(G::opponent(Player::Second), Player::First);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..games {
        let mut position = start.clone();
        loop {
            assert_eq!(position.num_players(), 2, "{position}");
            let seat = position.side_to_move();
            assert!(seat.index() < 2, "{seat:?} to move:\n{position}");
            if let Some(rules::Outcome::Ranked(ranking)) = position.outcome() {
                panic!("a two-player game ranked {ranking:?}:\n{position}");
            }
            // A game that can cycle (Oware) ends at its ply cap, as the arena plays it.
            if position.ply() >= position.default_max_plies() {
                break;
            }
            match position.random_move(&mut rng) {
                Some(mv) => position.play_unchecked(mv),
                None => break,
            }
        }
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
        let start: Mnk = variant(id).rules::<rules::MnkConfig>().unwrap().start();
        conformance(&start, games, 7);
        two_players_by_type(&start, games / 10 + 1, 7);
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
        let start: OanQuan = variant(id).rules::<rules::OanQuanRules>().unwrap().start();
        conformance(&start, 2_000, 11);
    }
}

#[test]
fn connect4_games_conform() {
    for (id, games) in [
        ("connect4", 3_000),
        ("connect4-1x1k1", 10),
        ("connect4-4x4k3", 1_000),
        ("connect4-7x8", 500),
        ("connect4-9x9k5", 200),
        ("connect4-10x10k6", 100),
        ("connect4-15x8", 100),
        ("connect4-2x16k2", 300),
    ] {
        let start = Connect4::from_any(AnyGame::start(&variant(id))).unwrap();
        conformance(&start, games, 13);
        two_players_by_type(&start, games / 10 + 1, 13);
    }
}

#[test]
fn oware_games_conform() {
    let start = rules::oware::Oware::start();
    conformance(&start, 3_000, 13);
    two_players_by_type(&start, 300, 13);
}

#[test]
fn othello_games_conform() {
    let start = rules::othello::Othello::start();
    conformance(&start, 2_000, 17);
    two_players_by_type(&start, 200, 17);
}

#[test]
fn breakthrough_games_conform() {
    for (id, games) in [
        ("breakthrough", 2_000),
        ("breakthrough-6x6", 1_000),
        ("breakthrough-6x2", 300),
        ("breakthrough-16x8", 100),
        ("breakthrough-8x16", 100),
        ("breakthrough-7x5", 500),
    ] {
        let start =
            rules::breakthrough::Breakthrough::from_any(AnyGame::start(&variant(id))).unwrap();
        conformance(&start, games, 19);
        two_players_by_type(&start, games / 10 + 1, 19);
    }
}

#[test]
fn equal_positions_reached_by_different_orders_hash_equal() {
    let start: Mnk = variant("mnk-5x5k4")
        .rules::<rules::MnkConfig>()
        .unwrap()
        .start();
    let a = start.play_line("a1 b1 c1 d1").unwrap();
    let b = start.play_line("c1 d1 a1 b1").unwrap();
    assert_eq!(a.hash_key(), b.hash_key());
    let c = start.play_line("c1 b1 a1 d1").unwrap();
    assert_eq!(a.hash_key(), c.hash_key());
    let d = start.play_line("b1 a1 c1 d1").unwrap();
    assert_ne!(a.hash_key(), d.hash_key());
}

#[test]
fn every_registered_game_starts_through_the_registry() {
    for family in rules::FAMILIES {
        let variant: Variant = family.example.parse().unwrap();
        assert_eq!(variant.family(), *family);
        assert_eq!(variant.to_string().parse::<Variant>(), Ok(variant));
        let start = rules::AnyGame::start(&variant);
        assert_eq!(start.variant(), variant);
        let players = rules::with_game!(variant, |start| start.num_players());
        assert!((family.players.0..=family.players.1).contains(&players));
    }
}

#[test]
fn every_preset_is_a_canonical_variant_of_its_own_family() {
    // The fronts offer a family's presets under the family: one in the wrong family, or
    // written otherwise than the arena writes it, would be offered twice or not at all.
    let mut presets = 0;
    for family in rules::FAMILIES {
        for &(id, about) in family.presets {
            let variant: Variant = id.parse().unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(variant.family(), *family, "{id}");
            assert_eq!(variant.to_string(), id, "{id} is not canonical");
            assert!(!about.is_empty(), "{id}");
            presets += 1;
        }
    }
    assert!(presets >= 9, "{presets}");
}
