//! Live: a run as it plays. `arena run` (or the shards of a Slurm job) and the server share
//! only files: the CSVs as they grow, the fault log, the meta file, and the games in progress
//! the run keeps beside its CSV ([`arena::live`]). The server only reads them, through the
//! results folder's guard ([`crate::api_files`]), and takes no lock: a run never waits for a
//! page. A CSV's last line without its newline (a row being written, or a run killed while
//! writing it) is left out until it is whole.
//!
//! `GET /api/live` lists the folders holding a run; `GET /api/live/run?dir=...` is one run's
//! state: its standings (the report's ratings of the games so far), the crosstable (with
//! several variants so far: every variant's pool together, then each variant's in `variants`), the games
//! in progress with their position, the last games finished and the faults with their
//! reasons, each finished game with the CSV row that Replay shows. `since` (the `version` of
//! the previous answer: the sizes and times of its files) answers `{"unchanged": true}` when
//! no file changed, so a page polling every few seconds costs a few `stat`s.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use axum::Json;
use axum::extract::State;
use rules::Variant;
use serde::Deserialize;
use serde_json::{Value, json};

use agents::AgentGame;
use arena::live::{LiveFile, live_path};
use arena::meta::{Meta, meta_path};

use crate::App;
use crate::api_files::{DEPTH, FILE_LIMIT, folder, in_folder, io_words, open_real, relative, walk};
use crate::board::{board_json, place_json};
use crate::error::{ApiError, Query};

/// The most finished games an answer lists (the latest).
const RECENT: usize = 12;

/// The most faults an answer lists (the latest).
const FAULTS: usize = 20;

/// The most agents the crosstable shows (a class of 30 and 5 references fit).
const CROSSTABLE_AGENTS: usize = 40;

/// The largest fault log, meta or live file read, in bytes.
const SMALL_FILE_LIMIT: u64 = 4 << 20;

/// Whether `name` is a run's games CSV: `games.csv` or a shard's.
fn is_games_csv(name: &str) -> bool {
    name == "games.csv" || (name.starts_with("games.shard-") && name.ends_with(".csv"))
}

/// `GET /api/live`: the folders under the results folder with a run's CSV (a whole run's or a
/// shard's), those playing now first.
pub async fn runs(State(app): State<App>) -> Result<Json<Value>, ApiError> {
    let root = app.inner.root.clone();
    let app2 = app.clone();
    let runs = tokio::task::spawn_blocking(move || {
        let mut all = Vec::new();
        walk(&root, &root, DEPTH, &mut all);
        let now = arena::live::now_ms();
        let mut runs: Vec<(String, bool, u64)> = Vec::new();
        for path in all {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            if !name.as_deref().is_some_and(is_games_csv) {
                continue;
            }
            let Some(dir) = path.parent() else { continue };
            let playing = read_live(&path)
                .ok()
                .flatten()
                .is_some_and(|live| !live.stale(now));
            let modified = modified_ms(&path);
            let dir = relative(&app2, dir);
            match runs.iter_mut().find(|r| r.0 == dir) {
                Some(run) => {
                    run.1 |= playing;
                    run.2 = run.2.max(modified);
                }
                None => runs.push((dir, playing, modified)),
            }
        }
        // Playing first, then the latest written.
        runs.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
        runs.into_iter()
            .map(|(dir, playing, _)| json!({ "dir": dir, "playing": playing }))
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|error| ApiError::conflict(format!("cannot list the runs: {error}")))?;
    Ok(Json(
        json!({ "results": app.results().display().to_string(), "runs": runs }),
    ))
}

fn modified_ms(path: &Path) -> u64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as u64)
}

/// A small file beside a run's CSV (which lies inside the results folder): `None` if there is
/// none, or it is a link, a folder, a pipe or a device (nothing outside the folder is read).
fn read_beside(path: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => {}
        _ => return Ok(None),
    }
    let file = std::fs::File::open(path).map_err(|e| io_words(&e))?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, SMALL_FILE_LIMIT), &mut bytes)
        .map_err(|e| io_words(&e))?;
    Ok(Some(bytes))
}

/// The live file beside `csv`: `None` if there is none.
fn read_live(csv: &Path) -> Result<Option<LiveFile>, String> {
    match read_beside(&live_path(csv))? {
        None => Ok(None),
        Some(bytes) => LiveFile::parse(&String::from_utf8_lossy(&bytes)).map(Some),
    }
}

