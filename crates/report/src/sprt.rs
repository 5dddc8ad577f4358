//! The sequential probability ratio test of engine testing, on game pairs.
//!
//! A test of "is the candidate stronger than the baseline?" plays game pairs (the same opening
//! twice, colours swapped) and after each pair compares the log-likelihood ratio of
//! `H1: elo = elo1` against `H0: elo = elo0` with the bounds `ln(β / (1 − α))` and
//! `ln((1 − β) / α)` (Wald 1945). It stops and accepts H0 at the lower bound, H1 at the upper.
//!
//! The model is the one fishtest, OpenBench and fastchess use:
//!
//! - **Pentanomial results.** A pair's outcome is the candidate's points from it, 0, ½, 1, 1½
//!   or 2: the counts `[LL, LD, DD+WL, WD, WW]`. Pairs remove most of the opening's and the
//!   colour's effect on the variance, which a trinomial count of single games would
//!   overstate.
//! - **The generalised SPRT.** The distribution of the pair score is not known under either
//!   hypothesis; each hypothesis is represented by the distribution closest to the observed one
//!   (maximum likelihood) among those with the hypothesised expected score. For a discrete
//!   distribution `p̂` on scores `a_i` and expected score `s`, that distribution is
//!   `p_i = p̂_i / (1 + x·(a_i − s))` with `x` the root of `Σ p̂_i (a_i − s) / (1 + x (a_i − s)) = 0`
//!   (Michel Van den Bergh, "Comments on Normalized Elo", Proposition 1.1; fishtest
//!   `server/fishtest/stats/LLRcalc.py`, `MLE_expected` and `secular`; fastchess
//!   `app/src/matchmaking/sprt/sprt.cpp`, `getLLR_logistic`). The LLR is
//!   `N · Σ p̂_i · ln(p1_i / p0_i)` over `N` pairs.
//! - **Elo models.** *Logistic* Elo: the expected score of a pair's games is
//!   `1 / (1 + 10^(−elo / 400))` (fishtest `LLR_logistic`). *Normalized* Elo: the hypotheses
//!   fix `t = (μ − ½) / σ`, with `σ` the standard deviation of a pair's score, at
//!   `t = √2 · nelo / (800 / ln 10)`; the closest distribution comes from the iteration of
//!   Van den Bergh's Section 4.1 (fishtest `LLR_normalized` and `MLE_t_value`).
//! - **Empty cells.** A count of 0 is replaced by 0.001 (fishtest `regularize`, fastchess
//!   `regularize`), so the first pairs already give a finite LLR.
//!
//! The Elo estimate printed beside the test is fastchess's (`elo_pentanomial.cpp`): the mean
//! pair score `μ` with its standard error from the pentanomial variance, as logistic Elo
//! `−400·log10(1/μ − 1)` and as normalized Elo `(μ − ½) / √(2·var) · 800 / ln 10`. It does not
//! correct for the test having stopped early (fishtest's Brownian-motion estimate does): a test
//! that stops at the upper bound tends to overstate the difference.

use std::f64::consts::LN_10;

use crate::elo::erf;

/// `800 / ln 10`: normalized Elo per unit of `t` for single games (fishtest
/// `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / LN_10;

/// The scores of a pair: the candidate's points from its two games, halved.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The 97.5% quantile of the standard normal distribution.
const Z_975: f64 = 1.959_963_984_540_054;

/// How Elo is measured in the hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo: expected score `1 / (1 + 10^(−elo / 400))`.
    Logistic,
    /// Normalized Elo: the expected score in units of the pair score's standard deviation.
    Normalized,
}

impl std::fmt::Display for EloModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        })
    }
}

/// What the test has decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Neither bound reached: play on.
    Continue,
    /// The LLR reached the lower bound: the candidate is not `elo1` stronger (H0: `elo0`).
    AcceptH0,
    /// The LLR reached the upper bound: the candidate is stronger (H1: `elo1`).
    AcceptH1,
}

