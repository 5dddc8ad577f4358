//! Progress of a run and an estimate of the time left that follows the schedule's costs.
//!
//! Games differ in cost by orders of magnitude (a random tic-tac-toe game takes microseconds,
//! a caro game between searchers seconds), and the schedule plays variant after variant, so
//! "games done per second so far" says little about the games still ahead. The estimate
//! instead prices every pairing's remaining games: at the time per game measured on that
//! pairing in this run; for a pairing not reached yet, at the thinking time its two agents
//! took per game on the same variant elsewhere (in this run or in rows already recorded) plus
//! the variant's measured overhead. A pairing with an agent never measured on its variant
//! cannot be priced: the estimate is then a lower bound and says which variants are unknown.
//! The sum is divided by the parallelism actually achieved (busy time over wall time).

use std::collections::{BTreeSet, HashMap};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use crate::experiment::Experiment;
use crate::record::Row;
use crate::schedule::{Schedule, ScheduledGame, Shard, shard_games_below};

/// How `run` shows progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A bar on a terminal, plain lines every few seconds otherwise.
    Auto,
    /// Nothing.
    Quiet,
}

/// Mean thinking time of an agent on a variant, gathered from rows.
#[derive(Clone, Copy, Debug, Default)]
struct Mean {
    games: u64,
    total_ns: f64,
}

impl Mean {
    fn add(&mut self, ns: f64) {
        self.games += 1;
        self.total_ns += ns;
    }

    fn get(&self) -> Option<f64> {
        (self.games > 0).then(|| self.total_ns / self.games as f64)
    }
}

/// One pairing's games still to play in this run and what those played cost.
#[derive(Clone, Debug)]
struct PairingCost {
    variant: usize,
    /// The group's agents (two, or three or four).
    agents: Vec<usize>,
    remaining: u64,
    wall: Mean,
}

/// The most pairings priced one by one; a schedule of more (thousands of agents) is priced
/// per variant instead, so that the estimate takes no memory per pairing.
const PRICED_PAIRINGS: u64 = 100_000;

/// The time-left estimate of a run.
#[derive(Clone, Debug)]
pub(crate) struct Estimate {
    /// Per pairing, or per variant when `coarse`.
    pairings: Vec<PairingCost>,
    /// Whether `pairings` holds one entry per variant (priced at the wall time per game
    /// measured on it in this run only).
    coarse: bool,
    /// `(variant, agent)`: thinking nanoseconds per game.
    thinking: HashMap<(usize, usize), Mean>,
    /// Per variant: wall time per game beyond the agents' thinking (setup, the rules, I/O).
    overhead: HashMap<usize, Mean>,
    /// Wall time of the games played in this run, summed over workers.
    busy_ns: f64,
    variant_names: Vec<String>,
    threads: usize,
}

/// What the estimate says.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Eta {
    /// Seconds for the games that could be priced.
    pub seconds: f64,
    /// Games that could not be priced, and the variants they belong to.
    pub unknown_games: u64,
    /// Those variants, in schedule order.
    pub unknown_variants: Vec<String>,
}

impl Eta {
    /// `ETA 1 min 20 s`; `ETA at least 20 s (not measured yet: 240 games of caro)` while some
    /// games cannot be priced, or `ETA unknown (...)` when the priced ones are under a second.
    pub fn text(&self) -> String {
        let time = duration_text(self.seconds);
        if self.unknown_games == 0 {
            return format!("ETA {time}");
        }
        let mut variants = self.unknown_variants.clone();
        if variants.len() > 3 {
            let more = variants.len() - 2;
            variants.truncate(2);
            variants.push(format!("{more} more variants"));
        }
        let unknown = format!(
            "not measured yet: {} games of {}",
            self.unknown_games,
            variants.join(", ")
        );
        if self.seconds < 1.0 {
            format!("ETA unknown ({unknown})")
        } else {
            format!("ETA at least {time} ({unknown})")
        }
    }
}

/// `45 s`, `3 min 05 s`, `2 h 07 min`.
pub(crate) fn duration_text(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{} h {:02} min", s / 3600, (s % 3600) / 60)
    }
}

