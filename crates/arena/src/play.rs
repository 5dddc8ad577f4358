//! Playing one game between two agents (or three or four, one per seat): the opening, the
//! turns, the faults, the ply cap.

use std::any::Any;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::time::{Duration, Instant};

use agents::clock::{Clock, GameClock, Overrun, TimeControl};
use agents::{Agent, AgentError, AgentGame, AgentRng, Context};
use rand::SeedableRng;
use rules::{Game, MAX_PLAYERS, MoveList, Outcome, Player, Totals};

pub use csv_schema::Termination;

/// Everything recorded about one finished game. Per-seat arrays hold one entry per seat of
/// the table (the rest stay zero).
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The result.
    pub outcome: Outcome,
    /// How it ended.
    pub termination: Termination,
    /// Plies played, the opening included.
    pub plies: u32,
    /// The number of seats.
    pub players: usize,
    /// Final totals per seat where the game scores points.
    pub totals: Option<Totals>,
    /// Thinking time per seat.
    pub time: [Duration; MAX_PLAYERS],
    /// The longest single move per seat.
    pub max_time: [Duration; MAX_PLAYERS],
    /// Nodes or simulations per seat.
    pub nodes: [u64; MAX_PLAYERS],
    /// The moves in the game's notation.
    pub moves: Vec<String>,
    /// What went wrong, when a fault ended the game.
    pub fault: Option<String>,
    /// Time left on each seat's game clock at the end, when the game had one.
    pub clock_left: [Option<Duration>; MAX_PLAYERS],
}

/// The largest ply cap an experiment may set (`max_plies`): ten times the longest default cap
/// (1,000 plies for Oware and O An Quan). A game that can go round in cycles plays on to its
/// cap; at this one its moves take a few tens of KB, a row well inside what the report reads
/// (`report::MAX_ROW_BYTES`).
pub const MAX_PLY_CAP: u32 = 10_000;

/// The settings of a game that do not come from the agents.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameSettings {
    /// The ply cap (0 = the game's default).
    pub max_plies: u32,
    /// Random plies before the agents play.
    pub opening_plies: u32,
    /// The per-move time limit.
    pub move_time: Option<Duration>,
    /// The game clock of every seat, if the game has one.
    pub clock: Option<GameClock>,
}

impl GameSettings {
    /// The time control: the per-move limit and the game clock.
    pub fn time_control(&self) -> TimeControl {
        TimeControl {
            per_move: self.move_time,
            clock: self.clock,
        }
    }
}

/// The RNG stream of the agent moving first (the second's is `SECOND_STREAM`; seat `s` has
/// stream `s + 1`).
pub const FIRST_STREAM: u64 = 1;
/// The RNG stream of the agent moving second.
pub const SECOND_STREAM: u64 = 2;

/// The RNG an agent gets in a game with seed `seed`: stream 1 for the first seat, 2 for the
/// second, and so on.
pub fn agent_rng(seed: u64, player: Player) -> AgentRng {
    let mut rng = AgentRng::seed_from_u64(seed);
    rng.set_stream(FIRST_STREAM + player.index() as u64);
    rng
}

/// The outcome when `loser` forfeits: a loss in a two-player game; with more players the
/// last place alone, the others placed by their totals in `position`.
pub fn forfeit_outcome<G: Game>(position: &G, loser: Player) -> Outcome {
    let totals = position.totals();
    Outcome::forfeit(loser, position.num_players(), totals.as_deref())
}

/// How long the calling thread has waited, ready to run, for a processor (Linux's
/// `/proc/thread-self/schedstat`, its second field), where the system says: the time a busy
/// machine took the thread away. A thread that sleeps or blocks is not waiting for one.
pub(crate) fn run_delay() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// An agent that gave up at its own deadline ([`AgentError::Timeout`]: an outside agent that did
/// not answer in time) after `took` is judged by its `clock` as a late move is (`margin`: its
/// stated tolerance): past the move's limit, the clock is charged the wait (a game clock that
/// fell then shows 0) and the overrun is returned, for the fault to say in the clock's words
/// where the game clock fell (`lost on time: move N took ... on its clock (tc=...)`). Within
/// the limit (the agent's own timeout came first), the clock is left as it was.
pub(crate) fn charge_gave_up(
    clock: &mut Clock,
    took: Duration,
    margin: Duration,
) -> Option<Overrun> {
    let mut charged = *clock;
    let overrun = charged.punch(took, margin).err()?;
    *clock = charged;
    Some(overrun)
}

