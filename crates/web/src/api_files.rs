//! Replay and Report: the game CSVs and reports under the results folder, and its charts.
//! Every path a request names is relative to the results folder and must stay inside it.
//!
//! Every file an endpoint reads or writes goes through one guard: [`inside`] finds it (a plain
//! relative path whose real place, links followed, lies in the folder), [`open_inside`] opens
//! it without following a link at its end and checks again where the opened file lies, and
//! refuses anything but a plain file (a pipe or a device never reaches a read); reads are
//! capped ([`read_capped`]); a report is written into a fresh hidden folder and moved into
//! place file by file, so a link standing where a file goes is replaced, never written
//! through. The listings leave out what the guard would refuse.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};

use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use pulldown_cmark::{CowStr, Event, Tag};
use rules::Variant;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::App;
use agents::AgentGame;

use crate::board::{board_json, place_json, steps_json};
use crate::error::{ApiError, Body, Query};

/// How deep under the results folder the pages look for CSVs and reports.
pub(crate) const DEPTH: usize = 4;

/// The most rows one page of a game list holds.
const PAGE_LIMIT: usize = 500;

/// The largest report.md the Report page reads, in bytes.
const REPORT_LIMIT: u64 = 16 << 20;

/// The largest file `/files/` sends, in bytes: a chart is a few hundred KiB, a CSV of a large
/// run some tens of MiB.
pub(crate) const FILE_LIMIT: u64 = 256 << 20;

/// The file or folder `relative` under the results folder: refused (400) unless it is a plain
/// relative path that stays inside the folder, also after links are followed; 404 if missing.
pub(crate) fn inside(app: &App, relative: &str) -> Result<PathBuf, ApiError> {
    let trimmed = relative.trim_start_matches("./");
    if trimmed.len() > 1024 {
        return Err(ApiError::bad("the path is too long"));
    }
    let path = Path::new(trimmed);
    let plain = path
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !plain || trimmed.contains('\\') || trimmed.contains('\0') {
        return Err(ApiError::bad(format!(
            "`{relative}` is outside the results folder: give a path inside it, like \
             default/games.csv, with no `..` and not starting with `/`"
        )));
    }
    let root = &app.inner.root;
    let full = root.join(path);
    let real = full.canonicalize().map_err(|_| {
        ApiError::not_found(format!(
            "`{relative}` is not in the results folder {}",
            app.results().display()
        ))
    })?;
    if !real.starts_with(root) {
        return Err(ApiError::bad(format!(
            "`{relative}` leads outside the results folder (through a link)"
        )));
    }
    Ok(real)
}

/// Opens the file `relative` under the results folder for reading, through [`inside`]: then
/// without following a link at its end (one put there since), refusing what is not a plain
/// file, and checking again where the opened file lies (a folder on its way swapped for a
/// link since). `shown` names it in errors.
pub(crate) fn open_inside(app: &App, relative: &str) -> Result<File, ApiError> {
    let real = inside(app, relative)?;
    open_real(app, &real, relative)
}

/// Opens `real`, a canonical path [`inside`] the results folder, as [`open_inside`] does.
pub(crate) fn open_real(app: &App, real: &Path, shown: &str) -> Result<File, ApiError> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        // No link at the end; a pipe opens at once (and is refused below) instead of waiting
        // for a writer.
        .custom_flags((rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32)
        .open(real)
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => ApiError::not_found(format!(
                "`{shown}` is not in the results folder {}",
                app.results().display()
            )),
            _ if error.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) => {
                ApiError::bad(format!(
                    "`{shown}` leads outside the results folder (through a link)"
                ))
            }
            _ => ApiError::illegal(format!("`{shown}` cannot be read: {}", io_words(&error))),
        })?;
    let plain = file.metadata().is_ok_and(|m| m.is_file());
    if !plain {
        return Err(ApiError::bad(format!(
            "`{shown}` is not a plain file (a folder, a pipe or a device)"
        )));
    }
    if !opened_inside(&file, &app.inner.root) {
        return Err(ApiError::bad(format!(
            "`{shown}` leads outside the results folder (through a link)"
        )));
    }
    Ok(file)
}

/// Whether the file `file` opened lies under `root`, as the system says (`/proc/self/fd`);
/// true where the system cannot say (the check before opening stands).
fn opened_inside(file: &File, root: &Path) -> bool {
    use std::os::fd::AsRawFd;
    match std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) {
        Ok(path) => path.starts_with(root),
        Err(_) => true,
    }
}

