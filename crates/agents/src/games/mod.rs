//! What the agents know of each game: the [`crate::AgentGame`] implementations.

pub mod breakthrough;
pub mod connect4;
pub mod mnk;
pub mod oanquan;
pub mod othello;
pub mod oware;
