//! A hint's reason in words a player uses ("wins", "blocks a four", "makes an open three",
//! "captures 19"), read from what the move does on the game's [`View`](rules::View) and its
//! traced play, and from the game's own cheap tactics, never from a game's rules written here.

use agents::{AgentGame, Tactic};
use rules::{Layout, Place, Player, Step};

/// Why `mv` (legal in `position`) is a good move, in words.
pub fn why<G: AgentGame>(position: &G, mv: G::Move) -> String {
    let mover = position.side_to_move();
    let mut steps = Vec::new();
    let mut after = position.clone();
    after.play_traced(mv, &mut steps);
    let captured: i32 = steps
        .iter()
        .filter_map(|step| match *step {
            Step::Capture { value, seat, .. } if seat == mover => Some(value),
            _ => None,
        })
        .sum();
    let captures = (captured > 0).then(|| format!("captures {captured}"));
    // Stones turned over: a game of enclosing (Othello), where lines in a row mean nothing.
    let turned = steps
        .iter()
        .filter(|step| matches!(step, Step::Turn { player, .. } if *player == mover))
        .count();
    // Pieces taken off, and whether the move takes a piece from one place to another (a game
    // of moving pieces, Breakthrough, where lines in a row mean nothing either).
    let taken = steps
        .iter()
        .filter(|step| matches!(step, Step::Remove { .. }))
        .count();
    let moves_piece = position.move_from(mv).is_some();
    if position.is_pass(mv) {
        return "the only move: nothing can be put anywhere".to_string();
    }
    if let Some(outcome) = after.outcome()
        && outcome.winner() == Some(mover)
    {
        return match captures {
            Some(captures) => format!("{captures} and wins"),
            None => "wins at once".to_string(),
        };
    }
    let forced = match position.tactic(&position.aux()) {
        Tactic::MustBlock(block) if block == mv => Some("the only move that stops a loss"),
        Tactic::Lost(block) if block == mv => Some("stops one of two wins (the other cannot be)"),
        _ => None,
    };
    let view = position.view();
    let lines = match view.layout {
        Layout::Grid { .. } if turned > 0 || moves_piece => None,
        Layout::Grid { rows, cols, .. } => {
            let place = position.move_place(mv).place;
            Some(grid_lines(&view.places, rows, cols, place, mover))
        }
        Layout::Ring { .. } => None,
    };
    let mut words: Vec<String> = Vec::new();
    if let Some((made, open, blocked)) = lines {
        if blocked >= 3 {
            words.push(format!("blocks a {}", count_word(blocked)));
        }
        if made >= 3 {
            let open = if open { "an open" } else { "a" };
            words.push(format!("makes {open} {}", count_word(made)));
        } else if blocked == 2 {
            words.push("blocks a two".to_string());
        } else if made == 2 && blocked < 3 {
            words.push("makes a two".to_string());
        }
    }
    if let Some(forced) = forced {
        words.insert(0, forced.to_string());
    }
    words.extend(captures);
    if taken > 0 {
        words.push(match taken {
            1 => "takes a piece".to_string(),
            n => format!("takes {n} pieces"),
        });
    }
    if turned > 0 {
        let stones = if turned == 1 { "stone" } else { "stones" };
        words.push(format!("turns {turned} {stones}"));
    }
    if words.is_empty() {
        if position.ply() == 0 && lines.is_some() {
            return "an opening move near the middle, where lines have the most room".to_string();
        }
        return "the searcher's best; nothing is forced here".to_string();
    }
    words.join(", ")
}

fn count_word(n: usize) -> String {
    match n {
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        5 => "five".into(),
        6 => "six".into(),
        n => format!("line of {n}"),
    }
}

/// On a grid, through `place` in the four directions: the longest line the mover makes with a
/// stone there (and whether both its ends are empty), and the longest line of an opponent's
/// stones the place touches end to end (what the stone blocks).
fn grid_lines(
    places: &[Place],
    rows: u8,
    cols: u8,
    place: usize,
    mover: Player,
) -> (usize, bool, usize) {
    let (rows, cols) = (i32::from(rows), i32::from(cols));
    let at = |r: i32, c: i32| -> Option<&Place> {
        (r >= 0 && c >= 0 && r < rows && c < cols).then(|| &places[(r * cols + c) as usize])
    };
    let (r0, c0) = ((place as i32) / cols, (place as i32) % cols);
    let mut made = (1, false);
    let mut blocked = 0;
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        // Stones of `who` running from the place one way, and what lies past them.
        let run = |who: &dyn Fn(&Place) -> bool, sign: i32| {
            let mut n = 0;
            let (mut r, mut c) = (r0 + sign * dr, c0 + sign * dc);
            while at(r, c).is_some_and(who) {
                n += 1;
                r += sign * dr;
                c += sign * dc;
            }
            (n, matches!(at(r, c), Some(Place::Empty)))
        };
        let mine = |p: &Place| *p == Place::Stone(mover);
        let (a, open_a) = run(&mine, 1);
        let (b, open_b) = run(&mine, -1);
        let line = (a + b + 1, open_a && open_b);
        if line.0 > made.0 || (line.0 == made.0 && line.1) {
            made = line;
        }
        // Each opponent on its own: their stones on both sides of the place join through it.
        for seat in 0..4 {
            let seat = Player::seat(seat);
            if seat == mover {
                continue;
            }
            let theirs = |p: &Place| *p == Place::Stone(seat);
            let (a, _) = run(&theirs, 1);
            let (b, _) = run(&theirs, -1);
            blocked = blocked.max(a + b);
        }
    }
    (made.0, made.1, blocked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Game;

    fn reason(variant: &str, moves: &str, hint: &str) -> String {
        let variant: rules::Variant = variant.parse().unwrap();
        rules::with_game!(variant, |start| {
            let position = start.play_line(moves).unwrap();
            why(&position, position.parse_move(hint).unwrap())
        })
    }

    #[test]
    fn a_hint_says_what_its_move_does() {
        assert_eq!(reason("tictactoe", "a1 b1 a2 b2", "a3"), "wins at once");
        assert_eq!(reason("gomoku", "h8 a1 h9 a2 h10", "h11"), "blocks a three");
        assert_eq!(
            reason("gomoku", "h8 a1 h9 a2", "h10"),
            "makes an open three"
        );
        assert!(reason("gomoku", "h8 a1 h9 a2 h10 a3 h11", "h12").contains("blocks a four"));
        assert_eq!(reason("oanquan", "3P 7P", "5P"), "captures 16");
        // A piece that moves: no lines in a row, a capture said as such.
        let moves = "d7d6 e2e3 d6d5 e3e4";
        assert_eq!(reason("breakthrough", moves, "d5e4*"), "takes a piece");
        assert_eq!(
            reason("breakthrough", moves, "a7a6"),
            "the searcher's best; nothing is forced here"
        );
    }
}
