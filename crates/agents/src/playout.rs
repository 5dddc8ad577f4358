//! Random playouts, the inner loop of every Monte Carlo agent: a position played to its end in
//! place, one `random_move` + `play_unchecked` per ply, nothing allocated.

use rand::SeedableRng;
use rules::{Game, Outcome, Player};

/// The generator playouts draw from: xoshiro256++, several times faster than ChaCha8 and as
/// reproducible (a fixed algorithm), always seeded from the [`crate::AgentRng`] the arena hands
/// the agent, so agents still draw their randomness only from it.
pub type PlayoutRng = rand::rngs::Xoshiro256PlusPlus;

/// A playout generator for stream `stream` of a search seeded with `seed`: independent of the
/// thread that runs it, so parallel and sequential searches draw the same numbers.
pub fn stream_rng(seed: u64, stream: u64) -> PlayoutRng {
    PlayoutRng::seed_from_u64(rules::splitmix64(
        seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15),
    ))
}

/// How a playout chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rollout {
    /// Uniformly random legal moves.
    #[default]
    Random,
    /// m,n,k only: uniformly random among the empty cells next to a stone (seed 003's
    /// "potential" cells), which keeps the game where the fight is.
    Near,
}

impl Rollout {
    /// The policy's name in agent specs.
    pub fn name(self) -> &'static str {
        match self {
            Rollout::Random => "random",
            Rollout::Near => "near",
        }
    }
}

/// Plays `game` to its end with uniformly random moves and returns the outcome; after
/// `max_plies` more plies the game is adjudicated ([`Game::adjudicate`]).
#[inline]
pub fn random_playout<G: Game, R: rand::Rng + ?Sized>(
    game: &mut G,
    rng: &mut R,
    max_plies: u32,
) -> Outcome {
    let cap = game.ply().saturating_add(max_plies);
    loop {
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        if game.ply() >= cap {
            return game.adjudicate();
        }
        match game.random_move(rng) {
            Some(mv) => game.play_unchecked(mv),
            None => return game.adjudicate(),
        }
    }
}

/// The playout result for `player`: +1 for a win, -1 for a loss, 0 for a draw. With three or
/// four players: the opponents `player` finished above minus those that finished above it.
#[inline]
pub fn reward(outcome: Outcome, player: Player) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(winner) if winner == player => 1,
        Outcome::Win(_) => -1,
        Outcome::Ranked(ranking) => {
            let mine = ranking.place(player);
            ranking
                .places()
                .iter()
                .map(|&place| (place > mine) as i32 - (place < mine) as i32)
                .sum()
        }
    }
}

/// Plies after which a playout of a game that can go on for ever is adjudicated (O An Quan
/// positions can repeat; its random games last about 25 plies).
pub const PLAYOUT_PLY_CAP: u32 = 1000;
