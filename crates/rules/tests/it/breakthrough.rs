//! Breakthrough against the facts: perft from the start equal to OpenSpiel's `breakthrough`
//! counts, golden traces worked out by hand for every rule path (a move, a capture, a blocked
//! straight move, a win by the far row for each side, a win by taking every pawn), notation
//! and ids, and random games played side by side with a deliberately plain implementation
//! written here from the rules' text (a grid of cells and OpenSpiel's six directions), not the
//! bitboards.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rules::breakthrough::{Advance, Breakthrough, BreakthroughConfig};
use rules::{
    AnyGame, FromAny, Game, MoveError, MoveList, Outcome, Place, Player, Step, Variant, perft,
};

const BLACK: Player = Player::First;
const WHITE: Player = Player::Second;

fn config(id: &str) -> BreakthroughConfig {
    match id.parse::<Variant>().unwrap() {
        Variant::Breakthrough(config) => config,
        other => panic!("{other}"),
    }
}

/// The cell named like `a7` (column letter, row number from 1 on top) on a board of `cols`.
fn cell(name: &str, cols: u8) -> u8 {
    let row: u8 = name[1..].parse().unwrap();
    (row - 1) * cols + (name.as_bytes()[0] - b'a')
}

/// The bitboard of the cells named, space-separated, on an 8-column board.
fn cells(names: &str) -> u128 {
    names
        .split_whitespace()
        .fold(0, |bits, name| bits | 1u128 << cell(name, 8))
}

fn legal(game: &Breakthrough) -> String {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&mv| game.format_move(mv)).collect();
    texts.join(" ")
}

/// Plays `text`, checking that the traced play, the plain one and the view after the steps
/// agree; gives the position after it and the steps.
fn traced(game: &Breakthrough, text: &str) -> (Breakthrough, Vec<Step>) {
    let mv = game.parse_move(text).unwrap();
    let mut after = game.clone();
    let mut steps = Vec::new();
    after.play_traced(mv, &mut steps);
    assert_eq!(after, game.play(mv).unwrap(), "traced and plain play agree");
    assert_eq!(
        game.view().after(&steps).places,
        after.view().places,
        "the steps of {text} end where the rules do"
    );
    (after, steps)
}

fn at(name: &str) -> usize {
    usize::from(cell(name, 8))
}

#[test]
fn the_ids_are_breakthrough_and_breakthrough_rxc() {
    let variant: Variant = "breakthrough".parse().unwrap();
    assert_eq!(variant.to_string(), "breakthrough");
    assert_eq!(variant.players(), 2);
    assert_eq!(variant.board_size(), 64);
    assert_eq!("breakthrough-8x8".parse::<Variant>(), Ok(variant));
    let small: Variant = "Breakthrough-6x5".parse().unwrap();
    assert_eq!(small.to_string(), "breakthrough-6x5");
    assert_eq!(small.board_size(), 30);
    let start = Breakthrough::from_any(AnyGame::start(&variant)).unwrap();
    assert_eq!(start, BreakthroughConfig::default().start());
    for (id, says) in [
        ("breakthrough-5x8", "6 to 16 rows"),
        ("breakthrough-17x4", "6 to 16 rows"),
        ("breakthrough-8x1", "2 to 16 columns"),
        ("breakthrough-12x12", "at most 128 cells"),
        ("breakthrough-8x300", "far too large"),
        ("breakthrough-8", "`breakthrough-RxC`"),
        ("breakthrough-8xa", "`breakthrough-RxC`"),
    ] {
        let error = id.parse::<Variant>().unwrap_err().to_string();
        assert!(error.contains(says), "{id}: {error}");
    }
}

