//! `arena play`: a person against any agent, two people, or two agents, in the terminal.
//!
//! Without `--first`/`--second` (and `--third`/`--fourth` for O An Quan of 3 or 4 players) a
//! menu offers seed 004's four modes. The game itself is in
//! `play_game`, the drawings in `play_board`, the keyboard (a thread reading stdin, so a prompt
//! can have a deadline) in `play_keys`.

use std::path::PathBuf;
use std::time::Duration;

use agents::AgentSpec;
use agents::clock::{GameClock, TimeControl};
use anyhow::{Context as _, Result, bail};
use arena::played::{self, easy_spec, hard_spec};
use clap::Args;
use rules::Variant;

use crate::games_cmd::parse_variant;
use crate::play_game::{Screen, Seat, Sitting, sit};
use crate::play_keys::{Keyboard, Typed};

/// `arena play VARIANT [--first SPEC|human] [--second SPEC|human]`, or `arena play --stats`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena play tictactoe --first human --second alphabeta:depth=9\n  arena play oanquan --first greedy2 --second human\n  arena play oanquan-3p --first human --second greedy --third mcts\n  arena play caro                      # a menu of the four modes\n  arena play mnk-5x5k4 --first human --move-time 30\n  arena play gomoku --first human --tc 5:00+2   # 5 minutes a game, 2 s added a move\n\nAt the prompt: a move, or undo, hint, moves, quit, help; at the end, y for another game or\nundo to take your last move back. One line per move or command, so input can be piped:\n  printf 'b2\\nhint\\n' | arena play tictactoe --first human --second random\n\nEvery finished game (2, 3 or 4 players) is appended to the play record\n(results/play/games.csv, or --record FILE), a person as `human` or --name:\n  arena play --stats                   # games, wins, draws, losses per mode, per AI level\n  arena report results/play/games.csv  # people rated against each agent"
)]
pub struct PlayArgs {
    /// The variant id, like `tictactoe`, `caro`, `mnk-5x5k4` or `oanquan`.
    #[arg(required_unless_present = "stats")]
    pub variant: Option<String>,
    /// Who moves first: `human` or an agent spec (`arena list` shows them). Given alone, the
    /// other side is the strong agent against a human and a human against an agent.
    #[arg(long)]
    pub first: Option<String>,
    /// Who moves second: `human` or an agent spec.
    #[arg(long)]
    pub second: Option<String>,
    /// Who moves third (O An Quan for 3 or 4 players): `human` or an agent spec.
    #[arg(long)]
    pub third: Option<String>,
    /// Who moves fourth (O An Quan for 4 players): `human` or an agent spec.
    #[arg(long)]
    pub fourth: Option<String>,
    /// The seed of the agents' random number generators (each side has its own stream).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// The sandbox of outside agents: off, best-effort or required (docs/src/guide/sandbox.md).
    #[arg(long, value_name = "MODE", default_value = "best-effort", value_parser = protocol::sandbox::Mode::parse_option)]
    pub sandbox: protocol::sandbox::Mode,
    /// Seconds each seat has for each move (`st`, as cutechess names it); running out loses
    /// the game. Agents think inside it (the arena's safety share).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub move_time: Option<f64>,
    /// The same as --move-time, as cutechess-cli writes it: `--st 30`.
    #[arg(long, value_name = "SECONDS", conflicts_with = "move_time")]
    pub st: Option<String>,
    /// A game clock for every seat, as cutechess-cli writes it: `[MOVES/]TIME[+INCREMENT]` in
    /// seconds (or minutes:seconds), like `300+2`, `40/120` or `5:00+3`. A seat whose clock
    /// runs out loses on time; agents manage their time on it (a share of what is left plus
    /// the increment). With --move-time or --st, both hold.
    #[arg(long, value_name = "CLOCK")]
    pub tc: Option<String>,
    /// Seconds to wait after each move when two agents play (default: 1 on a terminal, 0 when
    /// stdout is not a terminal).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub delay: Option<f64>,
    /// The play record every finished game is appended to (an arena CSV of schema 2: games
    /// of 2, 3 and 4 players).
    #[arg(long, value_name = "FILE", default_value = "results/play/games.csv")]
    pub record: PathBuf,
    /// The name a person plays under in the record (and in `--stats`).
    #[arg(long, default_value = played::HUMAN)]
    pub name: String,
    /// Prints the statistics of the play record instead of playing: games, wins, draws and
    /// losses per mode, and the win rate against each AI level (with --name: that person's).
    #[arg(long, conflicts_with_all = ["first", "second", "third", "fourth", "move_time", "st", "tc", "delay"])]
    pub stats: bool,
}

