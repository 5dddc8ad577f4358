//! Pools of agents: their standings, the joint Elo fit and its 95% intervals.

use crate::elo::{self, Interval, Method, PairElo, TierGap, Unit};
use crate::games::Wdl;
use crate::model::Group;

/// One agent's line in a pool's standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The agent's display name.
    pub agent: String,
    /// Games played in the pool (N-player games count once each).
    pub games: u64,
    /// Wins: games won, plus, in N-player games, opponents placed behind (pairwise results).
    pub wins: u64,
    /// Draws: drawn games, plus, in N-player games, opponents sharing the agent's place.
    pub draws: u64,
    /// Losses: games lost, plus, in N-player games, opponents placed ahead.
    pub losses: u64,
    /// Games this agent lost by an illegal move, a crash or a timeout.
    pub faults: u64,
    /// Elo rating (mean 0 over its group, or relative to the anchor).
    pub elo: f64,
    /// The 95% interval of `elo`; `None` for the anchor (fixed by definition), for an agent
    /// alone in its group, and when the report was made without intervals.
    pub interval: Option<Interval>,
    /// The group of agents that met (directly or through others), numbered from 1 in order of
    /// the best-rated member. Ratings of different groups are not comparable.
    pub group: usize,
    /// The tier within the group, from 1 for the top: every game between two tiers went one
    /// way. A group with one tier has finite maximum-likelihood ratings.
    pub tier: usize,
    /// Whether the agent's group has finite maximum-likelihood ratings (a single tier).
    pub finite: bool,
    /// Whether this agent is the anchor, fixed at its rating.
    pub anchor: bool,
    /// Whether the interval was left out because its ends would have been equal (a bootstrap
    /// whose replicates did not vary: too few games to resample); `interval` is then `None`.
    pub withheld: bool,
    /// Whether the interval is the Wald interval (with the draw correction) rather than the
    /// profile-likelihood one: the agent's group has more than
    /// [`crate::elo::MAX_PROFILE_AGENTS`] agents ([`crate::elo::Rated::wald`]).
    pub wald: bool,
    /// The agent's games of three or four players, if it played any here.
    pub multiplayer: Option<Multiplayer>,
}

/// An agent's games of three or four players in a pool.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Multiplayer {
    /// Games played.
    pub games: u64,
    /// `places[k]`: games finished in place `k + 1`.
    pub places: Vec<u64>,
    /// Opponents placed behind the agent, summed over the games.
    pub beaten: u64,
    /// Opponents sharing the agent's place.
    pub tied: u64,
    /// Opponents placed ahead of the agent.
    pub behind: u64,
}

impl Multiplayer {
    /// The mean place (1 = first).
    pub fn average_place(&self) -> f64 {
        let games: u64 = self.places.iter().sum();
        self.places
            .iter()
            .enumerate()
            .map(|(k, &count)| (k + 1) as f64 * count as f64)
            .sum::<f64>()
            / games.max(1) as f64
    }

    /// Points: one per opponent placed behind, half per opponent sharing the place (3
    /// players: 2, 1, 0 for first, second, third).
    pub fn points(&self) -> f64 {
        self.beaten as f64 + 0.5 * self.tied as f64
    }
}

impl Standing {
    /// League points of the two-player games: 3 for a win, 1 for a draw, 0 for a loss.
    pub fn league_points(&self) -> u64 {
        let (beaten, tied) = self
            .multiplayer
            .as_ref()
            .map_or((0, 0), |m| (m.beaten, m.tied));
        3 * (self.wins - beaten) + (self.draws - tied)
    }

