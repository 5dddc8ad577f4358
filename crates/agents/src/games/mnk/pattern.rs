//! Line patterns of m,n,k games, for any `k` and win rule, kept up to date move by move.
//!
//! A *pattern* says what a stone of a player on an empty cell would make along one of the four
//! lines through the cell: how many more stones of that player the line then still needs for a
//! win through the cell, and whether it could be finished in two places (open) or one
//! (closed). It is read from the cells within `k` (`k - 1` under `freestyle`) of the cell along the line (the *window*;
//! cells off the board count as walls), so it is exact under each rule: `exact` sees an
//! overline, `caro` sees an opponent's stone at each end (and that a board edge is not a block).
//!
//! | pattern | a stone here makes, along this line | k = 5 name |
//! | --- | --- | --- |
//! | [`WIN`] | a winning line through the cell | five |
//! | [`OPEN1`] | a line one stone from a win in two or more places | open four |
//! | [`CLOSED1`] | a line one stone from a win in one place | four |
//! | [`OPEN2`] | a line that one more stone makes an open four | open three |
//! | [`CLOSED2`] | a line that one more stone makes a four, never an open four | three |
//! | [`OPEN3`] | a line that one more stone makes an open three | open two |
//! | [`CLOSED3`] | a line that one more stone makes a three, never an open three | two |
//! | [`LIVE`] | a line that can still be completed through the cell, needing more | one |
//! | [`DEAD`] | nothing: no winning line through the cell can be made along this line | - |
//!
//! The definition is recursive: a line is [`OPEN1`] when two or more of its empty cells win
//! (through the cell), [`CLOSED1`] when one does, and otherwise one rank below the best line one
//! more stone of the player makes ([`OPEN1`] gives [`OPEN2`], [`CLOSED1`] gives [`CLOSED2`],
//! and so on; anything below [`CLOSED3`] that can still win is [`LIVE`]). For k = 5 these are
//! the usual gomoku shapes: `_XXX__` is an open three, `OXXX__` a three, `_XX_X_` an open three.
//!
//! The pattern of every empty cell, each player and each direction is classified once per
//! window content and kept in a table per `(k, rule)`, filled lazily (for k <= 5 a dense table
//! of two bytes per window, the patterns of both players, so one lookup serves both:
//! `4^(2k - 2)` windows under `freestyle`, whose windows reach k - 1 cells each way, 128 KiB for
//! k = 5; `4^(2k)`, 2 MiB, under `exact` and `caro`, which need the cell past a line's end;
//! larger k in a per-thread hash map). [`Patterns`] keeps each cell's window codes and patterns
//! and updates them from the last move: a stone changes the windows of the at most `8k` cells
//! within `k` of it along its four lines, one OR each (the cells come from a table made once
//! per board), and each cell's four patterns also as one number, its *key*, whose value,
//! evaluation weight and threat rank are table lookups.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rules::mnk::CellSet;
use rules::{Cell, Mnk, Player, TwoPlayer, WinRule};

use crate::MOVE_SLOTS;

/// No winning line through the cell can be made along this line.
pub const DEAD: u8 = 0;
/// The line can still be completed through the cell, but needs four or more stones.
pub const LIVE: u8 = 1;
/// One more stone makes a [`CLOSED2`] line, none an [`OPEN2`] one (k = 5: a two).
pub const CLOSED3: u8 = 2;
/// One more stone makes an [`OPEN2`] line (k = 5: an open two).
pub const OPEN3: u8 = 3;
/// One more stone makes a [`CLOSED1`] line, none an [`OPEN1`] one (k = 5: a three).
pub const CLOSED2: u8 = 4;
/// One more stone makes an [`OPEN1`] line (k = 5: an open three).
pub const OPEN2: u8 = 5;
/// One empty cell of the line wins through the cell (k = 5: a four).
pub const CLOSED1: u8 = 6;
/// Two or more empty cells of the line win through the cell (k = 5: an open four).
pub const OPEN1: u8 = 7;
/// The stone wins at once along this line (k = 5: a five).
pub const WIN: u8 = 8;

/// The number of pattern values.
pub const PATTERNS: usize = 9;

/// The pattern's name for a board of `k` in a line: `five`, `open four`, `four`... for k = 5,
/// `open 3-of-4`-style counts otherwise.
pub fn pattern_name(pattern: u8, k: u8) -> String {
    let stones = |missing: u8| k.saturating_sub(missing);
    let word = |n: u8| match n {
        1 => "one".to_string(),
        2 => "two".to_string(),
        3 => "three".to_string(),
        4 => "four".to_string(),
        5 => "five".to_string(),
        6 => "six".to_string(),
        n => format!("{n}"),
    };
    match pattern {
        WIN => word(k),
        OPEN1 => format!("open {}", word(stones(1))),
        CLOSED1 => word(stones(1)),
        OPEN2 => format!("open {}", word(stones(2))),
        CLOSED2 => word(stones(2)),
        OPEN3 => format!("open {}", word(stones(3))),
        CLOSED3 => word(stones(3)),
        LIVE => "live".to_string(),
        _ => "dead".to_string(),
    }
}

/// What a window cell holds, from the view of the player the pattern is for.
const EMPTY: u64 = 0;
const OWN: u64 = 1;
const OPP: u64 = 2;
const WALL: u64 = 3;

/// The largest window radius: codes are two bits per window cell in a `u64`. Lines are at most
/// 19 cells long, so for k > 16 the cells past 16 along a line are treated as walls.
const MAX_RADIUS: usize = 16;

/// The radius of the window for `k` under `rule`: k - 1 cells each way hold every line of k
/// through the cell; `exact` and `caro` also need the cell past a line's end (an overline, a
/// block), so k.
#[inline]
fn radius_of(k: usize, rule: WinRule) -> usize {
    let radius = if rule == WinRule::Freestyle { k - 1 } else { k };
    radius.clamp(1, MAX_RADIUS)
}

