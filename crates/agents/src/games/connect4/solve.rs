//! Connect Four's exact solver: what `arena solve` runs on Connect Four.
//!
//! It follows the two reference solvers of the field, John Tromp's Fhourstones and Pascal
//! Pons's solver:
//! - **Bitboards** of (rows + 1) x columns bits (`rules::connect4`), in a `u64` when the board
//!   fits one (6 x 7 takes 49 bits) and a `u128` otherwise: the side to move's stones and all
//!   stones; a move is one addition, the cells where a player would win are a few shifts.
//! - **Negamax with alpha-beta on Pons's score**: a win with the player's `s`-th stone from
//!   the end scores `(cells + 1 - plies) / 2`, a loss the negative, a draw 0. The value of a
//!   position is found by null-window searches that bisect the score range (MTD-style); the
//!   weak solve (win, draw or loss: what `arena solve` asks) narrows the range to [-1, 1] first.
//! - **Only moves that do not lose at once**: a win next move is seen at the root and never
//!   left to the opponent below it; the opponent's playable winning cell is the only move; two
//!   of them lose; a stone under the opponent's winning cell is never played.
//! - **Move ordering**: the table's best move, then by the number of winning cells the move
//!   gives the mover (Pons) that are not directly above one of the opponent's (c4's useful
//!   threats), centre columns first among equals.
//! - **Enhanced transposition cutoff** in the first 20 plies: a child the table already
//!   refutes ends the search before any child is searched.
//! - **A transposition table** of lower and upper bounds with the best move, two entries a
//!   bucket: the first kept for the position whose search took the most work (log2 of its
//!   nodes), replaced only by as much work or more, the second always taking the newest
//!   (Fhourstones's scheme). Entries are checked by the whole key (exact for 64-bit boards),
//!   written lock-free (key xor data) so that threads share one table.
//! - **Symmetry**: early in the game a position and its mirror image share their entry.
//! - **Both cores**: with every move's value asked for, the moves of the root (only one of
//!   each mirror pair on a symmetric board) are solved by as many threads as the machine has
//!   cores, sharing the table.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rules::connect4::{Bits, Column, Shape};
use rules::{Connect4, Connect4Config, Game, Outcome, TwoPlayer};

use crate::memory::OutOfMemory;
use crate::solve::{Limits, Monitor, MoveValue, Solution, Value};

/// Positions with fewer plies than this share a table entry with their mirror image: early in
/// the game mirror transpositions are common and the mirror costs little; later they are rare.
const SYMMETRY_PLIES: u32 = 14;

/// Positions with fewer plies than this look their children up in the table before searching
/// any of them (enhanced transposition cutoff): near the root a cutoff saves a large tree.
const ETC_PLIES: i32 = 20;

/// Nodes between two looks at the clock, the stop flag and the node limit.
const CHECK_EVERY: u64 = 1 << 14;

/// The most columns a board has.
const MAX_COLS: usize = rules::connect4::MAX_SIDE as usize;

/// Scores are stored offset by this in a byte.
const SCORE_OFFSET: i32 = 128;

/// A position as the solver sees it: the side to move's stones and all stones.
#[derive(Clone, Copy, Debug)]
struct Board<W> {
    current: W,
    mask: W,
    moves: i32,
}

impl<W: Bits> Board<W> {
    fn of(position: &Connect4) -> Board<W> {
        Board {
            current: W::narrow(position.stones(position.side_to_move())),
            mask: W::narrow(position.occupied()),
            moves: position.ply() as i32,
        }
    }

    /// The position after dropping the stone `stone` (a playable cell).
    #[inline(always)]
    fn after(self, stone: W) -> Board<W> {
        Board {
            current: self.current ^ self.mask,
            mask: self.mask | stone,
            moves: self.moves + 1,
        }
    }
}

/// What a table entry says of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    /// The score is at least this.
    lower: i32,
    /// The score is at most this.
    upper: i32,
    /// The best column found, in the entry's orientation.
    column: Option<u8>,
    /// log2 of the nodes its search took.
    work: u32,
}

const UNKNOWN_LOWER: i32 = -SCORE_OFFSET;
const UNKNOWN_UPPER: i32 = 255 - SCORE_OFFSET;

