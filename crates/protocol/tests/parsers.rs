//! The protocol parsers against arbitrary input, on the stable toolchain (the cargo-fuzz targets
//! in `fuzz/` run the same properties for longer): nothing panics, a session always ends, and
//! every line that parses prints back to itself.

use proptest::prelude::*;
use protocol::gomocup::command;
use protocol::line::LineReader;
use protocol::wire::{FromAgent, ToAgent};

/// Words that lead the parsers down their real paths.
const WORDS: &[&str] = &[
    "arena",
    "game",
    "position",
    "board",
    "legal",
    "go",
    "end",
    "quit",
    "id",
    "feature",
    "ready",
    "ok",
    "error",
    "info",
    "move",
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "DONE",
    "INFO",
    "ABOUT",
    "END",
    "timeout_turn",
    "time_left",
    "rule",
    "win_length",
    "arena_rng",
    "variant=",
    "seat=",
    "players=",
    "time_ms=",
    "nodes=",
    "depth=",
    "score=",
    "text=",
    "places=",
    "tictactoe",
    "oanquan",
    "mnk-5x5k4",
    "b2",
    "3P",
    "7,7",
    "7,7,1",
    "0",
    "1",
    "2",
    "8",
    "-1",
    "19",
    "20",
    "99999999999",
    "NaN",
    "1e400",
    "=",
    ",",
    "\u{e9}",
];

/// A session: lines of words from the list and of arbitrary text, and raw bytes.
fn session() -> impl Strategy<Value = Vec<u8>> {
    let word = prop_oneof![
        4 => proptest::sample::select(WORDS).prop_map(str::to_string),
        1 => "[ -~]{0,12}",
        1 => any::<u8>().prop_map(|b| String::from_utf8_lossy(&[b]).into_owned()),
    ];
    let line = proptest::collection::vec(word, 0..8).prop_map(|words| words.join(" "));
    let lines = proptest::collection::vec(line, 0..24).prop_map(|lines| {
        let mut text = lines.join("\n");
        text.push('\n');
        text.into_bytes()
    });
    prop_oneof![
        3 => lines,
        1 => proptest::collection::vec(any::<u8>(), 0..512),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn gomocup_sessions_never_panic(input in session()) {
        let spec: agents::AgentSpec = "random".parse().unwrap();
        let mut out = Vec::new();
        protocol::gomocup::serve(&spec, 1, input.as_slice(), &mut out).unwrap();
        // Answers are short: nothing is echoed back whole.
        for line in String::from_utf8(out).unwrap().lines() {
            prop_assert!(line.len() < 400, "{line}");
        }
        for line in input.split(|&b| b == b'\n') {
            let text = String::from_utf8_lossy(line);
            let _ = command::parse(&text);
            let _ = command::parse_board_line(&text);
        }
    }

    #[test]
    fn arena_sessions_never_panic_and_lines_print_back(input in session()) {
        let mut reader = LineReader::new(input.as_slice());
        while let Some(line) = reader.next_line() {
            let Ok(line) = line.unwrap() else { continue };
            if let Ok(message) = FromAgent::parse(&line) {
                prop_assert_eq!(FromAgent::parse(&message.to_string()), Ok(message));
            }
            if let Ok(message) = ToAgent::parse(&line) {
                prop_assert_eq!(ToAgent::parse(&message.to_string()), Ok(message));
            }
        }
        let spec: agents::AgentSpec = "random".parse().unwrap();
        let (mut out, mut log) = (Vec::new(), Vec::new());
        protocol::serve::serve(&spec, input.as_slice(), &mut out, &mut log).unwrap();
        for line in String::from_utf8(out).unwrap().lines() {
            prop_assert!(FromAgent::parse(line).is_ok(), "we answered `{line}`");
        }
    }
}