/// A test's settings were not usable.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// `elo0` must be below `elo1`.
    #[error("elo0 ({elo0}) must be less than elo1 ({elo1})")]
    Bounds {
        /// H0's Elo.
        elo0: f64,
        /// H1's Elo.
        elo1: f64,
    },
    /// An Elo bound beyond what the model can represent.
    #[error("elo0 and elo1 must lie within ±{limit} ({model} Elo)")]
    TooFar {
        /// The Elo model.
        model: EloModel,
        /// The largest magnitude allowed.
        limit: f64,
    },
    /// An Elo bound that is not a finite number (`inf`, `NaN`).
    #[error("{what} must be a finite number of Elo; got {value}")]
    NotFinite {
        /// Which setting.
        what: &'static str,
        /// Its value.
        value: f64,
    },
    /// An error rate outside (0, 1).
    #[error("{what} must be between 0 and 1 (exclusive); got {value}")]
    Rate {
        /// Which setting.
        what: &'static str,
        /// Its value.
        value: f64,
    },
    /// Error rates whose sum is 1 or more: the bounds would cross, and the test could accept
    /// either hypothesis at once.
    #[error(
        "alpha + beta must be less than 1; got {alpha} + {beta} = {sum} (the test would accept \
         H0 and H1 alike)",
        sum = alpha + beta
    )]
    RateSum {
        /// The false-positive rate.
        alpha: f64,
        /// The false-negative rate.
        beta: f64,
    },
}

/// A sequential probability ratio test of `H0: elo = elo0` against `H1: elo = elo1` with
/// error rates `alpha` (accepting H1 when H0 holds) and `beta` (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0's Elo difference.
    pub elo0: f64,
    /// H1's Elo difference.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
    /// The Elo model of `elo0` and `elo1`.
    pub model: EloModel,
}

