//! Opening suites: fixed move lists the games of an experiment start from, instead of random
//! opening plies (the experiment key `openings = "FILE"`).
//!
//! The file holds one section per variant, a variant id in brackets, then one opening per
//! line, the moves in the game's notation separated by spaces. `#` starts a comment; blank
//! lines are skipped. A section may name the variant by an alias (`[gomoku]`); two sections of
//! the same variant are an error.
//!
//! ```text
//! # Balanced gomoku openings
//! [gomoku]
//! h8 i9 j8
//! h8 h9 g10
//!
//! [caro]
//! h8 g7 j9
//! ```
//!
//! Block `m` of a pair of agents (games `2m` and `2m + 1`, the two colour orders) starts from
//! opening `m` modulo the number of openings of its variant, so a suite of `n` openings and
//! `2n` games per pair plays every opening once with each colour order. Every move is checked
//! when the experiment is read: an illegal move names the file, the line and the move, and an
//! opening may not end the game.

use std::path::Path;

use rules::{Game, Variant};

use crate::ArenaError;
use crate::hash::fnv1a;

/// The openings of one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantOpenings {
    /// The variant.
    pub variant: Variant,
    /// The openings, each a list of moves in the game's canonical notation.
    pub lines: Vec<Vec<String>>,
}

/// An opening suite read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Openings {
    /// The file, as the experiment names it (for messages).
    pub source: String,
    /// The sections, in file order.
    pub variants: Vec<VariantOpenings>,
    /// Each file as the experiment names it, with its text: `arena run` writes them next to
    /// its copy of the experiment, so the copy reads the same suite (see `run.rs`).
    pub files: Vec<(String, String)>,
}

impl Openings {
    /// Reads and checks a suite file.
    pub fn from_file(path: &Path) -> Result<Openings, ArenaError> {
        let text = std::fs::read_to_string(path).map_err(|e| ArenaError::Io {
            path: path.to_path_buf(),
            action: "read the openings file",
            error: e.to_string(),
        })?;
        Openings::parse(&text, &path.display().to_string())
    }

    /// Parses and checks a suite; `source` names it in errors.
    pub fn parse(text: &str, source: &str) -> Result<Openings, ArenaError> {
        let error = |line: usize, column: usize, message: String| ArenaError::Experiment {
            source_name: source.to_string(),
            key: String::new(),
            location: Some((line, column)),
            message,
        };
        let mut variants: Vec<VariantOpenings> = Vec::new();
        for (number, raw) in text.lines().enumerate() {
            let number = number + 1;
            let content = raw.split('#').next().unwrap_or("");
            let trimmed = content.trim();
            if trimmed.is_empty() {
                continue;
            }
            let column = content.len() - content.trim_start().len() + 1;
            if let Some(inner) = trimmed.strip_prefix('[') {
                let Some(id) = inner.strip_suffix(']') else {
                    return Err(error(
                        number,
                        column,
                        format!(
                            "`{trimmed}`: a section header is a variant id in brackets, like [gomoku]"
                        ),
                    ));
                };
                let variant: Variant = id.trim().parse().map_err(|e: rules::VariantError| {
                    error(number, column + 1, format!("section [{}]: {e}", id.trim()))
                })?;
                if variants.iter().any(|v| v.variant == variant) {
                    return Err(error(
                        number,
                        column,
                        format!(
                            "a second section for variant `{variant}`: one section per variant"
                        ),
                    ));
                }
                variants.push(VariantOpenings {
                    variant,
                    lines: Vec::new(),
                });
                continue;
            }
            let Some(section) = variants.last_mut() else {
                return Err(error(
                    number,
                    column,
                    format!(
                        "the opening `{trimmed}` comes before any section: start with a variant \
                         id in brackets, like [gomoku]"
                    ),
                ));
            };
            let line = rules::with_game!(section.variant, |start| check_line(&start, trimmed))
                .map_err(|message| {
                    error(
                        number,
                        column,
                        format!("opening `{trimmed}` of [{}]: {message}", section.variant),
                    )
                })?;
            section.lines.push(line);
        }
        if let Some(empty) = variants.iter().find(|v| v.lines.is_empty()) {
            return Err(ArenaError::Experiment {
                source_name: source.to_string(),
                key: String::new(),
                location: None,
                message: format!("section [{}] has no opening", empty.variant),
            });
        }
        Ok(Openings {
            source: source.to_string(),
            variants,
            files: vec![(source.to_string(), text.to_string())],
        })
    }

    /// The openings of `variant`, if the suite has a section for it.
    pub fn of(&self, variant: &Variant) -> Option<&[Vec<String>]> {
        self.variants
            .iter()
            .find(|v| &v.variant == variant)
            .map(|v| v.lines.as_slice())
    }