/// The code field of the window cell `offset` (non-zero, within the radius) from the centre.
#[inline]
fn field(offset: isize, radius: usize) -> u32 {
    if offset < 0 {
        (radius as isize + offset) as u32
    } else {
        (radius as isize + offset - 1) as u32
    }
}

/// A code seen by the other player: own and opponent stones swap, walls stay.
#[inline]
pub(crate) fn swap_sides(code: u64) -> u64 {
    const LOW: u64 = 0x5555_5555_5555_5555;
    ((code & LOW) << 1) | ((code >> 1) & LOW)
}

/// The classification of window codes for one `(k, rule)`.
struct Classifier {
    k: usize,
    rule: WinRule,
    radius: usize,
}

impl Classifier {
    /// The window as cells, the centre (own) at index `radius`.
    fn decode(&self, code: u64, cells: &mut [u64]) {
        let r = self.radius;
        cells[r] = OWN;
        for j in 0..2 * r {
            let value = (code >> (2 * j)) & 3;
            let index = if j < r { j } else { j + 1 };
            cells[index] = value;
        }
    }

    /// Whether the run of own stones through the centre wins under the rule.
    fn wins(&self, cells: &[u64]) -> bool {
        let r = self.radius;
        let (mut a, mut b) = (r, r);
        while a > 0 && cells[a - 1] == OWN {
            a -= 1;
        }
        while b + 1 < cells.len() && cells[b + 1] == OWN {
            b += 1;
        }
        let len = b - a + 1;
        // A run that reaches the window's edge may go on beyond it: it is longer than k
        // (the window reaches k cells each way), and its far end is not known.
        let touches_edge = a == 0 || b + 1 == cells.len();
        match self.rule {
            WinRule::Freestyle => len >= self.k,
            WinRule::Exact => len == self.k && !touches_edge,
            WinRule::Caro => {
                len >= self.k
                    && !(a > 0 && cells[a - 1] == OPP && b + 1 < cells.len() && cells[b + 1] == OPP)
            }
        }
    }

    /// The pattern of `code`: how near a win through the centre is, looked at up to three
    /// more stones ahead (beyond that, only whether a win can still be made: [`LIVE`]).
    fn classify(&self, code: u64) -> u8 {
        let r = self.radius;
        let mut cells = [0u64; 2 * MAX_RADIUS + 1];
        let cells = &mut cells[..2 * r + 1];
        self.decode(code, cells);
        match self.near(cells, 3) {
            DEAD if self.live(cells) => LIVE,
            pattern => pattern,
        }
    }

    /// The pattern of the window `cells` if a win through the centre is at most `stones` more
    /// stones away; [`DEAD`] otherwise (whether it can still be won or not).
    fn near(&self, cells: &mut [u64], stones: u32) -> u8 {
        if self.wins(cells) {
            return WIN;
        }
        if stones == 0 {
            return DEAD;
        }
        let r = self.radius;
        // Cells that a winning line through the centre can use.
        let reach = (self.k - 1).min(r);
        let mut wins = 0;
        for index in r - reach..=r + reach {
            if cells[index] == EMPTY {
                cells[index] = OWN;
                wins += u32::from(self.wins(cells));
                cells[index] = EMPTY;
            }
        }
        match wins {
            0 => {}
            1 => return CLOSED1,
            _ => return OPEN1,
        }
        if stones == 1 {
            return DEAD;
        }
        let mut best = DEAD;
        for index in r - reach..=r + reach {
            if cells[index] == EMPTY {
                cells[index] = OWN;
                best = best.max(self.near(cells, stones - 1));
                cells[index] = EMPTY;
                if best == OPEN1 {
                    break;
                }
            }
        }
        promote(best)
    }

    /// Whether a winning line through the centre can still be made: some k cells in a row
    /// through it hold no opponent stone or wall, and filling them makes a win under the rule
    /// (not an overline for `exact`, not blocked at both ends for `caro`).
    fn live(&self, cells: &[u64]) -> bool {
        let (r, k) = (self.radius, self.k);
        let len = cells.len();
        let first = r.saturating_sub(k - 1);
        for start in first..=r {
            let end = start + k - 1;
            if end >= len {
                break;
            }
            if cells[start..=end].iter().any(|&c| c == OPP || c == WALL) {
                continue;
            }
            // The run the filled window makes, through the own stones next to it.
            let (mut a, mut b) = (start, end);
            while a > 0 && cells[a - 1] == OWN {
                a -= 1;
            }
            while b + 1 < len && cells[b + 1] == OWN {
                b += 1;
            }
            let ok = match self.rule {
                WinRule::Freestyle => true,
                WinRule::Exact => b - a + 1 == k && a > 0 && b + 1 < len,
                WinRule::Caro => {
                    !(a > 0 && cells[a - 1] == OPP && b + 1 < len && cells[b + 1] == OPP)
                }
            };
            if ok {
                return true;
            }
        }
        false
    }
}

/// The pattern one stone short of `pattern` (see the module documentation).
#[inline]
fn promote(pattern: u8) -> u8 {
    match pattern {
        OPEN1 => OPEN2,
        CLOSED1 => CLOSED2,
        OPEN2 => OPEN3,
        CLOSED2 => CLOSED3,
        DEAD => DEAD,
        _ => LIVE,
    }
}

/// Dense tables for k <= 5: two bytes per code, the patterns of the code's own player and of
/// the other (the code seen with the sides swapped), each plus one; 0 = not classified yet.
const DENSE_K: usize = 5;

