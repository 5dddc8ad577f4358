//! Depth-first proof-number search (df-pn, Nagai 2002) for m,n,k games, with a transposition
//! table shared by the positions equal up to a symmetry of the board, and the VCF search of
//! [`crate::threats`] inside: a node whose side to move has a VCF is settled without search.
//!
//! A question is "does the `attacker` win?". Where the attacker is to move a node is an OR
//! node (one winning move proves it), where the defender is to move an AND node (one move that
//! keeps the attacker from winning disproves it; a win of the defender's own does too). The
//! value of a position comes from two questions: does the side to move win? If not, does the
//! opponent win? Neither: a draw.
//!
//! Every shortcut is exact:
//! - a side that can win at once does; a side facing immediate wins plays only the cells that
//!   stop them (none: it loses), decided by the rules' own win test;
//! - a VCF of the side to move settles the node for that side (a VCF is a proof: see
//!   [`crate::threats`]);
//! - an attacker with no line left to make (every empty cell [`crate::pattern::DEAD`] along
//!   every line) cannot win: the question is disproven;
//! - under `freestyle` a stone on a cell that no line of either player can use any more is a
//!   pass, and a pass is never better than another stone: such moves are skipped (one move
//!   is always kept).
//!
//! Numbers use the phi/delta form: phi is the proof number where the attacker moves and the
//! disproof number where the defender moves, so phi = 0 means the side to move reaches its
//! goal. A node's phi is the least delta of its children and its delta the sum of their phis.
//! Thresholds follow Pawlewicz and Lew's 1 + epsilon trick, which keeps df-pn from switching
//! between two close children at every step.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rules::mnk::CellSet;
use rules::{Cell, Game, Mnk, Player, TwoPlayer, WinRule};

use super::pattern::DEAD;
use super::threats::{Board, ThreatLimits, ThreatSearch};
use crate::memory::OutOfMemory;
use crate::solve::{Monitor, Value};

/// A number above every real proof or disproof number: "cannot be proven".
pub const INF: u32 = (1 << 28) - 1;

/// The 1 + epsilon of the threshold trick.
const EPSILON: f64 = 0.25;

/// Nodes of one VCF check inside the search.
const VCF_NODES: u64 = 2_000;

/// What the search may spend, and how it reports.
#[derive(Clone, Debug)]
pub struct DfpnLimits {
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    /// Wall time, if limited.
    pub time: Option<Duration>,
    /// Nodes, if limited.
    pub nodes: Option<u64>,
    /// Where to show progress and take a stop request (Ctrl-C), if anywhere.
    pub monitor: Option<Arc<Monitor>>,
    /// Whether to find the value of every move too.
    pub all_moves: bool,
}

impl Default for DfpnLimits {
    fn default() -> Self {
        DfpnLimits {
            tt_mb: 64,
            time: None,
            nodes: None,
            monitor: None,
            all_moves: false,
        }
    }
}

/// What is known about the value after a search, from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DfpnSolution {
    /// The player to move.
    pub to_move: Player,
    /// The value, when proven.
    pub value: Option<Value>,
    /// The best the side to move can be sure of so far (a lower bound on its value).
    pub at_least: Value,
    /// The most the side to move can hope for (an upper bound).
    pub at_most: Value,
    /// The moves known to keep the value (one at least when the value is known, every one
    /// when all moves were asked for and found).
    pub best: Vec<Cell>,
    /// Every legal move and its value for the side to move, when asked for (`None`: not
    /// determined).
    pub moves: Vec<(Cell, Option<Value>)>,
    /// Nodes searched, VCF nodes included.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Why the search stopped early, if it did.
    pub stopped: Option<&'static str>,
}

impl DfpnSolution {
    /// The outcome of best play, absolute (first player wins / draw / second player wins).
    pub fn outcome(&self) -> Option<rules::Outcome> {
        self.value
            .map(|value| value.outcome(self.to_move, Mnk::opponent(self.to_move)))
    }
}

/// The transposition table: buckets of four slots of two words (the key; phi, delta and the
/// logarithm of the work below the node), one cache line a bucket; the least worked slot of a
/// bucket is replaced, settled results before open ones.
struct Table {
    slots: Vec<[u64; 2]>,
    mask: usize,
    used: usize,
}

