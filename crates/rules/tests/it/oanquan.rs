//! O An Quan against `oanquan.md`: the golden traces, one test per rule path, the variant
//! parameters, and the conservation invariant over thousands of random games.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rules::oanquan::{EmptyMandarin, EmptySide};
use rules::{Game, MoveError, MoveList, OanQuan, OanQuanRules, Outcome, Player, Variant};

fn game(id: &str) -> OanQuan {
    id.parse::<Variant>()
        .unwrap()
        .rules::<rules::OanQuanRules>()
        .unwrap()
        .start()
}

fn after(moves: &str) -> OanQuan {
    game("oanquan").play_line(moves).unwrap()
}

/// A position given in the seed's display form, with `to_move` to play.
fn position(rules: OanQuanRules, display: &str, to_move: Player) -> OanQuan {
    // Rebuild by parsing the display line: squares, mandarin values and captures.
    let numbers: Vec<i32> = display
        .split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(numbers.len(), 14, "{display}");
    let mut cells = [0i32; 12];
    cells[..5].copy_from_slice(&numbers[0..5]);
    cells[5] = numbers[5];
    cells[6..11].copy_from_slice(&numbers[6..11]);
    cells[11] = numbers[11];
    // A mandarin cell worth at least a piece holds its piece.
    let mv = i32::from(rules.mandarin_value);
    let pieces = [cells[5] >= mv, cells[11] >= mv];
    for (slot, index) in [(0, 5), (1, 11)] {
        if pieces[slot] {
            cells[index] -= mv;
        }
    }
    let seeds = cells.map(|c| u16::try_from(c).unwrap());
    let g = OanQuan::from_parts(rules, seeds, pieces, [numbers[12], numbers[13]], to_move);
    assert_eq!(g.to_string(), display);
    g
}

#[test]
fn the_start_prints_like_the_seed() {
    assert_eq!(
        game("oanquan").to_string(),
        "[5, 5, 5, 5, 5] <10> [5, 5, 5, 5, 5] <10> (0 || 0)"
    );
}

#[test]
fn golden_traces() {
    let traces = [
        ("1P", "[0, 0, 6, 6, 6] <11> [0, 6, 6, 6, 6] <11> (6 || 0)"),
        ("3P", "[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)"),
        (
            "3P 7P",
            "[6, 0, 0, 1, 7] <12> [7, 7, 1, 0, 6] <11> (6 || 6)",
        ),
        (
            "3P 7P 5P",
            "[2, 3, 3, 4, 0] <0> [0, 0, 4, 3, 9] <14> (22 || 6)",
        ),
    ];
    for (moves, expected) in traces {
        assert_eq!(after(moves).to_string(), expected, "after {moves}");
    }
}

#[test]
fn every_opening_move_of_player_one_captures() {
    let start = game("oanquan");
    let mut moves = MoveList::new();
    start.legal_moves(&mut moves);
    assert_eq!(moves.len(), 10);
    for &mv in &moves {
        let next = start.child(mv);
        assert!(
            next.captures(Player::First) > 0,
            "{} captures nothing",
            start.format_move(mv)
        );
    }
}

#[test]
fn relay_sowing_continues_from_the_next_square() {
    // 3P: the last seed lands on index 7; index 8 holds 5 seeds, which are sown on.
    let g = after("3P");
    assert_eq!(g.seeds(8), 0, "the relayed square was emptied");
    assert_eq!(g.seeds(9), 6);
}

#[test]
fn a_non_empty_mandarin_cell_stops_the_turn() {
    // Player 1 sows square 4 (1 seed) rightwards: it lands on index 4's neighbour... use a
    // crafted position: square 5 holds 0, square 4 holds 1; sowing 4P drops one seed on
    // square 5; the next cell is mandarin A (holding its piece): the turn ends.
    let rules = OanQuanRules::default();
    let g = position(
        rules,
        "[1, 1, 1, 1, 0] <10> [1, 1, 1, 1, 1] <10> (0 || 0)",
        Player::First,
    );
    let next = g.child(g.parse_move("4P").unwrap());
    assert_eq!(
        next.to_string(),
        "[1, 1, 1, 0, 1] <10> [1, 1, 1, 1, 1] <10> (0 || 0)"
    );
    assert_eq!(next.side_to_move(), Player::Second);
}

