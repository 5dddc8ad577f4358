//! A game at a table: the one session model of the fronts where people play, the terminal's
//! `arena play` and the browser's `arena serve`. A [`Table`] keeps the seats (people, and
//! agents with their own streams of the table's seed), the moves played with what each cost,
//! `undo`, resignation, hints, the seats' clocks, the end of the game (through
//! [`Outcome`]'s bookkeeping and [`Termination::decided`]) and the game's row in the play record
//! ([`crate::played`]). It does no I/O: a front asks it, draws what it says, and writes the
//! row it hands out.
//!
//! **Agents think away from the table.** [`Table::begin_think`] takes the agent to move out of
//! its seat as a [`Thinking`], which the front runs wherever it likes ([`Thinking::run`]: the
//! terminal on its own thread under a spinner, the server on its blocking pool without the
//! table's lock), and [`Table::end`] puts it back with its answer. Meanwhile the table refuses
//! every change ([`TableError::Thinking`]), so a slow agent holds no lock anybody waits on.
//!
//! **Every seat is on the table's clock** ([`Settings::time_control`]: a game clock, a limit
//! per move, both or neither, as `arena run` plays them): a person's move is charged from the
//! start of their turn ([`Table::ready`]), an agent thinks to the deadline
//! [`agents::clock::plan`] gives from its clock and is charged what it took; a seat past its
//! limit loses on time ([`Cause::TimeUp`], with what its clock said). The table keeps every
//! clock as it was before each ply, so `undo` puts them back.
//!
//! **A game is recorded once, whole.** A game that ended can be taken up again with `undo`
//! until its row is taken ([`Table::take_record`]); after that it is final, its agents are
//! released (their search tables freed), and only another game at the same table
//! ([`Table::rematch`]) goes on, the agents' streams where they were.
//!
//! ```
//! use arena::table::{Seat, Settings, Table, any_agent};
//! use rules::Game;
//!
//! let start = "tictactoe".parse::<rules::Variant>()?.rules::<rules::MnkConfig>().unwrap().start();
//! let seats = vec![Seat::Person("Lan".into()), Seat::Agent("random".parse()?)];
//! let mut table = Table::new(start, seats, Settings::new(3, "random".parse()?), any_agent)?;
//! table.person_move("b2", None)?;
//! let thinking = table.begin_think(None)?; // away from the table: no lock held
//! let thought = thinking.run();
//! table.end(thought);
//! assert_eq!(table.moves(), ["b2", "a2"]);
//! table.undo(None)?; // a person's move and the reply to it
//! assert!(table.history().is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use agents::clock::{Clock, ClockState, Overrun, TimeControl};
use agents::{Agent, AgentGame, AgentRng, AgentSpec, Choice, Context, SearchStats};
use rand::SeedableRng;
use rules::{Game, MoveError, Outcome, Player};

use crate::Termination;
use crate::played::{PlayedGame, PlayedSeat};

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, under this name in the record.
    Person(String),
    /// An agent.
    Agent(AgentSpec),
}

/// How a front builds the agents it seats, for a table of `players` seats: every kind of the
/// registry for the terminal ([`any_agent`]), every kind but the outside ones for the server.
/// The error is the message a person reads.
pub type Builder<G> = fn(&AgentSpec, usize) -> Result<Box<dyn Agent<G>>, String>;

/// Builds any agent of the registry, outside kinds included ([`protocol::build_for`]).
pub fn any_agent<G: AgentGame>(
    spec: &AgentSpec,
    players: usize,
) -> Result<Box<dyn Agent<G>>, String> {
    protocol::build_for::<G>(spec, players).map_err(|error| format!("agent `{spec}`: {error}"))
}

/// [`any_agent`] with outside agents in the sandbox of mode `MODE`
/// ([`protocol::sandbox::Mode::index`]); `required` refuses where a layer is missing.
pub fn sandboxed_agent<G: AgentGame, const MODE: u8>(
    spec: &AgentSpec,
    players: usize,
) -> Result<Box<dyn Agent<G>>, String> {
    use protocol::sandbox::{Mode, Sandbox};
    let sandbox = Sandbox::new(Mode::from_index(MODE));
    if protocol::is_outside(spec) {
        sandbox.check().map_err(|missing| missing.to_string())?;
    }
    protocol::Roster::new()
        .with_sandbox(sandbox)
        .build_for::<G>("agent", spec, players)
        .map_err(|error| format!("agent `{spec}`: {error}"))
}

/// The builder of a table whose outside agents run in the sandbox `mode`.
pub fn builder_in<G: AgentGame>(mode: protocol::sandbox::Mode) -> Builder<G> {
    use protocol::sandbox::Mode;
    match mode {
        Mode::Off => any_agent::<G>,
        Mode::BestEffort => sandboxed_agent::<G, { Mode::BestEffort.index() }>,
        Mode::Required => sandboxed_agent::<G, { Mode::Required.index() }>,
    }
}

/// What a table is set up with besides its seats.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The seed of the agents' generators: seat `s` draws from stream `s + 1`
    /// ([`crate::play::agent_rng`]), the hint agent from the stream after the last seat's.
    pub seed: u64,
    /// The time control of every seat, people and agents alike, as the arena plays it: a
    /// game clock (`tc=`), a limit per move (`st=`, a person's "time per move"), both, or
    /// neither ([`TimeControl::NONE`]).
    pub time_control: TimeControl,
    /// How late a person's move may come after their time ran out and still count (a page's
    /// request takes a moment to arrive).
    pub grace: Duration,
    /// The longest an agent may think about one move (its deadline, inside the one its clock
    /// gives); `None`: no limit.
    pub think_limit: Option<Duration>,
    /// The agent that gives hints.
    pub hint: AgentSpec,
}

impl Settings {
    /// No clock, no grace, no limit on agents, `hint` for hints.
    pub fn new(seed: u64, hint: AgentSpec) -> Settings {
        Settings {
            seed,
            time_control: TimeControl::NONE,
            grace: Duration::ZERO,
            think_limit: None,
            hint,
        }
    }

    /// The same settings with a limit per move of `move_time` (`st=`) and no game clock.
    pub fn with_move_time(mut self, move_time: Option<Duration>) -> Settings {
        self.time_control = TimeControl::per_move(move_time);
        self
    }

    /// The limit per move (`st=`), if there is one.
    pub fn move_time(&self) -> Option<Duration> {
        self.time_control.per_move
    }
}

/// One move played.
#[derive(Clone, Debug)]
pub struct Ply<G: Game> {
    /// The position it was played in.
    pub before: G,
    /// The move.
    pub mv: G::Move,
    /// The seat that played it.
    pub seat: Player,
    /// Whether a person played it.
    pub person: bool,
    /// The time it took: a person's from their clock's start, an agent's thinking.
    pub time: Duration,
    /// An agent's search statistics.
    pub stats: Option<SearchStats>,
    /// Every seat's clock before it, for `undo`.
    clocks: Vec<Clock>,
}

impl<G: Game> Ply<G> {
    /// The move in the game's notation.
    pub fn text(&self) -> String {
        self.before.format_move(self.mv)
    }
}

/// Why an agent gave no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// How the record writes it: `illegal-move`, `crash` or `timeout`.
    pub termination: Termination,
    /// What happened.
    pub what: String,
}

