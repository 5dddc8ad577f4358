//! The server's API as the pages use it: games of people and agents played to their end and
//! recorded, the golden O An Quan positions, undo, hints, resignation, the clock, analysis,
//! replay and reports; and every kind of bad request answered with a 4xx that says why.

use crate::common;

use std::time::Duration;

use common::{Client, play_out, results_folder, serve};
use serde_json::json;

#[test]
fn a_person_beats_random_and_the_game_is_recorded_with_their_name() {
    let results = results_folder("person");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["human", "random"], "names": ["Lan", null], "seed": 3 }),
        )
        .json();
    let id = game["id"].as_str().unwrap();
    assert_eq!(game["seats"][0]["label"], "X (Lan)");
    // Seed 3's random replies to b2 and 0,2 (c1) are a2 and c2, as in the terminal.
    for (at, mv) in ["b2", "0,2", "a3"].iter().enumerate() {
        let answer = client.post(
            &format!("/api/games/{id}/move"),
            &json!({ "move": mv, "ply": 2 * at }),
        );
        assert_eq!(answer.status, 200, "{}", answer.body);
        let view = &answer.json()["game"];
        if view["over"].is_null() {
            let answer = client.post(
                &format!("/api/games/{id}/think"),
                &json!({ "ply": 2 * at + 1 }),
            );
            assert_eq!(answer.status, 200, "{}", answer.body);
        }
    }
    let view = client.get(&format!("/api/games/{id}")).json();
    assert_eq!(view["over"]["result"], "1-0");
    assert_eq!(view["over"]["summary"], "X (Lan) wins");
    assert_eq!(
        view["position"]["line"],
        json!([2, 4, 6]),
        "the winning line a3-b2-c1"
    );
    assert_eq!(view["moves"], "b2 a2 c1 c2 a3");
    assert_eq!(view["recorded"]["file"], "play/games.csv");
    let csv = std::fs::read_to_string(results.join("play/games.csv")).unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("play-web,mnk-3x3k3,0,3,Lan,random,1-0,win,5,"),
        "{csv}"
    );
    // The game is over: no more moves, no undo, and it is recorded once.
    let late = client.post(&format!("/api/games/{id}/undo"), &json!({}));
    assert_eq!(late.status, 409, "{}", late.body);
    client.get(&format!("/api/games/{id}"));
    assert_eq!(
        std::fs::read_to_string(results.join("play/games.csv")).unwrap(),
        csv
    );
    let stats = client.get("/api/stats?name=Lan").json();
    assert_eq!(stats["stats"]["games"], 1);
    assert_eq!(stats["people"], json!(["Lan"]));
}

#[test]
fn two_people_sow_the_golden_o_an_quan_positions_step_by_step() {
    let results = results_folder("golden");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "oanquan", "seats": ["human", "human"] }),
        )
        .json();
    let id = game["id"].as_str().unwrap();
    let golden = [
        ("3P", "[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)"),
        ("7P", "[6, 0, 0, 1, 7] <12> [7, 7, 1, 0, 6] <11> (6 || 6)"),
        ("5P", "[2, 3, 3, 4, 0] <0> [0, 0, 4, 3, 9] <14> (22 || 6)"),
    ];
    for (mv, line) in golden {
        let answer = client
            .post(&format!("/api/games/{id}/move"), &json!({ "move": mv }))
            .json();
        assert_eq!(answer["game"]["position"]["text"], line);
        let steps = answer["played"]["sowing"].as_array().unwrap();
        assert_eq!(steps[0]["step"], "pick");
    }
    let view = client.get(&format!("/api/games/{id}")).json();
    let pits = view["position"]["places"].as_array().unwrap();
    assert_eq!(pits[5]["value"], 0, "mandarin A captured");
    assert_eq!(view["position"]["points"], json!([22, 6]));
    // Player 2's turn: player 1's square is refused, with why.
    let refused = client.post(&format!("/api/games/{id}/move"), &json!({ "move": "1P" }));
    assert_eq!(refused.status, 422);
    assert!(
        refused.body.contains("belongs to player 1"),
        "{}",
        refused.body
    );
    // Undo between two people takes back one move.
    let undone = client
        .post(&format!("/api/games/{id}/undo"), &json!({ "ply": 3 }))
        .json();
    assert_eq!(undone["game"]["position"]["text"], golden[1].1);
}

