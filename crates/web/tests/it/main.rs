//! The integration tests of `web` (`arena serve`, over HTTP), one module per file, built as one test
//! binary: one link instead of one per file, which is most of what the tests cost to build.
//! `cargo test -p web --test it MODULE::` runs one file's tests.

mod common;

mod api;
mod fuzz;
mod keep;
mod links;
mod live;
mod load;
mod own;
mod page;
mod tables;