fn dense_table(k: usize, rule: WinRule) -> &'static [AtomicU16] {
    static TABLES: [[OnceLock<Box<[AtomicU16]>>; DENSE_K + 1]; 3] =
        [const { [const { OnceLock::new() }; DENSE_K + 1] }; 3];
    let slot = match rule {
        WinRule::Freestyle => 0,
        WinRule::Exact => 1,
        WinRule::Caro => 2,
    };
    TABLES[slot][k].get_or_init(|| {
        let size = 1usize << (4 * radius_of(k, rule));
        (0..size).map(|_| AtomicU16::new(0)).collect()
    })
}

thread_local! {
    /// Classified codes of the boards with k > 5, per thread (no locking in the search).
    static SPARSE: RefCell<HashMap<(usize, u8, u64), u8>> = RefCell::new(HashMap::new());
}

/// The pattern table of one `(k, rule)`.
#[derive(Clone, Copy)]
pub(crate) struct Table {
    k: usize,
    rule: WinRule,
    radius: usize,
    dense: Option<&'static [AtomicU16]>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table(k={}, {})", self.k, self.rule.name())
    }
}

impl Table {
    /// The table of `k` in a line under `rule`.
    pub(crate) fn new(k: usize, rule: WinRule) -> Table {
        let k = k.max(1);
        Table {
            k,
            rule,
            radius: radius_of(k, rule),
            dense: (k <= DENSE_K).then(|| dense_table(k, rule)),
        }
    }

    /// The window radius: cells this far from a cell along a line are in its window.
    #[inline]
    pub(crate) fn radius(&self) -> usize {
        self.radius
    }

    /// The pattern of the window `code` (from the view of the player the pattern is for).
    #[cfg(test)]
    pub(crate) fn pattern(&self, code: u64) -> u8 {
        self.patterns(code)[0]
    }

    /// The patterns of the window `code` for its own player and for the other, whose view
    /// is the code with the sides swapped: one lookup for both.
    #[inline(always)]
    pub(crate) fn patterns(&self, code: u64) -> [u8; 2] {
        if let Some(table) = self.dense
            && let Some(stored) = table.get(code as usize)
        {
            let stored = stored.load(Ordering::Relaxed);
            if stored != 0 {
                return [(stored & 0xff) as u8 - 1, (stored >> 8) as u8 - 1];
            }
        }
        self.patterns_slow(code)
    }

    /// A code not classified yet, or of a board of k > 5.
    #[cold]
    #[inline(never)]
    fn patterns_slow(&self, code: u64) -> [u8; 2] {
        let pair = [self.classified(code), self.classified(swap_sides(code))];
        if let Some(table) = self.dense {
            let stored = u16::from(pair[0] + 1) | (u16::from(pair[1] + 1) << 8);
            table[code as usize].store(stored, Ordering::Relaxed);
        }
        pair
    }

    /// The pattern of `code`, from the per-thread map for k > 5.
    fn classified(&self, code: u64) -> u8 {
        let classify = || {
            Classifier {
                k: self.k,
                rule: self.rule,
                radius: self.radius,
            }
            .classify(code)
        };
        if self.dense.is_some() {
            return classify();
        }
        let key = (self.k, self.rule as u8, code);
        if let Some(pattern) = SPARSE.with(|map| map.borrow().get(&key).copied()) {
            return pattern;
        }
        let pattern = classify();
        SPARSE.with(|map| map.borrow_mut().insert(key, pattern));
        pattern
    }
}

/// The weight of a pattern in the evaluation and in move ordering (see [`cell_value`]).
pub const WEIGHTS: [i32; PATTERNS] = [0, 1, 4, 12, 20, 90, 110, 500, 5000];

/// The largest weight a pattern may have (either sign): four lines on each of 361 cells at
/// this weight, the side to move's counted 6/5, stay under [`crate::score::EVAL_LIMIT`], far
/// from mate scores and from `i32`'s end.
pub const MAX_WEIGHT: i32 = 100_000;

/// How good a stone of a player on a cell is, from its four line patterns: the sum of their
/// weights, plus a bonus for two threats at once (a double four, a four and an open three,
/// two open threes), which win unless the opponent has faster threats.
#[inline]
pub fn cell_value(patterns: [u8; 4]) -> i32 {
    let mut sum = 0;
    let mut fours = 0;
    let mut threes = 0;
    for &p in &patterns {
        sum += WEIGHTS[usize::from(p)];
        if p >= CLOSED1 {
            fours += 1;
        } else if p == OPEN2 {
            threes += 1;
        }
    }
    if fours >= 2 {
        sum += 2000;
    } else if fours == 1 && threes >= 1 {
        sum += 1200;
    } else if threes >= 2 {
        sum += 600;
    }
    sum
}

/// The best of a cell's four patterns.
#[inline]
fn best_of(patterns: [u8; 4]) -> u8 {
    patterns[0]
        .max(patterns[1])
        .max(patterns[2])
        .max(patterns[3])
}

/// The place value of direction `d`'s pattern in a cell key.
const KEY_STEP: [usize; 4] = [
    1,
    PATTERNS,
    PATTERNS * PATTERNS,
    PATTERNS * PATTERNS * PATTERNS,
];

/// The number of cell keys.
pub(crate) const CELL_KEYS: usize = PATTERNS * PATTERNS * PATTERNS * PATTERNS;

/// A cell's four patterns (of one player) as one number: direction `d`'s pattern times 9^d.
#[cfg(test)]
pub(crate) fn cell_key(patterns: [u8; 4]) -> usize {
    (0..4).map(|d| usize::from(patterns[d]) * KEY_STEP[d]).sum()
}

/// The four patterns of a cell key.
pub(crate) fn key_patterns(key: usize) -> [u8; 4] {
    std::array::from_fn(|d| ((key / KEY_STEP[d]) % PATTERNS) as u8)
}

/// The classes of a cell's four patterns taken as a multiset (the order of the four directions
/// set aside): 495 of the 9 patterns.
pub const CLASSES: usize = 495;

