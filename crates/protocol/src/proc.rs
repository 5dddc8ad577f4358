//! The `proc` agent: a program in any language that speaks the `arena` protocol
//! (`docs/src/reference/protocol.md`) on its stdin and stdout. One process per agent, kept for the whole game,
//! and across games when it announces `feature reuse` (unless the spec says `restart=on`).

use std::fmt::Write as _;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use agents::clock::TimeControl;
use agents::{
    Agent, AgentError, AgentGame, Choice, Context, Kind, ParamDoc, Params, Plays, SearchStats,
    SpecError,
};
use rand::Rng;
use rules::{MoveList, Outcome, Player};

use crate::child::{Process, Received, Stderr};
use crate::game::write_board;
use crate::line::{Quoted, quote};
use crate::outside::{
    ARGS, CMD, DIR, Idle, LOG, Launch, MARGIN, Pool, START, SetupError, TIMEOUT, rng_state,
    setup_fault,
};
use crate::wire::{FromAgent, GameStart, GoClock, Info, ToAgent, VERSION};

/// What an arena-protocol process is called in messages.
pub const ROLE: &str = "the agent";

const RESTART: ParamDoc = ParamDoc {
    name: "restart",
    default: "off",
    doc: "on: a fresh process for every game even when the agent can play several",
};

pub(crate) const KIND: Kind = Kind {
    name: "proc",
    summary: "an outside agent in any language speaking the arena protocol (docs/src/reference/protocol.md)",
    plays: Plays::Every,
    params: &[CMD, TIMEOUT, MARGIN, START, RESTART, LOG, DIR, ARGS],
    multiplayer: true,
    listed: true,
    memory: None,
};

/// The settings of a `proc` agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcConfig {
    /// How to start it and its times.
    pub launch: Launch,
    /// A fresh process for every game.
    pub restart: bool,
}

impl ProcConfig {
    pub(crate) fn from_params(
        params: &Params<'_>,
        stderr: Stderr,
        key: String,
    ) -> Result<Self, SpecError> {
        Ok(ProcConfig {
            launch: Launch::from_params("proc", params, stderr, key)?,
            restart: params.bool("restart", false)?,
        })
    }
}

/// A live session with the process.
struct Session {
    process: Process,
    features: Vec<String>,
    /// A game was set up and has not ended.
    in_game: bool,
    /// The process is in a known state: no fault, no answer pending.
    clean: bool,
}

impl Session {
    fn has(&self, feature: &str) -> bool {
        self.features.iter().any(|f| f == feature)
    }
}

/// Starts a process and reads its answer to `arena 1`: the features it announced.
fn handshake(launch: &Launch) -> Result<Session, SetupError> {
    let mut process = launch.start(ROLE)?;
    if let Err(error) = process.send(&ToAgent::Hello { version: VERSION }.to_string()) {
        return Err(setup_fault(&mut process, error));
    }
    let deadline = launch.start_deadline();
    let mut features = Vec::new();
    loop {
        match process.receive(deadline) {
            Received::Line(line) if line.trim().is_empty() => {}
            Received::Line(line) => match FromAgent::parse(&line) {
                Ok(FromAgent::Ready) => break,
                Ok(FromAgent::Feature(name)) => features.push(name),
                Ok(FromAgent::Id { key, text }) => process.log_line(&format!("id {key} {text}")),
                Ok(FromAgent::Info(_)) => process.log_line(&line),
                Ok(other) => {
                    return Err(setup_fault(
                        &mut process,
                        format!(
                            "it answered {} to `arena {VERSION}`; expected `id`, `feature` and \
                             then `ready` lines",
                            Quoted(&other.to_string())
                        ),
                    ));
                }
                Err(error) => {
                    let hint = if line.trim().eq_ignore_ascii_case("OK")
                        || line.to_ascii_uppercase().starts_with("UNKNOWN")
                        || line.to_ascii_uppercase().starts_with("ERROR")
                    {
                        " (a Gomocup engine? use `engine:cmd=...` for those)"
                    } else {
                        ""
                    };
                    return Err(setup_fault(
                        &mut process,
                        format!("it answered `arena {VERSION}` with {error}{hint}"),
                    ));
                }
            },
            Received::Bad(bad) => {
                return Err(setup_fault(
                    &mut process,
                    format!("it answered `arena {VERSION}` with {bad}"),
                ));
            }
            Received::Timeout => {
                return Err(setup_fault(
                    &mut process,
                    format!(
                        "no `ready` within {} ms of `arena {VERSION}` (start_ms)",
                        launch.start_timeout.as_millis()
                    ),
                ));
            }
            Received::Closed(closed) => {
                return Err(setup_fault(
                    &mut process,
                    format!("it {closed} before answering `arena {VERSION}`"),
                ));
            }
        }
    }
    Ok(Session {
        process,
        features,
        in_game: false,
        clean: true,
    })
}

