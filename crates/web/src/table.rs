//! The server's tables: the arena's game-at-a-table model ([`arena::table::Table`]: seats,
//! history, undo, resignation, hints, the person's clock, the end, the record row) behind a
//! lock, answered as the page's JSON.
//!
//! Agents think off the table's lock: [`Session::begin`] takes the agent out of the table as
//! a job, which runs on the blocking pool without the lock, and [`Session::end`] puts it back
//! with its move. Requests that would change the game meanwhile are refused with 409, so a
//! slow agent holds no lock anyone waits on.
//!
//! # The game's JSON (the page's contract)
//!
//! `GET /api/games/ID`, and `game` in the answer to every other request of a game:
//!
//! - `id`, `variant` (canonical id), `family` (`mnk`, `oanquan`, ...), `players`, `seed`,
//!   `hint_agent` (the spec that gives hints), `move_time_ms` (every seat's limit per move,
//!   `st`, or null), `time_control` (as cutechess writes it: `tc=300+2`, `st=30`,
//!   `tc=180 st=30`, or null without one), `tc` (the game clock alone, `300+2`, as `POST
//!   /api/games` takes it back; null without one);
//! - `seats`: per seat in turn order, `{person, name, spec, label}` (`spec` null for a person;
//!   `label` like `X (Lan)`; an operator's agent, `arena serve --agent`, by its name in all
//!   three, never by its command, here and in `over`'s summary and a fault);
//! - `position`: the board, drawn from the game's view ([`crate::board::position_json`]);
//! - `ply` (moves played), `moves` (the moves in the game's notation, space-separated),
//!   `history` (with `GET` and after `undo`, `resign`, `ready`: every move as `played` below
//!   without `sowing`; null otherwise);
//! - `to_move` (the seat to move, null once over), `thinking` (an agent is thinking),
//!   `clock_ms` (what the person to move has left for this move, the limit per move or their
//!   game clock, whichever is less; or null), `can_undo`;
//! - `clocks`: with a game clock (`tc`), per seat in turn order the milliseconds left on its
//!   clock when the answer was made, the running one's turn taken off (a person's from when
//!   the page says `ready`, its board drawn: before that their clock stands and cannot fall,
//!   though a move made without `ready` is charged from the end of the move before; an
//!   agent's while it thinks); null without a game clock. The clock
//!   of `to_move` runs until the next answer (a page counts it down); the others stand.
//! - `over`: null while the game goes on, else `{result, termination, summary, detail,
//!   winner, places}` (`result` as the record writes it, `1-0` or `1-3-2`; `summary` in
//!   words for a person; `detail` the clock's figures when a flag fell, else null; `winner`
//!   the seat that alone took first place, or null; `places` per seat);
//! - `recorded`: null until the game is recorded, then `{file, game}`, or `{error}`;
//! - `rules` (with `history`): [`rules_json`], the variant's rules in words.
//!
//! A move played (`played`, in the answer to `move` and `think`): `{seat, move, place, person,
//! stats, ms, sowing}`, with `note` where the rules made of the move what a player might not
//! expect ([`rules::Game::move_note`]), where `place` is [`crate::board::place_json`], `stats` an agent's
//! `{nodes, depth, score, reason, ms}` (null for a person) and `sowing` the steps of a move
//! that sows ([`crate::board::steps_json`]) or null; an agent's turn that played nothing is
//! `{seat, move: null}` with `fault` when the agent failed. A hint: `{move, place, reason,
//! agent, stats}`, or `{move: null, agent, reason}` when the agent gave none.

use std::any::Any;
use std::time::Duration;

use agents::clock::TimeControl;
use agents::{Agent, AgentGame, AgentSpec, SearchStats};
use arena::played::PlayedGame;
use arena::table::{Answer, Away, Cause, Ply, Seat, Settings, Table, TableError, Thought};
use rules::{Game, Player};
use serde_json::{Value, json};