/// The class of each cell key, and the sorted patterns of each class (in increasing order).
pub(crate) fn class_tables() -> &'static (Vec<u16>, Vec<[u8; 4]>) {
    static TABLES: OnceLock<(Vec<u16>, Vec<[u8; 4]>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut sorted = Vec::with_capacity(CLASSES);
        let n = PATTERNS as u8;
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        sorted.push([a, b, c, d]);
                    }
                }
            }
        }
        let class = (0..CELL_KEYS)
            .map(|k| {
                let mut p = key_patterns(k);
                p.sort_unstable();
                sorted.iter().position(|s| *s == p).expect("a class") as u16
            })
            .collect();
        (class, sorted)
    })
}

/// The class of a cell key.
#[inline]
pub(crate) fn class(key: usize) -> usize {
    usize::from(class_tables().0[key])
}

/// A move ordering by class: a cell's key is a weight of the side to move's class there plus
/// a weight of the opponent's (the learned ordering, `policy.rs`).
pub(crate) struct ClassOrdering {
    own: Vec<i32>,
    opp: Vec<i32>,
}

impl ClassOrdering {
    /// The ordering of the weights of each class, the side to move's and the opponent's.
    pub(crate) fn new(own_class: &[i32], opp_class: &[i32]) -> ClassOrdering {
        ClassOrdering {
            own: (0..CELL_KEYS).map(|k| own_class[class(k)]).collect(),
            opp: (0..CELL_KEYS).map(|k| opp_class[class(k)]).collect(),
        }
    }

    /// The ordering key of `cell` for the side to move `me`.
    #[inline]
    pub(crate) fn score(&self, patterns: &Patterns, cell: Cell, me: Player) -> i32 {
        self.own[patterns.key(cell, me)] + self.opp[patterns.key(cell, Mnk::opponent(me))]
    }
}

/// What the search asks of a cell's four patterns, per cell key.
pub(crate) struct CellTables {
    /// [`cell_value`].
    value: Vec<i32>,
    /// The sum of the four [`WEIGHTS`]: the cell's share of the evaluation.
    weight: Vec<i32>,
    /// [`threat_rank`] of the best pattern.
    rank: Vec<u8>,
}

impl std::fmt::Debug for CellTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CellTables({} keys)", self.value.len())
    }
}

fn cell_tables() -> Arc<CellTables> {
    static TABLES: OnceLock<Arc<CellTables>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| {
        let keys = 0..CELL_KEYS;
        CellTables {
            value: keys.clone().map(|k| cell_value(key_patterns(k))).collect(),
            weight: keys
                .clone()
                .map(|k| {
                    key_patterns(k)
                        .iter()
                        .map(|&p| WEIGHTS[usize::from(p)])
                        .sum()
                })
                .collect(),
            rank: keys
                .map(|k| threat_rank(best_of(key_patterns(k))))
                .collect(),
        }
        .into()
    }))
}

/// [`cell_tables`] with the evaluation's weights of the patterns replaced by `weights` (the
/// move ordering's [`cell_value`] and the threat ranks unchanged). Kept while a [`Patterns`]
/// uses them, and the last few for the next agent that asks: a tune asks for new weights every
/// iteration, so nothing is kept for the life of the process.
fn weighted_tables(weights: [i32; PATTERNS]) -> Arc<CellTables> {
    const KEEP: usize = 8;
    static RECENT: Mutex<Vec<([i32; PATTERNS], Arc<CellTables>)>> = Mutex::new(Vec::new());
    let mut recent = RECENT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, tables)) = recent.iter().find(|(w, _)| *w == weights) {
        return Arc::clone(tables);
    }
    let base = cell_tables();
    let tables = Arc::new(CellTables {
        value: base.value.clone(),
        weight: (0..CELL_KEYS)
            .map(|k| {
                key_patterns(k)
                    .iter()
                    .map(|&p| weights[usize::from(p)])
                    .sum()
            })
            .collect(),
        rank: base.rank.clone(),
    });
    if recent.len() == KEEP {
        recent.remove(0);
    }
    recent.push((weights, Arc::clone(&tables)));
    tables
}

/// Which of the [`ThreatSets`] a cell whose best pattern is `best` belongs to: they nest, so
/// the count of them.
#[inline]
fn threat_rank(best: u8) -> u8 {
    match best {
        WIN => 4,
        OPEN1 => 3,
        CLOSED1 => 2,
        OPEN2 => 1,
        _ => 0,
    }
}

/// Cell sets by the best pattern a stone of the player would make there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreatSets {
    /// Cells where the player wins at once.
    pub win: CellSet,
    /// Cells where the player makes an open four (or wins).
    pub open_four: CellSet,
    /// Cells where the player makes a four of either kind (or wins).
    pub four: CellSet,
    /// Cells where the player makes an open three or better.
    pub open_three: CellSet,
}

/// A cell whose window along a line holds a given cell, and where in its code that cell sits.
#[derive(Clone, Copy, Debug, Default)]
struct Reach {
    at: u16,
    shift: u8,
}

/// For every cell and direction, the cells within the window radius along that line (on the
/// board), with the code field the cell sits in for each: what a stone there changes.
#[derive(Debug, Default)]
struct ReachTable {
    /// Entries per cell and direction (twice the radius).
    width: usize,
    reach: Vec<Reach>,
    count: Vec<[u8; 4]>,
}

impl ReachTable {
    fn new(patterns: &Patterns) -> ReachTable {
        let radius = patterns.table.radius();
        let width = 2 * radius;
        let mut table = ReachTable {
            width,
            reach: vec![Reach::default(); MOVE_SLOTS * 4 * width],
            count: vec![[0; 4]; MOVE_SLOTS],
        };
        for cell in patterns.board.iter() {
            let index = cell.index();
            for (d, step) in patterns.steps().into_iter().enumerate() {
                let mut n = 0;
                for sign in [1isize, -1] {
                    for distance in 1..=radius as isize {
                        let Some(at) = patterns.walk(index, step, sign * distance) else {
                            break;
                        };
                        // `at` sees the stone at offset -sign * distance.
                        let shift = 2 * field(-sign * distance, radius);
                        table.reach[(index * 4 + d) * width + n] = Reach {
                            at: at as u16,
                            shift: shift as u8,
                        };
                        n += 1;
                    }
                }
                table.count[index][d] = n as u8;
            }
        }
        table
    }

