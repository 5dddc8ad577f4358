//! O An Quan (Ô ăn quan), the Vietnamese mancala, with the rules of the seed report as the
//! canonical variant and the variant parameters of `oanquan.md`, for 2, 3 or 4 players
//! (`oanquan-multi.md`).
//!
//! The board is a ring of 6N cells in sowing order for N players: seat s owns the five squares
//! 6s..6s+4, and 6s+5 is a mandarin cell. With two players this is the canonical ring: player
//! 1's squares are indices 0-4 (labels 1-5), mandarin cell A is index 5, player 2's squares
//! are indices 6-10 (labels 10, 9, 8, 7, 6) and mandarin cell B is index 11. A move names one
//! of the mover's squares and a direction: with two players relative to the mover (`3P` sows
//! player 1's third square to the right, increasing index; `7T` sows player 2's square 7 to the
//! left, for player 2 increasing index); with three or four players squares are labelled
//! 1..5N along increasing index and `P` always sows towards increasing index (`12P`, `7T`).

use std::fmt;

use crate::registry::{Family, malformed};
use crate::{
    Game, Layout, MAX_PLAYERS, MoveError, MoveList, MovePlace, Outcome, Place, Player, Ranking,
    Step, Totals, Trace, Variant, VariantError, View, splitmix64,
};

/// The most cells a ring has: 6 per player.
pub const MAX_CELLS: usize = 6 * MAX_PLAYERS;
/// Small seeds on each square at the start.
const START_SEEDS: u8 = 5;

/// What an empty mandarin cell does when the capture rule looks at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EmptyMandarin {
    /// An empty mandarin cell works as an empty cell: it opens a capture (canonical).
    #[default]
    Gap,
    /// Any mandarin cell after the last seed ends the turn, and an empty one never opens a
    /// capture or continues a chain.
    Stop,
}

/// What happens when the player to move has no seeds on their five squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EmptySide {
    /// They put one seed on each square from their captures, borrowing (going negative) when
    /// they hold fewer than 5 (canonical).
    #[default]
    Borrow,
    /// They refill if they can pay 5; if they cannot, the game ends.
    End,
}

/// The variant parameters of O An Quan; `Default` is the canonical rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OanQuanRules {
    /// The value of a mandarin piece (canonical 10).
    pub mandarin_value: u8,
    /// How an empty mandarin cell takes part in captures (canonical `gap`).
    pub empty_mandarin: EmptyMandarin,
    /// "Quan non": a mandarin cell holding its piece and fewer than this many seeds cannot be
    /// captured (0 = off, canonical).
    pub young_mandarin: u8,
    /// What an empty side does at the start of its turn (canonical `borrow`).
    pub empty_side: EmptySide,
    /// The number of players, 2 to 4 (canonical 2): a ring of 6 cells per player.
    pub players: u8,
}

impl Default for OanQuanRules {
    fn default() -> Self {
        OanQuanRules {
            mandarin_value: 10,
            empty_mandarin: EmptyMandarin::Gap,
            young_mandarin: 0,
            empty_side: EmptySide::Borrow,
            players: 2,
        }
    }
}

impl OanQuanRules {
    /// The starting position under these rules.
    pub fn start(self) -> OanQuan {
        OanQuan::new(self)
    }

    /// The same rules for `players` players (2 to 4).
    pub fn with_players(mut self, players: u8) -> Self {
        self.players = players;
        self
    }

    /// The total value on the board and in captures, constant over a game: 25 small seeds
    /// and one mandarin piece per player (70, 105, 140 for 2, 3, 4 players canonically).
    pub fn total_value(&self) -> i32 {
        let players = i32::from(self.players);
        5 * i32::from(START_SEEDS) * players + players * i32::from(self.mandarin_value)
    }

    /// The number of cells of the ring: 6 per player.
    pub fn cells(&self) -> usize {
        6 * usize::from(self.players)
    }
}

impl fmt::Display for OanQuanRules {
    /// The variant id: `oanquan`, then a suffix for each parameter that is not canonical, in
    /// this order: `-3p`/`-4p`, `-mandarinN`, `-stop`, `-youngN`, `-end`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let canonical = OanQuanRules::default();
        f.write_str("oanquan")?;
        if self.players != canonical.players {
            write!(f, "-{}p", self.players)?;
        }
        if self.mandarin_value != canonical.mandarin_value {
            write!(f, "-mandarin{}", self.mandarin_value)?;
        }
        if self.empty_mandarin == EmptyMandarin::Stop {
            f.write_str("-stop")?;
        }
        if self.young_mandarin != 0 {
            write!(f, "-young{}", self.young_mandarin)?;
        }
        if self.empty_side == EmptySide::End {
            f.write_str("-end")?;
        }
        Ok(())
    }
}

