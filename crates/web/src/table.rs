//! A game at the server's table: its seats (people and agents), the moves played with what
//! each cost, the person's clock, the end, and the game's row in the play record.
//!
//! A table is changed only under its lock, and never while an agent thinks: thinking takes the
//! agent out of its seat (see [`Table::begin_think`]), runs on the blocking pool without the
//! lock, and puts it back with its move ([`Table::end_think`]). Requests that would change the
//! game meanwhile are refused with 409, so a slow agent holds no lock anyone waits on.

use std::any::Any;
use std::time::{Duration, Instant};

use agents::{Agent, AgentError, AgentRng, AgentSpec, Choice, Context, SearchStats};
use arena::Termination;
use arena::played::{PlayedGame, PlayedSeat};
use rand::SeedableRng;
use rules::{Outcome, Player};
use serde_json::{Value, json};

use agents::AgentGame;

use crate::board::{place_json, position_json, steps_json};
use crate::error::ApiError;
use crate::seats::build_agent;

/// The time a person's move may arrive after their clock ran out and still count: the page's
/// request takes a moment to come.
pub const CLOCK_GRACE: Duration = Duration::from_millis(400);

/// Who sits in a seat.
pub enum Seat<G: AgentGame> {
    /// A person, under this name in the record.
    Person {
        /// The name.
        name: String,
    },
    /// An agent, with its own stream of the table's seed.
    Agent {
        /// Its spec (also its name in the record).
        spec: AgentSpec,
        /// The agent: `None` while it thinks, away from the table.
        agent: Option<Box<dyn Agent<G>>>,
        /// Its RNG (away with it while it thinks; boxed, as it is large).
        rng: Option<Box<AgentRng>>,
    },
}

/// One move played.
struct Ply<G: AgentGame> {
    before: G,
    mv: G::Move,
    seat: usize,
    person: bool,
    time: Duration,
    stats: Option<SearchStats>,
}

/// How the game ended.
#[derive(Clone, Debug)]
pub struct Ending {
    /// The result.
    pub outcome: Outcome,
    /// How, as the record writes it.
    pub termination: Termination,
    /// What happened, in words.
    pub summary: String,
}

/// Where the game's row went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// Not over yet, or not written yet.
    Pending,
    /// Appended to this file (shown relative to the results folder where it is inside it) as
    /// this game index.
    Done(String, u64),
    /// The record could not be written: why.
    Failed(String),
}

/// What an agent of a table is asked to think about, away from the table.
pub struct Thinking<G: AgentGame> {
    /// The seat (for a move) or `None` (for a hint).
    pub seat: Option<usize>,
    /// The agent.
    pub agent: Box<dyn Agent<G>>,
    /// Its RNG.
    pub rng: AgentRng,
    /// The position.
    pub position: G,
    /// The ply it thinks at, to check the table did not move meanwhile.
    pub ply: usize,
    /// When it must answer by.
    pub deadline: Instant,
}

/// What came back from thinking.
pub struct Thought<G: AgentGame> {
    /// The agent, to go back to its seat.
    pub agent: Box<dyn Agent<G>>,
    /// Its RNG.
    pub rng: AgentRng,
    /// The move, or why there is none.
    pub answer: Result<Choice<G::Move>, (Termination, String)>,
    /// How long it took.
    pub time: Duration,
}

impl<G: AgentGame> Thinking<G> {
    /// Asks the agent (on the calling thread: the blocking pool). A panic, an error or an
    /// illegal move comes back as a fault.
    pub fn run(self) -> (Option<usize>, usize, Thought<G>) {
        let Thinking {
            seat,
            mut agent,
            mut rng,
            position,
            ply,
            deadline,
        } = self;
        let clock = Instant::now();
        let mut ctx = Context::new(&mut rng).with_deadline(Some(deadline));
        let answer = arena::play::choose_quietly(agent.as_mut(), &position, &mut ctx);
        let time = clock.elapsed();
        let answer = match answer {
            Ok(Ok(choice)) if position.is_legal(choice.mv) => Ok(choice),
            Ok(Ok(choice)) => Err((
                Termination::IllegalMove,
                format!("answered the illegal move {:?}", choice.mv),
            )),
            Ok(Err(error)) => {
                let termination = match error {
                    AgentError::IllegalMove(_) => Termination::IllegalMove,
                    AgentError::Timeout(_) => Termination::Timeout,
                    _ => Termination::Crash,
                };
                Err((termination, error.to_string()))
            }
            Err(panic) => Err((Termination::Crash, format!("panicked: {panic}"))),
        };
        (
            seat,
            ply,
            Thought {
                agent,
                rng,
                answer,
                time,
            },
        )
    }
}