/// Sends `game` and reads `ok`; a refusal is [`SetupError::Refused`].
fn set_up_game(session: &mut Session, launch: &Launch, start: GameStart) -> Result<(), SetupError> {
    let variant = start.variant.clone();
    let line = ToAgent::Game(start).to_string();
    let process = &mut session.process;
    process.send(&line).map_err(SetupError::Protocol)?;
    let deadline = launch.start_deadline();
    loop {
        match process.receive(deadline) {
            Received::Line(answer) if answer.trim().is_empty() => {}
            Received::Line(answer) => match FromAgent::parse(&answer) {
                Ok(FromAgent::Ok) => return Ok(()),
                Ok(FromAgent::Info(_)) => process.log_line(&answer),
                Ok(FromAgent::Error(_)) => {
                    return Err(SetupError::Refused {
                        variant,
                        answer: quote(answer.trim()),
                    });
                }
                Ok(other) => {
                    return Err(SetupError::Protocol(format!(
                        "it answered {} to `game`; expected `ok` or `error TEXT`",
                        Quoted(&other.to_string())
                    )));
                }
                Err(error) => {
                    return Err(SetupError::Protocol(format!(
                        "it answered `game` with {error}"
                    )));
                }
            },
            Received::Bad(bad) => {
                return Err(SetupError::Protocol(format!(
                    "it answered `game` with {bad}"
                )));
            }
            Received::Timeout => {
                return Err(SetupError::Protocol(format!(
                    "no answer to `game` within {} ms (start_ms)",
                    launch.start_timeout.as_millis()
                )));
            }
            Received::Closed(closed) => {
                return Err(SetupError::Protocol(format!(
                    "it {closed} before answering `game`"
                )));
            }
        }
    }
}

/// Checks that `launch` starts, answers the handshake, and accepts a game of each variant
/// (seat 1 of its number of players), then stops it: the arena's pre-flight check.
pub(crate) fn preflight(
    launch: &Launch,
    variants: &[rules::Variant],
    time_control: TimeControl,
) -> Result<(), SetupError> {
    let mut session: Option<Session> = None;
    for variant in variants {
        let mut current = match session.take() {
            Some(s) => s,
            None => handshake(launch)?,
        };
        // Under a game clock `time_ms` is what is left on it: an agent that spends it all on
        // one move loses on time, so only one that says it keeps a clock plays.
        if let Some(clock) = time_control.clock
            && !current.has("clock")
        {
            current.process.stop(Some("quit"));
            return Err(SetupError::Protocol(format!(
                "it cannot play the game clock `tc={clock}`: it announced no `feature clock` \
                 (an agent that reads `time_left=` of `go` and keeps its own clock says so at \
                 the handshake; play it with `st=` alone otherwise)"
            )));
        }
        let start = GameStart {
            variant: variant.to_string(),
            seat: 1,
            players: variant.players() as u8,
            seed: 0,
            margin_ms: launch.margin.as_millis() as u64,
            rng: None,
        };
        match set_up_game(&mut current, launch, start) {
            Ok(()) => {}
            Err(error) => {
                let context = current.process.fault_context();
                current.process.log_fault(&error.to_string());
                let error = match error {
                    // A limit of the sandbox it hit is named (`memory limit: ...`).
                    SetupError::Protocol(message) => SetupError::Protocol(format!(
                        "{}{context}",
                        current.process.with_verdict(&message)
                    )),
                    other => other,
                };
                current.process.stop(Some("quit"));
                return Err(error);
            }
        }
        let _ = current.process.send(
            &ToAgent::End {
                places: Vec::new(),
                termination: "aborted".into(),
            }
            .to_string(),
        );
        if current.has("reuse") {
            session = Some(current);
        } else {
            current.process.stop(Some("quit"));
        }
    }
    if let Some(mut s) = session {
        s.process.stop(Some("quit"));
    }
    Ok(())
}

/// An outside agent speaking the arena protocol.
pub struct ProcAgent<G> {
    config: ProcConfig,
    pool: Pool,
    session: Option<Session>,
    game: PhantomData<fn() -> G>,
}