use crate::board::{place_json, position_json, steps_json};
use crate::error::ApiError;
use crate::seats::build_agent;

/// The time a person's move may arrive after their clock ran out and still count: the page's
/// request takes a moment to come.
pub const CLOCK_GRACE: Duration = Duration::from_millis(400);

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

/// A game at one of the server's tables.
pub struct WebTable<G: AgentGame> {
    table: Table<G>,
    recorded: Recorded,
    /// The operator's agents seated here (`arena serve --agent`): each spec's text and the
    /// name the page shows for it.
    own: Vec<(String, String)>,
}

/// The operator's agents a table seats (their spec and name), and the sandbox their programs
/// run in.
pub type OwnSeats = (Vec<(AgentSpec, String)>, protocol::sandbox::Mode);

/// Builds the agents of the server's tables (never an outside kind: [`build_agent`]).
fn seat_agent<G: AgentGame>(spec: &AgentSpec, players: usize) -> Result<Box<dyn Agent<G>>, String> {
    build_agent::<G>(spec, players).map_err(|error| error.message)
}

/// A refusal of the table as the API answers it: a move the position does not allow is 422,
/// a request that makes no sense 400, one that does not fit the game's state 409.
fn refused(error: TableError) -> ApiError {
    match error {
        TableError::Move(error) => ApiError::illegal(error.to_string()),
        error if error.is_bad_request() => ApiError::bad(error.to_string()),
        error => ApiError::conflict(error.to_string()),
    }
}

impl<G: AgentGame> WebTable<G> {
    /// A new game from `start`: `seats` in turn order, agents built now (so a spec that cannot
    /// be built is refused before the game starts). An outside agent sits only where it is
    /// one of the operator's (`own`), run in its sandbox, a process for this game alone.
    pub fn new(
        start: G,
        seats: Vec<Seat>,
        seed: u64,
        time_control: TimeControl,
        hint: AgentSpec,
        think_limit: Duration,
        own: OwnSeats,
    ) -> Result<WebTable<G>, ApiError> {
        let (own, sandbox) = own;
        for seat in &seats {
            if let Seat::Agent(spec) = seat
                && protocol::is_outside(spec)
                && !own.iter().any(|(ours, _)| ours == spec)
            {
                // No request reaches here with one (`seats::agent_spec`), and none ever may.
                return Err(ApiError::bad(format!(
                    "agent `{spec}`: the server seats a program only where its operator named \
                     it (`arena serve --agent NAME=SPEC`)"
                )));
            }
        }
        // Outside agents are built by the arena's sandboxed builder; with none, by the
        // server's, which refuses them.
        let build = if own.is_empty() {
            seat_agent::<G>
        } else {
            arena::table::builder_in::<G>(sandbox)
        };
        let settings = Settings {
            time_control,
            grace: CLOCK_GRACE,
            think_limit: Some(think_limit),
            ..Settings::new(seed, hint)
        };
        let table = Table::new(start, seats, settings, build).map_err(refused)?;
        Ok(WebTable {
            table,
            recorded: Recorded::Pending,
            own: own
                .into_iter()
                .map(|(spec, name)| (spec.to_string(), name))
                .collect(),
        })
    }

    /// `text` with each operator's agent's spec replaced by its name: the page shows names,
    /// never a command line of the operator's machine.
    fn named(&self, text: String) -> String {
        self.own
            .iter()
            .fold(text, |text, (spec, name)| text.replace(spec.as_str(), name))
    }

    /// What ended the game, in words: `X (Lan) wins`, `O (random) ran out of time: X wins`
    /// (the clock's figures are in [`Self::detail`]).
    fn summary(&self, cause: &Cause, words: String) -> String {
        let label = |seat: Player| self.named(self.table.label(seat));
        match cause {
            Cause::Rules => words,
            Cause::PlyCap => format!(
                "{words} (the ply cap of {} was reached; the rules' count decides)",
                self.table.position().ply()
            ),
            Cause::TimeUp(seat, _) => format!("{} ran out of time: {words}", label(*seat)),
            Cause::Resigned(seat) => format!("{} resigned: {words}", label(*seat)),
            Cause::Fault(seat, fault) => {
                let what = self.named(fault.what.clone());
                format!("{} failed ({what}): {words}", label(*seat))
            }
        }
    }

