//! `threat`: the strong m,n,k agent. Line patterns ([`crate::pattern`]), threat-space search
//! ([`crate::threats`]) and a pattern alpha-beta (`pattern_search.rs`).
//!
//! Every move, in this order:
//! 1. a win at once;
//! 2. the opponent's immediate wins: the only stopping cell is played at once (several stopping
//!    cells, as caro can have, become the only root moves);
//! 3. a VCF (victory by continuous fours) of its own: its first move;
//! 4. the opponent's VCF, as if the opponent moved now: only the moves after which the
//!    opponent has none (among the cells of its line and our own fours) stay root moves;
//! 5. a VCT (fours and open threes) of its own, when `vct` is on: its first move;
//! 6. otherwise the main search over the root moves until the budget ends: the pattern
//!    alpha-beta (`search=ab`, the default; VCF probes at its nodes for the side to move and
//!    for the defender, see `pattern_search.rs`), or MCTS with pattern priors and playouts
//!    (`search=mcts`), which measured weaker (see the book's strength page).
//!
//! Under a game clock a quiet move stops at the arena's deadline and a sharp one (see
//! [`sharp`]) may go on to [`MoveTimes::hard`].
//!
//! With a node budget (the default) the agent is reproducible; with `time_ms` it is not. With
//! `search=ab` it draws nothing from its RNG: the position decides the move.

use std::time::{Duration, Instant};

use rules::mnk::CellSet;
use rules::{Cell, Game, Mnk, MoveList, TwoPlayer};

use crate::pattern_mcts::PatternMcts;
use crate::pattern_search::PatternSearch;
use crate::playout::PlayoutRng;
use crate::score::{self, MATE};
use crate::spec::bad_value;
use crate::threats::{Board, ThreatLimits, ThreatResult, ThreatSearch};
use crate::tt::Table;
use crate::{Agent, AgentError, Choice, Context, Kind, ParamDoc, Params, Plays};
use crate::{SearchStats, SpecError};
use rand::SeedableRng;

pub(crate) const KIND: Kind = Kind {
    name: "threat",
    summary: "line patterns, VCF/VCT threat-space search and a pattern alpha-beta: plays a \
              forced win when it finds one, stops the opponent's VCF before anything else",
    plays: Plays::Only(&rules::mnk::FAMILY),
    params: &[
        ParamDoc {
            name: "nodes",
            default: "auto",
            doc: "node budget per move, threat searches included (reproducible); auto = 200000 \
                  unless depth or time_ms is given, then none",
        },
        ParamDoc {
            name: "time_ms",
            default: "0",
            doc: "time budget per move in milliseconds (0 = none); given alone it is the whole \
                  budget, with depth or nodes whichever ends first; not reproducible",
        },
        ParamDoc {
            name: "depth",
            default: "64",
            doc: "deepest alpha-beta iteration, in plies (1-64)",
        },
        ParamDoc {
            name: "vct",
            default: "true",
            doc: "search for a win by fours and open threes (VCT) before the alpha-beta",
        },
        ParamDoc {
            name: "tt_mb",
            default: "32",
            doc: "transposition table size in MiB (1-65536, and at most the machine's memory), \
                  allocated on the first search",
        },
        ParamDoc {
            name: "search",
            default: "ab",
            doc: "the main search: ab (pattern alpha-beta) or mcts (MCTS with pattern priors \
                  and playouts; a simulation counts as 10 nodes)",
        },
    ],
    // Two players only: the patterns and threats are those of one side against the other.
    multiplayer: false,
    listed: true,
};

/// A table the allocator refused, named as this kind's (the table's error says `alphabeta`).
fn table_error(mut error: crate::memory::OutOfMemory) -> AgentError {
    error.kind = KIND.name;
    AgentError::Crash(error.to_string())
}

/// The node budget when no depth, node or time budget is given.
pub const DEFAULT_NODES: u64 = 200_000;

/// The deepest VCF the agent looks for, in fours (a VCF of 15 plies has 7).
pub const VCF_DEPTH: u32 = 20;

/// The deepest VCT, in its own moves.
pub const VCT_DEPTH: u32 = 8;

