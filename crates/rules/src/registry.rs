//! The registry: every game of the arena, and the one text form that names a game and its
//! parameters (a variant id) everywhere: the CLI, experiment files and CSV records.
//!
//! A game registers here once, with one line in the `games!` list below, from which come
//! [`FAMILIES`], [`Variant`], [`AnyGame`] and the dispatch macros
//! [`with_game!`](crate::with_game) and [`with_position!`](crate::with_position); everything
//! else (agents, the arena, the CSV, the report, the terminal, the web, Python, the protocol)
//! works from what the game itself provides through [`Game`] and [`View`](crate::View).
//! Its module says how its ids read (its [`Family`]).
//!
//! Variant ids:
//! - m,n,k: `mnk-MxNkK` (M rows, N columns, K in a line), then optionally `-exact` or `-caro`,
//!   then optionally `-center`: `mnk-3x3k3`, `mnk-15x15k5-caro`, `mnk-15x15k5-exact-center`.
//!   Aliases: `tictactoe` = `mnk-3x3k3`, `gomoku` = `mnk-15x15k5`, `caro` = `mnk-15x15k5-caro`.
//! - O An Quan: `oanquan`, then a suffix per non-canonical parameter: `-3p` or `-4p` (three or
//!   four players; `-2p` is the canonical two), `-mandarinN` (mandarin value), `-stop` (an
//!   empty mandarin cell ends the turn), `-youngN` (young mandarin threshold), `-end` (an
//!   empty side that cannot pay ends the game), in any order on input and in that order on
//!   output: `oanquan-3p-mandarin5-stop-young5-end`.
//! - Connect Four: `connect4` (6 rows, 7 columns, four in a row), or `connect4-RxC` with `kK`
//!   when k is not 4: `connect4-7x8`, `connect4-9x9k5`.
//! - Oware: `oware` (abapa; alias `abapa`).
//! - Othello: `othello` (8x8; alias `reversi`).
//! - Breakthrough: `breakthrough` (8x8), or `breakthrough-RxC`: `breakthrough-6x6`.

use std::fmt;
use std::str::FromStr;

use crate::breakthrough::{self, Breakthrough, BreakthroughConfig};
use crate::connect4::{self, Connect4, Connect4Config};
use crate::mnk::{self, MnkConfig};
use crate::oanquan::{self, OanQuanRules};
use crate::othello::{self, Othello, OthelloRules};
use crate::oware::{self, Oware, OwareRules};
use crate::{Game, Mnk, OanQuan};

