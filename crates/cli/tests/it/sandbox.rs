//! The sandbox of outside agents (`docs/src/guide/sandbox.md`): hostile submissions, each in a
//! folder of its own, play a round-robin against two good agents. Each is stopped (the program
//! sees an error, or a limit stops it with its verdict in the fault log), nothing outside its
//! folder is touched, no process is left, and the games between the good agents are the rows
//! of a run without the hostile ones. Then each layer is turned off in turn and the rest still
//! hold. Bounded: 1,000 processes at most (sleeping, then killed), 8 GB asked but never taken
//! (the memory limit refuses it), a CPU limit of 1 s, files of 1 MiB; loopback only (a TCP
//! and a UDP listener on 127.0.0.1, a named UNIX socket in the test's scratch folder).

use std::collections::BTreeMap;
use std::fs;
use std::net::{TcpListener, UdpSocket};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};

use arena::Experiment;
use protocol::sandbox::{Layer, Support};

/// Another submission's source.
const VICTIM: &str = "SECRET = 'the victim source'\n";

const ARENA: &str = env!("CARGO_BIN_EXE_arena");

/// The hostile program: a good arena-protocol agent until its first `go`, where it does what
/// MODE says. Where the sandbox lets it fail, it raises (a crash whose fault names the error);
/// where it succeeds, it plays the illegal move `leaked` (a different termination: the test
/// fails).
const HOSTILE: &str = r#"
import os, socket, sys, time
mode, arg, marker = sys.argv[1], sys.argv[2], sys.argv[3]

def say(line):
    sys.stdout.write(line + "\n"); sys.stdout.flush()

def attack():
    if mode in ("read", "ssh"):
        open(arg).read()
    elif mode == "write":
        with open(arg, "w") as f:
            f.write("pwned")
    elif mode == "connect":
        socket.create_connection(("127.0.0.1", int(arg)), timeout=5).close()
    elif mode == "persist":
        # Runs from a copy of its folder: what it leaves there is gone by its next process,
        # and its source (the path it is given, written `src:PATH` so that the arena does not
        # point it at the copy as it does a path in its folder) is read-only to it.
        here = os.path.dirname(os.path.abspath(__file__))
        if not os.path.exists(os.path.join(here, "left.txt")):
            with open(os.path.join(here, "left.txt"), "w") as f:
                f.write("for later")
            with open(arg[len("src:"):], "a") as f:
                f.write("\nchanged = True\n")
    elif mode == "udp":
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.sendto(b"leaked", ("127.0.0.1", int(arg)))
    elif mode == "unix":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(arg)
        s.sendall(b"leaked")
    elif mode == "fork":
        started = 0
        for _ in range(1000):
            pid = os.fork()
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            started += 1
        raise RuntimeError("started %d processes" % started)
    elif mode == "memory":
        block = bytearray(8 << 30)
        block[-1] = 1
    elif mode == "bigfile":
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "big.bin"), "wb") as f:
            for _ in range(2048):
                f.write(b"x" * 1024)
    elif mode == "spin":
        while True:
            pass
    elif mode == "ptrace":
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.ptrace(16, os.getppid(), 0, 0) != 0:  # PTRACE_ATTACH the arena
            raise PermissionError(ctypes.get_errno(), "ptrace refused")
    elif mode == "orphan":
        import subprocess
        # A session of its own, out of its process group: the arena finds it among its
        # descendants (the marker on its command line is how the test looks for it).
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", marker],
                         start_new_session=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
        raise RuntimeError("left a child behind")
    elif mode == "flood":
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk); sys.stdout.flush()
    else:
        raise SystemExit("unknown mode " + mode)
    say("move leaked")

for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "arena":
        say("ready")
    elif words[0] == "game":
        say("ok")
    elif words[0] == "go":
        attack()
    elif words[0] == "quit":
        break
"#;

/// A folder of its own under the target's scratch folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-sandbox-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) {
                found.push(text);
            }
        }
    }
    found
}

fn rows(csv: &Path) -> Vec<arena::Row> {
    csv::Reader::from_path(csv)
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect()
}

/// The columns of a row that do not depend on timing or on the other pairings.
fn settled(row: &arena::Row) -> (String, u64, String, String, String, String, u32, String) {
    (
        row.variant.clone(),
        row.seed,
        row.first.clone(),
        row.second.clone(),
        row.result.clone(),
        row.termination.clone(),
        row.plies,
        row.moves.clone(),
    )
}

