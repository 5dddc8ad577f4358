//! The `engine` agent: an outside Gomocup engine, started for a game (or kept between games
//! with `restart=off`), timed with a margin past the announced `timeout_turn`.
//!
//! It is driven as piskvork drives engines: the set-up (`START`, `RECTSTART` for a board that
//! is not square, or `RESTART` for a process kept from a game on the same board, then the
//! `INFO` lines), `ABOUT` in the pre-flight, then `BEGIN` on an empty board, `TURN` when the
//! position follows the engine's last one, or `BOARD` with the moves in the order played
//! (after `RESTART` when the engine's board is not empty). An `INFO` goes again only when its
//! value changes, and an `ERROR` that answers one is a warning, not a fault. Nothing is written
//! to the engine sooner than the quiet time (`quiet_ms`) after its last answer, and the first
//! move of a game has the set-up allowance (`setup_ms`) past the turn limit.

use std::time::{Duration, Instant};

use agents::clock::ClockState;
use agents::{Agent, AgentError, Choice, Context, SearchStats};
use rules::{Cell, Game, Mnk, MnkConfig, Outcome, Player};

use super::{EngineConfig, ROLE, rule_bits};
use crate::child::{Process, Received};
use crate::line::{Quoted, quote};
use crate::outside::{Idle, Launch, Pool, SetupError, rng_state, setup_fault};

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
    /// `INFO` lines sent since its last answer: an `ERROR` (or `UNKNOWN`) that answers one of
    /// them is a warning in its log, not a fault (the protocol lets an engine refuse a key).
    infos_unanswered: usize,
    /// The `timeout_turn` and `time_left` it was last sent: an `INFO` goes only when its value
    /// changes.
    sent_turn: Option<u64>,
    sent_left: Option<u64>,
    /// When it last answered: nothing is written to it sooner than the quiet time after.
    answered: Instant,
    /// Moves it made since the game was set up (the first has the set-up allowance).
    moves: u32,
}

/// The command that sets up `config`'s board.
fn start_command(config: &MnkConfig) -> String {
    if config.rows() == config.cols() {
        format!("START {}", config.cols())
    } else {
        format!("RECTSTART {},{}", config.cols(), config.rows())
    }
}

/// What the protocol calls an unlimited `time_left`.
pub const UNLIMITED: u64 = i32::MAX as u64;

/// What an engine is told of its time: (`timeout_turn`, `timeout_match`, `time_left`), in ms.
///
/// `timeout_turn` is the per-move limit, or with a game clock alone the period's time (as
/// c-gomoku-cli does: a move may use the whole clock); without any time control the engine's
/// own `timeout_ms`. `timeout_match` is the period's time (0: no game clock); `time_left` what
/// is on the clock, or [`UNLIMITED`] without one.
pub(crate) fn time_info(
    move_time: Option<Duration>,
    clock: Option<&ClockState>,
    fallback: Duration,
) -> (u64, u64, u64) {
    let ms = |d: Duration| (d.as_millis() as u64).min(super::command::MAX_INFO);
    match clock {
        Some(clock) => (
            ms(clock.per_move.unwrap_or(clock.control.time)),
            ms(clock.control.time),
            ms(clock.left),
        ),
        None => (ms(move_time.unwrap_or(fallback)), 0, UNLIMITED),
    }
}

