#!/usr/bin/env bash
# A/B of issue 34.5's promise: a run's games per second are the same with the Live page open.
# Plays the same short run (3,000 cheap games, 2 threads) into fresh folders, alternating
# without a reader and with one polling `GET /api/live/run` as the page does (every 1.5 s,
# without `since`, so every poll reads and rates the whole CSV: the page's worst case), and
# with a poller ten times faster (every 0.15 s). Prints each run's games per second.
#
#   bash benches/live-ab.sh [ARENA_BINARY] [ROUNDS]     # default target/debug/arena, 3
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/arena}
rounds=${2:-3}
work=target/live-ab
rm -rf "$work"
mkdir -p "$work/results"
cat > "$work/ab.toml" <<'TOML'
name = "live-ab"
seed = 345
games_per_pair = 1000
variants = ["mnk-5x5k4"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "ab1"
spec = "alphabeta:depth=1"

[[agents]]
name = "mcts"
spec = "mcts:iterations=2000"
TOML

"$bin" serve --port 0 --results "$work/results" > "$work/serve.log" 2>&1 &
server=$!
poller=""
cleanup() {
  [ -n "$poller" ] && kill "$poller" 2>/dev/null || true
  kill "$server" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$work/serve.log" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "arena serve gave no address"; cat "$work/serve.log"; exit 1; }

one() { # mode round
  local dir="$1-$2" every=""
  case "$1" in
    page) every=1.5 ;;
    fast) every=0.15 ;;
  esac
  if [ -n "$every" ]; then
    (while :; do curl -s -o /dev/null "${url}api/live/run?dir=$dir"; sleep "$every"; done) &
    poller=$!
  fi
  local start end
  start=$(date +%s.%N)
  "$bin" run "$work/ab.toml" --out "$work/results/$dir" --threads 2 --no-report > /dev/null 2>&1
  end=$(date +%s.%N)
  if [ -n "$poller" ]; then kill "$poller"; wait "$poller" 2>/dev/null || true; poller=""; fi
  local games
  games=$(($(wc -l < "$work/results/$dir/games.csv") - 1))
  awk -v m="$1" -v r="$2" -v g="$games" -v s="$start" -v e="$end" \
    'BEGIN { printf "%-5s round %s: %d games in %.2f s: %.1f games/s\n", m, r, g, e - s, g / (e - s) }'
}

for round in $(seq "$rounds"); do
  for mode in none page fast; do one "$mode" "$round"; done
done
