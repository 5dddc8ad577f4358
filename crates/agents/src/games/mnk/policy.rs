//! The learned move ordering of `threat`'s alpha-beta: at a quiet node a cell's ordering key
//! is a weight of the side to move's four line patterns there plus a weight of the
//! opponent's, one weight per class of four patterns (the four taken as a multiset: 495
//! classes) and side, fitted to the moves `threat` played in its recorded games.
//!
//! The fit ([`fit`], behind `arena fit --ordering`) is a conditional logit (McFadden's choice
//! model, the "policy" half of a game network reduced to a table): in each position of the
//! games where nothing forces the move, the probability of a quiet candidate is the softmax
//! of the candidates' keys, and the weights maximise the likelihood of the moves played
//! (full-batch Adam from zero, a small ridge, a fixed number of steps: deterministic, the
//! same positions give the same weights). The keys order the cells a search looks at first
//! and which it looks at at all (the [`super::pattern_search::WIDTH`] best); the evaluation is
//! unchanged. The fitted tables live beside this file, one per rule (`policy-caro.txt`,
//! `policy-freestyle.txt`); a rule without one orders by the built-in pattern values. The
//! agent uses a table only where asked (`threat:ordering=learned`) or where `arena sprt`
//! accepted it (`ordering=auto`, [`super::threat::LEARNED_RULES`]: no rule yet).

use std::fmt::Write as _;
use std::sync::OnceLock;

use rules::{Cell, Mnk, TwoPlayer, WinRule};

use super::pattern::{ClassOrdering, class, class_tables};
use super::pattern_search::{Keyed, WIDTH, move_score, quiet_candidates, settled};
use super::threats::Board;

pub use super::pattern::CLASSES;

/// Parses a table [`Weights::to_text`] wrote: one line a class, its four patterns, then the
/// side to move's weight and the opponent's.
fn parse(text: &str) -> ClassOrdering {
    let mut own_class = vec![0; CLASSES];
    let mut opp_class = vec![0; CLASSES];
    let sorted = &class_tables().1;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let numbers: Vec<i32> = line
            .split_whitespace()
            .map(|w| w.parse().expect("a number"))
            .collect();
        assert_eq!(numbers.len(), 6, "a line of an ordering table: {line}");
        let patterns = [0, 1, 2, 3].map(|i| numbers[i] as u8);
        let c = sorted.iter().position(|s| *s == patterns).expect("a class");
        own_class[c] = numbers[4];
        opp_class[c] = numbers[5];
    }
    ClassOrdering::new(&own_class, &opp_class)
}

/// The learned ordering of `rule`, where there is one.
pub(crate) fn policy(rule: WinRule) -> Option<&'static ClassOrdering> {
    static CARO: OnceLock<ClassOrdering> = OnceLock::new();
    static FREESTYLE: OnceLock<ClassOrdering> = OnceLock::new();
    match rule {
        WinRule::Freestyle => {
            Some(FREESTYLE.get_or_init(|| parse(include_str!("policy-freestyle.txt"))))
        }
        WinRule::Caro => Some(CARO.get_or_init(|| parse(include_str!("policy-caro.txt")))),
        _ => None,
    }
}

/// One position of a recorded game for the fit: its quiet candidates (the cells a quiet node
/// of the search chooses from) as classes, and which of them was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Each candidate's class for the side to move.
    pub own: Vec<u16>,
    /// Each candidate's class for the opponent.
    pub opp: Vec<u16>,
    /// Each candidate's built-in ordering key (the pattern values), for comparison.
    pub builtin: Vec<i32>,
    /// The index of the move played among the candidates.
    pub played: usize,
}

/// The sample of `game` (side to move from its stone count) where `played` was played, if
/// nothing forces the move there (no win at once, no win of the opponent's to stop), the move
/// is one of the quiet candidates and there are two or more.
pub fn sample(game: &Mnk, played: Cell) -> Option<Sample> {
    let board = Board::new(game);
    let me = board.to_move();
    let mut forced = Keyed::new();
    if settled(&board, 0, &mut forced).is_some() || !forced.is_empty() {
        return None;
    }
    let cells: Vec<Cell> = quiet_candidates(&board, me).iter().collect();
    let index = cells.iter().position(|&c| c == played)?;
    if cells.len() < 2 {
        return None;
    }
    let them = Mnk::opponent(me);
    let patterns = board.patterns();
    Some(Sample {
        own: cells
            .iter()
            .map(|&c| class(patterns.key(c, me)) as u16)
            .collect(),
        opp: cells
            .iter()
            .map(|&c| class(patterns.key(c, them)) as u16)
            .collect(),
        builtin: cells.iter().map(|&c| move_score(&board, c, me)).collect(),
        played: index,
    })
}

