//! The m,n,k game: tic-tac-toe, the TD4 boards, gomoku and caro.
//!
//! A board of `rows` x `cols` cells (1 to 19 each) where X (the first player) and O take turns
//! putting a stone on an empty cell; `k` in a line wins under the [`WinRule`].
//!
//! The board is two bitsets over a *padded* index space: cell (row, col) has index
//! `row * (cols + 1) + col`, and the extra column `cols` of every row is never played. A line
//! walked from the last move stops at that sentinel column instead of wrapping to the next row,
//! so win detection needs no bounds test but the index range, and dilating a set of stones by
//! bit shifts (for "cells next to a stone") never leaks across rows.

use std::fmt;

use crate::registry::{Family, malformed};
use crate::{
    Game, Layout, MoveError, MoveList, MovePlace, Outcome, Place, Player, TwoPlayer, Variant,
    VariantError, View, splitmix64,
};

/// The largest number of rows or columns.
pub const MAX_SIDE: u8 = 19;

const WORDS: usize = 6;
/// Bits in the padded index space of the largest board: 19 rows of 20.
const MAX_BITS: usize = WORDS * 64;

/// When a line through the last move wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WinRule {
    /// k or more stones in a line win (Gomocup rule 0; seeds 000, 003, 004).
    #[default]
    Freestyle,
    /// Exactly k stones win; an overline does not (standard gomoku; Gomocup rule 1).
    Exact,
    /// k or more stones win unless the opponent blocks both ends; a board edge is not a block
    /// (Vietnamese caro, seed 002).
    Caro,
}

impl WinRule {
    /// The rule's name in variant ids (`freestyle`, `exact`, `caro`).
    pub fn name(self) -> &'static str {
        match self {
            WinRule::Freestyle => "freestyle",
            WinRule::Exact => "exact",
            WinRule::Caro => "caro",
        }
    }
}

/// The parameters of an m,n,k game: board size, line length, win rule, opening rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MnkConfig {
    rows: u8,
    cols: u8,
    k: u8,
    rule: WinRule,
    center: bool,
}

impl MnkConfig {
    /// A freestyle board of `rows` x `cols` with `k` in a line to win, with no opening rule.
    /// Sides run from 1 to 19 and `k` from 1 to the longer side.
    pub fn new(rows: u8, cols: u8, k: u8) -> Result<Self, VariantError> {
        for (name, value) in [("rows", rows), ("columns", cols)] {
            if !(1..=MAX_SIDE).contains(&value) {
                return Err(VariantError::OutOfRange(format!(
                    "{value} {name}: a board has 1 to {MAX_SIDE} {name}"
                )));
            }
        }
        let longest = rows.max(cols);
        if k == 0 || k > longest {
            return Err(VariantError::OutOfRange(format!(
                "k = {k} on a {rows}x{cols} board: k must be from 1 to {longest}, the longer side"
            )));
        }
        Ok(MnkConfig {
            rows,
            cols,
            k,
            rule: WinRule::Freestyle,
            center: false,
        })
    }

    /// The same board with another win rule.
    pub fn with_rule(mut self, rule: WinRule) -> Self {
        self.rule = rule;
        self
    }

    /// The same board with (or without) the `center` opening rule: the first stone goes on
    /// the centre cell, row `(rows - 1) / 2` and column `(cols - 1) / 2` (0-based; on an even
    /// side, the upper or left of the two middle lines).
    pub fn with_center(mut self, center: bool) -> Self {
        self.center = center;
        self
    }

    /// Number of rows (m).
    pub fn rows(&self) -> u8 {
        self.rows
    }
    /// Number of columns (n).
    pub fn cols(&self) -> u8 {
        self.cols
    }
    /// Stones in a line needed to win.
    pub fn k(&self) -> u8 {
        self.k
    }
    /// The win rule.
    pub fn rule(&self) -> WinRule {
        self.rule
    }
    /// Whether the first stone must go on the centre cell.
    pub fn center(&self) -> bool {
        self.center
    }
    /// Number of cells, `rows * cols`.
    pub fn cells(&self) -> u16 {
        u16::from(self.rows) * u16::from(self.cols)
    }

    /// The distance between vertically adjacent cells in the padded index space.
    #[inline]
    pub fn stride(&self) -> u16 {
        u16::from(self.cols) + 1
    }

    /// The cell at 0-based `(row, col)`, or `None` off the board.
    #[inline]
    pub fn cell(&self, row: u8, col: u8) -> Option<Cell> {
        (row < self.rows && col < self.cols)
            .then(|| Cell(u16::from(row) * self.stride() + u16::from(col)))
    }

    /// The 0-based `(row, col)` of a cell of this board.
    #[inline]
    pub fn row_col(&self, cell: Cell) -> (u8, u8) {
        let stride = self.stride();
        ((cell.0 / stride) as u8, (cell.0 % stride) as u8)
    }

