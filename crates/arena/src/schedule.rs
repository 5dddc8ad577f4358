//! The round-robin schedule and the seeds of its games.
//!
//! For each variant in file order, each group of agents that play the variant gets consecutive
//! game indices: for a two-player variant every pair (in file order, the earlier agent named
//! `a`) plays `games_per_pair` games; for a variant of N = 3 or 4 players every N-subset of the
//! agents (in file order) plays `games_per_pair` games in each of its N cyclic seat orders,
//! N x `games_per_pair` games in all.
//!
//! Game `g` of a group seats its agents rotated by `g` modulo N: seat `i` gets the group's
//! agent `(i + g) mod N`. With two players game `g` has `a` moving first when `g` is even and
//! `b` when it is odd, so colours alternate. The N games `Nm .. Nm + N - 1` (games `2m` and
//! `2m + 1` for two players) share the same random opening.
//!
//! Seeds derive from the experiment seed, the variant id, the group's agent names and the
//! game's place in its group, and from nothing else: a game replays alone, and adding a variant
//! or an agent does not change the seeds of the games already scheduled.
//!
//! Shard `i` of `n` holds the games whose index is `i` modulo `n`.

use std::fmt;
use std::str::FromStr;

use rules::{ArrayVec, MAX_PLAYERS, Variant, splitmix64};

use crate::experiment::{Experiment, fnv1a};

/// A block of consecutive games: one group of agents (a pair, or 3 or 4 for a variant of that
/// many players) on one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Index of the variant in the experiment.
    pub variant: usize,
    /// Indices of the group's agents, in file order (`a` and `b` for a pair).
    pub agents: ArrayVec<usize, MAX_PLAYERS>,
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
    /// Index of the agent moving first (seat 0).
    pub first: usize,
    /// Index of the agent moving second (seat 1).
    pub second: usize,
    /// Index of the agent in every seat, in turn order (2 to 4 seats).
    pub seats: ArrayVec<usize, MAX_PLAYERS>,
    /// The game's seed (the CSV's `seed` column); the agents' RNG streams derive from it.
    pub seed: u64,
    /// The seed of the random opening, shared by the two colour orders.
    pub opening_seed: u64,
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
            let seats = variant.players();
            let games = if seats == 2 {
                experiment.games_per_pair
            } else {
                experiment.games_per_pair * seats as u64
            };
            for group in subsets(&players, seats) {
                pairings.push(Pairing {
                    variant: v,
                    agents: group,
                    first_game: next,
                    games,
                });
                next += games;
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
        let size = pairing.agents.len();
        let rotation = (nth % size as u64) as usize;
        let seats: ArrayVec<usize, MAX_PLAYERS> = (0..size)
            .map(|seat| pairing.agents[(seat + rotation) % size])
            .collect();
        let key = self.pair_key(pairing);
        ScheduledGame {
            index,
            variant: pairing.variant,
            first: seats[0],
            second: seats[1],
            seats,
            seed: splitmix64(key ^ splitmix64(nth)),
            opening_seed: splitmix64(key ^ splitmix64((nth / size as u64) | (1 << 63))),
        }
    }

    fn pair_key(&self, pairing: &Pairing) -> u64 {
        let mut text = self.variant_ids[pairing.variant].clone();
        for &agent in &pairing.agents {
            text.push('\u{0}');
            text.push_str(&self.agent_names[agent]);
        }
        splitmix64(self.seed ^ fnv1a(text.as_bytes()))
    }

    /// The game indices of `shard`, in increasing order.
    pub fn shard_games(&self, shard: Shard) -> impl Iterator<Item = u64> + '_ {
        (u64::from(shard.index)..self.total).step_by(shard.count as usize)
    }
}

/// Every `size`-subset of `items`, each in the order of `items`, the subsets in lexicographic
/// order (for pairs: `(a, b)` for each `a`, then each later `b`).
fn subsets(items: &[usize], size: usize) -> Vec<ArrayVec<usize, MAX_PLAYERS>> {
    fn extend(
        items: &[usize],
        size: usize,
        from: usize,
        current: &mut ArrayVec<usize, MAX_PLAYERS>,
        out: &mut Vec<ArrayVec<usize, MAX_PLAYERS>>,
    ) {
        if current.len() == size {
            out.push(current.clone());
            return;
        }
        for at in from..items.len() {
            current.push(items[at]);
            extend(items, size, at + 1, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    if (1..=MAX_PLAYERS).contains(&size) {
        extend(items, size, 0, &mut ArrayVec::new(), &mut out);
    }
    out
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

// Counting a shard's games without listing them, so that an experiment of 2^63 games costs
// no time or memory to size up or resume.
impl Schedule {
    /// The number of games in `shard`.
    pub fn shard_len(&self, shard: Shard) -> u64 {
        shard_games_below(self.total, shard)
    }

    /// The index of the pairing that holds game `index` (< `len()`).
    pub fn pairing_of(&self, index: u64) -> usize {
        self.pairings
            .partition_point(|p| p.first_game + p.games <= index)
    }
}

/// The number of games of `shard` with an index below `end`.
pub fn shard_games_below(end: u64, shard: Shard) -> u64 {
    let first = u64::from(shard.index);
    if end <= first {
        0
    } else {
        (end - first - 1) / u64::from(shard.count) + 1
    }
}

/// The place of game `index` among the games of `shard` (which holds it): 0 for the shard's
/// first game, 1 for its second, and so on.
pub fn position_in_shard(index: u64, shard: Shard) -> u64 {
    (index - u64::from(shard.index)) / u64::from(shard.count)
}
