//! A class tournament through the binary (`submissions = "DIR"`,
//! `docs/src/guide/class-tournament.md`): broken and hostile submissions are excluded with
//! their reasons and the rest play; a run killed with SIGKILL resumes to the uninterrupted
//! CSV; a changed folder is refused on resume; the class standings CSV is the report's.
//! Small: tic-tac-toe, Python agents, a few seconds of games.

use std::collections::BTreeMap;
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
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-class-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A Python agent that plays the `pick`-th legal move (Python's index: -1 is the last), and
/// exits with an error at its first move when `crash`.
fn agent(pick: i32, crash: bool) -> String {
    agent_doing(
        pick,
        if crash {
            "raise RuntimeError(\"broken on purpose\")"
        } else {
            "pass"
        },
    )
}

/// As [`agent`], doing `first` (a Python statement) before each move.
fn agent_doing(pick: i32, first: &str) -> String {
    format!(
        r#"import sys
legal = []
for raw in sys.stdin:
    w = raw.split()
    if not w:
        continue
    if w[0] == "arena":
        print("feature reuse")
        print("ready")
    elif w[0] == "game":
        print("ok")
    elif w[0] == "legal":
        legal = w[1:]
    elif w[0] == "go":
        {first}
        print("move " + legal[{pick}])
    elif w[0] == "quit":
        break
    sys.stdout.flush()
"#
    )
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// The class folder: three good submissions (one named by its manifest), one that crashes in
/// its games, and the excluded: a build that fails, a program that does not start, and the
/// hostile names (a space, a comma that would add a spec key, a link to a folder outside, a
/// manifest name with a comma, a manifest command with a comma).
fn class(dir: &Path, games_per_pair: u32) -> PathBuf {
    let subs = dir.join("submissions");
    write(&subs.join("first/main.py"), &agent(0, false));
    write(&subs.join("last/main.py"), &agent(-1, false));
    write(
        &subs.join("last/submission.toml"),
        "name = \"last-move\"\nlanguage = \"python\"\ncommand = \"python3 -u main.py\"\n",
    );
    write(&subs.join("middle/main.py"), &agent(1, false));
    write(&subs.join("crasher/main.py"), &agent(0, true));
    // 8 GB asked: the sandbox's memory limit (1 GiB by default) refuses it.
    write(
        &subs.join("hog/main.py"),
        &agent_doing(0, "bytearray(8 << 30)"),
    );
    write(&subs.join("nobuild/main.py"), &agent(0, false));
    write(
        &subs.join("nobuild/build.sh"),
        "echo compiling >&2\necho 'main.c:3: error: expected ;' >&2\nexit 1\n",
    );
    write(
        &subs.join("nostart/main.py"),
        "import sys\nfor raw in sys.stdin\n",
    );
    write(&subs.join("a b/main.py"), &agent(0, false));
    write(&subs.join("x,cmd=evil/main.py"), &agent(0, false));
    write(&subs.join("badname/main.py"), &agent(0, false));
    write(&subs.join("badname/submission.toml"), "name = \"a,b\"\n");
    write(&subs.join("badcmd/main.py"), &agent(0, false));
    write(
        &subs.join("badcmd/submission.toml"),
        "command = \"python3 main.py,cmd=/bin/sh\"\n",
    );
    let outside = dir.join("outside");
    write(&outside.join("main.py"), &agent(0, false));
    std::os::unix::fs::symlink(&outside, subs.join("link")).unwrap();
    let file = dir.join("class.toml");
    write(
        &file,
        &format!(
            "name = \"class-test\"\nseed = 7\ngames_per_pair = {games_per_pair}\n\
             variants = [\"tictactoe\"]\nsubmissions = \"submissions\"\nbuild_time_s = 60\n\n\
             [[agents]]\nname = \"random\"\nspec = \"random\"\n\n\
             [[agents]]\nname = \"alphabeta\"\nspec = \"alphabeta:depth=2\"\n"
        ),
    );
    file
}

const PASSED: [&str; 5] = ["crasher", "first", "hog", "last-move", "middle"];
/// The pairs of the references and the five that pass.
const PAIRS: usize = 21;

fn spawn_run(file: &Path, out: &Path, report: bool) -> Child {
    let mut command = arena();
    command
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--threads", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if !report {
        command.arg("--no-report");
    }
    command.spawn().unwrap()
}

fn run_to_end(file: &Path, out: &Path, report: bool) -> Output {
    let output = spawn_run(file, out, report).wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The lines of the CSV at `csv`, its header included (0 while it does not exist).
fn lines(csv: &Path) -> usize {
    fs::read_to_string(csv).map_or(0, |t| t.lines().count())
}

/// Waits until the CSV at `csv` holds `target` lines or the run `child` has ended, 120 s at
/// most.
fn until_lines(child: &mut Child, csv: &Path, target: usize) {
    let waited = Instant::now();
    while lines(csv) < target && child.try_wait().unwrap().is_none() {
        assert!(waited.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn records(csv: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(csv).unwrap();
    let header = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// The CSV's lines with the timing columns blanked.
fn without_timing(csv: &Path) -> Vec<Vec<String>> {
    let (header, rows) = records(csv);
    rows.into_iter()
        .map(|row| {
            row.into_iter()
                .zip(&header)
                .map(|(field, column)| {
                    if arena::TIMING_COLUMNS.contains(&column.as_str()) {
                        String::new()
                    } else {
                        field
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn broken_and_hostile_submissions_are_excluded_the_rest_play_and_the_class_csv_is_the_report_s() {
    let dir = scratch("broken");
    let file = class(&dir, 2);
    let out = dir.join("out");
    let output = run_to_end(&file, &out, true);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("submissions: 5 of 12 passed"), "{text}");

    // Each excluded one with its reason; the build's log tail is printed.
    let (_, table) = records(&out.join("submissions.csv"));
    let status: BTreeMap<&str, (&str, &str)> = table
        .iter()
        .map(|r| (r[0].as_str(), (r[2].as_str(), r[4].as_str())))
        .collect();
    let excluded = |folder: &str, why: &str| {
        let (state, reason) = status[folder];
        assert_eq!(state, "excluded", "{folder}");
        assert!(reason.contains(why), "{folder}: {reason}");
    };
    excluded("nobuild", "the build failed");
    excluded("nostart", "before answering");
    excluded("a b", "is not plain");
    excluded("x,cmd=evil", "is not plain");
    excluded("link", "a link");
    excluded("badname", "not usable");
    excluded("badcmd", "without commas");
    assert!(text.contains("main.c:3: error: expected ;"), "{text}");
    assert!(out.join("builds/nobuild.log").exists());

    // The rest played: every pair of the references and the four that passed, and nobody else.
    let (header, rows) = records(&out.join("games.csv"));
    let column = |name: &str| header.iter().position(|c| c == name).unwrap();
    let mut seen: Vec<&str> = rows
        .iter()
        .flat_map(|r| [r[column("first")].as_str(), r[column("second")].as_str()])
        .collect();
    seen.sort_unstable();
    seen.dedup();
    let mut expected: Vec<&str> = PASSED.into_iter().chain(["alphabeta", "random"]).collect();
    expected.sort_unstable();
    assert_eq!(seen, expected);
    assert_eq!(rows.len(), PAIRS * 2);
    let ended = |who: &str, termination: &str| {
        rows.iter()
            .filter(|r| r[column("first")] == who || r[column("second")] == who)
            .filter(|r| r[column("termination")] == termination)
            .count()
    };
    // Each loses its 12 games, the crasher's by a crash, the hog's at its memory limit, but
    // one: the one against the other where the other moves first and fails first.
    assert_eq!(ended("crasher", "crash"), 11, "crasher: {rows:?}");
    assert_eq!(ended("crasher", "memory-limit"), 1, "crasher: {rows:?}");
    assert_eq!(ended("hog", "memory-limit"), 11, "hog: {rows:?}");
    assert_eq!(ended("hog", "crash"), 1, "hog: {rows:?}");
    // Nothing was written into the folder the link pointed at.
    assert_eq!(fs::read_dir(dir.join("outside")).unwrap().count(), 1);

    // The class standings are the report's standings, row for row, then the excluded.
    let (_, standings) = records(&out.join("standings.csv"));
    let (class_header, class_rows) = records(&out.join("class-standings.csv"));
    assert_eq!(
        class_header,
        [
            "variant",
            "rank",
            "name",
            "role",
            "games",
            "wins",
            "draws",
            "losses",
            "score_pct",
            "elo",
            "elo_low",
            "elo_high",
            "faults",
            "note"
        ]
    );
    assert_eq!(class_rows.len(), standings.len() + 7);
    for (ours, theirs) in class_rows.iter().zip(&standings) {
        // standings.csv: variant,rank,agent,games,wins,draws,losses,score_pct,points,elo,
        // elo_low,elo_high,faults
        let same = [
            (0, 0),
            (1, 1),
            (2, 2),
            (4, 3),
            (5, 4),
            (6, 5),
            (7, 6),
            (8, 7),
            (9, 9),
            (10, 10),
            (11, 11),
            (12, 12),
        ];
        for (a, b) in same {
            assert_eq!(ours[a], theirs[b], "{ours:?} against {theirs:?}");
        }
        let role = if PASSED.contains(&ours[2].as_str()) {
            "entrant"
        } else {
            "reference"
        };
        assert_eq!(ours[3], role);
    }
    let tail: Vec<&str> = class_rows[standings.len()..]
        .iter()
        .map(|r| r[3].as_str())
        .collect();
    assert_eq!(tail, ["excluded"; 7]);

    // The class report: the crosstable, the faults with their reasons and log lines, the
    // excluded.
    let md = fs::read_to_string(out.join("class.md")).unwrap();
    assert!(md.contains("| crasher | mnk-3x3k3 | crash | 11 ("), "{md}");
    // The verdict of the sandbox's limit, which the CSV's termination names too.
    assert!(
        md.contains("| hog | mnk-3x3k3 | memory limit | 11 ("),
        "{md}"
    );
    assert!(
        md.contains("The CSV's `termination` column names it too"),
        "{md}"
    );
    assert!(md.contains("RuntimeError: broken on purpose"), "{md}");
    assert!(
        md.contains("**nobuild** (folder `nobuild`): the build failed"),
        "{md}"
    );
    assert!(
        md.contains("| entrant | alphabeta (ref) | random (ref) |"),
        "{md}"
    );

    // The folder's copy of the experiment needs neither the submissions nor their builds.
    let verified = arena()
        .args(["verify", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
}

#[test]
fn a_class_run_killed_with_sigkill_resumes_to_the_uninterrupted_csv_and_keeps_its_entrants() {
    let dir = scratch("kill");
    let file = class(&dir, 4);
    // The good submissions think 20 ms a move, so the run lasts seconds past each kill's
    // target: unslowed, the whole run could finish between two looks at the CSV on a quiet
    // machine (the CSV's rows are written in schedule order, several at once when an earlier
    // game was the last to end). The moves, and so the CSV outside timing, are the same.
    let slow = "__import__(\"time\").sleep(0.02)";
    let subs = dir.join("submissions");
    write(&subs.join("first/main.py"), &agent_doing(0, slow));
    write(&subs.join("last/main.py"), &agent_doing(-1, slow));
    write(&subs.join("middle/main.py"), &agent_doing(1, slow));
    let reference = dir.join("reference");
    run_to_end(&file, &reference, false);

    let out = dir.join("killed");
    let csv = out.join("games.csv");
    let rows = || lines(&csv);
    for target in [4, 20] {
        let mut child = spawn_run(&file, &out, false);
        until_lines(&mut child, &csv, target);
        if child.try_wait().unwrap().is_some() {
            let output = child.wait_with_output().unwrap();
            panic!(
                "the run ended before the kill at {} rows (target {target}): {}{}",
                rows(),
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert!(rows() < 1 + PAIRS * 4, "the kills left nothing to resume");
    let last = run_to_end(&file, &out, false);
    let text = String::from_utf8_lossy(&last.stdout);
    assert!(text.contains("as recorded when this run began"), "{text}");
    assert_eq!(
        without_timing(&csv),
        without_timing(&reference.join("games.csv"))
    );

    // A student added after the run began: refused, not silently a different tournament.
    write(&dir.join("submissions/late/main.py"), &agent(0, false));
    let output = spawn_run(&file, &out, false).wait_with_output().unwrap();
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("changed since this run began (added: late"),
        "{error}"
    );
    assert!(error.contains("--fresh"), "{error}");
}

#[test]
fn a_second_run_into_a_class_run_that_plays_is_refused_before_it_builds_or_rewrites_its_table() {
    let dir = scratch("second");
    let file = class(&dir, 4);
    let slow = "__import__(\"time\").sleep(0.05)";
    let subs = dir.join("submissions");
    for (name, pick) in [("first", 0), ("middle", 1)] {
        write(
            &subs.join(format!("{name}/main.py")),
            &agent_doing(pick, slow),
        );
    }
    let out = dir.join("out");
    let csv = out.join("games.csv");
    let mut first = spawn_run(&file, &out, false);
    until_lines(&mut first, &csv, 2);
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first run ended early"
    );
    let table = out.join(arena::admission::TABLE);
    let build_log = out.join(arena::admission::BUILD_LOGS).join("nobuild.log");
    let before = (
        fs::read(&table).unwrap(),
        fs::metadata(&build_log).unwrap().modified().unwrap(),
    );
    let second = arena()
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--fresh", "--no-report"])
        .output()
        .unwrap();
    let error = String::from_utf8_lossy(&second.stderr);
    let still = first.try_wait().unwrap().is_none();
    let _ = first.kill();
    let _ = first.wait();
    assert!(still, "the first run ended before the second was tried");
    assert!(!second.status.success());
    assert!(
        error.contains("is being written by another arena process"),
        "{error}"
    );
    assert!(!String::from_utf8_lossy(&second.stdout).contains("built"));
    let after = (
        fs::read(&table).unwrap(),
        fs::metadata(&build_log).unwrap().modified().unwrap(),
    );
    assert_eq!(
        before, after,
        "the second run rewrote the first's admissions"
    );
}

/// The committed class run (`results/class`, the guide's worked example) is what
/// `experiments/class/class.toml` admits and what the current code reports: its class report
/// and standings CSV, rewritten from its files, are the committed ones byte for byte.
#[test]
fn the_committed_class_report_is_what_the_current_code_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let committed = root.join("results/class");
    let dir = scratch("committed");
    let out = dir.join("class");
    // The files the class report reads, as `arena run` left them.
    let mut files = vec![
        "games.csv".to_string(),
        "games.meta.toml".into(),
        "games.faults.log".into(),
        "submissions.csv".into(),
    ];
    for sub in ["games.logs", "builds"] {
        for entry in fs::read_dir(committed.join(sub)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            files.push(format!("{sub}/{name}"));
        }
    }
    for file in &files {
        write(
            &out.join(file),
            &fs::read_to_string(committed.join(file)).unwrap(),
        );
    }
    let output = arena()
        .args(["report", out.join("games.csv").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for file in ["class.md", "class-standings.csv"] {
        assert_eq!(
            fs::read_to_string(out.join(file)).unwrap(),
            fs::read_to_string(committed.join(file)).unwrap(),
            "results/class/{file} is not what the current code writes: `arena report \
             results/class/games.csv` rewrites it"
        );
    }
}

/// With `format = "gauntlet"`, the listed agents are the field without `field = true`: each
/// submission that passes plays each reference, never another submission, and the run folder's
/// copy of the experiment (the field marked) verifies.
#[test]
fn in_a_gauntlet_the_listed_agents_are_the_field_of_the_submissions() {
    let dir = scratch("gauntlet");
    let file = class(&dir, 2);
    let text = fs::read_to_string(&file).unwrap();
    fs::write(
        &file,
        text.replace("submissions = ", "format = \"gauntlet\"\nsubmissions = "),
    )
    .unwrap();
    let out = dir.join("out");
    run_to_end(&file, &out, false);
    let (header, rows) = records(&out.join("games.csv"));
    let column = |name: &str| header.iter().position(|c| c == name).unwrap();
    assert_eq!(rows.len(), PASSED.len() * 2 * 2);
    for row in &rows {
        let seats = [
            row[column("first")].as_str(),
            row[column("second")].as_str(),
        ];
        let references = seats
            .iter()
            .filter(|s| ["random", "alphabeta"].contains(s))
            .count();
        assert_eq!(references, 1, "{seats:?}");
    }
    let copy = fs::read_to_string(out.join("experiment.toml")).unwrap();
    assert_eq!(copy.matches("field = true").count(), 2, "{copy}");
    let verified = arena()
        .args(["verify", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
}

#[test]
fn a_best_effort_run_records_the_layers_it_lacked_and_both_reports_say_them() {
    let dir = scratch("best-effort");
    let file = class(&dir, 1);
    let out = dir.join("out");
    // A session without the filter: the record is made when it begins.
    let output = arena()
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--threads", "2"])
        .env("ARENA_SANDBOX_DISABLE", "seccomp")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let line = "**Sandbox:** best-effort; missing here: the system-call filter (seccomp: turned \
                off) (see `arena sandbox`).";
    for report in ["report.md", "class.md"] {
        let text = fs::read_to_string(out.join(report)).unwrap();
        assert!(text.contains(line), "{report}:\n{text}");
    }
    // Kept by a later session with every layer (here one with nothing left to play).
    run_to_end(&file, &out, true);
    let meta = fs::read_to_string(out.join("games.meta.toml")).unwrap();
    assert!(
        meta.contains("sandbox_missing = [\"the system-call filter (seccomp: turned off)\"]"),
        "{meta}"
    );
    let text = fs::read_to_string(out.join("class.md")).unwrap();
    assert!(text.contains(line), "{text}");
    // A run with every layer says nothing of the sandbox.
    let whole = dir.join("whole");
    run_to_end(&file, &whole, true);
    for report in ["report.md", "class.md"] {
        let text = fs::read_to_string(whole.join(report)).unwrap();
        assert!(!text.contains("**Sandbox:**"), "{report}:\n{text}");
    }
    assert!(
        !fs::read_to_string(whole.join("games.meta.toml"))
            .unwrap()
            .contains("sandbox_missing")
    );
    let _ = fs::remove_dir_all(&dir);
}