/// Nodes a simulation of `search=mcts` counts for in the node budget.
const SIMULATION_NODES: u64 = 10;

/// Under a game clock, the moves a sharp move spreads what is left over (the arena's plan
/// spreads it over [`crate::clock::MOVES_TO_GO`], 30): a sharp move may take three times the
/// planned share, never past the move's limit less the safety share.
pub const SHARP_MOVES_TO_GO: u32 = 10;

/// A fall of the alpha-beta's value from one iteration to the next that makes a move sharp
/// (in the patterns' units: about an open three).
const SHARP_DROP: i32 = 300;

/// When the search of one move should stop: `soft` in a quiet position (the arena's plan),
/// `hard` at the latest, in a sharp one. Without a game clock they are the same deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTimes {
    /// Where a quiet move stops (and what the threat searches share out).
    pub soft: Option<Instant>,
    /// Where a sharp move stops.
    pub hard: Option<Instant>,
}

impl MoveTimes {
    /// The deadlines of a move started at `started`, from the arena's deadline and the
    /// move's limit and clock ([`Context`]) and the agent's own `time_ms` (`own`).
    pub fn plan(
        started: Instant,
        deadline: Option<Instant>,
        move_time: Option<Duration>,
        clock: Option<&crate::clock::ClockState>,
        own: Option<Duration>,
    ) -> MoveTimes {
        let own = own.map(|t| started + t);
        let earliest = |a: Option<Instant>, b: Option<Instant>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let soft = earliest(deadline, own);
        let hard = match (clock, soft) {
            (Some(_), Some(soft)) => crate::clock::plan_with(
                started,
                move_time,
                clock,
                SHARP_MOVES_TO_GO,
                crate::clock::SAFETY_SHARE,
            )
            .map(|sharp| earliest(Some(sharp.max(soft)), own).expect("a deadline")),
            _ => soft,
        };
        MoveTimes { soft, hard }
    }
}

/// Whether a move is sharp and may use its hard deadline: it defends against the opponent's
/// VCF or immediate win, or the last iteration changed the best move or let its value fall
/// by [`SHARP_DROP`] or more.
pub fn sharp(defending: bool, changed: bool, before: i32, now: i32) -> bool {
    defending || changed || now <= before.saturating_sub(SHARP_DROP)
}

/// The settings of [`ThreatAgent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatConfig {
    /// The node budget per move, if any.
    pub nodes: Option<u64>,
    /// The time budget per move, if any.
    pub time: Option<Duration>,
    /// The deepest alpha-beta iteration.
    pub depth: u32,
    /// Whether to look for a VCT.
    pub vct: bool,
    /// The table size in MiB.
    pub tt_mb: usize,
    /// The main search after the threat searches.
    pub search: MainSearch,
}

/// The `threat` agent's main search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MainSearch {
    /// The pattern alpha-beta (`pattern_search.rs`).
    AlphaBeta,
    /// MCTS with pattern priors and playouts (`pattern_mcts.rs`).
    Mcts,
}

impl Default for ThreatConfig {
    fn default() -> Self {
        ThreatConfig {
            nodes: Some(DEFAULT_NODES),
            time: None,
            depth: 64,
            vct: true,
            tt_mb: 32,
            search: MainSearch::AlphaBeta,
        }
    }
}

/// The `threat` agent.
pub struct ThreatAgent {
    config: ThreatConfig,
    table: Option<Table>,
}

