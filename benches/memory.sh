#!/usr/bin/env bash
# Resident memory of `arena run experiments/billion.toml` (a billion games per pair) as the
# games accumulate, read from /proc/PID/status, then the run is stopped. Also the memory of a
# resume over the rows recorded by then. A figure, not a test: see the book's benchmarks page and reliability
# section.
#
# Usage: bash benches/memory.sh [PATH/TO/arena]   (default: target/release/arena, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
arena=${1:-target/release/arena}
if [ -z "${1:-}" ]; then cargo build --release --bin arena -q; fi
out=$(mktemp -d /tmp/arena-memory.XXXXXX)
trap 'rm -rf "$out"' EXIT

rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
hwm() { awk '/^VmHWM/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
rows() { if [ -f "$out/games.csv" ]; then echo $(( $(wc -l <"$out/games.csv") - 1 )); else echo 0; fi; }

run_until() {
  local stops=("$@")
  "$arena" run experiments/billion.toml --out "$out" --threads 2 --no-report >"$out/run.log" 2>&1 &
  local pid=$!
  for stop in "${stops[@]}"; do
    while [ "$(rows)" -lt "$stop" ]; do
      kill -0 "$pid" 2>/dev/null || { echo "the run ended:"; cat "$out/run.log"; exit 1; }
      sleep 0.01
    done
    printf '%10s games recorded: resident %6d KiB, peak %6d KiB\n' "$(rows)" "$(rss "$pid")" "$(hwm "$pid")"
  done
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

echo "arena run experiments/billion.toml (10^9 games per pair, 4 x 10^9 in all), 2 threads:"
run_until 1000 10000 100000 1000000
echo "resumed over those rows (each checked and replayed first):"
run_until "$(( $(rows) + 1000 ))"
