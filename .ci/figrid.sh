#!/usr/bin/env bash
# A real outside engine through the Gomocup protocol: pbrain-figrid (crates.io's figrid-board,
# pinned), installed into target/ci-tools, plays a short match against `threat` on gomoku from
# the opening suite, kept between games (`restart=off`: it answers UNKNOWN to the optional
# RESTART, so each later game starts with START); every game must end by the rules (no fault).
# Then our `arena engine` under a manager that is not ours (pygomo-lib from PyPI, pinned, in
# target/manager-venv): .ci/manager.py.
#
#   bash .ci/figrid.sh [ARENA_BINARY]      # default target/debug/arena
set -euo pipefail
cd "$(dirname "$0")/.."
arena=$(realpath "${1:-target/debug/arena}")
FIGRID_VERSION=1.2.0
tools="$PWD/target/ci-tools"
engine="$tools/bin/pbrain-figrid"
if ! [ -x "$engine" ]; then
  echo "figrid: installing figrid-board $FIGRID_VERSION into target/ci-tools"
  cargo install figrid-board --version "$FIGRID_VERSION" --locked --quiet --root "$tools" \
    --features embed-weights,codebook-eval
fi
# A Gomocup manager that is not ours, from PyPI (pinned), drives our `arena engine` against it.
PYGOMO_VERSION=0.1.1
venv="$PWD/target/manager-venv"
if ! [ -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pygomo" 2>/dev/null; then
  echo "figrid: installing pygomo-lib $PYGOMO_VERSION into target/manager-venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "pygomo-lib==$PYGOMO_VERSION"
fi
[ -z "${INSTALL_ONLY:-}" ] || exit 0
work=$(mktemp -d /tmp/arena-figrid.XXXXXX)
trap 'rm -rf "$work"' EXIT
for restart in on off; do
  cat >"$work/figrid-$restart.toml" <<TOML
name = "figrid"
seed = 1
games_per_pair = 4
st = 0.3
openings = "$PWD/experiments/openings/gomoku.txt"
variants = ["gomoku"]

[[agents]]
name = "figrid"
spec = "engine:cmd=$engine,restart=$restart"

[[agents]]
name = "threat"
spec = "threat"
TOML
  "$arena" run "$work/figrid-$restart.toml" --out "$work/out-$restart" --threads 1 --no-report >/dev/null
  games=$(tail -n +2 "$work/out-$restart/games.csv" | wc -l)
  faults=$(tail -n +2 "$work/out-$restart/games.csv" | cut -d, -f8 | grep -cvE '^(win|draw)$' || true)
  echo "figrid (restart=$restart): $games games, $faults ended by a fault"
  if [ "$games" -ne 4 ] || [ "$faults" -ne 0 ]; then
    cat "$work/out-$restart/games.faults.log" 2>/dev/null || true
    exit 1
  fi
done
# Our engine under that manager: two games against figrid, colours swapped, every move legal.
timeout 300 "$venv/bin/python" .ci/manager.py "$arena" "$engine"
