//! Connect Four: k in a row with gravity, on a board of any size that fits 128 bits.
//!
//! Two players, X (first) and O, take turns dropping a stone into a column of a vertical
//! board; it falls to the lowest empty cell of that column. Whoever first has `k` or more
//! stones in a line (across, up and down, or diagonally) wins; a full board without one is a
//! draw. The standard game, `connect4`, has 6 rows, 7 columns and k = 4.
//!
//! A move is a column: its letter (`a` on the left) is the notation, and 1-based numbers
//! (`1` = `a`) are read too.
//!
//! The board is two bitboards in the layout of Tromp's and Pons's solvers: column `c` holds
//! bits `c * (rows + 1)` to `c * (rows + 1) + rows - 1`, bottom to top, and the extra bit above
//! each column (its *sentinel*) is never a stone. A line walked or shifted from a stone stops
//! at a sentinel instead of wrapping into the next column, so lines need no bounds test but
//! the board's ends, and the cells where a player would win are found with a few shifts for
//! all cells at once ([`winning_cells`]). The bit functions are generic over the word
//! ([`Bits`]): the rules keep a `u128`, so boards up to (rows + 1) x columns = 128 bits play;
//! a solver can run the same rule on `u64` where the board fits it.

use std::fmt;
use std::ops::{Add, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

use crate::registry::{Family, malformed};
use crate::{
    Game, Layout, MoveError, MoveList, MovePlace, Outcome, Place, Player, TwoPlayer, Variant,
    VariantError, View, splitmix64,
};

/// The most rows or columns a board has.
pub const MAX_SIDE: u8 = 16;

/// The bits a board may take: (rows + 1) x columns, with a sentinel bit above each column.
pub const MAX_BITS: u32 = 128;

/// A machine word used as a bitboard: `u64` for boards of up to 64 bits (6 x 7 takes 49),
/// `u128` for the rest. Shifts by the word's width or more give zero rather than panicking.
pub trait Bits:
    Copy
    + Eq
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// No bits.
    const ZERO: Self;
    /// Bit 0.
    const ONE: Self;
    /// The width in bits.
    const WIDTH: u32;

    /// Shifted towards higher bits by `by`, zero when `by` is the width or more.
    fn up(self, by: u32) -> Self;
    /// Shifted towards lower bits by `by`, zero when `by` is the width or more.
    fn down(self, by: u32) -> Self;
    /// The number of set bits.
    fn count(self) -> u32;
    /// The index of the lowest set bit (the width when none is).
    fn lowest(self) -> u32;
    /// The word widened to 128 bits.
    fn wide(self) -> u128;
    /// The low bits of a 128-bit word.
    fn narrow(wide: u128) -> Self;

    /// Whether no bit is set.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }

    /// Bit `index` alone.
    #[inline]
    fn bit(index: u32) -> Self {
        Self::ONE.up(index)
    }
}

macro_rules! bits {
    ($word:ty) => {
        impl Bits for $word {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const WIDTH: u32 = <$word>::BITS;

            #[inline(always)]
            fn up(self, by: u32) -> Self {
                self.checked_shl(by).unwrap_or(0)
            }

            #[inline(always)]
            fn down(self, by: u32) -> Self {
                self.checked_shr(by).unwrap_or(0)
            }

            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }

            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }

            #[inline(always)]
            fn wide(self) -> u128 {
                self as u128
            }

            #[inline(always)]
            fn narrow(wide: u128) -> Self {
                wide as $word
            }
        }
    };
}

bits!(u64);
bits!(u128);

/// The shape of a board as bitboards of word `W`: what the bit functions need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape<W> {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// Stones in a line that win.
    pub k: u32,
    /// Bits per column: rows + 1 (the sentinel).
    pub height: u32,
    /// The bottom cell of every column.
    pub bottom: W,
    /// Every cell of the board (no sentinel).
    pub board: W,
}

