//! `easy` (seed 004's easy AI): win at once if possible, else block the opponent's win at once,
//! else take the centre, else a corner, else any cell; and with probability `mistake` a
//! random move instead of all that. m,n,k only.

use rand::RngExt;
use rules::{Cell, Game, Mnk, MoveList, TwoPlayer};

use super::geometry::threats_of;
use crate::spec::bad_value;
use crate::{Agent, AgentError, Choice, Context, Kind, ParamDoc, Params, Plays};
use crate::{SearchStats, SpecError};

pub(crate) const KIND: Kind = Kind {
    name: "easy",
    summary: "win now, else block, else centre, else a corner, else random; sometimes a \
              random mistake (the tic-tac-toe tutorial's easy AI)",
    plays: Plays::Only(&rules::mnk::FAMILY),
    params: &[ParamDoc {
        name: "mistake",
        default: "0.3",
        doc: "probability of a random move instead of the rules (0 to 1)",
    }],
    multiplayer: false,
    listed: true,
    memory: Some(|| crate::memory::SMALL.to_string()),
};

/// The settings of [`Easy`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EasyConfig {
    /// The probability (0 to 1) of playing a random move instead of following the rules.
    /// Default 0.3, as in seed 004.
    pub mistake: f64,
}

impl Default for EasyConfig {
    fn default() -> Self {
        EasyConfig { mistake: 0.3 }
    }
}

impl EasyConfig {
    /// The same settings with another mistake probability.
    pub fn with_mistake(mut self, mistake: f64) -> Self {
        self.mistake = mistake;
        self
    }
}

/// The `easy` agent.
#[derive(Clone, Debug)]
pub struct Easy {
    config: EasyConfig,
}

impl Easy {
    /// An `easy` agent; refuses a mistake probability outside 0 to 1.
    pub fn new(config: EasyConfig) -> Result<Self, SpecError> {
        if !(0.0..=1.0).contains(&config.mistake) {
            return Err(bad_value(
                KIND.name,
                "mistake",
                config.mistake,
                "a probability from 0 to 1",
            ));
        }
        Ok(Easy { config })
    }

    pub(crate) fn from_params(params: &Params<'_>) -> Result<Self, SpecError> {
        Easy::new(EasyConfig::default().with_mistake(params.f64("mistake", 0.3, 0.0..=1.0)?))
    }
}

impl Agent<Mnk> for Easy {
    fn choose(
        &mut self,
        position: &Mnk,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<Cell>, AgentError> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        let choice = |mv: Cell, reason: &str| Choice {
            mv,
            stats: SearchStats {
                nodes: moves.len() as u64,
                reason: Some(reason.to_string()),
                ..SearchStats::default()
            },
            pv: Vec::new(),
        };
        let random = |ctx: &mut Context<'_>| moves[ctx.rng.random_range(0..moves.len())];
        if ctx.rng.random_bool(self.config.mistake) {
            return Ok(choice(random(ctx), "mistake: a random move"));
        }
        let me = position.side_to_move();
        let legal = |cell: &Cell| position.is_legal(*cell);
        if let Some(cell) = threats_of(position, me).iter().find(legal) {
            return Ok(choice(cell, "win now"));
        }
        if let Some(cell) = threats_of(position, Mnk::opponent(me)).iter().find(legal) {
            return Ok(choice(cell, "block"));
        }
        let config = position.config();
        let centre = config.center_cell();
        if position.is_legal(centre) {
            return Ok(choice(centre, "centre"));
        }
        let (last_row, last_col) = (config.rows() - 1, config.cols() - 1);
        let corners: Vec<Cell> = [(0, 0), (0, last_col), (last_row, 0), (last_row, last_col)]
            .into_iter()
            .filter_map(|(row, col)| config.cell(row, col))
            .filter(|cell| position.is_legal(*cell))
            .fold(Vec::new(), |mut seen, cell| {
                // A board one cell wide has fewer than four distinct corners.
                if !seen.contains(&cell) {
                    seen.push(cell);
                }
                seen
            });
        if !corners.is_empty() {
            let cell = corners[ctx.rng.random_range(0..corners.len())];
            return Ok(choice(cell, "corner"));
        }
        Ok(choice(random(ctx), "random"))
    }
}
