//! Positions for learning: every recorded game replayed into the positions it went through,
//! each with the move played there and the game's final result, written as an `.npz` file
//! (NumPy arrays, [`crate::npz`]) that Python reads in one call (`arenagames.load_positions`).
//! `docs/src/reference/positions.md` documents the file.
//!
//! The games come from any record the arena writes: a run's results folder (its `games.csv`
//! or shard CSVs), an `arena sprt` folder, or a play record (`arena play`, `arena serve`).
//! Each is first checked by [`crate::verify()`] (every row the game its schedule says, its
//! moves legal and replaying to its result), so a result written into a record by hand is
//! refused, not learnt from. A row's moves run from the variant's start (an opening's moves
//! included), so the positions are rebuilt from the moves alone. Games a fault ended
//! (`crash`, `illegal-move`, `timeout`) are left out: a forfeit says nothing of the position.
//!
//! Generic over games: a position is the game's [`rules::encoding`] observation from the
//! side to move's view (the Python package's `Game.observation()`), its symmetries are the
//! ones the game's solver key folds ([`AgentGame::solver_key`]), and its move is the game's
//! action number and notation.
//!
//! Sampling (every position, `n` a game, or a fraction) draws from a stream of the export's
//! seed per game, and deduplication keeps the first occurrence in the order the games are
//! read: the same records, options and seed give the same file, byte for byte.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use agents::{AgentGame, AgentRng};
use rand::{RngExt as _, SeedableRng as _};
use rules::{Game, Outcome, Player, Variant, encoding};

use crate::ArenaError;
use crate::npz::{Dtype, NpzWriter, str_element};
use crate::play::Termination;
use crate::record::{self, Row};

/// The version of the file's layout, its `version` array: bumped on any change of arrays or
/// meaning.
pub const FORMAT_VERSION: u32 = 1;

/// Which positions of a game are exported.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sample {
    /// Every position.
    Every,
    /// At most this many a game, drawn without replacement (all of them in shorter games).
    PerGame(u32),
    /// Each position with this probability (more than 0, at most 1).
    Fraction(f64),
}

/// How [`export`] chooses its positions.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// The variant to export; required when the records hold several.
    pub variant: Option<Variant>,
    /// Which positions of each game.
    pub sample: Sample,
    /// The seed of the sampling.
    pub seed: u64,
    /// Whether a position seen before (equal up to a symmetry of the board, where the game
    /// has them) is left out.
    pub dedup: bool,
    /// Positions before this ply (counted from the variant's start) are left out: an
    /// opening's, say.
    pub min_ply: u32,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions {
            variant: None,
            sample: Sample::Every,
            seed: 0,
            dedup: false,
            min_ply: 0,
        }
    }
}

/// What [`export`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportSummary {
    /// The game files read, in order.
    pub files: Vec<PathBuf>,
    /// The variant exported.
    pub variant: Variant,
    /// Games of that variant replayed.
    pub games: u64,
    /// Games of that variant left out because a fault ended them.
    pub faulted: u64,
    /// Games of other variants left out.
    pub other_variants: u64,
    /// Positions written.
    pub positions: u64,
    /// Positions left out as seen before (with `dedup`).
    pub duplicates: u64,
    /// The shape of one position's observation.
    pub shape: Vec<usize>,
}

/// A game as read from a record: where, and its row.
struct Recorded {
    path: PathBuf,
    line: u64,
    row: Row,
}

/// Exports the positions of the games recorded in `inputs` (results folders, `arena sprt`
/// folders, play records) into the `.npz` file `out` (created or replaced).
pub fn export(
    inputs: &[PathBuf],
    out: &Path,
    options: &ExportOptions,
) -> Result<ExportSummary, ArenaError> {
    if let Sample::Fraction(f) = options.sample
        && !(f > 0.0 && f <= 1.0)
    {
        return Err(ArenaError::Export(format!(
            "a fraction of the positions is more than 0 and at most 1, not {f}"
        )));
    }
    if options.sample == Sample::PerGame(0) {
        return Err(ArenaError::Export(
            "positions per game: 1 or more (0 would export nothing)".into(),
        ));
    }
    let mut files = Vec::new();
    let mut games = Vec::new();
    for input in inputs {
        let checked = crate::verify(input, None)?;
        for file in checked.files {
            record::read_complete_rows(&file, |line, row| {
                games.push(Recorded {
                    path: file.clone(),
                    line,
                    row,
                });
                Ok(())
            })?;
            files.push(file);
        }
    }
    let mut variants: Vec<String> = Vec::new();
    for game in &games {
        if !variants.contains(&game.row.variant) {
            variants.push(game.row.variant.clone());
        }
    }
    let variant = match (options.variant, variants.as_slice()) {
        (Some(variant), _) if variants.contains(&variant.to_string()) => variant,
        (Some(variant), _) => {
            return Err(ArenaError::Export(format!(
                "no game of `{variant}` in {}: the records hold {}",
                list(&files),
                if variants.is_empty() {
                    "no games".to_string()
                } else {
                    quoted(&variants)
                }
            )));
        }
        (None, [one]) => one
            .parse()
            .map_err(|e| ArenaError::Export(format!("variant `{one}` of the records: {e}")))?,
        (None, []) => {
            return Err(ArenaError::Export(format!(
                "no games in {}: nothing to export",
                list(&files)
            )));
        }
        (None, several) => {
            return Err(ArenaError::Export(format!(
                "the records hold games of {}: a file holds one variant, choose it with \
                 --variant",
                quoted(several)
            )));
        }
    };
    let id = variant.to_string();
    let other_variants = games.iter().filter(|g| g.row.variant != id).count() as u64;
    games.retain(|g| g.row.variant == id);
    let mut summary = rules::with_game!(variant, |start| write_positions(
        &start, &games, out, options
    ))?;
    summary.files = files;
    summary.other_variants = other_variants;
    Ok(summary)
}

