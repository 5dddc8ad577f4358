//! The games of `arena play`: the terminal's side of a game at a table
//! ([`arena::table::Table`], which keeps the seats, the moves, undo, the clock, the end and the
//! record row): the prompt and its commands, the countdown, the spinner, the printing, and the
//! offer of another game.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use agents::clock::TimeControl;
use agents::{AgentGame, AgentSpec, SearchStats};
use anyhow::{Result, anyhow};
use arena::played;
use arena::table::{self, Answer, Cause, Settings, Table, TableError};
use rules::{MoveList, Player};

use crate::play_board::{draw_position, turn_note};
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
pub struct Sitting {
    /// Who sits in each seat, in turn order (one per player of the game).
    pub seats: Vec<Seat>,
    /// The seed of the agents' random number generators.
    pub seed: u64,
    /// Every seat's time control: a game clock, a limit per move, both or neither.
    pub time_control: TimeControl,
    /// The pause after an agent's move when an agent moves next.
    pub delay: Duration,
    /// The agent that answers `hint`.
    pub hint: AgentSpec,
    /// The play record finished games are appended to.
    pub record: PathBuf,
    /// The name people play under in the record.
    pub name: String,
    /// The sandbox of outside agents (`--sandbox`).
    pub sandbox: protocol::sandbox::Mode,
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

    /// The board of the table's position, the last move marked.
    fn board<G: AgentGame>(&self, table: &Table<G>) -> Result<()> {
        let last = table
            .history()
            .last()
            .filter(|ply| !ply.before.is_pass(ply.mv))
            .map(|ply| ply.before.move_place(ply.mv).place);
        self.prompt(&draw_position(table.position(), last, self.colour))
    }

    /// Runs an agent's thinking with a spinner on a terminal.
    fn spin<T>(&self, message: &str, think: impl FnOnce() -> T) -> T {
        let spinner = self.spinner.then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_message(message.to_string());
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
        let answer = think();
        if let Some(bar) = spinner {
            bar.finish_and_clear();
        }
        answer
    }
}

/// What a person's turn came to.
enum HumanTurn {
    Moved,
    /// Moves were taken back: the turn starts again in another position.
    Undone,
    /// The game ended during the turn (out of time, resigned).
    Ended,
    Quit,
}

