//! The length of random O An Quan games for 2, 3 and 4 players: percentiles of the plies of
//! games that end by the rules, how many reach the cap of 1,000 plies, and how often each seat
//! finishes first. `cargo run --release -p rules --example oanquan_lengths [GAMES]`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rules::{Game, Player, Variant};

fn main() {
    let games: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    println!(
        "| variant | games | median plies | 10% | 90% | 99% | longest ended | reached 1,000 | first place by seat |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for id in ["oanquan", "oanquan-3p", "oanquan-4p"] {
        let rules = id
            .parse::<Variant>()
            .unwrap()
            .rules::<rules::OanQuanRules>()
            .unwrap();
        let players = usize::from(rules.players);
        let mut rng = ChaCha8Rng::seed_from_u64(20261123);
        let mut lengths = Vec::with_capacity(games);
        let mut capped = 0;
        let mut firsts = vec![0usize; players];
        for _ in 0..games {
            let mut game = rules.start();
            while !game.is_over() && game.ply() < 1000 {
                let mv = game.random_move(&mut rng).expect("a move before the end");
                game.play_unchecked(mv);
            }
            if game.is_over() {
                lengths.push(game.ply());
            } else {
                capped += 1;
            }
            let outcome = game.adjudicate();
            for (seat, count) in firsts.iter_mut().enumerate() {
                if outcome.place(Player::seat(seat)) == 1 {
                    *count += 1;
                }
            }
        }
        lengths.sort_unstable();
        let at = |q: f64| lengths[((lengths.len() - 1) as f64 * q) as usize];
        let shares: Vec<String> = firsts
            .iter()
            .map(|&n| format!("{:.1}%", 100.0 * n as f64 / games as f64))
            .collect();
        println!(
            "| `{id}` | {games} | {} | {} | {} | {} | {} | {capped} | {} |",
            at(0.5),
            at(0.1),
            at(0.9),
            at(0.99),
            lengths.last().copied().unwrap_or(0),
            shares.join(" / ")
        );
    }
}