/// A game at the table.
pub struct Table<G: AgentGame> {
    position: G,
    history: Vec<Ply<G>>,
    seats: Vec<Seat<G>>,
    seed: u64,
    move_time: Option<Duration>,
    turn_started: Instant,
    /// Whether the page started the person's clock for this ply (after its animation).
    clock_restarted: bool,
    ending: Option<Ending>,
    /// Where the row went.
    pub recorded: Recorded,
    thinking: bool,
    hint_spec: AgentSpec,
    hint: Option<(Box<dyn Agent<G>>, AgentRng)>,
    think_limit: Duration,
}

/// A request's view of the ply: the page says which ply it saw, and a request made on an old
/// view is refused rather than applied to a position the person did not see.
fn check_ply(expected: Option<usize>, actual: usize) -> Result<(), ApiError> {
    match expected {
        Some(ply) if ply != actual => Err(ApiError::conflict(format!(
            "the game has moved on: the page shows ply {ply}, the game is at ply {actual}; \
             reload it"
        ))),
        _ => Ok(()),
    }
}

impl<G: AgentGame> Table<G> {
    /// A new game from `start`: `seats` in turn order, agents built now (so a spec that cannot
    /// be built is refused before the game starts).
    pub fn new(
        start: G,
        seats: Vec<(Option<AgentSpec>, String)>,
        seed: u64,
        move_time: Option<Duration>,
        hint_spec: AgentSpec,
        think_limit: Duration,
    ) -> Result<Table<G>, ApiError> {
        let players = start.num_players();
        let mut built = Vec::with_capacity(players);
        for ((agent, name), player) in seats.into_iter().zip(Player::all(players)) {
            built.push(match agent {
                None => Seat::Person { name },
                Some(spec) => Seat::Agent {
                    agent: Some(build_agent::<G>(&spec, players)?),
                    rng: Some(Box::new(arena::play::agent_rng(seed, player))),
                    spec,
                },
            });
        }
        Ok(Table {
            position: start,
            history: Vec::new(),
            seats: built,
            seed,
            move_time,
            turn_started: Instant::now(),
            clock_restarted: false,
            ending: None,
            recorded: Recorded::Pending,
            thinking: false,
            hint_spec,
            hint: None,
            think_limit,
        })
    }

    /// The seat to move, if the game goes on.
    fn mover(&self) -> Option<usize> {
        self.ending
            .is_none()
            .then(|| self.position.side_to_move().index())
    }

    fn is_person(&self, seat: usize) -> bool {
        matches!(self.seats.get(seat), Some(Seat::Person { .. }))
    }

    /// A seat's name for people: `X (Lan)`, `player 2 (greedy)`.
    fn seat_name(&self, seat: usize) -> String {
        let base = self.position.seat_name(Player::seat(seat));
        match &self.seats[seat] {
            Seat::Person { name } => format!("{base} ({name})"),
            Seat::Agent { spec, .. } => format!("{base} ({spec})"),
        }
    }

    /// The time the person to move has left, if they are on a clock.
    fn clock_left(&self) -> Option<Duration> {
        let limit = self.move_time?;
        let seat = self.mover()?;
        self.is_person(seat)
            .then(|| limit.saturating_sub(self.turn_started.elapsed()))
    }