#[test]
fn the_start_has_two_home_rows_each_and_black_to_move() {
    let start = BreakthroughConfig::default().start();
    assert_eq!(
        start.pawns(BLACK),
        cells("a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8")
    );
    assert_eq!(
        start.pawns(WHITE),
        cells("a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2")
    );
    assert_eq!(start.side_to_move(), BLACK);
    assert_eq!(start.seat_name(BLACK), "Black");
    // OpenSpiel's first moves, in its action order: by cell, then towards a, straight,
    // towards h.
    assert_eq!(
        legal(&start),
        "a7a6 a7b6 b7a6 b7b6 b7c6 c7b6 c7c6 c7d6 d7c6 d7d6 d7e6 e7d6 e7e6 e7f6 f7e6 f7f6 f7g6 \
         g7f6 g7g6 g7h6 h7g6 h7h6"
    );
    assert_eq!(
        start.to_string(),
        "    a  b  c  d  e  f  g  h \n \
         1  w  w  w  w  w  w  w  w  1\n \
         2  w  w  w  w  w  w  w  w  2\n \
         3  .  .  .  .  .  .  .  .  3\n \
         4  .  .  .  .  .  .  .  .  4\n \
         5  .  .  .  .  .  .  .  .  5\n \
         6  .  .  .  .  .  .  .  .  6\n \
         7  b  b  b  b  b  b  b  b  7\n \
         8  b  b  b  b  b  b  b  b  8\n    a  b  c  d  e  f  g  h \n"
    );
    // Two home rows on every size, as OpenSpiel's boards of six rows or more.
    let small = config("breakthrough-6x3").start();
    assert_eq!(small.pawns(BLACK).count_ones(), 6);
    assert_eq!(small.pawns(WHITE), 0b111_111);
    let view = start.view();
    assert_eq!(
        view.places[at("a8")],
        Place::Piece {
            player: BLACK,
            kind: 'p'
        }
    );
    assert_eq!(
        view.places[at("h1")],
        Place::Piece {
            player: WHITE,
            kind: 'p'
        }
    );
    assert_eq!(view.places[at("d4")], Place::Empty);
    assert_eq!((view.last, view.last_from), (None, None));
}

/// OpenSpiel 2.0.2's `breakthrough` perft from the 8x8 start (22, 484, 11,132: the counts the
/// issue gives), then depth 4 as this code and the plain implementation below both count it,
/// and depth 5 as the bitboards count it (no game ends before ply 9: the far row is six rows
/// away, so no ended game enters these counts).
#[test]
fn perft_from_the_start_matches_openspiel() {
    let start = BreakthroughConfig::default().start();
    for (depth, count) in [(1, 22), (2, 484), (3, 11_132), (4, 256_036)] {
        assert_eq!(perft(&start, depth), count, "depth {depth}");
        assert_eq!(
            Plain::start(8, 8).perft(depth),
            count,
            "plain, depth {depth}"
        );
    }
    assert_eq!(perft(&start, 5), 6_182_818);
}

#[test]
fn a_move_goes_one_row_forward_and_shows_from_and_to() {
    let start = BreakthroughConfig::default().start();
    let (after, steps) = traced(&start, "d7e6");
    assert_eq!(
        steps,
        [Step::Move {
            from: at("d7"),
            to: at("e6"),
            player: BLACK
        }]
    );
    let mv = start.parse_move("d7e6").unwrap();
    assert_eq!(start.move_from(mv), Some(at("d7")));
    assert_eq!(start.move_place(mv).place, at("e6"));
    let view = after.view();
    assert_eq!(
        (view.last_from, view.last),
        (Some(at("d7")), Some(at("e6")))
    );
    assert_eq!(view.to_move, Some(WHITE));
    // White goes down the board (towards row 8).
    assert!(
        legal(&after).starts_with("a2a3 a2b3 b2a3 b2b3 b2c3"),
        "{}",
        legal(&after)
    );
    // Backwards, sideways and two rows are not moves.
    for text in ["e6d7", "d2d4", "d2e2"] {
        let error = after.parse_move(text).unwrap_err();
        assert!(
            matches!(error, MoveError::Illegal { .. }),
            "{text}: {error}"
        );
    }
    let error = after.parse_move("d2d4").unwrap_err().to_string();
    assert!(
        error.contains("one row forward (towards the last row)"),
        "{error}"
    );
    let error = after.parse_move("e6e5").unwrap_err().to_string();
    assert!(error.contains("not White's"), "{error}");
    let error = after.parse_move("d5d6").unwrap_err().to_string();
    assert!(error.contains("no pawn on d5"), "{error}");
}