/// The set-up of one class: the submissions' folders, a victim's source, a `~/.ssh`-like key,
/// TCP and UDP listeners on 127.0.0.1, a named UNIX socket listening in the scratch folder.
struct Class {
    dir: PathBuf,
    listener: TcpListener,
    udp: UdpSocket,
    unix: UnixListener,
    marker: String,
}

impl Class {
    fn new(name: &str) -> Class {
        let dir = scratch(name);
        fs::create_dir_all(dir.join("subs/victim")).unwrap();
        fs::write(dir.join("subs/victim/agent.py"), VICTIM).unwrap();
        fs::create_dir_all(dir.join("home/.ssh")).unwrap();
        fs::write(dir.join("home/.ssh/id_ed25519"), "PRIVATE KEY\n").unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
        udp.set_nonblocking(true).unwrap();
        let unix = UnixListener::bind(dir.join("ipc.sock")).unwrap();
        unix.set_nonblocking(true).unwrap();
        Class {
            udp,
            unix,
            marker: format!(
                "sandbox-marker-{}",
                dir.file_name().unwrap().to_string_lossy()
            ),
            dir,
            listener,
        }
    }

    /// A hostile submission of `mode` (with `arg`) in `subs/<mode>/`, as an `[[agents]]` entry.
    fn hostile(&self, mode: &str, arg: &str) -> String {
        let folder = self.dir.join("subs").join(mode);
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("agent.py"), HOSTILE).unwrap();
        format!(
            // In a folder of its own (`dir=`), as a submission: it runs from a copy of it.
            "\n[[agents]]\nname = \"{mode}\"\nspec = \"proc:cmd=python3,dir=subs/{mode},args=agent.py \
             {mode} {arg} {}\"\n",
            self.marker
        )
    }

    /// The experiment: two good agents (ours, served through the protocol, sandboxed too),
    /// then `entrants`; `settings` lines added (the sandbox's mode, the games per pair).
    fn experiment(&self, settings: &str, entrants: &str) -> String {
        let text = format!(
            r#"
name = "class"
seed = 5
move_time_ms = 30000
variants = ["mnk-3x3k3"]
sandbox_cpu_s = 1
sandbox_file_mb = 1
{settings}

[[agents]]
name = "good-a"
spec = "proc:cmd={ARENA},args=serve-agent --agent random"

[[agents]]
name = "good-b"
spec = "proc:cmd={ARENA},args=serve-agent --agent mc-flat:rollouts=8"
{entrants}"#
        );
        // Checked here as `arena run` will read it.
        Experiment::from_toml_at(&text, "class.toml", Some(&self.dir)).unwrap();
        text
    }

    /// Plays `text` with `arena run` into `out` with the layers `off` turned off: the binary,
    /// which adopts the helpers its agents orphan (a library's host does not), as a teacher
    /// runs it. Returns what it printed.
    fn play(&self, text: &str, out: &Path, off: &[Layer]) -> String {
        let file = self.dir.join(format!(
            "{}.toml",
            out.file_name().unwrap().to_string_lossy()
        ));
        fs::write(&file, text).unwrap();
        let names: Vec<&str> = off.iter().map(|l| l.name()).collect();
        let output = std::process::Command::new(ARENA)
            .args([
                "run",
                file.to_str().unwrap(),
                "--no-report",
                "--threads",
                "2",
                "--out",
            ])
            .arg(out)
            .env("ARENA_SANDBOX_DISABLE", names.join(","))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(output.status.success(), "{text}");
        text
    }

    fn hostile_entrants(&self, modes: &[&str]) -> String {
        let port = self.listener.local_addr().unwrap().port().to_string();
        let udp = self.udp.local_addr().unwrap().port().to_string();
        let unix = self.dir.join("ipc.sock").display().to_string();
        let victim = self.dir.join("subs/victim/agent.py");
        let key = self.dir.join("home/.ssh/id_ed25519");
        let outside = self.dir.join("outside.txt");
        [
            ("read", victim.display().to_string()),
            ("write", outside.display().to_string()),
            ("connect", port),
            ("udp", udp),
            (
                "persist",
                format!("src:{}", self.dir.join("subs/persist/agent.py").display()),
            ),
            ("unix", unix),
            ("fork", "-".into()),
            ("memory", "-".into()),
            ("spin", "-".into()),
            ("bigfile", "-".into()),
            ("ptrace", "-".into()),
            ("orphan", "-".into()),
            ("flood", "-".into()),
        ]
        .iter()
        .chain(&[("ssh", key.display().to_string())])
        .filter(|(mode, _)| modes.is_empty() || modes.contains(mode))
        .map(|(mode, arg)| self.hostile(mode, arg))
        .collect()
    }
}

