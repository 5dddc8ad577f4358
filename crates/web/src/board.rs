//! Positions as the page draws them, from the game's own [`View`](rules::View), whatever the game: the
//! page has no code of any game, so a game the registry gains is drawn with no change here or
//! in `assets/`. No game's rules are here either: every place, point and step comes from the
//! rules (`Game::view`, `Game::move_place`, `Game::play_traced`).
//!
//! # The position JSON (`position_json`, `board_json`)
//!
//! ```text
//! family     the game's registry name ("mnk", "oanquan", ...): for messages, never for drawing
//! players    the number of seats
//! seat_names the game's name of each seat (Game::seat_name): ["X", "O"], ["South", "North"]
//! to_move    the seat to move, null once the game is over
//! ply        plies played
//! text       the position as the game prints it (O An Quan's line under the board)
//! notes      numbers of the variant by name ({"mandarin": 10}), shown beside the board
//! points     points per seat where the game counts them (captures, stores), or null
//! totals     each seat's total as the game settles it (points plus what it still holds
//!            where the rules give it that), or null; at the end these decide the places
//! last       the place of the last move (its stone, where its piece went, or the pit sown
//!            from), or null
//! last_from  where the piece of the last move came from (a move from one place to another),
//!            or null
//! line       the places of the winning line ([] when none)
//! layout     {"kind": "grid", "rows", "cols", "gravity"}: cells in rows, place
//!              row * cols + col, row 0 on top (`1` in the notation); with gravity a stone
//!              falls to the lowest empty cell of its column, so a person picks a column
//!            {"kind": "ring", "per_side", "big_last", "forward"}: pits round a ring in
//!              sowing order; seat s owns the per_side places from s * per_side, the last of
//!              them a big cell (a mandarin cell, a store) when big_last; forward[s]: whether
//!              seat s's own forward direction runs towards increasing ring index
//! places     grid: per cell the seat of its stone or piece, or null;
//! kinds      (grid, only when some cell holds a piece that moves) per cell the letter of its
//!              piece's kind ("p"), or null: the page writes it on the piece
//!            ring: per pit {"seeds", "piece" (a big piece such as a mandarin), "value" (what
//!              capturing it is worth: its seeds, plus the first note's value for a piece),
//!              "label" (what a person types for it, or null), "owner", "big"}
//! moves      (position_json only) the legal moves, in the rules' order, as lists of one
//!            entry per move (lists, not an object per move: on a 15x15 board an object per
//!            move made the move list two thirds of every answer):
//!            {"text": each in the game's notation, "place": where each is drawn (null for a
//!            pass, which puts nothing anywhere: the page offers it as a button), and when
//!            any move has a direction (a sowing) "forward": whether each sows towards
//!            increasing ring index, null for a move without one, and when any move takes
//!            a piece from one place to another "from": each one's origin, null for a move
//!            without one: the page lets a person pick the piece, then its target}
//! ```
//!
//! A move's place (`place_json`) is `{"place": i}` with `"forward"` for a sowing and `"from"`
//! for a piece that moves, and `{"place": null}` for a pass; its steps (`steps_json`) are the
//! rules' traced play: `put`, `turn` (a stone turned over to `seat`'s), `move` (a piece of
//! `seat` from `from` to `to`), `remove` (a piece taken off `place`), `pass`, `pick`, `drop`,
//! `capture`, `refill`.

use rules::{Game, Layout, MoveList, Place, Player, Step};
use serde_json::{Value, json};

/// The position as the page draws it, with its legal moves (see the module's contract).
pub fn position_json<G: Game>(position: &G) -> Value {
    let mut json = board_json(position);
    let mut legal = MoveList::new();
    if !position.is_over() {
        position.legal_moves(&mut legal);
    }
    let mut text = Vec::with_capacity(legal.len());
    let mut place = Vec::with_capacity(legal.len());
    let mut forward = Vec::with_capacity(legal.len());
    let mut from = Vec::with_capacity(legal.len());
    for &mv in legal.iter() {
        text.push(Value::String(position.format_move(mv)));
        if position.is_pass(mv) {
            place.push(Value::Null);
            forward.push(Value::Null);
            from.push(Value::Null);
            continue;
        }
        let at = position.move_place(mv);
        place.push(Value::from(at.place));
        forward.push(at.forward.map_or(Value::Null, Value::Bool));
        from.push(position.move_from(mv).map_or(Value::Null, Value::from));
    }
    let mut moves = serde_json::Map::new();
    moves.insert("text".into(), Value::Array(text));
    moves.insert("place".into(), Value::Array(place));
    if forward.iter().any(|f| !f.is_null()) {
        moves.insert("forward".into(), Value::Array(forward));
    }
    if from.iter().any(|f| !f.is_null()) {
        moves.insert("from".into(), Value::Array(from));
    }
    json["moves"] = Value::Object(moves);
    json
}

