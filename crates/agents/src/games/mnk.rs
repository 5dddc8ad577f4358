//! What the agents know of m,n,k games: the window evaluation (agents.md), the cells where
//! either player would win at once (kept move by move), the "near" cells next to a stone, and
//! the playouts restricted to them.
//!
//! Cells are walked in the board's padded index space (see `rules::mnk`): a step that leaves the
//! board lands on the sentinel column or outside `0..rows * stride`, so "on the board" is one
//! range test and one remainder.

pub mod dfpn;
pub mod easy;
mod geometry;
pub mod neighbor;
pub mod pattern;
mod pattern_mcts;
mod pattern_search;
pub mod policy;
pub mod tactics;
pub mod threat;
pub mod threats;

use geometry::threats_of;
use geometry::{Geometry, has};
use rand::RngExt;
use rules::mnk::CellSet;
use rules::{Cell, Game, Mnk, MnkConfig, MoveList, Outcome, Player, TwoPlayer, WinRule};

use crate::{
    Agent, AgentGame, Easy, FlatMc, Kind, Neighbor, Params, SpecError, Tactic, score::EVAL_LIMIT,
};

/// The weight of a window of k cells holding `s` stones of one player and none of the other:
/// 10 for one stone, 50 for two (seed 004's tic-tac-toe numbers), five times more for each
/// stone after that, capped at seven stones so that no board can sum past
/// [`EVAL_LIMIT`] (4 x 361 windows x 156,250 < 2.3e8).
const WEIGHTS: [i32; 21] = {
    let mut table = [0i32; 21];
    let mut s = 1;
    while s < 21 {
        let exponent = if s - 1 < 6 { s - 1 } else { 6 };
        table[s] = 10 * 5i32.pow(exponent as u32);
        s += 1;
    }
    table
};

const _: () = assert!(4 * 361 * WEIGHTS[20] as i64 * 2 < EVAL_LIMIT as i64);

#[inline]
fn sign(player: Player) -> i32 {
    if player == Player::First { 1 } else { -1 }
}

/// The window evaluation of `game` from the first player's view, from scratch: every window of
/// k cells in a line holding stones of one player only counts `WEIGHTS[stones]` for that
/// player.
pub(crate) fn window_eval(game: &Mnk) -> i32 {
    window_scan(game).0
}

/// The window evaluation (see [`window_eval`]) and, per player, the number of windows free of
/// the opponent's stones (the lines the player could still make), from scratch.
fn window_scan(game: &Mnk) -> (i32, [u16; 2]) {
    let geometry = Geometry::of(game);
    let (x, o) = (game.stones(Player::First), game.stones(Player::Second));
    let mut total = 0;
    let mut open = [0u16; 2];
    for start in 0..geometry.limit {
        if !geometry.on_board(start) {
            continue;
        }
        for step in geometry.steps() {
            let (mut own, mut other, mut index) = (0, 0, start);
            let mut complete = true;
            for i in 0..geometry.k {
                if i > 0 {
                    match geometry.forward(index, step) {
                        Some(next) => index = next,
                        None => {
                            complete = false;
                            break;
                        }
                    }
                }
                if has(x, index) {
                    own += 1;
                } else if has(o, index) {
                    other += 1;
                }
            }
            if complete {
                if other == 0 {
                    total += WEIGHTS[own];
                    open[0] += 1;
                }
                if own == 0 {
                    total -= WEIGHTS[other];
                    open[1] += 1;
                }
            }
        }
    }
    (total, open)
}

/// How much a stone of `player` on the empty `cell` changes the window evaluation, from
/// `player`'s view: its own windows through the cell grow, the opponent's die.
#[inline]
pub(crate) fn window_gain(game: &Mnk, cell: Cell, player: Player) -> i32 {
    window_change(game, cell, player).gain
}

