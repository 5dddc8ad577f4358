//! The integration tests of `report` (ratings and charts), one module per file, built as one test
//! binary: one link instead of one per file, which is most of what the tests cost to build.
//! `cargo test -p report --test it MODULE::` runs one file's tests.

mod common;

mod committed;
mod coverage;
mod files;
mod input;
mod intervals;
mod ratings;
mod sprt;
