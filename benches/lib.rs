//! Shared helpers of the criterion benchmarks (`rules.rs`, `agents.rs`): the positions they
//! measure, built the same way every run.
//!
//! ```text
//! cargo bench -p arena-benches                     # every benchmark, a few minutes
//! cargo bench -p arena-benches --bench rules -- win_check   # one group
//! cargo test -p arena-benches --benches            # each benchmark once (CI)
//! ```

use rand::{RngExt, SeedableRng};
use rules::{Game, Mnk, OanQuan, Variant};

/// The m,n,k variants of the playout, win-check and move-generation benchmarks.
pub const MNK_VARIANTS: [&str; 5] = [
    "tictactoe",
    "mnk-5x5k4",
    "mnk-15x15k5",
    "mnk-19x19k5",
    "mnk-15x15k5-caro",
];

/// The start of an m,n,k variant.
pub fn mnk(id: &str) -> Mnk {
    id.parse::<Variant>()
        .expect("a variant id")
        .rules::<rules::MnkConfig>()
        .expect("an m,n,k variant")
        .start()
}

/// The start of an O An Quan variant.
pub fn oanquan(id: &str) -> OanQuan {
    id.parse::<Variant>()
        .expect("a variant id")
        .rules::<rules::OanQuanRules>()
        .expect("an O An Quan variant")
        .start()
}

/// The TD4 position of seed 003: 5x5, k = 4, X to move.
pub fn td4() -> Mnk {
    mnk("mnk-5x5k4")
        .play_line("b3 c3 c2 d1 b2 a2")
        .expect("legal moves")
}

/// `count` positions reached from `start` by random plies (a random number of them, up to
/// `max_plies`), none of them over: the mid-game positions the searches spend their time in.
pub fn random_positions<G: Game>(start: &G, count: usize, max_plies: u32, seed: u64) -> Vec<G> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut game = start.clone();
        for _ in 0..rng.random_range(0..=max_plies) {
            match game.random_move(&mut rng) {
                Some(mv) => game.play_unchecked(mv),
                None => break,
            }
        }
        if !game.is_over() {
            out.push(game);
        }
    }
    out
}

/// Mid-game m,n,k positions, each with one of its empty cells: what a win check is asked.
pub fn win_checks(id: &str, count: usize) -> Vec<(Mnk, rules::Cell)> {
    let start = mnk(id);
    let cells = u32::from(start.config().cells());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    random_positions(&start, count, cells - 1, 3)
        .into_iter()
        .map(|game| {
            let cell = game
                .random_move(&mut rng)
                .expect("a position that is not over");
            (game, cell)
        })
        .collect()
}