/// What a stone on an empty cell does to the windows through it.
#[derive(Clone, Copy, Debug)]
struct WindowChange {
    /// [`window_gain`].
    gain: i32,
    /// The windows through the cell free of the player's stones: the opponent's open windows
    /// the stone closes.
    closed: u16,
    /// The windows through the cell that hold stones of at most one colour: those a line
    /// through the cell could still be made in.
    live: u16,
}

#[inline]
fn window_change(game: &Mnk, cell: Cell, player: Player) -> WindowChange {
    let geometry = Geometry::of(game);
    let k = geometry.k;
    let own = game.stones(player);
    let other = game.stones(Mnk::opponent(player));
    let centre = cell.index();
    let window = (1u64 << k) - 1;
    let mut gain = 0;
    let mut closed = 0;
    let mut live = 0;
    for step in geometry.steps() {
        // Bit k-1 is the cell; bit k-1-i the i-th cell before it, bit k-1+i the i-th after.
        let (mut own_bits, mut other_bits) = (0u64, 0u64);
        let (mut back, mut index) = (0, centre);
        while back < k - 1 {
            match geometry.backward(index, step) {
                Some(previous) => index = previous,
                None => break,
            }
            back += 1;
            own_bits |= u64::from(has(own, index)) << (k - 1 - back);
            other_bits |= u64::from(has(other, index)) << (k - 1 - back);
        }
        let (mut ahead, mut index) = (0, centre);
        while ahead < k - 1 {
            match geometry.forward(index, step) {
                Some(next) => index = next,
                None => break,
            }
            ahead += 1;
            own_bits |= u64::from(has(own, index)) << (k - 1 + ahead);
            other_bits |= u64::from(has(other, index)) << (k - 1 + ahead);
        }
        // Windows start at bit s and cover s..s+k-1: on the board and through the cell.
        for s in (k - 1 - back)..=(k - 1).min(ahead) {
            let mask = window << s;
            let mine = (own_bits & mask).count_ones() as usize;
            let theirs = (other_bits & mask).count_ones() as usize;
            if mine == 0 {
                closed += 1;
            }
            if mine == 0 || theirs == 0 {
                live += 1;
            }
            if theirs == 0 {
                gain += WEIGHTS[mine + 1] - WEIGHTS[mine];
            } else if mine == 0 {
                gain += WEIGHTS[theirs];
            }
        }
    }
    WindowChange { gain, closed, live }
}

/// The search state of an m,n,k position: the window evaluation (first player's view), per
/// player the number of windows free of the opponent's stones, and per player the empty cells
/// where a stone of theirs would win at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MnkAux {
    eval: i32,
    open: [u16; 2],
    threats: [CellSet; 2],
}

impl MnkAux {
    /// The window evaluation from the first player's view.
    pub fn eval(&self) -> i32 {
        self.eval
    }

    /// The windows of k cells free of the opponent's stones: the lines `player` could still
    /// make. With none left, `player` cannot win.
    pub fn open_windows(&self, player: Player) -> u16 {
        self.open[player.index()]
    }

    /// The empty cells where a stone of `player` would win at once.
    pub fn threats(&self, player: Player) -> &CellSet {
        &self.threats[player.index()]
    }
}

/// The window gains of the empty board are scaled by this before the distance to the centre
/// is taken off: more than any distance [`centre_distance`] gives (at most 2 x 36^2 = 2,592 on
/// a 19x19 board, the largest), and small enough that no gain of a first stone overflows.
const OPENING_SCALE: i32 = 1 << 12;

const _: () = assert!(2 * 36 * 36 < OPENING_SCALE);
const _: () = assert!((4 * 19 * WEIGHTS[1] as i64 + 1) * (OPENING_SCALE as i64) < i32::MAX as i64);