/// The position as the page draws it, without its legal moves (the positions of a line, for
/// stepping through it).
pub fn board_json<G: Game>(position: &G) -> Value {
    let view = position.view();
    let notes: serde_json::Map<String, Value> = view
        .notes
        .iter()
        .map(|(name, value)| (name.to_string(), json!(value)))
        .collect();
    let seat_names: Vec<String> = Player::all(view.players)
        .map(|seat| position.seat_name(seat))
        .collect();
    let mut kinds = None;
    let (layout, places) = match &view.layout {
        Layout::Grid {
            rows,
            cols,
            gravity,
        } => {
            let stones: Vec<Value> = view
                .places
                .iter()
                .map(|place| match place {
                    Place::Stone(player) | Place::Piece { player, .. } => json!(player.index()),
                    _ => Value::Null,
                })
                .collect();
            if view.places.iter().any(|p| matches!(p, Place::Piece { .. })) {
                let letters: Vec<Value> = view
                    .places
                    .iter()
                    .map(|place| match place {
                        Place::Piece { kind, .. } => json!(kind.to_string()),
                        _ => Value::Null,
                    })
                    .collect();
                kinds = Some(letters);
            }
            (
                json!({ "kind": "grid", "rows": rows, "cols": cols, "gravity": gravity }),
                stones,
            )
        }
        Layout::Ring {
            per_side,
            big_last,
            forward,
        } => {
            let per_side = usize::from(*per_side);
            let piece_value = view.piece_worth();
            let pits: Vec<Value> = view
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
                        "value": seeds + if piece { piece_value } else { 0 },
                        "label": label,
                        "owner": index / per_side,
                        "big": big,
                    })
                })
                .collect();
            (
                json!({ "kind": "ring", "per_side": per_side, "big_last": big_last, "forward": forward }),
                pits,
            )
        }
    };
    let mut json = json!({
        "family": G::FAMILY.name,
        "players": view.players,
        "seat_names": seat_names,
        "to_move": view.to_move.map(Player::index),
        "ply": view.ply,
        "text": position.to_string(),
        "notes": notes,
        "points": view.scores,
        "totals": position.totals().map(|t| t.to_vec()),
        "last": view.last,
        "last_from": view.last_from,
        "line": view.line,
        "layout": layout,
        "places": places,
    });
    if let Some(kinds) = kinds {
        json["kinds"] = Value::Array(kinds);
    }
    json
}

/// Where `mv` (legal in `position`) is drawn: `{"place": i}`, with `"forward"` for a sowing
/// (true towards increasing ring index).
pub fn place_json<G: Game>(position: &G, mv: G::Move) -> Value {
    if position.is_pass(mv) {
        return json!({ "place": null });
    }
    let place = position.move_place(mv);
    let mut json = match place.forward {
        None => json!({ "place": place.place }),
        Some(forward) => json!({ "place": place.place, "forward": forward }),
    };
    if let Some(from) = position.move_from(mv) {
        json["from"] = json!(from);
    }
    json
}

