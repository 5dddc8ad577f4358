//! Othello on the 8x8 board, by OpenSpiel's `othello` rules.
//!
//! Black (`x`, the first player) and White (`o`) take turns putting a disc on an empty cell
//! such that, in at least one of the eight directions, the new disc and another disc of the
//! mover's enclose an unbroken run of the opponent's discs; every such run, in every
//! direction, turns to the mover's colour. The board starts with four discs in the centre:
//! White on d4 and e5, Black on e4 and d5. A player with no such move passes (the pass is
//! then their only legal move). The game ends as soon as neither player can put a disc (so
//! two passes in a row are never played: the move after which both would pass ends it), and
//! the player with more discs wins; equal counts draw.
//!
//! A move is a cell, its column letter (`a` on the left) and its row number (`1` on top), as
//! OpenSpiel writes them (`d3`), or the word `pass`. Actions are OpenSpiel's: `row * 8 +
//! col` for a cell and 64 for the pass.
//!
//! The board is two bitboards, bit `row * 8 + col`. Moves and turned discs are found by
//! shifting a bitboard one step in each direction (with the columns that would wrap masked
//! off), the usual technique of bitboard Othello programs.

use std::fmt;

use crate::registry::{Family, malformed};
use crate::{
    Game, Layout, MoveError, MoveList, MovePlace, Outcome, Place, Player, Step, Totals, Trace,
    TwoPlayer, Variant, VariantError, View, splitmix64,
};

/// The side of the board.
pub const SIDE: u8 = 8;

/// The cells of the board.
pub const CELLS: u8 = SIDE * SIDE;

/// Every cell but column `a`.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every cell but column `h`.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The eight directions, as `(shift, whether towards higher bits, mask of the cells a step
/// may land on)`: right, left, down, up, down-right, down-left, up-right, up-left.
const DIRECTIONS: [(u32, bool, u64); 8] = [
    (1, true, NOT_A),
    (1, false, NOT_H),
    (8, true, !0),
    (8, false, !0),
    (9, true, NOT_A),
    (7, true, NOT_H),
    (7, false, NOT_A),
    (9, false, NOT_H),
];

/// One step of every cell of `cells` in direction `dir` (cells that would leave the board
/// vanish).
#[inline(always)]
fn shift(cells: u64, dir: (u32, bool, u64)) -> u64 {
    let (by, up, mask) = dir;
    if up {
        (cells << by) & mask
    } else {
        (cells >> by) & mask
    }
}

/// The empty cells where `own` may put a disc against `theirs`.
#[inline]
pub fn moves_of(own: u64, theirs: u64) -> u64 {
    let empty = !(own | theirs);
    let mut moves = 0;
    for dir in DIRECTIONS {
        let mut run = shift(own, dir) & theirs;
        for _ in 0..5 {
            run |= shift(run, dir) & theirs;
        }
        moves |= shift(run, dir) & empty;
    }
    moves
}

/// The parameters of Othello: none yet (the 8x8 game); the type is the variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OthelloRules;

impl OthelloRules {
    /// The starting position.
    pub fn start(self) -> Othello {
        Othello::start()
    }
}

impl fmt::Display for OthelloRules {
    /// The variant id: `othello`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("othello")
    }
}

/// A move: a cell (`row * 8 + col`, row 0 on top) or the pass ([`Disc::PASS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Disc(pub u8);

impl Disc {
    /// The pass: the move of a player who cannot put a disc.
    pub const PASS: Disc = Disc(CELLS);

    /// Whether this is the pass.
    pub fn is_pass(self) -> bool {
        self == Disc::PASS
    }
}

/// A position of Othello.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    /// The discs of each player, bit `row * 8 + col`.
    discs: [u64; 2],
    to_move: Player,
    plies: u16,
    /// The cell of the last disc put; `None` at the start and after a pass.
    last: Option<u8>,
    /// Whether the last move was a pass.
    passed: bool,
    result: Option<Outcome>,
}

impl Othello {
    /// The starting position: White on d4 and e5, Black on e4 and d5, Black to move.
    pub fn start() -> Othello {
        let cell = |row: u8, col: u8| 1u64 << (row * SIDE + col);
        Othello {
            discs: [cell(3, 4) | cell(4, 3), cell(3, 3) | cell(4, 4)],
            to_move: Player::First,
            plies: 0,
            last: None,
            passed: false,
            result: None,
        }
    }

