//! The lines of the `arena` protocol, both ways, parsed and printed. `docs/src/reference/protocol.md` is the
//! reference; this module is its grammar.
//!
//! A line is a keyword and then fields separated by spaces. Fields are `key=value` (no spaces in
//! the value), except that `text=` takes the rest of the line, and the move lists of `position`
//! and `legal` are plain words. Keywords are lower case (upper case is accepted from agents).
//! Unknown `key=value` fields are ignored in both directions, so later versions can add fields.

use std::fmt;

use crate::line::quote;

/// The protocol version this arena speaks.
pub const VERSION: u32 = 1;

/// The capabilities an agent can announce with `feature NAME`.
pub const FEATURES: &[&str] = &["reuse", "private", "clock"];

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{line}`: {reason}")]
pub struct WireError {
    /// The line, quoted safely.
    pub line: String,
    /// What is wrong and what is expected.
    pub reason: String,
}

fn wire_error(line: &str, reason: impl Into<String>) -> WireError {
    WireError {
        line: quote(line),
        reason: reason.into(),
    }
}

/// A line from the arena to an agent.
#[derive(Clone, Debug, PartialEq)]
pub enum ToAgent {
    /// `arena VERSION`: the first line of a session.
    Hello {
        /// The protocol version.
        version: u32,
    },
    /// `game ...`: a game starts.
    Game(GameStart),
    /// `position MOVE...`: the moves from the start (the random opening included).
    Position(Vec<String>),
    /// `board key=value...`: the position, for agents that keep no rules of their own.
    Board(Vec<(String, String)>),
    /// `legal MOVE...`: the legal moves.
    Legal(Vec<String>),
    /// `go time_ms=T [time_left=L inc_ms=I [moves_to_go=N]]`: choose a move within T
    /// milliseconds (the hard limit of this move); under a game clock, the clock too.
    Go {
        /// The time budget of this move.
        time_ms: u64,
        /// The game clock, if the game has one.
        clock: Option<GoClock>,
    },
    /// `end places=P termination=T`: the game is over.
    End {
        /// The place of each seat, 1 = best, in seat order (`1-2`: seat 1 won; `1-1`: a draw).
        places: Vec<u8>,
        /// How it ended, as the CSV's `termination` column says (`aborted` when it never started).
        termination: String,
    },
    /// `quit`: the session is over.
    Quit,
}

/// The fields of `game`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameStart {
    /// The variant id, canonical (`mnk-5x5k4`, `oanquan`).
    pub variant: String,
    /// The agent's seat, 1-based (1 moves first).
    pub seat: u8,
    /// The number of seats.
    pub players: u8,
    /// A seed for the agent's own random number generator.
    pub seed: u64,
    /// The tolerance past each move's `time_ms` before the move counts as late.
    pub margin_ms: u64,
    /// The full state of the arena's generator for this agent (only to agents that announced
    /// `feature private`).
    pub rng: Option<String>,
}

/// The game clock of `go`: what is left, the increment after the move, and the moves to the
/// next period (only with periods).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoClock {
    /// `time_left`: ms on the clock before this move.
    pub time_left: u64,
    /// `inc_ms`: added to the clock after the move.
    pub inc_ms: u64,
    /// `moves_to_go`: moves until the period's time is added again.
    pub moves_to_go: Option<u32>,
}

/// The longest time budget or margin the protocol carries: a day, in milliseconds.
pub const MAX_MS: u64 = 86_400_000;

/// The most seats a game has.
pub const MAX_PLAYERS: u8 = 4;

/// The deepest search an `info depth=` may claim.
pub const MAX_DEPTH: u32 = 10_000;

/// The largest absolute `info score=`.
pub const MAX_SCORE: f64 = 1e12;

impl fmt::Display for ToAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToAgent::Hello { version } => write!(f, "arena {version}"),
            ToAgent::Game(game) => {
                write!(
                    f,
                    "game variant={} seat={} players={} seed={} margin_ms={}",
                    game.variant, game.seat, game.players, game.seed, game.margin_ms
                )?;
                if let Some(rng) = &game.rng {
                    write!(f, " rng={rng}")?;
                }
                Ok(())
            }
            ToAgent::Position(moves) => words(f, "position", moves),
            ToAgent::Board(fields) => {
                f.write_str("board")?;
                for (key, value) in fields {
                    write!(f, " {key}={value}")?;
                }
                Ok(())
            }
            ToAgent::Legal(moves) => words(f, "legal", moves),
            ToAgent::Go { time_ms, clock } => {
                write!(f, "go time_ms={time_ms}")?;
                if let Some(clock) = clock {
                    write!(f, " time_left={} inc_ms={}", clock.time_left, clock.inc_ms)?;
                    if let Some(moves) = clock.moves_to_go {
                        write!(f, " moves_to_go={moves}")?;
                    }
                }
                Ok(())
            }
            ToAgent::End {
                places,
                termination,
            } => {
                f.write_str("end")?;
                if !places.is_empty() {
                    write!(f, " places={}", places_text(places))?;
                }
                write!(f, " termination={termination}")
            }
            ToAgent::Quit => f.write_str("quit"),
        }
    }
}

fn words(f: &mut fmt::Formatter<'_>, keyword: &str, list: &[String]) -> fmt::Result {
    f.write_str(keyword)?;
    for word in list {
        write!(f, " {word}")?;
    }
    Ok(())
}

/// Places as the protocol and the CSV write them: `1-2`, `1-1`, `2-1-3`.
pub fn places_text(places: &[u8]) -> String {
    places
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

/// A line from an agent to the arena.
#[derive(Clone, Debug, PartialEq)]
pub enum FromAgent {
    /// `id KEY TEXT`: who the agent is (`id name ...`, `id author ...`).
    Id {
        /// `name`, `author`, ...
        key: String,
        /// The rest of the line.
        text: String,
    },
    /// `feature NAME`: a capability (`reuse`, `private`); unknown names are ignored.
    Feature(String),
    /// `ready`: the answer to `arena 1`, after any `id` and `feature` lines.
    Ready,
    /// `ok`: the answer to `game`.
    Ok,
    /// `error TEXT`: the agent refuses (`game` for a variant it does not play) or gives up.
    Error(String),
    /// `info ...`: what the search did, logged and counted.
    Info(Info),
    /// `move MOVE`: the answer to `go`.
    Move(String),
}

/// The fields of `info`, each optional.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    /// Plies searched.
    pub depth: Option<u32>,
    /// Nodes, simulations or playouts so far for this move (the last value counts).
    pub nodes: Option<u64>,
    /// The value of the position or move, in the agent's own units, from its view.
    pub score: Option<f64>,
    /// Free text (the rest of the line after `text=`).
    pub text: Option<String>,
}

impl fmt::Display for FromAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromAgent::Id { key, text } => write!(f, "id {key} {text}"),
            FromAgent::Feature(name) => write!(f, "feature {name}"),
            FromAgent::Ready => f.write_str("ready"),
            FromAgent::Ok => f.write_str("ok"),
            FromAgent::Error(text) => write!(f, "error {text}"),
            FromAgent::Info(info) => {
                f.write_str("info")?;
                if let Some(depth) = info.depth {
                    write!(f, " depth={depth}")?;
                }
                if let Some(nodes) = info.nodes {
                    write!(f, " nodes={nodes}")?;
                }
                if let Some(score) = info.score {
                    write!(f, " score={score}")?;
                }
                if let Some(text) = &info.text {
                    write!(f, " text={text}")?;
                }
                Ok(())
            }
            FromAgent::Move(mv) => write!(f, "move {mv}"),
        }
    }
}

/// Splits a line into its keyword (lower-cased) and the rest (trimmed).
fn keyword(line: &str) -> (String, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word.to_ascii_lowercase(), rest.trim()),
        None => (line.to_ascii_lowercase(), ""),
    }
}

/// The `key=value` fields of a line, and the free text after `text=`.
type Fields<'a> = (Vec<(&'a str, &'a str)>, Option<&'a str>);

/// The `key=value` fields of `rest`; `text=` (when `text` is true) takes the rest of the line.
fn fields<'a>(line: &str, rest: &'a str, text: bool) -> Result<Fields<'a>, WireError> {
    let mut out = Vec::new();
    let mut remaining = rest.trim_start();
    while !remaining.is_empty() {
        if text && let Some(free) = remaining.strip_prefix("text=") {
            return Ok((out, Some(free.trim())));
        }
        let (token, after) = match remaining.split_once(char::is_whitespace) {
            Some((token, after)) => (token, after.trim_start()),
            None => (remaining, ""),
        };
        let Some((key, value)) = token.split_once('=') else {
            return Err(wire_error(
                line,
                format!("`{}` is not a key=value field", quote(token)),
            ));
        };
        if key.is_empty() {
            return Err(wire_error(line, format!("`{}` has no key", quote(token))));
        }
        if out.iter().any(|(k, _)| *k == key) {
            return Err(wire_error(line, format!("`{}` is given twice", quote(key))));
        }
        out.push((key, value));
        remaining = after;
    }
    Ok((out, None))
}

fn number<T: std::str::FromStr + PartialOrd + fmt::Display>(
    line: &str,
    key: &str,
    value: &str,
    low: T,
    high: T,
) -> Result<T, WireError> {
    match value.parse::<T>() {
        Ok(n) if n >= low && n <= high => Ok(n),
        _ => Err(wire_error(
            line,
            format!(
                "`{key}={}`: expected an integer from {low} to {high}",
                quote(value)
            ),
        )),
    }
}

impl FromAgent {
    /// Reads a line an agent sent. Empty lines are not lines of the protocol: callers skip them.
    pub fn parse(line: &str) -> Result<FromAgent, WireError> {
        let (word, rest) = keyword(line);
        match word.as_str() {
            "id" => {
                let (key, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                if key.is_empty() {
                    return Err(wire_error(
                        line,
                        "expected `id name TEXT` or `id author TEXT`",
                    ));
                }
                Ok(FromAgent::Id {
                    key: key.to_ascii_lowercase(),
                    text: text.trim().to_string(),
                })
            }
            "feature" => {
                if rest.is_empty() || rest.contains(char::is_whitespace) {
                    return Err(wire_error(
                        line,
                        format!("expected `feature NAME`, one of {}", FEATURES.join(", ")),
                    ));
                }
                Ok(FromAgent::Feature(rest.to_ascii_lowercase()))
            }
            "ready" | "ok" if !rest.is_empty() => {
                Err(wire_error(line, format!("`{word}` takes nothing after it")))
            }
            "ready" => Ok(FromAgent::Ready),
            "ok" => Ok(FromAgent::Ok),
            "error" => Ok(FromAgent::Error(rest.to_string())),
            "info" => {
                let (pairs, text) = fields(line, rest, true)?;
                let mut info = Info {
                    text: text.map(str::to_string),
                    ..Info::default()
                };
                for (key, value) in pairs {
                    match key {
                        "depth" => info.depth = Some(number(line, key, value, 0, MAX_DEPTH)?),
                        "nodes" => info.nodes = Some(number(line, key, value, 0, u64::MAX)?),
                        "score" => match value.parse::<f64>() {
                            Ok(s) if s.is_finite() && s.abs() <= MAX_SCORE => info.score = Some(s),
                            _ => {
                                return Err(wire_error(
                                    line,
                                    format!(
                                        "`score={}`: expected a number from -{MAX_SCORE:e} to \
                                         {MAX_SCORE:e}",
                                        quote(value)
                                    ),
                                ));
                            }
                        },
                        // Unknown fields are for later versions.
                        _ => {}
                    }
                }
                Ok(FromAgent::Info(info))
            }
            "move" => {
                if rest.is_empty() || rest.contains(char::is_whitespace) {
                    return Err(wire_error(line, "expected `move MOVE`, one move"));
                }
                Ok(FromAgent::Move(rest.to_string()))
            }
            _ => Err(wire_error(
                line,
                "not a line of the arena protocol: an agent sends `id`, `feature`, `ready`, \
                 `ok`, `error`, `info` or `move` lines (write debugging output to stderr)",
            )),
        }
    }
}

impl ToAgent {
    /// Reads a line the arena sent (our side of `arena serve-agent`, and the clients' grammar).
    pub fn parse(line: &str) -> Result<ToAgent, WireError> {
        let (word, rest) = keyword(line);
        let list = |rest: &str| rest.split_whitespace().map(str::to_string).collect();
        match word.as_str() {
            "arena" => Ok(ToAgent::Hello {
                version: number(line, "version", rest, 1, u32::MAX)?,
            }),
            "game" => {
                let (pairs, _) = fields(line, rest, false)?;
                let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
                let need = |key: &str| {
                    get(key).ok_or_else(|| wire_error(line, format!("`{key}=` is missing")))
                };
                let variant = need("variant")?.to_string();
                let players = number(line, "players", need("players")?, 2, MAX_PLAYERS)?;
                let seat = number(line, "seat", need("seat")?, 1, players)?;
                Ok(ToAgent::Game(GameStart {
                    variant,
                    seat,
                    players,
                    seed: get("seed").map_or(Ok(0), |v| number(line, "seed", v, 0, u64::MAX))?,
                    margin_ms: get("margin_ms")
                        .map_or(Ok(0), |v| number(line, "margin_ms", v, 0, MAX_MS))?,
                    rng: get("rng").map(str::to_string),
                }))
            }
            "position" => Ok(ToAgent::Position(list(rest))),
            "legal" => Ok(ToAgent::Legal(list(rest))),
            "board" => {
                let (pairs, _) = fields(line, rest, false)?;
                Ok(ToAgent::Board(
                    pairs
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                ))
            }
            "go" => {
                let (pairs, _) = fields(line, rest, false)?;
                let time = pairs.iter().find(|(k, _)| *k == "time_ms").map(|(_, v)| *v);
                let time = time.ok_or_else(|| wire_error(line, "`time_ms=` is missing"))?;
                let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
                let clock = match get("time_left") {
                    None => None,
                    Some(left) => Some(GoClock {
                        time_left: number(line, "time_left", left, 0, MAX_MS)?,
                        inc_ms: get("inc_ms")
                            .map_or(Ok(0), |v| number(line, "inc_ms", v, 0, MAX_MS))?,
                        moves_to_go: get("moves_to_go")
                            .map(|v| number(line, "moves_to_go", v, 1u32, 10_000u32))
                            .transpose()?,
                    }),
                };
                Ok(ToAgent::Go {
                    time_ms: number(line, "time_ms", time, 0, MAX_MS)?,
                    clock,
                })
            }
            "end" => {
                let (pairs, _) = fields(line, rest, false)?;
                let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
                let places = get("places").unwrap_or("");
                let places = if places.is_empty() {
                    Vec::new()
                } else {
                    places
                        .split('-')
                        .map(|p| number(line, "places", p, 1, MAX_PLAYERS))
                        .collect::<Result<Vec<u8>, _>>()?
                };
                Ok(ToAgent::End {
                    places,
                    termination: get("termination").unwrap_or("").to_string(),
                })
            }
            "quit" => Ok(ToAgent::Quit),
            _ => Err(wire_error(
                line,
                "not a line of the arena protocol: the arena sends `arena`, `game`, `position`, \
                 `board`, `legal`, `go`, `end` or `quit`",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_prints_and_parses_back() {
        let to_agent = [
            ToAgent::Hello { version: 1 },
            ToAgent::Game(GameStart {
                variant: "mnk-5x5k4".into(),
                seat: 2,
                players: 2,
                seed: 77,
                margin_ms: 100,
                rng: Some("00ff:2:0".into()),
            }),
            ToAgent::Position(vec!["b3".into(), "c3".into()]),
            ToAgent::Position(vec![]),
            ToAgent::Board(vec![
                ("rows".into(), "5".into()),
                ("cols".into(), "5".into()),
            ]),
            ToAgent::Legal(vec!["a1".into()]),
            ToAgent::Go {
                time_ms: 1000,
                clock: None,
            },
            ToAgent::Go {
                time_ms: 60_000,
                clock: Some(GoClock {
                    time_left: 60_000,
                    inc_ms: 600,
                    moves_to_go: Some(40),
                }),
            },
            ToAgent::End {
                places: vec![1, 2],
                termination: "win".into(),
            },
            ToAgent::End {
                places: vec![],
                termination: "aborted".into(),
            },
            ToAgent::Quit,
        ];
        for message in to_agent {
            assert_eq!(ToAgent::parse(&message.to_string()), Ok(message.clone()));
        }
        let from_agent = [
            FromAgent::Id {
                key: "name".into(),
                text: "flat MC, in Python".into(),
            },
            FromAgent::Feature("reuse".into()),
            FromAgent::Ready,
            FromAgent::Ok,
            FromAgent::Error("no such variant".into()),
            FromAgent::Info(Info {
                depth: Some(4),
                nodes: Some(1234),
                score: Some(-0.5),
                text: Some("b4 wins = 17".into()),
            }),
            FromAgent::Move("3P".into()),
        ];
        for message in from_agent {
            assert_eq!(FromAgent::parse(&message.to_string()), Ok(message.clone()));
        }
    }

    #[test]
    fn malformed_agent_lines_say_what_is_wrong() {
        for (line, says) in [
            ("I will play b2", "not a line of the arena protocol"),
            ("move", "one move"),
            ("move b2 c3", "one move"),
            ("info nodes=-3", "nodes=-3"),
            ("info depth=99999", "depth=99999"),
            ("info score=NaN", "score=NaN"),
            ("info nodes", "not a key=value"),
            ("info nodes=1 nodes=2", "given twice"),
            ("ready now", "takes nothing"),
            ("feature", "feature NAME"),
        ] {
            let error = FromAgent::parse(line).unwrap_err();
            assert!(error.to_string().contains(says), "{line}: {error}");
        }
        // Upper case keywords and unknown info fields are accepted.
        assert_eq!(
            FromAgent::parse("MOVE b2"),
            Ok(FromAgent::Move("b2".into()))
        );
        assert_eq!(
            FromAgent::parse("info pv=b2,c3 nodes=5"),
            Ok(FromAgent::Info(Info {
                nodes: Some(5),
                ..Info::default()
            }))
        );
    }

    #[test]
    fn game_lines_check_their_seat_and_players() {
        assert!(ToAgent::parse("game variant=x seat=3 players=2").is_err());
        assert!(ToAgent::parse("game variant=x seat=0 players=2").is_err());
        assert!(ToAgent::parse("game variant=x seat=1 players=5").is_err());
        assert!(ToAgent::parse("game seat=1 players=2").is_err());
        assert!(ToAgent::parse("game variant=oanquan-4p seat=4 players=4").is_ok());
        assert!(ToAgent::parse("go").is_err());
        assert!(ToAgent::parse("end places=1-0").is_err());
    }
}
