//! What a game adds so that outside agents can play it: the `board` line, the places of a
//! finished game, and the game's own outside kinds (the Gomocup `engine` plays m,n,k only).

use std::fmt::Write as _;

use agents::{Agent, AgentGame, AgentSpec, SpecError};
use rules::{Cell, Game, Mnk, OanQuan, Outcome, Player, Variant};

use crate::extra::ExtraKinds;
use crate::gomocup::{Engine, EngineConfig};
use crate::outside::Pool;

/// A game outside agents can play.
pub trait OutsideGame: AgentGame {
    /// Appends the fields of the `board` line for this position to `out`, each after a space
    /// (see `docs/src/reference/protocol.md`).
    fn write_board(&self, out: &mut String);

    /// Appends `mv` in the game's notation to `out` (what [`rules::Game::format_move`] says,
    /// without a string of its own: the arena writes every legal move every turn).
    fn write_move(&self, mv: Self::Move, out: &mut String) {
        out.push_str(&self.format_move(mv));
    }

    /// The start position of `variant`, if it is a variant of this game.
    fn start_of(variant: &Variant) -> Option<Self>;

    /// A Gomocup engine agent for this game, if the game has one (m,n,k only).
    fn gomocup_engine(config: EngineConfig, pool: Pool) -> Option<Box<dyn Agent<Self>>>;

    /// The agent of an embedding program's kind ([`ExtraKinds`]) for this game.
    fn build_extra(
        extra: &dyn ExtraKinds,
        name: &str,
        spec: &AgentSpec,
    ) -> Result<Box<dyn Agent<Self>>, SpecError>;

    /// The number of seats (2, or 3 and 4 for O An Quan's larger tables).
    fn seats(&self) -> usize {
        self.num_players()
    }
}

/// The place of each seat in a finished game, 1 = best, equal places for equal results.
pub fn places(outcome: Outcome, seats: usize) -> Vec<u8> {
    match outcome {
        Outcome::Ranked(ranking) => ranking.places().to_vec(),
        _ => Player::all(seats).map(|seat| outcome.place(seat)).collect(),
    }
}

impl OutsideGame for Mnk {
    fn write_board(&self, out: &mut String) {
        let config = self.config();
        let _ = write!(out, " rows={} cols={} cells=", config.rows(), config.cols());
        for row in 0..config.rows() {
            if row > 0 {
                out.push('/');
            }
            for col in 0..config.cols() {
                out.push(match self.stone_at(row, col) {
                    None => '.',
                    Some(Player::First) => 'X',
                    Some(_) => 'O',
                });
            }
        }
    }

    fn write_move(&self, mv: Cell, out: &mut String) {
        let (row, col) = self.config().row_col(mv);
        out.push(char::from(b'a' + col));
        let _ = write!(out, "{}", u32::from(row) + 1);
    }

    fn start_of(variant: &Variant) -> Option<Self> {
        variant.mnk().map(|config| config.start())
    }

    fn gomocup_engine(config: EngineConfig, pool: Pool) -> Option<Box<dyn Agent<Self>>> {
        Some(Box::new(Engine::new(config, pool)))
    }

    fn build_extra(
        extra: &dyn ExtraKinds,
        name: &str,
        spec: &AgentSpec,
    ) -> Result<Box<dyn Agent<Self>>, SpecError> {
        extra.build_mnk(name, spec)
    }
}

impl OutsideGame for OanQuan {
    fn write_board(&self, out: &mut String) {
        let list = |out: &mut String, key: &str, values: &mut dyn Iterator<Item = i32>| {
            let _ = write!(out, " {key}=");
            for (i, value) in values.enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{value}");
            }
        };
        let cells = self.cells();
        list(
            out,
            "seeds",
            &mut (0..cells).map(|i| i32::from(self.seeds(i))),
        );
        list(
            out,
            "pieces",
            &mut (5..cells).step_by(6).map(|i| i32::from(self.has_piece(i))),
        );
        list(
            out,
            "captures",
            &mut Player::all(self.num_players()).map(|p| self.captures(p)),
        );
        let _ = write!(out, " mandarin={}", self.rules().mandarin_value);
    }

    fn start_of(variant: &Variant) -> Option<Self> {
        variant.oanquan().map(|rules| rules.start())
    }

    fn gomocup_engine(_config: EngineConfig, _pool: Pool) -> Option<Box<dyn Agent<Self>>> {
        None
    }

    fn build_extra(
        extra: &dyn ExtraKinds,
        name: &str,
        spec: &AgentSpec,
    ) -> Result<Box<dyn Agent<Self>>, SpecError> {
        extra.build_oanquan(name, spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Game;

    fn board(game: &impl OutsideGame) -> String {
        let mut out = String::new();
        game.write_board(&mut out);
        out
    }

    #[test]
    fn boards_show_stones_and_seeds() {
        let game: Mnk = "mnk-3x4k3"
            .parse::<Variant>()
            .unwrap()
            .mnk()
            .unwrap()
            .start();
        let game = game.play_line("b2 a1").unwrap();
        assert_eq!(board(&game), " rows=3 cols=4 cells=O.../.X../....");
        let game = "oanquan"
            .parse::<Variant>()
            .unwrap()
            .oanquan()
            .unwrap()
            .start();
        assert_eq!(
            board(&game.play_line("1P").unwrap()),
            " seeds=0,0,6,6,6,1,0,6,6,6,6,1 pieces=1,1 captures=6,0 mandarin=10"
        );
    }

    #[test]
    fn moves_are_written_as_the_game_formats_them() {
        for id in ["mnk-19x19k5", "mnk-3x7k3"] {
            let game: Mnk = id.parse::<Variant>().unwrap().mnk().unwrap().start();
            let mut moves = rules::MoveList::new();
            game.legal_moves(&mut moves);
            for mv in moves {
                let mut out = String::new();
                game.write_move(mv, &mut out);
                assert_eq!(out, game.format_move(mv));
            }
        }
    }

    #[test]
    fn places_of_two_player_outcomes() {
        assert_eq!(places(Outcome::Win(Player::First), 2), [1, 2]);
        assert_eq!(places(Outcome::Win(Player::Second), 2), [2, 1]);
        assert_eq!(places(Outcome::Draw, 2), [1, 1]);
    }
}
