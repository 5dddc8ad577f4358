#!/usr/bin/env bash
# The table of solved m,n,k games: `arena solve` (df-pn) from the empty board of each,
# 10 minutes at most each, one after the other, one line of Markdown each.
#
#   bash benches/solve_table.sh [ARENA_BINARY] [SECONDS]
#
# Default binary target/release/arena (build it first), default limit 600 s.
set -euo pipefail
arena="${1:-target/release/arena}"
limit="${2:-600}"
boards=(
  mnk-3x3k3 mnk-3x4k3 mnk-4x4k3 mnk-4x4k4 mnk-4x5k4 mnk-4x6k4 mnk-4x7k4 mnk-4x8k4
  mnk-5x5k4 mnk-5x6k4 mnk-6x6k4 mnk-5x5k5 mnk-6x6k5 mnk-6x7k5 mnk-7x7k5 mnk-8x8k5
  mnk-15x15k5 mnk-8x8k8 mnk-9x9k8
)
echo "| board | our value | time | nodes |"
echo "| --- | --- | ---: | ---: |"
for board in "${boards[@]}"; do
  out=$("$arena" solve "$board" --time-limit "$limit" 2>/dev/null)
  value=$(sed -n 's/^value: //p' <<<"$out")
  time=$(sed -n 's/^time: //p' <<<"$out")
  nodes=$(sed -n 's/^nodes: \([0-9]*\).*/\1/p' <<<"$out")
  echo "| $board | $value | $time | $nodes |"
done
