//! Flat Monte Carlo (seed 003): every candidate move is played, then `rollouts` random games
//! are played from there; its score is wins minus losses for the mover, and the best score is
//! played (ties at random).
//!
//! - `mc-flat` (algo1): every legal move, uniformly random playouts; every game.
//! - `mc-near` (algo2): only the empty cells next to a stone, in the candidates and in the
//!   playouts; m,n,k only.
//! - `mc-par` (algo3): `mc-near` with the candidates scored in parallel (rayon).
//!
//! A deadline in the context stops every candidate's playouts early; candidates are then
//! compared by their mean score.
//!
//! A candidate's playouts are split into chunks (of 250 playouts, or 16 chunks for budgets over
//! 4,000), the tasks `mc-par` shares out. Each chunk draws from its own generator, seeded from
//! one number drawn from the agent's RNG, the candidate's place in the list and the chunk's,
//! so which thread plays a chunk changes nothing: `mc-par` plays exactly the move `mc-near`
//! plays for the same seed.

use std::time::Instant;

use rand::{Rng, RngExt};
use rayon::prelude::*;
use rules::Player;

use crate::playout::{self, PLAYOUT_PLY_CAP, Rollout, stream_rng};
use crate::spec::bad_value;
use crate::{Agent, AgentError, AgentGame, Choice, Context, Kind, ParamDoc, Params, Plays};
use crate::{SearchStats, SpecError};

const ROLLOUTS: ParamDoc = ParamDoc {
    name: "rollouts",
    default: "1000",
    doc: "random playouts per candidate move",
};

/// What `mc-flat` and `mc-near` take in memory.
const PLAYOUT_MEMORY: &str = "one position per playout, reused: under 64 KiB whatever the rollouts";

pub(crate) const FLAT_KIND: Kind = Kind {
    name: "mc-flat",
    summary: "flat Monte Carlo: random playouts after every legal move, best wins minus losses \
              (algo1 of the TD4 exercise)",
    plays: Plays::Every,
    params: &[ROLLOUTS],
    multiplayer: true,
    listed: true,
    memory: Some(|| PLAYOUT_MEMORY.to_string()),
};

pub(crate) const NEAR_KIND: Kind = Kind {
    name: "mc-near",
    summary: "flat Monte Carlo on the empty cells next to a stone, in the candidates and the \
              playouts (algo2 of the TD4 exercise)",
    plays: Plays::Only(&rules::mnk::FAMILY),
    params: &[ROLLOUTS],
    multiplayer: false,
    listed: true,
    memory: Some(|| PLAYOUT_MEMORY.to_string()),
};

pub(crate) const PAR_KIND: Kind = Kind {
    name: "mc-par",
    summary: "mc-near with the candidates scored in parallel; the same move as mc-near for the \
              same seed (algo3 of the TD4 exercise)",
    plays: Plays::Only(&rules::mnk::FAMILY),
    params: &[
        ROLLOUTS,
        ParamDoc {
            name: "threads",
            default: "0",
            doc: "worker threads (0 = rayon's pool, every core)",
        },
    ],
    multiplayer: false,
    listed: true,
    memory: Some(|| "one position per worker thread: under 64 KiB a thread".to_string()),
};

/// How a flat Monte Carlo agent scores its candidates in parallel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Parallelism {
    /// One candidate after the other on the calling thread.
    #[default]
    Sequential,
    /// In rayon's global pool (every core).
    AllCores,
    /// In a pool of its own with this many threads, built on the first search.
    Threads(usize),
}

/// The settings of [`FlatMc`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatMcConfig {
    /// Random playouts per candidate (at least 1). Default 1,000.
    pub rollouts: u32,
    /// Only the `near` candidates and playouts of `mc-near` (m,n,k). Default false.
    pub near: bool,
    /// How the candidates are scored. Default [`Parallelism::Sequential`].
    pub parallelism: Parallelism,
}

impl Default for FlatMcConfig {
    fn default() -> Self {
        FlatMcConfig {
            rollouts: 1000,
            near: false,
            parallelism: Parallelism::Sequential,
        }
    }
}

impl FlatMcConfig {
    /// The same settings with another number of playouts per candidate.
    pub fn with_rollouts(mut self, rollouts: u32) -> Self {
        self.rollouts = rollouts;
        self
    }

    /// The same settings with (`true`) or without the `near` restriction.
    pub fn with_near(mut self, near: bool) -> Self {
        self.near = near;
        self
    }

