//! One writer per results file, and nothing lost to a kill: through the binary, with real
//! processes, real locks and real SIGKILLs.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn arena() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arena"));
    command.env_remove("SLURM_CPUS_PER_TASK");
    command
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-writers-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// An experiment of a second or two: games of different costs, so kills land everywhere.
const EXPERIMENT: &str = r#"name = "writers"
seed = 11
games_per_pair = 10
opening_plies = 2
variants = ["mnk-5x5k4", "oanquan"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "mcts"
spec = "mcts:iterations=3000"

[[agents]]
name = "alphabeta"
spec = "alphabeta:depth=4"

[[agents]]
name = "greedy"
spec = "greedy"
"#;

/// random, mcts, alphabeta: 3 pairs on 5x5; all four: 6 pairs on O An Quan; 10 games each.
const GAMES: u64 = (3 + 6) * 10;

fn spawn_run(file: &Path, out: &Path) -> Child {
    arena()
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--threads", "2", "--no-report"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn run_to_end(file: &Path, out: &Path) -> Output {
    let output = spawn_run(file, out).wait_with_output().unwrap();
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
        let fields: Vec<&str> = record
            .as_ref()
            .unwrap()
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

/// `arena verify DIR` must say the folder holds every game of the experiment, each once.
fn assert_verifies_complete(out: &Path) {
    assert_verifies(out, GAMES, "writers");
}

/// `arena verify DIR` must say the folder holds all `games` games of experiment `name`.
fn assert_verifies(out: &Path, games: u64, name: &str) {
    let output = arena()
        .args(["verify", out.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains(&format!("{games} games of experiment `{name}`: every row")),
        "{text}"
    );
}

#[test]
fn a_second_run_into_the_same_folder_fails_at_once_and_the_first_completes() {
    let dir = scratch("two");
    let file = dir.join("writers.toml");
    fs::write(&file, EXPERIMENT).unwrap();
    let out = dir.join("out");
    let mut first = spawn_run(&file, &out);
    // Wait until the first run holds the lock: its lock file names it.
    let lock = out.join("games.csv.lock");
    let holder = format!("pid = {}", first.id());
    let waited = Instant::now();
    while !fs::read_to_string(&lock).is_ok_and(|text| text.contains(&holder)) {
        assert!(
            first.try_wait().unwrap().is_none(),
            "the first run ended before it was seen holding the lock"
        );
        assert!(waited.elapsed() < Duration::from_secs(60), "no lock file");
        std::thread::sleep(Duration::from_millis(5));
    }
    let second = arena()
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--threads", "2", "--no-report"])
        .output()
        .unwrap();
    // The second gave up while the first was still playing.
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first run finished before the second gave up: make the experiment longer"
    );
    assert!(!second.status.success());
    let error = String::from_utf8_lossy(&second.stderr);
    assert!(
        error.contains(&format!("PID {}, `arena run`", first.id()))
            && error.contains("is being written by another arena process"),
        "{error}"
    );
    assert!(String::from_utf8_lossy(&second.stdout).is_empty());
    let output = first.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Exactly the experiment's games, each once, each the game the schedule says.
    assert_eq!(
        fs::read_to_string(out.join("games.csv"))
            .unwrap()
            .lines()
            .count() as u64,
        GAMES + 1
    );
    assert_verifies_complete(&out);
    // Once the first has ended, the folder is free again (its lock died with it).
    let again = run_to_end(&file, &out);
    assert!(
        String::from_utf8_lossy(&again.stdout).contains(&format!(
            "{GAMES} games in shard 0/1 ({GAMES} recorded before, 0 played now)"
        )),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
}

/// A small seeded generator for the kill moments (SplitMix64).
struct Moments(u64);

impl Moments {
    fn next_fraction(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn ten_kills_at_random_moments_and_resumes_give_the_uninterrupted_csv() {
    let dir = scratch("kills");
    let file = dir.join("writers.toml");
    fs::write(&file, EXPERIMENT).unwrap();

    let reference = dir.join("reference");
    run_to_end(&file, &reference);

    // Each kill comes after a random number of new rows (1 to 5) and a random 0-10 ms more,
    // so it lands anywhere: between games, in the middle of a row's write, at startup.
    let out = dir.join("killed");
    let csv = out.join("games.csv");
    let rows = || {
        fs::read_to_string(&csv)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let mut moments = Moments(20261122);
    let mut interrupted = 0;
    let mut rows_before = 0;
    let mut progressed = 0;
    for _ in 0..10 {
        let target = rows_before.max(1) + 1 + (moments.next_fraction() * 5.0) as usize;
        let mut child = spawn_run(&file, &out);
        let waited = Instant::now();
        while rows() < target && child.try_wait().unwrap().is_none() {
            assert!(waited.elapsed() < Duration::from_secs(120), "no progress");
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_secs_f64(0.010 * moments.next_fraction()));
        if child.try_wait().unwrap().is_none() {
            interrupted += 1;
        }
        // SIGKILL: no chance to clean up, flush or unlock.
        child.kill().unwrap();
        let status = child.wait().unwrap();
        {
            use std::os::unix::process::ExitStatusExt;
            assert!(
                status.signal() == Some(9) || status.success(),
                "the run ended by something other than the kill: {status}"
            );
        }
        let now = rows();
        if now > rows_before {
            progressed += 1;
        }
        rows_before = now;
    }
    // Most kills hit a run in the middle of its games (the others a run that had finished).
    assert!(
        interrupted >= 8,
        "only {interrupted} of 10 kills interrupted a run"
    );
    assert!(
        progressed >= 8,
        "only {progressed} of 10 runs wrote rows before the kill"
    );
    assert!(
        (rows_before as u64) < GAMES,
        "the kills left nothing to resume: {rows_before} lines"
    );
    let last = run_to_end(&file, &out);
    let text = String::from_utf8_lossy(&last.stdout);
    assert!(
        text.contains(&format!("{GAMES} games in shard 0/1")),
        "{text}"
    );
    assert_eq!(
        without_timing(&csv),
        without_timing(&reference.join("games.csv"))
    );
    assert_verifies_complete(&out);
}

/// Waits until the process `child` holds the lock of `csv` (its lock file names it).
fn wait_for_lock(child: &mut Child, csv: &Path) {
    let lock = PathBuf::from(format!("{}.lock", csv.display()));
    let holder = format!("pid = {}", child.id());
    let waited = Instant::now();
    while !fs::read_to_string(&lock).is_ok_and(|text| text.contains(&holder)) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the writer ended before it was seen holding the lock"
        );
        assert!(waited.elapsed() < Duration::from_secs(60), "no lock file");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn spawn_sprt(out: &Path, fresh: bool) -> Child {
    let mut command = arena();
    command
        .args(["sprt", "mnk-5x5k4", "--candidate", "mcts:iterations=300"])
        .args(["--baseline", "mc-flat:rollouts=30", "--max-pairs", "150"])
        .args([
            "--no-report",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if fresh {
        command.arg("--fresh");
    }
    command.spawn().unwrap()
}

#[test]
fn a_second_sprt_or_a_fresh_one_into_a_match_being_played_fails_at_once() {
    let dir = scratch("sprt");
    let out = dir.join("out");
    let csv = out.join("games.csv");
    let mut first = spawn_sprt(&out, false);
    wait_for_lock(&mut first, &csv);
    for fresh in [false, true] {
        let second = spawn_sprt(&out, fresh).wait_with_output().unwrap();
        assert!(!second.status.success());
        let error = String::from_utf8_lossy(&second.stderr);
        assert!(
            error.contains(&format!("PID {}, `arena sprt`", first.id())),
            "{error}"
        );
    }
    assert!(first.try_wait().unwrap().is_none(), "make the match longer");
    assert!(
        !out.join("games.csv.old-1").exists(),
        "--fresh moved a live file"
    );
    first.kill().unwrap();
    first.wait().unwrap();
    // Every row once, each the game the schedule says.
    let output = arena()
        .args(["verify", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn deleting_the_lock_file_during_a_run_lets_no_second_writer_in() {
    let dir = scratch("unlocked");
    let file = dir.join("writers.toml");
    fs::write(&file, EXPERIMENT).unwrap();
    let out = dir.join("out");
    let mut first = spawn_run(&file, &out);
    wait_for_lock(&mut first, &out.join("games.csv"));
    fs::remove_file(out.join("games.csv.lock")).unwrap();
    let second = arena()
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--threads", "2", "--no-report"])
        .output()
        .unwrap();
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first run finished before the second gave up: make the experiment longer"
    );
    assert!(!second.status.success());
    let error = String::from_utf8_lossy(&second.stderr);
    assert!(
        error.contains("is being written by another arena process") && error.contains("deleted"),
        "{error}"
    );
    let output = first.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_verifies_complete(&out);
}

/// A gauntlet of 30 entrants (random agents) against a field of 5 (MCTS, which takes long
/// enough for the kills to land in the middle of the run).
fn gauntlet_experiment() -> String {
    let mut text = String::from(
        "name = \"gauntlet\"\nseed = 34\ngames_per_pair = 2\nopening_plies = 2\n\
         variants = [\"mnk-5x5k4\"]\nformat = \"gauntlet\"\n",
    );
    // The field in the middle of the file, so that pairs are written both ways round.
    for i in 0..35 {
        if (10..15).contains(&i) {
            let iterations = 2000 + 500 * (i - 10);
            text.push_str(&format!(
                "\n[[agents]]\nname = \"ref{i}\"\nspec = \"mcts:iterations={iterations}\"\n\
                 field = true\n"
            ));
        } else {
            text.push_str(&format!(
                "\n[[agents]]\nname = \"student{i}\"\nspec = \"random\"\n"
            ));
        }
    }
    text
}

#[test]
fn a_gauntlet_of_30_against_5_plays_150_pairings_resumes_after_kills_and_verifies() {
    const GAUNTLET_GAMES: u64 = 30 * 5 * 2;
    let dir = scratch("gauntlet");
    let file = dir.join("gauntlet.toml");
    fs::write(&file, gauntlet_experiment()).unwrap();

    let reference = dir.join("reference");
    run_to_end(&file, &reference);
    let rows = without_timing(&reference.join("games.csv"));
    assert_eq!(rows.len() as u64, GAUNTLET_GAMES + 1);
    // Each entrant meets each field agent exactly twice, once each way round, and nothing else.
    let mut reader = csv::Reader::from_path(reference.join("games.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|c| c == name).unwrap();
    let (first, second) = (column("first"), column("second"));
    let mut met = std::collections::BTreeMap::new();
    for record in reader.records() {
        let record = record.unwrap();
        let (a, b) = (&record[first], &record[second]);
        assert!(
            a.starts_with("ref") != b.starts_with("ref"),
            "{a} played {b}: a gauntlet pairs an entrant with a field agent only"
        );
        let (entrant, field) = if a.starts_with("ref") { (b, a) } else { (a, b) };
        let seats = met
            .entry((entrant.to_string(), field.to_string()))
            .or_insert((0, 0));
        if a == entrant {
            seats.0 += 1;
        } else {
            seats.1 += 1;
        }
    }
    assert_eq!(met.len(), 30 * 5);
    assert!(met.values().all(|&seats| seats == (1, 1)), "{met:?}");
    assert_verifies(&reference, GAUNTLET_GAMES, "gauntlet");

    // Killed twice with SIGKILL in the middle, then resumed: the uninterrupted CSV.
    let out = dir.join("killed");
    let csv = out.join("games.csv");
    let lines = || {
        fs::read_to_string(&csv)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    for target in [60, 180] {
        let mut child = spawn_run(&file, &out);
        let waited = Instant::now();
        while lines() < target && child.try_wait().unwrap().is_none() {
            assert!(waited.elapsed() < Duration::from_secs(120), "no progress");
            std::thread::sleep(Duration::from_millis(1));
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert!(
        (lines() as u64) < GAUNTLET_GAMES + 1,
        "the kills left nothing to resume: {} lines",
        lines()
    );
    run_to_end(&file, &out);
    assert_eq!(without_timing(&csv), rows);
    assert_verifies(&out, GAUNTLET_GAMES, "gauntlet");

    // A row edited into an entrant-against-entrant game is refused, with its line.
    let text = fs::read_to_string(&csv).unwrap();
    let mut edited: Vec<String> = text.lines().map(String::from).collect();
    let line = edited
        .iter()
        .position(|l| l.contains(",student0,ref10,"))
        .expect("student0 plays ref10 first once");
    edited[line] = edited[line]
        .replace(",student0,ref10,", ",student0,student1,")
        .replace(",random,mcts:iterations=2000", ",random,random");
    fs::write(&csv, edited.join("\n") + "\n").unwrap();
    let output = arena()
        .args(["verify", out.to_str().unwrap()])
        .output()
        .unwrap();
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{error}");
    assert!(
        error.contains(&format!(":{}", line + 1))
            && error.contains("second")
            && error.contains("student1"),
        "{error}"
    );
}
