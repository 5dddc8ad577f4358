//! One outside agent process, shared by both protocols: starting it, lines in and out with
//! deadlines, its standard error into the agent's log file, the last lines exchanged kept for the
//! fault report, and stopping it so that none is left behind.

use std::collections::VecDeque;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::line::{LineError, LineReader, quote, quote_n};

/// Lines kept for the fault report.
const TRANSCRIPT: usize = 24;

/// Hand-offs of lines an agent may send ahead of the arena's reading before it has to wait,
/// and lines per hand-off: they bound the memory a flood of output can take (64 lines of at
/// most [`crate::line::MAX_LINE`] each).
const AHEAD: usize = 16;
const BATCH: usize = 4;

/// How long a stopped process has to exit by itself before it is killed.
const GRACE: Duration = Duration::from_millis(300);

/// Where an outside agent's standard error goes.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Stderr {
    /// Nowhere (the last line is still kept for fault messages).
    #[default]
    Discard,
    /// The arena's own standard error (for `arena analyze`, where a person watches).
    Inherit,
    /// Appended to this file, each line after the process id.
    File(PathBuf),
}

/// Why a process could not be started: a setup error, not a game result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot start `{command}`: {reason}")]
pub struct StartError {
    /// The command as given.
    pub command: String,
    /// What the system said, in words.
    pub reason: String,
}

/// What the reader thread saw.
enum Event {
    Line(String),
    Bad(LineError),
    Closed,
}

/// What came from the process while waiting.
#[derive(Debug)]
pub enum Received {
    /// A line of text (may be empty).
    Line(String),
    /// A line that is too long or not UTF-8.
    Bad(LineError),
    /// The deadline passed first.
    Timeout,
    /// The process closed its output (it exited, usually): with its exit status, if known.
    Closed(Option<String>),
}

/// A running outside agent.
pub struct Process {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    lines: Receiver<Vec<Event>>,
    /// Events received together and not yet taken.
    pending: VecDeque<Event>,
    closed: bool,
    stderr_tail: Arc<Mutex<Option<String>>>,
    /// Lines read from stderr so far (to see when it has settled).
    stderr_lines: Arc<std::sync::atomic::AtomicU64>,
    log: Option<(PathBuf, File)>,
    transcript: VecDeque<String>,
    /// What the process is called in messages (`the agent`, `the engine`).
    pub role: &'static str,
}

impl Process {
    /// Starts `command` with `args`, stdin and stdout piped; stderr as `stderr` says.
    pub fn start(
        command: &str,
        args: &[String],
        stderr: &Stderr,
        role: &'static str,
    ) -> Result<Process, StartError> {
        Self::start_in(command, args, stderr, role, None)
    }

