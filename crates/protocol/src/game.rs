//! The `board` line of the arena protocol, drawn from the game's [`View`]: every game's
//! position in one line, with no per-game code here (see `docs/src/reference/protocol.md`).
//!
//! - A grid: ` rows=R cols=C cells=ROW/ROW/...`, a row as `X` (the first player's stone or
//!   piece), `O` (the second's) and `.` (empty), top row first; where some cell holds a piece
//!   that moves (a Breakthrough pawn), then ` kinds=ROW/ROW/...`, the same rows with the
//!   letter of each piece's kind (`p`) and `.` elsewhere.
//! - A ring: ` seeds=N,N,...` in ring order, ` pieces=F,F,...` (0 or 1: whether each side's
//!   big cell still holds its piece) where sides end in a big cell, ` captures=N,N,...` per
//!   seat where the game keeps points, then the variant's notes (` mandarin=10`).

use std::fmt::Write as _;

use rules::{Layout, Place, Player, View};

/// Appends the fields of the `board` line for `view` to `out`, each after a space.
pub fn write_board(view: &View, out: &mut String) {
    match &view.layout {
        Layout::Grid { rows, cols, .. } => {
            let _ = write!(out, " rows={rows} cols={cols} cells=");
            for index in 0..view.places.len() {
                if index > 0 && index % usize::from(*cols) == 0 {
                    out.push('/');
                }
                out.push(match view.owner(index) {
                    Some(Player::First) => 'X',
                    Some(_) => 'O',
                    None => '.',
                });
            }
            if view.places.iter().any(|p| matches!(p, Place::Piece { .. })) {
                out.push_str(" kinds=");
                for (index, place) in view.places.iter().enumerate() {
                    if index > 0 && index % usize::from(*cols) == 0 {
                        out.push('/');
                    }
                    out.push(match place {
                        Place::Piece { kind, .. } => *kind,
                        _ => '.',
                    });
                }
            }
        }
        Layout::Ring {
            per_side, big_last, ..
        } => {
            list(out, "seeds", view.seeds().map(i64::from));
            if *big_last {
                let per_side = usize::from(*per_side);
                let pieces = view.places.iter().skip(per_side - 1).step_by(per_side);
                list(
                    out,
                    "pieces",
                    pieces.map(|place| i64::from(matches!(place, Place::Pit { piece: true, .. }))),
                );
            }
        }
    }
    if let Some(scores) = &view.scores {
        list(out, "captures", scores.iter().map(|&s| i64::from(s)));
    }
    for (name, value) in &view.notes {
        let _ = write!(out, " {name}={value}");
    }
}

fn list(out: &mut String, key: &str, values: impl Iterator<Item = i64>) {
    let _ = write!(out, " {key}=");
    for (i, value) in values.enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{value}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{Game, Variant};

    fn board(game: &impl Game) -> String {
        let mut out = String::new();
        write_board(&game.view(), &mut out);
        out
    }

    #[test]
    fn pieces_that_move_show_their_owner_and_their_kind() {
        let variant: Variant = "breakthrough-6x3".parse().unwrap();
        let game = rules::with_game!(variant, |start| board(&start.play_line("b5a4").unwrap()));
        assert_eq!(
            game,
            " rows=6 cols=3 cells=OOO/OOO/.../X../X.X/XXX kinds=ppp/ppp/.../p../p.p/ppp"
        );
        // Stones have no kinds field.
        let variant: Variant = "tictactoe".parse().unwrap();
        let game = rules::with_game!(variant, |start| board(&start.play_line("b2").unwrap()));
        assert_eq!(game, " rows=3 cols=3 cells=.../.X./...");
    }

    #[test]
    fn stones_turned_over_show_in_the_grid() {
        let variant: Variant = "othello".parse().unwrap();
        let game = rules::with_game!(variant, |start| board(&start.play_line("d3").unwrap()));
        assert_eq!(
            game,
            " rows=8 cols=8 cells=......../......../...X..../...XX.../...XO.../......../......../........"
        );
    }

    #[test]
    fn boards_show_stones_and_seeds() {
        let variant: Variant = "mnk-3x4k3".parse().unwrap();
        let game = variant
            .rules::<rules::MnkConfig>()
            .unwrap()
            .start()
            .play_line("b2 a1")
            .unwrap();
        assert_eq!(board(&game), " rows=3 cols=4 cells=O.../.X../....");
        let variant: Variant = "oanquan".parse().unwrap();
        let game = variant
            .rules::<rules::OanQuanRules>()
            .unwrap()
            .start()
            .play_line("1P")
            .unwrap();
        assert_eq!(
            board(&game),
            " seeds=0,0,6,6,6,1,0,6,6,6,6,1 pieces=1,1 captures=6,0 mandarin=10"
        );
    }

    #[test]
    fn moves_are_written_as_the_game_formats_them() {
        for id in ["mnk-19x19k5", "mnk-3x7k3", "oanquan-4p"] {
            let variant: Variant = id.parse().unwrap();
            rules::with_game!(variant, |game| {
                let mut moves = rules::MoveList::new();
                game.legal_moves(&mut moves);
                for mv in moves {
                    let mut out = String::new();
                    game.write_move(mv, &mut out);
                    assert_eq!(out, game.format_move(mv));
                }
            });
        }
    }
}
