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
//! 5. a VCT (fours and open threes) of its own, when `vct` is on (by default everywhere but
//!    under caro): its first move;
//! 6. otherwise the main search over the root moves until the budget ends: the pattern
//!    alpha-beta (`search=ab`, the default; from depth 5 each iteration first searches a
//!    window of 80 either side of the last value, widened fourfold on the side it fails: an
//!    aspiration window), or MCTS with pattern priors and playouts (`search=mcts`), which
//!    measured weaker (see the book's strength page).
//!
//! With a node budget (the default) the agent is reproducible; with `time_ms` or under a time
//! control it is not, and its alpha-beta then starts from what its last move's search in the
//! same game stored in the table ([`crate::tt::Table::keep_searching`]). Under a game clock
//! (`tc=`, an engine's match time) its alpha-beta manages the clock itself (`TimePlan`): a
//! twentieth of what is left plus the increment (the arena plans a thirtieth; with periods,
//! the period's moves to go) is the move's planned time; it starts no new iteration past half
//! of it (more where the best move changes between iterations or the score falls, up to 1.5
//! times the plan) and stops at three times the plan, inside the move's limit and half the
//! clock. Not with `time_ms`, `search=mcts` or a front's own shorter limit (the web's think
//! limit): the deadline given holds. Under a limit per move alone (`st=`) it searches to the
//! limit less a twentieth (the arena's deadline keeps back a fifth). With `search=ab` it draws
//! nothing from its RNG: with a node budget the position decides the move.

use std::time::{Duration, Instant};

use rules::mnk::CellSet;
use rules::{Cell, Game, Mnk, MoveList, TwoPlayer, WinRule};

use super::pattern::{PATTERNS, WEIGHTS};
use super::pattern_mcts::PatternMcts;
use super::pattern_search::PatternSearch;
use super::threats::{Board, ThreatLimits, ThreatResult, ThreatSearch};
use crate::playout::PlayoutRng;
use crate::score::{self, MATE};
use crate::spec::bad_value;
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
                  unless depth or time_ms is given or the game has a time control (the arena's \
                  st/tc, an engine's timeout), then none: the time given is the budget",
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
            default: "auto",
            doc: "search for a win by fours and open threes (VCT) before the alpha-beta: true, \
                  false, or auto = true except under caro (where the agent measured stronger \
                  without it)",
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
        ParamDoc {
            name: "weights",
            default: "default",
            doc: "the evaluation's pattern weights: default (pattern.rs), or eight integers \
                  a/b/.../h for live, closed3, open3, closed2, open2, closed1, open1, win (as \
                  `arena fit` writes them); move ordering and threats unchanged",
        },
        ParamDoc {
            name: "ordering",
            default: "auto",
            doc: "the alpha-beta's move ordering at quiet nodes: learned (a table fitted to \
                  threat's own games by `arena fit --ordering`, where the rule has one: caro, \
                  freestyle), patterns (the cells' pattern values), or auto = learned where \
                  SPRT accepted it (no rule yet: patterns)",
        },
    ],
    // Two players only: the patterns and threats are those of one side against the other.
    multiplayer: false,
    listed: true,
    memory: Some(|| {
        "its transposition table, tt_mb MiB rounded down to a power of two \
         (65,536 entries of 16 bytes per MiB), taken on the first search, plus the pattern \
         tables of its board (a few KiB per line length and rule) and, with search=mcts, a \
         tree of at most its node budget"
            .to_string()
    }),
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

/// The half-width of the aspiration window around the last iteration's value.
const ASPIRATION: i32 = 80;

/// The depth from which an iteration searches an aspiration window first.
const ASPIRATION_DEPTH: u32 = 5;

/// Under a game clock without periods, the moves a move's planned time assumes are left:
/// games of `threat` from the live opening suites last 35 plies (median; 70 at the 90th
/// percentile), so the arena's 30 ([`crate::clock::MOVES_TO_GO`]) left most of the clock
/// unused.
const MOVES_TO_GO: u32 = 20;

/// Under a game clock, the most a move may take, as a multiple of its planned time (what is
/// left over the moves to go, plus the increment).
const MAX_STRETCH: u32 = 3;