#[test]
fn an_empty_mandarin_cell_is_a_capture_gap() {
    // Mandarin A is empty. 4P drops one seed on square 5; next is mandarin A (empty), the cell
    // after it (index 6, label 10) holds 3: captured.
    let rules = OanQuanRules::default();
    let g = position(
        rules,
        "[1, 1, 1, 1, 0] <0> [3, 1, 1, 1, 1] <10> (10 || 0)",
        Player::First,
    );
    let next = g.child(g.parse_move("4P").unwrap());
    assert_eq!(
        next.to_string(),
        "[1, 1, 1, 0, 1] <0> [0, 1, 1, 1, 1] <10> (13 || 0)"
    );
    // Under `stop` the empty mandarin cell ends the turn instead.
    let stop = OanQuanRules {
        empty_mandarin: EmptyMandarin::Stop,
        ..rules
    };
    let g = position(
        stop,
        "[1, 1, 1, 1, 0] <0> [3, 1, 1, 1, 1] <10> (10 || 0)",
        Player::First,
    );
    let next = g.child(g.parse_move("4P").unwrap());
    assert_eq!(
        next.to_string(),
        "[1, 1, 1, 0, 1] <0> [3, 1, 1, 1, 1] <10> (10 || 0)"
    );
}

#[test]
fn chain_capture_takes_every_other_cell() {
    // 1P sows one seed onto index 1; index 2 is empty, index 3 holds 4: captured; index 4 is
    // empty, mandarin A holds 10: captured; index 6 holds 2 (not empty): the chain stops.
    let rules = OanQuanRules::default();
    let g = position(
        rules,
        "[1, 0, 0, 4, 0] <10> [2, 0, 5, 5, 5] <10> (0 || 0)",
        Player::First,
    );
    let next = g.child(g.parse_move("1P").unwrap());
    assert_eq!(
        next.to_string(),
        "[0, 1, 0, 0, 0] <0> [2, 0, 5, 5, 5] <10> (14 || 0)"
    );
}

#[test]
fn two_empty_cells_end_the_turn_without_capture() {
    let rules = OanQuanRules::default();
    let g = position(
        rules,
        "[1, 0, 0, 0, 4] <10> [5, 5, 5, 5, 5] <10> (0 || 0)",
        Player::First,
    );
    let next = g.child(g.parse_move("1P").unwrap());
    assert_eq!(
        next.to_string(),
        "[0, 1, 0, 0, 4] <10> [5, 5, 5, 5, 5] <10> (0 || 0)"
    );
}

#[test]
fn player_two_sows_with_relative_directions() {
    // Label 6 is index 10. P for player 2 is decreasing index: 10 -> 9, 8.
    let rules = OanQuanRules::default();
    let g = position(
        rules,
        "[5, 5, 5, 5, 5] <10> [0, 5, 5, 0, 2] <10> (0 || 0)",
        Player::Second,
    );
    let right = g.child(g.parse_move("6P").unwrap());
    // Seeds land on indices 9 and 8; next is index 7 (5 seeds): relay onto 6, 5(A), 4, 3, 2;
    // next is index 1 (5 seeds): relay onto 0, 11(B), 10, 9, 8; next index 7 is empty and
    // index 6 holds 1: captured.
    assert_eq!(
        right.to_string(),
        "[6, 0, 6, 6, 6] <11> [0, 0, 7, 2, 1] <11> (0 || 1)"
    );
    // T for player 2 is increasing index: 10 -> 11 (B), 0; relay from 1 onto 2-6, from 7 onto
    // 8-11 and 0; index 1 is then empty and index 2 (6) is captured.
    let left = g.child(g.parse_move("6T").unwrap());
    assert_eq!(
        left.to_string(),
        "[7, 0, 0, 6, 6] <11> [1, 0, 6, 1, 1] <12> (0 || 6)"
    );
}