    /// Ends the game if the person to move ran out of time (the server's clock decides;
    /// the page's bar only shows it).
    pub fn check_clock(&mut self) {
        let (Some(limit), Some(seat)) = (self.move_time, self.mover()) else {
            return;
        };
        if self.is_person(seat) && self.turn_started.elapsed() > limit + CLOCK_GRACE {
            let loser = Player::seat(seat);
            let outcome = arena::play::forfeit_outcome(&self.position, loser);
            let summary = format!(
                "{} ran out of time: {}",
                self.seat_name(seat),
                self.result_words(outcome)
            );
            self.end(outcome, Termination::Timeout, summary);
        }
    }

    fn end(&mut self, outcome: Outcome, termination: Termination, summary: String) {
        self.ending = Some(Ending {
            outcome,
            termination,
            summary,
        });
        // A finished game needs no agent any more: their search tables (up to 64 MiB for
        // alpha-beta) are freed now, not when the table is dropped.
        for seat in &mut self.seats {
            if let Seat::Agent { agent, .. } = seat {
                *agent = None;
            }
        }
        self.hint = None;
    }

    /// The result in words: `X (Lan) wins`, `draw`, `places: ...`.
    fn result_words(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Ranked(ranking) => {
                let mut seats: Vec<usize> = (0..ranking.players()).collect();
                seats.sort_by_key(|&s| ranking.place(Player::seat(s)));
                let places: Vec<String> = seats
                    .iter()
                    .map(|&s| {
                        format!(
                            "{} {}",
                            ordinal(ranking.place(Player::seat(s))),
                            self.seat_name(s)
                        )
                    })
                    .collect();
                places.join(", ")
            }
            _ => match outcome.winner() {
                Some(p) => format!("{} wins", self.seat_name(p.index())),
                None => "draw".to_string(),
            },
        }
    }

    /// Ends the game if the rules or the ply cap say it is over.
    fn check_end(&mut self) {
        if self.ending.is_some() {
            return;
        }
        if let Some(outcome) = self.position.outcome() {
            let termination = Termination::of(outcome);
            let summary = self.result_words(outcome);
            self.end(outcome, termination, summary);
        } else if self.position.ply() >= self.position.default_max_plies() {
            let outcome = self.position.adjudicate();
            let summary = format!(
                "{} (the ply cap of {} was reached; the rules' count decides)",
                self.result_words(outcome),
                self.position.ply()
            );
            self.end(outcome, Termination::PlyCap, summary);
        }
    }

    fn play(
        &mut self,
        mv: G::Move,
        seat: usize,
        person: bool,
        time: Duration,
        stats: Option<SearchStats>,
    ) {
        self.history.push(Ply {
            before: self.position.clone(),
            mv,
            seat,
            person,
            time,
            stats,
        });
        self.position.play_unchecked(mv);
        self.turn_started = Instant::now();
        self.clock_restarted = false;
        self.check_end();
    }

    fn refuse_while_thinking(&self) -> Result<(), ApiError> {
        if self.thinking {
            return Err(ApiError::conflict(
                "an agent is thinking at this table; wait for its answer",
            ));
        }
        Ok(())
    }

    fn refuse_when_over(&self) -> Result<(), ApiError> {
        if self.ending.is_some() {
            return Err(ApiError::conflict("the game is over; start a new one"));
        }
        Ok(())
    }

    /// A person's move, typed in the game's notation (`b2`, `7,7`, `3P`). Returns the sowing
    /// steps where the game sows.
    pub fn person_move(&mut self, text: &str, ply: Option<usize>) -> Result<Value, ApiError> {
        self.check_clock();
        self.refuse_when_over()?;
        self.refuse_while_thinking()?;
        check_ply(ply, self.history.len())?;
        let seat = self.position.side_to_move().index();
        if !self.is_person(seat) {
            return Err(ApiError::conflict(format!(
                "it is {}'s turn, an agent: ask it to move",
                self.seat_name(seat)
            )));
        }
        if text.len() > 16 {
            return Err(ApiError::bad(
                "a move is a few characters, like b2, 7,7 or 3P",
            ));
        }
        let mv = self
            .position
            .parse_move(text)
            .map_err(|error| ApiError::illegal(error.to_string()))?;
        let sowing = steps_json(&self.position, mv);
        let time = self.turn_started.elapsed();
        self.play(mv, seat, true, time, None);
        Ok(self.last_played(sowing))
    }

    /// The move just played, as the page's move list keeps it, with its sowing steps.
    fn last_played(&self, sowing: Option<Value>) -> Value {
        let mut played = self.history.last().map(ply_json).unwrap_or(Value::Null);
        played["sowing"] = json!(sowing);
        played
    }

    /// Takes the agent to move out of its seat, to think away from the table.
    pub fn begin_think(&mut self, ply: Option<usize>) -> Result<Thinking<G>, ApiError> {
        self.check_clock();
        self.refuse_when_over()?;
        self.refuse_while_thinking()?;
        check_ply(ply, self.history.len())?;
        let seat = self.position.side_to_move().index();
        let name = self.seat_name(seat);
        let Seat::Agent { agent, rng, .. } = &mut self.seats[seat] else {
            return Err(ApiError::conflict(format!(
                "it is {name}'s turn, a person: they move by clicking"
            )));
        };
        let (Some(agent), Some(rng)) = (agent.take(), rng.take()) else {
            return Err(ApiError::conflict("the agent is already thinking"));
        };
        self.thinking = true;
        Ok(Thinking {
            seat: Some(seat),
            agent,
            rng: *rng,
            position: self.position.clone(),
            ply: self.history.len(),
            deadline: Instant::now() + self.think_limit,
        })
    }

    /// Puts the agent back in its seat and plays its move (or ends the game on its fault).
    pub fn end_think(&mut self, seat: usize, ply: usize, thought: Thought<G>) -> Value {
        self.thinking = false;
        let Thought {
            agent: back,
            rng: back_rng,
            answer,
            time,
        } = thought;
        if let Seat::Agent { agent, rng, .. } = &mut self.seats[seat]
            && self.ending.is_none()
        {
            *agent = Some(back);
            *rng = Some(Box::new(back_rng));
        }
        if self.ending.is_some() || self.history.len() != ply {
            // The game ended or changed while the agent thought (a resignation): its move is
            // not played.
            return json!({ "seat": seat, "move": null });
        }
        match answer {
            Ok(choice) => {
                let mv = choice.mv;
                let sowing = steps_json(&self.position, mv);
                self.play(mv, seat, false, time, Some(choice.stats));
                self.last_played(sowing)
            }
            Err((termination, fault)) => {
                let loser = Player::seat(seat);
                let outcome = arena::play::forfeit_outcome(&self.position, loser);
                let summary = format!(
                    "{} failed ({fault}): {}",
                    self.seat_name(seat),
                    self.result_words(outcome)
                );
                self.end(outcome, termination, summary);
                json!({ "seat": seat, "move": null, "fault": fault })
            }
        }
    }

    /// Takes the hint agent out, to think about the person's move.
    pub fn begin_hint(&mut self, ply: Option<usize>) -> Result<Thinking<G>, ApiError> {
        self.check_clock();
        self.refuse_when_over()?;
        self.refuse_while_thinking()?;
        check_ply(ply, self.history.len())?;
        let seat = self.position.side_to_move().index();
        if !self.is_person(seat) {
            return Err(ApiError::conflict("hints are for a person's turn"));
        }
        let (agent, rng) = match self.hint.take() {
            Some(built) => built,
            None => {
                let mut rng = AgentRng::seed_from_u64(self.seed);
                // A stream apart from every seat's (1 to 4).
                rng.set_stream(self.seats.len() as u64 + 1);
                (build_agent::<G>(&self.hint_spec, self.seats.len())?, rng)
            }
        };
        self.thinking = true;
        Ok(Thinking {
            seat: None,
            agent,
            rng,
            position: self.position.clone(),
            ply: self.history.len(),
            deadline: Instant::now() + self.think_limit,
        })
    }

    /// Keeps the hint agent for the next hint and says what it would play, and why.
    pub fn end_hint(&mut self, thought: Thought<G>) -> Value {
        self.thinking = false;
        let Thought {
            agent,
            rng,
            answer,
            time,
        } = thought;
        if self.ending.is_none() {
            self.hint = Some((agent, rng));
        }
        match answer {
            Ok(choice) => {
                json!({
                    "move": self.position.format_move(choice.mv),
                    "place": place_json(&self.position, choice.mv),
                    "reason": crate::why::why(&self.position, choice.mv),
                    "search": choice.stats.reason,
                    "agent": self.hint_spec.to_string(),
                    "stats": stats_json(&choice.stats, time),
                })
            }
            Err((_, fault)) => json!({
                "move": null,
                "agent": self.hint_spec.to_string(),
                "reason": format!("no hint: the agent failed: {fault}"),
            }),
        }
    }

    /// `undo`: takes back the last move of a person and every move after it; between people,
    /// the last move.
    pub fn undo(&mut self, ply: Option<usize>) -> Result<(), ApiError> {
        self.check_clock();
        self.refuse_when_over()?;
        self.refuse_while_thinking()?;
        check_ply(ply, self.history.len())?;
        let Some(at) = self.history.iter().rposition(|p| p.person) else {
            return Err(ApiError::conflict(
                "nothing to undo: no move of a person yet",
            ));
        };
        self.position = self.history[at].before.clone();
        self.history.truncate(at);
        self.turn_started = Instant::now();
        self.clock_restarted = false;
        Ok(())
    }

    /// A person gives the game up: `seat`, or the person to move, or the only person.
    pub fn resign(&mut self, seat: Option<usize>, ply: Option<usize>) -> Result<(), ApiError> {
        self.check_clock();
        self.refuse_when_over()?;
        check_ply(ply, self.history.len())?;
        let people: Vec<usize> = (0..self.seats.len())
            .filter(|&s| self.is_person(s))
            .collect();
        let mover = self.position.side_to_move().index();
        let seat = match seat {
            Some(seat) if people.contains(&seat) => seat,
            Some(seat) => {
                return Err(ApiError::bad(format!(
                    "seat {seat} is not a person's: only people resign"
                )));
            }
            None if people.contains(&mover) => mover,
            None if people.len() == 1 => people[0],
            None if people.is_empty() => {
                return Err(ApiError::conflict(
                    "only agents play here: nobody can resign (start a new game instead)",
                ));
            }
            None => {
                return Err(ApiError::bad("say which seat resigns"));
            }
        };
        let outcome = arena::play::forfeit_outcome(&self.position, Player::seat(seat));
        let summary = format!(
            "{} resigned: {}",
            self.seat_name(seat),
            self.result_words(outcome)
        );
        self.end(outcome, Termination::Resign, summary);
        Ok(())
    }

    /// The page is ready for the person's move (its animation done): their clock starts now,
    /// once per ply.
    pub fn ready(&mut self, ply: Option<usize>) -> Result<(), ApiError> {
        self.check_clock();
        check_ply(ply, self.history.len())?;
        if self.ending.is_none() && !self.clock_restarted {
            self.turn_started = Instant::now();
            self.clock_restarted = true;
        }
        Ok(())
    }

    /// The finished game as the play record keeps it, if it is over and not yet recorded.
    pub fn to_record(&self, experiment: &str) -> Option<PlayedGame> {
        let ending = self.ending.as_ref()?;
        if self.recorded != Recorded::Pending {
            return None;
        }
        let mut seats: Vec<PlayedSeat> = self
            .seats
            .iter()
            .map(|seat| match seat {
                Seat::Person { name } => PlayedSeat::person(name.clone()),
                Seat::Agent { spec, .. } => PlayedSeat::agent(spec.clone()),
            })
            .collect();
        for ply in &self.history {
            let nodes = ply.stats.as_ref().map_or(0, |s| s.nodes);
            seats[ply.seat].count_move(ply.time, nodes);
        }
        Some(PlayedGame {
            experiment: experiment.to_string(),
            variant: self.position.variant(),
            seed: self.seed,
            seats,
            outcome: ending.outcome,
            termination: ending.termination,
            plies: self.position.ply(),
            totals: self.position.totals(),
            moves: self.moves(),
        })
    }

    /// The moves in the game's notation.
    pub fn moves(&self) -> Vec<String> {
        self.history
            .iter()
            .map(|p| p.before.format_move(p.mv))
            .collect()
    }

    /// The thinking agent's thread died outside its own panic guard, taking the agent with
    /// it: the seat loses the game as a crash (a hint agent is rebuilt at the next hint).
    pub fn agent_lost(&mut self, seat: Option<usize>, why: &str) -> Value {
        self.thinking = false;
        let Some(seat) = seat else {
            return json!({ "move": null, "reason": format!("no hint: the agent failed: {why}") });
        };
        if self.ending.is_none() {
            let outcome = arena::play::forfeit_outcome(&self.position, Player::seat(seat));
            let summary = format!(
                "{} failed ({why}): {}",
                self.seat_name(seat),
                self.result_words(outcome)
            );
            self.end(outcome, Termination::Crash, summary);
        }
        json!({ "seat": seat, "move": null, "fault": why })
    }

    /// Whether nothing is happening at this table that a sweep of old tables must wait for.
    pub fn idle(&self) -> bool {
        !self.thinking
    }

    /// Everything the page shows. Without `history` the moves' details are left out (the
    /// answer to a move carries that move's, and the page keeps the rest): the answers a game
    /// sends most stay small however long the game.
    pub fn view(&self, id: &str, history: bool) -> Value {
        let players = self.seats.len();
        let seats: Vec<Value> = (0..players)
            .map(|s| match &self.seats[s] {
                Seat::Person { name } => json!({
                    "person": true,
                    "name": name,
                    "spec": null,
                    "seat": self.position.seat_name(Player::seat(s)),
                    "label": self.seat_name(s),
                }),
                Seat::Agent { spec, .. } => json!({
                    "person": false,
                    "name": spec.to_string(),
                    "spec": spec.to_string(),
                    "seat": self.position.seat_name(Player::seat(s)),
                    "label": self.seat_name(s),
                }),
            })
            .collect();
        let history: Option<Vec<Value>> =
            history.then(|| self.history.iter().map(ply_json).collect());
        let over = self.ending.as_ref().map(|ending| {
            let places: Vec<u8> = Player::all(players)
                .map(|p| ending.outcome.place(p))
                .collect();
            json!({
                "result": ending.outcome.result_text(),
                "termination": ending.termination.as_str(),
                "summary": ending.summary,
                "winner": ending.outcome.winner().map(Player::index),
                "places": places,
            })
        });
        let recorded = match &self.recorded {
            Recorded::Pending => Value::Null,
            Recorded::Done(file, game) => json!({ "file": file, "game": game }),
            Recorded::Failed(why) => json!({ "error": why }),
        };
        let can_undo = self.ending.is_none() && self.history.iter().any(|p| p.person);
        json!({
            "id": id,
            "variant": self.position.variant().to_string(),
            "family": G::FAMILY.name,
            "players": players,
            "seats": seats,
            "seed": self.seed,
            "move_time_ms": self.move_time.map(|t| t.as_millis() as u64),
            "position": position_json(&self.position),
            "ply": self.history.len(),
            "history": history,
            "moves": self.moves().join(" "),
            "to_move": self.mover(),
            "thinking": self.thinking,
            "clock_ms": self.clock_left().map(|t| t.as_millis() as u64),
            "over": over,
            "recorded": recorded,
            "can_undo": can_undo,
            "hint_agent": self.hint_spec.to_string(),
        })
    }
}

