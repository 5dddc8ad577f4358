//! The sandbox of outside agents (`docs/src/guide/sandbox.md`): what a submitted program may
//! read, write, reach and take, applied in the child between `fork` and `exec`.
//!
//! Layers, each one independent of the others (any can be missing or turned off, and the rest
//! still hold):
//! - **Landlock, files** ([`Layer::Files`]): the system's libraries and the program's
//!   interpreter read-only, its own folder and a private temporary folder read-write, nothing
//!   else (a Landlock domain also keeps it from `ptrace`-ing or signalling anything outside);
//! - **Landlock, network** ([`Layer::Network`]): no TCP bind or connect (Landlock ABI 4 and
//!   later); where it is missing or turned off, a new network namespace instead
//!   ([`Layer::NetNamespace`], where unprivileged user namespaces work);
//! - **seccomp** ([`Layer::Seccomp`]): a filter that kills the process at a system call no game
//!   agent needs (`ptrace`, `mount`, `bpf`, kernel modules, `kexec`, ...), and refuses
//!   `socket()` of every domain (UDP, UNIX, raw: what Landlock's TCP rules leave open), written
//!   as raw BPF;
//! - **rlimits** ([`Layer::Limits`]): memory (address space), CPU time, file size, open files,
//!   processes, no core dumps; and no new privileges (set with the first two layers).
//!
//! Everything that allocates (the Landlock ruleset, the filter, the paths) is built before the
//! fork; the code run between fork and exec ([`Prepared::apply`]) makes system calls only.
//! Control groups are not used: see the guide for why.

use std::fmt;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// How much of the sandbox a run asks for (`sandbox = ...` in an experiment, `--sandbox`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Outside agents run with the arena's rights.
    Off,
    /// Every layer this kernel gives; what is missing is said, and the run goes on.
    #[default]
    BestEffort,
    /// Every layer, or the run does not start (naming what is missing).
    Required,
}

impl Mode {
    /// The names, as written in experiments and on the command line.
    pub const NAMES: &'static str = "off, best-effort, required";

    /// Reads `off`, `best-effort` or `required`.
    pub fn parse(text: &str) -> Option<Mode> {
        Some(match text.trim() {
            "off" => Mode::Off,
            "best-effort" => Mode::BestEffort,
            "required" => Mode::Required,
            _ => return None,
        })
    }

    /// The mode of an index (0 off, 1 best-effort, 2 required), as const generics carry it.
    pub const fn from_index(index: u8) -> Mode {
        match index {
            0 => Mode::Off,
            1 => Mode::BestEffort,
            _ => Mode::Required,
        }
    }

    /// [`Mode::from_index`]'s index.
    pub const fn index(self) -> u8 {
        match self {
            Mode::Off => 0,
            Mode::BestEffort => 1,
            Mode::Required => 2,
        }
    }

    /// Reads a mode for a command-line option: the error lists the modes.
    pub fn parse_option(text: &str) -> Result<Mode, String> {
        Mode::parse(text).ok_or_else(|| {
            format!(
                "`{text}` is not a sandbox mode: give one of {}",
                Mode::NAMES
            )
        })
    }

    /// The name.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Off => "off",
            Mode::BestEffort => "best-effort",
            Mode::Required => "required",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One layer of the sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Landlock's file-system rules.
    Files,
    /// Landlock's TCP rules (ABI 4).
    Network,
    /// A network namespace of its own, in a new user namespace (the network's fallback).
    NetNamespace,
    /// The seccomp filter.
    Seccomp,
    /// The resource limits.
    Limits,
}

impl Layer {
    /// Every layer.
    pub const ALL: [Layer; 5] = [
        Layer::Files,
        Layer::Network,
        Layer::NetNamespace,
        Layer::Seccomp,
        Layer::Limits,
    ];

    /// The name, as `ARENA_SANDBOX_DISABLE` and `arena sandbox` write it.
    pub fn name(self) -> &'static str {
        match self {
            Layer::Files => "landlock-fs",
            Layer::Network => "landlock-net",
            Layer::NetNamespace => "netns",
            Layer::Seccomp => "seccomp",
            Layer::Limits => "rlimits",
        }
    }

    /// Reads a name.
    pub fn parse(text: &str) -> Option<Layer> {
        Layer::ALL.into_iter().find(|l| l.name() == text.trim())
    }
}

/// The environment variable that turns layers off, comma-separated (for tests and for a kernel
/// where one misbehaves): `ARENA_SANDBOX_DISABLE=seccomp,landlock-net`.
pub const DISABLE_VAR: &str = "ARENA_SANDBOX_DISABLE";

/// The limits of each sandboxed process, with their defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Address space, MiB (`RLIMIT_AS`).
    pub memory_mb: u64,
    /// CPU time of the whole process, seconds (`RLIMIT_CPU`): a process kept between games
    /// counts all of them.
    pub cpu_s: u64,
    /// The largest file it may write, MiB (`RLIMIT_FSIZE`).
    pub file_mb: u64,
    /// Open files (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// Processes and threads it may start beyond those running (`RLIMIT_NPROC`, see
    /// [`Limits::nproc`]).
    pub processes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_mb: 1024,
            cpu_s: 3600,
            file_mb: 64,
            open_files: 256,
            processes: 64,
        }
    }
}

impl Limits {
    /// The keys as experiments write them, with their defaults and ranges.
    pub const KEYS: [(&'static str, u64, u64, u64); 5] = [
        ("sandbox_memory_mb", 1024, 16, 1 << 20),
        ("sandbox_cpu_s", 3600, 1, 1 << 30),
        ("sandbox_file_mb", 64, 1, 1 << 20),
        ("sandbox_open_files", 256, 16, 1 << 20),
        ("sandbox_processes", 64, 1, 1 << 20),
    ];

    /// `RLIMIT_NPROC` counts every process and thread of the user, not the agent's alone: the
    /// limit is the tasks the whole system runs now (from `/proc/loadavg`) plus
    /// [`Limits::processes`], so a fork bomb stops there and an agent never fails to start a
    /// thread for what others run. (The kernel does not apply it to root.)
    fn nproc(&self) -> u64 {
        let running = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|text| {
                let field = text.split_whitespace().nth(3)?;
                field.split_once('/')?.1.parse::<u64>().ok()
            })
            .unwrap_or(4096);
        running + self.processes
    }
}

/// The sandbox a run applies to its outside agents.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Sandbox {
    /// How much of it.
    pub mode: Mode,
    /// The limits.
    pub limits: Limits,
    /// More paths each agent may read (`sandbox_read`): data files, a toolchain elsewhere.
    pub read: Vec<PathBuf>,
    /// Layers turned off (besides [`DISABLE_VAR`]).
    pub disabled: Vec<Layer>,
    /// Whether a game's process runs from a private copy of its own folder: set for an agent
    /// with a folder of its own (`dir=`, a class's submission); an agent named by a path
    /// runs where it is (its folder read-write), since it may read files beside its folder
    /// relative to itself (a library one folder up, by `sandbox_read`). Set by the launch
    /// from its spec, never by an experiment.
    pub copy_folder: bool,
}