/// The `INFO` lines of a game of `config` (`arena_rng` is added by the caller), in piskvork's
/// order: the time and memory limits, the game type, the rule.
fn info_lines(config: &MnkConfig, times: (u64, u64, u64), max_memory: u64) -> Vec<String> {
    let (turn, game, left) = times;
    let mut lines = vec![
        format!("INFO timeout_turn {turn}"),
        format!("INFO timeout_match {game}"),
        format!("INFO time_left {left}"),
        format!("INFO max_memory {max_memory}"),
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

/// The next answer of the engine before `deadline`; `MESSAGE` text goes to `message`. An
/// `ERROR` or `UNKNOWN` while `infos` (the `INFO` lines it has not answered) is above zero
/// answers one of them: it is written to its log as a warning and the wait goes on.
fn answer(
    process: &mut Process,
    deadline: Instant,
    waiting_for: &str,
    message: &mut Option<String>,
    infos: &mut usize,
    warned: &mut Option<String>,
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
            Received::Closed(closed) => {
                return Answer::Fault(AgentError::Crash(format!(
                    "the engine {closed} before answering {waiting_for}"
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
        } else if (upper.starts_with("ERROR") || upper.starts_with("UNKNOWN")) && *infos > 0 {
            *infos -= 1;
            *warned = Some(quote(line));
            process.log_line(&format!(
                "warning: the engine answered an INFO line with `{}` (not a fault: it may refuse \
                 a key it does not know)",
                quote(line)
            ));
        } else if upper.starts_with("ERROR") {
            return Answer::Error(quote(line));
        } else if upper.starts_with("UNKNOWN") {
            return Answer::Unknown(quote(line));
        } else {
            *infos = 0;
            return Answer::Line(line.to_string());
        }
    }
}

/// What a game is set up with besides its board.
struct Terms {
    /// `timeout_turn`, `timeout_match`, `time_left` ([`time_info`]).
    times: (u64, u64, u64),
    /// `max_memory` in bytes.
    max_memory: u64,
    /// The private `arena_rng`, to engines whose spec asks for it.
    private: Option<String>,
}

/// Waits until `quiet` has passed since the engine's last answer (`answered`): an engine still
/// finishing its last answer may lose a word that comes too soon.
fn wait_quiet(answered: Instant, quiet: Duration) {
    let until = answered + quiet;
    let now = Instant::now();
    if until > now {
        std::thread::sleep(until - now);
    }
}

/// Sends `command` (`START`, `RECTSTART` or `RESTART`) and waits for its `OK`.
fn expect_ok(
    process: &mut Process,
    launch: &Launch,
    config: &MnkConfig,
    command: &str,
) -> Result<(), SetupError> {
    if let Err(error) = process.send(command) {
        return Err(setup_fault(process, error));
    }
    let mut message = None;
    match answer(
        process,
        launch.start_deadline(),
        &format!("`{command}`"),
        &mut message,
        &mut 0,
        &mut None,
    ) {
        Answer::Line(ok) if ok.eq_ignore_ascii_case("OK") => Ok(()),
        Answer::Line(other) => Err(setup_fault(
            process,
            format!(
                "it answered `{}` to `{command}` instead of OK",
                quote(&other)
            ),
        )),
        // RESTART is optional in the protocol (pbrain-figrid 1.2.0 answers UNKNOWN): a new game
        // on the same board is then a START of that board, which every engine has.
        Answer::Error(_) | Answer::Unknown(_) if command == "RESTART" => {
            process.log_line("`RESTART` refused: the next game starts with `START` instead");
            expect_ok(process, launch, config, &start_command(config))
        }
        Answer::Error(text) | Answer::Unknown(text) => {
            process.stop(Some("END"));
            Err(SetupError::Refused {
                variant: config.to_string(),
                answer: format!("{text}` to `{command}"),
            })
        }
        Answer::Fault(error) => Err(setup_fault(process, error.message().to_string())),
    }
}

/// Starts an engine (or takes one from the pool) and sets up a game of `config`.
fn set_up(
    launch: &Launch,
    pool: Option<&Pool>,
    config: &MnkConfig,
    terms: Terms,
) -> Result<Session, SetupError> {
    let board = (config.cols(), config.rows());
    let reused = pool.and_then(|p| p.take(&launch.key));
    let (mut process, command) = match reused {
        Some(idle) if idle.board == Some(board) => (idle.process, "RESTART".to_string()),
        Some(idle) => (idle.process, start_command(config)),
        None => (launch.start(ROLE)?, start_command(config)),
    };
    expect_ok(&mut process, launch, config, &command)?;
    let mut unanswered = info_lines(config, terms.times, terms.max_memory);
    if let Some(state) = terms.private {
        unanswered.push(format!("INFO arena_rng {state}"));
    }
    let queued = unanswered.iter().try_for_each(|line| process.queue(line));
    if let Err(error) = queued.and_then(|()| process.flush()) {
        let message = format!("{error}{}", process.fault_context());
        process.log_fault(&message);
        process.kill();
        return Err(SetupError::Protocol(message));
    }
    Ok(Session {
        process,
        board,
        clean: true,
        in_game: true,
        infos_unanswered: unanswered.len(),
        unanswered,
        sent_turn: Some(terms.times.0),
        sent_left: Some(terms.times.2),
        answered: Instant::now(),
        moves: 0,
    })
}

/// The pre-flight check of an engine: for each variant, a fresh process is started and set up
/// for a game, then asked `ABOUT`; an `ERROR` before the answer refuses the variant (a real
/// engine answers `ERROR` to an `INFO rule` it does not have).
pub(crate) fn preflight(
    launch: &Launch,
    variants: &[MnkConfig],
    max_memory: u64,
) -> Result<(), SetupError> {
    for config in variants {
        let terms = Terms {
            times: time_info(None, None, launch.timeout),
            max_memory,
            private: None,
        };
        let mut session = set_up(launch, None, config, terms)?;
        let process = &mut session.process;
        let _ = process.send("ABOUT");
        // An engine that does not answer ABOUT at all is not refused for it: two seconds at most.
        let deadline = Instant::now() + launch.start_timeout.min(Duration::from_secs(2));
        let mut message = None;
        // Here an ERROR to the set-up refuses the variant: no INFO is let off.
        let outcome = answer(
            process,
            deadline,
            "`ABOUT`",
            &mut message,
            &mut 0,
            &mut None,
        );
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

/// The stones of `position` in the order they were played, from the moves `ctx` holds (the
/// opening included); when they are missing or do not lead to `position`, alternately the
/// first player's and the second's (the colours still alternate from the first stone).
fn played_order(position: &Mnk, moves: Option<&[String]>) -> Vec<Cell> {
    let config = *position.config();
    let replayed = moves.and_then(|moves| {
        let mut replay = config.start();
        let mut cells = Vec::with_capacity(moves.len());
        for text in moves {
            let cell = replay.parse_move(text).ok()?;
            replay = replay.play(cell).ok()?;
            cells.push(cell);
        }
        (replay == *position).then_some(cells)
    });
    replayed.unwrap_or_else(|| {
        let first: Vec<Cell> = position.stones(Player::First).iter().collect();
        let second: Vec<Cell> = position.stones(Player::Second).iter().collect();
        let mut order = Vec::with_capacity(first.len() + second.len());
        for i in 0..first.len().max(second.len()) {
            order.extend(first.get(i));
            order.extend(second.get(i));
        }
        order
    })
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
        let message = session.process.with_verdict(error.message());
        session.process.log_fault(&message);
        let text = format!("{message}{context}");
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
        let terms = Terms {
            times: time_info(
                ctx.move_time,
                ctx.clock.as_ref(),
                self.config.launch.timeout,
            ),
            max_memory: self.config.max_memory,
            private: self.config.private.then(|| rng_state(ctx.rng)),
        };
        let pool = (!self.config.restart).then_some(&self.pool);
        match set_up(&self.config.launch, pool, &config, terms) {
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
            // The next game's first word (`RESTART`) comes after the quiet time too.
            wait_quiet(session.answered, self.config.quiet);
            let idle = Idle {
                process: session.process,
                board: Some(session.board),
                features: Vec::new(),
            };
            self.pool.put(&self.config.launch.key, idle, "END");
        }
    }

    /// The allowance past the turn limit of the move being made: the set-up allowance
    /// (`setup_ms`) on the first move of a game, which engines use to set up their tables.
    fn allowance(&self) -> Duration {
        match &self.session {
            Some(session) if session.moves == 0 => self.config.setup,
            _ => Duration::ZERO,
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
        // After a fault the process is not trusted again (`arena play` goes on after one).
        if !self.session.as_ref().is_some_and(|s| s.in_game && s.clean) {
            self.begin(position, ctx)?;
        }
        let (turn, _, left) = time_info(
            ctx.move_time,
            ctx.clock.as_ref(),
            self.config.launch.timeout,
        );
        let budget = ctx.move_time.unwrap_or(self.config.launch.timeout);
        let margin = self.config.launch.margin;
        let allowance = self.allowance();
        let config = *position.config();
        // TURN when the position is the engine's last one plus the opponent's move; the whole
        // board otherwise (after RESTART when the engine's board is not empty).
        let known = self.known.clone();
        let follows = known.as_ref().is_some_and(|known| {
            position.ply() == known.ply() + 1
                && position
                    .last_move()
                    .is_some_and(|last| known.is_legal(last) && known.child(last) == *position)
        });
        let restart = !follows && known.as_ref().is_some_and(|known| known.ply() > 0);
        let session = self.session.as_mut().expect("set up above");
        wait_quiet(session.answered, self.config.quiet);
        if restart {
            session.moves = 0;
            if let Err(error) = expect_ok(
                &mut session.process,
                &self.config.launch,
                &config,
                "RESTART",
            ) {
                session.clean = false;
                return Err(AgentError::Crash(format!("the engine: {error}")));
            }
        }
        let asked = Instant::now();
        let mut lines = Vec::new();
        if session.sent_turn != Some(turn) {
            lines.push(format!("INFO timeout_turn {turn}"));
            session.sent_turn = Some(turn);
        }
        // Under a game clock, what is left before every move (piskvork sends it then); without
        // one the unlimited value sent at the set-up stands.
        if session.sent_left != Some(left) {
            lines.push(format!("INFO time_left {left}"));
            session.sent_left = Some(left);
        }
        session.infos_unanswered += lines.len();
        let request = if position.ply() == 0 {
            lines.push("BEGIN".into());
            "BEGIN".to_string()
        } else if follows {
            let last = position.last_move().expect("checked above");
            let line = format!("TURN {}", coordinates(&config, last));
            lines.push(line.clone());
            line
        } else {
            // In the order the moves were played, as piskvork sends it: engines take the
            // first stone as the first player's and the last as the previous mover's.
            lines.push("BOARD".into());
            let me = position.side_to_move();
            for cell in played_order(position, ctx.moves) {
                let field = if position.stone(cell) == Some(me) {
                    1
                } else {
                    2
                };
                lines.push(format!("{},{field}", coordinates(&config, cell)));
            }
            lines.push("DONE".into());
            "BOARD".to_string()
        };
        let sent = lines
            .iter()
            .try_for_each(|line| session.process.queue(line))
            .and_then(|()| session.process.flush());
        if let Err(error) = sent {
            return Err(self.fault(AgentError::Crash(error)));
        }
        session.unanswered.extend(lines);
        let deadline = asked + budget + margin + allowance;
        let mut message = None;
        let waiting_for = format!("`{request}`");
        let mut warned = None;
        let reply = answer(
            &mut session.process,
            deadline,
            &waiting_for,
            &mut message,
            &mut session.infos_unanswered,
            &mut warned,
        );
        session.answered = Instant::now();
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
            // An ERROR taken as the answer to an INFO line, and then no move: it answered the
            // move request after all.
            Answer::Fault(AgentError::Timeout(_)) if warned.is_some() => {
                let text = warned.unwrap_or_default();
                return Err(self.fault(AgentError::Crash(format!(
                    "the engine answered {} and then no move to {waiting_for}",
                    Quoted(&text)
                ))));
            }
            Answer::Fault(error) => {
                let error = match error {
                    AgentError::Timeout(_) => {
                        let first = if allowance.is_zero() {
                            String::new()
                        } else {
                            format!(
                                " plus the first move's set-up allowance {} ms",
                                allowance.as_millis()
                            )
                        };
                        AgentError::Timeout(format!(
                            "no move within {} ms (timeout_turn {} ms plus the margin {} ms{first})",
                            (budget + margin + allowance).as_millis(),
                            budget.as_millis(),
                            margin.as_millis()
                        ))
                    }
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
        if let Some(session) = self.session.as_mut() {
            session.moves += 1;
        }
        Ok(Choice {
            mv: cell,
            stats: SearchStats {
                reason: message,
                ..SearchStats::default()
            },
            pv: Vec::new(),
        })
    }

    fn end_game(&mut self, _position: &Mnk, _outcome: Outcome, _termination: &str) {
        if let Some(session) = self.session.as_mut() {
            session.in_game = false;
        }
        self.release();
    }

    /// The stated margin, and on the first move of a game the set-up allowance too.
    fn in_process(&self) -> bool {
        false
    }

    fn time_margin(&self) -> Duration {
        let first = self.session.as_ref().is_some_and(|s| s.moves == 1);
        self.config.launch.margin
            + if first {
                self.config.setup
            } else {
                Duration::ZERO
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use agents::clock::{Clock, TimeControl};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn board_lists_the_stones_in_the_order_they_were_played() {
        // h8 e6 d11 (the probe): the engine to move is the second player.
        let start = "gomoku"
            .parse::<rules::Variant>()
            .unwrap()
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start();
        let moves: Vec<String> = ["h8", "e6", "d11"].iter().map(|m| m.to_string()).collect();
        let position = start.play_line(&moves.join(" ")).unwrap();
        let config = *position.config();
        let text = |cells: Vec<Cell>| -> Vec<String> {
            cells.iter().map(|&c| coordinates(&config, c)).collect()
        };
        assert_eq!(
            text(played_order(&position, Some(&moves))),
            ["7,7", "4,5", "3,10"]
        );
        // Without the moves the colours still alternate from the first player's.
        let fallback = text(played_order(&position, None));
        assert_eq!(fallback.len(), 3);
        assert_eq!(
            position.stone(config.cell(7, 7).unwrap()),
            Some(Player::First)
        );
        assert!(
            fallback[0] == "7,7" || fallback[0] == "3,10",
            "{fallback:?}"
        );
        assert_eq!(fallback[1], "4,5");
        // Moves that do not lead to the position are not trusted.
        let wrong: Vec<String> = vec!["a1".into()];
        assert_eq!(text(played_order(&position, Some(&wrong))), fallback);
    }

    #[test]
    fn an_engine_is_told_the_turn_the_match_and_what_is_left() {
        // A per-move limit alone: no game clock, time_left unlimited.
        assert_eq!(
            time_info(Some(ms(1_000)), None, ms(5_000)),
            (1_000, 0, UNLIMITED)
        );
        // No time control: the engine's own timeout_ms.
        assert_eq!(time_info(None, None, ms(5_000)), (5_000, 0, UNLIMITED));
        // A game clock: the turn may use the period, time_left is the clock.
        let mut clock = Clock::new("tc=60+0.6".parse::<TimeControl>().unwrap());
        clock.punch(ms(10_000), Duration::ZERO).unwrap();
        let state = clock.state().unwrap();
        assert_eq!(
            time_info(clock.limit(), Some(&state), ms(5_000)),
            (60_000, 60_000, 50_600)
        );
        // Gomocup's form: 30 s a move within 180 s a game.
        let clock = Clock::new("tc=180 st=30".parse::<TimeControl>().unwrap());
        assert_eq!(
            time_info(clock.limit(), clock.state().as_ref(), ms(5_000)),
            (30_000, 180_000, 180_000)
        );
    }
}