/// A sowing direction: relative to the player who sows with two players, absolute with more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// `P` (phải, right): increasing index for player 1 of two and for every player of three
    /// or four; decreasing for player 2 of two.
    Right,
    /// `T` (trái, left): the opposite.
    Left,
}

/// A move: sow one of the mover's squares in a direction. Like every move it means something
/// only with its position: the notation (`3P`) and the sense of `P` depend on the number of
/// players, so it is written by [`Game::format_move`] (two bytes keep move lists small).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sow {
    /// The ring index of the square (6s..6s+4 for seat s: 0-4 for player 1, 6-10 for player 2).
    pub square: u8,
    /// The direction (see [`Direction`]).
    pub direction: Direction,
}

impl Sow {
    /// The move that sows the square at ring index `square` towards `direction`.
    pub const fn new(square: u8, direction: Direction) -> Sow {
        Sow { square, direction }
    }

    /// The square's label as players type it in a game of `players` players: 1-5 for player 1
    /// and 10-6 for player 2 of two; 1..5N along the ring for three or four players.
    pub fn label(self, players: u8) -> u8 {
        label_of(usize::from(self.square), players)
    }

    /// The player who owns the square.
    pub fn player(self) -> Player {
        Player::seat(usize::from(self.square) / 6 % MAX_PLAYERS)
    }

    /// Whether this sowing runs towards increasing ring index in a game of `players`.
    #[inline]
    fn forward(self, players: u8) -> bool {
        (self.direction == Direction::Right) != (players == 2 && self.square >= 6)
    }

    /// The move in the notation of a game of `players` players: `3P`, `12T`.
    pub fn text(self, players: u8) -> String {
        let letter = match self.direction {
            Direction::Right => 'P',
            Direction::Left => 'T',
        };
        format!("{}{letter}", self.label(players))
    }
}

fn label_of(index: usize, players: u8) -> u8 {
    if players == 2 {
        if index < 5 {
            index as u8 + 1
        } else {
            16 - index as u8
        }
    } else {
        (5 * (index / 6) + index % 6 + 1) as u8
    }
}

fn index_of(label: u8, players: u8) -> usize {
    if players == 2 {
        if label <= 5 {
            usize::from(label) - 1
        } else {
            16 - usize::from(label)
        }
    } else {
        let zero = usize::from(label) - 1;
        6 * (zero / 5) + zero % 5
    }
}

/// Bit `i` set for every ring index `i` that is a mandarin cell (5, 11, 17, 23).
const MANDARIN_CELLS: u32 = 1 << 5 | 1 << 11 | 1 << 17 | 1 << 23;

#[inline]
fn is_mandarin(index: usize) -> bool {
    (MANDARIN_CELLS >> index) & 1 != 0
}

/// The squares of `player`, as ring indices in label order (player 2 of two: 10, 9, 8, 7, 6).
#[inline]
fn squares(player: Player, players: u8) -> [usize; 5] {
    let base = 6 * player.index();
    if players == 2 && base == 6 {
        [10, 9, 8, 7, 6]
    } else {
        [base, base + 1, base + 2, base + 3, base + 4]
    }
}

/// A position of O An Quan.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OanQuan {
    rules: OanQuanRules,
    /// Small seeds per cell (the first `6 * players`); mandarin cells count their seeds here too.
    seeds: [u8; MAX_CELLS],
    /// Bit `i` is set while the mandarin cell at ring index `i` (6s+5) holds its piece: one
    /// shift tells whether any cell holds one, and all are gone when the word is 0.
    pieces: u32,
    /// Captured value per seat; negative after borrowing.
    captures: [i32; MAX_PLAYERS],
    to_move: Player,
    plies: u32,
    result: Option<Outcome>,
}