#[derive(Debug, Deserialize)]
pub struct RunQuery {
    dir: String,
    #[serde(default)]
    since: Option<String>,
}

/// One CSV of a run: its path relative to the results folder and its real place.
struct RunFile {
    shown: String,
    real: PathBuf,
}

/// The run's CSVs in `dir`: `games.csv`, else every shard's; an error that says so when the
/// folder cannot be listed.
fn run_files(dir: &Path, base: &str) -> Result<Vec<RunFile>, ApiError> {
    let entries = std::fs::read_dir(dir).map_err(|error| {
        ApiError::illegal(format!(
            "the server cannot read the folder `{}`: {}",
            if base.is_empty() { "." } else { base },
            io_words(&error)
        ))
    })?;
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| is_games_csv(n))
        .collect();
    names.sort();
    if names.iter().any(|n| n == "games.csv") {
        names.retain(|n| n == "games.csv");
    }
    Ok(names
        .into_iter()
        .map(|name| RunFile {
            shown: in_folder(base, &name),
            real: dir.join(&name),
        })
        .collect())
}

/// A version of the run's files: their names, sizes and modification times, hashed.
fn version(files: &[RunFile]) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in files {
        for path in [
            file.real.clone(),
            live_path(&file.real),
            file.real.with_extension("faults.log"),
            meta_path(&file.real),
        ] {
            path.hash(&mut hasher);
            if let Ok(m) = std::fs::metadata(&path) {
                m.len().hash(&mut hasher);
                m.modified().ok().hash(&mut hasher);
            }
        }
    }
    format!("{:016x}", hasher.finish())
}

/// A fault of the fault log: `game N (variant): `agent` termination: message`.
fn parse_fault(line: &str) -> Option<(u64, &str)> {
    let rest = line.strip_prefix("game ")?;
    let (number, _) = rest.split_once(' ')?;
    Some((number.parse().ok()?, line))
}

/// `GET /api/live/run?dir=...`: one run's state (see the module's docs).
pub async fn run(
    State(app): State<App>,
    Query(query): Query<RunQuery>,
) -> Result<Json<Value>, ApiError> {
    let dir = folder(&app, &query.dir)?;
    let base = query.dir.trim_end_matches('/').to_string();
    let base = if base == "." { String::new() } else { base };
    let work = tokio::task::spawn_blocking(move || {
        let files = run_files(&dir, &base)?;
        if files.is_empty() {
            return Err(ApiError::not_found(format!(
                "`{}` holds no games.csv and no shard CSVs: start `arena run EXPERIMENT --out {}`",
                if base.is_empty() { "." } else { &base },
                if base.is_empty() { "." } else { &base }
            )));
        }
        let version = version(&files);
        if query.since.as_deref() == Some(version.as_str()) {
            return Ok(json!({ "unchanged": true, "version": version }));
        }
        state(&app, &base, &files, version)
    });
    work.await
        .map_err(|error| ApiError::conflict(format!("cannot read the run: {error}")))?
        .map(Json)
}