/// What this kernel gives, found once per process ([`Support::probe`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Support {
    /// Landlock's ABI version (0: none).
    pub landlock_abi: i64,
    /// Whether a process may make a user namespace with a network namespace of its own.
    pub userns: bool,
    /// Whether seccomp filters are available.
    pub seccomp: bool,
    /// Whether the filter knows this architecture's system call numbers.
    pub seccomp_arch: bool,
    /// Where each sandboxed process gets a cgroup of its own with a process limit, if this
    /// process may make one ([`PidsCgroup`]).
    pub cgroup: Option<PidsCgroup>,
    /// Whether this process runs as root (rlimits on processes do not hold for root).
    pub root: bool,
}

impl Support {
    /// What this kernel gives (probed once, then remembered).
    pub fn probe() -> &'static Support {
        static SUPPORT: OnceLock<Support> = OnceLock::new();
        SUPPORT.get_or_init(|| Support {
            landlock_abi: sys::landlock_abi(),
            userns: sys::userns_works(),
            seccomp: sys::seccomp_available(),
            seccomp_arch: sys::AUDIT_ARCH.is_some(),
            cgroup: PidsCgroup::find(),
            root: rustix::process::getuid().is_root(),
        })
    }

    /// Whether `layer` is there on this kernel.
    pub fn has(&self, layer: Layer) -> bool {
        match layer {
            Layer::Files => self.landlock_abi >= 1,
            Layer::Network => self.landlock_abi >= 4,
            Layer::NetNamespace => self.userns,
            Layer::Seccomp => self.seccomp && self.seccomp_arch,
            Layer::Limits => true,
        }
    }

    /// The lines `arena sandbox` prints: each layer, there or not, and why.
    pub fn describe(&self) -> Vec<(String, bool, String)> {
        let abi = self.landlock_abi;
        vec![
            (
                "landlock-fs".into(),
                self.has(Layer::Files),
                if abi >= 6 {
                    format!(
                        "Landlock ABI {abi}: files read-only outside the agent's folder and temp; \
                         no abstract UNIX sockets or signals outside"
                    )
                } else if abi >= 1 {
                    format!(
                        "Landlock ABI {abi}: files read-only outside the agent's folder and temp"
                    )
                } else {
                    "no Landlock in this kernel (5.13 or later, with `landlock` in the LSM list)"
                        .into()
                },
            ),
            (
                "landlock-net".into(),
                self.has(Layer::Network),
                if abi >= 4 {
                    format!("Landlock ABI {abi}: TCP bind and connect denied")
                } else {
                    format!("Landlock ABI {abi}: no network rules (ABI 4, Linux 6.7)")
                },
            ),
            (
                "netns".into(),
                self.userns,
                if self.userns {
                    "unprivileged user namespaces work: a network namespace where landlock-net is missing"
                        .into()
                } else {
                    "no unprivileged user namespaces".into()
                },
            ),
            (
                "seccomp".into(),
                self.has(Layer::Seccomp),
                if !self.seccomp {
                    "no seccomp filters in this kernel".into()
                } else if !self.seccomp_arch {
                    "the filter does not know this architecture".into()
                } else {
                    format!(
                        "filter against {} system calls; socket() refused (no UDP, no UNIX sockets)",
                        sys::forbidden_names().len()
                    )
                },
            ),
            (
                "rlimits".into(),
                true,
                if self.root && self.cgroup.is_some() {
                    "memory, CPU, file size, open files, no core dumps; running as root, the \
                     process limit is the cgroup's"
                        .into()
                } else if self.root {
                    "memory, CPU, file size, open files, no core dumps; running as root: the \
                     process limit does not hold (run as a normal user, or where a pids cgroup \
                     can be made)"
                        .into()
                } else {
                    "memory, CPU, file size, open files, processes, no core dumps".into()
                },
            ),
            (
                "cgroup".into(),
                self.cgroup.is_some(),
                match &self.cgroup {
                    Some(base) => format!(
                        "a cgroup of each process under {} (cgroup v{}): its processes and \
                         threads limited (sandbox_processes), root's too; what is left in it \
                         killed with it",
                        base.dir.display(),
                        base.version
                    ),
                    None => "no pids cgroup this user may make (a delegated cgroup v2 with the \
                             pids controller, or root with a cgroup v1 pids hierarchy): the \
                             rlimits stand for it"
                        .into(),
                },
            ),
        ]
    }
}

/// Where sandboxed processes get cgroups of their own with a process limit (`pids.max`): this
/// process's cgroup v2 folder where it is delegated (writable, the `pids` controller given to
/// its children), else its folder of a cgroup v1 `pids` hierarchy where it may write it (root).
/// An addition where it exists, never required: the rlimits hold the rest (`RLIMIT_NPROC`,
/// which the kernel does not apply to root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PidsCgroup {
    /// The folder the per-process cgroups are made in.
    pub dir: PathBuf,
    /// 1 or 2.
    pub version: u8,
}

impl PidsCgroup {
    /// Finds one from `/proc/self/cgroup` and `/proc/self/mountinfo`, or `None`.
    fn find() -> Option<PidsCgroup> {
        let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
        let found = PidsCgroup::candidates(&own, &mounts);
        found.into_iter().find(|base| {
            let control = if base.version == 2 {
                std::fs::read_to_string(base.dir.join("cgroup.subtree_control"))
                    .is_ok_and(|text| text.split_whitespace().any(|c| c == "pids"))
            } else {
                true
            };
            control
                && std::fs::OpenOptions::new()
                    .append(true)
                    .open(base.dir.join("cgroup.procs"))
                    .is_ok()
        })
    }

    /// The folders `own` (a `/proc/self/cgroup`) and `mounts` (a `/proc/self/mountinfo`)
    /// name: a cgroup2 mount's folder first, then a cgroup v1 `pids` one's.
    fn candidates(own: &str, mounts: &str) -> Vec<PidsCgroup> {
        let mut found = Vec::new();
        for line in mounts.lines() {
            // ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [TAGS] - TYPE SOURCE SUPER-OPTIONS
            let Some((left, right)) = line.split_once(" - ") else {
                continue;
            };
            let fields: Vec<&str> = left.split(' ').collect();
            let (Some(root), Some(point)) = (fields.get(3), fields.get(4)) else {
                continue;
            };
            let mut right = right.split(' ');
            let kind = right.next().unwrap_or_default();
            let options = right.nth(1).unwrap_or_default();
            let (version, path) = match kind {
                "cgroup2" => (2, own.lines().find_map(|l| l.strip_prefix("0::"))),
                "cgroup" if options.split(',').any(|o| o == "pids") => (
                    1,
                    own.lines().find_map(|l| {
                        let (controllers, path) = l.split_once(':')?.1.split_once(':')?;
                        controllers.split(',').any(|c| c == "pids").then_some(path)
                    }),
                ),
                _ => continue,
            };
            let Some(path) = path else {
                continue;
            };
            // The mount shows the hierarchy from `root`; the path is from the hierarchy's top.
            let Some(rest) = Path::new(path).strip_prefix(root).ok() else {
                continue;
            };
            // Octal escapes (`\040` for a space) in a mount point: not ours to guess.
            if point.contains('\\') {
                continue;
            }
            let mut dir = PathBuf::from(point);
            if !rest.as_os_str().is_empty() {
                dir.push(rest);
            }
            found.push(PidsCgroup { dir, version });
        }
        found.sort_by_key(|base| std::cmp::Reverse(base.version));
        found
    }

