//! The games of `arena play`: turns of people and agents, the prompt's commands, the countdown,
//! the end of a game and the offer of another, and the game's row in the play record.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use agents::{Agent, AgentRng, AgentSpec, Choice, Context, SearchStats};
use anyhow::Result;
use arena::Termination;
use arena::played::{self, PlayedGame, PlayedSeat};
use rand::SeedableRng;
use rules::{Game, MoveList, Outcome, Player};

use crate::games_cmd::{places_text, player_name};
use crate::play_board::Board;
use crate::play_keys::{Keyboard, Typed};

/// Who plays one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at the keyboard.
    Human,
    /// An agent.
    Agent(AgentSpec),
}

/// Everything about a sitting that is not the game itself.
#[derive(Clone, Debug)]
pub struct Table {
    /// Who sits in each seat, in turn order (two, or three or four for O An Quan).
    pub seats: Vec<Seat>,
    /// The seed of the agents' random number generators.
    pub seed: u64,
    /// The time a person has for each move.
    pub move_time: Option<Duration>,
    /// The pause after an agent's move when an agent moves next.
    pub delay: Duration,
    /// The agent that answers `hint`.
    pub hint: AgentSpec,
    /// The play record finished games are appended to.
    pub record: PathBuf,
    /// The name people play under in the record.
    pub name: String,
}

/// Where the players read and type: what stdout, stderr and stdin are decides colour, echo and
/// the live countdown, so the same game works on a terminal and through pipes.
#[derive(Clone, Copy, Debug)]
pub struct Screen {
    /// Stdout is a terminal: someone is watching.
    pub terminal: bool,
    /// ANSI colour and cursor escapes are allowed on stdout.
    pub colour: bool,
    /// Stdin is not a terminal: a line read is written back after its prompt so the transcript
    /// reads like a session.
    pub echo: bool,
    /// A countdown line above the prompt can be updated in place while the player types.
    pub live_clock: bool,
    /// A spinner on stderr while an agent thinks.
    pub spinner: bool,
}

impl Screen {
    /// The screen of this process, from what its standard streams are connected to.
    pub fn detect() -> Screen {
        let out = std::io::stdout().is_terminal();
        let input = std::io::stdin().is_terminal();
        Screen {
            terminal: out,
            colour: out && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            echo: !input,
            live_clock: out && input,
            spinner: std::io::stderr().is_terminal(),
        }
    }

    /// Writes `text` and a newline.
    pub fn say(&self, text: impl std::fmt::Display) -> Result<()> {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{text}")?;
        Ok(())
    }

    /// Writes `text` and flushes, leaving the cursor after it.
    pub fn prompt(&self, text: &str) -> Result<()> {
        let mut out = std::io::stdout().lock();
        write!(out, "{text}")?;
        out.flush()?;
        Ok(())
    }

    /// Reads the answer to a prompt just written, echoing it when stdin is not a terminal (and
    /// ending the prompt's line when nothing comes).
    pub fn answer(
        &self,
        keys: &mut Keyboard,
        deadline: Option<Instant>,
        tick: impl FnMut(Duration),
    ) -> Result<Typed> {
        let typed = keys.read(deadline, tick);
        match &typed {
            Typed::Line(line) if self.echo => self.say(line)?,
            Typed::Line(_) => {}
            Typed::Closed | Typed::TimeUp => self.say("")?,
        }
        Ok(typed)
    }
}

/// A player of the games of a sitting.
enum Side<G: Board> {
    Human,
    Agent(Box<AgentSide<G>>),
}

/// An agent at the table, with the RNG stream it draws from for the whole sitting.
struct AgentSide<G: Board> {
    spec: AgentSpec,
    agent: Box<dyn Agent<G>>,
    rng: AgentRng,
}

/// One move played, with the position before it, so `undo` can go back.
struct Ply<G: Game> {
    before: G,
    mv: G::Move,
    by_human: bool,
    /// The time the move took (a person's from the prompt), and the nodes searched.
    time: Duration,
    nodes: u64,
}