/// The time an agent that thought for `elapsed` on this thread is charged, `waited` being
/// [`run_delay`] when it started: an agent thinking on this thread is not charged the time the
/// machine made the thread wait for a processor, so a busy machine is not a loss on time.
pub(crate) fn charged_time(
    in_process: bool,
    waited: Option<Duration>,
    elapsed: Duration,
) -> Duration {
    match (waited, run_delay()) {
        (Some(before), Some(after)) if in_process => {
            elapsed.saturating_sub(after.saturating_sub(before))
        }
        _ => elapsed,
    }
}

/// Plays random opening plies that do not end the game (when some such move exists).
pub(crate) fn play_opening<G: Game>(
    position: &mut G,
    plies: u32,
    seed: u64,
    moves: &mut Vec<String>,
) {
    let mut rng = AgentRng::seed_from_u64(seed);
    let mut legal = MoveList::new();
    let mut quiet = MoveList::new();
    for _ in 0..plies {
        position.legal_moves(&mut legal);
        quiet.clear();
        quiet.extend(
            legal
                .iter()
                .copied()
                .filter(|&m| !position.child(m).is_over()),
        );
        if quiet.is_empty() {
            break;
        }
        let mv = quiet[rand::RngExt::random_range(&mut rng, 0..quiet.len())];
        moves.push(position.format_move(mv));
        position.play_unchecked(mv);
    }
}

thread_local! {
    /// Set while an agent is choosing on this thread: its panics are recorded, not printed.
    static AGENT_PANIC: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

static QUIET_HOOK: Once = Once::new();

/// Installs (once) a panic hook that keeps agents' panics off the terminal: the arena reports
/// them as a `crash` and in its fault log instead. Other panics print as usual.
fn silence_agent_panics() {
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let inside_agent = AGENT_PANIC.with(|slot| {
                let mut slot = slot.borrow_mut();
                match slot.as_mut() {
                    Some(message) => {
                        let location = info
                            .location()
                            .map(|l| format!(" at {}:{}", l.file(), l.line()))
                            .unwrap_or_default();
                        *message = Some(format!("{}{location}", payload_text(info.payload())));
                        true
                    }
                    None => false,
                }
            });
            if !inside_agent {
                previous(info);
            }
        }));
    });
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

/// Runs `f` (an agent's code), turning a panic into its message (with where it happened): the
/// caller scores it as a crash, and nothing is printed to the terminal.
pub(crate) fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    silence_agent_panics();
    AGENT_PANIC.with(|slot| *slot.borrow_mut() = Some(None));
    let answer = catch_unwind(AssertUnwindSafe(f));
    let message = AGENT_PANIC.with(|slot| slot.borrow_mut().take().flatten());
    answer.map_err(|payload| message.unwrap_or_else(|| payload_text(payload.as_ref())))
}

/// How a game an agent lost by `error` ended, as the CSV records it: the sandbox's verdict
/// where one of its limits stopped the program (the fault's text starts with it, as
/// [`protocol::sandbox::Verdict::split`] reads it), else the error's kind.
pub(crate) fn fault_termination(error: &AgentError) -> Termination {
    use protocol::sandbox::Verdict;
    match Verdict::split(error.message()) {
        Some((Verdict::MemoryLimit, _)) => Termination::MemoryLimit,
        Some((Verdict::CpuLimit, _)) => Termination::CpuLimit,
        Some((Verdict::ForbiddenCall, _)) => Termination::ForbiddenCall,
        Some((Verdict::OutputLimit, _)) => Termination::OutputLimit,
        None => match error {
            AgentError::IllegalMove(_) => Termination::IllegalMove,
            AgentError::Timeout(_) => Termination::Timeout,
            _ => Termination::Crash,
        },
    }
}

/// Asks `agent` for a move, turning a panic into its message (with where it happened): the
/// caller scores it as a crash, and nothing is printed to the terminal.
pub fn choose_quietly<G: AgentGame>(
    agent: &mut dyn Agent<G>,
    position: &G,
    ctx: &mut Context<'_>,
) -> Result<Result<agents::Choice<G::Move>, AgentError>, String> {
    quietly(|| agent.choose(position, ctx))
}