const BUCKET: usize = 4;

/// Bits of phi and of delta in a slot.
const NUMBER_BITS: u32 = 28;
const NUMBER_MASK: u64 = (1 << NUMBER_BITS) - 1;

impl Table {
    fn new(tt_mb: usize) -> Result<Table, OutOfMemory> {
        let entries = ((tt_mb.max(1) << 20) / 16).max(BUCKET);
        let entries = 1usize << (usize::BITS - 1 - entries.leading_zeros());
        // Zeroed memory straight from the system (a key of 0 marks an empty slot), asked for
        // fallibly: `vec![0; n]` would abort the process when the memory is not there.
        let slots = bytemuck::allocation::try_zeroed_slice_box::<[u64; 2]>(entries)
            .map_err(|()| OutOfMemory::new("arena solve", "tt_mb", tt_mb, (entries * 16) as u64))?
            .into_vec();
        Ok(Table {
            slots,
            mask: entries / BUCKET - 1,
            used: 0,
        })
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key ^ (key >> 29)) as usize & self.mask) * BUCKET
    }

    #[inline]
    fn get(&self, key: u64) -> Option<(u32, u32)> {
        let at = self.bucket(key);
        self.slots[at..at + BUCKET]
            .iter()
            .find(|slot| slot[0] == key)
            .map(|slot| {
                (
                    (slot[1] & NUMBER_MASK) as u32,
                    ((slot[1] >> NUMBER_BITS) & NUMBER_MASK) as u32,
                )
            })
    }

    /// How much a slot is worth keeping: the work below it, settled results first.
    #[inline]
    fn weight(slot: &[u64; 2]) -> u64 {
        let phi = slot[1] & NUMBER_MASK;
        let delta = (slot[1] >> NUMBER_BITS) & NUMBER_MASK;
        let work = slot[1] >> (2 * NUMBER_BITS);
        if phi == 0 || delta == 0 {
            work + 64
        } else {
            work
        }
    }

    #[inline]
    fn put(&mut self, key: u64, phi: u32, delta: u32, work: u64) {
        let at = self.bucket(key);
        let log_work = u64::from(64 - work.max(1).leading_zeros());
        let data = u64::from(phi.min(INF))
            | u64::from(delta.min(INF)) << NUMBER_BITS
            | log_work << (2 * NUMBER_BITS);
        let bucket = &mut self.slots[at..at + BUCKET];
        let index = bucket
            .iter()
            .position(|slot| slot[0] == key)
            .or_else(|| bucket.iter().position(|slot| slot[0] == 0))
            .unwrap_or_else(|| {
                (0..BUCKET)
                    .min_by_key(|&i| Table::weight(&bucket[i]))
                    .expect("a bucket has slots")
            });
        if bucket[index][0] == 0 {
            self.used += 1;
        }
        bucket[index] = [key, data];
    }
}

/// Zobrist keys per symmetry, so that positions equal up to a symmetry share a table entry.
struct Symmetries {
    count: usize,
    /// Per cell index, per symmetry, per player: the key of a stone there.
    keys: Vec<[[u64; 2]; 8]>,
}

impl Symmetries {
    fn new(game: &Mnk) -> Symmetries {
        let config = game.config();
        let (rows, cols) = (usize::from(config.rows()), usize::from(config.cols()));
        let count = if rows == cols { 8 } else { 4 };
        let mut keys = vec![[[0u64; 2]; 8]; crate::MOVE_SLOTS];
        for cell in config.board_cells().iter() {
            let (row, col) = config.row_col(cell);
            let (r, c) = (usize::from(row), usize::from(col));
            for (s, slot) in keys[cell.index()].iter_mut().enumerate().take(count) {
                let (last_r, last_c) = (rows - 1, cols - 1);
                let (ir, ic) = match s {
                    0 => (r, c),
                    1 => (r, last_c - c),
                    2 => (last_r - r, c),
                    3 => (last_r - r, last_c - c),
                    4 => (c, r),
                    5 => (last_c - c, last_r - r),
                    6 => (c, last_r - r),
                    _ => (last_c - c, r),
                };
                let image = (ir * 32 + ic) as u64;
                for (player, key) in slot.iter_mut().enumerate() {
                    *key = rules::splitmix64(0x4446_504e_0000_0000 ^ (image << 1) ^ player as u64);
                }
            }
        }
        Symmetries { count, keys }
    }
}