/// The squared distance of `cell` from the board's centre, in half cells (so an even side's
/// centre, between two cells, is measured exactly): 0 for the middle cell of an odd board.
fn centre_distance(config: &MnkConfig, cell: Cell) -> i32 {
    let (row, col) = config.row_col(cell);
    let dr = 2 * i32::from(row) - (i32::from(config.rows()) - 1);
    let dc = 2 * i32::from(col) - (i32::from(config.cols()) - 1);
    dr * dr + dc * dc
}

/// The empty cells next to a stone (seed 003's "potential" cells).
#[inline]
pub(crate) fn near_cells(game: &Mnk) -> CellSet {
    game.stones(Player::First)
        .or(game.stones(Player::Second))
        .dilated(game.config().stride())
        .and(game.empty_cells())
}

/// The candidates of `mc-near`: the legal near cells; on an empty board the centre cell (the
/// natural opening of an m,n,k game, and the `center` rule's).
fn near_candidates(game: &Mnk, out: &mut Vec<Cell>) {
    out.clear();
    let near = near_cells(game);
    if near.is_empty() {
        let centre = game.config().center_cell();
        if game.is_legal(centre) {
            out.push(centre);
        } else {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            out.extend(moves);
        }
    } else {
        out.extend(near.iter().filter(|&cell| game.is_legal(cell)));
    }
}

/// Plays `game` to its end (or for `max_plies` plies, then a draw) with uniformly random
/// moves. The empty cells are listed once and drawn without replacement (a swap with the
/// last), so a ply costs one random number instead of a select in the bitset; a uniformly
/// random order of the empty cells is a uniformly random game.
pub(crate) fn random_playout<R: rand::Rng + ?Sized>(
    game: &mut Mnk,
    rng: &mut R,
    max_plies: u32,
) -> Outcome {
    let mut plies_left = max_plies;
    if game.config().center() && game.ply() == 0 && plies_left > 0 && !game.is_over() {
        // The opening rule fixes the first stone.
        game.play_unchecked(game.config().center_cell());
        plies_left -= 1;
    }
    if let Some(outcome) = game.outcome() {
        return outcome;
    }
    let mut cells: MoveList<Cell> = game.empty_cells().iter().collect();
    for _ in 0..plies_left {
        // A game that is not over has an empty cell, so the list is not empty.
        let cell = cells.swap_remove(rng.random_range(0..cells.len() as u32) as usize);
        game.play_unchecked(cell);
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
    }
    game.adjudicate()
}

/// Plays `game` to its end choosing uniformly among the empty cells next to a stone, keeping
/// that set and its size up to date move by move rather than rescanning the board.
pub(crate) fn near_playout<R: rand::Rng + ?Sized>(game: &mut Mnk, rng: &mut R) -> Outcome {
    if let Some(outcome) = game.outcome() {
        return outcome;
    }
    let geometry = Geometry::of(game);
    let steps = geometry.steps();
    let mut near = near_cells(game);
    let mut count = near.len();
    loop {
        // Only an empty board has no near cell (a board with stones and empty cells always has
        // an empty cell next to a stone); its first stone is random (or the centre by rule).
        let cell = if count == 0 {
            match game.random_move(rng) {
                Some(cell) => cell,
                None => return game.adjudicate(),
            }
        } else {
            match near.nth(rng.random_range(0..count)) {
                Some(cell) => {
                    near.remove(cell);
                    count -= 1;
                    cell
                }
                None => return game.adjudicate(),
            }
        };
        game.play_unchecked(cell);
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        // The new stone's empty neighbours join. The empty cells are board cells only, so a
        // step onto the padding column or past the last row adds nothing; no branch on
        // whether a neighbour is empty (that mispredicts on random play).
        let empty = game.empty_cells();
        let index = cell.index();
        for step in steps {
            for next in [index + step, index.wrapping_sub(step)] {
                if next < geometry.limit {
                    count += near.insert_from(Cell(next as u16), empty);
                }
            }
        }
    }
}

impl AgentGame for Mnk {
    const DEFENCE: &'static str = "block";
    const NEAR_PLAYOUTS: bool = true;

