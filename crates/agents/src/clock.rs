//! Time controls as tournaments use them, the clock of a seat, and the arena's time
//! management: how long an agent that lives in the arena's process is told to think.
//!
//! A time control is a per-move limit (cutechess's `st=`, Gomocup's `timeout_turn`), a game
//! clock (cutechess's `tc=moves/time+increment`, Gomocup's `timeout_match`), or both (Gomocup
//! tournaments play 30 s a move within 180 s a game: `tc=180 st=30`):
//!
//! ```
//! use agents::clock::TimeControl;
//! use std::time::Duration;
//!
//! let tc: TimeControl = "tc=40/60+0.6".parse()?;
//! let clock = tc.clock.unwrap();
//! assert_eq!((clock.moves, clock.time, clock.increment),
//!            (Some(40), Duration::from_secs(60), Duration::from_millis(600)));
//! assert_eq!(tc.to_string(), "tc=40/60+0.6");
//! assert_eq!("st=1".parse::<TimeControl>()?.per_move, Some(Duration::from_secs(1)));
//! # Ok::<(), agents::clock::TimeControlError>(())
//! ```
//!
//! **Time management.** An agent that lives in the arena's process is handed a deadline
//! ([`crate::Context::deadline`]) computed by [`plan`]:
//! - under a game clock, a share of what is left plus the increment: `left / moves_to_go +
//!   increment`, where `moves_to_go` is the moves left in the period, or [`MOVES_TO_GO`] (30)
//!   when the whole game is one period;
//! - never past the move's hard limit (the per-move limit, or what is on the clock) less the
//!   safety share [`SAFETY_SHARE`] (20%) of it, so that a search that stops at its deadline on a
//!   busy machine still answers inside the limit.
//!
//! Agents that manage their time themselves read [`crate::Context::clock`] (the seat's clock)
//! and [`crate::Context::move_time`] (the hard limit of this move) and call [`plan_with`] with
//! shares of their own.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The share of a move's hard limit the arena keeps back from an in-process agent's deadline:
/// a search that stops at its deadline has this much of the limit left for the time the
/// operating system takes the thread away on a busy machine.
pub const SAFETY_SHARE: f64 = 0.2;

/// The moves a game clock without periods is spread over (a share of `1/30` of what is left,
/// plus the increment, each move).
pub const MOVES_TO_GO: u32 = 30;

/// A game clock: `moves/time+increment` as cutechess writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameClock {
    /// Moves per period (`40/`): after them the period's `time` is added again. `None`: the
    /// whole game is one period.
    pub moves: Option<u32>,
    /// The time of a period (the whole game without periods).
    pub time: Duration,
    /// Added to the clock after each move.
    pub increment: Duration,
}

/// A time control: a per-move limit, a game clock, or both; neither means no time limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// The limit of every move (`st=`).
    pub per_move: Option<Duration>,
    /// The game clock (`tc=`).
    pub clock: Option<GameClock>,
}

/// Why a time control's text is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("time control `{text}`: {reason}")]
pub struct TimeControlError {
    /// The text, as given.
    pub text: String,
    /// What is wrong and what is expected.
    pub reason: String,
}

fn error(text: &str, reason: impl Into<String>) -> TimeControlError {
    TimeControlError {
        text: text.chars().take(60).collect(),
        reason: reason.into(),
    }
}

/// The longest time a control may give, per move or per period: a day. Every time limit the
/// arena reads (`st`, `tc`, an experiment's `move_time_ms`) is held to it.
pub const MAX_TIME: Duration = Duration::from_secs(86_400);