/// How often an ordering puts the move played first, in its first three, and among the
/// [`WIDTH`] cells a quiet node below the root searches.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// The positions counted.
    pub positions: usize,
    /// The share with the move played first.
    pub top1: f64,
    /// The share with it among the first three.
    pub top3: f64,
    /// The share with it among the first [`WIDTH`].
    pub searched: f64,
}

impl Accuracy {
    /// The accuracy of the keys `keys` gives each sample's candidates (ties by candidate
    /// order, as the search breaks them by cell).
    pub fn of<'a>(
        samples: impl Iterator<Item = &'a Sample>,
        keys: impl Fn(&Sample) -> Vec<i64>,
    ) -> Accuracy {
        let (mut n, mut top1, mut top3, mut searched) = (0usize, 0usize, 0usize, 0usize);
        for s in samples {
            let keys = keys(s);
            let mine = keys[s.played];
            let rank = keys
                .iter()
                .enumerate()
                .filter(|&(i, &k)| k > mine || (k == mine && i < s.played))
                .count();
            n += 1;
            top1 += usize::from(rank == 0);
            top3 += usize::from(rank < 3);
            searched += usize::from(rank < WIDTH);
        }
        let share = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
        Accuracy {
            positions: n,
            top1: share(top1),
            top3: share(top3),
            searched: share(searched),
        }
    }

    /// The accuracy of the built-in ordering (the pattern values).
    pub fn builtin<'a>(samples: impl Iterator<Item = &'a Sample>) -> Accuracy {
        Accuracy::of(samples, |s| {
            s.builtin.iter().map(|&k| i64::from(k)).collect()
        })
    }
}

/// Fitted ordering weights, in the table's units (a logit times [`SCALE`], rounded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per class, for the side to move.
    pub own: Vec<i32>,
    /// Per class, for the opponent.
    pub opp: Vec<i32>,
}

/// The cells a quiet node below the root searches, which [`Accuracy::searched`] counts.
pub const SEARCHED: usize = WIDTH;

/// A logit's worth in the table's integer units.
pub const SCALE: f64 = 256.0;

/// The ridge of the fit, per weight (in logits squared).
pub const RIDGE: f64 = 1e-5;

/// Fits the ordering weights to `samples` by `steps` steps of full-batch Adam (learning rate
/// 0.05) from zero: deterministic for the same samples in the same order.
pub fn fit<'a>(samples: impl Iterator<Item = &'a Sample> + Clone, steps: usize) -> Weights {
    const P: usize = 2 * CLASSES;
    let (b1, b2, rate) = (0.9f64, 0.999f64, 0.05);
    let mut w = vec![0.0f64; P];
    let (mut m, mut v) = (vec![0.0f64; P], vec![0.0f64; P]);
    let n = samples.clone().count().max(1) as f64;
    let mut logits = Vec::new();
    for step in 1..=steps {
        let mut grad = vec![0.0f64; P];
        for s in samples.clone() {
            logits.clear();
            logits.extend(
                (0..s.own.len())
                    .map(|i| w[usize::from(s.own[i])] + w[CLASSES + usize::from(s.opp[i])]),
            );
            let top = logits.iter().copied().fold(f64::MIN, f64::max);
            let z: f64 = logits.iter().map(|l| (l - top).exp()).sum();
            for (i, l) in logits.iter().enumerate() {
                let p = (l - top).exp() / z - if i == s.played { 1.0 } else { 0.0 };
                grad[usize::from(s.own[i])] += p;
                grad[CLASSES + usize::from(s.opp[i])] += p;
            }
        }
        for j in 0..P {
            let g = grad[j] / n + RIDGE * w[j];
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - b1.powi(step as i32));
            let vh = v[j] / (1.0 - b2.powi(step as i32));
            w[j] -= rate * mh / (vh.sqrt() + 1e-8);
        }
    }
    let round = |x: f64| (SCALE * x).round() as i32;
    Weights {
        own: w[..CLASSES].iter().map(|&x| round(x)).collect(),
        opp: w[CLASSES..].iter().map(|&x| round(x)).collect(),
    }
}

impl Weights {
    /// The keys these weights give a sample's candidates.
    pub fn keys(&self, s: &Sample) -> Vec<i64> {
        (0..s.own.len())
            .map(|i| {
                i64::from(self.own[usize::from(s.own[i])])
                    + i64::from(self.opp[usize::from(s.opp[i])])
            })
            .collect()
    }

