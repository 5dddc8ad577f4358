#!/usr/bin/env bash
# Short fuzz runs of every cargo-fuzz target (fuzz/fuzz_targets): move notation and variant ids,
# experiment files, CSV rows (arena and report readers, each row checked and replayed),
# `arena merge` input, the arena protocol's lines and Gomocup sessions. Each target starts from its seeds in fuzz/seeds/ and runs for
# FUZZ_SECONDS (default 10) in a fresh temporary corpus; any panic, abort, leak or out-of-memory
# fails the script. Longer runs: see fuzz/README.md.
#
# cargo fuzz needs nightly-only compiler flags (sanitizers); RUSTC_BOOTSTRAP=1 lets the
# machine's stable toolchain accept them. Installs cargo-fuzz from crates.io at a pinned version
# into target/ci-tools when it is not there (never system-wide).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-10}
export RUSTC_BOOTSTRAP=1
CARGO_FUZZ_VERSION=0.13.2
tools="$PWD/target/ci-tools"
export PATH="$tools/bin:$PATH"
if ! cargo fuzz --version 2>/dev/null | grep -q " $CARGO_FUZZ_VERSION\b"; then
  echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION into target/ci-tools"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --quiet --root "$tools" --debug
fi
cargo fuzz build
[ -z "${INSTALL_ONLY:-}" ] || exit 0
work=$(mktemp -d /tmp/arena-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Two targets at a time (each libFuzzer run is one process on one core): the same fuzzing time
# per target in half the wall time on a two-core machine.
fuzz_one() {
  local target=$1
  mkdir -p "$work/$target" "$work/artifacts-$target"
  if ! cargo fuzz run "$target" "$work/$target" "fuzz/seeds/$target" -- \
      -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="$work/artifacts-$target/" >"$work/$target.log" 2>&1; then
    echo "fuzz: $target FAILED"
    tail -n 40 "$work/$target.log"
    return 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target.log")
  echo "fuzz: $target: $runs inputs in ${seconds} s, no crash"
}
failed=0
running=0
for target in $(cargo fuzz list); do
  if [ "$running" -ge "${FUZZ_JOBS:-2}" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
exit "$failed"
