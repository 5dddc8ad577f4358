//! `arena serve-agent`: any agent behind the `arena` protocol on a byte stream, so our agents
//! can be tested from outside and the protocol against itself. It announces `reuse` (it plays
//! any number of games) and `private` (it replays the arena's RNG state exactly).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use agents::clock::{ClockState, GameClock};
use agents::{Agent, AgentRng, AgentSpec, Context, SearchStats};
use rand::SeedableRng;
use rules::Variant;

use crate::line::{LineReader, quote};
use crate::outside::parse_rng_state;
use crate::wire::{FromAgent, GameStart, GoClock, Info, ToAgent, VERSION};
use agents::AgentGame;

/// A game in progress on our side.
trait Table {
    /// Our move after `moves` (the `position` line's moves from the start, space-separated),
    /// within `time` (and the game clock, if the game has one): its text and what was searched.
    fn go(
        &mut self,
        moves: &str,
        time: Duration,
        clock: Option<GoClock>,
    ) -> Result<(String, SearchStats), String>;
}

/// The clock of a `go` line as our agents are told it.
fn clock_state(clock: GoClock, time: Duration) -> ClockState {
    let left = Duration::from_millis(clock.time_left);
    ClockState {
        control: GameClock {
            moves: None,
            time: left,
            increment: Duration::from_millis(clock.inc_ms),
        },
        left,
        moves_to_go: clock.moves_to_go,
        // A per-move limit shorter than the clock is the only way `time_ms` falls below it.
        per_move: (time < left).then_some(time),
    }
}

struct Playing<G: AgentGame> {
    agent: Box<dyn Agent<G>>,
    rng: AgentRng,
    start: G,
    position: G,
    /// The `position` text `position` is the result of, and its moves.
    text: String,
    moves: Vec<String>,
}

impl<G: AgentGame> Playing<G> {
    /// Brings `position` to the end of `text`, playing only the new moves when it continues
    /// the last one (as it does from turn to turn: two moves are new).
    fn catch_up(&mut self, text: &str) -> Result<(), String> {
        let continues = text.starts_with(self.text.as_str())
            && (self.text.is_empty()
                || text.len() == self.text.len()
                || text.as_bytes()[self.text.len()] == b' ');
        if !continues {
            self.position = self.start.clone();
            self.text.clear();
            self.moves.clear();
        }
        for word in text[self.text.len()..].split_whitespace() {
            let mv = match self.position.parse_move(word) {
                Ok(mv) => mv,
                Err(error) => {
                    let message = format!(
                        "move {} of the position (`{}`): {error}",
                        self.moves.len() + 1,
                        quote(word)
                    );
                    // The position is not what any text says: start afresh next time.
                    self.position = self.start.clone();
                    self.text.clear();
                    self.moves.clear();
                    return Err(message);
                }
            };
            self.position.play_unchecked(mv);
            self.moves.push(word.to_string());
        }
        self.text.clear();
        self.text.push_str(text);
        Ok(())
    }
}

impl<G: AgentGame> Table for Playing<G> {
    fn go(
        &mut self,
        moves: &str,
        time: Duration,
        clock: Option<GoClock>,
    ) -> Result<(String, SearchStats), String> {
        self.catch_up(moves)?;
        if self.position.is_over() {
            return Err("the game is over after these moves".into());
        }
        let clock = clock.map(|c| clock_state(c, time));
        // The arena's own time management: inside the limit by the safety share, a share of
        // the clock. `time_ms=0` is "as fast as possible": the deadline is now.
        let deadline = agents::clock::plan(Instant::now(), Some(time), clock.as_ref());
        let mut ctx = Context::new(&mut self.rng)
            .with_deadline(deadline)
            .with_move_time(Some(time))
            .with_clock(clock)
            .with_moves(&self.moves);
        let choice = self
            .agent
            .choose(&self.position, &mut ctx)
            .map_err(|error| error.to_string())?;
        if !self.position.is_legal(choice.mv) {
            return Err("the agent chose an illegal move".into());
        }
        Ok((self.position.format_move(choice.mv), choice.stats))
    }
}

