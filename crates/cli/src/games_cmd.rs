//! `arena list`, `arena perft` and `arena replay`: the commands about the games themselves.

use std::time::Instant;

use anyhow::{Context as _, Result, bail};
use clap::Args;
use rules::{Game, Player, Step, Variant};

use crate::play_board::draw_position;

/// `arena perft VARIANT DEPTH`.
#[derive(Debug, Args)]
#[command(after_help = "Example:\n  arena perft tictactoe 9\n  arena perft mnk-5x5k4 5")]
pub struct PerftArgs {
    /// The variant id, like `tictactoe`, `mnk-5x5k4` or `oanquan`.
    pub variant: String,
    /// The deepest depth to count (plies), 1 or more; past the longest game it is capped.
    #[arg(allow_negative_numbers = true)]
    pub depth: i64,
}

/// `arena replay VARIANT "MOVES"`.
#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arena replay oanquan \"3P 7P 5P\"\n  arena replay tictactoe \"b2 a1 c3\""
)]
pub struct ReplayArgs {
    /// The variant id, like `tictactoe` or `oanquan`.
    pub variant: String,
    /// The moves, space-separated, in the game's notation (`b2` or `1,1` for m,n,k; `3P` for
    /// O An Quan).
    pub moves: String,
}

/// Parses a variant id with an error that names it.
pub fn parse_variant(id: &str) -> Result<Variant> {
    id.parse::<Variant>()
        .with_context(|| format!("bad variant id `{id}`"))
}

/// `arena list`: games, example variant ids, agents and their parameters.
pub fn list() -> Result<()> {
    println!("Games and variant ids:");
    for family in rules::FAMILIES {
        for line in family.help {
            println!("  {line}");
        }
    }
    println!();
    println!("Agents (spec: kind or kind:key=value,key=value):");
    for kind in protocol::kinds().filter(|k| k.listed) {
        println!("  {:<10} {} [{}]", kind.name, kind.summary, kind.reach());
        for param in kind.params {
            let setting = format!("{}={}", param.name, param.default);
            println!("      {setting:<22} {}", param.doc);
        }
        if let Some(note) = kind.memory.map(|note| note()) {
            println!("      memory: {note}");
        }
    }
    Ok(())
}

/// `arena perft`: one line per depth: depth, count, time, nodes per second.
pub fn perft(args: PerftArgs) -> Result<()> {
    let variant = parse_variant(&args.variant)?;
    if args.depth < 1 {
        bail!(
            "depth {}: expected a number of plies, 1 or more (like `arena perft {} 5`)",
            args.depth,
            args.variant
        );
    }
    rules::with_game!(variant, |start| perft_lines(
        &start,
        args.depth.unsigned_abs()
    ));
    Ok(())
}

fn perft_lines<G: Game>(start: &G, depth: u64) {
    // No game goes on past its ply cap (m,n,k: a full board), so deeper counts are zeros.
    let longest = start.default_max_plies();
    let depth = if depth > u64::from(longest) {
        eprintln!(
            "note: no {} game lasts more than {longest} plies (its cap): counting to depth \
             {longest} instead of {depth}",
            start.variant()
        );
        longest
    } else {
        depth as u32
    };
    for d in 1..=depth {
        let clock = Instant::now();
        let count = rules::perft(start, d);
        if count == 0 {
            // Every line has ended: deeper depths would print zeros too.
            println!(
                "every game has ended by depth {}: nothing more to count",
                d - 1
            );
            break;
        }
        let seconds = clock.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            format!("{:.0}", count as f64 / seconds)
        } else {
            "-".to_string()
        };
        println!("{d:<3} {count:>16}  {seconds:>10.4} s  {rate:>12} nodes/s");
    }
}

/// `arena replay`: the position after each move, then the result.
pub fn replay(args: ReplayArgs) -> Result<()> {
    let variant = parse_variant(&args.variant)?;
    rules::with_game!(variant, |start| replay_game(start, &args.moves))
}

fn replay_game<G: Game>(start: G, moves: &str) -> Result<()> {
    let mut position = start;
    println!("start");
    print!("{}", draw_position(&position, None, false));
    for (index, text) in moves.split_whitespace().enumerate() {
        if position.is_over() {
            bail!(
                "move {} (`{text}`): the game is already over after move {index}",
                index + 1
            );
        }
        let mv = position
            .parse_move(text)
            .with_context(|| format!("move {} (`{text}`)", index + 1))?;
        let mover = position.seat_name(position.side_to_move());
        let place = (!position.is_pass(mv)).then(|| position.move_place(mv).place);
        let mut steps = Vec::new();
        position.play_traced(mv, &mut steps);
        for step in steps {
            if let Step::Refill { seat, cost } = step {
                println!(
                    "{} has no seeds on their side and refills it with {cost} from their captures",
                    position.seat_name(seat)
                );
            }
        }
        println!("{}. {} ({mover})", index + 1, position.format_move(mv));
        print!("{}", draw_position(&position, place, false));
    }
    let names: Vec<String> = Player::all(position.num_players())
        .map(|seat| position.seat_name(seat))
        .collect();
    let totals = position.totals();
    match position.outcome() {
        Some(outcome) => println!(
            "result: {} ({})",
            outcome.result_text(),
            arena::table::result_words(outcome, &names, totals.as_deref())
        ),
        None => println!(
            "the game goes on: {} to move",
            position.seat_name(position.side_to_move())
        ),
    }
    if let Some(totals) = totals {
        let label = if position.is_over() {
            "final totals"
        } else {
            "totals if it ended now"
        };
        let shown: Vec<String> = totals.iter().map(i32::to_string).collect();
        println!("{label}: {}", shown.join(" - "));
    }
    Ok(())
}

/// `arena sandbox`: each layer of the outside agents' sandbox, there or not, and whether
/// `sandbox = "required"` runs here.
pub fn sandbox() -> Result<()> {
    use protocol::sandbox::{Mode, Sandbox, Support};
    let support = Support::probe();
    println!("the sandbox of outside agents on this kernel:");
    for (name, there, what) in support.describe() {
        println!(
            "  {name:<13} {:<4} {what}",
            if there { "yes" } else { "no" }
        );
    }
    let missing = Sandbox::new(Mode::Required).missing(support);
    if missing.is_empty() {
        println!("sandbox = \"required\" runs here (every layer holds)");
    } else {
        println!(
            "sandbox = \"required\" refuses to run here: missing {}; \"best-effort\" runs without them",
            missing.join(", ")
        );
    }
    Ok(())
}
