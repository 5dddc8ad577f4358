//! Positions as the page draws them: an m,n,k board as a string of cells with the last stone
//! and the winning line; an O An Quan ring as its cells, pieces and captures, with every
//! sowing step by step so the page can animate it.

use protocol::OutsideGame;
use rules::oanquan::{Direction, EmptyMandarin};
use rules::{Game, Mnk, MoveList, OanQuan, Player, Sow};
use serde::Serialize;
use serde_json::{Value, json};

/// A game the server can show: its position as JSON for the page, and a move's details.
pub trait WebGame: OutsideGame {
    /// The position as the page draws it.
    fn view(&self) -> Value;

    /// The sowing of `mv` step by step, for games that sow (O An Quan); `None` for others.
    fn sowing(&self, _mv: Self::Move) -> Option<Vec<Step>> {
        None
    }

    /// Where `mv` is on the board, for marking it: `{"cell": i}` or `{"square": i, "dir": "P"}`.
    fn place(&self, mv: Self::Move) -> Value;
}

impl WebGame for Mnk {
    fn view(&self) -> Value {
        let config = self.config();
        let (rows, cols) = (config.rows(), config.cols());
        let index = |cell| {
            let (row, col) = config.row_col(cell);
            usize::from(row) * usize::from(cols) + usize::from(col)
        };
        let mut cells = String::with_capacity(usize::from(rows) * usize::from(cols));
        for row in 0..rows {
            for col in 0..cols {
                cells.push(match self.stone_at(row, col) {
                    Some(Player::First) => 'X',
                    Some(_) => 'O',
                    None => '.',
                });
            }
        }
        let line: Option<Vec<usize>> = self
            .winning_line()
            .map(|line| line.cells().map(index).collect());
        // With the centre rule the first stone has one legal cell: the page offers only it.
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let only = (legal.len() == 1).then(|| index(legal[0]));
        json!({
            "family": "mnk",
            "rows": rows,
            "cols": cols,
            "k": config.k(),
            "rule": config.rule().name(),
            "cells": cells,
            "last": self.last_move().map(index),
            "line": line,
            "only": only,
            "to_move": self.side_to_move().index(),
            "ply": self.ply(),
        })
    }

    fn place(&self, mv: rules::Cell) -> Value {
        let (row, col) = self.config().row_col(mv);
        json!({ "cell": usize::from(row) * usize::from(self.config().cols()) + usize::from(col) })
    }
}

/// One step of a sowing, as the page animates it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "lowercase")]
pub enum Step {
    /// The mover's side was empty: one seed on each of their squares, 5 paid from captures.
    Refill {
        /// The seat that refills.
        seat: usize,
    },
    /// Every seed of a cell taken into the hand (the chosen square, or a relay).
    Pick {
        /// The ring index.
        cell: usize,
        /// How many seeds.
        seeds: u32,
    },
    /// One seed dropped into a cell.
    Drop {
        /// The ring index.
        cell: usize,
    },
    /// A cell captured by the mover: its seeds, and its piece if it holds one.
    Capture {
        /// The ring index.
        cell: usize,
        /// The value taken.
        value: i32,
        /// The seat that captures.
        seat: usize,
    },
}

impl WebGame for OanQuan {
    fn view(&self) -> Value {
        let players = self.num_players();
        let cells: Vec<Value> = (0..self.cells())
            .map(|index| {
                let mandarin = OanQuan::is_mandarin(index);
                let label = (!mandarin)
                    .then(|| Sow::new(index as u8, Direction::Right).label(players as u8));
                json!({
                    "seeds": self.seeds(index),
                    "piece": mandarin && self.has_piece(index),
                    "mandarin": mandarin,
                    "value": self.cell_value(index),
                    "owner": index / 6,
                    "label": label,
                })
            })
            .collect();
        let captures: Vec<i32> = Player::all(players).map(|p| self.captures(p)).collect();
        let totals: Vec<i32> = self.totals().map(|t| t.to_vec()).unwrap_or_default();
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let legal: Vec<String> = legal.iter().map(|&mv| self.format_move(mv)).collect();
        let mover = self.side_to_move();
        json!({
            "family": "oanquan",
            "players": players,
            "mandarin_value": self.rules().mandarin_value,
            "cells": cells,
            "captures": captures,
            "totals": totals,
            "to_move": mover.index(),
            "must_refill": !self.is_over() && self.must_refill(mover),
            "legal": legal,
            "line": self.to_string(),
            "ply": self.ply(),
        })
    }

    fn sowing(&self, mv: Sow) -> Option<Vec<Step>> {
        Some(sowing(self, mv))
    }

    fn place(&self, mv: Sow) -> Value {
        let dir = match mv.direction {
            Direction::Right => "P",
            Direction::Left => "T",
        };
        json!({ "square": mv.square, "dir": dir, "forward": forward(self, mv) })
    }
}

/// Whether `mv` sows towards increasing ring index: `P` does, but for player 2 of two, whose
/// `P` runs the other way round the ring (the rules crate's convention).
fn forward(position: &OanQuan, mv: Sow) -> bool {
    (mv.direction == Direction::Right) != (position.num_players() == 2 && mv.square >= 6)
}

