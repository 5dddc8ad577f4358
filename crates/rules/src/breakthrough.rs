//! Breakthrough, by OpenSpiel's `breakthrough` rules, on the 8x8 board or any other of 6 to 16
//! rows and 2 to 16 columns (128 cells at most).
//!
//! Each player starts with two full rows of pawns on their own side: Black (`b`, the first
//! player) on the two rows nearest the bottom of the board as fronts draw it (rows 7 and 8 of
//! the 8x8 board), White (`w`) on rows 1 and 2. A pawn moves one cell forward (Black towards
//! row 1, White towards the last row), straight or diagonally, to an empty cell; it captures
//! only diagonally forward, taking the opponent's pawn off. A player wins by moving a pawn
//! onto the far row (Black onto row 1, White onto the last row) or by taking every pawn of the
//! opponent. A player always has a move (the most advanced pawn can go diagonally forward), so
//! there is no draw and no pass.
//!
//! A move is the pawn's cell and its target cell, each a column letter (`a` on the left) and a
//! row number (`1` on top): `a7a6`, and a capture with OpenSpiel's `*` after it (`a7b6*`; the
//! `*` may be left out when typing, and `x` between the cells is read as well: `a7xb6`). These
//! are OpenSpiel's move texts on boards of up to 9 rows: its row 1 is the row White starts on,
//! drawn on top here (OpenSpiel's board text puts it at the bottom), so the same move text names
//! the same move. Actions are compact: `cell * 3 + d` with `d` 0 for a move towards column
//! `a`, 1 straight and 2 towards the last column; OpenSpiel's action for the same move is
//! `((r * C + c) * 6 + 3 * p + d) * 2 + capture` with `r` counted from OpenSpiel's top row
//! (`rows - 1 - row` here) and `p` the mover.
//!
//! The board is two bitboards (`u128`, bit `row * C + col`, row 0 on top); moves are found by
//! shifting a side's pawns one row forward (and one column each way, with the columns that
//! would wrap masked off).

use std::fmt;

use crate::registry::{Family, malformed};
use crate::{
    Game, Layout, MoveError, MoveList, MovePlace, Outcome, Place, Player, Step, Trace, TwoPlayer,
    Variant, VariantError, View, splitmix64,
};

/// The fewest rows: two home rows each and two rows between them.
pub const MIN_ROWS: u8 = 6;

/// The most rows or columns.
pub const MAX_SIDE: u8 = 16;

/// The most cells of a board (the bitboard's bits).
pub const MAX_CELLS: u16 = 128;

/// The letter of a pawn's kind in the [`View`].
pub const PAWN: char = 'p';

/// The size of a Breakthrough board: the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BreakthroughConfig {
    rows: u8,
    cols: u8,
}

impl Default for BreakthroughConfig {
    /// The 8x8 board.
    fn default() -> Self {
        BreakthroughConfig { rows: 8, cols: 8 }
    }
}

impl BreakthroughConfig {
    /// A board of `rows` by `cols`, or why there is none.
    pub fn new(rows: u8, cols: u8) -> Result<BreakthroughConfig, VariantError> {
        if !(MIN_ROWS..=MAX_SIDE).contains(&rows) {
            return Err(VariantError::OutOfRange(format!(
                "a Breakthrough board has {MIN_ROWS} to {MAX_SIDE} rows (two home rows each and \
                 two rows between them), not {rows}"
            )));
        }
        if !(2..=MAX_SIDE).contains(&cols) {
            return Err(VariantError::OutOfRange(format!(
                "a Breakthrough board has 2 to {MAX_SIDE} columns, not {cols}"
            )));
        }
        if u16::from(rows) * u16::from(cols) > MAX_CELLS {
            return Err(VariantError::OutOfRange(format!(
                "a Breakthrough board has at most {MAX_CELLS} cells, not {rows}x{cols} = {}",
                u16::from(rows) * u16::from(cols)
            )));
        }
        Ok(BreakthroughConfig { rows, cols })
    }

    /// The rows.
    pub fn rows(self) -> u8 {
        self.rows
    }

    /// The columns.
    pub fn cols(self) -> u8 {
        self.cols
    }