/// How much earlier than the arena's plan a front's deadline must be to count as a limit of
/// its own (the front planned from its own start, a moment before the agent's).
const FRONT_SLACK: Duration = Duration::from_millis(5);

/// Under a game clock, the alpha-beta starts no new iteration once this share of the move's
/// planned time is spent (times the stretch the position asks for, [`TimePlan::stretch`]):
/// the next iteration would take longer than all before it, and would be cut off.
const NEW_ITERATION_SHARE: f64 = 0.5;

/// Under a limit per move alone (`st=`), the share of the limit the agent keeps back from its
/// deadline (the arena keeps [`crate::clock::SAFETY_SHARE`], 20%, for every agent): nothing
/// unspent carries over to a later move, and the searches read the clock every 1024 nodes,
/// under a millisecond apart.
const MOVE_LIMIT_SAFETY_SHARE: f64 = 0.05;

/// Whether the deadline `given` for a move started at `started` is a front's own limit (the
/// web's think limit) rather than the arena's plan for `limit` and `clock`: the front planned
/// from its own start, a moment before this one, so a deadline earlier than the arena's plan
/// from here by more than [`FRONT_SLACK`] is the front's.
fn front_limit(
    started: Instant,
    given: Instant,
    limit: Duration,
    clock: Option<&crate::clock::ClockState>,
) -> bool {
    crate::clock::plan(started, Some(limit), clock).is_some_and(|arena| given + FRONT_SLACK < arena)
}

/// The deadline of a move started at `started`: under a limit per move without a game clock,
/// the limit less [`MOVE_LIMIT_SAFETY_SHARE`] of it, where the context's deadline is the
/// arena's plan; otherwise (a game clock, which [`TimePlan`] spends, or a front's own shorter
/// limit, the web's think limit) the context's deadline as given.
fn move_deadline(started: Instant, ctx: &Context<'_>) -> Option<Instant> {
    let given = ctx.deadline?;
    let (None, Some(limit)) = (ctx.clock.as_ref(), ctx.move_time) else {
        return Some(given);
    };
    if front_limit(started, given, limit, None) {
        return Some(given);
    }
    let own = crate::clock::plan_with(
        started,
        Some(limit),
        None,
        MOVES_TO_GO,
        MOVE_LIMIT_SAFETY_SHARE,
    )?;
    Some(own.max(given))
}

/// The time of a move under a game clock: a planned time, and a hard end to spend more
/// where the position is sharp (the best move changing between iterations, the score
/// falling) and less where it is settled.
#[derive(Clone, Copy, Debug)]
struct TimePlan {
    started: Instant,
    /// The planned time: what is left over [`MOVES_TO_GO`] moves (or the period's moves to
    /// go), plus the increment, inside the move's limit ([`crate::clock::plan_with`]).
    optimum: Duration,
    /// The search stops here whatever it is doing.
    hard: Instant,
}

impl TimePlan {
    /// The plan of a move started at `started` with `ctx`'s deadline and clock; `None`
    /// without a game clock (a move limit alone, `st=`, gives each move the same time), or
    /// when the front ends the move before the arena's plan would (the web's think limit): the
    /// deadline then holds as it is.
    fn new(started: Instant, ctx: &Context<'_>) -> Option<TimePlan> {
        let clock = ctx.clock.as_ref()?;
        let given = ctx.deadline?;
        let limit = ctx.move_time?;
        if front_limit(started, given, limit, Some(clock)) {
            return None;
        }
        let planned = crate::clock::plan_with(
            started,
            Some(limit),
            Some(clock),
            MOVES_TO_GO,
            crate::clock::SAFETY_SHARE,
        )?
        .saturating_duration_since(started);
        // Inside the move's limit by the safety share, and never more than half the clock (a
        // period's last moves plan large shares of it).
        let cap = limit
            .mul_f64(1.0 - crate::clock::SAFETY_SHARE)
            .min(clock.left / 2);
        Some(TimePlan {
            started,
            optimum: planned,
            hard: started + (planned * MAX_STRETCH).min(cap).max(planned),
        })
    }

    /// How much of the planned time the position asks for, from the iterations so far:
    /// `changes`, the best move's changes between iterations, the recent ones weighing most;
    /// `fall`, how far the score fell in the last iteration.
    fn stretch(changes: f64, fall: i32) -> f64 {
        let unsettled = 1.0 + changes.min(2.0) * 0.5;
        let falling = if fall >= 150 {
            1.5
        } else if fall >= 50 {
            1.2
        } else {
            1.0
        };
        unsettled * falling
    }

