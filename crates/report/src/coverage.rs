//! Simulated coverage of the 95% intervals: round robins drawn from known ratings, rated, and
//! counted for whether each interval holds the true rating.
//!
//! This is how [`crate::elo::Method::Profile`] was chosen over the bootstrap
//! (`cargo run --release -p report --example coverage` prints every figure; the book's report page has them),
//! and what `tests/it/coverage.rs` checks in a loose band.
//!
//! The true rating an interval must hold is the one the report estimates: the agent's rating
//! minus the mean of its group (or minus the anchor's, plus the anchor's rating). Games follow
//! the half-point Bradley-Terry model exactly: the expected score of `i` against `j` is
//! `1 / (1 + 10^((Rj - Ri) / 400))`, with a draw probability that is largest between equals
//! (`draw_peak · 4p(1 - p)`, capped so that wins and losses stay non-negative) and the rest
//! split into wins and losses so that the expected score is exact.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::elo::{self, Method, Pairing, Unit};
use crate::model::Group;

/// A tournament to simulate: a round robin of agents with known ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// A short name for tables.
    pub name: &'static str,
    /// The true ratings (Elo).
    pub ratings: Vec<f64>,
    /// The draw probability between equal agents (0 for a game without draws).
    pub draw_peak: f64,
    /// The anchor, if the ratings are reported relative to one agent.
    pub anchor: Option<usize>,
}

impl Scenario {
    /// The scenarios of the book's coverage table: pools like those of the committed sample run.
    pub fn standard() -> Vec<Scenario> {
        vec![
            // mnk-3x3k3 of the sample: seven agents, many draws between the strong ones.
            Scenario {
                name: "7 agents, draws (like 3x3)",
                ratings: vec![170.0, 155.0, 115.0, 60.0, 10.0, -100.0, -410.0],
                draw_peak: 0.6,
                anchor: None,
            },
            // mnk-4x4k3 and O An Quan: decisive games, a moderate spread.
            Scenario {
                name: "6 agents, no draws (like 4x4)",
                ratings: vec![215.0, 135.0, 110.0, 25.0, -140.0, -345.0],
                draw_peak: 0.0,
                anchor: None,
            },
            // Two agents close together, some draws.
            Scenario {
                name: "2 agents, 100 Elo apart, draws",
                ratings: vec![50.0, -50.0],
                draw_peak: 0.3,
                anchor: None,
            },
            // Ten agents evenly spread, relative to an anchor.
            Scenario {
                name: "10 agents, anchored, some draws",
                ratings: (0..10).map(|k| 300.0 - 60.0 * k as f64).collect(),
                draw_peak: 0.2,
                anchor: Some(9),
            },
        ]
    }

    /// Pools where many agents have no finite maximum-likelihood rating: a wide spread as in
    /// the sample's mnk-9x9k5 and caro.
    pub fn wide() -> Vec<Scenario> {
        vec![
            Scenario {
                name: "6 agents, 2000 Elo spread (like 9x9)",
                ratings: vec![1000.0, 550.0, 90.0, -90.0, -550.0, -1000.0],
                draw_peak: 0.0,
                anchor: None,
            },
            Scenario {
                name: "6 agents, 1200 Elo spread",
                ratings: vec![600.0, 350.0, 100.0, -100.0, -350.0, -600.0],
                draw_peak: 0.1,
                anchor: None,
            },
        ]
    }

    /// Pools where nearly every game is drawn, as between strong agents of tic-tac-toe: close
    /// ratings and draw rates of 90-99% between equals, where a pairing is often all draws.
    pub fn drawish() -> Vec<Scenario> {
        vec![
            Scenario {
                name: "2 agents, 20 Elo apart, 95% draws",
                ratings: vec![10.0, -10.0],
                draw_peak: 0.95,
                anchor: None,
            },
            Scenario {
                name: "2 agents, 40 Elo apart, 99% draws",
                ratings: vec![20.0, -20.0],
                draw_peak: 0.99,
                anchor: None,
            },
            Scenario {
                name: "3 agents, 30 Elo apart, 90% draws",
                ratings: vec![30.0, 0.0, -30.0],
                draw_peak: 0.9,
                anchor: None,
            },
            Scenario {
                name: "3 agents, 10 Elo apart, 99% draws",
                ratings: vec![10.0, 0.0, -10.0],
                draw_peak: 0.99,
                anchor: None,
            },
        ]
    }