    /// The starting position.
    pub fn start(self) -> Breakthrough {
        Breakthrough::start(self)
    }
}

impl fmt::Display for BreakthroughConfig {
    /// The variant id: `breakthrough` for 8x8, `breakthrough-RxC` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == BreakthroughConfig::default() {
            f.write_str("breakthrough")
        } else {
            write!(f, "breakthrough-{}x{}", self.rows, self.cols)
        }
    }
}

/// A move: the pawn's cell and its target (`row * C + col`, row 0 on top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Advance {
    /// The pawn's cell.
    pub from: u8,
    /// Its target.
    pub to: u8,
}

/// The masks of a board, worked out once per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Shape {
    /// Every cell.
    board: u128,
    /// Every cell but the first column's.
    not_first: u128,
    /// Every cell but the last column's.
    not_last: u128,
    /// The top row (Black's goal).
    top: u128,
    /// The bottom row (White's goal).
    bottom: u128,
}

impl Shape {
    fn of(config: BreakthroughConfig) -> Shape {
        let (rows, cols) = (u32::from(config.rows), u32::from(config.cols));
        let cells = rows * cols;
        let board = if cells == 128 {
            !0
        } else {
            (1u128 << cells) - 1
        };
        let top = (1u128 << cols) - 1;
        let first_col = (0..rows).fold(0u128, |mask, row| mask | 1u128 << (row * cols));
        Shape {
            board,
            not_first: board & !first_col,
            not_last: board & !(first_col << (cols - 1)),
            top,
            bottom: top << ((rows - 1) * cols),
        }
    }
}

/// A position of Breakthrough.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Breakthrough {
    config: BreakthroughConfig,
    shape: Shape,
    /// The pawns of Black and of White, bit `row * C + col`.
    pawns: [u128; 2],
    to_move: Player,
    plies: u16,
    /// The last move.
    last: Option<Advance>,
    result: Option<Outcome>,
}

impl Breakthrough {
    /// The starting position of `config`: White on the two top rows, Black on the two bottom
    /// rows, Black to move.
    pub fn start(config: BreakthroughConfig) -> Breakthrough {
        let shape = Shape::of(config);
        let cols = u32::from(config.cols);
        Breakthrough {
            config,
            shape,
            pawns: [
                shape.bottom | shape.bottom >> cols,
                shape.top | shape.top << cols,
            ],
            to_move: Player::First,
            plies: 0,
            last: None,
            result: None,
        }
    }

    /// A position of `config` with the given pawns (bit `row * C + col`, row 0 on top) and
    /// `to_move` to move, for tests and puzzles: over when a side has no pawn left or a pawn
    /// on its goal row (Black's on the top row wins for Black, White's on the bottom row for
    /// White; both at once is refused). `None` when the pawns overlap, leave the board, or
    /// both sides have won.
    pub fn from_pawns(
        config: BreakthroughConfig,
        black: u128,
        white: u128,
        to_move: Player,
    ) -> Option<Breakthrough> {
        let shape = Shape::of(config);
        if black & white != 0 || (black | white) & !shape.board != 0 || to_move.index() > 1 {
            return None;
        }
        let mut game = Breakthrough {
            pawns: [black, white],
            to_move,
            last: None,
            plies: 0,
            result: None,
            config,
            shape,
        };
        let black_won = black & shape.top != 0 || white == 0;
        let white_won = white & shape.bottom != 0 || black == 0;
        game.result = match (black_won, white_won) {
            (true, true) => return None,
            (true, false) => Some(Outcome::Win(Player::First)),
            (false, true) => Some(Outcome::Win(Player::Second)),
            (false, false) => None,
        };
        Some(game)
    }

    /// The board's size.
    pub fn config(&self) -> BreakthroughConfig {
        self.config
    }

    /// The pawns of `player` as a bitboard (bit `row * C + col`, row 0 on top).
    #[inline]
    pub fn pawns(&self, player: Player) -> u128 {
        self.pawns[player.index()]
    }