    type Aux = MnkAux;

    fn illegal_move(&self) -> Cell {
        // The sentinel column of the first row is never a cell of the board.
        Cell(u16::from(self.config().cols()))
    }

    #[inline]
    fn move_index(mv: Cell) -> usize {
        mv.index()
    }

    fn aux(&self) -> MnkAux {
        let (eval, open) = window_scan(self);
        MnkAux {
            eval,
            open,
            threats: [
                threats_of(self, Player::First),
                threats_of(self, Player::Second),
            ],
        }
    }

    fn aux_after(&self, aux: &MnkAux, cell: Cell, child: &Mnk) -> MnkAux {
        let mover = self.side_to_move();
        let change = window_change(self, cell, mover);
        let eval = aux.eval + sign(mover) * change.gain;
        let mut open = aux.open;
        open[Mnk::opponent(mover).index()] -= change.closed;
        if child.is_over() {
            return MnkAux {
                eval,
                open,
                threats: aux.threats,
            };
        }
        let mut threats = aux.threats;
        threats[0].remove(cell);
        threats[1].remove(cell);
        // Which old threats the stone can spoil depends on the rule. Under `freestyle` a threat
        // only dies when its cell is taken. Under `exact` the mover's own line can grow past k.
        // Under `caro` the stone can block the opponent's line at an end, and the mover's own
        // line can grow until it meets an opponent's stone at its far end.
        let recheck: &[Player] = match self.config().rule() {
            WinRule::Freestyle => &[],
            WinRule::Exact => &[mover],
            WinRule::Caro => &[Player::First, Player::Second],
        };
        for &player in recheck {
            let slot = player.index();
            let old = threats[slot];
            for cell in old.iter() {
                if !child.wins_at(cell, player) {
                    threats[slot].remove(cell);
                }
            }
        }
        // A new threat of the mover lies on a line through the new stone, at the first empty
        // cell past the run of the mover's stones that contains it.
        let geometry = Geometry::of(child);
        let own = child.stones(mover);
        let empty = child.empty_cells();
        for step in geometry.steps() {
            for ahead in [true, false] {
                let mut index = cell.index();
                loop {
                    let next = if ahead {
                        geometry.forward(index, step)
                    } else {
                        geometry.backward(index, step)
                    };
                    match next {
                        Some(next) if has(own, next) => index = next,
                        Some(next) => {
                            let candidate = Cell(next as u16);
                            if empty.contains(candidate) && child.wins_at(candidate, mover) {
                                threats[mover.index()].insert(candidate);
                            }
                            break;
                        }
                        None => break,
                    }
                }
            }
        }
        MnkAux {
            eval,
            open,
            threats,
        }
    }

    #[inline]
    fn evaluate(&self, aux: &MnkAux) -> i32 {
        sign(self.side_to_move()) * aux.eval
    }

    fn evaluate_scratch(&self) -> i32 {
        sign(self.side_to_move()) * window_eval(self)
    }

    fn tactic(&self, aux: &MnkAux) -> Tactic<Cell> {
        // Under the `center` rule the first stone has one legal cell whatever wins elsewhere.
        if self.config().center() && self.ply() == 0 {
            return Tactic::Open;
        }
        let me = self.side_to_move();
        if let Some(cell) = aux.threats[me.index()].iter().next() {
            return Tactic::WinNow(cell);
        }
        if aux.open == [0, 0] {
            return Tactic::Drawn;
        }
        let theirs = &aux.threats[Mnk::opponent(me).index()];
        let Some(first) = theirs.iter().next() else {
            return Tactic::Open;
        };
        if self.config().rule() == WinRule::Caro {
            Tactic::BlockFirst(first)
        } else if theirs.len() == 1 {
            Tactic::MustBlock(first)
        } else {
            Tactic::Lost(first)
        }
    }