    /// The figures behind an ending, for whoever asks: what a clock said when its flag fell.
    fn detail(cause: &Cause) -> Option<String> {
        match cause {
            Cause::TimeUp(_, overrun) => Some(overrun.to_string()),
            _ => None,
        }
    }

    /// The move just played, as the page's move list keeps it, with its sowing steps.
    fn last_played(&self) -> Value {
        let Some(ply) = self.table.history().last() else {
            return Value::Null;
        };
        let mut played = ply_json(ply);
        played["sowing"] = json!(steps_json(&ply.before, ply.mv));
        // Only where there is one: the answers a game sends most stay as they were.
        if let Some(note) = self.table.position().move_note(ply.mv) {
            played["note"] = json!(note);
        }
        played
    }

    /// Everything the page shows (the module documentation lists it). Without `history` the
    /// moves' details are left out (the answer to a move carries that move's, and the page
    /// keeps the rest): the answers a game sends most stay small however long the game.
    fn view(&self, id: &str, history: bool) -> Value {
        let table = &self.table;
        let labels: Vec<String> = table
            .labels()
            .into_iter()
            .map(|label| self.named(label))
            .collect();
        let seats: Vec<Value> = table
            .seats()
            .zip(labels.iter())
            .enumerate()
            .map(|(s, (seat, label))| match seat {
                Seat::Person(name) => json!({
                    "person": true,
                    "name": name,
                    "spec": null,
                    "seat": table.position().seat_name(Player::seat(s)),
                    "label": label,
                }),
                // An operator's agent by its name, which is what a request seats it by.
                Seat::Agent(spec) => json!({
                    "person": false,
                    "name": self.named(spec.to_string()),
                    "spec": self.named(spec.to_string()),
                    "seat": table.position().seat_name(Player::seat(s)),
                    "label": label,
                }),
            })
            .collect();
        // The variant's rules in words: with the whole view only (the page keeps them).
        let rules = history.then(|| rules_json(table.position()));
        let history: Option<Vec<Value>> =
            history.then(|| table.history().iter().map(ply_json).collect());
        let over = table.ending().map(|ending| {
            let totals = table.position().totals();
            let words = arena::table::result_words(ending.outcome, &labels, totals.as_deref());
            json!({
                "result": ending.outcome.result_text(),
                "termination": ending.termination.as_str(),
                "summary": self.summary(&ending.cause, words),
                "detail": Self::detail(&ending.cause),
                "winner": ending.outcome.winner().map(Player::index),
                "places": ending.outcome.places(table.players()).to_vec(),
            })
        });
        let recorded = match &self.recorded {
            Recorded::Pending => Value::Null,
            Recorded::Done(file, game) => json!({ "file": file, "game": game }),
            Recorded::Failed(why) => json!({ "error": why }),
        };
        let settings = table.settings();
        json!({
            "id": id,
            "variant": table.position().variant().to_string(),
            "family": G::FAMILY.name,
            "players": table.players(),
            "seats": seats,
            "seed": settings.seed,
            "move_time_ms": settings.move_time().map(|t| t.as_millis() as u64),
            "time_control": settings
                .time_control
                .is_limited()
                .then(|| settings.time_control.to_string()),
            "tc": settings.time_control.clock.map(|clock| clock.to_string()),
            "position": position_json(table.position()),
            "ply": table.history().len(),
            "history": history,
            "rules": rules,
            "moves": table.moves().join(" "),
            "to_move": table.mover().map(Player::index),
            "thinking": table.thinking().is_some(),
            "clock_ms": table.clock_left().map(|t| t.as_millis() as u64),
            "clocks": table.clocks_left().map(|clocks| {
                clocks.iter().map(|t| t.as_millis() as u64).collect::<Vec<_>>()
            }),
            "over": over,
            "recorded": recorded,
            "can_undo": table.can_undo(),
            "hint_agent": settings.hint.to_string(),
        })
    }