    /// The pawn on `cell`, if any.
    pub fn pawn(&self, cell: u8) -> Option<Player> {
        let bit = 1u128.checked_shl(u32::from(cell)).unwrap_or(0);
        if self.pawns[0] & bit != 0 {
            Some(Player::First)
        } else if self.pawns[1] & bit != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The rows a pawn of `player` on `cell` still has to go to reach its goal row.
    pub fn rows_to_go(&self, player: Player, cell: u8) -> u8 {
        let row = cell / self.config.cols;
        if player == Player::First {
            row
        } else {
            self.config.rows - 1 - row
        }
    }

    /// The cells a pawn of `player` reaches from `from` by going one row forward and `d - 1`
    /// columns (d = 0, 1, 2), as a shift of a whole bitboard: the targets of every pawn of
    /// `pawns` that way, wrapped columns masked off.
    #[inline(always)]
    fn step(&self, player: Player, pawns: u128, d: u32) -> u128 {
        let cols = u32::from(self.config.cols);
        let shape = &self.shape;
        // Towards column a a target lands in the last column when it wraps; towards the last
        // column, in column a.
        let mask = [shape.not_last, shape.board, shape.not_first][d as usize];
        if player == Player::First {
            // Up: cell - cols - 1 + d.
            (pawns >> (cols + 1 - d)) & mask
        } else {
            // Down: cell + cols - 1 + d.
            (pawns << (cols - 1 + d)) & mask & shape.board
        }
    }

    /// The targets of `player`'s pawns each way (towards column a, straight, towards the last
    /// column): straight only onto an empty cell, diagonally onto any cell but their own.
    #[inline]
    fn targets(&self, player: Player) -> [u128; 3] {
        let own = self.pawns[player.index()];
        let empty = self.shape.board & !(self.pawns[0] | self.pawns[1]);
        [
            self.step(player, own, 0) & !own,
            self.step(player, own, 1) & empty,
            self.step(player, own, 2) & !own,
        ]
    }

    /// The cells `player`'s pawns attack: those diagonally one row ahead of them, where they
    /// would take a pawn of the other side.
    #[inline]
    pub fn attacks(&self, player: Player) -> u128 {
        let own = self.pawns[player.index()];
        self.step(player, own, 0) | self.step(player, own, 2)
    }

    /// The row `player` wins by reaching, as a bitboard: the top row for Black, the bottom
    /// row for White.
    #[inline]
    pub fn goal(&self, player: Player) -> u128 {
        if player == Player::First {
            self.shape.top
        } else {
            self.shape.bottom
        }
    }

    /// The target of a pawn of the player to move on `from` going way `d`, if on the board.
    #[inline]
    fn target(&self, from: u8, d: u8) -> Option<u8> {
        let cols = self.config.cols;
        let col = from % cols;
        if (d == 0 && col == 0) || (d == 2 && col + 1 == cols) {
            return None;
        }
        let to = if self.to_move == Player::First {
            i16::from(from) - i16::from(cols) - 1 + i16::from(d)
        } else {
            i16::from(from) + i16::from(cols) - 1 + i16::from(d)
        };
        (0..i16::from(self.config.rows) * i16::from(cols))
            .contains(&to)
            .then_some(to as u8)
    }

    /// The way (0, 1, 2) a move of the player to move goes, if it goes one row forward.
    fn way(&self, mv: Advance) -> Option<u8> {
        (0..3).find(|&d| self.target(mv.from, d) == Some(mv.to))
    }

    /// Whether `mv` takes a pawn.
    pub fn is_capture(&self, mv: Advance) -> bool {
        self.pawn(mv.to) == Some(self.to_move.next(2))
    }

    /// The name of `cell`: its column letter and its row number (row 1 on top): `a7`.
    pub fn cell_name(&self, cell: u8) -> String {
        let cols = self.config.cols;
        format!("{}{}", char::from(b'a' + cell % cols), cell / cols + 1)
    }

    /// Reads a cell name at the start of `text`: the cell and the rest of the text.
    fn read_cell<'t>(&self, text: &'t str) -> Option<Result<(u8, &'t str), MoveError>> {
        let bytes = text.as_bytes();
        let letter = *bytes.first()?;
        if !letter.is_ascii_alphabetic() {
            return None;
        }
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 3 {
            return None;
        }
        let col = letter.to_ascii_lowercase() - b'a';
        let row: u16 = text[1..=digits].parse().ok()?;
        let (rows, cols) = (self.config.rows, self.config.cols);
        if col >= cols || !(1..=u16::from(rows)).contains(&row) {
            return Some(Err(MoveError::OffBoard {
                text: text[..=digits].to_string(),
                detail: format!(
                    "the board has columns a to {} and rows 1 to {rows}",
                    char::from(b'a' + cols - 1)
                ),
            }));
        }
        Some(Ok(((row as u8 - 1) * cols + col, &text[1 + digits..])))
    }