impl<W: Bits> Shape<W> {
    /// The cells of column `col`, bottom to top.
    #[inline]
    pub fn column(&self, col: u32) -> W {
        (W::bit(self.rows) - W::ONE).up(col * self.height)
    }

    /// The bottom cell of column `col`.
    #[inline]
    pub fn bottom_of(&self, col: u32) -> W {
        W::bit(col * self.height)
    }

    /// The top cell of column `col`.
    #[inline]
    pub fn top_of(&self, col: u32) -> W {
        W::bit(col * self.height + self.rows - 1)
    }

    /// The cells a stone can be dropped into: the lowest empty cell of each column that is
    /// not full, given the occupied cells `mask`.
    #[inline]
    pub fn playable(&self, mask: W) -> W {
        (mask + self.bottom) & self.board
    }

    /// The empty cells where a stone would give `own` `k` or more in a line (see
    /// [`winning_cells`]), given the occupied cells `mask`.
    #[inline]
    pub fn winning_cells(&self, own: W, mask: W) -> W {
        winning_cells(own, self.height, self.k) & self.board & !mask
    }

    /// Whether the stones `own` hold `k` or more in a line.
    #[inline]
    pub fn has_line(&self, own: W) -> bool {
        has_line(own, self.height, self.k)
    }
}

/// The cells (anywhere in the word, sentinels included: mask them) where a stone would give
/// the stones `own` of a board of `height` bits per column a line of `k` or more through it.
///
/// For each of the four directions, with `step` the bit distance between neighbours, a cell
/// completes a line when for some `j` the `j` cells before it and the `k - 1 - j` cells after
/// it along the direction all hold stones: the runs before and after every cell are built by
/// shifting `own`, `k - 1` shifts each way. Stones are never on sentinels, so runs do not wrap
/// from one column into the next. The usual `k` get their own copy with the loops unrolled.
#[inline]
pub fn winning_cells<W: Bits>(own: W, height: u32, k: u32) -> W {
    match k {
        4 => winning_cells_up_to::<W, 4>(own, height, 4),
        3 => winning_cells_up_to::<W, 3>(own, height, 3),
        5 => winning_cells_up_to::<W, 5>(own, height, 5),
        _ => winning_cells_up_to::<W, { MAX_SIDE as usize }>(own, height, k as usize),
    }
}

/// [`winning_cells`] for `k` up to `CAP`: called with a constant `k` it is inlined and its
/// loops unrolled.
#[inline(always)]
fn winning_cells_up_to<W: Bits, const CAP: usize>(own: W, height: u32, k: usize) -> W {
    let mut won = W::ZERO;
    for step in [1, height, height + 1, height - 1] {
        let mut before = [!W::ZERO; CAP];
        let mut after = [!W::ZERO; CAP];
        for i in 1..k {
            before[i] = before[i - 1] & own.up(i as u32 * step);
            after[i] = after[i - 1] & own.down(i as u32 * step);
        }
        for j in 0..k {
            won |= before[j] & after[k - 1 - j];
        }
    }
    won
}

/// Whether the stones `own` of a board of `height` bits per column hold `k` or more in a line.
#[inline]
pub fn has_line<W: Bits>(own: W, height: u32, k: u32) -> bool {
    [1, height, height + 1, height - 1].into_iter().any(|step| {
        let mut starts = own;
        for i in 1..k {
            starts &= own.down(i * step);
        }
        !starts.is_empty()
    })
}

/// The parameters of a Connect Four game: board size and line length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Connect4Config {
    rows: u8,
    cols: u8,
    k: u8,
}

impl Default for Connect4Config {
    /// The standard game: 6 rows, 7 columns, four in a row.
    fn default() -> Self {
        Connect4Config {
            rows: 6,
            cols: 7,
            k: 4,
        }
    }
}

