//! The Gomocup (piskvork) protocol, both ways: the `engine` agent drives an outside engine
//! (`pbrain-*` executables, or any program speaking the protocol on stdin/stdout), and
//! [`serve`] puts one of our agents behind the protocol (`arena engine --agent SPEC`).
//!
//! Coordinates are 0-based `x,y` = column,row. Besides the standard commands we send two
//! `INFO` keys other engines ignore: `win_length K` (the board's k, when it is not 5) and
//! `arena_rng SEED:STREAM:WORD` (the state of the RNG the arena handed the agent, so that
//! our own agents behind the protocol draw exactly what they would draw in-process).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rules::{Cell, Game, Mnk, MnkConfig, Player, WinRule};

use crate::{
    Agent, AgentError, AgentRng, AgentSpec, Choice, Context, Kind, ParamDoc, Params, Plays,
    SearchStats, SpecError,
};

pub(crate) const KIND: Kind = Kind {
    name: "engine",
    summary: "an outside engine speaking the Gomocup (piskvork) protocol, started per game",
    plays: Plays::Mnk,
    params: &[
        ParamDoc {
            name: "cmd",
            default: "(required)",
            doc: "the engine's executable (a path, or a name on the PATH)",
        },
        ParamDoc {
            name: "timeout_ms",
            default: "5000",
            doc: "time per move when the experiment sets no move_time_ms",
        },
        ParamDoc {
            name: "start_ms",
            default: "10000",
            doc: "time the engine has to answer START",
        },
        ParamDoc {
            name: "log",
            default: "(none)",
            doc: "a file that collects the engine's MESSAGE/DEBUG lines and stderr",
        },
        ParamDoc {
            name: "args",
            default: "(none)",
            doc: "arguments, space-separated; must come last and may hold commas",
        },
    ],
    multiplayer: false,
    listed: true,
};

/// The settings of an `engine` agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The executable.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Time per move when the arena sets no limit.
    pub timeout: Duration,
    /// Time to answer `START`.
    pub start_timeout: Duration,
    /// Where MESSAGE/DEBUG lines and stderr go.
    pub log: Option<PathBuf>,
}

impl EngineConfig {
    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let cmd = params.text("cmd").unwrap_or("").to_string();
        if cmd.is_empty() {
            return Err(SpecError::BadValue {
                kind: "engine".into(),
                key: "cmd".into(),
                value: String::new(),
                expected: "the engine's executable: engine:cmd=PATH[,args=...]".into(),
            });
        }
        Ok(EngineConfig {
            cmd,
            args: split_args(params.text("args").unwrap_or("")),
            timeout: Duration::from_millis(params.u64("timeout_ms", 5_000, 1..=3_600_000)?),
            start_timeout: Duration::from_millis(params.u64("start_ms", 10_000, 1..=600_000)?),
            log: params.text("log").map(PathBuf::from),
        })
    }
}

/// Splits an argument string on whitespace, keeping 'single-quoted' parts together.
fn split_args(text: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    args.push(std::mem::take(&mut current));
                    any = false;
                }
            }
            c => {
                current.push(c);
                any = true;
            }
        }
    }
    if any {
        args.push(current);
    }
    args
}

/// A running engine process.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    log: Option<File>,
    last_message: Option<String>,
}