/// A game under way.
struct Match<G: Board> {
    position: G,
    history: Vec<Ply<G>>,
}

impl<G: Board> Match<G> {
    fn last_move(&self) -> Option<G::Move> {
        self.history.last().map(|ply| ply.mv)
    }

    fn moves_text(&self) -> String {
        self.moves().join(" ")
    }

    /// The moves from the start in the game's notation.
    fn moves(&self) -> Vec<String> {
        self.history
            .iter()
            .map(|ply| ply.before.format_move(ply.mv))
            .collect()
    }
}

/// How a game ended.
enum Verdict {
    /// The rules ended it.
    Rules(Outcome),
    /// The ply cap ended it and the game's rule decided.
    PlyCap(Outcome),
    /// A person ran out of time.
    TimeUp(Player),
    /// An agent failed or answered an illegal move (`crash`, `illegal-move` or `timeout`).
    Fault(Player, String, Termination),
    /// A person quit, or stdin closed.
    Left,
}

/// What a person's turn came to.
enum HumanTurn<M> {
    Move(M),
    /// Moves were taken back: the turn starts again in another position.
    Undone,
    TimeUp,
    Quit,
}

/// The spinner, the move and its statistics of an agent's turn.
struct Thought<M> {
    choice: Choice<M>,
    elapsed: Duration,
}

/// The session: games between the table's seats from `start`, until the players leave or
/// decline another game.
pub fn sit<G: Board>(start: &G, table: &Table, keys: &mut Keyboard, screen: &Screen) -> Result<()> {
    let players = start.num_players();
    let mut sides = Vec::with_capacity(players);
    for (seat, player) in table.seats.iter().zip(Player::all(players)) {
        sides.push(match seat {
            Seat::Human => Side::Human,
            Seat::Agent(spec) => Side::Agent(Box::new(AgentSide {
                spec: spec.clone(),
                agent: protocol::build_for::<G>(spec, players)?,
                rng: arena::play::agent_rng(table.seed, player),
            })),
        });
    }
    let names: Vec<String> = Player::all(players)
        .map(|player| side_name(start, table, player))
        .collect();
    let mut hint: Option<(Box<dyn Agent<G>>, AgentRng)> = None;
    loop {
        let mut game = Match {
            position: start.clone(),
            history: Vec::new(),
        };
        announce(start, table, &names, screen)?;
        // One game, taken up again after an `undo` at its end.
        loop {
            let verdict = play_on(
                &mut game, table, &mut sides, &names, &mut hint, keys, screen,
            )?;
            let Some(ending) = ending(&game.position, &verdict) else {
                finish(&game, verdict, &names, screen)?;
                return Ok(());
            };
            finish(&game, verdict, &names, screen)?;
            let can_undo = game.history.iter().any(|ply| ply.by_human);
            screen.prompt(if can_undo {
                "play again? [y/N] or undo: "
            } else {
                "play again? [y/N] "
            })?;
            let answer = match screen.answer(keys, None, |_| {})? {
                Typed::Line(line) => line.trim().to_lowercase(),
                _ => String::new(),
            };
            if answer == "undo" && can_undo {
                // The game goes on: it is recorded when it ends for good.
                take_back(&mut game, screen)?;
                continue;
            }
            record(&game, ending, table, start, screen)?;
            match answer.as_str() {
                "y" | "yes" => {
                    screen.say("")?;
                    break;
                }
                _ => return Ok(()),
            }
        }
    }
}

/// The name of `player` at this table: `X`, `O`, `player 1`, with `(you)` or the agent's spec
/// when people and agents share the table.
fn side_name<G: Board>(start: &G, table: &Table, player: Player) -> String {
    let base = player_name(start, player);
    let humans = table.seats.iter().filter(|s| **s == Seat::Human).count();
    match &table.seats[player.index()] {
        Seat::Human if humans == 1 => format!("{base} (you)"),
        Seat::Human => base,
        Seat::Agent(spec) => format!("{base} ({spec})"),
    }
}