    /// The same settings with another parallelism.
    pub fn with_parallelism(mut self, parallelism: Parallelism) -> Self {
        self.parallelism = parallelism;
        self
    }
}

/// A flat Monte Carlo agent: `mc-flat`, `mc-near` or `mc-par` depending on its settings.
pub struct FlatMc {
    config: FlatMcConfig,
    pool: Option<rayon::ThreadPool>,
}

impl FlatMc {
    /// A flat Monte Carlo agent; refuses zero playouts or more than 1024 threads. The `near`
    /// restriction is only meaningful for m,n,k games: elsewhere every legal move is a candidate.
    pub fn new(config: FlatMcConfig) -> Result<Self, SpecError> {
        let kind = match (config.near, config.parallelism) {
            (false, _) => FLAT_KIND.name,
            (true, Parallelism::Sequential) => NEAR_KIND.name,
            (true, _) => PAR_KIND.name,
        };
        if config.rollouts == 0 {
            return Err(bad_value(kind, "rollouts", 0, "a positive integer"));
        }
        if let Parallelism::Threads(threads) = config.parallelism
            && !(1..=1024).contains(&threads)
        {
            return Err(bad_value(
                kind,
                "threads",
                threads,
                "0 (every core) or 1 to 1024",
            ));
        }
        Ok(FlatMc { config, pool: None })
    }

    pub(crate) fn from_params(kind: &Kind, params: &Params<'_>) -> Result<Self, SpecError> {
        let rollouts = params.u64("rollouts", 1000, 1..=100_000_000)? as u32;
        let (near, parallelism) = match kind.name {
            "mc-near" => (true, Parallelism::Sequential),
            "mc-par" => match params.u64("threads", 0, 0..=1024)? {
                0 => (true, Parallelism::AllCores),
                threads => (true, Parallelism::Threads(threads as usize)),
            },
            _ => (false, Parallelism::Sequential),
        };
        FlatMc::new(
            FlatMcConfig::default()
                .with_rollouts(rollouts)
                .with_near(near)
                .with_parallelism(parallelism),
        )
    }
}

/// Wins minus losses of one candidate, over this many playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tally {
    score: i64,
    playouts: i64,
}

impl Tally {
    /// Compares mean scores exactly (no rounding, so equal tallies tie as equal sums do).
    fn cmp_mean(&self, other: &Tally) -> std::cmp::Ordering {
        (i128::from(self.score) * i128::from(other.playouts.max(1)))
            .cmp(&(i128::from(other.score) * i128::from(self.playouts.max(1))))
    }
}

/// How many playouts a candidate plays between looks at the clock.
const CLOCK_EVERY: u32 = 64;

/// Playouts per task, at least. A candidate's playouts are split into chunks, each a task with
/// a random stream of its own, so that the cores share out a few candidates of unequal cost
/// evenly (12 candidates on 16 cores would leave 4 idle, and on 2 cores the last, longest
/// candidate would run alone).
const CHUNK: u32 = 250;

/// Chunks per candidate, at most: a huge budget makes longer chunks, not a huge task list.
const MAX_CHUNKS: u32 = 16;

/// The playouts of each chunk (the last may have fewer) at `rollouts` per candidate.
fn chunk_size(rollouts: u32) -> u32 {
    CHUNK.max(rollouts.div_ceil(MAX_CHUNKS))
}

/// One task: chunk `chunk` of the candidate `index` among the candidates.
#[derive(Clone, Copy, Debug)]
struct Task {
    index: usize,
    chunk: u32,
}

/// The tasks of `candidates` candidates at `rollouts` playouts each, candidate by candidate.
fn tasks(candidates: usize, rollouts: u32) -> Vec<Task> {
    let chunks = rollouts.div_ceil(chunk_size(rollouts));
    (0..candidates)
        .flat_map(|index| (0..chunks).map(move |chunk| Task { index, chunk }))
        .collect()
}

