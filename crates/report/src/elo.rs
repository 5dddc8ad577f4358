//! The Bradley-Terry (logistic Elo) fit, its 95% intervals, and the per-pair numbers
//! cutechess-cli prints.
//!
//! The model: agent `i` scores against agent `j` with probability
//! `P(i beats j) = 1 / (1 + 10^((Rj - Ri) / 400))`, and a draw counts as half a win, so the
//! log-likelihood of a pairing with score `s` out of `n` games is
//! `s·ln P + (n - s)·ln(1 - P)`. [`fit`] maximises the sum over all pairings jointly with
//! Newton's method (the log-likelihood is concave, so a backtracking line search is enough to
//! make every step an improvement).
//!
//! Groups of agents that never met, directly or through others, share no information: each
//! group is fitted on its own and given mean 0 (or, for the anchor's group, put where the
//! anchor says), so ratings from different groups are not comparable.
//!
//! **When no maximum exists.** At the maximum every agent's expected score equals its actual
//! score (`Σ_j n_ij·P_ij = Σ_j s_ij`). Within a group such a point exists exactly when the
//! "scored against" graph is strongly connected: for every split of the group in two, each
//! side took at least half a point from the other (Zermelo 1929, Ford 1957). Otherwise the
//! group splits into *tiers* (the strongly connected components): every game between two
//! tiers went one way, and the gap between them can grow without bound. Then each tier keeps
//! the maximum-likelihood differences of its own games (what the games do fix), and only the
//! offsets between tiers come from a weak prior: one virtual drawn game of every agent against a
//! phantom rated 0 ([`Fit::prior_used`]). No agent of a one-tier group is ever moved by it.
//!
//! **Intervals** ([`rate`]): by default the 95% profile-likelihood interval of each rating
//! (relative to the group mean, or to the anchor), the deviance divided by a draw dispersion
//! (see [`Method::Profile`]); an end the games leave open (the agent's tier can be pushed away
//! from the rest without making the games less likely) is reported as open, never as a number
//! the prior made up. The method was chosen by simulation: `examples/coverage.rs` measures the
//! coverage of each method, and the book's report page gives its figures.

use std::f64::consts::LN_10;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::model::{CHI2_1_95, Group, Penalty};

/// Elo points per natural-log unit of the logistic model: `400 / ln 10`.
pub const ELO_PER_NAT: f64 = 400.0 / LN_10;

/// The games between two agents, counted from `agent`'s side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    /// Index of the agent whose wins these are.
    pub agent: usize,
    /// Index of the opponent.
    pub opponent: usize,
    /// Games `agent` won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games `agent` lost.
    pub losses: u64,
}

impl Pairing {
    /// A pairing with the given results from `agent`'s side.
    pub fn new(agent: usize, opponent: usize, wins: u64, draws: u64, losses: u64) -> Self {
        Self {
            agent,
            opponent,
            wins,
            draws,
            losses,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points of `agent`: a win is 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }
}

/// The ratings [`fit`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Elo of each agent, by index, with mean 0 over each group of agents that met.
    pub elo: Vec<f64>,
    /// Whether some group has no finite maximum, so the offsets between its tiers come from
    /// the weak prior (one virtual draw per agent against a phantom rated 0).
    pub prior_used: bool,
    /// How many groups the agents form when only agents that played each other are linked.
    pub groups: usize,
    /// The group of each agent, numbered from 0 in order of their first member.
    pub group: Vec<usize>,
    /// The tier of each agent within its group: 0 for the highest-rated tier, and so on.
    pub tier: Vec<usize>,
    /// Whether the agent's group has finite maximum-likelihood ratings (a single tier).
    pub finite: Vec<bool>,
}