    /// The cell the `center` rule prescribes for the first stone.
    pub fn center_cell(&self) -> Cell {
        Cell(u16::from((self.rows - 1) / 2) * self.stride() + u16::from((self.cols - 1) / 2))
    }

    /// Every cell of the board, as a set.
    pub fn board_cells(&self) -> CellSet {
        let mut set = CellSet::EMPTY;
        for row in 0..self.rows {
            for col in 0..self.cols {
                set.insert(Cell(u16::from(row) * self.stride() + u16::from(col)));
            }
        }
        set
    }

    /// The starting position.
    pub fn start(self) -> Mnk {
        Mnk::new(self)
    }

    /// The cell's name in the game's notation: column letter and 1-based row, `a1` top-left.
    pub fn cell_name(&self, cell: Cell) -> String {
        let (row, col) = self.row_col(cell);
        format!("{}{}", char::from(b'a' + col), u32::from(row) + 1)
    }

    /// Reads a cell: `b3` (column letter, 1-based row) or `2,1` (0-based row, column).
    /// Checks only that the cell is on the board, not that it is empty.
    pub fn parse_cell(&self, text: &str) -> Result<Cell, MoveError> {
        let trimmed = text.trim();
        let syntax = || MoveError::Syntax {
            text: trimmed.to_string(),
            expected: "a cell is a column letter and a row number like `b3`, or 0-based \
                       `row,col` like `2,1`"
                .into(),
        };
        let (row, col): (u32, u32) = if let Some((r, c)) = trimmed
            .trim_start_matches('(')
            .trim_end_matches(')')
            .split_once(',')
        {
            let row = r.trim().parse().map_err(|_| syntax())?;
            let col = c.trim().parse().map_err(|_| syntax())?;
            (row, col)
        } else {
            let mut chars = trimmed.chars();
            let letter = chars.next().ok_or_else(syntax)?;
            if !letter.is_ascii_alphabetic() {
                return Err(syntax());
            }
            let digits = chars.as_str();
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            let row: u32 = digits.parse().map_err(|_| syntax())?;
            if row == 0 {
                return Err(MoveError::OffBoard {
                    text: trimmed.to_string(),
                    detail: format!("rows are numbered 1 to {}", self.rows),
                });
            }
            let col = u32::from(letter.to_ascii_lowercase()) - u32::from('a');
            (row - 1, col)
        };
        if row >= u32::from(self.rows) || col >= u32::from(self.cols) {
            let last_col = char::from(b'a' + self.cols - 1);
            return Err(MoveError::OffBoard {
                text: trimmed.to_string(),
                detail: format!(
                    "the board has {} rows (1-{}) and {} columns (a-{last_col}); as 0-based \
                     row,col: 0-{}, 0-{}",
                    self.rows,
                    self.rows,
                    self.cols,
                    self.rows - 1,
                    self.cols - 1
                ),
            });
        }
        Ok(Cell(row as u16 * self.stride() + col as u16))
    }
}

impl fmt::Display for MnkConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mnk-{}x{}k{}", self.rows, self.cols, self.k)?;
        match self.rule {
            WinRule::Freestyle => {}
            rule => write!(f, "-{}", rule.name())?,
        }
        if self.center {
            f.write_str("-center")?;
        }
        Ok(())
    }
}

/// A cell of an m,n,k board: its index in the board's padded index space (see the module
/// documentation). Convert with [`MnkConfig::cell`] and [`MnkConfig::row_col`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(pub u16);

impl Cell {
    /// The padded index as a `usize`.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A set of cells as a bitset over the padded index space of any board up to 19x19.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet([0; WORDS]);

    /// The number of 64-bit words of a set.
    pub const WORDS: usize = WORDS;

    /// The set as words: bit `i % 64` of word `i / 64` is the cell of padded index `i`. For
    /// keeping a set where a `CellSet` cannot go (in atomics, say); [`CellSet::from_words`]
    /// reads it back.
    #[inline]
    pub const fn to_words(self) -> [u64; WORDS] {
        self.0
    }

    /// The set whose [`CellSet::to_words`] are `words`.
    #[inline]
    pub const fn from_words(words: [u64; WORDS]) -> CellSet {
        CellSet(words)
    }