#[test]
fn an_empty_side_refills_from_captures_and_borrows() {
    let rules = OanQuanRules::default();
    // Player 1 has no seeds and 3 captured: refilling costs 5, leaving -2, then 5P sows.
    let g = position(
        rules,
        "[0, 0, 0, 0, 0] <10> [5, 5, 5, 5, 5] <10> (3 || 22)",
        Player::First,
    );
    assert!(g.must_refill(Player::First));
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    assert_eq!(
        moves.len(),
        10,
        "all five squares are playable after refilling"
    );
    // [1,1,1,1,1] (-2); 5P: A gets 1; relay from 6 onto 7-11; relay from 0 onto 1; relay from
    // 2 onto 3; index 4 is empty: capture A (11), index 6 is empty: capture 7 (6).
    let next = g.child(g.parse_move("5P").unwrap());
    assert_eq!(
        next.to_string(),
        "[0, 2, 0, 2, 0] <0> [0, 0, 6, 6, 6] <11> (15 || 22)"
    );
    let g = position(
        rules,
        "[0, 0, 0, 0, 0] <10> [0, 5, 5, 5, 5] <10> (3 || 17)",
        Player::First,
    );
    // [1,1,1,1,1] (-2); 1T: B gets 1; relay from 10 onto 9-5; relay from 4 onto 3; from 2
    // onto 1; index 0 is empty: capture B (11), index 10 is empty: capture 9 (6).
    let next = g.child(g.parse_move("1T").unwrap());
    assert_eq!(
        next.to_string(),
        "[0, 2, 0, 2, 0] <11> [1, 6, 6, 0, 0] <0> (15 || 17)"
    );
}

#[test]
fn a_refill_with_nothing_captured_goes_negative() {
    let rules = OanQuanRules::default();
    let g = position(
        rules,
        "[0, 0, 0, 0, 0] <10> [0, 0, 0, 0, 1] <10> (0 || 49)",
        Player::First,
    );
    let next = g.child(g.parse_move("1T").unwrap());
    assert_eq!(next.captures(Player::First), -5);
    assert_eq!(next.side_seeds(Player::First), 4);
}

#[test]
fn under_end_an_empty_side_that_cannot_pay_ends_the_game() {
    let rules = OanQuanRules {
        empty_side: EmptySide::End,
        ..OanQuanRules::default()
    };
    // Player 2 moves 6P with its only seed onto index 9... leaving player 1 (3 captured,
    // empty side) unable to refill: the game ends.
    let g = position(
        rules,
        "[0, 0, 0, 0, 0] <10> [0, 0, 0, 0, 1] <10> (3 || 46)",
        Player::Second,
    );
    let next = g.child(g.parse_move("6P").unwrap());
    assert!(next.is_over());
    assert_eq!(next.outcome(), Some(Outcome::Win(Player::Second)));
    // The same under `borrow` goes on.
    let g = position(
        OanQuanRules::default(),
        "[0, 0, 0, 0, 0] <10> [0, 0, 0, 0, 1] <10> (3 || 46)",
        Player::Second,
    );
    assert!(!g.child(g.parse_move("6P").unwrap()).is_over());
}

