//! The Analyse API (a position from a move list, the solver's values, what agents would play),
//! the roster and presets the pages offer, and a person's statistics.

use std::time::{Duration, Instant};

use agents::AgentRng;
use agents::solve::Limits;
use axum::Json;
use axum::extract::State;
use rand::SeedableRng;
use rules::{Game, Variant};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::App;
use agents::AgentGame;

use crate::board::{board_json, place_json, position_json};
use crate::error::{ApiError, Body, Query};
use crate::seats::{agent_spec, build_agent, memory_mb, offered_kinds};
use crate::table::stats_json;

/// The variants the page offers for `family`: its aliases (named by the alias), its example,
/// then the presets of the family, each id once, canonical.
fn family_variants(family: &rules::Family) -> Vec<Value> {
    let mut offered: Vec<Value> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut offer = |text: &str, label: String, about: String| {
        let Ok(variant) = text.parse::<Variant>() else {
            return;
        };
        let id = variant.to_string();
        if variant.family() != family || seen.contains(&id) {
            return;
        }
        seen.push(id.clone());
        offered.push(
            json!({ "id": id, "label": label, "about": about, "players": variant.players() }),
        );
    };
    for (alias, id) in family.aliases {
        offer(alias, (*alias).to_string(), (*id).to_string());
    }
    offer(
        family.name,
        family.title.to_string(),
        family.name.to_string(),
    );
    offer(
        family.example,
        family.example.to_string(),
        family.title.to_string(),
    );
    for (id, about) in family.presets {
        offer(id, id.to_string(), about.to_string());
    }
    offered
}

/// The ids of the variants the page offers for `family` ([`family_variants`]).
pub(crate) fn family_variant_ids(family: &rules::Family) -> Vec<String> {
    family_variants(family)
        .iter()
        .filter_map(|v| v["id"].as_str().map(str::to_string))
        .collect()
}

pub async fn meta(State(app): State<App>) -> Json<Value> {
    let kinds: Vec<Value> = offered_kinds()
        .map(|k| {
            let params: Vec<Value> = k
                .params
                .iter()
                .map(|p| json!({ "name": p.name, "default": p.default, "doc": p.doc }))
                .collect();
            let families: Vec<&str> = rules::FAMILIES
                .iter()
                .filter(|f| k.plays.includes(f))
                .map(|f| f.name)
                .collect();
            json!({
                "name": k.name,
                "summary": k.summary,
                "reach": k.reach(),
                "families": families,
                "multiplayer": k.multiplayer,
                "params": params,
            })
        })
        .collect();
    let families: Vec<Value> = rules::FAMILIES
        .iter()
        .map(|f| {
            json!({
                "name": f.name,
                "title": f.title,
                "ids": f.ids,
                "example": f.example,
                "aliases": f.aliases.iter().map(|(alias, id)| json!({ "alias": alias, "id": id })).collect::<Vec<_>>(),
                "players": [f.players.0, f.players.1],
                "variants": family_variants(f),
            })
        })
        .collect();
    let options = app.options();
    // The operator's agents (`--agent`): each with its name, the variants it plays, or why it
    // is unavailable; never its spec (a command line of the operator's machine).
    let own: Vec<Value> = app
        .own_agents()
        .iter()
        .map(|o| {
            json!({
                "name": o.agent.name,
                "kind": o.agent.spec.kind,
                "variants": o.variants,
                // An id typed by hand of these games is checked when a game asks for it.
                "families": protocol::kind(&o.agent.spec.kind).map_or(Vec::new(), |kind| {
                    rules::FAMILIES
                        .iter()
                        .filter(|f| kind.plays.includes(f))
                        .map(|f| f.name)
                        .collect::<Vec<_>>()
                }),
                "unavailable": o.unavailable,
            })
        })
        .collect();
    Json(json!({
        "kinds": kinds,
        "agents": own,
        "families": families,
        "name": options.name,
        "results": options.results.display().to_string(),
        "record": options.record.display().to_string(),
        "version": env!("CARGO_PKG_VERSION"),
        "limits": {
            "tables": options.tables,
            "table_memory_mb": options.table_memory_mb,
            "idle_s": options.idle.as_secs(),
            "open": app.open_tables(),
            "held_mb": app.tables_memory_mb(),
        },
    }))
}

#[derive(Debug, Deserialize)]
pub struct VariantQuery {
    id: String,
}

