//! What the agents know of O An Quan: the score-difference evaluation and a capture-based
//! move order. Positions are small and a sowing is cheap, so nothing is kept incrementally.
//! With three or four players the difference is taken against the best other total.

pub mod greedy;

use rules::oanquan::Direction;
use rules::{Game, OanQuan, Player, Sow};

use crate::{Agent, AgentGame, Greedy, Kind, Params, SpecError};

/// Final totals (captures plus the seeds on one's own squares) of `me` minus the opponent's;
/// with three or four players, minus the best total of the others.
#[inline]
pub(crate) fn score_difference(game: &OanQuan, me: Player) -> i32 {
    let total = |p: Player| game.captures(p) + game.side_seeds(p);
    let players = game.num_players();
    let theirs = if players == 2 {
        // Round a table of two, the next seat is the opponent.
        total(me.next(players))
    } else {
        Player::all(players)
            .filter(|&p| p != me)
            .map(total)
            .max()
            .unwrap_or(0)
    };
    total(me) - theirs
}

impl AgentGame for OanQuan {
    type Aux = ();

    fn illegal_move(&self) -> Sow {
        // A square of the next player, never the one to move.
        let next = self.side_to_move().next(self.num_players());
        Sow::new(6 * next.index() as u8, Direction::Right)
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

    #[inline]
    fn evaluate_for(&self, _aux: &(), seat: Player) -> i32 {
        score_difference(self, seat)
    }

    /// Moves that gain the most at once come first.
    #[inline]
    fn order_hint(&self, _aux: &(), mv: Sow) -> i32 {
        score_difference(&self.child(mv), self.side_to_move())
    }

    /// Seed 001's greedy player.
    fn easy_spec(&self) -> &'static str {
        "greedy"
    }

    fn hard_spec(&self) -> &'static str {
        if self.num_players() == 2 {
            // Depth 12 or more in under a second; it beats greedy2 by about 20 seeds a game.
            "alphabeta:nodes=1000000"
        } else {
            // Three or four players: UCT with a reward per seat, well under a second a move.
            "mcts:iterations=5000"
        }
    }

    fn build_own(
        kind: &'static Kind,
        params: &Params<'_>,
    ) -> Result<Box<dyn Agent<OanQuan>>, SpecError> {
        match kind.name {
            "greedy" | "greedy2" => Ok(Box::new(Greedy::from_params(kind, params)?)),
            other => Err(SpecError::Unsupported {
                kind: other.to_string(),
                variant: rules::oanquan::FAMILY.title.to_string(),
                plays: kind.plays.describe(),
            }),
        }
    }
}
