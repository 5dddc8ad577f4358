//! `Agent`: one of our agents, choosing moves for positions given from Python; and the other
//! way round, a Python function as an agent of the arena (`py:name=NAME`).

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agents::{
    Agent, AgentError, AgentGame, AgentRng, AgentSpec, Choice, Context, Kind, ParamDoc, Params,
    Plays, SearchStats, SpecError,
};
use protocol::{AnyAgent, ExtraKinds, Roster};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rand::SeedableRng;
use rules::{AnyGame, Game, Variant, with_game, with_position};

use crate::game::{MoveArg, PyGame, legal_move};

/// Reads an agent spec as the CLI does.
pub fn parse_spec(text: &str) -> PyResult<AgentSpec> {
    text.parse::<AgentSpec>()
        .map_err(|e| PyValueError::new_err(format!("bad agent spec `{text}`: {e}")))
}

/// The agent, built for the game and table size of the last position it was given (a
/// `(usize, Box<dyn Agent<G>>)` for that game's `G`, behind `Any`): built again when a position
/// of another game or table size comes.
type Built = Option<Box<dyn Any + Send>>;

struct Inner {
    rng: AgentRng,
    built: Built,
}

/// One of the arena's agents (`random`, `mcts:iterations=10000`, `alphabeta:depth=6`, ...),
/// with its own random number generator seeded by `seed`. Any kind of the arena's registry but
/// `py`: an outside program (`proc:cmd=...`, `engine:cmd=...`) too, kept running between choices,
/// for games whose moves are known from the start (the protocols send them).
///
/// `choose(game)` returns the move it plays in `game` and what it searched. With budgets in
/// iterations, rollouts, nodes or depth the choices are reproducible from the seed: the first
/// choice of `Agent(spec, seed=S)` is the move of `arena analyze VARIANT --moves ... --agent
/// SPEC --seed S`.
#[pyclass(name = "Agent", module = "arenagames")]
pub struct PyAgent {
    spec: AgentSpec,
    seed: u64,
    inner: Mutex<Inner>,
    /// The registry that builds it (the arena's one: an outside `proc` or `engine` agent too),
    /// which keeps an outside agent's process from one choice to the next.
    roster: Roster,
}

/// Builds `spec` for games of type `G` with `players` seats, in the CLI's words on failure.
fn build<G: AgentGame>(
    roster: &Roster,
    spec: &AgentSpec,
    players: usize,
) -> Result<Box<dyn Agent<G>>, String> {
    roster
        .build_for::<G>("agent", spec, players)
        .map_err(|e| format!("agent `{spec}`: {e}"))
}

/// A move of `agent` in `position`: the move, its statistics and the time it took.
fn choose_in<G: AgentGame>(
    roster: &Roster,
    slot: &mut Built,
    spec: &AgentSpec,
    rng: &mut AgentRng,
    position: &G,
    moves: Option<&[String]>,
    time_limit: Option<Duration>,
) -> Result<(u32, SearchStats, Vec<u32>, Duration), ChooseError> {
    let players = position.num_players();
    let fits = |built: &mut Box<dyn Any + Send>| {
        built
            .downcast_mut::<(usize, Box<dyn Agent<G>>)>()
            .is_some_and(|(built_for, _)| *built_for == players)
    };
    if !slot.as_mut().is_some_and(fits) {
        let agent = build::<G>(roster, spec, players).map_err(ChooseError::Spec)?;
        *slot = Some(Box::new((players, agent)));
    }
    let (_, agent) = slot
        .as_mut()
        .and_then(|built| built.downcast_mut::<(usize, Box<dyn Agent<G>>)>())
        .expect("built above");
    let started = Instant::now();
    let mut ctx = Context::new(rng)
        .with_deadline(time_limit.map(|limit| started + limit))
        .with_move_time(time_limit);
    if let Some(moves) = moves {
        ctx = ctx.with_moves(moves);
    }
    let answer = arena::play::choose_quietly(agent.as_mut(), position, &mut ctx);
    let elapsed = started.elapsed();
    let choice = match answer {
        Err(panic) => return Err(ChooseError::Failed(format!("panicked: {panic}"))),
        Ok(Err(error)) => return Err(ChooseError::Failed(error.to_string())),
        Ok(Ok(choice)) => choice,
    };
    if !position.is_legal(choice.mv) {
        return Err(ChooseError::Failed(format!(
            "chose an illegal move: {:?}",
            choice.mv
        )));
    }
    let action = position
        .action(choice.mv)
        .expect("a legal move is the mover's");
    let pv = agents::pv::actions(position, &choice.pv);
    Ok((action, choice.stats, pv, elapsed))
}