#[test]
fn agents_of_every_game_play_to_the_end_and_every_game_is_recorded() {
    let results = results_folder("agents");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    for (variant, seats) in [
        ("mnk-5x5k4", json!(["random", "easy"])),
        ("caro", json!(["random", "neighbor"])),
        ("oanquan", json!(["greedy", "random"])),
        (
            "oanquan-3p",
            json!(["greedy", "random", "mc-flat:rollouts=20"]),
        ),
        (
            "oanquan-4p-stop",
            json!(["random", "random", "greedy", "random"]),
        ),
    ] {
        let game = client
            .post(
                "/api/games",
                &json!({ "variant": variant, "seats": seats, "seed": 5 }),
            )
            .json();
        let (end, _) = play_out(&mut client, &game);
        assert!(
            end["recorded"]["game"].is_u64(),
            "{variant}: {}",
            end["recorded"]
        );
    }
    // Games of 2, 3 and 4 players share the one record, in schema 2.
    let record = std::fs::read_to_string(results.join("play/games.csv")).unwrap();
    assert_eq!(record.lines().count(), 6, "{record}");
    assert!(record.starts_with("experiment,variant,game,"), "{record}");
    assert!(
        record
            .lines()
            .next()
            .unwrap()
            .ends_with(",third_nodes,fourth_nodes")
    );
    assert!(
        record
            .lines()
            .nth(4)
            .unwrap()
            .starts_with("play-web,oanquan-3p,3,5,greedy,random,"),
        "{record}"
    );
    // The replay page reads them back, move by move.
    let files = client.get("/api/records").json();
    let names: Vec<&str> = files["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["play/games.csv"]);
    let list = client
        .get("/api/records/games?file=play/games.csv&variant=oanquan-4p-stop")
        .json();
    assert_eq!(list["total"], 1);
    let row = list["games"][0]["row"].as_u64().unwrap();
    let game = client
        .get(&format!("/api/records/game?file=play/games.csv&row={row}"))
        .json();
    let moves = game["moves"].as_array().unwrap().len();
    assert_eq!(game["positions"].as_array().unwrap().len(), moves + 1);
}

#[test]
fn hints_undo_resign_and_the_clock() {
    let results = results_folder("turns");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["human", "human"] }),
        )
        .json();
    let id = game["id"].as_str().unwrap().to_string();
    for mv in ["b2", "a1", "a2", "c1"] {
        client.post(&format!("/api/games/{id}/move"), &json!({ "move": mv }));
    }
    // X wins at once with c2 (a2-b2-c2): the hint says so.
    let hint = client
        .post(&format!("/api/games/{id}/hint"), &json!({ "ply": 4 }))
        .json();
    assert_eq!(hint["hint"]["move"], "c2", "{hint}");
    // The line it expects starts with the move (and ends there: it wins).
    assert_eq!(hint["hint"]["pv"], json!(["c2"]), "{hint}");
    assert!(
        hint["hint"]["reason"].as_str().unwrap().contains("win"),
        "{hint}"
    );
    // A page that is behind is refused rather than obeyed.
    let stale = client.post(
        &format!("/api/games/{id}/move"),
        &json!({ "move": "c3", "ply": 2 }),
    );
    assert_eq!(stale.status, 409);
    let resigned = client
        .post(&format!("/api/games/{id}/resign"), &json!({}))
        .json();
    assert_eq!(resigned["game"]["over"]["termination"], "resign");
    assert_eq!(
        resigned["game"]["over"]["result"], "0-1",
        "X, to move, resigned"
    );

    // A person on a clock who does not move loses on time.
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["human", "random"], "move_time": 0.5 }),
        )
        .json();
    let id = game["id"].as_str().unwrap().to_string();
    assert!(game["clock_ms"].as_u64().unwrap() <= 500);
    std::thread::sleep(Duration::from_millis(1100));
    let late = client.post(&format!("/api/games/{id}/move"), &json!({ "move": "b2" }));
    assert_eq!(late.status, 409, "{}", late.body);
    let view = client.get(&format!("/api/games/{id}")).json();
    assert_eq!(view["over"]["termination"], "timeout");
    assert_eq!(view["over"]["result"], "0-1");
    assert!(view["recorded"]["game"].is_u64());
    // The report reads the resigned and the timed-out game alike.
    let rated = report::Report::from_csv_files(&[results.join("play/games.csv")]).unwrap();
    assert_eq!(rated.games(), 2);
}