/// The session: games between the sitting's seats from `start`, until the players leave or
/// decline another game.
pub fn sit<G: AgentGame>(
    start: &G,
    sitting: &Sitting,
    keys: &mut Keyboard,
    screen: &Screen,
) -> Result<()> {
    let seats = sitting
        .seats
        .iter()
        .map(|seat| match seat {
            Seat::Human => table::Seat::Person(sitting.name.clone()),
            Seat::Agent(spec) => table::Seat::Agent(spec.clone()),
        })
        .collect();
    let settings = Settings {
        time_control: sitting.time_control,
        ..Settings::new(sitting.seed, sitting.hint.clone())
    };
    let mut table = Table::new(
        start.clone(),
        seats,
        settings,
        table::builder_in::<G>(sitting.sandbox),
    )
    .map_err(|error| anyhow!(error))?;
    let names: Vec<String> = Player::all(table.players())
        .map(|player| side_name(&table, player))
        .collect();
    loop {
        announce(&table, sitting, &names, screen)?;
        // One game, taken up again after an `undo` at its end.
        loop {
            let still_there = play_on(&mut table, sitting, &names, keys, screen)?;
            finish(&table, &names, screen)?;
            if !still_there {
                return Ok(());
            }
            let can_undo = table.can_undo();
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
                take_back(&mut table, screen)?;
                continue;
            }
            record(&mut table, sitting, screen)?;
            match answer.as_str() {
                "y" | "yes" => {
                    table.rematch().map_err(|error| anyhow!(error))?;
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
fn side_name<G: AgentGame>(table: &Table<G>, player: Player) -> String {
    let base = table.position().seat_name(player);
    match table.seats().nth(player.index()) {
        Some(table::Seat::Person(_)) if table.people() == 1 => format!("{base} (you)"),
        Some(table::Seat::Agent(spec)) => format!("{base} ({spec})"),
        _ => base,
    }
}

/// The head of a game: who plays whom, how to type a move, the empty board.
fn announce<G: AgentGame>(
    table: &Table<G>,
    sitting: &Sitting,
    names: &[String],
    screen: &Screen,
) -> Result<()> {
    let timed = if sitting.time_control.is_limited() {
        format!(", {}", sitting.time_control)
    } else {
        String::new()
    };
    screen.say(format!(
        "{}: {}, seed {}{timed}",
        table.position().variant(),
        names.join(" against "),
        sitting.seed
    ))?;
    if table.people() > 0 {
        screen.say(format!(
            "type a move ({}), or help for the commands",
            table.position().move_help()
        ))?;
    }
    screen.board(table)
}

/// Plays the game on from where it stands until it ends or the players leave (`false`).
fn play_on<G: AgentGame>(
    table: &mut Table<G>,
    sitting: &Sitting,
    names: &[String],
    keys: &mut Keyboard,
    screen: &Screen,
) -> Result<bool> {
    while let Some(mover) = table.mover() {
        if let Some(note) = turn_note(table.position()) {
            screen.say(note)?;
        }
        let number = table.history().len() + 1;
        let name = &names[mover.index()];
        if let Some(line) = clocks_line(table, names) {
            screen.say(line)?;
        }
        if table.is_person(mover) {
            match human_turn(table, sitting, name, keys, screen)? {
                HumanTurn::Moved => {
                    let played = table.history().last().map(|ply| ply.text());
                    screen.say(format!(
                        "{number}. {name} plays {}",
                        played.unwrap_or_default()
                    ))?;
                }
                HumanTurn::Undone => continue,
                HumanTurn::Ended => return Ok(true),
                HumanTurn::Quit => return Ok(false),
            }
        } else {
            let thinking = table.begin_think(None).map_err(|error| anyhow!(error))?;
            let thought = screen.spin(&format!("{name} is thinking"), || thinking.run());
            let time = thought.time();
            match table.end(thought) {
                Answer::Played => {
                    let ply = table.history().last().expect("a move was played");
                    let stats = ply.stats.clone().unwrap_or_default();
                    screen.say(format!(
                        "{number}. {name} plays {}  [{}]",
                        ply.text(),
                        stats_text(&stats, time)
                    ))?;
                }
                // The game ended on the agent's fault: the result says it.
                Answer::Failed(_) => return Ok(true),
                Answer::Dropped | Answer::Hint(_) => continue,
            }
        }
        screen.board(table)?;
        // Only agents play: pause so people can follow the game.
        if table.people() == 0 && table.mover().is_some() && !sitting.delay.is_zero() {
            std::thread::sleep(sitting.delay);
        }
    }
    Ok(true)
}

/// Appends the finished game to the play record and says where. A record that cannot be
/// written is a warning, not the end of the sitting: the move list printed above keeps the game.
fn record<G: AgentGame>(table: &mut Table<G>, sitting: &Sitting, screen: &Screen) -> Result<()> {
    let Some(game) = table.take_record(played::TERMINAL) else {
        return Ok(());
    };
    match played::append(&sitting.record, &game) {
        Ok(index) => screen.say(format!(
            "recorded: {} (game {index})",
            sitting.record.display()
        )),
        Err(error) => {
            eprintln!("warning: this game was not recorded: {error}");
            Ok(())
        }
    }
}

/// Prints the end of a game, or where the players left it: the result, the totals, the move
/// list as `arena replay` reads it.
fn finish<G: AgentGame>(table: &Table<G>, names: &[String], screen: &Screen) -> Result<()> {
    let position = table.position();
    let result = |why: String| {
        let ending = table.ending().expect("the game is over");
        let text = format!("result: {} ({why})", ending.outcome.result_text());
        if screen.colour {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text
        }
    };
    match table.ending() {
        Some(ending) => {
            let totals = position.totals();
            let words = table::result_words(ending.outcome, names, totals.as_deref());
            let name = |seat: &Player| &names[seat.index()];
            match &ending.cause {
                Cause::Rules => screen.say(result(words))?,
                Cause::PlyCap => screen.say(result(format!(
                    "{words}: the ply cap of {} was reached and the rules' count decides",
                    position.ply()
                )))?,
                Cause::TimeUp(seat, overrun) => {
                    screen.say(format!(
                        "time is up: {} loses on time ({overrun})",
                        name(seat)
                    ))?;
                    screen.say(result(words))?;
                }
                Cause::Resigned(seat) => {
                    screen.say(result(format!("{words}: {} resigned", name(seat))))?;
                }
                Cause::Fault(seat, fault) => screen.say(result(format!(
                    "{words}: {} failed: {}",
                    name(seat),
                    fault.what
                )))?,
            }
        }
        None => screen.say(format!(
            "game left unfinished after {}",
            crate::plural(table.history().len() as u64, "move")
        ))?,
    }
    if let Some(totals) = position.totals() {
        let label = if table.ending().is_some() {
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
    let moves = table.moves().join(" ");
    if moves.is_empty() {
        screen.say("moves: none")?;
    } else {
        screen.say(format!("moves: {moves}"))?;
        screen.say(format!(
            "replay: arena replay {} \"{moves}\"",
            position.variant()
        ))?;
    }
    Ok(())
}

/// A person's turn: prompts until a legal move, a command that ends the turn, the end of the
/// time or of stdin. `hint`, `moves`, `help` and refused input keep the same clock.
fn human_turn<G: AgentGame>(
    table: &mut Table<G>,
    sitting: &Sitting,
    name: &str,
    keys: &mut Keyboard,
    screen: &Screen,
) -> Result<HumanTurn> {
    // The person's clock starts with their first prompt of the turn.
    table.ready(None).map_err(|error| anyhow!(error))?;
    loop {
        if table.ending().is_some() {
            return Ok(HumanTurn::Ended);
        }
        let left = table.clock_left();
        let deadline = left.map(|left| Instant::now() + left);
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
            Typed::TimeUp => {
                // The table's clock decides; the keyboard's deadline is the same moment.
                if !table.check_clock() {
                    std::thread::sleep(Duration::from_millis(1));
                    table.check_clock();
                }
                continue;
            }
        };
        let text = line.trim();
        match text.to_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "q" => return Ok(HumanTurn::Quit),
            "help" | "?" | "h" => {
                let undo = if table.people() >= 2 {
                    "take back the last move"
                } else {
                    "take back your last move and the reply to it"
                };
                screen.say(format!("a move: {}", table.position().move_help()))?;
                screen.say(format!(
                    "commands: undo ({undo}), hint (what {} would play), moves (the legal \
                     moves), resign (give the game up), quit (leave the game), help",
                    sitting.hint
                ))?;
            }
            "moves" => {
                let position = table.position();
                let mut moves = MoveList::new();
                position.legal_moves(&mut moves);
                let names: Vec<String> = moves.iter().map(|&m| position.format_move(m)).collect();
                screen.say(format!("legal moves: {}", names.join(" ")))?;
            }
            "undo" => {
                if take_back(table, screen)? {
                    return Ok(HumanTurn::Undone);
                }
            }
            "resign" => match table.resign(None, None) {
                Ok(()) => return Ok(HumanTurn::Ended),
                Err(error) => screen.say(format!("refused: {error}"))?,
            },
            "hint" => hint(table, sitting, screen)?,
            _ => match table.person_move(text, None) {
                Ok(()) => return Ok(HumanTurn::Moved),
                Err(TableError::Over) => return Ok(HumanTurn::Ended),
                Err(error) => screen.say(format!("refused: {error}"))?,
            },
        }
    }
}

/// `hint`: what the hint agent would play, and why.
fn hint<G: AgentGame>(table: &mut Table<G>, sitting: &Sitting, screen: &Screen) -> Result<()> {
    let thinking = match table.begin_hint(None) {
        Ok(thinking) => thinking,
        Err(error) => return screen.say(format!("no hint: {error}")),
    };
    let thought = screen.spin(&format!("{} is thinking", sitting.hint), || thinking.run());
    match table.end(thought) {
        Answer::Hint(Ok((choice, time))) => {
            let why = choice.stats.reason.as_deref().unwrap_or("its best move");
            screen.say(format!(
                "hint: {} ({why}; {} says, {})",
                table.position().format_move(choice.mv),
                sitting.hint,
                seconds_text(time)
            ))
        }
        Answer::Hint(Err(fault)) => {
            screen.say(format!("no hint: {} failed: {}", sitting.hint, fault.what))
        }
        _ => Ok(()),
    }
}

/// `undo`: takes back the last move of a person and every move after it (the reply to it),
/// and shows the board; says why and returns false if nothing was taken back.
fn take_back<G: AgentGame>(table: &mut Table<G>, screen: &Screen) -> Result<bool> {
    let before = table.history().len();
    if let Err(error) = table.undo(None) {
        screen.say(error)?;
        return Ok(false);
    }
    let taken = before - table.history().len();
    let what = if taken == 1 { "move" } else { "moves" };
    screen.say(format!("took back {taken} {what}"))?;
    screen.board(table)?;
    Ok(true)
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

/// Every seat's game clock at the start of a turn, `clocks: X (you) 4:58.3, O (mcts) 5:00.0`;
/// `None` without a game clock.
fn clocks_line<G: AgentGame>(table: &Table<G>, names: &[String]) -> Option<String> {
    table.settings().time_control.clock?;
    let each: Vec<String> = names
        .iter()
        .zip(table.clocks())
        .map(|(name, clock)| format!("{name} {}", clock_face(clock.left().unwrap_or_default())))
        .collect();
    Some(format!("clocks: {}", each.join(", ")))
}

/// A clock's time as a chess clock shows it: `4:58.3` from a minute up, else `58.3 s`.
fn clock_face(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    let (minutes, tenths) = (tenths / 600, tenths % 600);
    if minutes > 0 {
        format!("{minutes}:{:02}.{}", tenths / 10, tenths % 10)
    } else {
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

/// The live countdown line.
fn clock_text(left: Duration) -> String {
    format!("[{} s left]", left.as_secs_f64().ceil())
}
