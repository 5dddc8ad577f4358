//! Whole random playouts in one call: the loop `arena bench` measures, from Python.

use agents::AgentGame;
use agents::playout::{self, PLAYOUT_PLY_CAP, Rollout};
use rules::Player;

/// Plays `count` uniformly random games to the end from `start` with the playout generator of
/// `seed` (the generator and the loop of `arena bench`'s `playouts` figures); returns the
/// plies played in all, the games each seat won alone, and the others.
pub fn random<G: AgentGame>(start: &G, count: u64, seed: u64) -> (u64, Vec<u64>, u64) {
    let mut rng = playout::stream_rng(seed, 0);
    let mut wins = vec![0u64; start.num_players()];
    let (mut plies, mut draws) = (0u64, 0u64);
    for _ in 0..count {
        let mut game = start.clone();
        let outcome = game.playout(Rollout::Random, &mut rng, PLAYOUT_PLY_CAP);
        plies += u64::from(game.ply() - start.ply());
        match outcome.winner() {
            Some(seat) => wins[Player::index(seat)] += 1,
            None => draws += 1,
        }
    }
    (plies, wins, draws)
}