#[test]
fn a_game_clock_gives_every_seat_its_time_and_charges_each_move() {
    let results = results_folder("game-clock");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["human", "random"], "tc": "60+10", "seed": 3 }),
        )
        .json();
    let id = game["id"].as_str().unwrap().to_string();
    assert_eq!(game["time_control"], "tc=60+10");
    assert!(game["move_time_ms"].is_null());
    let clocks = |view: &serde_json::Value| -> Vec<u64> {
        view["clocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|ms| ms.as_u64().unwrap())
            .collect()
    };
    let start = clocks(&game);
    assert_eq!(start.len(), 2);
    assert!(start[0] <= 60_000, "the person's clock runs: {start:?}");
    assert_eq!(start[1], 60_000, "the agent's stands");
    assert!(game["clock_ms"].as_u64().unwrap() <= 60_000);
    client.post(&format!("/api/games/{id}/ready"), &json!({ "ply": 0 }));
    let moved = client.post(
        &format!("/api/games/{id}/move"),
        &json!({ "move": "b2", "ply": 0 }),
    );
    assert_eq!(moved.status, 200, "{}", moved.body);
    let after = clocks(&moved.json()["game"]);
    assert!(
        after[0] > 60_000 && after[0] <= 70_000,
        "charged, and 10 s added: {after:?}"
    );
    assert_eq!(after[1], 60_000);
    let thought = client.post(&format!("/api/games/{id}/think"), &json!({ "ply": 1 }));
    assert_eq!(thought.status, 200, "{}", thought.body);
    let after = clocks(&thought.json()["game"]);
    assert!(after[1] > 60_000 && after[1] <= 70_000, "{after:?}");
    let undone = client.post(&format!("/api/games/{id}/undo"), &json!({ "ply": 2 }));
    assert_eq!(undone.status, 200, "{}", undone.body);
    assert_eq!(
        clocks(&undone.json()["game"])[1],
        60_000,
        "undo puts the clocks back"
    );

    // A limit per move alone is no game clock.
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["human", "random"], "st": 30 }),
        )
        .json();
    assert_eq!(game["time_control"], "st=30");
    assert_eq!(game["move_time_ms"], 30_000);
    assert!(game["clocks"].is_null());
}

