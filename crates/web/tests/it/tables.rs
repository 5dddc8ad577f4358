//! The server's tables under load: fair thinking (a cheap agent never waits behind expensive
//! ones; the time it took is printed, not asserted) and the memory cap (a table too large is
//! refused). Freed memory has a test binary of its own (`tests/memory.rs`), so that no other
//! test's agents share its process. For the README's figure run
//!
//! ```sh
//! cargo test --release -p web --test it tables:: -- --nocapture
//! ```

use crate::common;

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

/// An analysis is charged to the memory cap as a table is: one whose agent alone is over it
/// is refused, and one that fits makes room by closing the oldest idle game.
#[test]
fn an_analysis_is_charged_to_the_table_memory() {
    let results = results_folder("analysis-cap");
    let server = serve(&results, |options| options.table_memory_mb = 300);
    let mut client = Client::new(server.address);
    let refused = client.post(
        "/api/analyse",
        &json!({ "variant": "tictactoe", "agents": ["alphabeta:tt_mb=400"] }),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("300 MiB"), "{}", refused.body);
    // 151 + 101 MiB of a game, idle; an analysis of 101 MiB needs its room.
    let game = client.post(
        "/api/games",
        &json!({ "variant": "caro", "seats": ["alphabeta:tt_mb=150", "alphabeta:tt_mb=100"] }),
    );
    assert_eq!(game.status, 200, "{}", game.body);
    let id = game.json()["id"].as_str().unwrap().to_string();
    let analysis = client.post(
        "/api/analyse",
        &json!({ "variant": "tictactoe", "moves": "b2", "agents": ["alphabeta:tt_mb=100,depth=2"] }),
    );
    assert_eq!(analysis.status, 200, "{}", analysis.body);
    let gone = client.get(&format!("/api/games/{id}"));
    assert_eq!(gone.status, 404, "the idle game made room: {}", gone.body);
    assert_eq!(client.get("/api/meta").json()["limits"]["held_mb"], 0);
}

/// A game closed to make room says so; a person to move with time on their clock is not idle,
/// so the older game without a clock goes first.
#[test]
fn an_evicted_game_says_so_and_a_person_on_the_clock_is_not_idle() {
    let results = results_folder("evicted");
    let server = serve(&results, |options| options.tables = 2);
    let mut client = Client::new(server.address);
    let mut open = |extra: serde_json::Value| {
        let mut body = json!({ "variant": "tictactoe", "seats": ["human", "random"] });
        if let Some(st) = extra.get("st") {
            body["st"] = st.clone();
        }
        let game = client.post("/api/games", &body);
        assert_eq!(game.status, 200, "{}", game.body);
        game.json()["id"].as_str().unwrap().to_string()
    };
    let on_clock = open(json!({ "st": 3600 }));
    let idle = open(json!({}));
    let _third = open(json!({}));
    let kept = client.get(&format!("/api/games/{on_clock}"));
    assert_eq!(
        kept.status, 200,
        "the person on the clock was closed: {}",
        kept.body
    );
    let gone = client.get(&format!("/api/games/{idle}"));
    assert_eq!(gone.status, 404, "{}", gone.body);
    assert!(gone.body.contains("closed to make room"), "{}", gone.body);
}

/// Issue 36, defect 22: "move now" hurries an agent thinking about its move: given a billion
/// MCTS simulations, and the server's think limit raised to ten minutes, it answers once
/// asked, with a legal move and fewer simulations than its budget. Asked with no agent
/// thinking, the server says so (409).
#[test]
fn move_now_makes_a_thinking_agent_answer_with_its_best_so_far() {
    let results = results_folder("move-now");
    let server = serve(&results, |options| {
        options.think_limit = Duration::from_secs(600)
    });
    let address = server.address;
    let mut client = Client::new(address);
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "caro", "seats": ["mcts:iterations=1000000000", "human"], "seed": 22 }),
        )
        .json();
    let id = game["id"].as_str().unwrap().to_string();
    let idle = client.post(&format!("/api/games/{id}/move-now"), &json!({}));
    assert_eq!(idle.status, 409, "{}", idle.body);
    assert!(idle.body.contains("no agent is thinking"), "{}", idle.body);
    let thinker = {
        let id = id.clone();
        std::thread::spawn(move || {
            let mut client = Client::new(address);
            client.post(&format!("/api/games/{id}/think"), &json!({ "ply": 0 }))
        })
    };
    while client.get(&format!("/api/games/{id}")).json()["thinking"] != true {
        std::thread::sleep(Duration::from_millis(10));
    }
    let asked = client.post(&format!("/api/games/{id}/move-now"), &json!({}));
    assert_eq!(asked.status, 200, "{}", asked.body);
    // Without it the agent would think for ten minutes; the client gives up after two.
    let answer = thinker.join().unwrap();
    assert_eq!(answer.status, 200, "{}", answer.body);
    let played = &answer.json()["played"];
    assert_eq!(played["seat"], 0, "{played}");
    assert!(played["move"].is_string(), "{played}");
    let nodes = played["stats"]["nodes"].as_u64().unwrap();
    assert!(nodes < 1_000_000_000, "{played}");
}
