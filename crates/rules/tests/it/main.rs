//! The integration tests of `rules` (the games), one module per file, built as one test
//! binary: one link instead of one per file, which is most of what the tests cost to build.
//! `cargo test -p rules --test it MODULE::` runs one file's tests.

mod breakthrough;
mod conformance;
mod connect4;
mod mnk;
mod oanquan;
mod oanquan_multi;
mod othello;
mod oware;
mod reference;
mod variant;