    /// The true value each agent's interval must hold.
    pub fn truth(&self) -> Vec<f64> {
        let reference = match self.anchor {
            Some(k) => self.ratings[k],
            None => self.ratings.iter().sum::<f64>() / self.ratings.len() as f64,
        };
        self.ratings.iter().map(|r| r - reference).collect()
    }

    /// One round robin with `games` games per pair, drawn from `rng`.
    pub fn play(&self, games: u64, rng: &mut ChaCha8Rng) -> Vec<Pairing> {
        let n = self.ratings.len();
        let mut pairings = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let p = 1.0 / (1.0 + 10f64.powf((self.ratings[j] - self.ratings[i]) / 400.0));
                let draw = (self.draw_peak * 4.0 * p * (1.0 - p)).min(2.0 * p.min(1.0 - p));
                let win = p - draw / 2.0;
                let mut pairing = Pairing::new(i, j, 0, 0, 0);
                for _ in 0..games {
                    let u: f64 = rng.random();
                    if u < win {
                        pairing.wins += 1;
                    } else if u < win + draw {
                        pairing.draws += 1;
                    } else {
                        pairing.losses += 1;
                    }
                }
                pairings.push(pairing);
            }
        }
        pairings
    }
}

/// Coverage counts of one method on one scenario.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Coverage {
    /// Intervals of agents whose group had finite maximum-likelihood ratings.
    pub finite: u64,
    /// How many of those held the true rating.
    pub finite_held: u64,
    /// Sum of their widths (Elo), for the mean width.
    pub finite_width: f64,
    /// Intervals of agents without a finite maximum-likelihood rating.
    pub other: u64,
    /// How many of those held the true rating.
    pub other_held: u64,
    /// How many of those had an open end.
    pub other_open: u64,
    /// How many of those had both ends open (they hold any truth).
    pub other_unbounded: u64,
}

impl Coverage {
    /// The share of finite-case intervals that held the truth.
    pub fn finite_rate(&self) -> f64 {
        self.finite_held as f64 / self.finite.max(1) as f64
    }

    /// The share of the other intervals that held the truth.
    pub fn other_rate(&self) -> f64 {
        self.other_held as f64 / self.other.max(1) as f64
    }

    /// The share of the other intervals with a finite end that held the true rating.
    pub fn bounded_rate(&self) -> f64 {
        let bounded = self.other - self.other_unbounded;
        (self.other_held - self.other_unbounded) as f64 / bounded.max(1) as f64
    }

    /// The share of all intervals that held the truth.
    pub fn rate(&self) -> f64 {
        (self.finite_held + self.other_held) as f64 / (self.finite + self.other).max(1) as f64
    }

    /// The mean width of the finite-case intervals.
    pub fn mean_width(&self) -> f64 {
        self.finite_width / self.finite.max(1) as f64
    }

    fn add(&mut self, other: &Coverage) {
        self.finite += other.finite;
        self.finite_held += other.finite_held;
        self.finite_width += other.finite_width;
        self.other += other.other;
        self.other_held += other.other_held;
        self.other_open += other.other_open;
        self.other_unbounded += other.other_unbounded;
    }
}

