//! The load test: 50 games of `random` against `random` at once, each from a connection of its
//! own (as 50 tabs would), played through the HTTP API on 127.0.0.1 to their end. Every request
//! must succeed and every game must be recorded once. The latency of the move requests is
//! printed, not asserted (speed is a benchmark's business): for the README's figure run
//!
//! ```sh
//! cargo test --release -p web --test it load -- --nocapture
//! ```

use crate::common;

use std::time::{Duration, Instant};

use common::{Client, play_out, results_folder, serve};
use serde_json::json;

const GAMES: usize = 50;
const VARIANTS: [&str; 5] = ["tictactoe", "mnk-9x9k5", "caro", "oanquan", "gomoku"];

#[test]
fn fifty_games_at_once_complete_without_an_error() {
    // For the benchmark figure, `ARENA_LOAD_ROUNDS=N` plays N rounds of 50 games one after
    // the other on the same server (more samples, a steadier p99); the test plays one.
    let rounds: usize = std::env::var("ARENA_LOAD_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
        .clamp(1, 100);
    let results = results_folder("load");
    let server = serve(&results, |_| {});
    let address = server.address;
    let started = Instant::now();
    let mut times: Vec<Duration> = Vec::new();
    let mut last_moves: Vec<Duration> = Vec::new();
    let mut indices = Vec::new();
    for round in 0..rounds {
        let players: Vec<_> = (0..GAMES)
            .map(|g| {
                std::thread::spawn(move || {
                    let mut client = Client::new(address);
                    let variant = VARIANTS[g % VARIANTS.len()];
                    let created = client.post(
                        "/api/games",
                        &json!({ "variant": variant, "seats": ["random", "random"], "seed": round * GAMES + g }),
                    );
                    assert_eq!(created.status, 200, "{}", created.body);
                    let (end, times) = play_out(&mut client, &created.json());
                    assert!(!end["over"].is_null());
                    let recorded = end["recorded"]["game"]
                        .as_u64()
                        .unwrap_or_else(|| panic!("game {g} not recorded: {}", end["recorded"]));
                    (recorded, times)
                })
            })
            .collect();
        for player in players {
            let (index, mut game_times) = player.join().expect("a game ends without a failure");
            indices.push(index);
            // The move that ends a game also waits for its row in the play record.
            last_moves.extend(game_times.pop());
            times.extend(game_times);
        }
    }
    let wall = started.elapsed();
    let games = rounds * GAMES;
    indices.sort_unstable();
    assert_eq!(
        indices,
        (0..games as u64).collect::<Vec<_>>(),
        "each game recorded once"
    );
    let record = std::fs::read_to_string(results.join("play/games.csv")).unwrap();
    assert_eq!(record.lines().count(), games + 1);
    assert_eq!(common::PANICS.load(std::sync::atomic::Ordering::SeqCst), 0);

    let millis = |d: Duration| d.as_secs_f64() * 1e3;
    let quantiles = |times: &mut Vec<Duration>| {
        times.sort_unstable();
        let at = |q: f64| {
            millis(times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1])
        };
        format!(
            "p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            at(0.5),
            at(0.9),
            at(0.99),
            at(1.0)
        )
    };
    let requests = times.len() + last_moves.len();
    let mut all: Vec<Duration> = times.iter().chain(&last_moves).copied().collect();
    println!(
        "load: {rounds} x {GAMES} concurrent random-vs-random games, {requests} move requests in \
         {:.2} s ({:.0}/s)\n  every move request: {}\n  moves that do not end a game: {}\n  \
         moves that end a game (and append its row): {}",
        wall.as_secs_f64(),
        requests as f64 / wall.as_secs_f64(),
        quantiles(&mut all),
        quantiles(&mut times),
        quantiles(&mut last_moves),
    );
}

/// Twenty connections that send half a request head are closed by the server once the header
/// timeout (1 s here) has passed, and the server still answers a whole request. Each waits at
/// most 30 s for the close; how soon it came is not asserted.
#[test]
fn half_sent_requests_are_closed_after_the_header_timeout() {
    use std::io::{Read, Write};
    let results = results_folder("half-sent");
    let server = serve(&results, |options| {
        options.header_timeout = Duration::from_secs(1)
    });
    let mut streams = Vec::new();
    for _ in 0..20 {
        let mut stream = std::net::TcpStream::connect(server.address).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("timeout");
        let half = format!("GET /api/meta HTTP/1.1\r\nHost: {}\r\n", server.address);
        stream.write_all(half.as_bytes()).expect("half a head");
        streams.push(stream);
    }
    for (at, mut stream) in streams.into_iter().enumerate() {
        let mut rest = Vec::new();
        match stream.read_to_end(&mut rest) {
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::ConnectionReset => {}
            Err(error) => panic!("connection {at} still open after 30 s: {error}"),
        }
    }
    let mut client = Client::new(server.address);
    assert_eq!(client.get("/api/meta").status, 200);
}
