//! `arena tune` through the binary: killed with SIGKILL at several moments and resumed, it ends
//! with the games, trajectory and tuned spec of an uninterrupted tune; a bad tune file is
//! refused with its key and line; a tune in shard processes merges to the unsharded tune.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-tune-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A tune of a second or two: 120 games of MCTS on 5x5, 4 in a row.
const TUNE: &str = r#"name = "tune-kills"
seed = 7
variant = "mnk-5x5k4"
spec = "mcts:iterations=1500,c={c}"
iterations = 30
pairs_per_iteration = 2
opening_plies = 2

[params.c]
start = 3.0
min = 0.05
max = 5
c_end = 0.3
r_end = 0.01
"#;

fn spawn(file: &Path, out: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .env_remove("SLURM_CPUS_PER_TASK")
        .args([
            "tune",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--threads", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn to_end(file: &Path, out: &Path) -> Output {
    let output = spawn(file, out).wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The CSV's lines with the timing columns blanked.
fn without_timing(csv: &Path) -> Vec<String> {
    let mut reader = csv::Reader::from_path(csv).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let mut lines = vec![header.join(",")];
    for record in reader.records() {
        let record = record.unwrap();
        let fields: Vec<&str> = record
            .iter()
            .zip(&header)
            .map(|(field, column)| {
                if arena::TIMING_COLUMNS.contains(&column.as_str()) {
                    ""
                } else {
                    field
                }
            })
            .collect();
        lines.push(fields.join(","));
    }
    lines
}

fn tuned_spec(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("tuned spec: "))
        .unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&output.stdout)))
        .to_string()
}

#[test]
fn a_tune_killed_three_times_and_resumed_gives_the_uninterrupted_result() {
    let dir = scratch("kills");
    let file = dir.join("tune.toml");
    fs::write(&file, TUNE).unwrap();
    let reference = dir.join("reference");
    let whole = to_end(&file, &reference);

    let out = dir.join("killed");
    let csv = out.join("games.csv");
    let rows = || fs::read_to_string(&csv).map_or(0, |t| t.lines().count());
    let mut interrupted = 0;
    for target in [10, 45, 80] {
        let mut child = spawn(&file, &out);
        let waited = Instant::now();
        while rows() < target && child.try_wait().unwrap().is_none() {
            assert!(waited.elapsed() < Duration::from_secs(120), "no progress");
            std::thread::sleep(Duration::from_millis(1));
        }
        if child.try_wait().unwrap().is_none() {
            interrupted += 1;
        }
        // SIGKILL: no chance to clean up, flush or unlock.
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert!(
        interrupted >= 2,
        "only {interrupted} of 3 kills interrupted the tune"
    );
    assert!(rows() < 121, "the kills left nothing to resume");
    let last = to_end(&file, &out);
    assert_eq!(
        without_timing(&csv),
        without_timing(&reference.join("games.csv"))
    );
    assert_eq!(
        fs::read_to_string(out.join("trajectory.csv")).unwrap(),
        fs::read_to_string(reference.join("trajectory.csv")).unwrap()
    );
    assert_eq!(tuned_spec(&last), tuned_spec(&whole));
    assert!(tuned_spec(&whole).starts_with("mcts:iterations=1500,c="));
    assert_eq!(without_timing(&csv).len(), 1 + 120);
    assert!(out.join("tune.svg").exists() && out.join("tune.png").exists());

    // `arena verify` checks each row against its iteration's specs.
    let verify = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["verify", out.to_str().unwrap(), "--against"])
        .arg(&reference)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert!(
        verify.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&verify.stderr)
    );
    assert!(stdout.contains("120 of 120 games of the tune"), "{stdout}");
    assert!(stdout.contains(&tuned_spec(&whole)), "{stdout}");
}