/// The first fault message of each agent in the run's fault log.
fn faults(out: &Path) -> BTreeMap<String, String> {
    let text = fs::read_to_string(out.join("games.faults.log")).unwrap_or_default();
    let mut first = BTreeMap::new();
    for line in text.lines() {
        // `game N (variant): AGENT (seat) MESSAGE`: the agent is found by its quoted name.
        for agent in [
            "read", "ssh", "write", "connect", "udp", "unix", "persist", "fork", "memory", "spin",
            "bigfile", "ptrace", "orphan", "flood",
        ] {
            if line.contains(&format!(" {agent} ")) || line.contains(&format!("`{agent}`")) {
                first
                    .entry(agent.to_string())
                    .or_insert_with(|| line.to_string());
            }
        }
    }
    first
}

/// Runs the class with `sandbox`, the layers `off` turned off, and the hostile entrants
/// `modes` (all when empty); checks each entrant's verdict and the good agents' games.
fn check_class(name: &str, sandbox: &str, games: u64, off: &[Layer], modes: &[&str]) {
    let sandbox = format!("{sandbox}\ngames_per_pair = {games}");
    let sandbox = sandbox.as_str();
    let class = Class::new(name);
    let out = class.dir.join("out");
    let printed = class.play(
        &class.experiment(sandbox, &class.hostile_entrants(modes)),
        &out,
        off,
    );
    let rows = rows(&out.join("games.csv"));
    let faults = faults(&out);
    let entered = |mode: &str| modes.is_empty() || modes.contains(&mode);
    let expect = |agent: &str, termination: &str, words: &str| {
        if !entered(agent) {
            return;
        }
        let lost: Vec<_> = rows
            .iter()
            .filter(|r| {
                let loser = if r.result == "1-0" {
                    &r.second
                } else {
                    &r.first
                };
                loser == agent
            })
            .collect();
        assert!(!lost.is_empty(), "{agent}: lost no game");
        for row in &lost {
            assert_eq!(row.termination, termination, "{agent}: {row:?}");
        }
        let fault = faults.get(agent).cloned().unwrap_or_default();
        assert!(
            fault.contains(words),
            "{agent}: the fault should say `{words}`: {fault}\n{printed}"
        );
    };
    let files = !off.contains(&Layer::Files);
    let seccomp = !off.contains(&Layer::Seccomp);
    let network = !off.contains(&Layer::Network)
        || (!off.contains(&Layer::NetNamespace) && Support::probe().userns);
    // The namespace stands for Landlock's network rules where those are off.
    let netns = off.contains(&Layer::Network)
        && !off.contains(&Layer::NetNamespace)
        && Support::probe().userns;
    // What the program was refused, as it said it.
    if files {
        // Each game a new process in a new copy (it crashed in the last): the file it left
        // is not there, its source cannot be changed.
        expect("persist", "crash", "PermissionError");
        if entered("persist") {
            let source = class.dir.join("subs/persist");
            assert_eq!(
                fs::read_to_string(source.join("agent.py")).unwrap(),
                HOSTILE
            );
            assert!(!source.join("left.txt").exists());
        }
        expect("read", "crash", "PermissionError");
        expect("ssh", "crash", "PermissionError");
        expect("write", "crash", "PermissionError");
    }
    if network {
        // The filter refuses the socket, Landlock the connection; in a network namespace of
        // its own there is no network.
        let refused = if !seccomp && off.contains(&Layer::Network) {
            "Network is unreachable"
        } else {
            "PermissionError"
        };
        expect("connect", "crash", refused);
    }
    // UDP and UNIX sockets: the filter refuses `socket()`; without it, only a namespace of
    // its own keeps UDP from 127.0.0.1 (nothing keeps a named UNIX socket).
    if seccomp {
        expect("udp", "crash", "PermissionError");
        expect("unix", "crash", "PermissionError");
    } else if netns {
        expect("udp", "crash", "Network is unreachable");
    }
    // The limits, with their verdicts.
    if !off.contains(&Layer::Limits) {
        expect("memory", "memory-limit", "memory limit");
        expect("spin", "cpu-limit", "CPU limit");
        expect("bigfile", "output-limit", "output limit");
        // Stopped with its game. Its forks are limited where a pids cgroup is made, or for a
        // user other than root (RLIMIT_NPROC): the fork past the limit fails.
        let support = Support::probe();
        let limited = support.cgroup.is_some() || !support.root;
        expect(
            "fork",
            "crash",
            if limited {
                "Resource temporarily unavailable"
            } else {
                ""
            },
        );
    }
    if seccomp {
        expect("ptrace", "forbidden-call", "forbidden call");
    } else {
        // Landlock keeps a sandboxed process from tracing one outside its domain.
        expect("ptrace", "crash", "PermissionError");
    }
    expect("flood", "output-limit", "output limit");
    expect("orphan", "crash", "left a child behind");
    // Nothing outside its folder touched, nothing reached, nothing left running.
    assert!(!class.dir.join("outside.txt").exists());
    assert_eq!(
        fs::read_to_string(class.dir.join("subs/victim/agent.py")).unwrap(),
        VICTIM
    );
    if network {
        assert!(
            class.listener.accept().is_err(),
            "an agent connected to 127.0.0.1"
        );
    }
    if seccomp || netns {
        let mut buffer = [0u8; 64];
        let got = class.udp.recv_from(&mut buffer);
        assert!(got.is_err(), "an agent sent UDP to 127.0.0.1: {got:?}");
    }
    if seccomp {
        assert!(
            class.unix.accept().is_err(),
            "an agent connected to the UNIX socket"
        );
    }
    assert_eq!(processes_with(&class.marker), Vec::<String>::new());
    // The good agents' games: the rows of a run without the hostile entrants.
    let alone = class.dir.join("alone");
    class.play(&class.experiment(sandbox, ""), &alone, off);
    let good = |rows: &[arena::Row]| -> Vec<_> {
        rows.iter()
            .filter(|r| r.first.starts_with("good") && r.second.starts_with("good"))
            .map(settled)
            .collect()
    };
    let alone = good(&self::rows(&alone.join("games.csv")));
    assert_eq!(alone.len() as u64, games);
    assert_eq!(good(&rows), alone);
    let _ = fs::remove_dir_all(&class.dir);
}

