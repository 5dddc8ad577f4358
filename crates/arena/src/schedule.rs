//! The round-robin schedule and the seeds of its games.
//!
//! For each variant in file order, each pair of agents (in file order, the earlier agent
//! named `a`) that both play the variant gets `games_per_pair` consecutive game indices.
//! Game `g` of a pair has `a` moving first when `g` is even and `b` when it is odd, so colours
//! alternate; games `2m` and `2m + 1` share the same random opening.
//!
//! Seeds derive from the experiment seed, the variant id, the two agent names and the game's
//! place in its pair, and from nothing else: a game replays alone, and adding a variant or an
//! agent does not change the seeds of the games already scheduled.
//!
//! Shard `i` of `n` holds the games whose index is `i` modulo `n`.

use std::fmt;
use std::str::FromStr;

use rules::{Variant, splitmix64};

use crate::experiment::{Experiment, fnv1a};

/// A block of consecutive games: one pair of agents on one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Index of the variant in the experiment.
    pub variant: usize,
    /// Index of the earlier agent of the pair.
    pub a: usize,
    /// Index of the later agent of the pair.
    pub b: usize,
    /// The index of the pairing's first game.
    pub first_game: u64,
    /// The number of games.
    pub games: u64,
}

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// The game's index in the schedule (the CSV's `game` column).
    pub index: u64,
    /// Index of the variant in the experiment.
    pub variant: usize,
    /// Index of the agent moving first.
    pub first: usize,
    /// Index of the agent moving second.
    pub second: usize,
    /// The game's seed (the CSV's `seed` column); the agents' RNG streams derive from it.
    pub seed: u64,
    /// The seed of the random opening, shared by the two colour orders.
    pub opening_seed: u64,
    /// The game's block in its pair: games `2m` and `2m + 1` form block `m` and share an
    /// opening (the suite's line `m` modulo its length, when the experiment has a suite).
    pub block: u64,
}

/// The whole schedule of an experiment, kept as pairings so it takes no memory per game.
#[derive(Clone, Debug)]
pub struct Schedule {
    pairings: Vec<Pairing>,
    total: u64,
    seed: u64,
    variant_ids: Vec<String>,
    agent_names: Vec<String>,
}

impl Schedule {
    /// The schedule of `experiment`.
    pub fn new(experiment: &Experiment) -> Schedule {
        let mut pairings = Vec::new();
        let mut next = 0u64;
        for (v, variant) in experiment.variants.iter().enumerate() {
            let players: Vec<usize> = (0..experiment.agents.len())
                .filter(|&i| experiment.agents[i].plays(variant))
                .collect();
            for (x, &a) in players.iter().enumerate() {
                for &b in &players[x + 1..] {
                    let games = u64::from(experiment.games_per_pair);
                    pairings.push(Pairing {
                        variant: v,
                        a,
                        b,
                        first_game: next,
                        games,
                    });
                    next += games;
                }
            }
        }
        Schedule {
            pairings,
            total: next,
            seed: experiment.seed,
            variant_ids: experiment.variants.iter().map(Variant::to_string).collect(),
            agent_names: experiment.agents.iter().map(|a| a.name.clone()).collect(),
        }
    }

    /// The number of games.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether the schedule has no game (no two agents share a variant).
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The pairings in schedule order.
    pub fn pairings(&self) -> &[Pairing] {
        &self.pairings
    }

    /// The game with schedule index `index` (< `len()`).
    pub fn game(&self, index: u64) -> ScheduledGame {
        assert!(index < self.total, "game {index} is beyond the schedule");
        let at = self
            .pairings
            .partition_point(|p| p.first_game + p.games <= index);
        let pairing = &self.pairings[at];
        let nth = index - pairing.first_game;
        let (first, second) = if nth.is_multiple_of(2) {
            (pairing.a, pairing.b)
        } else {
            (pairing.b, pairing.a)
        };
        let key = self.pair_key(pairing);
        ScheduledGame {
            index,
            variant: pairing.variant,
            first,
            second,
            seed: splitmix64(key ^ splitmix64(nth)),
            opening_seed: splitmix64(key ^ splitmix64((nth / 2) | (1 << 63))),
            block: nth / 2,
        }
    }

    fn pair_key(&self, pairing: &Pairing) -> u64 {
        let text = format!(
            "{}\u{0}{}\u{0}{}",
            self.variant_ids[pairing.variant],
            self.agent_names[pairing.a],
            self.agent_names[pairing.b]
        );
        splitmix64(self.seed ^ fnv1a(text.as_bytes()))
    }

    /// The game indices of `shard`, in increasing order.
    pub fn shard_games(&self, shard: Shard) -> impl Iterator<Item = u64> + '_ {
        (u64::from(shard.index)..self.total).step_by(shard.count as usize)
    }
}

/// Shard `index` of `count`: the games whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u32,
    /// The number of shards.
    pub count: u32,
}

impl Shard {
    /// The whole schedule as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether game `index` belongs to this shard.
    pub fn holds(&self, index: u64) -> bool {
        index % u64::from(self.count) == u64::from(self.index)
    }

    /// The CSV file name of this shard: `games.csv` for the whole schedule,
    /// `games.shard-I-of-N.csv` otherwise.
    pub fn csv_name(&self) -> String {
        if self.count == 1 {
            "games.csv".into()
        } else {
            format!("games.shard-{}-of-{}.csv", self.index, self.count)
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: write I/N with 0 <= I < N, like 0/4");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}
