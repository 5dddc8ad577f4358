//! Texel-style fitting of the m,n,k pattern weights ([`agents::pattern::WEIGHTS`]) to game
//! outcomes, from positions files (`arena positions`, [`crate::positions`]).
//!
//! The pattern evaluation ([`agents::pattern::Patterns::evaluate`]) is linear in the weights:
//! `6/5 * sum_me - sum_them`, each sum the weights of every empty cell's four line patterns. So
//! each position is a vector of pattern counts, `6/5 * count_me[p] - count_them[p]` per pattern
//! `p`, and its evaluation the dot product with the weights. As Texel tuning does (Peter
//! Österlund's method, as the Chess Programming Wiki describes it), the evaluation is read as a
//! win probability through a logistic curve, `sigmoid(K * eval)`, and fitted to the final
//! results: first the scale `K` for the current weights, then the weights for that `K`, so the
//! fitted weights keep the units the searches' thresholds are written in. The loss is the
//! cross-entropy (logistic regression, with draws as 0.5), with a ridge pulling each weight
//! towards its current value relative to its size; it is convex, so Newton's method finds the
//! one optimum without a learning rate or a random start. The seed only splits the games into
//! training and validation sets: the same files and seed give the same weights.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use agents::pattern::{MAX_WEIGHT, PATTERNS, Patterns, WEIGHTS};
use agents::policy;
use rules::{Game as _, Mnk, Player, Variant};

use crate::ArenaError;
use crate::npz::Npz;

/// The fitted weights: the pattern [`agents::pattern::DEAD`] (index 0) keeps weight 0.
pub const FREE: usize = PATTERNS - 1;

/// One position: its pattern counts (from the side to move's view) and its result.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// `6/5 * count_me[p] - count_them[p]` for patterns 1 to 8.
    pub features: [f64; FREE],
    /// The side to move's final score: 1, 0.5 or 0.
    pub result: f64,
    /// Whether it is held out for validation.
    pub validation: bool,
}

/// The pattern counts of `game` from `to_move`'s view, as [`Sample::features`].
pub fn features(game: &Mnk, to_move: Player) -> [f64; FREE] {
    let patterns = Patterns::new(game);
    let other = to_move.next(2);
    let mut features = [0.0; FREE];
    for cell in game.empty_cells().iter() {
        for (player, factor) in [(to_move, 1.2), (other, -1.0)] {
            for p in patterns.patterns(cell, player) {
                if p > 0 {
                    features[usize::from(p) - 1] += factor;
                }
            }
        }
    }
    features
}

/// The evaluation the features give with `weights`.
pub fn evaluation(features: &[f64; FREE], weights: &[f64; FREE]) -> f64 {
    features.iter().zip(weights).map(|(f, w)| f * w).sum()
}

/// Reads the positions of `files` (one m,n,k variant) as samples; a game goes to validation
/// when a hash of `seed` and its number falls in the `validation` share.
pub fn read_samples(
    files: &[PathBuf],
    seed: u64,
    validation: f64,
) -> Result<(Variant, Vec<Sample>), ArenaError> {
    let mut samples = Vec::new();
    let variant = read_positions(files, seed, validation, |p| {
        samples.push(Sample {
            features: features(p.position, p.mover),
            result: p.result,
            validation: p.validation,
        });
        Ok(())
    })?;
    Ok((variant, samples))
}

/// One position of a positions file, as [`read_positions`] hands it on.
pub struct Position<'a> {
    /// The stones, the side to move following their count.
    pub position: &'a Mnk,
    /// The side to move.
    pub mover: Player,
    /// The move played there, if the file's action is a cell of the board.
    pub played: Option<rules::Cell>,
    /// The side to move's final score.
    pub result: f64,
    /// Whether its game is held out for validation.
    pub validation: bool,
}