/// `arena play`.
pub fn play(args: PlayArgs) -> Result<()> {
    let name = played::check_name(&args.name).map_err(|e| anyhow::anyhow!("--name: {e}"))?;
    if args.stats {
        let given = args.name != played::HUMAN;
        return print_stats(&args.record, given.then_some(name.as_str()));
    }
    let Some(variant) = args.variant.as_deref() else {
        bail!("give a variant id, like `tictactoe`, or --stats");
    };
    let variant = parse_variant(variant)?;
    let time_control = time_control(&args)?;
    // Refused before a game is played: its row would have nowhere to go.
    played::check_record(&args.record)?;
    let delay = args
        .delay
        .map(|s| seconds(s, "--delay", true))
        .transpose()?;
    let players = variant.players();
    let options = [
        ("--first", &args.first),
        ("--second", &args.second),
        ("--third", &args.third),
        ("--fourth", &args.fourth),
    ];
    let mut given: Vec<Option<Seat>> = Vec::with_capacity(players);
    for (at, (option, text)) in options.iter().enumerate() {
        match text.as_deref() {
            Some(_) if at >= players => {
                bail!(
                    "{option}: `{variant}` has {players} seats (--first to --{})",
                    options[players - 1].0.trim_start_matches("--")
                );
            }
            Some(text) => given.push(Some(seat(
                text,
                option,
                &variant,
                time_control,
                args.sandbox,
            )?)),
            None if at < players => given.push(None),
            None => {}
        }
    }
    let screen = Screen::detect();
    let mut keys = Keyboard::spawn();
    let seats = if given.iter().all(Option::is_none) {
        match menu(&variant, &mut keys, &screen)? {
            Some(seats) => seats,
            None => bail!(
                "the input ended before a mode was chosen: type 1, 2, 3 or 4 at the menu, or \
                 name the sides, like `arena play {variant} --first human --second random`"
            ),
        }
    } else {
        fill_seats(given, &variant)
    };
    let agents_only = !seats.contains(&Seat::Human);
    let delay = delay.unwrap_or(if agents_only && screen.terminal {
        Duration::from_secs(1)
    } else {
        Duration::ZERO
    });
    let sitting = Sitting {
        seats,
        seed: args.seed,
        time_control,
        delay,
        hint: hard_spec(&variant),
        record: args.record.clone(),
        name,
        sandbox: args.sandbox,
    };
    rules::with_game!(variant, |start| sit(&start, &sitting, &mut keys, &screen))
}

/// The time control of --tc and --move-time/--st: [`TimeControl::NONE`] without them.
fn time_control(args: &PlayArgs) -> Result<TimeControl> {
    let per_move = match (&args.st, args.move_time) {
        (Some(text), _) => Some(TimeControl::parse_st(text).context("--st")?),
        // The same limit as --st, read the same way (whole milliseconds, at most a day).
        (None, Some(value)) => Some(
            TimeControl::parse_st(&value.to_string())
                .with_context(|| format!("--move-time {value}"))?,
        ),
        (None, None) => None,
    };
    let clock = args
        .tc
        .as_deref()
        .map(|text| {
            // `--tc 300+2`, or `--tc tc=300+2` as an experiment's CSV writes it.
            GameClock::parse_tc(text).with_context(|| format!("--tc {text}"))
        })
        .transpose()?;
    Ok(TimeControl { per_move, clock })
}