/// Fits Bradley-Terry ratings to the games of `agents` agents by maximum likelihood.
///
/// Pairings may repeat a pair or list it from either side; they are summed. A pairing of an
/// agent with itself carries no information and is ignored. The result has mean 0 in every
/// group of agents that met; see the module documentation for groups without a maximum.
///
/// # Panics
///
/// If a pairing names an agent index `>= agents`.
///
/// # Example
///
/// ```
/// use report::elo::{fit, Pairing};
///
/// // 3 wins and 1 loss: a 75% score is 400·log10(3) ≈ 190.85 Elo.
/// let ratings = fit(2, &[Pairing::new(0, 1, 3, 0, 1)]);
/// assert!((ratings.elo[0] - ratings.elo[1] - 190.848).abs() < 1e-3);
/// assert!(!ratings.prior_used);
/// ```
pub fn fit(agents: usize, pairings: &[Pairing]) -> Fit {
    let games = group_of_pairings(agents, pairings);
    fit_games(&games, None).0
}

/// How [`rate`] computes the 95% intervals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The method the report uses: [`Method::Likelihood`] with the settings the simulation
    /// chose (see the coverage table of the book's report page).
    Profile,
    /// The profile-likelihood interval: the ratings at which twice the drop of the
    /// log-likelihood (maximised over every other rating) reaches the 95% point of
    /// chi-squared with one degree of freedom.
    Likelihood {
        /// Add the Jeffreys prior `½·log det I(θ)` to the log-likelihood (Firth 1993; profile
        /// penalised likelihood, Heinze & Schemper 2002): it keeps the interval's calibration
        /// where some games all went one way.
        jeffreys: bool,
        /// Correct for draws: the half-point likelihood assumes a game's score varies as a
        /// win-or-loss game's; draws make it vary less, so the drop is divided by the ratio of
        /// the sandwich to the model variance of the rating (the robust adjusted likelihood of
        /// Royall & Tsou 2003), each pairing's variance taken from its wins, draws and losses
        /// with half a virtual decisive game added (so an all-draw pairing still varies).
        draws: bool,
    },
    /// The percentile bootstrap: `replicates` redraws, with replacement, of the games of each
    /// group of agents that met (as many as it played, a game of 3 or 4 players whole), each
    /// refitted; the interval runs from the 2.5th to the 97.5th percentile. Open ends stay
    /// open; an interval of no width is left out ([`Rated::withheld`]). Replicate `b` draws
    /// from ChaCha8 seeded with `seed`, stream `b`.
    Bootstrap {
        /// Replicates.
        replicates: usize,
        /// Seed of the draws.
        seed: u64,
    },
}

impl Method {
    /// [`Method::Profile`] spelled out.
    fn resolved(self) -> Method {
        match self {
            Method::Profile => Method::Likelihood {
                jeffreys: true,
                draws: true,
            },
            other => other,
        }
    }
}

/// A 95% interval; an end is `None` when the games leave it open (the rating could be
/// anything beyond the other end without the games becoming less likely).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The lower end, `None` when open.
    pub low: Option<f64>,
    /// The upper end, `None` when open.
    pub high: Option<f64>,
}

impl Interval {
    /// An interval with both ends closed.
    pub fn closed(low: f64, high: f64) -> Self {
        Self {
            low: Some(low),
            high: Some(high),
        }
    }

    /// Whether `x` lies in the interval.
    pub fn contains(&self, x: f64) -> bool {
        self.low.is_none_or(|low| low <= x) && self.high.is_none_or(|high| x <= high)
    }

    /// Whether an end is open.
    pub fn is_open(&self) -> bool {
        self.low.is_none() || self.high.is_none()
    }
}

impl std::fmt::Display for Interval {
    /// `[-12.0, +30.5]`; `≥ +950.0` when the upper end is open, `≤ -80.0` when the lower end
    /// is, `unbounded` when both are.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let signed = crate::tables::signed;
        match (self.low, self.high) {
            (Some(low), Some(high)) => write!(f, "[{}, {}]", signed(low), signed(high)),
            (Some(low), None) => write!(f, "≥ {}", signed(low)),
            (None, Some(high)) => write!(f, "≤ {}", signed(high)),
            (None, None) => write!(f, "unbounded"),
        }
    }
}