    /// Whether the alpha-beta should start another iteration, `spent` into the move.
    fn another_iteration(&self, spent: Duration, changes: f64, fall: i32) -> bool {
        spent.as_secs_f64()
            < self.optimum.as_secs_f64() * NEW_ITERATION_SHARE * Self::stretch(changes, fall)
    }
}

/// The settings of [`ThreatAgent`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatConfig {
    /// The node budget per move, if any.
    pub nodes: Option<u64>,
    /// Whether `nodes` is the default budget ([`DEFAULT_NODES`], `auto`) rather than one given:
    /// a move with a deadline (a time control) then has no node budget, only the time.
    pub nodes_auto: bool,
    /// The time budget per move, if any.
    pub time: Option<Duration>,
    /// The deepest alpha-beta iteration.
    pub depth: u32,
    /// Whether to look for a VCT; `None`: by the rule ([`ThreatConfig::vct_under`]).
    pub vct: Option<bool>,
    /// The table size in MiB.
    pub tt_mb: usize,
    /// The main search after the threat searches.
    pub search: MainSearch,
    /// The evaluation's pattern weights ([`crate::pattern::WEIGHTS`] by default).
    pub weights: [i32; PATTERNS],
    /// Whether the alpha-beta orders quiet cells by the learned table of the rule
    /// ([`super::policy`]); `None`: by the rule ([`ThreatConfig::learned_under`]).
    pub learned: Option<bool>,
}

/// The rules under which `ordering=auto` orders by the learned table: those where `arena
/// sprt` accepted it against the pattern values. None yet: the tests of the tables of caro and
/// freestyle (`results/strength/README.md`, "A move ordering learned from the games") did not
/// decide.
pub const LEARNED_RULES: &[WinRule] = &[];

/// The `threat` agent's main search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MainSearch {
    /// The pattern alpha-beta (`pattern_search.rs`).
    AlphaBeta,
    /// MCTS with pattern priors and playouts (`pattern_mcts.rs`).
    Mcts,
}

impl ThreatConfig {
    /// The node budget of a move whose time control gives `deadline`, if any: the budget given,
    /// and the default one ([`DEFAULT_NODES`]) only when the move has no deadline. Under a time
    /// control the default budget would end the move long before its time (200,000 nodes take
    /// about 0.2 s here, a fifth of a move at 1 s a move): the time is the budget.
    pub fn node_budget(&self, deadline: Option<Instant>) -> Option<u64> {
        if deadline.is_some() && self.nodes_auto {
            None
        } else {
            self.nodes
        }
    }

    /// Whether the VCT step runs under `rule`: as given, else everywhere but under caro, where
    /// `arena sprt caro` at 0.2 s a move accepted `vct=false` (+40 Elo; on gomoku the same test
    /// stood at 0): results/strength/README.md. Whether the time the step takes (a caro four
    /// has two defences) or the threats it plays cost more was not measured.
    pub fn vct_under(&self, rule: WinRule) -> bool {
        self.vct.unwrap_or(rule != WinRule::Caro)
    }

    /// Whether the alpha-beta orders by the learned table under `rule` (where it has one).
    pub fn learned_under(&self, rule: WinRule) -> bool {
        self.learned.unwrap_or(LEARNED_RULES.contains(&rule))
    }
}

impl Default for ThreatConfig {
    fn default() -> Self {
        ThreatConfig {
            nodes: Some(DEFAULT_NODES),
            nodes_auto: true,
            time: None,
            depth: 64,
            vct: None,
            tt_mb: 32,
            search: MainSearch::AlphaBeta,
            weights: WEIGHTS,
            learned: None,
        }
    }
}