/// Builds `spec` for two players of the game of `start`, to check it.
fn build_like<G: AgentGame>(roster: &Roster, spec: &AgentSpec, _start: &G) -> Result<(), String> {
    build::<G>(roster, spec, 2).map(drop)
}

enum ChooseError {
    Spec(String),
    Failed(String),
}

#[pymethods]
impl PyAgent {
    /// The agent `spec` names (`kind` or `kind:key=value,...`; `arenagames.kinds()` lists
    /// them), drawing randomness from a generator seeded by `seed`. A bad spec raises
    /// `ValueError` with the CLI's message.
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<PyAgent> {
        let parsed = parse_spec(spec)?;
        let roster = Roster::new();
        let kind = roster
            .kind(&parsed.kind)
            .map_err(|e| PyValueError::new_err(format!("agent `{parsed}`: {e}")))?;
        // Building is cheap (search memory comes with the first search): build once now so
        // that a bad parameter value is refused here rather than at the first move.
        let family = match kind.plays {
            Plays::Only(family) => family,
            Plays::Every => rules::FAMILIES[0],
        };
        let example: Variant = family.example.parse().expect("a family's example parses");
        with_game!(example, |start| build_like(&roster, &parsed, &start))
            .map_err(PyValueError::new_err)?;
        Ok(PyAgent {
            spec: parsed,
            seed,
            inner: Mutex::new(Inner {
                rng: AgentRng::seed_from_u64(seed),
                built: None,
            }),
            roster,
        })
    }

    /// The spec, as the arena writes it.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The seed the agent's generator started from.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The move the agent plays in `game` (an action) and its search statistics: `nodes`,
    /// `depth`, `score`, `reason` (each `None` where the agent does not say), `pv` (the line
    /// it expects, as actions each read in the position it is played in, its move first;
    /// empty where it has none) and `time_ms`.
    /// With `time_ms`, searches with a time budget stop by then. The GIL is released while it
    /// thinks. `ValueError` if the game is over or the agent does not play this game;
    /// `RuntimeError` if the agent fails.
    #[pyo3(signature = (game, time_ms = None))]
    fn choose<'py>(
        &self,
        py: Python<'py>,
        game: PyRef<'py, PyGame>,
        time_ms: Option<f64>,
    ) -> PyResult<(u32, Bound<'py, PyDict>)> {
        let position = game.position().clone();
        let moves = game.moves_from_start();
        drop(game);
        let over = with_position!(&position, |g| g.is_over());
        if over {
            return Err(PyValueError::new_err(
                "the game is over: there is no move to choose",
            ));
        }
        let limit = match time_ms {
            Some(ms) if !(ms > 0.0 && ms.is_finite()) => {
                return Err(PyValueError::new_err(format!(
                    "time_ms must be a positive number of milliseconds, not {ms}"
                )));
            }
            Some(ms) => Some(Duration::from_secs_f64(ms / 1e3)),
            None => None,
        };
        let spec = &self.spec;
        let inner = &self.inner;
        let roster = &self.roster;
        let answer = py.detach(move || {
            let mut inner = inner
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let Inner { rng, built } = &mut *inner;
            with_position!(&position, |g| {
                choose_in(roster, built, spec, rng, g, moves.as_deref(), limit)
            })
        });
        let (action, stats, pv, elapsed) = answer.map_err(|error| match error {
            ChooseError::Spec(message) => PyValueError::new_err(message),
            ChooseError::Failed(message) => {
                PyRuntimeError::new_err(format!("agent `{spec}` gave no move: {message}"))
            }
        })?;
        let dict = PyDict::new(py);
        dict.set_item("nodes", stats.nodes)?;
        dict.set_item("depth", stats.depth)?;
        dict.set_item("score", stats.score)?;
        dict.set_item("reason", stats.reason)?;
        dict.set_item("pv", pv)?;
        dict.set_item("time_ms", elapsed.as_secs_f64() * 1e3)?;
        Ok((action, dict))
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?}, seed={})", self.spec.to_string(), self.seed)
    }
}

/// A Python function seated in the arena: `function(game, seed)` returns the move (an action
/// or a text), or `(move, {"nodes": n})`. The Python package wraps the user's `choose(game)` or
/// `choose(game, rng)` into this form.
struct CallableAgent {
    name: String,
    function: Arc<Py<PyAny>>,
}

