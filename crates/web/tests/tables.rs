//! The server's tables under load: fair thinking (a cheap agent never waits behind expensive
//! ones) and freed memory (abandoned games give their memory back; the memory cap refuses a
//! table too large). Both print their figures; neither asserts on time. For the README's
//! figures run
//!
//! ```sh
//! cargo test --release -p web --test tables -- --nocapture --test-threads 1
//! ```

mod common;

use std::time::{Duration, Instant};

use common::{Client, results_folder, serve};
use serde_json::json;

/// Four tables think with `mcts:time_ms=8000` while a person plays `random` at a fifth: the
/// random reply comes while all four still think (they have 8 seconds each), and its time
/// is printed.
#[test]
fn a_cheap_agent_answers_while_four_slow_ones_think() {
    let results = results_folder("fair");
    let server = serve(&results, |_| {});
    let address = server.address;
    let mut client = Client::new(address);
    let mut slow = Vec::new();
    for seed in 0..4 {
        let game = client
            .post(
                "/api/games",
                &json!({ "variant": "caro", "seats": ["mcts:time_ms=8000", "human"], "seed": seed }),
            )
            .json();
        let id = game["id"].as_str().unwrap().to_string();
        let thinker = {
            let id = id.clone();
            std::thread::spawn(move || {
                let mut client = Client::new(address);
                client.post(&format!("/api/games/{id}/think"), &json!({ "ply": 0 }))
            })
        };
        slow.push((id, thinker));
    }
    // Every slow agent is thinking before the cheap one is asked.
    for (id, _) in &slow {
        while client.get(&format!("/api/games/{id}")).json()["thinking"] != true {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["human", "random"], "seed": 7 }),
        )
        .json();
    let id = game["id"].as_str().unwrap();
    let moved = client.post(&format!("/api/games/{id}/move"), &json!({ "move": "b2" }));
    assert_eq!(moved.status, 200, "{}", moved.body);
    let asked = Instant::now();
    let reply = client.post(&format!("/api/games/{id}/think"), &json!({ "ply": 1 }));
    let took = asked.elapsed();
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.json()["played"]["seat"], 1, "random answered");
    let still: Vec<bool> = slow
        .iter()
        .map(|(id, _)| client.get(&format!("/api/games/{id}")).json()["thinking"] == true)
        .collect();
    println!(
        "random's reply beside four mcts:time_ms=8000 agents thinking: {:.1} ms",
        took.as_secs_f64() * 1e3
    );
    assert_eq!(
        still, [true; 4],
        "the cheap agent answered before every slow one"
    );
    for (_, thinker) in slow {
        let answer = thinker.join().unwrap();
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
}

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
/// that never says anything): once the server has freed them, the resident memory is within
/// 50 MB of what it was before them.
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
    let end = resident_mb();
    println!(
        "resident memory: {start:.1} MB before 200 abandoned games, {peak:.1} MB at most during \
         them, {end:.1} MB once they were freed"
    );
    assert!(
        end <= start + 50.0,
        "resident memory {end:.1} MB, more than 50 MB over the {start:.1} MB before the games"
    );
}

/// A table whose agents alone would hold more than all tables may is refused, saying why;
/// the memory cap is in `/api/meta`.
#[test]
fn a_table_over_the_memory_cap_is_refused() {
    let results = results_folder("cap");
    let server = serve(&results, |options| options.table_memory_mb = 300);
    let mut client = Client::new(server.address);
    let refused = client.post(
        "/api/games",
        &json!({ "variant": "caro", "seats": ["human", "alphabeta:tt_mb=512"] }),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("300 MiB"), "{}", refused.body);
    let meta = client.get("/api/meta").json();
    assert_eq!(meta["limits"]["table_memory_mb"], 300);
    // Two tables of two default alpha-beta agents (65 MiB each) fit; the oldest idle one
    // makes room for a third.
    let mut ids = Vec::new();
    for _ in 0..3 {
        let game = client.post(
            "/api/games",
            &json!({ "variant": "caro", "seats": ["alphabeta", "alphabeta"] }),
        );
        assert_eq!(game.status, 200, "{}", game.body);
        ids.push(game.json()["id"].as_str().unwrap().to_string());
    }
    let meta = client.get("/api/meta").json();
    assert_eq!(meta["limits"]["held_mb"], 260, "{meta}");
    assert_eq!(
        client.get(&format!("/api/games/{}", ids[0])).status,
        404,
        "the oldest idle game made room"
    );
}