impl ThreatAgent {
    /// A `threat` agent; refuses an empty budget or table, or a depth outside 1 to 64.
    pub fn new(config: ThreatConfig) -> Result<Self, SpecError> {
        if !(1..=64).contains(&config.depth) {
            return Err(bad_value(
                KIND.name,
                "depth",
                config.depth,
                "an integer from 1 to 64",
            ));
        }
        if config.nodes == Some(0) {
            return Err(bad_value(KIND.name, "nodes", 0, "a positive node budget"));
        }
        if config.time.is_some_and(|t| t.is_zero()) {
            return Err(bad_value(KIND.name, "time_ms", 0, "a positive time"));
        }
        if !(1..=65536).contains(&config.tt_mb) {
            return Err(bad_value(
                KIND.name,
                "tt_mb",
                config.tt_mb,
                "an integer from 1 to 65536",
            ));
        }
        Ok(ThreatAgent {
            config,
            table: None,
        })
    }

    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let depth = params.u64("depth", 64, 1..=64)?;
        let time_ms = params.u64("time_ms", 0, 0..=86_400_000)?;
        let explicit = params.text("depth").is_some() || time_ms > 0;
        let nodes = params
            .u64_or_auto("nodes", 1..=u64::MAX)?
            .or((!explicit).then_some(DEFAULT_NODES));
        ThreatAgent::new(ThreatConfig {
            nodes,
            time: (time_ms > 0).then(|| Duration::from_millis(time_ms)),
            depth: depth as u32,
            vct: params.bool("vct", true)?,
            tt_mb: {
                let tt_mb = params.u64("tt_mb", 32, 1..=65536)?;
                crate::memory::check_fits(KIND.name, "tt_mb", tt_mb)?;
                tt_mb as usize
            },
            search: match params.choice("search", "ab", &["ab", "mcts"])? {
                "mcts" => MainSearch::Mcts,
                _ => MainSearch::AlphaBeta,
            },
        })
    }
}

/// The budget of one move, shared out among the searches.
struct Budget {
    nodes: Option<u64>,
    deadline: Option<Instant>,
    used: u64,
}

impl Budget {
    /// Limits for a threat search that may take `share` of what is left.
    fn threat_limits(&self, share: f64, depth: u32) -> ThreatLimits {
        let nodes = self
            .nodes
            .map_or(u64::MAX, |n| {
                ((n.saturating_sub(self.used)) as f64 * share) as u64
            })
            .max(1);
        let deadline = self.deadline.map(|d| {
            let left = d.saturating_duration_since(Instant::now());
            Instant::now() + left.mul_f64(share)
        });
        ThreatLimits {
            depth,
            nodes,
            deadline,
        }
    }

    fn nodes_left(&self) -> u64 {
        self.nodes
            .map_or(u64::MAX, |n| n.saturating_sub(self.used).max(1))
    }
}

fn choice(
    cell: Cell,
    nodes: u64,
    score: Option<f64>,
    depth: Option<u32>,
    reason: String,
) -> Choice<Cell> {
    Choice {
        mv: cell,
        stats: SearchStats {
            nodes,
            depth,
            score,
            reason: Some(reason),
        },
    }
}

