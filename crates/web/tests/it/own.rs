//! The operator's own agents (`arena serve --agent NAME=SPEC`): outside programs the set-up
//! lists by name, checked when the server starts, each game in a process of its own in the
//! sandbox, stopped when the game ends or is freed; a hostile one loses on a fault and leaves
//! no process. The programs are the arena's scripted agent, `misbehave.py` (crates/cli/tests).

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{Client, play_out, results_folder, serve};
use serde_json::json;

/// The scripted outside agent in `mode`, carrying `marker` to be found among processes.
fn misbehave(name: &str, mode: &str, marker: &str) -> web::seats::OwnAgent {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cli/tests/agents/misbehave.py")
        .canonicalize()
        .expect("the scripted agent");
    web::seats::OwnAgent::parse(&format!(
        "{name}=proc:cmd=python3,args={} {mode} {marker}",
        script.display()
    ))
    .expect("a spec")
}

/// Processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) {
                found.push(text);
            }
        }
    }
    found
}

/// Waits (at most 20 s) until no process carries `marker`; the ones left, if any.
fn gone(marker: &str) -> Vec<String> {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let left = processes_with(marker);
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_operators_agent_is_listed_by_name_and_plays_a_game_to_its_end_in_a_process_of_its_own() {
    let marker = format!("own-fine-{}", std::process::id());
    let results = results_folder("own-fine");
    let server = serve(&results, |options| {
        options.agents = vec![
            misbehave("mine", "fine", &marker),
            misbehave("chess-only", "refuse", &marker),
        ];
    });
    assert!(
        gone(&marker).is_empty(),
        "the checks' processes were stopped"
    );
    let mut client = Client::new(server.address);
    let meta = client.get("/api/meta").json();
    let agents = meta["agents"].as_array().expect("the operator's agents");
    assert_eq!(agents.len(), 2, "{agents:?}");
    assert_eq!(agents[0]["name"], "mine");
    let plays: Vec<&str> = agents[0]["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for id in ["mnk-3x3k3", "oanquan", "oware"] {
        assert!(plays.contains(&id), "{id} not in {plays:?}");
    }
    assert!(agents[0]["unavailable"].is_null());
    // The one that declines every game is listed, unavailable, with its reason.
    assert_eq!(agents[1]["name"], "chess-only");
    assert_eq!(agents[1]["variants"], json!([]));
    let why = agents[1]["unavailable"].as_str().expect("a reason");
    assert!(why.contains("I only play chess"), "{why}");
    assert!(
        !meta.to_string().contains("misbehave.py"),
        "the page never sees the operator's command line"
    );

    // A request still never names a program itself; the unavailable agent is refused.
    let spec = misbehave("x", "fine", &marker).spec.to_string();
    let refused = client.post(
        "/api/games",
        &json!({ "variant": "tictactoe", "seats": [spec, "random"] }),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(
        refused.body.contains("never makes the server start"),
        "{}",
        refused.body
    );
    let refused = client.post(
        "/api/games",
        &json!({ "variant": "tictactoe", "seats": ["chess-only", "random"] }),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("unavailable"), "{}", refused.body);

    // The operator's agent against ours, by its name: a process while the game is played,
    // none once it ends.
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["mine", "random"], "seed": 5 }),
        )
        .json();
    assert_eq!(game["seats"][0]["label"], "X (mine)", "{game}");
    assert_eq!(
        game["seats"][0]["spec"], "mine",
        "a rematch seats it by name"
    );
    let id = game["id"].as_str().unwrap();
    let first = client.post(&format!("/api/games/{id}/think"), &json!({ "ply": 0 }));
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.json()["played"]["seat"], 0, "{}", first.body);
    assert!(
        !processes_with(&marker).is_empty(),
        "the agent's process runs during its game"
    );
    let (view, _) = play_out(&mut client, &first.json()["game"]);
    assert!(!view["over"]["result"].is_null(), "{view}");
    assert_eq!(view["recorded"]["file"], "play/games.csv", "{view}");
    assert_eq!(
        gone(&marker),
        Vec::<String>::new(),
        "its process stopped with the game"
    );
    let csv = std::fs::read_to_string(results.join("play/games.csv")).unwrap();
    assert!(
        csv.contains("proc:cmd=python3"),
        "the record says what played: {csv}"
    );

    // A variant typed by hand, not among those checked at start, is checked when asked for.
    let typed = client.post(
        "/api/games",
        &json!({ "variant": "mnk-4x5k3", "seats": ["random", "mine"], "seed": 2 }),
    );
    assert_eq!(typed.status, 200, "{}", typed.body);
    let (view, _) = play_out(&mut client, &typed.json());
    assert!(!view["over"]["result"].is_null(), "{view}");
    assert_eq!(view["over"]["termination"], "win", "{view}");
    let refused = client.post(
        "/api/games",
        &json!({ "variant": "mnk-4x5k3", "seats": ["random", "chess-only"] }),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert_eq!(gone(&marker), Vec::<String>::new());

    // A game freed before its end stops its process too.
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "oanquan", "seats": ["human", "mine"] }),
        )
        .json();
    let id = game["id"].as_str().unwrap();
    let moved = client.post(
        &format!("/api/games/{id}/move"),
        &json!({ "move": "3P", "ply": 0 }),
    );
    assert_eq!(moved.status, 200, "{}", moved.body);
    let reply = client.post(&format!("/api/games/{id}/think"), &json!({ "ply": 1 }));
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(!processes_with(&marker).is_empty());
    let closed = client.send("DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(closed.status, 200, "{}", closed.body);
    assert_eq!(
        gone(&marker),
        Vec::<String>::new(),
        "freed, its process stopped"
    );
}