/// Seconds (`60`, `0.6`) or minutes and seconds (`1:30`), to the millisecond.
fn seconds(whole: &str, text: &str) -> Result<Duration, TimeControlError> {
    let bad = || {
        error(
            whole,
            format!("`{text}` is not a time: seconds (`60`, `0.5`) or minutes:seconds (`1:30`)"),
        )
    };
    if text.trim().is_empty() {
        return Err(error(
            whole,
            "a time is missing: seconds (`60`, `0.5`) or minutes:seconds (`1:30`)",
        ));
    }
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let (minutes, secs) = match text.split_once(':') {
        Some((m, s)) if digits(m.trim()) => (m.trim().parse::<u64>().map_err(|_| bad())?, s),
        Some(_) => return Err(bad()),
        None => (0, text),
    };
    let secs = secs.trim();
    if secs.is_empty() || !secs.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(bad());
    }
    let value: f64 = secs.parse().map_err(|_| bad())?;
    let total = minutes as f64 * 60.0 + value;
    if !total.is_finite() || total > MAX_TIME.as_secs_f64() {
        return Err(error(whole, format!("`{text}` is longer than a day")));
    }
    let thousandths = total * 1000.0;
    if (thousandths - thousandths.round()).abs() > 1e-6 {
        return Err(error(
            whole,
            format!("`{text}`: times are counted in whole milliseconds"),
        ));
    }
    let ms = thousandths.round() as u64;
    Ok(Duration::from_millis(ms))
}

impl FromStr for GameClock {
    type Err = TimeControlError;

    /// `[moves/]time[+increment]`, times in seconds or minutes:seconds.
    fn from_str(text: &str) -> Result<GameClock, TimeControlError> {
        let trimmed = text.trim();
        // A sign in front is refused alike before the moves and before the time.
        let signed = || {
            error(
                text,
                "a game clock is `[moves/]time[+increment]` (`40/60+0.6`, `1:30`): it starts \
                 with a number, and `+` only comes before the increment",
            )
        };
        if trimmed.starts_with('+') {
            return Err(signed());
        }
        let (moves, rest) = match trimmed.split_once('/') {
            Some((moves, rest)) => {
                if rest.trim_start().starts_with('+') {
                    return Err(signed());
                }
                let moves: u32 = Some(moves.trim())
                    .filter(|m| m.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|m| m.parse().ok())
                    .filter(|&m| (1..=10_000).contains(&m))
                    .ok_or_else(|| {
                        error(
                            text,
                            format!("`{moves}` is not a number of moves per period (1 to 10000)"),
                        )
                    })?;
                (Some(moves), rest)
            }
            None => (None, trimmed),
        };
        let (time, increment) = match rest.split_once('+') {
            Some((time, increment)) => (time, Some(increment)),
            None => (rest, None),
        };
        let time = seconds(text, time)?;
        if time.is_zero() {
            return Err(error(text, "the time of a period must be more than 0"));
        }
        let increment = increment.map_or(Ok(Duration::ZERO), |i| seconds(text, i))?;
        Ok(GameClock {
            moves,
            time,
            increment,
        })
    }
}

impl GameClock {
    /// Reads a game clock as `tc` is given (an experiment's `tc`, `arena play --tc`, the web's
    /// `"tc"`): `40/60+0.6`, or the same with one `tc=` in front. A per-move limit is not part
    /// of a game clock: `60 st=1` is refused with a pointer to `st`, never read as `60` alone.
    pub fn parse_tc(text: &str) -> Result<GameClock, TimeControlError> {
        let trimmed = text.trim();
        let clock = trimmed.strip_prefix("tc=").unwrap_or(trimmed);
        if let Some(st) = clock
            .split_whitespace()
            .find(|part| part.starts_with("st="))
        {
            return Err(error(
                text,
                format!(
                    "`{st}` is a time per move, not part of a game clock: give it as `st` of \
                     its own, beside `tc`"
                ),
            ));
        }
        // Errors quote the text as given.
        clock
            .parse()
            .map_err(|e: TimeControlError| error(text, e.reason))
    }
}

/// Seconds as the shortest decimal that says them (`60`, `0.6`, `1.25`).
fn write_seconds(f: &mut fmt::Formatter<'_>, time: Duration) -> fmt::Result {
    let ms = time.as_millis();
    if ms.is_multiple_of(1000) {
        write!(f, "{}", ms / 1000)
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        f.write_str(text.trim_end_matches('0'))
    }
}

