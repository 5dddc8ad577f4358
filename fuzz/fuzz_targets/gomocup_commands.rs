//! Any bytes as a Gomocup manager's session with `arena engine`: the command and BOARD parsers,
//! the bounded line reader and the engine's answers must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let spec: agents::AgentSpec = "random".parse().unwrap();
    let _ = protocol::gomocup::serve(&spec, 1, data, std::io::sink());
    for line in data.split(|&b| b == b'\n') {
        if let Ok(text) = std::str::from_utf8(line) {
            let _ = protocol::gomocup::command::parse(text);
            let _ = protocol::gomocup::command::parse_board_line(text);
        }
    }
});