impl Entry {
    fn pack(self) -> u64 {
        (self.lower + SCORE_OFFSET) as u64
            | ((self.upper + SCORE_OFFSET) as u64) << 8
            | u64::from(self.column.map_or(0, |c| c + 1)) << 16
            | u64::from(self.work.min(63)) << 21
            | 1 << 27
    }

    fn unpack(data: u64) -> Entry {
        let column = ((data >> 16) & 31) as u8;
        Entry {
            lower: (data & 0xFF) as i32 - SCORE_OFFSET,
            upper: ((data >> 8) & 0xFF) as i32 - SCORE_OFFSET,
            column: column.checked_sub(1),
            work: ((data >> 21) & 63) as u32,
        }
    }
}

/// The shared transposition table: buckets of two entries, each entry two words, the key
/// xor-ed with the data and the data, so a torn write by another thread reads as a miss.
struct Table {
    buckets: Vec<[AtomicU64; 4]>,
    mask: usize,
}

impl Table {
    /// A table of at most `megabytes` MiB (at least one bucket), or the allocator's refusal.
    fn new(megabytes: usize) -> Result<Table, OutOfMemory> {
        let buckets = ((megabytes << 20) / 32).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        // Fresh zeroed pages, not cleared by hand: clearing gigabytes would take seconds before
        // the first node, past a short time limit (`prefault` touches them while time allows).
        let memory = bytemuck::allocation::try_zeroed_vec::<[AtomicU64; 4]>(buckets)
            .map_err(|()| OutOfMemory::new("solver", "tt_mb", megabytes, buckets as u64 * 32))?;
        Ok(Table {
            buckets: memory,
            mask: buckets - 1,
        })
    }

    fn bytes(&self) -> u64 {
        self.buckets.len() as u64 * 32
    }

    /// Touches the table's pages in order, 2 MiB between two asks of `stop`, until all are in
    /// or `stop` says so: pages faulted in one sweep cost less than the same pages faulted at
    /// random during the search (the benchmarks page has the figures), and a short time limit
    /// still holds.
    fn prefault(&self, stop: impl Fn() -> bool) {
        const BUCKETS_A_PAGE: usize = 4096 / 32;
        for chunk in self.buckets.chunks(BUCKETS_A_PAGE * 512) {
            if stop() {
                return;
            }
            for page in chunk.iter().step_by(BUCKETS_A_PAGE) {
                page[0].store(0, Ordering::Relaxed);
            }
        }
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[AtomicU64; 4] {
        &self.buckets[rules::splitmix64(key) as usize & self.mask]
    }

    #[inline(always)]
    fn read(slot: &[AtomicU64], key: u64) -> Option<Entry> {
        let data = slot[1].load(Ordering::Relaxed);
        (data != 0 && slot[0].load(Ordering::Relaxed) ^ data == key).then(|| Entry::unpack(data))
    }

    #[inline(always)]
    fn write(slot: &[AtomicU64], key: u64, entry: Entry) {
        let data = entry.pack();
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// The four words of `key`'s bucket, for [`Table::find`].
    #[inline(always)]
    fn load(&self, key: u64) -> [u64; 4] {
        let bucket = self.bucket(key);
        [0, 1, 2, 3].map(|i| bucket[i].load(Ordering::Relaxed))
    }

    /// The entry of `key` among the words of its bucket.
    #[inline(always)]
    fn find(words: [u64; 4], key: u64) -> Option<Entry> {
        [(words[0], words[1]), (words[2], words[3])]
            .into_iter()
            .find(|&(check, data)| data != 0 && check ^ data == key)
            .map(|(_, data)| Entry::unpack(data))
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key);
        Table::read(&bucket[..2], key).or_else(|| Table::read(&bucket[2..], key))
    }

    /// Stores what a search found, merged with what the table already knows of the position.
    #[inline]
    fn store(&self, key: u64, found: Entry) {
        let bucket = self.bucket(key);
        let (deep, recent) = bucket.split_at(2);
        let merge = |old: Entry| Entry {
            lower: old.lower.max(found.lower),
            upper: old.upper.min(found.upper),
            column: found.column.or(old.column),
            work: old.work.max(found.work),
        };
        if let Some(old) = Table::read(deep, key) {
            Table::write(deep, key, merge(old));
            return;
        }
        let deep_work = match deep[1].load(Ordering::Relaxed) {
            0 => 0,
            data => Entry::unpack(data).work,
        };
        let found = Table::read(recent, key).map_or(found, merge);
        if found.work >= deep_work {
            Table::write(deep, key, found);
        } else {
            Table::write(recent, key, found);
        }
    }

    /// How full the table is, per mille, from a sample of buckets.
    fn permille(&self) -> u32 {
        let sample = self.buckets.len().min(4096);
        let step = self.buckets.len() / sample;
        let used: usize = (0..sample)
            .map(|i| &self.buckets[i * step])
            .map(|b| {
                usize::from(b[1].load(Ordering::Relaxed) != 0)
                    + usize::from(b[3].load(Ordering::Relaxed) != 0)
            })
            .sum();
        (used * 1000 / (2 * sample)) as u32
    }
}

/// What the threads of one solve share: the table, the node count, the limits.
struct Shared {
    table: Table,
    nodes: AtomicU64,
    stop: AtomicBool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    monitor: Option<Arc<Monitor>>,
}

impl Shared {
    fn new(table: Table, limits: &Limits, started: Instant) -> Shared {
        if let Some(monitor) = &limits.monitor {
            monitor.table_bytes.store(table.bytes(), Ordering::Relaxed);
        }
        Shared {
            table,
            nodes: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            deadline: limits.time.map(|time| started + time),
            node_limit: limits.nodes,
            monitor: limits.monitor.clone(),
        }
    }
}

/// One thread's search.
struct Search<'a, W> {
    shape: Shape<W>,
    /// The columns, centre first.
    order: [u8; MAX_COLS],
    cells: i32,
    shared: &'a Shared,
    nodes: u64,
    flushed: u64,
    aborted: bool,
}

