//! Positions as the page draws them, from the game's own [`View`]: a grid as a string of
//! cells with the last stone and the winning line; a ring as its pits, pieces and points;
//! every move's steps (each seed sown, each capture) from the rules' traced play, so the page
//! can animate it. No game's rules are here.

use rules::{Game, Layout, MoveList, Place, Player, Step};
use serde_json::{Value, json};

/// The stone of each seat in a grid's `cells`.
const STONES: [char; rules::MAX_PLAYERS] = ['X', 'O', 'Y', 'Z'];

/// The position as the page draws it.
pub fn position_json<G: Game>(position: &G) -> Value {
    let view = position.view();
    let mut legal = MoveList::new();
    position.legal_moves(&mut legal);
    let texts: Vec<String> = legal.iter().map(|&mv| position.format_move(mv)).collect();
    let notes: serde_json::Map<String, Value> = view
        .notes
        .iter()
        .map(|(name, value)| (name.to_string(), json!(value)))
        .collect();
    let mut json = json!({
        "family": G::FAMILY.name,
        "players": view.players,
        "to_move": view.to_move.map_or(position.side_to_move().index(), Player::index),
        "ply": view.ply,
        "legal": texts,
        "notes": notes,
        "text": position.to_string(),
    });
    match &view.layout {
        Layout::Grid {
            rows,
            cols,
            gravity,
        } => {
            let cells: String = view
                .places
                .iter()
                .map(|place| match place {
                    Place::Stone(player) => STONES[player.index()],
                    _ => '.',
                })
                .collect();
            // With a rule such as the centre opening one cell is legal: the page offers only it.
            let only = (legal.len() == 1).then(|| position.move_place(legal[0]).place);
            json["layout"] = json!("grid");
            json["rows"] = json!(rows);
            json["cols"] = json!(cols);
            json["gravity"] = json!(gravity);
            json["cells"] = json!(cells);
            json["last"] = json!(view.last);
            json["line"] = json!(if view.line.is_empty() {
                None
            } else {
                Some(&view.line)
            });
            json["only"] = json!(only);
        }
        Layout::Ring {
            per_side,
            big_last,
            forward,
        } => {
            let per_side = usize::from(*per_side);
            let piece_value = view.piece_worth();
            let cells: Vec<Value> = view
                .places
                .iter()
                .enumerate()
                .map(|(index, place)| {
                    let big = *big_last && index % per_side == per_side - 1;
                    let (seeds, piece, label) = match place {
                        Place::Pit {
                            seeds,
                            piece,
                            label,
                            // The page's labels are what a person types: none on a big cell.
                        } => (i64::from(*seeds), *piece, label.clone().filter(|_| !big)),
                        _ => (0, false, None),
                    };
                    json!({
                        "seeds": seeds,
                        "piece": piece,
                        "mandarin": big,
                        "value": seeds + if piece { piece_value } else { 0 },
                        "owner": index / per_side,
                        "label": label,
                    })
                })
                .collect();
            // The rules say whether the mover's side is refilled first: their traced play of
            // any move starts with the refill.
            let refill = legal.first().is_some_and(|&mv| {
                let mut steps = Vec::new();
                position.clone().play_traced(mv, &mut steps);
                matches!(steps.first(), Some(Step::Refill { .. }))
            });
            json["layout"] = json!("ring");
            json["cells"] = json!(cells);
            json["forward"] = json!(forward);
            json["captures"] = json!(view.scores);
            json["totals"] = json!(position.totals().map(|t| t.to_vec()).unwrap_or_default());
            json["mandarin_value"] = json!(piece_value);
            json["must_refill"] = json!(refill);
            json["line"] = json!(position.to_string());
        }
    }
    json
}

/// Where `mv` (legal in `position`) is drawn: `{"cell": i}` on a grid, `{"square": i,
/// "forward": bool}` on a ring.
pub fn place_json<G: Game>(position: &G, mv: G::Move) -> Value {
    let place = position.move_place(mv);
    match place.forward {
        None => json!({ "cell": place.place }),
        Some(forward) => json!({ "square": place.place, "forward": forward }),
    }
}

/// The steps of `mv` (legal in `position`) for the page's animation, when the move does more
/// than put a stone (a sowing); `None` otherwise.
pub fn steps_json<G: Game>(position: &G, mv: G::Move) -> Option<Value> {
    let mut steps = Vec::new();
    position.clone().play_traced(mv, &mut steps);
    if steps.iter().all(|step| matches!(step, Step::Put { .. })) {
        return None;
    }
    let steps: Vec<Value> = steps
        .iter()
        .map(|step| match *step {
            Step::Put { place, player } => {
                json!({ "step": "put", "cell": place, "seat": player.index() })
            }
            Step::Refill { seat, cost } => {
                json!({ "step": "refill", "seat": seat.index(), "cost": cost })
            }
            Step::Pick { place, seeds } => json!({ "step": "pick", "cell": place, "seeds": seeds }),
            Step::Drop { place } => json!({ "step": "drop", "cell": place }),
            Step::Capture { place, value, seat } => {
                json!({ "step": "capture", "cell": place, "value": value, "seat": seat.index() })
            }
        })
        .collect();
    Some(Value::Array(steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Variant;

    #[test]
    fn the_golden_five_p_relays_four_times_and_captures_mandarin_a_then_one() {
        let start = rules::OanQuanRules::default().start();
        let position = start.play_line("3P 7P").unwrap();
        let mv = position.parse_move("5P").unwrap();
        let steps = steps_json(&position, mv).expect("a sowing");
        let steps = steps.as_array().unwrap();
        let picks = steps.iter().filter(|s| s["step"] == "pick").count();
        assert_eq!(picks, 5, "the sowing and four relays");
        let captures: Vec<&Value> = steps.iter().filter(|s| s["step"] == "capture").collect();
        assert_eq!(
            captures,
            [
                &json!({ "step": "capture", "cell": 5, "value": 15, "seat": 0 }),
                &json!({ "step": "capture", "cell": 7, "value": 1, "seat": 0 }),
            ]
        );
        let mut traced = Vec::new();
        position.clone().play_traced(mv, &mut traced);
        assert_eq!(
            position.view().after(&traced).places,
            position.child(mv).view().places
        );
    }

    #[test]
    fn a_stone_is_not_animated_and_marks_its_cell() {
        let variant: Variant = "tictactoe".parse().unwrap();
        let game = variant.mnk().unwrap().start();
        let mv = game.parse_move("b2").unwrap();
        assert_eq!(steps_json(&game, mv), None);
        assert_eq!(place_json(&game, mv), json!({ "cell": 4 }));
        let json = position_json(&game.child(mv));
        assert_eq!(json["cells"], "....X....");
        assert_eq!(json["last"], 4);
        assert_eq!(json["layout"], "grid");
    }
}