    /// The window gain; on the empty board, where every cell at least k-1 from the edges has
    /// the same gain, equal cells come in order of their distance to the centre, so a search
    /// that finds them all equal opens in the middle, as players do.
    #[inline]
    fn order_hint(&self, _aux: &MnkAux, cell: Cell) -> i32 {
        let gain = window_gain(self, cell, self.side_to_move());
        if self.ply() == 0 {
            gain * OPENING_SCALE - centre_distance(self.config(), cell)
        } else {
            gain
        }
    }

    #[inline]
    fn can_win(&self, aux: &MnkAux, player: Player) -> bool {
        aux.open[player.index()] > 0
    }

    /// Under `freestyle`, a cell that every window through it holds both colours can never be
    /// part of a winning line: a stone there is a pass, and a pass is never better than a
    /// stone anywhere (an extra stone never hurts under `freestyle`). Under the other rules an
    /// extra stone can hurt (an overline, a block at the far end), so nothing is dominated.
    #[inline]
    fn solver_hint(&self, _aux: &MnkAux, cell: Cell) -> Option<i32> {
        let change = window_change(self, cell, self.side_to_move());
        if change.live == 0 && self.config().rule() == WinRule::Freestyle {
            None
        } else {
            Some(change.gain)
        }
    }

    fn solver_key(&self) -> (u64, u8) {
        symmetry::canonical_key(self)
    }

    fn map_move_index(&self, index: usize, symmetry: u8, inverse: bool) -> usize {
        symmetry::map_cell(self.config(), Cell(index as u16), symmetry, inverse).index()
    }

    fn immediate_wins(&self, out: &mut MoveList<Cell>) {
        out.clear();
        if self.is_over() {
            return;
        }
        for cell in threats_of(self, self.side_to_move()).iter() {
            if self.is_legal(cell) {
                out.push(cell);
            }
        }
    }

    fn near_moves(&self, out: &mut Vec<Cell>) {
        near_candidates(self, out);
    }

    fn remaining_plies(&self) -> Option<u32> {
        Some(u32::from(self.config().cells()) - self.ply())
    }

    fn playout_random<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, max_plies: u32) -> Outcome {
        random_playout(self, rng, max_plies)
    }

    fn playout_near<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, _max_plies: u32) -> Outcome {
        near_playout(self, rng)
    }

    /// Seed 004's easy AI.
    fn easy_spec(&self) -> &'static str {
        "easy"
    }

    fn hard_spec(&self) -> &'static str {
        match self.config().cells() {
            // Small enough to solve: perfect play.
            0..=9 => "alphabeta:depth=9",
            // About 0.6 million nodes a second on boards up to 8x8, 0.25 million on 15x15: a
            // second or two a move on one core.
            10..=64 => "alphabeta:nodes=600000",
            _ => "alphabeta:nodes=300000",
        }
    }

    fn build_own(
        kind: &'static Kind,
        params: &Params<'_>,
    ) -> Result<Box<dyn Agent<Mnk>>, SpecError> {
        match kind.name {
            "easy" => Ok(Box::new(Easy::from_params(params)?)),
            "neighbor" => Ok(Box::new(Neighbor::from_params(params)?)),
            "mc-near" | "mc-par" => Ok(Box::new(FlatMc::from_params(kind, params)?)),
            "threat" => Ok(Box::new(crate::ThreatAgent::from_params(params)?)),
            other => Err(SpecError::Unsupported {
                kind: other.to_string(),
                variant: rules::mnk::FAMILY.title.to_string(),
                plays: kind.plays.describe(),
            }),
        }
    }
}

/// The symmetries of the board (four for a rectangle, eight for a square) for the solver's
/// table: positions equal up to a symmetry share one entry.
mod symmetry {
    use rules::{Cell, Mnk, MnkConfig, Player, splitmix64};

    const SIDE: usize = rules::mnk::MAX_SIDE as usize;