/// What ended a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The rules.
    Rules,
    /// The ply cap, and the game's rule decided.
    PlyCap,
    /// A seat ran out of time (a person's clock, or an agent's move past its limit): what its
    /// clock said, as the arena records a loss on time.
    TimeUp(Player, Overrun),
    /// A person gave the game up.
    Resigned(Player),
    /// An agent failed to give a legal move.
    Fault(Player, Fault),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub outcome: Outcome,
    /// How the record writes it.
    pub termination: Termination,
    /// What ended it.
    pub cause: Cause,
}

/// Why a table refused a request. Each message says what to do instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The game is over (and recorded, or about to be).
    #[error("the game is over; start a new one")]
    Over,
    /// An agent of the table is thinking.
    #[error("an agent is thinking at this table; wait for its answer")]
    Thinking,
    /// The request was made at another ply than the game's.
    #[error(
        "the game has moved on: the request was made at ply {asked}, the game is at ply {now}; \
         reload it"
    )]
    Stale {
        /// The ply the request saw.
        asked: usize,
        /// The game's ply.
        now: usize,
    },
    /// It is an agent's turn.
    #[error("it is {0}'s turn, an agent: ask it to move")]
    AgentsTurn(String),
    /// It is a person's turn.
    #[error("it is {0}'s turn, a person: they move themselves")]
    PersonsTurn(String),
    /// The move was refused.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// No person has moved yet.
    #[error("nothing to undo: no move of a person yet")]
    NothingToUndo,
    /// A hint was asked for an agent's turn.
    #[error("hints are for a person's turn")]
    NoHint,
    /// Only people resign.
    #[error("seat {0} is not a person's: only people resign")]
    NotAPerson(usize),
    /// Nobody can resign.
    #[error("only agents play here: nobody can resign (start a new game instead)")]
    NoPerson,
    /// Several people could resign.
    #[error("say which seat resigns")]
    WhichSeat,
    /// An agent could not be built.
    #[error("{0}")]
    Agent(String),
    /// Another game was asked before the row of the one that ended was taken.
    #[error("the game that ended is not recorded yet")]
    Unrecorded,
}

impl TableError {
    /// Whether the request itself is wrong (a seat that is no person's, an agent that cannot
    /// be built), rather than made at the wrong moment of the game.
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            TableError::NotAPerson(_) | TableError::WhichSeat | TableError::Agent(_)
        )
    }
}

/// Who is away thinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Away {
    /// The agent of this seat, for its move.
    Seat(Player),
    /// The hint agent, for the person to move.
    Hint,
}

/// A seat with its agent.
struct Chair<G: Game> {
    seat: Seat,
    /// The agent: `None` for a person, while it thinks, and once the game is recorded.
    agent: Option<Box<dyn Agent<G>>>,
    /// Its RNG, the whole sitting long (away with the agent while it thinks; boxed, as it is
    /// large).
    rng: Option<Box<AgentRng>>,
}

/// An agent of a table asked for a move, away from the table.
pub struct Thinking<G: AgentGame> {
    away: Away,
    /// The agent's spec, to name it in a fault.
    name: String,
    agent: Box<dyn Agent<G>>,
    rng: Box<AgentRng>,
    position: G,
    moves: Vec<String>,
    ply: usize,
    /// The hard limit of the move and the seat's game clock (none for a hint).
    limit: Option<Duration>,
    clock: Option<ClockState>,
    think_limit: Option<Duration>,
    /// "Move now" ([`Table::move_now`]): the agent is asked for its best move so far.
    stop: Arc<AtomicBool>,
}

/// An agent's answer, to hand back to its table ([`Table::end`]).
pub struct Thought<G: AgentGame> {
    away: Away,
    agent: Box<dyn Agent<G>>,
    rng: Box<AgentRng>,
    ply: usize,
    answer: Result<Choice<G::Move>, Fault>,
    time: Duration,
    /// What its clock is charged: `time` but for the time its thread waited for a processor.
    charged: Duration,
}

impl<G: AgentGame> Thinking<G> {
    /// Who thinks.
    pub fn away(&self) -> Away {
        self.away
    }

    /// Asks the agent, on the calling thread. A panic, an error or an illegal move comes back
    /// as a [`Fault`].
    pub fn run(self) -> Thought<G> {
        let Thinking {
            away,
            name,
            mut agent,
            mut rng,
            position,
            moves,
            ply,
            limit,
            clock,
            think_limit,
            stop,
        } = self;
        let started = Instant::now();
        let waited = crate::play::run_delay();
        // The arena's time management (inside the move's limit by a safety share; under a game
        // clock, a share of what is left), and never past the table's own limit.
        let deadline = [
            agents::clock::plan(started, limit, clock.as_ref()),
            think_limit.map(|limit| started + limit),
        ]
        .into_iter()
        .flatten()
        .min();
        let mut ctx = Context::new(&mut rng)
            .with_deadline(deadline)
            .with_move_time(limit)
            .with_clock(clock)
            .with_moves(&moves)
            .with_stop(Some(stop));
        let answer = crate::play::choose_quietly(agent.as_mut(), &position, &mut ctx);
        let time = started.elapsed();
        let charged = crate::play::charged_time(agent.in_process(), waited, time);
        let answer = match answer {
            Ok(Ok(choice)) if position.is_legal(choice.mv) => Ok(choice),
            Ok(Ok(choice)) => Err(Fault {
                termination: Termination::IllegalMove,
                what: format!("{name} answered the illegal move {:?}", choice.mv),
            }),
            Ok(Err(error)) => Err(Fault {
                termination: crate::play::fault_termination(&error),
                what: error.to_string(),
            }),
            Err(panic) => Err(Fault {
                termination: Termination::Crash,
                what: format!("panicked: {panic}"),
            }),
        };
        Thought {
            away,
            agent,
            rng,
            ply,
            answer,
            time,
            charged,
        }
    }
}

impl<G: AgentGame> Thought<G> {
    /// Who thought.
    pub fn away(&self) -> Away {
        self.away
    }

    /// How long it took.
    pub fn time(&self) -> Duration {
        self.time
    }
}

/// What came of an agent's thinking, once back at the table.
#[derive(Debug)]
pub enum Answer<M> {
    /// The seat's move was played: the last ply of the history.
    Played,
    /// The seat gave no legal move: the game ended on its fault.
    Failed(Fault),
    /// The game ended or moved on while the agent thought: its move was not played.
    Dropped,
    /// What the hint agent would play, and how long it thought; or why it gave no hint.
    Hint(Result<(Choice<M>, Duration), Fault>),
}

/// A game at a table: see the [module documentation](self).
pub struct Table<G: AgentGame> {
    start: G,
    position: G,
    history: Vec<Ply<G>>,
    chairs: Vec<Chair<G>>,
    settings: Settings,
    build: Builder<G>,
    /// Every seat's clock.
    clocks: Vec<Clock>,
    /// When the turn's clock started: the last move, an `undo`, the front ready for it, or
    /// the agent to move sent to think.
    turn_started: Instant,
    /// Whether the front started the person's clock for this ply ([`Table::ready`]).
    clock_restarted: bool,
    ending: Option<Ending>,
    recorded: bool,
    thinking: Option<Away>,
    /// The thinking agent's "move now" flag, shared with its [`Thinking`].
    stop: Arc<AtomicBool>,
    hint: Option<(Box<dyn Agent<G>>, Box<AgentRng>)>,
}

