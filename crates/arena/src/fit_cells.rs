//! Texel-style fitting of an m,n,k evaluation over cell classes: each empty cell's four line
//! patterns of each player as one multiset ([`agents::pattern::cell_class`], 495 classes), a
//! weight per class for the side to move's cells and one per class for the opponent's, fitted
//! to game outcomes from positions files as [`crate::fit`] fits the eight pattern weights: the
//! scale of the logistic curve for the current evaluation first, then the weights (Newton's
//! method on the cross-entropy, a ridge towards the current weights).
//!
//! The current evaluation is a table of this form: a class's weight is the sum of its four
//! patterns' [`agents::pattern::WEIGHTS`], 6/5 of it for the side to move.

use std::fmt::Write as _;
use std::path::PathBuf;

use agents::pattern::{CELL_CLASSES, MAX_WEIGHT, Patterns, WEIGHTS, cell_class, class_patterns};
use rules::{Mnk, Player, Variant};

use crate::ArenaError;

/// The weights: the side to move's classes, then the opponent's.
pub const DIMS: usize = 2 * CELL_CLASSES;

/// One position: the count of each class among the empty cells (sparse), its result and split.
#[derive(Clone, Debug)]
pub struct CellSample {
    /// `(index, count)`: index `c` for the side to move's cells of class `c`,
    /// `CELL_CLASSES + c` for the opponent's.
    pub counts: Vec<(u16, f32)>,
    /// The side to move's final score.
    pub result: f64,
    /// Whether it is held out.
    pub validation: bool,
}

/// The class counts of `game` from `to_move`'s view, when it is a position the search would
/// evaluate: neither side can win at once, and the side to move cannot make an open four.
pub fn counts(game: &Mnk, to_move: Player) -> Option<Vec<(u16, f32)>> {
    let patterns = Patterns::new(game);
    let other = to_move.next(2);
    if !patterns.sets(to_move).open_four.is_empty()
        || !patterns.sets(other).win.is_empty()
    {
        return None;
    }
    let mut dense = vec![0u16; DIMS];
    for cell in game.empty_cells().iter() {
        dense[cell_class(patterns.patterns(cell, to_move))] += 1;
        dense[CELL_CLASSES + cell_class(patterns.patterns(cell, other))] += 1;
    }
    // The all-dead class is worth nothing either way: left out.
    dense[0] = 0;
    dense[CELL_CLASSES] = 0;
    Some(
        dense
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, &n)| (i as u16, f32::from(n)))
            .collect(),
    )
}

/// The current evaluation as class weights.
pub fn current() -> Vec<f64> {
    let mut w = vec![0.0; DIMS];
    for (c, patterns) in class_patterns().iter().enumerate() {
        let sum: i32 = patterns.iter().map(|&p| WEIGHTS[usize::from(p)]).sum();
        w[c] = 1.2 * f64::from(sum);
        w[CELL_CLASSES + c] = -f64::from(sum);
    }
    w
}

fn eval(s: &CellSample, w: &[f64]) -> f64 {
    s.counts
        .iter()
        .map(|&(i, n)| w[usize::from(i)] * f64::from(n))
        .sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy and squared error.
pub fn losses<'a>(samples: impl Iterator<Item = &'a CellSample>, w: &[f64], k: f64) -> [f64; 2] {
    let (mut ce, mut se, mut n) = (0.0, 0.0, 0usize);
    for s in samples {
        let p = sigmoid(k * eval(s, w)).clamp(1e-12, 1.0 - 1e-12);
        ce -= s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln();
        se += (s.result - p) * (s.result - p);
        n += 1;
    }
    let n = n.max(1) as f64;
    [ce / n, se / n]
}

