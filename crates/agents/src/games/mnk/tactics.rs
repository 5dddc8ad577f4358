//! The tactics suite: m,n,k positions with a known answer, for tests and `arena bench`.
//!
//! The suite lives in `crates/agents/tests/data/tactics.txt`, one position a line:
//! `variant | moves | kind | answer`, where the answer is every move that solves the position:
//!
//! | kind | the position | the answer | found by |
//! | --- | --- | --- | --- |
//! | `win1` | the side to move wins at once | the winning cells | the rules |
//! | `block` | the opponent wins at once next move, the side to move cannot win now | the moves that stop every immediate win | the rules |
//! | `vcf N` | no immediate win for either side; the shortest VCF of the side to move has N plies (at most 15) | every move that starts a VCF (of at most 20 fours) | exhaustive VCF search |
//! | `win` | a small board the side to move wins | every winning move | df-pn, every move solved |
//! | `draw` | a small board with a drawn value where some moves lose | every move that keeps the draw | df-pn, every move solved |
//!
//! The suite was built by `cargo run --release -p agents --example build_tactics` (seeded
//! games, the positions classified and answered by the solvers here) and every answer is
//! checked again by `crates/agents/tests/it/tactics.rs`. An agent *solves* a position when the
//! move it chooses is one of the answer moves.

use std::fmt;

use rules::{Cell, Game, Mnk, MoveList, TwoPlayer, Variant};

use super::dfpn::{self, DfpnLimits};
use super::threats;
use crate::solve::Value;

/// The suite as shipped.
pub const SUITE: &str = include_str!("../../../tests/data/tactics.txt");

/// The deepest VCF (in own moves) whose first moves make a `vcf` answer.
pub const VCF_ANSWER_DEPTH: u32 = 20;

/// What a position asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PuzzleKind {
    /// Win at once.
    WinNow,
    /// Stop the opponent's immediate win.
    Block,
    /// Win by continuous fours; the shortest VCF has this many plies.
    Vcf(u32),
    /// Find a winning move (a small board, solved exactly).
    Win,
    /// Keep the draw (a small board, solved exactly).
    Draw,
}

impl PuzzleKind {
    /// The kind's group name in reports: `win1`, `block`, `vcf`, `win`, `draw`.
    pub fn group(self) -> &'static str {
        match self {
            PuzzleKind::WinNow => "win1",
            PuzzleKind::Block => "block",
            PuzzleKind::Vcf(_) => "vcf",
            PuzzleKind::Win => "win",
            PuzzleKind::Draw => "draw",
        }
    }
}

impl fmt::Display for PuzzleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleKind::Vcf(plies) => write!(f, "vcf {plies}"),
            other => f.write_str(other.group()),
        }
    }
}

/// One position of the suite.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The 1-based line of the suite file.
    pub line: usize,
    /// The position.
    pub position: Mnk,
    /// The moves from the start, as written.
    pub moves: String,
    /// What it asks.
    pub kind: PuzzleKind,
    /// Every move that solves it.
    pub answer: Vec<Cell>,
}

impl Puzzle {
    /// The suite line of this position.
    pub fn to_line(&self) -> String {
        let answer: Vec<String> = self
            .answer
            .iter()
            .map(|&c| self.position.format_move(c))
            .collect();
        format!(
            "{} | {} | {} | {}",
            self.position.variant(),
            self.moves,
            self.kind,
            answer.join(" ")
        )
    }
}