/// Reads the positions of `files` (one m,n,k variant) and hands each to `each`; a game goes
/// to validation when a hash of `seed` and its number falls in the `validation` share.
pub fn read_positions(
    files: &[PathBuf],
    seed: u64,
    validation: f64,
    mut each: impl FnMut(Position<'_>) -> Result<(), String>,
) -> Result<Variant, ArenaError> {
    let mut variant: Option<Variant> = None;
    for (number, file) in files.iter().enumerate() {
        let bad = |problem: String| ArenaError::Io {
            path: file.clone(),
            action: "fit to the positions of",
            error: problem,
        };
        let npz = Npz::open(file)?;
        let version = npz.array("version")?.numbers();
        if version != [f64::from(crate::positions::FORMAT_VERSION)] {
            return Err(bad(format!(
                "a positions file of layout version {version:?}; this arena reads version {}",
                crate::positions::FORMAT_VERSION
            )));
        }
        let id = npz.array("variant")?.texts().concat();
        let this: Variant = id
            .parse()
            .map_err(|e| bad(format!("variant `{id}`: {e}")))?;
        let Some(config) = this.rules::<rules::MnkConfig>() else {
            return Err(bad(format!(
                "`{this}` is not an m,n,k variant: the pattern weights are m,n,k's"
            )));
        };
        match variant {
            Some(v) if v != this => {
                return Err(bad(format!(
                    "its positions are of `{this}`, the files before it of `{v}`: one variant \
                     a fit"
                )));
            }
            _ => variant = Some(this),
        }
        let observation = npz.array("observation")?;
        let (rows, cols) = (usize::from(config.rows()), usize::from(config.cols()));
        if observation.shape.len() != 4 || observation.shape[1..] != [3, rows, cols] {
            return Err(bad(format!(
                "observations of shape {:?}, not (N, 3, {rows}, {cols})",
                observation.shape
            )));
        }
        let n = observation.shape[0];
        let side = npz.array("side_to_move")?.numbers();
        let result = npz.array("result")?.numbers();
        let game = npz.array("game")?.numbers();
        let action = npz.array("action")?.numbers();
        if side.len() != n || result.len() != n || game.len() != n || action.len() != n {
            return Err(bad("arrays of different lengths".into()));
        }
        let values = observation.numbers();
        let plane = rows * cols;
        for i in 0..n {
            let at = |what: String| bad(format!("position {i}: {what}"));
            if side[i] != 0.0 && side[i] != 1.0 {
                return Err(at(format!("side_to_move is {}, not 0 or 1", side[i])));
            }
            if !(0.0..=1.0).contains(&result[i]) {
                return Err(at(format!("result is {}, not from 0 to 1", result[i])));
            }
            let mover = Player::seat(side[i] as usize);
            let mut position = config.start();
            let stones = &values[i * 3 * plane..(i * 3 + 2) * plane];
            for (index, &stone) in stones.iter().enumerate() {
                if stone != 0.0 {
                    let player = if index < plane { mover } else { mover.next(2) };
                    let (row, col) = (index % plane / cols, index % cols);
                    let cell = position
                        .config()
                        .cell(row as u8, col as u8)
                        .expect("the observation's shape is the board's");
                    if !position.empty_cells().contains(cell) {
                        return Err(at(format!(
                            "row {row}, column {col} holds a stone of each player"
                        )));
                    }
                    position.place(cell, player);
                }
            }
            let played = (action[i] >= 0.0)
                .then(|| position.move_of(action[i] as u32))
                .flatten();
            let key = rules::splitmix64(seed ^ rules::splitmix64(number as u64) ^ game[i] as u64);
            each(Position {
                position: &position,
                mover,
                played,
                result: result[i],
                validation: ((key >> 11) as f64 / (1u64 << 53) as f64) < validation,
            })
            .map_err(at)?;
        }
    }
    variant.ok_or_else(|| ArenaError::Export("no positions files".into()))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean cross-entropy of `samples` under `weights` and scale `k`.
pub fn log_loss<'a>(
    samples: impl Iterator<Item = &'a Sample>,
    weights: &[f64; FREE],
    k: f64,
) -> f64 {
    let (mut sum, mut n) = (0.0, 0);
    for s in samples {
        let p = sigmoid(k * evaluation(&s.features, weights)).clamp(1e-12, 1.0 - 1e-12);
        sum -= s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln();
        n += 1;
    }
    if n == 0 { f64::NAN } else { sum / f64::from(n) }
}

/// The mean squared error of `samples` (Texel's own loss), for the report.
pub fn squared_error<'a>(
    samples: impl Iterator<Item = &'a Sample>,
    weights: &[f64; FREE],
    k: f64,
) -> f64 {
    let (mut sum, mut n) = (0.0, 0);
    for s in samples {
        let e = s.result - sigmoid(k * evaluation(&s.features, weights));
        sum += e * e;
        n += 1;
    }
    if n == 0 { f64::NAN } else { sum / f64::from(n) }
}