/// The head of a game: who plays whom, how to type a move, the empty board.
fn announce<G: Board>(start: &G, table: &Table, names: &[String], screen: &Screen) -> Result<()> {
    screen.say(format!(
        "{}: {}, seed {}",
        start.variant(),
        names.join(" against "),
        table.seed
    ))?;
    if table.seats.contains(&Seat::Human) {
        screen.say(format!(
            "type a move ({}), or help for the commands",
            start.move_help()
        ))?;
    }
    screen.prompt(&start.draw(None, screen.colour))
}

/// Plays `game` on from where it stands until it ends or the players leave.
fn play_on<G: Board>(
    game: &mut Match<G>,
    table: &Table,
    sides: &mut [Side<G>],
    names: &[String],
    hint: &mut Option<(Box<dyn Agent<G>>, AgentRng)>,
    keys: &mut Keyboard,
    screen: &Screen,
) -> Result<Verdict> {
    let cap = game.position.default_max_plies();
    loop {
        let position = &game.position;
        if let Some(outcome) = position.outcome() {
            return Ok(Verdict::Rules(outcome));
        }
        if position.ply() >= cap {
            return Ok(Verdict::PlyCap(position.adjudicate()));
        }
        if let Some(note) = position.turn_note() {
            screen.say(note)?;
        }
        let mover = position.side_to_move();
        let number = game.history.len() + 1;
        let name = &names[mover.index()];
        match &mut sides[mover.index()] {
            Side::Human => {
                let humans = table.seats.iter().filter(|s| **s == Seat::Human).count();
                let started = Instant::now();
                match human_turn(game, table, name, humans, hint, keys, screen)? {
                    HumanTurn::Move(mv) => {
                        screen.say(format!(
                            "{number}. {name} plays {}",
                            game.position.format_move(mv)
                        ))?;
                        play(game, mv, true, started.elapsed(), 0);
                    }
                    HumanTurn::Undone => continue,
                    HumanTurn::TimeUp => return Ok(Verdict::TimeUp(mover)),
                    HumanTurn::Quit => return Ok(Verdict::Left),
                }
            }
            Side::Agent(side) => {
                let AgentSide { spec, agent, rng } = side.as_mut();
                let thinking = format!("{name} is thinking");
                let answer = think(agent.as_mut(), rng, game, &thinking, screen)?;
                match answer {
                    Err((termination, fault)) => {
                        return Ok(Verdict::Fault(mover, fault, termination));
                    }
                    Ok(thought) if !game.position.is_legal(thought.choice.mv) => {
                        let fault =
                            format!("{spec} answered the illegal move {:?}", thought.choice.mv);
                        return Ok(Verdict::Fault(mover, fault, Termination::IllegalMove));
                    }
                    Ok(thought) => {
                        let mv = thought.choice.mv;
                        screen.say(format!(
                            "{number}. {name} plays {}  [{}]",
                            game.position.format_move(mv),
                            stats_text(&thought.choice.stats, thought.elapsed)
                        ))?;
                        let nodes = thought.choice.stats.nodes;
                        play(game, mv, false, thought.elapsed, nodes);
                    }
                }
            }
        }
        screen.prompt(&game.position.draw(game.last_move(), screen.colour))?;
        // Only agents play: pause so people can follow the game.
        let agents_only = !table.seats.contains(&Seat::Human);
        if agents_only && !game.position.is_over() && !table.delay.is_zero() {
            std::thread::sleep(table.delay);
        }
    }
}

/// Plays `mv`, keeping the position before it for `undo`.
fn play<G: Board>(game: &mut Match<G>, mv: G::Move, by_human: bool, time: Duration, nodes: u64) {
    game.history.push(Ply {
        before: game.position.clone(),
        mv,
        by_human,
        time,
        nodes,
    });
    game.position.play_unchecked(mv);
}