impl Sprt {
    /// A test; the settings are checked.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<Sprt, SprtError> {
        for (what, value) in [("elo0", elo0), ("elo1", elo1)] {
            if !value.is_finite() {
                return Err(SprtError::NotFinite { what, value });
            }
        }
        if elo0 >= elo1 {
            return Err(SprtError::Bounds { elo0, elo1 });
        }
        // Beyond these a hypothesis says the weaker side (almost) never scores, which no pair
        // distribution with the other side's points can meet.
        let limit = match model {
            EloModel::Logistic => 1000.0,
            EloModel::Normalized => 200.0,
        };
        if elo0.abs() > limit || elo1.abs() > limit {
            return Err(SprtError::TooFar { model, limit });
        }
        for (what, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::Rate { what, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::RateSum { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// The lower bound `ln(β / (1 − α))`: at or below it, H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound `ln((1 − β) / α)`: at or above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for pentanomial counts
    /// `[LL, LD, DD+WL, WD, WW]` (from the candidate's side).
    pub fn llr(&self, pentanomial: &[u64; 5]) -> f64 {
        let (pairs, empirical) = regularised(pentanomial);
        let (p0, p1) = match self.model {
            EloModel::Logistic => (
                closest_with_mean(&empirical, logistic_score(self.elo0)),
                closest_with_mean(&empirical, logistic_score(self.elo1)),
            ),
            EloModel::Normalized => {
                let t = |nelo: f64| std::f64::consts::SQRT_2 * nelo / NELO_PER_T;
                (
                    closest_with_t(&empirical, t(self.elo0)),
                    closest_with_t(&empirical, t(self.elo1)),
                )
            }
        };
        pairs
            * empirical
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(p, (a, b))| p * (b.ln() - a.ln()))
                .sum::<f64>()
    }

    /// The decision for a log-likelihood ratio (a ratio that is not a number decides nothing).
    pub fn decide(&self, llr: f64) -> Decision {
        if llr >= self.upper_bound() {
            Decision::AcceptH1
        } else if llr <= self.lower_bound() {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

/// Logistic Elo to expected score.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference per game that gives a game pair (one game with each agent first) the
/// expected score of `pair_elo` logistic Elo when the first player is `advantage` Elo
/// stronger: the solution `d` of `(L(d + advantage) + L(d − advantage)) / 2 = L(pair_elo)`.
/// With an advantage it is a little larger than `pair_elo` (10.2 for 10 at 50): the logistic
/// curve flattens away from even.
///
/// # Example
///
/// ```
/// use report::sprt::{logistic_score, per_game_elo};
///
/// let d = per_game_elo(10.0, 50.0);
/// let pair = (logistic_score(d + 50.0) + logistic_score(d - 50.0)) / 2.0;
/// assert!((pair - logistic_score(10.0)).abs() < 1e-12);
/// assert_eq!(per_game_elo(10.0, 0.0), 10.0);
/// ```
pub fn per_game_elo(pair_elo: f64, advantage: f64) -> f64 {
    let target = logistic_score(pair_elo);
    let pair = |d: f64| (logistic_score(d + advantage) + logistic_score(d - advantage)) / 2.0;
    if advantage == 0.0 {
        return pair_elo;
    }
    // The pair score grows with d; the root lies within `advantage` of `pair_elo` and beyond it.
    let (mut low, mut high) = (
        pair_elo - advantage.abs() - 1.0,
        pair_elo + advantage.abs() + 1.0,
    );
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if pair(middle) < target {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

/// Expected score to logistic Elo; `None` at 0 or 1.
fn score_to_elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// The number of pairs and the empirical distribution, zero cells replaced by 0.001.
fn regularised(pentanomial: &[u64; 5]) -> (f64, [f64; 5]) {
    let counts = pentanomial.map(|c| if c == 0 { 1e-3 } else { c as f64 });
    let total: f64 = counts.iter().sum();
    (total, counts.map(|c| c / total))
}

/// The root `x` of `Σ p_i·a_i / (1 + x·a_i) = 0` with `1 + x·a_i > 0` for every `i` (the
/// "secular equation"; the sum decreases in `x`), by bisection to rounding.
fn secular(p: &[f64; 5], a: &[f64; 5]) -> f64 {
    let low_a = a.iter().copied().fold(f64::INFINITY, f64::min);
    let high_a = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // 1 + x·a_i > 0 for all i: x in (−1/high_a, −1/low_a) when low_a < 0 < high_a. Without a
    // sign change no distribution on these scores meets the constraint.
    if !(low_a < 0.0 && high_a > 0.0) {
        return f64::NAN;
    }
    let (mut low, mut high) = (-1.0 / high_a, -1.0 / low_a);
    let f = |x: f64| {
        p.iter()
            .zip(a)
            .map(|(p, a)| p * a / (1.0 + x * a))
            .sum::<f64>()
    };
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if f(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

/// The distribution closest to `empirical` (maximum likelihood) among those with expected pair
/// score `s` (Van den Bergh, Proposition 1.1; fishtest `MLE_expected`).
fn closest_with_mean(empirical: &[f64; 5], s: f64) -> [f64; 5] {
    let shifted = PAIR_SCORES.map(|a| a - s);
    let x = secular(empirical, &shifted);
    let mut p = [0.0; 5];
    for i in 0..5 {
        p[i] = empirical[i] / (1.0 + x * shifted[i]);
    }
    p
}

/// The distribution closest to `empirical` among those with `(μ − ½) / σ = t` (Van den Bergh,
/// Section 4.1; fishtest `MLE_t_value`): iterated from the uniform distribution.
fn closest_with_t(empirical: &[f64; 5], t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..100 {
        let (mu, var) = mean_variance(&p);
        let sigma = var.sqrt();
        let phi =
            PAIR_SCORES.map(|a| a - 0.5 - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0);
        let x = secular(empirical, &phi);
        let mut next = [0.0; 5];
        for i in 0..5 {
            next[i] = empirical[i] / (1.0 + x * phi[i]);
        }
        let change = next
            .iter()
            .zip(&p)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p
}

fn mean_variance(p: &[f64; 5]) -> (f64, f64) {
    let mu: f64 = p.iter().zip(PAIR_SCORES).map(|(p, a)| p * a).sum();
    let var: f64 = p
        .iter()
        .zip(PAIR_SCORES)
        .map(|(p, a)| p * (a - mu).powi(2))
        .sum();
    (mu, var)
}

/// The Elo estimate from game pairs, as fastchess prints it beside an SPRT
/// (`elo_pentanomial.cpp`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PentanomialElo {
    /// Pairs counted.
    pub pairs: u64,
    /// The mean score per game, in 0..=1.
    pub score: f64,
    /// The variance of a pair's mean score.
    pub variance: f64,
    /// Logistic Elo of the score; `None` at 0% or 100%.
    pub elo: Option<f64>,
    /// Half the width of its 95% interval (normal approximation on the score); `None` where the
    /// interval leaves 0..1.
    pub elo_error: Option<f64>,
    /// Normalized Elo: `(score − ½) / √(2·variance) · 800 / ln 10`; `None` without variance.
    pub nelo: Option<f64>,
    /// Half the width of its 95% interval.
    pub nelo_error: Option<f64>,
    /// The likelihood of superiority, `Φ((score − ½) / √(variance / pairs))`.
    pub los: f64,
}

impl PentanomialElo {
    /// The estimate from counts `[LL, LD, DD+WL, WD, WW]`; `None` without pairs.
    pub fn new(pentanomial: &[u64; 5]) -> Option<PentanomialElo> {
        let pairs: u64 = pentanomial.iter().sum();
        if pairs == 0 {
            return None;
        }
        let n = pairs as f64;
        let p = pentanomial.map(|c| c as f64 / n);
        let (score, variance) = mean_variance(&p);
        let per_pair = variance / n;
        let (low, high) = (
            score - Z_975 * per_pair.sqrt(),
            score + Z_975 * per_pair.sqrt(),
        );
        let nelo_of = |s: f64| (s - 0.5) / (2.0 * variance).sqrt() * NELO_PER_T;
        let elo_error = match (score_to_elo(low), score_to_elo(high)) {
            (Some(a), Some(b)) => Some((b - a) / 2.0),
            _ => None,
        };
        let spread = variance > 0.0;
        let los = if spread {
            0.5 * (1.0 - erf(-(score - 0.5) / (2.0 * per_pair).sqrt()))
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };
        Some(PentanomialElo {
            pairs,
            score,
            variance,
            elo: score_to_elo(score),
            elo_error,
            nelo: spread.then(|| nelo_of(score)),
            nelo_error: spread.then(|| (nelo_of(high) - nelo_of(low)) / 2.0),
            los,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_follow_alpha_and_beta() {
        let test = Sprt::new(0.0, 10.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        assert!((test.lower_bound() + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((test.upper_bound() - 2.944_438_979_166_44).abs() < 1e-12);
        assert!(Sprt::new(5.0, 5.0, 0.05, 0.05, EloModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05, EloModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5, EloModel::Logistic).is_err());
    }

    #[test]
    fn settings_out_of_reach_are_named_for_what_they_are() {
        let message = |elo0: f64, elo1: f64, alpha: f64, beta: f64| {
            Sprt::new(elo0, elo1, alpha, beta, EloModel::Logistic)
                .unwrap_err()
                .to_string()
        };
        // `inf` is not less than elo1's bound: it is no number of Elo at all.
        assert_eq!(
            message(0.0, f64::INFINITY, 0.05, 0.05),
            "elo1 must be a finite number of Elo; got inf"
        );
        assert_eq!(
            message(f64::NAN, 5.0, 0.05, 0.05),
            "elo0 must be a finite number of Elo; got NaN"
        );
        assert_eq!(
            message(5.0, 1.0, 0.05, 0.05),
            "elo0 (5) must be less than elo1 (1)"
        );
        // Each rate is in range; their sum is the fault.
        assert_eq!(
            message(0.0, 5.0, 0.6, 0.6),
            "alpha + beta must be less than 1; got 0.6 + 0.6 = 1.2 (the test would accept H0 \
             and H1 alike)"
        );
        assert_eq!(
            message(0.0, 5.0, 1.5, 0.05),
            "alpha must be between 0 and 1 (exclusive); got 1.5"
        );
    }

    #[test]
    fn the_closest_distribution_has_the_asked_mean() {
        let empirical = [0.1, 0.2, 0.4, 0.2, 0.1];
        for s in [0.3, 0.5, 0.62] {
            let p = closest_with_mean(&empirical, s);
            let (mu, _) = mean_variance(&p);
            assert!((mu - s).abs() < 1e-12, "{s}: {mu}");
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        let p = closest_with_t(&empirical, 0.1);
        let (mu, var) = mean_variance(&p);
        assert!(((mu - 0.5) / var.sqrt() - 0.1).abs() < 1e-9);
    }
}