    /// A cgroup of its own for one process, limited to `max` processes and threads, named
    /// `name` (its private folder's: [`sweep`] finds it by that name).
    fn make(&self, max: u64, name: &std::ffi::OsStr) -> std::io::Result<Cgroup> {
        let dir = self.dir.join(name);
        std::fs::create_dir(&dir)?;
        // Removed again if what follows fails.
        let mut cgroup = Cgroup { procs: None, dir };
        std::fs::write(cgroup.dir.join("pids.max"), max.to_string())?;
        cgroup.procs = Some(
            std::fs::OpenOptions::new()
                .write(true)
                .open(cgroup.dir.join("cgroup.procs"))?,
        );
        Ok(cgroup)
    }
}

/// One process's cgroup: the child writes itself into `cgroup.procs` before it runs the
/// program; dropped, whatever is left in it is killed and the folder removed.
struct Cgroup {
    procs: Option<std::fs::File>,
    dir: PathBuf,
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        self.procs = None;
        // Its processes die with their group; one that left it is killed here. A cgroup is
        // removed once empty: a few tries while the last ones exit.
        for _ in 0..50 {
            if std::fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            let members =
                std::fs::read_to_string(self.dir.join("cgroup.procs")).unwrap_or_default();
            for pid in members.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }
}

/// Whether `cgroup` is among the names of [`DISABLE_VAR`].
fn cgroup_disabled() -> bool {
    std::env::var(DISABLE_VAR).is_ok_and(|text| text.split(',').any(|n| n.trim() == "cgroup"))
}

/// Why a run cannot have the sandbox it asks for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "sandbox = \"required\", but this kernel lacks {missing} (see `arena sandbox`; \
     sandbox = \"best-effort\" runs without it)"
)]
pub struct Missing {
    /// The layers missing, in words.
    pub missing: String,
}

impl Sandbox {
    /// A sandbox of `mode` with the default limits.
    pub fn new(mode: Mode) -> Sandbox {
        Sandbox {
            mode,
            ..Sandbox::default()
        }
    }

    /// No sandbox.
    pub fn off() -> Sandbox {
        Sandbox::new(Mode::Off)
    }

    /// Whether `layer` is turned off, here or by [`DISABLE_VAR`].
    pub fn disabled(&self, layer: Layer) -> bool {
        self.disabled.contains(&layer)
            || std::env::var(DISABLE_VAR).is_ok_and(|text| {
                text.split(',')
                    .any(|name| Layer::parse(name) == Some(layer))
            })
    }

    fn uses(&self, support: &Support, layer: Layer) -> bool {
        self.mode != Mode::Off && support.has(layer) && !self.disabled(layer)
    }

    /// Whether the network is closed: by Landlock, or else by a namespace.
    fn network_by(&self, support: &Support) -> Option<Layer> {
        if self.uses(support, Layer::Network) {
            Some(Layer::Network)
        } else if self.uses(support, Layer::NetNamespace) {
            Some(Layer::NetNamespace)
        } else {
            None
        }
    }

    /// What of the sandbox will not hold on this kernel (empty when off: nothing is asked).
    pub fn missing(&self, support: &Support) -> Vec<String> {
        if self.mode == Mode::Off {
            return Vec::new();
        }
        let mut missing = Vec::new();
        let why = |layer: Layer| {
            if support.has(layer) {
                "turned off"
            } else {
                "not in this kernel"
            }
        };
        if !self.uses(support, Layer::Files) {
            missing.push(format!(
                "the file-system rules (landlock-fs: {})",
                why(Layer::Files)
            ));
        }
        if self.network_by(support).is_none() {
            missing.push(format!(
                "the network rules (landlock-net: {}; netns: {})",
                why(Layer::Network),
                why(Layer::NetNamespace)
            ));
        }
        if !self.uses(support, Layer::Seccomp) {
            missing.push(format!(
                "the system-call filter (seccomp: {})",
                why(Layer::Seccomp)
            ));
        }
        if !self.uses(support, Layer::Limits) {
            missing.push("the resource limits (rlimits: turned off)".into());
        }
        missing
    }

    /// Checks the mode against this kernel: `required` fails naming what is missing; otherwise
    /// the missing layers, for the run to say.
    pub fn check(&self) -> Result<Vec<String>, Missing> {
        let missing = self.missing(Support::probe());
        if self.mode == Mode::Required && !missing.is_empty() {
            return Err(Missing {
                missing: missing.join(", "),
            });
        }
        Ok(missing)
    }

    /// Builds what the child applies for a process running `program` (its command and
    /// arguments, resolved from `folder`, its working folder). `None` when off. With
    /// [`Sandbox::copy_folder`] (a submission's game process, never a build) the program's own
    /// folder is copied into its private folder and runs from there ([`Prepared::relocate`]):
    /// the folder itself is read-only to it.
    pub fn prepare(
        &self,
        command: &str,
        args: &[String],
        folder: Option<&Path>,
    ) -> Result<Option<Prepared>, String> {
        let scratch = self.copy_folder;
        if self.mode == Mode::Off {
            return Ok(None);
        }
        let support = Support::probe();
        if let Err(missing) = self.check() {
            return Err(missing.to_string());
        }
        sweep(support.cgroup.as_ref().map(|c| c.dir.as_path()));
        let (root, owner) =
            private_dir().map_err(|e| format!("cannot make its private folder: {e}"))?;
        let temp = root.join("tmp");
        let own = own_folder(command, args, folder);
        let copy = if scratch {
            let copy = root.join("work");
            scratch_copy(&own, &copy).map(|()| copy)
        } else {
            None
        };
        // Dropped on an error below: the private folder goes with it.
        let mut prepared = Prepared {
            landlock: None,
            cgroup: None,
            filter: None,
            limits: None,
            netns: false,
            root,
            _owner: owner,
            temp,
            own,
            copy,
            memory_mb: self.limits.memory_mb,
            cpu_s: self.limits.cpu_s,
            file_mb: self.limits.file_mb,
        };
        std::fs::create_dir(&prepared.temp)
            .map_err(|e| format!("cannot make its temporary folder: {e}"))?;
        let mut read = system_paths();
        read.extend(interpreter_paths(command, args, folder));
        read.extend(self.read.iter().cloned());
        // Shells write to /dev/null (`>/dev/null`): a sink, it gives nothing away.
        let mut write = vec![prepared.temp.clone(), PathBuf::from("/dev/null")];
        match &prepared.copy {
            // Its source read-only, its copy read-write.
            Some(copy) => {
                read.push(prepared.own.clone());
                write.push(copy.clone());
            }
            // A build writes its folder; a folder too big to copy is read-only.
            None if !scratch => write.push(prepared.own.clone()),
            None => read.push(prepared.own.clone()),
        }
        prepared.landlock = if self.uses(support, Layer::Files) {
            Some(
                landlock_rules(
                    &read,
                    &write,
                    self.network_by(support) == Some(Layer::Network),
                )
                .map_err(|e| format!("cannot build its Landlock rules: {e}"))?,
            )
        } else if self.network_by(support) == Some(Layer::Network) {
            Some(
                landlock_rules(&[], &[], true)
                    .map_err(|e| format!("cannot build its Landlock rules: {e}"))?,
            )
        } else {
            None
        };
        let limits = self.uses(support, Layer::Limits).then(|| {
            let l = self.limits;
            // Read once: two readings of a changing task count could put soft above hard.
            let nproc = l.nproc();
            let mb = |m: u64| m.saturating_mul(1 << 20);
            [
                (sys::Limit::As, mb(l.memory_mb), mb(l.memory_mb)),
                // The soft limit sends SIGXCPU (the verdict), the hard one kills a second later.
                (sys::Limit::Cpu, l.cpu_s, l.cpu_s + 1),
                (sys::Limit::Fsize, mb(l.file_mb), mb(l.file_mb)),
                (sys::Limit::Nofile, l.open_files, l.open_files),
                (sys::Limit::Nproc, nproc, nproc),
                (sys::Limit::Core, 0, 0),
            ]
        });
        prepared.filter = self.uses(support, Layer::Seccomp).then(sys::filter);
        // A cgroup where one can be made: the process limit for root too, and a net for what
        // leaves the process group. Best effort: without it the rlimits stand.
        if limits.is_some() && !cgroup_disabled() {
            prepared.cgroup = support.cgroup.as_ref().and_then(|base| {
                let name = prepared.root.file_name()?;
                base.make(self.limits.processes + 1, name).ok()
            });
        }
        prepared.limits = limits;
        prepared.netns = self.network_by(support) == Some(Layer::NetNamespace);
        Ok(Some(prepared))
    }
}