impl Connect4Config {
    /// A board of `rows` x `cols` with `k` in a line to win. Sides run from 1 to
    /// [`MAX_SIDE`] with (rows + 1) x cols at most [`MAX_BITS`] (so up to 10 x 10, 7 x 16 or
    /// 15 x 8), and `k` from 1 to the longer side.
    pub fn new(rows: u8, cols: u8, k: u8) -> Result<Self, VariantError> {
        for (name, value) in [("rows", rows), ("columns", cols)] {
            if !(1..=MAX_SIDE).contains(&value) {
                return Err(VariantError::OutOfRange(format!(
                    "{value} {name}: a Connect Four board has 1 to {MAX_SIDE} {name}"
                )));
            }
        }
        let bits = (u32::from(rows) + 1) * u32::from(cols);
        if bits > MAX_BITS {
            return Err(VariantError::OutOfRange(format!(
                "a {rows}x{cols} board: (rows + 1) x columns must be at most {MAX_BITS} (it is \
                 {bits}), like 10x10, 7x16 or 15x8"
            )));
        }
        let longest = rows.max(cols);
        if k == 0 || k > longest {
            return Err(VariantError::OutOfRange(format!(
                "k = {k} on a {rows}x{cols} board: k must be from 1 to {longest}, the longer side"
            )));
        }
        Ok(Connect4Config { rows, cols, k })
    }

    /// Number of rows.
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> u8 {
        self.cols
    }

    /// Stones in a line needed to win.
    pub fn k(&self) -> u8 {
        self.k
    }

    /// Number of cells, `rows * cols`.
    pub fn cells(&self) -> u16 {
        u16::from(self.rows) * u16::from(self.cols)
    }

    /// The board's shape as bitboards of word `W`, or `None` when the board does not fit it.
    pub fn shape<W: Bits>(&self) -> Option<Shape<W>> {
        let (rows, cols, k) = (
            u32::from(self.rows),
            u32::from(self.cols),
            u32::from(self.k),
        );
        let height = rows + 1;
        if height * cols > W::WIDTH {
            return None;
        }
        let mut bottom = W::ZERO;
        for col in 0..cols {
            bottom |= W::bit(col * height);
        }
        let mut board = W::ZERO;
        for row in 0..rows {
            board |= bottom.up(row);
        }
        Some(Shape {
            rows,
            cols,
            k,
            height,
            bottom,
            board,
        })
    }

    fn wide(&self) -> Shape<u128> {
        self.shape().expect("every board fits 128 bits")
    }

    /// The starting position.
    pub fn start(self) -> Connect4 {
        Connect4::new(self)
    }

    /// The name of column `col` (0-based): its letter, `a` on the left.
    pub fn column_name(&self, col: u8) -> char {
        char::from(b'a' + col)
    }

    /// Reads a column: its letter (`d`) or its 1-based number (`4`). Checks only that the
    /// column is on the board, not that it has room.
    pub fn parse_column(&self, text: &str) -> Result<Column, MoveError> {
        let trimmed = text.trim();
        let last = self.column_name(self.cols - 1);
        let off = || MoveError::OffBoard {
            text: trimmed.to_string(),
            detail: format!(
                "the board has {} columns, a to {last} (or 1 to {})",
                self.cols, self.cols
            ),
        };
        let col = if trimmed.len() == 1 && trimmed.as_bytes()[0].is_ascii_alphabetic() {
            u32::from(trimmed.as_bytes()[0].to_ascii_lowercase() - b'a')
        } else if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
            match trimmed.parse::<u32>() {
                Ok(number @ 1..) => number - 1,
                _ => return Err(off()),
            }
        } else {
            return Err(MoveError::Syntax {
                text: trimmed.to_string(),
                expected: format!(
                    "a move is a column: a letter from a to {last}, or a number from 1 to {}",
                    self.cols
                ),
            });
        };
        if col >= u32::from(self.cols) {
            return Err(off());
        }
        Ok(Column(col as u8))
    }
}