/// The record of a game `loser` forfeits before the first move (its agent could not be built).
pub fn forfeit<G: Game>(start: &G, loser: Player, reason: String) -> GameRecord {
    GameRecord {
        outcome: forfeit_outcome(start, loser),
        termination: Termination::Crash,
        plies: start.ply(),
        players: start.num_players(),
        totals: start.totals(),
        time: [Duration::ZERO; MAX_PLAYERS],
        max_time: [Duration::ZERO; MAX_PLAYERS],
        nodes: [0; MAX_PLAYERS],
        moves: Vec::new(),
        fault: Some(format!("could not start: {reason}")),
        clock_left: [None; MAX_PLAYERS],
    }
}

/// Plays one game from `start` between `agents[0]` (moving first), `agents[1]`, and so on,
/// one agent per seat of the game.
///
/// The opening is random and seeded by `opening_seed`; each agent draws from its own stream
/// of `seed` ([`agent_rng`]). A panic, an agent error, an illegal move or a move slower than
/// the time limit ends the game as a loss for that agent (with more than two players: the last
/// place). At the ply cap the game's [`Game::adjudicate`] decides.
///
/// # Panics
/// If the number of agents is not the game's number of players.
pub fn play_game<G: AgentGame>(
    start: &G,
    agents: &mut [&mut dyn Agent<G>],
    seed: u64,
    opening_seed: u64,
    settings: GameSettings,
) -> GameRecord {
    play_game_from(start, &[], agents, seed, opening_seed, settings)
}

/// [`play_game`] with the moves `opening` (of an opening suite, legal and not ending the game)
/// played first, before any random opening plies; they are recorded with the game's moves.
///
/// # Panics
/// If the number of agents is not the game's number of players.
pub fn play_game_from<G: AgentGame>(
    start: &G,
    opening: &[G::Move],
    agents: &mut [&mut dyn Agent<G>],
    seed: u64,
    opening_seed: u64,
    settings: GameSettings,
) -> GameRecord {
    play_game_watched(
        start,
        opening,
        agents,
        seed,
        opening_seed,
        settings,
        &mut |_| {},
    )
}

/// [`play_game_from`], telling `watch` the moves so far (as the record writes them) after the
/// opening and after every move: how a run shows its games in progress ([`crate::live`]).
/// `watch` sees the game and changes nothing of it.
///
/// # Panics
/// If the number of agents is not the game's number of players.
pub fn play_game_watched<G: AgentGame>(
    start: &G,
    opening: &[G::Move],
    agents: &mut [&mut dyn Agent<G>],
    seed: u64,
    opening_seed: u64,
    settings: GameSettings,
    watch: &mut dyn FnMut(&[String]),
) -> GameRecord {
    let players = start.num_players();
    assert_eq!(agents.len(), players, "one agent per seat");
    let mut position = start.clone();
    let mut moves = Vec::new();
    for &mv in opening {
        moves.push(position.format_move(mv));
        position.play_unchecked(mv);
    }
    play_opening(
        &mut position,
        settings.opening_plies,
        opening_seed,
        &mut moves,
    );
    let cap = if settings.max_plies == 0 {
        position.default_max_plies()
    } else {
        settings.max_plies
    };
    let mut rngs: Vec<AgentRng> = Player::all(players)
        .map(|seat| agent_rng(seed, seat))
        .collect();
    let mut record = GameRecord {
        outcome: Outcome::Draw,
        termination: Termination::Draw,
        plies: 0,
        players,
        totals: None,
        time: [Duration::ZERO; MAX_PLAYERS],
        max_time: [Duration::ZERO; MAX_PLAYERS],
        nodes: [0; MAX_PLAYERS],
        moves,
        fault: None,
        clock_left: [None; MAX_PLAYERS],
    };
    let mut clocks: Vec<Clock> = (0..players)
        .map(|_| Clock::new(settings.time_control()))
        .collect();
    watch(&record.moves);
    let (outcome, termination, fault) = play_turns(
        &mut position,
        agents,
        &mut rngs,
        &mut record,
        cap,
        &mut clocks,
        watch,
    );
    for (seat, clock) in clocks.iter().enumerate() {
        record.clock_left[seat] = clock.left();
    }
    // Every agent hears how the game ended (outside agents tell their process, or keep it for
    // the next game); a panic here changes nothing recorded.
    for agent in agents.iter_mut() {
        let _ = quietly(|| agent.end_game(&position, outcome, termination.as_str()));
    }
    record.outcome = outcome;
    record.termination = termination;
    record.plies = position.ply();
    record.totals = position.totals();
    record.fault = fault;
    record
}

