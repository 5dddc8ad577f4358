//! What the agents know of m,n,k games: the window evaluation (agents.md), the cells where
//! either player would win at once (kept move by move), the "near" cells next to a stone, and
//! the playouts restricted to them.
//!
//! Cells are walked in the board's padded index space (see `rules::mnk`): a step that leaves the
//! board lands on the sentinel column or outside `0..rows * stride`, so "on the board" is one
//! range test and one remainder.

use rand::RngExt;
use rules::mnk::CellSet;
use rules::{Cell, Game, Mnk, MoveList, Outcome, Player, WinRule};

use crate::{
    Agent, AgentGame, Easy, Family, FlatMc, Kind, Neighbor, Params, SpecError, Tactic,
    score::EVAL_LIMIT,
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

/// The shape of a board in the padded index space.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    stride: usize,
    cols: usize,
    limit: usize,
    k: usize,
}

impl Geometry {
    #[inline]
    pub(crate) fn of(game: &Mnk) -> Geometry {
        let config = game.config();
        let stride = usize::from(config.stride());
        Geometry {
            stride,
            cols: usize::from(config.cols()),
            limit: usize::from(config.rows()) * stride,
            k: usize::from(config.k()),
        }
    }

    /// The four line directions as index steps: along a row, down a column, the two diagonals.
    #[inline]
    pub(crate) fn steps(&self) -> [usize; 4] {
        [1, self.stride, self.stride + 1, self.stride - 1]
    }

    #[inline]
    pub(crate) fn on_board(&self, index: usize) -> bool {
        index < self.limit && index % self.stride != self.cols
    }

    /// The cell `step` after `index`, if it is on the board.
    #[inline]
    pub(crate) fn forward(&self, index: usize, step: usize) -> Option<usize> {
        let next = index + step;
        self.on_board(next).then_some(next)
    }

    /// The cell `step` before `index`, if it is on the board.
    #[inline]
    pub(crate) fn backward(&self, index: usize, step: usize) -> Option<usize> {
        let previous = index.checked_sub(step)?;
        self.on_board(previous).then_some(previous)
    }

    /// The cells next to `cell` (8-neighbourhood) that are in `set`.
    #[inline]
    pub(crate) fn neighbours_in(&self, cell: Cell, set: &CellSet) -> CellSet {
        let mut out = CellSet::EMPTY;
        let index = cell.index();
        for step in self.steps() {
            for next in [self.forward(index, step), self.backward(index, step)]
                .into_iter()
                .flatten()
            {
                let next = Cell(next as u16);
                if set.contains(next) {
                    out.insert(next);
                }
            }
        }
        out
    }
}

#[inline]
fn has(set: &CellSet, index: usize) -> bool {
    set.contains(Cell(index as u16))
}

#[inline]
fn sign(player: Player) -> i32 {
    match player {
        Player::First => 1,
        Player::Second => -1,
    }
}

/// The window evaluation of `game` from the first player's view, from scratch: every window of
/// k cells in a line holding stones of one player only counts `WEIGHTS[stones]` for that
/// player.
pub(crate) fn window_eval(game: &Mnk) -> i32 {
    let geometry = Geometry::of(game);
    let (x, o) = (game.stones(Player::First), game.stones(Player::Second));
    let mut total = 0;
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
                } else if own == 0 {
                    total -= WEIGHTS[other];
                }
            }
        }
    }
    total
}

/// How much a stone of `player` on the empty `cell` changes the window evaluation, from
/// `player`'s view: its own windows through the cell grow, the opponent's die.
#[inline]
pub(crate) fn window_gain(game: &Mnk, cell: Cell, player: Player) -> i32 {
    let geometry = Geometry::of(game);
    let k = geometry.k;
    let own = game.stones(player);
    let other = game.stones(player.opponent());
    let centre = cell.index();
    let window = (1u64 << k) - 1;
    let mut gain = 0;
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
            if theirs == 0 {
                gain += WEIGHTS[mine + 1] - WEIGHTS[mine];
            } else if mine == 0 {
                gain += WEIGHTS[theirs];
            }
        }
    }
    gain
}

/// The search state of an m,n,k position: the window evaluation (first player's view) and, per
/// player, the empty cells where a stone of theirs would win at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MnkAux {
    eval: i32,
    threats: [CellSet; 2],
}