    #[inline(always)]
    fn count(&self, index: usize, d: usize) -> usize {
        usize::from(self.count[index][d])
    }

    #[inline(always)]
    fn of(&self, index: usize, d: usize) -> &[Reach] {
        let start = (index * 4 + d) * self.width;
        &self.reach[start..start + usize::from(self.count[index][d])]
    }
}

/// The patterns of a whole board, updated stone by stone ([`Patterns::play`],
/// [`Patterns::undo`]).
#[derive(Clone, Debug)]
pub struct Patterns {
    table: Table,
    k: usize,
    stride: usize,
    limit: usize,
    board: CellSet,
    stones: [CellSet; 2],
    /// Both players' stones.
    filled: CellSet,
    /// Per cell and direction, the cells whose windows hold it.
    reach: Arc<ReachTable>,
    /// Per cell and direction, the window code from X's view.
    codes: Vec<[u64; 4]>,
    /// Per cell, per player, per direction, the pattern (empty cells only; 0 elsewhere).
    patterns: Vec<[[u8; 4]; 2]>,
    /// Per cell and player, the four patterns as one number ([`cell_key`]).
    keys: Vec<[u16; 2]>,
    /// What each key is worth.
    cells: Arc<CellTables>,
    sets: [ThreatSets; 2],
    /// Per player, the sum of the weights of every empty cell's patterns.
    sums: [i32; 2],
    /// Per stone [`Patterns::play`] put and [`Patterns::undo`] has not taken back, what it
    /// changed, for the undo to put back without classifying the windows again.
    undo_log: Vec<Saved>,
    /// The patterns and keys of the empty cells the stones of `undo_log` reached, before each
    /// stone, in the order of [`Patterns::update_lines`].
    saved_cells: Vec<([[u8; 4]; 2], [u16; 2])>,
}

/// The state one stone changes beyond the window codes (which the undo clears bit by bit).
#[derive(Clone, Debug)]
struct Saved {
    sets: [ThreatSets; 2],
    sums: [i32; 2],
    /// The patterns and keys of the stone's own cell.
    own: ([[u8; 4]; 2], [u16; 2]),
    /// Where this stone's cells start in `saved_cells`.
    cells: usize,
}

impl Patterns {
    /// The patterns of `game`, from scratch.
    pub fn new(game: &Mnk) -> Patterns {
        let config = game.config();
        let k = usize::from(config.k());
        let table = Table::new(k, config.rule());
        let stride = usize::from(config.stride());
        let limit = usize::from(config.rows()) * stride;
        let mut patterns = Patterns {
            table,
            k,
            stride,
            limit,
            board: config.board_cells(),
            stones: [*game.stones(Player::First), *game.stones(Player::Second)],
            filled: game.stones(Player::First).or(game.stones(Player::Second)),
            reach: Arc::new(ReachTable::default()),
            codes: vec![[0; 4]; MOVE_SLOTS],
            patterns: vec![[[0; 4]; 2]; MOVE_SLOTS],
            keys: vec![[0; 2]; MOVE_SLOTS],
            cells: cell_tables(),
            sets: [ThreatSets::default(); 2],
            sums: [0; 2],
            undo_log: Vec::new(),
            saved_cells: Vec::new(),
        };
        let radius = table.radius();
        let board = patterns.board;
        for cell in board.iter() {
            for (d, step) in patterns.steps().into_iter().enumerate() {
                let mut code = 0;
                for offset in (-(radius as isize)..=radius as isize).filter(|&o| o != 0) {
                    let value = match patterns.walk(cell.index(), step, offset) {
                        None => WALL,
                        Some(index) => {
                            let at = Cell(index as u16);
                            if patterns.stones[0].contains(at) {
                                OWN
                            } else if patterns.stones[1].contains(at) {
                                OPP
                            } else {
                                EMPTY
                            }
                        }
                    };
                    code |= value << (2 * field(offset, radius));
                }
                patterns.codes[cell.index()][d] = code;
            }
        }
        for cell in game.empty_cells().iter() {
            patterns.refresh_cell(cell.index());
        }
        patterns.reach = Arc::new(ReachTable::new(&patterns));
        patterns
    }

    #[inline]
    fn steps(&self) -> [usize; 4] {
        [1, self.stride, self.stride + 1, self.stride - 1]
    }

    #[inline]
    fn on_board(&self, index: usize) -> bool {
        index < self.limit && self.board.contains(Cell(index as u16))
    }

    /// The cell `offset` steps from `index` along `step`, if on the board.
    #[inline]
    fn walk(&self, index: usize, step: usize, offset: isize) -> Option<usize> {
        let target = index as isize + offset * step as isize;
        if target < 0 {
            return None;
        }
        let target = target as usize;
        // Each step must stay on the board (a row's end is the sentinel column).
        let mut at = index;
        for _ in 0..offset.unsigned_abs() {
            at = if offset > 0 {
                at + step
            } else {
                at.checked_sub(step)?
            };
            if !self.on_board(at) {
                return None;
            }
        }
        debug_assert_eq!(at, target);
        Some(at)
    }

    /// The pattern of a stone of `player` on the empty `cell` along direction `dir` (0 row,
    /// 1 column, 2 diagonal, 3 anti-diagonal).
    #[inline]
    pub fn pattern(&self, cell: Cell, player: Player, dir: usize) -> u8 {
        self.patterns[cell.index()][player.index()][dir]
    }