/// Plies of a threat line as words.
fn plies(line: &[Cell]) -> String {
    let n = line.len();
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

impl Agent<Mnk> for ThreatAgent {
    fn choose(
        &mut self,
        position: &Mnk,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<Cell>, AgentError> {
        let started = Instant::now();
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        if legal.is_empty() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        if legal.len() == 1 {
            return Ok(choice(legal[0], 1, None, None, "only move".into()));
        }
        let times = MoveTimes::plan(
            started,
            ctx.deadline,
            ctx.move_time,
            ctx.clock.as_ref(),
            self.config.time,
        );
        let mut budget = Budget {
            nodes: self.config.nodes,
            deadline: times.soft,
            used: 0,
        };
        let mut board = Board::new(position);
        let me = board.to_move();
        let them = Mnk::opponent(me);
        let legal_set = {
            let mut set = CellSet::EMPTY;
            for &cell in &legal {
                set.insert(cell);
            }
            set
        };

        // 1. A win at once.
        if let Some(cell) = board.wins(me).and(&legal_set).iter().next() {
            return Ok(choice(
                cell,
                1,
                Some(f64::from(MATE - 1)),
                Some(1),
                "win now".into(),
            ));
        }
        // 2. The opponent's immediate wins.
        let mut restrict: Option<CellSet> = None;
        let their_wins = board.wins(them);
        if !their_wins.is_empty() {
            let defences = board.defences(&their_wins).and(&legal_set);
            match defences.len() {
                0 => {
                    let cell = their_wins.and(&legal_set).iter().next().unwrap_or(legal[0]);
                    return Ok(choice(
                        cell,
                        1,
                        Some(-f64::from(MATE - 2)),
                        Some(2),
                        "lost: the opponent wins next move whatever is played".into(),
                    ));
                }
                1 => {
                    let cell = defences.iter().next().expect("one defence");
                    return Ok(choice(
                        cell,
                        1,
                        None,
                        None,
                        "block: the only move that stops a win".into(),
                    ));
                }
                _ => restrict = Some(defences),
            }
        }
        // 3. Our VCF.
        let mut threat = ThreatSearch::new(budget.threat_limits(0.15, VCF_DEPTH));
        let result = threat.vcf(&mut board);
        budget.used += threat.nodes;
        if let ThreatResult::Win(line) = result
            && let Some(&first) = line.first()
            && legal_set.contains(first)
        {
            return Ok(choice(
                first,
                budget.used,
                Some(f64::from(MATE - line.len() as i32)),
                None,
                format!("VCF: a win by fours in {}", plies(&line)),
            ));
        }
        // 4. The opponent's VCF, as if we passed.
        let mut defending = false;
        if restrict.is_none() {
            board.pass();
            let mut threat = ThreatSearch::new(budget.threat_limits(0.1, VCF_DEPTH));
            let result = threat.vcf(&mut board);
            board.pass();
            budget.used += threat.nodes;
            if let ThreatResult::Win(line) = result {
                let mut candidates = board.patterns().sets(me).four;
                for &cell in &line {
                    candidates.insert(cell);
                }
                let candidates = candidates.and(&legal_set);
                let mut safe = CellSet::EMPTY;
                for cell in candidates.iter() {
                    board.play(cell);
                    let mut check = ThreatSearch::new(budget.threat_limits(0.05, VCF_DEPTH));
                    let answer = check.vcf(&mut board);
                    board.undo();
                    budget.used += check.nodes;
                    if !answer.is_win() {
                        safe.insert(cell);
                    }
                }
                if !safe.is_empty() {
                    restrict = Some(safe);
                    defending = true;
                }
            }
        }
        // 5. Our VCT.
        if self.config.vct {
            let mut threat = ThreatSearch::new(budget.threat_limits(0.2, VCT_DEPTH));
            let result = threat.vct(&mut board);
            budget.used += threat.nodes;
            if let ThreatResult::Win(line) = result
                && let Some(&first) = line.first()
                && legal_set.contains(first)
                && restrict.is_none_or(|set| set.contains(first))
            {
                return Ok(choice(
                    first,
                    budget.used,
                    None,
                    None,
                    format!("VCT: a win by threats in {}", plies(&line)),
                ));
            }
        }
        // 6. The main search.
        if self.config.search == MainSearch::Mcts {
            let mut moves: Vec<Cell> = {
                let table = self.table.get_or_insert_with(|| Table::new(1));
                table.new_search().map_err(table_error)?;
                let search = PatternSearch::new(board.clone(), table, 1, None);
                let within = restrict.map(|set| set.and(&legal_set));
                search.root_moves(within.as_ref())
            };
            moves.retain(|cell| legal_set.contains(*cell));
            if moves.is_empty() {
                moves = legal.iter().copied().collect();
            }
            let mut rng = PlayoutRng::from_rng(ctx.rng);
            let simulations = budget.nodes_left() / SIMULATION_NODES;
            let mut mcts = PatternMcts::new();
            let (mv, value) = mcts.search(
                &mut board,
                &moves,
                simulations.max(1),
                budget.deadline,
                &mut rng,
            );
            let mut reason = format!(
                "most visited of {} moves, {} simulations",
                moves.len(),
                mcts.simulations
            );
            if defending {
                reason = format!("stops the opponent's VCF; {reason}");
            }
            return Ok(choice(
                mv,
                budget.used + mcts.simulations * SIMULATION_NODES,
                Some(f64::from(value)),
                Some(mcts.depth),
                reason,
            ));
        }
        let tt_mb = self.config.tt_mb;
        let table = self.table.get_or_insert_with(|| Table::new(tt_mb));
        table.new_search().map_err(table_error)?;
        // Under a game clock a sharp move may run to the hard deadline: one that defends from
        // the start, or, after an iteration, one whose best move or value moved.
        let defends = defending || restrict.is_some();
        let deadline = if defends { times.hard } else { times.soft };
        let mut search = PatternSearch::new(board, table, budget.nodes_left(), deadline);
        let within = restrict.map(|set| set.and(&legal_set));
        let mut moves = search.root_moves(within.as_ref());
        moves.retain(|cell| legal_set.contains(*cell));
        if moves.is_empty() {
            moves = legal.iter().copied().collect();
        }
        let mut result = (moves[0], 0, 0);
        for depth in 1..=self.config.depth {
            let before = result;
            match search.root(&mut moves, depth as i32) {
                Some(value) => result = (moves[0], value, depth),
                None => break,
            }
            if search.aborted {
                break;
            }
            if depth > 1 && sharp(defends, result.0 != before.0, before.1, result.1) {
                search.deadline = times.hard;
            } else {
                search.deadline = times.soft;
                if times.soft.is_some_and(|soft| Instant::now() >= soft) {
                    break;
                }
            }
            if score::mate_distance(result.1).is_some_and(|p| p <= depth) {
                break;
            }
            if moves.len() == 1 && depth >= 2 {
                break;
            }
        }
        let (mv, value, depth) = result;
        let nodes = budget.used + search.nodes;
        let mut reason = match score::describe(value) {
            Some(words) => words,
            None => format!("best of {} moves at depth {depth}", moves.len()),
        };
        if defending {
            reason = format!("stops the opponent's VCF; {reason}");
        }
        Ok(choice(
            mv,
            nodes,
            Some(f64::from(value)),
            Some(depth),
            reason,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{Clock, ClockState, plan};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Under a game clock a sharp move may take three times the arena's share (60 s over 10
    /// moves and the increment, not over 30), never past the limit less the safety share;
    /// without a clock, or with a per-move limit alone, the two deadlines are one.
    #[test]
    fn a_sharp_move_may_spend_more_of_the_clock() {
        let now = Instant::now();
        let clock = Clock::new("tc=60+0.6".parse().unwrap());
        let state = clock.state().unwrap();
        let arena = plan(now, clock.limit(), Some(&state));
        let times = MoveTimes::plan(now, arena, clock.limit(), Some(&state), None);
        assert_eq!(times.soft, Some(now + ms(2_000 + 600)));
        assert_eq!(times.hard, Some(now + ms(6_000 + 600)));
        // The agent's own time_ms caps both.
        let own = MoveTimes::plan(now, arena, clock.limit(), Some(&state), Some(ms(3_000)));
        assert_eq!(own.soft, Some(now + ms(2_600)));
        assert_eq!(own.hard, Some(now + ms(3_000)));
        // Little left: the safety share caps the hard deadline too.
        let low = ClockState {
            left: ms(500),
            ..state
        };
        let arena = plan(now, Some(ms(500)), Some(&low));
        let times = MoveTimes::plan(now, arena, Some(ms(500)), Some(&low), None);
        assert_eq!(times.soft, Some(now + ms(400)));
        assert_eq!(times.hard, Some(now + ms(400)));
        // A per-move limit alone: one deadline.
        let arena = plan(now, Some(ms(1_000)), None);
        let times = MoveTimes::plan(now, arena, Some(ms(1_000)), None, None);
        assert_eq!((times.soft, times.hard), (arena, arena));
        // No time limit at all: none.
        let times = MoveTimes::plan(now, None, None, None, None);
        assert_eq!((times.soft, times.hard), (None, None));
    }

    #[test]
    fn a_move_is_sharp_when_it_defends_or_its_search_moves() {
        assert!(!sharp(false, false, 100, 100));
        assert!(!sharp(false, false, 100, 100 - SHARP_DROP + 1));
        assert!(sharp(false, false, 100, 100 - SHARP_DROP));
        assert!(sharp(false, true, 100, 200));
        assert!(sharp(true, false, 100, 200));
    }
}
