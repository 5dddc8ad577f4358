//! Positions as fronts draw them, whatever the game: a [`View`] is a board of places (cells
//! of a grid, or pits round a ring) with what each holds, the points of each seat, the last
//! move and the winning line; a [`MovePlace`] says where a move is drawn (and
//! [`Game::move_from`](crate::Game::move_from) where a piece that moves comes from); a traced
//! play ([`Game::play_traced`](crate::Game::play_traced)) gives the [`Step`]s of one move (each
//! seed sown, each capture, each stone turned, a piece moved or taken off, a pass) for
//! animation.
//!
//! The terminal board, the web board and its animation, the Python observation and the
//! protocol's `board` line are all drawn from these, so no front needs to know a game's rules.
//!
//! ```
//! use rules::{Game, Layout, Place, Player, Variant};
//!
//! let game = "tictactoe".parse::<Variant>()?.rules::<rules::MnkConfig>().unwrap().start().play_line("b2")?;
//! let view = game.view();
//! assert_eq!(view.layout, Layout::Grid { rows: 3, cols: 3, gravity: false });
//! assert_eq!(view.places[4], Place::Stone(Player::First));
//! assert_eq!(view.last, Some(4));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::Player;

/// How the places of a [`View`] are laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Cells in rows, row 0 on top (row 1 in the notation), column 0 on the left (`a`);
    /// place `row * cols + col`. A move puts a stone on a cell, or moves a piece from one cell
    /// to another ([`Game::move_from`](crate::Game::move_from)); with `gravity` it is dropped
    /// into a column and falls to the lowest empty cell, so a front lets a person pick the
    /// column.
    Grid {
        /// Rows.
        rows: u8,
        /// Columns.
        cols: u8,
        /// Whether stones fall to the bottom of their column.
        gravity: bool,
    },
    /// Pits round a ring in sowing order (place = ring index): seat `s` owns the `per_side`
    /// places from `s * per_side`, the last of which is a big cell (a mandarin cell, or a
    /// store) when `big_last` is set.
    Ring {
        /// Places per seat.
        per_side: u8,
        /// Whether each side's last place is a big cell.
        big_last: bool,
        /// Per seat, whether its moves run towards increasing ring index as the game names
        /// them (O An Quan's `P`; false only for player 2 of two). Fronts draw each side so
        /// that a seat's "forward" reads left to right on its own row.
        forward: Vec<bool>,
    },
}

/// What a place holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// An empty cell of a grid.
    Empty,
    /// A cell of a grid holding a stone of this player.
    Stone(Player),
    /// A cell of a grid holding a piece that moves (a Breakthrough pawn): its owner and its
    /// kind, the lowercase letter people know the kind by (`p` for a pawn). Fronts draw it as
    /// the letter, in capitals for the first seat and in small letters for the others (as
    /// chess diagrams do), in the owner's colour.
    Piece {
        /// Whose piece.
        player: Player,
        /// The kind's letter, lowercase.
        kind: char,
    },
    /// A pit of a ring.
    Pit {
        /// The seeds in it.
        seeds: u16,
        /// Whether it also holds a big piece (an O An Quan mandarin).
        piece: bool,
        /// The label a person knows it by: what moves name it by (`3` of `3P`, `c` of
        /// Oware's `c`), or a big cell's name (O An Quan's mandarin cells `A` and `B`).
        label: Option<String>,
    },
}

/// A position as fronts draw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Where the places are.
    pub layout: Layout,
    /// What each place holds, in place order.
    pub places: Vec<Place>,
    /// The number of seats.
    pub players: usize,
    /// Points per seat where the game counts them (a mancala's captures), in seat order.
    pub scores: Option<Vec<i32>>,
    /// The place of the last move: where its stone landed or its piece went, or the pit it
    /// was sown from.
    pub last: Option<usize>,
    /// Where the piece of the last move came from, for a move from one place to another
    /// (fronts show the move from-to); `None` for moves that put or sow.
    pub last_from: Option<usize>,
    /// The places of the line that won the game, to highlight.
    pub line: Vec<usize>,
    /// The seat to move, or `None` once the game is over.
    pub to_move: Option<Player>,
    /// The plies played.
    pub ply: u32,
    /// Numbers of the variant a front shows beside the board, by name (O An Quan's
    /// `mandarin` value); the protocol's `board` line sends them as `name=value`. Where pits
    /// hold pieces, the first is a piece's worth ([`View::piece_worth`]).
    pub notes: Vec<(&'static str, i64)>,
}

impl View {
    /// The rows and columns of a grid view, `None` for a ring.
    pub fn grid(&self) -> Option<(u8, u8)> {
        match self.layout {
            Layout::Grid { rows, cols, .. } => Some((rows, cols)),
            Layout::Ring { .. } => None,
        }
    }

    /// What a big piece is worth in points where pits hold pieces (the first note: O An
    /// Quan's `mandarin`), 0 otherwise.
    pub fn piece_worth(&self) -> i64 {
        self.notes.first().map_or(0, |(_, worth)| *worth)
    }

