//! The integration tests of `agents` (the players), one module per file, built as one test
//! binary: one link instead of one per file, which is most of what the tests cost to build.
//! `cargo test -p agents --test it MODULE::` runs one file's tests.

mod common;

mod breakthrough;
mod connect4_solve;
mod determinism;
mod mcts;
mod oanquan;
mod othello;
mod oware;
mod pattern_weights;
mod pv;
mod search;
mod simple;
mod solve;
mod specs;
mod tactics;
mod td4;
mod threat;
mod tictactoe;
