//! Connect Four against the facts: perft of 6x7 (checked against a plain array-based
//! reference written here, not the bitboards), the win rule in every direction and at the
//! edges, full columns, draws on a full board, ids and notation, and random games replayed
//! move for move in the reference.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules::{
    AnyGame, Column, Connect4, FromAny, Game, MoveError, MoveList, Outcome, Player, Variant, perft,
};

fn game(id: &str) -> Connect4 {
    Connect4::from_any(AnyGame::start(&id.parse::<Variant>().unwrap())).unwrap()
}

fn after(id: &str, moves: &str) -> Connect4 {
    game(id).play_line(moves).unwrap()
}

/// The plain reference: a grid of cells, row 0 at the bottom, and a win found by scanning
/// every line of k cells of the whole board after each stone.
#[derive(Clone)]
struct Reference {
    rows: usize,
    cols: usize,
    k: usize,
    /// `grid[row][col]`: 0 empty, 1 first player, 2 second player.
    grid: Vec<Vec<u8>>,
    plies: usize,
    over: Option<Outcome>,
}

impl Reference {
    fn new(rows: usize, cols: usize, k: usize) -> Reference {
        Reference {
            rows,
            cols,
            k,
            grid: vec![vec![0; cols]; rows],
            plies: 0,
            over: None,
        }
    }

    fn moves(&self) -> Vec<usize> {
        if self.over.is_some() {
            return Vec::new();
        }
        (0..self.cols)
            .filter(|&col| self.grid[self.rows - 1][col] == 0)
            .collect()
    }

    fn play(&mut self, col: usize) {
        let row = (0..self.rows)
            .find(|&row| self.grid[row][col] == 0)
            .unwrap();
        let stone = 1 + (self.plies % 2) as u8;
        self.grid[row][col] = stone;
        self.plies += 1;
        if self.has_line(stone) {
            self.over = Some(Outcome::Win(Player::seat(usize::from(stone) - 1)));
        } else if self.plies == self.rows * self.cols {
            self.over = Some(Outcome::Draw);
        }
    }

    fn has_line(&self, stone: u8) -> bool {
        let (rows, cols, k) = (self.rows as i32, self.cols as i32, self.k as i32);
        for row in 0..rows {
            for col in 0..cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let end_row = row + dr * (k - 1);
                    let end_col = col + dc * (k - 1);
                    if !(0..rows).contains(&end_row) || !(0..cols).contains(&end_col) {
                        continue;
                    }
                    if (0..k).all(|i| {
                        self.grid[(row + dr * i) as usize][(col + dc * i) as usize] == stone
                    }) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|col| {
                let mut next = self.clone();
                next.play(col);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// Perft of the standard board: the counts of the literature (OEIS A212693), each checked here
/// against the reference's own count before it is trusted.
#[test]
fn perft_of_six_by_seven_matches_the_reference_and_the_literature() {
    let expected = [1u64, 7, 49, 343, 2_401, 16_807, 117_649, 823_536, 5_673_234];
    let start = game("connect4");
    let reference = Reference::new(6, 7, 4);
    for (depth, &count) in expected.iter().enumerate() {
        let depth = depth as u32;
        assert_eq!(perft(&start, depth), count, "depth {depth}");
        // The reference scans the whole board at every node: depth 8 takes it seconds.
        assert_eq!(reference.perft(depth), count, "reference, depth {depth}");
    }
}

#[test]
fn perft_of_other_boards_matches_the_reference() {
    for (id, rows, cols, k, depth) in [
        ("connect4-4x4k3", 4, 4, 3, 8),
        ("connect4-5x4", 5, 4, 4, 9),
        ("connect4-7x8", 7, 8, 4, 5),
        ("connect4-9x9k5", 9, 9, 5, 4),
        ("connect4-3x3k3", 3, 3, 3, 9),
        ("connect4-1x6k2", 1, 6, 2, 6),
        ("connect4-10x10k6", 10, 10, 6, 3),
    ] {
        let reference = Reference::new(rows, cols, k);
        for d in 0..=depth {
            assert_eq!(perft(&game(id), d), reference.perft(d), "{id} depth {d}");
        }
    }
}

/// Random games on several boards, move for move against the reference: the same legal
/// columns, the same outcome at the same ply.
#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    for (id, rows, cols, k) in [
        ("connect4", 6, 7, 4),
        ("connect4-4x5k3", 4, 5, 3),
        ("connect4-7x8", 7, 8, 4),
        ("connect4-10x10k5", 10, 10, 5),
        ("connect4-15x8k6", 15, 8, 6),
        ("connect4-2x16k2", 2, 16, 2),
    ] {
        for _ in 0..500 {
            let mut position = game(id);
            let mut reference = Reference::new(rows, cols, k);
            let mut moves = MoveList::new();
            loop {
                position.legal_moves(&mut moves);
                let listed: Vec<usize> = moves.iter().map(|c| usize::from(c.0)).collect();
                assert_eq!(listed, reference.moves(), "{id}\n{position}");
                assert_eq!(position.outcome(), reference.over, "{id}\n{position}");
                if moves.is_empty() {
                    break;
                }
                let col = moves[rng.random_range(0..moves.len())];
                position.play_unchecked(col);
                reference.play(usize::from(col.0));
            }
        }
    }
}

#[test]
fn four_in_a_row_wins_in_every_direction() {
    for (moves, line) in [
        // Across the bottom row.
        ("a a b b c c d", "abcd"),
        // Up a column.
        ("c d c d c d c", "cccc"),
        // Up to the right: a1 b2 c3 d4.
        ("a b b c c d c d d g d", "abcd"),
        // Up to the left: g1 f2 e3 d4.
        ("g f f e e d e d d a d", "gfed"),
    ] {
        let position = after("connect4", moves);
        assert_eq!(
            position.outcome(),
            Some(Outcome::Win(Player::First)),
            "{moves}\n{position}"
        );
        let columns: String = position
            .winning_line()
            .iter()
            .map(|&(col, _)| char::from(b'a' + col))
            .collect();
        let mut sorted: Vec<char> = columns.chars().collect();
        sorted.sort();
        let mut expected: Vec<char> = line.chars().collect();
        expected.sort();
        assert_eq!(sorted, expected, "{moves}");
        assert!(position.is_over());
    }
}

#[test]
fn lines_at_the_edges_win_and_do_not_wrap() {
    // Down the right edge and along the top row.
    let position = after("connect4", "g a g a g a g");
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::First)));
    // X's top row d6 e6 f6 g6, to the right edge (a random game that ended so).
    let top = "g e g f d g e d b f e g b f e d a d f b f g f e g c d a e c d";
    let position = after("connect4", top);
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(position.winning_line(), [(3, 5), (4, 5), (5, 5), (6, 5)]);
    // Stones that would touch across a column's end in a plain bit array: no win.
    let position = after("connect4", "e a f a g b a");
    assert_eq!(position.outcome(), None, "{position}");
    // A column of three with a fourth stone on top of the next column's bottom: no win.
    let position = after("connect4", "a b a b a");
    assert_eq!(position.outcome(), None);
    let position = position.play_line("c b").unwrap();
    assert_eq!(position.outcome(), None);
}

