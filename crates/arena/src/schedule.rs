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
//! A gauntlet (`format = "gauntlet"`, two-player variants only) has fewer groups and the same
//! rules for each: for each variant, each entrant (in file order) paired with each agent of
//! the field (in file order), and no other pair; each pair is ordered as a round-robin orders
//! it (the earlier in the file is `a`), so its seats, seeds and openings are the ones the same
//! pair gets in a round-robin.
//!
//! Shard `i` of `n` holds the games whose index is `i` modulo `n`.

use std::fmt;
use std::str::FromStr;

use rules::{ArrayVec, MAX_PLAYERS, Variant, splitmix64};

use crate::experiment::{Experiment, Format};
use crate::hash::fnv1a;

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
    /// The seed of the random opening, shared by the games of a block.
    pub opening_seed: u64,
    /// The game's block in its group: games `Nm .. Nm + N - 1` of a group of N agents (`2m`
    /// and `2m + 1` of a pair) form block `m` and share an opening (the suite's line `m`
    /// modulo its length, when the experiment has a suite).
    pub block: u64,
}

impl ScheduledGame {
    /// The moves of the suite's opening that this game starts from (played from `start`, the
    /// variant's start), before any random opening plies: none without a suite. `arena run`
    /// plays them, and `verify` expects a row's moves to begin with them.
    pub fn suite_opening<G: rules::Game>(
        &self,
        experiment: &Experiment,
        start: &G,
    ) -> Vec<G::Move> {
        experiment.openings.as_ref().map_or_else(Vec::new, |suite| {
            suite.moves_for(start, &experiment.variants[self.variant], self.block)
        })
    }
}

/// The groups of one variant: every `seats`-subset of its agents, in lexicographic order, each
/// playing `games` games. Kept as the list of agents, so that it takes no memory per group.
#[derive(Clone, Debug)]
struct Block {
    variant: usize,
    /// The agents that play the variant, in file order (in a gauntlet, its entrants).
    players: Vec<usize>,
    /// In a gauntlet, the field agents that play the variant, in file order; empty in a
    /// round-robin.
    field: Vec<usize>,
    seats: usize,
    /// Games per group.
    games: u64,
    /// The number of groups: C(players, seats), or entrants x field in a gauntlet.
    groups: u64,
    /// The index of the block's first game.
    first_game: u64,
    /// The number of the block's first group among all the schedule's groups.
    first_group: u64,
}

/// The whole schedule of an experiment, kept as one block of groups per variant, so that it
/// takes no memory per game nor per group: the group of a game is found by arithmetic (the
/// k-th subset in lexicographic order), however many agents an experiment has.
#[derive(Clone, Debug)]
pub struct Schedule {
    blocks: Vec<Block>,
    total: u64,
    groups: u64,
    seed: u64,
    variant_ids: Vec<String>,
    agent_names: Vec<String>,
}

/// C(n, k) for k <= 4, saturating.
fn choose(n: u64, k: usize) -> u64 {
    let mut c: u128 = 1;
    for i in 0..k as u128 {
        if u128::from(n) < i + 1 {
            return 0;
        }
        c = c * (u128::from(n) - i) / (i + 1);
    }
    u64::try_from(c).unwrap_or(u64::MAX)
}