impl OanQuan {
    /// The starting position: 5 seeds on each square, a piece on each mandarin cell.
    ///
    /// # Panics
    /// If `rules.players` is not 2, 3 or 4 (variant ids never give another count).
    pub fn new(rules: OanQuanRules) -> Self {
        assert!(
            (2..=MAX_PLAYERS as u8).contains(&rules.players),
            "O An Quan is played by 2 to 4 players"
        );
        let mut seeds = [0; MAX_CELLS];
        for (index, cell) in seeds.iter_mut().enumerate().take(rules.cells()) {
            if !is_mandarin(index) {
                *cell = START_SEEDS;
            }
        }
        let pieces = MANDARIN_CELLS & ((1u32 << rules.cells()) - 1);
        OanQuan {
            rules,
            seeds,
            pieces,
            captures: [0; MAX_PLAYERS],
            to_move: Player::First,
            plies: 0,
            result: None,
        }
    }

    /// A two-player position from its parts, for tests and tools: small seeds per ring cell
    /// (mandarin cells included), whether mandarin A and B hold their piece, the captures, and
    /// the player to move. The ply count starts at 0; the game is over if both mandarin cells
    /// are empty.
    ///
    /// # Panics
    /// If `rules` are not for two players, or a cell holds more than 255 seeds.
    pub fn from_parts(
        rules: OanQuanRules,
        seeds: [u16; 12],
        pieces: [bool; 2],
        captures: [i32; 2],
        to_move: Player,
    ) -> Self {
        assert_eq!(rules.players, 2, "from_parts builds two-player positions");
        Self::from_ring(rules, &seeds, &pieces, &captures, to_move)
    }

    /// A position of any number of players from its parts: small seeds per ring cell (6 per
    /// player, mandarin cells included), whether each mandarin cell holds its piece, each
    /// seat's captures, and the seat to move. The ply count starts at 0; the game is over if
    /// every mandarin cell is empty.
    ///
    /// # Panics
    /// If the lengths do not match `rules.players`, or a cell holds more than 255 seeds.
    pub fn from_ring(
        rules: OanQuanRules,
        seeds: &[u16],
        pieces: &[bool],
        captures: &[i32],
        to_move: Player,
    ) -> Self {
        let mut position = OanQuan::new(rules);
        let players = usize::from(rules.players);
        assert!(
            seeds.len() == rules.cells() && pieces.len() == players && captures.len() == players,
            "a ring of {players} players has {} cells, {players} pieces and {players} captures",
            rules.cells()
        );
        assert!(
            to_move.index() < players,
            "no seat {to_move:?} at this table"
        );
        for (cell, &count) in position.seeds.iter_mut().zip(seeds) {
            *cell = u8::try_from(count).expect("at most 255 seeds on a cell");
        }
        position.pieces = pieces
            .iter()
            .enumerate()
            .filter(|(_, held)| **held)
            .fold(0, |mask, (seat, _)| mask | 1 << (6 * seat + 5));
        position.captures[..players].copy_from_slice(captures);
        position.to_move = to_move;
        if position.mandarins_empty() {
            position.result = Some(position.decide(&position.final_totals()));
        }
        position
    }

    /// The rule set.
    pub fn rules(&self) -> &OanQuanRules {
        &self.rules
    }

    /// The number of cells of the ring (6 per player).
    pub fn cells(&self) -> usize {
        self.rules.cells()
    }

    /// The small seeds on ring cell `index` (0 to `cells() - 1`).
    pub fn seeds(&self, index: usize) -> u16 {
        u16::from(self.seeds[index])
    }

    /// Whether ring cell `index` is a mandarin cell (6s+5).
    pub fn is_mandarin(index: usize) -> bool {
        is_mandarin(index)
    }

    /// Whether the mandarin cell at ring index `index` still holds its piece.
    #[inline]
    pub fn has_piece(&self, index: usize) -> bool {
        (self.pieces >> index) & 1 != 0
    }

    /// The value held by ring cell `index`: its seeds, plus the piece's value on a mandarin cell.
    #[inline]
    pub fn cell_value(&self, index: usize) -> i32 {
        let piece = if self.has_piece(index) {
            i32::from(self.rules.mandarin_value)
        } else {
            0
        };
        i32::from(self.seeds[index]) + piece
    }

    /// What `player` has captured so far (negative after borrowing).
    pub fn captures(&self, player: Player) -> i32 {
        self.captures[player.index()]
    }

    /// The seeds on `player`'s five squares.
    #[inline]
    pub fn side_seeds(&self, player: Player) -> i32 {
        self.side(player).iter().map(|&s| i32::from(s)).sum()
    }

