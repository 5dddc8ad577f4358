//! Shared helpers of the criterion benchmarks (see `benches/*.rs`).
