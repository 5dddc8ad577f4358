//! The games of the arena behind one [`Game`] trait: the m,n,k game ([`Mnk`]: tic-tac-toe,
//! the TD4 boards, gomoku and caro), the Vietnamese mancala O An Quan ([`OanQuan`]), Oware
//! abapa ([`oware::Oware`]) and Connect Four ([`Connect4`]).
//!
//! A game is a small `Clone` value. [`Game::play_unchecked`] changes it in place; the copy-make
//! [`Game::play`] checks the move and returns the next position. Legal moves go into a
//! caller's [`MoveList`], so generating them never allocates. Outcomes are absolute: in a
//! two-player game a [`Player`] wins or the game is drawn; a game of three or four players
//! (O An Quan for 3 and 4) ends with a [`Ranking`] of the seats. A game that has two players
//! by its type (m,n,k) implements [`TwoPlayer`], which names a seat's opponent; code for any
//! game asks the position its [`Game::num_players`].
//!
//! A [`Variant`] names a game and its parameters in one text form used everywhere (CLI,
//! experiment files, CSV): `mnk-15x15k5-caro`, `oanquan-stop`, `oanquan-3p`.
//!
//! ```
//! use rules::{Game, Mnk, Outcome, Player};
//!
//! let mut game: Mnk = "tictactoe".parse::<rules::Variant>()?.rules::<rules::MnkConfig>().unwrap().start();
//! for text in ["b2", "a1", "a2", "c1", "c2"] {
//!     let mv = game.parse_move(text)?;
//!     game = game.play(mv)?;
//! }
//! assert_eq!(game.outcome(), Some(Outcome::Win(Player::First)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// `unsafe_code` is denied workspace-wide and forbidden here: the exceptions are the web
// server's malloc_trim (crates/web/src/memory.rs) and the outside agents' sandbox, set up
// between fork and exec (crates/protocol/src/sandbox.rs).
#![forbid(unsafe_code)]

pub mod breakthrough;
pub mod connect4;
pub mod encoding;
pub mod mnk;
pub mod oanquan;
pub mod othello;
pub mod oware;
mod perft;
mod registry;
mod view;

use std::fmt;
use std::hash::Hash;

pub use arrayvec::ArrayVec;
pub use connect4::{Column, Connect4, Connect4Config};
pub use mnk::{Cell, Mnk, MnkConfig, WinRule};
pub use oanquan::{OanQuan, OanQuanRules, Sow};
pub use perft::{perft, perft_divide};
pub use registry::{AnyGame, FAMILIES, Family, FromAny, GameRules, Variant, VariantError, family};
pub use view::{Layout, MovePlace, Place, Step, Trace, View};

/// The most legal moves any position of any game here can have: a 19x19 board's 361 cells.
pub const MAX_MOVES: usize = 19 * 19;

/// The bound on [`Game::num_actions`] of every game: a 19x19 board's padded index space.
pub const MAX_ACTIONS: usize = 384;

/// A list of moves on the stack, large enough for any position of any game.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// The most players any game here seats: O An Quan for 4.
pub const MAX_PLAYERS: usize = 4;

/// A seat at the table, from 0 in turn order. `First` moves first (X in m,n,k games, player 1
/// in O An Quan); two-player games use only `First` and `Second`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player(u8);

#[allow(non_upper_case_globals)]
impl Player {
    /// The player who makes the first move (seat 0).
    pub const First: Player = Player(0);
    /// The player who makes the second move (seat 1).
    pub const Second: Player = Player(1);

    /// Seat `index` (0-based).
    ///
    /// # Panics
    /// If `index` is not below [`MAX_PLAYERS`].
    #[inline]
    pub const fn seat(index: usize) -> Player {
        assert!(index < MAX_PLAYERS, "no such seat");
        Player(index as u8)
    }

    /// The seat after this one round a table of `players`.
    #[inline]
    pub const fn next(self, players: usize) -> Player {
        if self.0 as usize + 1 >= players {
            Player(0)
        } else {
            Player(self.0 + 1)
        }
    }

    /// The 0-based seat: an index into per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seats of a table of `players`, in turn order.
    pub fn all(players: usize) -> impl Iterator<Item = Player> {
        (0..players.min(MAX_PLAYERS)).map(Player::seat)
    }

