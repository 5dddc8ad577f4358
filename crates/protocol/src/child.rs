//! One outside agent process, shared by both protocols: starting it, lines in and out with
//! deadlines, its standard error into the agent's log file (capped), the last lines exchanged
//! kept for the fault report, and stopping it so that none is left behind.
//!
//! Each agent runs in a process group of its own, and stopping it kills the group: a helper the
//! agent started (a worker, a shell pipeline) goes with it; one that left the group goes too,
//! found among the agent's descendants (see [`crate::orphans`]). An agent that exits while a helper
//! still holds its output is seen exiting (its output then closes as the group is killed), so
//! the game is a crash, not a timeout. The groups of the agents still running when the arena
//! dies, however it dies (`kill -9` included), are killed by a watchdog ([`watchdog`]): a small
//! `sh` process that reads the groups from a pipe and kills them when the pipe closes. It stands
//! for a parent-death signal, which std cannot set without `unsafe` code (a `pre_exec` hook) and
//! which Linux ties to the thread that spawned the child, not to the process.

use std::collections::VecDeque;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Write};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::line::{LineError, LineReader, quote, quote_n};
use crate::orphans;
use crate::sandbox::{Prepared, Sandbox, Verdict};

/// Lines kept for the fault report.
const TRANSCRIPT: usize = 24;

/// Hand-offs of lines an agent may send ahead of the arena's reading before it has to wait,
/// and lines per hand-off: they bound the memory a flood of output can take (64 lines of at
/// most [`crate::line::MAX_LINE`] each).
const AHEAD: usize = 16;
const BATCH: usize = 4;

/// How long a stopped process has to exit by itself before it is killed.
const GRACE: Duration = Duration::from_millis(300);

/// How often a process waited on is checked for having exited (its output may stay open, held
/// by a helper it started).
const EXIT_POLL: Duration = Duration::from_millis(20);

/// How long the lines an exited process wrote have to arrive before its output counts as
/// closed.
const AFTER_EXIT: Duration = Duration::from_millis(200);

/// The most of a process's standard error written to its log file; the rest is read and
/// dropped (a note says so), so a flood of debugging output cannot fill the disk.
pub const LOG_CAP: u64 = 1 << 20;

/// The most a log file holds, counting the process ids, notes and fault reports we add, however
/// many processes share it (a note says where its standard error stops): with [`LOG_CAP`] per
/// process, an agent started for every game cannot fill the disk either.
pub const LOG_FILE_CAP: u64 = 64 << 20;

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
    /// The process closed its output (it exited, usually).
    Closed(Closed),
}

/// How a process's output ended, as messages say it after `the agent`.
#[derive(Debug, PartialEq, Eq)]
pub enum Closed {
    /// It exited: with its exit status, if known.
    Exited(Option<String>),
    /// It closed its output but ran on: it is stopped now.
    StillRunning,
}

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Closed::Exited(Some(status)) => write!(f, "exited ({status})"),
            Closed::Exited(None) => write!(f, "exited"),
            Closed::StillRunning => write!(f, "closed its output (still running: stopped now)"),
        }
    }
}

/// A running outside agent.
pub struct Process {
    child: Child,
    /// Its descendants outside its group when it was asked to stop (see `orphans`).
    helpers: Vec<u32>,
    /// When the process was first seen to have exited (not yet reaped).
    exited_at: Option<Instant>,
    /// Its exit status once its group is killed and it is reaped.
    finished: Option<Option<ExitStatus>>,
    stdin: Option<BufWriter<ChildStdin>>,
    lines: Receiver<Vec<Event>>,
    /// Events received together and not yet taken.
    pending: VecDeque<Event>,
    closed: bool,
    stderr_tail: Arc<Mutex<Option<String>>>,
    /// Lines read from stderr so far (to see when it has settled).
    stderr_lines: Arc<std::sync::atomic::AtomicU64>,
    /// Whether its stderr reached its end (every writer gone), all of it read.
    stderr_done: Arc<std::sync::atomic::AtomicBool>,
    log: Option<(PathBuf, File)>,
    transcript: VecDeque<String>,
    /// What the process is called in messages (`the agent`, `the engine`).
    pub role: &'static str,
    /// Whether its stderr was piped to a reader thread.
    stderr_piped: bool,
    /// Its sandbox, when it runs in one (its temporary folder goes with it).
    sandbox: Option<Arc<Prepared>>,
    /// A limit it ran into while still running (a line past the protocol's longest).
    output_verdict: Option<(Verdict, String)>,
}

