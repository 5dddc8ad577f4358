//! The integration tests of `cli` (the `arena` binary, driven end to end), one module per file, built as one test
//! binary: one link instead of one per file, which is most of what the tests cost to build.
//! `cargo test -p cli --test it MODULE::` runs one file's tests.

mod class;
mod clients;
mod engine;
mod games;
mod play;
mod positions;
mod proc;
mod report;
mod run;
mod sandbox;
mod sprt;
mod tune;
mod writers;
