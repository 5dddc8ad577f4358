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

/// The ordering weights of each cell key: the side to move's and the opponent's.
pub(crate) struct Policy {
    own: Vec<i32>,
    opp: Vec<i32>,
}

impl Policy {
    /// Parses the text `arena`'s fit writes: one line a class, its four patterns then the own
    /// and the opponent's weight.
    fn parse(text: &str) -> Policy {
        let mut own_class = vec![0; CLASSES];
        let mut opp_class = vec![0; CLASSES];
        let sorted = &class_tables().1;
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
            let numbers: Vec<i32> = line
                .split_whitespace()
                .map(|w| w.parse().expect("a number"))
                .collect();
            let patterns = [0, 1, 2, 3].map(|i| numbers[i] as u8);
            let c = sorted.iter().position(|s| *s == patterns).expect("a class");
            own_class[c] = numbers[4];
            opp_class[c] = numbers[5];
        }
        Policy {
            own: (0..CELL_KEYS).map(|k| own_class[class(k)]).collect(),
            opp: (0..CELL_KEYS).map(|k| opp_class[class(k)]).collect(),
        }
    }

    /// The ordering key of `cell` for the side to move `me`.
    #[inline]
    pub(crate) fn score(&self, board: &Board, cell: Cell, me: Player) -> i32 {
        let patterns = board.patterns();
        self.own[patterns.key(cell, me)] + self.opp[patterns.key(cell, Mnk::opponent(me))]
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
        let mut w = vec![0.0f64; 2 * CLASSES];
        let (mut m, mut v) = (vec![0.0; 2 * CLASSES], vec![0.0; 2 * CLASSES]);
        let (lr, b1, b2, l2) = (0.05, 0.9, 0.999, 1e-5);
        let epochs: usize = std::env::var("POLICY_EPOCHS").map_or(400, |e| e.parse().unwrap());
        for epoch in 1..=epochs {
            let mut grad = vec![0.0; 2 * CLASSES];
            let mut loss = 0.0;
            for s in &train {
                let logits: Vec<f64> = (0..s.own.len())
                    .map(|i| w[usize::from(s.own[i])] + w[CLASSES + usize::from(s.opp[i])])
                    .collect();
                let top = logits.iter().cloned().fold(f64::MIN, f64::max);
                let z: f64 = logits.iter().map(|l| (l - top).exp()).sum();
                loss += z.ln() + top - logits[s.played];
                for i in 0..logits.len() {
                    let p = (logits[i] - top).exp() / z - f64::from(u8::from(i == s.played));
                    grad[usize::from(s.own[i])] += p;
                    grad[CLASSES + usize::from(s.opp[i])] += p;
                }
            }
            let n = train.len() as f64;
            for j in 0..2 * CLASSES {
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
        let learned = |s: &Sample| {
            (0..s.own.len())
                .map(|i| {
                    (scale * w[usize::from(s.own[i])]).round()
                        + (scale * w[CLASSES + usize::from(s.opp[i])]).round()
                })
                .collect::<Vec<_>>()
        };
        report("learned, train", &train, learned);
        report("learned, test", &test, learned);
        let sorted = &class_tables().1;
        let mut text = String::from("# p0 p1 p2 p3 own opp (weights x256)\n");
        for c in 0..CLASSES {
            let p = sorted[c];
            text += &format!(
                "{} {} {} {} {} {}\n",
                p[0],
                p[1],
                p[2],
                p[3],
                (scale * w[c]).round() as i32,
                (scale * w[CLASSES + c]).round() as i32
            );
        }
        std::fs::write(var("POLICY_OUT"), text).unwrap();
    }
}