/// The steps of `mv` (legal in `position`) for the page's animation, when the move does more
/// than put a stone (a sowing, stones turned, a piece moved or taken, a pass); `None`
/// otherwise.
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
                json!({ "step": "put", "place": place, "seat": player.index() })
            }
            Step::Turn { place, player } => {
                json!({ "step": "turn", "place": place, "seat": player.index() })
            }
            Step::Move { from, to, player } => {
                json!({ "step": "move", "from": from, "to": to, "seat": player.index() })
            }
            Step::Remove { place } => json!({ "step": "remove", "place": place }),
            Step::Pass { seat } => json!({ "step": "pass", "seat": seat.index() }),
            Step::Refill { seat, cost } => {
                json!({ "step": "refill", "seat": seat.index(), "cost": cost })
            }
            Step::Pick { place, seeds } => {
                json!({ "step": "pick", "place": place, "seeds": seeds })
            }
            Step::Drop { place } => json!({ "step": "drop", "place": place }),
            Step::Capture { place, value, seat } => {
                json!({ "step": "capture", "place": place, "value": value, "seat": seat.index() })
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
                &json!({ "step": "capture", "place": 5, "value": 15, "seat": 0 }),
                &json!({ "step": "capture", "place": 7, "value": 1, "seat": 0 }),
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
    fn stones_turned_are_steps_and_a_pass_has_no_place() {
        // Othello's d3 puts a disc on d3 (place 19) and turns d4 (27).
        let start = rules::othello::Othello::start();
        let mv = start.parse_move("d3").unwrap();
        assert_eq!(
            steps_json(&start, mv),
            Some(json!([
                { "step": "put", "place": 19, "seat": 0 },
                { "step": "turn", "place": 27, "seat": 0 },
            ]))
        );
        // Black a1, White b1, White to move: White's only move is the pass.
        let game = rules::othello::Othello::from_discs(1, 2, Player::Second).unwrap();
        let json = position_json(&game);
        assert_eq!(json["moves"]["text"], json!(["pass"]));
        assert_eq!(json["moves"]["place"], json!([null]));
        let pass = game.parse_move("pass").unwrap();
        assert_eq!(place_json(&game, pass), json!({ "place": null }));
        assert_eq!(
            steps_json(&game, pass),
            Some(json!([{ "step": "pass", "seat": 1 }]))
        );
        assert_eq!(board_json(&game.child(pass))["last"], Value::Null);
    }

    #[test]
    fn pieces_that_move_say_their_kind_origin_and_steps() {
        // Breakthrough 6x3: Black's b5 (place 13) to a4 (9), then White's a2 (3) to a3 (6),
        // then Black's a4 takes nothing straight but may take on b3 (7) after White's b2b3.
        use rules::FromAny;
        let variant: Variant = "breakthrough-6x3".parse().unwrap();
        let game =
            rules::breakthrough::Breakthrough::from_any(rules::AnyGame::start(&variant)).unwrap();
        let json = position_json(&game);
        assert_eq!(json["moves"]["text"][0], "a5a4");
        assert_eq!(json["moves"]["from"][0], 12);
        assert_eq!(json["moves"]["place"][0], 9);
        let kinds = json["kinds"].as_array().unwrap();
        assert_eq!(kinds.iter().filter(|k| *k == "p").count(), 12);
        assert_eq!(json["places"][0], 1, "White's pawn on a1");
        let mv = game.parse_move("b5a4").unwrap();
        assert_eq!(place_json(&game, mv), json!({ "place": 9, "from": 13 }));
        assert_eq!(
            steps_json(&game, mv),
            Some(json!([{ "step": "move", "from": 13, "to": 9, "seat": 0 }]))
        );
        let after = game.play_line("b5a4 b2b3").unwrap();
        let json = board_json(&after);
        assert_eq!(
            (json["last_from"].clone(), json["last"].clone()),
            (json!(4), json!(7))
        );
        let take = after.parse_move("a4b3*").unwrap();
        assert_eq!(
            steps_json(&after, take),
            Some(json!([
                { "step": "remove", "place": 7 },
                { "step": "move", "from": 9, "to": 7, "seat": 0 },
            ]))
        );
        // Stones have neither kinds nor origins.
        let othello = position_json(&rules::othello::Othello::start());
        assert_eq!(othello.get("kinds"), None);
        assert_eq!(othello["moves"].get("from"), None);
        assert_eq!(othello["last_from"], Value::Null);
    }

    #[test]
    fn a_stone_is_not_animated_and_marks_its_cell() {
        let variant: Variant = "tictactoe".parse().unwrap();
        let game = variant.rules::<rules::MnkConfig>().unwrap().start();
        let mv = game.parse_move("b2").unwrap();
        assert_eq!(steps_json(&game, mv), None);
        assert_eq!(place_json(&game, mv), json!({ "place": 4 }));
        let json = position_json(&game.child(mv));
        let places = json["places"].as_array().unwrap();
        assert_eq!(places[4], 0, "X's stone");
        assert_eq!(places.iter().filter(|p| p.is_null()).count(), 8);
        assert_eq!(json["last"], 4);
        assert_eq!(
            json["layout"],
            json!({ "kind": "grid", "rows": 3, "cols": 3, "gravity": false })
        );
        assert_eq!(json["seat_names"], json!(["X", "O"]));
        assert_eq!(json["to_move"], 1);
        let moves = &json["moves"];
        assert_eq!(moves["text"].as_array().unwrap().len(), 8);
        assert_eq!(moves["place"].as_array().unwrap().len(), 8);
        assert_eq!(
            (&moves["text"][0], &moves["place"][0]),
            (&json!("a1"), &json!(0))
        );
        assert_eq!(
            (&moves["text"][3], &moves["place"][3]),
            (&json!("a2"), &json!(3))
        );
        assert!(
            moves.get("forward").is_none(),
            "a grid's moves have no direction"
        );
    }

    #[test]
    fn a_ring_says_its_sides_big_cells_points_and_moves_both_ways() {
        let game = rules::OanQuanRules::default().start();
        let json = position_json(&game);
        assert_eq!(
            json["layout"],
            json!({ "kind": "ring", "per_side": 6, "big_last": true, "forward": [true, false] })
        );
        let places = json["places"].as_array().unwrap();
        assert_eq!(places.len(), 12);
        assert_eq!(
            places[5],
            json!({ "seeds": 0, "piece": true, "value": 10, "label": null, "owner": 0, "big": true })
        );
        assert_eq!(places[0]["label"], "1");
        assert_eq!(json["points"], json!([0, 0]));
        assert_eq!(json["totals"], json!([25, 25]));
        let moves = &json["moves"];
        let entries: Vec<(&str, u64, bool)> = (0..10)
            .map(|i| {
                (
                    moves["text"][i].as_str().unwrap(),
                    moves["place"][i].as_u64().unwrap(),
                    moves["forward"][i].as_bool().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            moves["text"].as_array().unwrap().len(),
            10,
            "five squares, two ways each"
        );
        assert_eq!(moves["place"].as_array().unwrap().len(), 10);
        assert_eq!(moves["forward"].as_array().unwrap().len(), 10);
        assert!(entries.contains(&("3P", 2, true)));
        assert!(entries.contains(&("3T", 2, false)));
    }
}