    /// Points per pairwise result in 0..=1, a draw counting half a win.
    pub fn score(&self) -> f64 {
        let results = self.wins + self.draws + self.losses;
        if results == 0 {
            return 0.0;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / results as f64
    }

    /// Whether the agent won every game or lost every game.
    pub fn has_perfect_score(&self) -> bool {
        let results = self.wins + self.draws + self.losses;
        results > 0 && (self.wins == results || self.losses == results)
    }
}

/// The ratings of one pool: one variant, or [`crate::ALL_POOL`] for every variant together.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRatings {
    /// The variant id, or `all`.
    pub pool: String,
    /// One line per agent: by group (the group of the best-rated agent first), then best Elo
    /// first.
    pub standings: Vec<Standing>,
    /// Whether some group has several tiers, so the offsets between tiers come from the weak
    /// prior (see [`crate::elo`]).
    pub prior_used: bool,
    /// How many groups of agents the pool splits into when only agents that played each other
    /// are linked; each group has mean 0 (or is placed by the anchor), so ratings from
    /// different groups are not comparable.
    pub groups: usize,
    /// The anchor agent and its rating, when the anchor played in this pool.
    pub anchor: Option<(String, f64)>,
    /// How the intervals were computed (`None`: no intervals).
    pub method: Option<Method>,
    /// Where some group has several tiers: the gap between each two consecutive tiers, with
    /// its 95% lower bound (group and tiers numbered from 1 as in the standings).
    pub gaps: Vec<TierGap>,
    /// Whether the pool holds games of more than two players (rated by their pairwise
    /// results; intervals by resampling whole games).
    pub multiplayer: bool,
    /// Agent names in alphabetical order: the index order of `results`.
    agents: Vec<String>,
    /// `results[i * n + j]`: wins, draws and losses of agent `i` against agent `j`.
    results: Vec<Wdl>,
}

impl PoolRatings {
    /// The standing of `agent`, if it played in this pool.
    pub fn standing(&self, agent: &str) -> Option<&Standing> {
        self.standings.iter().find(|s| s.agent == agent)
    }

    /// The (pairwise) results between two agents of the pool, from `agent`'s side (zero games
    /// if they never met); `None` if either did not play in this pool.
    pub fn head_to_head(&self, agent: &str, opponent: &str) -> Option<PairElo> {
        let i = self.index(agent)?;
        let j = self.index(opponent)?;
        let wdl = self.results[i * self.agents.len() + j];
        Some(PairElo::new(wdl.wins, wdl.draws, wdl.losses))
    }

    /// The two sides of a gauntlet, if the pool's games form one: its agents split in two
    /// groups, every game between the groups and none inside either, with at least three agents
    /// (two are a plain match). The larger group are the entrants, the smaller the field; each
    /// in standings order. Found from the games alone, as everything in the report is.
    pub fn gauntlet_sides(&self) -> Option<(Vec<&str>, Vec<&str>)> {
        let agents: Vec<&str> = self.standings.iter().map(|s| s.agent.as_str()).collect();
        if agents.len() < 3 {
            return None;
        }
        let met = |a: &str, b: &str| self.head_to_head(a, b).is_some_and(|m| m.games() > 0);
        // Two-colour the graph of who met whom: a gauntlet's is bipartite and connected.
        let mut side: Vec<Option<bool>> = vec![None; agents.len()];
        side[0] = Some(false);
        let mut queue = vec![0];
        while let Some(at) = queue.pop() {
            for other in 0..agents.len() {
                if other == at || !met(agents[at], agents[other]) {
                    continue;
                }
                let colour = side[at].map(|c| !c);
                match side[other] {
                    None => {
                        side[other] = colour;
                        queue.push(other);
                    }
                    Some(c) if Some(c) != colour => return None,
                    Some(_) => {}
                }
            }
        }
        // Every agent reached (the graph is connected), each on one side.
        let group = |colour: bool| -> Option<Vec<&str>> {
            let mut out = Vec::new();
            for (agent, s) in agents.iter().zip(&side) {
                if (*s)? == colour {
                    out.push(*agent);
                }
            }
            Some(out)
        };
        let (a, b) = (group(false)?, group(true)?);
        Some(if a.len() >= b.len() { (a, b) } else { (b, a) })
    }

    /// Whether the intervals come from a method whose simulated coverage is near 95%: the
    /// profile interval. With few games the percentile bootstrap held the true rating as
    /// little as 78-85% of the time in the simulations (the book's report page), so its intervals
    /// are marked as unreliable wherever they are shown.
    pub fn intervals_reliable(&self) -> bool {
        !matches!(self.method, Some(Method::Bootstrap { .. }))
    }

    fn index(&self, agent: &str) -> Option<usize> {
        self.agents
            .binary_search_by(|name| name.as_str().cmp(agent))
            .ok()
    }
}