/// The registry itself: one line per game, `Name(its parameters, its position, its family)`.
/// From it come [`Variant`], [`AnyGame`], [`FAMILIES`] and the dispatch macros.
macro_rules! games {
    ($d:tt $($name:ident($rules:ty, $game:ident, $family:path)),* $(,)?) => {
        /// Every game of the arena, in the order lists show them.
        pub const FAMILIES: &[&Family] = &[$(&$family),*];

        /// A game and its parameters: one variant of one family of [`FAMILIES`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $(
                #[doc = concat!("A variant of `", stringify!($game), "`.")]
                $name($rules),
            )*
        }

        /// A position of any game of the arena, for code that holds positions of several
        /// games without being generic (the Python package's `Game`);
        /// [`with_position!`](crate::with_position) gives back the typed position.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyGame {
            $(
                #[doc = concat!("A position of `", stringify!($game), "`.")]
                $name($game),
            )*
        }

        $(
            impl From<$game> for AnyGame {
                fn from(game: $game) -> AnyGame {
                    AnyGame::$name(game)
                }
            }

            impl FromAny for $game {
                fn from_any(any: AnyGame) -> Option<$game> {
                    #[allow(irrefutable_let_patterns)]
                    if let AnyGame::$name(game) = any { Some(game) } else { None }
                }
            }

            impl GameRules for $rules {
                fn from_variant(variant: &Variant) -> Option<$rules> {
                    #[allow(irrefutable_let_patterns)]
                    if let Variant::$name(rules) = variant { Some(*rules) } else { None }
                }
            }

            impl From<$rules> for Variant {
                fn from(rules: $rules) -> Variant {
                    Variant::$name(rules)
                }
            }
        )*

        impl fmt::Display for Variant {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(Variant::$name(rules) => rules.fmt(f),)*
                }
            }
        }

        /// Runs `$body` with `$start` bound to the start position of `$variant` (a
        /// `Variant` or a reference to one), typed: each game's arm is compiled on its own,
        /// so `$body` may call generic code that needs the game's type.
        ///
        /// ```
        /// let variant: rules::Variant = "tictactoe".parse()?;
        /// let count = rules::with_game!(variant, |start| rules::perft(&start, 2));
        /// assert_eq!(count, 72);
        /// # Ok::<(), rules::VariantError>(())
        /// ```
        #[macro_export]
        macro_rules! with_game {
            ($d variant:expr, |$d start:ident| $d body:expr) => {
                match $crate::Variant::clone(&$d variant) {
                    $($crate::Variant::$name(rules) => {
                        let $d start = rules.start();
                        $d body
                    })*
                }
            };
        }

        /// Runs `$body` with `$game` bound to the typed position inside an [`AnyGame`] (an
        /// expression of type `AnyGame`, `&AnyGame` or `&mut AnyGame`; `$game` binds by value
        /// or by reference accordingly).
        #[macro_export]
        macro_rules! with_position {
            ($d position:expr, |$d game:ident| $d body:expr) => {
                match $d position {
                    $($crate::AnyGame::$name($d game) => $d body,)*
                }
            };
        }
    };
}

games! {$
    Mnk(MnkConfig, Mnk, mnk::FAMILY),
    OanQuan(OanQuanRules, OanQuan, oanquan::FAMILY),
    Connect4(Connect4Config, Connect4, connect4::FAMILY),
    Oware(OwareRules, Oware, oware::FAMILY),
    Othello(OthelloRules, Othello, othello::FAMILY),
    Breakthrough(BreakthroughConfig, Breakthrough, breakthrough::FAMILY),
}

/// A game of the registry, as variant ids and people name it.
#[derive(Debug)]
pub struct Family {
    /// The name ids start with and records use: `mnk`, `oanquan`.
    pub name: &'static str,
    /// The name for people: `m,n,k games`, `O An Quan`.
    pub title: &'static str,
    /// How its ids are written, for help texts and errors.
    pub ids: &'static str,
    /// One id of the family, for help texts and tests.
    pub example: &'static str,
    /// Other names for some of its variants, as `(alias, id)`.
    pub aliases: &'static [(&'static str, &'static str)],
    /// The numbers of players its variants seat (fewest, most).
    pub players: (usize, usize),
    /// Variants worth offering beside its example where a front lists the family's variants
    /// (the web's Analyse page), as `(id, what it is)`; empty for none.
    pub presets: &'static [(&'static str, &'static str)],
    /// What `arena list` shows of it, a line each: its ids and their parameters, examples,
    /// how moves are written.
    pub help: &'static [&'static str],
    /// Reads an id (lowercase, an alias already replaced): `None` when the id is not this
    /// family's. The first argument is the id as given, for messages.
    pub parse: fn(given: &str, id: &str) -> Option<Result<Variant, VariantError>>,
}

impl PartialEq for Family {
    fn eq(&self, other: &Family) -> bool {
        self.name == other.name
    }
}

impl Eq for Family {}

/// The family named `name` (`mnk`, `oanquan`).
pub fn family(name: &str) -> Option<&'static Family> {
    FAMILIES.iter().copied().find(|f| f.name == name)
}

