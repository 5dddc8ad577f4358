//! The two-player O An Quan exactly as it was before the game took 3 and 4 players (the 12-cell
//! implementation of commit 6221d35, kept verbatim but for the trait plumbing), as the
//! reference the generalised `rules::OanQuan` must match move for move.
#![allow(dead_code, clippy::all)]

use std::fmt;

use rules::{MoveError, MoveList, Outcome, Player, splitmix64};

const CELLS: usize = 12;
const MANDARIN_A: usize = 5;
const MANDARIN_B: usize = 11;
/// Small seeds on each square at the start.
const START_SEEDS: u16 = 5;

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
}

impl Default for OanQuanRules {
    fn default() -> Self {
        OanQuanRules {
            mandarin_value: 10,
            empty_mandarin: EmptyMandarin::Gap,
            young_mandarin: 0,
            empty_side: EmptySide::Borrow,
        }
    }
}

impl OanQuanRules {
    /// The starting position under these rules.
    pub fn start(self) -> OanQuan {
        OanQuan::new(self)
    }

    /// The total value on the board and in captures, constant over a game:
    /// 50 small seeds plus two mandarin pieces.
    pub fn total_value(&self) -> i32 {
        10 * i32::from(START_SEEDS) + 2 * i32::from(self.mandarin_value)
    }
}

impl fmt::Display for OanQuanRules {
    /// The variant id: `oanquan`, then a suffix for each parameter that is not canonical, in
    /// this order: `-mandarinN`, `-stop`, `-youngN`, `-end`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let canonical = OanQuanRules::default();
        f.write_str("oanquan")?;
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

/// A sowing direction relative to the player who sows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// `P` (phải, right): increasing index for player 1, decreasing for player 2.
    Right,
    /// `T` (trái, left): the opposite.
    Left,
}

/// A move: sow one of the mover's squares in a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sow {
    /// The ring index of the square (0-4 for player 1, 6-10 for player 2).
    pub square: u8,
    /// The direction, relative to the square's owner.
    pub direction: Direction,
}

impl Sow {
    /// The square's label as players type it: 1-5 for player 1, 10-6 for player 2.
    pub fn label(self) -> u8 {
        label_of(usize::from(self.square))
    }

    /// The player who owns the square.
    pub fn player(self) -> Player {
        if self.square < 5 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The ring step of this sowing: +1 or -1 (as 11) modulo 12.
    fn step(self) -> usize {
        match (self.player(), self.direction) {
            (Player::First, Direction::Right) | (Player::Second, Direction::Left) => 1,
            _ => CELLS - 1,
        }
    }
}

impl fmt::Display for Sow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = match self.direction {
            Direction::Right => 'P',
            Direction::Left => 'T',
        };
        write!(f, "{}{letter}", self.label())
    }
}

fn label_of(index: usize) -> u8 {
    if index < 5 {
        index as u8 + 1
    } else {
        16 - index as u8
    }
}

fn index_of(label: u8) -> usize {
    if label <= 5 {
        usize::from(label) - 1
    } else {
        16 - usize::from(label)
    }
}

#[inline]
fn is_mandarin(index: usize) -> bool {
    index == MANDARIN_A || index == MANDARIN_B
}

/// The squares of `player`, as ring indices in label order.
fn squares(player: Player) -> [usize; 5] {
    match player {
        Player::First => [0, 1, 2, 3, 4],
        _ => [10, 9, 8, 7, 6],
    }
}

/// A position of O An Quan.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OanQuan {
    rules: OanQuanRules,
    /// Small seeds per cell; the two mandarin cells count their seeds here too.
    seeds: [u16; CELLS],
    /// Whether mandarin cell A (index 0) and B (index 1) still hold their piece.
    pieces: [bool; 2],
    /// Captured value per player; negative after borrowing.
    captures: [i32; 2],
    to_move: Player,
    plies: u32,
    result: Option<Outcome>,
}

impl OanQuan {
    /// The starting position: 5 seeds on each square, a piece on each mandarin cell.
    pub fn new(rules: OanQuanRules) -> Self {
        let mut seeds = [START_SEEDS; CELLS];
        seeds[MANDARIN_A] = 0;
        seeds[MANDARIN_B] = 0;
        OanQuan {
            rules,
            seeds,
            pieces: [true; 2],
            captures: [0; 2],
            to_move: Player::First,
            plies: 0,
            result: None,
        }
    }