/// Simulates `replicates` round robins of `scenario` with `games` games per pair, rates each by
/// `method`, and counts the intervals that hold the truth. Replicate `r` draws from ChaCha8
/// seeded with `seed`, stream `r`, so the figures reproduce whatever the thread count.
pub fn simulate(
    scenario: &Scenario,
    games: u64,
    method: Method,
    replicates: u64,
    seed: u64,
) -> Coverage {
    let truth = scenario.truth();
    let anchor = scenario.anchor.map(|k| (k, 0.0));
    (0..replicates)
        .into_par_iter()
        .map(|replicate| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(replicate);
            let pairings = scenario.play(games, &mut rng);
            let method = match method {
                Method::Bootstrap { replicates, seed } => Method::Bootstrap {
                    replicates,
                    seed: seed ^ replicate,
                },
                other => other,
            };
            let rated = elo::rate(scenario.ratings.len(), &pairings, anchor, method);
            count(&rated, &truth)
        })
        .reduce(Coverage::default, |mut a, b| {
            a.add(&b);
            a
        })
}

/// A tournament of games of 3 or 4 players to simulate, as `arena run` schedules one: every
/// group of `players` agents plays `games` games in each of its `players` seatings (the
/// rotations of the group), and each game's finishing order is Plackett-Luce with strengths
/// `10^(rating / 400)`: the first place goes to an agent with probability proportional to its
/// strength, then the second among those left, and so on. Every pair's order in a game then
/// follows the Bradley-Terry model the report fits, but the pairs of one game are not
/// independent.
#[derive(Clone, Debug, PartialEq)]
pub struct TableScenario {
    /// A short name for tables.
    pub name: &'static str,
    /// The true ratings (Elo).
    pub ratings: Vec<f64>,
    /// Players per game: 3 or 4.
    pub players: usize,
}

impl TableScenario {
    /// The scenarios of the N-player coverage table: pools like the committed
    /// `results/oanquan-multi`, a larger one, and the smallest there is.
    pub fn standard() -> Vec<TableScenario> {
        vec![
            // oanquan-3p of the committed run: five agents, one far below the rest.
            TableScenario {
                name: "5 agents, 3 players (like oanquan-3p)",
                ratings: vec![165.0, 155.0, 155.0, -40.0, -435.0],
                players: 3,
            },
            // oanquan-4p of the committed run.
            TableScenario {
                name: "5 agents, 4 players (like oanquan-4p)",
                ratings: vec![185.0, 140.0, 90.0, 45.0, -460.0],
                players: 4,
            },
            // Eight agents evenly spread.
            TableScenario {
                name: "8 agents, 3 players, evenly spread",
                ratings: (0..8).map(|k| 210.0 - 60.0 * k as f64).collect(),
                players: 3,
            },
            // One table of four: the fewest games a pool of N-player games can have.
            TableScenario {
                name: "4 agents, 4 players (one table)",
                ratings: vec![150.0, 50.0, -50.0, -150.0],
                players: 4,
            },
        ]
    }

    /// The true value each agent's interval must hold: its rating minus the mean.
    pub fn truth(&self) -> Vec<f64> {
        let mean = self.ratings.iter().sum::<f64>() / self.ratings.len() as f64;
        self.ratings.iter().map(|r| r - mean).collect()
    }

    /// The seatings of the schedule: every group of `players` agents, each rotation of it.
    pub fn seatings(&self) -> Vec<Vec<usize>> {
        let n = self.ratings.len();
        let mut seatings = Vec::new();
        let mut group: Vec<usize> = (0..self.players).collect();
        loop {
            for rotation in 0..self.players {
                seatings.push(
                    (0..self.players)
                        .map(|seat| group[(seat + rotation) % self.players])
                        .collect(),
                );
            }
            // The next group in lexicographic order.
            let Some(k) = (0..self.players)
                .rev()
                .find(|&k| group[k] < n - self.players + k)
            else {
                break;
            };
            group[k] += 1;
            for next in k + 1..self.players {
                group[next] = group[next - 1] + 1;
            }
        }
        seatings
    }