fn list(files: &[PathBuf]) -> String {
    let shown: Vec<String> = files.iter().map(|f| format!("`{}`", f.display())).collect();
    shown.join(", ")
}

fn quoted(texts: &[String]) -> String {
    let shown: Vec<String> = texts.iter().map(|t| format!("`{t}`")).collect();
    shown.join(", ")
}

/// One position chosen: everything but its observation, which the second pass encodes.
struct Chosen {
    game: u32,
    /// The index of the move played from it in the game's moves.
    index: usize,
    ply: u32,
    side: Player,
    action: i32,
    text: String,
    result: f32,
}

/// The moves of a recorded game, parsed from the variant's start.
fn moves_of<G: Game>(start: &G, game: &Recorded) -> Result<Vec<G::Move>, ArenaError> {
    let mut position = start.clone();
    let mut moves = Vec::new();
    for (index, text) in game.row.moves.split_whitespace().enumerate() {
        let mv = position.parse_move(text).map_err(|e| ArenaError::Csv {
            path: game.path.clone(),
            line: game.line,
            message: format!("game {}: move {} (`{text}`): {e}", game.row.game, index + 1),
        })?;
        position.play_unchecked(mv);
        moves.push(mv);
    }
    Ok(moves)
}

fn write_positions<G: AgentGame>(
    start: &G,
    games: &[Recorded],
    out: &Path,
    options: &ExportOptions,
) -> Result<ExportSummary, ArenaError> {
    let players = start.num_players();
    let view = start.view();
    let shape = encoding::observation_shape(&view);
    let (low, high) = encoding::observation_bounds(&view);
    let narrow = low.iter().all(|&l| l >= 0.0) && high.iter().all(|&h| h <= 255.0);
    let observation_type = if narrow { Dtype::U8 } else { Dtype::I16 };

    // First pass: which positions, and all about them but their observations.
    let mut chosen = Vec::new();
    let mut outcomes: Vec<f32> = Vec::new();
    let mut seen = HashSet::new();
    let (mut used, mut faulted, mut duplicates) = (0u32, 0, 0);
    let mut candidates = Vec::new();
    for game in games {
        let termination = Termination::parse(&game.row.termination);
        if termination.is_some_and(Termination::is_fault) {
            faulted += 1;
            continue;
        }
        let outcome =
            Outcome::parse_result(&game.row.result, players).ok_or_else(|| ArenaError::Csv {
                path: game.path.clone(),
                line: game.line,
                message: format!(
                    "game {}: result `{}` is not a result of {players} seats",
                    game.row.game, game.row.result
                ),
            })?;
        let moves = moves_of(start, game)?;
        let mut position = start.clone();
        candidates.clear();
        for (index, &mv) in moves.iter().enumerate() {
            if position.ply() >= options.min_ply {
                let key = options.dedup.then(|| position.solver_key().0);
                if key.is_some_and(|key| seen.contains(&key)) {
                    duplicates += 1;
                } else {
                    candidates.push((index, key, position.ply(), position.side_to_move(), mv));
                }
            }
            position.play_unchecked(mv);
        }
        let mut rng = AgentRng::seed_from_u64(rules::splitmix64(
            options.seed ^ rules::splitmix64(u64::from(used)),
        ));
        let keep: Vec<usize> = match options.sample {
            Sample::Every => (0..candidates.len()).collect(),
            Sample::PerGame(n) => {
                let n = (n as usize).min(candidates.len());
                let mut picked: Vec<usize> =
                    rand::seq::index::sample(&mut rng, candidates.len(), n).into_vec();
                picked.sort_unstable();
                picked
            }
            Sample::Fraction(f) => (0..candidates.len())
                .filter(|_| rng.random_bool(f))
                .collect(),
        };
        let mut position = start.clone();
        let mut at = 0;
        for k in keep {
            let (index, key, ply, side, mv) = candidates[k];
            if let Some(key) = key
                && !seen.insert(key)
            {
                // The same position twice in one game (a repetition, or a symmetric twin).
                duplicates += 1;
                continue;
            }
            while at < index {
                position.play_unchecked(moves[at]);
                at += 1;
            }
            chosen.push(Chosen {
                game: used,
                index,
                ply,
                side,
                action: position.action(mv).map_or(-1, |a| a as i32),
                text: position.format_move(mv),
                result: outcome.score(side) as f32,
            });
            outcomes.extend(Player::all(players).map(|seat| outcome.score(seat) as f32));
        }
        used += 1;
    }

    let n = chosen.len();
    let mut npz = NpzWriter::create(out)?;
    npz.array("version", Dtype::U32, &[], &FORMAT_VERSION.to_le_bytes())?;
    let id = start.variant().to_string();
    let mut text = Vec::new();
    str_element(&id, id.chars().count(), &mut text);
    npz.array("variant", Dtype::Str(id.chars().count()), &[], &text)?;

    // Second pass: the observations, one game replayed at a time.
    let mut dims = vec![n];
    dims.extend(&shape);
    npz.begin("observation", observation_type, &dims)?;
    let mut values = Vec::new();
    let mut bytes = Vec::new();
    let mut rest = chosen.as_slice();
    for (number, game) in games
        .iter()
        .filter(|g| !Termination::parse(&g.row.termination).is_some_and(Termination::is_fault))
        .enumerate()
    {
        let count = rest.iter().take_while(|c| c.game == number as u32).count();
        if count == 0 {
            continue;
        }
        let (here, later) = rest.split_at(count);
        rest = later;
        let moves = moves_of(start, game)?;
        let mut position = start.clone();
        let mut at = 0;
        for c in here {
            while at < c.index {
                position.play_unchecked(moves[at]);
                at += 1;
            }
            encoding::observe(&position.view(), c.side, &mut values);
            bytes.clear();
            for &v in &values {
                if narrow {
                    bytes.push(v as u8);
                } else if v.fract() == 0.0 && (-32768.0..=32767.0).contains(&v) {
                    bytes.extend_from_slice(&(v as i16).to_le_bytes());
                } else {
                    return Err(ArenaError::Csv {
                        path: game.path.clone(),
                        line: game.line,
                        message: format!(
                            "game {} at ply {}: an observation value {v} does not fit the \
                             file's int16",
                            game.row.game, c.ply
                        ),
                    });
                }
            }
            npz.write(&bytes)?;
        }
    }
    npz.end()?;

    let column = |f: &dyn Fn(&Chosen) -> Vec<u8>| chosen.iter().flat_map(f).collect::<Vec<u8>>();
    npz.array(
        "side_to_move",
        Dtype::U8,
        &[n],
        &column(&|c| vec![c.side.index() as u8]),
    )?;
    npz.array(
        "ply",
        Dtype::U32,
        &[n],
        &column(&|c| c.ply.to_le_bytes().to_vec()),
    )?;
    npz.array(
        "action",
        Dtype::I32,
        &[n],
        &column(&|c| c.action.to_le_bytes().to_vec()),
    )?;
    let width = chosen
        .iter()
        .map(|c| c.text.chars().count())
        .max()
        .unwrap_or(0)
        .max(1);
    let mut texts = Vec::new();
    for c in &chosen {
        str_element(&c.text, width, &mut texts);
    }
    npz.array("move", Dtype::Str(width), &[n], &texts)?;
    npz.array(
        "result",
        Dtype::F32,
        &[n],
        &column(&|c| c.result.to_le_bytes().to_vec()),
    )?;
    let scores: Vec<u8> = outcomes.iter().flat_map(|s| s.to_le_bytes()).collect();
    npz.array("outcome", Dtype::F32, &[n, players], &scores)?;
    npz.array(
        "game",
        Dtype::U32,
        &[n],
        &column(&|c| c.game.to_le_bytes().to_vec()),
    )?;
    npz.finish()?;
    Ok(ExportSummary {
        files: Vec::new(),
        variant: start.variant(),
        games: u64::from(used),
        faulted,
        other_variants: 0,
        positions: n as u64,
        duplicates,
        shape,
    })
}