/// How a game that ended is recorded: its outcome and termination; `None` for a game the
/// players left unfinished, which is not recorded.
fn ending<G: Board>(position: &G, verdict: &Verdict) -> Option<(Outcome, Termination)> {
    Some(match verdict {
        Verdict::Rules(outcome) => {
            let drawn = match outcome {
                Outcome::Draw => true,
                Outcome::Ranked(ranking) => ranking.places().iter().all(|&p| p == 1),
                Outcome::Win(_) => false,
            };
            let termination = if drawn {
                Termination::Draw
            } else {
                Termination::Win
            };
            (*outcome, termination)
        }
        Verdict::PlyCap(outcome) => (*outcome, Termination::PlyCap),
        Verdict::TimeUp(loser) => (
            arena::play::forfeit_outcome(position, *loser),
            Termination::Timeout,
        ),
        Verdict::Fault(loser, _, termination) => {
            (arena::play::forfeit_outcome(position, *loser), *termination)
        }
        Verdict::Left => return None,
    })
}

/// Appends the finished game to the play record and says where. A record that cannot be
/// written is a warning, not the end of the sitting: the move list printed above keeps the game.
fn record<G: Board>(
    game: &Match<G>,
    (outcome, termination): (Outcome, Termination),
    table: &Table,
    start: &G,
    screen: &Screen,
) -> Result<()> {
    let mut seats: Vec<PlayedSeat> = table
        .seats
        .iter()
        .map(|seat| match seat {
            Seat::Human => PlayedSeat::person(table.name.clone()),
            Seat::Agent(spec) => PlayedSeat::agent(spec.clone()),
        })
        .collect();
    for ply in &game.history {
        let seat = ply.before.side_to_move().index();
        if let Some(seat) = seats.get_mut(seat) {
            seat.count_move(ply.time, ply.nodes);
        }
    }
    let played = PlayedGame {
        experiment: played::TERMINAL.into(),
        variant: start.variant(),
        seed: table.seed,
        seats,
        outcome,
        termination,
        plies: game.position.ply(),
        totals: game.position.totals(),
        moves: game
            .history
            .iter()
            .map(|ply| ply.before.format_move(ply.mv))
            .collect(),
    };
    match played::append(&table.record, &played) {
        Ok(index) => screen.say(format!(
            "recorded: {} (game {index})",
            table.record.display()
        )),
        Err(error) => {
            eprintln!("warning: this game was not recorded: {error}");
            Ok(())
        }
    }
}

/// Prints the end of a game: the result, the totals, the move list as `arena replay` reads it.
/// Returns whether the players are still there.
fn finish<G: Board>(
    game: &Match<G>,
    verdict: Verdict,
    names: &[String],
    screen: &Screen,
) -> Result<bool> {
    let position = &game.position;
    let winner_text = |outcome: Outcome| match outcome {
        Outcome::Ranked(_) => places_text(position, outcome),
        _ => match outcome.winner() {
            Some(p) => format!("{} wins", names[p.index()]),
            None => "draw".to_string(),
        },
    };
    let result = |outcome: Outcome, why: String| {
        let text = format!("result: {} {}", outcome.result_text(), why);
        if screen.colour {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text
        }
    };
    let still_there = match verdict {
        Verdict::Rules(outcome) => {
            screen.say(result(outcome, format!("({})", winner_text(outcome))))?;
            true
        }
        Verdict::PlyCap(outcome) => {
            screen.say(result(
                outcome,
                format!(
                    "({}: the ply cap of {} was reached and the rules' count decides)",
                    winner_text(outcome),
                    position.ply()
                ),
            ))?;
            true
        }
        Verdict::TimeUp(loser) => {
            let outcome = arena::play::forfeit_outcome(position, loser);
            screen.say(format!(
                "time is up: {} loses on time",
                names[loser.index()]
            ))?;
            screen.say(result(outcome, format!("({})", winner_text(outcome))))?;
            true
        }
        Verdict::Fault(loser, fault, _) => {
            let outcome = arena::play::forfeit_outcome(position, loser);
            screen.say(result(
                outcome,
                format!(
                    "({}: {} failed: {fault})",
                    winner_text(outcome),
                    names[loser.index()]
                ),
            ))?;
            true
        }
        Verdict::Left => {
            screen.say(format!(
                "game left unfinished after {}",
                crate::plural(game.history.len() as u64, "move")
            ))?;
            false
        }
    };
    if let Some(totals) = position.totals() {
        let label = if position.is_over() {
            "final totals"
        } else {
            "totals if it ended now"
        };
        let each: Vec<String> = names
            .iter()
            .zip(&totals)
            .map(|(name, total)| format!("{name} {total}"))
            .collect();
        screen.say(format!("{label}: {}", each.join(", ")))?;
    }
    let moves = game.moves_text();
    if moves.is_empty() {
        screen.say("moves: none")?;
    } else {
        screen.say(format!("moves: {moves}"))?;
        screen.say(format!(
            "replay: arena replay {} \"{moves}\"",
            position.variant()
        ))?;
    }
    Ok(still_there)
}