    /// The seat's name: `first`, `second`, `third`, `fourth`.
    pub const fn name(self) -> &'static str {
        match self.0 {
            0 => "first",
            1 => "second",
            2 => "third",
            _ => "fourth",
        }
    }
}

impl fmt::Debug for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            0 => "First",
            1 => "Second",
            2 => "Third",
            _ => "Fourth",
        })
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The places of a game of three or more players: 1 for the best, equal places for equal
/// totals (totals 30, 30, 20 give places 1, 1, 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ranking {
    places: [u8; MAX_PLAYERS],
    players: u8,
}

impl Ranking {
    /// The seat that alone took the first place, if one did.
    #[inline(never)]
    fn sole_first(self) -> Option<Player> {
        let mut firsts = self
            .places()
            .iter()
            .enumerate()
            .filter(|(_, place)| **place == 1);
        match (firsts.next(), firsts.next()) {
            (Some((seat, _)), None) => Some(Player::seat(seat)),
            _ => None,
        }
    }

    /// The ranking by `totals` (one per seat, higher is better).
    ///
    /// # Panics
    /// If there are more totals than [`MAX_PLAYERS`].
    pub fn from_totals(totals: &[i32]) -> Ranking {
        assert!(totals.len() <= MAX_PLAYERS, "too many seats");
        let mut places = [0u8; MAX_PLAYERS];
        for (seat, &total) in totals.iter().enumerate() {
            places[seat] = 1 + totals.iter().filter(|&&other| other > total).count() as u8;
        }
        Ranking {
            places,
            players: totals.len() as u8,
        }
    }

    /// The ranking when `loser` forfeits: it alone takes the last place, and the others are
    /// placed among themselves by `totals`.
    pub fn forfeit(totals: &[i32], loser: Player) -> Ranking {
        let mut adjusted: ArrayVec<i32, MAX_PLAYERS> = totals.iter().copied().collect();
        if let Some(total) = adjusted.get_mut(loser.index()) {
            *total = i32::MIN;
        }
        Ranking::from_totals(&adjusted)
    }

    /// Rebuilds a ranking from places (1-based, one per seat), as records write them.
    /// `None` unless there are 3 to [`MAX_PLAYERS`] places, each from 1 to their count, and
    /// they are consistent (a place p is shared by exactly the seats after p - 1 better ones).
    pub fn from_places(places: &[u8]) -> Option<Ranking> {
        if !(3..=MAX_PLAYERS).contains(&places.len()) {
            return None;
        }
        let mut array = [0u8; MAX_PLAYERS];
        for (seat, &place) in places.iter().enumerate() {
            let better = places.iter().filter(|&&other| other < place).count();
            if place as usize != better + 1 {
                return None;
            }
            array[seat] = place;
        }
        Some(Ranking {
            places: array,
            players: places.len() as u8,
        })
    }

    /// The number of players ranked.
    pub fn players(&self) -> usize {
        usize::from(self.players)
    }

    /// The place of `seat`, from 1.
    pub fn place(&self, seat: Player) -> u8 {
        self.places[seat.index()]
    }

    /// The places of every seat, in seat order.
    pub fn places(&self) -> &[u8] {
        &self.places[..self.players()]
    }
}

/// How a finished game ended, independent of whose turn it is.
///
/// `Win` and `Draw` are the outcomes of two-player games; `Ranked` is the outcome of every
/// game of three or more players (even one with a single winner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given player won (two players).
    Win(Player),
    /// Nobody won (two players).
    Draw,
    /// The places of three or more players.
    Ranked(Ranking),
}