/// The games of a pool before rating: agents in alphabetical order and their results.
pub(crate) struct PoolGames {
    pub pool: String,
    pub agents: Vec<String>,
    /// `results[i * n + j]`: pairwise results of `i` against `j`.
    pub results: Vec<Wdl>,
    pub faults: Vec<u64>,
    /// Resampling units: one per pairing of two-player games, one per seating of N-player
    /// games.
    pub units: Vec<Unit>,
    /// N-player games per agent.
    pub multiplayer: Vec<Option<Multiplayer>>,
    /// Games per agent (N-player games once each).
    pub games: Vec<u64>,
    pub is_multiplayer: bool,
}

impl PoolGames {
    /// The pool's pairwise results as the model's games.
    pub fn model(&self) -> Group {
        let n = self.agents.len();
        let mut games = Group::new(n);
        for i in 0..n {
            for j in i + 1..n {
                let wdl = self.results[i * n + j];
                if wdl.games() > 0 {
                    games.add(i, j, wdl.wins as f64, wdl.draws as f64, wdl.losses as f64);
                }
            }
        }
        for unit in self.units.iter().filter(|u| !u.table.is_empty()) {
            for (pairwise, count) in &unit.outcomes {
                games.note_table(&unit.table, *count as f64, pairwise);
            }
        }
        games
    }

    /// Fits the pool and its 95% intervals.
    pub fn rate(self, anchor: Option<(&str, f64)>, options: &crate::Options) -> PoolRatings {
        let n = self.agents.len();
        let anchor = anchor.and_then(|(name, elo)| {
            let index = self.agents.iter().position(|a| a == name)?;
            Some((index, elo))
        });
        let games = self.model();
        let method = options.method().map(|m| match m {
            Method::Bootstrap { replicates, seed } => Method::Bootstrap {
                replicates,
                seed: seed ^ fnv1a(self.pool.as_bytes()),
            },
            other => other,
        });
        let rated = elo::rate_games(&games, &self.units, anchor, method);

        let mut standings: Vec<Standing> = (0..n)
            .map(|i| {
                let mut total = Wdl::default();
                for j in 0..n {
                    total.add(self.results[i * n + j]);
                }
                Standing {
                    agent: self.agents[i].clone(),
                    games: self.games[i],
                    wins: total.wins,
                    draws: total.draws,
                    losses: total.losses,
                    faults: self.faults[i],
                    elo: rated.fit.elo[i],
                    interval: rated.intervals[i],
                    group: rated.fit.group[i],
                    tier: rated.fit.tier[i] + 1,
                    finite: rated.fit.finite[i],
                    anchor: anchor.is_some_and(|(k, _)| k == i),
                    withheld: rated.withheld.contains(&i),
                    wald: rated.wald.contains(&i),
                    multiplayer: self.multiplayer[i].clone(),
                }
            })
            .collect();
        // Groups numbered from 1 in order of their best-rated member.
        let groups = rated.fit.groups;
        let mut best = vec![f64::NEG_INFINITY; groups];
        for s in &standings {
            best[s.group] = best[s.group].max(s.elo);
        }
        let mut order: Vec<usize> = (0..groups).collect();
        order.sort_by(|&a, &b| best[b].total_cmp(&best[a]).then(a.cmp(&b)));
        let renumbered = |g: usize| order.iter().position(|&o| o == g).expect("group") + 1;
        for s in &mut standings {
            s.group = renumbered(s.group);
        }
        let mut gaps: Vec<TierGap> = rated
            .gaps
            .into_iter()
            .map(|gap| TierGap {
                group: renumbered(gap.group),
                upper: gap.upper + 1,
                lower: gap.lower + 1,
                ..gap
            })
            .collect();
        gaps.sort_by_key(|g| (g.group, g.upper));
        standings.sort_by(|a, b| {
            a.group
                .cmp(&b.group)
                .then(b.elo.total_cmp(&a.elo))
                .then(b.score().total_cmp(&a.score()))
                .then_with(|| a.agent.cmp(&b.agent))
        });
        PoolRatings {
            anchor: anchor.map(|(index, value)| (self.agents[index].clone(), value)),
            pool: self.pool,
            standings,
            prior_used: rated.fit.prior_used,
            groups,
            method,
            gaps,
            multiplayer: self.is_multiplayer,
            agents: self.agents,
            results: self.results,
        }
    }
}

/// FNV-1a: a fixed, documented hash, so a pool's bootstrap stream depends only on its name.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