impl Process {
    /// Starts `command` with `args`, stdin and stdout piped; stderr as `stderr` says.
    pub fn start(
        command: &str,
        args: &[String],
        stderr: &Stderr,
        role: &'static str,
    ) -> Result<Process, StartError> {
        Self::start_in(command, args, stderr, role, None, &Sandbox::off())
    }

    /// [`Process::start`] in the working folder `folder` (`None`: ours), in `sandbox`.
    pub fn start_in(
        command: &str,
        args: &[String],
        stderr: &Stderr,
        role: &'static str,
        folder: Option<&std::path::Path>,
        sandbox: &Sandbox,
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
        // Built before the fork: the child only makes system calls with it.
        let prepared = sandbox
            .prepare(command, args, folder)
            .map_err(start_error)?
            .map(Arc::new);
        // In the sandbox, it runs from the copy of its own folder: the command, the arguments
        // and the working folder that name something there name the copy's instead.
        let moved = |word: &str| prepared.as_ref().and_then(|p| p.relocate(word, folder));
        let mut command_line = match moved(command).filter(|_| command.contains('/')) {
            Some(copy) => Command::new(copy),
            None => Command::new(command),
        };
        if let Some(folder) = folder {
            match folder.to_str().and_then(moved) {
                Some(copy) => command_line.current_dir(copy),
                None => command_line.current_dir(folder),
            };
        }
        for arg in args {
            match moved(arg).filter(|_| arg.contains('/') || arg.ends_with(".py")) {
                Some(copy) => command_line.arg(copy),
                None => command_line.arg(arg),
            };
        }
        if let Some(prepared) = &prepared {
            prepared.install(&mut command_line);
        }
        // Listed as started before an orphan could be looked for (see `orphans`).
        let mut started = orphans::started();
        let mut child = command_line
            // A group of its own: stopping the agent kills what it started too, and a signal
            // for the arena's terminal group (Ctrl-C) is the arena's to handle.
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                Stderr::Inherit => Stdio::inherit(),
                _ => Stdio::piped(),
            })
            .spawn()
            .map_err(|e| start_error(describe_spawn_error(command, &e)))?;
        // The hook and its copy of the sandbox are the parent's no more.
        drop(command_line);
        let pid = child.id();
        started.push(pid);
        watchdog::watch(pid);
        drop(started);
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_group(pid);
            let _ = child.wait();
            watchdog::unwatch(pid);
            orphans::after_stop(pid, &[]);
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
        let stderr_done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let log = match (stderr, &log_file) {
            (Stderr::File(path), Some(file)) => file.try_clone().ok().map(|f| (path.clone(), f)),
            _ => None,
        };
        let stderr_piped = child.stderr.is_some();
        if let Some(pipe) = child.stderr.take() {
            let tail = Arc::clone(&stderr_tail);
            let count = Arc::clone(&stderr_lines);
            let done = Arc::clone(&stderr_done);
            let file = log_file;
            let _ = std::thread::Builder::new()
                .name(format!("agent-{pid}-stderr"))
                .spawn(move || {
                    let mut reader = LineReader::new(BufReader::new(pipe));
                    let mut log = LogBudget::new();
                    while let Some(Ok(line)) = reader.next_line() {
                        let text = match line {
                            Ok(text) => text,
                            Err(bad) => format!("({bad})"),
                        };
                        if let Some(file) = &file {
                            log.write(file, pid, &text);
                        }
                        if !text.trim().is_empty()
                            && let Ok(mut tail) = tail.lock()
                        {
                            *tail = Some(quote(text.trim()));
                        }
                        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    done.store(true, std::sync::atomic::Ordering::Release);
                });
        }
        Ok(Process {
            child,
            helpers: Vec::new(),
            exited_at: None,
            finished: None,
            stdin: Some(BufWriter::new(stdin)),
            lines,
            pending: VecDeque::new(),
            closed: false,
            stderr_tail,
            stderr_lines,
            stderr_done,
            log,
            transcript: VecDeque::with_capacity(TRANSCRIPT),
            role,
            sandbox: prepared,
            output_verdict: None,
            stderr_piped,
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

    /// The next line from the process before `deadline`. A process that exits is seen within
    /// [`EXIT_POLL`] even while a helper it started holds its output open: the helper's group is
    /// killed, the lines already written are still read, and then the output counts as closed.
    pub fn receive(&mut self, deadline: Instant) -> Received {
        if self.closed {
            return Received::Closed(self.how_closed());
        }
        while self.pending.is_empty() {
            let now = Instant::now();
            let left = deadline.saturating_duration_since(now);
            match self.lines.recv_timeout(left.min(EXIT_POLL)) {
                Ok(batch) => self.pending.extend(batch),
                Err(RecvTimeoutError::Disconnected) => self.pending.push_back(Event::Closed),
                Err(RecvTimeoutError::Timeout) => {
                    if Instant::now() >= deadline {
                        return Received::Timeout;
                    }
                    match self.exited_at {
                        None if self.has_exited() => {
                            // Its helpers hold the output open: they go now.
                            kill_group(self.child.id());
                            self.exited_at = Some(Instant::now());
                        }
                        Some(at) if at.elapsed() >= AFTER_EXIT => {
                            self.pending.push_back(Event::Closed);
                        }
                        _ => {}
                    }
                }
            }
        }
        match self.pending.pop_front() {
            Some(Event::Line(line)) => {
                self.remember('<', &line);
                Received::Line(line)
            }
            Some(Event::Bad(bad)) => {
                self.remember('<', &format!("({bad})"));
                if self.sandbox.is_some() && matches!(bad, LineError::TooLong { .. }) {
                    self.output_verdict = Some((Verdict::OutputLimit, format!("it printed {bad}")));
                }
                Received::Bad(bad)
            }
            Some(Event::Closed) | None => {
                self.closed = true;
                Received::Closed(self.how_closed())
            }
        }
    }

    /// Whether the process has exited, without reaping it: until it is reaped its id stays
    /// its group's, so the group can still be killed safely.
    fn has_exited(&self) -> bool {
        use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
        if self.finished.is_some() {
            return true;
        }
        let Some(pid) = Pid::from_raw(self.child.id() as i32) else {
            return true;
        };
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        matches!(waitid(WaitId::Pid(pid), options), Ok(Some(_)) | Err(_))
    }

    /// Kills the process's group and its descendants outside the group (see `orphans`), reaps
    /// the process and returns its exit status. Done once.
    fn finish(&mut self) -> Option<ExitStatus> {
        if let Some(status) = self.finished {
            return status;
        }
        self.stdin = None;
        let pid = self.child.id();
        let killed = orphans::kill_tree(pid);
        kill_group(pid);
        let status = self.child.wait().ok();
        watchdog::unwatch(pid);
        orphans::reap(&killed);
        orphans::after_stop(pid, &std::mem::take(&mut self.helpers));
        self.finished = Some(status);
        status
    }

    /// Whether the process whose output closed has exited (waiting up to a second for it: an
    /// interpreter closes its output some time before it exits, the more so on a busy
    /// machine), with its exit status; its group is killed either way, so one that closed its
    /// output and ran on is stopped.
    fn how_closed(&mut self) -> Closed {
        let give_up = Instant::now() + Duration::from_secs(1);
        while !self.has_exited() {
            if Instant::now() >= give_up {
                self.finish();
                return Closed::StillRunning;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        Closed::Exited(self.finish().map(|status| status.to_string()))
    }

    /// The last non-empty line the process wrote to its standard error, quoted safely.
    pub fn stderr_tail(&self) -> Option<String> {
        self.stderr_tail.lock().ok().and_then(|tail| tail.clone())
    }

    /// Waits (100 ms at most) until the process's stderr has been quiet for 10 ms: a program
    /// that fails writes its traceback to stderr just before its answer or its exit, and the
    /// fault report should have it.
    ///
    /// Once the process is reaped (its group killed), its stderr ends when the last writer is
    /// gone: that end is waited for (a second at most), so the last line is there however
    /// slowly a loaded machine hands it over.
    fn settle_stderr(&self) {
        use std::sync::atomic::Ordering;
        if self.finished.is_some() && self.stderr_piped {
            let give_up = Instant::now() + Duration::from_secs(1);
            while !self.stderr_done.load(Ordering::Acquire) && Instant::now() < give_up {
                std::thread::sleep(Duration::from_millis(2));
            }
            return;
        }
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

    /// Whether it has used half or more of the CPU time its sandbox gives it (`sandbox_cpu_s`,
    /// every game it played together): a process kept between games is not given another
    /// then, so that the limit ends a runaway game, not the hundredth game of a long match.
    pub fn worn(&self) -> bool {
        let Some(limit) = self.sandbox.as_ref().and_then(|p| p.cpu_limit_s()) else {
            return false;
        };
        cpu_seconds(self.id()).is_some_and(|used| used * 2.0 >= limit as f64)
    }

    /// The limit of its sandbox it ran into, if one stopped it, with what it tried.
    pub fn verdict(&self) -> Option<(Verdict, String)> {
        if let Some(verdict) = &self.output_verdict {
            return Some(verdict.clone());
        }
        let prepared = self.sandbox.as_ref()?;
        let status = (*self.finished.as_ref()?)?;
        prepared.verdict(&status, self.stderr_tail().as_deref())
    }

    /// `message` with the verdict in front when a limit of the sandbox stopped the process
    /// (`CPU limit: ...`); the log says what it tried.
    pub fn with_verdict(&mut self, message: &str) -> String {
        self.settle_stderr();
        match self.verdict() {
            Some((verdict, tried)) => {
                self.log_line(&format!("sandbox: {verdict}: {tried}"));
                format!("{verdict}: {message}")
            }
            None => message.to_string(),
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
        let Some((_, file)) = &self.log else {
            return;
        };
        let mut text = format!(
            "[pid {pid}] fault: {what}\n[pid {pid}] the last lines exchanged (> to it, < from it):\n"
        );
        for line in &self.transcript {
            text.push_str(&format!("[pid {pid}]   {}\n", quote_n(line, 210)));
        }
        append_log(file, &text, LOG_FILE_CAP - NOTE_ROOM);
    }

    /// Writes one line to the agent's log file, if it has one.
    pub fn log_line(&mut self, line: &str) {
        let pid = self.id();
        if let Some((_, file)) = &self.log {
            let line = format!("[pid {pid}] {}\n", quote_n(line, 500));
            append_log(file, &line, LOG_FILE_CAP - NOTE_ROOM);
        }
    }

    /// Sends `farewell` (if any), closes the input, gives the process a moment to exit, then
    /// kills its group (what it started goes too). Always reaps it.
    pub fn stop(&mut self, farewell: Option<&str>) {
        if self.finished.is_none() {
            // Those that an exit by itself would orphan.
            self.helpers = orphans::outside_group(self.child.id());
        }
        if let Some(line) = farewell {
            let _ = self.send(line);
        }
        // Closing stdin tells a reading process the session is over.
        self.stdin = None;
        let give_up = Instant::now() + GRACE;
        while Instant::now() < give_up && !self.has_exited() {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.finish();
    }

    /// Kills the process and its group at once and reaps it.
    pub fn kill(&mut self) {
        self.finish();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Sends SIGKILL to the process group `pid` leads (the agent's: see [`Process::start`]).
fn kill_group(pid: u32) {
    signal_group(pid, rustix::process::Signal::KILL);
}

/// Sends `signal` to the process group `pid` leads.
pub(crate) fn signal_group(pid: u32, signal: rustix::process::Signal) {
    use rustix::process::{Pid, kill_process_group};
    if let Some(group) = Pid::from_raw(pid as i32) {
        // Gone already (ESRCH) is fine.
        let _ = kill_process_group(group, signal);
    }
}

/// How much of one process's standard error still goes to its log file.
struct LogBudget {
    left: u64,
    noted: bool,
}

impl LogBudget {
    fn new() -> LogBudget {
        LogBudget {
            left: LOG_CAP,
            noted: false,
        }
    }

    /// Writes the log entry of `text` to `file`, or (once) the note that a cap is reached.
    fn write(&mut self, file: &File, pid: u32, text: &str) {
        let entry = format!("[pid {pid}] {text}\n");
        if (entry.len() as u64) <= self.left && append_log(file, &entry, LOG_FILE_CAP - NOTE_ROOM) {
            self.left -= entry.len() as u64;
            return;
        }
        self.left = 0;
        if !std::mem::replace(&mut self.noted, true) {
            let note = format!(
                "[pid {pid}] (the rest of its stderr is not logged: at most {} MiB a process, and \
                 {} MiB a log file)\n",
                LOG_CAP >> 20,
                LOG_FILE_CAP >> 20
            );
            append_log(file, &note, LOG_FILE_CAP);
        }
    }
}

/// Room kept at the end of a log file for the notes that its processes' stderr is no longer
/// logged (about 130 bytes each; notes past it are dropped).
const NOTE_ROOM: u64 = 4096;

/// The length of each log file open for appending (by device and inode), counted as it is
/// written: the processes sharing a file keep it within [`LOG_FILE_CAP`] together.
static LOG_LENGTHS: Mutex<Vec<((u64, u64), u64)>> = Mutex::new(Vec::new());

/// Appends `text` to the log `file` in one write (processes sharing the file interleave whole
/// lines) if the file stays within `limit` bytes; says whether it did.
fn append_log(mut file: &File, text: &str, limit: u64) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    let Ok(metadata) = file.metadata() else {
        return false;
    };
    let key = (metadata.dev(), metadata.ino());
    let mut lengths = LOG_LENGTHS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let index = match lengths.iter().position(|(k, _)| *k == key) {
        Some(index) => index,
        None => {
            lengths.push((key, 0));
            lengths.len() - 1
        }
    };
    // Another program may append too (a second arena on the same folder): the larger counts.
    let length = lengths[index].1.max(metadata.len());
    let after = length + text.len() as u64;
    if after > limit {
        return false;
    }
    lengths[index].1 = after;
    file.write_all(text.as_bytes()).is_ok()
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

/// Kills the process groups of the agents still running when the arena's process dies.
///
/// One `sh` process per arena process, started with the first agent: the arena writes `+ PGID`
/// when an agent starts and `- PGID` once its group is killed and it is reaped; when the pipe
/// closes (the arena exited, however: a signal, `kill -9`, a panic) the watchdog kills every
/// group still listed and exits. It ignores the terminal's signals and lives in a group of its
/// own, so that Ctrl-C reaches the arena and not it. Only a kill in the instant between an
/// agent's start and its `+` line escapes it.
pub mod watchdog {
    use std::io::Write as _;
    use std::os::unix::process::CommandExt as _;
    use std::process::{ChildStdin, Command, Stdio};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU32, Ordering};

    const SCRIPT: &str = r#"trap '' INT TERM HUP QUIT PIPE
groups=' '
while read -r op group; do
  case $op in
    +) groups="$groups$group " ;;
    -) case $groups in
         *" $group "*) groups="${groups%% $group *} ${groups#* $group }" ;;
       esac ;;
  esac
done
for group in $groups; do kill -KILL -"$group" 2>/dev/null; done
"#;

    /// The pipe to the watchdog, once started (`None` inside: it could not start).
    static PIPE: Mutex<Option<Option<ChildStdin>>> = Mutex::new(None);

    /// The watchdog's process id, once started (0 before).
    static PID: AtomicU32 = AtomicU32::new(0);

    fn tell(line: &str) {
        let mut pipe = PIPE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let pipe = pipe.get_or_insert_with(|| {
            Command::new("sh")
                .args(["-c", SCRIPT])
                .process_group(0)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .ok()
                .and_then(|mut child| {
                    PID.store(child.id(), Ordering::Relaxed);
                    child.stdin.take()
                })
        });
        if let Some(stdin) = pipe {
            // A line is far below PIPE_BUF: one write, never interleaved.
            let _ = stdin.write_all(line.as_bytes());
        }
    }

    /// Lists the group `pgid` (an agent just started).
    pub fn watch(pgid: u32) {
        tell(&format!("+ {pgid}\n"));
    }

    /// Takes the group `pgid` off the list (killed, its leader reaped).
    pub fn unwatch(pgid: u32) {
        tell(&format!("- {pgid}\n"));
    }

    /// The watchdog's process id, once started.
    pub fn pid() -> Option<u32> {
        Some(PID.load(Ordering::Relaxed)).filter(|&pid| pid != 0)
    }

    /// Whether the watchdog runs.
    pub fn started() -> bool {
        matches!(
            *PIPE
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
            Some(Some(_))
        )
    }
}

/// The CPU time (user and system, all its threads) process `pid` has used, in seconds, from
/// `/proc/PID/stat`; `None` where it cannot be read.
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    // utime and stime are the kernel's 14th and 15th fields.
    let ticks = orphans::with_stat(pid, |fields| {
        Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
    })?;
    let per_second = rustix::param::clock_ticks_per_second();
    (per_second > 0).then(|| ticks as f64 / per_second as f64)
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
            Received::Closed(Closed::Exited(Some(status))) => {
                assert!(status.contains('3'), "{status}")
            }
            other => panic!("{other:?}"),
        }
    }

    /// The live processes (zombies left out) of process group `group`, from `/proc`.
    pub(crate) fn group_members(group: u32) -> Vec<u32> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // `pid (comm) state ppid pgrp ...`: the command may hold spaces and parentheses.
            let Some((head, rest)) = stat.rsplit_once(") ") else {
                continue;
            };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let pid = head.split_whitespace().next().and_then(|p| p.parse().ok());
            if let (Some(pid), Some(&state), Some(pgrp)) = (pid, fields.first(), fields.get(2))
                && state != "Z"
                && pgrp.parse() == Ok(group)
            {
                found.push(pid);
            }
        }
        found
    }

    /// Waits (10 s at most) until group `group` has no live process; returns those left.
    pub(crate) fn group_gone(group: u32) -> Vec<u32> {
        let give_up = Instant::now() + Duration::from_secs(10);
        loop {
            let left = group_members(group);
            if left.is_empty() || Instant::now() >= give_up {
                return left;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn an_agent_that_exits_while_a_helper_holds_its_output_is_seen_closed_and_the_helper_dies() {
        // The helper (a subshell's sleep) inherits stdout and keeps it open after `exit 3`.
        let mut process = Process::start(
            "sh",
            &["-c".into(), "sleep 60 & echo started; exit 3".into()],
            &Stderr::Discard,
            "the agent",
        )
        .unwrap();
        let group = process.id();
        let deadline = Instant::now() + Duration::from_secs(30);
        match process.receive(deadline) {
            Received::Line(line) => assert_eq!(line, "started"),
            other => panic!("{other:?}"),
        }
        match process.receive(deadline) {
            Received::Closed(Closed::Exited(Some(status))) => {
                assert!(status.contains('3'), "{status}")
            }
            other => panic!("a closed output with the exit status, not {other:?}"),
        }
        assert!(Instant::now() < deadline);
        assert_eq!(
            group_gone(group),
            Vec::<u32>::new(),
            "the helper outlived its agent"
        );
    }

    #[test]
    fn stopping_an_agent_kills_what_it_started() {
        let mut process = Process::start(
            "sh",
            &[
                "-c".into(),
                "sleep 60 & (sleep 60; echo never) & echo ready; read line; sleep 60".into(),
            ],
            &Stderr::Discard,
            "the agent",
        )
        .unwrap();
        let group = process.id();
        let deadline = Instant::now() + Duration::from_secs(30);
        assert!(matches!(process.receive(deadline), Received::Line(_)));
        assert!(
            group_members(group).len() >= 3,
            "{:?}",
            group_members(group)
        );
        assert!(watchdog::started());
        process.stop(Some("quit"));
        assert_eq!(group_gone(group), Vec::<u32>::new());
        // And dropping an agent that was never stopped does the same.
        let process = Process::start(
            "sh",
            &["-c".into(), "sleep 60 & sleep 60".into()],
            &Stderr::Discard,
            "the agent",
        )
        .unwrap();
        let group = process.id();
        drop(process);
        assert_eq!(group_gone(group), Vec::<u32>::new());
    }

    #[test]
    fn a_flood_of_stderr_is_logged_up_to_the_cap_and_read_to_the_end() {
        let dir = std::env::temp_dir().join(format!("arena-child-cap-{}", std::process::id()));
        let log = dir.join("agent.log");
        // 4 MiB of stderr in lines of 1 KiB, then an answer: the agent is never blocked.
        let mut process = Process::start(
            "sh",
            &[
                "-c".into(),
                "head -c 4194304 /dev/zero | tr '\\0' x | fold -w 1024 >&2; echo done; read x"
                    .into(),
            ],
            &Stderr::File(log.clone()),
            "the agent",
        )
        .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        match process.receive(deadline) {
            Received::Line(line) => assert_eq!(line, "done"),
            other => panic!("{other:?}"),
        }
        process.stop(None);
        let length = std::fs::metadata(&log).unwrap().len();
        assert!(length <= LOG_CAP + 1024, "{length}");
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            text.contains("the rest of its stderr is not logged"),
            "{}",
            &text[text.len() - 300..]
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
