//! Boards for people, drawn from the game's [`View`] whatever the game: a grid with its
//! coordinates, the last stone and the winning line (with gravity, the columns to pick); pits
//! round a ring of two sides as a board of two rows (with the big cells at its ends, if the
//! game has them), or of three and four sides as a row per seat; each with the labels players
//! type, the last move and the points of each seat. Colour (ANSI) only when asked, that is when
//! stdout is a terminal; the plain drawing carries the same marks in brackets, so nothing
//! depends on colour. No game is named here: `arena play` and `arena replay` draw every game
//! the registry has through [`draw_position`].

use std::fmt::Write as _;

use rules::{Game, Layout, MoveList, Place, Player, View};

const RESET: &str = "\x1b[0m";
const DIM: &str = "\x1b[2m";
const REVERSE: &str = "\x1b[7m";
const ON_GREEN: &str = "\x1b[1;30;42m";
const BOLD: &str = "\x1b[1m";

/// The stone of each seat on a grid, and its ink.
const STONES: [(char, &str); rules::MAX_PLAYERS] = [
    ('X', "\x1b[1;31m"),
    ('O', "\x1b[1;34m"),
    ('Y', "\x1b[1;32m"),
    ('Z', "\x1b[1;35m"),
];

/// The mark of a pit that holds a big piece (O An Quan's mandarin, a quan).
const PIECE: &str = "Q";