impl MnkAux {
    /// The window evaluation from the first player's view.
    pub fn eval(&self) -> i32 {
        self.eval
    }

    /// The empty cells where a stone of `player` would win at once.
    pub fn threats(&self, player: Player) -> &CellSet {
        &self.threats[player.index()]
    }
}

/// The cells where `player` wins at once, from scratch.
pub(crate) fn threats_of(game: &Mnk, player: Player) -> CellSet {
    let geometry = Geometry::of(game);
    // A winning line through a cell holds another stone of the player next to it (k > 1).
    let candidates = if geometry.k == 1 {
        *game.empty_cells()
    } else {
        game.stones(player)
            .dilated(game.config().stride())
            .and(game.empty_cells())
    };
    let mut threats = CellSet::EMPTY;
    for cell in candidates.iter() {
        if game.wins_at(cell, player) {
            threats.insert(cell);
        }
    }
    threats
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

/// Plays `game` to its end choosing uniformly among the empty cells next to a stone, keeping
/// that set up to date move by move rather than rescanning the board.
pub(crate) fn near_playout<R: rand::Rng + ?Sized>(game: &mut Mnk, rng: &mut R) -> Outcome {
    if let Some(outcome) = game.outcome() {
        return outcome;
    }
    let geometry = Geometry::of(game);
    let mut near = near_cells(game);
    loop {
        let count = near.len();
        // Only an empty board has no near cell (a board with stones and empty cells always has
        // an empty cell next to a stone); its first stone is random (or the centre by rule).
        let cell = if count == 0 {
            match game.random_move(rng) {
                Some(cell) => cell,
                None => return game.adjudicate(),
            }
        } else {
            match near.nth(rng.random_range(0..count)) {
                Some(cell) => cell,
                None => return game.adjudicate(),
            }
        };
        game.play_unchecked(cell);
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        near.remove(cell);
        near = near.or(&geometry.neighbours_in(cell, game.empty_cells()));
    }
}

impl AgentGame for Mnk {
    const FAMILY: Family = Family::Mnk;
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
        MnkAux {
            eval: window_eval(self),
            threats: [
                threats_of(self, Player::First),
                threats_of(self, Player::Second),
            ],
        }
    }

    fn aux_after(&self, aux: &MnkAux, cell: Cell, child: &Mnk) -> MnkAux {
        let mover = self.side_to_move();
        let eval = aux.eval + sign(mover) * window_gain(self, cell, mover);
        if child.is_over() {
            return MnkAux {
                eval,
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
        MnkAux { eval, threats }
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
        let theirs = &aux.threats[me.opponent().index()];
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

    #[inline]
    fn order_hint(&self, _aux: &MnkAux, cell: Cell) -> i32 {
        window_gain(self, cell, self.side_to_move())
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

    fn playout_near<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, _max_plies: u32) -> Outcome {
        near_playout(self, rng)
    }

    fn build_own(
        kind: &'static Kind,
        params: &Params<'_>,
    ) -> Result<Box<dyn Agent<Mnk>>, SpecError> {
        match kind.name {
            "easy" => Ok(Box::new(Easy::from_params(params)?)),
            "neighbor" => Ok(Box::new(Neighbor::from_params(params)?)),
            "mc-near" | "mc-par" => Ok(Box::new(FlatMc::from_params(kind, params)?)),
            "engine" => Ok(Box::new(crate::gomocup::Engine::from_params(params)?)),
            other => Err(SpecError::Unsupported {
                kind: other.to_string(),
                variant: Family::Mnk.name().to_string(),
                plays: kind.plays.describe().to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::AgentRng;

    fn random_positions(variant: &str, count: usize, seed: u64) -> Vec<Mnk> {
        let start = variant
            .parse::<rules::Variant>()
            .unwrap()
            .mnk()
            .unwrap()
            .start();
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
        let game = "tictactoe"
            .parse::<rules::Variant>()
            .unwrap()
            .mnk()
            .unwrap()
            .start()
            .play_line("b2")
            .unwrap();
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
            let start = variant
                .parse::<rules::Variant>()
                .unwrap()
                .mnk()
                .unwrap()
                .start();
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