fn fit_scale(train: &[&CellSample], w: &[f64]) -> f64 {
    let loss = |ln_k: f64| losses(train.iter().copied(), w, ln_k.exp())[0];
    let (mut a, mut b) = ((1e-7f64).ln(), 1.0f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..100 {
        let (c, d) = (b - ratio * (b - a), a + ratio * (b - a));
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// What [`fit_cells`] found.
pub struct FittedCells {
    /// The variant.
    pub variant: Variant,
    /// The logistic scale.
    pub k: f64,
    /// The rounded weights ([`DIMS`]).
    pub weights: Vec<i32>,
    /// Training and held-out positions.
    pub training: usize,
    /// Held-out positions.
    pub validation: usize,
    /// `[[ce, mse] training, [ce, mse] validation]` before and after.
    pub before: [[f64; 2]; 2],
    /// The same with the fitted weights.
    pub after: [[f64; 2]; 2],
    /// How many training positions hold each class (either side).
    pub seen: Vec<usize>,
}

/// `x` with `a x = b`, `a` symmetric positive definite (Cholesky).
fn solve(mut a: Vec<f64>, b: &[f64]) -> Vec<f64> {
    let n = b.len();
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        let d = d.max(1e-300).sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut v = a[i * n + j];
            for k in 0..j {
                v -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = v / d;
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut v = b[i];
        for k in 0..i {
            v -= a[i * n + k] * y[k];
        }
        y[i] = v / a[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let mut v = y[i];
        for k in i + 1..n {
            v -= a[k * n + i] * x[k];
        }
        x[i] = v / a[i * n + i];
    }
    x
}

/// Fits the class weights to the positions of `files`.
pub fn fit_cells(
    files: &[PathBuf],
    seed: u64,
    validation: f64,
    ridge: f64,
) -> Result<FittedCells, ArenaError> {
    let (variant, read) = crate::fit::read_positions(files, seed, validation, counts)?;
    let samples: Vec<CellSample> = read
        .into_iter()
        .filter_map(|(counts, result, validation)| {
            Some(CellSample {
                counts: counts?,
                result,
                validation,
            })
        })
        .collect();
    let train: Vec<&CellSample> = samples.iter().filter(|s| !s.validation).collect();
    if train.is_empty() {
        return Err(ArenaError::Export("no training positions".into()));
    }
    let start = current();
    let k = fit_scale(&train, &start);
    let mut seen = vec![0usize; DIMS];
    for s in &train {
        for &(i, _) in &s.counts {
            seen[usize::from(i)] += 1;
        }
    }
    let scale: Vec<f64> = start.iter().map(|w| w.abs().max(10.0)).collect();
    let n = train.len() as f64;
    let objective = |w: &[f64]| {
        let penalty: f64 = (0..DIMS)
            .map(|i| ridge * ((w[i] - start[i]) / scale[i]).powi(2))
            .sum();
        losses(train.iter().copied(), w, k)[0] + penalty
    };
    let mut w = start.clone();
    for _ in 0..30 {
        let mut g = vec![0.0; DIMS];
        let mut h = vec![0.0; DIMS * DIMS];
        for s in &train {
            let p = sigmoid(k * eval(s, &w));
            let (gs, hs) = ((p - s.result) * k / n, p * (1.0 - p) * k * k / n);
            for &(i, a) in &s.counts {
                let (i, a) = (usize::from(i), f64::from(a));
                g[i] += gs * a;
                let row = &mut h[i * DIMS..(i + 1) * DIMS];
                for &(j, b) in &s.counts {
                    row[usize::from(j)] += hs * a * f64::from(b);
                }
            }
        }
        for i in 0..DIMS {
            let r = 2.0 * ridge / (scale[i] * scale[i]);
            g[i] += r * (w[i] - start[i]);
            h[i * DIMS + i] += r;
        }
        // The all-dead classes stay at 0.
        for i in [0, CELL_CLASSES] {
            g[i] = 0.0;
            h[i * DIMS + i] = 1.0;
        }
        let mut step = solve(h, &g);
        let now = objective(&w);
        let mut next = w.clone();
        for _ in 0..40 {
            next = (0..DIMS).map(|i| w[i] - step[i]).collect();
            if objective(&next) <= now {
                break;
            }
            step.iter_mut().for_each(|s| *s /= 2.0);
        }
        let largest = (0..DIMS)
            .map(|i| step[i].abs() / scale[i])
            .fold(0.0, f64::max);
        eprintln!("fit: loss {now:.6} largest step {largest:.3e}");
        w = next;
        if largest < 1e-6 {
            break;
        }
    }
    let bound = f64::from(MAX_WEIGHT);
    let weights: Vec<i32> = w
        .iter()
        .map(|x| x.round().clamp(-bound, bound) as i32)
        .collect();
    let rounded: Vec<f64> = weights.iter().map(|&x| f64::from(x)).collect();
    let part = |w: &[f64], held: bool| losses(samples.iter().filter(|s| s.validation == held), w, k);
    Ok(FittedCells {
        variant,
        k,
        training: train.len(),
        validation: samples.len() - train.len(),
        before: [part(&start, false), part(&start, true)],
        after: [part(&rounded, false), part(&rounded, true)],
        weights,
        seen,
    })
}

impl FittedCells {
    /// The weights file (TOML): the settings, losses, and the two tables by class.
    pub fn to_toml(&self, seed: u64, ridge: f64) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# Cell-class weights fitted by `arena fit --cells`.");
        let _ = writeln!(out, "variant = \"{}\"", self.variant);
        let _ = writeln!(out, "seed = {seed}\nridge = {ridge}\nscale = {:e}", self.k);
        let _ = writeln!(out, "training_positions = {}", self.training);
        let _ = writeln!(out, "validation_positions = {}", self.validation);
        let pair = |l: [f64; 2]| format!("[{:.6}, {:.6}]", l[0], l[1]);
        let _ = writeln!(out, "training_loss_current = {}", pair(self.before[0]));
        let _ = writeln!(out, "training_loss_fitted = {}", pair(self.after[0]));
        let _ = writeln!(out, "validation_loss_current = {}", pair(self.before[1]));
        let _ = writeln!(out, "validation_loss_fitted = {}", pair(self.after[1]));
        let list = |w: &[i32]| w.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
        let _ = writeln!(out, "own = [{}]", list(&self.weights[..CELL_CLASSES]));
        let _ = writeln!(out, "opponent = [{}]", list(&self.weights[CELL_CLASSES..]));
        let seen: Vec<String> = self.seen.iter().map(usize::to_string).collect();
        let _ = writeln!(out, "seen = [{}]", seen.join(", "));
        out
    }
}
