//! The `engine` agent: an outside Gomocup engine, started for a game (or kept between games
//! with `restart=off`), timed with a margin past the announced `timeout_turn`.

use std::time::{Duration, Instant};

use agents::{Agent, AgentError, Choice, Context, SearchStats};
use rules::{Cell, Game, Mnk, MnkConfig, Outcome, Player};

use super::{EngineConfig, ROLE, rule_bits};
use crate::child::{Process, Received};
use crate::line::{Quoted, quote};
use crate::outside::{Idle, Launch, Pool, SetupError, rng_state};

/// A running engine.
struct Session {
    process: Process,
    /// The board it was set up for: (columns, rows).
    board: (u8, u8),
    /// No fault, no answer pending.
    clean: bool,
    /// A game was set up and has not ended.
    in_game: bool,
    /// Lines sent since its last answer (an `ERROR` answers one of them).
    unanswered: Vec<String>,
}

/// The command that sets up `config`'s board.
fn start_command(config: &MnkConfig) -> String {
    if config.rows() == config.cols() {
        format!("START {}", config.cols())
    } else {
        format!("RECTSTART {},{}", config.cols(), config.rows())
    }
}

/// The `INFO` lines of a game of `config` (`arena_rng` is added by the caller).
fn info_lines(config: &MnkConfig) -> Vec<String> {
    let mut lines = vec![
        "INFO max_memory 0".to_string(),
        "INFO timeout_match 0".to_string(),
        "INFO game_type 1".to_string(),
        format!("INFO rule {}", rule_bits(config.rule())),
    ];
    if config.k() != 5 {
        lines.push(format!("INFO win_length {}", config.k()));
    }
    lines
}

/// What the engine answered, past its `MESSAGE`/`DEBUG`/`SUGGEST` lines.
enum Answer {
    Line(String),
    Error(String),
    Unknown(String),
    Fault(AgentError),
}

/// The next answer of the engine before `deadline`; `MESSAGE` text goes to `message`.
fn answer(
    process: &mut Process,
    deadline: Instant,
    waiting_for: &str,
    message: &mut Option<String>,
) -> Answer {
    loop {
        let line = match process.receive(deadline) {
            Received::Line(line) => line,
            Received::Bad(bad) => {
                return Answer::Fault(AgentError::IllegalMove(format!(
                    "the engine answered {waiting_for} with {bad}"
                )));
            }
            Received::Timeout => {
                return Answer::Fault(AgentError::Timeout(format!(
                    "the engine did not answer {waiting_for} in time"
                )));
            }
            Received::Closed(status) => {
                let status = status.map(|s| format!(" ({s})")).unwrap_or_default();
                return Answer::Fault(AgentError::Crash(format!(
                    "the engine exited{status} before answering {waiting_for}"
                )));
            }
        };
        let line = line.trim();
        let upper: String = line
            .chars()
            .take(8)
            .collect::<String>()
            .to_ascii_uppercase();
        if upper.starts_with("MESSAGE") {
            process.log_line(line);
            *message = Some(quote(line[7..].trim()));
        } else if upper.starts_with("DEBUG") {
            process.log_line(line);
        } else if upper.starts_with("SUGGEST") || line.is_empty() {
        } else if upper.starts_with("ERROR") {
            return Answer::Error(quote(line));
        } else if upper.starts_with("UNKNOWN") {
            return Answer::Unknown(quote(line));
        } else {
            return Answer::Line(line.to_string());
        }
    }
}

/// Starts an engine (or takes one from the pool) and sets up a game of `config`.
fn set_up(
    launch: &Launch,
    pool: Option<&Pool>,
    config: &MnkConfig,
    private: Option<String>,
) -> Result<Session, SetupError> {
    let board = (config.cols(), config.rows());
    let reused = pool.and_then(|p| p.take(&launch.key));
    let (mut process, command) = match reused {
        Some(idle) if idle.board == Some(board) => (idle.process, "RESTART".to_string()),
        Some(idle) => (idle.process, start_command(config)),
        None => (launch.start(ROLE)?, start_command(config)),
    };
    let fail = |process: &mut Process, message: String| {
        let message = format!("{message}{}", process.fault_context());
        process.log_fault(&message);
        process.kill();
        SetupError::Protocol(message)
    };
    if let Err(error) = process.send(&command) {
        return Err(fail(&mut process, error));
    }
    let mut message = None;
    match answer(
        &mut process,
        launch.start_deadline(),
        &format!("`{command}`"),
        &mut message,
    ) {
        Answer::Line(ok) if ok.eq_ignore_ascii_case("OK") => {}
        Answer::Line(other) => {
            return Err(fail(
                &mut process,
                format!(
                    "it answered `{}` to `{command}` instead of OK",
                    quote(&other)
                ),
            ));
        }
        Answer::Error(text) | Answer::Unknown(text) => {
            process.stop(Some("END"));
            return Err(SetupError::Refused {
                variant: config.to_string(),
                answer: format!("{text}` to `{command}"),
            });
        }
        Answer::Fault(error) => return Err(fail(&mut process, error.message().to_string())),
    }
    let mut unanswered = info_lines(config);
    if let Some(state) = private {
        unanswered.push(format!("INFO arena_rng {state}"));
    }
    let queued = unanswered.iter().try_for_each(|line| process.queue(line));
    if let Err(error) = queued.and_then(|()| process.flush()) {
        return Err(fail(&mut process, error));
    }
    Ok(Session {
        process,
        board,
        clean: true,
        in_game: true,
        unanswered,
    })
}