/// The steps of `mv` from `position`, which must be legal there: the same walk as the rules
/// crate's sowing (which keeps no steps, to stay fast), checked against it move for move by
/// this crate's tests.
pub fn sowing(position: &OanQuan, mv: Sow) -> Vec<Step> {
    let rules = position.rules();
    let cells = position.cells();
    let mover = position.side_to_move();
    let mut seeds: Vec<u32> = (0..cells).map(|i| u32::from(position.seeds(i))).collect();
    let mut piece: Vec<bool> = (0..cells)
        .map(|i| OanQuan::is_mandarin(i) && position.has_piece(i))
        .collect();
    let mut steps = Vec::new();
    if position.must_refill(mover) {
        steps.push(Step::Refill {
            seat: mover.index(),
        });
        for square in position.squares(mover) {
            seeds[square] = 1;
        }
    }
    let step = if forward(position, mv) { 1 } else { cells - 1 };
    let next = |i: usize| (i + step) % cells;
    let empty = |seeds: &[u32], piece: &[bool], i: usize| seeds[i] == 0 && !piece[i];
    let is_gap = |seeds: &[u32], piece: &[bool], i: usize| {
        empty(seeds, piece, i)
            && !(OanQuan::is_mandarin(i) && rules.empty_mandarin == EmptyMandarin::Stop)
    };
    let capturable = |seeds: &[u32], piece: &[bool], i: usize| {
        !(OanQuan::is_mandarin(i) && piece[i] && seeds[i] < u32::from(rules.young_mandarin))
    };
    let mut from = usize::from(mv.square);
    loop {
        let hand = std::mem::take(&mut seeds[from]);
        steps.push(Step::Pick {
            cell: from,
            seeds: hand,
        });
        let mut at = from;
        for _ in 0..hand {
            at = next(at);
            seeds[at] += 1;
            steps.push(Step::Drop { cell: at });
        }
        let after = next(at);
        if !OanQuan::is_mandarin(after) && seeds[after] > 0 {
            from = after;
            continue;
        }
        let mut gap = after;
        while is_gap(&seeds, &piece, gap) {
            let target = next(gap);
            if empty(&seeds, &piece, target) || !capturable(&seeds, &piece, target) {
                break;
            }
            let value = seeds[target] as i32
                + if piece[target] {
                    i32::from(rules.mandarin_value)
                } else {
                    0
                };
            seeds[target] = 0;
            piece[target] = false;
            steps.push(Step::Capture {
                cell: target,
                value,
                seat: mover.index(),
            });
            gap = next(target);
        }
        return steps;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The cells, pieces and captures after `steps` from `position`, as the page computes them.
    fn apply(position: &OanQuan, steps: &[Step]) -> (Vec<u32>, Vec<bool>, Vec<i32>) {
        let players = position.num_players();
        let mut seeds: Vec<u32> = (0..position.cells())
            .map(|i| u32::from(position.seeds(i)))
            .collect();
        let mut piece: Vec<bool> = (0..position.cells())
            .map(|i| OanQuan::is_mandarin(i) && position.has_piece(i))
            .collect();
        let mut captures: Vec<i32> = Player::all(players).map(|p| position.captures(p)).collect();
        let mut hand = 0;
        for step in steps {
            match *step {
                Step::Refill { seat } => {
                    for square in position.squares(Player::seat(seat)) {
                        seeds[square] = 1;
                    }
                    captures[seat] -= 5;
                }
                Step::Pick { cell, seeds: n } => {
                    assert_eq!(seeds[cell], n, "a pick takes every seed of the cell");
                    assert_eq!(hand, 0, "a pick starts with an empty hand");
                    hand = n;
                    seeds[cell] = 0;
                }
                Step::Drop { cell } => {
                    hand -= 1;
                    seeds[cell] += 1;
                }
                Step::Capture { cell, value, seat } => {
                    assert_eq!(hand, 0, "captures come after the last seed");
                    captures[seat] += value;
                    seeds[cell] = 0;
                    piece[cell] = false;
                }
            }
        }
        (seeds, piece, captures)
    }

    fn state(position: &OanQuan) -> (Vec<u32>, Vec<bool>, Vec<i32>) {
        apply(position, &[])
    }

    #[test]
    fn every_sowing_of_random_games_ends_where_the_rules_do() {
        let variants = [
            "oanquan",
            "oanquan-stop",
            "oanquan-young5",
            "oanquan-mandarin5-end",
            "oanquan-3p",
            "oanquan-4p-stop-young3",
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
        let mut moves_checked = 0;
        for id in variants {
            let rules = id.parse::<rules::Variant>().unwrap().oanquan().unwrap();
            for _ in 0..300 {
                let mut position = rules.start();
                let mut legal = MoveList::new();
                while !position.is_over() && position.ply() < 300 {
                    position.legal_moves(&mut legal);
                    let mv = legal[rng.random_range(0..legal.len())];
                    let steps = sowing(&position, mv);
                    let after = position.child(mv);
                    assert_eq!(
                        apply(&position, &steps),
                        state(&after),
                        "{id}: {} from {position}",
                        position.format_move(mv)
                    );
                    position = after;
                    moves_checked += 1;
                }
            }
        }
        assert!(moves_checked > 10_000, "{moves_checked}");
    }

    #[test]
    fn the_golden_five_p_relays_four_times_and_captures_mandarin_a_then_one() {
        let start = rules::OanQuanRules::default().start();
        let position = start.play_line("3P 7P").unwrap();
        let mv = position.parse_move("5P").unwrap();
        let steps = sowing(&position, mv);
        let picks = steps
            .iter()
            .filter(|s| matches!(s, Step::Pick { .. }))
            .count();
        assert_eq!(picks, 5, "the sowing and four relays");
        let captures: Vec<&Step> = steps
            .iter()
            .filter(|s| matches!(s, Step::Capture { .. }))
            .collect();
        assert_eq!(
            captures,
            [
                &Step::Capture {
                    cell: 5,
                    value: 15,
                    seat: 0
                },
                &Step::Capture {
                    cell: 7,
                    value: 1,
                    seat: 0
                }
            ]
        );
    }
}