    /// The table as the agent reads it: `header` as comment lines, then one line a class, its
    /// four patterns (sorted) and its two weights.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "# pattern pattern pattern pattern own opponent");
        for (c, p) in class_tables().1.iter().enumerate() {
            let _ = writeln!(
                out,
                "{} {} {} {} {} {}",
                p[0], p[1], p[2], p[3], self.own[c], self.opp[c]
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use rules::{Game, MnkConfig, Variant};

    use super::*;
    use crate::pattern::{CLOSED2, OPEN2};

    fn start(variant: &str) -> Mnk {
        variant
            .parse::<Variant>()
            .unwrap()
            .rules::<MnkConfig>()
            .unwrap()
            .start()
    }

    #[test]
    fn the_classes_are_the_multisets_of_four_patterns() {
        let (class_of, sorted) = class_tables();
        assert_eq!(sorted.len(), CLASSES);
        // Every order of the same four patterns is one class, and the class's patterns are them.
        let a = crate::pattern::cell_key([OPEN2, 0, CLOSED2, 1]);
        let b = crate::pattern::cell_key([1, CLOSED2, 0, OPEN2]);
        assert_eq!(class_of[a], class_of[b]);
        assert_eq!(sorted[class(a)], [0, 1, CLOSED2, OPEN2]);
        let c = crate::pattern::cell_key([OPEN2, 0, CLOSED2, 2]);
        assert_ne!(class(a), class(c));
    }

    #[test]
    fn a_fit_recovers_the_order_of_known_weights_and_its_table_reads_back() {
        // Positions from random play; in each the move "played" is the candidate that known
        // random class weights rank first: the fit must learn to put it first.
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let truth: Vec<i64> = (0..2 * CLASSES).map(|_| (next() % 1000) as i64).collect();
        let mut samples = Vec::new();
        let mut game = start("caro");
        while samples.len() < 300 {
            let r = next();
            let (row, col) = ((r % 9 + 3) as u8, (r / 9 % 9 + 3) as u8);
            let cell = game.config().cell(row, col).unwrap();
            if !game.is_legal(cell) {
                continue;
            }
            if let Some(mut s) = sample(&game, cell) {
                let key = |i: usize| {
                    truth[usize::from(s.own[i])] + truth[CLASSES + usize::from(s.opp[i])]
                };
                let best = (0..s.own.len()).max_by_key(|&i| (key(i), std::cmp::Reverse(i)));
                s.played = best.unwrap();
                samples.push(s);
            }
            game.play_unchecked(cell);
            if game.outcome().is_some() || game.empty_cells().len() < 150 {
                game = start("caro");
            }
        }
        let before = Accuracy::builtin(samples.iter());
        let weights = fit(samples.iter(), 200);
        let after = Accuracy::of(samples.iter(), |s| weights.keys(s));
        assert!(after.top1 > 0.95, "{after:?} (built-in {before:?})");
        assert!(after.top1 > before.top1);
        // The table the agent reads gives the same keys.
        let policy = parse(&weights.to_text("a test"));
        let mut game = start("caro").play_line("h8 i9 h9 h10 g8").unwrap();
        game.play_unchecked(game.config().cell(4, 4).unwrap());
        let board = Board::new(&game);
        let me = board.to_move();
        let cell = quiet_candidates(&board, me).iter().next().unwrap();
        let patterns = board.patterns();
        assert_eq!(
            policy.score(board.patterns(), cell, me),
            weights.own[class(patterns.key(cell, me))]
                + weights.opp[class(patterns.key(cell, Mnk::opponent(me)))]
        );
    }

    #[test]
    fn the_shipped_tables_read_and_order_a_win_maker_first() {
        for (rule, variant) in [(WinRule::Caro, "caro"), (WinRule::Freestyle, "gomoku")] {
            let policy = policy(rule).expect("a table");
            // X has three in a row with both ends open: making the open four is the first
            // cell by the learned keys, as by the built-in ones.
            let game = start(variant).play_line("h8 a1 i8 a3 j8 a5").unwrap();
            let board = Board::new(&game);
            let me = board.to_move();
            let cells: Vec<Cell> = quiet_candidates(&board, me).iter().collect();
            let best = |key: &dyn Fn(Cell) -> i32| {
                *cells
                    .iter()
                    .max_by_key(|&&c| (key(c), std::cmp::Reverse(c)))
                    .unwrap()
            };
            let learned = best(&|c| policy.score(board.patterns(), c, me));
            let opens = board.patterns().sets(me).open_four;
            assert!(opens.contains(learned), "{variant}: {learned:?}");
        }
    }
}
