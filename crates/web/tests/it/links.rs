//! Every file every endpoint reads or writes stays inside the results folder: a link leading
//! out is neither read nor written through, the listings leave it out, reads are capped, and
//! no error names a path outside.

use crate::common;

use std::os::unix::fs::symlink;
use std::path::Path;

use common::{Client, results_folder, serve};
use serde_json::json;

/// The sample games of the repository's results folder.
fn sample() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/default/games.csv")
}

#[test]
fn no_endpoint_reads_or_writes_through_a_link_out_of_the_results_folder() {
    let results = results_folder("links");
    let outside = results
        .parent()
        .unwrap()
        .join(format!("arena-web-links-outside-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("report.md"), "# Secret outside\n").unwrap();
    std::fs::copy(sample(), outside.join("games.csv")).unwrap();
    std::fs::write(outside.join("victim.md"), "untouched").unwrap();
    std::fs::write(outside.join("victim.png"), "untouched").unwrap();
    // A report read through a link.
    std::fs::create_dir_all(results.join("linked")).unwrap();
    symlink(outside.join("report.md"), results.join("linked/report.md")).unwrap();
    // Games read through a link.
    std::fs::create_dir_all(results.join("reads")).unwrap();
    symlink(outside.join("games.csv"), results.join("reads/games.csv")).unwrap();
    // A report and a chart written through links.
    std::fs::create_dir_all(results.join("writes")).unwrap();
    std::fs::copy(sample(), results.join("writes/games.csv")).unwrap();
    symlink(outside.join("victim.md"), results.join("writes/report.md")).unwrap();
    symlink(
        outside.join("victim.png"),
        results.join("writes/elo-all.png"),
    )
    .unwrap();

    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let shown = outside.display().to_string();
    let mut answers = Vec::new();

    let report = client.get("/api/report?dir=linked");
    assert_eq!(report.status, 400, "{}", report.body);
    assert!(
        report.body.contains("outside the results folder"),
        "{}",
        report.body
    );
    answers.push(report);

    let reads = client.post("/api/report", &json!({ "dir": "reads" }));
    assert_eq!(reads.status, 400, "{}", reads.body);
    assert!(
        reads.body.contains("outside the results folder"),
        "{}",
        reads.body
    );
    answers.push(reads);
    let games = client.get("/api/records/games?file=reads/games.csv");
    assert_eq!(games.status, 400, "{}", games.body);
    answers.push(games);
    let game = client.get("/api/records/game?file=reads/games.csv&row=0");
    assert_eq!(game.status, 400, "{}", game.body);
    answers.push(game);

    let writes = client.post("/api/report", &json!({ "dir": "writes" }));
    assert_eq!(writes.status, 200, "{}", writes.body);
    for victim in ["victim.md", "victim.png"] {
        assert_eq!(
            std::fs::read_to_string(outside.join(victim)).unwrap(),
            "untouched",
            "{victim} was written through a link"
        );
    }
    for written in ["writes/report.md", "writes/elo-all.png"] {
        let kind = std::fs::symlink_metadata(results.join(written)).unwrap();
        assert!(kind.is_file(), "{written} is still a link");
    }
    let hidden: Vec<_> = std::fs::read_dir(results.join("writes"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(
        hidden.is_empty(),
        "the report's own folder was left: {hidden:?}"
    );

    // The listings leave out what the endpoints refuse.
    let folders = client.get("/api/reports").json();
    assert_eq!(
        folders["folders"],
        json!([{ "dir": "writes", "report": true, "games": true }]),
        "{folders}"
    );
    let records = client.get("/api/records").json();
    let files: Vec<&str> = records["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert!(!files.contains(&"reads/games.csv"), "{files:?}");
    assert!(files.contains(&"writes/games.csv"), "{files:?}");

    for answer in &answers {
        assert!(!answer.body.contains("Secret"), "{}", answer.body);
        assert!(!answer.body.contains(&shown), "{}", answer.body);
    }
    assert_eq!(common::PANICS.load(std::sync::atomic::Ordering::SeqCst), 0);
    drop(server);
    let _ = std::fs::remove_dir_all(outside);
}

/// A report.md larger than the page reads is refused, not read whole; one that is not a plain
/// file is refused before it is opened for reading.
#[test]
fn report_reads_are_capped_and_take_plain_files_only() {
    let results = results_folder("capped");
    std::fs::create_dir_all(results.join("big")).unwrap();
    // Sparse: 17 MiB of nothing on disk.
    let big = std::fs::File::create(results.join("big/report.md")).unwrap();
    big.set_len(17 << 20).unwrap();
    drop(big);
    std::fs::create_dir_all(results.join("odd/report.md")).unwrap();
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let big = client.get("/api/report?dir=big");
    assert_eq!(big.status, 422, "{}", &big.body[..big.body.len().min(300)]);
    assert!(big.body.contains("larger than the 16 MiB"), "{}", big.body);
    let odd = client.get("/api/report?dir=odd");
    assert_eq!(odd.status, 400, "{}", odd.body);
    assert!(odd.body.contains("not a plain file"), "{}", odd.body);
}