/// The pre-flight check of an engine: for each variant, a fresh process is started and set up
/// for a game, then asked `ABOUT`; an `ERROR` before the answer refuses the variant (a real
/// engine answers `ERROR` to an `INFO rule` it does not have).
pub(crate) fn preflight(launch: &Launch, variants: &[MnkConfig]) -> Result<(), SetupError> {
    for config in variants {
        let mut session = set_up(launch, None, config, None)?;
        let process = &mut session.process;
        let _ = process.send("ABOUT");
        // An engine that does not answer ABOUT at all is not refused for it: two seconds at most.
        let deadline = Instant::now() + launch.start_timeout.min(Duration::from_secs(2));
        let mut message = None;
        let outcome = answer(process, deadline, "`ABOUT`", &mut message);
        process.stop(Some("END"));
        match outcome {
            Answer::Error(text) => {
                let sent: Vec<&str> = session
                    .unanswered
                    .iter()
                    .filter(|l| l.starts_with("INFO rule") || l.starts_with("INFO win_length"))
                    .map(String::as_str)
                    .collect();
                return Err(SetupError::Refused {
                    variant: config.to_string(),
                    answer: format!("{text}` to the set-up `{}", sent.join("`, `")),
                });
            }
            Answer::Fault(AgentError::Crash(text)) => {
                return Err(SetupError::Protocol(text));
            }
            _ => {}
        }
    }
    Ok(())
}

/// `x,y` (column,row) of a cell.
pub(crate) fn coordinates(config: &MnkConfig, cell: Cell) -> String {
    let (row, col) = config.row_col(cell);
    format!("{col},{row}")
}

/// Reads `x,y` (column,row); `None` if it is not two numbers, `Some(None)` if off the board.
pub(crate) fn parse_coordinates(config: &MnkConfig, text: &str) -> Option<Option<Cell>> {
    let (x, y) = text.split_once(',')?;
    let x: i64 = x.trim().parse().ok()?;
    let y: i64 = y.trim().parse().ok()?;
    if x < 0 || y < 0 || x > 255 || y > 255 {
        return Some(None);
    }
    Some(config.cell(y as u8, x as u8))
}

/// An outside Gomocup engine as an agent.
pub struct Engine {
    config: EngineConfig,
    pool: Pool,
    session: Option<Session>,
    /// The position the engine knows: after its last move.
    known: Option<Mnk>,
}

impl Engine {
    /// An engine agent; nothing starts before its first game.
    pub fn new(config: EngineConfig, pool: Pool) -> Self {
        Engine {
            config,
            pool,
            session: None,
            known: None,
        }
    }

    fn fault(&mut self, error: AgentError) -> AgentError {
        let Some(session) = self.session.as_mut() else {
            return error;
        };
        session.clean = false;
        let context = session.process.fault_context();
        session.process.log_fault(error.message());
        let text = format!("{}{context}", error.message());
        match error {
            AgentError::Timeout(_) => AgentError::Timeout(text),
            AgentError::IllegalMove(_) => AgentError::IllegalMove(text),
            _ => AgentError::Crash(text),
        }
    }

    fn begin(&mut self, position: &Mnk, ctx: &Context<'_>) -> Result<(), AgentError> {
        if let Some(mut old) = self.session.take() {
            old.process.kill();
        }
        let config = *position.config();
        let private = self.config.private.then(|| rng_state(ctx.rng));
        let pool = (!self.config.restart).then_some(&self.pool);
        match set_up(&self.config.launch, pool, &config, private) {
            Ok(session) => {
                self.session = Some(session);
                // The engine now holds the empty board: a game we join after a move gets TURN.
                self.known = Some(config.start());
                Ok(())
            }
            Err(SetupError::Start(error)) => Err(AgentError::Crash(error.to_string())),
            Err(SetupError::Refused { answer, .. }) => Err(AgentError::Crash(format!(
                "the engine refused the game: it answered `{answer}`"
            ))),
            Err(SetupError::Protocol(text)) => {
                Err(AgentError::Crash(format!("the engine: {text}")))
            }
        }
    }

    fn release(&mut self) {
        let Some(mut session) = self.session.take() else {
            return;
        };
        if !session.clean {
            session.process.kill();
        } else if self.config.restart {
            session.process.stop(Some("END"));
        } else {
            let idle = Idle {
                process: session.process,
                board: Some(session.board),
                features: Vec::new(),
            };
            self.pool.put(&self.config.launch.key, idle, "END");
        }
    }
}