/// What [`fit`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    /// The variant.
    pub variant: Variant,
    /// The scale of the logistic curve, fitted for the current weights.
    pub k: f64,
    /// The fitted weights of patterns 0 to 8, rounded (pattern 0's stays 0).
    pub weights: [i32; PATTERNS],
    /// Training and validation positions.
    pub training: usize,
    /// Validation positions.
    pub validation: usize,
    /// Cross-entropy and squared error on the training and validation positions, with the
    /// current weights and the fitted ones: `[[ce, mse] of training, [ce, mse] of validation]`.
    pub before: [[f64; 2]; 2],
    /// The same with the fitted (rounded) weights.
    pub after: [[f64; 2]; 2],
}

fn current() -> [f64; FREE] {
    std::array::from_fn(|i| f64::from(WEIGHTS[i + 1]))
}

/// The scale `k` that minimises the training loss of `weights`: a golden-section search over
/// `ln k`.
fn fit_scale(samples: &[Sample], weights: &[f64; FREE]) -> f64 {
    let loss = |ln_k: f64| {
        log_loss(
            samples.iter().filter(|s| !s.validation),
            weights,
            ln_k.exp(),
        )
    };
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

/// Fits the weights of patterns 1 to 8 to the training samples for the scale `k`: Newton's
/// method on the cross-entropy plus `ridge * sum(((w - w0) / w0)^2)`.
fn fit_weights(samples: &[Sample], k: f64, ridge: f64) -> [f64; FREE] {
    let start = current();
    let mut w = start;
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.validation).collect();
    let n = train.len().max(1) as f64;
    for _ in 0..100 {
        let mut gradient = [0.0; FREE];
        let mut hessian = [[0.0; FREE]; FREE];
        for s in &train {
            let p = sigmoid(k * evaluation(&s.features, &w));
            let (g, h) = ((p - s.result) * k / n, p * (1.0 - p) * k * k / n);
            for (i, row) in hessian.iter_mut().enumerate() {
                gradient[i] += g * s.features[i];
                for (cell, feature) in row.iter_mut().zip(&s.features) {
                    *cell += h * s.features[i] * feature;
                }
            }
        }
        for i in 0..FREE {
            let scale = start[i].max(1.0);
            gradient[i] += 2.0 * ridge * (w[i] - start[i]) / (scale * scale);
            hessian[i][i] += 2.0 * ridge / (scale * scale);
        }
        let mut step = solve(hessian, gradient);
        // Newton's step, halved while it does not lower the loss (far from the optimum a
        // logistic loss's full step can overshoot).
        let objective = |w: &[f64; FREE]| {
            let penalty: f64 = (0..FREE)
                .map(|i| ridge * ((w[i] - start[i]) / start[i].max(1.0)).powi(2))
                .sum();
            log_loss(train.iter().copied(), w, k) + penalty
        };
        let now = objective(&w);
        let mut next = w;
        for _ in 0..40 {
            next = std::array::from_fn(|i| w[i] - step[i]);
            if objective(&next) <= now {
                break;
            }
            step = step.map(|s| s / 2.0);
        }
        let largest = (0..FREE)
            .map(|i| step[i].abs() / start[i].max(1.0))
            .fold(0.0, f64::max);
        w = next;
        if largest < 1e-9 {
            break;
        }
    }
    w
}