impl Outcome {
    /// The score of `player` in this outcome, from 0 to 1: the share of the opponents it
    /// placed above, ties counting half. For two players: 1 for a win, 0.5 for a draw, 0 for
    /// a loss.
    pub fn score(self, player: Player) -> f64 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
            Outcome::Ranked(ranking) => {
                let mine = ranking.place(player);
                let (mut points, mut others) = (0.0, 0.0);
                for (seat, &place) in ranking.places().iter().enumerate() {
                    if seat == player.index() {
                        continue;
                    }
                    others += 1.0;
                    points += match place.cmp(&mine) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                }
                if others > 0.0 { points / others } else { 0.5 }
            }
        }
    }

    /// The place of `player`, from 1: a two-player win is places 1 and 2, a draw 1 and 1.
    pub fn place(self, player: Player) -> u8 {
        match self {
            Outcome::Win(p) if p == player => 1,
            Outcome::Win(_) => 2,
            Outcome::Draw => 1,
            Outcome::Ranked(ranking) => ranking.place(player),
        }
    }

    /// Whether nobody did better than anybody else: a two-player draw, or every seat first.
    pub fn is_draw(self) -> bool {
        match self {
            Outcome::Win(_) => false,
            Outcome::Draw => true,
            Outcome::Ranked(ranking) => ranking.places().iter().all(|&p| p == 1),
        }
    }

    /// The outcome when `loser` forfeits a game of `players` seats: a loss with two players;
    /// with more, the last place alone, the others placed among themselves by `totals` (their
    /// points when the game keeps them; all equal otherwise).
    pub fn forfeit(loser: Player, players: usize, totals: Option<&[i32]>) -> Outcome {
        if players == 2 {
            // Round a table of two, the seat after the loser is the other one.
            Outcome::Win(loser.next(players))
        } else {
            let even = [0; MAX_PLAYERS];
            let totals = totals.unwrap_or(&even[..players.min(MAX_PLAYERS)]);
            Outcome::Ranked(Ranking::forfeit(totals, loser))
        }
    }

    /// The place of every seat of a game of `players` seats, in seat order (1 = best, equal
    /// places for equal results).
    pub fn places(self, players: usize) -> ArrayVec<u8, MAX_PLAYERS> {
        match self {
            Outcome::Ranked(ranking) => ranking.places().iter().copied().collect(),
            _ => Player::all(players).map(|seat| self.place(seat)).collect(),
        }
    }

    /// The winner, if one player alone took the first place.
    #[inline]
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
            // Out of line: two-player searches call this every simulation.
            Outcome::Ranked(ranking) => ranking.sole_first(),
        }
    }

    /// The result as tournament records write it: `1-0`, `0-1`, `1/2-1/2` from the first
    /// player's view for two players; the places of the seats in order, `1-3-2`, for more.
    pub fn result_text(self) -> std::borrow::Cow<'static, str> {
        match self {
            Outcome::Win(p) if p == Player::First => "1-0".into(),
            Outcome::Win(_) => "0-1".into(),
            Outcome::Draw => "1/2-1/2".into(),
            Outcome::Ranked(ranking) => ranking
                .places()
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join("-")
                .into(),
        }
    }

    /// Reads [`Outcome::result_text`] back for a game of `players` seats.
    pub fn parse_result(text: &str, players: usize) -> Option<Outcome> {
        match (players, text) {
            (2, "1-0") => Some(Outcome::Win(Player::First)),
            (2, "0-1") => Some(Outcome::Win(Player::Second)),
            (2, "1/2-1/2") => Some(Outcome::Draw),
            (2, _) => None,
            _ => {
                let places: Option<Vec<u8>> = text.split('-').map(|p| p.parse().ok()).collect();
                let ranking = Ranking::from_places(&places?)?;
                (ranking.players() == players).then_some(Outcome::Ranked(ranking))
            }
        }
    }
}

/// Final totals per seat, for games that score points.
pub type Totals = ArrayVec<i32, MAX_PLAYERS>;

/// Why a move text or a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    #[error("`{text}` is not a move: {expected}")]
    Syntax {
        /// The text as given.
        text: String,
        /// What the notation expects.
        expected: String,
    },
    /// The text names a place that is not on the board.
    #[error("`{text}` is off the board: {detail}")]
    OffBoard {
        /// The text as given.
        text: String,
        /// Which bound was broken.
        detail: String,
    },
    /// The move is well formed but the position does not allow it.
    #[error("`{text}` is illegal here: {reason}")]
    Illegal {
        /// The move in the game's notation.
        text: String,
        /// Why it is not allowed (occupied cell, empty square, not your square, ...).
        reason: String,
    },
    /// The game is already over.
    #[error("`{text}` cannot be played: the game is over")]
    GameOver {
        /// The move in the game's notation.
        text: String,
    },
}