#[test]
fn a_capture_takes_the_pawn_off_diagonally_and_reads_with_a_star() {
    let start = BreakthroughConfig::default().start();
    let game = start.play_line("d7d6 e2e3 d6d5 e3e4").unwrap();
    // d5 faces e4 diagonally: Black may take it.
    assert!(legal(&game).contains("d5e4*"), "{}", legal(&game));
    let (after, steps) = traced(&game, "d5e4*");
    assert_eq!(
        steps,
        [
            Step::Remove { place: at("e4") },
            Step::Move {
                from: at("d5"),
                to: at("e4"),
                player: BLACK
            },
        ]
    );
    assert_eq!(after.pawns(WHITE).count_ones(), 15);
    assert_eq!(after.pawn(cell("e4", 8)), Some(BLACK));
    // The star may be left out, and `x` between the cells reads as well.
    let mv = game.parse_move("d5e4*").unwrap();
    assert_eq!(game.parse_move("d5e4"), Ok(mv));
    assert_eq!(game.parse_move("d5xe4"), Ok(mv));
    assert_eq!(game.format_move(mv), "d5e4*");
    // A star on a move that takes nothing is refused, with why.
    let error = game.parse_move("d5d4*").unwrap_err().to_string();
    assert!(error.contains("takes nothing"), "{error}");
    for bad in ["d5", "d5e4**", "d5xe4*", "5de4", "d5e", ""] {
        assert!(
            matches!(game.parse_move(bad), Err(MoveError::Syntax { .. })),
            "{bad}: {:?}",
            game.parse_move(bad)
        );
    }
    let error = game.parse_move("d5i4").unwrap_err();
    assert!(matches!(error, MoveError::OffBoard { .. }), "{error}");
}

#[test]
fn a_pawn_facing_a_pawn_straight_ahead_is_blocked() {
    let start = BreakthroughConfig::default().start();
    let game = start.play_line("d7d6 d2d3 d6d5 d3d4").unwrap();
    // d5 and d4 face each other: neither goes straight; Black may still go aside or take.
    let moves = legal(&game);
    assert!(!moves.contains("d5d4"), "{moves}");
    assert!(moves.contains("d5c4") && moves.contains("d5e4"), "{moves}");
    let error = game.parse_move("d5d4").unwrap_err().to_string();
    assert!(error.contains("captures only diagonally"), "{error}");
    // Nor onto its own pawn, diagonally or straight.
    let game = start.play_line("d7d6 a2a3").unwrap();
    let error = game.parse_move("c7d6").unwrap_err().to_string();
    assert!(error.contains("Black's own pawn"), "{error}");
    assert!(!legal(&game).contains("d7d6"));
}

#[test]
fn reaching_the_far_row_wins_for_either_side() {
    let config = BreakthroughConfig::default();
    // Black's pawn on b2 may step onto a1 (empty) or take c1.
    let game = Breakthrough::from_pawns(config, cells("b2 h8"), cells("c1 h3"), BLACK).unwrap();
    assert_eq!(legal(&game), "b2a1 b2b1 b2c1* h8g7 h8h7");
    let (after, _) = traced(&game, "b2a1");
    assert_eq!(after.outcome(), Some(Outcome::Win(BLACK)));
    assert_eq!(after.view().to_move, None);
    assert_eq!(legal(&after), "");
    let (after, steps) = traced(&game, "b2c1*");
    assert_eq!(after.outcome(), Some(Outcome::Win(BLACK)));
    assert_eq!(steps.len(), 2);
    // White's goal is row 8.
    let game = Breakthrough::from_pawns(config, cells("a8 a6"), cells("g7 b1"), WHITE).unwrap();
    let (after, _) = traced(&game, "g7g8");
    assert_eq!(after.outcome(), Some(Outcome::Win(WHITE)));
    let game = game.play_line("b1b2").unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.play_line("a6a5").unwrap().outcome(), None);
}