/// Work taken away from a table to run without its lock: an agent thinking.
pub type Job = Box<dyn FnOnce() -> Box<dyn Any + Send> + Send>;

/// A table of any game, behind one lock: what the server asks of it. [`Table`] of every game
/// is one; the server holds them boxed, so it has no list of games.
pub trait Session: Send {
    /// Everything the page shows (see [`Table::view`]).
    fn view(&self, id: &str, history: bool) -> Value;
    /// See [`Table::check_clock`].
    fn check_clock(&mut self);
    /// See [`Table::person_move`].
    fn person_move(&mut self, text: &str, ply: Option<usize>) -> Result<Value, ApiError>;
    /// Takes the agent to move (or, with `hint`, the hint agent) away to think: run the job
    /// off the lock, then hand its answer to [`Session::end`].
    fn begin(&mut self, hint: bool, ply: Option<usize>) -> Result<Job, ApiError>;
    /// Puts the thinking agent back with its answer; the value is the played move or hint.
    fn end(&mut self, hint: bool, answer: Box<dyn Any + Send>) -> Value;
    /// See [`Table::agent_lost`].
    fn agent_lost(&mut self, seat: Option<usize>, why: &str) -> Value;
    /// See [`Table::undo`].
    fn undo(&mut self, ply: Option<usize>) -> Result<(), ApiError>;
    /// See [`Table::resign`].
    fn resign(&mut self, seat: Option<usize>, ply: Option<usize>) -> Result<(), ApiError>;
    /// See [`Table::ready`].
    fn ready(&mut self, ply: Option<usize>) -> Result<(), ApiError>;
    /// See [`Table::to_record`].
    fn to_record(&self, experiment: &str) -> Option<PlayedGame>;
    /// Where the game's row went.
    fn set_recorded(&mut self, recorded: Recorded);
    /// See [`Table::idle`].
    fn idle(&self) -> bool;
    /// The seat to move, if the game goes on.
    fn mover(&self) -> Option<usize>;
}

