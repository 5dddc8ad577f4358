//! What a game adds so that outside agents can play it: the `board` line, the places of a
//! finished game, and the game's own outside kinds (the Gomocup `engine` plays m,n,k only).

use std::fmt::Write as _;

use agents::{Agent, AgentGame};
use rules::{Mnk, OanQuan, Outcome, Player, Variant};

use crate::gomocup::{Engine, EngineConfig};
use crate::outside::Pool;

/// A game outside agents can play.
pub trait OutsideGame: AgentGame {
    /// The fields of the `board` line for this position (see `docs/protocol.md`).
    fn board_fields(&self) -> Vec<(String, String)>;

    /// The start position of `variant`, if it is a variant of this game.
    fn start_of(variant: &Variant) -> Option<Self>;

    /// A Gomocup engine agent for this game, if the game has one (m,n,k only).
    fn gomocup_engine(config: EngineConfig, pool: Pool) -> Option<Box<dyn Agent<Self>>>;

    /// The number of seats. (2 for every game so far; 3-4 player variants will say more.)
    fn seats(&self) -> usize {
        2
    }
}

/// The place of each seat in a finished game, 1 = best, equal places for equal results.
pub fn places(outcome: Outcome, seats: usize) -> Vec<u8> {
    let mut out = vec![1u8; seats];
    if let Outcome::Win(winner) = outcome {
        for (seat, place) in out.iter_mut().enumerate() {
            if seat != winner.index() {
                *place = 2;
            }
        }
    }
    out
}

impl OutsideGame for Mnk {
    fn board_fields(&self) -> Vec<(String, String)> {
        let config = self.config();
        let mut cells = String::with_capacity(usize::from(config.cells()) + 19);
        for row in 0..config.rows() {
            if row > 0 {
                cells.push('/');
            }
            for col in 0..config.cols() {
                cells.push(match self.stone_at(row, col) {
                    None => '.',
                    Some(Player::First) => 'X',
                    Some(_) => 'O',
                });
            }
        }
        vec![
            ("rows".into(), config.rows().to_string()),
            ("cols".into(), config.cols().to_string()),
            ("cells".into(), cells),
        ]
    }

    fn start_of(variant: &Variant) -> Option<Self> {
        variant.mnk().map(|config| config.start())
    }

    fn gomocup_engine(config: EngineConfig, pool: Pool) -> Option<Box<dyn Agent<Self>>> {
        Some(Box::new(Engine::new(config, pool)))
    }
}

impl OutsideGame for OanQuan {
    fn board_fields(&self) -> Vec<(String, String)> {
        let join = |values: &mut dyn Iterator<Item = i32>| {
            let mut text = String::new();
            for (i, value) in values.enumerate() {
                if i > 0 {
                    text.push(',');
                }
                let _ = write!(text, "{value}");
            }
            text
        };
        let seeds = join(&mut (0..12).map(|i| i32::from(self.seeds(i))));
        let pieces = join(&mut [5, 11].into_iter().map(|i| i32::from(self.has_piece(i))));
        let captures = join(
            &mut [Player::First, Player::Second]
                .into_iter()
                .map(|p| self.captures(p)),
        );
        vec![
            ("seeds".into(), seeds),
            ("pieces".into(), pieces),
            ("captures".into(), captures),
            ("mandarin".into(), self.rules().mandarin_value.to_string()),
        ]
    }

    fn start_of(variant: &Variant) -> Option<Self> {
        variant.oanquan().map(|rules| rules.start())
    }

    fn gomocup_engine(_config: EngineConfig, _pool: Pool) -> Option<Box<dyn Agent<Self>>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Game;

    #[test]
    fn boards_show_stones_and_seeds() {
        let game: Mnk = "mnk-3x4k3"
            .parse::<Variant>()
            .unwrap()
            .mnk()
            .unwrap()
            .start();
        let game = game.play_line("b2 a1").unwrap();
        let fields = game.board_fields();
        assert_eq!(fields[2], ("cells".into(), "O.../.X../....".into()));
        let game = "oanquan"
            .parse::<Variant>()
            .unwrap()
            .oanquan()
            .unwrap()
            .start();
        let fields = game.play_line("1P").unwrap().board_fields();
        assert_eq!(fields[0].1, "0,0,6,6,6,1,0,6,6,6,6,1");
        assert_eq!(fields[1].1, "1,1");
        assert_eq!(fields[2].1, "6,0");
    }

    #[test]
    fn places_of_two_player_outcomes() {
        assert_eq!(places(Outcome::Win(Player::First), 2), [1, 2]);
        assert_eq!(places(Outcome::Win(Player::Second), 2), [2, 1]);
        assert_eq!(places(Outcome::Draw, 2), [1, 1]);
    }
}