impl<G: AgentGame> Table<G> {
    /// A game from `start` with `seats` in turn order (one per seat of the game), its agents
    /// built now by `build`, so that a spec that cannot be built is refused before the game
    /// starts.
    ///
    /// # Panics
    /// If the number of seats is not the game's number of players.
    pub fn new(
        start: G,
        seats: Vec<Seat>,
        settings: Settings,
        build: Builder<G>,
    ) -> Result<Table<G>, TableError> {
        let players = start.num_players();
        assert_eq!(seats.len(), players, "one seat per player");
        let chairs = seats
            .into_iter()
            .zip(Player::all(players))
            .map(|(seat, player)| Chair {
                rng: matches!(seat, Seat::Agent(_))
                    .then(|| Box::new(crate::play::agent_rng(settings.seed, player))),
                seat,
                agent: None,
            })
            .collect();
        let mut table = Table {
            position: start.clone(),
            start,
            history: Vec::new(),
            chairs,
            clocks: vec![Clock::new(settings.time_control); players],
            settings,
            build,
            turn_started: Instant::now(),
            clock_restarted: false,
            ending: None,
            recorded: false,
            thinking: None,
            stop: Arc::new(AtomicBool::new(false)),
            hint: None,
        };
        table.seat_agents()?;
        Ok(table)
    }

    /// Builds the agent of every agent's seat that has none.
    fn seat_agents(&mut self) -> Result<(), TableError> {
        let players = self.chairs.len();
        for chair in &mut self.chairs {
            if let (Seat::Agent(spec), None) = (&chair.seat, &chair.agent) {
                chair.agent = Some((self.build)(spec, players).map_err(TableError::Agent)?);
            }
        }
        Ok(())
    }

    /// Another game at the table, from the start, once this one is recorded (or never began):
    /// the same seats, each agent built again and drawing on from where its stream was.
    pub fn rematch(&mut self) -> Result<(), TableError> {
        self.refuse_while_thinking()?;
        if self.ending.is_some() && !self.recorded {
            return Err(TableError::Unrecorded);
        }
        self.position = self.start.clone();
        self.history.clear();
        self.clocks = vec![Clock::new(self.settings.time_control); self.chairs.len()];
        self.ending = None;
        self.recorded = false;
        self.restart_clock();
        self.seat_agents()
    }

    /// The position.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// The moves played, in order.
    pub fn history(&self) -> &[Ply<G>] {
        &self.history
    }

    /// The moves in the game's notation.
    pub fn moves(&self) -> Vec<String> {
        self.history.iter().map(Ply::text).collect()
    }

    /// The seats in turn order.
    pub fn seats(&self) -> impl ExactSizeIterator<Item = &Seat> {
        self.chairs.iter().map(|chair| &chair.seat)
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        self.chairs.len()
    }

    /// The table's settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Whether the game's row was taken for the record: the game is final.
    pub fn is_recorded(&self) -> bool {
        self.recorded
    }

    /// Who is away thinking, if anybody is.
    pub fn thinking(&self) -> Option<Away> {
        self.thinking
    }

    /// The seat to move, while the game goes on.
    pub fn mover(&self) -> Option<Player> {
        self.ending.is_none().then(|| self.position.side_to_move())
    }

    /// Whether a person sits in `seat`.
    pub fn is_person(&self, seat: Player) -> bool {
        matches!(
            self.chairs.get(seat.index()),
            Some(Chair {
                seat: Seat::Person(_),
                ..
            })
        )
    }

    /// The number of people at the table.
    pub fn people(&self) -> usize {
        self.seats()
            .filter(|seat| matches!(seat, Seat::Person(_)))
            .count()
    }

    /// A seat's name with who sits there: `X (Lan)`, `player 2 (greedy)`.
    pub fn label(&self, seat: Player) -> String {
        let base = self.position.seat_name(seat);
        match &self.chairs[seat.index()].seat {
            Seat::Person(name) => format!("{base} ({name})"),
            Seat::Agent(spec) => format!("{base} ({spec})"),
        }
    }

    /// Every seat's [`Table::label`], in seat order.
    pub fn labels(&self) -> Vec<String> {
        Player::all(self.players()).map(|p| self.label(p)).collect()
    }

    /// Whether `undo` would take a move back now: a person has moved, nobody is thinking, and
    /// the game is not recorded.
    pub fn can_undo(&self) -> bool {
        !self.recorded && self.thinking.is_none() && self.history.iter().any(|ply| ply.person)
    }

    fn refuse_when_over(&self) -> Result<(), TableError> {
        if self.ending.is_some() {
            return Err(TableError::Over);
        }
        Ok(())
    }

    fn refuse_while_thinking(&self) -> Result<(), TableError> {
        if self.thinking.is_some() {
            return Err(TableError::Thinking);
        }
        Ok(())
    }

    /// A request's view of the game: a request made at another ply is refused rather than
    /// applied to a position its sender did not see.
    fn check_ply(&self, asked: Option<usize>) -> Result<(), TableError> {
        match asked {
            Some(asked) if asked != self.history.len() => Err(TableError::Stale {
                asked,
                now: self.history.len(),
            }),
            _ => Ok(()),
        }
    }

    /// The checks every change of the game starts with.
    fn check_change(&mut self, ply: Option<usize>) -> Result<(), TableError> {
        self.check_clock();
        self.refuse_when_over()?;
        self.refuse_while_thinking()?;
        self.check_ply(ply)
    }

    fn restart_clock(&mut self) {
        self.turn_started = Instant::now();
        self.clock_restarted = false;
    }

    /// The time the person to move has left for this move, if they are on a clock: the limit
    /// per move or what is on their game clock, whichever is less, less the time their turn
    /// has run.
    /// Before the front is ready for the turn ([`Table::ready`]) that is the whole limit: the
    /// person's clock has not started.
    pub fn clock_left(&self) -> Option<Duration> {
        let seat = self.mover()?;
        let limit = self.clocks[seat.index()].limit()?;
        self.is_person(seat).then(|| {
            if self.clock_restarted {
                limit.saturating_sub(self.turn_started.elapsed())
            } else {
                limit
            }
        })
    }

    /// Whether `seat`'s clock runs now: a person's on their turn once the front has shown it
    /// to them ([`Table::ready`]), an agent's while it thinks for its move.
    fn runs(&self, seat: Player) -> bool {
        self.mover() == Some(seat)
            && ((self.is_person(seat) && self.clock_restarted)
                || self.thinking == Some(Away::Seat(seat)))
    }

    /// Every seat's time left on its game clock now (the running one's turn taken off), in
    /// seat order; `None` without a game clock.
    pub fn clocks_left(&self) -> Option<Vec<Duration>> {
        self.settings.time_control.clock?;
        let ran = self.turn_started.elapsed();
        Some(
            Player::all(self.players())
                .map(|seat| {
                    let left = self.clocks[seat.index()].left().unwrap_or_default();
                    if self.runs(seat) {
                        left.saturating_sub(ran)
                    } else {
                        left
                    }
                })
                .collect(),
        )
    }

    /// Every seat's clock as it stood at the last move (or the start), in seat order.
    pub fn clocks(&self) -> &[Clock] {
        &self.clocks
    }

    /// Ends the game if the person to move ran out of time (past the grace); says whether it
    /// did. The table's clock decides; a front's countdown only shows it.
    ///
    /// A person's flag cannot fall before the front is ready for their turn ([`Table::ready`]:
    /// the board drawn, the agent's move shown): the time a page takes to draw and animate
    /// the move before is not theirs. A move made without `ready` is still charged from the
    /// turn's start ([`Table::person_move`]), so skipping it gains no time.
    pub fn check_clock(&mut self) -> bool {
        let Some(seat) = self
            .mover()
            .filter(|&seat| self.is_person(seat) && self.clock_restarted)
        else {
            return false;
        };
        // What punching the clock now would say, without punching it unless the time is up
        // (then the clock shows what it was charged: 0 where the game clock fell).
        let mut clock = self.clocks[seat.index()];
        match clock.punch(self.turn_started.elapsed(), self.settings.grace) {
            Ok(()) => false,
            Err(overrun) => {
                self.clocks[seat.index()] = clock;
                self.forfeit(seat, Termination::Timeout, Cause::TimeUp(seat, overrun));
                true
            }
        }
    }