    /// The four patterns of a stone of `player` on the empty `cell`.
    #[inline]
    pub fn patterns(&self, cell: Cell, player: Player) -> [u8; 4] {
        self.patterns[cell.index()][player.index()]
    }

    /// The best of the four patterns of `player` on `cell`.
    #[inline]
    pub fn best(&self, cell: Cell, player: Player) -> u8 {
        let p = self.patterns(cell, player);
        p[0].max(p[1]).max(p[2]).max(p[3])
    }

    /// The cell key of `player`'s four patterns on `cell` (see [`key_patterns`]).
    #[inline]
    pub(crate) fn key(&self, cell: Cell, player: Player) -> usize {
        usize::from(self.keys[cell.index()][player.index()])
    }

    /// [`cell_value`] of `player` on `cell`.
    #[inline]
    pub fn value(&self, cell: Cell, player: Player) -> i32 {
        self.cells.value[usize::from(self.keys[cell.index()][player.index()])]
    }

    /// The threat cells of `player`.
    #[inline]
    pub fn sets(&self, player: Player) -> &ThreatSets {
        &self.sets[player.index()]
    }

    /// The stones of `player` as the patterns see them.
    #[inline]
    pub fn stones(&self, player: Player) -> &CellSet {
        &self.stones[player.index()]
    }

    /// The sum of the pattern weights of every empty cell for `player`.
    #[inline]
    pub fn sum(&self, player: Player) -> i32 {
        self.sums[player.index()]
    }

    /// The line length that wins.
    #[inline]
    pub fn k(&self) -> usize {
        self.k
    }

    /// Recomputes the patterns of the empty cell `index` from its codes, keeping the sums and
    /// the sets.
    #[inline]
    fn refresh_cell(&mut self, index: usize) {
        for d in 0..4 {
            self.refresh_direction(index, d);
        }
    }

    /// Recomputes the patterns of the empty cell `index` along direction `d` only (the one
    /// whose code just changed), keeping the keys, the sums and the sets.
    #[inline(always)]
    fn refresh_direction(&mut self, index: usize, d: usize) {
        let new = self.table.patterns(self.codes[index][d]);
        let tables = &*self.cells;
        for (p, &pattern) in new.iter().enumerate() {
            let old = self.patterns[index][p][d];
            if old == pattern {
                continue;
            }
            self.patterns[index][p][d] = pattern;
            let before = usize::from(self.keys[index][p]);
            let after =
                before + usize::from(pattern) * KEY_STEP[d] - usize::from(old) * KEY_STEP[d];
            self.keys[index][p] = after as u16;
            self.sums[p] += tables.weight[after] - tables.weight[before];
            // The sets follow the best pattern: only a change of it moves the cell.
            if tables.rank[after] != tables.rank[before] {
                Self::place_in_sets(&mut self.sets[p], index, tables.rank[after]);
            }
        }
    }

    /// Puts the cell `index` in `sets` (one player's) up to `rank` ([`threat_rank`]) and takes
    /// it out of the others.
    #[inline]
    fn place_in_sets(sets: &mut ThreatSets, index: usize, rank: u8) {
        let cell = Cell(index as u16);
        let put = |set: &mut CellSet, on: bool| {
            if on {
                set.insert(cell);
            } else {
                set.remove(cell);
            }
        };
        put(&mut sets.win, rank >= 4);
        put(&mut sets.open_four, rank >= 3);
        put(&mut sets.four, rank >= 2);
        put(&mut sets.open_three, rank >= 1);
    }

    /// Takes the empty cell `index` out of the sums and sets (a stone goes there).
    fn clear_cell(&mut self, index: usize) {
        let tables = &*self.cells;
        for p in 0..2 {
            self.sums[p] -= tables.weight[usize::from(self.keys[index][p])];
            Self::place_in_sets(&mut self.sets[p], index, 0);
        }
        self.patterns[index] = [[DEAD; 4]; 2];
        self.keys[index] = [0; 2];
    }

    /// Puts a stone of `player` on the empty `cell` and updates every pattern it changes.
    pub fn play(&mut self, cell: Cell, player: Player) {
        let index = cell.index();
        debug_assert!(!self.stones[0].contains(cell) && !self.stones[1].contains(cell));
        self.undo_log.push(Saved {
            sets: self.sets,
            sums: self.sums,
            own: (self.patterns[index], self.keys[index]),
            cells: self.saved_cells.len(),
        });
        self.clear_cell(index);
        self.stones[player.index()].insert(cell);
        self.filled.insert(cell);
        let value = if player == Player::First { OWN } else { OPP };
        self.update_lines(index, value);
    }

    /// Takes back the stone of `player` on `cell` (the last one [`Patterns::play`] put): the
    /// codes cleared, the patterns, keys, sums and sets put back as they were before it.
    pub fn undo(&mut self, cell: Cell, player: Player) {
        let index = cell.index();
        self.stones[player.index()].remove(cell);
        self.filled.remove(cell);
        let value = if player == Player::First { OWN } else { OPP };
        let saved = self.undo_log.pop().expect("a stone played to take back");
        let mut next = saved.cells;
        for d in 0..4 {
            for j in 0..self.reach.count(index, d) {
                let Reach { at, shift } = self.reach.of(index, d)[j];
                let at = usize::from(at);
                self.codes[at][d] &= !(value << shift);
                if !self.filled.contains(Cell(at as u16)) {
                    (self.patterns[at], self.keys[at]) = self.saved_cells[next];
                    next += 1;
                }
            }
        }
        debug_assert_eq!(next, self.saved_cells.len());
        self.saved_cells.truncate(saved.cells);
        (self.patterns[index], self.keys[index]) = saved.own;
        self.sets = saved.sets;
        self.sums = saved.sums;
    }