    /// The opening of block `block` (games `2 * block` and `2 * block + 1` of a pair) on
    /// `variant`: line `block` modulo the number of lines.
    pub fn for_block(&self, variant: &Variant, block: u64) -> Option<&[String]> {
        let lines = self.of(variant)?;
        let index = (block % lines.len() as u64) as usize;
        Some(lines[index].as_slice())
    }

    /// The moves of block `block`'s opening of `variant` from `start` (none when the suite has
    /// no section for it). The moves were checked when the suite was read.
    ///
    /// # Panics
    /// If a move of the line is not legal from `start` (the suite was read for another start).
    pub fn moves_for<G: Game>(&self, start: &G, variant: &Variant, block: u64) -> Vec<G::Move> {
        let mut position = start.clone();
        let mut moves = Vec::new();
        for text in self.for_block(variant, block).unwrap_or(&[]) {
            let mv = position
                .parse_move(text)
                .expect("opening moves are checked when the suite is read");
            moves.push(mv);
            position.play_unchecked(mv);
        }
        moves
    }

    /// A hash of the openings of `variants` (what decides the games), 16 hex digits.
    pub fn hash(&self, variants: &[Variant]) -> String {
        let mut text = String::new();
        for variant in variants {
            if let Some(lines) = self.of(variant) {
                text.push_str(&format!("[{variant}]\n"));
                for line in lines {
                    text.push_str(&line.join(" "));
                    text.push('\n');
                }
            }
        }
        format!("{:016x}", fnv1a(text.as_bytes()))
    }
}

/// Plays `text` from `start`, move by move: the moves in canonical notation, or what is wrong
/// (which move and why, or that the opening ends the game).
fn check_line<G: Game>(start: &G, text: &str) -> Result<Vec<String>, String> {
    let mut position = start.clone();
    let mut moves = Vec::new();
    for (index, token) in text.split_whitespace().enumerate() {
        let mv = position
            .parse_move(token)
            .map_err(|e| format!("move {} `{token}`: {e}", index + 1))?;
        moves.push(position.format_move(mv));
        position.play_unchecked(mv);
        if position.is_over() {
            return Err(format!(
                "move {} `{token}` ends the game; an opening must leave a game to play",
                index + 1
            ));
        }
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUITE: &str =
        "# two suites\n[gomoku]\nh8 i9 j8\n  h8 h9   # a comment\n\n[mnk-3x3k3]\nb2\n";

    #[test]
    fn sections_and_blocks() {
        let suite = Openings::parse(SUITE, "suite.txt").unwrap();
        let gomoku: Variant = "gomoku".parse().unwrap();
        assert_eq!(suite.of(&gomoku).unwrap().len(), 2);
        assert_eq!(suite.for_block(&gomoku, 0).unwrap(), ["h8", "i9", "j8"]);
        assert_eq!(suite.for_block(&gomoku, 3).unwrap(), ["h8", "h9"]);
        let caro: Variant = "caro".parse().unwrap();
        assert_eq!(suite.for_block(&caro, 0), None);
        assert_ne!(suite.hash(&[gomoku]), suite.hash(&[caro]));
    }

    fn message(text: &str) -> String {
        Openings::parse(text, "suite.txt").unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_file_the_line_and_the_move() {
        let m = message("[gomoku]\nh8 i9\nh8 h8 j8\n");
        assert!(m.starts_with("suite.txt:3:1"), "{m}");
        assert!(m.contains("move 2 `h8`") && m.contains("occupied"), "{m}");
        let m = message("[gomoku]\nh8 z99\n");
        assert!(
            m.contains("suite.txt:2:") && m.contains("move 2 `z99`"),
            "{m}"
        );
        let m = message("h8\n");
        assert!(m.contains("before any section"), "{m}");
        let m = message("[mnk-99x3k3]\n");
        assert!(m.contains("suite.txt:1:2") && m.contains("99"), "{m}");
        let m = message("[gomoku]\nh8\n[mnk-15x15k5]\nh8\n");
        assert!(
            m.contains("suite.txt:3:") && m.contains("second section"),
            "{m}"
        );
        let m = message("[tictactoe]\na1 b1 a2 b2 a3\n");
        assert!(m.contains("move 5 `a3` ends the game"), "{m}");
        let m = message("[gomoku]\n[caro]\nh8\n");
        assert!(m.contains("[mnk-15x15k5] has no opening"), "{m}");
        let m = message("[gomoku\nh8\n");
        assert!(m.contains("suite.txt:1:1") && m.contains("brackets"), "{m}");
    }
}