/// What one child applies between fork and exec, built before the fork.
pub struct Prepared {
    landlock: Option<OwnedFd>,
    /// Its cgroup (dropped before its private folder is removed: what is left in it killed).
    cgroup: Option<Cgroup>,
    filter: Option<Arc<Vec<sys::SockFilter>>>,
    limits: Option<[(sys::Limit, u64, u64); 6]>,
    netns: bool,
    /// Its private folder, unpredictably named (removed when it stops): `tmp/` and `work/`.
    root: PathBuf,
    /// The private folder, locked while this process lives (see [`sweep`]).
    _owner: std::fs::File,
    /// Its temporary folder, in the private one.
    pub temp: PathBuf,
    /// Its own folder (read-write to a build; read-only to a game's process that has a copy).
    pub own: PathBuf,
    /// The copy of its own folder it runs in, read-write (`None`: a build, or too big).
    pub copy: Option<PathBuf>,
    memory_mb: u64,
    cpu_s: u64,
    file_mb: u64,
}

impl Prepared {
    /// The CPU time (seconds) its process may use, all its games together, where the limits
    /// apply.
    pub fn cpu_limit_s(&self) -> Option<u64> {
        self.limits.is_some().then_some(self.cpu_s)
    }

    /// Sets the child's environment and the hook that applies the layers after the fork.
    pub fn install(self: &Arc<Self>, command: &mut std::process::Command) {
        command
            .env("TMPDIR", &self.temp)
            .env("TMP", &self.temp)
            .env("TEMP", &self.temp);
        // glibc's arenas reserve 64 MiB of address space per thread: two keep a threaded
        // program inside the memory limit that its heap alone would fit.
        if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
            command.env("MALLOC_ARENA_MAX", "2");
        }
        sys::install(command, Arc::clone(self));
    }

    /// The verdict of a process of this sandbox that ended with `status`, with what its log
    /// says it tried; `stderr_tail` (its last line of stderr) tells a refused allocation.
    pub fn verdict(
        &self,
        status: &std::process::ExitStatus,
        stderr_tail: Option<&str>,
    ) -> Option<(Verdict, String)> {
        use std::os::unix::process::ExitStatusExt as _;
        let signal = status.signal();
        if signal == Some(sys::SIGSYS) && self.filter.is_some() {
            return Some((
                Verdict::ForbiddenCall,
                format!(
                    "it made a system call the sandbox forbids (killed by SIGSYS); the calls \
                     forbidden: {}",
                    sys::forbidden_names().join(", ")
                ),
            ));
        }
        if self.limits.is_some() {
            // The soft limit's SIGXCPU ends a program that does not catch it; one that does
            // is killed at the hard limit, a SIGKILL like ours, and is a crash.
            if signal == Some(sys::SIGXCPU) {
                return Some((
                    Verdict::CpuLimit,
                    format!("it used its {} s of CPU time (sandbox_cpu_s)", self.cpu_s),
                ));
            }
            // Killed by SIGXFSZ; or, where the program ignores it (Python does), failed on the
            // write's EFBIG.
            if signal == Some(sys::SIGXFSZ)
                || (!status.success()
                    && stderr_tail
                        .is_some_and(|l| l.to_ascii_lowercase().contains("file too large")))
            {
                return Some((
                    Verdict::OutputLimit,
                    format!(
                        "it wrote a file past {} MiB (sandbox_file_mb)",
                        self.file_mb
                    ),
                ));
            }
            if !status.success() && stderr_tail.is_some_and(is_allocation_failure) {
                return Some((
                    Verdict::MemoryLimit,
                    format!(
                        "an allocation was refused at its {} MiB of address space \
                         (sandbox_memory_mb); its last stderr line: `{}`",
                        self.memory_mb,
                        stderr_tail.unwrap_or_default()
                    ),
                ));
            }
        }
        None
    }
}

impl Prepared {
    /// `path` (a command, an argument or a working folder, relative to `folder`) moved into
    /// the copy of its own folder when it names something there; `None` otherwise.
    pub fn relocate(&self, path: &str, folder: Option<&Path>) -> Option<PathBuf> {
        let copy = self.copy.as_ref()?;
        let path = Path::new(path);
        let path = match folder {
            Some(folder) if path.is_relative() => folder.join(path),
            _ => path.to_path_buf(),
        };
        let path = std::path::absolute(&path).ok()?;
        // Only what is there: a word that merely looks like a path stays as written.
        std::fs::symlink_metadata(&path).ok()?;
        let rest = path.strip_prefix(&self.own).ok()?;
        Some(copy.join(rest))
    }
}

impl Drop for Prepared {
    fn drop(&mut self) {
        self.cgroup = None;
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A limit a game was lost to, as the CSV's fault column and the report name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `sandbox_memory_mb`.
    MemoryLimit,
    /// `sandbox_cpu_s`.
    CpuLimit,
    /// The seccomp filter.
    ForbiddenCall,
    /// `sandbox_file_mb`, or a line past the protocol's longest.
    OutputLimit,
}

impl Verdict {
    /// Every verdict.
    pub const ALL: [Verdict; 4] = [
        Verdict::MemoryLimit,
        Verdict::CpuLimit,
        Verdict::ForbiddenCall,
        Verdict::OutputLimit,
    ];

    /// The verdict a fault message starts with (`memory limit: ...`), and the rest.
    pub fn split(message: &str) -> Option<(Verdict, &str)> {
        Verdict::ALL.into_iter().find_map(|v| {
            let rest = message.strip_prefix(v.as_str())?.strip_prefix(':')?;
            Some((v, rest.trim_start()))
        })
    }