/// A person's turn: prompts until a legal move, a command that ends the turn, the end of the
/// time or of stdin. `hint`, `moves`, `help` and refused input keep the same clock.
fn human_turn<G: Board>(
    game: &mut Match<G>,
    table: &Table,
    name: &str,
    humans: usize,
    hint: &mut Option<(Box<dyn Agent<G>>, AgentRng)>,
    keys: &mut Keyboard,
    screen: &Screen,
) -> Result<HumanTurn<G::Move>> {
    let deadline = table.move_time.map(|limit| Instant::now() + limit);
    loop {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l.is_zero()) {
            return Ok(HumanTurn::TimeUp);
        }
        let typed = match left {
            Some(left) if screen.live_clock => {
                // A line of its own above the prompt, rewritten in place each second: the
                // cursor is saved and restored around it, so what the player types stays.
                screen.say(clock_text(left))?;
                screen.prompt(&format!("{name} to move: "))?;
                screen.answer(keys, deadline, |left| {
                    let mut out = std::io::stdout().lock();
                    let _ = write!(out, "\x1b7\x1b[1A\r{}\x1b[K\x1b8", clock_text(left));
                    let _ = out.flush();
                })?
            }
            Some(left) => {
                let seconds = left.as_secs_f64();
                screen.prompt(&format!("{name} to move, {seconds:.1} s left: "))?;
                screen.answer(keys, deadline, |_| {})?
            }
            None => {
                screen.prompt(&format!("{name} to move: "))?;
                screen.answer(keys, None, |_| {})?
            }
        };
        let line = match typed {
            Typed::Line(line) => line,
            Typed::Closed => return Ok(HumanTurn::Quit),
            Typed::TimeUp => return Ok(HumanTurn::TimeUp),
        };
        let text = line.trim();
        match text.to_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(HumanTurn::Quit),
            "help" | "?" | "h" => {
                let undo = if humans >= 2 {
                    "take back the last move"
                } else {
                    "take back your last move and the reply to it"
                };
                screen.say(format!("a move: {}", game.position.move_help()))?;
                screen.say(format!(
                    "commands: undo ({undo}), hint (what {} would play), moves (the legal \
                     moves), quit (leave the game), help",
                    table.hint
                ))?;
            }
            "moves" => {
                let mut moves = MoveList::new();
                game.position.legal_moves(&mut moves);
                let names: Vec<String> = moves
                    .iter()
                    .map(|&m| game.position.format_move(m))
                    .collect();
                screen.say(format!("legal moves: {}", names.join(" ")))?;
            }
            "undo" => {
                if take_back(game, screen)? {
                    return Ok(HumanTurn::Undone);
                }
            }
            "hint" => {
                let (agent, rng) = match hint {
                    Some(built) => built,
                    None => hint.insert((
                        protocol::build_for::<G>(&table.hint, table.seats.len())?,
                        hint_rng(table.seed, table.seats.len()),
                    )),
                };
                let thinking = format!("{} is thinking", table.hint);
                match think(agent.as_mut(), rng, game, &thinking, screen)? {
                    Ok(thought) => {
                        let stats = &thought.choice.stats;
                        let why = stats.reason.as_deref().unwrap_or("its best move");
                        screen.say(format!(
                            "hint: {} ({why}; {} says, {})",
                            game.position.format_move(thought.choice.mv),
                            table.hint,
                            seconds_text(thought.elapsed)
                        ))?;
                    }
                    Err((_, fault)) => {
                        screen.say(format!("no hint: {} failed: {fault}", table.hint))?
                    }
                }
            }
            _ => match game.position.parse_move(text) {
                Ok(mv) => return Ok(HumanTurn::Move(mv)),
                Err(error) => screen.say(format!("refused: {error}"))?,
            },
        }
    }
}