/// A perfect-information, deterministic game of two or more players taking turns.
///
/// Required methods are the primitives; the rest are built on them. Implementations keep
/// `play_unchecked` and `legal_moves` free of allocation: agents call them millions of times.
///
/// Every game is registered ([`registry`](crate::FAMILIES)): its positions go into an
/// [`AnyGame`] and come back out of one.
pub trait Game:
    Clone + fmt::Debug + fmt::Display + Send + Sync + 'static + Into<AnyGame> + FromAny
{
    /// A move: a small `Copy` value, meaningful only together with the position it is played in.
    type Move: Copy + fmt::Debug + Eq + Ord + Hash + Send + Sync + 'static;

    /// The game's entry in the registry ([`FAMILIES`]).
    const FAMILY: &'static Family;

    /// The variant (game and parameters) this position belongs to.
    fn variant(&self) -> Variant;

    /// The player to move. After the end, the player who would have moved next.
    fn side_to_move(&self) -> Player;

    /// The number of players (seats 0 to `num_players() - 1`, moving in that order).
    fn num_players(&self) -> usize;

    /// The number of plies (moves by either player) played since the start.
    fn ply(&self) -> u32;

    /// The outcome if the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Replaces the contents of `out` with every legal move, in a fixed order.
    /// Leaves it empty exactly when the game is over.
    fn legal_moves(&self, out: &mut MoveList<Self::Move>);

    /// Plays `mv` in place. `mv` must be legal in this position: an illegal move leaves the
    /// position in an unspecified (but memory-safe) state, and debug builds panic.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// A hash of the position (Zobrist-style): equal positions hash equal, for transposition tables.
    fn hash_key(&self) -> u64;

    /// Parses a move in the game's notation and checks it is legal in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// Formats a move in the game's notation; [`Game::parse_move`] reads it back.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Appends [`Game::format_move`]'s text to `out`, without a string of its own (the arena
    /// protocol writes every legal move every turn).
    fn write_move(&self, mv: Self::Move, out: &mut String) {
        out.push_str(&self.format_move(mv));
    }

    /// The outcome the game's rule gives when a ply cap stops it before its end
    /// (m,n,k: a draw; O An Quan: the final totals rank the players).
    fn adjudicate(&self) -> Outcome;

    /// Final totals per seat for games that score points (O An Quan), counted as if the game
    /// ended now; `None` for games without scores.
    fn totals(&self) -> Option<Totals> {
        None
    }

    /// How the final totals ([`Game::totals`]) rank the seats, in a sentence for people (what
    /// a front shows beside the final score); `None` for games without scores.
    fn totals_rule(&self) -> Option<String> {
        None
    }

    /// The variant's rule a player might not expect, in one line for people (caro's blocked
    /// ends, O An Quan's borrowing); `None` when the game's usual rules say it all.
    fn rule_line(&self) -> Option<String> {
        None
    }

    /// What the move `mv` just played (this is the position after it) did that the rules
    /// treat in a way a player might not expect, in a sentence for people (caro: a five
    /// blocked at both ends, which does not win); `None` for most moves.
    fn move_note(&self, mv: Self::Move) -> Option<String> {
        let _ = mv;
        None
    }

    /// The ply cap the arena uses when an experiment does not set one.
    fn default_max_plies(&self) -> u32;

    /// The name people know `seat` by in this game: `X` and `O` in m,n,k games; by default
    /// `player 1`, `player 2`, ...
    fn seat_name(&self, seat: Player) -> String {
        format!("player {}", seat.index() + 1)
    }

    /// How a person types a move, for a front's help: `a cell: column letter and row number
    /// like b2, ...`. By default the first legal move as an example.
    fn move_help(&self) -> String {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        match moves.first() {
            Some(&mv) => format!(
                "a move as the game writes it, like {}",
                self.format_move(mv)
            ),
            None => "a move as the game writes it".to_string(),
        }
    }

    /// The position as fronts draw it (see [`View`]).
    fn view(&self) -> View;

    /// Where `mv` (legal here) is drawn: the place it is made on and, for a sowing, the way
    /// round the ring.
    fn move_place(&self, mv: Self::Move) -> MovePlace;

    /// Where the piece that `mv` (legal here) moves stands now, for a game whose moves take a
    /// piece from one place to another (Breakthrough): the move's origin, while
    /// [`Game::move_place`] is its target. Fronts let a person pick the piece, then its
    /// target, and show the last move from-to. Default: `None`, moves put or sow.
    fn move_from(&self, mv: Self::Move) -> Option<usize> {
        let _ = mv;
        None
    }

    /// Whether `mv` is a pass: a move that puts nothing anywhere (Othello's, when a player
    /// cannot put a disc). A pass has no place: fronts offer it as a word (its
    /// [`Game::format_move`]) rather than on the board, and do not draw its
    /// [`Game::move_place`]. Default: no move is a pass.
    fn is_pass(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// Plays `mv` as [`Game::play_unchecked`] does, and tells `trace` each step of it (each
    /// stone put or turned, each seed sown, each capture, a pass) for a front that animates it. With `()` as
    /// the trace this is `play_unchecked`. Default: one [`Step::Put`] of the mover's stone on
    /// the move's place; games whose moves do more (sowing games) override it.
    fn play_traced<T: Trace>(&mut self, mv: Self::Move, trace: &mut T) {
        let player = self.side_to_move();
        let place = self.move_place(mv).place;
        self.play_unchecked(mv);
        trace.step(Step::Put { place, player });
    }

    /// The number of distinct actions: moves as small integers `0..num_actions()`, the same
    /// for every position of the variant (OpenSpiel's `NumDistinctActions`), at most
    /// [`MAX_ACTIONS`]. [`Game::legal_moves`] lists moves in increasing action order.
    fn num_actions(&self) -> usize;

    /// The action of `mv`, a move of the player to move (legal or not), or `None` when it is
    /// not one of theirs.
    fn action(&self, mv: Self::Move) -> Option<u32>;

    /// The move of the player to move that `action` names here (legal or not), or `None`
    /// when the action is out of range.
    fn move_of(&self, action: u32) -> Option<Self::Move>;

    /// Whether the game is over.
    #[inline]
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// Copy-make: the position after `mv`, or an error that leaves this one untouched.
    fn play(&self, mv: Self::Move) -> Result<Self, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver {
                text: self.format_move(mv),
            });
        }
        if !self.is_legal(mv) {
            return Err(MoveError::Illegal {
                text: self.format_move(mv),
                reason: "not among the legal moves".into(),
            });
        }
        let mut next = self.clone();
        next.play_unchecked(mv);
        Ok(next)
    }

    /// Copy-make without the legality check, for search code that only plays generated moves.
    #[inline]
    fn child(&self, mv: Self::Move) -> Self {
        let mut next = self.clone();
        next.play_unchecked(mv);
        next
    }

    /// A uniformly random legal move, `None` when the game is over. Games override it with
    /// something faster than generating the whole list; the choice must stay uniform.
    fn random_move<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if moves.is_empty() {
            None
        } else {
            Some(moves[rand::RngExt::random_range(rng, 0..moves.len())])
        }
    }

    /// Parses a space-separated move list and plays it from this position. The error names
    /// the move, its 1-based place in the list and the reason.
    fn play_line(&self, line: &str) -> Result<Self, LineError> {
        let mut position = self.clone();
        for (index, text) in line.split_whitespace().enumerate() {
            let mv = position.parse_move(text).map_err(|error| LineError {
                index: index + 1,
                text: text.to_string(),
                error,
            })?;
            position.play_unchecked(mv);
        }
        Ok(position)
    }
}

