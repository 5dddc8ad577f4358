#!/usr/bin/env bash
# A short run of the protocol fuzz targets (cargo fuzz, libFuzzer) with the stable toolchain:
# cargo-fuzz passes nightly flags, which RUSTC_BOOTSTRAP=1 lets stable rustc take. Any crash
# fails the script (and leaves the input in crates/protocol/fuzz/artifacts/).
#
#   bash .ci/fuzz.sh              # 30 s per target (CI)
#   FUZZ_SECONDS=600 bash .ci/fuzz.sh   # longer runs
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-30}"
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi
cd crates/protocol
for target in gomocup_commands arena_lines; do
    echo "== fuzz $target for $seconds s"
    mkdir -p "fuzz/corpus/$target"
    RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
        -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 2>&1 |
        grep -E "^(Done|stat::number_of_executed_units|==|INFO: -max_len)|panicked|ERROR|SUMMARY" || true
    # libFuzzer's exit status is lost in the pipe above: a crash leaves an artifact.
    if compgen -G "fuzz/artifacts/$target/*" >/dev/null; then
        echo "fuzz $target found a crash:" fuzz/artifacts/"$target"/*
        exit 1
    fi
done