impl<G: AgentGame> ProcAgent<G> {
    /// An agent; nothing starts before its first game.
    pub fn new(config: ProcConfig, pool: Pool) -> Self {
        ProcAgent {
            config,
            pool,
            session: None,
            game: PhantomData,
        }
    }

    /// The session for a new game: an idle process of the pool, or a new one.
    fn session(&mut self) -> Result<&mut Session, AgentError> {
        if self.session.is_none() {
            let reused = if self.config.restart {
                None
            } else {
                self.pool.take(&self.config.launch.key).map(|idle| Session {
                    process: idle.process,
                    features: idle.features,
                    in_game: false,
                    clean: true,
                })
            };
            let session = match reused {
                Some(session) => session,
                None => handshake(&self.config.launch).map_err(|e| match e {
                    SetupError::Start(start) => AgentError::Crash(start.to_string()),
                    other => AgentError::Crash(format!("set-up failed: {other}")),
                })?,
            };
            self.session = Some(session);
        }
        Ok(self.session.as_mut().expect("set above"))
    }

    /// Ends the session: back to the pool when the process can play again, stopped otherwise.
    fn release(&mut self) {
        let Some(mut session) = self.session.take() else {
            return;
        };
        if !session.clean {
            session.process.kill();
            return;
        }
        if session.has("reuse") && !self.config.restart {
            let idle = Idle {
                process: session.process,
                board: None,
                features: session.features,
            };
            self.pool.put(&self.config.launch.key, idle, "quit");
        } else {
            session.process.stop(Some("quit"));
        }
    }

    /// Marks the session faulty, writes the fault to the log, and returns the error.
    fn fault(&mut self, error: AgentError) -> AgentError {
        match self.session.as_mut() {
            Some(session) => {
                session.clean = false;
                let context = session.process.fault_context();
                let message = session.process.with_verdict(error.message());
                session.process.log_fault(&message);
                let text = format!("{message}{context}");
                match error {
                    AgentError::Timeout(_) => AgentError::Timeout(text),
                    AgentError::IllegalMove(_) => AgentError::IllegalMove(text),
                    _ => AgentError::Crash(text),
                }
            }
            None => error,
        }
    }

    fn begin(&mut self, position: &G, seat: Player, ctx: &Context<'_>) -> Result<(), AgentError> {
        let launch = self.config.launch.clone();
        let session = self.session()?;
        // The seed derives from the arena's generator without drawing from it, so that the
        // private state sent below is the state an in-process agent would start from.
        let seed = ctx.rng.clone().next_u64();
        let start = GameStart {
            variant: position.variant().to_string(),
            seat: seat.index() as u8 + 1,
            players: position.num_players() as u8,
            seed,
            margin_ms: launch.margin.as_millis() as u64,
            rng: session.has("private").then(|| rng_state(ctx.rng)),
        };
        session.in_game = true;
        match set_up_game(session, &launch, start) {
            Ok(()) => Ok(()),
            Err(SetupError::Refused { answer, .. }) => Err(self.fault(AgentError::Crash(format!(
                "the agent refused the game: {answer}"
            )))),
            Err(other) => Err(self.fault(AgentError::Crash(format!("the agent: {other}")))),
        }
    }
}