    /// One tournament with `games` games per seating, drawn from `rng`: the games as the
    /// report's totals hold them (one unit per seating) and as the model's games.
    pub(crate) fn play(&self, games: u64, rng: &mut ChaCha8Rng) -> (Group, Vec<Unit>) {
        let strength: Vec<f64> = self.ratings.iter().map(|r| 10f64.powf(r / 400.0)).collect();
        let mut model = Group::new(self.ratings.len());
        let mut units = Vec::new();
        for seats in self.seatings() {
            let mut unit = Unit {
                table: seats.clone(),
                ..Unit::default()
            };
            for _ in 0..games {
                // Places by seat, drawn place by place.
                let mut left: Vec<usize> = (0..seats.len()).collect();
                let mut place = vec![0usize; seats.len()];
                for p in 0..seats.len() {
                    let total: f64 = left.iter().map(|&s| strength[seats[s]]).sum();
                    let mut u = rng.random::<f64>() * total;
                    let mut chosen = left.len() - 1;
                    for (k, &s) in left.iter().enumerate() {
                        u -= strength[seats[s]];
                        if u < 0.0 {
                            chosen = k;
                            break;
                        }
                    }
                    place[left.remove(chosen)] = p;
                }
                let mut pairwise = Vec::new();
                for a in 0..seats.len() {
                    for b in a + 1..seats.len() {
                        let won = place[a] < place[b];
                        pairwise.push((
                            seats[a],
                            seats[b],
                            f64::from(u8::from(won)),
                            0.0,
                            f64::from(u8::from(!won)),
                        ));
                    }
                }
                model.add_table(&seats, 1.0, &pairwise);
                match unit.outcomes.iter_mut().find(|(r, _)| *r == pairwise) {
                    Some((_, count)) => *count += 1,
                    None => unit.outcomes.push((pairwise, 1)),
                }
            }
            units.push(unit);
        }
        (model, units)
    }
}

/// How [`simulate_tables`] rates a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableMethod {
    /// As the report rates a pool with games of 3 or 4 players, by this method.
    Report(Method),
    /// The profile interval with each game's pairwise results taken as independent: what the
    /// report's method would be without the tables' variance.
    Independent,
}

/// Simulates `replicates` tournaments of `scenario` with `games` games per seating, rates each
/// by `method`, and counts the intervals that hold the truth. Replicate `r` draws from
/// ChaCha8 seeded with `seed`, stream `r`, so the figures reproduce whatever the thread count.
pub fn simulate_tables(
    scenario: &TableScenario,
    games: u64,
    method: TableMethod,
    replicates: u64,
    seed: u64,
) -> Coverage {
    let truth = scenario.truth();
    (0..replicates)
        .into_par_iter()
        .map(|replicate| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(replicate);
            let (model, units) = scenario.play(games, &mut rng);
            let rated = match method {
                TableMethod::Report(Method::Bootstrap { replicates, seed }) => {
                    let method = Method::Bootstrap {
                        replicates,
                        seed: seed ^ replicate,
                    };
                    elo::rate_games(&model, &units, None, Some(method))
                }
                TableMethod::Report(method) => elo::rate_games(&model, &units, None, Some(method)),
                TableMethod::Independent => {
                    elo::rate_games(&model.without_tables(), &units, None, Some(Method::Profile))
                }
            };
            count(&rated, &truth)
        })
        .reduce(Coverage::default, |mut a, b| {
            a.add(&b);
            a
        })
}

/// Counts the intervals of one rated tournament that hold the truth.
fn count(rated: &elo::Rated, truth: &[f64]) -> Coverage {
    let mut coverage = Coverage::default();
    for (agent, interval) in rated.intervals.iter().enumerate() {
        let Some(interval) = interval else { continue };
        let held = u64::from(interval.contains(truth[agent]));
        if rated.fit.finite[agent] {
            coverage.finite += 1;
            coverage.finite_held += held;
            if let (Some(low), Some(high)) = (interval.low, interval.high) {
                coverage.finite_width += high - low;
            }
        } else {
            coverage.other += 1;
            coverage.other_held += held;
            coverage.other_open += u64::from(interval.is_open());
            coverage.other_unbounded +=
                u64::from(interval.low.is_none() && interval.high.is_none());
        }
    }
    coverage
}