fn table<G: AgentGame>(
    spec: &AgentSpec,
    start: G,
    game: &GameStart,
) -> Result<Box<dyn Table>, String> {
    let agent =
        crate::build_for::<G>(spec, usize::from(game.players)).map_err(|e| e.to_string())?;
    let rng = match &game.rng {
        Some(state) => parse_rng_state(state)
            .ok_or_else(|| format!("`rng={}` is not an RNG state", quote(state)))?,
        None => AgentRng::seed_from_u64(game.seed),
    };
    Ok(Box::new(Playing {
        agent,
        rng,
        position: start.clone(),
        start,
        text: String::new(),
        moves: Vec::new(),
    }))
}

fn new_table(spec: &AgentSpec, game: &GameStart) -> Result<Box<dyn Table>, String> {
    let variant: Variant = game
        .variant
        .parse()
        .map_err(|e: rules::VariantError| e.to_string())?;
    if usize::from(game.players) != variant.players() {
        return Err(format!(
            "{} players: {variant} is a game of {}",
            game.players,
            variant.players()
        ));
    }
    rules::with_game!(variant, |start| table(spec, start, game))
}

/// Plays as an arena-protocol agent on `input`/`output` with the agent `spec` until `quit` or
/// the end of the input. Lines it cannot use are reported on `log` (the process's stderr), not
/// answered: the arena reads only answers. Returns an error only when `output` cannot be
/// written or `input` cannot be read.
pub fn serve(
    spec: &AgentSpec,
    input: impl BufRead,
    mut output: impl Write,
    mut log: impl Write,
) -> std::io::Result<()> {
    let mut table: Option<Box<dyn Table>> = None;
    let mut moves = String::new();
    let mut lines = LineReader::new(input);
    let mut number = 0u64;
    while let Some(line) = lines.next_line() {
        number += 1;
        let line = match line? {
            Ok(line) => line,
            Err(bad) => {
                writeln!(log, "line {number}: {bad}")?;
                continue;
            }
        };
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        // The turn's long lines are taken as they come: our agents rebuild the position from
        // the moves and need neither the board nor the legal moves.
        let keyword = trimmed.split(char::is_whitespace).next().unwrap_or("");
        if keyword.eq_ignore_ascii_case("legal") || keyword.eq_ignore_ascii_case("board") {
            continue;
        }
        if keyword.eq_ignore_ascii_case("position") {
            moves.clear();
            moves.push_str(trimmed[keyword.len()..].trim());
            continue;
        }
        let message = match ToAgent::parse(&line) {
            Ok(message) => message,
            Err(error) => {
                writeln!(log, "line {number}: {error}")?;
                continue;
            }
        };
        let mut answer: Vec<FromAgent> = Vec::new();
        match message {
            ToAgent::Hello { version } => {
                if version != VERSION {
                    writeln!(
                        log,
                        "line {number}: protocol version {version}; I speak {VERSION}"
                    )?;
                }
                answer.push(FromAgent::Id {
                    key: "name".into(),
                    text: format!("arena {spec}"),
                });
                answer.push(FromAgent::Id {
                    key: "author".into(),
                    text: "arena developers".into(),
                });
                answer.push(FromAgent::Feature("reuse".into()));
                answer.push(FromAgent::Feature("private".into()));
                answer.push(FromAgent::Feature("clock".into()));
                answer.push(FromAgent::Ready);
            }
            ToAgent::Game(game) => {
                moves.clear();
                match new_table(spec, &game) {
                    Ok(new) => {
                        table = Some(new);
                        answer.push(FromAgent::Ok);
                    }
                    Err(error) => {
                        table = None;
                        answer.push(FromAgent::Error(error));
                    }
                }
            }
            ToAgent::Position(_) | ToAgent::Board(_) | ToAgent::Legal(_) => {}
            ToAgent::Go { time_ms, clock } => match table.as_mut() {
                None => answer.push(FromAgent::Error("no game: `go` before `game`".into())),
                Some(table) => match table.go(&moves, Duration::from_millis(time_ms), clock) {
                    Ok((mv, stats)) => {
                        answer.push(FromAgent::Info(Info {
                            depth: stats.depth,
                            nodes: Some(stats.nodes),
                            score: stats.score.filter(|s| s.is_finite()),
                            text: stats.reason.map(|r| r.replace(['\n', '\r'], " ")),
                        }));
                        answer.push(FromAgent::Move(mv));
                    }
                    Err(error) => answer.push(FromAgent::Error(error.replace(['\n', '\r'], " "))),
                },
            },
            ToAgent::End { .. } => table = None,
            ToAgent::Quit => return Ok(()),
        }
        if !answer.is_empty() {
            let mut text = String::new();
            for line in &answer {
                text.push_str(&line.to_string());
                text.push('\n');
            }
            output.write_all(text.as_bytes())?;
            output.flush()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(spec: &str, input: &[u8]) -> (Vec<String>, String) {
        let spec: AgentSpec = spec.parse().unwrap();
        let (mut out, mut log) = (Vec::new(), Vec::new());
        serve(&spec, input, &mut out, &mut log).unwrap();
        (
            String::from_utf8(out)
                .unwrap()
                .lines()
                .map(String::from)
                .collect(),
            String::from_utf8(log).unwrap(),
        )
    }

    #[test]
    fn a_session_plays_both_games() {
        let (lines, log) = session(
            "alphabeta:depth=2",
            b"arena 1\ngame variant=tictactoe seat=2 players=2 seed=5 margin_ms=100\n\
              position b2\ngo time_ms=1000\nend places=1-2 termination=win\n\
              game variant=oanquan seat=1 players=2 seed=5 margin_ms=100\nposition\n\
              go time_ms=1000\nquit\ngo time_ms=1\n",
        );
        assert_eq!(
            lines[..6],
            [
                "id name arena alphabeta:depth=2",
                "id author arena developers",
                "feature reuse",
                "feature private",
                "feature clock",
                "ready"
            ]
        );
        assert_eq!(lines[6], "ok");
        assert!(lines[7].starts_with("info "), "{lines:?}");
        assert!(lines[8].starts_with("move "), "{lines:?}");
        assert_eq!(lines[9], "ok");
        assert!(
            lines[11].starts_with("move ") && lines[11].ends_with(['P', 'T']),
            "{lines:?}"
        );
        assert_eq!(lines.len(), 12, "{lines:?}");
        assert!(log.is_empty(), "{log}");
    }

    #[test]
    fn bad_input_is_logged_or_refused_never_fatal() {
        let (lines, log) = session(
            "random",
            b"arena 1\nhello?\ngame variant=chess seat=1 players=2\n\
              game variant=tictactoe seat=1 players=2\nposition b2 b2\ngo time_ms=10\n\
              position zz\ngo time_ms=10\n\xff\xfe\nposition\ngo time_ms=10\n",
        );
        assert!(log.contains("line 2"), "{log}");
        assert!(log.contains("not UTF-8"), "{log}");
        assert!(lines[6].starts_with("error unknown game"), "{lines:?}");
        assert_eq!(lines[7], "ok");
        assert!(lines[8].starts_with("error move 2"), "{lines:?}");
        assert!(lines[9].starts_with("error move 1"), "{lines:?}");
        assert!(lines[11].starts_with("move "), "{lines:?}");
    }

    #[test]
    fn go_with_no_time_is_as_fast_as_possible_not_unlimited() {
        // Ten million simulations would take minutes: `time_ms=0` stops at the first check.
        let (lines, _) = session(
            "mcts:iterations=10000000",
            b"arena 1\ngame variant=mnk-9x9k5 seat=1 players=2 seed=5 margin_ms=100\n\
              position\ngo time_ms=0\nquit\n",
        );
        let info = lines.iter().find(|l| l.starts_with("info ")).unwrap();
        let nodes: u64 = info
            .split_whitespace()
            .find_map(|f| f.strip_prefix("nodes="))
            .unwrap()
            .parse()
            .unwrap();
        assert!(nodes < 10_000, "{info}");
        assert!(lines.last().unwrap().starts_with("move "), "{lines:?}");
    }
}