impl fmt::Display for GameClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write_seconds(f, self.time)?;
        if !self.increment.is_zero() {
            f.write_str("+")?;
            write_seconds(f, self.increment)?;
        }
        Ok(())
    }
}

impl TimeControl {
    /// No time limit.
    pub const NONE: TimeControl = TimeControl {
        per_move: None,
        clock: None,
    };

    /// A per-move limit only.
    pub fn per_move(limit: Option<Duration>) -> TimeControl {
        TimeControl {
            per_move: limit,
            clock: None,
        }
    }

    /// Whether it limits time at all.
    pub fn is_limited(&self) -> bool {
        self.per_move.is_some() || self.clock.is_some()
    }

    /// Reads a per-move limit in seconds (`st=`), as cutechess gives it.
    pub fn parse_st(text: &str) -> Result<Duration, TimeControlError> {
        let limit = seconds(text, text)?;
        if limit.is_zero() {
            return Err(error(text, "a time per move must be more than 0"));
        }
        Ok(limit)
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `tc=[moves/]time[+increment]`, `st=seconds`, or both separated by a space; `inf` or an
    /// empty text is no limit.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let mut control = TimeControl::NONE;
        if text.trim() == "inf" {
            return Ok(control);
        }
        for part in text.split_whitespace() {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| error(text, format!("`{part}`: expected `tc=...` or `st=...`")))?;
            match key {
                "tc" if control.clock.is_none() => {
                    if value != "inf" {
                        control.clock = Some(value.parse()?);
                    }
                }
                "st" if control.per_move.is_none() => {
                    control.per_move = Some(TimeControl::parse_st(value)?)
                }
                "tc" | "st" => return Err(error(text, format!("`{key}=` is given twice"))),
                _ => {
                    return Err(error(
                        text,
                        format!("`{key}=`: expected `tc=` (a game clock) or `st=` (per move)"),
                    ));
                }
            }
        }
        Ok(control)
    }
}

impl fmt::Display for TimeControl {
    /// `tc=40/60+0.6`, `st=1`, `tc=180 st=30`, or `inf` for no limit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.clock, self.per_move) {
            (None, None) => f.write_str("inf"),
            (Some(clock), None) => write!(f, "tc={clock}"),
            (None, Some(limit)) => {
                f.write_str("st=")?;
                write_seconds(f, limit)
            }
            (Some(clock), Some(limit)) => {
                write!(f, "tc={clock} st=")?;
                write_seconds(f, limit)
            }
        }
    }
}

/// The clock of one seat during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Time left on the game clock (zero without one).
    left: Duration,
    /// Moves made so far.
    moves: u32,
}

/// A seat's game clock before a move, as an agent is told it ([`crate::Context::clock`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// The clock's setting.
    pub control: GameClock,
    /// Time left on the clock.
    pub left: Duration,
    /// Moves until the next period's time is added (only with periods).
    pub moves_to_go: Option<u32>,
    /// The per-move limit that also holds, if the time control has one (`tc=180 st=30`).
    pub per_move: Option<Duration>,
}

/// A move that overran its time: what the clock said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// The move's hard limit ([`Clock::limit`]).
    pub limit: Duration,
    /// What the move took.
    pub took: Duration,
    /// Whether the game clock fell (otherwise the per-move limit was passed).
    pub flag: bool,
    /// The clock before the move, if a game clock runs.
    pub before: Option<ClockState>,
    /// The moves the seat had made before this one.
    pub moves: u32,
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        if self.flag {
            let before = self.before.expect("a flag falls on a game clock");
            write!(
                f,
                "lost on time: move {} took {:.1} ms with {:.1} ms on its clock (tc={})",
                self.moves + 1,
                ms(self.took),
                ms(before.left),
                before.control
            )
        } else {
            write!(
                f,
                "took {:.1} ms, the limit is {} ms",
                ms(self.took),
                self.limit.as_millis()
            )
        }
    }
}

