//! Helpers shared by the agent tests: positions from move lists, and games between agents.

#![allow(dead_code)]

use agents::{AgentGame, AgentRng, AgentSpec, Context, build};
use rand::SeedableRng;
use rules::{Game, Mnk, OanQuan, Outcome, Player, Variant};

/// The start of an m,n,k variant.
pub fn mnk(variant: &str) -> Mnk {
    variant
        .parse::<Variant>()
        .expect("variant")
        .rules::<rules::MnkConfig>()
        .expect("an m,n,k variant")
        .start()
}

/// An m,n,k position: the variant's start after `moves`.
pub fn mnk_after(variant: &str, moves: &str) -> Mnk {
    mnk(variant).play_line(moves).expect("legal moves")
}

/// The O An Quan start (canonical rules or the given variant).
pub fn oanquan(variant: &str) -> OanQuan {
    variant
        .parse::<Variant>()
        .expect("variant")
        .rules::<rules::OanQuanRules>()
        .expect("an O An Quan variant")
        .start()
}

/// The TD4 position of seed 003 (mnk.md): 5x5, k=4, first player to move.
pub fn td4() -> Mnk {
    mnk_after("mnk-5x5k4", "b3 c3 c2 d1 b2 a2")
}

/// A deterministic RNG for `seed`, stream `stream`.
pub fn rng(seed: u64, stream: u64) -> AgentRng {
    let mut rng = AgentRng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// The move the agent `spec` chooses in `position` with the RNG of `seed`.
pub fn choose<G: AgentGame>(spec: &str, position: &G, seed: u64) -> agents::Choice<G::Move> {
    let spec: AgentSpec = spec.parse().expect("spec");
    let mut agent = build::<G>(&spec).expect("agent");
    let mut rng = rng(seed, 0);
    agent
        .choose(position, &mut Context::new(&mut rng))
        .expect("a move")
}

/// Plays one game from `start` between fresh agents built from `first` and `second` (first
/// moves first), each with its own RNG stream of `seed`; stops at `ply_cap` plies with the
/// game's adjudication. Panics on an illegal move.
pub fn play<G: AgentGame>(
    start: &G,
    first: &str,
    second: &str,
    seed: u64,
    ply_cap: u32,
) -> Outcome {
    let specs: [AgentSpec; 2] = [first.parse().expect("spec"), second.parse().expect("spec")];
    let mut agents = [
        build::<G>(&specs[0]).expect("agent"),
        build::<G>(&specs[1]).expect("agent"),
    ];
    let mut rngs = [rng(seed, 1), rng(seed, 2)];
    let mut position = start.clone();
    loop {
        if let Some(outcome) = position.outcome() {
            return outcome;
        }
        if position.ply() >= start.ply() + ply_cap {
            return position.adjudicate();
        }
        let side = position.side_to_move().index();
        let choice = agents[side]
            .choose(&position, &mut Context::new(&mut rngs[side]))
            .expect("a move");
        position = position
            .play(choice.mv)
            .unwrap_or_else(|e| panic!("{}: {e}\n{position}", specs[side]));
    }
}

/// The score of `agent` over `games` games against `opponent` from `start`, colours
/// alternated, played in parallel: wins + draws / 2, as a fraction.
pub fn match_score<G: AgentGame>(
    start: &G,
    agent: &str,
    opponent: &str,
    games: u64,
    seed: u64,
    ply_cap: u32,
) -> f64 {
    use rayon::prelude::*;
    let points: f64 = (0..games)
        .into_par_iter()
        .map(|game| {
            let (first, second, me) = if game % 2 == 0 {
                (agent, opponent, Player::First)
            } else {
                (opponent, agent, Player::Second)
            };
            play(start, first, second, seed ^ (game << 20), ply_cap).score(me)
        })
        .sum();
    points / games as f64
}