    /// The words the fault starts with.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::MemoryLimit => "memory limit",
            Verdict::CpuLimit => "CPU limit",
            Verdict::ForbiddenCall => "forbidden call",
            Verdict::OutputLimit => "output limit",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a program's last words are those of an allocation refused: Python's `MemoryError`,
/// C++'s `std::bad_alloc`, Rust's `memory allocation of N bytes failed`, C's `perror` of
/// `ENOMEM`, Go's and Java's out-of-memory messages.
fn is_allocation_failure(line: &str) -> bool {
    let line = line.to_ascii_lowercase();
    [
        "memoryerror",
        "bad_alloc",
        "memory allocation of",
        "cannot allocate memory",
        "out of memory",
        "outofmemoryerror",
    ]
    .iter()
    .any(|word| line.contains(word))
}

/// The start of the names of private folders and of cgroups: [`PRIVATE_PREFIX`] and 16 hex
/// digits.
const PRIVATE_PREFIX: &str = "arena-box-";

/// A private folder under the system's temporary one, as `mkdtemp` makes them: named with 64
/// random bits (`arena-box-` and 16 hex digits), mode 0700, and made new (a name that exists,
/// even a link someone planted, is never used: another name is drawn). With it, the folder
/// open and locked (`flock`) for as long as its owner lives: a folder whose lock is free was
/// left by an arena that was killed ([`sweep`]).
fn private_dir() -> std::io::Result<(PathBuf, std::fs::File)> {
    use std::os::unix::fs::DirBuilderExt as _;
    let base = std::env::temp_dir();
    for _ in 0..16 {
        let dir = base.join(format!("{PRIVATE_PREFIX}{:016x}", rand::random::<u64>()));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => {
                let owner = std::fs::File::open(&dir).and_then(|f| f.lock().map(|()| f));
                return match owner {
                    Ok(owner) => Ok((dir, owner)),
                    Err(e) => {
                        let _ = std::fs::remove_dir(&dir);
                        Err(std::io::Error::other(format!(
                            "cannot lock its private folder: {e}"
                        )))
                    }
                };
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!("16 random names under {} were taken", base.display()),
    ))
}

/// How old a private folder must be before [`sweep`] looks at its lock: one just made is
/// locked a moment after it exists.
const SWEEP_AGE: std::time::Duration = std::time::Duration::from_secs(60);

/// Removes what sandboxed processes of a killed arena left (once per process, before its first
/// sandboxed process): each private folder under the system's temporary folder whose lock no
/// process holds, older than a minute, with its copy, and the cgroup of the same name under
/// `cgroups` (what is still in it killed). A `kill -9` of the arena gives it no chance to
/// remove them itself; folders of another user's arena cannot be opened and are left.
fn sweep(cgroups: Option<&Path>) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| sweep_in(&std::env::temp_dir(), cgroups, SWEEP_AGE));
}

fn sweep_in(base: &Path, cgroups: Option<&Path>, age: std::time::Duration) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(hex) = name.strip_prefix(PRIVATE_PREFIX) else {
            continue;
        };
        if hex.len() != 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        // A plain folder of ours, old enough to have been locked if its owner lives.
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|elapsed| elapsed >= age);
        if !meta.is_dir() || !old {
            continue;
        }
        let Ok(folder) = std::fs::File::open(entry.path()) else {
            continue;
        };
        if folder.try_lock().is_err() {
            continue;
        }
        if let Some(cgroups) = cgroups {
            let dir = cgroups.join(name);
            if dir.is_dir() {
                drop(Cgroup { procs: None, dir });
            }
        }
        let _ = std::fs::remove_dir_all(entry.path());
    }
}

/// The most a submission's folder may hold to be copied for each process: bigger ones (a
/// toolchain, the arena's own `target/`) are read-only to the program instead. Copying 32 MiB
/// took 21-40 ms here (`cp -r`), past the 20 ms a game's start-up may grow by; 8 MiB keeps
/// within it.
const COPY_MAX_BYTES: u64 = 8 << 20;
/// The most files and folders it may hold to be copied.
const COPY_MAX_ENTRIES: usize = 1000;

/// Copies the folder `from` into `to` (which does not exist yet): folders, files with their
/// permissions, links as links (one that points outside stays unreadable). `None` when `from`
/// holds more than [`COPY_MAX_BYTES`] or [`COPY_MAX_ENTRIES`] (counted first, stopping at the
/// bound) or when it cannot be read; `to` is then removed.
fn scratch_copy(from: &Path, to: &Path) -> Option<()> {
    let mut entries = Vec::new();
    let mut bytes = 0u64;
    let mut pending = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        for entry in std::fs::read_dir(from.join(&rel)).ok()? {
            let entry = entry.ok()?;
            let kind = entry.file_type().ok()?;
            let rel = rel.join(entry.file_name());
            if kind.is_dir() {
                pending.push(rel.clone());
            } else if kind.is_file() {
                bytes += entry.metadata().ok()?.len();
            }
            entries.push((rel, kind));
            if entries.len() > COPY_MAX_ENTRIES || bytes > COPY_MAX_BYTES {
                return None;
            }
        }
    }
    let copied = (|| -> std::io::Result<()> {
        std::fs::create_dir(to)?;
        for (rel, kind) in &entries {
            let (source, target) = (from.join(rel), to.join(rel));
            if kind.is_dir() {
                std::fs::create_dir(&target)?;
            } else if kind.is_symlink() {
                std::os::unix::fs::symlink(std::fs::read_link(&source)?, &target)?;
            } else if kind.is_file() {
                std::fs::copy(&source, &target)?;
            }
        }
        Ok(())
    })();
    if copied.is_err() {
        let _ = std::fs::remove_dir_all(to);
    }
    copied.ok()
}

/// The system's read-only paths: libraries, programs, the dynamic loader's files, devices that
/// give nothing away, `/proc` (Landlock keeps other processes' memory and environment from it).
fn system_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = [
        "/usr",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/bin",
        "/sbin",
        "/opt",
        "/etc/ld.so.cache",
        "/etc/ld.so.conf",
        "/etc/ld.so.conf.d",
        "/etc/ld.so.preload",
        "/etc/localtime",
        "/etc/alternatives",
        "/etc/nsswitch.conf",
        "/etc/passwd",
        "/etc/group",
        "/etc/locale.alias",
        "/dev/null",
        "/dev/zero",
        "/dev/urandom",
        "/dev/random",
        "/proc",
        "/sys/devices/system/cpu",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    if let Ok(entries) = std::fs::read_dir("/etc") {
        paths.extend(
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("python"))
                .map(|e| e.path()),
        );
    }
    paths
}