/// A game that has two players in every position, by its type: `First` and `Second`, and
/// nobody else. Implementing it promises that [`Game::num_players`] is 2 for every position of
/// the type (whatever its variant), so code written for such games (m,n,k threat search,
/// proof-number search, patterns) may name the opponent without asking the position. Games
/// whose number of players is a parameter (O An Quan: 2 to 4) do not implement it; generic
/// code asks [`Game::num_players`] instead.
///
/// ```
/// use rules::{Mnk, Player, TwoPlayer};
///
/// assert_eq!(Mnk::opponent(Player::First), Player::Second);
/// assert_eq!(Mnk::opponent(Player::Second), Player::First);
/// ```
pub trait TwoPlayer: Game {
    /// The player who is not `player`. Implementations keep this provided method: search
    /// code calls it at every node.
    #[inline]
    fn opponent(player: Player) -> Player {
        debug_assert!(player.0 < 2, "{player:?} in a game of two players");
        Player(player.0 ^ 1)
    }
}

/// A move of a move list that could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index} (`{text}`): {error}")]
pub struct LineError {
    /// The 1-based place of the move in the list.
    pub index: usize,
    /// The move text as given.
    pub text: String,
    /// Why it was refused.
    #[source]
    pub error: MoveError,
}

/// SplitMix64: the finaliser used to derive Zobrist keys and other fixed pseudo-random tables.
#[inline]
pub const fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
