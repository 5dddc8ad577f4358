//! Freed memory: 200 games started and abandoned give their memory back. The only test in its
//! binary, so the process's resident memory is the server's alone (no other test's agents grow
//! beside it); it asserts on memory, never on time. For the README's figure run
//!
//! ```sh
//! cargo test --release -p web --test memory -- --nocapture
//! ```

#[path = "it/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::{Client, results_folder, serve};
use serde_json::json;

/// The resident memory of this process (the server runs in it), MiB.
fn resident_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux's /proc");
    let kib: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("VmRSS");
    kib / 1024.0
}

/// Opens a game a person starts against an alpha-beta agent that fills its 8 MiB table, plays
/// one move each, and returns its id.
fn game_with_a_tree(client: &mut Client, seed: u64) -> String {
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "mnk-9x9k5", "seats": ["human", "alphabeta:tt_mb=8,nodes=40000"], "seed": seed }),
        )
        .json();
    let id = game["id"].as_str().expect("a game").to_string();
    let moved = client.post(&format!("/api/games/{id}/move"), &json!({ "move": "e5" }));
    assert_eq!(moved.status, 200, "{}", moved.body);
    let reply = client.post(&format!("/api/games/{id}/think"), &json!({ "ply": 1 }));
    assert_eq!(reply.status, 200, "{}", reply.body);
    id
}

/// 200 games started and abandoned three ways (the page's "New game", a closed tab, a page
/// that never says anything): once the server has freed them, the resident memory comes back
/// to within 25 MB of what it was before them (within 30 s: the sweep gives it back; without
/// it, glibc kept up to 56 MB).
#[test]
fn two_hundred_abandoned_games_give_their_memory_back() {
    let results = results_folder("memory");
    let server = serve(&results, |options| {
        options.leave_grace = Duration::ZERO;
        options.idle = Duration::from_secs(2);
    });
    let mut client = Client::new(server.address);
    // The allocator's and the runtime's first growth is not the tables'.
    for seed in 0..10 {
        let id = game_with_a_tree(&mut client, seed);
        client.send("DELETE", &format!("/api/games/{id}"), None);
    }
    let start = resident_mb();
    let mut peak = start;
    for seed in 0..200 {
        let id = game_with_a_tree(&mut client, 100 + seed);
        match seed % 3 {
            0 => {
                let closed = client.send("DELETE", &format!("/api/games/{id}"), None);
                assert_eq!(closed.status, 200, "{}", closed.body);
            }
            1 => {
                let left = client.send("POST", &format!("/api/games/{id}/leave"), None);
                assert_eq!(left.status, 200, "{}", left.body);
            }
            _ => {}
        }
        peak = peak.max(resident_mb());
    }
    // The silent ones go at the idle timeout, the left ones at the next sweep.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let meta = client.get("/api/meta").json();
        if meta["limits"]["open"] == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "games still open a minute on: {}",
            meta["limits"]
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    // The sweep after the frees gives the memory back to the operating system (every 5 s).
    let freed = Instant::now();
    let mut end = resident_mb();
    while end > start + 25.0 && freed.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(250));
        end = resident_mb();
    }
    println!(
        "resident memory: {start:.1} MB before 200 abandoned games, {peak:.1} MB at most during \
         them, {end:.1} MB once they were freed (after {:.1} s)",
        freed.elapsed().as_secs_f64()
    );
    assert!(
        peak >= start + 100.0,
        "the games' tables never filled ({peak:.1} MB at most, {start:.1} MB before): the test \
         measures nothing"
    );
    assert!(
        end <= start + 25.0,
        "resident memory {end:.1} MB, more than 25 MB over the {start:.1} MB before the games"
    );
}