    /// Charges `seat`'s clock for a move that took `took` (past its limit by at most
    /// `margin`), and hands back every clock as it was before, for the ply's `undo`. A move
    /// past its limit is not played: the seat loses on time.
    fn charge(
        &mut self,
        seat: Player,
        took: Duration,
        margin: Duration,
    ) -> Result<Vec<Clock>, Overrun> {
        let before = self.clocks.clone();
        if let Err(overrun) = self.clocks[seat.index()].punch(took, margin) {
            self.forfeit(seat, Termination::Timeout, Cause::TimeUp(seat, overrun));
            return Err(overrun);
        }
        Ok(before)
    }

    /// The front is ready for the person's move (its board drawn, its animation done): their
    /// clock starts now, once per ply.
    pub fn ready(&mut self, ply: Option<usize>) -> Result<(), TableError> {
        self.check_clock();
        self.check_ply(ply)?;
        if self.ending.is_none() && !self.clock_restarted {
            self.turn_started = Instant::now();
            self.clock_restarted = true;
        }
        Ok(())
    }

    fn close(&mut self, outcome: Outcome, termination: Termination, cause: Cause) {
        self.ending = Some(Ending {
            outcome,
            termination,
            cause,
        });
    }

    /// `seat` loses: the last place alone, the others placed by their totals.
    fn forfeit(&mut self, seat: Player, termination: Termination, cause: Cause) {
        let outcome = crate::play::forfeit_outcome(&self.position, seat);
        self.close(outcome, termination, cause);
    }

    /// Ends the game if the rules or the ply cap say it is over.
    fn check_end(&mut self) {
        if self.ending.is_some() {
            return;
        }
        if let Some(outcome) = self.position.outcome() {
            self.close(
                outcome,
                Termination::decided(outcome.is_draw()),
                Cause::Rules,
            );
        } else if self.position.ply() >= self.position.default_max_plies() {
            self.close(
                self.position.adjudicate(),
                Termination::PlyCap,
                Cause::PlyCap,
            );
        }
    }

    /// Plays `mv`, whose seat's clock was charged (`clocks`: every clock before it).
    fn play(
        &mut self,
        mv: G::Move,
        person: bool,
        time: Duration,
        stats: Option<SearchStats>,
        clocks: Vec<Clock>,
    ) {
        let seat = self.position.side_to_move();
        self.history.push(Ply {
            before: self.position.clone(),
            mv,
            seat,
            person,
            time,
            stats,
            clocks,
        });
        self.position.play_unchecked(mv);
        self.restart_clock();
        self.check_end();
    }

    /// A person's move, typed in the game's notation (`b2`, `7,7`, `3P`), at ply `ply` if the
    /// front says which it saw. A move after the person's time is refused: the game is lost on
    /// time.
    pub fn person_move(&mut self, text: &str, ply: Option<usize>) -> Result<(), TableError> {
        self.check_change(ply)?;
        let seat = self.position.side_to_move();
        if !self.is_person(seat) {
            return Err(TableError::AgentsTurn(self.label(seat)));
        }
        let mv = self.position.parse_move(text)?;
        let time = self.turn_started.elapsed();
        let clocks = self
            .charge(seat, time, self.settings.grace)
            .map_err(|_| TableError::Over)?;
        self.play(mv, true, time, None, clocks);
        Ok(())
    }

    fn thinking_for(
        &self,
        away: Away,
        agent: Box<dyn Agent<G>>,
        rng: Box<AgentRng>,
    ) -> Thinking<G> {
        let name = match away {
            Away::Seat(seat) => match &self.chairs[seat.index()].seat {
                Seat::Agent(spec) => spec.to_string(),
                Seat::Person(name) => name.clone(),
            },
            Away::Hint => self.settings.hint.to_string(),
        };
        // A seat thinks on its clock. A hint thinks on the person's time, which keeps running:
        // inside what is left of their move, as an agent on that clock would plan it, so a
        // hint never costs a person the game on time.
        let (limit, clock) = match away {
            Away::Seat(seat) => {
                let clock = self.clocks[seat.index()];
                (clock.limit(), clock.state())
            }
            Away::Hint => {
                let clock = self.clocks[self.position.side_to_move().index()];
                let ran = self.turn_started.elapsed();
                let state = clock.state().map(|state| ClockState {
                    left: state.left.saturating_sub(ran),
                    ..state
                });
                (clock.limit().map(|limit| limit.saturating_sub(ran)), state)
            }
        };
        Thinking {
            away,
            name,
            agent,
            rng,
            position: self.position.clone(),
            moves: self.moves(),
            ply: self.history.len(),
            limit,
            clock,
            think_limit: self.settings.think_limit,
            stop: self.stop.clone(),
        }
    }

    /// "Move now": asks the seat's agent thinking now for its best move so far. Agents with a
    /// search loop answer at once ([`agents::Context::stop`] says which); others finish their
    /// move. False when no seat's agent is thinking (a hint is not hurried).
    pub fn move_now(&self) -> bool {
        let asked = matches!(self.thinking, Some(Away::Seat(_)));
        if asked {
            self.stop.store(true, Ordering::Relaxed);
        }
        asked
    }

    /// Takes the agent to move out of its seat, to think away from the table; hand its
    /// [`Thought`] back to [`Table::end`].
    pub fn begin_think(&mut self, ply: Option<usize>) -> Result<Thinking<G>, TableError> {
        self.check_change(ply)?;
        let seat = self.position.side_to_move();
        if self.is_person(seat) {
            return Err(TableError::PersonsTurn(self.label(seat)));
        }
        let chair = &mut self.chairs[seat.index()];
        let (Some(agent), Some(rng)) = (chair.agent.take(), chair.rng.take()) else {
            return Err(TableError::Thinking);
        };
        self.thinking = Some(Away::Seat(seat));
        self.stop = Arc::new(AtomicBool::new(false));
        // Its clock runs from now (what `clocks_left` shows meanwhile).
        self.turn_started = Instant::now();
        Ok(self.thinking_for(Away::Seat(seat), agent, rng))
    }

    /// Takes the hint agent out (built the first time), to think about the person's move.
    pub fn begin_hint(&mut self, ply: Option<usize>) -> Result<Thinking<G>, TableError> {
        self.check_change(ply)?;
        if !self.is_person(self.position.side_to_move()) {
            return Err(TableError::NoHint);
        }
        let (agent, rng) = match self.hint.take() {
            Some(built) => built,
            None => {
                let players = self.chairs.len();
                let mut rng = AgentRng::seed_from_u64(self.settings.seed);
                // A stream apart from every seat's (1 to `players`).
                rng.set_stream(players as u64 + 1);
                let agent =
                    (self.build)(&self.settings.hint, players).map_err(TableError::Agent)?;
                (agent, Box::new(rng))
            }
        };
        self.thinking = Some(Away::Hint);
        self.stop = Arc::new(AtomicBool::new(false));
        Ok(self.thinking_for(Away::Hint, agent, rng))
    }