/// Every window of k cells in a line on the board, for the Erdős–Selfridge test.
fn windows_of(game: &Mnk) -> Vec<CellSet> {
    let config = game.config();
    let (rows, cols, k) = (
        i32::from(config.rows()),
        i32::from(config.cols()),
        i32::from(config.k()),
    );
    let mut out = Vec::new();
    for row in 0..rows {
        for col in 0..cols {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (end_r, end_c) = (row + dr * (k - 1), col + dc * (k - 1));
                if end_r < 0 || end_r >= rows || end_c < 0 || end_c >= cols {
                    continue;
                }
                let mut window = CellSet::EMPTY;
                for i in 0..k {
                    let cell = config
                        .cell((row + dr * i) as u8, (col + dc * i) as u8)
                        .expect("on the board");
                    window.insert(cell);
                }
                out.push(window);
            }
        }
    }
    out
}

/// Boards with more windows than this skip the Erdős–Selfridge test (its cost grows with
/// the board, its use shrinks).
const MAX_WINDOWS: usize = 400;

/// The df-pn search state.
struct Search {
    board: Board,
    attacker: Player,
    table: Table,
    sym: Symmetries,
    /// The running hash of the stones under each symmetry.
    hashes: [u64; 8],
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    monitor: Option<Arc<Monitor>>,
    aborted: Option<&'static str>,
    freestyle: bool,
    root_key: u64,
    /// The board's windows of k cells (empty when the board is too large for the test).
    windows: Vec<CellSet>,
    k: u32,
    /// The root's (pn, dn) for the question being searched.
    root_numbers: (u32, u32),
}

/// How often the clock, the stop flag and the progress callback are looked at, in nodes.
const CHECK_EVERY: u64 = 4096;

/// What a child looks like before it is searched.
#[derive(Clone, Copy, Debug)]
struct Child {
    cell: Cell,
    key: u64,
    phi: u32,
    delta: u32,
}