#[test]
fn five_in_a_row_wins_too() {
    // X a1 b1 d1 e1, then c1 makes five.
    let position = after("connect4", "a a b b d d e e c");
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(position.winning_line().len(), 5);
}

#[test]
fn a_full_column_refuses_a_stone() {
    let position = after("connect4", "a a a a a a");
    assert_eq!(position.height(0), 6);
    assert_eq!(
        position.parse_move("a"),
        Err(MoveError::Illegal {
            text: "a".into(),
            reason: "column a is full".into()
        })
    );
    assert!(!position.is_legal(Column(0)));
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    assert_eq!(moves.len(), 6);
    assert!(position.play(Column(0)).is_err());
}

/// A full board with no line: the standard board filled column pair by column pair in an
/// order that never lines four up.
#[test]
fn a_full_board_without_a_line_is_a_draw() {
    // Columns a-b, c-d, e-f alternate stones so every row reads X O X O..., shifted per pair.
    let moves =
        "a b a b a b b a b a b a c d c d c d d c d c d c e f e f e f f e f e f e g g g g g g";
    let position = after("connect4", moves);
    assert_eq!(position.outcome(), Some(Outcome::Draw), "{position}");
    assert_eq!(position.ply(), 42);
    assert!(position.winning_line().is_empty());
}

#[test]
fn moves_read_as_letters_or_numbers() {
    let start = game("connect4");
    assert_eq!(start.parse_move("d"), Ok(Column(3)));
    assert_eq!(start.parse_move("D"), Ok(Column(3)));
    assert_eq!(start.parse_move("4"), Ok(Column(3)));
    assert_eq!(start.parse_move(" g "), Ok(Column(6)));
    assert_eq!(start.format_move(Column(3)), "d");
    assert!(matches!(
        start.parse_move("h"),
        Err(MoveError::OffBoard { .. })
    ));
    assert!(matches!(
        start.parse_move("8"),
        Err(MoveError::OffBoard { .. })
    ));
    assert!(matches!(
        start.parse_move("0"),
        Err(MoveError::OffBoard { .. })
    ));
    assert!(matches!(
        start.parse_move("d4"),
        Err(MoveError::Syntax { .. })
    ));
    assert!(matches!(
        start.parse_move(""),
        Err(MoveError::Syntax { .. })
    ));
    let won = after("connect4", "a a b b c c d");
    assert_eq!(
        won.parse_move("e"),
        Err(MoveError::GameOver { text: "e".into() })
    );
}