    /// A position from its parts, for tests and tools: small seeds per ring cell (mandarin
    /// cells included), whether mandarin A and B hold their piece, the captures, and the player
    /// to move. The ply count starts at 0; the game is over if both mandarin cells are empty.
    pub fn from_parts(
        rules: OanQuanRules,
        seeds: [u16; CELLS],
        pieces: [bool; 2],
        captures: [i32; 2],
        to_move: Player,
    ) -> Self {
        let mut position = OanQuan {
            rules,
            seeds,
            pieces,
            captures,
            to_move,
            plies: 0,
            result: None,
        };
        if position.cell_is_empty(MANDARIN_A) && position.cell_is_empty(MANDARIN_B) {
            position.result = Some(Self::decide(position.final_totals()));
        }
        position
    }

    /// The rule set.
    pub fn rules(&self) -> &OanQuanRules {
        &self.rules
    }

    /// The small seeds on ring cell `index` (0-11).
    pub fn seeds(&self, index: usize) -> u16 {
        self.seeds[index]
    }

    /// Whether the mandarin cell at ring index `index` (5 or 11) still holds its piece.
    pub fn has_piece(&self, index: usize) -> bool {
        match index {
            MANDARIN_A => self.pieces[0],
            MANDARIN_B => self.pieces[1],
            _ => false,
        }
    }

    /// The value held by ring cell `index`: its seeds, plus the piece's value on a mandarin cell.
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
    pub fn side_seeds(&self, player: Player) -> i32 {
        squares(player)
            .iter()
            .map(|&i| i32::from(self.seeds[i]))
            .sum()
    }

    /// The value on the board (seeds and pieces). With both captures it sums to
    /// [`OanQuanRules::total_value`].
    pub fn board_value(&self) -> i32 {
        (0..CELLS).map(|i| self.cell_value(i)).sum()
    }

    /// Whether `player` must refill an empty side before moving.
    pub fn must_refill(&self, player: Player) -> bool {
        self.side_seeds(player) == 0
    }

    #[inline]
    fn cell_is_empty(&self, index: usize) -> bool {
        self.seeds[index] == 0 && !self.has_piece(index)
    }

    fn piece_slot(index: usize) -> Option<usize> {
        match index {
            MANDARIN_A => Some(0),
            MANDARIN_B => Some(1),
            _ => None,
        }
    }

    fn capture(&mut self, player: Player, index: usize) {
        self.captures[player.index()] += self.cell_value(index);
        self.seeds[index] = 0;
        if let Some(slot) = Self::piece_slot(index) {
            self.pieces[slot] = false;
        }
    }

    /// Whether the capture rule may take the cell at `index` (the young-mandarin rule).
    fn capturable(&self, index: usize) -> bool {
        !(is_mandarin(index)
            && self.has_piece(index)
            && self.seeds[index] < u16::from(self.rules.young_mandarin))
    }

    /// Whether `index` counts as an empty gap that opens (or continues) a capture.
    fn is_gap(&self, index: usize) -> bool {
        self.cell_is_empty(index)
            && !(is_mandarin(index) && self.rules.empty_mandarin == EmptyMandarin::Stop)
    }

    /// Sows from `start`, relays, and captures, as one turn of `player`.
    fn sow(&mut self, player: Player, start: usize, step: usize) {
        let next = |i: usize| (i + step) % CELLS;
        let mut from = start;
        loop {
            let mut hand = std::mem::take(&mut self.seeds[from]);
            let mut at = from;
            while hand > 0 {
                at = next(at);
                self.seeds[at] += 1;
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
                self.capture(player, target);
                gap = next(target);
            }
            return;
        }
    }

    fn final_totals(&self) -> [i32; 2] {
        [Player::First, Player::Second].map(|p| self.captures[p.index()] + self.side_seeds(p))
    }

    fn decide(totals: [i32; 2]) -> Outcome {
        match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    fn move_for(&self, label: u8, direction: Direction) -> Sow {
        Sow {
            square: index_of(label) as u8,
            direction,
        }
    }
}

impl OanQuan {
    #[inline]
    pub fn side_to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    pub fn ply(&self) -> u32 {
        self.plies
    }

    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    pub fn legal_moves(&self, out: &mut MoveList<Sow>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let refill = self.must_refill(self.to_move);
        for index in squares(self.to_move) {
            if refill || self.seeds[index] > 0 {
                for direction in [Direction::Right, Direction::Left] {
                    out.push(Sow {
                        square: index as u8,
                        direction,
                    });
                }
            }
        }
    }