/// Where a program named `name` is: a path as given (from `folder`), or found on the PATH.
fn locate(name: &str, folder: Option<&Path>) -> Option<PathBuf> {
    if name.contains('/') {
        let path = PathBuf::from(name);
        let path = match folder {
            Some(folder) if path.is_relative() => folder.join(path),
            _ => path,
        };
        return path.is_file().then_some(path);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// The folder a program lives in, and for one in a `bin` (or pyenv's `shims`) folder the one
/// above: an interpreter's prefix, whose libraries it reads.
fn prefix(program: &Path) -> Option<PathBuf> {
    let dir = program.parent()?;
    match dir.file_name().and_then(|n| n.to_str()) {
        Some("bin" | "sbin" | "shims") => dir.parent().map(Path::to_path_buf),
        _ => Some(dir.to_path_buf()),
    }
}

/// What starting `command` reads besides the system: its interpreter's prefix as named (a
/// virtual environment) and as resolved (the interpreter it links to, a pyenv version), and
/// the same for a `#!` line's interpreter.
fn interpreter_paths(command: &str, args: &[String], folder: Option<&Path>) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let mut add = |program: &Path| {
        for p in [
            Some(program.to_path_buf()),
            std::fs::canonicalize(program).ok(),
        ]
        .into_iter()
        .flatten()
        {
            if let Some(prefix) = prefix(&p)
                && prefix != Path::new("/")
            {
                paths.push(prefix);
            }
        }
    };
    let Some(program) = locate(command, folder) else {
        return paths;
    };
    add(&program);
    let script = std::iter::once(program.clone()).chain(
        args.iter()
            .filter_map(|a| locate(a, folder).filter(|_| a.contains('/'))),
    );
    for file in script {
        let mut head = [0u8; 256];
        let read = std::fs::File::open(&file)
            .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
            .unwrap_or(0);
        if let Some(line) = head[..read].strip_prefix(b"#!") {
            let line = String::from_utf8_lossy(line);
            let mut words = line.lines().next().unwrap_or("").split_whitespace();
            if let Some(interpreter) = words.next() {
                // `#!/usr/bin/env python3`: the program named after `env`.
                let named = if interpreter.ends_with("/env") {
                    words.find(|w| !w.starts_with('-')).unwrap_or(interpreter)
                } else {
                    interpreter
                };
                if let Some(found) = locate(named, None) {
                    add(&found);
                }
            }
        }
    }
    paths
}

/// The agent's own folder: that of the first argument naming a file (`python3 agents/a/x.py`),
/// else that of the command when it is a path; else the working folder. A system folder is
/// never its own (it would be made writable): the private temporary folder stands instead.
fn own_folder(command: &str, args: &[String], folder: Option<&Path>) -> PathBuf {
    let program = args
        .iter()
        .filter(|a| a.contains('/') || a.ends_with(".py"))
        .find_map(|a| {
            locate(a, folder).or_else(|| folder.map(|f| f.join(a)).filter(|p| p.is_file()))
        })
        .or_else(|| {
            command
                .contains('/')
                .then(|| locate(command, folder))
                .flatten()
        });
    let dir = match program {
        Some(program) => program.parent().map(Path::to_path_buf),
        None => folder.map(Path::to_path_buf),
    }
    .unwrap_or_else(|| PathBuf::from("."));
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    let system = system_paths();
    if dir == Path::new("/") || system.iter().any(|s| dir.starts_with(s)) {
        return std::env::temp_dir().join("arena-sandbox-none");
    }
    dir
}

/// The Landlock ruleset: `read` read-only, `write` read-write, and TCP closed when `net`.
fn landlock_rules(read: &[PathBuf], write: &[PathBuf], net: bool) -> Result<OwnedFd, String> {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible as _, Ruleset, RulesetAttr as _,
        RulesetCreatedAttr as _, Scope, path_beneath_rules,
    };
    let abi = ABI::V7;
    let error = |e: landlock::RulesetError| e.to_string();
    let files = !read.is_empty() || !write.is_empty();
    let mut ruleset = Ruleset::default().set_compatibility(CompatLevel::BestEffort);
    if files {
        ruleset = ruleset
            .handle_access(AccessFs::from_all(abi))
            .map_err(error)?;
    }
    if net {
        ruleset = ruleset
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(error)?;
    }
    // No signals to, nor abstract sockets of, anything outside the sandbox.
    ruleset = ruleset
        .scope(Scope::AbstractUnixSocket | Scope::Signal)
        .map_err(error)?;
    let existing = |paths: &[PathBuf]| -> Vec<PathBuf> {
        paths.iter().filter(|p| p.exists()).cloned().collect()
    };
    let mut created = ruleset.create().map_err(error)?;
    if files {
        created = created
            .add_rules(path_beneath_rules(existing(read), AccessFs::from_read(abi)))
            .map_err(error)?
            .add_rules(path_beneath_rules(existing(write), AccessFs::from_all(abi)))
            .map_err(error)?;
    }
    let fd: Option<OwnedFd> = created.into();
    fd.ok_or_else(|| "this kernel has no Landlock".to_string())
}

/// The system calls, one `unsafe` block each: the workspace's exception for the sandbox.
#[allow(unsafe_code)]
mod sys {
    use std::os::unix::process::CommandExt as _;
    use std::sync::{Arc, OnceLock};

    pub(super) use libc::sock_filter as SockFilter;

    pub(super) const SIGSYS: i32 = libc::SIGSYS;
    pub(super) const SIGXCPU: i32 = libc::SIGXCPU;
    pub(super) const SIGXFSZ: i32 = libc::SIGXFSZ;

    #[derive(Clone, Copy)]
    pub(super) enum Limit {
        As,
        Cpu,
        Fsize,
        Nofile,
        Nproc,
        Core,
    }

    impl Limit {
        fn resource(self) -> libc::__rlimit_resource_t {
            match self {
                Limit::As => libc::RLIMIT_AS,
                Limit::Cpu => libc::RLIMIT_CPU,
                Limit::Fsize => libc::RLIMIT_FSIZE,
                Limit::Nofile => libc::RLIMIT_NOFILE,
                Limit::Nproc => libc::RLIMIT_NPROC,
                Limit::Core => libc::RLIMIT_CORE,
            }
        }
    }

    /// The filter's architecture (`AUDIT_ARCH_*`), where we know its call numbers.
    #[cfg(target_arch = "x86_64")]
    pub(super) const AUDIT_ARCH: Option<u32> = Some(0xC000_003E);
    #[cfg(target_arch = "aarch64")]
    pub(super) const AUDIT_ARCH: Option<u32> = Some(0xC000_00B7);
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    pub(super) const AUDIT_ARCH: Option<u32> = None;

    /// The calls no game agent needs: debugging others, the file systems' and the kernel's
    /// administration, namespaces (escaping the network's), keys, BPF, performance counters.
    fn forbidden() -> Vec<(libc::c_long, &'static str)> {
        let mut calls = vec![
            (libc::SYS_ptrace, "ptrace"),
            (libc::SYS_process_vm_readv, "process_vm_readv"),
            (libc::SYS_process_vm_writev, "process_vm_writev"),
            (libc::SYS_mount, "mount"),
            (libc::SYS_umount2, "umount2"),
            (libc::SYS_pivot_root, "pivot_root"),
            (libc::SYS_chroot, "chroot"),
            (libc::SYS_move_mount, "move_mount"),
            (libc::SYS_open_tree, "open_tree"),
            (libc::SYS_fsopen, "fsopen"),
            (libc::SYS_fsmount, "fsmount"),
            (libc::SYS_fsconfig, "fsconfig"),
            (libc::SYS_fspick, "fspick"),
            (libc::SYS_mount_setattr, "mount_setattr"),
            (libc::SYS_bpf, "bpf"),
            (libc::SYS_init_module, "init_module"),
            (libc::SYS_finit_module, "finit_module"),
            (libc::SYS_delete_module, "delete_module"),
            (libc::SYS_kexec_load, "kexec_load"),
            (libc::SYS_kexec_file_load, "kexec_file_load"),
            (libc::SYS_reboot, "reboot"),
            (libc::SYS_swapon, "swapon"),
            (libc::SYS_swapoff, "swapoff"),
            (libc::SYS_acct, "acct"),
            (libc::SYS_quotactl, "quotactl"),
            (libc::SYS_setns, "setns"),
            (libc::SYS_unshare, "unshare"),
            (libc::SYS_keyctl, "keyctl"),
            (libc::SYS_add_key, "add_key"),
            (libc::SYS_request_key, "request_key"),
            (libc::SYS_perf_event_open, "perf_event_open"),
            (libc::SYS_userfaultfd, "userfaultfd"),
            (libc::SYS_open_by_handle_at, "open_by_handle_at"),
            (libc::SYS_settimeofday, "settimeofday"),
            (libc::SYS_clock_settime, "clock_settime"),
            (libc::SYS_adjtimex, "adjtimex"),
            (libc::SYS_syslog, "syslog"),
            (libc::SYS_fanotify_init, "fanotify_init"),
        ];
        #[cfg(target_arch = "x86_64")]
        calls.extend([
            (libc::SYS_iopl, "iopl"),
            (libc::SYS_ioperm, "ioperm"),
            (libc::SYS_uselib, "uselib"),
        ]);
        calls
    }

