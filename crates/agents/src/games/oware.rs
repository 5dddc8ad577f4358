//! What the agents know of Oware: an evaluation from the stores and the seeds each side holds,
//! a capture-first move order, and the bound the solver draws from a store that can no longer
//! reach 25. Positions are 12 bytes and a sowing is cheap, so nothing is kept incrementally.

use rules::oware::{House, Oware, PER_SIDE, TOTAL_SEEDS, WINNING_STORE};
use rules::{Game, Player, TwoPlayer};

use crate::AgentGame;

/// The weight of a seed on one's own side against a seed in the store (100).
const SIDE_SEED: i32 = 15;

/// The evaluation of `game` from `me`'s view: the stores' difference, and a little for each
/// seed more on one's own side. Seeds at home are moves to come (sowings that can reach the
/// opponent's houses and capture) and, if the game ends by no move or at the cap, captures;
/// but a seed in the store is certain, so they count far less. Measured (`docs/oware.md`,
/// alphabeta at a fixed depth, round robins of 40 games a pair from random 4-ply openings):
/// 15 scores 87.5% against 0 (the stores alone) at depth 6 and 75% at depth 8; 40 and 100 do
/// worse than 15 at depth 6 (36% and 15% for them); 8 against 15 at depth 8 scores 57.5%,
/// within the noise of 40 games.
#[inline]
fn evaluation(game: &Oware, me: Player) -> i32 {
    let them = Oware::opponent(me);
    let stores = i32::from(game.store(me)) - i32::from(game.store(them));
    let sides = i32::from(game.side_seeds(me)) - i32::from(game.side_seeds(them));
    100 * stores + SIDE_SEED * sides
}

impl AgentGame for Oware {
    type Aux = ();

    fn illegal_move(&self) -> House {
        // A house of the player who is not to move.
        House::new(PER_SIDE * Oware::opponent(self.side_to_move()).index())
    }

    #[inline]
    fn move_index(mv: House) -> usize {
        mv.index()
    }

    fn aux(&self) {}

    fn aux_after(&self, _aux: &(), _mv: House, _child: &Oware) {}

    #[inline]
    fn evaluate(&self, _aux: &()) -> i32 {
        evaluation(self, self.side_to_move())
    }

    /// Captures first, the biggest first.
    #[inline]
    fn order_hint(&self, _aux: &(), mv: House) -> i32 {
        let me = self.side_to_move();
        i32::from(self.child(mv).store(me)) - i32::from(self.store(me))
    }

    /// A player whose store and every seed still on the board stay below 25 cannot win.
    fn can_win(&self, _aux: &(), player: Player) -> bool {
        let board = TOTAL_SEEDS - self.store(Player::First) - self.store(Player::Second);
        self.store(player) + board >= WINNING_STORE
    }

    /// Depth 13-14 in about half a second a move; it won 20 games of 20 against
    /// `mcts:iterations=5000` (the default hard level) from random 2-ply openings.
    fn hard_spec(&self) -> &'static str {
        "alphabeta:nodes=1000000"
    }
}