    #[inline]
    pub fn is_legal(&self, mv: Sow) -> bool {
        let index = usize::from(mv.square);
        self.result.is_none()
            && index < CELLS
            && !is_mandarin(index)
            && mv.player() == self.to_move
            && (self.seeds[index] > 0 || self.must_refill(self.to_move))
    }

    pub fn play_unchecked(&mut self, mv: Sow) {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in {self}");
        let player = self.to_move;
        if self.must_refill(player) {
            for index in squares(player) {
                self.seeds[index] = 1;
            }
            self.captures[player.index()] -= 5;
        }
        self.sow(player, usize::from(mv.square), mv.step());
        self.plies += 1;
        // This reference is the game of two players by its type: the turn passes to the other.
        self.to_move = player.next(2);
        let mandarins_empty = self.cell_is_empty(MANDARIN_A) && self.cell_is_empty(MANDARIN_B);
        let cannot_refill = self.rules.empty_side == EmptySide::End
            && self.must_refill(self.to_move)
            && self.captures[self.to_move.index()] < 5;
        if mandarins_empty || cannot_refill {
            self.result = Some(Self::decide(self.final_totals()));
        }
    }

    pub fn hash_key(&self) -> u64 {
        let mut h = splitmix64(u64::from(self.to_move == Player::Second));
        for chunk in self.seeds.chunks(4) {
            let word = chunk
                .iter()
                .fold(0u64, |acc, &s| (acc << 16) | u64::from(s));
            h = splitmix64(h ^ word);
        }
        let pieces = u64::from(self.pieces[0]) | (u64::from(self.pieces[1]) << 1);
        let captures = (self.captures[0] as u32 as u64) << 32 | (self.captures[1] as u32 as u64);
        splitmix64(splitmix64(h ^ pieces) ^ captures)
    }

    pub fn parse_move(&self, text: &str) -> Result<Sow, MoveError> {
        let trimmed = text.trim();
        let syntax = || MoveError::Syntax {
            text: trimmed.to_string(),
            expected: "a move is a square label 1-10 and a direction P or T (R or L), like `3P`"
                .into(),
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
        if !(1..=10).contains(&label) {
            return Err(MoveError::OffBoard {
                text: trimmed.to_string(),
                detail: format!(
                    "square {label} does not exist: player 1 has squares 1-5, player 2 has 6-10"
                ),
            });
        }
        let mv = self.move_for(label as u8, direction);
        if self.result.is_some() {
            return Err(MoveError::GameOver {
                text: mv.to_string(),
            });
        }
        if mv.player() != self.to_move {
            let (owner, range) = match self.to_move {
                Player::First => (2, "1-5"),
                _ => (1, "6-10"),
            };
            return Err(MoveError::Illegal {
                text: mv.to_string(),
                reason: format!(
                    "square {label} belongs to player {owner}; the player to move sows squares {range}"
                ),
            });
        }
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal {
                text: mv.to_string(),
                reason: format!("square {label} is empty"),
            });
        }
        Ok(mv)
    }

    pub fn format_move(&self, mv: Sow) -> String {
        mv.to_string()
    }

    pub fn adjudicate(&self) -> Outcome {
        self.result
            .unwrap_or_else(|| Self::decide(self.final_totals()))
    }

    pub fn totals(&self) -> Option<[i32; 2]> {
        Some(self.final_totals())
    }

    pub fn default_max_plies(&self) -> u32 {
        1000
    }
}

impl fmt::Display for OanQuan {
    /// The seed's display line: `[5, 5, 5, 5, 5] <10> [5, 5, 5, 5, 5] <10> (0 || 0)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |range: std::ops::Range<usize>| {
            range
                .map(|i| self.seeds[i].to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        write!(
            f,
            "[{}] <{}> [{}] <{}> ({} || {})",
            row(0..5),
            self.cell_value(MANDARIN_A),
            row(6..11),
            self.cell_value(MANDARIN_B),
            self.captures[0],
            self.captures[1]
        )
    }
}