    /// The hint's JSON.
    fn hint_json(
        &self,
        hint: Result<(agents::Choice<G::Move>, Duration), arena::table::Fault>,
    ) -> Value {
        let agent = self.table.settings().hint.to_string();
        match hint {
            Ok((choice, time)) => {
                let position = self.table.position();
                json!({
                    "move": position.format_move(choice.mv),
                    "place": place_json(position, choice.mv),
                    "reason": crate::why::why(position, choice.mv),
                    "search": choice.stats.reason,
                    "agent": agent,
                    "stats": stats_json(&choice.stats, time),
                    // The line it expects, from the hinted move on (as Analyse shows it).
                    "pv": agents::pv::texts(position, &choice.pv),
                })
            }
            Err(fault) => json!({
                "move": null,
                "agent": agent,
                "reason": format!("no hint: the agent failed: {}", fault.what),
            }),
        }
    }
}

/// Work taken away from a table to run without its lock: an agent thinking.
pub type Job = Box<dyn FnOnce() -> Box<dyn Any + Send> + Send>;

/// A table of any game, behind one lock: what the server asks of it. [`WebTable`] of every
/// game is one; the server holds them boxed, so it has no list of games.
pub trait Session: Send {
    /// Everything the page shows (the module documentation lists it).
    fn view(&self, id: &str, history: bool) -> Value;
    /// Ends the game if the person to move ran out of time (the server's clock decides; the
    /// page's bar only shows it).
    fn check_clock(&mut self);
    /// A person's move, typed in the game's notation (`b2`, `7,7`, `3P`), at the ply the page
    /// saw; the answer is the move played, with its sowing steps where the game sows.
    fn person_move(&mut self, text: &str, ply: Option<usize>) -> Result<Value, ApiError>;
    /// Takes the agent to move (or, with `hint`, the hint agent) away to think: run the job
    /// off the lock, then hand its answer to [`Session::end`].
    fn begin(&mut self, hint: bool, ply: Option<usize>) -> Result<Job, ApiError>;
    /// Puts the thinking agent back with its answer; the value is the played move or hint.
    fn end(&mut self, answer: Box<dyn Any + Send>) -> Value;
    /// The thinking agent's thread died outside its own panic guard, taking the agent with it:
    /// its seat loses the game as a crash (a hint agent is built again at the next hint).
    fn agent_lost(&mut self, why: &str) -> Value;
    /// `undo`: takes back the last move of a person and every move after it; between people,
    /// the last move.
    fn undo(&mut self, ply: Option<usize>) -> Result<(), ApiError>;
    /// A person gives the game up: `seat`, or the person to move, or the only person.
    fn resign(&mut self, seat: Option<usize>, ply: Option<usize>) -> Result<(), ApiError>;
    /// The page is ready for the person's move (its animation done): their clock starts now,
    /// once per ply.
    fn ready(&mut self, ply: Option<usize>) -> Result<(), ApiError>;
    /// The finished game as the play record keeps it, handed out once.
    fn take_record(&mut self, experiment: &str) -> Option<PlayedGame>;
    /// Where the game's row went.
    fn set_recorded(&mut self, recorded: Recorded);
    /// Where the game's row went, as set.
    fn recorded(&self) -> &Recorded;
    /// Whether nothing is happening at this table that a sweep of old tables must wait for:
    /// no agent thinks, and no person to move has time left on a clock.
    fn idle(&self) -> bool;
    /// "Move now": the seat's agent thinking now is asked for its best move so far
    /// ([`arena::table::Table::move_now`]); refused when none thinks.
    fn move_now(&self) -> Result<(), ApiError>;
}

