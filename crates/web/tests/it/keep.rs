//! A game record to keep and share: the play-record row of a finished game and its moves as
//! text (downloads), and a game given by its variant and moves (a shared link) replayed
//! position by position.

use crate::common;

use common::{Client, results_folder, serve};
use serde_json::json;

#[test]
fn a_finished_game_downloads_as_its_record_row_and_its_moves_as_text() {
    let results = results_folder("keep");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["human", "random"], "names": ["Lan", null], "seed": 3 }),
        )
        .json();
    let id = game["id"].as_str().unwrap();
    let early = client.get(&format!("/api/games/{id}/record.csv"));
    assert_eq!(early.status, 409, "{}", early.body);
    assert!(early.body.contains("not recorded yet"), "{}", early.body);
    // Seed 3's random replies to b2 and c1 are a2 and c2 (as in `api`).
    for (at, mv) in ["b2", "c1", "a3"].iter().enumerate() {
        let answer = client.post(
            &format!("/api/games/{id}/move"),
            &json!({ "move": mv, "ply": 2 * at }),
        );
        assert_eq!(answer.status, 200, "{}", answer.body);
        let going = client.get(&format!("/api/games/{id}/moves.txt"));
        assert_eq!(going.status, 200, "{}", going.body);
        if answer.json()["game"]["over"].is_null() {
            assert!(
                going.body.contains("result * (the game goes on)"),
                "{}",
                going.body
            );
            client.post(
                &format!("/api/games/{id}/think"),
                &json!({ "ply": 2 * at + 1 }),
            );
        }
    }
    let csv = client.get(&format!("/api/games/{id}/record.csv"));
    assert_eq!(csv.status, 200, "{}", csv.body);
    let lines: Vec<&str> = csv.body.lines().collect();
    assert_eq!(lines.len(), 2, "{}", csv.body);
    let record = std::fs::read_to_string(results.join("play/games.csv")).unwrap();
    let written: Vec<&str> = record.lines().collect();
    assert_eq!(
        lines, written,
        "the header and the row as the server wrote them"
    );
    assert!(
        lines[1].starts_with("play-web,mnk-3x3k3,0,3,Lan,random,1-0,win,5,"),
        "{}",
        lines[1]
    );
    let text = client.get(&format!("/api/games/{id}/moves.txt"));
    assert_eq!(text.status, 200, "{}", text.body);
    assert_eq!(
        text.body,
        "variant mnk-3x3k3\nseat X (Lan)\nseat O (random)\nseed 3\n\
         result 1-0 (win): X (Lan) wins\n\n1. b2 a2\n2. c1 c2\n3. a3\n"
    );
    // A second game's row is its own, not the first's.
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["human", "random"], "seed": 3 }),
        )
        .json();
    let second = game["id"].as_str().unwrap();
    client.post(&format!("/api/games/{second}/resign"), &json!({}));
    let csv = client.get(&format!("/api/games/{second}/record.csv"));
    assert_eq!(csv.status, 200, "{}", csv.body);
    assert!(
        csv.body
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("play-web,mnk-3x3k3,1,3,"),
        "{}",
        csv.body
    );
}

#[test]
fn a_shared_line_replays_position_by_position_and_a_bad_move_is_named() {
    let results = results_folder("line");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let answer = client.get("/api/replay?variant=tictactoe&moves=b2+a2+c1");
    assert_eq!(answer.status, 200, "{}", answer.body);
    let line = answer.json();
    assert_eq!(line["variant"], "mnk-3x3k3");
    assert_eq!(line["positions"].as_array().unwrap().len(), 4);
    let moves: Vec<&str> = line["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["b2", "a2", "c1"]);
    let bad = client.get("/api/replay?variant=tictactoe&moves=b2+b2");
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(bad.body.contains("move 2 (`b2`)"), "{}", bad.body);
    let unknown = client.get("/api/replay?variant=chess&moves=e4");
    assert_eq!(unknown.status, 400, "{}", unknown.body);
    assert!(
        unknown.body.contains("unknown variant `chess`"),
        "{}",
        unknown.body
    );
}