/// The turns of a game, from its set-up to its end: the outcome, how it ended, and the fault.
fn play_turns<G: AgentGame>(
    position: &mut G,
    agents: &mut [&mut dyn Agent<G>],
    rngs: &mut [AgentRng],
    record: &mut GameRecord,
    cap: u32,
    clocks: &mut [Clock],
    watch: &mut dyn FnMut(&[String]),
) -> (Outcome, Termination, Option<String>) {
    // Agents set up the game (outside agents: in their process), off the clock; one that
    // cannot loses the game.
    for seat in Player::all(agents.len()) {
        let s = seat.index();
        let mut ctx = Context::new(&mut rngs[s])
            .with_move_time(clocks[s].limit())
            .with_clock(clocks[s].state())
            .with_moves(&record.moves);
        let started = quietly(|| agents[s].start_game(position, seat, &mut ctx));
        let (termination, fault) = match started {
            Ok(Ok(())) => continue,
            // A limit of the sandbox hit while it set the game up is that verdict, as in play.
            Ok(Err(error)) => (
                fault_termination(&error),
                format!("could not start the game: {}", error.message()),
            ),
            Err(panic) => (
                Termination::Crash,
                format!("panicked at the start of the game: {panic}"),
            ),
        };
        return (forfeit_outcome(&*position, seat), termination, Some(fault));
    }

    loop {
        if let Some(outcome) = position.outcome() {
            return (outcome, Termination::decided(outcome.is_draw()), None);
        }
        if position.ply() >= cap {
            return (position.adjudicate(), Termination::PlyCap, None);
        }
        let side = position.side_to_move();
        let s = side.index();
        let limit = clocks[s].limit();
        let state = clocks[s].state();
        let clock = Instant::now();
        let waited = run_delay();
        // Agents get a deadline inside the hard limit by a safety share (under a game clock, a
        // share of what is left), so a search that stops at it is not judged out of time.
        let deadline = agents::clock::plan(clock, limit, state.as_ref());
        let mut ctx = Context::new(&mut rngs[s])
            .with_deadline(deadline)
            .with_move_time(limit)
            .with_clock(state)
            .with_moves(&record.moves);
        let answer = choose_quietly(&mut *agents[s], position, &mut ctx);
        let elapsed = clock.elapsed();
        let charged = charged_time(agents[s].in_process(), waited, elapsed);
        record.time[s] += elapsed;
        record.max_time[s] = record.max_time[s].max(elapsed);
        let loss = forfeit_outcome(&*position, side);
        let (termination, fault) = match answer {
            Err(panic) => (Termination::Crash, format!("panicked: {panic}")),
            Ok(Err(error)) => {
                let termination = fault_termination(&error);
                let mut fault = error.message().to_string();
                if termination == Termination::Timeout
                    && let Some(overrun) =
                        charge_gave_up(&mut clocks[s], charged, agents[s].time_margin())
                    && overrun.flag
                {
                    fault = overrun.to_string();
                }
                (termination, fault)
            }
            Ok(Ok(choice)) => {
                record.nodes[s] += choice.stats.nodes;
                // Outside agents have a stated margin past the limit, for the pipes.
                if let Err(overrun) = clocks[s].punch(charged, agents[s].time_margin()) {
                    let ran = if charged < elapsed {
                        format!(" ({:.1} ms wall time)", elapsed.as_secs_f64() * 1e3)
                    } else {
                        String::new()
                    };
                    (Termination::Timeout, format!("{overrun}{ran}"))
                } else if !position.is_legal(choice.mv) {
                    (
                        Termination::IllegalMove,
                        format!("returned the illegal move {:?}", choice.mv),
                    )
                } else {
                    record.moves.push(position.format_move(choice.mv));
                    position.play_unchecked(choice.mv);
                    watch(&record.moves);
                    continue;
                }
            }
        };
        return (loss, termination, Some(fault));
    }
}