    /// The five squares of `player`, in ring order. (A seat is below 4, so the compiler sees
    /// that the slice is inside the ring and checks no bounds.)
    #[inline]
    fn side(&self, player: Player) -> &[u8; 5] {
        let base = 6 * (player.index() & 3);
        self.seeds[base..base + 5].try_into().expect("five squares")
    }

    /// The squares of `player` as ring indices, in label order.
    pub fn squares(&self, player: Player) -> [usize; 5] {
        squares(player, self.rules.players)
    }

    /// The value on the board (seeds and pieces). With every capture it sums to
    /// [`OanQuanRules::total_value`].
    pub fn board_value(&self) -> i32 {
        (0..self.cells()).map(|i| self.cell_value(i)).sum()
    }

    /// Whether `player` must refill an empty side before moving.
    #[inline]
    pub fn must_refill(&self, player: Player) -> bool {
        self.side_seeds(player) == 0
    }

    /// The move sowing the square labelled `label` towards `direction` (`None` for a label
    /// that is not on this ring).
    pub fn sow_of(&self, label: u8, direction: Direction) -> Option<Sow> {
        let players = self.rules.players;
        let count = if players == 2 { 10 } else { 5 * players };
        (1..=count)
            .contains(&label)
            .then(|| Sow::new(index_of(label, players) as u8, direction))
    }

    #[inline]
    fn cell_is_empty(&self, index: usize) -> bool {
        self.seeds[index] == 0 && !self.has_piece(index)
    }

    #[inline]
    fn mandarins_empty(&self) -> bool {
        self.pieces == 0 && (5..self.cells()).step_by(6).all(|i| self.seeds[i] == 0)
    }

    fn capture(&mut self, player: Player, index: usize) {
        self.captures[player.index()] += self.cell_value(index);
        self.seeds[index] = 0;
        self.pieces &= !(1 << index);
    }

    /// Whether the capture rule may take the cell at `index` (the young-mandarin rule).
    fn capturable(&self, index: usize) -> bool {
        !(is_mandarin(index)
            && self.has_piece(index)
            && self.seeds[index] < self.rules.young_mandarin)
    }

    /// Whether `index` counts as an empty gap that opens (or continues) a capture.
    fn is_gap(&self, index: usize) -> bool {
        self.cell_is_empty(index)
            && !(is_mandarin(index) && self.rules.empty_mandarin == EmptyMandarin::Stop)
    }

    /// Sows from `start`, relays, and captures, as one turn of `player`, telling `trace`
    /// every step (`()` keeps none, and compiles to the loop without steps).
    #[inline]
    fn sow<T: Trace>(&mut self, player: Player, start: usize, forward: bool, trace: &mut T) {
        // One copy of the loop per ring size, so that stepping round it is a remainder by a
        // constant, as it was when the ring always had 12 cells.
        match self.rules.players {
            2 => self.sow_ring::<12, T>(player, start, forward, trace),
            3 => self.sow_ring::<18, T>(player, start, forward, trace),
            _ => self.sow_ring::<24, T>(player, start, forward, trace),
        }
    }

    fn sow_ring<const CELLS: usize, T: Trace>(
        &mut self,
        player: Player,
        start: usize,
        forward: bool,
        trace: &mut T,
    ) {
        let step = if forward { 1 } else { CELLS - 1 };
        // `i + step` is below twice the ring: one conditional subtraction instead of a
        // remainder keeps the seed-by-seed chain to a compare and a move (the loop is bound by
        // it, one step per seed).
        let next = |i: usize| {
            let j = i + step;
            if j >= CELLS { j - CELLS } else { j }
        };
        let mut from = start;
        loop {
            let mut hand = std::mem::take(&mut self.seeds[from]);
            trace.step(Step::Pick {
                place: from,
                seeds: u16::from(hand),
            });
            let mut at = from;
            while hand > 0 {
                at = next(at);
                self.seeds[at] += 1;
                trace.step(Step::Drop { place: at });
                hand -= 1;
            }
            let after = next(at);
            if !is_mandarin(after) && self.seeds[after] > 0 {
                from = after; // relay
                continue;
            }
            let mut gap = after;
            while self.is_gap(gap) {
                let target = next(gap);
                if self.cell_is_empty(target) || !self.capturable(target) {
                    break;
                }
                trace.step(Step::Capture {
                    place: target,
                    value: self.cell_value(target),
                    seat: player,
                });
                self.capture(player, target);
                gap = next(target);
            }
            return;
        }
    }

