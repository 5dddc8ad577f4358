//! What the outside kinds share: how a spec says to start the process and how much time it has,
//! the pool that keeps processes alive between games, and the arena's RNG state as text.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use agents::{AgentRng, ParamDoc, Params, SpecError};
use rand::SeedableRng;

use crate::child::{Process, Stderr};
use crate::sandbox::Sandbox;

/// The parameters every outside kind takes (`args` runs to the next of these keys, so it may
/// hold commas: [`agents::spec::OUTSIDE_KEYS`]).
pub(crate) const CMD: ParamDoc = ParamDoc {
    name: "cmd",
    default: "(required)",
    doc: "the executable: a name on the PATH, or a path (in an experiment file, relative to its folder, where the program runs)",
};
pub(crate) const TIMEOUT: ParamDoc = ParamDoc {
    name: "timeout_ms",
    default: "5000",
    doc: "time per move when the experiment sets no move_time_ms",
};
pub(crate) const MARGIN: ParamDoc = ParamDoc {
    name: "margin_ms",
    default: "100",
    doc: "tolerance past the announced time before a move is late (cutechess-cli's timemargin)",
};
pub(crate) const START: ParamDoc = ParamDoc {
    name: "start_ms",
    default: "10000",
    doc: "time to start and to answer the set-up of a game (not counted as thinking time)",
};
pub(crate) const LOG: ParamDoc = ParamDoc {
    name: "log",
    default: "(per agent)",
    doc: "the file for its stderr and fault reports (default: <run folder>/games.logs/<agent>.log)",
};
pub(crate) const DIR: ParamDoc = ParamDoc {
    name: "dir",
    default: "(none)",
    doc: "the folder it runs in, relative to the experiment file's folder (a class's submission: `arena` writes it); its `cmd` and `args` paths resolve from there",
};
pub(crate) const ARGS: ParamDoc = ParamDoc {
    name: "args",
    default: "(none)",
    doc: "arguments, space-separated, 'quoted' to keep spaces; anywhere in the spec, up to the next key of this kind, commas included (paths: relative to the experiment file's folder)",
};

/// Why a session could not be set up; the arena's pre-flight check reports these.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The process did not start.
    #[error(transparent)]
    Start(#[from] crate::child::StartError),
    /// It did not answer the handshake or the set-up as the protocol says.
    #[error("{0}")]
    Protocol(String),
    /// It refused the variant.
    #[error("it does not play `{variant}`: it answered `{answer}`")]
    Refused {
        /// The variant id.
        variant: String,
        /// Its answer, quoted safely.
        answer: String,
    },
}

/// A set-up that failed on `process`: the fault logged with the last lines exchanged, the
/// process killed. A limit of the sandbox hit while it starts is named as in a game
/// (`memory limit: ...`), and the message ends with its last stderr line and its log's place.
pub(crate) fn setup_fault(process: &mut Process, message: String) -> SetupError {
    let message = format!(
        "{}{}",
        process.with_verdict(&message),
        process.fault_context()
    );
    process.log_fault(&message);
    process.kill();
    SetupError::Protocol(message)
}

/// How to start an outside agent and the time it has, read from its spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The executable.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The time per move when the arena sets no limit.
    pub timeout: Duration,
    /// The tolerance past the announced time.
    pub margin: Duration,
    /// The time to start, to answer the handshake and to set up a game.
    pub start_timeout: Duration,
    /// Where its stderr goes.
    pub stderr: Stderr,
    /// The spec as text: the key of its processes in the pool.
    pub key: String,
    /// The folder the process runs in and its relative `cmd` resolves from: the experiment
    /// file's, as for its openings files (`None`: the current folder).
    pub folder: Option<PathBuf>,
    /// The sandbox it runs in (the run's: [`crate::Roster::with_sandbox`]).
    pub sandbox: Sandbox,
    /// The folder it runs in, relative to [`Launch::folder`] (`dir=`): a submission's own.
    pub dir: Option<PathBuf>,
}