    /// Reads `a7a6`, `a7b6*` or `a7xb6`: the move and whether it was written as a capture.
    fn read_move(&self, text: &str) -> Result<(Advance, bool), MoveError> {
        let syntax = || MoveError::Syntax {
            text: text.to_string(),
            expected: "a move is the pawn's cell and its target, each a column letter and a row \
                       number (row 1 on top), like a7a6, and a capture like a7b6* (or a7xb6)"
                .to_string(),
        };
        let (from, rest) = self.read_cell(text).ok_or_else(syntax)??;
        let (marked, rest) = match rest.strip_prefix(['x', 'X']) {
            Some(rest) => (true, rest),
            None => (false, rest),
        };
        let (to, rest) = self.read_cell(rest).ok_or_else(syntax)??;
        let starred = match rest {
            "" => false,
            "*" if !marked => true,
            _ => return Err(syntax()),
        };
        Ok((Advance { from, to }, marked || starred))
    }

    /// Plays `mv` (legal), telling `trace` the pawn taken off, if any, and the move.
    #[inline]
    fn play_with<T: Trace>(&mut self, mv: Advance, trace: &mut T) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} in\n{self}");
        let mover = self.to_move;
        let (from, to) = (1u128 << mv.from, 1u128 << mv.to);
        let them = 1 - mover.index();
        if self.pawns[them] & to != 0 {
            trace.step(Step::Remove {
                place: usize::from(mv.to),
            });
            self.pawns[them] &= !to;
        }
        trace.step(Step::Move {
            from: usize::from(mv.from),
            to: usize::from(mv.to),
            player: mover,
        });
        self.pawns[mover.index()] ^= from | to;
        self.plies += 1;
        self.to_move = mover.next(2);
        self.last = Some(mv);
        if to & self.goal(mover) != 0 || self.pawns[them] == 0 {
            self.result = Some(Outcome::Win(mover));
        }
    }
}

impl Game for Breakthrough {
    type Move = Advance;

    const FAMILY: &'static Family = &FAMILY;

    fn variant(&self) -> Variant {
        Variant::Breakthrough(self.config)
    }