impl Search {
    fn new(game: &Mnk, limits: &DfpnLimits, started: Instant) -> Result<Search, OutOfMemory> {
        let sym = Symmetries::new(game);
        let mut hashes = [0u64; 8];
        for player in [Player::First, Player::Second] {
            for cell in game.stones(player).iter() {
                for (s, hash) in hashes.iter_mut().enumerate().take(sym.count) {
                    *hash ^= sym.keys[cell.index()][s][player.index()];
                }
            }
        }
        Ok(Search {
            board: Board::new(game),
            attacker: game.side_to_move(),
            table: Table::new(limits.tt_mb)?,
            sym,
            hashes,
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| started + t),
            monitor: limits.monitor.clone(),
            aborted: None,
            freestyle: game.config().rule() == WinRule::Freestyle,
            root_key: 0,
            windows: {
                let windows = windows_of(game);
                if windows.len() > MAX_WINDOWS {
                    Vec::new()
                } else {
                    windows
                }
            },
            k: u32::from(game.config().k()),
            root_numbers: (1, 1),
        })
    }

    /// The table key of the position after `cell` is played by the side to move (`None`: the
    /// current position), for the current attacker.
    #[inline]
    fn key_after(&self, cell: Option<Cell>) -> u64 {
        let mover = self.board.to_move().index();
        let mut best = u64::MAX;
        for s in 0..self.sym.count {
            let mut hash = self.hashes[s];
            if let Some(cell) = cell {
                hash ^= self.sym.keys[cell.index()][s][mover];
            }
            best = best.min(hash);
        }
        // The question (who attacks) is part of the key; 0 marks an empty slot.
        let key = if self.attacker == Player::Second {
            best ^ 0xa5a5_5a5a_c3c3_3c3c
        } else {
            best
        };
        key.max(1)
    }

    fn play(&mut self, cell: Cell) {
        let mover = self.board.to_move().index();
        for s in 0..self.sym.count {
            self.hashes[s] ^= self.sym.keys[cell.index()][s][mover];
        }
        self.board.play(cell);
    }

    fn undo(&mut self) {
        let (cell, player) = *self.board.moves().last().expect("a move to take back");
        for s in 0..self.sym.count {
            self.hashes[s] ^= self.sym.keys[cell.index()][s][player.index()];
        }
        self.board.undo();
    }

    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted.is_some() {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = Some("the node limit");
        } else if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = Some("the time limit");
            }
            if let Some(monitor) = &self.monitor {
                monitor.nodes.store(self.nodes, Ordering::Relaxed);
                monitor
                    .attacker
                    .store(self.attacker.index() as u8 + 1, Ordering::Relaxed);
                monitor.pn.store(self.root_numbers.0, Ordering::Relaxed);
                monitor.dn.store(self.root_numbers.1, Ordering::Relaxed);
                monitor
                    .table_bytes
                    .store((self.table.slots.len() * 16) as u64, Ordering::Relaxed);
                monitor.table_permille.store(
                    (self.table.used as u64 * 1000 / self.table.slots.len().max(1) as u64) as u32,
                    Ordering::Relaxed,
                );
                if monitor.stopping() {
                    self.aborted = Some("an interrupt");
                }
            }
        }
        self.aborted.is_some()
    }

    /// Whether the side to move reaches its goal at once, or cannot: `Some((phi, delta))` for
    /// a settled node, `None` for one to search. Runs the shortcuts of the module
    /// documentation (the VCF check included).
    fn settle(&mut self) -> Option<(u32, u32)> {
        let me = self.board.to_move();
        let them = Mnk::opponent(me);
        let won = (0, INF);
        let lost = (INF, 0);
        if !self.board.wins(me).is_empty() {
            // The attacker wins, or the defender wins (so the attacker does not): either way
            // the side to move reaches its goal.
            return Some(won);
        }
        if self.board.empty().is_empty() {
            return Some(if me == self.attacker { lost } else { won });
        }
        if self.board.patterns().sum(self.attacker) == 0 {
            // No line left for the attacker: it cannot win.
            return Some(if me == self.attacker { lost } else { won });
        }
        let their_wins = self.board.wins(them);
        if !their_wins.is_empty() {
            if self.board.defences(&their_wins).is_empty() {
                return Some(lost);
            }
            return None;
        }
        if self.breaker_wins() {
            return Some(if me == self.attacker { lost } else { won });
        }
        if !self.board.patterns().sets(me).four.is_empty() {
            let mut vcf = ThreatSearch::new(ThreatLimits {
                depth: 40,
                nodes: VCF_NODES,
                deadline: None,
            });
            let found = vcf.vcf(&mut self.board).is_win();
            self.nodes += vcf.nodes;
            if found {
                return Some(won);
            }
        }
        None
    }

    /// The Erdős–Selfridge test: whether the defender, playing only to block, keeps the
    /// attacker from ever filling a window of k cells (and so from winning, under every
    /// rule). It holds when the sum over the windows free of defender stones of 2^-(empty
    /// cells) is below 1 with the defender to move, below 1/2 with the attacker to move.
    fn breaker_wins(&self) -> bool {
        let game = self.board.game();
        // The opening rule forces the first stone: no free choice for a breaker yet.
        if self.windows.is_empty() || (game.config().center() && game.ply() == 0) {
            return false;
        }
        let defender = game.stones(Mnk::opponent(self.attacker));
        let attacker = game.stones(self.attacker);
        // Sum of 2^(k - empty), against 2^k (defender to move) or 2^(k-1).
        let limit: u64 = if self.board.to_move() == self.attacker {
            1 << (self.k - 1)
        } else {
            1 << self.k
        };
        let mut sum: u64 = 0;
        for window in &self.windows {
            if !window.and(defender).is_empty() {
                continue;
            }
            let stones = window.and(attacker).len();
            sum += 1 << stones;
            if sum >= limit {
                return false;
            }
        }
        true
    }

    /// The moves of the side to move worth searching (see the module documentation).
    fn moves(&self) -> Vec<Cell> {
        let me = self.board.to_move();
        let them = Mnk::opponent(me);
        let their_wins = self.board.wins(them);
        if !their_wins.is_empty() {
            return self.board.defences(&their_wins).iter().collect();
        }
        let game = self.board.game();
        let empty = *game.empty_cells();
        let mut moves: Vec<(i32, Cell)> = Vec::with_capacity(empty.len() as usize);
        let patterns = self.board.patterns();
        let mut dropped = None;
        let defender = Mnk::opponent(self.attacker);
        for cell in empty.iter() {
            if !game.is_legal(cell) {
                continue;
            }
            let mine = patterns.patterns(cell, me);
            let theirs = patterns.patterns(cell, them);
            if self.freestyle {
                let dead_for_me = mine.iter().all(|&p| p == DEAD);
                let dead_for_them = theirs.iter().all(|&p| p == DEAD);
                // A pass: no line of either player goes through the cell. And in the
                // attacker's question, a stone on a cell dead for the attacker only matters by
                // blocking the defender, which counts for nothing once the defender has no
                // line left either (or by a defender threat, likewise).
                let pass = (dead_for_me && dead_for_them)
                    || (patterns.sum(defender) == 0
                        && if me == self.attacker {
                            dead_for_me
                        } else {
                            dead_for_them
                        });
                if pass {
                    dropped.get_or_insert(cell);
                    continue;
                }
            }
            // The attacker builds, the defender blocks first.
            let score = if me == self.attacker {
                patterns.value(cell, me) * 2 + patterns.value(cell, them)
            } else {
                patterns.value(cell, me) + patterns.value(cell, them) * 2
            };
            moves.push((score, cell));
        }
        moves.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut out: Vec<Cell> = moves.into_iter().map(|(_, cell)| cell).collect();
        if out.is_empty()
            && let Some(cell) = dropped
        {
            out.push(cell);
        }
        out
    }

    /// The numbers of the current position, from the table or from its first look.
    fn look(&mut self, key: u64) -> (u32, u32) {
        if let Some(numbers) = self.table.get(key) {
            return numbers;
        }
        // Stored either way, so that the first look (and its VCF check) is not repeated.
        let numbers = self.settle().unwrap_or((1, 1));
        self.table.put(key, numbers.0, numbers.1, 1);
        numbers
    }

    /// Multiple iterative deepening: searches the current position (table key `key`) until
    /// its phi reaches `th_phi` or its delta `th_delta`; returns its numbers.
    fn mid(&mut self, key: u64, th_phi: u32, th_delta: u32) -> (u32, u32) {
        let start_nodes = self.nodes;
        if self.tick() {
            return self.table.get(key).unwrap_or((1, 1));
        }
        let (phi, delta) = self.look(key);
        if phi >= th_phi || delta >= th_delta || phi == 0 || delta == 0 {
            return (phi, delta);
        }
        let moves = self.moves();
        let mut children: Vec<Child> = Vec::with_capacity(moves.len());
        for cell in moves {
            let child_key = self.key_after(Some(cell));
            // A child the table does not know gets its first look (the shortcuts, the VCF
            // check) now: a child settled at once is never searched. (Looking only when a
            // child is first searched costs up to five times the nodes on small boards.)
            let (c_phi, c_delta) = match self.table.get(child_key) {
                Some(numbers) => numbers,
                None => {
                    self.play(cell);
                    let numbers = self.look(child_key);
                    self.undo();
                    numbers
                }
            };
            children.push(Child {
                cell,
                key: child_key,
                phi: c_phi,
                delta: c_delta,
            });
        }
        let mut numbers;
        loop {
            // phi: the least delta of the children; delta: the sum of their phis.
            let mut phi = INF;
            let mut delta: u64 = 0;
            let (mut best, mut best_delta, mut second_delta) = (0, INF, INF);
            for (i, child) in children.iter().enumerate() {
                if child.delta < best_delta {
                    second_delta = best_delta;
                    best_delta = child.delta;
                    best = i;
                } else if child.delta < second_delta {
                    second_delta = child.delta;
                }
                phi = phi.min(child.delta);
                delta += u64::from(child.phi);
            }
            let delta = if children.iter().any(|c| c.phi >= INF) {
                INF
            } else {
                delta.min(u64::from(INF - 1)) as u32
            };
            numbers = (phi, delta);
            if key == self.root_key {
                self.root_numbers = self.oriented(numbers);
            }
            if phi >= th_phi || delta >= th_delta || self.aborted.is_some() {
                break;
            }
            let child = children[best];
            let child_th_phi = (u64::from(th_delta) + u64::from(child.phi))
                .saturating_sub(u64::from(delta))
                .min(u64::from(INF)) as u32;
            let widened = ((f64::from(second_delta) * (1.0 + EPSILON)).ceil() as u64 + 1)
                .min(u64::from(INF)) as u32;
            let child_th_delta = th_phi.min(widened);
            self.play(child.cell);
            let (c_phi, c_delta) = self.mid(child.key, child_th_phi, child_th_delta);
            self.undo();
            children[best].phi = c_phi;
            children[best].delta = c_delta;
        }
        if self.aborted.is_none() || numbers.0 == 0 || numbers.1 == 0 {
            self.table
                .put(key, numbers.0, numbers.1, self.nodes - start_nodes + 1);
        }
        numbers
    }

    /// Whether `attacker` wins from the current position: `Some(true)` proven, `Some(false)`
    /// disproven, `None` not settled before the search stopped.
    fn prove(&mut self, attacker: Player) -> Option<bool> {
        self.attacker = attacker;
        let key = self.key_after(None);
        self.root_key = key;
        let mut numbers = self.look(key);
        while numbers.0 != 0 && numbers.1 != 0 && self.aborted.is_none() {
            self.root_numbers = self.oriented(numbers);
            numbers = self.mid(key, INF, INF);
        }
        self.root_numbers = self.oriented(numbers);
        if numbers.0 == 0 {
            Some(self.board.to_move() == attacker)
        } else if numbers.1 == 0 {
            Some(self.board.to_move() != attacker)
        } else {
            None
        }
    }

    /// (phi, delta) of the current position as (proof, disproof) numbers of the question.
    fn oriented(&self, numbers: (u32, u32)) -> (u32, u32) {
        if self.board.to_move() == self.attacker {
            numbers
        } else {
            (numbers.1, numbers.0)
        }
    }

    /// The value of the current position for the side to move, with bounds when unknown.
    fn value(&mut self) -> (Option<Value>, Value, Value) {
        let me = self.board.to_move();
        match self.prove(me) {
            Some(true) => return (Some(Value::Win), Value::Win, Value::Win),
            None => return (None, Value::Loss, Value::Win),
            Some(false) => {}
        }
        match self.prove(Mnk::opponent(me)) {
            Some(true) => (Some(Value::Loss), Value::Loss, Value::Loss),
            Some(false) => (Some(Value::Draw), Value::Draw, Value::Draw),
            None => (None, Value::Loss, Value::Draw),
        }
    }
}