impl Clock {
    /// A seat's clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: control.clock.map_or(Duration::ZERO, |c| c.time),
            moves: 0,
        }
    }

    /// The time control it runs.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The game clock before the next move, if there is one.
    pub fn state(&self) -> Option<ClockState> {
        let control = self.control.clock?;
        Some(ClockState {
            control,
            left: self.left,
            moves_to_go: control.moves.map(|m| m - self.moves % m),
            per_move: self.control.per_move,
        })
    }

    /// Time left on the game clock, if there is one.
    pub fn left(&self) -> Option<Duration> {
        self.control.clock.map(|_| self.left)
    }

    /// Moves made.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The hard limit of the next move: the per-move limit or what is on the clock, whichever
    /// is less; `None` without a time control.
    pub fn limit(&self) -> Option<Duration> {
        match (self.control.per_move, self.left()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// A move that took `took` is made: it overran when it took more than its limit plus
    /// `margin` (an outside agent's tolerance for its pipes). Either way the game clock is
    /// charged what the move took (never below zero: a seat that loses on time by its game
    /// clock has 0 left); a move in time then gets the increment and, at the end of a period,
    /// the period's time.
    pub fn punch(&mut self, took: Duration, margin: Duration) -> Result<(), Overrun> {
        if let Some(limit) = self.limit()
            && took > limit + margin
        {
            let flag = self.left().is_some_and(|left| limit == left);
            let overrun = Overrun {
                limit,
                took,
                flag,
                before: self.state(),
                moves: self.moves,
            };
            self.left = self.left.saturating_sub(took);
            return Err(overrun);
        }
        self.moves += 1;
        if let Some(clock) = self.control.clock {
            self.left = self.left.saturating_sub(took) + clock.increment;
            if clock.moves.is_some_and(|m| self.moves.is_multiple_of(m)) {
                self.left += clock.time;
            }
        }
        Ok(())
    }
}

/// The deadline the arena gives an in-process agent whose move started at `started`, with the
/// hard limit `limit` ([`Clock::limit`]) and the game clock `clock`: see the module
/// documentation. `None` without a time limit.
pub fn plan(
    started: Instant,
    limit: Option<Duration>,
    clock: Option<&ClockState>,
) -> Option<Instant> {
    plan_with(started, limit, clock, MOVES_TO_GO, SAFETY_SHARE)
}

/// [`plan`] with an agent's own spread (`moves_to_go` when the clock has no periods) and
/// safety share.
pub fn plan_with(
    started: Instant,
    limit: Option<Duration>,
    clock: Option<&ClockState>,
    moves_to_go: u32,
    safety_share: f64,
) -> Option<Instant> {
    let cap = limit?.mul_f64((1.0 - safety_share).clamp(0.0, 1.0));
    let target = match clock {
        Some(clock) => {
            let spread = clock.moves_to_go.unwrap_or(moves_to_go).max(1);
            (clock.left / spread + clock.control.increment).min(cap)
        }
        None => cap,
    };
    Some(started + target)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_read_and_print_as_cutechess_writes_them() {
        for (text, printed) in [
            ("tc=40/60+0.6", "tc=40/60+0.6"),
            ("tc=60+0.6", "tc=60+0.6"),
            ("tc=1:30", "tc=90"),
            ("st=1", "st=1"),
            ("st=0.25", "st=0.25"),
            ("tc=180 st=30", "tc=180 st=30"),
            ("st=5 tc=120", "tc=120 st=5"),
            ("tc=inf", "inf"),
            ("", "inf"),
        ] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.to_string(), printed, "{text}");
            assert_eq!(printed.parse::<TimeControl>().unwrap(), tc, "{text}");
        }
        for bad in [
            "tc=",
            "tc=0",
            "tc=x",
            "tc=40/",
            "tc=0/60",
            "tc=60+",
            "tc=60+-1",
            "st=0",
            "st=-1",
            "st=1 st=2",
            "mt=5",
            "60",
            "tc=100000",
            "st=0.0001",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn tc_is_read_by_one_parser_that_keeps_per_move_limits_and_signs_out() {
        for (text, read) in [
            ("300+2", "300+2"),
            ("tc=40/60+0.6", "40/60+0.6"),
            ("1:30", "90"),
        ] {
            assert_eq!(
                GameClock::parse_tc(text).unwrap().to_string(),
                read,
                "{text}"
            );
        }
        // A per-move limit inside `tc` used to be dropped by an experiment and refused
        // elsewhere; `tc=` twice (the web's `"tc=tc=5"`) used to be read as `5`.
        let reason = |text: &str| GameClock::parse_tc(text).unwrap_err().reason;
        assert!(reason("60 st=0.001").contains("`st=0.001` is a time per move"));
        assert!(reason("tc=60 st=1").contains("give it as `st`"));
        assert!(reason("tc=tc=5").contains("`tc=5` is not a time"));
        // A sign in front: the same words before the moves and before the time.
        for signed in ["+1:30", "+40/60", "40/+60", " +60"] {
            assert!(
                reason(signed).contains("`+` only comes before the increment"),
                "{signed}"
            );
        }
        assert!(reason("60++1:30").contains("not a time"));
        assert!(reason("").contains("a time is missing"));
    }

    #[test]
    fn a_clock_is_charged_then_given_its_increment_and_its_next_period() {
        let mut clock = Clock::new("tc=2/10+1".parse().unwrap());
        assert_eq!(clock.limit(), Some(ms(10_000)));
        assert_eq!(clock.state().unwrap().moves_to_go, Some(2));
        clock.punch(ms(4_000), Duration::ZERO).unwrap();
        assert_eq!(clock.left(), Some(ms(7_000)));
        assert_eq!(clock.state().unwrap().moves_to_go, Some(1));
        // The period ends: its 10 s come again.
        clock.punch(ms(5_000), Duration::ZERO).unwrap();
        assert_eq!(clock.left(), Some(ms(13_000)));
        let over = clock.punch(ms(13_001), Duration::ZERO).unwrap_err();
        assert!(over.flag);
        assert!(
            over.to_string().starts_with("lost on time: move 3 took"),
            "{over}"
        );
        // The clock fell: what it says at the end of the game is 0, not what it said before.
        assert_eq!(clock.left(), Some(Duration::ZERO));
    }

    #[test]
    fn the_per_move_limit_and_the_clock_limit_each_move() {
        let mut clock = Clock::new("tc=3 st=2".parse().unwrap());
        assert_eq!(clock.limit(), Some(ms(2_000)));
        let mut late = clock;
        let over = late.punch(ms(2_001), Duration::ZERO).unwrap_err();
        assert!(!over.flag);
        assert_eq!(over.to_string(), "took 2001.0 ms, the limit is 2000 ms");
        // A late move is charged to the game clock all the same.
        assert_eq!(late.left(), Some(ms(999)));
        clock.punch(ms(1_900), Duration::ZERO).unwrap();
        assert_eq!(clock.limit(), Some(ms(1_100)));
        // Within the margin the move counts, and the clock stops at zero.
        clock.punch(ms(1_150), ms(100)).unwrap();
        assert_eq!(clock.left(), Some(Duration::ZERO));
    }

    #[test]
    fn the_deadline_is_a_share_of_the_clock_inside_the_safety_share() {
        let now = Instant::now();
        assert_eq!(plan(now, None, None), None);
        assert_eq!(plan(now, Some(ms(1_000)), None), Some(now + ms(800)));
        let clock = Clock::new("tc=60+0.6".parse().unwrap());
        let state = clock.state().unwrap();
        assert_eq!(
            plan(now, clock.limit(), Some(&state)),
            Some(now + ms(2_000 + 600))
        );
        // Little left: the safety share of what is left caps it.
        let low = ClockState {
            left: ms(500),
            ..state
        };
        assert_eq!(plan(now, Some(ms(500)), Some(&low)), Some(now + ms(400)));
    }
}
