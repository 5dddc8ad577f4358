//! The games of the arena behind one [`Game`] trait: the m,n,k game ([`Mnk`]: tic-tac-toe,
//! the TD4 boards, gomoku and caro) and the Vietnamese mancala O An Quan ([`OanQuan`]).
//!
//! A game is a small `Clone` value. [`Game::play_unchecked`] changes it in place; the copy-make
//! [`Game::play`] checks the move and returns the next position. Legal moves go into a
//! caller's [`MoveList`], so generating them never allocates. Outcomes are absolute: a
//! [`Player`] wins, or the game is drawn.
//!
//! A [`Variant`] names a game and its parameters in one text form used everywhere (CLI,
//! experiment files, CSV): `mnk-15x15k5-caro`, `oanquan-stop`.
//!
//! ```
//! use rules::{Game, Mnk, Outcome, Player};
//!
//! let mut game: Mnk = "tictactoe".parse::<rules::Variant>()?.mnk().unwrap().start();
//! for text in ["b2", "a1", "a2", "c1", "c2"] {
//!     let mv = game.parse_move(text)?;
//!     game = game.play(mv)?;
//! }
//! assert_eq!(game.outcome(), Some(Outcome::Win(Player::First)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod mnk;
pub mod oanquan;
mod perft;
mod variant;

use std::fmt;
use std::hash::Hash;

pub use arrayvec::ArrayVec;
pub use mnk::{Cell, Mnk, MnkConfig, WinRule};
pub use oanquan::{OanQuan, OanQuanRules, Sow};
pub use perft::{perft, perft_divide};
pub use variant::{Variant, VariantError};

/// The most legal moves any position of any game here can have: a 19x19 board's 361 cells.
pub const MAX_MOVES: usize = 19 * 19;

/// A list of moves on the stack, large enough for any position of any game.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// One of the two players. `First` moves first (X in m,n,k games, player 1 in O An Quan).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Player {
    /// The player who makes the first move.
    First,
    /// The player who makes the second move.
    Second,
}

impl Player {
    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first",
            Player::Second => "second",
        })
    }
}

/// How a finished game ended, independent of whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The score of `player` in this outcome: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score(self, player: Player) -> f64 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }

    /// The result in the first player's view, as tournament records write it: `1-0`, `0-1`, `1/2-1/2`.
    pub fn result_text(self) -> &'static str {
        match self {
            Outcome::Win(Player::First) => "1-0",
            Outcome::Win(Player::Second) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

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

/// A two-player, perfect-information, deterministic game.
///
/// Required methods are the primitives; the rest are built on them. Implementations keep
/// `play_unchecked` and `legal_moves` free of allocation: agents call them millions of times.
pub trait Game: Clone + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// A move: a small `Copy` value, meaningful only together with the position it is played in.
    type Move: Copy + fmt::Debug + Eq + Ord + Hash + Send + Sync + 'static;

    /// The variant (game and parameters) this position belongs to.
    fn variant(&self) -> Variant;

    /// The player to move. After the end, the player who would have moved next.
    fn side_to_move(&self) -> Player;

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

    /// The outcome the game's rule gives when a ply cap stops it before its end
    /// (m,n,k: a draw; O An Quan: the higher final total wins).
    fn adjudicate(&self) -> Outcome;

    /// Final totals `[first, second]` for games that score points (O An Quan), counted as if
    /// the game ended now; `None` for games without scores.
    fn totals(&self) -> Option<[i32; 2]> {
        None
    }

    /// The ply cap the arena uses when an experiment does not set one.
    fn default_max_plies(&self) -> u32;

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
