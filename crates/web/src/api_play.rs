//! The Play API: open a game, show it, a person's move, an agent's move, a hint, undo,
//! resign, and the person's clock. Finished games go to the play record.

use std::sync::Arc;
use std::time::Duration;

use agents::clock::{GameClock, TimeControl};
use arena::table::Seat;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, Body};
use crate::seats::{PERSON, agent_spec, find_own, memory_mb, own_seat};
use crate::table::{Recorded, WebTable};
use crate::{AnyTable, App};

/// `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The variant id.
    variant: String,
    /// One entry per seat in turn order: `human` or an agent spec.
    seats: Vec<String>,
    /// The names of the people's seats (one per seat; agents' entries are ignored).
    #[serde(default)]
    names: Vec<Option<String>>,
    /// Seconds every seat has for each move (`st`).
    #[serde(default)]
    move_time: Option<f64>,
    /// The same as `move_time`, as cutechess names it.
    #[serde(default)]
    st: Option<f64>,
    /// A game clock for every seat, as cutechess writes it: `300+2`, `40/120`, `5:00+3`
    /// (or with `tc=` in front).
    #[serde(default)]
    tc: Option<String>,
    /// The seed of the agents' generators (default: a fresh one, recorded with the game).
    #[serde(default)]
    seed: Option<u64>,
}

/// The body of the other posts: the ply the page saw, and for `resign` the seat.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Act {
    #[serde(default)]
    ply: Option<usize>,
    #[serde(default, rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    seat: Option<usize>,
}

pub async fn create(
    State(app): State<App>,
    Body(request): Body<NewGame>,
) -> Result<Json<Value>, ApiError> {
    let variant: rules::Variant = request.variant.parse().map_err(|error| {
        ApiError::bad(format!("unknown variant `{}`: {error}", request.variant))
    })?;
    let players = variant.players();
    if request.seats.len() != players {
        return Err(ApiError::bad(format!(
            "`{variant}` seats {players} players; {} seats were given",
            request.seats.len()
        )));
    }
    let mut seats = Vec::with_capacity(players);
    // The operator's agents seated, by spec with the name the pages show.
    let mut own = Vec::new();
    for (at, text) in request.seats.iter().enumerate() {
        let what = format!("seat {}", at + 1);
        if text.trim().eq_ignore_ascii_case(PERSON) {
            let given = request.names.get(at).cloned().flatten();
            let name = match given {
                Some(name) if !name.trim().is_empty() => arena::played::check_name(&name)
                    .map_err(|error| ApiError::bad(format!("{what}'s name: {error}")))?,
                _ => app.options().name.clone(),
            };
            seats.push(Seat::Person(name));
        } else if let Some(offered) = find_own(app.own_agents(), text) {
            // A variant typed by hand is checked now, once (remembered).
            let checked_now = match offered.to_check(&variant) {
                true => Some(app.check_own_later(offered, &variant).await),
                false => None,
            };
            let spec = own_seat(offered, &variant, &what, checked_now)?;
            own.push((spec.clone(), text.trim().to_string()));
            seats.push(Seat::Agent(spec));
        } else {
            let spec = agent_spec(text, &variant, &what)?;
            crate::seats::within_think_limit(&spec, app.options().think_limit, &what)?;
            seats.push(Seat::Agent(spec));
        }
    }
    let time_control = time_control(&request)?;
    // A short seed is easy to read back and type; games differ by it all the same.
    let seed = request.seed.unwrap_or_else(|| app.random() % 1_000_000);
    let hint = arena::played::hard_spec(&variant);
    // What the table's agents may hold: each seated agent's settings, and the hint agent's
    // where a person sits (it is built at the first hint).
    let people = seats.iter().any(|seat| matches!(seat, Seat::Person(_)));
    let memory = seats
        .iter()
        .filter_map(|seat| match seat {
            Seat::Agent(spec) => Some(spec),
            Seat::Person(_) => None,
        })
        .chain(people.then_some(&hint))
        .map(memory_mb)
        .sum();
    let limit = app.options().think_limit;
    let sandbox = app.options().sandbox;
    let table: AnyTable = rules::with_game!(variant, |start| Box::new(WebTable::new(
        start,
        seats,
        seed,
        time_control,
        hint,
        limit,
        (own.clone(), sandbox)
    )?));
    let view = table.view("", true);
    let id = app.open(table, memory)?;
    let mut view = view;
    view["id"] = json!(id);
    Ok(Json(view))
}

