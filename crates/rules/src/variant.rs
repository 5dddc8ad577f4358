//! Variant ids: one text form for a game and its parameters, used by the CLI, experiment files
//! and CSV records.
//!
//! - m,n,k: `mnk-MxNkK` (M rows, N columns, K in a line), then optionally `-exact` or `-caro`,
//!   then optionally `-center`: `mnk-3x3k3`, `mnk-15x15k5-caro`, `mnk-15x15k5-exact-center`.
//!   Aliases: `tictactoe` = `mnk-3x3k3`, `gomoku` = `mnk-15x15k5`, `caro` = `mnk-15x15k5-caro`.
//! - O An Quan: `oanquan`, then a suffix per non-canonical parameter: `-3p` or `-4p` (three or
//!   four players; `-2p` is the canonical two), `-mandarinN` (mandarin value), `-stop` (an
//!   empty mandarin cell ends the turn), `-youngN` (young mandarin threshold), `-end` (an
//!   empty side that cannot pay ends the game), in any order on input and in that order on
//!   output: `oanquan-3p-mandarin5-stop-young5-end`.

use std::fmt;
use std::str::FromStr;

use crate::mnk::{MnkConfig, WinRule};
use crate::oanquan::{EmptyMandarin, EmptySide, OanQuanRules};

/// A game and its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// An m,n,k game.
    Mnk(MnkConfig),
    /// O An Quan.
    OanQuan(OanQuanRules),
}

/// Why a variant id was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VariantError {
    /// The id does not name a known game.
    #[error(
        "unknown game in `{0}`: a variant id starts with `mnk-` (like `mnk-5x5k4`) or `oanquan`, \
         or is one of the aliases `tictactoe`, `gomoku`, `caro`"
    )]
    UnknownGame(String),
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
    /// The m,n,k parameters, if this is an m,n,k game.
    pub fn mnk(&self) -> Option<MnkConfig> {
        match self {
            Variant::Mnk(config) => Some(*config),
            Variant::OanQuan(_) => None,
        }
    }

    /// The O An Quan rules, if this is O An Quan.
    pub fn oanquan(&self) -> Option<OanQuanRules> {
        match self {
            Variant::OanQuan(rules) => Some(*rules),
            Variant::Mnk(_) => None,
        }
    }

    /// The game's family name: `mnk` or `oanquan`.
    pub fn family(&self) -> &'static str {
        match self {
            Variant::Mnk(_) => "mnk",
            Variant::OanQuan(_) => "oanquan",
        }
    }

    /// The number of places on the board: cells of an m,n,k board, the ring's cells for O An
    /// Quan (12 for two players).
    pub fn board_size(&self) -> u32 {
        match self {
            Variant::Mnk(config) => u32::from(config.cells()),
            Variant::OanQuan(rules) => rules.cells() as u32,
        }
    }

    /// The number of players: 2, or 3 and 4 for O An Quan's `-3p` and `-4p`.
    pub fn players(&self) -> usize {
        match self {
            Variant::Mnk(_) => 2,
            Variant::OanQuan(rules) => usize::from(rules.players),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Mnk(config) => config.fmt(f),
            Variant::OanQuan(rules) => rules.fmt(f),
        }
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    fn from_str(id: &str) -> Result<Self, VariantError> {
        let id = id.trim();
        let lower = id.to_ascii_lowercase();
        let canonical = match lower.as_str() {
            "tictactoe" | "tic-tac-toe" => "mnk-3x3k3",
            "gomoku" => "mnk-15x15k5",
            "caro" => "mnk-15x15k5-caro",
            other => other,
        };
        if let Some(rest) = canonical.strip_prefix("mnk-") {
            parse_mnk(id, rest).map(Variant::Mnk)
        } else if canonical == "oanquan" || canonical.starts_with("oanquan-") {
            parse_oanquan(id, &canonical["oanquan".len()..]).map(Variant::OanQuan)
        } else {
            Err(VariantError::UnknownGame(id.to_string()))
        }
    }
}

fn malformed(id: &str, reason: impl Into<String>) -> VariantError {
    VariantError::Malformed {
        id: id.to_string(),
        reason: reason.into(),
    }
}

fn parse_mnk(id: &str, rest: &str) -> Result<MnkConfig, VariantError> {
    let shape = || {
        malformed(
            id,
            "an m,n,k id is `mnk-MxNkK` (M rows, N columns, K in a line), optionally followed \
             by `-exact` or `-caro` and then `-center`, like `mnk-15x15k5-caro`",
        )
    };
    let mut parts = rest.split('-');
    let size = parts.next().ok_or_else(shape)?;
    let (rows, tail) = size.split_once('x').ok_or_else(shape)?;
    let (cols, k) = tail.split_once('k').ok_or_else(shape)?;
    let number = |text: &str, what: &str| -> Result<u8, VariantError> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(shape());
        }
        text.parse::<u8>().map_err(|_| {
            VariantError::OutOfRange(format!("{what} = {text} in `{id}` is far too large"))
        })
    };
    let mut config = MnkConfig::new(
        number(rows, "rows")?,
        number(cols, "columns")?,
        number(k, "k")?,
    )?;
    let mut rule_seen = false;
    let mut center_seen = false;
    for suffix in parts {
        match suffix {
            "freestyle" | "exact" | "caro" if !rule_seen && !center_seen => {
                rule_seen = true;
                config = config.with_rule(match suffix {
                    "exact" => WinRule::Exact,
                    "caro" => WinRule::Caro,
                    _ => WinRule::Freestyle,
                });
            }
            "center" | "centre" if !center_seen => {
                center_seen = true;
                config = config.with_center(true);
            }
            "freestyle" | "exact" | "caro" | "center" | "centre" => {
                return Err(malformed(
                    id,
                    format!(
                        "`-{suffix}` is repeated or out of order: the win rule comes before `-center`, each at most once"
                    ),
                ));
            }
            other => {
                return Err(malformed(
                    id,
                    format!("unknown suffix `-{other}`: expected `-exact`, `-caro` or `-center`"),
                ));
            }
        }
    }
    Ok(config)
}

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