/// `x` with `a x = b` (Gaussian elimination with partial pivoting; `a` is positive definite).
fn solve(mut a: [[f64; FREE]; FREE], mut b: [f64; FREE]) -> [f64; FREE] {
    for col in 0..FREE {
        let pivot = (col..FREE)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..FREE {
            let factor = a[row][col] / pivot_row[col];
            for (cell, above) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *cell -= factor * above;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; FREE];
    for row in (0..FREE).rev() {
        let rest: f64 = (row + 1..FREE).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x
}

/// Refuses a validation share outside [0, 1).
fn check_validation(validation: f64) -> Result<(), ArenaError> {
    if (0.0..1.0).contains(&validation) {
        Ok(())
    } else {
        Err(ArenaError::Export(format!(
            "the validation share is at least 0 and less than 1, not {validation}"
        )))
    }
}

/// Fits the pattern weights to the positions of `files` (see the module's documentation).
pub fn fit(
    files: &[PathBuf],
    seed: u64,
    validation: f64,
    ridge: f64,
) -> Result<Fitted, ArenaError> {
    check_validation(validation)?;
    if !(ridge >= 0.0 && ridge.is_finite()) {
        return Err(ArenaError::Export(format!(
            "the ridge is a number, 0 or more, not {ridge}"
        )));
    }
    let (variant, samples) = read_samples(files, seed, validation)?;
    fit_samples(variant, &samples, ridge)
}

/// Fits the pattern weights to `samples` (those not held out for validation).
pub fn fit_samples(variant: Variant, samples: &[Sample], ridge: f64) -> Result<Fitted, ArenaError> {
    let training = samples.iter().filter(|s| !s.validation).count();
    if training == 0 {
        return Err(ArenaError::Export(
            "no training positions: export more games, or hold out fewer".into(),
        ));
    }
    let before_weights = current();
    let k = fit_scale(samples, &before_weights);
    let fitted = fit_weights(samples, k, ridge);
    let mut weights = [0; PATTERNS];
    for i in 0..FREE {
        // Within what `threat:weights=` takes (a fit of few positions may run far out).
        let bound = f64::from(MAX_WEIGHT);
        weights[i + 1] = fitted[i].round().clamp(-bound, bound) as i32;
    }
    let rounded: [f64; FREE] = std::array::from_fn(|i| f64::from(weights[i + 1]));
    let losses = |w: &[f64; FREE]| {
        let part = |held: bool| {
            [
                log_loss(samples.iter().filter(|s| s.validation == held), w, k),
                squared_error(samples.iter().filter(|s| s.validation == held), w, k),
            ]
        };
        [part(false), part(true)]
    };
    Ok(Fitted {
        variant,
        k,
        weights,
        training,
        validation: samples.len() - training,
        before: losses(&before_weights),
        after: losses(&rounded),
    })
}

impl Fitted {
    /// The weights file: TOML, with the fit's settings and losses as keys beside the weights.
    pub fn to_toml(&self, files: &[PathBuf], seed: u64, ridge: f64) -> String {
        let mut out = String::new();
        let names: Vec<String> = files.iter().map(|f| format!("{:?}", display(f))).collect();
        let list = |w: &[i32]| w.iter().map(i32::to_string).collect::<Vec<_>>().join(", ");
        let _ = writeln!(
            out,
            "# Pattern weights fitted by `arena fit` (Texel-style logistic fit to game results).\n\
             # Index: dead, live, closed3, open3, closed2, open2, closed1, open1, win (pattern.rs)."
        );
        let _ = writeln!(out, "variant = \"{}\"", self.variant);
        let _ = writeln!(out, "positions = [{}]", names.join(", "));
        let _ = writeln!(out, "seed = {seed}");
        let _ = writeln!(out, "ridge = {ridge}");
        let _ = writeln!(out, "scale = {:e}", self.k);
        let _ = writeln!(out, "training_positions = {}", self.training);
        let _ = writeln!(out, "validation_positions = {}", self.validation);
        let _ = writeln!(out, "weights = [{}]", list(&self.weights));
        let slashed: Vec<String> = self.weights[1..].iter().map(i32::to_string).collect();
        let _ = writeln!(out, "# The `threat` agent with them:");
        let _ = writeln!(out, "spec = \"threat:weights={}\"", slashed.join("/"));
        let _ = writeln!(out, "current_weights = [{}]", list(&WEIGHTS));
        let _ = writeln!(
            out,
            "# [cross-entropy, squared error] of the training and validation positions"
        );
        let pair = |l: [f64; 2]| format!("[{:.6}, {:.6}]", l[0], l[1]);
        let _ = writeln!(out, "training_loss_current = {}", pair(self.before[0]));
        let _ = writeln!(out, "training_loss_fitted = {}", pair(self.after[0]));
        let _ = writeln!(out, "validation_loss_current = {}", pair(self.before[1]));
        let _ = writeln!(out, "validation_loss_fitted = {}", pair(self.after[1]));
        out
    }
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

/// The steps of the ordering fit ([`policy::fit`]).
pub const ORDERING_STEPS: usize = 300;

/// The move ordering fitted by `arena fit --ordering`, with its accuracy before and after.
#[derive(Debug, PartialEq)]
pub struct FittedOrdering {
    /// The variant of the positions.
    pub variant: Variant,
    /// The weights.
    pub weights: policy::Weights,
    /// The built-in ordering's accuracy on the training and validation positions.
    pub before: [policy::Accuracy; 2],
    /// The fitted ordering's.
    pub after: [policy::Accuracy; 2],
}

/// Fits the move ordering of `threat`'s alpha-beta to the moves played in the positions of
/// `files` ([`agents::games::mnk::policy`]); the seed only splits the games.
pub fn fit_ordering(
    files: &[PathBuf],
    seed: u64,
    validation: f64,
) -> Result<FittedOrdering, ArenaError> {
    check_validation(validation)?;
    let mut samples: Vec<(policy::Sample, bool)> = Vec::new();
    let variant = read_positions(files, seed, validation, |p| {
        if p.position.side_to_move() != p.mover {
            return Err(format!(
                "the side to move is seat {}, but the stones say seat {}",
                p.mover.index(),
                p.position.side_to_move().index()
            ));
        }
        if let Some(cell) = p.played
            && let Some(sample) = policy::sample(p.position, cell)
        {
            samples.push((sample, p.validation));
        }
        Ok(())
    })?;
    let part = |held: bool| samples.iter().filter(move |s| s.1 == held).map(|s| &s.0);
    if part(false).next().is_none() {
        return Err(ArenaError::Export(
            "no training positions where the move is the side's own choice: export more games, \
             or hold out fewer"
                .into(),
        ));
    }
    let weights = policy::fit(part(false), ORDERING_STEPS);
    let after = |held| policy::Accuracy::of(part(held), |s| weights.keys(s));
    Ok(FittedOrdering {
        variant,
        before: [
            policy::Accuracy::builtin(part(false)),
            policy::Accuracy::builtin(part(true)),
        ],
        after: [after(false), after(true)],
        weights,
    })
}

impl FittedOrdering {
    /// The table the agent reads (`policy-RULE.txt`), its header naming the fit.
    pub fn to_text(&self, files: &[PathBuf], seed: u64, validation: f64) -> String {
        let names: Vec<String> = files.iter().map(|f| display(f)).collect();
        let line = |name: &str, a: &policy::Accuracy| {
            format!(
                "{name}: {} positions, the move played first {:.3}, in the first three {:.3}, \
                 among the {} searched {:.3}",
                a.positions,
                a.top1,
                a.top3,
                policy::SEARCHED,
                a.searched
            )
        };
        let header = format!(
            "The move ordering of `threat` on {}, fitted by `arena fit --ordering` \
             (agents/src/games/mnk/policy.rs)\n\
             positions: {}\nseed {seed}, validation {validation}, {ORDERING_STEPS} steps, ridge {}\n\
             {}\n{}\n{}\n{}",
            self.variant,
            names.join(" "),
            policy::RIDGE,
            line("built-in, training", &self.before[0]),
            line("fitted, training", &self.after[0]),
            line("built-in, validation", &self.before[1]),
            line("fitted, validation", &self.after[1]),
        );
        self.weights.to_text(&header)
    }
}