    /// Whether `cell` is in the set.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        let i = cell.index();
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    #[inline]
    fn has_index(&self, i: usize) -> bool {
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Adds `cell` if `from` holds it; returns 1 if that made it new to `self`, else 0.
    /// Branch-free, for loops that grow a set from random positions.
    #[inline]
    pub fn insert_from(&mut self, cell: Cell, from: &CellSet) -> u32 {
        let i = cell.index();
        let (word, bit) = (i >> 6, i & 63);
        let added = from.0[word] & !self.0[word] & (1 << bit);
        self.0[word] |= added;
        (added >> bit) as u32
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        let i = cell.index();
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// Number of cells in the set.
    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The cells in both sets.
    #[inline]
    pub fn and(&self, other: &CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// The cells in either set.
    #[inline]
    pub fn or(&self, other: &CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The cells of `self` not in `other`.
    #[inline]
    pub fn minus(&self, other: &CellSet) -> CellSet {
        CellSet(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// Every index moved up by `by` (bits past the end are dropped).
    #[inline]
    pub fn shifted_up(&self, by: u16) -> CellSet {
        let by = usize::from(by);
        let (words, bits) = (by / 64, by % 64);
        let mut out = [0u64; WORDS];
        for i in (words..WORDS).rev() {
            let src = i - words;
            out[i] = self.0[src] << bits;
            if bits != 0 && src > 0 {
                out[i] |= self.0[src - 1] >> (64 - bits);
            }
        }
        CellSet(out)
    }

    /// Every index moved down by `by` (bits below zero are dropped).
    #[inline]
    pub fn shifted_down(&self, by: u16) -> CellSet {
        let by = usize::from(by);
        let (words, bits) = (by / 64, by % 64);
        let mut out = [0u64; WORDS];
        for (i, word) in out.iter_mut().enumerate().take(WORDS - words) {
            let src = i + words;
            *word = self.0[src] >> bits;
            if bits != 0 && src + 1 < WORDS {
                *word |= self.0[src + 1] << (64 - bits);
            }
        }
        CellSet(out)
    }

    /// The set and its 8-neighbourhood on a board of the given stride (before masking with the
    /// board: the result can hold sentinel indices, so `and` it with a set of real cells).
    pub fn dilated(&self, stride: u16) -> CellSet {
        let mut out = *self;
        for step in [1, stride - 1, stride, stride + 1] {
            out = out.or(&self.shifted_up(step)).or(&self.shifted_down(step));
        }
        out
    }

    /// The cells in increasing index order.
    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Cell((w * 64 + b) as u16)
                })
            })
        })
    }

    /// The `rank`-th cell (0-based) in increasing index order, if the set has that many.
    #[inline]
    pub fn nth(&self, mut rank: u32) -> Option<Cell> {
        for (w, &word) in self.0.iter().enumerate() {
            let count = word.count_ones();
            if rank < count {
                return Some(Cell((w * 64 + select_in_word(word, rank) as usize) as u16));
            }
            rank -= count;
        }
        None
    }
}

/// The position of the `rank`-th set bit of `word` (which has more than `rank` set bits).
///
/// Broadword selection (Vigna, "Broadword implementation of rank/select queries", 2008): the
/// population counts of the eight bytes and their running sums come from a few shifts, masks
/// and one multiplication, a comparison of all eight sums at once finds the byte that holds the
/// bit, and a table finishes inside the byte. No branch, and no `popcnt` instruction needed
/// (x86-64 before v2 has none, and a binary search over software counts is several times
/// slower).
#[inline]
fn select_in_word(word: u64, rank: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut counts = word - ((word >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i: the set bits in bytes 0 to i (at most 64, so each fits in 7 bits).
    let sums = counts.wrapping_mul(ONES);
    // High bit of byte i set when sum i <= rank: those bytes come before the bit's byte.
    let before = (((u64::from(rank) * ONES) | HIGHS) - sums) & HIGHS;
    let byte = ((before >> 7).wrapping_mul(ONES) >> 56) as u32;
    let shift = byte * 8;
    let below = ((sums << 8) >> shift) as u32 & 0xFF;
    let in_byte = (word >> shift) as usize & 0xFF;
    shift + u32::from(SELECT_IN_BYTE[in_byte | ((rank - below) as usize) << 8])
}

/// `SELECT_IN_BYTE[byte | rank << 8]`: the position of the `rank`-th set bit of `byte` (8 when
/// it has fewer set bits).
static SELECT_IN_BYTE: [u8; 256 * 8] = {
    let mut table = [8u8; 256 * 8];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut rank) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte | rank << 8] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Zobrist keys: one per player and padded cell index, from a fixed seed so hashes are the
/// same in every run and on every machine.
static ZOBRIST: [[u64; MAX_BITS]; 2] = {
    let mut table = [[0u64; MAX_BITS]; 2];
    let mut player = 0;
    while player < 2 {
        let mut i = 0;
        while i < MAX_BITS {
            table[player][i] = splitmix64(0x6d6e_6b00_0000_0000 ^ ((player * MAX_BITS + i) as u64));
            i += 1;
        }
        player += 1;
    }
    table
};

/// The four line directions as steps in the padded index space: along a row, down a column,
/// down-right, down-left.
#[inline]
fn directions(stride: u16) -> [u16; 4] {
    [1, stride, stride + 1, stride - 1]
}

/// Whether the stones `own` (one word of a padded index space of `stride`, holding `at`) have
/// `k` or more in a line through `at`. For each direction the cells that start a run of `k`
/// are `own` and-ed with itself shifted by each step of the run; the cells such runs cover are
/// those starts or-ed with themselves shifted back; `at` is tested once at the end. Runs stop
/// at the padding column and past the last row, where no stone ever is. The usual `k` get
/// their own copy with the loops unrolled.
#[inline]
fn run_in_word(own: u64, at: u32, stride: u32, k: u32) -> bool {
    let covered = match k {
        3 => covered_by_runs(own, stride, 3),
        4 => covered_by_runs(own, stride, 4),
        5 => covered_by_runs(own, stride, 5),
        _ => covered_by_runs(own, stride, k),
    };
    (covered >> at) & 1 != 0
}

/// The cells of `own` in a run of `k` or more in some direction (see [`run_in_word`]).
#[inline(always)]
fn covered_by_runs(own: u64, stride: u32, k: u32) -> u64 {
    let mut covered = 0;
    for step in [1, stride, stride + 1, stride - 1] {
        if (k - 1) * step >= 64 {
            // No run that long fits in one word.
            continue;
        }
        let mut starts = own;
        for i in 1..k {
            starts &= own >> (i * step);
        }
        let mut cover = starts;
        for i in 1..k {
            cover |= starts << (i * step);
        }
        covered |= cover;
    }
    covered
}

/// The stones of a winning line: the first stone's cell, the step between stones, the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WinLine {
    /// The stone at one end of the line.
    pub from: Cell,
    /// The index step between consecutive stones of the line.
    pub step: u16,
    /// The number of stones in the line.
    pub len: u8,
}