    /// Zobrist keys by player and (row, col), independent of the board's padded stride.
    static KEYS: [[u64; SIDE * SIDE]; 2] = {
        let mut table = [[0u64; SIDE * SIDE]; 2];
        let mut player = 0;
        while player < 2 {
            let mut i = 0;
            while i < SIDE * SIDE {
                table[player][i] = splitmix64(0x5359_4d00_0000_0000 ^ ((player * 1024 + i) as u64));
                i += 1;
            }
            player += 1;
        }
        table
    };

    /// Where symmetry `s` takes (row, col) on a `rows` x `cols` board (0-3 for any board, 4-7
    /// only for square ones): identity, mirror left-right, mirror top-bottom, half turn,
    /// transpose, anti-transpose, quarter turn clockwise, quarter turn anticlockwise.
    #[inline]
    fn apply(s: u8, row: usize, col: usize, rows: usize, cols: usize) -> (usize, usize) {
        let (last_row, last_col) = (rows - 1, cols - 1);
        match s {
            0 => (row, col),
            1 => (row, last_col - col),
            2 => (last_row - row, col),
            3 => (last_row - row, last_col - col),
            4 => (col, row),
            5 => (last_col - col, last_row - row),
            6 => (col, last_row - row),
            _ => (last_col - col, row),
        }
    }

    /// The inverse of symmetry `s` (the quarter turns swap, the others undo themselves).
    #[inline]
    fn inverse_of(s: u8) -> u8 {
        match s {
            6 => 7,
            7 => 6,
            other => other,
        }
    }

    fn count(config: &MnkConfig) -> u8 {
        if config.rows() == config.cols() { 8 } else { 4 }
    }

    /// The smallest hash over the images of `game` under the board's symmetries, and the
    /// symmetry that gives it.
    pub(super) fn canonical_key(game: &Mnk) -> (u64, u8) {
        let config = game.config();
        let (rows, cols) = (usize::from(config.rows()), usize::from(config.cols()));
        let symmetries = count(config);
        let mut hashes = [0u64; 8];
        for player in [Player::First, Player::Second] {
            let keys = &KEYS[player.index()];
            for cell in game.stones(player).iter() {
                let (row, col) = config.row_col(cell);
                let (row, col) = (usize::from(row), usize::from(col));
                for s in 0..symmetries {
                    let (r, c) = apply(s, row, col, rows, cols);
                    hashes[usize::from(s)] ^= keys[r * SIDE + c];
                }
            }
        }
        (0..symmetries)
            .map(|s| (hashes[usize::from(s)], s))
            .min()
            .unwrap_or((0, 0))
    }

    /// `cell` under symmetry `s` (or its inverse).
    pub(super) fn map_cell(config: &MnkConfig, cell: Cell, s: u8, inverse: bool) -> Cell {
        let s = if inverse { inverse_of(s) } else { s };
        let (rows, cols) = (usize::from(config.rows()), usize::from(config.cols()));
        let (row, col) = config.row_col(cell);
        let (r, c) = apply(s, usize::from(row), usize::from(col), rows, cols);
        config.cell(r as u8, c as u8).unwrap_or(cell)
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::AgentRng;

    /// The start of the m,n,k variant `id`.
    fn start(id: &str) -> Mnk {
        id.parse::<rules::Variant>()
            .unwrap()
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start()
    }

    fn random_positions(variant: &str, count: usize, seed: u64) -> Vec<Mnk> {
        let start = start(variant);
        let mut rng = AgentRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut game = start.clone();
            let plies = rng.random_range(0..u32::from(start.config().cells()));
            for _ in 0..plies {
                match game.random_move(&mut rng) {
                    Some(cell) => game.play_unchecked(cell),
                    None => break,
                }
            }
            if !game.is_over() {
                out.push(game);
            }
        }
        out
    }

    #[test]
    fn weights_follow_seed_004() {
        assert_eq!(&WEIGHTS[..4], &[0, 10, 50, 250]);
    }