    /// Sets `value` in the window codes of every cell within the radius of `index` along the
    /// four lines, and refreshes the empty ones (their patterns and keys saved first).
    #[inline]
    fn update_lines(&mut self, index: usize, value: u64) {
        for d in 0..4 {
            for j in 0..self.reach.count(index, d) {
                let Reach { at, shift } = self.reach.of(index, d)[j];
                let at = usize::from(at);
                self.codes[at][d] |= value << shift;
                if !self.filled.contains(Cell(at as u16)) {
                    self.saved_cells.push((self.patterns[at], self.keys[at]));
                    self.refresh_direction(at, d);
                }
            }
        }
    }

    /// These patterns with `weights` in place of [`WEIGHTS`] in the evaluation (the sums and
    /// [`Patterns::evaluate`]; move ordering and threats unchanged): weights fitted by `arena
    /// fit`, say. A dead line (`weights[0]`) must be worth 0, as a filled cell's keys are.
    pub fn with_weights(mut self, weights: [i32; PATTERNS]) -> Patterns {
        assert_eq!(weights[DEAD as usize], 0, "a dead line is worth nothing");
        if weights == WEIGHTS {
            return self;
        }
        self.cells = weighted_tables(weights);
        self.sums = [0; 2];
        for cell in self.board.iter() {
            for p in 0..2 {
                self.sums[p] += self.cells.weight[usize::from(self.keys[cell.index()][p])];
            }
        }
        self
    }