#[test]
fn a_hostile_operators_agent_that_hangs_or_dies_loses_on_a_fault_and_leaves_no_process() {
    let marker = format!("own-hostile-{}", std::process::id());
    let results = results_folder("own-hostile");
    let server = serve(&results, |options| {
        options.agents = vec![
            misbehave("hangs", "hang", &marker),
            misbehave("dies", "crash", &marker),
        ];
        options.think_limit = Duration::from_secs(2);
    });
    let mut client = Client::new(server.address);
    for (name, termination) in [("hangs", "timeout"), ("dies", "crash")] {
        let game = client
            .post(
                "/api/games",
                &json!({ "variant": "tictactoe", "seats": ["random", name], "seed": 1 }),
            )
            .json();
        assert!(game["id"].is_string(), "{name}: {game}");
        let (view, _) = play_out(&mut client, &game);
        assert_eq!(view["over"]["termination"], termination, "{name}: {view}");
        assert_eq!(view["over"]["result"], "1-0", "{name}: {view}");
        let summary = view["over"]["summary"].as_str().unwrap();
        assert!(
            summary.starts_with(&format!("O ({name}) failed")),
            "{summary}"
        );
        assert!(!summary.contains("misbehave.py"), "{summary}");
        assert_eq!(
            gone(&marker),
            Vec::<String>::new(),
            "{name}: no process left"
        );
    }
}

#[test]
fn bad_agent_text_is_refused_naming_the_argument() {
    for (text, says) in [
        ("mine", "expected NAME=SPEC"),
        ("=random", "should be 1 to 32"),
        ("my agent=random", "should be 1 to 32"),
        ("random=mcts", "is taken"),
        ("human=mcts", "is taken"),
        ("mine=nosuchkind", "nosuchkind"),
        ("mine=mcts:iterations", "mine=mcts:iterations"),
    ] {
        let error = web::seats::OwnAgent::parse(text).unwrap_err();
        assert!(error.contains(says), "{text}: {error}");
        assert!(error.contains(&format!("`{text}`")), "{text}: {error}");
    }
    let own = web::seats::OwnAgent::parse("mine=mcts:iterations=200").unwrap();
    assert_eq!(own.name, "mine");
    assert_eq!(own.spec.to_string(), "mcts:iterations=200");
}