    #[test]
    fn tic_tac_toe_evaluation_matches_seed_004() {
        // X in the centre: 4 lines with one X (10 each) from X's view.
        let game = start("tictactoe").play_line("b2").unwrap();
        assert_eq!(window_eval(&game), 40);
        // After O a1, X keeps row 2, column b and the anti-diagonal (30); O has row 1 and
        // column a (20); the main diagonal holds both and counts for nobody.
        let game = game.play_line("a1").unwrap();
        assert_eq!(window_eval(&game), 10);
    }

    /// The incremental state (evaluation and threat sets) equals the one from scratch after
    /// every move of random games, under every rule.
    #[test]
    fn incremental_state_matches_scratch() {
        for variant in [
            "mnk-3x3k3",
            "mnk-5x5k4",
            "mnk-7x9k5-exact",
            "mnk-9x7k5-caro",
            "mnk-6x6k3-caro",
            "mnk-4x1k2",
            "mnk-1x6k3-exact",
        ] {
            let start = start(variant);
            let mut rng = AgentRng::seed_from_u64(11);
            for _ in 0..200 {
                let mut game = start.clone();
                let mut aux = game.aux();
                while let Some(cell) = game.random_move(&mut rng) {
                    let child = game.child(cell);
                    aux = game.aux_after(&aux, cell, &child);
                    game = child;
                    if game.is_over() {
                        assert_eq!(aux.eval, window_eval(&game), "{variant}\n{game}");
                        break;
                    }
                    assert_eq!(aux, game.aux(), "{variant}\n{game}");
                }
            }
        }
    }

    /// A cell is dominated only when no line can be made through it any more, however many
    /// stones a live window already holds (the weights stop growing at seven).
    #[test]
    fn only_dead_cells_are_dominated() {
        let game = start("mnk-2x10k9")
            // X: a1-g1 (seven in a window of nine), O: a2-g2; X to move.
            .play_line("a1 a2 b1 b2 c1 c2 d1 d2 e1 e2 f1 f2 g1 g2")
            .unwrap();
        let aux = game.aux();
        for cell in ["h1", "i1", "j1", "h2"] {
            let cell = game.parse_move(cell).unwrap();
            assert!(game.solver_hint(&aux, cell).is_some(), "{cell:?}");
        }
        // Every line through c3 holds both colours (row 3: a3 X, b3 O; column c: c1 X, c2 O;
        // diagonal: a1 X, b2 O), so c3 is dead; b1 completes X's row 1 and is not.
        let game = start("tictactoe").play_line("a1 b2 c1 c2 a3 b3").unwrap();
        let aux = game.aux();
        assert_eq!(game.solver_hint(&aux, game.parse_move("c3").unwrap()), None);
        assert!(
            game.solver_hint(&aux, game.parse_move("b1").unwrap())
                .is_some()
        );
    }

    /// The eight images of a position share a key, and a move mapped into the canonical frame
    /// and back is the same move.
    #[test]
    fn symmetric_positions_share_a_solver_key() {
        let base = start("mnk-5x5k4");
        let images = [
            "b1 c3 d2", // and its mirror images:
            "d1 c3 b2", "b5 c3 d4", "d5 c3 b4", "a2 c3 b4", "e4 c3 d2", "e2 c3 d4", "a4 c3 b2",
        ];
        let keys: Vec<u64> = images
            .iter()
            .map(|line| base.play_line(line).unwrap().solver_key().0)
            .collect();
        assert!(keys.iter().all(|&key| key == keys[0]), "{keys:x?}");
        let other = base.play_line("b1 c3 d3").unwrap().solver_key().0;
        assert_ne!(other, keys[0]);
        let game = base.play_line("b1 c3 d2").unwrap();
        for s in 0..8 {
            for cell in game.empty_cells().iter() {
                let index = game.map_move_index(cell.index(), s, false);
                assert_eq!(game.map_move_index(index, s, true), cell.index());
            }
        }
        // A rectangle has four symmetries: its transpose is another board.
        let wide = start("mnk-3x5k3");
        let (a, b) = (wide.play_line("a1").unwrap(), wide.play_line("e3").unwrap());
        assert_eq!(a.solver_key().0, b.solver_key().0);
    }