/// The `threat` agent.
pub struct ThreatAgent {
    config: ThreatConfig,
    table: Option<Table>,
    /// The game of the last alpha-beta search: its table is kept for the next move only in
    /// the same game (board, line and rule), where every stored result still holds.
    last_game: Option<rules::MnkConfig>,
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
            last_game: None,
        })
    }

    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        let depth = params.u64("depth", 64, 1..=64)?;
        let time_ms = params.u64("time_ms", 0, 0..=86_400_000)?;
        let explicit = params.text("depth").is_some() || time_ms > 0;
        let given = params.u64_or_auto("nodes", 1..=u64::MAX)?;
        let nodes = given.or((!explicit).then_some(DEFAULT_NODES));
        ThreatAgent::new(ThreatConfig {
            nodes,
            nodes_auto: given.is_none() && !explicit,
            time: (time_ms > 0).then(|| Duration::from_millis(time_ms)),
            depth: depth as u32,
            vct: match params.text("vct") {
                None | Some("auto") => None,
                Some(text) => Some(
                    params
                        .bool("vct", true)
                        .map_err(|_| bad_value(KIND.name, "vct", text, "auto, true or false"))?,
                ),
            },
            tt_mb: {
                let tt_mb = params.u64("tt_mb", 32, 1..=65536)?;
                crate::memory::check_fits(KIND.name, "tt_mb", tt_mb)?;
                tt_mb as usize
            },
            search: match params.choice("search", "ab", &["ab", "mcts"])? {
                "mcts" => MainSearch::Mcts,
                _ => MainSearch::AlphaBeta,
            },
            weights: match params.text("weights") {
                None | Some("default") => WEIGHTS,
                Some(text) => parse_weights(text)?,
            },
            learned: match params.choice("ordering", "auto", &["auto", "learned", "patterns"])? {
                "learned" => Some(true),
                "patterns" => Some(false),
                _ => None,
            },
        })
    }
}

/// The eight weights of a `weights=a/b/.../h` parameter, for patterns 1 to 8 (a dead line's
/// stays 0).
fn parse_weights(text: &str) -> Result<[i32; PATTERNS], SpecError> {
    let bad = || {
        bad_value(
            KIND.name,
            "weights",
            text,
            format!(
                "default, or eight integers from -{max} to {max} separated by `/` (live, \
                 closed3, open3, closed2, open2, closed1, open1, win)",
                max = crate::pattern::MAX_WEIGHT
            )
            .as_str(),
        )
    };
    let numbers: Vec<i32> = text
        .split('/')
        .map(|n| n.trim().parse::<i32>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    if numbers.len() != PATTERNS - 1 || numbers.iter().any(|n| n.abs() > crate::pattern::MAX_WEIGHT)
    {
        return Err(bad());
    }
    let mut weights = [0; PATTERNS];
    weights[1..].copy_from_slice(&numbers);
    Ok(weights)
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
        pv: vec![cell],
    }
}

