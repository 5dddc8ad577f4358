//! Pools of agents: their standings, the joint Elo fit and its bootstrap interval.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::elo::{GameMatrix, PairElo, Pairing};
use crate::games::Wdl;

/// One agent's line in a pool's standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The agent's display name.
    pub agent: String,
    /// Games played in the pool.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Games this agent lost by an illegal move, a crash or a timeout.
    pub faults: u64,
    /// Elo rating (mean 0 over the pool, or relative to the anchor).
    pub elo: f64,
    /// The 95% bootstrap interval of `elo` (2.5th and 97.5th percentiles); `None` when the
    /// report was made without bootstrap.
    pub interval: Option<(f64, f64)>,
}

impl Standing {
    /// League points: 3 for a win, 1 for a draw, 0 for a loss.
    pub fn league_points(&self) -> u64 {
        3 * self.wins + self.draws
    }

    /// Points per game in 0..=1, a draw counting half a win.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
    }

    /// Whether the agent won every game or lost every game, so the games alone put no finite
    /// bound on its rating.
    pub fn has_perfect_score(&self) -> bool {
        self.games > 0 && (self.wins == self.games || self.losses == self.games)
    }
}

/// The ratings of one pool: one variant, or [`crate::ALL_POOL`] for every variant together.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRatings {
    /// The variant id, or `all`.
    pub pool: String,
    /// One line per agent, best Elo first.
    pub standings: Vec<Standing>,
    /// Whether the games of some group of agents have no finite maximum-likelihood rating, so
    /// the weak prior was added (see [`crate::elo`]).
    pub prior_used: bool,
    /// How many groups of agents the pool splits into when only agents that played each other
    /// are linked; each group is fitted on its own with mean 0, so ratings from different
    /// groups are not comparable.
    pub groups: usize,
    /// The anchor agent and its rating, when the anchor played in this pool.
    pub anchor: Option<(String, f64)>,
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

    /// The match between two agents of the pool, from `agent`'s side (zero games if they
    /// never met); `None` if either did not play in this pool.
    pub fn head_to_head(&self, agent: &str, opponent: &str) -> Option<PairElo> {
        let i = self.index(agent)?;
        let j = self.index(opponent)?;
        let wdl = self.results[i * self.agents.len() + j];
        Some(PairElo::new(wdl.wins, wdl.draws, wdl.losses))
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
    /// `results[i * n + j]`, as in [`PoolRatings`].
    pub results: Vec<Wdl>,
    pub faults: Vec<u64>,
}