impl WinLine {
    /// The cells of the line, from one end to the other.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..u16::from(self.len)).map(|i| Cell(self.from.0 + i * self.step))
    }
}

/// A position of an m,n,k game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mnk {
    config: MnkConfig,
    stones: [CellSet; 2],
    empty: CellSet,
    hash: u64,
    plies: u16,
    last: Option<Cell>,
    result: Option<Outcome>,
    win_line: Option<WinLine>,
}

impl Mnk {
    /// The empty board of `config`.
    pub fn new(config: MnkConfig) -> Self {
        Mnk {
            config,
            stones: [CellSet::EMPTY; 2],
            empty: config.board_cells(),
            hash: 0,
            plies: 0,
            last: None,
            result: None,
            win_line: None,
        }
    }

    /// The game's parameters.
    pub fn config(&self) -> &MnkConfig {
        &self.config
    }

    /// The stone on `cell`, if any.
    #[inline]
    pub fn stone(&self, cell: Cell) -> Option<Player> {
        if self.stones[0].contains(cell) {
            Some(Player::First)
        } else if self.stones[1].contains(cell) {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The stone at 0-based `(row, col)`, if any (and `None` off the board).
    pub fn stone_at(&self, row: u8, col: u8) -> Option<Player> {
        self.config.cell(row, col).and_then(|c| self.stone(c))
    }

    /// The set of `player`'s stones.
    #[inline]
    pub fn stones(&self, player: Player) -> &CellSet {
        &self.stones[player.index()]
    }

    /// The set of empty cells.
    #[inline]
    pub fn empty_cells(&self) -> &CellSet {
        &self.empty
    }

    /// The legal moves as a set: the cells [`Game::legal_moves`] lists, in increasing index
    /// order (the empty cells; only the centre cell for the first stone under the `center`
    /// rule; none once the game is over). A copy of a few words where a caller needs only
    /// some of the moves (the Python package's lazy move lists).
    pub fn legal_cells(&self) -> CellSet {
        if self.result.is_some() {
            CellSet::EMPTY
        } else if self.config.center && self.plies == 0 {
            let mut only = CellSet::EMPTY;
            only.insert(self.config.center_cell());
            only
        } else {
            self.empty
        }
    }

    /// The cell of the last stone played.
    #[inline]
    pub fn last_move(&self) -> Option<Cell> {
        self.last
    }

    /// The line that won the game, for display.
    pub fn winning_line(&self) -> Option<WinLine> {
        self.win_line
    }

    /// Puts a stone of `player` on an empty `cell` with no turn, rule or end bookkeeping, for
    /// setting up positions in tests and tools. The side to move follows the stone count, so
    /// build a position with alternating counts (X has as many stones as O, or one more).
    pub fn place(&mut self, cell: Cell, player: Player) {
        debug_assert!(self.empty.contains(cell), "place on an occupied cell");
        self.empty.remove(cell);
        self.stones[player.index()].insert(cell);
        self.hash ^= ZOBRIST[player.index()][cell.index()];
        self.plies += 1;
    }

    /// Whether a stone of `player` on the empty `cell` would win at once (ignoring the
    /// opening rule). Cheap: it walks the four lines through the cell.
    #[inline]
    pub fn wins_at(&self, cell: Cell, player: Player) -> bool {
        self.line_through(cell, player).is_some()
    }

    /// The winning line a stone of `player` on `cell` would make, if any, treating `cell` as
    /// holding that stone whatever is on it now.
    #[inline]
    fn line_through(&self, cell: Cell, player: Player) -> Option<WinLine> {
        let own = &self.stones[player.index()];
        let limit = usize::from(self.config.rows) * usize::from(self.config.stride());
        // Every rule needs k or more in a line first. On boards of one word (7x7 and smaller)
        // a branch-free test says so; a walk with a branch per stone mispredicts on random play.
        if limit <= 64
            && !run_in_word(
                own.0[0] | 1 << cell.0,
                u32::from(cell.0),
                u32::from(self.config.stride()),
                u32::from(self.config.k),
            )
        {
            return None;
        }
        self.walk_lines(cell, player, limit)
    }

    /// [`Mnk::line_through`] by walking the four lines from `cell` stone by stone.
    fn walk_lines(&self, cell: Cell, player: Player, limit: usize) -> Option<WinLine> {
        let own = &self.stones[player.index()];
        let other = &self.stones[Mnk::opponent(player).index()];
        let k = usize::from(self.config.k);
        let at = cell.index();
        for step in directions(self.config.stride()) {
            let step = usize::from(step);
            let (backward, forward) = run_through(own, at, step, limit);
            let len = (forward - backward) / step;
            let wins = match self.config.rule {
                WinRule::Freestyle => len >= k,
                WinRule::Exact => len == k,
                WinRule::Caro => len >= k && !blocked_both(other, backward, forward, step, limit),
            };
            if wins {
                return Some(WinLine {
                    from: Cell(backward as u16),
                    step: step as u16,
                    len: len as u8,
                });
            }
        }
        None
    }

    /// The length of a line of `k` or more through `cell`'s stone that does not win because
    /// the other player blocks both its ends (caro), if there is one.
    pub fn blocked_line_at(&self, cell: Cell) -> Option<usize> {
        if self.config.rule != WinRule::Caro {
            return None;
        }
        let player = self.stone(cell)?;
        let own = &self.stones[player.index()];
        let other = &self.stones[Mnk::opponent(player).index()];
        let limit = usize::from(self.config.rows) * usize::from(self.config.stride());
        directions(self.config.stride())
            .into_iter()
            .find_map(|step| {
                let step = usize::from(step);
                let (backward, forward) = run_through(own, cell.index(), step, limit);
                let len = (forward - backward) / step;
                (len >= usize::from(self.config.k)
                    && blocked_both(other, backward, forward, step, limit))
                .then_some(len)
            })
    }

    /// The place of `cell` in the [`View`]: row-major from `a1`.
    fn place_of(&self, cell: Cell) -> usize {
        let (row, col) = self.config.row_col(cell);
        usize::from(row) * usize::from(self.config.cols) + usize::from(col)
    }

    fn describe_illegal(&self, cell: Cell) -> Option<String> {
        if let Some(owner) = self.stone(cell) {
            let name = if owner == Player::First { 'X' } else { 'O' };
            return Some(format!(
                "cell {} is occupied by {name}",
                self.config.cell_name(cell)
            ));
        }
        if self.config.center && self.plies == 0 && cell != self.config.center_cell() {
            return Some(format!(
                "the first stone must go on the centre cell {}",
                self.config.cell_name(self.config.center_cell())
            ));
        }
        None
    }
}

/// The run of `own` stones along `step` through index `at` (counted as a stone): from
/// `backward` to `forward - step`, as `(backward, forward)`.
#[inline]
fn run_through(own: &CellSet, at: usize, step: usize, limit: usize) -> (usize, usize) {
    let mut forward = at + step;
    while forward < limit && own.has_index(forward) {
        forward += step;
    }
    let mut backward = at;
    while backward >= step && own.has_index(backward - step) {
        backward -= step;
    }
    (backward, forward)
}

/// Whether `other`'s stones stand at both ends of the run `(backward, forward)` (a board edge
/// is no block).
#[inline]
fn blocked_both(
    other: &CellSet,
    backward: usize,
    forward: usize,
    step: usize,
    limit: usize,
) -> bool {
    forward < limit
        && other.has_index(forward)
        && backward >= step
        && other.has_index(backward - step)
}

impl Game for Mnk {
    fn move_note(&self, mv: Cell) -> Option<String> {
        let len = self.blocked_line_at(mv)?;
        Some(format!(
            "{} makes {len} in a row, blocked at both ends: under caro's rule it does not win.",
            self.config.cell_name(mv)
        ))
    }

    fn rule_line(&self) -> Option<String> {
        let k = self.config.k;
        match self.config.rule {
            WinRule::Freestyle => None,
            WinRule::Exact => Some(format!(
                "Exactly {k} in a row wins: a line of {} or more does not.",
                k + 1
            )),
            WinRule::Caro => Some(format!(
                "{k} or more in a row win unless the other player's stones block both ends \
                 (a board edge is no block)."
            )),
        }
    }

    type Move = Cell;

    const FAMILY: &'static Family = &FAMILY;

    fn variant(&self) -> Variant {
        Variant::Mnk(self.config)
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

    fn legal_moves(&self, out: &mut MoveList<Cell>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        if self.config.center && self.plies == 0 {
            out.push(self.config.center_cell());
            return;
        }
        for cell in self.empty.iter() {
            // The empty set never exceeds MAX_MOVES cells, so the push cannot fail.
            out.push(cell);
        }
    }

    #[inline]
    fn is_legal(&self, cell: Cell) -> bool {
        self.result.is_none()
            && cell.index() < MAX_BITS
            && self.empty.contains(cell)
            && !(self.config.center && self.plies == 0 && cell != self.config.center_cell())
    }

    #[inline]
    fn play_unchecked(&mut self, cell: Cell) {
        debug_assert!(self.is_legal(cell), "illegal move {cell:?} in\n{self}");
        let player = self.side_to_move();
        self.empty.remove(cell);
        self.stones[player.index()].insert(cell);
        self.hash ^= ZOBRIST[player.index()][cell.index()];
        self.plies += 1;
        self.last = Some(cell);
        if let Some(line) = self.line_through(cell, player) {
            self.result = Some(Outcome::Win(player));
            self.win_line = Some(line);
        } else if self.plies == self.config.cells() {
            self.result = Some(Outcome::Draw);
        }
    }

    #[inline]
    fn hash_key(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Result<Cell, MoveError> {
        let cell = self.config.parse_cell(text)?;
        if self.result.is_some() {
            return Err(MoveError::GameOver {
                text: self.config.cell_name(cell),
            });
        }
        match self.describe_illegal(cell) {
            Some(reason) => Err(MoveError::Illegal {
                text: self.config.cell_name(cell),
                reason,
            }),
            None => Ok(cell),
        }
    }

    fn format_move(&self, cell: Cell) -> String {
        self.config.cell_name(cell)
    }

    fn write_move(&self, cell: Cell, out: &mut String) {
        let (row, col) = self.config.row_col(cell);
        out.push(char::from(b'a' + col));
        let row = u32::from(row) + 1;
        if row >= 10 {
            out.push(char::from(b'0' + (row / 10) as u8));
        }
        out.push(char::from(b'0' + (row % 10) as u8));
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

    fn move_help(&self) -> String {
        "a cell: column letter and row number like b2, or 0-based row,col like 1,1".into()
    }

    fn view(&self) -> View {
        let config = &self.config;
        let place = |cell| self.place_of(cell);
        let places = (0..config.rows)
            .flat_map(|row| (0..config.cols).map(move |col| (row, col)))
            .map(|(row, col)| match self.stone_at(row, col) {
                Some(player) => Place::Stone(player),
                None => Place::Empty,
            })
            .collect();
        View {
            layout: Layout::Grid {
                rows: config.rows,
                cols: config.cols,
                gravity: false,
            },
            places,
            players: self.num_players(),
            scores: None,
            last: self.last.map(place),
            last_from: None,
            line: self
                .win_line
                .iter()
                .flat_map(|line| line.cells())
                .map(place)
                .collect(),
            to_move: self.result.is_none().then(|| self.side_to_move()),
            ply: self.ply(),
            notes: Vec::new(),
        }
    }

    fn move_place(&self, cell: Cell) -> MovePlace {
        MovePlace {
            place: self.place_of(cell),
            forward: None,
        }
    }

    /// The cells row-major from `a1`, as OpenSpiel numbers the cells of its m,n,k games.
    fn num_actions(&self) -> usize {
        usize::from(self.config.cells())
    }

    #[inline]
    fn action(&self, cell: Cell) -> Option<u32> {
        let (row, col) = self.config.row_col(cell);
        (row < self.config.rows && col < self.config.cols)
            .then(|| u32::from(row) * u32::from(self.config.cols) + u32::from(col))
    }

    #[inline]
    fn move_of(&self, action: u32) -> Option<Cell> {
        let cols = u32::from(self.config.cols);
        if action >= u32::from(self.config.cells()) {
            return None;
        }
        self.config
            .cell((action / cols) as u8, (action % cols) as u8)
    }

    #[inline]
    fn random_move<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Cell> {
        if self.result.is_some() {
            return None;
        }
        if self.config.center && self.plies == 0 {
            return Some(self.config.center_cell());
        }
        let count = u32::from(self.config.cells() - self.plies);
        let rank = rand::RngExt::random_range(rng, 0..count);
        self.empty.nth(rank)
    }
}

/// Every m,n,k board seats two: X (`First`) and O (`Second`).
impl TwoPlayer for Mnk {}

impl fmt::Display for Mnk {
    /// The board as a grid: column letters on top, row numbers on the left, `X`, `O` and `.`;
    /// the last stone in parentheses, the stones of a winning line in brackets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let config = &self.config;
        write!(f, "   ")?;
        for col in 0..config.cols {
            write!(f, " {} ", char::from(b'a' + col))?;
        }
        writeln!(f)?;
        let line: Vec<Cell> = self.win_line.iter().flat_map(|l| l.cells()).collect();
        for row in 0..config.rows {
            write!(f, "{:>2} ", u32::from(row) + 1)?;
            for col in 0..config.cols {
                let cell = config.cell(row, col).expect("cell on the board");
                let mark = match self.stone(cell) {
                    Some(Player::First) => 'X',
                    Some(_) => 'O',
                    None => '.',
                };
                if line.contains(&cell) {
                    write!(f, "[{mark}]")?;
                } else if self.last == Some(cell) {
                    write!(f, "({mark})")?;
                } else {
                    write!(f, " {mark} ")?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The m,n,k games in the registry.
pub const FAMILY: Family = Family {
    name: "mnk",
    title: "m,n,k games",
    ids: "`mnk-MxNkK` with an optional `-exact` or `-caro` and `-center` (like `mnk-5x5k4`)",
    example: "mnk-5x5k4",
    aliases: &[
        ("tictactoe", "mnk-3x3k3"),
        ("tic-tac-toe", "mnk-3x3k3"),
        ("gomoku", "mnk-15x15k5"),
        ("caro", "mnk-15x15k5-caro"),
    ],
    players: (2, 2),
    presets: &[
        ("mnk-4x4k3", "4x4, three in a row"),
        ("mnk-5x5k4", "TD4: 5x5, four in a row"),
        ("mnk-7x7k5", "7x7, five in a row"),
        ("mnk-9x9k5", "9x9, five in a row"),
        ("mnk-19x19k5", "19x19, five in a row"),
    ],
    help: &[
        "m,n,k game: mnk-MxNkK[-exact|-caro][-center]  (M rows, N columns 1-19, K from 1 to max(M, N))",
        "    win rules: freestyle (default, k or more), -exact (exactly k), -caro (not blocked at both ends)",
        "    -center: the first stone goes on the centre cell (row (M-1)/2, column (N-1)/2, 0-based)",
        "    examples: mnk-3x3k3 (alias tictactoe), mnk-5x5k4, mnk-9x9k5, mnk-15x15k5 (gomoku),",
        "              mnk-15x15k5-caro (caro), mnk-15x15k5-exact-center, mnk-4x7k4",
        "    moves: column letter + row number (a1 top-left), or 0-based row,col like 2,1",
    ],
    parse: |given, id| {
        id.strip_prefix("mnk-")
            .map(|rest| parse_mnk(given, rest).map(Variant::Mnk))
    },
};

fn parse_mnk(id: &str, rest: &str) -> Result<MnkConfig, VariantError> {
    let shape = || {
        malformed(
            id,
            "an m,n,k id is `mnk-MxNkK` (M rows, N columns, K in a line), optionally followed \
             by `-exact` or `-caro` and then `-center`, like `mnk-15x15k5-caro`",
        )
    };
    let mut parts = rest.split('-');
    let size = parts.next().ok_or_else(shape)?;
    let (rows, tail) = size.split_once('x').ok_or_else(shape)?;
    let (cols, k) = tail.split_once('k').ok_or_else(shape)?;
    let number = |text: &str, what: &str| -> Result<u8, VariantError> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(shape());
        }
        text.parse::<u8>().map_err(|_| {
            VariantError::OutOfRange(format!("{what} = {text} in `{id}` is far too large"))
        })
    };
    let mut config = MnkConfig::new(
        number(rows, "rows")?,
        number(cols, "columns")?,
        number(k, "k")?,
    )?;
    let mut rule_seen = false;
    let mut center_seen = false;
    for suffix in parts {
        match suffix {
            "freestyle" | "exact" | "caro" if !rule_seen && !center_seen => {
                rule_seen = true;
                config = config.with_rule(match suffix {
                    "exact" => WinRule::Exact,
                    "caro" => WinRule::Caro,
                    _ => WinRule::Freestyle,
                });
            }
            "center" | "centre" if !center_seen => {
                center_seen = true;
                config = config.with_center(true);
            }
            "freestyle" | "exact" | "caro" | "center" | "centre" => {
                return Err(malformed(
                    id,
                    format!(
                        "`-{suffix}` is repeated or out of order: the win rule comes before `-center`, each at most once"
                    ),
                ));
            }
            other => {
                return Err(malformed(
                    id,
                    format!("unknown suffix `-{other}`: expected `-exact`, `-caro` or `-center`"),
                ));
            }
        }
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};

    use super::*;

    #[test]
    fn a_caro_five_blocked_at_both_ends_is_noted_and_does_not_win() {
        let caro: Variant = "caro".parse().unwrap();
        let Variant::Mnk(config) = caro else {
            panic!("{caro:?}")
        };
        let game = config
            .start()
            .play_line("e8 d8 f8 j8 g8 a1 h8 a2 i8")
            .unwrap();
        assert_eq!(game.outcome(), None, "blocked at both ends: no win");
        let cell = |name: &str| config.start().parse_move(name).unwrap();
        let i8 = cell("i8");
        assert_eq!(
            game.move_note(i8).as_deref(),
            Some("i8 makes 5 in a row, blocked at both ends: under caro's rule it does not win.")
        );
        assert_eq!(game.move_note(cell("a2")), None, "O's a1 a2");
        // Open at one end, the same five wins; freestyle has no such note.
        let open = config
            .start()
            .play_line("e8 d8 f8 a3 g8 a1 h8 a2 i8")
            .unwrap();
        assert_eq!(open.outcome(), Some(Outcome::Win(Player::First)));
        assert_eq!(open.move_note(i8), None);
        let Ok(Variant::Mnk(free)) = "mnk-15x15k5".parse::<Variant>() else {
            panic!()
        };
        assert_eq!(free.start().rule_line(), None);
        assert!(
            config
                .start()
                .rule_line()
                .unwrap()
                .contains("block both ends")
        );
    }

    #[test]
    fn insert_from_adds_only_what_the_other_set_holds_and_counts_new_cells() {
        let (a, b, c) = (Cell(3), Cell(70), Cell(379));
        let mut from = CellSet::EMPTY;
        from.insert(a);
        from.insert(b);
        let mut set = CellSet::EMPTY;
        set.insert(b);
        assert_eq!(set.insert_from(a, &from), 1);
        assert_eq!(set.insert_from(a, &from), 0);
        assert_eq!(set.insert_from(b, &from), 0);
        assert_eq!(set.insert_from(c, &from), 0);
        assert_eq!(set.iter().collect::<Vec<_>>(), [a, b]);
    }

    #[test]
    fn a_set_read_back_from_its_words_is_the_same_set() {
        let mut set = CellSet::EMPTY;
        for cell in [Cell(0), Cell(63), Cell(64), Cell(200), Cell(383)] {
            set.insert(cell);
        }
        let words = set.to_words();
        assert_eq!(words.len(), CellSet::WORDS);
        assert_eq!(words[0], 1 | 1 << 63);
        assert_eq!(CellSet::from_words(words), set);
        assert_eq!(CellSet::from_words(words).iter().count(), 5);
    }

    #[test]
    fn select_finds_the_rank_th_set_bit() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut words = vec![
            u64::MAX,
            1,
            1 << 63,
            0x8000_0000_0000_0001,
            0xFF00_0000_0000_00FF,
        ];
        words.extend((0..2000).map(|_| rng.random::<u64>() & rng.random::<u64>()));
        for word in words.into_iter().filter(|&w| w != 0) {
            let positions: Vec<u32> = (0..64).filter(|&bit| word >> bit & 1 == 1).collect();
            for (rank, &position) in positions.iter().enumerate() {
                assert_eq!(
                    select_in_word(word, rank as u32),
                    position,
                    "{word:#x} {rank}"
                );
            }
        }
    }

    /// The one-word test agrees with the walk on every board of one word, every k and rule,
    /// in positions set up stone by stone (which may already hold lines of any length).
    #[test]
    fn the_one_word_run_test_agrees_with_the_walk() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut checked = 0;
        for rows in 1..=8u8 {
            for cols in 1..=8u8 {
                if usize::from(rows) * usize::from(cols + 1) > 64 {
                    continue;
                }
                for k in 1..=rows.max(cols) {
                    for rule in [WinRule::Freestyle, WinRule::Exact, WinRule::Caro] {
                        let config = MnkConfig::new(rows, cols, k).unwrap().with_rule(rule);
                        let limit = usize::from(rows) * usize::from(config.stride());
                        let cells: Vec<Cell> = config.board_cells().iter().collect();
                        for _ in 0..20 {
                            let mut game = config.start();
                            for &cell in &cells {
                                match rng.random_range(0..3) {
                                    0 => game.place(cell, Player::First),
                                    1 => game.place(cell, Player::Second),
                                    _ => {}
                                }
                            }
                            for &cell in &cells {
                                for player in [Player::First, Player::Second] {
                                    assert_eq!(
                                        game.line_through(cell, player),
                                        game.walk_lines(cell, player, limit),
                                        "{config}, {player} at {cell:?}\n{game}"
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