#[test]
fn a_bad_tune_file_is_refused_with_its_key_and_line() {
    let dir = scratch("bad");
    for (edit, expected) in [
        (
            ("iterations = 30", "iterations = 30\nrounds = 2"),
            "unknown field `rounds`",
        ),
        (
            ("min = 0.05", "min = 6"),
            "key `params.c.min`: min 6 is not below max 5",
        ),
        (("start = 3.0", "start = 9"), "key `params.c.start`"),
        (("c={c}", "c={k}"), "key `spec`: `{k}` names no parameter"),
        (("c={c}", "cx={c}"), "no parameter `cx`"),
    ] {
        let file = dir.join("tune.toml");
        fs::write(&file, TUNE.replace(edit.0, edit.1)).unwrap();
        let output = spawn(&file, &dir.join("out")).wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success());
        assert!(stderr.contains(expected), "{expected}: {stderr}");
        assert!(stderr.contains("tune.toml:"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// The most child processes of `child` running `serve-agent` at once while it ran (polled).
fn most_agents(child: &mut Child) -> usize {
    let tasks = PathBuf::from(format!("/proc/{}/task", child.id()));
    let mut most = 0;
    while child.try_wait().unwrap().is_none() {
        let children: Vec<String> = fs::read_dir(&tasks)
            .map(|entries| {
                entries
                    .flatten()
                    .filter_map(|task| fs::read_to_string(task.path().join("children")).ok())
                    .flat_map(|text| {
                        text.split_whitespace()
                            .map(String::from)
                            .collect::<Vec<_>>()
                    })
                    .collect()
            })
            .unwrap_or_default();
        // The arena's own guard (a shell that stops its agents' groups if it dies) is not one.
        let now = children
            .iter()
            .filter(|pid| {
                fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|line| line.windows(11).any(|w| w == b"serve-agent"))
            })
            .count();
        most = most.max(now);
        std::thread::sleep(Duration::from_millis(10));
    }
    most
}

/// A tune of an outside agent: each iteration's two specs are new processes, and the processes
/// of the iterations before are gone (one roster for the whole tune kept two idle processes per
/// iteration played until the end: 17 at once after 8 iterations).
#[test]
fn a_tune_of_an_outside_agent_keeps_only_the_current_iteration_s_processes() {
    let dir = scratch("outside");
    let file = dir.join("tune.toml");
    fs::write(
        &file,
        format!(
            "name = \"outside\"\nseed = 1\nvariant = \"tictactoe\"\n\
             spec = \"proc:cmd={},args=serve-agent --agent mcts:iterations=50,c={{c}}\"\n\
             iterations = 8\npairs_per_iteration = 1\n\n\
             [params.c]\nstart = 1.4\nmin = 0.05\nmax = 4\nc_end = 0.2\nr_end = 0.05\n",
            env!("CARGO_BIN_EXE_arena")
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "tune",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let most = most_agents(&mut child);
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        most <= 2,
        "{most} outside processes at once, where an iteration has 2"
    );
    let games = fs::read_to_string(out.join("games.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert_eq!(games, 16, "8 iterations of a pair of games");
}

/// A tune in two shards, each its own `arena tune --shard I/2` process running at the same
/// time, merged by `arena merge`: the games, trajectory and tuned spec of the unsharded tune,
/// and `arena verify` checks the merged folder against it.
#[test]
fn a_tune_in_two_shard_processes_merges_to_the_unsharded_tune() {
    let dir = scratch("shards");
    let file = dir.join("tune.toml");
    fs::write(&file, TUNE).unwrap();
    let reference = dir.join("reference");
    let whole = to_end(&file, &reference);

    let out = dir.join("sharded");
    let shards: Vec<Child> = (0..2)
        .map(|index| {
            Command::new(env!("CARGO_BIN_EXE_arena"))
                .env_remove("SLURM_CPUS_PER_TASK")
                .args(["tune", file.to_str().unwrap(), "--out"])
                .arg(&out)
                .args(["--threads", "1", "--shard", &format!("{index}/2")])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (index, shard) in shards.into_iter().enumerate() {
        let output = shard.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(tuned_spec(&output), tuned_spec(&whole));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("when every shard is done: arena merge"),
            "{stdout}"
        );
        // Shard 0 alone draws the chart.
        assert_eq!(stdout.contains("chart in"), index == 0, "{stdout}");
    }
    let merge = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("merge")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&merge.stdout);
    assert!(
        merge.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&merge.stderr)
    );
    assert!(
        stdout.contains("merged 120 games of the tune's 2 shards"),
        "{stdout}"
    );
    assert_eq!(tuned_spec(&merge), tuned_spec(&whole));
    assert_eq!(
        without_timing(&out.join("games.csv")),
        without_timing(&reference.join("games.csv"))
    );
    assert_eq!(
        fs::read_to_string(out.join("trajectory.csv")).unwrap(),
        fs::read_to_string(reference.join("trajectory.csv")).unwrap()
    );
    let verify = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["verify", out.to_str().unwrap(), "--against"])
        .arg(&reference)
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}{}",
        String::from_utf8_lossy(&verify.stdout),
        String::from_utf8_lossy(&verify.stderr)
    );
}

/// `arena slurm` on a tune file writes one job of N tasks started together (a tune's shards
/// wait for each other), run here as written with an `srun` that starts the N tasks as Slurm
/// does (each with its SLURM_PROCID; CI's Slurm test runs them on a real cluster), then the
/// merge job's script: the games of the unsharded tune.
#[test]
fn arena_slurm_on_a_tune_file_writes_a_job_whose_tasks_play_the_tune_s_shards() {
    let dir = scratch("slurm");
    let file = dir.join("tune.toml");
    fs::write(&file, TUNE).unwrap();
    let reference = dir.join("reference");
    to_end(&file, &reference);

    let out = dir.join("sharded");
    let arena = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arena"));
        command.env_remove("SLURM_CPUS_PER_TASK");
        command
    };
    // More shards than an iteration has games: refused, nothing written.
    let refused = arena()
        .args(["slurm", file.to_str().unwrap(), "--shards", "5", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--shards 5: give 1 to 4"), "{stderr}");
    assert!(!out.exists());

    let wrote = arena()
        .args(["slurm", file.to_str().unwrap(), "--shards", "2", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        wrote.status.success(),
        "{}",
        String::from_utf8_lossy(&wrote.stderr)
    );
    let job = fs::read_to_string(out.join("slurm/tune.sbatch")).unwrap();
    assert!(job.contains("#SBATCH --ntasks=2"), "{job}");
    assert!(!job.contains("--array"), "{job}");
    let submit = fs::read_to_string(out.join("slurm/submit.sh")).unwrap();
    assert!(submit.contains("/tune.sbatch)"), "{submit}");

    let bin = dir.join("bin");
    fs::create_dir_all(&bin).unwrap();
    let srun = bin.join("srun");
    fs::write(
        &srun,
        "#!/bin/bash\n\
         n=1\n\
         while [ $# -gt 0 ]; do case \"$1\" in --ntasks=*) n=${1#--ntasks=}; shift;; \
         --*) shift;; *) break;; esac; done\n\
         pids=()\n\
         for i in $(seq 0 $((n - 1))); do SLURM_PROCID=$i \"$@\" & pids+=($!); done\n\
         status=0\n\
         for p in \"${pids[@]}\"; do wait \"$p\" || status=1; done\n\
         exit $status\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&srun, fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for script in ["tune.sbatch", "merge.sbatch"] {
        let ran = Command::new("bash")
            .arg(out.join("slurm").join(script))
            .env("PATH", &path)
            .env("ARENA", env!("CARGO_BIN_EXE_arena"))
            .env("ARENA_WORKDIR", &dir)
            .env_remove("SLURM_CPUS_PER_TASK")
            .output()
            .unwrap();
        assert!(
            ran.status.success(),
            "{script}: {}{}",
            String::from_utf8_lossy(&ran.stdout),
            String::from_utf8_lossy(&ran.stderr)
        );
    }
    assert!(out.join("games.shard-1-of-2.csv").exists());
    assert_eq!(
        without_timing(&out.join("games.csv")),
        without_timing(&reference.join("games.csv"))
    );
}