#[test]
fn ids_are_canonical_and_bad_ones_say_why() {
    for (given, canonical) in [
        ("connect4", "connect4"),
        ("Connect4", "connect4"),
        ("connect-four", "connect4"),
        ("connect4-6x7", "connect4"),
        ("connect4-6x7k4", "connect4"),
        ("connect4-7x8", "connect4-7x8"),
        ("connect4-6x7k5", "connect4-6x7k5"),
        ("connect4-9x9k5", "connect4-9x9k5"),
        ("connect4-15x8", "connect4-15x8"),
    ] {
        let variant: Variant = given.parse().unwrap();
        assert_eq!(variant.to_string(), canonical, "{given}");
        assert_eq!(variant.family().name, "connect4");
    }
    for (bad, says) in [
        ("connect4-6", "`connect4-RxC`"),
        ("connect4-6x", "`connect4-RxC`"),
        ("connect4-axb", "`connect4-RxC`"),
        ("connect4-6x7-k4", "`connect4-RxC`"),
        ("connect4-11x11", "at most 128"),
        ("connect4-17x2", "1 to 16 rows"),
        ("connect4-6x7k8", "k must be from 1 to 7"),
        ("connect4-6x7k0", "k must be from 1 to 7"),
        ("connect4-999x7", "far too large"),
    ] {
        let error = bad.parse::<Variant>().unwrap_err().to_string();
        assert!(error.contains(says), "{bad}: {error}");
    }
}

#[test]
fn the_view_draws_gravity_from_the_top_row_down() {
    let position = after("connect4", "d d e");
    let view = position.view();
    assert_eq!(
        view.layout,
        rules::Layout::Grid {
            rows: 6,
            cols: 7,
            gravity: true
        }
    );
    // Row 5 of the view is the bottom row: d1 X, e1 X; d2 O is on row 4.
    assert_eq!(view.places[5 * 7 + 3], rules::Place::Stone(Player::First));
    assert_eq!(view.places[5 * 7 + 4], rules::Place::Stone(Player::First));
    assert_eq!(view.places[4 * 7 + 3], rules::Place::Stone(Player::Second));
    assert_eq!(view.last, Some(5 * 7 + 4));
    // A move is drawn where its stone lands.
    assert_eq!(position.move_place(Column(3)).place, 3 * 7 + 3);
    let won = after("connect4", "a a b b c c d");
    assert_eq!(won.view().line, vec![35, 36, 37, 38]);
    assert_eq!(won.view().to_move, None);
}

#[test]
fn the_board_prints_the_last_stone_and_the_winning_line() {
    let position = after("connect4", "d d");
    let text = position.to_string();
    assert_eq!(
        text,
        concat!(
            " .  .  .  .  .  .  . \n",
            " .  .  .  .  .  .  . \n",
            " .  .  .  .  .  .  . \n",
            " .  .  .  .  .  .  . \n",
            " .  .  . (O) .  .  . \n",
            " .  .  .  X  .  .  . \n",
            " a  b  c  d  e  f  g \n",
        )
    );
    let won = after("connect4-4x4k3", "a a b b c");
    assert!(won.to_string().contains("[X][X][X]"), "{won}");
}

#[test]
fn transpositions_hash_equal_and_distinct_positions_do_not() {
    let a = after("connect4", "a b c d");
    let b = after("connect4", "c d a b");
    assert_eq!(a.hash_key(), b.hash_key());
    let c = after("connect4", "b a c d");
    assert_ne!(a.hash_key(), c.hash_key());
    // Every position after four plies has its own hash.
    let mut seen = std::collections::HashMap::new();
    let start = game("connect4");
    let mut moves = MoveList::new();
    let mut stack = vec![start];
    while let Some(position) = stack.pop() {
        if position.ply() == 4 {
            let key: Vec<_> = (0..7u8)
                .flat_map(|col| (0..6u8).map(move |level| (col, level)))
                .map(|(col, level)| position.stone(col, level))
                .collect();
            if let Some(other) = seen.insert(position.hash_key(), key.clone()) {
                assert_eq!(other, key, "two positions share a hash");
            }
            continue;
        }
        position.legal_moves(&mut moves);
        stack.extend(moves.iter().map(|&mv| position.child(mv)));
    }
    assert!(seen.len() > 1000);
}