/// `GET /api/variant?id=...`: the canonical id, its family, the number of players, the seats'
/// names, the easy and hard agents and the start position of a variant, or why the id is
/// wrong.
pub async fn variant(Query(query): Query<VariantQuery>) -> Result<Json<Value>, ApiError> {
    let variant = parse_variant(&query.id)?;
    let position = rules::with_game!(variant, |start| board_json(&start));
    Ok(Json(json!({
        "id": variant.to_string(),
        "family": variant.family().name,
        "title": variant.family().title,
        "players": variant.players(),
        "seat_names": position["seat_names"],
        "easy": arena::played::easy_spec(&variant).to_string(),
        "hard": arena::played::hard_spec(&variant).to_string(),
        "position": position,
        "rules": rules::with_game!(variant, |start| crate::table::rules_json(&start)),
    })))
}

pub(crate) fn parse_variant(id: &str) -> Result<Variant, ApiError> {
    if id.len() > 64 {
        return Err(ApiError::bad(
            "a variant id is a few characters, like mnk-15x15k5-caro",
        ));
    }
    id.parse()
        .map_err(|error| ApiError::bad(format!("unknown variant `{id}`: {error}")))
}

/// `POST /api/analyse`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    variant: String,
    #[serde(default)]
    moves: String,
    #[serde(default)]
    agents: Vec<String>,
    #[serde(default)]
    solve: bool,
    #[serde(default)]
    seed: u64,
}

/// The solver's time on one position: enough for small boards and short O An Quan lines.
const SOLVE_TIME: Duration = Duration::from_secs(5);

/// The solver's limits for one analysis.
fn solver_limits() -> Limits {
    Limits::default()
        .with_time(Some(SOLVE_TIME))
        .with_max_depth(30)
}

/// The most agents one analysis asks.
const ANALYSE_AGENTS: usize = 6;