impl<G: AgentGame> Session for WebTable<G> {
    fn view(&self, id: &str, history: bool) -> Value {
        WebTable::view(self, id, history)
    }

    fn check_clock(&mut self) {
        self.table.check_clock();
    }

    fn person_move(&mut self, text: &str, ply: Option<usize>) -> Result<Value, ApiError> {
        if text.len() > 16 {
            return Err(ApiError::bad(
                "a move is a few characters, like b2, 7,7 or 3P",
            ));
        }
        self.table.person_move(text, ply).map_err(refused)?;
        Ok(self.last_played())
    }

    fn begin(&mut self, hint: bool, ply: Option<usize>) -> Result<Job, ApiError> {
        let thinking = if hint {
            self.table.begin_hint(ply)
        } else {
            self.table.begin_think(ply)
        }
        .map_err(refused)?;
        Ok(Box::new(move || {
            Box::new(thinking.run()) as Box<dyn Any + Send>
        }))
    }

    fn end(&mut self, answer: Box<dyn Any + Send>) -> Value {
        let Ok(thought) = answer.downcast::<Thought<G>>() else {
            return self.agent_lost("the answer came back to a table of another game");
        };
        let away = thought.away();
        match self.table.end(*thought) {
            Answer::Played => self.last_played(),
            Answer::Failed(fault) => {
                json!({ "seat": seat_of(away), "move": null, "fault": self.named(fault.what) })
            }
            Answer::Dropped => json!({ "seat": seat_of(away), "move": null }),
            Answer::Hint(hint) => self.hint_json(hint),
        }
    }

    fn agent_lost(&mut self, why: &str) -> Value {
        let away = self.table.thinking();
        self.table.agent_lost(why);
        match away {
            Some(Away::Seat(seat)) => json!({ "seat": seat.index(), "move": null, "fault": why }),
            _ => json!({ "move": null, "reason": format!("no hint: the agent failed: {why}") }),
        }
    }

    fn undo(&mut self, ply: Option<usize>) -> Result<(), ApiError> {
        self.table.undo(ply).map_err(refused)
    }

    fn resign(&mut self, seat: Option<usize>, ply: Option<usize>) -> Result<(), ApiError> {
        self.table.resign(seat, ply).map_err(refused)
    }

    fn ready(&mut self, ply: Option<usize>) -> Result<(), ApiError> {
        self.table.ready(ply).map_err(refused)
    }

    fn take_record(&mut self, experiment: &str) -> Option<PlayedGame> {
        self.table.take_record(experiment)
    }

    fn set_recorded(&mut self, recorded: Recorded) {
        self.recorded = recorded;
    }

    fn recorded(&self) -> &Recorded {
        &self.recorded
    }

    fn idle(&self) -> bool {
        // A person thinking on a clock is busy too, until their time is up.
        self.table.thinking().is_none() && self.table.clock_left().is_none_or(|left| left.is_zero())
    }

    fn move_now(&self) -> Result<(), ApiError> {
        if self.table.move_now() {
            Ok(())
        } else {
            Err(ApiError::conflict(
                "no agent is thinking about its move here",
            ))
        }
    }
}

/// The seat that thought, for the page (`null` for a hint).
fn seat_of(away: Away) -> Option<usize> {
    match away {
        Away::Seat(seat) => Some(seat.index()),
        Away::Hint => None,
    }
}

/// A move played, for the page's move list.
fn ply_json<G: Game>(ply: &Ply<G>) -> Value {
    json!({
        "seat": ply.seat.index(),
        "move": ply.text(),
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

/// The variant's rules in words, from the game: `{line, totals}`, `line` the rule a player
/// might not expect (caro's blocked ends), `totals` how the final totals rank the seats; each
/// null where the game has none.
pub fn rules_json<G: Game>(position: &G) -> Value {
    json!({ "line": position.rule_line(), "totals": position.totals_rule() })
}