impl<G: AgentGame> Session for Table<G> {
    fn view(&self, id: &str, history: bool) -> Value {
        Table::view(self, id, history)
    }

    fn check_clock(&mut self) {
        Table::check_clock(self);
    }

    fn person_move(&mut self, text: &str, ply: Option<usize>) -> Result<Value, ApiError> {
        Table::person_move(self, text, ply)
    }

    fn begin(&mut self, hint: bool, ply: Option<usize>) -> Result<Job, ApiError> {
        let job = if hint {
            self.begin_hint(ply)?
        } else {
            self.begin_think(ply)?
        };
        Ok(Box::new(move || Box::new(job.run()) as Box<dyn Any + Send>))
    }

    fn end(&mut self, hint: bool, answer: Box<dyn Any + Send>) -> Value {
        let Ok(answer) = answer.downcast::<(Option<usize>, usize, Thought<G>)>() else {
            return self.agent_lost(None, "the answer came back to a table of another game");
        };
        let (seat, ply, thought) = *answer;
        if hint {
            self.end_hint(thought)
        } else {
            self.end_think(seat.unwrap_or(0), ply, thought)
        }
    }

    fn agent_lost(&mut self, seat: Option<usize>, why: &str) -> Value {
        Table::agent_lost(self, seat, why)
    }

