//! The roster: every agent kind ([`KINDS`], in the order `arena list` shows them), and how a
//! spec is checked ([`check`], [`plays`]) and built ([`build`], [`build_for`]). Kinds of one
//! game only are built by that game ([`AgentGame::build_own`]).

use rules::Variant;

use crate::fault::{self, Fault};
use crate::games::mnk::{easy, neighbor, threat};
use crate::games::oanquan::greedy;
use crate::random::{self, Random};
use crate::{
    Agent, AgentGame, AgentSpec, AlphaBeta, FlatMc, Kind, Mcts, Minimax, Params, SpecError,
    alphabeta, flat, mcts, minimax,
};

/// Every agent kind, in the order `arena list` shows them.
pub const KINDS: &[Kind] = &[
    random::KIND,
    flat::FLAT_KIND,
    minimax::KIND,
    alphabeta::KIND,
    mcts::KIND,
    easy::KIND,
    neighbor::KIND,
    flat::NEAR_KIND,
    flat::PAR_KIND,
    threat::KIND,
    greedy::GREEDY_KIND,
    greedy::GREEDY2_KIND,
    fault::KIND,
];

/// The kind named `name`.
pub fn kind(name: &str) -> Result<&'static Kind, SpecError> {
    KINDS
        .iter()
        .find(|k| k.name == name)
        .ok_or_else(|| SpecError::UnknownKind {
            kind: name.to_string(),
            known: KINDS
                .iter()
                .filter(|k| k.listed)
                .map(|k| k.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Checks a spec for `variant` without playing: the kind exists, plays the variant (its game
/// and its number of players), and every parameter is accepted.
pub fn check(spec: &AgentSpec, variant: &Variant) -> Result<(), SpecError> {
    rules::with_game!(variant, |start| build_for_game(spec, &start).map(drop))
}

fn build_for_game<G: AgentGame>(
    spec: &AgentSpec,
    start: &G,
) -> Result<Box<dyn Agent<G>>, SpecError> {
    build_for::<G>(spec, start.num_players())
}

/// Whether the kind of `spec` plays `variant`, its game and its number of players (false for
/// an unknown kind).
pub fn plays(spec: &AgentSpec, variant: &Variant) -> bool {
    kind(&spec.kind).is_ok_and(|k| {
        k.plays.includes(variant.family()) && (variant.players() == 2 || k.multiplayer)
    })
}

/// Builds the agent `spec` names for games of type `G` with `players` players: as [`build`],
/// and refuses a kind that plays only two-player games when `players` is more.
pub fn build_for<G: AgentGame>(
    spec: &AgentSpec,
    players: usize,
) -> Result<Box<dyn Agent<G>>, SpecError> {
    let agent = build::<G>(spec)?;
    let kind = kind(&spec.kind)?;
    if players > 2 && !kind.multiplayer {
        return Err(SpecError::Unsupported {
            kind: kind.name.to_string(),
            variant: format!("games of {players} players"),
            plays: kind.reach(),
        });
    }
    Ok(agent)
}

/// Builds the agent `spec` names for games of type `G`. Building is cheap: agents allocate
/// their search memory when they first search, not here.
pub fn build<G: AgentGame>(spec: &AgentSpec) -> Result<Box<dyn Agent<G>>, SpecError> {
    let kind = kind(&spec.kind)?;
    if !kind.plays.includes(G::FAMILY) {
        return Err(SpecError::Unsupported {
            kind: kind.name.to_string(),
            variant: G::FAMILY.title.to_string(),
            plays: kind.plays.describe(),
        });
    }
    let params = Params::new(spec, kind.params)?;
    match kind.name {
        "random" => Ok(Box::new(Random::from_params(&params)?)),
        "fault" => Ok(Box::new(Fault::from_params(&params)?)),
        "mc-flat" => Ok(Box::new(FlatMc::from_params(kind, &params)?)),
        "minimax" => Ok(Box::new(Minimax::from_params(&params)?)),
        "alphabeta" => Ok(Box::new(AlphaBeta::<G>::from_params(&params)?)),
        "mcts" => Ok(Box::new(Mcts::<G>::from_params(&params)?)),
        // Kinds of one game only are built by that game, which knows their types.
        _ => G::build_own(kind, &params),
    }
}
