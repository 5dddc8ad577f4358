//! The commands a Gomocup manager sends, parsed and checked: sizes, coordinates and every
//! numeric `INFO` value against its range. `arena engine` answers what this parser returns.

use rules::WinRule;

use crate::line::quote;

/// The largest board side we play (the m,n,k boards go to 19x19).
pub const MAX_SIDE: u8 = 19;

/// The largest time or count an `INFO` key takes: the protocol's 32-bit signed integers.
pub const MAX_INFO: u64 = i32::MAX as u64;

/// A command line from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` or `RECTSTART w,h`: a new board.
    Start {
        /// Columns (the width).
        cols: u8,
        /// Rows (the height).
        rows: u8,
    },
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: we move first.
    Begin,
    /// `TURN x,y`: the opponent played there; our move.
    Turn {
        /// 0-based column.
        x: u32,
        /// 0-based row.
        y: u32,
    },
    /// `BOARD`: a whole position follows, one `x,y,field` line each, then `DONE`.
    Board,
    /// `INFO key value`, checked.
    Info(Info),
    /// `ABOUT`.
    About,
    /// `END`: stop.
    End,
    /// A command we do not know (the command word, quoted).
    Unknown(String),
    /// A known command with a bad argument: what to say after `ERROR`.
    Invalid(String),
}

/// An `INFO` key and its checked value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn` in ms (0 = as fast as possible).
    TimeoutTurn(u64),
    /// `timeout_match` in ms (0 = no limit).
    TimeoutMatch(u64),
    /// `time_left` in ms.
    TimeLeft(u64),
    /// `max_memory` in bytes (0 = no limit).
    MaxMemory(u64),
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network tournament).
    GameType(u8),
    /// `rule`: the win rule.
    Rule(WinRule),
    /// `win_length` (our extension): k.
    WinLength(u8),
    /// `arena_rng` (our extension): the RNG state text.
    ArenaRng(String),
    /// A key that does not change how we play (`folder`, `evaluate`, ...).
    Other(String),
}

/// A line of a `BOARD` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardLine {
    /// `x,y,field`: field 1 = our stone, 2 = the opponent's, 3 = a winning-line marker
    /// (continuous games; counted as the opponent's here, as piskvork does).
    Stone {
        /// 0-based column.
        x: u32,
        /// 0-based row.
        y: u32,
        /// 1, 2 or 3.
        field: u8,
    },
    /// `DONE`: the end of the block.
    Done,
    /// `END` inside the block: the manager stops the engine.
    End,
    /// Anything else: what is wrong.
    Invalid(String),
}

fn number(text: &str, low: u64, high: u64) -> Option<u64> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (low..=high).contains(n))
}

fn coordinates(text: &str) -> Option<(u32, u32)> {
    let (x, y) = text.split_once(',')?;
    let x = number(x, 0, 255)? as u32;
    let y = number(y, 0, 255)? as u32;
    Some((x, y))
}

/// Splits a line into its upper-cased command word and the rest.
fn split(line: &str) -> (String, &str) {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word.to_ascii_uppercase(), rest.trim()),
        None => (line.to_ascii_uppercase(), ""),
    }
}

/// Parses one command line (not empty).
pub fn parse(line: &str) -> Command {
    let (word, rest) = split(line);
    let side = |text: &str| number(text, 1, u64::from(MAX_SIDE)).map(|n| n as u8);
    match word.as_str() {
        "START" => match side(rest) {
            Some(n) => Command::Start { cols: n, rows: n },
            None => Command::Invalid(format!(
                "unsupported size `{}`: boards from 1x1 to {MAX_SIDE}x{MAX_SIDE}",
                quote(rest)
            )),
        },
        "RECTSTART" => match rest
            .split_once(',')
            .and_then(|(w, h)| Some((side(w)?, side(h)?)))
        {
            Some((cols, rows)) => Command::Start { cols, rows },
            None => Command::Invalid(format!(
                "unsupported size `{}`: RECTSTART width,height, each 1 to {MAX_SIDE}",
                quote(rest)
            )),
        },
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" => match coordinates(rest) {
            Some((x, y)) => Command::Turn { x, y },
            None => Command::Invalid(format!(
                "the move `{}` is not x,y (0-based column,row)",
                quote(rest)
            )),
        },
        "BOARD" => Command::Board,
        "INFO" => info(rest),
        "ABOUT" => Command::About,
        "END" => Command::End,
        _ => Command::Unknown(quote(&word)),
    }
}