/// An I/O error in words, without the path (which may lie outside the folder).
pub(crate) fn io_words(error: &std::io::Error) -> String {
    let text = error.to_string();
    // std's own words end with "(os error N)"; the kind says the same shorter.
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Reads all of `file`, refused (409) when it holds more than `limit` bytes; `shown` names it.
pub(crate) fn read_capped(mut file: File, limit: u64, shown: &str) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::new();
    (&mut file)
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| {
            ApiError::illegal(format!("`{shown}` cannot be read: {}", io_words(&error)))
        })?;
    if bytes.len() as u64 > limit {
        return Err(ApiError::illegal(format!(
            "`{shown}` is larger than the {} MiB the server reads",
            limit >> 20
        )));
    }
    Ok(bytes)
}

/// The path of `full` relative to the results folder, with `/` between parts.
pub(crate) fn relative(app: &App, full: &Path) -> String {
    full.strip_prefix(&app.inner.root)
        .unwrap_or(full)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Plain files under `dir` (under the canonical results folder `root`), `depth` levels down,
/// in name order: hidden ones skipped, and what [`inside`] refuses (a link leading out of the
/// folder, a pipe, a device).
pub(crate) fn walk(root: &Path, dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        let Ok(real) = path.canonicalize() else {
            continue;
        };
        if !real.starts_with(root) {
            continue;
        }
        if real.is_dir() {
            if depth > 0 {
                walk(root, &path, depth - 1, out);
            }
        } else if real.is_file() {
            out.push(path);
        }
    }
}

