//! What the agents know of Breakthrough: an evaluation of its own (material, how far each pawn
//! has come, and runners: pawns near the far row that no pawn of the other side attacks), a
//! move order (wins, then captures, then the pawns furthest forward), the win in one move as a
//! tactic, and the bound on the plies left. Positions are two bitboards, so nothing is kept
//! incrementally.
//!
//! The terms are the usual ones of Breakthrough programs (material, advancement, and unstoppable
//! or "safe" pawns near the goal; e.g. the evaluations discussed around the 2000s
//! Breakthrough programs of Skrynnik and of Saffidine, Jouandeau and Cazenave); the weights are
//! ours.

use rules::breakthrough::{Advance, Breakthrough};
use rules::{Game, MoveList, Player, TwoPlayer};

use crate::{AgentGame, Tactic};

/// A pawn's worth.
const PAWN: i32 = 100;
/// The worth of a row come, times the rows come so far (a pawn near the far row counts much
/// more than one a row out of its home).
const ADVANCE: i32 = 2;
/// The worth of a runner, times (4 - the rows it has still to go): a pawn 3 rows or fewer from
/// the far row that no pawn of the other side attacks now.
const RUNNER: i32 = 60;
/// The worth of a pawn of the two home rows while the other side has pawns within two rows of
/// them (the home rows are the last defence).
const GUARD: i32 = 10;

/// One side's share of the evaluation.
fn side(game: &Breakthrough, me: Player) -> i32 {
    let them = Breakthrough::opponent(me);
    let attacked = game.attacks(them);
    let rows = i32::from(game.config().rows());
    let mut own = game.pawns(me);
    let mut score = 0;
    let mut threatened = false;
    let mut their = game.pawns(them);
    while their != 0 {
        let cell = their.trailing_zeros() as u8;
        their &= their - 1;
        threatened |= game.rows_to_go(them, cell) <= 3;
    }
    while own != 0 {
        let cell = own.trailing_zeros() as u8;
        own &= own - 1;
        let to_go = i32::from(game.rows_to_go(me, cell));
        let come = rows - 1 - to_go;
        score += PAWN + ADVANCE * come * come;
        if to_go <= 3 && attacked >> cell & 1 == 0 {
            score += RUNNER * (4 - to_go);
        }
        if threatened && come <= 1 {
            score += GUARD;
        }
    }
    score
}

/// The evaluation of `game` from `me`'s view.
#[inline]
fn evaluation(game: &Breakthrough, me: Player) -> i32 {
    side(game, me) - side(game, Breakthrough::opponent(me))
}

impl AgentGame for Breakthrough {
    type Aux = ();

    /// A move from a cell onto itself: never a move.
    fn illegal_move(&self) -> Advance {
        Advance { from: 0, to: 0 }
    }

    /// Three per cell: the pawn's cell, and which of its three targets (told apart by the
    /// difference of the cells, three numbers in a row on any board).
    #[inline]
    fn move_index(mv: Advance) -> usize {
        usize::from(mv.from) * 3 + (i32::from(mv.to) - i32::from(mv.from)).rem_euclid(3) as usize
    }

    fn aux(&self) {}

    fn aux_after(&self, _aux: &(), _mv: Advance, _child: &Breakthrough) {}

    #[inline]
    fn evaluate(&self, _aux: &()) -> i32 {
        evaluation(self, self.side_to_move())
    }

    /// A pawn one row from the far row always has a way onto it (diagonally onto an empty
    /// cell or a capture; its own pawns never stand on the far row), and so does a capture of
    /// the other side's last pawn: a win at once.
    fn tactic(&self, _aux: &()) -> Tactic<Advance> {
        let me = self.side_to_move();
        let them = Breakthrough::opponent(me);
        let goal = self.goal(me);
        let last = self.pawns(them).count_ones() == 1;
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        for &mv in &moves {
            if goal >> mv.to & 1 != 0 || (last && self.is_capture(mv)) {
                return Tactic::WinNow(mv);
            }
        }
        Tactic::Open
    }

    /// Wins first, then captures, then the pawns furthest forward.
    #[inline]
    fn order_hint(&self, _aux: &(), mv: Advance) -> i32 {
        let me = self.side_to_move();
        let come = i32::from(self.config().rows()) - i32::from(self.rows_to_go(me, mv.to));
        let win = i32::from(self.goal(me) >> mv.to & 1 != 0);
        10_000 * win + 1_000 * i32::from(self.is_capture(mv)) + come
    }

    /// Every move takes a pawn one row nearer its far row: the game ends before the rows the
    /// pawns have still to go are used up.
    fn remaining_plies(&self) -> Option<u32> {
        let mut total = 0;
        for player in [Player::First, Player::Second] {
            let mut pawns = self.pawns(player);
            while pawns != 0 {
                let cell = pawns.trailing_zeros() as u8;
                pawns &= pawns - 1;
                total += u32::from(self.rows_to_go(player, cell));
            }
        }
        Some(total)
    }

    fn hard_spec(&self) -> &'static str {
        "alphabeta:nodes=200000"
    }
}