    /// [`Process::start`] in the working folder `folder` (`None`: ours).
    pub fn start_in(
        command: &str,
        args: &[String],
        stderr: &Stderr,
        role: &'static str,
        folder: Option<&std::path::Path>,
    ) -> Result<Process, StartError> {
        let start_error = |reason: String| StartError {
            command: command.to_string(),
            reason,
        };
        if command.is_empty() {
            return Err(start_error("the command is empty".into()));
        }
        let log_file = match stderr {
            Stderr::File(path) => Some(open_log(path).map_err(|e| {
                start_error(format!(
                    "cannot open its log file `{}`: {e}",
                    path.display()
                ))
            })?),
            _ => None,
        };
        let mut command_line = Command::new(command);
        if let Some(folder) = folder {
            command_line.current_dir(folder);
        }
        let mut child = command_line
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                Stderr::Inherit => Stdio::inherit(),
                _ => Stdio::piped(),
            })
            .spawn()
            .map_err(|e| start_error(describe_spawn_error(command, &e)))?;
        let pid = child.id();
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(start_error(
                "its standard input or output is not a pipe".into(),
            ));
        };
        let (sender, lines) = mpsc::sync_channel(AHEAD);
        std::thread::Builder::new()
            .name(format!("agent-{pid}-stdout"))
            .spawn(move || {
                let mut reader = LineReader::new(BufReader::new(stdout));
                loop {
                    // The lines that arrived together go together (an `info` and its `move`):
                    // one hand-off to the waiting thread instead of one per line.
                    let mut batch = Vec::with_capacity(2);
                    let closed = loop {
                        let event = match reader.next_line() {
                            None | Some(Err(_)) => Event::Closed,
                            Some(Ok(Ok(line))) => Event::Line(line),
                            Some(Ok(Err(bad))) => Event::Bad(bad),
                        };
                        let closed = matches!(event, Event::Closed);
                        batch.push(event);
                        if closed || batch.len() >= BATCH || !reader.has_buffered_line() {
                            break closed;
                        }
                    };
                    if sender.send(batch).is_err() || closed {
                        break;
                    }
                }
            })
            .map_err(|e| start_error(format!("cannot start a reader thread: {e}")))?;
        let stderr_tail = Arc::new(Mutex::new(None));
        let stderr_lines = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let log = match (stderr, &log_file) {
            (Stderr::File(path), Some(file)) => file.try_clone().ok().map(|f| (path.clone(), f)),
            _ => None,
        };
        if let Some(pipe) = child.stderr.take() {
            let tail = Arc::clone(&stderr_tail);
            let count = Arc::clone(&stderr_lines);
            let mut file = log_file;
            let _ = std::thread::Builder::new()
                .name(format!("agent-{pid}-stderr"))
                .spawn(move || {
                    let mut reader = LineReader::new(BufReader::new(pipe));
                    while let Some(Ok(line)) = reader.next_line() {
                        let text = match line {
                            Ok(text) => text,
                            Err(bad) => format!("({bad})"),
                        };
                        if let Some(file) = &mut file {
                            // One write per line, so processes sharing the file interleave
                            // whole lines.
                            let _ = file.write_all(format!("[pid {pid}] {text}\n").as_bytes());
                        }
                        if !text.trim().is_empty()
                            && let Ok(mut tail) = tail.lock()
                        {
                            *tail = Some(quote(text.trim()));
                        }
                        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                });
        }
        Ok(Process {
            child,
            stdin: Some(BufWriter::new(stdin)),
            lines,
            pending: VecDeque::new(),
            closed: false,
            stderr_tail,
            stderr_lines,
            log,
            transcript: VecDeque::with_capacity(TRANSCRIPT),
            role,
        })
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Keeps `line` (its first 200 bytes, escaped only when written out) for the fault report.
    fn remember(&mut self, direction: char, line: &str) {
        let mut cut = line.len().min(200);
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        let mut kept = if self.transcript.len() == TRANSCRIPT {
            self.transcript.pop_front().unwrap_or_default()
        } else {
            String::with_capacity(cut + 8)
        };
        kept.clear();
        kept.push(direction);
        kept.push(' ');
        kept.push_str(&line[..cut]);
        if cut < line.len() {
            kept.push_str("...");
        }
        self.transcript.push_back(kept);
    }

    /// Queues `line` (a newline is added); nothing is sent before [`Process::flush`].
    pub fn queue(&mut self, line: &str) -> Result<(), String> {
        self.remember('>', line);
        let role = self.role;
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| format!("{role} input is closed"))?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .map_err(|e| format!("{role} stopped reading its input ({e})"))
    }

    /// Sends what was queued.
    pub fn flush(&mut self) -> Result<(), String> {
        let role = self.role;
        match self.stdin.as_mut() {
            Some(stdin) => stdin
                .flush()
                .map_err(|e| format!("{role} stopped reading its input ({e})")),
            None => Err(format!("{role} input is closed")),
        }
    }

    /// Sends `text`, whole lines each ending with a newline, in one write.
    pub fn send_lines(&mut self, text: &str) -> Result<(), String> {
        for line in text.lines() {
            self.remember('>', line);
        }
        let role = self.role;
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| format!("{role} input is closed"))?;
        stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("{role} stopped reading its input ({e})"))
    }

    /// Queues and sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        self.queue(line)?;
        self.flush()
    }

    /// The next line from the process before `deadline`.
    pub fn receive(&mut self, deadline: Instant) -> Received {
        if self.closed {
            return Received::Closed(self.exit_status());
        }
        if self.pending.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(batch) => self.pending.extend(batch),
                Err(RecvTimeoutError::Timeout) => return Received::Timeout,
                Err(RecvTimeoutError::Disconnected) => self.pending.push_back(Event::Closed),
            }
        }
        match self.pending.pop_front() {
            Some(Event::Line(line)) => {
                self.remember('<', &line);
                Received::Line(line)
            }
            Some(Event::Bad(bad)) => {
                self.remember('<', &format!("({bad})"));
                Received::Bad(bad)
            }
            Some(Event::Closed) | None => {
                self.closed = true;
                Received::Closed(self.exit_status())
            }
        }
    }

    /// The exit status, when the process has exited (waiting a moment for it).
    fn exit_status(&mut self) -> Option<String> {
        let give_up = Instant::now() + Duration::from_millis(100);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status.to_string()),
                Ok(None) if Instant::now() < give_up => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                _ => return None,
            }
        }
    }

    /// The last non-empty line the process wrote to its standard error, quoted safely.
    pub fn stderr_tail(&self) -> Option<String> {
        self.stderr_tail.lock().ok().and_then(|tail| tail.clone())
    }

    /// Waits (100 ms at most) until the process's stderr has been quiet for 10 ms: a program
    /// that fails writes its traceback to stderr just before its answer or its exit, and the
    /// fault report should have it.
    fn settle_stderr(&self) {
        use std::sync::atomic::Ordering;
        let give_up = Instant::now() + Duration::from_millis(100);
        let mut seen = self.stderr_lines.load(Ordering::Relaxed);
        while Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(10));
            let now = self.stderr_lines.load(Ordering::Relaxed);
            if now == seen {
                return;
            }
            seen = now;
        }
    }

    /// What to add to a fault message: the last line of standard error and where the log is.
    pub fn fault_context(&self) -> String {
        self.settle_stderr();
        let mut text = String::new();
        if let Some(tail) = self.stderr_tail() {
            text.push_str(&format!("; its last stderr line: `{tail}`"));
        }
        if let Some((path, _)) = &self.log {
            text.push_str(&format!(" (its stderr is in {})", path.display()));
        }
        text
    }

    /// Writes a note and the last lines exchanged to the agent's log file, if it has one.
    pub fn log_fault(&mut self, what: &str) {
        let pid = self.id();
        let Some((_, file)) = &mut self.log else {
            return;
        };
        let mut text = format!(
            "[pid {pid}] fault: {what}\n[pid {pid}] the last lines exchanged (> to it, < from it):\n"
        );
        for line in &self.transcript {
            text.push_str(&format!("[pid {pid}]   {}\n", quote_n(line, 210)));
        }
        let _ = file.write_all(text.as_bytes());
    }

    /// Writes one line to the agent's log file, if it has one.
    pub fn log_line(&mut self, line: &str) {
        let pid = self.id();
        if let Some((_, file)) = &mut self.log {
            let _ = file.write_all(format!("[pid {pid}] {}\n", quote_n(line, 500)).as_bytes());
        }
    }

    /// Sends `farewell` (if any), closes the input, gives the process a moment to exit, then
    /// kills it. Always reaps it.
    pub fn stop(&mut self, farewell: Option<&str>) {
        if let Some(line) = farewell {
            let _ = self.send(line);
        }
        // Closing stdin tells a reading process the session is over.
        self.stdin = None;
        let give_up = Instant::now() + GRACE;
        while Instant::now() < give_up {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills the process at once and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

fn open_log(path: &Path) -> std::io::Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    OpenOptions::new().create(true).append(true).open(path)
}

/// Says why a command did not start, in the words a user needs.
fn describe_spawn_error(command: &str, error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => {
            if command.contains('/') {
                "no such file".to_string()
            } else {
                "no such command on the PATH".to_string()
            }
        }
        std::io::ErrorKind::PermissionDenied => {
            "permission denied (is it executable? `chmod +x` it, or run it through its \
             interpreter: cmd=python3,args=FILE)"
                .to_string()
        }
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_non_executable_command_is_a_start_error() {
        let error = Process::start("/nonexistent/x", &[], &Stderr::Discard, "the agent")
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            "cannot start `/nonexistent/x`: no such file"
        );
        let dir = std::env::temp_dir().join(format!("arena-child-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("not-executable.sh");
        std::fs::write(&file, "#!/bin/sh\necho hi\n").unwrap();
        let error = Process::start(file.to_str().unwrap(), &[], &Stderr::Discard, "the agent")
            .err()
            .unwrap();
        assert!(error.reason.contains("permission denied"), "{error}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn lines_go_both_ways_and_stderr_reaches_the_log() {
        let dir = std::env::temp_dir().join(format!("arena-child-log-{}", std::process::id()));
        let log = dir.join("agent.log");
        let mut process = Process::start(
            "sh",
            &[
                "-c".into(),
                "read line; echo \"got $line\"; echo oops >&2; sleep 5".into(),
            ],
            &Stderr::File(log.clone()),
            "the agent",
        )
        .unwrap();
        process.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        match process.receive(deadline) {
            Received::Line(line) => assert_eq!(line, "got hello"),
            other => panic!("{other:?}"),
        }
        // Silence until the deadline.
        let soon = Instant::now() + Duration::from_millis(50);
        assert!(matches!(process.receive(soon), Received::Timeout));
        let give_up = Instant::now() + Duration::from_secs(5);
        while process.stderr_tail().is_none() && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(process.stderr_tail().as_deref(), Some("oops"));
        let pid = process.id();
        process.stop(None);
        assert!(!Path::new(&format!("/proc/{pid}")).exists());
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.contains(&format!("[pid {pid}] oops")), "{text}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_exit_is_seen_with_its_status() {
        let mut process =
            Process::start("sh", &["-c".into(), "exit 3".into()], &Stderr::Discard, "x").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        match process.receive(deadline) {
            Received::Closed(Some(status)) => assert!(status.contains('3'), "{status}"),
            other => panic!("{other:?}"),
        }
    }
}