    /// Puts a thinking agent back with its answer: a seat's move is played (or the game ends
    /// on its fault), a hint is said. An answer that comes after the game ended or moved on
    /// (a resignation meanwhile) is dropped.
    pub fn end(&mut self, thought: Thought<G>) -> Answer<G::Move> {
        let Thought {
            away,
            agent,
            rng,
            ply,
            answer,
            time,
            charged,
        } = thought;
        if self.thinking == Some(away) {
            self.thinking = None;
        }
        let seat = match away {
            Away::Hint => {
                if !self.recorded {
                    self.hint = Some((agent, rng));
                }
                return Answer::Hint(answer.map(|choice| (choice, time)));
            }
            Away::Seat(seat) => seat,
        };
        // Outside agents have a stated margin past the limit, for the pipes.
        let margin = agent.time_margin();
        if !self.recorded {
            let chair = &mut self.chairs[seat.index()];
            chair.agent = Some(agent);
            chair.rng = Some(rng);
        }
        if self.ending.is_some() || self.history.len() != ply {
            return Answer::Dropped;
        }
        match answer {
            Ok(choice) => match self.charge(seat, charged, margin) {
                Ok(clocks) => {
                    self.play(choice.mv, false, time, Some(choice.stats), clocks);
                    Answer::Played
                }
                Err(overrun) => {
                    let ran = if charged < time {
                        format!(" ({:.1} ms wall time)", time.as_secs_f64() * 1e3)
                    } else {
                        String::new()
                    };
                    Answer::Failed(Fault {
                        termination: Termination::Timeout,
                        what: format!("{overrun}{ran}"),
                    })
                }
            },
            Err(mut fault) => {
                let termination = fault.termination;
                // An agent that gave up at its deadline is judged by its clock as a late move.
                let late = (termination == Termination::Timeout)
                    .then(|| {
                        crate::play::charge_gave_up(&mut self.clocks[seat.index()], charged, margin)
                    })
                    .flatten();
                match late {
                    Some(overrun) if overrun.flag => {
                        fault.what = overrun.to_string();
                        self.forfeit(seat, termination, Cause::TimeUp(seat, overrun));
                    }
                    _ => self.forfeit(seat, termination, Cause::Fault(seat, fault.clone())),
                }
                Answer::Failed(fault)
            }
        }
    }

    /// The thinking agent was lost with the thread it ran on (outside its own panic guard):
    /// a seat loses the game as a crash; a hint agent is built again at the next hint.
    pub fn agent_lost(&mut self, why: &str) {
        let Some(away) = self.thinking.take() else {
            return;
        };
        if let Away::Seat(seat) = away
            && self.ending.is_none()
        {
            let fault = Fault {
                termination: Termination::Crash,
                what: why.to_string(),
            };
            self.forfeit(seat, Termination::Crash, Cause::Fault(seat, fault));
        }
    }

    /// `undo`: takes back the last move of a person and every move after it (the replies to
    /// it); between people, the last move. A game that ended is taken up again, unless it is
    /// recorded.
    pub fn undo(&mut self, ply: Option<usize>) -> Result<(), TableError> {
        if self.recorded {
            return Err(TableError::Over);
        }
        self.refuse_while_thinking()?;
        // A loss on time stands, found at this very request or before.
        if self.check_clock()
            || matches!(
                self.ending,
                Some(Ending {
                    cause: Cause::TimeUp(..),
                    ..
                })
            )
        {
            return Err(TableError::Over);
        }
        self.check_ply(ply)?;
        let at = self
            .history
            .iter()
            .rposition(|ply| ply.person)
            .ok_or(TableError::NothingToUndo)?;
        self.position = self.history[at].before.clone();
        self.clocks = self.history[at].clocks.clone();
        self.history.truncate(at);
        self.ending = None;
        self.restart_clock();
        Ok(())
    }

    /// A person gives the game up: `seat`, or else the person to move, or else the only
    /// person.
    pub fn resign(&mut self, seat: Option<usize>, ply: Option<usize>) -> Result<(), TableError> {
        self.check_clock();
        self.refuse_when_over()?;
        self.check_ply(ply)?;
        let people: Vec<Player> = Player::all(self.players())
            .filter(|&p| self.is_person(p))
            .collect();
        let mover = self.position.side_to_move();
        let seat = match seat {
            Some(seat) => *people
                .iter()
                .find(|p| p.index() == seat)
                .ok_or(TableError::NotAPerson(seat))?,
            None if people.contains(&mover) => mover,
            None if people.len() == 1 => people[0],
            None if people.is_empty() => return Err(TableError::NoPerson),
            None => return Err(TableError::WhichSeat),
        };
        self.forfeit(seat, Termination::Resign, Cause::Resigned(seat));
        Ok(())
    }

    /// The finished game's row for the play record (`experiment`: [`crate::played::TERMINAL`]
    /// or [`crate::played::BROWSER`]), handed out once: the game is final from now on. Every
    /// agent hears how the game ended and leaves the table (their search tables freed).
    /// `None` while the game goes on and once the row was taken.
    pub fn take_record(&mut self, experiment: &str) -> Option<PlayedGame> {
        let ending = self.ending.as_ref()?;
        if self.recorded {
            return None;
        }
        self.recorded = true;
        let mut seats: Vec<PlayedSeat> = self
            .seats()
            .map(|seat| match seat {
                Seat::Person(name) => PlayedSeat::person(name.clone()),
                Seat::Agent(spec) => PlayedSeat::agent(spec.clone()),
            })
            .collect();
        for ply in &self.history {
            let nodes = ply.stats.as_ref().map_or(0, |s| s.nodes);
            seats[ply.seat.index()].count_move(ply.time, nodes);
        }
        for (seat, clock) in seats.iter_mut().zip(&self.clocks) {
            seat.clock_left = clock.left();
        }
        let game = PlayedGame {
            experiment: experiment.to_string(),
            variant: self.position.variant(),
            seed: self.settings.seed,
            seats,
            outcome: ending.outcome,
            termination: ending.termination,
            plies: self.position.ply(),
            totals: self.position.totals(),
            moves: self.moves(),
            // Where `arena run` writes the time control: schema 3 (`played::append`).
            time_control: Some(self.settings.time_control).filter(TimeControl::is_limited),
        };
        let (outcome, termination) = (ending.outcome, ending.termination.as_str());
        for chair in &mut self.chairs {
            if let Some(mut agent) = chair.agent.take() {
                // A panic here changes nothing recorded.
                let _ =
                    crate::play::quietly(|| agent.end_game(&self.position, outcome, termination));
            }
        }
        self.hint = None;
        Some(game)
    }
}