/// A number of seconds from the command line.
fn seconds(value: f64, option: &str, zero_allowed: bool) -> Result<Duration> {
    let ok = value.is_finite() && (value > 0.0 || (zero_allowed && value == 0.0));
    if !ok || value > 1e9 {
        let range = if zero_allowed {
            "0 or more"
        } else {
            "more than 0"
        };
        bail!("{option} {value}: expected a number of seconds, {range}");
    }
    Ok(Duration::from_secs_f64(value))
}

/// `human` or an agent spec that plays `variant`.
fn seat(
    text: &str,
    option: &str,
    variant: &Variant,
    time_control: TimeControl,
    sandbox: protocol::sandbox::Mode,
) -> Result<Seat> {
    if text.trim().eq_ignore_ascii_case("human") {
        return Ok(Seat::Human);
    }
    let spec: AgentSpec = text
        .parse()
        .with_context(|| format!("{option} `{text}`: expected `human` or an agent spec"))?;
    match protocol::check(&spec, variant) {
        Err(agents::SpecError::UnknownKind { kind, known }) => bail!(
            "{option} `{text}`: a seat is `human` (a person) or an agent spec, and `{kind}` is \
             neither; the agent kinds are: {known}"
        ),
        checked => checked.with_context(|| format!("{option} `{text}`"))?,
    }
    // An outside agent is started, asked for this variant and stopped before the game, so
    // that a command that cannot start is said at once.
    let sandbox = protocol::sandbox::Sandbox::new(sandbox);
    if protocol::is_outside(&spec) {
        sandbox
            .check()
            .with_context(|| format!("{option} `{text}`"))?;
    }
    protocol::preflight_in(
        &spec,
        std::slice::from_ref(variant),
        protocol::Stderr::Discard,
        time_control,
        None,
        &sandbox,
    )
    .with_context(|| format!("{option} `{text}` cannot play"))?;
    Ok(Seat::Agent(spec))
}

/// The seats not given on the command line: with a person at the table, the strong agent;
/// with agents only, a person in the first free seat (and the strong agent in the others).
fn fill_seats(given: Vec<Option<Seat>>, variant: &Variant) -> Vec<Seat> {
    let mut person_seated = given.contains(&Some(Seat::Human));
    given
        .into_iter()
        .map(|seat| match seat {
            Some(seat) => seat,
            None if !person_seated => {
                person_seated = true;
                Seat::Human
            }
            None => Seat::Agent(hard_spec(variant)),
        })
        .collect()
}

