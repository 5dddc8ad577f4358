//! `arena play`: a person against any agent, two people, or two agents, in the terminal.
//!
//! Without `--first`/`--second` a menu offers seed 004's four modes. The game itself is in
//! `play_game`, the drawings in `play_board`, the keyboard (a thread reading stdin, so a prompt
//! can have a deadline) in `play_keys`.

use std::time::Duration;

use agents::AgentSpec;
use anyhow::{Context as _, Result, bail};
use clap::Args;
use rules::Variant;

use crate::games_cmd::parse_variant;
use crate::play_game::{Screen, Seat, Table, sit};
use crate::play_keys::{Keyboard, Typed};

/// `arena play VARIANT [--first SPEC|human] [--second SPEC|human]`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena play tictactoe --first human --second alphabeta:depth=9\n  arena play oanquan --first greedy2 --second human\n  arena play caro                      # a menu of the four modes\n  arena play mnk-5x5k4 --first human --move-time 30\n\nAt the prompt: a move, or undo, hint, moves, quit, help; at the end, y for another game or\nundo to take your last move back. One line per move or command, so input can be piped:\n  printf 'b2\\nhint\\n' | arena play tictactoe --first human --second random"
)]
pub struct PlayArgs {
    /// The variant id, like `tictactoe`, `caro`, `mnk-5x5k4` or `oanquan`.
    pub variant: String,
    /// Who moves first: `human` or an agent spec (`arena list` shows them). Given alone, the
    /// other side is the strong agent against a human and a human against an agent.
    #[arg(long)]
    pub first: Option<String>,
    /// Who moves second: `human` or an agent spec.
    #[arg(long)]
    pub second: Option<String>,
    /// The seed of the agents' random number generators (each side has its own stream).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds a person has for each move; running out loses the game. Agents are not timed.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub move_time: Option<f64>,
    /// Seconds to wait after each move when two agents play (default: 1 on a terminal, 0 when
    /// stdout is not a terminal).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub delay: Option<f64>,
}

/// `arena play`.
pub fn play(args: PlayArgs) -> Result<()> {
    let variant = parse_variant(&args.variant)?;
    let move_time = args
        .move_time
        .map(|s| seconds(s, "--move-time", false))
        .transpose()?;
    let delay = args
        .delay
        .map(|s| seconds(s, "--delay", true))
        .transpose()?;
    let first = args
        .first
        .as_deref()
        .map(|text| seat(text, "--first", &variant))
        .transpose()?;
    let second = args
        .second
        .as_deref()
        .map(|text| seat(text, "--second", &variant))
        .transpose()?;
    let screen = Screen::detect();
    let mut keys = Keyboard::spawn();
    let seats = match (first, second) {
        (Some(first), Some(second)) => [first, second],
        (Some(given), None) => {
            let other = counterpart(&given, &variant);
            [given, other]
        }
        (None, Some(given)) => {
            let other = counterpart(&given, &variant);
            [other, given]
        }
        (None, None) => match menu(&variant, &mut keys, &screen)? {
            Some(seats) => seats,
            None => return Ok(()),
        },
    };
    let agents_only = !seats.contains(&Seat::Human);
    let delay = delay.unwrap_or(if agents_only && screen.terminal {
        Duration::from_secs(1)
    } else {
        Duration::ZERO
    });
    let table = Table {
        seats,
        seed: args.seed,
        move_time,
        delay,
        hint: hard_spec(&variant),
    };
    match variant {
        Variant::Mnk(config) => sit(&config.start(), &table, &mut keys, &screen),
        Variant::OanQuan(rules) => sit(&rules.start(), &table, &mut keys, &screen),
    }
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
fn seat(text: &str, option: &str, variant: &Variant) -> Result<Seat> {
    if text.trim().eq_ignore_ascii_case("human") {
        return Ok(Seat::Human);
    }
    let spec: AgentSpec = text
        .parse()
        .with_context(|| format!("{option} `{text}`: expected `human` or an agent spec"))?;
    protocol::check(&spec, variant).with_context(|| format!("{option} `{text}`"))?;
    // An outside agent is started, asked for this variant and stopped before the game, so
    // that a command that cannot start is said at once.
    protocol::preflight(
        &spec,
        std::slice::from_ref(variant),
        protocol::Stderr::Discard,
    )
    .with_context(|| format!("{option} `{text}` cannot play"))?;
    Ok(Seat::Agent(spec))
}

/// The other side when only one is given: the strong agent against a person, a person
/// against an agent.
fn counterpart(given: &Seat, variant: &Variant) -> Seat {
    match given {
        Seat::Human => Seat::Agent(hard_spec(variant)),
        Seat::Agent(_) => Seat::Human,
    }
}

/// The menu's "hard" agent, also the one that answers `hint`: strong, and quick enough to
/// answer within a second or two on this variant's board. Node budgets rather than time
/// budgets keep its play reproducible from the seed.
pub fn hard_spec(variant: &Variant) -> AgentSpec {
    let text = match variant {
        // Small enough to solve: perfect play.
        Variant::Mnk(config) if config.cells() <= 9 => "alphabeta:depth=9",
        // About 0.6 million nodes a second on boards up to 8x8, 0.25 million on 15x15: a
        // second or two a move on one core.
        Variant::Mnk(config) if config.cells() <= 64 => "alphabeta:nodes=600000",
        Variant::Mnk(_) => "alphabeta:nodes=300000",
        // Depth 12 or more in under a second; it beats greedy2 by about 20 seeds a game.
        Variant::OanQuan(_) => "alphabeta:nodes=1000000",
    };
    text.parse().expect("a fixed spec parses")
}

/// The menu's "easy" agent: seed 004's easy AI for m,n,k games, seed 001's greedy player for
/// O An Quan (`easy` plays m,n,k games only).
pub fn easy_spec(variant: &Variant) -> AgentSpec {
    let text = match variant {
        Variant::Mnk(_) => "easy",
        Variant::OanQuan(_) => "greedy",
    };
    text.parse().expect("a fixed spec parses")
}

/// Seed 004's menu: the four modes, and for a person against an agent who moves first.
/// `None` when stdin ends before a choice.
fn menu(variant: &Variant, keys: &mut Keyboard, screen: &Screen) -> Result<Option<[Seat; 2]>> {
    let (easy, hard) = (easy_spec(variant), hard_spec(variant));
    screen.say(format!("{variant}: choose a mode"))?;
    screen.say("  1. Player vs Player")?;
    screen.say(format!("  2. Player vs AI (easy: {easy})"))?;
    screen.say(format!("  3. Player vs AI (hard: {hard})"))?;
    screen.say(format!("  4. AI vs AI demo ({hard} against itself)"))?;
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
            other => screen.say(format!(
                "refused: `{other}` is not a mode; type 1, 2, 3 or 4"
            ))?,
        }
    };
    let agent = match mode {
        1 => return Ok(Some([Seat::Human, Seat::Human])),
        2 => Seat::Agent(easy),
        3 => Seat::Agent(hard.clone()),
        _ => return Ok(Some([Seat::Agent(hard.clone()), Seat::Agent(hard)])),
    };
    loop {
        screen.prompt("do you move first? [Y/n]: ")?;
        let Typed::Line(line) = screen.answer(keys, None, |_| {})? else {
            return Ok(None);
        };
        match line.trim().to_lowercase().as_str() {
            "" | "y" | "yes" => return Ok(Some([Seat::Human, agent])),
            "n" | "no" => return Ok(Some([agent, Seat::Human])),
            other => screen.say(format!("refused: `{other}`: answer y or n"))?,
        }
    }
}