/// A result in words, with the seats' `names`: `X (Lan) wins`, `draw`, or for more than two
/// players the places with the totals, `player 2 first (41), player 1 second (35), player 3
/// third (29)`.
pub fn result_words(outcome: Outcome, names: &[String], totals: Option<&[i32]>) -> String {
    if let Outcome::Ranked(ranking) = outcome {
        let mut seats: Vec<Player> = Player::all(ranking.players()).collect();
        seats.sort_by_key(|&p| (ranking.place(p), p.index()));
        let words: Vec<String> = seats
            .iter()
            .map(|&p| {
                let place = ranking.place(p);
                let shared = seats.iter().filter(|&&q| ranking.place(q) == place).count() > 1;
                let total = totals
                    .and_then(|t| t.get(p.index()))
                    .map(|t| format!(" ({t})"))
                    .unwrap_or_default();
                format!(
                    "{} {}{}{total}",
                    names[p.index()],
                    Player::seat(usize::from(place - 1)).name(),
                    if shared { " (shared)" } else { "" }
                )
            })
            .collect();
        return words.join(", ");
    }
    match outcome.winner() {
        Some(p) => format!("{} wins", names[p.index()]),
        None => "draw".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agents::AgentError;
    use rules::Variant;

    fn tictactoe() -> rules::Mnk {
        "tictactoe"
            .parse::<Variant>()
            .unwrap()
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start()
    }

    fn agent(spec: &str) -> Seat {
        Seat::Agent(spec.parse().unwrap())
    }

    fn person(name: &str) -> Seat {
        Seat::Person(name.into())
    }

    fn settings(seed: u64) -> Settings {
        Settings::new(seed, "alphabeta:depth=9".parse().unwrap())
    }

    /// Plays the agent to move, on this thread.
    fn think<G: AgentGame>(table: &mut Table<G>) -> Answer<G::Move> {
        let thinking = table.begin_think(None).expect("an agent's turn");
        table.end(thinking.run())
    }

    #[test]
    fn a_person_beats_random_and_the_row_is_handed_out_once() {
        // Seed 3's random replies to b2 and c1 are a2 and c2, as in the terminal's tests.
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("random")],
            settings(3),
            any_agent,
        )
        .unwrap();
        for mv in ["b2", "c1", "a3"] {
            table.person_move(mv, None).unwrap();
            if table.ending().is_none() {
                assert!(matches!(think(&mut table), Answer::Played));
            }
        }
        let ending = table.ending().unwrap().clone();
        assert_eq!(ending.outcome, Outcome::Win(Player::First));
        assert_eq!(
            (ending.termination, ending.cause),
            (Termination::Win, Cause::Rules)
        );
        assert_eq!(table.moves(), ["b2", "a2", "c1", "c2", "a3"]);
        assert_eq!(
            result_words(ending.outcome, &table.labels(), None),
            "X (Lan) wins"
        );
        let row = table.take_record(crate::played::BROWSER).unwrap();
        assert_eq!(row.seats[0].name, "Lan");
        assert_eq!(
            row.seats[1].nodes,
            table.history()[1].stats.as_ref().unwrap().nodes
                + table.history()[3].stats.as_ref().unwrap().nodes
        );
        assert_eq!(row.moves.join(" "), "b2 a2 c1 c2 a3");
        assert_eq!(table.take_record(crate::played::BROWSER), None, "once");
        assert_eq!(
            table.undo(None),
            Err(TableError::Over),
            "final once recorded"
        );
        assert_eq!(table.person_move("b3", None), Err(TableError::Over));
    }

    #[test]
    fn undo_after_the_end_takes_the_game_up_again_until_it_is_recorded() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("random")],
            settings(3),
            any_agent,
        )
        .unwrap();
        for mv in ["b2", "c1", "a3"] {
            table.person_move(mv, None).unwrap();
            if table.ending().is_none() {
                think(&mut table);
            }
        }
        assert!(table.ending().is_some() && table.can_undo());
        table.undo(None).unwrap();
        assert_eq!(table.ending(), None);
        assert_eq!(table.moves(), ["b2", "a2", "c1", "c2"]);
        table.person_move("b3", None).unwrap();
        assert!(matches!(think(&mut table), Answer::Played));
        assert_eq!(
            table.take_record("play"),
            None,
            "not over: nothing to record"
        );
    }

    #[test]
    fn undo_takes_back_a_person_s_move_and_the_replies_between_people_one_move() {
        let mut table = Table::new(
            tictactoe(),
            vec![agent("random"), person("Lan")],
            settings(1),
            any_agent,
        )
        .unwrap();
        assert_eq!(table.undo(None), Err(TableError::NothingToUndo));
        think(&mut table);
        assert_eq!(
            table.undo(None),
            Err(TableError::NothingToUndo),
            "an agent's move"
        );
        let reply = ["a1", "b1", "c1"]
            .into_iter()
            .find(|mv| table.person_move(mv, Some(1)).is_ok())
            .unwrap();
        think(&mut table);
        assert_eq!(table.history().len(), 3, "{reply}");
        table.undo(Some(3)).unwrap();
        assert_eq!(table.history().len(), 1, "the person's move and the reply");

        let mut table = Table::new(
            tictactoe(),
            vec![person("a"), person("b")],
            settings(1),
            any_agent,
        )
        .unwrap();
        table.person_move("b2", None).unwrap();
        table.person_move("a1", None).unwrap();
        table.undo(None).unwrap();
        assert_eq!(table.moves(), ["b2"]);
    }

    #[test]
    fn requests_of_another_ply_or_turn_are_refused_with_why() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("random")],
            settings(1),
            any_agent,
        )
        .unwrap();
        assert_eq!(
            table.person_move("b2", Some(3)),
            Err(TableError::Stale { asked: 3, now: 0 })
        );
        assert!(
            matches!(table.begin_think(None), Err(TableError::PersonsTurn(name)) if name == "X (Lan)")
        );
        assert!(matches!(
            table.person_move("zz", None),
            Err(TableError::Move(_))
        ));
        table.person_move("b2", Some(0)).unwrap();
        assert!(
            matches!(table.person_move("a1", None), Err(TableError::AgentsTurn(name)) if name == "O (random)")
        );
        assert_eq!(table.begin_hint(None).err(), Some(TableError::NoHint));
    }

    #[test]
    fn an_agent_thinks_away_from_the_table_which_refuses_changes_meanwhile() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("random")],
            settings(1),
            any_agent,
        )
        .unwrap();
        table.person_move("b2", None).unwrap();
        let thinking = table.begin_think(Some(1)).unwrap();
        assert_eq!(table.thinking(), Some(Away::Seat(Player::Second)));
        assert_eq!(table.undo(None), Err(TableError::Thinking));
        assert_eq!(table.begin_think(None).err(), Some(TableError::Thinking));
        assert!(!table.can_undo());
        // The person resigns while the agent thinks: its answer is dropped.
        table.resign(None, None).unwrap();
        assert!(matches!(table.end(thinking.run()), Answer::Dropped));
        let ending = table.ending().unwrap();
        assert_eq!(ending.termination, Termination::Resign);
        assert_eq!(ending.outcome, Outcome::Win(Player::Second));
        assert_eq!(table.thinking(), None);
    }

    #[test]
    fn an_agent_that_fails_loses_the_game() {
        for (mode, termination) in [
            ("illegal", Termination::IllegalMove),
            ("panic", Termination::Crash),
            ("error", Termination::Crash),
        ] {
            let mut table = Table::new(
                tictactoe(),
                vec![person("Lan"), agent(&format!("fault:mode={mode}"))],
                settings(1),
                any_agent,
            )
            .unwrap();
            table.person_move("b2", None).unwrap();
            let Answer::Failed(fault) = think(&mut table) else {
                panic!("{mode}: no fault");
            };
            assert_eq!(fault.termination, termination, "{mode}: {}", fault.what);
            let ending = table.ending().unwrap();
            assert_eq!(ending.outcome, Outcome::Win(Player::First));
            assert_eq!(ending.cause, Cause::Fault(Player::Second, fault));
        }
    }

    #[test]
    fn a_hint_draws_on_a_stream_apart_and_the_agent_is_kept() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("a"), person("b")],
            settings(1),
            any_agent,
        )
        .unwrap();
        for mv in ["b2", "a1", "a2", "c1"] {
            table.person_move(mv, None).unwrap();
        }
        let hint = table.begin_hint(Some(4)).unwrap();
        assert_eq!(table.person_move("c3", None), Err(TableError::Thinking));
        let Answer::Hint(Ok((choice, _))) = table.end(hint.run()) else {
            panic!("no hint");
        };
        assert_eq!(table.position().format_move(choice.mv), "c2", "the win now");
        assert!(table.hint.is_some(), "kept for the next hint");
        assert_eq!(table.history().len(), 4, "a hint plays nothing");
    }

    #[test]
    fn a_person_out_of_time_loses_the_game_on_time() {
        let settings = settings(1).with_move_time(Some(Duration::from_millis(1)));
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("random")],
            settings,
            any_agent,
        )
        .unwrap();
        assert!(table.clock_left().unwrap() <= Duration::from_millis(1));
        assert_eq!(
            table.clocks_left(),
            None,
            "a limit per move is no game clock"
        );
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(table.person_move("b2", None), Err(TableError::Over));
        let ending = table.ending().unwrap();
        let Cause::TimeUp(Player::First, overrun) = ending.cause else {
            panic!("{:?}", ending.cause);
        };
        assert!(!overrun.flag, "the limit per move, not a game clock");
        assert_eq!(overrun.limit, Duration::from_millis(1));
        assert!(
            overrun.to_string().ends_with("the limit is 1 ms"),
            "{overrun}"
        );
        assert_eq!(
            (ending.outcome, ending.termination),
            (Outcome::Win(Player::Second), Termination::Timeout)
        );
        assert_eq!(table.clock_left(), None, "the game is over");
    }

    fn clocked(text: &str) -> Settings {
        Settings {
            time_control: text.parse().unwrap(),
            ..settings(1)
        }
    }

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn a_person_s_move_is_charged_to_their_clock_and_the_increment_added() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("a"), person("b")],
            clocked("tc=60+2"),
            any_agent,
        )
        .unwrap();
        assert_eq!(table.clocks_left().unwrap().len(), 2);
        assert_eq!(table.clocks()[1].left(), Some(secs(60)), "b waits");
        table.person_move("b2", None).unwrap();
        let took = table.history()[0].time;
        assert_eq!(
            table.clocks()[0].left(),
            Some(secs(60) - took + secs(2)),
            "charged what the move took, then given the increment"
        );
        assert_eq!(table.clocks()[1].left(), Some(secs(60)));
        // b's clock runs now; a's stands.
        assert_eq!(table.clocks_left().unwrap()[0], secs(62) - took);
        assert!(table.clocks_left().unwrap()[1] <= secs(60));
        assert!(table.clock_left().unwrap() <= secs(60));
    }

    #[test]
    fn a_person_s_flag_falls_and_the_game_is_lost_on_time_with_the_clock_s_state() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("random")],
            clocked("tc=0.002"),
            any_agent,
        )
        .unwrap();
        table.ready(None).unwrap();
        std::thread::sleep(Duration::from_millis(10));
        assert!(table.check_clock(), "the table's clock decides");
        assert_eq!(table.person_move("b2", None), Err(TableError::Over));
        let ending = table.ending().unwrap().clone();
        assert_eq!(
            (ending.outcome, ending.termination),
            (Outcome::Win(Player::Second), Termination::Timeout)
        );
        let Cause::TimeUp(Player::First, overrun) = ending.cause else {
            panic!("{:?}", ending.cause);
        };
        assert!(overrun.flag, "the game clock fell");
        assert_eq!(overrun.before.unwrap().left, Duration::from_millis(2));
        assert!(
            overrun.to_string().starts_with("lost on time: move 1 took")
                && overrun
                    .to_string()
                    .ends_with("with 2.0 ms on its clock (tc=0.002)"),
            "{overrun}"
        );
        // The flag fell: the clock shows 0 (what the web's answer and the terminal show), the
        // other seat's what it had.
        assert_eq!(
            table.clocks_left().unwrap(),
            [Duration::ZERO, Duration::from_millis(2)]
        );
        // The record keeps the time control and the clocks, where `arena run` has them.
        let row = table.take_record(crate::played::TERMINAL).unwrap().row(0);
        assert_eq!(row.time_control.as_deref(), Some("tc=0.002"));
        assert_eq!(row.termination, "timeout");
        assert_eq!(
            (row.first_clock_ms, row.second_clock_ms),
            (Some(0.0), Some(2.0)),
            "the seat that lost on time has nothing left"
        );
    }

    #[test]
    fn a_person_s_clock_waits_for_the_front_to_show_the_board() {
        // Issue 36, defect 12: the time a page takes to draw the board (and animate the move
        // before) is not the person's. Their clock starts at `ready`, not at the table's start.
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("random")],
            clocked("st=0.05"),
            any_agent,
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(150));
        assert!(!table.check_clock(), "no flag before the board was shown");
        assert!(table.ending().is_none());
        assert_eq!(
            table.clock_left(),
            Some(Duration::from_millis(50)),
            "the whole move's time"
        );
        table.ready(None).unwrap();
        assert!(
            table.ending().is_none(),
            "ready after a slow drawing is no loss"
        );
        // From `ready` on, the clock runs and falls as before.
        std::thread::sleep(Duration::from_millis(150));
        assert!(
            table.check_clock(),
            "the flag falls once the board was shown"
        );
        assert!(matches!(
            table.ending().unwrap().cause,
            Cause::TimeUp(Player::First, _)
        ));
    }

    #[test]
    fn a_move_without_ready_is_charged_from_the_turn_s_start() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("random")],
            clocked("st=0.05"),
            any_agent,
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(table.person_move("b2", None), Err(TableError::Over));
        assert!(matches!(
            table.ending().unwrap().termination,
            Termination::Timeout
        ));
    }

    #[test]
    fn a_loss_on_time_stands_and_undo_is_refused() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("a"), person("b")],
            clocked("tc=0.5"),
            any_agent,
        )
        .unwrap();
        table.person_move("b2", None).unwrap();
        table.ready(None).unwrap();
        std::thread::sleep(Duration::from_millis(700));
        assert!(table.check_clock(), "b's flag fell");
        // Asked later, as the terminal does at the end of a game: the loss still stands.
        assert_eq!(table.undo(None), Err(TableError::Over));
        let ending = table.ending().unwrap();
        assert!(matches!(ending.cause, Cause::TimeUp(Player::Second, _)));
        assert_eq!(table.history().len(), 1, "nothing taken back");
    }

    #[test]
    fn a_hint_thinks_inside_what_is_left_of_the_person_s_time() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("a"), person("b")],
            clocked("tc=60 st=0.5"),
            any_agent,
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let hint = table.begin_hint(None).unwrap();
        let limit = hint.limit.unwrap();
        assert!(
            limit <= Duration::from_millis(400),
            "{limit:?}: the move's 0.5 s less the 0.1 s gone"
        );
        assert!(hint.clock.unwrap().left <= Duration::from_millis(59_900));
        let Answer::Hint(Ok(_)) = table.end(hint.run()) else {
            panic!("no hint");
        };
    }

    #[test]
    fn undo_puts_every_clock_back() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("random")],
            clocked("tc=40/60+1"),
            any_agent,
        )
        .unwrap();
        let start = table.clocks().to_vec();
        table.person_move("b2", None).unwrap();
        assert!(matches!(think(&mut table), Answer::Played));
        let after_two = table.clocks().to_vec();
        assert_ne!(after_two, start);
        assert_eq!(after_two[1].moves(), 1, "the agent's move was charged");
        let free = ["c1", "a1", "a3"]
            .into_iter()
            .find(|mv| table.person_move(mv, None).is_ok());
        assert!(free.is_some());
        table.undo(None).unwrap();
        assert_eq!(
            table.clocks(),
            after_two,
            "back to before the person's move"
        );
        table.undo(None).unwrap();
        assert_eq!(table.clocks(), start, "and to the start");
        assert_eq!(table.clocks_left().unwrap()[1], secs(60));
    }

    /// An agent that thinks until the deadline it is given, then plays the first legal move;
    /// it says what it was told in its reason.
    struct Punctual;

    impl Agent<rules::Mnk> for Punctual {
        fn choose(
            &mut self,
            position: &rules::Mnk,
            ctx: &mut Context<'_>,
        ) -> Result<Choice<rules::Cell>, AgentError> {
            let mut moves = rules::MoveList::new();
            position.legal_moves(&mut moves);
            let told = format!(
                "{:?} {:?} {:?}",
                ctx.time_left().map(|t| t <= Duration::from_millis(100)),
                ctx.move_time,
                ctx.clock.map(|c| c.left)
            );
            if let Some(left) = ctx.time_left() {
                std::thread::sleep(left);
            }
            let mut choice = Choice::new(moves[0], 1);
            choice.stats.reason = Some(told);
            Ok(choice)
        }
    }

    fn punctual(_: &AgentSpec, _: usize) -> Result<Box<dyn Agent<rules::Mnk>>, String> {
        Ok(Box::new(Punctual))
    }

    #[test]
    fn an_agent_under_a_clock_thinks_to_the_plan_s_deadline_and_moves_inside_its_time() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("punctual")],
            clocked("tc=3"),
            punctual,
        )
        .unwrap();
        table.person_move("b2", None).unwrap();
        assert!(matches!(think(&mut table), Answer::Played));
        let ply = &table.history()[1];
        // A share of what is left (3 s / 30), well inside the hard limit: the whole clock.
        assert_eq!(
            ply.stats.as_ref().unwrap().reason.as_deref(),
            Some("Some(true) Some(3s) Some(3s)")
        );
        let left = table.clocks()[1].left().unwrap();
        assert!(left < secs(3) && left > Duration::ZERO, "{left:?}");
        assert_eq!(table.ending(), None);
    }

    #[test]
    fn an_agent_past_its_clock_loses_on_time() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("fault:mode=sleep,ms=200")],
            clocked("tc=0.05"),
            any_agent,
        )
        .unwrap();
        table.person_move("b2", None).unwrap();
        let Answer::Failed(fault) = think(&mut table) else {
            panic!("the agent's move counted");
        };
        assert_eq!(fault.termination, Termination::Timeout);
        assert!(
            fault.what.starts_with("lost on time: move 1 took"),
            "{}",
            fault.what
        );
        let ending = table.ending().unwrap();
        assert!(matches!(ending.cause, Cause::TimeUp(Player::Second, overrun) if overrun.flag));
        assert_eq!(ending.outcome, Outcome::Win(Player::First));
        assert_eq!(table.clocks()[1].left(), Some(Duration::ZERO));
        assert_eq!(table.clocks_left().unwrap()[1], Duration::ZERO);
    }

    /// An agent that waits past its move's limit and then gives up with a timeout of its own,
    /// as an outside agent does when its answer does not come (`no move within ...`).
    struct GivesUp;

    impl Agent<rules::Mnk> for GivesUp {
        fn choose(
            &mut self,
            _: &rules::Mnk,
            ctx: &mut Context<'_>,
        ) -> Result<Choice<rules::Cell>, AgentError> {
            let limit = ctx.move_time.expect("a move under a clock has a limit");
            std::thread::sleep(limit + Duration::from_millis(20));
            Err(AgentError::Timeout(format!(
                "no move within {} ms",
                limit.as_millis()
            )))
        }

        fn in_process(&self) -> bool {
            false
        }
    }

    fn gives_up(_: &AgentSpec, _: usize) -> Result<Box<dyn Agent<rules::Mnk>>, String> {
        Ok(Box::new(GivesUp))
    }

    #[test]
    fn an_agent_that_gives_up_past_its_game_clock_loses_on_time_in_the_clock_s_words() {
        let mut table = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("gives-up")],
            clocked("tc=0.05"),
            gives_up,
        )
        .unwrap();
        table.person_move("b2", None).unwrap();
        let Answer::Failed(fault) = think(&mut table) else {
            panic!("the agent gave no move");
        };
        assert_eq!(fault.termination, Termination::Timeout);
        assert!(
            fault.what.starts_with("lost on time: move 1 took")
                && fault.what.ends_with("on its clock (tc=0.05)"),
            "{}",
            fault.what
        );
        let ending = table.ending().unwrap();
        assert!(matches!(ending.cause, Cause::TimeUp(Player::Second, overrun) if overrun.flag));
        assert_eq!(table.clocks_left().unwrap()[1], Duration::ZERO);
        let row = table.take_record(crate::played::TERMINAL).unwrap().row(0);
        assert_eq!(row.second_clock_ms, Some(0.0));
    }

    #[test]
    fn three_players_resign_and_forfeit_by_their_totals() {
        let start = "oanquan-3p"
            .parse::<Variant>()
            .unwrap()
            .rules::<rules::OanQuanRules>()
            .unwrap()
            .start();
        let mut table = Table::new(
            start,
            vec![agent("greedy"), person("Lan"), agent("random")],
            settings(9),
            any_agent,
        )
        .unwrap();
        assert!(matches!(think(&mut table), Answer::Played));
        assert_eq!(table.resign(Some(0), None), Err(TableError::NotAPerson(0)));
        table.resign(None, Some(1)).unwrap();
        let ending = table.ending().unwrap().clone();
        assert_eq!(ending.termination, Termination::Resign);
        assert_eq!(
            ending.outcome.place(Player::Second),
            3,
            "the last place alone"
        );
        let row = table.take_record("play-web").unwrap();
        assert_eq!(row.seats.len(), 3);
        assert_eq!(row.plies, 1);
        let words = result_words(ending.outcome, &table.labels(), row.totals.as_deref());
        assert!(words.contains(", player 2 (Lan) third ("), "{words}");
    }

    #[test]
    fn agents_play_to_the_end_and_a_rematch_starts_afresh_with_the_streams_going_on() {
        let mut table = Table::new(
            tictactoe(),
            vec![agent("random"), agent("random")],
            settings(5),
            any_agent,
        )
        .unwrap();
        assert_eq!(table.resign(None, None), Err(TableError::NoPerson));
        let mut games = Vec::new();
        for _ in 0..2 {
            while table.ending().is_none() {
                assert!(matches!(think(&mut table), Answer::Played));
            }
            let row = table.take_record("play").unwrap();
            assert!(
                table.chairs.iter().all(|chair| chair.agent.is_none()),
                "released"
            );
            games.push(row.moves.join(" "));
            table.rematch().unwrap();
            assert!(table.history().is_empty() && table.ending().is_none());
        }
        assert_ne!(games[0], games[1], "the streams went on: {games:?}");
    }

    #[test]
    fn a_spec_that_cannot_be_built_is_refused_before_the_game() {
        let error = Table::new(
            tictactoe(),
            vec![person("Lan"), agent("greedy")],
            settings(1),
            any_agent,
        )
        .err()
        .unwrap();
        assert!(error.is_bad_request());
        assert!(error.to_string().contains("agent `greedy`"), "{error}");
    }
}