    /// A position with the given discs (bit `row * 8 + col`) and `to_move` to move, for
    /// tests and puzzles: over when neither side can move, and `to_move` passes when only the
    /// other one can. `None` when the two sets of discs overlap.
    pub fn from_discs(black: u64, white: u64, to_move: Player) -> Option<Othello> {
        if black & white != 0 || to_move.index() > 1 {
            return None;
        }
        let mut game = Othello {
            discs: [black, white],
            to_move,
            plies: 0,
            last: None,
            passed: false,
            result: None,
        };
        game.settle();
        Some(game)
    }

    /// The discs of `player` as a bitboard (bit `row * 8 + col`).
    #[inline]
    pub fn discs(&self, player: Player) -> u64 {
        self.discs[player.index()]
    }

    /// The disc on `cell` (`row * 8 + col`), if any.
    pub fn disc(&self, cell: u8) -> Option<Player> {
        let bit = 1u64.checked_shl(u32::from(cell)).unwrap_or(0);
        if self.discs[0] & bit != 0 {
            Some(Player::First)
        } else if self.discs[1] & bit != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The cells where `player` may put a disc now (whoever is to move).
    #[inline]
    pub fn moves(&self, player: Player) -> u64 {
        moves_of(self.discs[player.index()], self.discs[1 - player.index()])
    }

    /// Whether the last move was a pass.
    pub fn passed(&self) -> bool {
        self.passed
    }

    /// The name of `cell` (`row * 8 + col`): `d3`.
    pub fn cell_name(cell: u8) -> String {
        format!("{}{}", char::from(b'a' + cell % SIDE), cell / SIDE + 1)
    }

    /// The discs of `theirs` a disc of `own` on `cell` turns, direction by direction in the
    /// order of [`DIRECTIONS`], nearest first, told to `turn` one by one; returns them all.
    #[inline]
    fn turned(own: u64, theirs: u64, cell: u8, mut turn: impl FnMut(u8)) -> u64 {
        let from = 1u64 << cell;
        let mut all = 0;
        for dir in DIRECTIONS {
            let mut run = 0;
            let mut at = shift(from, dir);
            while at & theirs != 0 {
                run |= at;
                at = shift(at, dir);
            }
            if at & own != 0 && run != 0 {
                all |= run;
                let mut at = shift(from, dir);
                while at & run != 0 {
                    turn(at.trailing_zeros() as u8);
                    at = shift(at, dir);
                }
            }
        }
        all
    }

    /// After a change of the board: over by the disc count when neither side can move.
    fn settle(&mut self) {
        if self.moves(Player::First) == 0 && self.moves(Player::Second) == 0 {
            let (black, white) = self.counts();
            self.result = Some(match black.cmp(&white) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::First),
                std::cmp::Ordering::Less => Outcome::Win(Player::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            });
        }
    }

    /// The discs of Black and of White.
    pub fn counts(&self) -> (i32, i32) {
        (
            self.discs[0].count_ones() as i32,
            self.discs[1].count_ones() as i32,
        )
    }

    fn parse_cell(text: &str) -> Result<Disc, MoveError> {
        let trimmed = text.trim();
        if trimmed.eq_ignore_ascii_case("pass") {
            return Ok(Disc::PASS);
        }
        let syntax = || MoveError::Syntax {
            text: trimmed.to_string(),
            expected: "a move is a cell, a column letter from a to h and a row number from 1 \
                       to 8 (like d3), or `pass`"
                .to_string(),
        };
        let bytes = trimmed.as_bytes();
        if bytes.len() < 2
            || !bytes[0].is_ascii_alphabetic()
            || !bytes[1..].iter().all(u8::is_ascii_digit)
        {
            return Err(syntax());
        }
        let col = bytes[0].to_ascii_lowercase() - b'a';
        let row: u32 = trimmed[1..].parse().map_err(|_| syntax())?;
        if col >= SIDE || !(1..=u32::from(SIDE)).contains(&row) {
            return Err(MoveError::OffBoard {
                text: trimmed.to_string(),
                detail: "the board has columns a to h and rows 1 to 8".to_string(),
            });
        }
        Ok(Disc((row as u8 - 1) * SIDE + col))
    }