    #[test]
    fn near_cells_surround_the_stones() {
        for game in random_positions("mnk-9x9k5", 50, 3) {
            let expected: Vec<Cell> = game
                .empty_cells()
                .iter()
                .filter(|&cell| {
                    let (r, c) = game.config().row_col(cell);
                    (-1i32..=1).any(|dr| {
                        (-1i32..=1).any(|dc| {
                            let (rr, cc) = (i32::from(r) + dr, i32::from(c) + dc);
                            rr >= 0 && cc >= 0 && game.stone_at(rr as u8, cc as u8).is_some()
                        })
                    })
                })
                .collect();
            assert_eq!(near_cells(&game).iter().collect::<Vec<_>>(), expected);
        }
    }

    #[test]
    fn random_playouts_play_tic_tac_toe_as_uniform_random_play_does() {
        // Uniformly random tic-tac-toe: X wins 737/1260, O 121/420, draws 8/63 of the games
        // (about 0.585, 0.288 and 0.127).
        let start = start("tictactoe");
        let mut rng = crate::playout::stream_rng(3, 0);
        let mut counts = [0u32; 3];
        let games = 200_000;
        for _ in 0..games {
            let mut game = start.clone();
            let outcome = random_playout(&mut game, &mut rng, u32::MAX);
            assert_eq!(Some(outcome), game.outcome());
            counts[match outcome {
                Outcome::Win(Player::First) => 0,
                Outcome::Win(_) => 1,
                Outcome::Draw => 2,
                Outcome::Ranked(_) => unreachable!("two players"),
            }] += 1;
        }
        for (count, expected) in counts
            .into_iter()
            .zip([737.0 / 1260.0, 121.0 / 420.0, 8.0 / 63.0])
        {
            let share = f64::from(count) / f64::from(games);
            assert!((share - expected).abs() < 0.005, "{counts:?}");
        }
    }

    #[test]
    fn random_playouts_keep_the_opening_rule_and_the_ply_cap() {
        let start = start("mnk-9x9k5-center");
        let mut rng = crate::playout::stream_rng(4, 0);
        for cap in [1, 5, 81] {
            let mut game = start.clone();
            let outcome = random_playout(&mut game, &mut rng, cap);
            assert!(game.stone(start.config().center_cell()).is_some());
            assert!(game.ply() <= cap);
            assert_eq!(outcome, game.adjudicate());
        }
    }

    #[test]
    fn near_playouts_stay_next_to_stones() {
        let mut rng = AgentRng::seed_from_u64(5);
        for start in random_positions("mnk-9x9k5", 50, 4) {
            let mut game = start.clone();
            let had_stones = game.ply() > 0;
            let outcome = near_playout(&mut game, &mut rng);
            assert_eq!(Some(outcome), game.outcome());
            if had_stones {
                // Every stone the playout added touches an earlier one: replaying confirms it.
                let mut replay = start.clone();
                let mut added: Vec<Cell> = game
                    .stones(Player::First)
                    .or(game.stones(Player::Second))
                    .minus(&start.stones(Player::First).or(start.stones(Player::Second)))
                    .iter()
                    .collect();
                // Order is lost; check only the final set is connected to the start's stones.
                while !added.is_empty() {
                    let before = added.len();
                    added.retain(|&cell| {
                        if near_cells(&replay).contains(cell) {
                            replay.place(cell, Player::First);
                            false
                        } else {
                            true
                        }
                    });
                    assert!(added.len() < before, "stones far from the fight");
                }
            }
        }
    }
}
