//! The integration tests of `arena` (tournaments), one module per file, built as one test
//! binary: one link instead of one per file, which is most of what the tests cost to build.
//! `cargo test -p arena --test it MODULE::` runs one file's tests.

mod common;

mod experiment;
mod extra_kinds;
mod fit;
mod multi;
mod npz;
mod openings;
mod played;
mod positions;
mod results;
mod run;
mod sample;
mod shard;
mod sprt;
mod tune;
mod verify;
