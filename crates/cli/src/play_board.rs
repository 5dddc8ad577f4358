//! Drawing positions for people: the m,n,k grid with its coordinates, the last stone and the
//! winning line; O An Quan in the seed's line and as a ring with the labels players type.
//! Colour (ANSI) only when asked, that is when stdout is a terminal; the plain drawing
//! carries the same marks in brackets, so nothing depends on colour.

use std::fmt::Write as _;

use agents::AgentGame;
use rules::{Game, Mnk, OanQuan, Player, Sow};

/// A game `arena play` can show and take moves for.
pub trait Board: AgentGame {
    /// How a move is typed, for the prompt's help.
    fn move_help(&self) -> String;

    /// The position for a person, ending with a newline. `last` is the move that led here, if
    /// any; `colour` allows ANSI escapes.
    fn draw(&self, last: Option<Self::Move>, colour: bool) -> String;

    /// What happens before the side to move plays that a person should be told, if anything
    /// (O An Quan: an empty side is refilled from the captures).
    fn turn_note(&self) -> Option<String> {
        None
    }
}

const RESET: &str = "\x1b[0m";
const BOLD_RED: &str = "\x1b[1;31m";
const BOLD_BLUE: &str = "\x1b[1;34m";
const DIM: &str = "\x1b[2m";
const REVERSE: &str = "\x1b[7m";
const ON_GREEN: &str = "\x1b[1;30;42m";
const BOLD: &str = "\x1b[1m";

/// `text` in the ANSI style `code`, or as it is without colour.
fn paint(text: &str, code: &str, colour: bool) -> String {
    if colour {
        format!("{code}{text}{RESET}")
    } else {
        text.to_string()
    }
}

impl Board for Mnk {
    fn move_help(&self) -> String {
        "a cell: column letter and row number like b2, or 0-based row,col like 1,1".into()
    }

    fn draw(&self, _last: Option<Self::Move>, colour: bool) -> String {
        if !colour {
            // The rules crate's own drawing already marks the last stone `(X)` and the
            // winning line `[X]`: one drawing for the replay command and for play.
            return self.to_string();
        }
        let config = self.config();
        let line: Vec<_> = self.winning_line().iter().flat_map(|l| l.cells()).collect();
        let mut out = String::from("   ");
        for col in 0..config.cols() {
            let _ = write!(out, " {} ", char::from(b'a' + col));
        }
        out.push('\n');
        for row in 0..config.rows() {
            let _ = write!(out, "{:>2} ", u32::from(row) + 1);
            for col in 0..config.cols() {
                let Some(cell) = config.cell(row, col) else {
                    continue;
                };
                let (mark, ink) = match self.stone(cell) {
                    Some(Player::First) => ("X", BOLD_RED),
                    Some(_) => ("O", BOLD_BLUE),
                    None => (".", DIM),
                };
                let text = if line.contains(&cell) {
                    paint(&format!("[{mark}]"), ON_GREEN, true)
                } else if self.last_move() == Some(cell) {
                    format!("({}{REVERSE}{mark}{RESET})", ink)
                } else {
                    format!(" {} ", paint(mark, ink, true))
                };
                out.push_str(&text);
            }
            out.push('\n');
        }
        out
    }
}

/// Ring index of mandarin cell A (after player 1's squares) and B (after player 2's).
const MANDARIN_A: usize = 5;
const MANDARIN_B: usize = 11;

/// The label players type for the square at ring index `index` (1-5, then 10 down to 6).
fn label(index: usize) -> usize {
    if index < 5 { index + 1 } else { 16 - index }
}

impl Board for OanQuan {
    fn move_help(&self) -> String {
        let players = self.num_players();
        if players == 2 {
            "a square label and a direction like 3P: player 1 sows squares 1-5, player 2 squares \
             6-10; P (or R) sows to the right along your row as drawn, T (or L) to the left"
                .into()
        } else {
            format!(
                "a square label and a direction like 3P: player 1 sows squares 1-5, player 2 \
                 6-10, player 3 11-15{}; P (or R) sows towards higher labels (down the table as \
                 drawn, from the last row on to the first), T (or L) towards lower",
                if players == 4 { ", player 4 16-20" } else { "" }
            )
        }
    }