impl fmt::Display for Connect4Config {
    /// The variant id: `connect4` for the standard game, else `connect4-RxC` with `kK` when
    /// k is not 4 (`connect4-7x8`, `connect4-6x7k5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("connect4")?;
        if *self == Connect4Config::default() {
            return Ok(());
        }
        write!(f, "-{}x{}", self.rows, self.cols)?;
        if self.k != 4 {
            write!(f, "k{}", self.k)?;
        }
        Ok(())
    }
}

/// A move: the column a stone is dropped into, from 0 on the left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Column(pub u8);

/// The stones of a winning line: a bit at one end, the bit step between stones, the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct WinLine {
    from: u8,
    step: u8,
    len: u8,
}

/// A position of Connect Four.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Connect4 {
    config: Connect4Config,
    /// The stones of each player, as bits of the layout in the module documentation.
    stones: [u128; 2],
    /// Every stone.
    mask: u128,
    plies: u16,
    /// The bit of the last stone.
    last: Option<u8>,
    result: Option<Outcome>,
    win_line: Option<WinLine>,
}

impl Connect4 {
    /// The empty board of `config`.
    pub fn new(config: Connect4Config) -> Self {
        Connect4 {
            config,
            stones: [0; 2],
            mask: 0,
            plies: 0,
            last: None,
            result: None,
            win_line: None,
        }
    }

    /// The game's parameters.
    pub fn config(&self) -> &Connect4Config {
        &self.config
    }

    /// The board's shape in the rules' word.
    #[inline]
    pub fn shape(&self) -> Shape<u128> {
        self.config.wide()
    }

    /// The stones of `player` as a bitboard (see the module documentation for the layout).
    #[inline]
    pub fn stones(&self, player: Player) -> u128 {
        self.stones[player.index()]
    }

    /// Every stone on the board as a bitboard.
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.mask
    }

    /// The number of stones in column `col`.
    pub fn height(&self, col: u8) -> u8 {
        let shape = self.shape();
        (self.mask & shape.column(u32::from(col))).count_ones() as u8
    }

    /// The stone at `level` (0 at the bottom) of column `col`, if any (and `None` off the
    /// board).
    pub fn stone(&self, col: u8, level: u8) -> Option<Player> {
        if col >= self.config.cols || level >= self.config.rows {
            return None;
        }
        let bit = 1u128 << (u32::from(col) * (u32::from(self.config.rows) + 1) + u32::from(level));
        if self.stones[0] & bit != 0 {
            Some(Player::First)
        } else if self.stones[1] & bit != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The empty cells where a stone of `player` would make `k` in a line, whether or not a
    /// stone can be dropped there yet (a threat higher up a column counts too).
    #[inline]
    pub fn winning_cells(&self, player: Player) -> u128 {
        self.shape()
            .winning_cells(self.stones[player.index()], self.mask)
    }

    /// The cells a stone can be dropped into now: the lowest empty cell of every column that
    /// is not full.
    #[inline]
    pub fn playable(&self) -> u128 {
        self.shape().playable(self.mask)
    }

    /// The column of the last stone dropped.
    pub fn last_move(&self) -> Option<Column> {
        let height = u32::from(self.config.rows) + 1;
        self.last.map(|bit| Column((u32::from(bit) / height) as u8))
    }

    /// The cells of the line that won, as `(column, level)` pairs (level 0 at the bottom).
    pub fn winning_line(&self) -> Vec<(u8, u8)> {
        let height = self.config.rows + 1;
        self.line_bits()
            .map(|bit| (bit / height, bit % height))
            .collect()
    }

    fn line_bits(&self) -> impl Iterator<Item = u8> + '_ {
        self.win_line
            .iter()
            .flat_map(|line| (0..line.len).map(move |i| line.from + i * line.step))
    }

    /// Whether column `col` is full.
    #[inline]
    fn full(&self, col: u8) -> bool {
        self.mask & self.shape().top_of(u32::from(col)) != 0
    }

    /// The winning line the stone on `bit` makes for `player` (whose stones include it), if
    /// any: the four lines through it walked stone by stone.
    fn line_through(&self, bit: u32, player: Player) -> Option<WinLine> {
        let own = self.stones[player.index()];
        let height = u32::from(self.config.rows) + 1;
        let limit = height * u32::from(self.config.cols);
        let holds = |index: u32| index < limit && own >> index & 1 != 0;
        for step in [1, height, height + 1, height - 1] {
            let mut forward = bit + step;
            while holds(forward) {
                forward += step;
            }
            let mut backward = bit;
            while backward >= step && holds(backward - step) {
                backward -= step;
            }
            let len = (forward - backward) / step;
            if len >= u32::from(self.config.k) {
                return Some(WinLine {
                    from: backward as u8,
                    step: step as u8,
                    len: len as u8,
                });
            }
        }
        None
    }

    /// The place of bit `bit` in the [`View`]: row-major from the top left.
    fn place_of(&self, bit: u8) -> usize {
        let height = self.config.rows + 1;
        let (col, level) = (bit / height, bit % height);
        usize::from(self.config.rows - 1 - level) * usize::from(self.config.cols) + usize::from(col)
    }

    /// The bit a stone dropped into `col` (not full) lands on.
    #[inline]
    fn landing(&self, col: u8) -> u128 {
        let shape = self.shape();
        (self.mask + shape.bottom_of(u32::from(col))) & shape.column(u32::from(col))
    }
}