/// The time control of `tc` and `move_time`/`st`.
fn time_control(request: &NewGame) -> Result<TimeControl, ApiError> {
    let (field, seconds) = match (request.move_time, request.st) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad(
                "give `move_time` or `st` (the same limit per move), not both",
            ));
        }
        (Some(seconds), None) => ("move_time", Some(seconds)),
        (None, seconds) => ("st", seconds),
    };
    let per_move = match seconds {
        None => None,
        // To the millisecond, as `st` is written in the record and read back.
        Some(seconds) if seconds.is_finite() && (0.5..=3600.0).contains(&seconds) => {
            Some(Duration::from_millis((seconds * 1000.0).round() as u64))
        }
        Some(seconds) => {
            return Err(ApiError::bad(format!(
                "{field} {}: the time per move is from 0.5 to 3600 seconds",
                number_text(seconds)
            )));
        }
    };
    let clock: Option<GameClock> = match request.tc.as_deref() {
        None => None,
        Some(text) => {
            let clock =
                GameClock::parse_tc(text).map_err(|error| ApiError::bad(format!("tc: {error}")))?;
            if clock.time < Duration::from_secs(1) {
                return Err(ApiError::bad(format!(
                    "tc `{text}`: a game clock at a table where people play starts with 1 \
                     second or more"
                )));
            }
            Some(clock)
        }
    };
    Ok(TimeControl { per_move, clock })
}

/// A number as a person wrote it: `1e308`, not its 309 digits.
fn number_text(number: f64) -> String {
    let plain = number.to_string();
    if plain.len() > 12 {
        format!("{number:e}")
    } else {
        plain
    }
}

pub async fn show(State(app): State<App>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let table = app.table(&id)?;
    let mut any = table.lock().await;
    any.check_clock();
    record(&app, &mut any).await;
    Ok(Json(any.view(&id, true)))
}

pub async fn person_move(
    State(app): State<App>,
    Path(id): Path<String>,
    Body(act): Body<Act>,
) -> Result<Json<Value>, ApiError> {
    let text = act
        .mv
        .ok_or_else(|| ApiError::bad("say the move: {\"move\": \"b2\"}"))?;
    let table = app.table(&id)?;
    let mut any = table.lock().await;
    let played = any.person_move(&text, act.ply);
    // A move out of time ends the game: recorded, and answered with the reason.
    record(&app, &mut any).await;
    let played = played?;
    Ok(Json(
        json!({ "played": played, "game": any.view(&id, false) }),
    ))
}

pub async fn think(
    State(app): State<App>,
    Path(id): Path<String>,
    Body(act): Body<Act>,
) -> Result<Json<Value>, ApiError> {
    let table = app.table(&id)?;
    think_at(app, table, id, act.ply, false).await
}

pub async fn hint(
    State(app): State<App>,
    Path(id): Path<String>,
    Body(act): Body<Act>,
) -> Result<Json<Value>, ApiError> {
    let table = app.table(&id)?;
    think_at(app, table, id, act.ply, true).await
}