impl Launch {
    /// Reads the shared parameters of `kind`; `stderr` is where stderr goes unless `log=` says.
    pub(crate) fn from_params(
        kind: &str,
        params: &Params<'_>,
        stderr: Stderr,
        key: String,
    ) -> Result<Launch, SpecError> {
        let cmd = params.text("cmd").unwrap_or("").trim().to_string();
        if cmd.is_empty() {
            return Err(agents::spec::bad_value(
                kind,
                "cmd",
                "",
                &format!("the executable: {kind}:cmd=PATH[,args=...]"),
            ));
        }
        let stderr = match params.text("log") {
            Some(path) if !path.trim().is_empty() => Stderr::File(PathBuf::from(path.trim())),
            _ => stderr,
        };
        Ok(Launch {
            cmd,
            args: split_args(params.text("args").unwrap_or("")),
            timeout: Duration::from_millis(params.u64("timeout_ms", 5_000, 1..=3_600_000)?),
            margin: Duration::from_millis(params.u64("margin_ms", 100, 0..=60_000)?),
            start_timeout: Duration::from_millis(params.u64("start_ms", 10_000, 1..=600_000)?),
            stderr,
            key,
            folder: None,
            sandbox: Sandbox::off(),
            dir: params
                .text("dir")
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
        })
    }

    /// The folder the process runs in: [`Launch::folder`] joined with `dir=`, if either is set.
    pub fn working_folder(&self) -> Option<PathBuf> {
        match (&self.folder, &self.dir) {
            (Some(folder), Some(dir)) => Some(folder.join(dir)),
            (None, Some(dir)) => Some(dir.clone()),
            (folder, None) => folder.clone(),
        }
    }

    /// Starts the process, in [`Launch::working_folder`] when there is one.
    pub fn start(&self, role: &'static str) -> Result<Process, crate::child::StartError> {
        // Only an agent with a folder of its own (`dir=`) runs from a copy of it.
        let sandbox = Sandbox {
            copy_folder: self.dir.is_some(),
            ..self.sandbox.clone()
        };
        match &self.working_folder() {
            Some(folder) => {
                // Absolute, so that the command resolves the same before and after the child
                // changes into it.
                let folder = std::path::absolute(folder).unwrap_or_else(|_| folder.clone());
                // A relative path with a slash is the experiment's; a bare name is the PATH's.
                let cmd = if self.cmd.contains('/') && PathBuf::from(&self.cmd).is_relative() {
                    folder.join(&self.cmd).display().to_string()
                } else {
                    self.cmd.clone()
                };
                Process::start_in(
                    &cmd,
                    &self.args,
                    &self.stderr,
                    role,
                    Some(&folder),
                    &sandbox,
                )
            }
            None => Process::start_in(&self.cmd, &self.args, &self.stderr, role, None, &sandbox),
        }
    }

    /// The deadline of a set-up step starting now.
    pub fn start_deadline(&self) -> Instant {
        Instant::now() + self.start_timeout
    }
}

/// Splits an argument string on whitespace, keeping 'single-quoted' parts together.
pub fn split_args(text: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in text.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    args.push(std::mem::take(&mut current));
                    any = false;
                }
            }
            c => {
                current.push(c);
                any = true;
            }
        }
    }
    if any {
        args.push(current);
    }
    args
}

/// A process waiting between games, with what its protocol needs to know of it.
pub struct Idle {
    /// The process.
    pub process: Process,
    /// The Gomocup board size it was last set up for (columns, rows); `None` for the arena
    /// protocol.
    pub board: Option<(u8, u8)>,
    /// The arena protocol's features it announced.
    pub features: Vec<String>,
}

type Shelf = Mutex<HashMap<String, Vec<Idle>>>;

/// Where processes that can play again wait between games, keyed by their spec. The
/// [`crate::Roster`] that owns it stops them when it is dropped; an agent whose roster is gone
/// stops its process at the end of its game.
#[derive(Clone, Default)]
pub struct Pool(Option<Weak<Shelf>>);

/// The owning side of a [`Pool`].
#[derive(Default)]
pub(crate) struct PoolOwner(Option<Arc<Shelf>>);

impl PoolOwner {
    pub(crate) fn new() -> PoolOwner {
        PoolOwner(Some(Arc::new(Mutex::new(HashMap::new()))))
    }

    pub(crate) fn pool(&self) -> Pool {
        Pool(self.0.as_ref().map(Arc::downgrade))
    }
}

impl Drop for PoolOwner {
    fn drop(&mut self) {
        let Some(shelf) = self.0.take() else { return };
        let idle: Vec<Idle> = match shelf.lock() {
            Ok(mut map) => map.drain().flat_map(|(_, v)| v).collect(),
            Err(_) => return,
        };
        stop_all(idle.into_iter().map(|i| i.process).collect());
    }
}

/// Stops processes together: each gets its farewell and a closed input at once, then the
/// grace period runs for all of them at the same time.
fn stop_all(processes: Vec<Process>) {
    let handles: Vec<_> = processes
        .into_iter()
        .map(|mut process| {
            std::thread::spawn(move || {
                let farewell = if process.role == crate::gomocup::ROLE {
                    "END"
                } else {
                    "quit"
                };
                process.stop(Some(farewell));
            })
        })
        .collect();
    for handle in handles {
        let _ = handle.join();
    }
}