#[test]
fn hostile_submissions_are_stopped_with_their_verdicts_and_the_other_games_are_untouched() {
    check_class("all", "sandbox = \"required\"", 2, &[], &[]);
}

/// The games lost to a limit: the CSV's `termination` names each verdict (`memory-limit`,
/// `cpu-limit`, `output-limit` for a file and for a line, `forbidden-call`).
#[test]
fn the_csv_names_the_verdict_of_each_game_lost_to_a_limit() {
    check_class(
        "verdicts",
        "sandbox = \"required\"",
        1,
        &[],
        &["memory", "spin", "bigfile", "ptrace", "flood"],
    );
}

#[test]
fn each_layer_turned_off_leaves_the_others_holding() {
    // Each run enters those whose checks do not need the layer turned off (a program that the
    // missing layer would let through is left out: 8 GB taken, the arena traced).
    let cases: [(&[Layer], &[&str]); 6] = [
        (&[Layer::Network], &["connect", "udp", "read"]),
        (&[Layer::NetNamespace], &["connect", "udp", "read"]),
        (&[Layer::Seccomp], &["ptrace", "read", "connect"]),
        // The namespace alone: no TCP, no UDP to 127.0.0.1.
        (
            &[Layer::Network, Layer::Seccomp],
            &["connect", "udp", "read"],
        ),
        (
            &[Layer::Files],
            &["connect", "udp", "unix", "ptrace", "memory"],
        ),
        (&[Layer::Limits], &["read", "connect", "unix", "ptrace"]),
    ];
    for (layers, modes) in cases {
        let name: Vec<&str> = layers.iter().map(|l| l.name()).collect();
        check_class(
            &name.join("-"),
            "sandbox = \"best-effort\"",
            1,
            layers,
            modes,
        );
    }
}