#[test]
fn analysis_gives_the_solver_s_values_and_the_agents_moves() {
    let results = results_folder("analyse");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let answer = client
        .post(
            "/api/analyse",
            &json!({ "variant": "mnk-5x5k4", "moves": "b3 c3 c2 d1 b2 a2", "agents": ["alphabeta:depth=6", "random"], "solve": true }),
        )
        .json();
    assert_eq!(answer["solver"]["value"], "win");
    let mut best: Vec<&str> = answer["solver"]["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    best.sort_unstable();
    assert_eq!(best, ["b4", "d2", "e2"], "the TD4 position's winning moves");
    assert_eq!(answer["agents"][0]["move"], "b4", "{}", answer["agents"][0]);
    assert!(answer["agents"][0]["stats"]["nodes"].as_u64().unwrap() > 0);
    // Each agent's principal variation, in move texts: alpha-beta's win in three, none from
    // random.
    let pv = answer["agents"][0]["pv"].as_array().expect("a pv list");
    assert_eq!(pv.len(), 3, "{}", answer["agents"][0]);
    assert_eq!(pv[0], "b4", "{}", answer["agents"][0]);
    assert_eq!(
        answer["agents"][1]["pv"],
        json!([]),
        "{}",
        answer["agents"][1]
    );
    assert_eq!(answer["line"].as_array().unwrap().len(), 7);
    let over = client
        .post(
            "/api/analyse",
            &json!({ "variant": "tictactoe", "moves": "b2 a1 a2 c1 c2" }),
        )
        .json();
    assert_eq!(over["over"], "1-0");
}

#[test]
fn the_report_page_writes_and_renders_a_folder_s_report() {
    let results = results_folder("report");
    let source =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results/default/games.csv");
    std::fs::create_dir_all(results.join("sample")).unwrap();
    std::fs::copy(source, results.join("sample/games.csv")).unwrap();
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let folders = client.get("/api/reports").json();
    assert_eq!(
        folders["folders"],
        json!([{ "dir": "sample", "report": false, "games": true }])
    );
    let missing = client.get("/api/report?dir=sample");
    assert_eq!(missing.status, 404);
    let written = client
        .post("/api/report", &json!({ "dir": "sample" }))
        .json();
    let html = written["html"].as_str().unwrap();
    assert!(
        html.contains("<img src=\"/files/sample/elo-all.png\""),
        "{html}"
    );
    let chart = client.get("/files/sample/elo-all.png");
    assert_eq!(chart.status, 200);
    assert!(chart.body.len() > 1000);
}

#[test]
fn bad_requests_get_a_4xx_that_says_why() {
    let results = results_folder("bad");
    std::fs::write(results.join("notes.txt"), "private").unwrap();
    std::fs::create_dir_all(results.join("odd/report.md")).unwrap();
    let outside = results
        .parent()
        .unwrap()
        .join(format!("arena-web-outside-{}.csv", std::process::id()));
    std::fs::write(&outside, "secret").unwrap();
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let escape = format!("/files/../arena-web-outside-{}.csv", std::process::id());
    let cases: Vec<(&str, &str, Option<String>, u16, &str)> = vec![
        ("POST", "/api/games", Some(json!({"variant": "chess", "seats": []}).to_string()), 400, "unknown variant `chess`"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human"]}).to_string()), 400, "seats 2 players"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "wizard"]}).to_string()), 400, "unknown agent kind `wizard`"),
        ("POST", "/api/games", Some(json!({"variant": "oanquan-3p", "seats": ["human", "minimax", "random"]}).to_string()), 400, "minimax"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "engine:cmd=/bin/sh"]}).to_string()), 400, "does not seat `engine` agents"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "fault"]}).to_string()), 400, "fault"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "human"], "names": ["a\nb", null]}).to_string()), 400, "control characters"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "random"], "move_time": -1}).to_string()), 400, "move_time"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "random"], "st": 1e308}).to_string()), 400, "st 1e308: the time per move"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "random"], "tc": "5+x"}).to_string()), 400, "tc: time control `5+x`"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "random"], "tc": "0.5"}).to_string()), 400, "1 second or more"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "random"], "tc": "tc=tc=5"}).to_string()), 400, "`tc=5` is not a time"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "random"], "tc": "60 st=1"}).to_string()), 400, "`st=1` is a time per move"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "human"], "names": ["a\u{202E}b", null]}).to_string()), 400, "U+202E (format characters"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": ["human", "random"], "st": 1, "move_time": 1}).to_string()), 400, "not both"),
        ("POST", "/api/games", Some("{\"variant\": ".to_string()), 400, "malformed JSON"),
        ("POST", "/api/games", Some(json!({"variant": 3, "seats": []}).to_string()), 422, "does not fit"),
        ("POST", "/api/games", Some(json!({"variant": "tictactoe", "seats": [], "extra": 1}).to_string()), 422, "unknown field"),
        ("POST", "/api/games", Some("x".repeat(web::BODY_LIMIT + 10)), 413, "larger than"),
        ("GET", "/api/games/0123456789abcdef", None, 404, "no game"),
        ("POST", "/api/games/nope/move", Some(json!({"move": "b2"}).to_string()), 404, "no game"),
        ("GET", "/api/variant?id=mnk-99x3k3", None, 400, "unknown variant"),
        ("GET", "/api/variant", None, 400, "bad query string"),
        ("POST", "/api/analyse", Some(json!({"variant": "tictactoe", "moves": "b2 b2"}).to_string()), 422, "move 2 (`b2`)"),
        ("GET", "/api/records/games?file=../../etc/passwd", None, 400, "outside the results folder"),
        ("GET", "/api/records/games?file=/etc/passwd", None, 400, "outside the results folder"),
        ("GET", "/api/records/game?file=notes.txt&row=0", None, 422, "cannot be read"),
        ("GET", "/api/records/games?file=missing.csv", None, 404, "not in the results folder"),
        ("GET", "/api/report?dir=..", None, 400, "outside the results folder"),
        ("GET", "/api/report?dir=/tmp", None, 400, "outside the results folder"),
        ("GET", "/api/report?dir=odd", None, 400, "not a plain file"),
        ("GET", "/files/notes.txt", None, 400, "charts (PNG, SVG)"),
        ("GET", "/files/..%2F..%2Fetc%2Fpasswd", None, 400, "outside the results folder"),
        ("GET", &escape, None, 400, "outside the results folder"),
        ("GET", "/nothing/here", None, 404, "no page or API"),
        ("DELETE", "/api/games", None, 405, ""),
    ];
    for (method, path, body, status, words) in &cases {
        let answer = client.send(method, path, body.as_deref());
        assert_eq!(answer.status, *status, "{method} {path}: {}", answer.body);
        assert!(
            answer.body.contains(words),
            "{method} {path}: {}",
            answer.body
        );
        if !words.is_empty() {
            assert!(answer.json()["error"].is_string(), "{}", answer.body);
        }
    }
    // The wrong content type, host and origin.
    let game = client
        .post(
            "/api/games",
            &json!({"variant": "tictactoe", "seats": ["human", "random"]}),
        )
        .json();
    let id = game["id"].as_str().unwrap();
    let illegal = client.post(&format!("/api/games/{id}/move"), &json!({"move": "d9"}));
    assert_eq!(illegal.status, 422, "{}", illegal.body);
    assert!(illegal.body.contains("off the board"), "{}", illegal.body);
    let agent_turn = client.post(&format!("/api/games/{id}/think"), &json!({}));
    assert_eq!(agent_turn.status, 409, "{}", agent_turn.body);
    for (head, status, words) in [
        (
            format!(
                "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{{}}",
                server.address
            ),
            415,
            "Content-Type: application/json",
        ),
        (
            "GET /api/meta HTTP/1.1\r\nHost: attacker.example:80\r\n\r\n".to_string(),
            403,
            "answers requests for",
        ),
        (
            format!(
                "POST /api/games HTTP/1.1\r\nHost: {}\r\nOrigin: http://attacker.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}",
                server.address
            ),
            403,
            "another origin",
        ),
    ] {
        use std::io::Write;
        let mut stream = std::net::TcpStream::connect(server.address).unwrap();
        stream.write_all(head.as_bytes()).unwrap();
        let answer = common::read_answer(&mut std::io::BufReader::new(stream)).unwrap();
        assert_eq!(answer.status, status, "{head}: {}", answer.body);
        assert!(answer.body.contains(words), "{}", answer.body);
    }
    assert_eq!(common::PANICS.load(std::sync::atomic::Ordering::SeqCst), 0);
    let _ = std::fs::remove_file(outside);
}