/// `undo`: takes back the last move of a person and every move after it (the reply to it),
/// and shows the board; says so and returns false if no person has moved yet.
fn take_back<G: Board>(game: &mut Match<G>, screen: &Screen) -> Result<bool> {
    let Some(at) = game.history.iter().rposition(|ply| ply.by_human) else {
        screen.say("nothing to undo: no move of a person yet")?;
        return Ok(false);
    };
    let taken = game.history.len() - at;
    game.position = game.history[at].before.clone();
    game.history.truncate(at);
    let what = if taken == 1 { "move" } else { "moves" };
    screen.say(format!("took back {taken} {what}"))?;
    screen.prompt(&game.position.draw(game.last_move(), screen.colour))?;
    Ok(true)
}

/// The hint agent's RNG: a stream of the table's seed apart from every player's (1 to
/// `players`): stream 3 at a table of two.
fn hint_rng(seed: u64, players: usize) -> AgentRng {
    let mut rng = AgentRng::seed_from_u64(seed);
    rng.set_stream(players as u64 + 1);
    rng
}

/// How an agent failed to give a move: the termination it is recorded under and what happened.
type AgentFault = (Termination, String);

/// Asks an agent for a move, with a spinner on a terminal; an error or a panic comes back as
/// the fault's termination and text.
fn think<G: Board>(
    agent: &mut dyn Agent<G>,
    rng: &mut AgentRng,
    game: &Match<G>,
    message: &str,
    screen: &Screen,
) -> Result<std::result::Result<Thought<G::Move>, AgentFault>> {
    let spinner = screen.spinner.then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_message(message.to_string());
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    });
    let moves = game.moves();
    let clock = Instant::now();
    let mut ctx = Context::new(rng).with_moves(&moves);
    let answer = arena::play::choose_quietly(agent, &game.position, &mut ctx);
    let elapsed = clock.elapsed();
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    Ok(match answer {
        Ok(Ok(choice)) => Ok(Thought { choice, elapsed }),
        Ok(Err(error)) => {
            let termination = match error {
                agents::AgentError::IllegalMove(_) => Termination::IllegalMove,
                agents::AgentError::Timeout(_) => Termination::Timeout,
                _ => Termination::Crash,
            };
            Err((termination, error.to_string()))
        }
        Err(message) => Err((Termination::Crash, format!("panicked: {message}"))),
    })
}

/// An agent's time and search statistics, as much as it reports.
fn stats_text(stats: &SearchStats, elapsed: Duration) -> String {
    let unit = if stats.nodes == 1 { "node" } else { "nodes" };
    let mut text = format!("{}, {} {unit}", seconds_text(elapsed), stats.nodes);
    if let Some(depth) = stats.depth {
        let _ = write!(text, ", depth {depth}");
    }
    if let Some(score) = stats.score {
        if score.fract() == 0.0 {
            let _ = write!(text, ", score {score}");
        } else {
            let _ = write!(text, ", score {score:.3}");
        }
    }
    if let Some(reason) = &stats.reason {
        let _ = write!(text, "; {reason}");
    }
    text
}

/// A duration for people: milliseconds below a second, else seconds.
fn seconds_text(time: Duration) -> String {
    let seconds = time.as_secs_f64();
    if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1e3)
    } else {
        format!("{seconds:.1} s")
    }
}

/// The live countdown line.
fn clock_text(left: Duration) -> String {
    format!("[{} s left]", left.as_secs_f64().ceil())
}