/// The `arena` binary with `layers` turned off (`ARENA_SANDBOX_DISABLE`), run to its end.
fn arena_without(layers: &str, args: &[&str]) -> (bool, String) {
    let output = std::process::Command::new(ARENA)
        .args(args)
        .env("ARENA_SANDBOX_DISABLE", layers)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[test]
fn arena_sandbox_names_each_layer_and_what_required_lacks() {
    let (ok, text) = arena_without("", &["sandbox"]);
    assert!(ok, "{text}");
    for layer in Layer::ALL {
        assert!(text.contains(&format!("  {}", layer.name())), "{text}");
    }
    assert!(text.contains("  cgroup"), "{text}");
    let (ok, text) = arena_without("seccomp,rlimits", &["sandbox"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("sandbox = \"required\" refuses to run here: missing the system-call filter (seccomp: turned off), the resource limits (rlimits: turned off)"),
        "{text}"
    );
}

#[test]
fn required_refuses_to_start_where_a_layer_is_missing_and_best_effort_says_so() {
    let dir = scratch("modes");
    let served = format!("proc:cmd={ARENA},args=serve-agent --agent random");
    let experiment = |mode: &str| {
        let file = dir.join(format!("{mode}.toml"));
        fs::write(
            &file,
            format!(
                "name = \"m\"\nseed = 1\ngames_per_pair = 2\nvariants = [\"tictactoe\"]\n\
                 sandbox = \"{mode}\"\n\n[[agents]]\nname = \"served\"\nspec = \"{served}\"\n\n\
                 [[agents]]\nname = \"random\"\nspec = \"random\"\n"
            ),
        )
        .unwrap();
        file.display().to_string()
    };
    let out = dir.join("out").display().to_string();
    let required = experiment("required");
    let run_args = ["run", &required, "--no-report", "--out", &out];
    let (ok, text) = arena_without("landlock-fs", &run_args);
    assert!(!ok, "{text}");
    assert!(
        text.contains("sandbox = \"required\", but this kernel lacks the file-system rules (landlock-fs: turned off)"),
        "{text}"
    );
    assert!(!dir.join("out/games.csv").exists() || rows(&dir.join("out/games.csv")).is_empty());
    let best = experiment("best-effort");
    let (ok, text) = arena_without("landlock-fs", &["run", &best, "--no-report", "--out", &out]);
    assert!(ok, "{text}");
    assert!(
        text.contains("sandbox (best-effort): outside agents ran without the file-system rules (landlock-fs: turned off)"),
        "{text}"
    );
    // The same mode for `arena sprt` and `arena play`, and a bad mode named.
    let sprt_out = dir.join("sprt").display().to_string();
    let sprt = |mode: &str| {
        arena_without(
            "seccomp",
            &[
                "sprt",
                "tictactoe",
                "--candidate",
                &served,
                "--baseline",
                "random",
                "--max-pairs",
                "2",
                "--sandbox",
                mode,
                "--out",
                &sprt_out,
            ],
        )
    };
    let (ok, text) = sprt("required");
    assert!(
        !ok && text.contains("lacks the system-call filter (seccomp: turned off)"),
        "{text}"
    );
    let (ok, text) = sprt("strict");
    assert!(
        !ok && text
            .contains("`strict` is not a sandbox mode: give one of off, best-effort, required"),
        "{text}"
    );
    let (ok, text) = arena_without(
        "seccomp",
        &[
            "play",
            "tictactoe",
            "--first",
            &served,
            "--second",
            "random",
            "--sandbox",
            "required",
        ],
    );
    assert!(
        !ok && text.contains("lacks the system-call filter (seccomp: turned off)"),
        "{text}"
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn the_layers_a_shard_lacked_are_merged_into_the_run_s_record_and_report() {
    let dir = scratch("shards");
    let file = dir.join("shards.toml");
    fs::write(
        &file,
        format!(
            "name = \"s\"\nseed = 3\ngames_per_pair = 2\nvariants = [\"tictactoe\"]\n\n\
             [[agents]]\nname = \"served\"\nspec = \"proc:cmd={ARENA},args=serve-agent --agent \
             random\"\n\n[[agents]]\nname = \"random\"\nspec = \"random\"\n"
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let (file, out_text) = (file.display().to_string(), out.display().to_string());
    // Shard 0 with every layer, shard 1 without the filter (the merge does not take the
    // first shard's record alone).
    for (shard, off) in [("0/2", ""), ("1/2", "seccomp")] {
        let args = [
            "run",
            &file,
            "--shard",
            shard,
            "--no-report",
            "--out",
            &out_text,
        ];
        let (ok, text) = arena_without(off, &args);
        assert!(ok, "{text}");
    }
    let (ok, text) = arena_without("", &["merge", &out_text]);
    assert!(ok, "{text}");
    let meta = fs::read_to_string(out.join("games.meta.toml")).unwrap();
    assert!(
        meta.contains("sandbox_missing = [\"the system-call filter (seccomp: turned off)\"]"),
        "{meta}"
    );
    let report = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains(
            "**Sandbox:** best-effort; missing here: the system-call filter (seccomp: turned \
             off) (see `arena sandbox`)."
        ),
        "{report}"
    );
    let _ = fs::remove_dir_all(&dir);
}