    fn final_totals(&self) -> Totals {
        Player::all(usize::from(self.rules.players))
            .map(|p| self.captures[p.index()] + self.side_seeds(p))
            .collect()
    }

    fn decide(&self, totals: &[i32]) -> Outcome {
        if totals.len() == 2 {
            match totals[0].cmp(&totals[1]) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::First),
                std::cmp::Ordering::Less => Outcome::Win(Player::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            }
        } else {
            Outcome::Ranked(Ranking::from_totals(totals))
        }
    }

    /// The labels of `player`'s squares, as text for messages: `1-5`, `6-10`, `11-15`.
    fn label_range(&self, player: Player) -> String {
        if self.rules.players == 2 {
            if player == Player::First {
                "1-5"
            } else {
                "6-10"
            }
            .to_string()
        } else {
            let first = 5 * player.index() + 1;
            format!("{first}-{}", first + 4)
        }
    }
}

impl OanQuan {
    /// [`Game::hash_key`] for a ring of `CELLS` cells and `PLAYERS` seats. Two-player keys are
    /// those of the original 12-cell layout, bit for bit, so that transposition tables (and
    /// the games they decide) behave exactly as before.
    #[inline]
    fn hash_ring<const CELLS: usize, const PLAYERS: usize>(&self) -> u64 {
        let mut h = splitmix64(self.to_move.index() as u64);
        for chunk in self.seeds[..CELLS].chunks(4) {
            let word = chunk
                .iter()
                .fold(0u64, |acc, &s| (acc << 16) | u64::from(s));
            h = splitmix64(h ^ word);
        }
        let pieces = (0..PLAYERS).fold(0u64, |acc, seat| {
            acc | (u64::from(self.pieces >> (6 * seat + 5)) & 1) << seat
        });
        let mut h = splitmix64(h ^ pieces);
        for pair in self.captures[..PLAYERS].chunks(2) {
            let word = match *pair {
                [a, b] => (a as u32 as u64) << 32 | (b as u32 as u64),
                [a] => (a as u32 as u64) << 32,
                _ => 0,
            };
            h = splitmix64(h ^ word);
        }
        h
    }
}

impl OanQuan {
    /// One turn: the refill of an empty side, the sowing, and the end of the game if it ends.
    #[inline]
    fn play_with<T: Trace>(&mut self, mv: Sow, trace: &mut T) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} in {self}");
        let player = self.to_move;
        if self.must_refill(player) {
            let base = 6 * player.index();
            self.seeds[base..base + 5].fill(1);
            self.captures[player.index()] -= 5;
            trace.step(Step::Refill {
                seat: player,
                cost: 5,
            });
        }
        self.sow(
            player,
            usize::from(mv.square),
            mv.forward(self.rules.players),
            trace,
        );
        self.plies += 1;
        self.to_move = player.next(usize::from(self.rules.players));
        let cannot_refill = self.rules.empty_side == EmptySide::End
            && self.must_refill(self.to_move)
            && self.captures[self.to_move.index()] < 5;
        if cannot_refill || self.mandarins_empty() {
            self.result = Some(self.decide(&self.final_totals()));
        }
    }

    /// The ring indices of the squares of the player to move, in label order (actions).
    #[inline]
    fn own_squares(&self) -> [usize; 5] {
        self.squares(self.to_move)
    }
}

impl Game for OanQuan {
    type Move = Sow;

    fn totals_rule(&self) -> Option<String> {
        Some(
            "The totals decide: each side's points plus the seeds left on its own side. \
             Equal totals share a place (=)."
                .to_string(),
        )
    }

    fn rule_line(&self) -> Option<String> {
        let mut said = vec![
            match self.rules.empty_side {
                EmptySide::Borrow => {
                    "A player whose squares are all empty puts one seed on each from their \
                 points, borrowing when they have fewer than 5."
                }
                EmptySide::End => {
                    "A player whose squares are all empty puts one seed on each from their \
                 points; one who cannot pay 5 ends the game."
                }
            }
            .to_string(),
        ];
        if self.rules.empty_mandarin == EmptyMandarin::Stop {
            said.push("A mandarin cell after the last seed ends the turn.".to_string());
        }
        if self.rules.young_mandarin > 0 {
            said.push(format!(
                "A mandarin with fewer than {} seeds cannot be captured.",
                self.rules.young_mandarin
            ));
        }
        Some(said.join(" "))
    }