#[test]
fn taking_every_pawn_wins() {
    let config = BreakthroughConfig::default();
    let game = Breakthrough::from_pawns(config, cells("d5 a8"), cells("e4"), BLACK).unwrap();
    let (after, steps) = traced(&game, "d5e4*");
    assert_eq!(after.pawns(WHITE), 0);
    assert_eq!(after.outcome(), Some(Outcome::Win(BLACK)));
    assert_eq!(steps[0], Step::Remove { place: at("e4") });
    let game = Breakthrough::from_pawns(config, cells("d5"), cells("c4 h1"), WHITE).unwrap();
    let (after, _) = traced(&game, "c4d5*");
    assert_eq!(after.outcome(), Some(Outcome::Win(WHITE)));
    // A position with a side already without pawns, or on its goal row, is over.
    let over = Breakthrough::from_pawns(config, cells("d5"), 0, WHITE).unwrap();
    assert_eq!(over.outcome(), Some(Outcome::Win(BLACK)));
    let over = Breakthrough::from_pawns(config, cells("d5"), cells("a8"), BLACK).unwrap();
    assert_eq!(over.outcome(), Some(Outcome::Win(WHITE)));
    assert!(Breakthrough::from_pawns(config, cells("a1"), cells("a8"), BLACK).is_none());
    assert!(Breakthrough::from_pawns(config, cells("a1"), cells("a1"), BLACK).is_none());
}

#[test]
fn actions_are_three_per_cell_in_move_order() {
    let start = BreakthroughConfig::default().start();
    assert_eq!(start.num_actions(), 192);
    let mv = start.parse_move("a7a6").unwrap();
    assert_eq!(start.action(mv), Some(u32::from(cell("a7", 8)) * 3 + 1));
    assert_eq!(
        start.move_of(48 * 3 + 2),
        Some(Advance { from: 48, to: 41 })
    );
    // Off the board: column a has nothing towards its left.
    assert_eq!(start.move_of(48 * 3), None);
    assert_eq!(start.move_of(192), None);
}

/// A plain Breakthrough from the rules' text: a grid of cells, row 0 on top (White's home),
/// OpenSpiel's three directions per side, moves by cell then direction.
#[derive(Clone)]
struct Plain {
    rows: i32,
    cols: i32,
    cells: Vec<Option<usize>>,
    to_move: usize,
    winner: Option<usize>,
}

impl Plain {
    fn start(rows: i32, cols: i32) -> Plain {
        let mut cells = vec![None; (rows * cols) as usize];
        for col in 0..cols {
            for row in [0, 1] {
                cells[(row * cols + col) as usize] = Some(1);
                cells[((rows - 1 - row) * cols + col) as usize] = Some(0);
            }
        }
        Plain {
            rows,
            cols,
            cells,
            to_move: 0,
            winner: None,
        }
    }

    fn name(&self, row: i32, col: i32) -> String {
        format!("{}{}", char::from(b'a' + col as u8), row + 1)
    }