impl Estimate {
    /// The estimate for playing `shard` of `schedule`, every game still to play; rows already
    /// recorded are then told with [`Estimate::recorded`].
    pub fn new(
        experiment: &Experiment,
        schedule: &Schedule,
        shard: Shard,
        threads: usize,
    ) -> Estimate {
        let remaining = |games: std::ops::Range<u64>| {
            // The shard's games below the end, less those below the start.
            shard_games_below(games.end, shard) - shard_games_below(games.start, shard)
        };
        let coarse = schedule.pairing_count() > PRICED_PAIRINGS;
        let pairings = if coarse {
            (0..experiment.variants.len())
                .map(|variant| PairingCost {
                    variant,
                    agents: Vec::new(),
                    remaining: remaining(schedule.variant_games(variant)),
                    wall: Mean::default(),
                })
                .collect()
        } else {
            schedule
                .pairings()
                .map(|p| PairingCost {
                    variant: p.variant,
                    agents: p.agents.to_vec(),
                    remaining: remaining(p.first_game..p.first_game + p.games),
                    wall: Mean::default(),
                })
                .collect()
        };
        Estimate {
            pairings,
            coarse,
            thinking: HashMap::new(),
            overhead: HashMap::new(),
            busy_ns: 0.0,
            variant_names: experiment.variants.iter().map(|v| v.to_string()).collect(),
            threads: threads.max(1),
        }
    }

    fn add_thinking(&mut self, game: &ScheduledGame, row: &Row) -> f64 {
        let times = [
            Some(row.first_ms),
            Some(row.second_ms),
            row.third_ms,
            row.fourth_ms,
        ];
        let mut sum = 0.0;
        for (&agent, ms) in game.seats.iter().zip(times) {
            let ns = ms.unwrap_or(0.0) * 1e6;
            self.thinking
                .entry((game.variant, agent))
                .or_default()
                .add(ns);
            sum += ns;
        }
        sum
    }

    /// A row of pairing `pairing` already recorded when the run started: one game fewer to
    /// play, and its agents' thinking times.
    pub fn recorded(&mut self, pairing: u64, game: &ScheduledGame, row: &Row) {
        let slot = self.slot(pairing, game);
        let p = &mut self.pairings[slot];
        p.remaining = p.remaining.saturating_sub(1);
        self.add_thinking(game, row);
    }

    /// A game of pairing `pairing` played in this run, taking `wall` on its worker.
    pub fn played(&mut self, pairing: u64, game: &ScheduledGame, row: &Row, wall: Duration) {
        let wall_ns = wall.as_secs_f64() * 1e9;
        let thinking = self.add_thinking(game, row);
        self.overhead
            .entry(game.variant)
            .or_default()
            .add((wall_ns - thinking).max(0.0));
        self.busy_ns += wall_ns;
        let slot = self.slot(pairing, game);
        let p = &mut self.pairings[slot];
        p.remaining = p.remaining.saturating_sub(1);
        p.wall.add(wall_ns);
    }

    /// The entry of pairing `pairing` (whose game `game` is).
    fn slot(&self, pairing: u64, game: &ScheduledGame) -> usize {
        if self.coarse {
            game.variant
        } else {
            pairing as usize
        }
    }

    /// The estimate after `elapsed` of this run.
    pub fn eta(&self, elapsed: Duration) -> Eta {
        let mut total_ns = 0.0;
        let mut unknown_games = 0;
        let mut unknown = BTreeSet::new();
        for p in self.pairings.iter().filter(|p| p.remaining > 0) {
            let per_game = p.wall.get().or_else(|| {
                if self.coarse {
                    return None;
                }
                let mut thinking = 0.0;
                for &agent in &p.agents {
                    thinking += self.thinking.get(&(p.variant, agent))?.get()?;
                }
                let overhead = self
                    .overhead
                    .get(&p.variant)
                    .and_then(Mean::get)
                    .unwrap_or(0.0);
                Some(thinking + overhead)
            });
            match per_game {
                Some(ns) => total_ns += ns * p.remaining as f64,
                None => {
                    unknown_games += p.remaining;
                    unknown.insert(p.variant);
                }
            }
        }
        // Workers run side by side: the parallelism achieved so far, at most one per thread.
        let wall_ns = elapsed.as_secs_f64() * 1e9;
        let parallel = if self.busy_ns > 0.0 && wall_ns > 0.0 {
            (self.busy_ns / wall_ns).clamp(1.0, self.threads as f64)
        } else {
            self.threads as f64
        };
        Eta {
            seconds: total_ns / parallel / 1e9,
            unknown_games,
            unknown_variants: unknown
                .into_iter()
                .map(|v| self.variant_names[v].clone())
                .collect(),
        }
    }
}

