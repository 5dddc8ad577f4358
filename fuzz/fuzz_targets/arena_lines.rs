//! Any bytes as lines of the arena protocol, both ways: parsing never panics, what parses prints
//! back to itself, and a whole session of `arena serve-agent` on them never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use protocol::wire::{FromAgent, ToAgent};

fuzz_target!(|data: &[u8]| {
    let mut reader = protocol::line::LineReader::new(data);
    while let Some(Ok(line)) = reader.next_line() {
        let Ok(line) = line else { continue };
        if let Ok(message) = FromAgent::parse(&line) {
            assert_eq!(FromAgent::parse(&message.to_string()), Ok(message));
        }
        if let Ok(message) = ToAgent::parse(&line) {
            assert_eq!(ToAgent::parse(&message.to_string()), Ok(message));
        }
    }
    let spec: agents::AgentSpec = "random".parse().unwrap();
    let _ = protocol::serve::serve(&spec, data, std::io::sink(), std::io::sink());
});
