#!/usr/bin/env bash
# The adversarial figures of the book's reliability page (docs/src/reference/reliability.md):
# kill -9 and resume, concurrent writers, a deleted lock file, agents that leave helpers behind
# or flood their stderr, the arena killed by SIGTERM, SIGINT and SIGKILL, and memory with
# thousands of agents. Figures, not tests (the tests are in crates/cli/tests/it/writers.rs,
# proc.rs and run.rs).
#
# Usage: bash benches/adversarial.sh [PATH/TO/arena] [KILLS]
#   (default: target/release/arena, built first; 40 kills)
set -uo pipefail
# Job control: a background job of a script otherwise starts with SIGINT ignored.
set -m
cd "$(dirname "$0")/.."
arena=${1:-target/release/arena}
kills=${2:-40}
if [ -z "${1:-}" ]; then cargo build --release --bin arena -q; fi
arena=$(realpath "$arena")
agent=$(realpath crates/cli/tests/agents/misbehave.py)
out=$(mktemp -d /tmp/arena-adversarial.XXXXXX)
trap 'rm -rf "$out"' EXIT
cd "$out"

cat >writers.toml <<'TOML'
name = "writers"
seed = 11
games_per_pair = 10
opening_plies = 2
variants = ["mnk-5x5k4", "oanquan"]

[[agents]]
name = "random"
spec = "random"

[[agents]]
name = "mcts"
spec = "mcts:iterations=3000"

[[agents]]
name = "alphabeta"
spec = "alphabeta:depth=4"

[[agents]]
name = "greedy"
spec = "greedy"
TOML

echo "== kill -9 at random moments, then resume (each resume checks every row)"
"$arena" run writers.toml --out reference --threads 2 --no-report >/dev/null
interrupted=0
for i in $(seq "$kills"); do
  "$arena" run writers.toml --out killed --threads 2 --no-report >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(( RANDOM % 40 + 5 ))"
  if kill -0 "$pid" 2>/dev/null; then interrupted=$((interrupted + 1)); fi
  kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
done
"$arena" run writers.toml --out killed --threads 2 --no-report >/dev/null
echo "$kills kills ($interrupted interrupted a run), then a resume:"
"$arena" verify killed --against reference | tail -1

echo "== two writers at once into one folder"
for command in run sprt; do
  if [ "$command" = run ]; then
    set -- run writers.toml --threads 1 --no-report --out "two-$command"
  else
    set -- sprt mnk-5x5k4 --candidate mcts:iterations=300 --baseline mc-flat:rollouts=30 \
      --max-pairs 150 --no-report --threads 1 --out "two-$command"
  fi
  "$arena" "$@" >first.log 2>&1 &
  pid=$!
  until grep -q "pid = $pid" "two-$command/games.csv.lock" 2>/dev/null; do sleep 0.01; done
  "$arena" "$@" >second.log 2>&1; second=$?
  "$arena" "$@" --fresh >fresh.log 2>&1; fresh=$?
  wait "$pid"; first=$?
  rows=$(( $(wc -l <"two-$command/games.csv") - 1 ))
  distinct=$(tail -n +2 "two-$command/games.csv" | cut -d, -f3 | sort -u | wc -l)
  echo "arena $command: first exit $first, second exit $second, a --fresh one exit $fresh; $rows rows, $distinct distinct; $("$arena" verify "two-$command" | tail -1 | cut -c1-90)"
done

echo "== the lock file deleted during a run"
"$arena" run writers.toml --threads 1 --no-report --out unlocked >first.log 2>&1 &
pid=$!
until grep -q "pid = $pid" unlocked/games.csv.lock 2>/dev/null; do sleep 0.01; done
rm unlocked/games.csv.lock
"$arena" run writers.toml --threads 1 --no-report --out unlocked >second.log 2>&1; second=$?
wait "$pid"; first=$?
rows=$(( $(wc -l <unlocked/games.csv) - 1 ))
distinct=$(tail -n +2 unlocked/games.csv | cut -d, -f3 | sort -u | wc -l)
echo "first exit $first, second exit $second ($(grep -o 'PID unknown[^:]*' second.log)); $rows rows, $distinct distinct"

agents_toml() { # MODE [SPEC EXTRA]
  printf 'name = "procs"\nseed = 1\ngames_per_pair = 8\nvariants = ["mnk-5x5k4"]\n\n[[agents]]\nname = "steady"\nspec = "random"\n\n[[agents]]\nname = "%s"\nspec = "proc:cmd=python3,timeout_ms=%s,start_ms=600000,args=%s %s marker-%s"\n' \
    "$1" "$2" "$agent" "$1" "$$"
}
left() { pgrep -f "marker-$$" | wc -l; }

echo "== an agent that exits leaving a helper holding its output"
agents_toml helper 5000 >helper.toml
"$arena" run helper.toml --threads 2 --no-report --out helper >helper.log 2>&1
sleep 0.5
echo "$(grep -c ',crash,' helper/games.csv) of 8 games crash, $(grep -c ',timeout,' helper/games.csv) timeout; processes left after the run: $(left)"

echo "== an agent that writes 5 MB to stderr before each move"
agents_toml noisy 20000 >noisy.toml
"$arena" run noisy.toml --threads 2 --no-report --out noisy >noisy.log 2>&1
echo "8 games: its log is $(du -k noisy/games.logs/noisy.log | cut -f1) KiB"

echo "== the arena killed while its agents think (each agent started a helper)"
agents_toml hang 600000 >hang.toml
for signal in TERM INT KILL; do
  "$arena" run hang.toml --threads 2 --no-report --fresh --out hang >hang.log 2>&1 &
  pid=$!
  until [ "$(left)" -ge 4 ]; do sleep 0.05; done
  before=$(left)
  kill -"$signal" "$pid"; wait "$pid" 2>/dev/null
  sleep 1
  echo "SIG$signal: $before agent and helper processes before, $(left) one second after"
done

echo "== memory before and around the first games with thousands of agents"
for spec in "oanquan-4p 200" "tictactoe 5000"; do
  set -- $spec
  { printf 'name = "crowd"\nseed = 1\ngames_per_pair = 1\nvariants = ["%s"]\n' "$1"
    for i in $(seq "$2"); do printf '\n[[agents]]\nname = "r%d"\nspec = "random"\n' "$i"; done; } >crowd.toml
  "$arena" run crowd.toml --threads 1 --no-report --fresh --out crowd >/dev/null 2>&1 &
  pid=$!
  sleep 10
  peak=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null
  echo "$2 agents on $1: peak $((peak / 1024)) MiB after 10 s, $(( $(wc -l <crowd/games.csv) - 1 )) games played"
done

echo "== bounds"
"$arena" run writers.toml --threads 100000 --dry-run 2>&1 | tail -1 | cut -c1-100
"$arena" solve oanquan-3p 2>&1 | tail -1 | cut -c1-100