impl PoolGames {
    /// Each pair once (`i < j`), from the first agent's side, in a fixed order so the
    /// bootstrap draws the same games for the same seed.
    fn pairings(&self) -> Vec<Pairing> {
        let n = self.agents.len();
        let mut pairings = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let wdl = self.results[i * n + j];
                if wdl.games() > 0 {
                    pairings.push(Pairing::new(i, j, wdl.wins, wdl.draws, wdl.losses));
                }
            }
        }
        pairings
    }

    /// Fits the pool and, with `bootstrap > 0`, its 95% intervals.
    pub fn rate(self, anchor: Option<(&str, f64)>, bootstrap: usize, seed: u64) -> PoolRatings {
        let n = self.agents.len();
        let pairings = self.pairings();
        let anchor = anchor.and_then(|(name, elo)| {
            let index = self.agents.iter().position(|a| a == name)?;
            Some((index, elo))
        });
        let normalise = |elo: &mut [f64]| {
            if let Some((index, value)) = anchor {
                let shift = value - elo[index];
                elo.iter_mut().for_each(|e| *e += shift);
                // Exactly the anchor, not the anchor up to rounding.
                elo[index] = value;
            }
        };
        let fit = fit_pairings(n, &pairings);
        let mut elo = fit.elo.clone();
        normalise(&mut elo);

        let intervals = (bootstrap > 0).then(|| {
            // One stream per replicate: the draws do not depend on how rayon splits the work.
            let pool_seed = seed ^ fnv1a(self.pool.as_bytes());
            let replicates: Vec<Vec<f64>> = (0..bootstrap)
                .into_par_iter()
                .map(|replicate| {
                    let mut rng = ChaCha8Rng::seed_from_u64(pool_seed);
                    rng.set_stream(replicate as u64);
                    let resampled: Vec<Pairing> =
                        pairings.iter().map(|p| resample(p, &mut rng)).collect();
                    let mut elo = fit_pairings(n, &resampled).elo;
                    normalise(&mut elo);
                    elo
                })
                .collect();
            (0..n)
                .map(|agent| {
                    let mut sample: Vec<f64> = replicates.iter().map(|r| r[agent]).collect();
                    sample.sort_by(f64::total_cmp);
                    let (low, high) = (percentile(&sample, 0.025), percentile(&sample, 0.975));
                    // An agent whose games all went one way is resampled the same every
                    // time: the bootstrap cannot see its uncertainty, the prior's curvature can.
                    match fit.prior_errors[agent] {
                        Some(error) if high - low < 1e-6 => {
                            (elo[agent] - Z95 * error, elo[agent] + Z95 * error)
                        }
                        _ => (low, high),
                    }
                })
                .collect::<Vec<_>>()
        });

        let mut standings: Vec<Standing> = (0..n)
            .map(|i| {
                let mut total = Wdl::default();
                for j in 0..n {
                    total.add(self.results[i * n + j]);
                }
                Standing {
                    agent: self.agents[i].clone(),
                    games: total.games(),
                    wins: total.wins,
                    draws: total.draws,
                    losses: total.losses,
                    faults: self.faults[i],
                    elo: elo[i],
                    interval: intervals.as_ref().map(|all| all[i]),
                }
            })
            .collect();
        standings.sort_by(|a, b| {
            b.elo
                .total_cmp(&a.elo)
                .then(b.score().total_cmp(&a.score()))
                .then_with(|| a.agent.cmp(&b.agent))
        });
        PoolRatings {
            anchor: anchor.map(|(index, value)| (self.agents[index].clone(), value)),
            pool: self.pool,
            standings,
            prior_used: fit.prior_used,
            groups: fit.groups,
            agents: self.agents,
            results: self.results,
        }
    }
}

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

fn fit_pairings(agents: usize, pairings: &[Pairing]) -> crate::elo::Fit {
    let mut matrix = GameMatrix::new(agents);
    for pairing in pairings {
        matrix.add(pairing);
    }
    matrix.fit()
}

/// Draws as many games as the pairing played, with replacement, from its own games.
fn resample(pairing: &Pairing, rng: &mut ChaCha8Rng) -> Pairing {
    let games = pairing.games();
    let mut drawn = Pairing::new(pairing.agent, pairing.opponent, 0, 0, 0);
    for _ in 0..games {
        let game = rng.random_range(0..games);
        if game < pairing.wins {
            drawn.wins += 1;
        } else if game < pairing.wins + pairing.draws {
            drawn.draws += 1;
        } else {
            drawn.losses += 1;
        }
    }
    drawn
}

/// The `q`-quantile of a sorted, non-empty sample, interpolating between order statistics
/// (Hyndman & Fan type 7, the default of R and NumPy).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(sorted.len() - 1);
    let fraction = position - below as f64;
    sorted[below] + fraction * (sorted[above] - sorted[below])
}

/// FNV-1a: a fixed, documented hash, so a pool's bootstrap stream depends only on its name.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_interpolates() {
        let sample = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&sample, 0.0), 1.0);
        assert_eq!(percentile(&sample, 0.5), 3.0);
        assert_eq!(percentile(&sample, 1.0), 5.0);
        assert!((percentile(&sample, 0.025) - 1.1).abs() < 1e-12);
    }

    #[test]
    fn resampling_keeps_the_number_of_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let drawn = resample(&Pairing::new(0, 1, 5, 3, 2), &mut rng);
        assert_eq!(drawn.games(), 10);
    }
}