/// Parses a suite; errors name the line.
pub fn parse(text: &str) -> Result<Vec<Puzzle>, String> {
    let mut out = Vec::new();
    for (number, raw) in text.lines().enumerate() {
        let line = number + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split('|').map(str::trim).collect();
        let [variant, moves, kind, answer] = fields[..] else {
            return Err(format!(
                "line {line}: expected `variant | moves | kind | answer`, found {} fields",
                fields.len()
            ));
        };
        let config = variant
            .parse::<Variant>()
            .map_err(|e| format!("line {line}: {e}"))?
            .rules::<rules::MnkConfig>()
            .ok_or_else(|| format!("line {line}: `{variant}` is not an m,n,k variant"))?;
        let position = config
            .start()
            .play_line(moves)
            .map_err(|e| format!("line {line}: {e}"))?;
        if position.is_over() {
            return Err(format!("line {line}: the game is over after these moves"));
        }
        let kind = match kind.split_whitespace().collect::<Vec<_>>()[..] {
            ["win1"] => PuzzleKind::WinNow,
            ["block"] => PuzzleKind::Block,
            ["win"] => PuzzleKind::Win,
            ["draw"] => PuzzleKind::Draw,
            ["vcf", plies] => PuzzleKind::Vcf(
                plies
                    .parse()
                    .map_err(|_| format!("line {line}: `vcf {plies}`: a number of plies"))?,
            ),
            _ => {
                return Err(format!(
                    "line {line}: unknown kind `{kind}` (win1, block, vcf N, win, draw)"
                ));
            }
        };
        let answer = answer
            .split_whitespace()
            .map(|text| {
                position
                    .parse_move(text)
                    .map_err(|e| format!("line {line}: answer `{text}`: {e}"))
            })
            .collect::<Result<Vec<Cell>, String>>()?;
        if answer.is_empty() {
            return Err(format!("line {line}: no answer move"));
        }
        out.push(Puzzle {
            line,
            position,
            moves: moves.to_string(),
            kind,
            answer,
        });
    }
    Ok(out)
}

/// The shipped suite.
pub fn suite() -> Vec<Puzzle> {
    parse(SUITE).expect("the shipped suite parses (a test checks it)")
}

/// The moves of `position` after which the opponent has no immediate win.
fn stopping_moves(position: &Mnk) -> Vec<Cell> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let mut wins = MoveList::new();
    moves
        .iter()
        .copied()
        .filter(|&mv| {
            crate::AgentGame::immediate_wins(&position.child(mv), &mut wins);
            wins.is_empty()
        })
        .collect()
}

/// The kind and answer of `position` as the solvers find them, or why it is no puzzle:
/// `small` says whether to solve it exactly (df-pn, within `seconds`) when nothing is forced;
/// on large boards only the forced kinds and VCF count.
pub fn classify(
    position: &Mnk,
    small: bool,
    seconds: f64,
) -> Result<(PuzzleKind, Vec<Cell>), String> {
    if position.is_over() {
        return Err("the game is over".into());
    }
    let mut wins = MoveList::new();
    crate::AgentGame::immediate_wins(position, &mut wins);
    if !wins.is_empty() {
        return Ok((PuzzleKind::WinNow, wins.iter().copied().collect()));
    }
    // The opponent's immediate wins: the cells where its stone would win.
    let opponent = Mnk::opponent(position.side_to_move());
    let threatened = position
        .empty_cells()
        .iter()
        .any(|cell| position.wins_at(cell, opponent));
    if threatened {
        let stopping = stopping_moves(position);
        if stopping.is_empty() {
            return Err("lost: nothing stops the opponent".into());
        }
        return Ok((PuzzleKind::Block, stopping));
    }
    if let Some((plies, _)) = threats::shortest_vcf(position, 7, 2_000_000) {
        let first = threats::vcf_first_moves(position, VCF_ANSWER_DEPTH, 20_000_000)
            .ok_or("the VCF search ran out of nodes")?;
        return Ok((PuzzleKind::Vcf(plies), first));
    }
    if !small {
        return Err("no forced answer on a large board".into());
    }
    let limits = DfpnLimits {
        tt_mb: 64,
        time: Some(std::time::Duration::from_secs_f64(seconds)),
        nodes: None,
        monitor: None,
        all_moves: true,
    };
    let solution = dfpn::solve(position, &limits);
    let Some(value) = solution.value else {
        return Err("not solved in time".into());
    };
    if solution.moves.iter().any(|(_, v)| v.is_none()) {
        return Err("not every move solved in time".into());
    }
    let kind = match value {
        Value::Win => PuzzleKind::Win,
        Value::Draw => PuzzleKind::Draw,
        Value::Loss => return Err("every move loses".into()),
    };
    Ok((kind, solution.best.clone()))
}

/// Whether `agent` solves `puzzle`: its move is one of the answer moves.
pub fn solves(
    agent: &mut dyn crate::Agent<Mnk>,
    puzzle: &Puzzle,
    seed: u64,
) -> Result<bool, String> {
    use rand::SeedableRng;
    let mut rng = crate::AgentRng::seed_from_u64(seed);
    let choice = agent
        .choose(&puzzle.position, &mut crate::Context::new(&mut rng))
        .map_err(|e| format!("line {}: {e}", puzzle.line))?;
    Ok(puzzle.answer.contains(&choice.mv))
}
