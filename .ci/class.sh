#!/usr/bin/env bash
# The class tournament of the guide (docs/src/guide/class-tournament.md): the ten submissions of
# experiments/class/ built (g++, make) and checked in the sandbox, the eight that pass played,
# and the run compared with the committed one (results/class): the same admissions, and the
# same games outside the timing columns. About 20 s on two cores.
#
#   bash .ci/class.sh [ARENA_BINARY]      # default target/debug/arena
set -euo pipefail
cd "$(dirname "$0")/.."
arena=$(realpath "${1:-target/debug/arena}")
out=target/class-ci
rm -rf "$out"
"$arena" run experiments/class/class.toml --out "$out" --threads 2 --check-against results/class
# The same submissions passed, for the same reasons.
cut -d, -f1-4 "$out/submissions.csv" | diff - <(cut -d, -f1-4 results/class/submissions.csv)
echo "class: the run is the committed one"