/// The tally of one task: wins minus losses of `me` over its playouts after `mv` (chunk
/// `task.chunk` of the candidate's `rollouts`), drawing from its own stream of `seed`; fewer if
/// `deadline` passes. Chunk 0 draws from stream `index`, as the whole candidate did before
/// candidates were split.
fn score_chunk<G: AgentGame>(
    position: &G,
    mv: G::Move,
    me: Player,
    config: &FlatMcConfig,
    seed: u64,
    task: Task,
    deadline: Option<Instant>,
) -> Tally {
    let size = chunk_size(config.rollouts);
    let first = task.chunk * size;
    let count = size.min(config.rollouts - first);
    let child = position.child(mv);
    if let Some(outcome) = child.outcome() {
        // Every playout would end the same way at once.
        return Tally {
            score: i64::from(playout::reward(outcome, me)) * i64::from(count),
            playouts: i64::from(count),
        };
    }
    let policy = if config.near {
        Rollout::Near
    } else {
        Rollout::Random
    };
    let mut rng = stream_rng(seed, task.index as u64 | u64::from(task.chunk) << 32);
    let mut tally = Tally {
        score: 0,
        playouts: 0,
    };
    for done in 0..count {
        // Every candidate gets one playout (the first of chunk 0); after the deadline, no more.
        let played = first + done;
        if played > 0
            && (done <= 1 || done % CLOCK_EVERY == 0)
            && deadline.is_some_and(|deadline| Instant::now() >= deadline)
        {
            break;
        }
        let mut game = child.clone();
        let outcome = game.playout(policy, &mut rng, PLAYOUT_PLY_CAP);
        tally.score += i64::from(playout::reward(outcome, me));
        tally.playouts += 1;
    }
    tally
}

impl<G: AgentGame> Agent<G> for FlatMc {
    fn choose(
        &mut self,
        position: &G,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<G::Move>, AgentError> {
        let mut candidates = Vec::new();
        if self.config.near {
            position.near_moves(&mut candidates);
        } else {
            let mut moves = rules::MoveList::new();
            position.legal_moves(&mut moves);
            candidates.extend(moves);
        }
        if candidates.is_empty() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        let me = position.side_to_move();
        let seed = ctx.rng.next_u64();
        let config = self.config;
        let deadline = ctx.deadline;
        let tasks = tasks(candidates.len(), config.rollouts);
        let score = |&task: &Task| {
            let mv = candidates[task.index];
            score_chunk(position, mv, me, &config, seed, task, deadline)
        };
        let chunks: Vec<Tally> = match config.parallelism {
            Parallelism::Sequential => tasks.iter().map(score).collect(),
            Parallelism::AllCores => tasks.par_iter().map(score).collect(),
            Parallelism::Threads(threads) => {
                if self.pool.is_none() {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .map_err(|e| AgentError::Crash(format!("no thread pool: {e}")))?;
                    self.pool = Some(pool);
                }
                let pool = self.pool.as_ref().expect("built above");
                pool.install(|| tasks.par_iter().map(score).collect())
            }
        };
        let mut tallies = vec![
            Tally {
                score: 0,
                playouts: 0
            };
            candidates.len()
        ];
        for (task, chunk) in tasks.iter().zip(chunks) {
            tallies[task.index].score += chunk.score;
            tallies[task.index].playouts += chunk.playouts;
        }
        // With every playout played (no deadline) the mean order is the order of the sums.
        let best = tallies
            .iter()
            .copied()
            .max_by(|a, b| a.cmp_mean(b))
            .ok_or_else(|| AgentError::Crash("no candidate".into()))?;
        let ties: Vec<usize> = (0..tallies.len())
            .filter(|&i| tallies[i].cmp_mean(&best).is_eq())
            .collect();
        let pick = if ties.len() > 1 {
            ties[ctx.rng.random_range(0..ties.len())]
        } else {
            ties[0]
        };
        let chosen = tallies[pick];
        let playouts: i64 = tallies.iter().map(|t| t.playouts).sum();
        Ok(Choice {
            mv: candidates[pick],
            stats: SearchStats {
                nodes: playouts as u64,
                depth: Some(1),
                score: Some(chosen.score as f64 / chosen.playouts.max(1) as f64),
                reason: Some(format!(
                    "best of {} candidates: wins - losses = {} of {} playouts",
                    candidates.len(),
                    chosen.score,
                    chosen.playouts
                )),
            },
            pv: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_cover_every_playout_of_every_candidate_once() {
        let cases = [
            (1, 1),
            (3, 250),
            (12, 1000),
            (5, 1001),
            (2, 100),
            (223, 100_000_000),
        ];
        for (candidates, rollouts) in cases {
            let tasks = tasks(candidates, rollouts);
            let size = chunk_size(rollouts);
            assert!(tasks.len() <= candidates * MAX_CHUNKS as usize);
            for index in 0..candidates {
                let playouts: u64 = tasks
                    .iter()
                    .filter(|task| task.index == index)
                    .map(|task| u64::from(size.min(rollouts - task.chunk * size)))
                    .sum();
                assert_eq!(playouts, u64::from(rollouts), "{candidates} x {rollouts}");
            }
        }
    }
}