    /// Plays `mv` (legal), telling `trace` the disc put and each disc turned.
    #[inline]
    fn play_with<T: Trace>(&mut self, mv: Disc, trace: &mut T) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} in\n{self}");
        let mover = self.to_move;
        self.plies += 1;
        self.to_move = mover.next(2);
        if mv.is_pass() {
            self.last = None;
            self.passed = true;
            trace.step(Step::Pass { seat: mover });
            return;
        }
        trace.step(Step::Put {
            place: usize::from(mv.0),
            player: mover,
        });
        let (own, theirs) = (self.discs[mover.index()], self.discs[1 - mover.index()]);
        let turned = Othello::turned(own, theirs, mv.0, |cell| {
            trace.step(Step::Turn {
                place: usize::from(cell),
                player: mover,
            })
        });
        self.discs[mover.index()] |= turned | 1u64 << mv.0;
        self.discs[1 - mover.index()] &= !turned;
        self.last = Some(mv.0);
        self.passed = false;
        self.settle();
    }
}

impl Game for Othello {
    type Move = Disc;

    const FAMILY: &'static Family = &FAMILY;

    fn variant(&self) -> Variant {
        Variant::Othello(OthelloRules)
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

    fn legal_moves(&self, out: &mut MoveList<Disc>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let mut moves = self.moves(self.to_move);
        if moves == 0 {
            out.push(Disc::PASS);
        }
        while moves != 0 {
            out.push(Disc(moves.trailing_zeros() as u8));
            moves &= moves - 1;
        }
    }

    #[inline]
    fn is_legal(&self, mv: Disc) -> bool {
        if self.result.is_some() || mv.0 > CELLS {
            return false;
        }
        let moves = self.moves(self.to_move);
        if mv.is_pass() {
            moves == 0
        } else {
            moves >> mv.0 & 1 != 0
        }
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Disc) {
        self.play_with(mv, &mut ());
    }

    fn play_traced<T: Trace>(&mut self, mv: Disc, trace: &mut T) {
        self.play_with(mv, trace);
    }

    /// The discs of each side and the side to move, mixed.
    #[inline]
    fn hash_key(&self) -> u64 {
        splitmix64(self.discs[0] ^ splitmix64(self.discs[1] ^ 0x0e11_0e11))
            ^ (self.to_move.index() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn parse_move(&self, text: &str) -> Result<Disc, MoveError> {
        let mv = Othello::parse_cell(text)?;
        let name = self.format_move(mv);
        if self.result.is_some() {
            return Err(MoveError::GameOver { text: name });
        }
        if self.is_legal(mv) {
            return Ok(mv);
        }
        let reason = if mv.is_pass() {
            "a player passes only when they cannot put a disc".to_string()
        } else if self.disc(mv.0).is_some() {
            format!("{name} is taken")
        } else if self.moves(self.to_move) == 0 {
            format!(
                "{} cannot put a disc anywhere and must pass",
                self.seat_name(self.to_move)
            )
        } else {
            format!("a disc on {name} would turn no disc")
        };
        Err(MoveError::Illegal { text: name, reason })
    }

    fn format_move(&self, mv: Disc) -> String {
        if mv.is_pass() {
            "pass".to_string()
        } else {
            Othello::cell_name(mv.0)
        }
    }

    /// By the discs on the board, as at the end.
    fn adjudicate(&self) -> Outcome {
        self.result.unwrap_or_else(|| {
            let (black, white) = self.counts();
            match black.cmp(&white) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::First),
                std::cmp::Ordering::Less => Outcome::Win(Player::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            }
        })
    }

    fn totals(&self) -> Option<Totals> {
        let (black, white) = self.counts();
        Some([black, white].into_iter().collect())
    }

    fn totals_rule(&self) -> Option<String> {
        Some("the player with more discs on the board wins; equal counts draw".to_string())
    }

    /// 60 discs and at most one pass before each of them but the first: a game never reaches
    /// 120 plies, so the cap never decides one.
    fn default_max_plies(&self) -> u32 {
        2 * u32::from(CELLS - 4)
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
        "a cell: column letter and row number like d3 (row 1 on top), or `pass` when you \
         cannot put a disc"
            .to_string()
    }

    fn rule_line(&self) -> Option<String> {
        Some(
            "a disc must turn at least one of the opponent's; a player who cannot move passes; \
             the game ends when neither can"
                .to_string(),
        )
    }

    fn view(&self) -> View {
        let places = (0..CELLS)
            .map(|cell| match self.disc(cell) {
                Some(player) => Place::Stone(player),
                None => Place::Empty,
            })
            .collect();
        View {
            layout: Layout::Grid {
                rows: SIDE,
                cols: SIDE,
                gravity: false,
            },
            places,
            players: 2,
            scores: None,
            last: self.last.map(usize::from),
            last_from: None,
            line: Vec::new(),
            to_move: self.result.is_none().then_some(self.to_move),
            ply: self.ply(),
            notes: Vec::new(),
        }
    }

    /// The cell of the disc; a pass has no place (see [`Game::is_pass`]).
    fn move_place(&self, mv: Disc) -> MovePlace {
        MovePlace {
            place: usize::from(mv.0.min(CELLS - 1)),
            forward: None,
        }
    }

    fn is_pass(&self, mv: Disc) -> bool {
        mv.is_pass()
    }

    /// OpenSpiel's: the 64 cells row by row from a1, then the pass.
    fn num_actions(&self) -> usize {
        usize::from(CELLS) + 1
    }

    #[inline]
    fn action(&self, mv: Disc) -> Option<u32> {
        (mv.0 <= CELLS).then_some(u32::from(mv.0))
    }

    #[inline]
    fn move_of(&self, action: u32) -> Option<Disc> {
        (action <= u32::from(CELLS)).then_some(Disc(action as u8))
    }

    #[inline]
    fn random_move<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Disc> {
        if self.result.is_some() {
            return None;
        }
        let mut moves = self.moves(self.to_move);
        let count = moves.count_ones();
        if count == 0 {
            return Some(Disc::PASS);
        }
        for _ in 0..rand::RngExt::random_range(rng, 0..count) {
            moves &= moves - 1;
        }
        Some(Disc(moves.trailing_zeros() as u8))
    }
}

impl fmt::Display for Othello {
    /// The board as people see it, row 1 on top: `x` (Black), `o` (White) and `.`, the last
    /// disc in parentheses, the column letters above and below, the row numbers beside.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "   a  b  c  d  e  f  g  h")?;
        for row in 0..SIDE {
            write!(f, "{}", row + 1)?;
            for col in 0..SIDE {
                let cell = row * SIDE + col;
                let mark = match self.disc(cell) {
                    Some(Player::First) => 'x',
                    Some(_) => 'o',
                    None => '.',
                };
                if self.last == Some(cell) {
                    write!(f, "({mark})")?;
                } else {
                    write!(f, " {mark} ")?;
                }
            }
            writeln!(f, " {}", row + 1)?;
        }
        writeln!(f, "   a  b  c  d  e  f  g  h")
    }
}

/// Every Othello board seats two: Black (`First`) and White (`Second`).
impl TwoPlayer for Othello {}

/// Othello in the registry.
pub const FAMILY: Family = Family {
    name: "othello",
    title: "Othello",
    ids: "`othello` (8x8)",
    example: "othello",
    aliases: &[("reversi", "othello")],
    players: (2, 2),
    presets: &[],
    help: &[
        "Othello: othello  (8x8, OpenSpiel's rules; alias reversi)",
        "      a disc must turn at least one of the opponent's; a player who cannot move passes; the game ends when neither can",
        "      moves: a cell, column letter and row number (d3, row 1 on top), or pass",
    ],
    parse: |given, id| {
        (id == "othello" || id.starts_with("othello-")).then(|| {
            if id == "othello" {
                Ok(Variant::Othello(OthelloRules))
            } else {
                Err(parse_error(given))
            }
        })
    },
};

fn parse_error(id: &str) -> VariantError {
    malformed(id, "Othello has one variant, `othello` (8x8)")
}