#[test]
fn a_slow_agent_blocks_no_other_request() {
    let results = results_folder("slow");
    // The slow agent's search stops at its deadline: the test does not wait for ever.
    let server = serve(&results, |options| {
        options.think_limit = Duration::from_secs(8)
    });
    let mut client = Client::new(server.address);
    let slow = client
        .post(
            "/api/games",
            &json!({ "variant": "caro", "seats": ["mcts:iterations=1000000000", "human"] }),
        )
        .json();
    let id = slow["id"].as_str().unwrap().to_string();
    let address = server.address;
    let (done, finished) = std::sync::mpsc::channel();
    let thinker = std::thread::spawn(move || {
        let mut client = Client::new(address);
        let answer = client.post(&format!("/api/games/{id}/think"), &json!({ "ply": 0 }));
        let _ = done.send(());
        answer
    });
    // Wait until the agent is thinking, then play whole games beside it.
    let slow_id = slow["id"].as_str().unwrap();
    loop {
        let view = client.get(&format!("/api/games/{slow_id}")).json();
        if view["thinking"] == true {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let busy = client.post(
        &format!("/api/games/{slow_id}/move"),
        &json!({ "move": "h8" }),
    );
    assert_eq!(busy.status, 409, "{}", busy.body);
    for seed in 0..10 {
        let game = client
            .post(
                "/api/games",
                &json!({ "variant": "tictactoe", "seats": ["random", "random"], "seed": seed }),
            )
            .json();
        let (end, _) = play_out(&mut client, &game);
        assert!(!end["over"].is_null());
    }
    assert!(
        finished.try_recv().is_err(),
        "ten games were played while the slow agent still thought"
    );
    let answer = thinker.join().unwrap();
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.json()["played"]["seat"], 0);
}

#[test]
fn no_request_makes_the_server_start_a_program() {
    let results = results_folder("outside");
    let server = serve(&results, |_| {});
    let mut client = Client::new(server.address);
    let marker = results.join("started");
    let script = format!("-c 'touch {}'", marker.display());
    let outside = [
        format!("proc:cmd=/bin/sh,args={script}"),
        "proc:cmd=python3".to_string(),
        format!("engine:cmd=/bin/sh,args={script}"),
    ];
    for spec in &outside {
        let kind = spec.split(':').next().unwrap();
        let refusal = format!("does not seat `{kind}` agents");
        // In any seat, of a two-player or a larger table.
        for (variant, seats) in [
            ("tictactoe", json!(["human", spec])),
            ("tictactoe", json!([spec, "random"])),
            ("oanquan-3p", json!(["random", "human", spec])),
        ] {
            let answer = client.post("/api/games", &json!({ "variant": variant, "seats": seats }));
            assert_eq!(answer.status, 400, "{spec} in {seats}: {}", answer.body);
            assert!(answer.body.contains(&refusal), "{}", answer.body);
            assert!(
                answer.body.contains("never makes the server start"),
                "{}",
                answer.body
            );
        }
        // Nor among the agents an analysis asks.
        let answer = client.post(
            "/api/analyse",
            &json!({ "variant": "tictactoe", "moves": "b2", "agents": ["random", spec] }),
        );
        assert_eq!(answer.status, 400, "{spec}: {}", answer.body);
        assert!(answer.body.contains(&refusal), "{}", answer.body);
    }
    // The pages are offered every kind of the registry but the outside ones.
    let meta = client.get("/api/meta").json();
    let kinds: Vec<&str> = meta["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"alphabeta") && kinds.contains(&"greedy"),
        "{kinds:?}"
    );
    assert!(
        !kinds.contains(&"proc") && !kinds.contains(&"engine"),
        "{kinds:?}"
    );
    assert!(!marker.exists(), "a program was started");
}