/// Seed 004's menu: the four modes, and for a person against agents which seat the person
/// takes. `None` when stdin ends before a choice (the caller says so and exits non-zero).
fn menu(variant: &Variant, keys: &mut Keyboard, screen: &Screen) -> Result<Option<Vec<Seat>>> {
    let (easy, hard) = (easy_spec(variant), hard_spec(variant));
    let players = variant.players();
    screen.say(format!("{variant}: choose a mode"))?;
    if players == 2 {
        screen.say("  1. Player vs Player")?;
        screen.say(format!("  2. Player vs AI (easy: {easy})"))?;
        screen.say(format!("  3. Player vs AI (hard: {hard})"))?;
        screen.say(format!("  4. AI vs AI demo ({hard} against itself)"))?;
    } else {
        screen.say(format!("  1. {players} players at one keyboard"))?;
        screen.say(format!("  2. Player vs AIs (easy: {easy})"))?;
        screen.say(format!("  3. Player vs AIs (hard: {hard})"))?;
        screen.say(format!("  4. AI demo ({hard} in every seat)"))?;
    }
    let mode = loop {
        screen.prompt("mode [1-4]: ")?;
        let Typed::Line(line) = screen.answer(keys, None, |_| {})? else {
            return Ok(None);
        };
        match line.trim() {
            "1" => break 1,
            "2" => break 2,
            "3" => break 3,
            "4" => break 4,
            "" => screen.say("refused: an empty line is not a mode; type 1, 2, 3 or 4")?,
            other => screen.say(format!(
                "refused: `{other}` is not a mode; type 1, 2, 3 or 4"
            ))?,
        }
    };
    let agent = match mode {
        1 => return Ok(Some(vec![Seat::Human; players])),
        2 => Seat::Agent(easy),
        3 => Seat::Agent(hard.clone()),
        _ => return Ok(Some(vec![Seat::Agent(hard); players])),
    };
    let with_person_at = |seat: usize| {
        let mut seats = vec![agent.clone(); players];
        seats[seat] = Seat::Human;
        Some(seats)
    };
    loop {
        if players == 2 {
            screen.prompt("do you move first? [Y/n]: ")?;
        } else {
            screen.prompt(&format!(
                "which seat do you take? [1-{players}, 1 moves first]: "
            ))?;
        }
        let Typed::Line(line) = screen.answer(keys, None, |_| {})? else {
            return Ok(None);
        };
        let answer = line.trim().to_lowercase();
        match (players, answer.as_str()) {
            (2, "" | "y" | "yes") => return Ok(with_person_at(0)),
            (2, "n" | "no") => return Ok(with_person_at(1)),
            (2, other) => screen.say(format!("refused: `{other}`: answer y or n"))?,
            (_, "") => return Ok(with_person_at(0)),
            (_, other) => match other.parse::<usize>() {
                Ok(seat) if (1..=players).contains(&seat) => return Ok(with_person_at(seat - 1)),
                _ => screen.say(format!(
                    "refused: `{other}`: answer a seat from 1 to {players}"
                ))?,
            },
        }
    }
}

/// `arena play --stats`: the play record's statistics, for one person or for everyone.
fn print_stats(record: &std::path::Path, name: Option<&str>) -> Result<()> {
    let rows = played::read_record(record)?;
    let stats = played::stats(&rows, name);
    let noun = if stats.games == 1 { "game" } else { "games" };
    let whose = match name {
        Some(name) => format!("{noun} of {name}"),
        None => noun.to_string(),
    };
    println!("play record {}: {} {whose}", record.display(), stats.games);
    if stats.games == 0 {
        println!("no games yet: `arena play VARIANT` or `arena serve` records every game played");
        return Ok(());
    }
    println!();
    println!(
        "{:<30} {:<18} {:>6} {:>6} {:>6} {:>6}",
        "mode", "counted for", "games", "wins", "draws", "losses"
    );
    for mode in &stats.modes {
        let t = mode.tally;
        println!(
            "{:<30} {:<18} {:>6} {:>6} {:>6} {:>6}",
            mode.mode, mode.view, t.games, t.wins, t.draws, t.losses
        );
    }
    // Second or third at a table of three or four: neither a win nor a loss.
    for mode in stats.modes.iter().filter(|mode| mode.tally.placed > 0) {
        println!(
            "{}: {} placed between first and last, counted neither won nor lost",
            mode.mode, mode.tally.placed
        );
    }
    if !stats.levels.is_empty() {
        println!();
        println!("a person against each AI level:");
        println!(
            "{:<24} {:<28} {:>6} {:>10} {:>9}",
            "variant", "level", "games", "W-D-L", "win rate"
        );
        for level in &stats.levels {
            let t = level.tally;
            println!(
                "{:<24} {:<28} {:>6} {:>10} {:>8.1}%",
                level.variant,
                level.level,
                t.games,
                format!("{}-{}-{}", t.wins, t.draws, t.losses),
                100.0 * level.win_rate
            );
        }
    }
    if stats.skipped > 0 {
        println!(
            "({} rows skipped: their result does not fit their seats)",
            stats.skipped
        );
    }
    Ok(())
}
