#!/usr/bin/env bash
# The start-up cost of a sandboxed outside agent, A/B in one run: `arena play` of one
# tic-tac-toe game against `random`, a Python submission started for it, timed N times with each
# binary in turn (interleaved, so the machine's load falls on both alike).
#   bash benches/sandbox-start.sh BEFORE_BINARY AFTER_BINARY [N] [EXTRA_MIB]
# EXTRA_MIB adds a data file of that size to the submission's folder (what the copy of its
# folder costs as it grows). Prints the median and quartiles of each, in ms.
set -euo pipefail
before=$1 after=$2 n=${3:-30} extra=${4:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${CARGO_TARGET_TMPDIR:-$root/target/tmp}/sandbox-start-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/sub"
cp "$root/experiments/class/submissions/alice/main.py" "$work/sub/"
if [ "$extra" -gt 0 ]; then head -c "$((extra << 20))" /dev/zero > "$work/sub/data.bin"; fi
play() {
  "$1" play tictactoe --first "proc:cmd=python3,args=$work/sub/main.py" --second random \
    --sandbox best-effort </dev/null >/dev/null 2>&1
}
for bin in "$before" "$after"; do play "$bin"; done # warm the caches
: > "$work/before.ms"; : > "$work/after.ms"
for _ in $(seq "$n"); do
  for side in before after; do
    bin=$before; [ "$side" = after ] && bin=$after
    t0=$(date +%s%N); play "$bin"; t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 )) >> "$work/$side.ms"
  done
done
for side in before after; do
  sort -n "$work/$side.ms" | awk -v s="$side" '{v[NR]=$1} END {
    printf "%s: median %.1f ms (quartiles %.1f-%.1f), %d runs\n", s, v[int(NR/2)+1]/1000,
      v[int(NR/4)+1]/1000, v[int(3*NR/4)+1]/1000, NR }'
done