    /// The evaluation from `to_move`'s view: own pattern weights against the opponent's, the
    /// side to move counting a little more (it plays next).
    pub fn evaluate(&self, to_move: Player) -> i32 {
        let me = self.sums[to_move.index()];
        let them = self.sums[Mnk::opponent(to_move).index()];
        me * 6 / 5 - them
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rules::Game;

    use super::*;
    use crate::AgentRng;

    fn start(id: &str) -> Mnk {
        id.parse::<rules::Variant>()
            .unwrap()
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start()
    }

    /// The pattern along the row of X on `at` in a one-row position written as text: `X`, `O`,
    /// `.`; the board is as long as the text.
    fn row_pattern(text: &str, rule: &str, at: usize) -> u8 {
        let id = format!("mnk-1x{}k5{rule}", text.len());
        let mut game = start(&id);
        for (i, ch) in text.chars().enumerate() {
            let cell = game.config().cell(0, i as u8).unwrap();
            match ch {
                'X' => game.place(cell, Player::First),
                'O' => game.place(cell, Player::Second),
                _ => {}
            }
        }
        let patterns = Patterns::new(&game);
        patterns.pattern(game.config().cell(0, at as u8).unwrap(), Player::First, 0)
    }

    #[test]
    fn gomoku_shapes_have_their_names() {
        // The cell marked by its index gets the X; the rest of the row as written.
        assert_eq!(row_pattern("..XXXX..", "", 1), WIN);
        assert_eq!(row_pattern("...XXX...", "", 2), OPEN1); // _XXXX_ : open four
        assert_eq!(row_pattern("O..XXX...", "", 6), OPEN1);
        assert_eq!(row_pattern("OXXX.....", "", 4), CLOSED1); // OXXXX_ : four
        assert_eq!(row_pattern("..XX.X...", "", 4), OPEN1); // _XXXX_
        assert_eq!(row_pattern("..X.XX...", "", 3), OPEN1);
        assert_eq!(row_pattern("..X.X.X..", "", 3), CLOSED1); // X_X_X + centre = XXX_X: four
        assert_eq!(row_pattern("...XX....", "", 5), OPEN2); // _XXX_ : open three
        assert_eq!(row_pattern("OXX......", "", 3), CLOSED2); // OXXX_ : three
        assert_eq!(row_pattern("...X.....", "", 4), OPEN3); // open two
        assert_eq!(row_pattern(".........", "", 4), LIVE);
        assert_eq!(row_pattern("O...O", "", 2), DEAD);
        assert_eq!(row_pattern(".OXXX..XO", "", 5), CLOSED1); // OXXXX_X: the gap wins
        // exact: a sixth stone is no win, and the four that would make six is no four.
        assert_eq!(row_pattern("XXXX.X", "-exact", 4), DEAD);
        assert_eq!(row_pattern(".XXXX.X", "-exact", 0), WIN);
        assert_eq!(row_pattern("..XXX.X..", "-exact", 1), CLOSED1); // only the left end wins
        // caro: blocked at both ends, no win; the board edge is no block.
        assert_eq!(row_pattern("OXXXX.O", "-caro", 5), DEAD);
        assert_eq!(row_pattern("XXXX.O", "-caro", 4), WIN);
        assert_eq!(row_pattern("OXXX..O", "-caro", 4), DEAD);
        assert_eq!(row_pattern("OXXX...", "-caro", 4), CLOSED1);
    }

    #[test]
    fn names_follow_k() {
        assert_eq!(pattern_name(OPEN2, 5), "open three");
        assert_eq!(pattern_name(CLOSED1, 5), "four");
        assert_eq!(pattern_name(WIN, 5), "five");
        assert_eq!(pattern_name(OPEN1, 4), "open three");
    }

    fn random_position(start: &Mnk, rng: &mut AgentRng) -> Mnk {
        let mut game = start.clone();
        let plies = rng.random_range(0..u32::from(start.config().cells()));
        for _ in 0..plies {
            match game.random_move(rng) {
                Some(cell) if !game.child(cell).is_over() => game.play_unchecked(cell),
                _ => break,
            }
        }
        game
    }

    /// A stone makes a WIN pattern exactly where the rules say it wins (freestyle and exact;
    /// under caro too on these boards, whose lines have no overlines past the window).
    #[test]
    fn win_patterns_are_the_winning_cells() {
        let mut rng = AgentRng::seed_from_u64(3);
        for id in [
            "mnk-9x9k5",
            "mnk-9x9k5-exact",
            "mnk-9x9k5-caro",
            "mnk-7x7k4-caro",
            "mnk-5x5k4",
            "mnk-6x8k3-exact",
            "mnk-19x19k7",
            "mnk-5x5k2",
        ] {
            let start = start(id);
            for _ in 0..60 {
                let game = random_position(&start, &mut rng);
                let patterns = Patterns::new(&game);
                for cell in game.empty_cells().iter() {
                    for player in [Player::First, Player::Second] {
                        let wins = game.wins_at(cell, player);
                        let caro_overline = id.ends_with("caro") && !wins;
                        let said = patterns.best(cell, player) == WIN;
                        if !caro_overline {
                            assert_eq!(said, wins, "{id} {cell:?} {player:?}\n{game}");
                        }
                        assert_eq!(patterns.sets(player).win.contains(cell), said);
                    }
                }
            }
        }
    }

    /// After random moves and take-backs, the incremental patterns equal those from scratch.
    #[test]
    fn incremental_patterns_match_scratch() {
        let mut rng = AgentRng::seed_from_u64(9);
        for id in [
            "mnk-15x15k5",
            "mnk-15x15k5-caro",
            "mnk-9x7k5-exact",
            "mnk-5x5k4",
            "mnk-3x3k3",
            "mnk-10x10k6",
        ] {
            let start = start(id);
            for _ in 0..8 {
                let mut game = start.clone();
                let mut patterns = Patterns::new(&game);
                let mut history = Vec::new();
                while let Some(cell) = game.random_move(&mut rng) {
                    if game.child(cell).is_over() {
                        break;
                    }
                    let player = game.side_to_move();
                    patterns.play(cell, player);
                    history.push((game.clone(), cell, player));
                    game.play_unchecked(cell);
                    if rng.random_bool(0.2)
                        && let Some((before, cell, player)) = history.pop()
                    {
                        patterns.undo(cell, player);
                        game = before;
                    }
                    let fresh = Patterns::new(&game);
                    assert_eq!(patterns.patterns, fresh.patterns, "{id}\n{game}");
                    assert_eq!(patterns.codes, fresh.codes, "{id}");
                    assert_eq!(patterns.sets, fresh.sets, "{id}");
                    assert_eq!(patterns.sums, fresh.sums, "{id}");
                    assert_eq!(patterns.keys, fresh.keys, "{id}");
                }
            }
        }
    }

    /// The definition of the module documentation, recursively to the end (slow): the table
    /// (three stones ahead, then a direct test of the line) agrees with it on random windows.
    #[test]
    fn the_table_follows_the_recursive_definition() {
        fn reference(classifier: &Classifier, code: u64, memo: &mut HashMap<u64, u8>) -> u8 {
            if let Some(&p) = memo.get(&code) {
                return p;
            }
            let r = classifier.radius;
            let mut cells = vec![0u64; 2 * r + 1];
            classifier.decode(code, &mut cells);
            let reach = (classifier.k - 1).min(r);
            let empties: Vec<usize> = (r - reach..=r + reach)
                .filter(|&i| cells[i] == EMPTY)
                .collect();
            let pattern = if classifier.wins(&cells) {
                WIN
            } else {
                let wins = empties
                    .iter()
                    .filter(|&&i| {
                        cells[i] = OWN;
                        let w = classifier.wins(&cells);
                        cells[i] = EMPTY;
                        w
                    })
                    .count();
                match wins {
                    0 => {
                        let best = empties
                            .iter()
                            .map(|&i| {
                                let offset = i as isize - r as isize;
                                let next = code | (OWN << (2 * field(offset, r)));
                                reference(classifier, next, memo)
                            })
                            .max()
                            .unwrap_or(DEAD);
                        promote(best)
                    }
                    1 => CLOSED1,
                    _ => OPEN1,
                }
            };
            memo.insert(code, pattern);
            pattern
        }
        let mut rng = AgentRng::seed_from_u64(21);
        for k in 2..=6 {
            for rule in [WinRule::Freestyle, WinRule::Exact, WinRule::Caro] {
                let table = Table::new(k, rule);
                let classifier = Classifier {
                    k,
                    rule,
                    radius: table.radius(),
                };
                let mut memo = HashMap::new();
                for _ in 0..3000 {
                    // Random windows, walls only at the ends (as on a board).
                    let r = table.radius();
                    let (left, right) = (rng.random_range(0..=r), rng.random_range(0..=r));
                    let mut code = 0;
                    for j in 0..2 * r {
                        let offset = if j < r {
                            j as isize - r as isize
                        } else {
                            (j - r + 1) as isize
                        };
                        let wall = (offset < 0 && offset.unsigned_abs() > left)
                            || (offset > 0 && offset as usize > right);
                        let value = if wall {
                            WALL
                        } else {
                            [EMPTY, EMPTY, OWN, OPP][rng.random_range(0..4)]
                        };
                        code |= value << (2 * field(offset, r));
                    }
                    assert_eq!(
                        table.pattern(code),
                        reference(&classifier, code, &mut memo),
                        "k {k} {rule:?} code {code:x}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_cell_key_holds_its_four_patterns() {
        for patterns in [
            [DEAD; 4],
            [WIN, OPEN2, LIVE, DEAD],
            [OPEN1, OPEN1, CLOSED3, WIN],
        ] {
            let key = cell_key(patterns);
            assert!(key < CELL_KEYS);
            assert_eq!(key_patterns(key), patterns);
        }
        assert_eq!(
            cell_tables().value[cell_key([OPEN2, OPEN2, LIVE, DEAD])],
            781
        );
    }

    #[test]
    fn the_sides_swap_in_codes() {
        assert_eq!(swap_sides(0b01), 0b10);
        assert_eq!(swap_sides(0b10), 0b01);
        assert_eq!(swap_sides(0b11), 0b11);
        assert_eq!(swap_sides(0b00_01_10_11), 0b00_10_01_11);
    }
}