/// Ratings with their intervals, from [`rate`].
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// The point estimates, as [`fit`] gives them, shifted for the anchor.
    pub fit: Fit,
    /// The 95% interval of each agent; `None` for the anchor (fixed by definition) and for an
    /// agent alone in its group (its rating relative to its group is 0 by definition).
    pub intervals: Vec<Option<Interval>>,
    /// The gaps between consecutive tiers of the groups without a finite maximum, highest
    /// first (profile-likelihood methods only).
    pub gaps: Vec<TierGap>,
    /// Agents whose interval was left out (`None` in `intervals`) because its two ends were
    /// less than [`MIN_WIDTH`] apart: a bootstrap whose replicates did not vary, which says
    /// nothing about the uncertainty.
    pub withheld: Vec<usize>,
    /// Agents whose [`Method::Profile`] interval is the Wald interval, because their group has
    /// more than [`MAX_PROFILE_AGENTS`] agents: the rating ± 1.96 standard errors from the
    /// information at the point estimate, the variance multiplied by the same draw dispersion
    /// as the profile's deviance is divided by (ends the games leave open stay open).
    pub wald: Vec<usize>,
}

/// The largest group of agents whose [`Method::Profile`] intervals are profile-likelihood
/// intervals; a larger group gets the Wald interval with the same draw correction (see
/// [`Rated::wald`]). Each agent's profile interval maximises the likelihood over every other
/// rating dozens of times, `O(m³)` each, so a group's intervals take `O(m⁴)`; the Wald
/// intervals of a group take `O(m³)` together (the times are on the book's benchmarks page).
pub const MAX_PROFILE_AGENTS: usize = 50;

/// The narrowest interval given (Elo): ends closer than this would print alike at one decimal.
pub const MIN_WIDTH: f64 = 0.1;

/// The gap between two consecutive tiers of a group (tiers by their point estimates): every
/// game between them went the upper tier's way, so the gap has no upper bound; the games do
/// bound it from below.
#[derive(Clone, Debug, PartialEq)]
pub struct TierGap {
    /// The group (as in [`Fit::group`]).
    pub group: usize,
    /// The upper tier (as in [`Fit::tier`]).
    pub upper: usize,
    /// The lower tier, `upper + 1`.
    pub lower: usize,
    /// The point estimate of the gap between the tiers' mean ratings (Elo), set by the weak
    /// prior.
    pub elo: f64,
    /// The 95% lower bound of that gap (Elo); `None` when no chain of games leads from the
    /// upper tier to the lower one (the two are not ordered by the games at all).
    pub at_least: Option<f64>,
}

/// Rates `agents` agents: the point estimates of [`fit`] and their 95% intervals by `method`.
/// With `anchor = Some((k, elo))`, agent `k` is fixed at `elo` and the rest of its group keeps
/// its differences to it; every other group keeps mean 0.
///
/// # Example
///
/// ```
/// use report::elo::{rate, Method, Pairing};
///
/// // 10-0: the winner's rating has a lower bound but no upper one.
/// let rated = rate(2, &[Pairing::new(0, 1, 10, 0, 0)], None, Method::Profile);
/// let winner = rated.intervals[0].unwrap();
/// assert!(winner.low.is_some() && winner.high.is_none());
/// ```
pub fn rate(
    agents: usize,
    pairings: &[Pairing],
    anchor: Option<(usize, f64)>,
    method: Method,
) -> Rated {
    let games = group_of_pairings(agents, pairings);
    let units = pairing_units(agents, pairings);
    rate_games(&games, &units, anchor, Some(method))
}

/// Games of one resampling unit (the games of one pairing, or of one seating of an N-player
/// variant): each outcome seen, as the pairwise results it implies, and how often it was seen.
#[derive(Clone, Debug, Default)]
pub(crate) struct Unit {
    pub outcomes: Vec<(Vec<PairwiseResult>, u64)>,
    /// The agents of a game of 3 or 4 players (by seat); empty for a two-player pairing.
    pub table: Vec<usize>,
}

/// Agents `i` and `j`, and the wins, draws and losses of `i`.
pub(crate) type PairwiseResult = (usize, usize, f64, f64, f64);