impl Agent<Mnk> for Engine {
    fn start_game(
        &mut self,
        position: &Mnk,
        _seat: Player,
        ctx: &mut Context<'_>,
    ) -> Result<(), AgentError> {
        self.begin(position, ctx)
    }

    fn choose(
        &mut self,
        position: &Mnk,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<Cell>, AgentError> {
        let asked = Instant::now();
        // After a fault the process is not trusted again (`arena play` goes on after one).
        if !self.session.as_ref().is_some_and(|s| s.in_game && s.clean) {
            self.begin(position, ctx)?;
        }
        let budget = ctx.move_time.unwrap_or(self.config.launch.timeout);
        let margin = self.config.launch.margin;
        // TURN when the position is the engine's last one plus the opponent's move; the whole
        // board otherwise.
        let follows = self.known.as_ref().is_some_and(|known| {
            position.ply() == known.ply() + 1
                && position
                    .last_move()
                    .is_some_and(|last| known.is_legal(last) && known.child(last) == *position)
        });
        let config = *position.config();
        let ms = budget.as_millis().max(1);
        let mut lines = vec![
            format!("INFO timeout_turn {ms}"),
            format!("INFO time_left {ms}"),
        ];
        let request = if position.ply() == 0 {
            lines.push("BEGIN".into());
            "BEGIN".to_string()
        } else if follows {
            let last = position.last_move().expect("checked above");
            let line = format!("TURN {}", coordinates(&config, last));
            lines.push(line.clone());
            line
        } else {
            lines.push("BOARD".into());
            let me = position.side_to_move();
            for player in [Player::First, Player::Second] {
                let field = if player == me { 1 } else { 2 };
                for cell in position.stones(player).iter() {
                    lines.push(format!("{},{field}", coordinates(&config, cell)));
                }
            }
            lines.push("DONE".into());
            "BOARD".to_string()
        };
        let session = self.session.as_mut().expect("set up above");
        let sent = lines
            .iter()
            .try_for_each(|line| session.process.queue(line))
            .and_then(|()| session.process.flush());
        if let Err(error) = sent {
            return Err(self.fault(AgentError::Crash(error)));
        }
        session.unanswered.extend(lines);
        let deadline = asked + budget + margin;
        let mut message = None;
        let waiting_for = format!("`{request}`");
        let reply = answer(&mut session.process, deadline, &waiting_for, &mut message);
        let unanswered = std::mem::take(&mut session.unanswered);
        let reply = match reply {
            Answer::Line(line) => line,
            Answer::Error(text) => {
                let sent: Vec<&str> = unanswered
                    .iter()
                    .filter(|l| !l.contains(',') || l.starts_with("TURN"))
                    .map(String::as_str)
                    .collect();
                return Err(self.fault(AgentError::Crash(format!(
                    "the engine answered {} while its move was awaited (the lines it had not \
                     answered: {})",
                    Quoted(&text),
                    sent.join(", ")
                ))));
            }
            Answer::Unknown(text) => {
                return Err(self.fault(AgentError::Crash(format!(
                    "the engine does not know {waiting_for}: `{text}`"
                ))));
            }
            Answer::Fault(error) => {
                let error = match error {
                    AgentError::Timeout(_) => AgentError::Timeout(format!(
                        "no move within {} ms (timeout_turn {} ms plus the margin {} ms)",
                        (budget + margin).as_millis(),
                        budget.as_millis(),
                        margin.as_millis()
                    )),
                    other => other,
                };
                return Err(self.fault(error));
            }
        };
        let cell = match parse_coordinates(&config, &reply) {
            None => {
                return Err(self.fault(AgentError::IllegalMove(format!(
                    "the engine answered `{}` instead of a move x,y",
                    quote(&reply)
                ))));
            }
            Some(None) => {
                return Err(self.fault(AgentError::IllegalMove(format!(
                    "the engine played {}, off the {}x{} board",
                    quote(&reply),
                    config.cols(),
                    config.rows()
                ))));
            }
            Some(Some(cell)) => cell,
        };
        if !position.is_legal(cell) {
            return Err(self.fault(AgentError::IllegalMove(format!(
                "the engine played {reply} ({}), which is not legal here",
                config.cell_name(cell)
            ))));
        }
        self.known = Some(position.child(cell));
        Ok(Choice {
            mv: cell,
            stats: SearchStats {
                reason: message,
                ..SearchStats::default()
            },
        })
    }

    fn end_game(&mut self, _position: &Mnk, _outcome: Outcome, _termination: &str) {
        if let Some(session) = self.session.as_mut() {
            session.in_game = false;
        }
        self.release();
    }

    fn time_margin(&self) -> Duration {
        self.config.launch.margin
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(mut session) = self.session.take() {
            if session.clean {
                session.process.stop(Some("END"));
            } else {
                session.process.kill();
            }
        }
    }
}