impl CallableAgent {
    fn answer<G: Game>(
        &self,
        py: Python<'_>,
        position: &G,
        seed: u64,
    ) -> Result<Choice<u32>, AgentError> {
        let game = Py::new(py, PyGame::at(position.clone().into()))
            .map_err(|e| AgentError::Crash(e.to_string()))?;
        let answer = self.function.call1(py, (game, seed)).map_err(|error| {
            AgentError::Crash(format!("the Python agent `{}` raised {error}", self.name))
        })?;
        let answer = answer.bind(py);
        let (mv, nodes) = match answer.cast::<PyTuple>() {
            Ok(pair) if pair.len() == 2 => {
                let nodes = pair
                    .get_item(1)
                    .ok()
                    .and_then(|stats| stats.get_item("nodes").ok())
                    .and_then(|n| n.extract::<u64>().ok())
                    .unwrap_or(0);
                (pair.get_item(0).map_err(|e| illegal(&self.name, e))?, nodes)
            }
            _ => (answer.clone(), 0),
        };
        let arg = mv.extract::<MoveArg>().map_err(|_| {
            AgentError::IllegalMove(format!(
                "the Python agent `{}` returned {}, not a move (an action or a text)",
                self.name,
                mv.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        })?;
        let mv = legal_move(position, &arg).map_err(|why| {
            AgentError::IllegalMove(format!("the Python agent `{}`: {why}", self.name))
        })?;
        let action = position.action(mv).expect("a legal move is the mover's");
        Ok(Choice::new(action, nodes))
    }
}

fn illegal(name: &str, error: PyErr) -> AgentError {
    AgentError::IllegalMove(format!(
        "the Python agent `{name}` returned no move: {error}"
    ))
}

impl AnyAgent for CallableAgent {
    fn choose(
        &mut self,
        position: &AnyGame,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<u32>, AgentError> {
        // The function's randomness comes from the arena's generator too, through this seed.
        let seed = rand::Rng::next_u64(ctx.rng);
        Python::attach(|py| with_position!(position, |g| self.answer(py, g, seed)))
    }
}

/// The kind of Python agents, as the arena's registry lists it.
pub const PY_KIND: Kind = Kind {
    name: "py",
    summary: "a Python function given to run_experiment or play_match (Python package only)",
    plays: Plays::Every,
    params: &[ParamDoc {
        name: "name",
        default: "(required)",
        doc: "the key of the function in the agents given to run_experiment",
    }],
    multiplayer: true,
    listed: true,
    memory: None,
};

/// The `py` agents of one experiment: the Python functions it was given, by name. The
/// experiment's roster looks the `py` kind up here ([`ExtraKinds`]).
pub struct PythonAgents {
    functions: HashMap<String, Arc<Py<PyAny>>>,
}

impl PythonAgents {
    /// The functions of `agents` (a dict of name to function; `None` for none).
    pub fn new(agents: Option<&Bound<'_, PyDict>>) -> PyResult<PythonAgents> {
        let mut functions = HashMap::new();
        if let Some(agents) = agents {
            for (name, function) in agents.iter() {
                let name: String = name.extract().map_err(|_| {
                    PyValueError::new_err("the names of Python agents must be strings")
                })?;
                functions.insert(name, Arc::new(function.unbind()));
            }
        }
        Ok(PythonAgents { functions })
    }

    /// The agent `spec` names: its function, by the name it was given.
    fn agent(&self, spec: &AgentSpec) -> Result<CallableAgent, SpecError> {
        let params = Params::new(spec, PY_KIND.params)?;
        let bad = |value: &str, expected: String| SpecError::BadValue {
            kind: PY_KIND.name.to_string(),
            key: "name".to_string(),
            value: value.to_string(),
            expected,
        };
        let Some(name) = params.text("name") else {
            return Err(bad(
                "",
                "a Python agent's spec is `py:name=NAME`, with NAME a key of the agents given \
                 to run_experiment"
                    .to_string(),
            ));
        };
        match self.functions.get(name) {
            Some(function) => Ok(CallableAgent {
                name: name.to_string(),
                function: Arc::clone(function),
            }),
            None => {
                let mut known: Vec<&str> = self.functions.keys().map(String::as_str).collect();
                known.sort_unstable();
                Err(bad(
                    name,
                    format!(
                        "no Python agent named `{name}` was given (agents given: {})",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                ))
            }
        }
    }
}

impl ExtraKinds for PythonAgents {
    fn kinds(&self) -> &'static [Kind] {
        &[PY_KIND]
    }

    // A function plays whatever it is given: every game, every number of players.
    fn build(&self, _name: &str, spec: &AgentSpec) -> Result<Box<dyn AnyAgent>, SpecError> {
        Ok(Box::new(self.agent(spec)?))
    }
}