/// One group of agents that met: its members (pool indices), its games, and its point
/// estimate in natural units.
pub(crate) type GroupFit = (Vec<usize>, Group, Vec<f64>);

/// One unit per unordered pairing: its wins, draws and losses as three outcomes.
fn pairing_units(agents: usize, pairings: &[Pairing]) -> Vec<Unit> {
    let mut merged = std::collections::BTreeMap::<(usize, usize), (u64, u64, u64)>::new();
    for p in pairings {
        assert!(
            p.agent < agents && p.opponent < agents,
            "pairing outside 0..{agents}"
        );
        if p.agent == p.opponent {
            continue;
        }
        let (key, (w, l)) = if p.agent < p.opponent {
            ((p.agent, p.opponent), (p.wins, p.losses))
        } else {
            ((p.opponent, p.agent), (p.losses, p.wins))
        };
        let entry = merged.entry(key).or_default();
        entry.0 += w;
        entry.1 += p.draws;
        entry.2 += l;
    }
    merged
        .into_iter()
        .map(|((i, j), (w, d, l))| Unit {
            outcomes: [(1.0, 0.0, 0.0, w), (0.0, 1.0, 0.0, d), (0.0, 0.0, 1.0, l)]
                .into_iter()
                .filter(|o| o.3 > 0)
                .map(|(w, d, l, count)| (vec![(i, j, w, d, l)], count))
                .collect(),
            table: Vec::new(),
        })
        .collect()
}

pub(crate) fn group_of_pairings(agents: usize, pairings: &[Pairing]) -> Group {
    let mut games = Group::new(agents);
    for p in pairings {
        assert!(
            p.agent < agents && p.opponent < agents,
            "pairing ({}, {}) outside 0..{agents}",
            p.agent,
            p.opponent
        );
        games.add(
            p.agent,
            p.opponent,
            p.wins as f64,
            p.draws as f64,
            p.losses as f64,
        );
    }
    games
}

/// The groups of agents linked by games played, each in index order.
pub(crate) fn components(games: &Group) -> Vec<Vec<usize>> {
    let n = games.size();
    let mut group_of = vec![usize::MAX; n];
    let mut groups = Vec::new();
    for start in 0..n {
        if group_of[start] != usize::MAX {
            continue;
        }
        let mut members = vec![start];
        group_of[start] = groups.len();
        let mut next = 0;
        while next < members.len() {
            let i = members[next];
            next += 1;
            for (j, group) in group_of.iter_mut().enumerate() {
                if *group == usize::MAX && games.games(i, j) > 0.0 {
                    *group = groups.len();
                    members.push(j);
                }
            }
        }
        members.sort_unstable();
        groups.push(members);
    }
    groups
}

/// Point estimates (Elo) of every group, shifted for the anchor, and what is known about each
/// group; also each group's games and point in natural units for the intervals.
pub(crate) fn fit_games(games: &Group, anchor: Option<(usize, f64)>) -> (Fit, Vec<GroupFit>) {
    let n = games.size();
    let mut fit = Fit {
        elo: vec![0.0; n],
        prior_used: false,
        groups: 0,
        group: vec![0; n],
        tier: vec![0; n],
        finite: vec![true; n],
    };
    let mut parts = Vec::new();
    for (g, members) in components(games).into_iter().enumerate() {
        let sub = games.restricted_to(&members);
        let reach = sub.reach();
        let (tier, tiers) = sub.tiers(&reach);
        let theta = sub.point_estimate();
        fit.prior_used |= tiers > 1;
        // Tiers numbered from the highest-rated down.
        let mut order: Vec<(f64, usize)> = (0..tiers)
            .map(|t| {
                let (sum, count) = tier
                    .iter()
                    .zip(&theta)
                    .filter(|(x, _)| **x == t)
                    .fold((0.0, 0.0), |(s, c), (_, r)| (s + r, c + 1.0));
                (sum / count, t)
            })
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let shift = match anchor {
            Some((k, value)) if members.contains(&k) => {
                let at = members.iter().position(|&i| i == k).expect("member");
                value - theta[at] * ELO_PER_NAT
            }
            _ => 0.0,
        };
        for (a, &i) in members.iter().enumerate() {
            fit.elo[i] = theta[a] * ELO_PER_NAT + shift;
            fit.group[i] = g;
            fit.tier[i] = order.iter().position(|o| o.1 == tier[a]).expect("tier");
            fit.finite[i] = tiers <= 1;
        }
        if let Some((k, value)) = anchor
            && members.contains(&k)
        {
            // Exactly the anchor, not the anchor up to rounding.
            fit.elo[k] = value;
        }
        parts.push((members, sub, theta));
    }
    fit.groups = parts.len();
    (fit, parts)
}

