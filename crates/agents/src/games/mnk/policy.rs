//! A learned move ordering for the pattern alpha-beta (a candidate): a cell's ordering key is
//! a weight of its own four line patterns plus a weight of the opponent's, one weight per class
//! of four patterns (the four as a multiset: 495 classes), fitted to the moves `threat` played
//! in its recorded games (a conditional logit over each position's quiet candidates).

use std::sync::OnceLock;

use rules::{Cell, Mnk, Player, TwoPlayer, WinRule};

use super::pattern::{CELL_KEYS, PATTERNS, key_patterns};
use super::threats::Board;

/// The classes of four patterns taken as a multiset.
pub(crate) const CLASSES: usize = 495;

/// The class of each cell key, and the sorted patterns of each class.
fn class_tables() -> &'static (Vec<u16>, Vec<[u8; 4]>) {
    static TABLES: OnceLock<(Vec<u16>, Vec<[u8; 4]>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut sorted = Vec::with_capacity(CLASSES);
        let n = PATTERNS as u8;
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        sorted.push([a, b, c, d]);
                    }
                }
            }
        }
        let class = (0..CELL_KEYS)
            .map(|k| {
                let mut p = key_patterns(k);
                p.sort_unstable();
                sorted.iter().position(|s| *s == p).expect("a class") as u16
            })
            .collect();
        (class, sorted)
    })
}

/// The class of a cell key.
#[inline]
pub(crate) fn class(key: usize) -> usize {
    usize::from(class_tables().0[key])
}

/// The ordering weights: for the side to move's cell key and the opponent's best pattern
/// there, and for the opponent's cell key and the side to move's best pattern.
pub(crate) struct Policy {
    /// `own[key * PATTERNS + their best]`.
    own: Vec<i32>,
    /// `opp[key * PATTERNS + my best]`.
    opp: Vec<i32>,
    /// The best of a cell key's four patterns.
    best: Vec<u8>,
}

impl Policy {
    /// Parses the text the fit writes: one line a class, its four patterns, then the side to
    /// move's weight for each best pattern of the opponent's (`PATTERNS` numbers), then the
    /// opponent's for each best pattern of the side to move's.
    fn parse(text: &str) -> Policy {
        let mut own_class = vec![[0; PATTERNS]; CLASSES];
        let mut opp_class = vec![[0; PATTERNS]; CLASSES];
        let sorted = &class_tables().1;
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let numbers: Vec<i32> = line
                .split_whitespace()
                .map(|w| w.parse().expect("a number"))
                .collect();
            assert_eq!(numbers.len(), 4 + 2 * PATTERNS, "a line of the policy table");
            let patterns = [0, 1, 2, 3].map(|i| numbers[i] as u8);
            let c = sorted.iter().position(|s| *s == patterns).expect("a class");
            own_class[c].copy_from_slice(&numbers[4..4 + PATTERNS]);
            opp_class[c].copy_from_slice(&numbers[4 + PATTERNS..]);
        }
        let spread = |table: &[[i32; PATTERNS]]| {
            (0..CELL_KEYS * PATTERNS)
                .map(|i| table[class(i / PATTERNS)][i % PATTERNS])
                .collect()
        };
        Policy {
            own: spread(&own_class),
            opp: spread(&opp_class),
            best: (0..CELL_KEYS)
                .map(|k| sorted[class(k)][3])
                .collect(),
        }
    }

    /// The ordering key of `cell` for the side to move `me`.
    #[inline]
    pub(crate) fn score(&self, board: &Board, cell: Cell, me: Player) -> i32 {
        let patterns = board.patterns();
        let mine = patterns.key(cell, me);
        let theirs = patterns.key(cell, Mnk::opponent(me));
        self.own[mine * PATTERNS + usize::from(self.best[theirs])]
            + self.opp[theirs * PATTERNS + usize::from(self.best[mine])]
    }
}

