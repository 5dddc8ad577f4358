//! The load test: 50 games of `random` against `random` at once, each from a connection of its
//! own (as 50 tabs would), played through the HTTP API on 127.0.0.1 to their end. Every request
//! must succeed and every game must be recorded once. The latency of the move requests is
//! printed, not asserted (speed is a benchmark's business): for the README's figure run
//!
//! ```sh
//! cargo test --release -p web --test load -- --nocapture
//! ```

mod common;

use std::time::{Duration, Instant};

use common::{Client, play_out, results_folder, serve};
use serde_json::json;

const GAMES: usize = 50;
const VARIANTS: [&str; 5] = ["tictactoe", "mnk-9x9k5", "caro", "oanquan", "gomoku"];

#[test]
fn fifty_games_at_once_complete_without_an_error() {
    let results = results_folder("load");
    let server = serve(&results, |_| {});
    let address = server.address;
    let started = Instant::now();
    let players: Vec<_> = (0..GAMES)
        .map(|g| {
            std::thread::spawn(move || {
                let mut client = Client::new(address);
                let variant = VARIANTS[g % VARIANTS.len()];
                let created = client.post(
                    "/api/games",
                    &json!({ "variant": variant, "seats": ["random", "random"], "seed": g }),
                );
                assert_eq!(created.status, 200, "{}", created.body);
                let (end, times) = play_out(&mut client, &created.json());
                assert!(!end["over"].is_null());
                let recorded = end["recorded"]["game"]
                    .as_u64()
                    .unwrap_or_else(|| panic!("game {g} not recorded: {}", end["recorded"]));
                (recorded, end["moves"].as_str().unwrap().to_string(), times)
            })
        })
        .collect();
    let mut times: Vec<Duration> = Vec::new();
    let mut indices = Vec::new();
    for player in players {
        let (index, _, game_times) = player.join().expect("a game ends without a failure");
        indices.push(index);
        times.extend(game_times);
    }
    let wall = started.elapsed();
    indices.sort_unstable();
    assert_eq!(
        indices,
        (0..GAMES as u64).collect::<Vec<_>>(),
        "each game recorded once"
    );
    let record = std::fs::read_to_string(results.join("play/games.csv")).unwrap();
    assert_eq!(record.lines().count(), GAMES + 1);
    assert_eq!(common::PANICS.load(std::sync::atomic::Ordering::SeqCst), 0);

    times.sort_unstable();
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    let millis = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "load: {GAMES} concurrent random-vs-random games, {} move requests in {:.2} s ({:.0}/s); \
         move latency p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        wall.as_secs_f64(),
        times.len() as f64 / wall.as_secs_f64(),
        millis(at(0.50)),
        millis(at(0.90)),
        millis(at(0.99)),
        millis(at(1.0)),
    );
}