/// Solves `game` by df-pn within `limits`.
///
/// Panics when the table of `limits.tt_mb` MiB cannot be allocated; [`try_solve`] returns that
/// as an error instead (the `arena solve` command uses it).
pub fn solve(game: &Mnk, limits: &DfpnLimits) -> DfpnSolution {
    try_solve(game, limits).unwrap_or_else(|error| panic!("{error}"))
}

/// Solves `game` by df-pn within `limits`, or says that its table cannot be allocated.
pub fn try_solve(game: &Mnk, limits: &DfpnLimits) -> Result<DfpnSolution, OutOfMemory> {
    let started = Instant::now();
    let to_move = game.side_to_move();
    let mut solution = DfpnSolution {
        to_move,
        value: None,
        at_least: Value::Loss,
        at_most: Value::Win,
        best: Vec::new(),
        moves: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
        stopped: None,
    };
    if let Some(outcome) = game.outcome() {
        let value = match outcome {
            rules::Outcome::Draw => Value::Draw,
            rules::Outcome::Win(w) if w == to_move => Value::Win,
            rules::Outcome::Win(_) => Value::Loss,
            rules::Outcome::Ranked(_) => unreachable!("m,n,k games have two players"),
        };
        solution.value = Some(value);
        solution.at_least = value;
        solution.at_most = value;
        return Ok(solution);
    }
    let mut search = Search::new(game, limits, started)?;
    let (value, at_least, at_most) = search.value();
    solution.value = value;
    solution.at_least = at_least;
    solution.at_most = at_most;

    // The moves: every one when asked (each child solved with the same table), else one that
    // keeps the value.
    let mut legal = rules::MoveList::new();
    game.legal_moves(&mut legal);
    if let Some(value) = value {
        let wanted = |v: Option<Value>| v == Some(value);
        // The search's own order (best first) unless every move is wanted in board order.
        let order: Vec<Cell> = if limits.all_moves {
            legal.iter().copied().collect()
        } else {
            let mut order = search.moves();
            let rest: Vec<Cell> = legal
                .iter()
                .copied()
                .filter(|c| !order.contains(c))
                .collect();
            order.extend(rest);
            order
        };
        for &cell in &order {
            if search.aborted.is_some() {
                break;
            }
            let child = search.child_value(cell);
            if limits.all_moves {
                solution.moves.push((cell, child));
            }
            if wanted(child) {
                solution.best.push(cell);
                if !limits.all_moves {
                    break;
                }
            }
        }
        if limits.all_moves && solution.moves.len() < legal.len() {
            for &cell in &legal[solution.moves.len()..] {
                solution.moves.push((cell, None));
            }
        }
    }
    solution.stopped = search.aborted;
    solution.nodes = search.nodes;
    solution.elapsed = started.elapsed();
    Ok(solution)
}