/// What the page shows of a run whose CSVs are `files`.
fn state(app: &App, base: &str, files: &[RunFile], version: String) -> Result<Value, ApiError> {
    let now = arena::live::now_ms();
    let mut problems: Vec<String> = Vec::new();
    let mut total: Option<u64> = Some(0);
    let mut experiment: Option<String> = None;
    let mut playing: Vec<arena::live::LiveGame> = Vec::new();
    let mut live_files = 0usize;
    let mut stale_files = 0usize;
    let mut faults: Vec<(u64, String)> = Vec::new();
    for file in files {
        // The schedule's size for this CSV, from its meta file.
        let meta = read_beside(&meta_path(&file.real))
            .ok()
            .flatten()
            .and_then(|b| Meta::parse(&String::from_utf8_lossy(&b)).ok());
        match meta {
            Some(meta) => {
                total = total.map(|t| t + meta.games_in_shard);
                experiment.get_or_insert(meta.experiment);
            }
            None => total = None,
        }
        match read_live(&file.real) {
            Ok(Some(live)) if !live.stale(now) => {
                live_files += 1;
                playing.extend(live.games);
            }
            Ok(Some(_)) => stale_files += 1,
            Ok(None) => {}
            Err(error) => problems.push(format!(
                "{}: {error}",
                relative(app, &live_path(&file.real))
            )),
        }
        if let Ok(Some(bytes)) = read_beside(&file.real.with_extension("faults.log")) {
            let text = String::from_utf8_lossy(&bytes);
            faults.extend(
                text.lines()
                    .filter_map(parse_fault)
                    .map(|(game, line)| (game, line.to_string())),
            );
        }
    }
    faults.sort_by_key(|f| f.0);
    let faults = &faults[faults.len().saturating_sub(FAULTS)..];

    // The finished games: every CSV read once, its unfinished last line left out.
    let mut report = report::Report::default();
    report.drop_duplicates(true);
    let mut done = 0u64;
    let mut recent: Vec<(u64, Value)> = Vec::new();
    let mut rows_of_faults: HashMap<u64, (String, usize)> = HashMap::new();
    let mut partial = false;
    for file in files {
        let mut opened = open_real(app, &file.real, &file.shown)?;
        let unreadable = |error: std::io::Error| {
            ApiError::illegal(format!(
                "`{}` cannot be read: {}",
                file.shown,
                io_words(&error)
            ))
        };
        // Only whole rows: a run may be writing the last line this very moment.
        let whole = arena::record::complete_length(&mut opened).map_err(unreadable)?;
        let len = opened.metadata().map_err(unreadable)?.len();
        partial |= whole < len;
        if whole > FILE_LIMIT {
            return Err(ApiError::illegal(format!(
                "`{}` is larger than the {} MiB the server reads",
                file.shown,
                FILE_LIMIT >> 20
            )));
        }
        opened.seek(SeekFrom::Start(0)).map_err(unreadable)?;
        let mut bytes = Vec::with_capacity(whole as usize);
        opened
            .take(whole)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        if bytes.is_empty() {
            continue;
        }
        let mut index = 0usize;
        arena::record::read_rows_from(Path::new(&file.shown), bytes.as_slice(), |_, row| {
            let at = index;
            index += 1;
            done += 1;
            // The live file is up to a second behind the CSV: a game recorded is over.
            playing.retain(|g| g.game != row.game || g.variant != row.variant);
            if faults.iter().any(|f| f.0 == row.game) {
                rows_of_faults.insert(row.game, (file.shown.clone(), at));
            }
            recent.push((
                row.game,
                json!({
                    "file": file.shown,
                    "row": at,
                    "game": row.game,
                    "variant": row.variant,
                    "seats": row.seat_names(),
                    "result": row.result,
                    "termination": row.termination,
                    "plies": row.plies,
                }),
            ));
            if recent.len() > 4 * RECENT {
                recent.sort_by_key(|r| std::cmp::Reverse(r.0));
                recent.truncate(RECENT);
            }
            Ok(())
        })
        .map_err(|error| ApiError::illegal(format!("`{}` cannot be read: {error}", file.shown)))?;
        report
            .add_csv_reader(&file.shown, bytes.as_slice())
            .map_err(|error| {
                ApiError::illegal(format!("`{}` cannot be rated: {error}", file.shown))
            })?;
    }
    recent.sort_by_key(|r| std::cmp::Reverse(r.0));
    recent.truncate(RECENT);
    let (standings, crosstable, pool, variants) = ratings(&report, &mut problems);

    let stopped_early = live_files == 0 && total.is_some_and(|t| done < t);
    let status = if live_files > 0 {
        "playing"
    } else if stale_files > 0 || stopped_early {
        "stopped"
    } else {
        "finished"
    };
    Ok(json!({
        "dir": base,
        "version": version,
        "status": status,
        "experiment": experiment,
        "files": files.iter().map(|f| f.shown.clone()).collect::<Vec<_>>(),
        "done": done,
        "total": total,
        "partial_line": partial,
        "pool": pool,
        "standings": standings,
        "crosstable": crosstable,
        "variants": variants,
        "playing": playing.iter().map(in_progress).collect::<Vec<_>>(),
        "recent": recent.into_iter().map(|r| r.1).collect::<Vec<_>>(),
        "faults": faults.iter().rev().map(|(game, line)| {
            let at = rows_of_faults.get(game);
            json!({
                "game": game,
                "text": line,
                "file": at.map(|a| a.0.clone()),
                "row": at.map(|a| a.1),
            })
        }).collect::<Vec<_>>(),
        "problems": problems,
    }))
}

