//! The Bradley-Terry (logistic Elo) fit, and the per-pair numbers cutechess-cli prints.
//!
//! The model: agent `i` scores against agent `j` with probability
//! `P(i beats j) = 1 / (1 + 10^((Rj - Ri) / 400))`, and a draw counts as half a win, so the
//! log-likelihood of a pairing with score `s` out of `n` games is
//! `s·ln P + (n - s)·ln(1 - P)`. [`fit`] maximises the sum over all pairings jointly with
//! Newton's method (the log-likelihood is concave, so a halving line search is enough to make
//! every step an improvement).
//!
//! Groups of agents that never met, directly or through others, share no information: each
//! group is fitted on its own and given mean 0, so ratings from different groups are not
//! comparable.
//!
//! At the maximum every agent's expected score equals its actual score
//! (`Σ_j n_ij·P_ij = Σ_j s_ij`). Within a group such a point exists exactly when the "scored
//! against" graph is strongly connected: for every split of the group in two, each side took
//! at least half a point from the other. When it is not (an agent won or lost every game, or
//! some agents took every point from the rest), [`fit`] adds a weak prior to that group: every
//! agent gets one virtual drawn game against a phantom opponent rated 0. That keeps every
//! rating finite, and it is reported ([`Fit::prior_used`]) so the report can say so.

use std::f64::consts::LN_10;

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
    /// Elo of each agent, by index, with mean 0 (over each group of agents that met).
    pub elo: Vec<f64>,
    /// Whether the games of some group had no finite maximum and the weak prior (one virtual
    /// draw per agent against a phantom rated 0) was added to that group.
    pub prior_used: bool,
    /// How many groups the agents form when only agents that played each other are linked.
    pub groups: usize,
    /// For agents of a group fitted with the weak prior: the standard error of the rating (in
    /// Elo, relative to the group mean) from the curvature of the log-likelihood with the
    /// prior at its maximum (the Laplace approximation); `None` for other agents.
    pub prior_errors: Vec<Option<f64>>,
}

/// Fits Bradley-Terry ratings to the games of `agents` agents by maximum likelihood.
///
/// Pairings may repeat a pair or list it from either side; they are summed. A pairing of an
/// agent with itself carries no information and is ignored. The result has mean 0 in every
/// group of agents that met; see the module documentation for when the weak prior is used.
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
    let games = GameMatrix::from_pairings(agents, pairings);
    games.fit()
}

/// Games and points between every two agents, dense because pools are small (tens of agents)
/// and Newton needs the full Hessian anyway.
pub(crate) struct GameMatrix {
    agents: usize,
    /// `games[i * agents + j]`: games between `i` and `j` (symmetric).
    games: Vec<f64>,
    /// `points[i * agents + j]`: points `i` scored against `j`.
    points: Vec<f64>,
}

impl GameMatrix {
    pub(crate) fn new(agents: usize) -> Self {
        Self {
            agents,
            games: vec![0.0; agents * agents],
            points: vec![0.0; agents * agents],
        }
    }

    fn from_pairings(agents: usize, pairings: &[Pairing]) -> Self {
        let mut matrix = Self::new(agents);
        for pairing in pairings {
            matrix.add(pairing);
        }
        matrix
    }

    pub(crate) fn add(&mut self, pairing: &Pairing) {
        let (i, j) = (pairing.agent, pairing.opponent);
        assert!(
            i < self.agents && j < self.agents,
            "pairing ({i}, {j}) outside 0..{}",
            self.agents
        );
        if i == j {
            return;
        }
        let n = pairing.games() as f64;
        let points = pairing.points();
        self.games[i * self.agents + j] += n;
        self.games[j * self.agents + i] += n;
        self.points[i * self.agents + j] += points;
        self.points[j * self.agents + i] += n - points;
    }

    /// Whether a finite maximum exists: the graph with an edge `i → j` whenever `i` took points
    /// from `j` must be strongly connected (Zermelo 1929, Ford 1957).
    pub(crate) fn has_finite_maximum(&self) -> bool {
        let n = self.agents;
        if n <= 1 {
            return true;
        }
        let reaches_all = |edge: &dyn Fn(usize, usize) -> bool| {
            let mut seen = vec![false; n];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(i) = stack.pop() {
                for (j, seen) in seen.iter_mut().enumerate() {
                    if !*seen && edge(i, j) {
                        *seen = true;
                        stack.push(j);
                    }
                }
            }
            seen.into_iter().all(|s| s)
        };
        let scored = |i: usize, j: usize| self.points[i * n + j] > 0.0;
        reaches_all(&scored) && reaches_all(&|i, j| scored(j, i))
    }