/// The parameters of one game of the registry (`MnkConfig`, `OanQuanRules`, ...), as a
/// [`Variant`] holds them; [`Variant::rules`] gives them back typed.
pub trait GameRules: Sized {
    /// The parameters inside `variant`, if it is a variant of this game.
    fn from_variant(variant: &Variant) -> Option<Self>;
}

/// The game's own type back out of an [`AnyGame`]: `Some` when the position is of that game.
pub trait FromAny: Sized {
    /// The position, if `any` holds one of this game.
    fn from_any(any: AnyGame) -> Option<Self>;
}

impl AnyGame {
    /// The start position of `variant`.
    pub fn start(variant: &Variant) -> AnyGame {
        with_game!(variant, |start| AnyGame::from(start))
    }

    /// The variant of the position.
    pub fn variant(&self) -> Variant {
        with_position!(self, |game| game.variant())
    }
}

/// Why a variant id was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VariantError {
    /// The id does not name a known game.
    #[error("unknown game in `{id}`: {known}")]
    UnknownGame {
        /// The id as given.
        id: String,
        /// The games there are, and how their ids start.
        known: String,
    },
    /// The id names a game but its parameters are malformed.
    #[error("malformed variant id `{id}`: {reason}")]
    Malformed {
        /// The id as given.
        id: String,
        /// What is wrong and what is expected.
        reason: String,
    },
    /// A parameter is outside its range.
    #[error("out of range: {0}")]
    OutOfRange(String),
}

impl Variant {
    /// The family of the game.
    pub fn family(&self) -> &'static Family {
        with_game!(self, |start| game_family(&start))
    }

    /// The parameters of this variant as its game's own type `R`, if it is a variant of that
    /// game: `variant.rules::<MnkConfig>()` is the m,n,k parameters of an m,n,k variant and
    /// `None` for any other game.
    ///
    /// ```
    /// let variant: rules::Variant = "gomoku".parse()?;
    /// assert_eq!(variant.rules::<rules::MnkConfig>().map(|config| config.k()), Some(5));
    /// assert!(variant.rules::<rules::OanQuanRules>().is_none());
    /// # Ok::<(), rules::VariantError>(())
    /// ```
    pub fn rules<R: GameRules>(&self) -> Option<R> {
        R::from_variant(self)
    }

    /// The number of places on the board: cells of a grid, pits of a ring (12 for two-player
    /// O An Quan).
    pub fn board_size(&self) -> u32 {
        with_game!(self, |start| start.view().places.len() as u32)
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        with_game!(self, |start| start.num_players())
    }
}

fn game_family<G: Game>(_: &G) -> &'static Family {
    G::FAMILY
}

impl FromStr for Variant {
    type Err = VariantError;

    fn from_str(given: &str) -> Result<Self, VariantError> {
        let given = given.trim();
        let lower = given.to_ascii_lowercase();
        let id = FAMILIES
            .iter()
            .flat_map(|f| f.aliases)
            .find(|(alias, _)| *alias == lower)
            .map_or(lower.as_str(), |(_, id)| id);
        FAMILIES
            .iter()
            .find_map(|family| (family.parse)(given, id))
            .unwrap_or_else(|| {
                Err(VariantError::UnknownGame {
                    id: given.to_string(),
                    known: known_games(),
                })
            })
    }
}

/// The games there are, for the error of an unknown one.
fn known_games() -> String {
    let ids: Vec<&str> = FAMILIES.iter().map(|f| f.ids).collect();
    let aliases: Vec<String> = FAMILIES
        .iter()
        .flat_map(|f| f.aliases)
        .filter(|(alias, _)| !alias.contains('-'))
        .map(|(alias, _)| format!("`{alias}`"))
        .collect();
    format!(
        "a variant id is one of {}, or one of the aliases {}",
        ids.join("; "),
        aliases.join(", ")
    )
}

pub(crate) fn malformed(id: &str, reason: impl Into<String>) -> VariantError {
    VariantError::Malformed {
        id: id.to_string(),
        reason: reason.into(),
    }
}