/// An agent thinks, for its move (`hint` false) or for a person's hint: taken out of the table
/// under the lock, run on the blocking pool without it, and put back under it. It starts at
/// once, whatever other tables' agents are doing: the cores are shared among them by the
/// operating system, so a cheap agent never queues behind an expensive one (each table thinks
/// about one thing at a time, so the tables' cap bounds the threads). The work runs in a task
/// of its own, so a page that leaves mid-thought leaves the table whole.
async fn think_at(
    app: App,
    table: Arc<tokio::sync::Mutex<AnyTable>>,
    id: String,
    ply: Option<usize>,
    hint: bool,
) -> Result<Json<Value>, ApiError> {
    let job = {
        let mut any = table.lock().await;
        any.check_clock();
        let job = any.begin(hint, ply);
        if job.is_err() {
            record(&app, &mut any).await;
        }
        job?
    };
    let work = tokio::spawn(async move {
        let answer = tokio::task::spawn_blocking(job).await;
        let mut any = table.lock().await;
        let played = match answer {
            Ok(answer) => any.end(answer),
            // The thread died outside the agent's own panic guard: the agent is gone.
            Err(error) => any.agent_lost(&error.to_string()),
        };
        record(&app, &mut any).await;
        // A hint changes nothing: the page keeps its move list; a move adds one.
        let view = any.view(&id, false);
        // A game that ended dropped its agents (`record` said so); one closed while its agent
        // thought goes now.
        drop(any);
        if Arc::into_inner(table).is_some() {
            app.freed();
        }
        let key = if hint { "hint" } else { "played" };
        Ok(json!({ key: played, "game": view }))
    });
    match work.await {
        Ok(answer) => answer.map(Json),
        Err(error) => Err(ApiError::conflict(format!(
            "the agent's turn failed: {error}"
        ))),
    }
}

/// `DELETE /api/games/ID`: the page leaves the game for another; it is freed now (a game left
/// unfinished is not recorded).
pub async fn close(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    app.close(&id)?;
    Ok(Json(json!({ "closed": id })))
}

/// `POST /api/games/ID/leave`: the page was closed or reloaded (the browser's beacon); the game
/// is freed after the grace unless a request takes it up again.
pub async fn leave(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    app.leave(&id)?;
    Ok(Json(json!({ "left": id })))
}

pub async fn undo(
    State(app): State<App>,
    Path(id): Path<String>,
    Body(act): Body<Act>,
) -> Result<Json<Value>, ApiError> {
    change(app, id, |any| any.undo(act.ply)).await
}

pub async fn resign(
    State(app): State<App>,
    Path(id): Path<String>,
    Body(act): Body<Act>,
) -> Result<Json<Value>, ApiError> {
    change(app, id, |any| any.resign(act.seat, act.ply)).await
}

/// `POST /api/games/ID/move-now`: the agent thinking about its move answers with its best so
/// far (issue 36, defect 22); its move comes back to the `think` request that asked for it.
pub async fn move_now(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let table = app.table(&id)?;
    let any = table.lock().await;
    any.move_now()?;
    Ok(Json(json!({ "asked": true })))
}

pub async fn ready(
    State(app): State<App>,
    Path(id): Path<String>,
    Body(act): Body<Act>,
) -> Result<Json<Value>, ApiError> {
    change(app, id, |any| any.ready(act.ply)).await
}

/// A change of the table under its lock, then the record if the game ended, then the view.
async fn change(
    app: App,
    id: String,
    apply: impl FnOnce(&mut AnyTable) -> Result<(), ApiError>,
) -> Result<Json<Value>, ApiError> {
    let table = app.table(&id)?;
    let mut any = table.lock().await;
    let changed = apply(&mut any);
    record(&app, &mut any).await;
    changed?;
    Ok(Json(json!({ "game": any.view(&id, true) })))
}

/// Appends the table's game to the play record if it is over and not recorded yet (on the
/// blocking pool: the record is a locked file).
async fn record(app: &App, any: &mut AnyTable) {
    let Some(game) = any.take_record(arena::played::BROWSER) else {
        return;
    };
    // The ended game's agents (and its hint agent) are gone with it.
    app.freed();
    let record = app.options().record.clone();
    let root = app.inner.root.clone();
    let written = {
        let record = record.clone();
        tokio::task::spawn_blocking(move || arena::played::append(&record, &game)).await
    };
    let state = match written {
        Ok(Ok(game)) => {
            let shown = record
                .canonicalize()
                .ok()
                .and_then(|p| p.strip_prefix(&root).ok().map(|p| p.display().to_string()))
                .unwrap_or_else(|| record.display().to_string());
            Recorded::Done(shown, game)
        }
        Ok(Err(error)) => Recorded::Failed(error.to_string()),
        Err(error) => Recorded::Failed(error.to_string()),
    };
    any.set_recorded(state);
}