impl Search {
    /// The value for the side to move of playing `cell` now.
    fn child_value(&mut self, cell: Cell) -> Option<Value> {
        let me = self.board.to_move();
        if self.board.wins(me).contains(cell) {
            return Some(Value::Win);
        }
        self.play(cell);
        let (value, _, _) = self.value();
        self.undo();
        value.map(Value::flip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{Limits, solve as exact};

    fn start(id: &str) -> Mnk {
        id.parse::<rules::Variant>()
            .unwrap()
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start()
    }

    fn value(game: &Mnk) -> Option<Value> {
        solve(game, &DfpnLimits::default().with_tt_mb(16)).value
    }

    impl DfpnLimits {
        fn with_tt_mb(mut self, tt_mb: usize) -> Self {
            self.tt_mb = tt_mb;
            self
        }
    }

    #[test]
    fn small_games_have_their_known_values() {
        assert_eq!(value(&start("tictactoe")), Some(Value::Draw));
        assert_eq!(value(&start("mnk-4x4k3")), Some(Value::Win));
        assert_eq!(value(&start("mnk-3x4k3")), Some(Value::Win));
        assert_eq!(value(&start("mnk-4x4k4")), Some(Value::Draw));
        let td4 = start("mnk-5x5k4").play_line("b3 c3 c2 d1 b2 a2").unwrap();
        assert_eq!(value(&td4), Some(Value::Win));
    }

    /// df-pn and the alpha-beta solver agree on random positions of small boards, under
    /// every rule.
    #[test]
    fn agrees_with_the_alpha_beta_solver() {
        use rand::{RngExt, SeedableRng};
        let mut rng = crate::AgentRng::seed_from_u64(17);
        for id in [
            "mnk-4x4k3",
            "mnk-4x4k4-caro",
            "mnk-4x5k4-exact",
            "mnk-5x5k4",
            "mnk-3x3k3",
        ] {
            let start = start(id);
            // From a quarter to half the board filled: the alpha-beta solver is quick there.
            let cells = u32::from(start.config().cells());
            for _ in 0..12 {
                let mut game = start.clone();
                for _ in 0..rng.random_range(cells / 4..cells / 2) {
                    match game.random_move(&mut rng) {
                        Some(cell) if !game.child(cell).is_over() => game.play_unchecked(cell),
                        _ => break,
                    }
                }
                let expected = exact(
                    &game,
                    &Limits::default().with_tt_mb(16).with_all_moves(false),
                );
                assert_eq!(value(&game), expected.value, "{id}\n{game}");
            }
        }
    }

    #[test]
    fn the_moves_keep_the_value() {
        let td4 = start("mnk-5x5k4").play_line("b3 c3 c2 d1 b2 a2").unwrap();
        let limits = DfpnLimits {
            all_moves: true,
            ..DfpnLimits::default()
        };
        let solution = solve(&td4, &limits);
        let names: Vec<String> = solution.best.iter().map(|&c| td4.format_move(c)).collect();
        assert_eq!(names, ["d2", "e2", "b4"]);
    }
}