/// Tenths of `total` that `done` makes (without overflow for schedules near 2^63 games).
fn tenths(done: u64, total: u64) -> u64 {
    (u128::from(done) * 10 / u128::from(total.max(1))) as u64
}

/// The progress display: an indicatif bar on a terminal, plain lines otherwise.
pub(crate) struct ProgressDisplay {
    bar: Option<indicatif::ProgressBar>,
    plain: bool,
    total: u64,
    started: Instant,
    last_line: Instant,
    last_tenth: u64,
}

impl ProgressDisplay {
    pub fn new(mode: Progress, total: u64, done: u64) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let bar = (mode == Progress::Auto && terminal).then(|| {
            let bar = indicatif::ProgressBar::new(total);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}")
                    .expect("a valid template"),
            );
            bar.set_position(done);
            bar
        });
        ProgressDisplay {
            bar,
            plain: mode == Progress::Auto && !terminal,
            total,
            started: Instant::now(),
            last_line: Instant::now(),
            last_tenth: tenths(done, total),
        }
    }

    /// `done` games of `total` are recorded; `estimate` prices the rest.
    pub fn tick(&mut self, done: u64, estimate: &Estimate) {
        let now = Instant::now();
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            if now.duration_since(self.last_line) >= Duration::from_millis(500) {
                self.last_line = now;
                bar.set_message(estimate.eta(self.started.elapsed()).text());
            }
        } else if self.plain {
            let tenth = tenths(done, self.total);
            if tenth > self.last_tenth
                || now.duration_since(self.last_line) >= Duration::from_secs(5)
                || done == self.total
            {
                self.last_tenth = tenth;
                self.last_line = now;
                let elapsed = self.started.elapsed();
                let eta = if done == self.total {
                    "done".to_string()
                } else {
                    estimate.eta(elapsed).text()
                };
                eprintln!(
                    "progress: {done}/{} games ({:.0}%), {} elapsed, {eta}",
                    self.total,
                    100.0 * done as f64 / self.total.max(1) as f64,
                    duration_text(elapsed.as_secs_f64()),
                );
            }
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"
name = "eta"
seed = 1
games_per_pair = 10
variants = ["mnk-3x3k3", "oanquan"]

[[agents]]
name = "a"
spec = "random"

[[agents]]
name = "b"
spec = "random"

[[agents]]
name = "c"
spec = "random"
variants = ["oanquan"]
"#;

    fn row(first_ms: f64, second_ms: f64) -> Row {
        Row {
            experiment: "eta".into(),
            variant: String::new(),
            game: 0,
            seed: 0,
            first: String::new(),
            second: String::new(),
            result: "1-0".into(),
            termination: "win".into(),
            plies: 5,
            first_score: None,
            second_score: None,
            first_ms,
            second_ms,
            first_max_ms: 0.0,
            second_max_ms: 0.0,
            first_nodes: 0,
            second_nodes: 0,
            moves: String::new(),
            first_spec: String::new(),
            second_spec: String::new(),
            ..Row::default()
        }
    }

    #[test]
    fn unreached_pairings_are_priced_from_their_agents_or_named_unknown() {
        let experiment = Experiment::from_toml(TEXT, "eta.toml").unwrap();
        let schedule = Schedule::new(&experiment);
        // Pairings: tic-tac-toe a-b (games 0-9), O An Quan a-b, a-c, b-c (10-39).
        assert_eq!(schedule.pairings().len(), 4);
        let mut estimate = Estimate::new(&experiment, &schedule, Shard::WHOLE, 1);
        let eta = estimate.eta(Duration::ZERO);
        assert_eq!(eta.unknown_games, 40);
        assert_eq!(eta.unknown_variants, ["mnk-3x3k3", "oanquan"]);
        assert_eq!(
            eta.text(),
            "ETA unknown (not measured yet: 40 games of mnk-3x3k3, oanquan)"
        );

        // Two tic-tac-toe games at 10 ms of wall each (4 ms of thinking).
        for index in 0..2 {
            let game = schedule.game(index);
            estimate.played(0, &game, &row(2.0, 2.0), Duration::from_millis(10));
        }
        let eta = estimate.eta(Duration::from_millis(20));
        // 8 more tic-tac-toe games at 10 ms; O An Quan unknown.
        assert!((eta.seconds - 0.080).abs() < 1e-9, "{eta:?}");
        assert_eq!(eta.unknown_games, 30);

        // An O An Quan game of a-b: 100 ms of wall, a thinks 60 ms, b 30 ms.
        let game = schedule.game(10);
        estimate.played(1, &game, &row(60.0, 30.0), Duration::from_millis(100));
        let eta = estimate.eta(Duration::from_millis(120));
        // a-b: 9 games at 100 ms; a-c and b-c: c never measured, so 20 games unknown.
        assert!((eta.seconds - (0.080 + 0.900)).abs() < 1e-9, "{eta:?}");
        assert_eq!(eta.unknown_games, 20);
        assert_eq!(eta.unknown_variants, ["oanquan"]);
        // 0.98 s priced: under a second, so the estimate does not pretend to know.
        assert_eq!(
            eta.text(),
            "ETA unknown (not measured yet: 20 games of oanquan)"
        );

        // A row of a-c recorded before the run (a 20 ms, c 20 ms) prices a-c and b-c from
        // their agents: a 40 ms per game (60 and 20), b 30, c 20, and 10 ms of overhead; a-c
        // has one game fewer to play.
        let game = schedule.game(20);
        assert_eq!((game.first, game.second), (0, 2));
        estimate.recorded(2, &game, &row(20.0, 20.0));
        let eta = estimate.eta(Duration::from_millis(120));
        assert_eq!(eta.unknown_games, 0);
        let a_c = 9.0 * (40.0 + 20.0 + 10.0);
        let b_c = 10.0 * (30.0 + 20.0 + 10.0);
        let expected = 0.080 + 0.900 + (a_c + b_c) / 1e3;
        assert!(
            (eta.seconds - expected).abs() < 1e-6,
            "{eta:?} vs {expected}"
        );
        assert_eq!(eta.text(), format!("ETA {}", duration_text(expected)));
    }

    #[test]
    fn two_busy_workers_halve_the_estimate() {
        let experiment = Experiment::from_toml(TEXT, "eta.toml").unwrap();
        let schedule = Schedule::new(&experiment);
        let mut estimate = Estimate::new(&experiment, &schedule, Shard::WHOLE, 2);
        for index in 0..4 {
            let game = schedule.game(index);
            estimate.played(0, &game, &row(1.0, 1.0), Duration::from_millis(10));
        }
        // 40 ms of games in 20 ms of wall: two at a time. 6 games left at 10 ms: 30 ms.
        let eta = estimate.eta(Duration::from_millis(20));
        assert!((eta.seconds - 0.030).abs() < 1e-9, "{eta:?}");
    }

    #[test]
    fn games_already_recorded_are_not_counted_again() {
        let experiment = Experiment::from_toml(TEXT, "eta.toml").unwrap();
        let schedule = Schedule::new(&experiment);
        let left = |estimate: &Estimate| -> Vec<u64> {
            estimate.pairings.iter().map(|p| p.remaining).collect()
        };
        let mut estimate = Estimate::new(&experiment, &schedule, Shard::WHOLE, 1);
        for index in 0..15 {
            let game = schedule.game(index);
            estimate.recorded(schedule.pairing_of(index), &game, &row(1.0, 1.0));
        }
        assert_eq!(left(&estimate), [0, 5, 10, 10]);
        // Shard 1 of 3 holds games 1, 4, 7 (tic-tac-toe), 10, 13, 16, 19, then 22, 25, 28 and
        // 31, 34, 37.
        let shard = Shard { index: 1, count: 3 };
        let mut estimate = Estimate::new(&experiment, &schedule, shard, 1);
        assert_eq!(left(&estimate), [3, 4, 3, 3]);
        for index in [1, 4] {
            let game = schedule.game(index);
            estimate.recorded(0, &game, &row(1.0, 1.0));
        }
        assert_eq!(left(&estimate), [1, 4, 3, 3]);
    }

    #[test]
    fn tenths_do_not_overflow() {
        assert_eq!(tenths(5, 10), 5);
        assert_eq!(tenths(i64::MAX as u64, i64::MAX as u64), 10);
        assert_eq!(tenths(0, 0), 0);
    }

    #[test]
    fn an_estimate_with_unmeasured_games_is_a_lower_bound_naming_them() {
        let eta = Eta {
            seconds: 8.2,
            unknown_games: 300,
            unknown_variants: vec!["a".into(), "b".into(), "c".into(), "d".into()],
        };
        assert_eq!(
            eta.text(),
            "ETA at least 8 s (not measured yet: 300 games of a, b, 2 more variants)"
        );
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration_text(4.4), "4 s");
        assert_eq!(duration_text(185.0), "3 min 05 s");
        assert_eq!(duration_text(7620.0), "2 h 07 min");
    }
}
