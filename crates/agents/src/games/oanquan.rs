//! What the agents know of O An Quan: the score-difference evaluation and a capture-based
//! move order. Positions are small and a sowing is cheap, so nothing is kept incrementally.

use rules::oanquan::Direction;
use rules::{Game, OanQuan, Player, Sow};

use crate::{Agent, AgentGame, Family, Greedy, Kind, Params, SpecError};

/// Final totals (captures plus the seeds on one's own squares) of `me` minus the opponent's.
#[inline]
pub(crate) fn score_difference(game: &OanQuan, me: Player) -> i32 {
    let mine = game.captures(me) + game.side_seeds(me);
    let theirs = game.captures(me.opponent()) + game.side_seeds(me.opponent());
    mine - theirs
}

impl AgentGame for OanQuan {
    const FAMILY: Family = Family::OanQuan;

    type Aux = ();

    fn illegal_move(&self) -> Sow {
        // A square of the player not to move.
        let square = match self.side_to_move() {
            Player::First => 6,
            Player::Second => 0,
        };
        Sow {
            square,
            direction: Direction::Right,
        }
    }

    #[inline]
    fn move_index(mv: Sow) -> usize {
        usize::from(mv.square) * 2 + usize::from(mv.direction == Direction::Left)
    }

    fn aux(&self) {}

    fn aux_after(&self, _aux: &(), _mv: Sow, _child: &OanQuan) {}

    /// Captures plus seeds on one's own squares, the side to move's minus the opponent's: the
    /// final score if the game ended now.
    #[inline]
    fn evaluate(&self, _aux: &()) -> i32 {
        score_difference(self, self.side_to_move())
    }

    /// Moves that gain the most at once come first.
    #[inline]
    fn order_hint(&self, _aux: &(), mv: Sow) -> i32 {
        score_difference(&self.child(mv), self.side_to_move())
    }

    fn build_own(
        kind: &'static Kind,
        params: &Params<'_>,
    ) -> Result<Box<dyn Agent<OanQuan>>, SpecError> {
        match kind.name {
            "greedy" | "greedy2" => Ok(Box::new(Greedy::from_params(kind, params)?)),
            other => Err(SpecError::Unsupported {
                kind: other.to_string(),
                variant: Family::OanQuan.name().to_string(),
                plays: kind.plays.describe().to_string(),
            }),
        }
    }
}