    /// The seed's line, then the ring: player 2's squares on top, player 1's below, mandarin
    /// cell B on the left and A on the right, so that sowing goes round the drawing and `P`
    /// runs to the right along the mover's own row. The square the last move sowed from is in
    /// parentheses; a mandarin cell that still holds its piece shows a `Q`.
    fn draw(&self, last: Option<Sow>, colour: bool) -> String {
        if self.num_players() > 2 {
            return self.draw_table(last, colour);
        }
        const SQUARE: usize = 5;
        let mandarin = [MANDARIN_A, MANDARIN_B]
            .map(|i| self.cell_value(i).to_string().len() + 2)
            .into_iter()
            .fold(SQUARE, usize::max);
        let square = |index: usize| {
            let seeds = self.seeds(index).to_string();
            if last.is_some_and(|mv| usize::from(mv.square) == index) {
                paint(
                    &format!("{:^SQUARE$}", format!("({seeds})")),
                    REVERSE,
                    colour,
                )
            } else {
                format!("{seeds:^SQUARE$}")
            }
        };
        let piece = |index: usize| {
            let mark = if self.has_piece(index) { "Q" } else { "" };
            paint(&format!("{mark:^mandarin$}"), BOLD, colour)
        };
        let value = |index: usize| {
            paint(
                &format!("{:^mandarin$}", self.cell_value(index)),
                BOLD,
                colour,
            )
        };
        let edge = "-".repeat(SQUARE);
        let squares_edge = format!("+{}+", [edge.as_str(); 5].join("+"));
        let top: Vec<usize> = (6..=10).rev().collect();
        let bottom: Vec<usize> = (0..5).collect();
        let row = |indices: &[usize]| {
            indices
                .iter()
                .map(|&i| square(i))
                .collect::<Vec<_>>()
                .join("|")
        };
        let labels = |indices: &[usize]| {
            indices
                .iter()
                .map(|&i| format!("{:^SQUARE$}", label(i)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let outer = format!(
            "+{}{}{}+",
            "-".repeat(mandarin),
            squares_edge,
            "-".repeat(mandarin)
        );
        let blank = " ".repeat(mandarin);
        // The seed's own one-line notation first, labelled, then the ring.
        let mut out = format!("seed notation: {self}\n");
        let _ = writeln!(out, " {blank} {}   player 2", labels(&top));
        let _ = writeln!(out, "{outer}");
        let _ = writeln!(
            out,
            "|{}|{}|{}|",
            piece(MANDARIN_B),
            row(&top),
            piece(MANDARIN_A)
        );
        let _ = writeln!(
            out,
            "|{}{squares_edge}{}|",
            value(MANDARIN_B),
            value(MANDARIN_A)
        );
        let _ = writeln!(out, "|{blank}|{}|{blank}|", row(&bottom));
        let _ = writeln!(out, "{outer}");
        let _ = writeln!(
            out,
            " {:^mandarin$} {} {:^mandarin$}  player 1",
            "B",
            labels(&bottom),
            "A"
        );
        let _ = writeln!(
            out,
            "captures: player 1 {}, player 2 {}",
            self.captures(Player::First),
            self.captures(Player::Second)
        );
        out
    }

    fn turn_note(&self) -> Option<String> {
        let mover = self.side_to_move();
        (!self.is_over() && self.must_refill(mover)).then(|| {
            let number = mover.index() + 1;
            format!(
                "player {number} has no seeds on their side: one seed goes on each of their \
                 squares, 5 paid from their captures"
            )
        })
    }
}

/// Oware until the terminal draws every ring from the view: North's houses on top (`f` to
/// `a`, so North's row reads `a`-`f` from North's seat), South's below (`A`-`F`), the stores
/// beside them; the house the last move sowed is in parentheses.
impl Board for rules::oware::Oware {
    fn move_help(&self) -> String {
        "a house letter: South sows A-F (its row, left to right as drawn), North a-f (its row, \
         right to left as drawn); seeds run counter-clockwise"
            .into()
    }

    fn draw(&self, last: Option<Self::Move>, colour: bool) -> String {
        let house = |index: usize| {
            let seeds = self.seeds(index).to_string();
            if last.is_some_and(|mv| mv.index() == index) {
                paint(&format!("{:^5}", format!("({seeds})")), REVERSE, colour)
            } else {
                format!("{seeds:^5}")
            }
        };
        let row = |indices: &[usize]| indices.iter().map(|&i| house(i)).collect::<Vec<_>>();
        let letters = |indices: &[usize]| {
            indices
                .iter()
                .map(|&i| format!("{:^5}", rules::oware::House::new(i).letter()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let north: Vec<usize> = (6..12).rev().collect();
        let south: Vec<usize> = (0..6).collect();
        let edge = format!("+{}+", ["-----"; 6].join("+"));
        let mut out = format!("{self}\n");
        let _ = writeln!(out, " {}   North", letters(&north));
        let _ = writeln!(out, "{edge}");
        let _ = writeln!(
            out,
            "|{}|  store {}",
            row(&north).join("|"),
            self.store(Player::Second)
        );
        let _ = writeln!(out, "{edge}");
        let _ = writeln!(
            out,
            "|{}|  store {}",
            row(&south).join("|"),
            self.store(Player::First)
        );
        let _ = writeln!(out, "{edge}");
        let _ = writeln!(out, " {}   South", letters(&south));
        out
    }
}

/// The drawing of a ring of three or four sides.
trait TableDrawing {
    fn draw_table(&self, last: Option<Sow>, colour: bool) -> String;
}

impl TableDrawing for OanQuan {
    /// The seed's line, then one row per player in seat order: the five squares as
    /// `label:seeds` and the mandarin cell after them (its value, `Q` while it holds its
    /// piece), then the captures. Sowing `P` runs along a row and on to the next, from the last
    /// row back to the first; the square the last move sowed from is in parentheses and the
    /// player to move is marked `>`.
    fn draw_table(&self, last: Option<Sow>, colour: bool) -> String {
        let mut out = format!("{self}\n");
        let to_move = (!self.is_over()).then(|| self.side_to_move());
        for player in Player::all(self.num_players()) {
            let squares: Vec<String> = self
                .squares(player)
                .iter()
                .map(|&index| {
                    let mv = rules::Sow::new(index as u8, rules::oanquan::Direction::Right);
                    let label = mv.label(self.num_players() as u8);
                    let text = format!("{label}:{}", self.seeds(index));
                    if last.is_some_and(|mv| usize::from(mv.square) == index) {
                        paint(&format!("({text})"), REVERSE, colour)
                    } else {
                        format!(" {text} ")
                    }
                })
                .map(|cell| format!("{cell:>7}"))
                .collect();
            let mandarin = 6 * player.index() + 5;
            let piece = if self.has_piece(mandarin) { " Q" } else { "  " };
            let cell = paint(
                &format!("<{}>{piece}", self.cell_value(mandarin)),
                BOLD,
                colour,
            );
            let marker = if to_move == Some(player) { ">" } else { " " };
            let _ = writeln!(
                out,
                "{marker} player {} |{}| {cell:<7} captures {}",
                player.index() + 1,
                squares.join(""),
                self.captures(player)
            );
        }
        out
    }
}