/// Rates the games: points, and intervals by `method` (none with `None`).
pub(crate) fn rate_games(
    games: &Group,
    units: &[Unit],
    anchor: Option<(usize, f64)>,
    method: Option<Method>,
) -> Rated {
    let (fit, parts) = fit_games(games, anchor);
    let n = games.size();
    let mut intervals: Vec<Option<Interval>> = vec![None; n];
    let Some(method) = method else {
        return Rated {
            fit,
            intervals,
            gaps: Vec::new(),
            withheld: Vec::new(),
            wald: Vec::new(),
        };
    };
    // Which ends the games leave open, per agent.
    let mut open = vec![(false, false); n];
    for (members, sub, _) in &parts {
        let m = members.len();
        let reach = sub.reach();
        let anchor_at = anchor.and_then(|(k, _)| members.iter().position(|&i| i == k));
        for a in 0..m {
            open[members[a]] = match anchor_at {
                Some(k) => (!reach[a * m + k], !reach[k * m + a]),
                None => (
                    (0..m).any(|j| !reach[a * m + j]),
                    (0..m).any(|k| !reach[k * m + a]),
                ),
            };
        }
    }
    let mut gaps = Vec::new();
    let mut wald = Vec::new();
    let by_size = method == Method::Profile;
    match method.resolved() {
        Method::Profile => unreachable!("resolved above"),
        Method::Likelihood { jeffreys, draws } => {
            let penalty = if jeffreys {
                Penalty::Jeffreys
            } else {
                Penalty::None
            };
            for (members, sub, theta) in &parts {
                let m = members.len();
                if m < 2 {
                    continue;
                }
                // A large group: Wald intervals from one covariance (`None` inside when the
                // information is singular: every end open).
                let covariance = (by_size && m > MAX_PROFILE_AGENTS).then(|| sub.covariance(theta));
                if covariance.is_some() {
                    wald.extend(members.iter().copied());
                }
                let supremum = if covariance.is_none() {
                    sub.supremum(penalty)
                } else {
                    0.0
                };
                let wald_interval =
                    |contrast: &[f64], centre: f64, open_below: bool, open_above: bool| {
                        let half = covariance
                            .as_ref()
                            .and_then(|c| c.as_ref())
                            .map(|c| sub.wald_half_width(theta, c, contrast));
                        (
                            half.filter(|_| !open_below).map(|h| centre - h),
                            half.filter(|_| !open_above).map(|h| centre + h),
                        )
                    };
                let anchor_at = anchor.and_then(|(k, _)| members.iter().position(|&i| i == k));
                let base = match anchor {
                    Some((_, value)) if anchor_at.is_some() => value,
                    _ => 0.0,
                };
                // Each agent's interval is a search of its own: in parallel, each the same
                // whatever the thread count.
                let found: Vec<(usize, Interval)> = (0..m)
                    .into_par_iter()
                    .filter(|&a| Some(a) != anchor_at)
                    .map(|a| {
                        let contrast: Vec<f64> = (0..m)
                            .map(|j| match anchor_at {
                                Some(k) => {
                                    f64::from(u8::from(j == a)) - f64::from(u8::from(j == k))
                                }
                                None => f64::from(u8::from(j == a)) - 1.0 / m as f64,
                            })
                            .collect();
                        let centre = crate::model::dot(&contrast, theta);
                        let (open_below, open_above) = open[members[a]];
                        if covariance.is_some() {
                            let (low, high) =
                                wald_interval(&contrast, centre, open_below, open_above);
                            let interval = Interval {
                                low: low.map(|c| base + c * ELO_PER_NAT),
                                high: high.map(|c| base + c * ELO_PER_NAT),
                            };
                            return (members[a], interval);
                        }
                        let target = if draws {
                            CHI2_1_95 * sub.dispersion(theta, &contrast).max(1e-6)
                        } else {
                            CHI2_1_95
                        };
                        let (low, high) = sub.profile_interval(
                            &contrast, centre, supremum, target, penalty, open_below, open_above,
                            theta,
                        );
                        let interval = Interval {
                            low: low.map(|c| base + c * ELO_PER_NAT),
                            high: high.map(|c| base + c * ELO_PER_NAT),
                        };
                        (members[a], interval)
                    })
                    .collect();
                for (agent, interval) in found {
                    intervals[agent] = Some(interval);
                }
                // The gaps between consecutive tiers, where there are several.
                let group = fit.group[members[0]];
                let tiers = members.iter().map(|&i| fit.tier[i]).max().unwrap_or(0) + 1;
                if tiers < 2 {
                    continue;
                }
                let reach = sub.reach();
                for upper in 0..tiers - 1 {
                    let lower = upper + 1;
                    let of = |t: usize| -> Vec<usize> {
                        (0..m).filter(|&a| fit.tier[members[a]] == t).collect()
                    };
                    let (top, bottom) = (of(upper), of(lower));
                    let contrast: Vec<f64> = (0..m)
                        .map(|a| {
                            if top.contains(&a) {
                                1.0 / top.len() as f64
                            } else if bottom.contains(&a) {
                                -1.0 / bottom.len() as f64
                            } else {
                                0.0
                            }
                        })
                        .collect();
                    let centre = crate::model::dot(&contrast, theta);
                    let ordered = reach[top[0] * m + bottom[0]];
                    let at_least = if ordered && covariance.is_some() {
                        wald_interval(&contrast, centre, false, true)
                            .0
                            .map(|c| c * ELO_PER_NAT)
                    } else if ordered {
                        let target = if draws {
                            CHI2_1_95 * sub.dispersion(theta, &contrast).max(1e-6)
                        } else {
                            CHI2_1_95
                        };
                        sub.profile_interval(
                            &contrast, centre, supremum, target, penalty, false, true, theta,
                        )
                        .0
                        .map(|c| c * ELO_PER_NAT)
                    } else {
                        None
                    };
                    gaps.push(TierGap {
                        group,
                        upper,
                        lower,
                        elo: centre * ELO_PER_NAT,
                        at_least,
                    });
                }
            }
        }
        Method::Bootstrap { replicates, seed } => {
            if replicates > 0 {
                // Games are redrawn within each group of agents that met, from all of its
                // games: redrawn within a pairing (or seating), one game would always be drawn
                // again and the interval would have no width.
                let mut strata: Vec<Vec<&Unit>> = vec![Vec::new(); parts.len()];
                for unit in units {
                    let Some(&(i, ..)) = unit.outcomes.first().and_then(|(r, _)| r.first()) else {
                        continue;
                    };
                    if let Some(g) = parts.iter().position(|(members, ..)| members.contains(&i)) {
                        strata[g].push(unit);
                    }
                }
                let replicated: Vec<Vec<f64>> = (0..replicates)
                    .into_par_iter()
                    .map(|replicate| {
                        // One stream per replicate: the draws do not depend on the threads.
                        let mut rng = ChaCha8Rng::seed_from_u64(seed);
                        rng.set_stream(replicate as u64);
                        let resampled = resample(n, &strata, &mut rng);
                        fit_games(&resampled, anchor).0.elo
                    })
                    .collect();
                for (members, _, _) in &parts {
                    if members.len() < 2 {
                        continue;
                    }
                    for &i in members {
                        if anchor.is_some_and(|(k, _)| k == i) {
                            continue;
                        }
                        let mut sample: Vec<f64> = replicated.iter().map(|r| r[i]).collect();
                        sample.sort_by(f64::total_cmp);
                        let (open_below, open_above) = open[i];
                        intervals[i] = Some(Interval {
                            low: (!open_below).then(|| percentile(&sample, 0.025)),
                            high: (!open_above).then(|| percentile(&sample, 0.975)),
                        });
                    }
                }
            }
        }
    }
    // An interval of (almost) no width is no statement about the uncertainty: left out.
    let mut withheld = Vec::new();
    for (agent, interval) in intervals.iter_mut().enumerate() {
        if let Some(Interval {
            low: Some(low),
            high: Some(high),
        }) = *interval
            && high - low < MIN_WIDTH
        {
            *interval = None;
            withheld.push(agent);
        }
    }
    Rated {
        fit,
        intervals,
        gaps,
        withheld,
        wald,
    }
}