    #[inline]
    fn num_players(&self) -> usize {
        2
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn ply(&self) -> u32 {
        u32::from(self.plies)
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    /// By the pawn's cell, then towards column a, straight, towards the last column: the
    /// order of the actions (and of OpenSpiel's).
    fn legal_moves(&self, out: &mut MoveList<Advance>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let player = self.to_move;
        let targets = self.targets(player);
        let mut own = self.pawns[player.index()];
        while own != 0 {
            let from = own.trailing_zeros() as u8;
            own &= own - 1;
            for (d, set) in (0u8..).zip(targets) {
                if let Some(to) = self.target(from, d)
                    && set >> to & 1 != 0
                {
                    out.push(Advance { from, to });
                }
            }
        }
    }

    #[inline]
    fn is_legal(&self, mv: Advance) -> bool {
        if self.result.is_some() || self.pawn(mv.from) != Some(self.to_move) {
            return false;
        }
        match self.way(mv) {
            Some(d) => self.targets(self.to_move)[usize::from(d)] >> mv.to & 1 != 0,
            None => false,
        }
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Advance) {
        self.play_with(mv, &mut ());
    }

    fn play_traced<T: Trace>(&mut self, mv: Advance, trace: &mut T) {
        self.play_with(mv, trace);
    }

    /// The pawns of each side and the side to move, mixed.
    #[inline]
    fn hash_key(&self) -> u64 {
        let half = |bits: u128, salt: u64| {
            splitmix64((bits as u64) ^ salt) ^ splitmix64(((bits >> 64) as u64) ^ !salt)
        };
        half(self.pawns[0], 0xb7ea_4701)
            ^ half(self.pawns[1], 0x7f3a_1c55).rotate_left(17)
            ^ (self.to_move.index() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn parse_move(&self, text: &str) -> Result<Advance, MoveError> {
        let trimmed = text.trim();
        let (mv, marked) = self.read_move(trimmed)?;
        let name = self.format_move(mv);
        if self.result.is_some() {
            return Err(MoveError::GameOver { text: name });
        }
        if self.is_legal(mv) {
            if marked && !self.is_capture(mv) {
                return Err(MoveError::Illegal {
                    text: trimmed.to_string(),
                    reason: format!("{name} takes nothing: write it without `*` or `x`"),
                });
            }
            return Ok(mv);
        }
        let mover = self.seat_name(self.to_move);
        let from = self.cell_name(mv.from);
        let to = self.cell_name(mv.to);
        let reason = match (self.pawn(mv.from), self.way(mv), self.pawn(mv.to)) {
            (None, _, _) => format!("there is no pawn on {from}"),
            (Some(owner), _, _) if owner != self.to_move => {
                format!("the pawn on {from} is not {mover}'s")
            }
            (_, None, _) => format!(
                "a pawn goes one row forward ({}), straight or diagonally: {to} is not one of \
                 its targets",
                if self.to_move == Player::First {
                    "towards row 1"
                } else {
                    "towards the last row"
                }
            ),
            (_, Some(1), Some(_)) => {
                format!("{to} is taken, and a pawn captures only diagonally")
            }
            (_, _, Some(_)) => format!("{to} holds {mover}'s own pawn"),
            (_, _, None) => "not among the legal moves".to_string(),
        };
        Err(MoveError::Illegal {
            text: trimmed.to_string(),
            reason,
        })
    }

    /// OpenSpiel's text: `a7a6`, and `a7b6*` for a capture.
    fn format_move(&self, mv: Advance) -> String {
        let mut text = self.cell_name(mv.from);
        text.push_str(&self.cell_name(mv.to));
        if self.is_capture(mv) {
            text.push('*');
        }
        text
    }

    /// Never needed at the default cap; OpenSpiel scores an unfinished game 0-0: a draw.
    fn adjudicate(&self) -> Outcome {
        self.result.unwrap_or(Outcome::Draw)
    }

    /// Every move takes a pawn one row forward, and each pawn goes at most `rows - 1` rows:
    /// a game never reaches `4 * cols * (rows - 1)` plies (224 on 8x8), so the cap never
    /// decides one.
    fn default_max_plies(&self) -> u32 {
        4 * u32::from(self.config.cols) * (u32::from(self.config.rows) - 1)
    }

    fn seat_name(&self, seat: Player) -> String {
        if seat == Player::First {
            "Black"
        } else {
            "White"
        }
        .to_string()
    }

    fn move_help(&self) -> String {
        "the pawn's cell and its target, each a column letter and a row number (row 1 on top), \
         like a7a6; a capture like a7b6*"
            .to_string()
    }

    fn rule_line(&self) -> Option<String> {
        Some(
            "a pawn goes one row forward, straight or diagonally; it captures only diagonally; \
             the first to reach the far row, or to take every pawn, wins"
                .to_string(),
        )
    }

    fn view(&self) -> View {
        let (rows, cols) = (self.config.rows, self.config.cols);
        let places = (0..rows * cols)
            .map(|cell| match self.pawn(cell) {
                Some(player) => Place::Piece { player, kind: PAWN },
                None => Place::Empty,
            })
            .collect();
        View {
            layout: Layout::Grid {
                rows,
                cols,
                gravity: false,
            },
            places,
            players: 2,
            scores: None,
            last: self.last.map(|mv| usize::from(mv.to)),
            last_from: self.last.map(|mv| usize::from(mv.from)),
            line: Vec::new(),
            to_move: self.result.is_none().then_some(self.to_move),
            ply: self.ply(),
            notes: Vec::new(),
        }
    }

    /// The target cell.
    fn move_place(&self, mv: Advance) -> MovePlace {
        MovePlace {
            place: usize::from(mv.to),
            forward: None,
        }
    }

    /// The pawn's cell.
    fn move_from(&self, mv: Advance) -> Option<usize> {
        Some(usize::from(mv.from))
    }

    /// Three per cell: `cell * 3 + d` (see the module's documentation).
    fn num_actions(&self) -> usize {
        3 * usize::from(self.config.rows) * usize::from(self.config.cols)
    }

    #[inline]
    fn action(&self, mv: Advance) -> Option<u32> {
        let d = self.way(mv)?;
        Some(u32::from(mv.from) * 3 + u32::from(d))
    }

    #[inline]
    fn move_of(&self, action: u32) -> Option<Advance> {
        if action as usize >= self.num_actions() {
            return None;
        }
        let from = (action / 3) as u8;
        let to = self.target(from, (action % 3) as u8)?;
        Some(Advance { from, to })
    }
}

impl fmt::Display for Breakthrough {
    /// The board as people see it, row 1 on top: `b` (Black), `w` (White) and `.`, the last
    /// move's cells in parentheses, the column letters above and below, the row numbers beside.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rows, cols) = (self.config.rows, self.config.cols);
        let letters: String = (0..cols)
            .map(|col| format!(" {} ", char::from(b'a' + col)))
            .collect();
        writeln!(f, "   {letters}")?;
        for row in 0..rows {
            write!(f, "{:>2} ", row + 1)?;
            for col in 0..cols {
                let cell = row * cols + col;
                let mark = match self.pawn(cell) {
                    Some(Player::First) => 'b',
                    Some(_) => 'w',
                    None => '.',
                };
                if self.last.is_some_and(|mv| mv.from == cell || mv.to == cell) {
                    write!(f, "({mark})")?;
                } else {
                    write!(f, " {mark} ")?;
                }
            }
            writeln!(f, " {}", row + 1)?;
        }
        writeln!(f, "   {letters}")
    }
}

/// Every Breakthrough board seats two: Black (`First`) and White (`Second`).
impl TwoPlayer for Breakthrough {}

/// Breakthrough in the registry.
pub const FAMILY: Family = Family {
    name: "breakthrough",
    title: "Breakthrough",
    ids: "`breakthrough` (8x8) or `breakthrough-RxC`",
    example: "breakthrough",
    aliases: &[],
    players: (2, 2),
    presets: &[("breakthrough-6x6", "a small board")],
    help: &[
        "Breakthrough: breakthrough[-RxC]  (8x8 by default; R rows 6-16, C columns 2-16, 128 cells at most; OpenSpiel's rules)",
        "      two home rows of pawns each; a pawn goes one row forward, straight or diagonally, and captures only diagonally; reaching the far row or taking every pawn wins",
        "      examples: breakthrough, breakthrough-6x6, breakthrough-8x10",
        "      moves: the pawn's cell and its target (a7a6, row 1 on top), a capture with * (a7b6*)",
    ],
    parse: |given, id| {
        (id == "breakthrough" || id.starts_with("breakthrough-")).then(|| {
            parse_breakthrough(given, &id["breakthrough".len()..]).map(Variant::Breakthrough)
        })
    },
};

fn parse_breakthrough(id: &str, rest: &str) -> Result<BreakthroughConfig, VariantError> {
    let Some(size) = rest.strip_prefix('-') else {
        return Ok(BreakthroughConfig::default());
    };
    let shape = || {
        malformed(
            id,
            "a Breakthrough id is `breakthrough` (8x8) or `breakthrough-RxC` (R rows, C \
             columns), like `breakthrough-6x6`",
        )
    };
    let (rows, cols) = size.split_once('x').ok_or_else(shape)?;
    let number = |text: &str, what: &str| -> Result<u8, VariantError> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(shape());
        }
        text.parse::<u8>().map_err(|_| {
            VariantError::OutOfRange(format!("{what} = {text} in `{id}` is far too large"))
        })
    };
    BreakthroughConfig::new(number(rows, "rows")?, number(cols, "columns")?)
}