pub async fn analyse(
    State(app): State<App>,
    Body(request): Body<AnalyseRequest>,
) -> Result<Json<Value>, ApiError> {
    let variant = parse_variant(&request.variant)?;
    if request.agents.len() > ANALYSE_AGENTS {
        return Err(ApiError::bad(format!(
            "at most {ANALYSE_AGENTS} agents per analysis"
        )));
    }
    let specs = request
        .agents
        .iter()
        .enumerate()
        .map(|(at, text)| {
            let what = format!("agent {}", at + 1);
            let spec = agent_spec(text, &variant, &what)?;
            crate::seats::within_think_limit(&spec, app.options().think_limit, &what)?;
            Ok(spec)
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    // The position is checked here, at once, before any thinking.
    rules::with_game!(variant, |start| position_after(start, &request.moves)?
        .is_over());
    // The agents think one after another, each dropped before the next is built, after the
    // solver: the most held at once is the largest of them.
    let memory = specs
        .iter()
        .map(memory_mb)
        .chain(request.solve.then(|| solver_limits().tt_mb as u64 + 1))
        .max()
        .unwrap_or(0);
    let permit = app.inner.thinkers.clone().acquire_owned().await;
    let hold = app.hold_for_analysis(memory)?;
    let think_limit = app.options().think_limit;
    let work = tokio::task::spawn_blocking(move || {
        let _held = (permit, hold);
        let job = Job {
            moves: &request.moves,
            specs: &specs,
            solve: request.solve,
            seed: request.seed,
            think_limit,
        };
        rules::with_game!(variant, |start| job.run(start))
    });
    let answer = work
        .await
        .map_err(|error| ApiError::conflict(format!("the analysis failed: {error}")))?;
    answer.map(Json)
}

fn position_after<G: Game>(start: G, moves: &str) -> Result<G, ApiError> {
    if moves.len() > 8000 {
        return Err(ApiError::bad("the move list is longer than any game"));
    }
    start
        .play_line(moves)
        .map_err(|error| ApiError::illegal(format!("bad move list: {error}")))
}

struct Job<'a> {
    moves: &'a str,
    specs: &'a [agents::AgentSpec],
    solve: bool,
    seed: u64,
    think_limit: Duration,
}

impl Job<'_> {
    fn run<G: AgentGame>(&self, start: G) -> Result<Value, ApiError> {
        let position = position_after(start.clone(), self.moves)?;
        let players = position.num_players();
        // Every position of the line, for stepping through it.
        let mut line = vec![board_json(&start)];
        let mut walk = start;
        let mut moves = Vec::new();
        for text in self.moves.split_whitespace() {
            let mv = walk
                .parse_move(text)
                .map_err(|e| ApiError::illegal(e.to_string()))?;
            moves.push(json!({ "move": walk.format_move(mv), "place": place_json(&walk, mv), "seat": walk.side_to_move().index() }));
            walk.play_unchecked(mv);
            line.push(board_json(&walk));
        }
        let over = position.outcome().map(|o| o.result_text().into_owned());
        let solver = if !self.solve || position.is_over() {
            Value::Null
        } else if players > 2 {
            json!({ "note": "the solver plays games of two players; with more, ask the agents" })
        } else {
            let limits = solver_limits();
            let solution = agents::solve::solve(&position, &limits);
            let values: Vec<Value> = solution
                .moves
                .iter()
                .map(|entry| {
                    json!({
                        "move": position.format_move(entry.mv),
                        "place": place_json(&position, entry.mv),
                        "value": entry.value.map(|v| v.to_string()),
                    })
                })
                .collect();
            let best: Vec<String> = solution
                .best
                .iter()
                .map(|&mv| position.format_move(mv))
                .collect();
            json!({
                "value": solution.value.map(|v| v.to_string()),
                "outcome": solution.outcome().map(|o| o.result_text().into_owned()),
                "best": best,
                "moves": values,
                "complete": solution.complete,
                "depth": solution.depth,
                "nodes": solution.nodes,
                "ms": solution.elapsed.as_secs_f64() * 1e3,
            })
        };
        let mut answers = Vec::new();
        if !position.is_over() {
            for (at, spec) in self.specs.iter().enumerate() {
                let mut agent = build_agent::<G>(spec, players)?;
                let mut rng = AgentRng::seed_from_u64(self.seed);
                rng.set_stream(at as u64 + 1);
                let clock = Instant::now();
                let mut ctx =
                    agents::Context::new(&mut rng).with_deadline(Some(clock + self.think_limit));
                let answer = arena::play::choose_quietly(agent.as_mut(), &position, &mut ctx);
                let time = clock.elapsed();
                answers.push(match answer {
                    Ok(Ok(choice)) if position.is_legal(choice.mv) => json!({
                        "agent": spec.to_string(),
                        "move": position.format_move(choice.mv),
                        "place": place_json(&position, choice.mv),
                        "stats": stats_json(&choice.stats, time),
                        "pv": agents::pv::texts(&position, &choice.pv),
                    }),
                    Ok(Ok(choice)) => json!({ "agent": spec.to_string(), "error": format!("answered the illegal move {:?}", choice.mv) }),
                    Ok(Err(error)) => json!({ "agent": spec.to_string(), "error": error.to_string() }),
                    Err(panic) => json!({ "agent": spec.to_string(), "error": format!("panicked: {panic}") }),
                });
            }
        }
        Ok(json!({
            "variant": position.variant().to_string(),
            "players": players,
            "moves": moves,
            "line": line,
            "position": position_json(&position),
            "over": over,
            "solver": solver,
            "agents": answers,
        }))
    }
}

#[derive(Debug, Deserialize)]
pub struct StatsQuery {
    #[serde(default)]
    name: Option<String>,
}

/// `GET /api/stats?name=...`: the play record's statistics, and the people in it.
pub async fn stats(
    State(app): State<App>,
    Query(query): Query<StatsQuery>,
) -> Result<Json<Value>, ApiError> {
    let record = app.options().record.clone();
    let name = query.name.filter(|n| !n.trim().is_empty());
    let work = tokio::task::spawn_blocking(move || {
        let rows = arena::played::read_record(&record).map_err(|error| {
            ApiError::conflict(format!("the play record cannot be read: {error}"))
        })?;
        let mut people: Vec<String> = Vec::new();
        for row in &rows {
            let names = row.seat_names();
            let specs = [
                Some(row.first_spec.as_str()),
                Some(row.second_spec.as_str()),
                row.third_spec.as_deref(),
                row.fourth_spec.as_deref(),
            ];
            for (name, spec) in names.iter().zip(specs) {
                if spec == Some(arena::played::HUMAN) && !people.iter().any(|p| p == name) {
                    people.push((*name).to_string());
                }
            }
        }
        people.sort();
        let stats = arena::played::stats(&rows, name.as_deref());
        Ok::<_, ApiError>(
            json!({ "stats": stats, "people": people, "record": record.display().to_string() }),
        )
    });
    work.await
        .map_err(|error| ApiError::conflict(format!("the statistics failed: {error}")))?
        .map(Json)
}