    /// The seeds of each place of a ring view (0 for grid cells).
    pub fn seeds(&self) -> impl Iterator<Item = u16> + '_ {
        self.places.iter().map(|place| match place {
            Place::Pit { seeds, .. } => *seeds,
            _ => 0,
        })
    }

    /// The owner of what stands on `place` of a grid: a stone's or a piece's player.
    pub fn owner(&self, place: usize) -> Option<Player> {
        match self.places.get(place)? {
            Place::Stone(player) | Place::Piece { player, .. } => Some(*player),
            _ => None,
        }
    }

    /// The view after `steps`, as a front animating them ends up drawing it: stones put and
    /// turned, pieces moved and taken off, seeds picked up, dropped and captured, sides
    /// refilled. Used by the tests of
    /// every game to check that a traced play ends where the rules do.
    pub fn after(&self, steps: &[Step]) -> View {
        let mut view = self.clone();
        for step in steps {
            match *step {
                Step::Put { place, player } | Step::Turn { place, player } => {
                    view.places[place] = Place::Stone(player)
                }
                Step::Pass { .. } => {}
                Step::Move { from, to, .. } => {
                    view.places[to] = std::mem::replace(&mut view.places[from], Place::Empty);
                }
                Step::Remove { place } => view.places[place] = Place::Empty,
                Step::Pick { place, .. } => set_seeds(&mut view.places[place], |_| 0),
                Step::Drop { place } => set_seeds(&mut view.places[place], |s| s + 1),
                Step::Capture { place, value, seat } => {
                    if let Place::Pit { seeds, piece, .. } = &mut view.places[place] {
                        *seeds = 0;
                        *piece = false;
                    }
                    if let Some(scores) = &mut view.scores {
                        scores[seat.index()] += value;
                    }
                }
                Step::Refill { seat, cost } => {
                    if let Layout::Ring {
                        per_side, big_last, ..
                    } = view.layout
                    {
                        let per_side = usize::from(per_side);
                        let small = per_side - usize::from(big_last);
                        for place in &mut view.places[seat.index() * per_side..][..small] {
                            set_seeds(place, |_| 1);
                        }
                    }
                    if let Some(scores) = &mut view.scores {
                        scores[seat.index()] -= cost;
                    }
                }
            }
        }
        view
    }
}

fn set_seeds(place: &mut Place, change: impl FnOnce(u16) -> u16) {
    if let Place::Pit { seeds, .. } = place {
        *seeds = change(*seeds);
    }
}

/// Where a move is drawn: the place it is made on (the cell a stone lands on, the pit sown
/// from) and, for moves that sow, the way round the ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePlace {
    /// The place.
    pub place: usize,
    /// For a sowing: `Some(true)` towards increasing ring index, `Some(false)` the other way.
    pub forward: Option<bool>,
}

/// One step of a move, in the order it happens, for a front that animates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The seat passes: puts nothing anywhere (see [`Game::is_pass`](crate::Game::is_pass)).
    Pass {
        /// The seat that passes.
        seat: Player,
    },
    /// The stone on a place turned over to another player's (Othello's enclosed discs), in
    /// the order the rules turn them.
    Turn {
        /// The place.
        place: usize,
        /// Whose stone it is now.
        player: Player,
    },
    /// A piece moved from one place of a grid to another (what it captures there is taken off
    /// by a [`Step::Remove`] just before).
    Move {
        /// Where it was.
        from: usize,
        /// Where it goes.
        to: usize,
        /// Whose piece.
        player: Player,
    },
    /// A piece or stone taken off a place of a grid (captured).
    Remove {
        /// The place.
        place: usize,
    },
    /// A stone put on a place.
    Put {
        /// The place.
        place: usize,
        /// Whose stone.
        player: Player,
    },
    /// The mover's side was empty: one seed on each of its small places, `cost` paid from
    /// its points (O An Quan).
    Refill {
        /// The seat that refills.
        seat: Player,
        /// What it pays.
        cost: i32,
    },
    /// Every seed of a place taken into the hand (the chosen pit, or a relay).
    Pick {
        /// The place.
        place: usize,
        /// How many seeds.
        seeds: u16,
    },
    /// One seed dropped into a place.
    Drop {
        /// The place.
        place: usize,
    },
    /// A place captured: its seeds and its piece, if it holds one, for `value` points.
    Capture {
        /// The place.
        place: usize,
        /// The points taken.
        value: i32,
        /// The seat that captures.
        seat: Player,
    },
}

/// Where a traced play writes its steps. `()` keeps none, and costs nothing: the rules run
/// the same code for [`Game::play_unchecked`](crate::Game::play_unchecked) with it.
pub trait Trace {
    /// Records one step.
    fn step(&mut self, step: Step);
}

impl Trace for () {
    #[inline(always)]
    fn step(&mut self, _step: Step) {}
}

impl Trace for Vec<Step> {
    fn step(&mut self, step: Step) {
        self.push(step);
    }
}