impl Pool {
    /// A pool that keeps nothing: every process stops at the end of its game.
    pub fn none() -> Pool {
        Pool(None)
    }

    /// An idle process for `key`, if one waits.
    pub fn take(&self, key: &str) -> Option<Idle> {
        let shelf = self.0.as_ref()?.upgrade()?;
        let mut map = shelf.lock().ok()?;
        map.get_mut(key)?.pop()
    }

    /// Puts a process back for the next game, or stops it (with `farewell`) when no pool
    /// keeps it or it has used half its sandbox's CPU time ([`Process::worn`]: the next game
    /// gets a new process).
    pub fn put(&self, key: &str, mut idle: Idle, farewell: &str) {
        if !idle.process.worn()
            && let Some(shelf) = self.0.as_ref().and_then(Weak::upgrade)
            && let Ok(mut map) = shelf.lock()
        {
            map.entry(key.to_string()).or_default().push(idle);
            return;
        }
        idle.process.stop(Some(farewell));
    }
}

/// The RNG's full state as `SEEDHEX:STREAM:WORD`: a private key, sent only to agents that ask.
pub fn rng_state(rng: &AgentRng) -> String {
    let seed: String = rng.get_seed().iter().map(|b| format!("{b:02x}")).collect();
    format!("{seed}:{}:{}", rng.get_stream(), rng.get_word_pos())
}

/// Reads [`rng_state`] back.
pub fn parse_rng_state(text: &str) -> Option<AgentRng> {
    let mut parts = text.trim().split(':');
    let hex = parts.next()?;
    let stream: u64 = parts.next()?.parse().ok()?;
    let word: u128 = parts.next()?.parse().ok()?;
    if hex.len() != 64 || !hex.is_ascii() || parts.next().is_some() {
        return None;
    }
    let mut seed = [0u8; 32];
    for (i, byte) in seed.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    let mut rng = AgentRng::from_seed(seed);
    rng.set_stream(stream);
    rng.set_word_pos(word);
    Some(rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn the_rng_state_round_trips() {
        let mut rng = AgentRng::seed_from_u64(9);
        rng.set_stream(2);
        let _ = rng.next_u64();
        let mut back = parse_rng_state(&rng_state(&rng)).unwrap();
        assert_eq!(back.next_u64(), rng.next_u64());
        for bad in ["", "x:1:2", &format!("{}:1", "0".repeat(64)), "é:1:1"] {
            assert!(parse_rng_state(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn arguments_split_on_spaces_outside_quotes() {
        assert_eq!(
            split_args("agent.py --name 'my agent' -x"),
            ["agent.py", "--name", "my agent", "-x"]
        );
        assert!(split_args("  ").is_empty());
    }

    #[test]
    fn a_process_that_used_half_its_cpu_time_is_not_kept_for_another_game() {
        use crate::child::{Process, Stderr};
        use crate::sandbox::{Layer, Limits, Mode, Sandbox};
        let sandbox = Sandbox {
            limits: Limits {
                cpu_s: 2,
                ..Limits::default()
            },
            // The limits only: the script reads its own CPU time in /proc.
            disabled: vec![
                Layer::Files,
                Layer::Network,
                Layer::NetNamespace,
                Layer::Seccomp,
            ],
            ..Sandbox::new(Mode::BestEffort)
        };
        if sandbox.disabled(Layer::Limits) {
            return;
        }
        let owner = PoolOwner::new();
        let pool = owner.pool();
        // One spins until it has used a second of CPU time (half its 2 s), then waits; the
        // other only waits.
        let spin = "t=$(getconf CLK_TCK); while :; do i=0; while [ $i -lt 20000 ]; \
                    do i=$((i+1)); done; set -- $(cat /proc/$$/stat); \
                    [ $(( ${14} + ${15} )) -gt $t ] && break; done; echo spent; read x";
        for (script, kept) in [(spin, false), ("echo idle; read x", true)] {
            let args = ["-c".to_string(), script.to_string()];
            let mut process =
                Process::start_in("sh", &args, &Stderr::Discard, "x", None, &sandbox).unwrap();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
            assert!(matches!(
                process.receive(deadline),
                crate::child::Received::Line(_)
            ));
            let pid = process.id();
            let idle = Idle {
                process,
                board: None,
                features: Vec::new(),
            };
            pool.put("key", idle, "quit");
            let back = pool.take("key");
            assert_eq!(back.is_some(), kept, "{script}");
            if !kept {
                // Stopped, not left running.
                assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
            }
        }
    }
}
