//! `arena engine`: any agent behind the Gomocup protocol on a byte stream. Lines are read with
//! a bound and checked as bytes first ([`crate::line`]); a bad line gets an `ERROR` that quotes
//! at most its start, and the session goes on.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use agents::clock::{ClockState, GameClock};
use agents::{Agent, AgentRng, AgentSpec, Context};
use rand::SeedableRng;
use rules::{Game, Mnk, MnkConfig, Player, WinRule};

use super::command::{self, BoardLine, Command, Info};
use super::engine::{UNLIMITED, coordinates};
use crate::line::LineReader;
use crate::outside::parse_rng_state;

/// What our side of the protocol knows about the game being set up.
struct Setup {
    cols: u8,
    rows: u8,
    rule: WinRule,
    /// The `win_length` the manager sent; five (or the longest side, if shorter) without it.
    k: Option<u8>,
}

impl Setup {
    fn position(&self) -> Result<Mnk, String> {
        let side = self.rows.max(self.cols);
        let k = match self.k {
            Some(k) if k > side => {
                return Err(format!(
                    "win_length {k} is longer than the {}x{} board",
                    self.cols, self.rows
                ));
            }
            Some(k) => k,
            None => side.min(5),
        };
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

/// Plays as a Gomocup engine on `input`/`output` with the agent `spec` until `END` (also
/// inside a `BOARD` block) or the end of the input. `seed` seeds the agent's RNG at every new
/// game unless the manager sends `INFO arena_rng`. Returns an error only when `output` cannot
/// be written or `input` cannot be read.
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
    // The moves that led to `position` (agents of the arena protocol are sent them); after a
    // BOARD, an order of its stones that alternates from the first player's.
    let mut history: Vec<String> = Vec::new();
    let mut agent: Option<Box<dyn Agent<Mnk>>> = None;
    let mut rng = AgentRng::seed_from_u64(seed);
    // `timeout_turn 0` is "as fast as possible", not "no limit".
    let mut timeout_turn: Option<Duration> = None;
    let mut timeout_match: u64 = 0;
    let mut time_left: Option<u64> = None;
    let mut lines = LineReader::new(input);
    let build = || crate::build::<Mnk>(spec);
    while let Some(line) = lines.next_line() {
        let line = match line? {
            Ok(line) => line,
            Err(bad) => {
                say(&format!("ERROR {bad}"))?;
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let command = command::parse(&line);
        match command {
            Command::Invalid(message) => say(&format!("ERROR {message}"))?,
            Command::Unknown(word) => say(&format!("UNKNOWN {word}"))?,
            Command::Start { cols, rows } => {
                setup = Some(Setup {
                    cols,
                    rows,
                    rule: WinRule::Freestyle,
                    k: None,
                });
                position = None;
                rng = AgentRng::seed_from_u64(seed);
                match build() {
                    Ok(built) => {
                        agent = Some(built);
                        say("OK")?;
                    }
                    Err(error) => say(&format!("ERROR {error}"))?,
                }
            }
            Command::Restart => {
                position = None;
                rng = AgentRng::seed_from_u64(seed);
                agent = build().ok();
                say(if setup.is_some() && agent.is_some() {
                    "OK"
                } else {
                    "ERROR no START yet"
                })?;
            }
            Command::Info(info) => match info {
                Info::TimeoutTurn(ms) => timeout_turn = Some(Duration::from_millis(ms)),
                Info::TimeoutMatch(ms) => timeout_match = ms,
                Info::TimeLeft(ms) => time_left = Some(ms),
                Info::Rule(rule) => {
                    if let Some(s) = setup.as_mut() {
                        s.rule = rule;
                    }
                }
                Info::WinLength(k) => {
                    if let Some(s) = setup.as_mut() {
                        s.k = Some(k);
                    }
                }
                Info::ArenaRng(state) => {
                    if let Some(state) = parse_rng_state(&state) {
                        rng = state;
                    }
                }
                // Other keys (max_memory, game_type, folder, ...) do not change how our agents
                // play.
                Info::MaxMemory(_) | Info::GameType(_) | Info::Other(_) => {}
            },
            Command::About => say(&about(spec))?,
            Command::End => return Ok(()),
            Command::Begin | Command::Turn { .. } | Command::Board => {
                let Some(s) = &setup else {
                    if matches!(command, Command::Board) && skip_board(&mut lines)? {
                        return Ok(());
                    }
                    say("ERROR no START yet")?;
                    continue;
                };
                let mut current = match position.take() {
                    Some(p) if matches!(command, Command::Turn { .. }) => p,
                    _ => match s.position() {
                        Ok(p) => {
                            history.clear();
                            p
                        }
                        Err(error) => {
                            if matches!(command, Command::Board) && skip_board(&mut lines)? {
                                return Ok(());
                            }
                            say(&format!("ERROR {error}"))?;
                            continue;
                        }
                    },
                };
                let config = *current.config();
                if let Command::Turn { x, y } = command {
                    match config.cell(y.min(255) as u8, x.min(255) as u8) {
                        Some(cell) if x < 256 && y < 256 && current.is_legal(cell) => {
                            history.push(config.cell_name(cell));
                            current.play_unchecked(cell);
                        }
                        _ => {
                            say(&format!("ERROR the move {x},{y} is not legal here"))?;
                            position = Some(current);
                            continue;
                        }
                    }
                } else if matches!(command, Command::Board) {
                    match read_board(&mut lines, &config)? {
                        BoardRead::End => return Ok(()),
                        BoardRead::Bad(message) => {
                            say(&format!("ERROR {message}"))?;
                            continue;
                        }
                        BoardRead::Stones(own, theirs) => {
                            match place_board(&mut current, own, theirs) {
                                Ok(order) => history = order,
                                Err(message) => {
                                    say(&format!("ERROR {message}"))?;
                                    continue;
                                }
                            }
                        }
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
                // The game clock: what is left, when the manager says (2147483647 is unlimited).
                let clock = time_left.filter(|&ms| ms < UNLIMITED).map(|ms| {
                    let left = Duration::from_millis(ms);
                    ClockState {
                        control: GameClock {
                            moves: None,
                            time: Duration::from_millis(timeout_match).max(left),
                            increment: Duration::ZERO,
                        },
                        left,
                        moves_to_go: None,
                        per_move: timeout_turn,
                    }
                });
                let limit = match (timeout_turn, clock.map(|c| c.left)) {
                    (Some(turn), Some(left)) => Some(turn.min(left)),
                    (turn, left) => turn.or(left),
                };
                // The arena's time management, well before the manager's limit; a zero limit
                // (`timeout_turn 0`) is a deadline now: the agent's quickest move.
                let deadline = agents::clock::plan(Instant::now(), limit, clock.as_ref());
                let mut ctx = Context::new(&mut rng)
                    .with_deadline(deadline)
                    .with_move_time(limit)
                    .with_clock(clock)
                    .with_moves(&history);
                match player.choose(&current, &mut ctx) {
                    Ok(choice) if current.is_legal(choice.mv) => {
                        if let Some(reason) = &choice.stats.reason {
                            say(&format!("MESSAGE {reason}"))?;
                        }
                        say(&coordinates(&config, choice.mv))?;
                        history.push(config.cell_name(choice.mv));
                        current.play_unchecked(choice.mv);
                    }
                    Ok(_) => say("ERROR the agent chose an illegal move")?,
                    Err(error) => say(&format!("ERROR {error}"))?,
                }
                position = Some(current);
            }
        }
    }
    Ok(())
}

enum BoardRead {
    Stones(Vec<(u32, u32)>, Vec<(u32, u32)>),
    Bad(String),
    End,
}

/// Reads a `BOARD` block to `DONE` (or `END`, which ends the session).
fn read_board<R: BufRead>(
    lines: &mut LineReader<R>,
    config: &MnkConfig,
) -> std::io::Result<BoardRead> {
    let mut own = Vec::new();
    let mut theirs = Vec::new();
    let mut bad = None;
    while let Some(line) = lines.next_line() {
        let line = match line? {
            Ok(line) => line,
            Err(error) => {
                bad.get_or_insert(format!("bad BOARD line: {error}"));
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match command::parse_board_line(&line) {
            BoardLine::Done => break,
            BoardLine::End => return Ok(BoardRead::End),
            BoardLine::Invalid(message) => {
                bad.get_or_insert(message);
            }
            BoardLine::Stone { x, y, field } => {
                if x >= u32::from(config.cols()) || y >= u32::from(config.rows()) {
                    bad.get_or_insert(format!(
                        "BOARD names {x},{y}, off the {}x{} board",
                        config.cols(),
                        config.rows()
                    ));
                } else if field == 1 {
                    own.push((x, y));
                } else {
                    theirs.push((x, y));
                }
            }
        }
    }
    Ok(match bad {
        Some(message) => BoardRead::Bad(message),
        None => BoardRead::Stones(own, theirs),
    })
}

/// Skips a `BOARD` block we cannot use; `true` when it held `END`.
fn skip_board<R: BufRead>(lines: &mut LineReader<R>) -> std::io::Result<bool> {
    while let Some(line) = lines.next_line() {
        if let Ok(line) = line? {
            match command::parse_board_line(&line) {
                BoardLine::Done => return Ok(false),
                BoardLine::End => return Ok(true),
                _ => {}
            }
        }
    }
    Ok(false)
}

/// Puts the stones of a `BOARD` block on `current` (empty): we are to move, so with as many
/// stones as the opponent we are the first player. Returns an order of the stones as moves,
/// alternating from the first player's.
fn place_board(
    current: &mut Mnk,
    own: Vec<(u32, u32)>,
    theirs: Vec<(u32, u32)>,
) -> Result<Vec<String>, String> {
    let (x, o) = if own.len() == theirs.len() {
        (own, theirs)
    } else if theirs.len() == own.len() + 1 {
        (theirs, own)
    } else {
        return Err("the stone counts of BOARD do not alternate".into());
    };
    let config = *current.config();
    for ((col, row), player) in x
        .iter()
        .map(|&c| (c, Player::First))
        .chain(o.iter().map(|&c| (c, Player::Second)))
    {
        let cell = config
            .cell(row as u8, col as u8)
            .ok_or_else(|| format!("BOARD names {col},{row}, off the board"))?;
        if current.stone(cell).is_some() {
            return Err("BOARD names a cell twice".into());
        }
        current.place(cell, player);
    }
    let name = |&(col, row): &(u32, u32)| {
        config.cell_name(config.cell(row as u8, col as u8).expect("placed above"))
    };
    let mut order = Vec::with_capacity(x.len() + o.len());
    for i in 0..x.len().max(o.len()) {
        order.extend(x.get(i).map(name));
        order.extend(o.get(i).map(name));
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &[u8]) -> Vec<String> {
        let spec: AgentSpec = "alphabeta:depth=2".parse().unwrap();
        let mut out = Vec::new();
        serve(&spec, 1, input, &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("MESSAGE"))
            .map(String::from)
            .collect()
    }

    #[test]
    fn invalid_utf8_and_over_long_lines_get_an_error_and_the_session_goes_on() {
        let mut input = b"START 15\nBEG\xffIN\n".to_vec();
        input.extend(vec![b'Q'; crate::line::MAX_LINE + 5]);
        input.extend_from_slice(b"\nABOUT\nEND\n");
        let lines = session(&input);
        assert_eq!(lines[0], "OK");
        assert!(
            lines[1].starts_with("ERROR a line that is not UTF-8"),
            "{lines:?}"
        );
        assert!(
            lines[2].starts_with("ERROR a line longer than"),
            "{lines:?}"
        );
        assert!(lines[2].len() < 200, "{}", lines[2].len());
        assert!(lines[3].starts_with("name="), "{lines:?}");
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn win_length_zero_is_refused_and_nothing_claims_a_win() {
        let lines = session(b"START 15\nINFO win_length 0\nBEGIN\nEND\n");
        assert_eq!(lines[0], "OK");
        assert!(lines[1].starts_with("ERROR INFO win_length"), "{lines:?}");
        assert!(lines[2].contains(','), "{lines:?}");
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn end_inside_a_board_block_ends_the_engine() {
        let lines = session(b"START 15\nBOARD\n7,7,1\nEND\nBEGIN\n");
        assert_eq!(lines, ["OK"]);
        let lines = session(b"BOARD\n7,7,1\nEND\nBEGIN\n");
        assert!(lines.is_empty(), "{lines:?}");
    }

    #[test]
    fn a_win_length_longer_than_the_board_is_an_error_not_a_panic() {
        let lines = session(b"RECTSTART 3,4\nINFO win_length 9\nBEGIN\nEND\n");
        assert_eq!(lines[0], "OK");
        assert!(lines[1].starts_with("ERROR win_length 9"), "{lines:?}");
    }

    #[test]
    fn timeout_turn_zero_is_as_fast_as_possible_not_unlimited() {
        let spec: AgentSpec = "mcts:iterations=10000000".parse().unwrap();
        let mut out = Vec::new();
        serve(
            &spec,
            1,
            &b"START 9\nINFO timeout_turn 0\nINFO time_left 2147483647\nBEGIN\nEND\n"[..],
            &mut out,
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        // The agent says how many simulations it ran: the first check of the deadline.
        let message = out.lines().find(|l| l.starts_with("MESSAGE")).unwrap();
        let simulations: u64 = message
            .split_whitespace()
            .rev()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(simulations < 10_000, "{message}");
        assert!(out.lines().last().unwrap().contains(','), "{out}");
    }
}