/// The standings and crosstable of the games so far: the pool of every variant together
/// (`all`), or the one variant's; then, when the games so far have several variants, each
/// variant's pool (`variant`, `standings`, `crosstable`), in the report's order.
fn ratings(report: &report::Report, problems: &mut Vec<String>) -> (Value, Value, Value, Value) {
    let none = || (json!([]), Value::Null, Value::Null, json!([]));
    if report.games() == 0 {
        return none();
    }
    let options = report::Options::default().with_intervals(report::Intervals::Off);
    let summary = match report.analyse(&options) {
        Ok(summary) => summary,
        Err(error) => {
            problems.push(format!("the ratings: {error}"));
            return none();
        }
    };
    let Some(pool) = summary
        .pool(report::ALL_POOL)
        .or_else(|| summary.pools.first())
    else {
        return none();
    };
    let variants: Vec<&report::PoolRatings> = summary
        .pools
        .iter()
        .filter(|p| p.pool != report::ALL_POOL)
        .collect();
    let per_variant: Vec<Value> = if variants.len() > 1 {
        variants
            .iter()
            .map(|p| {
                let (standings, crosstable) = pool_json(p);
                json!({ "variant": p.pool, "standings": standings, "crosstable": crosstable })
            })
            .collect()
    } else {
        Vec::new()
    };
    let (standings, crosstable) = pool_json(pool);
    (standings, crosstable, json!(pool.pool), json!(per_variant))
}

/// One pool's standings and crosstable (null past [`CROSSTABLE_AGENTS`]).
fn pool_json(pool: &report::PoolRatings) -> (Value, Value) {
    let standings: Vec<Value> = pool
        .standings
        .iter()
        .map(|s| {
            json!({
                "agent": s.agent,
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "score": s.wins as f64 + s.draws as f64 / 2.0,
                "faults": s.faults,
                "elo": if s.finite { Some(s.elo.round()) } else { None },
            })
        })
        .collect();
    let agents: Vec<&str> = pool.standings.iter().map(|s| s.agent.as_str()).collect();
    let crosstable = if agents.len() <= CROSSTABLE_AGENTS {
        let cells: Vec<Vec<Value>> = agents
            .iter()
            .map(|a| {
                agents
                    .iter()
                    .map(|b| match pool.head_to_head(a, b) {
                        Some(p) if a != b && p.games() > 0 => json!([p.wins, p.draws, p.losses]),
                        _ => Value::Null,
                    })
                    .collect()
            })
            .collect();
        json!({ "agents": agents, "cells": cells })
    } else {
        Value::Null
    };
    (json!(standings), crosstable)
}

/// A game in progress as the page draws it: its position after the moves so far.
fn in_progress(game: &arena::live::LiveGame) -> Value {
    let drawn = game
        .variant
        .parse::<Variant>()
        .map_err(|e| e.to_string())
        .and_then(|variant| rules::with_game!(variant, |start| position_after(start, &game.moves)));
    let (position, last, error) = match drawn {
        Ok((position, last)) => (position, last, None),
        Err(error) => (Value::Null, Value::Null, Some(error)),
    };
    json!({
        "game": game.game,
        "variant": game.variant,
        "seats": game.seats,
        "plies": game.moves.split_whitespace().count(),
        "last_move": game.moves.split_whitespace().last(),
        "position": position,
        "last": last,
        "error": error,
    })
}

/// The position after `moves` from `start`, and where the last move landed.
fn position_after<G: AgentGame>(start: G, moves: &str) -> Result<(Value, Value), String> {
    let mut position = start;
    let mut last = Value::Null;
    for (at, text) in moves.split_whitespace().enumerate() {
        let mv = position
            .parse_move(text)
            .map_err(|error| format!("move {} (`{text}`): {error}", at + 1))?;
        last = place_json(&position, mv);
        position.play_unchecked(mv);
    }
    Ok((board_json(&position), last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_csvs_are_the_whole_run_and_the_shards() {
        assert!(is_games_csv("games.csv"));
        assert!(is_games_csv("games.shard-2-of-8.csv"));
        assert!(!is_games_csv("games.live.toml"));
        assert!(!is_games_csv("ratings.csv"));
        assert_eq!(
            parse_fault("game 12 (oware): `a` crash: x").map(|f| f.0),
            Some(12)
        );
        assert_eq!(parse_fault("nonsense"), None);
    }
}