/// Redraws every stratum's games with replacement: as many games as it has, from all of them.
fn resample(agents: usize, strata: &[Vec<&Unit>], rng: &mut ChaCha8Rng) -> Group {
    let mut games = Group::new(agents);
    for stratum in strata {
        let outcomes: Vec<(&Unit, &Vec<PairwiseResult>, u64)> = stratum
            .iter()
            .flat_map(|unit| {
                unit.outcomes
                    .iter()
                    .map(move |(r, count)| (*unit, r, *count))
            })
            .filter(|(.., count)| *count > 0)
            .collect();
        let total: u64 = outcomes.iter().map(|(.., count)| count).sum();
        if total == 0 {
            continue;
        }
        // Cumulative counts, to find the outcome of a draw by binary search.
        let mut ends = Vec::with_capacity(outcomes.len());
        let mut end = 0;
        for (.., count) in &outcomes {
            end += count;
            ends.push(end);
        }
        let mut drawn = vec![0u64; outcomes.len()];
        for _ in 0..total {
            let pick = rng.random_range(0..total);
            drawn[ends.partition_point(|&e| e <= pick)] += 1;
        }
        for ((unit, results, _), drawn) in outcomes.iter().zip(drawn) {
            if drawn == 0 {
                continue;
            }
            let weight = drawn as f64;
            if unit.table.is_empty() {
                for &(i, j, w, d, l) in results.iter() {
                    games.add(i, j, weight * w, weight * d, weight * l);
                }
            } else {
                games.add_table(&unit.table, weight, results);
            }
        }
    }
    games
}