impl Schedule {
    /// The schedule of `experiment`.
    pub fn new(experiment: &Experiment) -> Schedule {
        let mut blocks = Vec::new();
        let mut next = 0u64;
        let mut next_group = 0u64;
        for (v, variant) in experiment.variants.iter().enumerate() {
            let mut players: Vec<usize> = (0..experiment.agents.len())
                .filter(|&i| experiment.agents[i].plays(variant))
                .collect();
            let field: Vec<usize> = match experiment.format {
                Format::RoundRobin => Vec::new(),
                Format::Gauntlet => {
                    let field = players
                        .iter()
                        .copied()
                        .filter(|&i| experiment.agents[i].field)
                        .collect();
                    players.retain(|&i| !experiment.agents[i].field);
                    field
                }
            };
            let seats = variant.players();
            let games = if seats == 2 {
                experiment.games_per_pair
            } else {
                experiment.games_per_pair * seats as u64
            };
            let groups = if experiment.format == Format::Gauntlet {
                // The experiment allows gauntlets of two-player variants only.
                (players.len() as u64).saturating_mul(field.len() as u64)
            } else if (1..=MAX_PLAYERS).contains(&seats) {
                choose(players.len() as u64, seats)
            } else {
                0
            };
            blocks.push(Block {
                variant: v,
                players,
                field,
                seats,
                games,
                groups,
                first_game: next,
                first_group: next_group,
            });
            // The experiment refuses schedules of 2^63 games or more.
            next = next.saturating_add(groups.saturating_mul(games));
            next_group = next_group.saturating_add(groups);
        }
        Schedule {
            blocks,
            total: next,
            groups: next_group,
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

    /// The number of pairings (groups of agents on a variant).
    pub fn pairing_count(&self) -> u64 {
        self.groups
    }

    /// The games of variant `variant` (its index in the experiment): a range of indices.
    pub fn variant_games(&self, variant: usize) -> std::ops::Range<u64> {
        self.blocks
            .iter()
            .find(|b| b.variant == variant)
            .map_or(0..0, |b| b.first_game..b.first_game + b.groups * b.games)
    }

    /// The pairings in schedule order, made one by one.
    pub fn pairings(&self) -> Pairings<'_> {
        Pairings {
            schedule: self,
            next: 0,
        }
    }

    /// Pairing number `number` (< `pairing_count()`), in schedule order.
    pub fn pairing(&self, number: u64) -> Pairing {
        let at = self
            .blocks
            .partition_point(|b| b.first_group + b.groups <= number);
        let block = &self.blocks[at];
        let k = number - block.first_group;
        let agents = if block.field.is_empty() {
            unrank(&block.players, block.seats, k)
        } else {
            // Entrant k / |field| against field agent k % |field|, the earlier in file order
            // first, as in a round-robin.
            let field = block.field.len() as u64;
            let entrant = block.players[(k / field) as usize];
            let reference = block.field[(k % field) as usize];
            [entrant.min(reference), entrant.max(reference)]
                .into_iter()
                .collect()
        };
        Pairing {
            variant: block.variant,
            agents,
            first_game: block.first_game + k * block.games,
            games: block.games,
        }
    }

    /// The game with schedule index `index` (< `len()`).
    pub fn game(&self, index: u64) -> ScheduledGame {
        assert!(index < self.total, "game {index} is beyond the schedule");
        let pairing = self.pairing(self.pairing_of(index));
        let nth = index - pairing.first_game;
        let size = pairing.agents.len();
        let rotation = (nth % size as u64) as usize;
        let seats: ArrayVec<usize, MAX_PLAYERS> = (0..size)
            .map(|seat| pairing.agents[(seat + rotation) % size])
            .collect();
        let key = self.pair_key(&pairing);
        ScheduledGame {
            index,
            variant: pairing.variant,
            first: seats[0],
            second: seats[1],
            seats,
            seed: splitmix64(key ^ splitmix64(nth)),
            opening_seed: splitmix64(key ^ splitmix64((nth / size as u64) | (1 << 63))),
            block: nth / size as u64,
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

/// The pairings of a schedule, made one by one ([`Schedule::pairings`]).
pub struct Pairings<'a> {
    schedule: &'a Schedule,
    next: u64,
}

impl Iterator for Pairings<'_> {
    type Item = Pairing;

    fn next(&mut self) -> Option<Pairing> {
        (self.next < self.schedule.groups).then(|| {
            self.next += 1;
            self.schedule.pairing(self.next - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.schedule.groups - self.next).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Pairings<'_> {}

/// The `k`-th `size`-subset of `items` in lexicographic order (the order in which, for pairs,
/// `(a, b)` comes for each `a`, then each later `b`), each subset in the order of `items`.
fn unrank(items: &[usize], size: usize, mut k: u64) -> ArrayVec<usize, MAX_PLAYERS> {
    let mut out = ArrayVec::new();
    let n = items.len();
    let mut from = 0;
    for slot in 0..size {
        let rest = size - slot - 1;
        // The first item whose subsets (the rest chosen after it) reach the k-th.
        for (at, &item) in items.iter().enumerate().skip(from) {
            let with_this = choose((n - at - 1) as u64, rest);
            if k < with_this {
                out.push(item);
                from = at + 1;
                break;
            }
            k -= with_this;
        }
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

    /// The number of the pairing that holds game `index` (< `len()`).
    pub fn pairing_of(&self, index: u64) -> u64 {
        let at = self
            .blocks
            .partition_point(|b| b.first_game + b.groups * b.games <= index);
        let block = &self.blocks[at];
        block.first_group + (index - block.first_game) / block.games
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subset in lexicographic order, listed: what the schedule held before it was lazy.
    fn listed(items: &[usize], size: usize) -> Vec<Vec<usize>> {
        fn extend(
            items: &[usize],
            size: usize,
            from: usize,
            now: &mut Vec<usize>,
            out: &mut Vec<Vec<usize>>,
        ) {
            if now.len() == size {
                out.push(now.clone());
                return;
            }
            for at in from..items.len() {
                now.push(items[at]);
                extend(items, size, at + 1, now, out);
                now.pop();
            }
        }
        let mut out = Vec::new();
        extend(items, size, 0, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn the_k_th_subset_is_the_k_th_of_the_listed_order() {
        let items = [0, 2, 3, 5, 8, 9, 11];
        for size in 2..=4 {
            let all = listed(&items, size);
            assert_eq!(all.len() as u64, choose(items.len() as u64, size));
            for (k, subset) in all.iter().enumerate() {
                assert_eq!(
                    unrank(&items, size, k as u64).to_vec(),
                    *subset,
                    "{size} {k}"
                );
            }
        }
        assert_eq!(choose(3, 4), 0);
        assert_eq!(choose(5000, 2), 12_497_500);
    }

    /// An experiment of `agents` random agents on tic-tac-toe, the ones in `field` marked
    /// `field = true` when `gauntlet`.
    fn tictactoe(agents: usize, field: &[usize], gauntlet: bool) -> Experiment {
        let mut text = String::from(
            "name = \"g\"\nseed = 5\ngames_per_pair = 4\nvariants = [\"tictactoe\"]\n",
        );
        if gauntlet {
            text.push_str("format = \"gauntlet\"\n");
        }
        for i in 0..agents {
            text.push_str(&format!("[[agents]]\nname = \"r{i}\"\nspec = \"random\"\n"));
            if gauntlet && field.contains(&i) {
                text.push_str("field = true\n");
            }
        }
        Experiment::from_toml(&text, "test").unwrap()
    }

    #[test]
    fn a_gauntlet_pairs_each_entrant_with_each_field_agent_as_a_round_robin_would() {
        let field = [1, 4, 6];
        let gauntlet = Schedule::new(&tictactoe(8, &field, true));
        let round_robin = Schedule::new(&tictactoe(8, &field, false));
        assert_eq!(gauntlet.pairing_count(), 5 * 3);
        assert_eq!(gauntlet.len(), 5 * 3 * 4);
        let mut seen = std::collections::BTreeSet::new();
        for pairing in gauntlet.pairings() {
            let (a, b) = (pairing.agents[0], pairing.agents[1]);
            assert!(a < b, "{a} {b}");
            assert!(
                field.contains(&a) != field.contains(&b),
                "{a} and {b} are both entrants or both field"
            );
            assert!(seen.insert((a, b)), "{a} {b} twice");
            // The same pair's games in the round-robin: the same seats, seeds and openings.
            let same = round_robin
                .pairings()
                .find(|p| p.agents == pairing.agents)
                .unwrap();
            for nth in 0..pairing.games {
                let mut g = gauntlet.game(pairing.first_game + nth);
                let r = round_robin.game(same.first_game + nth);
                assert_eq!(g.index, pairing.first_game + nth);
                g.index = r.index;
                assert_eq!(g, r);
            }
        }
        assert_eq!(seen.len(), 15);
    }
}