#[test]
fn the_game_ends_when_both_mandarin_cells_are_empty_and_sides_are_scored() {
    let rules = OanQuanRules::default();
    // Mandarin A is empty and B holds 1 seed. 4P drops a seed on index 4; next is A (an empty
    // gap): index 6 (2) is captured; index 7 is empty: index 8 (3) is captured; index 9 holds
    // 1: stop. B still holds its seed, so the game goes on.
    let g = position(
        rules,
        "[2, 0, 0, 1, 0] <0> [2, 0, 3, 1, 4] <1> (30 || 26)",
        Player::First,
    );
    let next = g.child(g.parse_move("4P").unwrap());
    assert_eq!(
        next.to_string(),
        "[2, 0, 0, 0, 1] <0> [0, 0, 0, 1, 4] <1> (35 || 26)"
    );
    assert!(!next.is_over());
    // Label 8 (index 8, 1 seed) sown leftwards (increasing index for player 2) onto index 9;
    // next is index 10, empty; B (2 seeds) is captured: both mandarin cells are empty.
    let g = position(
        rules,
        "[0, 0, 0, 0, 0] <0> [0, 0, 1, 0, 0] <2> (30 || 37)",
        Player::Second,
    );
    let end = g.child(g.parse_move("8T").unwrap());
    assert_eq!(
        end.to_string(),
        "[0, 0, 0, 0, 0] <0> [0, 0, 0, 1, 0] <0> (30 || 39)"
    );
    assert!(end.is_over());
    // Totals: player 1 has 30 and no seeds; player 2 has 39 and 1 seed on its squares.
    assert_eq!(end.totals().as_deref(), Some(&[30, 40][..]));
    assert_eq!(end.outcome(), Some(Outcome::Win(Player::Second)));
    let mut moves = MoveList::new();
    end.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn mandarin_value_changes_what_a_capture_is_worth() {
    let g = game("oanquan-mandarin5").play_line("3P 7P 5P").unwrap();
    // Mandarin A held its piece (5) and 5 seeds: 5P captures 10, then 1 by chain capture.
    assert_eq!(g.captures(Player::First), 6 + 11);
    assert_eq!(
        g.board_value() + g.captures(Player::First) + g.captures(Player::Second),
        60
    );
}

#[test]
fn a_young_mandarin_cannot_be_captured() {
    // In the golden line, 5P captures mandarin A holding its piece and 5 seeds. With a young
    // threshold of 6 it cannot: the turn ends without capture.
    let canonical = after("3P 7P 5P");
    assert_eq!(canonical.captures(Player::First), 22);
    let young = game("oanquan-young6").play_line("3P 7P 5P").unwrap();
    assert_eq!(young.captures(Player::First), 6);
    assert_eq!(young.cell_value(5), 15);
    // Threshold 5 is not enough to protect 5 seeds.
    let five = game("oanquan-young5").play_line("3P 7P 5P").unwrap();
    assert_eq!(five.captures(Player::First), 22);
}

#[test]
fn bad_moves_say_what_is_wrong() {
    let g = game("oanquan");
    assert!(matches!(g.parse_move("3X"), Err(MoveError::Syntax { .. })));
    assert!(matches!(g.parse_move("P"), Err(MoveError::Syntax { .. })));
    assert!(matches!(g.parse_move(""), Err(MoveError::Syntax { .. })));
    assert!(matches!(
        g.parse_move("11P"),
        Err(MoveError::OffBoard { .. })
    ));
    assert!(matches!(
        g.parse_move("0P"),
        Err(MoveError::OffBoard { .. })
    ));
    let other = g.parse_move("7P").unwrap_err().to_string();
    assert!(other.contains("belongs to player 2"), "{other}");
    let empty = after("3P 7P").parse_move("3P").unwrap_err().to_string();
    assert!(empty.contains("square 3 is empty"), "{empty}");
    assert_eq!(g.parse_move("3R").unwrap(), g.parse_move("3p").unwrap());
    assert_eq!(g.parse_move("3L").unwrap(), g.parse_move("3T").unwrap());
}

#[test]
fn conservation_holds_over_thousands_of_random_games() {
    for id in [
        "oanquan",
        "oanquan-mandarin5",
        "oanquan-stop",
        "oanquan-young5",
        "oanquan-end",
    ] {
        let start = game(id);
        let total = start.rules().total_value();
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let mut lengths = Vec::new();
        let mut first_wins = 0;
        let mut draws = 0;
        for _ in 0..2_000 {
            let mut g = start.clone();
            while let Some(mv) = g.random_move(&mut rng) {
                g.play_unchecked(mv);
                assert_eq!(
                    g.board_value() + g.captures(Player::First) + g.captures(Player::Second),
                    total,
                    "{id}: {g}"
                );
                assert!(g.ply() < 1_000, "{id}: a random game reached 1,000 plies");
            }
            lengths.push(g.ply());
            match g.outcome() {
                Some(Outcome::Win(Player::First)) => first_wins += 1,
                Some(Outcome::Draw) => draws += 1,
                _ => {}
            }
        }
        if id == "oanquan" {
            lengths.sort_unstable();
            let median = lengths[lengths.len() / 2];
            assert!((18..=32).contains(&median), "median length {median}");
            assert!(first_wins > 1_000, "player 1 won {first_wins} of 2000");
            assert!((10..=100).contains(&draws), "{draws} draws of 2000");
        }
    }
}