impl<G: AgentGame> Agent<G> for ProcAgent<G> {
    fn start_game(
        &mut self,
        position: &G,
        seat: Player,
        ctx: &mut Context<'_>,
    ) -> Result<(), AgentError> {
        if self.session.as_ref().is_some_and(|s| s.in_game) {
            // A new game without the end of the last one: start afresh.
            if let Some(mut session) = self.session.take() {
                session.process.kill();
            }
        }
        self.begin(position, seat, ctx)
    }

    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        let asked = Instant::now();
        if self.session.as_ref().is_some_and(|s| !s.clean)
            && let Some(mut faulty) = self.session.take()
        {
            // A fault in an earlier game that never ended (`arena play` goes on after one):
            // that process is not trusted again.
            faulty.process.kill();
        }
        if !self.session.as_ref().is_some_and(|s| s.in_game) {
            // Used without `start_game` (`arena analyze`): set the game up here.
            self.begin(position, position.side_to_move(), ctx)?;
        }
        let Some(history) = ctx.moves else {
            return Err(AgentError::Crash(
                "the caller gave no move history, which the arena protocol sends".into(),
            ));
        };
        let budget = ctx.move_time.unwrap_or(self.config.launch.timeout);
        let margin = self.config.launch.margin;
        let deadline = asked + budget + margin;
        let session = self.session.as_mut().expect("set up above");
        // The turn's four lines, written straight into one buffer: the arena writes the board
        // and every legal move every turn, and this is most of the protocol's cost.
        let mut text = String::with_capacity(1024);
        text.push_str("position");
        for mv in history {
            text.push(' ');
            text.push_str(mv);
        }
        text.push_str("\nboard");
        write_board(&position.view(), &mut text);
        text.push_str("\nlegal");
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        for &mv in &moves {
            text.push(' ');
            position.write_move(mv, &mut text);
        }
        let go = ToAgent::Go {
            time_ms: budget.as_millis() as u64,
            clock: ctx.clock.map(|clock| GoClock {
                time_left: clock.left.as_millis() as u64,
                inc_ms: clock.control.increment.as_millis() as u64,
                moves_to_go: clock.moves_to_go,
            }),
        };
        let _ = write!(text, "\n{go}\n");
        if let Err(error) = session.process.send_lines(&text) {
            return Err(self.fault(AgentError::Crash(error)));
        }
        let mut stats = SearchStats::default();
        loop {
            let session = self.session.as_mut().expect("set up above");
            let line = match session.process.receive(deadline) {
                Received::Line(line) => line,
                Received::Bad(bad) => {
                    return Err(self.fault(AgentError::IllegalMove(format!(
                        "the agent sent {bad} instead of a move"
                    ))));
                }
                Received::Timeout => {
                    return Err(self.fault(AgentError::Timeout(format!(
                        "no move within {} ms (the budget {} ms plus the margin {} ms)",
                        (budget + margin).as_millis(),
                        budget.as_millis(),
                        margin.as_millis()
                    ))));
                }
                Received::Closed(closed) => {
                    return Err(self.fault(AgentError::Crash(format!(
                        "the agent {closed} before answering `go`"
                    ))));
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            match FromAgent::parse(&line) {
                Ok(FromAgent::Move(text)) => {
                    return match position.parse_move(&text) {
                        Ok(mv) => Ok(Choice {
                            mv,
                            stats,
                            pv: Vec::new(),
                        }),
                        Err(error) => Err(self.fault(AgentError::IllegalMove(format!(
                            "the agent played `{}`: {error}",
                            quote(&text)
                        )))),
                    };
                }
                Ok(FromAgent::Info(info)) => {
                    session.process.log_line(&line);
                    absorb(&mut stats, info);
                }
                Ok(FromAgent::Error(text)) => {
                    return Err(self.fault(AgentError::Crash(format!(
                        "the agent gave up: `{}`",
                        quote(&text)
                    ))));
                }
                Ok(other) => {
                    return Err(self.fault(AgentError::IllegalMove(format!(
                        "the agent sent {} while a move was expected",
                        Quoted(&other.to_string())
                    ))));
                }
                Err(error) => {
                    return Err(
                        self.fault(AgentError::IllegalMove(format!("the agent sent {error}")))
                    );
                }
            }
        }
    }

    fn end_game(&mut self, position: &G, outcome: Outcome, termination: &str) {
        if let Some(session) = self.session.as_mut()
            && session.clean
            && session.in_game
        {
            let end = ToAgent::End {
                places: outcome.places(position.num_players()).to_vec(),
                termination: termination.to_string(),
            };
            if session.process.send(&end.to_string()).is_err() {
                session.clean = false;
            }
            session.in_game = false;
        }
        self.release();
    }

    fn in_process(&self) -> bool {
        false
    }

    fn time_margin(&self) -> Duration {
        self.config.launch.margin
    }
}

impl<G> Drop for ProcAgent<G> {
    fn drop(&mut self) {
        if let Some(mut session) = self.session.take() {
            if session.clean && !session.in_game {
                session.process.stop(Some("quit"));
            } else {
                session.process.kill();
            }
        }
    }
}

/// Folds an `info` line into the move's statistics: the last value of each field counts.
fn absorb(stats: &mut SearchStats, info: Info) {
    if let Some(nodes) = info.nodes {
        stats.nodes = nodes;
    }
    if info.depth.is_some() {
        stats.depth = info.depth;
    }
    if info.score.is_some() {
        stats.score = info.score;
    }
    if let Some(text) = info.text {
        stats.reason = Some(quote(&text));
    }
}