/// `text` in the ANSI style `code`, or as it is without colour.
fn paint(text: &str, code: &str, colour: bool) -> String {
    if colour {
        format!("{code}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// The position for a person, ending with a newline: the game's own one-line notation when
/// its text is one line (O An Quan's seed notation), then the board of its view. `last` is
/// the place of the move that led here where the position does not keep it (the pit it was
/// sown from); `colour` allows ANSI escapes.
pub fn draw_position<G: Game>(position: &G, last: Option<usize>, colour: bool) -> String {
    let mut view = position.view();
    if last.is_some() {
        view.last = last;
    }
    let names: Vec<String> = Player::all(view.players)
        .map(|seat| position.seat_name(seat))
        .collect();
    let mut picks = Vec::new();
    if let Layout::Grid { gravity: true, .. } = view.layout {
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        picks = legal
            .iter()
            .map(|&mv| (position.move_place(mv).place, position.format_move(mv)))
            .collect();
    }
    let text = position.to_string();
    let mut out = String::new();
    if !text.trim_end().contains('\n') {
        let _ = writeln!(out, "{}", text.trim_end());
    }
    out.push_str(&draw(&view, &names, &picks, colour));
    out
}

/// The board of `view`, ending with a newline. `names` are the seats' names in the game's own
/// words; `picks` are the moves of a grid with gravity, each with the place it lands on, so
/// that each column is labelled with what a person types to drop a stone in it.
pub fn draw(view: &View, names: &[String], picks: &[(usize, String)], colour: bool) -> String {
    match view.layout {
        Layout::Grid {
            rows,
            cols,
            gravity,
        } => grid(
            view,
            usize::from(rows),
            usize::from(cols),
            gravity,
            picks,
            colour,
        ),
        Layout::Ring {
            per_side, big_last, ..
        } => {
            let ring = Ring {
                view,
                names,
                per_side: usize::from(per_side),
                big_last,
                colour,
            };
            if view.players == 2 {
                ring.two_rows()
            } else {
                ring.row_per_seat()
            }
        }
    }
}

/// A grid: column letters on top, row numbers on the left (with gravity, the move that drops a
/// stone in each column that has room, and no row numbers: rows are not typed), `X`, `O` and
/// `.`, a piece that moves as its kind's letter (a capital for the first seat, a small letter
/// for the others, in the seat's ink); the last stone in parentheses (for a piece that moved,
/// both the cell it left and the one it reached), the stones of the winning line in
/// brackets.
fn grid(
    view: &View,
    rows: usize,
    cols: usize,
    gravity: bool,
    picks: &[(usize, String)],
    colour: bool,
) -> String {
    let mut out = String::from("   ");
    for col in 0..cols {
        if gravity {
            let pick = picks.iter().find(|(place, _)| place % cols == col);
            let _ = write!(out, "{:^3}", pick.map_or("", |(_, text)| text.as_str()));
        } else {
            let _ = write!(out, " {} ", char::from(b'a' + col as u8));
        }
    }
    out.push('\n');
    for row in 0..rows {
        if gravity {
            out.push_str("   ");
        } else {
            let _ = write!(out, "{:>2} ", row + 1);
        }
        for col in 0..cols {
            let place = row * cols + col;
            let (mark, ink) = match view.places.get(place) {
                Some(Place::Stone(player)) => STONES[player.index().min(STONES.len() - 1)],
                Some(Place::Piece { player, kind }) => {
                    let ink = STONES[player.index().min(STONES.len() - 1)].1;
                    if *player == Player::First {
                        (kind.to_ascii_uppercase(), ink)
                    } else {
                        (kind.to_ascii_lowercase(), ink)
                    }
                }
                _ => ('.', DIM),
            };
            let last = view.last == Some(place) || view.last_from == Some(place);
            let cell = if view.line.contains(&place) {
                paint(&format!("[{mark}]"), ON_GREEN, colour)
            } else if last && colour {
                format!("({ink}{REVERSE}{mark}{RESET})")
            } else if last {
                format!("({mark})")
            } else {
                format!(" {} ", paint(&mark.to_string(), ink, colour))
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out
}

/// A ring of pits, as [`draw`] draws it.
struct Ring<'a> {
    view: &'a View,
    names: &'a [String],
    per_side: usize,
    big_last: bool,
    colour: bool,
}

/// The width of a pit of the two-row board.
const PIT: usize = 5;

impl Ring<'_> {
    /// The pits of `seat` that are not its big cell, in ring order.
    fn small(&self, seat: usize) -> std::ops::Range<usize> {
        let first = seat * self.per_side;
        first..first + self.per_side - usize::from(self.big_last)
    }

    /// The big cell of `seat`, if sides end in one.
    fn big(&self, seat: usize) -> Option<usize> {
        self.big_last.then(|| (seat + 1) * self.per_side - 1)
    }

    fn pit(&self, place: usize) -> (u16, bool, Option<&str>) {
        match self.view.places.get(place) {
            Some(Place::Pit {
                seeds,
                piece,
                label,
            }) => (*seeds, *piece, label.as_deref()),
            _ => (0, false, None),
        }
    }

    /// What a pit is worth: its seeds, and its piece if it holds one.
    fn value(&self, place: usize) -> i64 {
        let (seeds, piece, _) = self.pit(place);
        i64::from(seeds) + if piece { self.view.piece_worth() } else { 0 }
    }

    fn label(&self, place: usize) -> &str {
        self.pit(place).2.unwrap_or("")
    }

    /// The seeds of a small pit, in parentheses (and reversed) if the last move was sown from it.
    fn seeds(&self, place: usize, width: usize) -> String {
        let value = self.value(place).to_string();
        if self.view.last == Some(place) {
            paint(
                &format!("{:^width$}", format!("({value})")),
                REVERSE,
                self.colour,
            )
        } else {
            format!("{value:^width$}")
        }
    }

    /// The points line: `captures: player 1 6, player 2 0`.
    fn scores(&self, out: &mut String) {
        if let Some(scores) = &self.view.scores {
            let each: Vec<String> = scores
                .iter()
                .zip(self.names)
                .map(|(score, name)| format!("{name} {score}"))
                .collect();
            let _ = writeln!(out, "captures: {}", each.join(", "));
        }
    }

    /// Two sides: the first seat's pits along the bottom from left to right and the second's
    /// back along the top, so that the ring runs round the drawing (the first seat's big cell
    /// on the right, the second's on the left) and each seat's pits read left to right in the
    /// direction the game calls forward for it when that runs along the ring. A big cell shows
    /// `Q` while it holds its piece, and its worth.
    fn two_rows(&self) -> String {
        let bottom: Vec<usize> = self.small(0).collect();
        let top: Vec<usize> = self.small(1).rev().collect();
        let side = match (self.big(0), self.big(1)) {
            (Some(right), Some(left)) => Some((left, right)),
            _ => None,
        };
        let end = side.map_or(0, |(left, right)| {
            [left, right]
                .map(|place| self.value(place).to_string().len() + 2)
                .into_iter()
                .fold(PIT, usize::max)
        });
        let row = |places: &[usize]| {
            places
                .iter()
                .map(|&place| self.seeds(place, PIT))
                .collect::<Vec<_>>()
                .join("|")
        };
        let labels = |places: &[usize]| {
            places
                .iter()
                .map(|&place| format!("{:^PIT$}", self.label(place)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let edge = "-".repeat(PIT);
        let pits_edge = format!("+{}+", vec![edge.as_str(); bottom.len()].join("+"));
        let blank = " ".repeat(end);
        let mut out = String::new();
        let Some((left, right)) = side else {
            let _ = writeln!(out, " {}   {}", labels(&top), self.names[1]);
            let _ = writeln!(out, "{pits_edge}");
            let _ = writeln!(out, "|{}|", row(&top));
            let _ = writeln!(out, "{pits_edge}");
            let _ = writeln!(out, "|{}|", row(&bottom));
            let _ = writeln!(out, "{pits_edge}");
            let _ = writeln!(out, " {}   {}", labels(&bottom), self.names[0]);
            self.scores(&mut out);
            return out;
        };
        let piece = |place: usize| {
            let mark = if self.pit(place).1 { PIECE } else { "" };
            paint(&format!("{mark:^end$}"), BOLD, self.colour)
        };
        let value =
            |place: usize| paint(&format!("{:^end$}", self.value(place)), BOLD, self.colour);
        let outer = format!("+{}{pits_edge}{}+", "-".repeat(end), "-".repeat(end));
        let _ = writeln!(out, " {blank} {}   {}", labels(&top), self.names[1]);
        let _ = writeln!(out, "{outer}");
        let _ = writeln!(out, "|{}|{}|{}|", piece(left), row(&top), piece(right));
        let _ = writeln!(out, "|{}{pits_edge}{}|", value(left), value(right));
        let _ = writeln!(out, "|{blank}|{}|{blank}|", row(&bottom));
        let _ = writeln!(out, "{outer}");
        let _ = writeln!(
            out,
            " {:^end$} {} {:^end$}  {}",
            self.label(left),
            labels(&bottom),
            self.label(right),
            self.names[0]
        );
        self.scores(&mut out);
        out
    }

    /// Three or four sides: a row per seat in turn order, its pits as `label:seeds` in ring
    /// order (forward runs along a row and on to the next, from the last row back to the
    /// first), then its big cell (`<worth>`, `Q` while it holds its piece) and its points; the
    /// seat to move is marked `>`.
    fn row_per_seat(&self) -> String {
        let mut out = String::new();
        for seat in 0..self.view.players {
            let pits: Vec<String> = self
                .small(seat)
                .map(|place| {
                    let text = format!("{}:{}", self.label(place), self.value(place));
                    let text = if self.view.last == Some(place) {
                        paint(&format!("({text})"), REVERSE, self.colour)
                    } else {
                        format!(" {text} ")
                    };
                    format!("{text:>7}")
                })
                .collect();
            let marker = if self.view.to_move.map(Player::index) == Some(seat) {
                ">"
            } else {
                " "
            };
            let _ = write!(out, "{marker} {} |{}|", self.names[seat], pits.join(""));
            if let Some(big) = self.big(seat) {
                let piece = if self.pit(big).1 { " Q" } else { "  " };
                let cell = paint(&format!("<{}>{piece}", self.value(big)), BOLD, self.colour);
                let _ = write!(out, " {cell:<7}");
            }
            if let Some(score) = self.view.scores.as_ref().and_then(|s| s.get(seat)) {
                let _ = write!(out, " captures {score}");
            }
            out.push('\n');
        }
        out
    }
}

/// What a person should be told before the side to move plays, drawn from the game's traced
/// play: a side that must be refilled before it sows (O An Quan), if the next move starts so;
/// a side whose only move is a pass ([`Game::is_pass`]: Othello's, with no disc to put).
pub fn turn_note<G: Game>(position: &G) -> Option<String> {
    let mut legal = MoveList::new();
    position.legal_moves(&mut legal);
    if let [only] = legal[..]
        && position.is_pass(only)
    {
        return Some(format!(
            "{} has no move but to pass: type `{}`",
            position.seat_name(position.side_to_move()),
            position.format_move(only)
        ));
    }
    let mut steps = Vec::new();
    position.clone().play_traced(*legal.first()?, &mut steps);
    match steps.first() {
        Some(&rules::Step::Refill { seat, cost }) => Some(format!(
            "{} has no seeds on their side: one seed goes on each of their pits, {cost} paid \
             from their captures",
            position.seat_name(seat)
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Variant;

    fn names(players: usize) -> Vec<String> {
        (1..=players).map(|n| format!("player {n}")).collect()
    }

    fn pit(seeds: u16, label: &str) -> Place {
        Place::Pit {
            seeds,
            piece: false,
            label: Some(label.to_string()),
        }
    }

    #[test]
    fn an_m_n_k_board_is_the_rules_own_drawing_and_colour_keeps_its_marks() {
        for (id, moves) in [
            ("tictactoe", "b2 a1 a2 c1 c2"),
            ("mnk-5x7k4", "d3 a1"),
            ("gomoku", "h8 h9 j8"),
        ] {
            let variant: Variant = id.parse().unwrap();
            let game = variant
                .rules::<rules::MnkConfig>()
                .unwrap()
                .start()
                .play_line(moves)
                .unwrap();
            assert_eq!(draw_position(&game, None, false), game.to_string(), "{id}");
            let coloured = draw_position(&game, None, true);
            assert!(coloured.contains("\x1b["), "{id}");
            let stripped = coloured
                .replace(ON_GREEN, "")
                .replace(REVERSE, "")
                .replace(DIM, "")
                .replace("\x1b[1;31m", "")
                .replace("\x1b[1;34m", "")
                .replace(RESET, "");
            assert_eq!(stripped, game.to_string(), "{id}");
        }
    }

    #[test]
    fn pieces_show_their_kind_and_the_last_move_from_and_to() {
        let variant: Variant = "breakthrough-6x3".parse().unwrap();
        let board = rules::with_game!(variant, |start| {
            let game = start.play_line("b5a4").unwrap();
            draw_position(&game, None, false)
        });
        assert_eq!(
            board,
            "    a  b  c \n \
             1  p  p  p \n \
             2  p  p  p \n \
             3  .  .  . \n \
             4 (P) .  . \n \
             5  P (.) P \n \
             6  P  P  P \n"
        );
    }

    #[test]
    fn a_side_that_can_only_pass_is_told_so_and_a_pass_marks_no_cell() {
        // Black a1, White b1, White to move: White cannot enclose anything.
        let game = rules::othello::Othello::from_discs(1, 2, Player::Second).unwrap();
        assert_eq!(
            turn_note(&game).as_deref(),
            Some("White has no move but to pass: type `pass`")
        );
        let passed = game.play_line("pass").unwrap();
        assert_eq!(turn_note(&passed), None);
        let drawn = draw_position(&passed, None, false);
        assert!(!drawn.contains('('), "a pass marks no cell:\n{drawn}");
        let after = passed.play_line("c1").unwrap();
        let drawn = draw_position(&after, None, false);
        assert!(drawn.contains('('), "the disc put is marked:\n{drawn}");
    }

    #[test]
    fn a_grid_with_gravity_labels_the_columns_to_pick_with_the_moves() {
        // Connect Four's shape: 6 rows of 7, stones at the bottom, the third column full.
        let mut places = vec![Place::Empty; 42];
        for row in 0..6 {
            places[row * 7 + 2] = Place::Stone(Player::seat(row % 2));
        }
        places[5 * 7 + 3] = Place::Stone(Player::First);
        let view = View {
            layout: Layout::Grid {
                rows: 6,
                cols: 7,
                gravity: true,
            },
            places,
            players: 2,
            scores: None,
            last_from: None,
            last: Some(5 * 7 + 3),
            line: Vec::new(),
            to_move: Some(Player::Second),
            ply: 7,
            notes: Vec::new(),
        };
        let picks: Vec<(usize, String)> = [0, 1, 3, 4, 5, 6]
            .iter()
            .map(|&col: &usize| {
                let row = if col == 3 { 4 } else { 5 };
                (row * 7 + col, char::from(b'a' + col as u8).to_string())
            })
            .collect();
        assert_eq!(
            draw(&view, &names(2), &picks, false),
            "    a  b     d  e  f  g \n\
            \x20   .  .  X  .  .  .  . \n\
            \x20   .  .  O  .  .  .  . \n\
            \x20   .  .  X  .  .  .  . \n\
            \x20   .  .  O  .  .  .  . \n\
            \x20   .  .  X  .  .  .  . \n\
            \x20   .  .  O (X) .  .  . \n"
        );
    }

    #[test]
    fn a_ring_of_two_sides_without_big_cells_is_two_rows_with_the_stores_below() {
        // Oware's shape: 2 x 6 pits, counter-clockwise, the stores as points.
        let labels = ["a", "b", "c", "d", "e", "f", "A", "B", "C", "D", "E", "F"];
        let places: Vec<Place> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| pit(i as u16, l))
            .collect();
        let view = View {
            layout: Layout::Ring {
                per_side: 6,
                big_last: false,
                forward: vec![true, true],
            },
            places,
            players: 2,
            scores: Some(vec![3, 12]),
            last_from: None,
            last: Some(7),
            line: Vec::new(),
            to_move: Some(Player::First),
            ply: 1,
            notes: Vec::new(),
        };
        assert_eq!(
            draw(&view, &["South".into(), "North".into()], &[], false),
            "   F     E     D     C     B     A     North\n\
             +-----+-----+-----+-----+-----+-----+\n\
             | 11  | 10  |  9  |  8  | (7) |  6  |\n\
             +-----+-----+-----+-----+-----+-----+\n\
             |  0  |  1  |  2  |  3  |  4  |  5  |\n\
             +-----+-----+-----+-----+-----+-----+\n\
             \x20  a     b     c     d     e     f     South\n\
             captures: South 3, North 12\n"
        );
    }

    #[test]
    fn o_an_quan_of_two_draws_its_mandarin_cells_at_the_ends() {
        let variant: Variant = "oanquan".parse().unwrap();
        let start = variant.rules::<rules::OanQuanRules>().unwrap().start();
        let mv = start.parse_move("3P").unwrap();
        let (game, place) = (start.child(mv), start.move_place(mv));
        assert_eq!(
            draw_position(&game, Some(place.place), false),
            "[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)\n\
             \x20        6     7     8     9    10     player 2\n\
             +-----+-----+-----+-----+-----+-----+-----+\n\
             |  Q  |  6  |  6  |  0  |  6  |  6  |  Q  |\n\
             | 11  +-----+-----+-----+-----+-----+ 11  |\n\
             |     |  6  |  6  | (0) |  0  |  6  |     |\n\
             +-----+-----+-----+-----+-----+-----+-----+\n\
             \x20  B     1     2     3     4     5     A    player 1\n\
             captures: player 1 6, player 2 0\n"
        );
    }

    #[test]
    fn rings_of_three_and_four_sides_are_a_row_per_seat() {
        let variant: Variant = "oanquan-3p".parse().unwrap();
        let start = variant.rules::<rules::OanQuanRules>().unwrap().start();
        let mv = start.parse_move("2P").unwrap();
        let game = start.child(mv);
        assert_eq!(
            draw_position(&game, Some(start.move_place(mv).place), false),
            "[6, 0, 0, 6, 6] <11> [6, 0, 6, 6, 6] <11> [6, 0, 6, 6, 6] <11> (6 | 0 | 0)\n\
             \x20 player 1 |   1:6   (2:0)   3:0    4:6    5:6 | <11> Q  captures 6\n\
             > player 2 |   6:6    7:0    8:6    9:6   10:6 | <11> Q  captures 0\n\
             \x20 player 3 |  11:6   12:0   13:6   14:6   15:6 | <11> Q  captures 0\n"
        );
        // Four sides without big cells nor points.
        let places: Vec<Place> = (0..12).map(|i| pit(4, &(i + 1).to_string())).collect();
        let view = View {
            layout: Layout::Ring {
                per_side: 3,
                big_last: false,
                forward: vec![true; 4],
            },
            places,
            players: 4,
            scores: None,
            last_from: None,
            last: None,
            line: Vec::new(),
            to_move: Some(Player::seat(3)),
            ply: 3,
            notes: Vec::new(),
        };
        assert_eq!(
            draw(&view, &names(4), &[], false),
            "  player 1 |   1:4    2:4    3:4 |\n\
             \x20 player 2 |   4:4    5:4    6:4 |\n\
             \x20 player 3 |   7:4    8:4    9:4 |\n\
             > player 4 |  10:4   11:4   12:4 |\n"
        );
    }
}