impl Running {
    fn send(&mut self, line: &str) -> Result<(), AgentError> {
        self.note(&format!("> {line}"));
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| AgentError::Crash(format!("the engine stopped reading its input ({e})")))
    }

    fn note(&mut self, line: &str) {
        if let Some(log) = &mut self.log {
            let _ = writeln!(log, "{line}");
        }
    }

    /// The next line that is not a MESSAGE/DEBUG/SUGGEST, before `deadline`.
    fn answer(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, AgentError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim().to_string();
                    self.note(&format!("< {line}"));
                    let upper = line.to_ascii_uppercase();
                    if upper.starts_with("MESSAGE") {
                        self.last_message = Some(line[7..].trim().to_string());
                    } else if upper.starts_with("DEBUG")
                        || upper.starts_with("SUGGEST")
                        || line.is_empty()
                    {
                    } else if upper.starts_with("ERROR") {
                        return Err(AgentError::Crash(format!(
                            "the engine answered `{line}` to {waiting_for}"
                        )));
                    } else if upper.starts_with("UNKNOWN") {
                        return Err(AgentError::Crash(format!(
                            "the engine does not know {waiting_for}: `{line}`"
                        )));
                    } else {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(AgentError::Timeout(format!(
                        "the engine did not answer {waiting_for} in time"
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .child
                        .try_wait()
                        .ok()
                        .flatten()
                        .map(|s| format!(" ({s})"))
                        .unwrap_or_default();
                    return Err(AgentError::Crash(format!(
                        "the engine exited{status} before answering {waiting_for}"
                    )));
                }
            }
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "END").and_then(|()| self.stdin.flush());
        let give_up = Instant::now() + Duration::from_millis(200);
        while Instant::now() < give_up {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An outside engine as an agent. The process starts at the first move of a game and ends
/// (`END`, then a kill if it lingers) when the agent is dropped, so each game gets a fresh one.
pub struct Engine {
    config: EngineConfig,
    running: Option<Running>,
    /// The position the engine knows: after its last move.
    known: Option<Mnk>,
}

impl Engine {
    /// An engine agent; nothing starts until the first move.
    pub fn new(config: EngineConfig) -> Self {
        Engine {
            config,
            running: None,
            known: None,
        }
    }

    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        EngineConfig::from_params(params).map(Engine::new)
    }

    fn start(&mut self, position: &Mnk, rng: &AgentRng) -> Result<&mut Running, AgentError> {
        let log = match &self.config.log {
            Some(path) => Some(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| {
                        AgentError::Crash(format!("cannot open the log {}: {e}", path.display()))
                    })?,
            ),
            None => None,
        };
        let stderr = match &log {
            Some(file) => file
                .try_clone()
                .map(Stdio::from)
                .unwrap_or_else(|_| Stdio::null()),
            None => Stdio::null(),
        };
        let mut child = Command::new(&self.config.cmd)
            .args(&self.config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| AgentError::Crash(format!("cannot start `{}`: {e}", self.config.cmd)))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut running = Running {
            child,
            stdin,
            lines,
            log,
            last_message: None,
        };
        let config = position.config();
        let start = if config.rows() == config.cols() {
            format!("START {}", config.cols())
        } else {
            format!("RECTSTART {},{}", config.cols(), config.rows())
        };
        running.send(&start)?;
        let deadline = Instant::now() + self.config.start_timeout;
        let answer = running.answer(deadline, &format!("`{start}`"))?;
        if !answer.eq_ignore_ascii_case("OK") {
            return Err(AgentError::Crash(format!(
                "the engine answered `{answer}` to `{start}` instead of OK"
            )));
        }
        running.send("INFO max_memory 0")?;
        running.send("INFO timeout_match 0")?;
        running.send("INFO game_type 1")?;
        running.send(&format!("INFO rule {}", rule_bits(config.rule())))?;
        if config.k() != 5 {
            running.send(&format!("INFO win_length {}", config.k()))?;
        }
        running.send(&format!("INFO arena_rng {}", rng_state(rng)))?;
        // The engine now holds the empty board: a game we join after one move gets TURN.
        self.known = Some(position.config().start());
        Ok(self.running.insert(running))
    }
}

/// Gomocup's `rule` bits for our win rules: 1 = exactly five, 8 = caro.
pub fn rule_bits(rule: WinRule) -> u32 {
    match rule {
        WinRule::Freestyle => 0,
        WinRule::Exact => 1,
        WinRule::Caro => 8,
    }
}

/// The RNG's full state as `SEEDHEX:STREAM:WORD`.
fn rng_state(rng: &AgentRng) -> String {
    let seed: String = rng.get_seed().iter().map(|b| format!("{b:02x}")).collect();
    format!("{seed}:{}:{}", rng.get_stream(), rng.get_word_pos())
}

/// Reads [`rng_state`] back.
fn parse_rng_state(text: &str) -> Option<AgentRng> {
    let mut parts = text.trim().split(':');
    let hex = parts.next()?;
    let stream: u64 = parts.next()?.parse().ok()?;
    let word: u128 = parts.next()?.parse().ok()?;
    if hex.len() != 64 || parts.next().is_some() {
        return None;
    }
    let mut seed = [0u8; 32];
    for (i, byte) in seed.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    let mut rng = AgentRng::from_seed(seed);
    rng.set_stream(stream);
    rng.set_word_pos(word);
    Some(rng)
}

/// `x,y` (column,row) of a cell.
fn coordinates(config: &MnkConfig, cell: Cell) -> String {
    let (row, col) = config.row_col(cell);
    format!("{col},{row}")
}

/// Reads `x,y` (column,row); `None` if it is not two numbers, `Some(None)` if off the board.
fn parse_coordinates(config: &MnkConfig, text: &str) -> Option<Option<Cell>> {
    let (x, y) = text.split_once(',')?;
    let x: i64 = x.trim().parse().ok()?;
    let y: i64 = y.trim().parse().ok()?;
    if x < 0 || y < 0 || x > 255 || y > 255 {
        return Some(None);
    }
    Some(config.cell(y as u8, x as u8))
}

impl Agent<Mnk> for Engine {
    fn choose(
        &mut self,
        position: &Mnk,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<Cell>, AgentError> {
        let turn_time = ctx.time_left().unwrap_or(self.config.timeout);
        if self.running.is_none() {
            self.start(position, ctx.rng)?;
        }
        // TURN when the position is the engine's last one plus the opponent's move; the whole
        // board otherwise.
        let follows = self.known.as_ref().is_some_and(|known| {
            position.ply() == known.ply() + 1
                && position
                    .last_move()
                    .is_some_and(|last| known.is_legal(last) && known.child(last) == *position)
        });
        let running = self.running.as_mut().expect("started above");
        let config = *position.config();
        running.send(&format!(
            "INFO timeout_turn {}",
            turn_time.as_millis().max(1)
        ))?;
        running.send(&format!("INFO time_left {}", turn_time.as_millis().max(1)))?;
        let request = if position.ply() == 0 {
            running.send("BEGIN")?;
            "BEGIN".to_string()
        } else if follows {
            let last = position.last_move().expect("checked above");
            let line = format!("TURN {}", coordinates(&config, last));
            running.send(&line)?;
            line
        } else {
            running.send("BOARD")?;
            let me = position.side_to_move();
            for player in [Player::First, Player::Second] {
                let field = if player == me { 1 } else { 2 };
                for cell in position.stones(player).iter() {
                    running.send(&format!("{},{field}", coordinates(&config, cell)))?;
                }
            }
            running.send("DONE")?;
            "BOARD".to_string()
        };
        let deadline = Instant::now() + turn_time;
        let answer = running.answer(deadline, &format!("`{request}`"))?;
        let cell = match parse_coordinates(&config, &answer) {
            None => {
                return Err(AgentError::IllegalMove(format!(
                    "the engine answered `{answer}` instead of a move x,y"
                )));
            }
            Some(None) => {
                return Err(AgentError::IllegalMove(format!(
                    "the engine played {answer}, off the {}x{} board",
                    config.cols(),
                    config.rows()
                )));
            }
            Some(Some(cell)) => cell,
        };
        if !position.is_legal(cell) {
            return Err(AgentError::IllegalMove(format!(
                "the engine played {answer} ({}), which is not legal here",
                config.cell_name(cell)
            )));
        }
        self.known = Some(position.child(cell));
        Ok(Choice {
            mv: cell,
            stats: SearchStats {
                nodes: 0,
                reason: running.last_message.take(),
                ..SearchStats::default()
            },
        })
    }
}

/// What our side of the protocol knows about the game being set up.
struct Setup {
    cols: u8,
    rows: u8,
    rule: WinRule,
    k: u8,
}

impl Setup {
    fn position(&self) -> Result<Mnk, String> {
        let k = self.k.min(self.rows.max(self.cols));
        MnkConfig::new(self.rows, self.cols, k)
            .map(|c| c.with_rule(self.rule).start())
            .map_err(|e| e.to_string())
    }
}

/// The answer to `ABOUT`.
pub fn about(spec: &AgentSpec) -> String {
    format!(
        "name=\"arena-{}\", version=\"{}\", author=\"arena developers\", country=\"VN\", www=\"agent spec: {spec}\"",
        spec.kind,
        env!("CARGO_PKG_VERSION")
    )
}

/// Plays as a Gomocup engine on `input`/`output` with the agent `spec` until `END` or the end
/// of the input. `seed` seeds the agent's RNG unless the manager sends `INFO arena_rng`.
/// Returns an error only when `output` cannot be written.
pub fn serve(
    spec: &AgentSpec,
    seed: u64,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut say = |line: &str| -> std::io::Result<()> {
        writeln!(output, "{line}")?;
        output.flush()
    };
    let mut setup: Option<Setup> = None;
    let mut position: Option<Mnk> = None;
    let mut agent: Option<Box<dyn Agent<Mnk>>> = None;
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut timeout_turn: Option<Duration> = None;
    let mut time_left: Option<Duration> = None;
    let mut lines = input.lines();
    while let Some(line) = lines.next() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c.to_ascii_uppercase(), r.trim()),
            None => (line.to_ascii_uppercase(), ""),
        };
        match command.as_str() {
            "START" | "RECTSTART" => {
                let size = if command == "START" {
                    rest.parse::<u8>().ok().map(|n| (n, n))
                } else {
                    rest.split_once(',').and_then(|(w, h)| {
                        Some((w.trim().parse::<u8>().ok()?, h.trim().parse::<u8>().ok()?))
                    })
                };
                match size {
                    Some((cols, rows)) if (1..=19).contains(&cols) && (1..=19).contains(&rows) => {
                        setup = Some(Setup {
                            cols,
                            rows,
                            rule: WinRule::Freestyle,
                            k: 5,
                        });
                        position = None;
                        match crate::build::<Mnk>(spec) {
                            Ok(built) => {
                                agent = Some(built);
                                say("OK")?;
                            }
                            Err(error) => say(&format!("ERROR {error}"))?,
                        }
                    }
                    _ => say(&format!(
                        "ERROR unsupported size `{rest}`: boards from 1x1 to 19x19"
                    ))?,
                }
            }
            "RESTART" => {
                position = None;
                agent = crate::build::<Mnk>(spec).ok();
                say(if setup.is_some() && agent.is_some() {
                    "OK"
                } else {
                    "ERROR no START yet"
                })?;
            }
            "INFO" => {
                let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                let value = value.trim();
                match key.to_ascii_lowercase().as_str() {
                    "timeout_turn" => {
                        timeout_turn = value
                            .parse::<u64>()
                            .ok()
                            .filter(|&ms| ms > 0)
                            .map(Duration::from_millis)
                    }
                    "time_left" => time_left = value.parse::<u64>().ok().map(Duration::from_millis),
                    "rule" => {
                        if let (Some(s), Ok(bits)) = (setup.as_mut(), value.parse::<u32>()) {
                            s.rule = if bits & 8 != 0 {
                                WinRule::Caro
                            } else if bits & 1 != 0 {
                                WinRule::Exact
                            } else {
                                WinRule::Freestyle
                            };
                        }
                    }
                    "win_length" => {
                        if let (Some(s), Ok(k)) = (setup.as_mut(), value.parse::<u8>()) {
                            s.k = k.max(1);
                        }
                    }
                    "arena_rng" => {
                        if let Some(state) = parse_rng_state(value) {
                            rng = state;
                        }
                    }
                    // Other keys (max_memory, timeout_match, game_type, folder, ...) do not
                    // change how our agents play.
                    _ => {}
                }
            }
            "BEGIN" | "TURN" | "BOARD" => {
                let Some(s) = &setup else {
                    say("ERROR no START yet")?;
                    continue;
                };
                let mut current = match position.take() {
                    Some(p) if command == "TURN" => p,
                    _ => match s.position() {
                        Ok(p) => p,
                        Err(error) => {
                            say(&format!("ERROR {error}"))?;
                            continue;
                        }
                    },
                };
                let config = *current.config();
                if command == "TURN" {
                    match parse_coordinates(&config, rest) {
                        Some(Some(cell)) if current.is_legal(cell) => current.play_unchecked(cell),
                        _ => {
                            say(&format!("ERROR the move `{rest}` is not legal here"))?;
                            position = Some(current);
                            continue;
                        }
                    }
                } else if command == "BOARD" {
                    let mut own = Vec::new();
                    let mut theirs = Vec::new();
                    let mut bad = None;
                    for entry in lines.by_ref() {
                        let entry = entry?;
                        let entry = entry.trim();
                        if entry.eq_ignore_ascii_case("DONE") {
                            break;
                        }
                        let mut fields = entry.split(',').map(str::trim);
                        let cell = match (fields.next(), fields.next(), fields.next()) {
                            (Some(x), Some(y), Some(field)) => {
                                match parse_coordinates(&config, &format!("{x},{y}")) {
                                    Some(Some(cell)) => Some((cell, field.to_string())),
                                    _ => None,
                                }
                            }
                            _ => None,
                        };
                        match cell {
                            Some((cell, field)) if field == "1" => own.push(cell),
                            Some((cell, field)) if field == "2" || field == "3" => {
                                theirs.push(cell)
                            }
                            _ => bad = Some(entry.to_string()),
                        }
                    }
                    if let Some(entry) = bad {
                        say(&format!("ERROR bad BOARD line `{entry}`"))?;
                        continue;
                    }
                    // We are to move: with as many stones as the opponent we are first (X).
                    let (x, o) = if own.len() == theirs.len() {
                        (own, theirs)
                    } else if theirs.len() == own.len() + 1 {
                        (theirs, own)
                    } else {
                        say("ERROR the stone counts of BOARD do not alternate")?;
                        continue;
                    };
                    let mut occupied = false;
                    for (cell, player) in x
                        .iter()
                        .map(|&c| (c, Player::First))
                        .chain(o.iter().map(|&c| (c, Player::Second)))
                    {
                        if current.stone(cell).is_some() {
                            occupied = true;
                        } else {
                            current.place(cell, player);
                        }
                    }
                    if occupied {
                        say("ERROR BOARD names a cell twice")?;
                        continue;
                    }
                }
                if current.is_over() {
                    say("ERROR the game is over")?;
                    position = Some(current);
                    continue;
                }
                let Some(player) = agent.as_mut() else {
                    say("ERROR no agent")?;
                    continue;
                };
                let limit = match (timeout_turn, time_left) {
                    (Some(turn), Some(left)) => Some(turn.min(left)),
                    (turn, left) => turn.or(left),
                };
                // Answer a little before the manager's limit.
                let deadline = limit.map(|l| {
                    Instant::now() + l.mul_f64(0.9).saturating_sub(Duration::from_millis(20))
                });
                let mut ctx = Context::new(&mut rng).with_deadline(deadline);
                match player.choose(&current, &mut ctx) {
                    Ok(choice) if current.is_legal(choice.mv) => {
                        if let Some(reason) = &choice.stats.reason {
                            say(&format!("MESSAGE {reason}"))?;
                        }
                        say(&coordinates(&config, choice.mv))?;
                        current.play_unchecked(choice.mv);
                    }
                    Ok(_) => say("ERROR the agent chose an illegal move")?,
                    Err(error) => say(&format!("ERROR {error}"))?,
                }
                position = Some(current);
            }
            "ABOUT" => say(&about(spec))?,
            "END" => return Ok(()),
            _ => say(&format!("UNKNOWN {command}"))?,
        }
    }
    Ok(())
}