impl Game for Connect4 {
    type Move = Column;

    const FAMILY: &'static Family = &FAMILY;

    fn variant(&self) -> Variant {
        Variant::Connect4(self.config)
    }

    #[inline]
    fn num_players(&self) -> usize {
        2
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        if self.plies.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    #[inline]
    fn ply(&self) -> u32 {
        u32::from(self.plies)
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    fn legal_moves(&self, out: &mut MoveList<Column>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        for col in 0..self.config.cols {
            if !self.full(col) {
                out.push(Column(col));
            }
        }
    }

    #[inline]
    fn is_legal(&self, col: Column) -> bool {
        self.result.is_none() && col.0 < self.config.cols && !self.full(col.0)
    }

    #[inline]
    fn play_unchecked(&mut self, col: Column) {
        debug_assert!(self.is_legal(col), "illegal move {col:?} in\n{self}");
        let player = self.side_to_move();
        let stone = self.landing(col.0);
        self.mask |= stone;
        self.stones[player.index()] |= stone;
        self.plies += 1;
        let bit = stone.trailing_zeros();
        self.last = Some(bit as u8);
        if let Some(line) = self.line_through(bit, player) {
            self.result = Some(Outcome::Win(player));
            self.win_line = Some(line);
        } else if self.plies == self.config.cells() {
            self.result = Some(Outcome::Draw);
        }
    }

    /// A hash of the exact position: the first player's stones and, in each column, a marker
    /// bit just above its top stone (Pons's key: unique for every position), mixed.
    #[inline]
    fn hash_key(&self) -> u64 {
        let key = self.stones[0] | (self.mask + self.shape().bottom);
        splitmix64(key as u64 ^ splitmix64((key >> 64) as u64 ^ 0xc4c4))
    }

    fn parse_move(&self, text: &str) -> Result<Column, MoveError> {
        let col = self.config.parse_column(text)?;
        let name = self.format_move(col);
        if self.result.is_some() {
            return Err(MoveError::GameOver { text: name });
        }
        if self.full(col.0) {
            return Err(MoveError::Illegal {
                text: name.clone(),
                reason: format!("column {name} is full"),
            });
        }
        Ok(col)
    }

    fn format_move(&self, col: Column) -> String {
        self.config.column_name(col.0).to_string()
    }

    fn write_move(&self, col: Column, out: &mut String) {
        out.push(self.config.column_name(col.0));
    }

    fn adjudicate(&self) -> Outcome {
        self.result.unwrap_or(Outcome::Draw)
    }

    fn default_max_plies(&self) -> u32 {
        u32::from(self.config.cells())
    }

    fn seat_name(&self, seat: Player) -> String {
        if seat == Player::First { "X" } else { "O" }.to_string()
    }

    fn view(&self) -> View {
        let config = &self.config;
        let places = (0..config.rows)
            .rev()
            .flat_map(|level| (0..config.cols).map(move |col| (col, level)))
            .map(|(col, level)| match self.stone(col, level) {
                Some(player) => Place::Stone(player),
                None => Place::Empty,
            })
            .collect();
        View {
            layout: Layout::Grid {
                rows: config.rows,
                cols: config.cols,
                gravity: true,
            },
            places,
            players: 2,
            scores: None,
            last: self.last.map(|bit| self.place_of(bit)),
            last_from: None,
            line: self.line_bits().map(|bit| self.place_of(bit)).collect(),
            to_move: self.result.is_none().then(|| self.side_to_move()),
            ply: self.ply(),
            notes: Vec::new(),
        }
    }

    /// The cell the stone lands on.
    fn move_place(&self, col: Column) -> MovePlace {
        let level = self.height(col.0).min(self.config.rows - 1);
        let bit = col.0 * (self.config.rows + 1) + level;
        MovePlace {
            place: self.place_of(bit),
            forward: None,
        }
    }

    /// The columns from the left, as OpenSpiel numbers Connect Four's actions.
    fn num_actions(&self) -> usize {
        usize::from(self.config.cols)
    }

    #[inline]
    fn action(&self, col: Column) -> Option<u32> {
        (col.0 < self.config.cols).then_some(u32::from(col.0))
    }

    #[inline]
    fn move_of(&self, action: u32) -> Option<Column> {
        (action < u32::from(self.config.cols)).then_some(Column(action as u8))
    }

    #[inline]
    fn random_move<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Column> {
        if self.result.is_some() {
            return None;
        }
        let open = (0..self.config.cols).filter(|&col| !self.full(col));
        let count = open.clone().count();
        let rank = rand::RngExt::random_range(rng, 0..count);
        open.clone().nth(rank).map(Column)
    }
}

impl fmt::Display for Connect4 {
    /// The board as people see it, top row first: `X`, `O` and `.`, the last stone in
    /// parentheses, the stones of a winning line in brackets, the column letters below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let config = &self.config;
        let line: Vec<u8> = self.line_bits().collect();
        let height = config.rows + 1;
        for level in (0..config.rows).rev() {
            for col in 0..config.cols {
                let mark = match self.stone(col, level) {
                    Some(Player::First) => 'X',
                    Some(_) => 'O',
                    None => '.',
                };
                let bit = col * height + level;
                if line.contains(&bit) {
                    write!(f, "[{mark}]")?;
                } else if self.last == Some(bit) {
                    write!(f, "({mark})")?;
                } else {
                    write!(f, " {mark} ")?;
                }
            }
            writeln!(f)?;
        }
        for col in 0..config.cols {
            write!(f, " {} ", config.column_name(col))?;
        }
        writeln!(f)
    }
}

/// Connect Four in the registry.
pub const FAMILY: Family = Family {
    name: "connect4",
    title: "Connect Four",
    ids: "`connect4` (6 rows, 7 columns, four in a row) or `connect4-RxC` with an optional \
          `kK` (like `connect4-7x8` or `connect4-9x9k5`)",
    example: "connect4-5x6",
    aliases: &[("connect-four", "connect4"), ("connectfour", "connect4")],
    players: (2, 2),
    presets: &[],
    help: &[
        "Connect Four: connect4[-RxC][kK]  (R rows, C columns 1-16, (R + 1) x C at most 128; K in a line, 4 by default)",
        "      a stone falls to the lowest empty cell of its column; aliases connect-four, connectfour",
        "      examples: connect4 (6x7, four in a row), connect4-5x6, connect4-7x8, connect4-9x9k5",
        "      moves: the column, a letter from a on the left (d) or a 1-based number (4)",
    ],
    parse: |given, id| {
        (id == "connect4" || id.starts_with("connect4-"))
            .then(|| parse_connect4(given, &id["connect4".len()..]).map(Variant::Connect4))
    },
};

fn parse_connect4(id: &str, rest: &str) -> Result<Connect4Config, VariantError> {
    let Some(size) = rest.strip_prefix('-') else {
        return Ok(Connect4Config::default());
    };
    let shape = || {
        malformed(
            id,
            "a Connect Four id is `connect4` (6x7, four in a row) or `connect4-RxC` (R rows, C \
             columns) with an optional `kK` (K in a line; 4 when left out), like \
             `connect4-7x8` or `connect4-9x9k5`",
        )
    };
    let (rows, tail) = size.split_once('x').ok_or_else(shape)?;
    let (cols, k) = match tail.split_once('k') {
        Some((cols, k)) => (cols, Some(k)),
        None => (tail, None),
    };
    let number = |text: &str, what: &str| -> Result<u8, VariantError> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(shape());
        }
        text.parse::<u8>().map_err(|_| {
            VariantError::OutOfRange(format!("{what} = {text} in `{id}` is far too large"))
        })
    };
    Connect4Config::new(
        number(rows, "rows")?,
        number(cols, "columns")?,
        k.map_or(Ok(4), |k| number(k, "k"))?,
    )
}

