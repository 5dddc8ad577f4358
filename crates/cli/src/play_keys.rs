//! Lines typed by the players, read on a thread of their own so that a prompt can wait with a
//! deadline (the countdown per move) whether stdin is a terminal or a pipe.

use std::io::BufRead;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What a prompt got.
#[derive(Debug, PartialEq, Eq)]
pub enum Typed {
    /// A line, without its line ending.
    Line(String),
    /// Stdin is closed (end of file): the players have left.
    Closed,
    /// The deadline passed before a line came.
    TimeUp,
}

/// The players' keyboard: stdin, one line at a time.
pub struct Keyboard {
    lines: Receiver<String>,
}

impl Keyboard {
    /// Starts reading stdin on a background thread. The thread ends at end of file; if the
    /// program ends first, it ends with the process.
    pub fn spawn() -> Keyboard {
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut stdin = stdin.lock();
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match stdin.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Bad UTF-8 is the player's typo, not a reason to stop reading.
                        let text = String::from_utf8_lossy(&bytes);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Keyboard { lines }
    }

    /// The next line, waiting at most until `deadline`. While it waits, `tick` is called with
    /// the time left each time that crosses a whole second, for a live countdown.
    pub fn read(&mut self, deadline: Option<Instant>, mut tick: impl FnMut(Duration)) -> Typed {
        let Some(deadline) = deadline else {
            return match self.lines.recv() {
                Ok(line) => Typed::Line(line),
                Err(_) => Typed::Closed,
            };
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Typed::TimeUp;
            }
            // Wake when the whole seconds left change, so the countdown shows 9, 8, 7, ...
            let fraction = left - Duration::from_secs(left.as_secs());
            let wait = if fraction.is_zero() {
                Duration::from_secs(1).min(left)
            } else {
                fraction
            };
            match self.lines.recv_timeout(wait) {
                Ok(line) => return Typed::Line(line),
                Err(RecvTimeoutError::Disconnected) => return Typed::Closed,
                Err(RecvTimeoutError::Timeout) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if !left.is_zero() {
                        tick(left);
                    }
                }
            }
        }
    }
}