    /// The moves as texts, and the cells each goes from and to.
    fn moves(&self) -> Vec<(String, usize, usize)> {
        let mut out = Vec::new();
        if self.winner.is_some() {
            return out;
        }
        let forward = if self.to_move == 0 { -1 } else { 1 };
        for row in 0..self.rows {
            for col in 0..self.cols {
                if self.cells[(row * self.cols + col) as usize] != Some(self.to_move) {
                    continue;
                }
                for dc in [-1, 0, 1] {
                    let (r, c) = (row + forward, col + dc);
                    if !(0..self.rows).contains(&r) || !(0..self.cols).contains(&c) {
                        continue;
                    }
                    let to = (r * self.cols + c) as usize;
                    let text = self.name(row, col) + &self.name(r, c);
                    match self.cells[to] {
                        None => out.push((text, (row * self.cols + col) as usize, to)),
                        Some(owner) if owner != self.to_move && dc != 0 => {
                            out.push((text + "*", (row * self.cols + col) as usize, to))
                        }
                        _ => {}
                    }
                }
            }
        }
        out
    }

    fn play(&mut self, from: usize, to: usize) {
        self.cells[to] = self.cells[from].take();
        let row = to as i32 / self.cols;
        let goal = if self.to_move == 0 { 0 } else { self.rows - 1 };
        let them = 1 - self.to_move;
        if row == goal || !self.cells.contains(&Some(them)) {
            self.winner = Some(self.to_move);
        }
        self.to_move = them;
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|(_, from, to)| {
                let mut next = self.clone();
                next.play(from, to);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// Random games on boards of several sizes, played move by move beside the plain
/// implementation: the same legal moves in the same order, the same end and winner.
#[test]
fn random_games_agree_with_a_plain_implementation() {
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let (mut games, mut captures, mut far_row, mut wiped) = (0, 0, 0, 0);
    for (rows, cols, count) in [
        (8, 8, 1_500),
        (6, 6, 800),
        (6, 2, 300),
        (10, 12, 200),
        (16, 8, 100),
    ] {
        let id = format!("breakthrough-{rows}x{cols}");
        let mut game = config(&id).start();
        let start = game.clone();
        for _ in 0..count {
            game.clone_from(&start);
            let mut plain = Plain::start(rows, cols);
            loop {
                let expected = plain.moves();
                let texts: Vec<&str> = expected.iter().map(|(t, _, _)| t.as_str()).collect();
                assert_eq!(legal(&game), texts.join(" "), "{id}\n{game}");
                if expected.is_empty() {
                    break;
                }
                let (text, from, to) = &expected[rng.random_range(0..expected.len())];
                captures += usize::from(text.ends_with('*'));
                game = game.play(game.parse_move(text).unwrap()).unwrap();
                plain.play(*from, *to);
            }
            let winner = plain.winner.expect("a game ends with a winner");
            assert_eq!(
                game.outcome(),
                Some(Outcome::Win(Player::seat(winner))),
                "{id}"
            );
            if game.pawns(Player::seat(1 - winner)) == 0 {
                wiped += 1;
            } else {
                far_row += 1;
            }
            games += 1;
        }
    }
    assert_eq!(games, 2_900);
    // Every rule path met many times.
    assert!(
        captures > 10_000 && far_row > 1_000 && wiped > 3,
        "{captures} {far_row} {wiped}"
    );
}

/// The observation (the Python package's and `arena positions`'): each pawn in its owner's
/// plane, from the viewer's side, as the grid games' stones.
#[test]
fn the_observation_puts_each_pawn_in_its_owners_plane() {
    let game = config("breakthrough-6x3")
        .start()
        .play_line("b5a4")
        .unwrap();
    let view = game.view();
    assert_eq!(rules::encoding::observation_shape(&view), [3, 6, 3]);
    let mut out = Vec::new();
    rules::encoding::observe(&view, WHITE, &mut out);
    let plane = |p: usize| -> Vec<u8> { out[p * 18..][..18].iter().map(|&v| v as u8).collect() };
    // White's own pawns on rows 1 and 2; Black's after b5a4; the colour plane zeros for White.
    assert_eq!(
        plane(0),
        [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(
        plane(1),
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1]
    );
    assert_eq!(plane(2), [0; 18]);
}