/// Every Connect Four board seats two: X (`First`) and O (`Second`).
impl TwoPlayer for Connect4 {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shift-based threat cells agree with dropping a stone on each empty cell and
    /// walking its lines, on many boards, k and random fillings.
    #[test]
    fn winning_cells_agree_with_the_walk_on_every_board() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut checked = 0;
        for (rows, cols) in [
            (6, 7),
            (4, 4),
            (1, 9),
            (9, 1),
            (7, 8),
            (10, 10),
            (15, 8),
            (7, 16),
        ] {
            for k in 1..=rows.max(cols) {
                let config = Connect4Config::new(rows, cols, k).unwrap();
                for _ in 0..30 {
                    let mut game = config.start();
                    // Random stones anywhere (not a reachable position: the rule is local).
                    for col in 0..cols {
                        for level in 0..rows {
                            let bit = 1u128
                                << (u32::from(col) * (u32::from(rows) + 1) + u32::from(level));
                            match rng.random_range(0..3) {
                                0 => game.stones[0] |= bit,
                                1 => game.stones[1] |= bit,
                                _ => {}
                            }
                        }
                    }
                    game.mask = game.stones[0] | game.stones[1];
                    for player in [Player::First, Player::Second] {
                        let threats = game.winning_cells(player);
                        let shape = game.shape();
                        for bit in 0..shape.height * shape.cols {
                            let cell = 1u128 << bit;
                            if shape.board & cell == 0 || game.mask & cell != 0 {
                                assert_eq!(threats & cell, 0);
                                continue;
                            }
                            let mut with = game.clone();
                            with.stones[player.index()] |= cell;
                            let walked = with.line_through(bit, player).is_some();
                            assert_eq!(threats & cell != 0, walked, "{config} bit {bit}\n{game}");
                            let lined = shape.has_line(with.stones[player.index()]);
                            let before = shape.has_line(game.stones[player.index()]);
                            assert_eq!(lined, walked || before, "{config} bit {bit}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn the_u64_shape_matches_the_u128_one() {
        let config = Connect4Config::default();
        let narrow: Shape<u64> = config.shape().unwrap();
        let wide: Shape<u128> = config.shape().unwrap();
        assert_eq!(narrow.bottom.wide(), wide.bottom);
        assert_eq!(narrow.board.wide(), wide.board);
        assert_eq!(wide.board.count_ones(), 42);
        assert!(
            Connect4Config::new(8, 8, 4)
                .unwrap()
                .shape::<u64>()
                .is_none()
        );
    }
}
