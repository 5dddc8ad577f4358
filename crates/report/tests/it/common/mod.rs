//! Builds arena CSVs for the tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

pub const HEADER: &str = "experiment,variant,game,seed,first,second,result,termination,plies,\
first_score,second_score,first_ms,second_ms,first_max_ms,second_max_ms,first_nodes,second_nodes,\
moves,first_spec,second_spec";

/// Games written as rows of the arena's CSV schema.
#[derive(Clone, Debug, Default)]
pub struct Games {
    pub rows: Vec<String>,
    specs: BTreeMap<String, String>,
    /// Mean ms per move on a 3x3 board; it grows with the board.
    speed: BTreeMap<String, f64>,
}

impl Games {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn spec(mut self, agent: &str, spec: &str) -> Self {
        self.specs.insert(agent.to_owned(), spec.to_owned());
        self
    }

    pub fn speed(mut self, agent: &str, ms_per_move: f64) -> Self {
        self.speed.insert(agent.to_owned(), ms_per_move);
        self
    }

    /// One game; `result` is `1-0`, `0-1` or `1/2-1/2` from `first`'s side.
    pub fn game(&mut self, variant: &str, first: &str, second: &str, result: &str) -> &mut Self {
        let termination = if result == "1/2-1/2" { "draw" } else { "win" };
        self.game_ending(variant, first, second, result, termination)
    }

    pub fn game_ending(
        &mut self,
        variant: &str,
        first: &str,
        second: &str,
        result: &str,
        termination: &str,
    ) -> &mut Self {
        let index = self.rows.len();
        let plies = if result == "1/2-1/2" { 9 } else { 7 };
        let cells = report::board_cells(variant).unwrap_or(9) as f64;
        let ms = |agent: &str| self.speed.get(agent).copied().unwrap_or(0.05) * cells / 9.0;
        let (first_ms, second_ms) = (ms(first) * 4.0, ms(second) * 3.0);
        let spec = |agent: &str| self.specs.get(agent).cloned().unwrap_or("random".into());
        let mut row = String::new();
        let _ = write!(
            row,
            "test,{variant},{index},{seed},{first},{second},{result},{termination},{plies},,,\
             {first_ms:.4},{second_ms:.4},{:.4},{:.4},{},{},a1 b2 c3,\"{}\",\"{}\"",
            first_ms / 2.0,
            second_ms / 2.0,
            (first_ms * 1000.0) as u64,
            (second_ms * 1000.0) as u64,
            spec(first),
            spec(second),
            seed = 1000 + index,
        );
        self.rows.push(row);
        self
    }

    /// `a` against `b`: `wins`, `draws` and `losses` from `a`'s side, seats alternating.
    pub fn pairing(
        &mut self,
        variant: &str,
        a: &str,
        b: &str,
        wins: usize,
        draws: usize,
        losses: usize,
    ) -> &mut Self {
        let results = std::iter::repeat_n("win", wins)
            .chain(std::iter::repeat_n("draw", draws))
            .chain(std::iter::repeat_n("loss", losses));
        for (k, outcome) in results.enumerate() {
            let a_first = k % 2 == 0;
            let result = match (outcome, a_first) {
                ("draw", _) => "1/2-1/2",
                ("win", true) | ("loss", false) => "1-0",
                _ => "0-1",
            };
            if a_first {
                self.game(variant, a, b, result);
            } else {
                self.game(variant, b, a, result);
            }
        }
        self
    }

    pub fn csv(&self) -> String {
        csv_of(&self.rows)
    }
}

pub fn csv_of(rows: &[String]) -> String {
    let mut text = String::from(HEADER);
    text.push('\n');
    for row in rows {
        text.push_str(row);
        text.push('\n');
    }
    text
}

/// An empty folder for one test.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create test folder");
    dir
}

/// Width and height from a PNG's IHDR chunk (bytes 16..24).
pub fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let word =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (word(16), word(20))
}

/// A round robin of seven agents on four variants, results drawn from fixed true ratings.
pub fn sample_tournament(games_per_pair: usize) -> Games {
    use rand::{RngExt, SeedableRng};
    let agents = [
        ("random", "random", -400.0, 0.002),
        ("easy", "easy:mistake=0.3", -250.0, 0.004),
        ("ab2", "alphabeta:depth=2", -50.0, 0.08),
        ("ab4", "alphabeta:depth=4", 100.0, 1.5),
        ("mcts-100", "mcts:iterations=100,c=1.4", -20.0, 0.9),
        ("mcts-1000", "mcts:iterations=1000,c=1.4", 150.0, 9.0),
        ("mcts-10000", "mcts:iterations=10000,c=1.4", 300.0, 95.0),
    ];
    let mut games = Games::new();
    for (name, spec, _, speed) in agents {
        games = games.spec(name, spec).speed(name, speed);
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2024);
    for (v, variant) in ["mnk-3x3k3", "mnk-7x7k4", "mnk-15x15k5-caro", "oanquan"]
        .iter()
        .enumerate()
    {
        for (i, a) in agents.iter().enumerate() {
            for b in &agents[i + 1..] {
                let draw = if v == 0 { 0.5 } else { 0.1 };
                let p = 1.0 / (1.0 + 10f64.powf((b.2 - a.2) / 400.0));
                let (mut w, mut d, mut l) = (0, 0, 0);
                for _ in 0..games_per_pair {
                    let u: f64 = rng.random();
                    if u < draw {
                        d += 1;
                    } else if rng.random::<f64>() < p {
                        w += 1;
                    } else {
                        l += 1;
                    }
                }
                games.pairing(variant, a.0, b.0, w, d, l);
            }
        }
    }
    games
}
