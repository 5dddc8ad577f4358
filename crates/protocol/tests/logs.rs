//! An agent's log file stays within [`LOG_FILE_CAP`], counting what the arena adds to each
//! line (the process id), its notes and its fault reports, however many agents share it.

use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::time::{Duration, Instant};

use protocol::child::{LOG_FILE_CAP, Process, Received, Stderr};

/// The log's length once nothing has been added to it for 300 ms (10 s at most).
fn settled_length(log: &Path) -> u64 {
    let give_up = Instant::now() + Duration::from_secs(10);
    let mut length = fs::metadata(log).unwrap().len();
    loop {
        std::thread::sleep(Duration::from_millis(300));
        let now = fs::metadata(log).unwrap().len();
        if now == length || Instant::now() >= give_up {
            return now;
        }
        length = now;
    }
}

#[test]
fn a_log_file_shared_by_agents_never_passes_its_cap_counting_our_prefixes() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("protocol-log-cap-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let log = dir.join("agent.log");
    // 100 KiB short of its cap (a sparse file: no disk taken).
    File::create(&log)
        .unwrap()
        .set_len(LOG_FILE_CAP - (100 << 10))
        .unwrap();
    // Three agents at once, each writing 512 KiB of 20-byte lines to stderr: what we add to
    // each line is more than half of it.
    let mut agents: Vec<Process> = (0..3)
        .map(|_| {
            Process::start(
                "sh",
                &[
                    "-c".into(),
                    "head -c 524288 /dev/zero | tr '\\0' x | fold -w 20 >&2; echo done; read x"
                        .into(),
                ],
                &Stderr::File(log.clone()),
                "the agent",
            )
            .unwrap()
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    for agent in &mut agents {
        match agent.receive(deadline) {
            Received::Line(line) => assert_eq!(line, "done"),
            other => panic!("{other:?}"),
        }
    }
    for agent in &mut agents {
        agent.log_fault("a fault, with the lines exchanged");
        agent.log_line("a line of our own");
        agent.stop(None);
    }
    let length = settled_length(&log);
    assert!(
        length <= LOG_FILE_CAP,
        "the log file reached {length} bytes, {} over its cap",
        length - LOG_FILE_CAP
    );
    let mut tail = String::new();
    let mut file = File::open(&log).unwrap();
    file.seek(SeekFrom::End(-4096)).unwrap();
    file.read_to_string(&mut tail).unwrap();
    assert!(
        tail.contains("the rest of its stderr is not logged"),
        "{tail}"
    );
    let _ = fs::remove_dir_all(dir);
}