    fn undo(&mut self, ply: Option<usize>) -> Result<(), ApiError> {
        Table::undo(self, ply)
    }

    fn resign(&mut self, seat: Option<usize>, ply: Option<usize>) -> Result<(), ApiError> {
        Table::resign(self, seat, ply)
    }

    fn ready(&mut self, ply: Option<usize>) -> Result<(), ApiError> {
        Table::ready(self, ply)
    }

    fn to_record(&self, experiment: &str) -> Option<PlayedGame> {
        Table::to_record(self, experiment)
    }

    fn set_recorded(&mut self, recorded: Recorded) {
        self.recorded = recorded;
    }

    fn idle(&self) -> bool {
        Table::idle(self)
    }

    fn mover(&self) -> Option<usize> {
        Table::mover(self)
    }
}

/// A move played, for the page's move list.
fn ply_json<G: AgentGame>(ply: &Ply<G>) -> Value {
    json!({
        "seat": ply.seat,
        "move": ply.before.format_move(ply.mv),
        "place": place_json(&ply.before, ply.mv),
        "person": ply.person,
        "stats": ply.stats.as_ref().map(|s| stats_json(s, ply.time)),
        "ms": ply.time.as_secs_f64() * 1e3,
    })
}

/// An agent's search statistics for the page.
pub fn stats_json(stats: &SearchStats, time: Duration) -> Value {
    json!({
        "nodes": stats.nodes,
        "depth": stats.depth,
        "score": stats.score.filter(|s| s.is_finite()),
        "reason": stats.reason,
        "ms": time.as_secs_f64() * 1e3,
    })
}

/// `1st`, `2nd`, `3rd`, `4th`.
fn ordinal(place: u8) -> String {
    match place {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}
