//! `greedy` and `greedy2` (seed 001's "ăn quân nhiều nhất" and "hạn chế đối phương ăn quân"):
//! O An Quan agents that look one move ahead (`greedy`: the most captured now) or two
//! (`greedy2`: own capture minus the opponent's best capture in reply). Ties are broken at
//! random.

use rand::RngExt;
use rules::{Game, MoveList, OanQuan, Player, Sow};

use crate::{Agent, AgentError, Choice, Context, Kind, Params, Plays, SearchStats, SpecError};

pub(crate) const GREEDY_KIND: Kind = Kind {
    name: "greedy",
    summary: "the move that captures the most now; ties at random (the O An Quan course project's AI)",
    plays: Plays::Only(&rules::oanquan::FAMILY),
    params: &[],
    multiplayer: true,
    listed: true,
    memory: Some(|| crate::memory::SMALL.to_string()),
};

pub(crate) const GREEDY2_KIND: Kind = Kind {
    name: "greedy2",
    summary: "the move that maximises own capture minus the opponent's best reply capture \
              (the O An Quan course project's harder AI)",
    plays: Plays::Only(&rules::oanquan::FAMILY),
    params: &[],
    multiplayer: true,
    listed: true,
    memory: Some(|| crate::memory::SMALL.to_string()),
};

/// The settings of [`Greedy`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GreedyConfig {
    /// Whether to subtract the opponent's best capture in reply (`greedy2`). Default false.
    pub reply: bool,
}

impl GreedyConfig {
    /// The same settings, looking at the opponent's reply (`true`, `greedy2`) or not.
    pub fn with_reply(mut self, reply: bool) -> Self {
        self.reply = reply;
        self
    }
}

/// The `greedy` and `greedy2` agents.
#[derive(Clone, Debug)]
pub struct Greedy {
    config: GreedyConfig,
}

impl Greedy {
    /// A greedy agent.
    pub fn new(config: GreedyConfig) -> Result<Self, SpecError> {
        Ok(Greedy { config })
    }

    pub(crate) fn from_params(kind: &Kind, _params: &Params<'_>) -> Result<Self, SpecError> {
        Greedy::new(GreedyConfig::default().with_reply(kind.name == GREEDY2_KIND.name))
    }
}

/// What `player` gains in captures from `before` to `after`.
fn gain(before: &OanQuan, after: &OanQuan, player: Player) -> i32 {
    after.captures(player) - before.captures(player)
}

/// The opponent's best capture in reply to the position `after` (0 if the game is over).
fn best_reply(after: &OanQuan) -> (i32, u64) {
    let mut replies = MoveList::new();
    after.legal_moves(&mut replies);
    let them = after.side_to_move();
    let best = replies
        .iter()
        .map(|&reply| gain(after, &after.child(reply), them))
        .max()
        .unwrap_or(0);
    (best, replies.len() as u64)
}

impl Agent<OanQuan> for Greedy {
    fn choose(
        &mut self,
        position: &OanQuan,
        ctx: &mut Context<'_>,
    ) -> Result<Choice<Sow>, AgentError> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(AgentError::Crash("asked to move in a finished game".into()));
        }
        let me = position.side_to_move();
        let mut nodes = 0;
        let mut best = i32::MIN;
        let mut ties: MoveList<Sow> = MoveList::new();
        for &mv in &moves {
            let after = position.child(mv);
            nodes += 1;
            let mut value = gain(position, &after, me);
            if self.config.reply {
                let (reply, counted) = best_reply(&after);
                value -= reply;
                nodes += counted;
            }
            if value > best {
                best = value;
                ties.clear();
            }
            if value == best {
                ties.push(mv);
            }
        }
        let mv = ties[ctx.rng.random_range(0..ties.len())];
        let what = if self.config.reply {
            "capture minus best reply"
        } else {
            "capture"
        };
        Ok(Choice {
            mv,
            stats: SearchStats {
                nodes,
                depth: Some(if self.config.reply { 2 } else { 1 }),
                score: Some(f64::from(best)),
                reason: Some(format!("{what} {best}, best of {} moves", moves.len())),
            },
            pv: Vec::new(),
        })
    }
}