    const FAMILY: &'static Family = &FAMILY;

    fn variant(&self) -> Variant {
        Variant::OanQuan(self.rules)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn num_players(&self) -> usize {
        usize::from(self.rules.players)
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.plies
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    fn legal_moves(&self, out: &mut MoveList<Sow>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let side = self.side(self.to_move);
        let refill = side.iter().all(|&s| s == 0);
        let base = 6 * (self.to_move.index() & 3);
        // Label order: along the ring, but player 2 of two counts its squares 6-10 backwards.
        let backwards = self.rules.players == 2 && base == 6;
        for k in 0..5 {
            let at = if backwards { 4 - k } else { k };
            if refill || side[at] > 0 {
                let square = (base + at) as u8;
                out.push(Sow::new(square, Direction::Right));
                out.push(Sow::new(square, Direction::Left));
            }
        }
    }

    #[inline]
    fn is_legal(&self, mv: Sow) -> bool {
        let index = usize::from(mv.square);
        self.result.is_none()
            && index < self.cells()
            && !is_mandarin(index)
            && mv.player() == self.to_move
            && (self.seeds[index] > 0 || self.must_refill(self.to_move))
    }

    fn play_unchecked(&mut self, mv: Sow) {
        self.play_with(mv, &mut ());
    }

    fn play_traced<T: Trace>(&mut self, mv: Sow, trace: &mut T) {
        self.play_with(mv, trace);
    }

    fn hash_key(&self) -> u64 {
        match self.rules.players {
            2 => self.hash_ring::<12, 2>(),
            3 => self.hash_ring::<18, 3>(),
            _ => self.hash_ring::<24, 4>(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Sow, MoveError> {
        let trimmed = text.trim();
        let players = self.rules.players;
        let count = if players == 2 {
            10
        } else {
            5 * u16::from(players)
        };
        let syntax = || MoveError::Syntax {
            text: trimmed.to_string(),
            expected: format!(
                "a move is a square label 1-{count} and a direction P or T (R or L), like `3P`"
            ),
        };
        let last = trimmed.chars().last().ok_or_else(syntax)?;
        let direction = match last.to_ascii_uppercase() {
            'P' | 'R' => Direction::Right,
            'T' | 'L' => Direction::Left,
            _ => return Err(syntax()),
        };
        let digits = trimmed[..trimmed.len() - last.len_utf8()].trim();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
            return Err(syntax());
        }
        let label: u16 = digits.parse().map_err(|_| syntax())?;
        let mv = match u8::try_from(label)
            .ok()
            .and_then(|l| self.sow_of(l, direction))
        {
            Some(mv) => mv,
            None => {
                let detail = if players == 2 {
                    format!(
                        "square {label} does not exist: player 1 has squares 1-5, player 2 has 6-10"
                    )
                } else {
                    format!(
                        "square {label} does not exist: the {players} players have squares 1-{count}, \
                         five each (player 1: 1-5, player 2: 6-10, ...)"
                    )
                };
                return Err(MoveError::OffBoard {
                    text: trimmed.to_string(),
                    detail,
                });
            }
        };
        if self.result.is_some() {
            return Err(MoveError::GameOver {
                text: self.format_move(mv),
            });
        }
        if mv.player() != self.to_move {
            return Err(MoveError::Illegal {
                text: self.format_move(mv),
                reason: format!(
                    "square {label} belongs to player {}; the player to move sows squares {}",
                    mv.player().index() + 1,
                    self.label_range(self.to_move)
                ),
            });
        }
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal {
                text: self.format_move(mv),
                reason: format!("square {label} is empty"),
            });
        }
        Ok(mv)
    }

    fn format_move(&self, mv: Sow) -> String {
        mv.text(self.rules.players)
    }

    fn adjudicate(&self) -> Outcome {
        self.result
            .unwrap_or_else(|| self.decide(&self.final_totals()))
    }

    fn totals(&self) -> Option<Totals> {
        Some(self.final_totals())
    }

    fn default_max_plies(&self) -> u32 {
        1000
    }

    fn move_help(&self) -> String {
        let squares: Vec<String> = Player::all(self.num_players())
            .map(|seat| {
                let sows = if seat == Player::First { " sows" } else { "" };
                format!(
                    "player {}{sows} squares {}",
                    seat.index() + 1,
                    self.label_range(seat)
                )
            })
            .collect();
        let directions = if self.num_players() == 2 {
            "P (or R) sows to the right along your row as drawn, T (or L) to the left"
        } else {
            "P (or R) sows towards higher labels (down the table as drawn, from the last row on \
             to the first), T (or L) towards lower"
        };
        format!(
            "a square label and a direction like 3P: {}; {directions}",
            squares.join(", ")
        )
    }

    fn view(&self) -> View {
        let players = self.rules.players;
        let places = (0..self.cells())
            .map(|index| {
                let mandarin = is_mandarin(index);
                Place::Pit {
                    seeds: u16::from(self.seeds[index]),
                    piece: mandarin && self.has_piece(index),
                    // Mandarin cell A follows player 1's squares, B player 2's, and so on.
                    label: Some(if mandarin {
                        char::from(b'A' + (index / 6) as u8).to_string()
                    } else {
                        Sow::new(index as u8, Direction::Right)
                            .label(players)
                            .to_string()
                    }),
                }
            })
            .collect();
        View {
            layout: Layout::Ring {
                per_side: 6,
                big_last: true,
                forward: Player::all(usize::from(players))
                    .map(|seat| Sow::new(6 * seat.index() as u8, Direction::Right).forward(players))
                    .collect(),
            },
            places,
            players: usize::from(players),
            scores: Some(self.captures[..usize::from(players)].to_vec()),
            last: None,
            last_from: None,
            line: Vec::new(),
            to_move: self.result.is_none().then_some(self.to_move),
            ply: self.plies,
            notes: vec![("mandarin", i64::from(self.rules.mandarin_value))],
        }
    }

    fn move_place(&self, mv: Sow) -> MovePlace {
        MovePlace {
            place: usize::from(mv.square),
            forward: Some(mv.forward(self.rules.players)),
        }
    }

    /// From the view of the player to move: `2 * k + d`, where `k` (0 to 4) is the rank of the
    /// square among that player's five in label order and `d` is 0 for `P` and 1 for `T`;
    /// 10 actions whatever the number of players (player 1's `3P` is 4, player 2's `8P` too).
    fn num_actions(&self) -> usize {
        10
    }

    #[inline]
    fn action(&self, sow: Sow) -> Option<u32> {
        let rank = self
            .own_squares()
            .iter()
            .position(|&square| square == usize::from(sow.square))?;
        let direction = match sow.direction {
            Direction::Right => 0,
            Direction::Left => 1,
        };
        Some(2 * rank as u32 + direction)
    }

    #[inline]
    fn move_of(&self, action: u32) -> Option<Sow> {
        if action >= 10 {
            return None;
        }
        let square = self.own_squares()[(action / 2) as usize];
        let direction = if action.is_multiple_of(2) {
            Direction::Right
        } else {
            Direction::Left
        };
        Some(Sow::new(square as u8, direction))
    }
}

impl fmt::Display for OanQuan {
    /// The seed's display line, `[5, 5, 5, 5, 5] <10> [5, 5, 5, 5, 5] <10> (0 || 0)`, with the
    /// second side in ring order; for three or four players every side in ring order and the
    /// captures as `(0 | 0 | 0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |range: std::ops::Range<usize>| {
            range
                .map(|i| self.seeds[i].to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let players = usize::from(self.rules.players);
        for seat in 0..players {
            let base = 6 * seat;
            write!(
                f,
                "[{}] <{}> ",
                row(base..base + 5),
                self.cell_value(base + 5)
            )?;
        }
        let separator = if players == 2 { " || " } else { " | " };
        let captures = self.captures[..players]
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(separator);
        write!(f, "({captures})")
    }
}

/// O An Quan in the registry.
pub const FAMILY: Family = Family {
    name: "oanquan",
    title: "O An Quan",
    ids: "`oanquan` with optional suffixes like `-3p` or `-stop` (like `oanquan-mandarin5`)",
    example: "oanquan-3p",
    aliases: &[],
    players: (2, 4),
    presets: &[
        ("oanquan", "the seed's rules, two players"),
        ("oanquan-3p", "three players round a triangle"),
        ("oanquan-4p", "four players round a square"),
        (
            "oanquan-stop-young5",
            "an empty mandarin cell stops; a mandarin with fewer than 5 seeds cannot be captured",
        ),
    ],
    help: &[
        "O An Quan: oanquan[-3p|-4p][-mandarinN][-stop][-youngN][-end]",
        "    -3p, -4p: three or four players on a ring of 6 cells each (canonical: 2, also -2p)",
        "    -mandarinN: a mandarin piece is worth N (canonical 10)",
        "    -stop: an empty mandarin cell ends the turn instead of opening a capture (canonical: gap)",
        "    -youngN: a mandarin cell with its piece and fewer than N seeds cannot be captured (canonical: off)",
        "    -end: a player who must refill an empty side and cannot pay 5 ends the game (canonical: borrow)",
        "    examples: oanquan, oanquan-mandarin5, oanquan-stop-young5, oanquan-3p",
        "    moves: square label (1-5 player 1, 6-10 player 2) + direction P or T (R or L), like 3P",
        "    3-4 players: squares 1-15 or 1-20 along the ring (player 1: 1-5, player 2: 6-10, ...),",
        "               P towards increasing labels for everyone, like 12P",
    ],
    parse: |given, id| {
        (id == "oanquan" || id.starts_with("oanquan-"))
            .then(|| parse_oanquan(given, &id["oanquan".len()..]).map(Variant::OanQuan))
    },
};

fn parse_oanquan(id: &str, rest: &str) -> Result<OanQuanRules, VariantError> {
    let mut rules = OanQuanRules::default();
    let mut seen: Vec<&str> = Vec::new();
    for suffix in rest.split('-').skip(1) {
        if let Some(count) = suffix
            .strip_suffix('p')
            .filter(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()))
        {
            if seen.contains(&"players") {
                return Err(malformed(
                    id,
                    format!("`-{suffix}` sets the number of players twice"),
                ));
            }
            rules.players = match count.parse::<u8>() {
                Ok(n) if (2..=4).contains(&n) => n,
                _ => {
                    return Err(VariantError::OutOfRange(format!(
                        "`-{suffix}` in `{id}`: O An Quan is played by 2, 3 or 4 players"
                    )));
                }
            };
            seen.push("players");
            continue;
        }
        let (name, value) = match suffix.find(|c: char| c.is_ascii_digit()) {
            Some(at) => (&suffix[..at], Some(&suffix[at..])),
            None => (suffix, None),
        };
        // `-gap`/`-stop` and `-borrow`/`-end` set the same parameter.
        let parameter = match name {
            "gap" | "stop" => "empty-mandarin",
            "borrow" | "end" => "empty-side",
            other => other,
        };
        if seen.contains(&parameter) {
            return Err(malformed(
                id,
                format!("`-{name}` sets a parameter given twice"),
            ));
        }
        let number = |what: &str, low: u8, high: u8| -> Result<u8, VariantError> {
            let text = value.ok_or_else(|| {
                malformed(
                    id,
                    format!("`-{what}` needs a number, like `-{what}{high}`"),
                )
            })?;
            match text.parse::<u8>() {
                Ok(n) if (low..=high).contains(&n) => Ok(n),
                _ => Err(VariantError::OutOfRange(format!(
                    "`-{what}{text}` in `{id}`: {what} must be from {low} to {high}"
                ))),
            }
        };
        let flag = |what: &str| -> Result<(), VariantError> {
            match value {
                None => Ok(()),
                Some(_) => Err(malformed(id, format!("`-{what}` takes no number"))),
            }
        };
        match name {
            "mandarin" => rules.mandarin_value = number("mandarin", 1, 100)?,
            "young" => rules.young_mandarin = number("young", 0, 50)?,
            "stop" => {
                flag("stop")?;
                rules.empty_mandarin = EmptyMandarin::Stop;
            }
            "gap" => flag("gap")?,
            "end" => {
                flag("end")?;
                rules.empty_side = EmptySide::End;
            }
            "borrow" => flag("borrow")?,
            _ => {
                return Err(malformed(
                    id,
                    format!(
                        "unknown suffix `-{suffix}`: O An Quan takes `-3p` or `-4p`, \
                         `-mandarinN`, `-stop`, `-youngN` and `-end`"
                    ),
                ));
            }
        }
        seen.push(parameter);
    }
    Ok(rules)
}