    pub(crate) fn fit(&self) -> Fit {
        let mut elo = vec![0.0; self.agents];
        let mut prior_errors = vec![None; self.agents];
        let mut prior_used = false;
        let groups = self.groups();
        for group in &groups {
            let games = self.restricted_to(group);
            let prior = !games.has_finite_maximum();
            prior_used |= prior;
            let theta = games.maximise(prior);
            if prior && let Some(errors) = games.laplace_errors(&theta) {
                for (&agent, error) in group.iter().zip(errors) {
                    prior_errors[agent] = Some(error * ELO_PER_NAT);
                }
            }
            let mean = theta.iter().sum::<f64>() / theta.len().max(1) as f64;
            for (&agent, t) in group.iter().zip(theta) {
                elo[agent] = (t - mean) * ELO_PER_NAT;
            }
        }
        Fit {
            elo,
            prior_used,
            groups: groups.len(),
            prior_errors,
        }
    }

    /// Standard errors (natural units) of each rating relative to the group mean, from the
    /// inverse of the negative Hessian of the log-likelihood with the prior at `theta`. The
    /// prior makes that Hessian positive definite, so it always inverts; `None` only when
    /// rounding says otherwise.
    fn laplace_errors(&self, theta: &[f64]) -> Option<Vec<f64>> {
        let n = self.agents;
        let mut hessian = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let games = self.games[i * n + j];
                if i != j && games > 0.0 {
                    let p = sigmoid(theta[i] - theta[j]);
                    let curvature = games * p * (1.0 - p);
                    hessian[i * n + i] += curvature;
                    hessian[i * n + j] -= curvature;
                }
            }
            let p = sigmoid(theta[i]);
            hessian[i * n + i] += p * (1.0 - p);
        }
        let mut covariance = vec![0.0; n * n];
        for k in 0..n {
            let mut unit = vec![0.0; n];
            unit[k] = 1.0;
            let column = solve_positive_definite(&mut hessian.clone(), &unit, n)?;
            for (i, value) in column.into_iter().enumerate() {
                covariance[i * n + k] = value;
            }
        }
        // Var(θ_i − mean θ) = C_ii − 2/n Σ_j C_ij + 1/n² Σ_jk C_jk.
        let size = n as f64;
        let total: f64 = covariance.iter().sum();
        Some(
            (0..n)
                .map(|i| {
                    let row: f64 = covariance[i * n..(i + 1) * n].iter().sum();
                    (covariance[i * n + i] - 2.0 * row / size + total / (size * size))
                        .max(0.0)
                        .sqrt()
                })
                .collect(),
        )
    }

    /// Agents linked by games played, each group in index order: groups that never met
    /// share no information, so each is fitted on its own with mean 0.
    fn groups(&self) -> Vec<Vec<usize>> {
        let n = self.agents;
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
                    if *group == usize::MAX && self.games[i * n + j] > 0.0 {
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

    fn restricted_to(&self, group: &[usize]) -> GameMatrix {
        let (n, m) = (self.agents, group.len());
        let mut games = GameMatrix::new(m);
        for (a, &i) in group.iter().enumerate() {
            for (b, &j) in group.iter().enumerate() {
                games.games[a * m + b] = self.games[i * n + j];
                games.points[a * m + b] = self.points[i * n + j];
            }
        }
        games
    }

    fn log_likelihood(&self, theta: &[f64], prior: bool) -> f64 {
        let n = self.agents;
        let mut sum = 0.0;
        for i in 0..n {
            for j in 0..n {
                let points = self.points[i * n + j];
                if points > 0.0 {
                    sum += points * log_sigmoid(theta[i] - theta[j]);
                }
            }
            if prior {
                sum += 0.5 * log_sigmoid(theta[i]) + 0.5 * log_sigmoid(-theta[i]);
            }
        }
        sum
    }

    /// Newton's method on the log-likelihood in natural units. Without the prior the
    /// likelihood only sees differences, so the last agent is held at 0 and the system solved
    /// for the others.
    fn maximise(&self, prior: bool) -> Vec<f64> {
        let n = self.agents;
        let mut theta = vec![0.0; n];
        if n <= 1 {
            return theta;
        }
        let free = if prior { n } else { n - 1 };
        let mut gradient = vec![0.0; free];
        let mut hessian = vec![0.0; free * free];
        let mut candidate = vec![0.0; n];
        let mut likelihood = self.log_likelihood(&theta, prior);
        for _ in 0..200 {
            gradient.fill(0.0);
            hessian.fill(0.0);
            for i in 0..free {
                for j in 0..n {
                    let games = self.games[i * n + j];
                    if i == j || games == 0.0 {
                        continue;
                    }
                    let p = sigmoid(theta[i] - theta[j]);
                    gradient[i] += self.points[i * n + j] - games * p;
                    let curvature = games * p * (1.0 - p);
                    hessian[i * free + i] += curvature;
                    if j < free {
                        hessian[i * free + j] -= curvature;
                    }
                }
                if prior {
                    let p = sigmoid(theta[i]);
                    gradient[i] += 0.5 - p;
                    hessian[i * free + i] += p * (1.0 - p);
                }
            }
            let Some(step) = solve_positive_definite(&mut hessian, &gradient, free) else {
                break;
            };
            // Halve until the likelihood does not drop; concavity guarantees a small enough
            // step improves it, and rounding near the optimum must not stall the loop.
            let mut scale = 1.0;
            let tolerance = 1e-13 * (1.0 + likelihood.abs());
            let mut improved = false;
            for _ in 0..60 {
                for i in 0..n {
                    candidate[i] = theta[i] + if i < free { scale * step[i] } else { 0.0 };
                }
                let next = self.log_likelihood(&candidate, prior);
                if next >= likelihood - tolerance {
                    likelihood = next;
                    improved = true;
                    break;
                }
                scale *= 0.5;
            }
            if !improved {
                break;
            }
            theta.copy_from_slice(&candidate);
            let largest_step = step.iter().fold(0.0f64, |m, s| m.max((scale * s).abs()));
            if largest_step < 1e-12 {
                break;
            }
        }
        theta
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln σ(x)` without overflow for large `|x|`.
fn log_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// Solves `A x = b` for a symmetric positive definite `A` (row-major, `n × n`, overwritten by
/// its Cholesky factor). `None` when `A` is not numerically positive definite.
fn solve_positive_definite(a: &mut [f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    for j in 0..n {
        let mut diagonal = a[j * n + j];
        for k in 0..j {
            diagonal -= a[j * n + k] * a[j * n + k];
        }
        if diagonal.is_nan() || diagonal <= 0.0 {
            return None;
        }
        let diagonal = diagonal.sqrt();
        a[j * n + j] = diagonal;
        for i in j + 1..n {
            let mut value = a[i * n + j];
            for k in 0..j {
                value -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = value / diagonal;
        }
    }
    let mut x = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            x[i] -= a[i * n + k] * x[k];
        }
        x[i] /= a[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            x[i] -= a[k * n + i] * x[k];
        }
        x[i] /= a[i * n + i];
    }
    Some(x)
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
    fn cholesky_solves_a_small_system() {
        let mut a = vec![4.0, 2.0, 2.0, 3.0];
        let x = solve_positive_definite(&mut a, &[2.0, 1.0], 2).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12);
    }

    #[test]
    fn disconnected_or_one_sided_games_have_no_finite_maximum() {
        let one_sided = GameMatrix::from_pairings(2, &[Pairing::new(0, 1, 3, 0, 0)]);
        assert!(!one_sided.has_finite_maximum());
        let apart = GameMatrix::from_pairings(
            4,
            &[Pairing::new(0, 1, 1, 0, 1), Pairing::new(2, 3, 1, 1, 1)],
        );
        assert!(!apart.has_finite_maximum());
        let cycle = GameMatrix::from_pairings(
            3,
            &[
                Pairing::new(0, 1, 1, 0, 0),
                Pairing::new(1, 2, 1, 0, 0),
                Pairing::new(2, 0, 1, 0, 0),
            ],
        );
        assert!(cycle.has_finite_maximum());
    }
}