/// The `q`-quantile of a sorted, non-empty sample, interpolating between order statistics
/// (Hyndman & Fan type 7, the default of R and NumPy).
pub(crate) fn percentile(sorted: &[f64], q: f64) -> f64 {
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(sorted.len() - 1);
    let fraction = position - below as f64;
    sorted[below] + fraction * (sorted[above] - sorted[below])
}

/// The likelihood-ratio statistic and its degrees of freedom for "one rating per agent"
/// against "ratings of their own" in each of `parts` (2·(Σ sup ℓ_part − sup ℓ_joint)).
pub(crate) fn split_likelihood_ratio(joint: &Group, parts: &[Group]) -> (f64, usize) {
    let free = |games: &Group| -> (f64, usize) {
        let mut supremum = 0.0;
        let mut parameters = 0;
        for members in components(games) {
            let sub = games.restricted_to(&members);
            supremum += sub.supremum(Penalty::None);
            parameters += members.len() - 1;
        }
        (supremum, parameters)
    };
    let (joint_sup, joint_free) = free(joint);
    let (mut split_sup, mut split_free) = (0.0, 0);
    for part in parts {
        let (s, f) = free(part);
        split_sup += s;
        split_free += f;
    }
    (
        (2.0 * (split_sup - joint_sup)).max(0.0),
        split_free.saturating_sub(joint_free),
    )
}

