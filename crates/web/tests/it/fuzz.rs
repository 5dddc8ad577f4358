//! The request fuzz test: thousands of malformed requests to a server on 127.0.0.1 (broken
//! JSON, wrong types, huge and odd numbers, paths that try to leave the results folder, bad
//! headers, wrong methods, bytes that are not HTTP at all), drawn from a seeded generator.
//! No answer may be a 5xx, nothing may panic, and the server must still answer afterwards.
//! Bounded: a fixed count of requests, and it stops after two minutes whatever happens.

use crate::common;

use std::io::{BufReader, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use common::{Client, results_folder, serve};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

const REQUESTS: usize = 3000;
const TIME_LIMIT: Duration = Duration::from_secs(120);

/// A JSON value of any shape, some of them absurd.
fn junk_value(rng: &mut ChaCha8Rng, depth: u32) -> serde_json::Value {
    match rng.random_range(0..12) {
        0 => json!(null),
        1 => json!(rng.random::<bool>()),
        2 => json!(rng.random::<i64>()),
        3 => json!(rng.random::<u64>()),
        4 => json!(rng.random::<f64>() * 1e300),
        5 => json!(-1),
        6 => json!(""),
        7 => json!("x".repeat(rng.random_range(0..3000))),
        8 => json!(
            [
                "human",
                "random",
                "alphabeta:depth=99",
                "mcts:iterations=0",
                "easy:mistake=2"
            ][rng.random_range(0..5)]
        ),
        9 if depth < 4 => json!(
            (0..rng.random_range(0..5))
                .map(|_| junk_value(rng, depth + 1))
                .collect::<Vec<_>>()
        ),
        10 if depth < 4 => {
            let mut map = serde_json::Map::new();
            for key in [
                "variant",
                "seats",
                "move",
                "ply",
                "seat",
                "names",
                "seed",
                "move_time",
                "moves",
                "agents",
                "solve",
                "dir",
            ] {
                if rng.random_bool(0.3) {
                    map.insert(key.to_string(), junk_value(rng, depth + 1));
                }
            }
            serde_json::Value::Object(map)
        }
        _ => json!(
            [
                "tictactoe",
                "oanquan-3p",
                "mnk-0x0k0",
                "mnk-19x19k20",
                "oanquan-9p",
                "b2",
                "3P",
                "99P",
                "0,0",
                "-1,-1",
                "18,18",
                "é",
                "\u{0}",
                "../.."
            ][rng.random_range(0..14)]
        ),
    }
}

/// A valid body for `path`, then damaged in one of many ways.
fn body_for(rng: &mut ChaCha8Rng, path: &str) -> Vec<u8> {
    let valid = if path.ends_with("/api/games") {
        json!({ "variant": "tictactoe", "seats": ["human", "random"] })
    } else if path.ends_with("/api/analyse") {
        json!({ "variant": "oanquan", "moves": "3P 7P", "agents": ["random"], "solve": false })
    } else if path.ends_with("/api/report") {
        json!({ "dir": "." })
    } else {
        json!({ "move": "b2", "ply": 0 })
    };
    let mut text = valid.to_string().into_bytes();
    match rng.random_range(0..8) {
        0 => text = junk_value(rng, 0).to_string().into_bytes(),
        1 => {
            // Replace one field's value by a value of another shape.
            let mut value = valid.clone();
            if let Some(map) = value.as_object_mut() {
                let keys: Vec<String> = map.keys().cloned().collect();
                let key = &keys[rng.random_range(0..keys.len())];
                map.insert(key.clone(), junk_value(rng, 1));
            }
            text = value.to_string().into_bytes();
        }
        2 => {
            let cut = rng.random_range(0..text.len());
            text.truncate(cut);
        }
        3 => {
            for _ in 0..rng.random_range(1..6) {
                let at = rng.random_range(0..text.len());
                text[at] = rng.random::<u8>();
            }
        }
        4 => text = vec![b'['; rng.random_range(1..5000)],
        5 => {
            text = (0..rng.random_range(0..200))
                .map(|_| rng.random::<u8>())
                .collect()
        }
        6 => {
            text = format!(
                "{{\"variant\": \"{}\"}}",
                "9".repeat(rng.random_range(1..400))
            )
            .into_bytes()
        }
        _ => {
            // Over the body limit.
            text = vec![b' '; web::BODY_LIMIT + rng.random_range(1..1000)];
        }
    }
    text
}

/// A path to an API or file, often bent.
fn path_for(rng: &mut ChaCha8Rng, game: &str) -> (&'static str, String) {
    let escapes = [
        "..",
        "%2e%2e",
        "..%2f..",
        "%2F",
        "%00",
        "/etc/passwd",
        "....//",
        "default/../../",
        "\\..\\",
        "%c0%ae",
    ];
    let escape = escapes[rng.random_range(0..escapes.len())];
    let junk: String = (0..rng.random_range(0..40))
        .map(|_| char::from(rng.random_range(0x21u8..0x7f)))
        .filter(|c| !c.is_whitespace())
        .collect();
    let junk = junk.replace('#', "%23");
    match rng.random_range(0..16) {
        0 => ("POST", "/api/games".into()),
        1 => ("POST", format!("/api/games/{game}/move")),
        2 => ("POST", format!("/api/games/{game}/think")),
        3 => (
            "POST",
            format!(
                "/api/games/{game}/{}",
                ["undo", "hint", "resign", "ready", "nope"][rng.random_range(0..5)]
            ),
        ),
        4 => ("POST", "/api/analyse".into()),
        5 => ("POST", "/api/report".into()),
        6 => ("GET", format!("/files/{escape}{junk}")),
        7 => (
            "GET",
            format!(
                "/api/records/games?file={escape}{junk}&offset={}&limit={}",
                rng.random::<i64>(),
                junk
            ),
        ),
        8 => (
            "GET",
            format!(
                "/api/records/game?file=play/games.csv&row={}",
                rng.random::<u64>()
            ),
        ),
        9 => ("GET", format!("/api/report?dir={escape}{junk}")),
        10 => ("GET", format!("/api/variant?id={junk}")),
        11 => ("GET", format!("/api/stats?name={junk}&name=x")),
        12 => ("GET", format!("/api/games/{junk}")),
        13 => (
            ["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "POST"][rng.random_range(0..6)],
            format!("/api/meta{junk}"),
        ),
        14 => ("GET", format!("/{junk}")),
        _ => ("POST", format!("/api/games/{junk}/move")),
    }
}

/// Sends raw bytes on a connection of their own and reads the status, if an answer comes.
fn raw(address: std::net::SocketAddr, bytes: &[u8]) -> Option<u16> {
    let mut stream = TcpStream::connect(address).expect("the server accepts connections");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    // The server may close early (a body over the limit): a failed write is an answer too.
    let _ = stream.write_all(bytes);
    let _ = stream.shutdown(Shutdown::Write);
    common::read_answer(&mut BufReader::new(stream))
        .ok()
        .map(|a| a.status)
}

#[test]
fn thousands_of_malformed_requests_get_no_5xx_and_no_panic() {
    let results = results_folder("fuzz");
    std::fs::create_dir_all(results.join("default")).unwrap();
    std::fs::write(
        results.join("default/games.csv"),
        "not,an,arena,csv\n1,2,3,4\n",
    )
    .unwrap();
    let server = serve(&results, |options| {
        options.think_limit = Duration::from_secs(5)
    });
    let address = server.address;
    let mut client = Client::new(address);
    let game = client
        .post(
            "/api/games",
            &json!({ "variant": "tictactoe", "seats": ["human", "human"] }),
        )
        .json();
    let game = game["id"].as_str().unwrap().to_string();
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let started = Instant::now();
    let mut answered = std::collections::BTreeMap::<u16, usize>::new();
    let mut sent = 0;
    while sent < REQUESTS && started.elapsed() < TIME_LIMIT {
        sent += 1;
        let (method, path) = path_for(&mut rng, &game);
        let host = match rng.random_range(0..20) {
            0 => "evil.example".to_string(),
            1 => String::new(),
            _ => address.to_string(),
        };
        let content_type = match rng.random_range(0..10) {
            0 => "text/plain",
            1 => "application/json; charset=\u{7f}",
            2 => "",
            _ => "application/json",
        };
        let body = if method == "POST" {
            body_for(&mut rng, &path)
        } else {
            Vec::new()
        };
        let mut request = format!("{method} {path} HTTP/1.1\r\n").into_bytes();
        if !host.is_empty() {
            request.extend(format!("Host: {host}\r\n").as_bytes());
        }
        if !content_type.is_empty() && method == "POST" {
            request.extend(format!("Content-Type: {content_type}\r\n").as_bytes());
        }
        match rng.random_range(0..12) {
            0 => request.extend(b"Content-Length: 99999999999999999999\r\n"),
            1 => request.extend(b"Content-Length: -5\r\n"),
            2 => request.extend(b"Transfer-Encoding: chunked\r\n"),
            3 => request.extend(b"Origin: http://evil.example\r\n"),
            4 => request.extend(
                format!("X-Junk: {}\r\n", "j".repeat(rng.random_range(0..20000))).as_bytes(),
            ),
            _ => request.extend(format!("Content-Length: {}\r\n", body.len()).as_bytes()),
        }
        request.extend(b"Connection: close\r\n\r\n");
        request.extend(&body);
        // One request in twelve is not HTTP at all, or stops half-way.
        match rng.random_range(0..12) {
            0 => {
                request = (0..rng.random_range(1..300))
                    .map(|_| rng.random::<u8>())
                    .collect()
            }
            1 => {
                let cut = rng.random_range(0..request.len());
                request.truncate(cut);
            }
            _ => {}
        }
        if let Some(status) = raw(address, &request) {
            *answered.entry(status).or_default() += 1;
            assert!(
                status < 500,
                "request {sent} got {status}: {}",
                String::from_utf8_lossy(&request[..request.len().min(300)])
            );
        }
    }
    println!(
        "fuzz: {sent} requests in {:.1} s; answers by status: {answered:?}",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(sent, REQUESTS, "the time limit cut the run short");
    assert_eq!(
        common::PANICS.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "a panic"
    );
    // Still answering, and the game it was given is still whole.
    let mut client = Client::new(address);
    assert_eq!(client.get("/api/meta").status, 200);
    let view = client.get(&format!("/api/games/{game}"));
    assert_eq!(view.status, 200, "{}", view.body);
    let fresh = client.post(
        "/api/games",
        &json!({ "variant": "oanquan", "seats": ["random", "random"] }),
    );
    assert_eq!(fresh.status, 200);
    let (end, _) = common::play_out(&mut client, &fresh.json());
    assert!(!end["over"].is_null());
}
