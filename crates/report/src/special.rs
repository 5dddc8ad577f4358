//! The few special functions the statistics need: the normal and chi-squared distributions.

use std::f64::consts::PI;

/// `ln Γ(x)` for `x > 0` (Lanczos approximation, g = 7, n = 9; relative error below 1e-15).
pub fn ln_gamma(x: f64) -> f64 {
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1 - x) = π / sin(πx).
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (k, c) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += c / (x + k as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularised upper incomplete gamma function `Q(a, x) = Γ(a, x) / Γ(a)`.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    if x < a + 1.0 {
        // The series of P(a, x).
        let mut term = 1.0 / a;
        let mut sum = term;
        let mut n = a;
        for _ in 0..10_000 {
            n += 1.0;
            term *= x / n;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        let p = sum * (-x + a * x.ln() - ln_gamma(a)).exp();
        (1.0 - p).clamp(0.0, 1.0)
    } else {
        // The continued fraction of Q(a, x) (modified Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        ((-x + a * x.ln() - ln_gamma(a)).exp() * h).clamp(0.0, 1.0)
    }
}

/// The probability that a chi-squared variable with `df` degrees of freedom exceeds `x`.
pub fn chi_squared_sf(x: f64, df: f64) -> f64 {
    gamma_q(0.5 * df, 0.5 * x)
}

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + crate::elo::erf(x / std::f64::consts::SQRT_2))
}

/// The `p`-quantile of the standard normal distribution (bisection on [`normal_cdf`], to
/// rounding).
pub fn normal_quantile(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let (mut low, mut high) = (-40.0f64, 40.0f64);
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if normal_cdf(middle) < p {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // Γ(5) = 24, Γ(1/2) = √π.
        assert!(
            (ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12,
            "{}",
            ln_gamma(5.0) - 24f64.ln()
        );
        assert!((ln_gamma(0.5) - PI.sqrt().ln()).abs() < 1e-13);
        // Chi-squared: P(X > 3.841459) = 0.05 with 1 df; P(X > 5.991465) = 0.05 with 2 df.
        assert!((chi_squared_sf(3.841_458_820_694_124, 1.0) - 0.05).abs() < 1e-12);
        assert!((chi_squared_sf(5.991_464_547_107_979, 2.0) - 0.05).abs() < 1e-12);
        assert!((chi_squared_sf(30.0, 10.0) - 0.000_856_641_210_775_3).abs() < 1e-12);
        assert!((normal_quantile(0.975) - 1.959_963_984_540_054).abs() < 1e-12);
    }
}