/// The learned ordering of `rule`, where there is one.
pub(crate) fn policy(rule: WinRule) -> Option<&'static Policy> {
    static CARO: OnceLock<Policy> = OnceLock::new();
    static FREESTYLE: OnceLock<Policy> = OnceLock::new();
    match rule {
        WinRule::Freestyle => Some(
            FREESTYLE.get_or_init(|| Policy::parse(include_str!("policy-freestyle.txt"))),
        ),
        WinRule::Caro => Some(CARO.get_or_init(|| Policy::parse(include_str!("policy-caro.txt")))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use rules::{Game, MnkConfig, Variant};

    use super::super::pattern_search::{Keyed, move_score, quiet_candidates, settled};
    use super::*;

    /// One position: each quiet candidate's own and opponent classes, the built-in ordering key,
    /// and which was played.
    struct Sample {
        own: Vec<u16>,
        opp: Vec<u16>,
        base: Vec<i32>,
        played: usize,
    }

    fn openings(path: &str) -> Vec<Vec<String>> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with('[') && !l.trim().is_empty())
            .map(|l| l.split_whitespace().map(String::from).collect())
            .collect()
    }

    fn samples(dirs: &str, variant: &str, openings: &[Vec<String>]) -> Vec<Sample> {
        let start = variant
            .parse::<Variant>()
            .unwrap()
            .rules::<MnkConfig>()
            .unwrap()
            .start();
        let id = start.config().to_string();
        let mut out = Vec::new();
        for dir in dirs.split_whitespace() {
            let text = std::fs::read_to_string(format!("{dir}/games.csv")).unwrap();
            for row in text.lines().skip(1) {
                let fields: Vec<&str> = row.split(',').collect();
                if fields.len() < 18 || fields[1] != id {
                    continue;
                }
                let moves: Vec<&str> = fields[17].split_whitespace().collect();
                let skip = openings
                    .iter()
                    .filter(|o| o.len() <= moves.len() && o.iter().zip(&moves).all(|(a, b)| a == b))
                    .map(Vec::len)
                    .max()
                    .unwrap_or(0);
                let mut game = start.clone();
                let mut board = Board::new(&game);
                for (ply, text) in moves.iter().enumerate() {
                    let Ok(cell) = game.parse_move(text) else {
                        eprintln!("{dir}: a game's move {text:?} skipped with the rest");
                        break;
                    };
                    if ply >= skip {
                        let me = board.to_move();
                        let mut forced = Keyed::new();
                        if settled(&board, 0, &mut forced).is_none() && forced.is_empty() {
                            let cells: Vec<Cell> = quiet_candidates(&board, me).iter().collect();
                            if let Some(played) = cells.iter().position(|&c| c == cell)
                                && cells.len() > 1
                            {
                                let them = Mnk::opponent(me);
                                let p = board.patterns();
                                out.push(Sample {
                                    own: cells.iter().map(|&c| class(p.key(c, me)) as u16).collect(),
                                    opp: cells.iter().map(|&c| class(p.key(c, them)) as u16).collect(),
                                    base: cells.iter().map(|&c| move_score(&board, c, me)).collect(),
                                    played,
                                });
                            }
                        }
                    }
                    game.play_unchecked(cell);
                    board.play(cell);
                }
            }
        }
        out
    }

    /// The rank of the played cell among the scores (0 best; ties by cell, as the search).
    fn rank(scores: &[f64], played: usize) -> usize {
        let mine = scores[played];
        scores
            .iter()
            .enumerate()
            .filter(|&(i, &s)| s > mine || (s == mine && i < played))
            .count()
    }

    fn report(name: &str, samples: &[Sample], score: impl Fn(&Sample) -> Vec<f64>) {
        let (mut top1, mut top3, mut top12, mut ranks) = (0, 0, 0, 0usize);
        for s in samples {
            let r = rank(&score(s), s.played);
            top1 += usize::from(r == 0);
            top3 += usize::from(r < 3);
            top12 += usize::from(r < 12);
            ranks += r;
        }
        let n = samples.len() as f64;
        eprintln!(
            "{name}: {} positions, top1 {:.3} top3 {:.3} top12 {:.3} mean rank {:.2}",
            samples.len(),
            top1 as f64 / n,
            top3 as f64 / n,
            top12 as f64 / n,
            ranks as f64 / n
        );
    }

    /// Fits the ordering weights: `POLICY_TRAIN`, `POLICY_TEST` (run folders), `POLICY_OPENINGS`,
    /// `POLICY_VARIANT`, `POLICY_OUT`.
    #[test]
    #[ignore = "a fit over recorded games, run by hand"]
    fn fit_policy() {
        let var = |k: &str| std::env::var(k).unwrap();
        let variant = var("POLICY_VARIANT");
        let openings = openings(&var("POLICY_OPENINGS"));
        let train = samples(&var("POLICY_TRAIN"), &variant, &openings);
        let test = samples(&var("POLICY_TEST"), &variant, &openings);
        let base = |s: &Sample| s.base.iter().map(|&b| f64::from(b)).collect::<Vec<_>>();
        report("built-in, train", &train, base);
        report("built-in, test", &test, base);
        // A class weight for each side plus one for each class and the other side's best
        // pattern (the class weights are the interaction's mean, kept apart so that rare
        // pairs lean on them).
        const P: usize = 2 * CLASSES + 2 * CLASSES * PATTERNS;
        let best = |c: u16| usize::from(class_tables().1[usize::from(c)][3]);
        let ix = |s: &Sample, i: usize| {
            (
                2 * CLASSES + usize::from(s.own[i]) * PATTERNS + best(s.opp[i]),
                2 * CLASSES + CLASSES * PATTERNS + usize::from(s.opp[i]) * PATTERNS + best(s.own[i]),
            )
        };
        let mut w = vec![0.0f64; P];
        let (mut m, mut v) = (vec![0.0; P], vec![0.0; P]);
        let (lr, b1, b2, l2) = (0.05, 0.9, 0.999, 1e-5);
        let epochs: usize = std::env::var("POLICY_EPOCHS").map_or(400, |e| e.parse().unwrap());
        for epoch in 1..=epochs {
            let mut grad = vec![0.0; P];
            let mut loss = 0.0;
            for s in &train {
                let logits: Vec<f64> = (0..s.own.len())
                    .map(|i| {
                        let (a, b) = ix(s, i);
                        w[usize::from(s.own[i])] + w[CLASSES + usize::from(s.opp[i])] + w[a] + w[b]
                    })
                    .collect();
                let top = logits.iter().cloned().fold(f64::MIN, f64::max);
                let z: f64 = logits.iter().map(|l| (l - top).exp()).sum();
                loss += z.ln() + top - logits[s.played];
                for i in 0..logits.len() {
                    let p = (logits[i] - top).exp() / z - f64::from(u8::from(i == s.played));
                    grad[usize::from(s.own[i])] += p;
                    grad[CLASSES + usize::from(s.opp[i])] += p;
                    let (a, b) = ix(s, i);
                    grad[a] += p;
                    grad[b] += p;
                }
            }
            let n = train.len() as f64;
            for j in 0..P {
                let g = grad[j] / n + l2 * w[j];
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                let mh = m[j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[j] / (1.0 - b2.powi(epoch as i32));
                w[j] -= lr * mh / (vh.sqrt() + 1e-8);
            }
            if epoch % 50 == 0 {
                eprintln!("epoch {epoch}: train loss {:.4}", loss / n);
            }
        }
        let scale = 256.0;
        let own = |c: usize, b: usize| (scale * (w[c] + w[2 * CLASSES + c * PATTERNS + b])).round();
        let opp = |c: usize, b: usize| {
            (scale * (w[CLASSES + c] + w[2 * CLASSES + CLASSES * PATTERNS + c * PATTERNS + b]))
                .round()
        };
        let learned = |s: &Sample| {
            (0..s.own.len())
                .map(|i| {
                    own(usize::from(s.own[i]), best(s.opp[i]))
                        + opp(usize::from(s.opp[i]), best(s.own[i]))
                })
                .collect::<Vec<_>>()
        };
        report("learned, train", &train, learned);
        report("learned, test", &test, learned);
        let sorted = &class_tables().1;
        let mut text = String::from(
            "# p0 p1 p2 p3, own weight by the opponent's best pattern 0..8, opponent's weight by \
             own best 0..8 (x256)\n",
        );
        for c in 0..CLASSES {
            let p = sorted[c];
            text += &format!("{} {} {} {}", p[0], p[1], p[2], p[3]);
            for b in 0..PATTERNS {
                text += &format!(" {}", own(c, b) as i32);
            }
            for b in 0..PATTERNS {
                text += &format!(" {}", opp(c, b) as i32);
            }
            text += "\n";
        }
        std::fs::write(var("POLICY_OUT"), text).unwrap();
    }
}