/// A download: `body` as a file named `name` of type `kind`.
fn download(kind: &'static str, name: String, body: String) -> Response {
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response()
}

/// `GET /api/games/ID/record.csv`: the game's row of the play record as the server wrote it,
/// under the record's header (a CSV of one game that `arena report` and Replay read), once the
/// game is recorded.
pub async fn record_csv(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let table = app.table(&id)?;
    let (game, variant) = {
        let any = table.lock().await;
        let variant = any.view(&id, false)["variant"]
            .as_str()
            .unwrap_or("game")
            .to_string();
        match any.recorded() {
            Recorded::Done(_, game) => (*game, variant),
            Recorded::Failed(why) => {
                return Err(ApiError::conflict(format!(
                    "the game was not recorded: {why}"
                )));
            }
            Recorded::Pending => {
                return Err(ApiError::conflict(
                    "the game is not recorded yet: its row is written when it ends",
                ));
            }
        }
    };
    let record = app.options().record.clone();
    let text = tokio::task::spawn_blocking(move || record_row(&record, game))
        .await
        .map_err(|error| ApiError::conflict(format!("cannot read the record: {error}")))??;
    Ok(download(
        "text/csv; charset=utf-8",
        format!("{variant}-game-{game}.csv"),
        text,
    ))
}

/// The header and the row of game `game` (its index) of the play record `record`.
fn record_row(record: &std::path::Path, game: u64) -> Result<String, ApiError> {
    let text = std::fs::read_to_string(record).map_err(|error| {
        ApiError::conflict(format!(
            "cannot read the play record `{}`: {error}",
            record.display()
        ))
    })?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    // The game's index is its row's third column (experiment, variant, game, ...).
    let row = lines
        .find(|line| line.split(',').nth(2) == Some(game.to_string().as_str()))
        .ok_or_else(|| {
            ApiError::conflict(format!(
                "the play record `{}` has no game {game} (was it moved?)",
                record.display()
            ))
        })?;
    Ok(format!("{header}\n{row}\n"))
}

/// `GET /api/games/ID/moves.txt`: the game's moves as text, numbered in rounds, under its
/// variant, seats and result (or the move to come while it goes on).
pub async fn moves_text(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let table = app.table(&id)?;
    let view = table.lock().await.view(&id, true);
    let text = |value: &Value| value.as_str().unwrap_or_default().to_string();
    let players = view["players"].as_u64().unwrap_or(2).max(1) as usize;
    let mut out = format!("variant {}\n", text(&view["variant"]));
    for seat in view["seats"].as_array().into_iter().flatten() {
        out.push_str(&format!("seat {}\n", text(&seat["label"])));
    }
    out.push_str(&format!("seed {}\n", view["seed"]));
    match view["over"].as_object() {
        Some(over) => out.push_str(&format!(
            "result {} ({}): {}\n",
            text(&over["result"]),
            text(&over["termination"]),
            text(&over["summary"])
        )),
        None => out.push_str("result * (the game goes on)\n"),
    }
    out.push('\n');
    let moves: Vec<String> = text(&view["moves"])
        .split_whitespace()
        .map(str::to_string)
        .collect();
    for (round, chunk) in moves.chunks(players).enumerate() {
        out.push_str(&format!("{}. {}\n", round + 1, chunk.join(" ")));
    }
    Ok(download(
        "text/plain; charset=utf-8",
        format!("{}-moves.txt", text(&view["variant"])),
        out,
    ))
}
