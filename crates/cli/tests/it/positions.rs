//! `arena positions` end to end: the committed run exported, a file never half-written nor
//! replaced without `--force`, and the errors in words.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-positions-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The committed sample run (`results/default`: six variants).
fn sample_run() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../results/default")
        .display()
        .to_string()
}

#[test]
fn the_committed_run_exports_and_an_existing_file_is_kept_without_force() {
    let dir = scratch("export");
    let out = dir.join("ttt.npz");
    let out_text = out.display().to_string();
    let run = sample_run();
    let args = [
        "positions",
        &run,
        "--variant",
        "tictactoe",
        "--out",
        &out_text,
    ];
    let done = arena(&args);
    assert!(done.status.success(), "{}", text(&done.stderr));
    let said = text(&done.stdout);
    assert!(said.contains("positions of `mnk-3x3k3` from"), "{said}");
    assert!(said.contains("games of other variants"), "{said}");
    let first = std::fs::read(&out).unwrap();
    assert!(first.starts_with(b"PK\x03\x04"));
    assert!(!dir.join("ttt.npz.partial").exists());

    std::fs::write(&out, "mine").unwrap();
    let refused = arena(&args);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("exists: give another --out, or --force"));
    assert_eq!(std::fs::read(&out).unwrap(), b"mine");

    let forced = arena(&[&args[..], &["--force"]].concat());
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    assert!(
        std::fs::read(&out).unwrap() == first,
        "the same export, the same bytes"
    );
}

#[test]
fn bad_arguments_are_refused_in_words_and_write_nothing() {
    let dir = scratch("bad");
    let out = dir.join("p.npz").display().to_string();
    let run = sample_run();
    let cases: [(&[&str], &str); 4] = [
        (
            &["positions", &run, "--out", &out],
            "choose it with --variant",
        ),
        (
            &[
                "positions",
                &run,
                "--variant",
                "tictactoe",
                "--per-game",
                "2",
                "--fraction",
                "0.5",
                "--out",
                &out,
            ],
            "cannot be used with",
        ),
        (
            &[
                "positions",
                &run,
                "--variant",
                "tictactoe",
                "--fraction",
                "2",
                "--out",
                &out,
            ],
            "more than 0 and at most 1",
        ),
        (
            &["positions", "no-such-folder", "--out", &out],
            "no-such-folder",
        ),
    ];
    for (args, wanted) in cases {
        let done = arena(args);
        assert!(!done.status.success(), "{args:?}");
        let said = text(&done.stderr);
        assert!(said.contains(wanted), "{args:?}: {said}");
        assert!(!said.contains("panicked"), "{said}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "{args:?}");
    }
}

#[test]
fn a_play_record_and_an_sprt_folder_export_too() {
    let dir = scratch("sources");
    let record = dir.join("play.csv").display().to_string();
    for seed in ["1", "2"] {
        let args = [
            "play",
            "tictactoe",
            "--first",
            "random",
            "--second",
            "easy",
            "--seed",
            seed,
            "--record",
            &record,
        ];
        let done = arena(&args);
        assert!(done.status.success(), "{}", text(&done.stderr));
    }
    let sprt = dir.join("sprt").display().to_string();
    let args = [
        "sprt",
        "tictactoe",
        "--candidate",
        "random",
        "--baseline",
        "easy",
        "--max-pairs",
        "2",
        "--threads",
        "1",
        "--no-report",
        "--out",
        &sprt,
    ];
    let done = arena(&args);
    assert!(done.status.success(), "{}", text(&done.stderr));
    for (input, games) in [(&record, "from 2 games"), (&sprt, "from 4 games")] {
        let out = dir.join("p.npz").display().to_string();
        let done = arena(&["positions", input, "--out", &out, "--force"]);
        assert!(done.status.success(), "{input}: {}", text(&done.stderr));
        let said = text(&done.stdout);
        assert!(
            said.contains("of `mnk-3x3k3`") && said.contains(games),
            "{said}"
        );
    }
}