/// `GET /api/records`: every arena game CSV under the results folder.
pub async fn records(State(app): State<App>) -> Result<Json<Value>, ApiError> {
    let root = app.inner.root.clone();
    let app2 = app.clone();
    let files = tokio::task::spawn_blocking(move || {
        let mut all = Vec::new();
        walk(&root, &root, DEPTH, &mut all);
        all.into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "csv"))
            .filter_map(|p| {
                let schema = arena::record::schema_of(&p).ok()?;
                Some(json!({ "file": relative(&app2, &p), "schema": schema }))
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|error| ApiError::conflict(format!("cannot list the records: {error}")))?;
    Ok(Json(
        json!({ "results": app.results().display().to_string(), "files": files }),
    ))
}

#[derive(Debug, Deserialize)]
pub struct GamesQuery {
    file: String,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    agent: Option<String>,
    /// Another seat's name, matched as `agent` is: the games of a pair (issue 36, missing 5:
    /// the report's pairs link to them).
    #[serde(default)]
    against: Option<String>,
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    offset: usize,
    #[serde(default)]
    limit: Option<usize>,
}

/// Whether a seat's name matches the Agent filter `needle` (lowercase): it contains it, case
/// aside; a needle in double quotes (`"mcts"`) is the whole name, case aside (the report's
/// links to an agent's games use it). The one rule for listing a game and for whether "the
/// agent" won or lost it.
fn name_matches(name: &str, needle: &str) -> bool {
    match needle
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    {
        Some(whole) => name.to_lowercase() == whole,
        None => name.to_lowercase().contains(needle),
    }
}

/// Whether `names` has a seat matching `needle` and, with `against`, another seat matching
/// that ([`name_matches`]).
fn seats_match(names: &[&str], needle: &str, against: Option<&str>) -> bool {
    (0..names.len()).any(|s| {
        name_matches(names[s], needle)
            && against.is_none_or(|other| {
                (0..names.len()).any(|t| t != s && name_matches(names[t], other))
            })
    })
}

/// Whether `row` has the result `filter`: `1-0`, `0-1`, `1/2-1/2`, `draw`, `decisive`, a
/// termination (`timeout`, `resign`, ...), or `won`/`lost` by a seat whose name matches the
/// Agent filter `needle` ([`name_matches`]).
fn result_matches(row: &arena::Row, filter: &str, needle: Option<&str>) -> bool {
    let places: Vec<&str> = row.result.split('-').collect();
    let names = row.seat_names();
    let seats: Vec<usize> = needle
        .map(|needle| {
            (0..names.len())
                .filter(|&s| name_matches(names[s], needle))
                .collect()
        })
        .unwrap_or_default();
    let place = |seat: usize| -> Option<u8> {
        match (row.seats(), row.result.as_str()) {
            (2, "1-0") => Some(if seat == 0 { 1 } else { 2 }),
            (2, "0-1") => Some(if seat == 0 { 2 } else { 1 }),
            (2, _) => Some(1),
            _ => places.get(seat).and_then(|p| p.parse().ok()),
        }
    };
    match filter {
        "" | "any" => true,
        "draw" => row.result == "1/2-1/2" || row.termination == "draw",
        "decisive" => row.result != "1/2-1/2" && row.termination != "draw",
        "won" => seats.iter().any(|&s| place(s) == Some(1)) && row.termination != "draw",
        "lost" => seats.iter().any(|&s| place(s).is_some_and(|p| p > 1)),
        other => row.result == other || row.termination == other,
    }
}

/// `GET /api/records/games?file=...`: one page of a CSV's games, filtered by variant, agent
/// (any seat's name contains it) and result, with the variants and agents it holds.
pub async fn games(
    State(app): State<App>,
    Query(query): Query<GamesQuery>,
) -> Result<Json<Value>, ApiError> {
    let real = inside(&app, &query.file)?;
    if real.extension().is_none_or(|e| e != "csv") {
        return Err(ApiError::bad(format!("`{}` is not a CSV file", query.file)));
    }
    let csv = open_real(&app, &real, &query.file)?;
    let limit = query.limit.unwrap_or(100).clamp(1, PAGE_LIMIT);
    let file = query.file.clone();
    let work = tokio::task::spawn_blocking(move || {
        let mut variants = std::collections::BTreeSet::new();
        let mut agents = std::collections::BTreeSet::new();
        let mut games = Vec::new();
        let mut total = 0usize;
        let mut index = 0usize;
        let variant_filter = query.variant.filter(|v| !v.is_empty());
        let agent_filter = query.agent.filter(|a| !a.is_empty());
        let needle = agent_filter.as_ref().map(|a| a.to_lowercase());
        let against = query
            .against
            .filter(|a| !a.is_empty())
            .map(|a| a.to_lowercase());
        let result_filter = query.result.unwrap_or_default();
        let name = Path::new(&file);
        // A run may be appending: its unfinished last line is left out.
        arena::record::read_complete_rows_from(name, csv, |_, row| {
            let at = index;
            index += 1;
            variants.insert(row.variant.clone());
            for name in row.seat_names() {
                agents.insert(name.to_string());
            }
            if variant_filter.as_ref().is_some_and(|v| *v != row.variant) {
                return Ok(());
            }
            if let Some(needle) = &needle
                && !seats_match(&row.seat_names(), needle, against.as_deref())
            {
                return Ok(());
            }
            if !result_matches(&row, &result_filter, needle.as_deref()) {
                return Ok(());
            }
            total += 1;
            if total > query.offset && games.len() < limit {
                games.push(json!({
                    "row": at,
                    "game": row.game,
                    "variant": row.variant,
                    "seats": row.seat_names(),
                    "result": row.result,
                    "termination": row.termination,
                    "plies": row.plies,
                    "experiment": row.experiment,
                }));
            }
            Ok(())
        })
        .map_err(|error| ApiError::illegal(format!("`{file}` cannot be read: {error}")))?;
        Ok::<_, ApiError>(json!({
            "file": file,
            "total": total,
            "offset": query.offset,
            "games": games,
            "variants": variants,
            "agents": agents,
        }))
    });
    work.await
        .map_err(|error| ApiError::conflict(format!("cannot read the games: {error}")))?
        .map(Json)
}

#[derive(Debug, Deserialize)]
pub struct GameQuery {
    file: String,
    row: usize,
}

/// `GET /api/records/game?file=...&row=N`: the game on data row N (from 0), with the
/// position after every move, for stepping through it.
pub async fn game(
    State(app): State<App>,
    Query(query): Query<GameQuery>,
) -> Result<Json<Value>, ApiError> {
    let csv = open_inside(&app, &query.file)?;
    let file = query.file.clone();
    let work = tokio::task::spawn_blocking(move || {
        let mut found = None;
        let mut index = 0usize;
        let name = Path::new(&file);
        arena::record::read_complete_rows_from(name, csv, |_, row| {
            if index == query.row {
                found = Some(row);
            }
            index += 1;
            Ok(())
        })
        .map_err(|error| ApiError::illegal(format!("`{file}` cannot be read: {error}")))?;
        let row = found.ok_or_else(|| {
            ApiError::not_found(format!(
                "`{file}` has {index} games; there is no row {}",
                query.row
            ))
        })?;
        let variant: Variant = row.variant.parse().map_err(|error| {
            ApiError::illegal(format!("row {}: unknown variant: {error}", query.row))
        })?;
        let line =
            rules::with_game!(variant, |start| replay(start, &row.moves)).map_err(|error| {
                ApiError::illegal(format!("row {} does not replay: {error}", query.row))
            })?;
        Ok::<_, ApiError>(json!({
            "file": file,
            "row": query.row,
            "game": row.game,
            "experiment": row.experiment,
            "variant": row.variant,
            // As text: a seed is a 64-bit number, more than a script's numbers hold exactly.
            "seed": row.seed.to_string(),
            "seats": row.seat_names(),
            "result": row.result,
            "termination": row.termination,
            "plies": row.plies,
            "moves": line.0,
            "positions": line.1,
        }))
    });
    work.await
        .map_err(|error| ApiError::conflict(format!("cannot read the game: {error}")))?
        .map(Json)
}

#[derive(Debug, Deserialize)]
pub struct LineQuery {
    variant: String,
    #[serde(default)]
    moves: String,
}

/// `GET /api/replay?variant=ID&moves=...`: a game given by its variant and moves (a shared
/// link), with the position after every move, as `/api/records/game` gives a recorded one.
pub async fn line(Query(query): Query<LineQuery>) -> Result<Json<Value>, ApiError> {
    let variant = crate::api_analyse::parse_variant(&query.variant)?;
    let work = tokio::task::spawn_blocking(move || {
        let line = rules::with_game!(variant, |start| replay(start, &query.moves))
            .map_err(|error| ApiError::illegal(format!("`{variant}`: {error}")))?;
        Ok::<_, ApiError>(json!({
            "variant": variant.to_string(),
            "moves": line.0,
            "positions": line.1,
        }))
    });
    work.await
        .map_err(|error| ApiError::conflict(format!("cannot replay the game: {error}")))?
        .map(Json)
}

/// The moves of a game with where each lands, and the position before the first and after
/// each.
fn replay<G: AgentGame>(start: G, moves: &str) -> Result<(Vec<Value>, Vec<Value>), String> {
    let mut position = start;
    let mut played = Vec::new();
    let mut positions = vec![board_json(&position)];
    for (at, text) in moves.split_whitespace().enumerate() {
        let mv = position
            .parse_move(text)
            .map_err(|error| format!("move {} (`{text}`): {error}", at + 1))?;
        played.push(json!({
            "move": position.format_move(mv),
            "place": place_json(&position, mv),
            "seat": position.side_to_move().index(),
            "sowing": steps_json(&position, mv),
        }));
        position.play_unchecked(mv);
        positions.push(board_json(&position));
    }
    Ok((played, positions))
}

/// `GET /api/reports`: the folders under the results folder with a report or a games CSV.
pub async fn reports(State(app): State<App>) -> Result<Json<Value>, ApiError> {
    let root = app.inner.root.clone();
    let app2 = app.clone();
    let folders = tokio::task::spawn_blocking(move || {
        let mut all = Vec::new();
        walk(&root, &root, DEPTH, &mut all);
        let mut folders: Vec<(String, bool, bool)> = Vec::new();
        for path in all {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            let Some(dir) = path.parent() else { continue };
            let (report, games) = match name.as_deref() {
                Some("report.md") => (true, false),
                Some("games.csv") => (false, true),
                _ => continue,
            };
            let dir = relative(&app2, dir);
            match folders.iter_mut().find(|f| f.0 == dir) {
                Some(folder) => {
                    folder.1 |= report;
                    folder.2 |= games;
                }
                None => folders.push((dir, report, games)),
            }
        }
        folders
            .into_iter()
            .map(|(dir, report, games)| json!({ "dir": dir, "report": report, "games": games }))
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|error| ApiError::conflict(format!("cannot list the reports: {error}")))?;
    Ok(Json(
        json!({ "results": app.results().display().to_string(), "folders": folders }),
    ))
}

#[derive(Debug, Deserialize)]
pub struct ReportQuery {
    dir: String,
}

/// The folder `dir` under the results folder (`""`, `/` or `.` is the results folder itself).
pub(crate) fn folder(app: &App, dir: &str) -> Result<PathBuf, ApiError> {
    let dir = dir.trim_end_matches('/');
    let path = if dir.is_empty() || dir == "." {
        app.inner.root.clone()
    } else {
        inside(app, dir)?
    };
    if !path.is_dir() {
        return Err(ApiError::bad(format!("`{dir}` is not a folder")));
    }
    Ok(path)
}

/// The path of the file `name` in the folder `base` (relative to the results folder).
pub(crate) fn in_folder(base: &str, name: &str) -> String {
    if base.is_empty() {
        name.to_string()
    } else {
        format!("{base}/{name}")
    }
}

/// The report.md of the folder `base` (relative to the results folder) as the page's JSON.
fn show_report(app: &App, base: &str) -> Result<Value, ApiError> {
    let shown = in_folder(base, "report.md");
    let file = open_inside(app, &shown).map_err(|error| {
        if error.status == StatusCode::NOT_FOUND {
            ApiError::not_found(format!(
                "`{}` has no report.md yet: write it with the button, or `arena report`",
                if base.is_empty() { "." } else { base }
            ))
        } else {
            error
        }
    })?;
    let bytes = read_capped(file, REPORT_LIMIT, &shown)?;
    let markdown = String::from_utf8(bytes)
        .map_err(|_| ApiError::illegal(format!("`{shown}` is not UTF-8 text")))?;
    Ok(json!({ "dir": base, "html": render(&markdown, base) }))
}

/// `GET /api/report?dir=...`: the folder's report.md as HTML, its images and links pointing
/// into the folder.
pub async fn report(
    State(app): State<App>,
    Query(query): Query<ReportQuery>,
) -> Result<Json<Value>, ApiError> {
    let dir = folder(&app, &query.dir)?;
    let base = relative(&app, &dir);
    tokio::task::spawn_blocking(move || show_report(&app, &base))
        .await
        .map_err(|error| ApiError::conflict(format!("cannot read the report: {error}")))?
        .map(Json)
}

/// `POST /api/report {"dir": ...}`: writes the report of the folder's games.csv into it (what
/// `arena report DIR/games.csv` does), then shows it.
pub async fn write_report(
    State(app): State<App>,
    Body(query): Body<ReportQuery>,
) -> Result<Json<Value>, ApiError> {
    let dir = folder(&app, &query.dir)?;
    let base = relative(&app, &dir);
    let csv = open_inside(&app, &in_folder(&base, "games.csv")).map_err(|error| {
        if error.status == StatusCode::NOT_FOUND {
            ApiError::not_found(format!("`{}` has no games.csv", query.dir))
        } else {
            error
        }
    })?;
    // Off the server's async threads, and one at a time: the report of a large pool takes
    // long (the report's own business), and no request waits on it but this one.
    let writing = app.begin_report()?;
    let written = tokio::task::spawn_blocking(move || {
        let _writing = writing;
        write_into(&app, &dir, csv)?;
        show_report(&app, &base)
    })
    .await
    .map_err(|error| ApiError::conflict(format!("the report failed: {error}")))?;
    written.map(Json)
}

/// Writes the report of `csv` (the folder's games.csv, opened by [`open_inside`]) into `dir`:
/// into a fresh hidden folder first, then each file moved into place, so that a link where a
/// file goes is replaced, never written through.
fn write_into(app: &App, dir: &Path, mut csv: File) -> Result<(), ApiError> {
    let refused = |error: report::Error| ApiError::illegal(format!("no report: {error}"));
    // A run appending to the file may be writing its last line this very moment: it is left
    // out, as `arena report` leaves it out.
    let whole = arena::record::complete_length(&mut csv)
        .and_then(|whole| csv.seek(SeekFrom::Start(0)).map(|_| whole))
        .map_err(|error| {
            ApiError::illegal(format!("games.csv cannot be read: {}", io_words(&error)))
        })?;
    let games =
        report::Report::from_csv_reader("games.csv", std::io::BufReader::new(csv.take(whole)))
            .map_err(refused)?;
    let staging = Staging::new(dir, app.random())?;
    let summary = games
        .write(&staging.0, &report::Options::default())
        .map_err(refused)?;
    for file in &summary.files {
        let Some(name) = file.file_name() else {
            continue;
        };
        std::fs::rename(file, dir.join(name)).map_err(|error| {
            ApiError::illegal(format!(
                "no report: `{}` cannot be put in place: {}",
                name.to_string_lossy(),
                io_words(&error)
            ))
        })?;
    }
    Ok(())
}

/// A hidden folder a report is written into before its files are moved into place; removed
/// with what is left in it when dropped (the listings skip hidden names meanwhile).
struct Staging(PathBuf);

impl Staging {
    fn new(dir: &Path, random: u64) -> Result<Staging, ApiError> {
        let path = dir.join(format!(".report-{random:016x}"));
        std::fs::create_dir(&path).map_err(|error| {
            ApiError::illegal(format!(
                "no report: the folder cannot be written: {}",
                io_words(&error)
            ))
        })?;
        Ok(Staging(path))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // Never follows a link: one put in its place is removed, not what it points at.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Markdown to HTML for the Report page: tables on, raw HTML shown as text (a report is data,
/// not a page), relative images and links pointing at `/files/BASE/`.
fn render(markdown: &str, base: &str) -> String {
    let options =
        pulldown_cmark::Options::ENABLE_TABLES | pulldown_cmark::Options::ENABLE_STRIKETHROUGH;
    let prefix = if base.is_empty() {
        "/files/".to_string()
    } else {
        format!("/files/{base}/")
    };
    let local = |url: &str| {
        !(url.contains("://")
            || url.starts_with('/')
            || url.starts_with('#')
            || url.starts_with("mailto:"))
    };
    let events = pulldown_cmark::Parser::new_ext(markdown, options).map(|event| match event {
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) if local(&dest_url) => Event::Start(Tag::Image {
            link_type,
            dest_url: CowStr::from(format!("{prefix}{dest_url}")),
            title,
            id,
        }),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) if local(&dest_url) => Event::Start(Tag::Link {
            link_type,
            dest_url: CowStr::from(format!("{prefix}{dest_url}")),
            title,
            id,
        }),
        Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
        other => other,
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, with_heading_ids(events.collect()).into_iter());
    html
}

/// Every heading given the id GitHub gives it ([`report::Anchors`]), so that a report's
/// contents (`[Standings](#standings)`) lead to it on the Report page as on GitHub.
fn with_heading_ids(mut events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut anchors = report::Anchors::default();
    for at in 0..events.len() {
        if !matches!(events[at], Event::Start(Tag::Heading { .. })) {
            continue;
        }
        let mut text = String::new();
        for event in &events[at + 1..] {
            match event {
                Event::End(pulldown_cmark::TagEnd::Heading(_)) => break,
                Event::Text(part) | Event::Code(part) => text.push_str(part),
                _ => {}
            }
        }
        if let Event::Start(Tag::Heading { id, .. }) = &mut events[at] {
            *id = Some(CowStr::from(anchors.next(&text)));
        }
    }
    events
}

/// `GET /files/PATH`: a chart, CSV or report under the results folder.
pub async fn file(
    State(app): State<App>,
    UrlPath(path): UrlPath<String>,
) -> Result<Response, ApiError> {
    let full = inside(&app, &path)?;
    let kind = match full.extension().and_then(|e| e.to_str()) {
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("csv") => "text/csv; charset=utf-8",
        Some("md") => "text/markdown; charset=utf-8",
        Some("toml") => "text/plain; charset=utf-8",
        _ => {
            return Err(ApiError::bad(format!(
                "`{path}`: the server sends charts (PNG, SVG), CSVs, reports and experiment files only"
            )));
        }
    };
    let bytes = tokio::task::spawn_blocking(move || {
        let file = open_real(&app, &full, &path)?;
        read_capped(file, FILE_LIMIT, &path)
    })
    .await
    .map_err(|error| ApiError::conflict(format!("cannot read the file: {error}")))??;
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            // An SVG opened on its own must not run scripts in this origin.
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
            ),
        ],
        bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "The agent won" takes the Agent filter as the listing does: part of a name, case aside.
    #[test]
    fn won_and_lost_match_the_agent_as_the_listing_does() {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/default/games.csv");
        let file = std::fs::File::open(&source).unwrap();
        let mut rows = Vec::new();
        arena::record::read_rows_from(&source, std::io::BufReader::new(file), |_, row| {
            rows.push(row);
            Ok(())
        })
        .unwrap();
        let count = |filter: &str, needle: &str| {
            rows.iter()
                .filter(|row| row.seat_names().iter().any(|n| name_matches(n, needle)))
                .filter(|row| result_matches(row, filter, Some(needle)))
                .count()
        };
        for filter in ["won", "lost"] {
            let whole = count(filter, "mcts-1k");
            assert!(whole > 0, "the sample run has games {filter} by mcts-1k");
            assert_eq!(
                count(filter, "mcts"),
                whole,
                "`mcts` {filter} as `mcts-1k` does"
            );
        }
    }

    /// Issue 36, missing 5: a name in quotes is the whole name (the report's links), and
    /// `against` keeps a pair's games, whichever seat each agent had.
    #[test]
    fn a_quoted_agent_is_its_whole_name_and_against_keeps_a_pairs_games() {
        assert!(name_matches("mcts-1k", "mcts"));
        assert!(name_matches("mcts-1k", "\"mcts-1k\""));
        assert!(!name_matches("mcts-1k", "\"mcts\""));
        assert!(!name_matches("mcts-1k0", "\"mcts-1k\""));
        let pair = ["random", "mcts-1k"];
        assert!(seats_match(&pair, "\"mcts-1k\"", Some("\"random\"")));
        assert!(seats_match(&pair, "\"random\"", Some("\"mcts-1k\"")));
        assert!(!seats_match(&pair, "\"mcts-1k\"", Some("\"easy\"")));
        // The agent's own seat is not its opponent.
        assert!(!seats_match(&["mcts-1k", "easy"], "mcts", Some("mcts")));
        assert!(seats_match(&["mcts-1k", "mcts-10k"], "mcts", Some("mcts")));
    }

    /// While a report is being written, a second is refused with a 409 that says so, and none
    /// of its files is touched; once the first is done the next goes ahead.
    #[tokio::test]
    async fn one_report_is_written_at_a_time() {
        // Cargo's CARGO_TARGET_TMPDIR (TARGET/tmp) is given to integration tests only: this
        // binary is TARGET/PROFILE/deps/NAME.
        let target = std::env::current_exe().unwrap();
        let target = target.ancestors().nth(3).unwrap();
        let results = target
            .join("tmp")
            .join(format!("arena-web-one-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&results);
        std::fs::create_dir_all(results.join("sample")).unwrap();
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/default/games.csv");
        std::fs::copy(source, results.join("sample/games.csv")).unwrap();
        let options = crate::Options::local(0, results.clone());
        let app = App::new(options.clone(), options.address).unwrap();
        let ask = || ReportQuery {
            dir: "sample".into(),
        };
        let first = app.begin_report().unwrap();
        let refused = match write_report(State(app.clone()), Body(ask())).await {
            Ok(_) => panic!("a second report was written while the first was"),
            Err(error) => error,
        };
        assert_eq!(refused.status, StatusCode::CONFLICT, "{refused}");
        assert!(refused.message.contains("one at a time"), "{refused}");
        assert!(!results.join("sample/report.md").exists());
        drop(first);
        let written = write_report(State(app), Body(ask())).await;
        assert!(written.is_ok(), "{:?}", written.err());
        assert!(results.join("sample/report.md").is_file());
        let _ = std::fs::remove_dir_all(results);
    }

    #[test]
    fn reports_render_with_their_charts_in_the_folder_and_no_raw_html() {
        let html = render(
            "# Report\n\n![Elo](elo-all.png)\n\n[csv](ratings.csv) [web](https://x.org)\n\n<script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
            "default",
        );
        assert!(
            html.contains(r#"<img src="/files/default/elo-all.png""#),
            "{html}"
        );
        assert!(
            html.contains(r#"<a href="/files/default/ratings.csv""#),
            "{html}"
        );
        assert!(html.contains(r#"<a href="https://x.org""#), "{html}");
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(html.contains("<table>"), "{html}");
        // Issue 36, missing 5: headings carry the anchors the report's contents link to.
        let page = render(
            "# R\n\n## Contents\n\n- [a](#a-9-cells): [standings](#standings-1)\n\n## a (9 cells)\n\n### Standings\n\n## b\n\n### Standings\n",
            "default",
        );
        assert!(page.contains(r#"<h2 id="a-9-cells">"#), "{page}");
        assert!(page.contains(r#"<h3 id="standings">"#), "{page}");
        assert!(page.contains(r#"<h3 id="standings-1">"#), "{page}");
        assert!(page.contains(r##"<a href="#standings-1">"##), "{page}");
    }
}