/// A threat search's winning `line` from `position` as a principal variation, when it is one
/// (legal move by move); else the move alone.
fn forcing_line(position: &Mnk, line: Vec<Cell>) -> Vec<Cell> {
    if crate::pv::is_line(position, &line) {
        line
    } else {
        line.into_iter().take(1).collect()
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
        let deadline = match (
            move_deadline(started, ctx),
            self.config.time.map(|t| started + t),
        ) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut budget = Budget {
            nodes: self.config.node_budget(ctx.deadline),
            deadline,
            used: 0,
        };
        let mut board = Board::new(position).with_weights(self.config.weights);
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
            )
            .with_pv(forcing_line(position, line)));
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
        if self.config.vct_under(board.rule()) {
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
                )
                .with_pv(forcing_line(position, line)));
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
        let same_game = self.last_game.replace(*position.config()) == Some(*position.config());
        if budget.deadline.is_some() && same_game {
            table.keep_searching().map_err(table_error)?;
        } else {
            table.new_search().map_err(table_error)?;
        }
        // Under a game clock the alpha-beta may run past the planned time, to the plan's hard
        // end, and decides between iterations whether to go on.
        let plan = TimePlan::new(started, ctx).filter(|_| self.config.time.is_none());
        let search_deadline = plan.map_or(budget.deadline, |plan| Some(plan.hard));
        let mut search = PatternSearch::new(board, table, budget.nodes_left(), search_deadline);
        // "Move now" stops the alpha-beta as its deadline would.
        search.stop = ctx.stop.clone();
        if self.config.learned_under(search.board.rule()) {
            search.policy = super::policy::policy(search.board.rule());
        }
        let within = restrict.map(|set| set.and(&legal_set));
        let mut moves = search.root_moves(within.as_ref());
        moves.retain(|cell| legal_set.contains(*cell));
        if moves.is_empty() {
            moves = legal.iter().copied().collect();
        }
        let mut result = (moves[0], 0, 0);
        let mut changes = 0.0;
        for depth in 1..=self.config.depth {
            let before = result;
            // From depth 5 an iteration first searches a window around the last value.
            let last = (depth >= ASPIRATION_DEPTH && score::mate_distance(result.1).is_none())
                .then_some(result.1);
            let value = search.root_aspirated(&mut moves, depth as i32, last, ASPIRATION);
            match value {
                Some(value) => result = (moves[0], value, depth),
                None => break,
            }
            if depth > 1 {
                changes = changes * 0.5 + if result.0 == before.0 { 0.0 } else { 1.0 };
            }
            if search.aborted {
                break;
            }
            if score::mate_distance(result.1).is_some_and(|p| p <= depth) {
                break;
            }
            if moves.len() == 1 && depth >= 2 {
                break;
            }
            if let Some(plan) = &plan
                && depth > 1
                && !plan.another_iteration(
                    plan.started.elapsed(),
                    changes,
                    before.1.saturating_sub(result.1),
                )
            {
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
        let line = search.line(position, mv);
        Ok(choice(mv, nodes, Some(f64::from(value)), Some(depth), reason).with_pv(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(spec: &str) -> ThreatConfig {
        let spec: crate::AgentSpec = spec.parse().unwrap();
        let params = Params::new(&spec, KIND.params).unwrap();
        ThreatAgent::from_params(&params).unwrap().config
    }

    #[test]
    fn the_default_node_budget_holds_only_without_a_time_control() {
        let deadline = Some(Instant::now() + Duration::from_secs(1));
        let default = config("threat");
        assert_eq!(default.node_budget(None), Some(DEFAULT_NODES));
        assert_eq!(default.node_budget(deadline), None);
        // A budget given is kept under a clock too, and the default agent is the spec's.
        let given = config("threat:nodes=5000");
        assert_eq!(given.node_budget(deadline), Some(5000));
        assert_eq!(given.node_budget(None), Some(5000));
        assert_eq!(config("threat:time_ms=100").node_budget(None), None);
        assert_eq!(config("threat:depth=4").node_budget(deadline), None);
        assert_eq!(ThreatConfig::default(), default);
    }

    /// A move's context under `control` with `left` on the clock (and `per_move`, if any),
    /// the deadline the arena plans for it from `started`.
    fn clocked(
        rng: &mut crate::AgentRng,
        started: Instant,
        control: crate::clock::GameClock,
        left: Duration,
        per_move: Option<Duration>,
    ) -> Context<'_> {
        let clock = crate::clock::ClockState {
            control,
            left,
            moves_to_go: None,
            per_move,
        };
        let limit = per_move.map_or(left, |p| p.min(left));
        Context::new(rng)
            .with_deadline(crate::clock::plan(started, Some(limit), Some(&clock)))
            .with_move_time(Some(limit))
            .with_clock(Some(clock))
    }

    #[test]
    fn under_a_game_clock_a_move_may_take_up_to_three_times_its_plan_within_its_limit() {
        let mut rng = <crate::AgentRng as rand::SeedableRng>::seed_from_u64(1);
        let started = Instant::now();
        let secs = Duration::from_secs;
        let control = crate::clock::GameClock {
            moves: None,
            time: secs(60),
            increment: Duration::ZERO,
        };
        // 30 s left: the plan is a twentieth, 1.5 s, and the move may stretch to 4.5 s.
        let ctx = clocked(&mut rng, started, control, secs(30), None);
        let plan = TimePlan::new(started, &ctx).expect("a plan under a clock");
        assert_eq!(plan.optimum, Duration::from_millis(1500));
        assert_eq!(plan.hard - started, Duration::from_millis(4500));
        // A move limit under the clock caps the stretch inside it, by the arena's safety share.
        let ctx = clocked(
            &mut rng,
            started,
            control,
            secs(30),
            Some(Duration::from_millis(2000)),
        );
        let plan = TimePlan::new(started, &ctx).unwrap();
        assert_eq!(plan.optimum, Duration::from_millis(1500));
        assert_eq!(plan.hard - started, Duration::from_millis(1600));
        // Nearly out of time: the hard end stays inside what is left.
        let ctx = clocked(&mut rng, started, control, Duration::from_millis(300), None);
        let plan = TimePlan::new(started, &ctx).unwrap();
        assert_eq!(plan.optimum, Duration::from_millis(15));
        assert_eq!(plan.hard - started, Duration::from_millis(45));
        // An increment as large as the clock: the plan is the move's cap (80% of 100 ms), and
        // no stretch past it.
        let with_increment = crate::clock::GameClock {
            increment: Duration::from_millis(100),
            ..control
        };
        let ctx = clocked(
            &mut rng,
            started,
            with_increment,
            Duration::from_millis(100),
            None,
        );
        let plan = TimePlan::new(started, &ctx).unwrap();
        assert_eq!(plan.optimum, Duration::from_millis(80));
        assert_eq!(plan.hard - started, Duration::from_millis(80));
        // A period's last two moves: the plan is half the clock, and the stretch stops there
        // (the move's limit would allow 80% of it).
        let periods = crate::clock::GameClock {
            moves: Some(40),
            ..control
        };
        let clock = crate::clock::ClockState {
            control: periods,
            left: secs(10),
            moves_to_go: Some(2),
            per_move: None,
        };
        let ctx = Context::new(&mut rng)
            .with_deadline(crate::clock::plan(started, Some(secs(10)), Some(&clock)))
            .with_move_time(Some(secs(10)))
            .with_clock(Some(clock));
        let plan = TimePlan::new(started, &ctx).unwrap();
        assert_eq!(plan.optimum, secs(5));
        assert_eq!(plan.hard - started, secs(5));
        // A front that ends the move before the arena's plan (the web's think limit): its
        // deadline holds, no plan.
        let ctx = clocked(&mut rng, started, control, secs(30), None)
            .with_deadline(Some(started + Duration::from_millis(100)));
        assert!(TimePlan::new(started, &ctx).is_none());
        // A move limit alone (`st=`): every move has the same time, no plan.
        let ctx = Context::new(&mut rng)
            .with_deadline(Some(started + Duration::from_millis(800)))
            .with_move_time(Some(secs(1)));
        assert!(TimePlan::new(started, &ctx).is_none());
    }

    #[test]
    fn under_a_move_limit_alone_the_deadline_keeps_back_a_twentieth_of_it() {
        let mut rng = <crate::AgentRng as rand::SeedableRng>::seed_from_u64(1);
        let started = Instant::now();
        let ms = Duration::from_millis;
        fn st(rng: &mut crate::AgentRng, started: Instant, limit: Duration) -> Context<'_> {
            Context::new(rng)
                .with_deadline(crate::clock::plan(started, Some(limit), None))
                .with_move_time(Some(limit))
        }
        // `st=1`: the arena plans 800 ms, the agent spends 950.
        let ctx = st(&mut rng, started, Duration::from_secs(1));
        assert_eq!(move_deadline(started, &ctx), Some(started + ms(950)));
        let ctx = st(&mut rng, started, ms(200));
        assert_eq!(move_deadline(started, &ctx), Some(started + ms(190)));
        // `time_ms=0`: now.
        let ctx = st(&mut rng, started, Duration::ZERO);
        assert_eq!(move_deadline(started, &ctx), Some(started));
        // A front's own shorter limit holds as given.
        let ctx =
            st(&mut rng, started, Duration::from_secs(1)).with_deadline(Some(started + ms(100)));
        assert_eq!(move_deadline(started, &ctx), Some(started + ms(100)));
        // No deadline: none.
        let ctx = Context::new(&mut rng).with_move_time(Some(Duration::from_secs(1)));
        assert_eq!(move_deadline(started, &ctx), None);
        // Under a game clock the deadline is the arena's, which the plan stretches.
        let control = crate::clock::GameClock {
            moves: None,
            time: Duration::from_secs(60),
            increment: Duration::ZERO,
        };
        let ctx = clocked(&mut rng, started, control, Duration::from_secs(30), None);
        assert_eq!(move_deadline(started, &ctx), ctx.deadline);
    }

    #[test]
    fn a_sharp_position_stretches_the_time_a_settled_one_does_not() {
        // Settled: the best move the same, the score holding.
        assert_eq!(TimePlan::stretch(0.0, 0), 1.0);
        assert_eq!(TimePlan::stretch(0.0, -300), 1.0);
        // The best move changed in the last iteration, or in both of the last two.
        assert_eq!(TimePlan::stretch(1.0, 0), 1.5);
        assert_eq!(TimePlan::stretch(1.5, 0), 1.75);
        // The score falling.
        assert_eq!(TimePlan::stretch(0.0, 60), 1.2);
        assert_eq!(TimePlan::stretch(0.0, 200), 1.5);
        // Both, at most.
        assert_eq!(TimePlan::stretch(5.0, 1000), 3.0);
        // Another iteration while the time spent is under half the plan times the stretch.
        let started = Instant::now();
        let plan = TimePlan {
            started,
            optimum: Duration::from_secs(1),
            hard: started + Duration::from_secs(3),
        };
        let ms = Duration::from_millis;
        assert!(plan.another_iteration(ms(400), 0.0, 0));
        assert!(!plan.another_iteration(ms(600), 0.0, 0));
        assert!(plan.another_iteration(ms(600), 1.0, 0));
        assert!(!plan.another_iteration(ms(800), 1.0, 0));
        assert!(plan.another_iteration(ms(1400), 2.0, 200));
        assert!(!plan.another_iteration(ms(1600), 2.0, 200));
    }

    #[test]
    fn the_vct_step_is_off_under_caro_unless_asked_for() {
        let auto = config("threat");
        assert_eq!(auto.vct, None);
        assert!(auto.vct_under(WinRule::Freestyle));
        assert!(auto.vct_under(WinRule::Exact));
        assert!(!auto.vct_under(WinRule::Caro));
        assert_eq!(config("threat:vct=auto"), auto);
        let on = config("threat:vct=true");
        assert!(on.vct_under(WinRule::Caro) && on.vct_under(WinRule::Freestyle));
        let off = config("threat:vct=no");
        assert!(!off.vct_under(WinRule::Caro) && !off.vct_under(WinRule::Freestyle));
        let spec: crate::AgentSpec = "threat:vct=maybe".parse().unwrap();
        let params = Params::new(&spec, KIND.params).unwrap();
        let error = ThreatAgent::from_params(&params).err().unwrap().to_string();
        assert!(error.contains("auto, true or false"), "{error}");
    }

    #[test]
    fn the_learned_ordering_is_the_default_where_accepted_and_changes_the_search() {
        let auto = config("threat");
        assert_eq!(auto.learned, None);
        for rule in [WinRule::Freestyle, WinRule::Exact, WinRule::Caro] {
            assert_eq!(auto.learned_under(rule), LEARNED_RULES.contains(&rule));
        }
        assert!(config("threat:ordering=learned").learned_under(WinRule::Exact));
        assert!(!config("threat:ordering=patterns").learned_under(WinRule::Caro));
        let spec: crate::AgentSpec = "threat:ordering=best".parse().unwrap();
        let error = ThreatAgent::from_params(&spec_params(&spec))
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("learned"), "{error}");
        // A quiet middle game, a fixed depth: the two orderings search differently (other node counts
        // to the same depth), each the same on a second run.
        for variant in ["gomoku", "caro"] {
            let game: Mnk = variant
                .parse::<rules::Variant>()
                .unwrap()
                .rules::<rules::MnkConfig>()
                .unwrap()
                .start()
                .play_line("h8 i9 g7 j10")
                .unwrap();
            let run = |spec: &str| {
                let mut agent = ThreatAgent::new(config(spec)).unwrap();
                let mut rng = <crate::AgentRng as rand::SeedableRng>::seed_from_u64(1);
                let choice = agent.choose(&game, &mut Context::new(&mut rng)).unwrap();
                (choice.mv, choice.stats.nodes, choice.stats.depth)
            };
            let learned = run("threat:depth=6,ordering=learned");
            let patterns = run("threat:depth=6,ordering=patterns");
            assert_eq!(run("threat:depth=6,ordering=learned"), learned);
            assert_ne!(learned, patterns, "{variant}");
        }
    }

    fn spec_params(spec: &crate::AgentSpec) -> Params<'_> {
        Params::new(spec, KIND.params).unwrap()
    }
}