impl<'a, W: Bits> Search<'a, W> {
    fn new(shape: Shape<W>, shared: &'a Shared) -> Search<'a, W> {
        let order = centre_first(shape.cols as usize);
        Search {
            cells: (shape.rows * shape.cols) as i32,
            shape,
            order,
            shared,
            nodes: 0,
            flushed: 0,
            aborted: false,
        }
    }

    /// Adds this thread's nodes to the shared count and stops on a stop request, the deadline
    /// or the node limit.
    #[cold]
    fn check(&mut self) {
        let total = self
            .shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed)
            + self.nodes
            - self.flushed;
        self.flushed = self.nodes;
        if let Some(monitor) = &self.shared.monitor {
            monitor.nodes.store(total, Ordering::Relaxed);
            if monitor.stopping() {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.deadline.is_some_and(|d| Instant::now() >= d)
            || self.shared.node_limit.is_some_and(|limit| total >= limit)
        {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        self.aborted = self.shared.stop.load(Ordering::Relaxed);
    }

    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// The table key of `board` and whether it is the mirror image's key.
    #[inline(always)]
    fn key(&self, board: &Board<W>) -> (u64, bool) {
        let own = self.raw_key(board.current, board.mask);
        if board.moves >= SYMMETRY_PLIES as i32 {
            return (own, false);
        }
        let mirror = self.raw_key(self.mirror(board.current), self.mirror(board.mask));
        if mirror < own {
            (mirror, true)
        } else {
            (own, false)
        }
    }

    /// Pons's key: the side to move's stones and a marker above each column's top stone,
    /// unique for every position; as is for 64-bit boards, hashed for wider ones.
    #[inline(always)]
    fn raw_key(&self, current: W, mask: W) -> u64 {
        let key = (current | (mask + self.shape.bottom)).wide();
        if W::WIDTH <= 64 {
            key as u64
        } else {
            key as u64 ^ rules::splitmix64((key >> 64) as u64 ^ 0xc4_50_1e)
        }
    }

    /// The stones `bits` mirrored left to right.
    #[inline]
    fn mirror(&self, bits: W) -> W {
        let height = self.shape.height;
        let column = W::bit(height) - W::ONE;
        let mut out = W::ZERO;
        let last = self.shape.cols - 1;
        for col in 0..self.shape.cols {
            out |= (bits.down(col * height) & column).up((last - col) * height);
        }
        out
    }

    /// How promising a move is, for ordering: Pons's count of the winning cells it gives the
    /// mover (`own`, all stones `mask` after it), leaving out those directly above one of the
    /// opponent's winning cells `against` (c4's useful threats: the one below is filled
    /// first). Weighing the ones the opponent must answer at once more (c4) searched more
    /// nodes here, as did the parity of the threats and Fhourstones's history heuristic.
    #[inline(always)]
    fn move_score(&self, own: W, mask: W, against: W) -> i32 {
        (self.shape.winning_cells(own, mask) & !against.up(1)).count() as i32
    }

    /// Whether the side to move can win with its next stone.
    #[inline]
    fn can_win_next(&self, board: &Board<W>) -> bool {
        !(self.shape.winning_cells(board.current, board.mask) & self.shape.playable(board.mask))
            .is_empty()
    }

    /// The negamax score of `board` (the side to move cannot win at once) within
    /// `(alpha, beta)`: exact inside the window, an upper bound at or below `alpha`, a lower
    /// bound at or above `beta`.
    fn negamax(&mut self, board: Board<W>, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(!self.can_win_next(&board));
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.check();
        }
        if self.aborted {
            return 0;
        }
        let shape = self.shape;
        let possible = shape.playable(board.mask);
        let opponent = board.current ^ board.mask;
        let threats = shape.winning_cells(opponent, board.mask);
        let forced = possible & threats;
        let mut next = possible;
        if !forced.is_empty() {
            if !(forced & (forced - W::ONE)).is_empty() {
                // Two wins at once for the opponent: only one can be stopped.
                return -(self.cells - board.moves) / 2;
            }
            next = forced;
        }
        // Never drop a stone under the opponent's winning cell.
        next &= !threats.down(1);
        if next.is_empty() {
            return -(self.cells - board.moves) / 2;
        }
        if board.moves >= self.cells - 2 {
            // Neither can win with the last two stones.
            return 0;
        }
        // The opponent cannot win with their next stone, nor we with this one.
        let low = -(self.cells - 2 - board.moves) / 2;
        if alpha < low {
            alpha = low;
            if alpha >= beta {
                return alpha;
            }
        }
        let high = (self.cells - 1 - board.moves) / 2;
        if beta > high {
            beta = high;
            if alpha >= beta {
                return beta;
            }
        }
        if (next & (next - W::ONE)).is_empty() {
            // One move: no table entry is worth its memory traffic here (Fhourstones).
            return -self.negamax(board.after(next), -beta, -alpha);
        }
        let (key, mirrored) = self.key(&board);
        // Load the bucket now: the move ordering below runs while it comes in.
        let bucket = self.shared.table.load(key);

        let mut moves = [(0i32, 0u8, W::ZERO); MAX_COLS];
        let mut count = 0;
        for &col in &self.order[..shape.cols as usize] {
            let stone = next & shape.column(u32::from(col));
            if stone.is_empty() {
                continue;
            }
            let score = self.move_score(board.current | stone, board.mask | stone, threats);
            // Insertion by score, keeping the centre-first order among equals.
            let mut at = count;
            while at > 0 && moves[at - 1].0 < score {
                moves[at] = moves[at - 1];
                at -= 1;
            }
            moves[at] = (score, col, stone);
            count += 1;
        }

        if let Some(entry) = Table::find(bucket, key) {
            if entry.lower > alpha {
                alpha = entry.lower;
                if alpha >= beta {
                    return alpha;
                }
            }
            if entry.upper < beta {
                beta = entry.upper;
                if alpha >= beta {
                    return beta;
                }
            }
            if let Some(column) = entry.column {
                let column = if mirrored {
                    shape.cols as u8 - 1 - column
                } else {
                    column
                };
                // The table's best move first.
                if let Some(at) = moves[..count].iter().position(|m| m.1 == column) {
                    moves[..=at].rotate_right(1);
                }
            }
        }

        if board.moves < ETC_PLIES {
            // Enhanced transposition cutoff: a child the table already refutes ends the search
            // before any of them is searched.
            for &(_, _, stone) in &moves[..count] {
                let child = board.after(stone);
                let (child_key, _) = self.key(&child);
                if let Some(entry) = self.shared.table.probe(child_key)
                    && -entry.upper >= beta
                {
                    return -entry.upper;
                }
            }
        }

        let start = self.nodes;
        let alpha_searched = alpha;
        let mut best = None;
        for &(_, col, stone) in &moves[..count] {
            let score = -self.negamax(board.after(stone), -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score >= beta {
                self.store(key, mirrored, start, score, UNKNOWN_UPPER, Some(col));
                return score;
            }
            if score > alpha {
                alpha = score;
                best = Some(col);
            }
        }
        let lower = if alpha > alpha_searched {
            alpha
        } else {
            UNKNOWN_LOWER
        };
        self.store(key, mirrored, start, lower, alpha, best);
        alpha
    }

    #[inline]
    fn store(
        &self,
        key: u64,
        mirrored: bool,
        start: u64,
        lower: i32,
        upper: i32,
        column: Option<u8>,
    ) {
        let nodes = self.nodes - start;
        let column = column.map(|c| {
            if mirrored {
                self.shape.cols as u8 - 1 - c
            } else {
                c
            }
        });
        self.shared.table.store(
            key,
            Entry {
                lower,
                upper,
                column,
                work: 64 - nodes.leading_zeros(),
            },
        );
    }

    /// The score of `board` (not over): exact, or with `weak` only its sign (1 for a win, 0
    /// for a draw, -1 for a loss). `None` when the search was stopped.
    fn score(&mut self, board: Board<W>, weak: bool) -> Option<i32> {
        if self.can_win_next(&board) {
            return Some(if weak {
                1
            } else {
                (self.cells + 1 - board.moves) / 2
            });
        }
        let (mut min, mut max) = if weak {
            (-1, 1)
        } else {
            (
                -(self.cells - board.moves) / 2,
                (self.cells + 1 - board.moves) / 2,
            )
        };
        while min < max {
            let mut middle = min + (max - min) / 2;
            // Pons: look near zero first, where the value of most positions is.
            if middle <= 0 && min / 2 < middle {
                middle = min / 2;
            } else if middle >= 0 && max / 2 > middle {
                middle = max / 2;
            }
            let found = self.negamax(board, middle, middle + 1);
            if self.aborted {
                return None;
            }
            if found <= middle {
                max = found;
            } else {
                min = found;
            }
        }
        Some(if weak { min.signum() } else { min })
    }
}

/// The columns in centre-first order: the middle (the left of the two middles on an even
/// board), then alternately one step further left and right.
fn centre_first(cols: usize) -> [u8; MAX_COLS] {
    let mut order = [0u8; MAX_COLS];
    let middle = (cols as i32 - 1) / 2;
    let mut filled = 0;
    let mut distance = 0;
    while filled < cols {
        let left = middle - distance;
        let right = if cols.is_multiple_of(2) {
            middle + 1 + distance
        } else {
            middle + distance
        };
        for col in [left, right] {
            if (0..cols as i32).contains(&col) && !order[..filled].contains(&(col as u8)) {
                order[filled] = col as u8;
                filled += 1;
            }
        }
        distance += 1;
    }
    order
}

/// The value for the side to move of a weak score.
fn value_of(score: i32) -> Value {
    match score {
        1.. => Value::Win,
        0 => Value::Draw,
        _ => Value::Loss,
    }
}

/// A Connect Four solver that keeps its table from one position to the next (the values it
/// holds are facts of positions, true whatever is solved next).
pub struct Solver {
    config: Connect4Config,
    shared: Shared,
}

impl Solver {
    /// A solver for positions of `config` with a table of `tt_mb` MiB.
    pub fn new(config: Connect4Config, tt_mb: usize) -> Result<Solver, OutOfMemory> {
        let table = Table::new(tt_mb)?;
        Ok(Solver {
            config,
            shared: Shared::new(table, &Limits::default(), Instant::now()),
        })
    }

    /// The exact score of `position` (of this solver's variant) for the side to move, on
    /// Pons's scale: a win with the mover's stone at ply `p` (counting from 1) scores
    /// `(cells + 2 - p) / 2` (rounded down), a loss the negative of the opponent's, a draw 0;
    /// a finished game scores as if that last stone were still to be played by its winner.
    pub fn score(&mut self, position: &Connect4) -> i32 {
        self.run(position, false)
    }

    /// The game value of `position` for the side to move.
    pub fn value(&mut self, position: &Connect4) -> Value {
        value_of(self.run(position, true))
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed)
    }

    fn run(&mut self, position: &Connect4, weak: bool) -> i32 {
        assert_eq!(
            position.config(),
            &self.config,
            "a position of another variant"
        );
        let cells = i32::from(self.config.cells());
        match position.outcome() {
            Some(Outcome::Draw) => return 0,
            Some(_) => {
                // The side to move lost to the stone just played.
                let score = -(cells + 2 - position.ply() as i32) / 2;
                return if weak { -1 } else { score };
            }
            None => {}
        }
        match self.config.shape::<u64>() {
            Some(shape) => {
                let mut search = Search::new(shape, &self.shared);
                let score = search.score(Board::of(position), weak);
                search.flush();
                score.expect("an unlimited search finishes")
            }
            None => {
                let shape = self
                    .config
                    .shape::<u128>()
                    .expect("every board fits 128 bits");
                let mut search = Search::new(shape, &self.shared);
                let score = search.score(Board::of(position), weak);
                search.flush();
                score.expect("an unlimited search finishes")
            }
        }
    }
}

/// Solves `position` within `limits`: its value for the side to move and, when
/// [`Limits::all_moves`] asks (as `arena solve` does), the value of every legal move, the
/// moves solved by as many threads as the machine has cores. Panics when the table cannot be
/// allocated; [`try_solve`] returns that as an error.
pub fn solve(position: &Connect4, limits: &Limits) -> Solution<Column> {
    try_solve(position, limits).unwrap_or_else(|error| panic!("{error}"))
}

/// Solves `position` within `limits`, or says that its table cannot be allocated.
pub fn try_solve(position: &Connect4, limits: &Limits) -> Result<Solution<Column>, OutOfMemory> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    try_solve_with(position, limits, threads)
}

/// [`try_solve`] with at most `threads` threads.
pub fn try_solve_with(
    position: &Connect4,
    limits: &Limits,
    threads: usize,
) -> Result<Solution<Column>, OutOfMemory> {
    match position.config().shape::<u64>() {
        Some(shape) => solve_in::<u64>(position, shape, limits, threads),
        None => {
            let shape = position
                .config()
                .shape::<u128>()
                .expect("every board fits 128 bits");
            solve_in::<u128>(position, shape, limits, threads)
        }
    }
}

fn solve_in<W: Bits>(
    position: &Connect4,
    shape: Shape<W>,
    limits: &Limits,
    threads: usize,
) -> Result<Solution<Column>, OutOfMemory> {
    let started = Instant::now();
    let to_move = position.side_to_move();
    let remaining = u32::from(position.config().cells()) - position.ply();
    let mut solution = Solution {
        to_move,
        opponent: Connect4::opponent(to_move),
        value: None,
        moves: Vec::new(),
        best: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
        depth: remaining,
        complete: false,
        table_permille: 0,
    };
    if let Some(outcome) = position.outcome() {
        solution.value = Some(match outcome {
            Outcome::Win(winner) if winner == to_move => Value::Win,
            Outcome::Win(_) => Value::Loss,
            _ => Value::Draw,
        });
        solution.complete = true;
        return Ok(solution);
    }
    let shared = Shared::new(Table::new(limits.tt_mb)?, limits, started);
    shared.table.prefault(|| {
        shared.deadline.is_some_and(|d| Instant::now() >= d)
            || shared.monitor.as_ref().is_some_and(|m| m.stopping())
    });
    let board = Board::<W>::of(position);
    if !limits.all_moves {
        let mut search = Search::new(shape, &shared);
        solution.value = search.score(board, true).map(value_of);
        search.flush();
        solution.complete = solution.value.is_some();
    } else {
        let values = solve_moves(position, shape, &shared, threads);
        solution.moves = values;
        let known: Vec<Value> = solution.moves.iter().filter_map(|m| m.value).collect();
        let best = known.iter().copied().max();
        solution.complete = known.len() == solution.moves.len();
        // A proven win is the value whatever the unsolved moves are worth.
        solution.value = if solution.complete || best == Some(Value::Win) {
            best
        } else {
            None
        };
        if let Some(value) = solution.value {
            solution.best = solution
                .moves
                .iter()
                .filter(|m| m.value == Some(value))
                .map(|m| m.mv)
                .collect();
        }
    }
    solution.nodes = shared.nodes.load(Ordering::Relaxed);
    solution.table_permille = shared.table.permille();
    solution.elapsed = started.elapsed();
    Ok(solution)
}

/// The value of every legal move of `position`, the moves shared out to `threads` threads.
fn solve_moves<W: Bits>(
    position: &Connect4,
    shape: Shape<W>,
    shared: &Shared,
    threads: usize,
) -> Vec<MoveValue<Column>> {
    let board = Board::<W>::of(position);
    let search = Search::new(shape, shared);
    let symmetric =
        search.mirror(board.current) == board.current && search.mirror(board.mask) == board.mask;
    let cols = shape.cols as u8;
    let playable = shape.playable(board.mask);
    // Each legal move once (the left one of a mirror pair on a symmetric board), centre first.
    let work: Vec<u8> = search.order[..usize::from(cols)]
        .iter()
        .copied()
        .filter(|&col| !(playable & shape.column(u32::from(col))).is_empty())
        .filter(|&col| !symmetric || col <= cols - 1 - col)
        .collect();
    let values: Vec<std::sync::Mutex<Option<Value>>> =
        (0..cols).map(|_| std::sync::Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let winning = shape.winning_cells(board.current, board.mask);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, work.len().max(1)) {
            scope.spawn(|| {
                let mut search = Search::new(shape, shared);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&col) = work.get(index) else { break };
                    let stone = playable & shape.column(u32::from(col));
                    let value = if !(winning & stone).is_empty() {
                        Some(Value::Win)
                    } else if board.moves + 1 == search.cells {
                        Some(Value::Draw)
                    } else {
                        search
                            .score(board.after(stone), true)
                            .map(|score| value_of(-score))
                    };
                    if value.is_none() {
                        break;
                    }
                    *values[usize::from(col)].lock().expect("no panic holds it") = value;
                }
                search.flush();
            });
        }
    });
    let values: Vec<Option<Value>> = values
        .into_iter()
        .map(|value| value.into_inner().expect("no panic holds it"))
        .collect();
    let mut moves = rules::MoveList::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let col = usize::from(mv.0);
            let value = if symmetric && values[col].is_none() {
                values[usize::from(cols) - 1 - col]
            } else {
                values[col]
            };
            MoveValue { mv, value }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_are_searched_centre_first() {
        assert_eq!(&centre_first(7)[..7], &[3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(&centre_first(6)[..6], &[2, 3, 1, 4, 0, 5]);
        assert_eq!(&centre_first(1)[..1], &[0]);
        assert_eq!(&centre_first(2)[..2], &[0, 1]);
    }

    #[test]
    fn entries_pack_and_unpack() {
        for entry in [
            Entry {
                lower: UNKNOWN_LOWER,
                upper: UNKNOWN_UPPER,
                column: None,
                work: 0,
            },
            Entry {
                lower: -21,
                upper: 18,
                column: Some(15),
                work: 63,
            },
        ] {
            assert_eq!(Entry::unpack(entry.pack()), entry);
            assert_ne!(entry.pack(), 0);
        }
    }

    #[test]
    fn the_deep_slot_keeps_the_bigger_work() {
        let table = Table::new(1).unwrap();
        let entry = |work| Entry {
            lower: 0,
            upper: 1,
            column: None,
            work,
        };
        // Two keys of one bucket: search for a second key that lands with the first.
        let first = 12345u64;
        let bucket = rules::splitmix64(first) as usize & table.mask;
        let second = (first + 1..)
            .find(|&k| rules::splitmix64(k) as usize & table.mask == bucket)
            .unwrap();
        let third = (second + 1..)
            .find(|&k| rules::splitmix64(k) as usize & table.mask == bucket)
            .unwrap();
        table.store(first, entry(20));
        table.store(second, entry(5));
        assert_eq!(table.probe(first).map(|e| e.work), Some(20));
        assert_eq!(table.probe(second).map(|e| e.work), Some(5));
        // A small search takes the recent slot, the deep one stays.
        table.store(third, entry(3));
        assert_eq!(table.probe(first).map(|e| e.work), Some(20));
        assert_eq!(table.probe(second), None);
        // Bounds of one position merge.
        table.store(
            first,
            Entry {
                lower: 1,
                upper: 1,
                column: Some(2),
                work: 4,
            },
        );
        assert_eq!(
            table.probe(first),
            Some(Entry {
                lower: 1,
                upper: 1,
                column: Some(2),
                work: 20
            })
        );
    }
}