/// The numbers cutechess-cli prints for a match: score, Elo difference with its 95% error
/// margin, and the likelihood of superiority, all from one pair's wins, draws and losses.
///
/// Where cutechess-cli would print `inf` or `nan` (a 100% or 0% score, or an interval that
/// leaves 0..1), the methods return `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairElo {
    /// Games won by the first agent of the pair.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost by the first agent of the pair.
    pub losses: u64,
}

/// The 97.5% quantile of the standard normal distribution as cutechess-cli computes it: its
/// `phiInv(0.975)` uses Winitzki's approximation of the inverse error function, which gives
/// 1.957162 instead of 1.959964. Using its value makes our ± match what cutechess-cli prints.
const CUTECHESS_Z_975: f64 = 1.957_161_931_656_024_5;

impl PairElo {
    /// The match from the first agent's side.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Self {
            wins,
            draws,
            losses,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game of the first agent, in 0..=1; `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The Elo difference a score implies: `-400·log10(1/score - 1)`; `None` at 0% or 100%.
    pub fn difference(&self) -> Option<f64> {
        self.score().and_then(score_to_elo)
    }

    /// Half the width of the 95% interval of the difference, from the normal approximation
    /// of the mean score (cutechess-cli's `Elo::errorMargin`).
    pub fn error_margin(&self) -> Option<f64> {
        let mu = self.score()?;
        let n = self.games() as f64;
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let deviation = w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2);
        let stdev = deviation.sqrt() / n.sqrt();
        let low = score_to_elo(mu - CUTECHESS_Z_975 * stdev)?;
        let high = score_to_elo(mu + CUTECHESS_Z_975 * stdev)?;
        Some((high - low) / 2.0)
    }

    /// Likelihood of superiority, in 0..=1: `0.5·(1 + erf((W - L) / sqrt(2(W + L))))`.
    /// Draws do not count; with no decisive game it is 1/2.
    pub fn likelihood_of_superiority(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let lead = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(lead / (2.0 * decisive).sqrt()))
    }
}

/// `-400·log10(1/score - 1)` for a score strictly inside 0..1.
fn score_to_elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// The error function. Uses the series `erf x = 2x/√π · e^(-x²) · Σ (2x²)^k / (1·3·…·(2k+1))`,
/// whose terms are all positive (no cancellation); beyond |x| = 6 erf is 1 to double precision.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.abs() > 6.0 {
        return x.signum();
    }
    let two_x2 = 2.0 * x * x;
    let mut term = 1.0;
    let mut sum = 1.0;
    let mut k = 0.0;
    while term > 1e-17 * sum {
        k += 1.0;
        term *= two_x2 / (2.0 * k + 1.0);
        sum += term;
    }
    2.0 * x / std::f64::consts::PI.sqrt() * (-x * x).exp() * sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_table_values() {
        // Values from Abramowitz & Stegun, table 7.1.
        for (x, expected) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_813_047),
            (1.0, 0.842_700_792_949_715),
            (2.0, 0.995_322_265_018_953),
            (3.0, 0.999_977_909_503_001),
            (-1.0, -0.842_700_792_949_715),
        ] {
            assert!((erf(x) - expected).abs() < 1e-13, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn disconnected_or_one_sided_games_have_no_finite_maximum() {
        let one_sided = fit(2, &[Pairing::new(0, 1, 3, 0, 0)]);
        assert!(one_sided.prior_used && one_sided.finite.iter().all(|f| !f));
        let apart = fit(
            4,
            &[Pairing::new(0, 1, 1, 0, 1), Pairing::new(2, 3, 1, 1, 1)],
        );
        assert!(!apart.prior_used);
        assert_eq!(apart.groups, 2);
        assert_eq!(apart.group, vec![0, 0, 1, 1]);
        let cycle = fit(
            3,
            &[
                Pairing::new(0, 1, 1, 0, 0),
                Pairing::new(1, 2, 1, 0, 0),
                Pairing::new(2, 0, 1, 0, 0),
            ],
        );
        assert!(!cycle.prior_used && cycle.finite.iter().all(|f| *f));
    }
}