fn info(rest: &str) -> Command {
    let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let key = key.to_ascii_lowercase();
    let value = value.trim();
    let bad = |expected: &str| {
        Command::Invalid(format!(
            "INFO {} `{}`: expected {expected}",
            quote(&key),
            quote(value)
        ))
    };
    let ms = |make: fn(u64) -> Info| match number(value, 0, MAX_INFO) {
        Some(n) => Command::Info(make(n)),
        None => bad(&format!("milliseconds from 0 to {MAX_INFO}")),
    };
    match key.as_str() {
        "timeout_turn" => ms(Info::TimeoutTurn),
        "timeout_match" => ms(Info::TimeoutMatch),
        "time_left" => ms(Info::TimeLeft),
        "max_memory" => match number(value, 0, u64::MAX) {
            Some(n) => Command::Info(Info::MaxMemory(n)),
            None => bad("bytes, 0 for no limit"),
        },
        "game_type" => match number(value, 0, 3) {
            Some(n) => Command::Info(Info::GameType(n as u8)),
            None => bad("0, 1, 2 or 3"),
        },
        // Bit 2 (a continuous game) changes nothing for one game; renju (4) is not played here.
        "rule" => match number(value, 0, 15).map(|bits| bits & !2) {
            Some(0) => Command::Info(Info::Rule(WinRule::Freestyle)),
            Some(1) => Command::Info(Info::Rule(WinRule::Exact)),
            Some(8) => Command::Info(Info::Rule(WinRule::Caro)),
            _ => bad("0 (five or more), 1 (exactly five) or 8 (caro); renju is not supported"),
        },
        "win_length" => match number(value, 1, u64::from(MAX_SIDE)) {
            Some(k) => Command::Info(Info::WinLength(k as u8)),
            None => bad(&format!("a line length from 1 to {MAX_SIDE}")),
        },
        "arena_rng" => match crate::outside::parse_rng_state(value) {
            Some(_) => Command::Info(Info::ArenaRng(value.to_string())),
            None => bad("SEEDHEX:STREAM:WORD (64 hex digits, then two integers)"),
        },
        "" => Command::Invalid("INFO without a key".into()),
        _ => Command::Info(Info::Other(quote(&key))),
    }
}

/// Parses one line of a `BOARD` block.
pub fn parse_board_line(line: &str) -> BoardLine {
    let trimmed = line.trim();
    if trimmed.eq_ignore_ascii_case("DONE") {
        return BoardLine::Done;
    }
    if trimmed.eq_ignore_ascii_case("END") {
        return BoardLine::End;
    }
    let mut fields = trimmed.split(',');
    let parsed = (|| {
        let x = number(fields.next()?, 0, 255)? as u32;
        let y = number(fields.next()?, 0, 255)? as u32;
        let field = number(fields.next()?, 1, 3)? as u8;
        fields
            .next()
            .is_none()
            .then_some(BoardLine::Stone { x, y, field })
    })();
    parsed.unwrap_or_else(|| {
        BoardLine::Invalid(format!(
            "bad BOARD line `{}`: expected x,y,field (field 1, 2 or 3), DONE or END",
            quote(trimmed)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_and_check_their_arguments() {
        assert_eq!(parse("start 15"), Command::Start { cols: 15, rows: 15 });
        assert_eq!(parse("RECTSTART 9, 4"), Command::Start { cols: 9, rows: 4 });
        assert!(matches!(parse("START 0"), Command::Invalid(_)));
        assert!(matches!(parse("START 20"), Command::Invalid(_)));
        assert!(matches!(parse("START -3"), Command::Invalid(_)));
        assert_eq!(parse("TURN 7,8"), Command::Turn { x: 7, y: 8 });
        assert!(matches!(parse("TURN 7"), Command::Invalid(_)));
        assert!(matches!(parse("TURN -1,2"), Command::Invalid(_)));
        assert_eq!(
            parse("Frobnicate now"),
            Command::Unknown("FROBNICATE".into())
        );
    }

    #[test]
    fn every_numeric_info_value_is_range_checked() {
        for line in [
            "INFO win_length 0",
            "INFO win_length 20",
            "INFO timeout_turn -5",
            "INFO timeout_turn 99999999999",
            "INFO time_left x",
            "INFO game_type 4",
            "INFO rule 4",
            "INFO rule 16",
            "INFO max_memory -1",
            "INFO arena_rng 12:3",
            "INFO",
        ] {
            assert!(matches!(parse(line), Command::Invalid(_)), "{line}");
        }
        assert_eq!(
            parse("INFO win_length 4"),
            Command::Info(Info::WinLength(4))
        );
        assert_eq!(
            parse("INFO rule 3"),
            Command::Info(Info::Rule(WinRule::Exact))
        );
        assert!(matches!(parse("INFO rule 9"), Command::Invalid(_)));
        assert_eq!(
            parse("INFO rule 10"),
            Command::Info(Info::Rule(WinRule::Caro))
        );
        assert_eq!(
            parse("INFO folder /tmp/x"),
            Command::Info(Info::Other("folder".into()))
        );
    }

    #[test]
    fn board_lines() {
        assert_eq!(
            parse_board_line("7,7,1"),
            BoardLine::Stone {
                x: 7,
                y: 7,
                field: 1
            }
        );
        assert_eq!(parse_board_line("done"), BoardLine::Done);
        assert_eq!(parse_board_line("END"), BoardLine::End);
        for bad in ["7,7", "7,7,4", "7,7,1,1", "a,b,c", ""] {
            assert!(
                matches!(parse_board_line(bad), BoardLine::Invalid(_)),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_unknown_command_is_quoted_short() {
        let long = "X".repeat(10_000);
        match parse(&long) {
            Command::Unknown(word) => assert!(word.len() < 70, "{}", word.len()),
            other => panic!("{other:?}"),
        }
    }
}