    pub(super) fn forbidden_names() -> Vec<&'static str> {
        forbidden().into_iter().map(|(_, name)| name).collect()
    }

    /// The filter as raw BPF: another architecture (a 32-bit call) or x32's numbers are killed,
    /// `socket()` fails with `EACCES`, each forbidden call is killed, the rest allowed.
    pub(super) fn filter() -> Arc<Vec<SockFilter>> {
        static FILTER: OnceLock<Arc<Vec<SockFilter>>> = OnceLock::new();
        Arc::clone(FILTER.get_or_init(|| {
            const LD_W_ABS: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
            const JEQ: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
            const JGE: u16 = (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16;
            const RET: u16 = (libc::BPF_RET | libc::BPF_K) as u16;
            const KILL: u32 = libc::SECCOMP_RET_KILL_PROCESS;
            const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
            const ERRNO: u32 = libc::SECCOMP_RET_ERRNO;
            let op = |code: u16, jt: u8, jf: u8, k: u32| SockFilter { code, jt, jf, k };
            // struct seccomp_data: nr at 0, arch at 4.
            let mut program = vec![
                op(LD_W_ABS, 0, 0, 4),
                op(JEQ, 1, 0, AUDIT_ARCH.unwrap_or(0)),
                op(RET, 0, 0, KILL),
                op(LD_W_ABS, 0, 0, 0),
            ];
            if cfg!(target_arch = "x86_64") {
                // x32's calls (the __X32_SYSCALL_BIT).
                program.push(op(JGE, 0, 1, 0x4000_0000));
                program.push(op(RET, 0, 0, KILL));
            }
            // No sockets of any domain (UDP, UNIX, raw, netlink, ...): `socket()` fails with
            // EACCES, an error the program sees, as Landlock's refusals are (glibc's name
            // service tries a UNIX socket to nscd and goes on without it). `socketpair()`
            // stays: a connected pair reaches nothing outside the process.
            program.push(op(JEQ, 0, 1, libc::SYS_socket as u32));
            program.push(op(RET, 0, 0, ERRNO | libc::EACCES as u32));
            for (nr, _) in forbidden() {
                program.push(op(JEQ, 0, 1, nr as u32));
                program.push(op(RET, 0, 0, KILL));
            }
            program.push(op(RET, 0, 0, ALLOW));
            Arc::new(program)
        }))
    }

    /// The kernel's Landlock ABI version (0: none).
    pub(super) fn landlock_abi() -> i64 {
        const VERSION: libc::c_uint = 1; // LANDLOCK_CREATE_RULESET_VERSION
        // SAFETY: a null attribute with size 0 and the VERSION flag only asks the version.
        let abi = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<libc::c_void>(),
                0usize,
                VERSION,
            )
        };
        abi.max(0)
    }

    /// Whether seccomp filters are there (`PR_GET_SECCOMP` answers).
    pub(super) fn seccomp_available() -> bool {
        // SAFETY: PR_GET_SECCOMP takes no pointer.
        unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 }
    }

    /// Whether a child can enter a new user namespace with a network namespace: tried.
    pub(super) fn userns_works() -> bool {
        let mut command = std::process::Command::new("/bin/sh");
        command
            .args(["-c", "exit 0"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        // SAFETY: unshare is async-signal-safe; nothing is allocated.
        unsafe {
            command.pre_exec(|| {
                if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        command.status().is_ok_and(|s| s.success())
    }

    /// Makes `command`'s child apply `prepared` between fork and exec.
    pub(super) fn install(command: &mut std::process::Command, prepared: Arc<super::Prepared>) {
        // SAFETY: the hook runs in the child after fork: it reads memory built before the fork
        // and makes system calls only (getpid, write, setrlimit, unshare, prctl, landlock_restrict_self,
        // seccomp): no allocation, no lock. An error is returned as `io::Error` from an OS code
        // (no allocation either), and the spawn fails with it.
        unsafe {
            command.pre_exec(move || {
                let fail = || Err(std::io::Error::last_os_error());
                // Into its cgroup first: its pid's digits on the stack, one write.
                if let Some(procs) = prepared.cgroup.as_ref().and_then(|c| c.procs.as_ref()) {
                    let mut digits = [0u8; 20];
                    let mut at = digits.len();
                    let mut pid = libc::getpid() as u32;
                    loop {
                        at -= 1;
                        digits[at] = b'0' + (pid % 10) as u8;
                        pid /= 10;
                        if pid == 0 {
                            break;
                        }
                    }
                    let text = &digits[at..];
                    if libc::write(procs.as_raw_fd(), text.as_ptr().cast(), text.len()) < 0 {
                        return fail();
                    }
                }
                if let Some(limits) = &prepared.limits {
                    for &(limit, soft, hard) in limits {
                        let value = libc::rlimit {
                            rlim_cur: soft,
                            rlim_max: hard,
                        };
                        // A limit above the current hard one cannot be raised: keep that one.
                        if libc::setrlimit(limit.resource(), &value) != 0 {
                            let mut current = libc::rlimit {
                                rlim_cur: 0,
                                rlim_max: 0,
                            };
                            if libc::getrlimit(limit.resource(), &mut current) != 0 {
                                return fail();
                            }
                            let lowered = libc::rlimit {
                                rlim_cur: soft.min(current.rlim_max),
                                rlim_max: hard.min(current.rlim_max),
                            };
                            if libc::setrlimit(limit.resource(), &lowered) != 0 {
                                return fail();
                            }
                        }
                    }
                }
                if prepared.netns && libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) != 0 {
                    return fail();
                }
                if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                    return fail();
                }
                if let Some(fd) = &prepared.landlock
                    && libc::syscall(libc::SYS_landlock_restrict_self, fd.as_raw_fd(), 0) != 0
                {
                    return fail();
                }
                if let Some(filter) = &prepared.filter {
                    let program = libc::sock_fprog {
                        len: filter.len() as u16,
                        filter: filter.as_ptr().cast_mut(),
                    };
                    if libc::syscall(
                        libc::SYS_seccomp,
                        libc::SECCOMP_SET_MODE_FILTER,
                        0,
                        &program as *const libc::sock_fprog,
                    ) != 0
                    {
                        return fail();
                    }
                }
                Ok(())
            });
        }
    }

    use std::os::fd::AsRawFd as _;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_pids_cgroup_is_found_in_either_version_from_the_mount_and_the_own_path() {
        // This machine's kind: cgroup v1 hierarchies beside an empty cgroup2 mount.
        let own = "8:pids:/\n4:memory:/api/3332\n0::/\n";
        let mounts = "\
30 25 0:26 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
33 25 0:29 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
35 25 0:31 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
        assert_eq!(
            PidsCgroup::candidates(own, mounts),
            [
                PidsCgroup {
                    dir: "/sys/fs/cgroup/unified".into(),
                    version: 2
                },
                PidsCgroup {
                    dir: "/sys/fs/cgroup/pids".into(),
                    version: 1
                }
            ]
        );
        // A systemd user's delegated cgroup v2, mounted from the top; a container's, from its
        // own folder (the path is from the hierarchy's top, the mount shows its root).
        let own = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/run.scope\n";
        let mounts = "29 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
        assert_eq!(
            PidsCgroup::candidates(own, mounts)[0].dir,
            Path::new(
                "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/run.scope"
            )
        );
        let own = "0::/docker/abc/inner\n";
        let mounts = "29 23 0:26 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n";
        assert_eq!(
            PidsCgroup::candidates(own, mounts)[0].dir,
            Path::new("/sys/fs/cgroup/inner")
        );
        // No pids hierarchy and no cgroup2: none.
        assert!(
            PidsCgroup::candidates(
                "4:memory:/\n",
                "30 25 0:26 / /m rw - cgroup cgroup rw,memory\n"
            )
            .is_empty()
        );
    }

    #[test]
    fn modes_and_layers_read_their_names() {
        for mode in [Mode::Off, Mode::BestEffort, Mode::Required] {
            assert_eq!(Mode::parse(mode.as_str()), Some(mode));
        }
        assert_eq!(Mode::parse("on"), None);
        for layer in Layer::ALL {
            assert_eq!(Layer::parse(layer.name()), Some(layer));
        }
    }

    #[test]
    fn required_names_each_layer_turned_off() {
        let support = Support::probe();
        for layer in [Layer::Files, Layer::Seccomp, Layer::Limits] {
            let sandbox = Sandbox {
                disabled: vec![layer],
                ..Sandbox::new(Mode::Required)
            };
            let missing = sandbox.missing(support).join("; ");
            assert!(missing.contains(layer.name()), "{layer:?}: {missing}");
        }
        // The network is missing only when both of its layers are.
        let one = Sandbox {
            disabled: vec![Layer::Network],
            ..Sandbox::new(Mode::Required)
        };
        let both = Sandbox {
            disabled: vec![Layer::Network, Layer::NetNamespace],
            ..Sandbox::new(Mode::Required)
        };
        let one = one.missing(support).join("; ");
        assert_eq!(one.contains("network"), !support.userns, "{one}");
        assert!(both.missing(support).join("; ").contains("network rules"));
        assert!(Sandbox::off().missing(support).is_empty());
    }

    #[test]
    fn a_sweep_removes_the_private_folders_and_cgroups_no_live_owner_holds() {
        let base = std::env::temp_dir().join(format!("arena-sweep-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let cgroups = base.join("cgroups");
        std::fs::create_dir_all(&cgroups).unwrap();
        let folder = |hex: &str| {
            let dir = base.join(format!("{PRIVATE_PREFIX}{hex}"));
            std::fs::create_dir_all(dir.join("work/sub")).unwrap();
            std::fs::write(dir.join("work/sub/copy.py"), "x").unwrap();
            std::fs::create_dir(cgroups.join(dir.file_name().unwrap())).unwrap();
            dir
        };
        // Left by a killed arena (no lock); owned by a live one (locked); not ours by name.
        let left = folder("00000000000000aa");
        let live = folder("00000000000000bb");
        let owner = std::fs::File::open(&live).unwrap();
        owner.lock().unwrap();
        let other = folder("not-hex-at-all!!");
        // Younger than the age asked: left, even unlocked.
        sweep_in(&base, Some(&cgroups), Duration::from_secs(3600));
        assert!(left.exists());
        sweep_in(&base, Some(&cgroups), Duration::ZERO);
        let name = |dir: &Path| cgroups.join(dir.file_name().unwrap());
        assert!(!left.exists() && !name(&left).exists());
        assert!(live.join("work/sub/copy.py").exists() && name(&live).exists());
        assert!(other.exists() && name(&other).exists());
        // Its owner gone, the next sweep takes it.
        drop(owner);
        sweep_in(&base, Some(&cgroups), Duration::ZERO);
        assert!(!live.exists() && !name(&live).exists());
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn the_private_folder_is_unpredictable_and_the_copy_bounded() {
        use std::os::unix::fs::PermissionsExt as _;
        let ((a, _a), (b, _b)) = (private_dir().unwrap(), private_dir().unwrap());
        assert_ne!(a, b);
        for dir in [&a, &b] {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            let suffix = name.strip_prefix(PRIVATE_PREFIX).unwrap();
            assert_eq!(suffix.len(), 16, "{name}");
            assert!(u64::from_str_radix(suffix, 16).is_ok(), "{name}");
            assert!(!name.contains(&std::process::id().to_string()), "{name}");
            let mode = std::fs::metadata(dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "{name}");
        }
        // A folder is copied with its files, sub-folders, permissions and links.
        let from = a.join("from");
        std::fs::create_dir_all(from.join("sub")).unwrap();
        std::fs::write(from.join("agent.py"), "print(1)").unwrap();
        std::fs::write(from.join("sub/run"), "#!/bin/sh").unwrap();
        std::fs::set_permissions(from.join("sub/run"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        std::os::unix::fs::symlink("../agent.py", from.join("sub/link")).unwrap();
        assert_eq!(scratch_copy(&from, &b.join("copy")), Some(()));
        let copy = b.join("copy");
        assert_eq!(
            std::fs::read_to_string(copy.join("agent.py")).unwrap(),
            "print(1)"
        );
        let mode = std::fs::metadata(copy.join("sub/run"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert_eq!(
            std::fs::read_link(copy.join("sub/link")).unwrap(),
            Path::new("../agent.py")
        );
        // Past the bound on entries, nothing is copied and nothing is left.
        for i in 0..=COPY_MAX_ENTRIES {
            std::fs::write(from.join(format!("f{i}")), "").unwrap();
        }
        assert_eq!(scratch_copy(&from, &b.join("big")), None);
        assert!(!b.join("big").exists());
        for dir in [a, b] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }

    #[test]
    fn an_allocation_refused_is_told_from_other_last_words() {
        for line in [
            "MemoryError",
            "terminate called after throwing an instance of 'std::bad_alloc'",
            "memory allocation of 8589934592 bytes failed",
            "malloc: Cannot allocate memory",
        ] {
            assert!(is_allocation_failure(line), "{line}");
        }
        assert!(!is_allocation_failure("ValueError: bad move"));
        assert!(!is_allocation_failure("OSError: [Errno 27] File too large"));
    }
}
