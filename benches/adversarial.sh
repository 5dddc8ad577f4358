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
root=$PWD
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
"$arena" run writers.toml --threads 100000 --dry-run 2>&1 | head -1 | cut -c1-100
"$arena" solve oanquan-3p 2>&1 | tail -1 | cut -c1-100
"$arena" bench --filter zzzz 2>&1 | tail -1 | cut -c1-100

# The cases of issue 37 (an adversarial pass over the clocks, the schema-3 CSV, the new games,
# the web's report endpoints and scale). Each is also a test; these are the figures.
# The 20 columns of schema 1, for the report's cases.
header="experiment,variant,game,seed,first,second,result,termination,plies,first_score,second_score,first_ms,second_ms,first_max_ms,second_max_ms,first_nodes,second_nodes,moves,first_spec,second_spec"

echo "== the schema-3 columns edited: time_control, a clock (issue 37 item 1)"
printf 'name = "clocked"\nseed = 2\ngames_per_pair = 4\ntc = "60+1"\nvariants = ["mnk-3x3k3"]\n\n[[agents]]\nname = "a"\nspec = "random"\n\n[[agents]]\nname = "b"\nspec = "easy"\n' >clocked.toml
"$arena" run clocked.toml --out clocked --threads 1 --no-report >/dev/null 2>&1
for edit in 's/,tc=60+1,/,garbage here,/' 's/,tc=60+1,[0-9.]*,/,tc=60+1,NaN,/' \
    's/,tc=60+1,[0-9.]*,/,tc=60+1,-5.000,/' 's/,tc=60+1,[0-9.]*,/,tc=60+1,inf,/'; do
  rm -rf edited; cp -r clocked edited; sed -i "2$edit" edited/games.csv
  "$arena" verify edited >verify.log 2>&1; verified=$?
  "$arena" run clocked.toml --out edited --threads 1 --no-report >resume.log 2>&1; resumed=$?
  echo "$edit: verify exit $verified, resume exit $resumed: $(tail -1 resume.log | grep -o 'column `[a-z_]*` is `[^`]*`')"
done
for i in 0 1; do "$arena" run clocked.toml --shard "$i/2" --out split3 --threads 1 --no-report >/dev/null 2>&1; done
cut -d, -f1-20 split3/games.shard-1-of-2.csv >cut.csv && mv cut.csv split3/games.shard-1-of-2.csv
"$arena" merge split3 >merge.log 2>&1
echo "a shard cut back to schema 1: merge exit $?, games.csv $([ -e split3/games.csv ] && echo made || echo not made): $(tail -1 merge.log | grep -o 'the header is[^:]*')"

echo "== an experiment's games as the play record, and a header of another schema (issue 37 item 2)"
printf 'name = "plain"\nseed = 2\ngames_per_pair = 10\nvariants = ["mnk-3x3k3"]\n\n[[agents]]\nname = "a"\nspec = "random"\n\n[[agents]]\nname = "b"\nspec = "easy"\n' >plain.toml
"$arena" run plain.toml --out plain --threads 1 --no-report >/dev/null 2>&1
sum=$(md5sum <plain/games.csv)
"$arena" play tictactoe --first random --second random --tc 10 --record plain/games.csv </dev/null >play.log 2>&1
echo "arena play --record plain/games.csv --tc 10: exit $?, the file $([ "$(md5sum <plain/games.csv)" = "$sum" ] && echo unchanged || echo CHANGED): $(tail -1 play.log | grep -o 'not a play record: [^(]*')"
rm -rf rewritten; cp -r plain rewritten
{ head -1 plain/games.csv | sed 's/$/,players,third,fourth,third_spec,fourth_spec,third_score,fourth_score,third_ms,fourth_ms,third_max_ms,fourth_max_ms,third_nodes,fourth_nodes,time_control,first_clock_ms,second_clock_ms,third_clock_ms,fourth_clock_ms/'
  sed -n 2,4p plain/games.csv | sed "s/\$/,2$(printf ',%.0s' $(seq 17))/"; } >rewritten/games.csv
"$arena" run plain.toml --out rewritten --threads 1 --no-report >resume.log 2>&1
echo "3 rows rewritten in schema 3, resumed: exit $?, $(( $(wc -l <rewritten/games.csv) - 1 )) rows: $(tail -1 resume.log | grep -o 'the header is[^:]*')"

echo "== seats that lose on time under a game clock (issue 37 item 5)"
printf 'name = "flags"\nseed = 3\ngames_per_pair = 4\ntc = "0.3"\nvariants = ["mnk-3x3k3"]\n\n[[agents]]\nname = "steady"\nspec = "random"\n\n[[agents]]\nname = "sleepy"\nspec = "fault:mode=sleep,ms=1000"\n\n[[agents]]\nname = "silent"\nspec = "proc:cmd=python3,timeout_ms=5000,args=%s silent marker-%s"\n' "$agent" "$$" >flags.toml
"$arena" run flags.toml --out flags --threads 2 --no-report >/dev/null 2>&1
python3 - flags/games.csv <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["termination"] == "timeout"]
loser = lambda r: "second" if r["result"] == "1-0" else "first"
zero = sum(r[loser(r) + "_clock_ms"] == "0.000" for r in rows)
print(f"{len(rows)} losses on time, the loser's clock 0.000 in {zero}")
PY
echo "fault log: $(grep -c 'lost on time: move' flags/games.faults.log) 'lost on time' lines, $(grep -c 'no move within' flags/games.faults.log) 'no move within'"

echo "== a merge that cannot write its file (issue 37 item 20)"
for i in 0 1; do "$arena" run plain.toml --shard "$i/2" --out split --threads 1 --no-report >/dev/null 2>&1; done
( trap '' XFSZ; ulimit -f 1; exec "$arena" merge split ) >merge.log 2>&1
echo "merge under a 1 KiB file-size limit: exit $?, $(ls split | grep -c 'merging$') games.csv.merging left, games.csv $([ -e split/games.csv ] && echo made || echo not made): $(tail -1 merge.log | grep -o 'File too large.*' | cut -c1-40)"
"$arena" merge split >/dev/null; echo "then with room: exit $?, $("$arena" verify split | tail -1 | cut -c1-80)"

echo "== inputs refused, each with what and where (issue 37: items 3, 9, 10, 15, 16, 22, 23)"
inputs() { # VARIANT EXTRA-LINES [NAME]: an experiment of two random agents, read by --dry-run
  printf 'name = "inputs"\nseed = 1\ngames_per_pair = 2\nvariants = ["%s"]\n%s\n\n[[agents]]\nname = "%s"\nspec = "random"\n\n[[agents]]\nname = "b"\nspec = "random"\n' \
    "$1" "$2" "${3:-a}" >inputs.toml
  "$arena" run inputs.toml --dry-run --out inputs >inputs.log 2>&1; status=$?
  echo "exit $status: $(tail -1 inputs.log | cut -c1-130)"
}
# item 3: a per-move limit inside tc (was: accepted as tc=60, the limit dropped)
inputs mnk-3x3k3 'tc = "60 st=0.001"'
# item 9: the ply cap of a game that can cycle (was: accepted)
inputs oware 'max_plies = 4294967295'
# item 10: random openings bounded by the game (was: 99 plies on 42 cells, and cap - 1, accepted)
inputs connect4 $'max_plies = 200\nopening_plies = 99'
inputs mnk-3x3k3 'opening_plies = 8'
# item 15: messages
for line in 'openings = 1' 'st = true' 'tc = 180' 'tc = "+1:30"' 'tc = "+40/60"'; do
  inputs mnk-3x3k3 "$line"
done
printf 'name = "inputs"\nseed = 1\ngames_per_pair = 2\nvariants = {}\n\n[[agents]]\nname = "a"\nspec = "random"\n\n[[agents]]\nname = "b"\nspec = "random"\n' >inputs.toml
echo "variants = {}: $("$arena" run inputs.toml --dry-run 2>&1 | tail -1 | cut -c1-130)"
# item 22: move_time_ms beyond a day (was: accepted up to 2^64-1)
inputs mnk-3x3k3 'move_time_ms = 18446744073709551615'
# item 23: format and separator characters in names (was: accepted); TOML decodes the escapes
for hidden in 'a\u202Eb' 'a\u200Bb' 'a\uFEFFb' 'a\u2028b'; do
  inputs mnk-3x3k3 '' "$hidden"
done
# item 16: perft's depth and sprt's settings
"$arena" perft tictactoe 99999999999 2>&1 >/dev/null | cut -c1-120
for flags in "--elo1 inf" "--alpha 0.6 --beta 0.6"; do
  "$arena" sprt mnk-4x4k3 --candidate random --baseline random $flags --out sprt-bad 2>&1 | tail -1 | cut -c1-120
done

echo "== an agent that closes its stdout and keeps running"   # item 18
agents_toml closeout 5000 >closeout.toml
"$arena" run closeout.toml --threads 2 --no-report --out closeout >closeout.log 2>&1
sleep 0.5
echo "$(grep -c ',crash,' closeout/games.csv) of 8 games crash ($(grep -o 'closed its output[^)]*)' closeout/games.faults.log | sort -u)); processes left after the run: $(left)"

echo "== an agent's log 100,000 bytes short of its 64 MiB cap, then 8 games writing 5 MB of stderr before each move"   # item 21
mkdir -p capped/games.logs && truncate -s $(( (64 << 20) - 100000 )) capped/games.logs/noisy.log
agents_toml noisy 20000 >noisy-capped.toml
"$arena" run noisy-capped.toml --threads 2 --no-report --out capped >capped.log 2>&1
echo "exit $?; its log: $(stat -c %s capped/games.logs/noisy.log) bytes (cap $((64 << 20)))"

echo "== helpers that leave their agent's process group (a session of their own, a daemon)"   # item 7
agents_toml setsid 5000 >setsid.toml
"$arena" run setsid.toml --threads 2 --no-report --out setsid >setsid.log 2>&1; status=$?
sleep 0.5
echo "arena run, 8 games: exit $status, processes left after the run: $(left)"
agents_toml setsidhang 600000 >setsidhang.toml
for signal in TERM INT HUP KILL; do
  "$arena" run setsidhang.toml --threads 2 --no-report --fresh --out setsidhang >setsidhang.log 2>&1 &
  pid=$!
  until [ "$(left)" -ge 6 ]; do sleep 0.05; done
  before=$(left)
  kill -"$signal" "$pid"; wait "$pid"; status=$?
  sleep 1
  echo "SIG$signal: exit $status, $before agent and helper processes before, $(left) one second after"
  # SIGKILL leaves the arena no moment: the helpers outside the agents' groups are cleaned up here.
  pgrep -f "marker-$$" | xargs -r kill
done

echo "== the arena started with SIGINT ignored (nohup, a background job without job control)"   # item 14
(trap '' INT; exec "$arena" run setsidhang.toml --threads 2 --no-report --fresh --out ignored) >ignored.log 2>&1 &
pid=$!
until [ "$(left)" -ge 6 ]; do sleep 0.05; done
kill -INT "$pid"; sleep 1
if kill -0 "$pid" 2>/dev/null; then running="still running"; else running="ended"; fi
kill -TERM "$pid"; wait "$pid"; status=$?
sleep 1
echo "SIGINT ignored: $running one second after SIGINT; SIGTERM: exit $status, $(left) processes left"

echo "== arena solve with a large table and a short time limit, and over the process's limit"   # item 12
/usr/bin/time -f "%e s, peak %M KiB" "$arena" solve connect4 --tt-mb 4096 --time-limit 1 2>&1 | grep -E "^(nodes|table):|peak" | tr '\n' ' '; echo
(ulimit -v 3000000; "$arena" solve connect4 --tt-mb 5000 --time-limit 1 2>&1 | tail -1 | cut -c1-120)

echo "== arena serve: links out of the folder, /dev/zero, half-sent requests, memory, eviction"
mkdir -p web/linked web/zero web/writes secret
echo "# secret" >secret/report.md; echo untouched >secret/victim.md
ln -s "$out/secret/report.md" web/linked/report.md
ln -s /dev/zero web/zero/report.md
cp reference/games.csv web/writes/games.csv
ln -s "$out/secret/victim.md" web/writes/report.md
"$arena" serve --port 0 --results web --table-memory 300 >serve.log 2>&1 &
server=$!
for _ in $(seq 400); do grep -qs listening serve.log && break; sleep 0.05; done
url=$(grep -o 'http://[0-9.:]*' serve.log); port=${url##*:}
code() { curl -s -m 20 -o /dev/null -w '%{http_code}' "$@"; }
post() { curl -s -m 60 -H 'Content-Type: application/json' -d "$2" "$url$1"; }
# item 6
linked=$(code "$url/api/report?dir=linked")
zero=$(code "$url/api/report?dir=zero")
written=$(code -H 'Content-Type: application/json' -d '{"dir":"writes"}' "$url/api/report")
echo "report.md linked out: $linked; linked to /dev/zero: $zero, server peak $(( $(awk '/^VmHWM/ {print $2}' /proc/$server/status) / 1024 )) MiB"
echo "report written over a link: $written, the file outside now '$(cat secret/victim.md)', report.md a link: $([ -L web/writes/report.md ] && echo yes || echo no)"
echo "listing: $(curl -s "$url/api/reports" | grep -o '"folders":.*')"
# item 8 (web half): two reports asked at once
code -H 'Content-Type: application/json' -d '{"dir":"writes"}' "$url/api/report" >first.code &
meta=$(code "$url/api/meta")
second=$(code -H 'Content-Type: application/json' -d '{"dir":"writes"}' "$url/api/report"); wait $!
echo "two reports at once: $(cat first.code) and $second; /api/meta meanwhile: $meta"
# item 11
echo "analysis of a 400 MiB agent under --table-memory 300: $(post /api/analyse '{"variant":"tictactoe","agents":["alphabeta:tt_mb=400"]}' | cut -c1-90)"
# item 17
first=$(post /api/games '{"variant":"caro","seats":["alphabeta:tt_mb=150","alphabeta:tt_mb=100"]}' | grep -o '"id":"[0-9a-f]*"' | cut -d'"' -f4)
post /api/games '{"variant":"caro","seats":["alphabeta:tt_mb=100","random"]}' >/dev/null
echo "a game closed to make room: $(curl -s "$url/api/games/$first" | cut -c1-80)"
# item 16
echo "st 1e308: $(post /api/games '{"variant":"tictactoe","seats":["human","random"],"st":1e308}')"
echo "dir=/tmp: $(curl -s "$url/api/report?dir=/tmp")"
# item 13: 300 half-sent request heads
fds=()
for i in $(seq 300); do
  exec {fd}<>"/dev/tcp/127.0.0.1/$port"; printf 'GET / HTTP/1.1\r\nHost: x\r\n' >&"$fd"; fds+=("$fd")
done
sleep 35
open=$(ss -Htn state established "( sport = :$port )" | wc -l)
for fd in "${fds[@]}"; do exec {fd}>&-; done
echo "300 half-sent requests: $open still open after 35 s"
kill "$server"; wait "$server" 2>/dev/null

echo "== 40 games of an agent against itself beside 4 real ones (item 4)"
{ echo "$header"
  for g in $(seq 0 39); do echo "play,mnk-3x3k3,$g,$g,random,random,1-0,win,5,,,0.1,0.1,0.1,0.1,1,1,a1 b1 a2 b2 a3,random,random"; done
  for g in $(seq 40 43); do echo "play,mnk-3x3k3,$g,$g,random,easy,$([ $g = 43 ] && echo 0-1 || echo 1-0),win,5,,,0.1,0.1,0.1,0.1,1,1,a1 b1 a2 b2 a3,random,easy"; done; } >selfplay.csv
"$arena" report selfplay.csv --out selfplay >/dev/null 2>&1
echo "random: $(awk -F, '$2=="random" {print $6" games, "$8"-"$9"-"$10}' selfplay/ratings.csv); $(grep -o '\*\*Left out:\*\* [0-9]* games' selfplay/report.md)"

echo "== report time with 80 and 300 agents, 2 games a pair (item 8)"
for n in 80 300; do
  python3 "$root/benches/report_scale.py" "$n" >scale-$n.csv
  start=$(date +%s.%N)
  timeout 300 "$arena" report scale-$n.csv --out scale-$n >/dev/null 2>&1; status=$?
  echo "$n agents: exit $status after $(awk "BEGIN {printf \"%.1f\", $(date +%s.%N) - $start}") s; intervals: $(tail -n +2 scale-$n/ratings.csv | cut -d, -f14 | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
done

echo "== intervals of all-draw pairings (item 24)"
for n in 10 100 1000; do
  { echo "$header"; for g in $(seq 0 $((n - 1))); do echo "draws,mnk-3x3k3,$g,$g,a,b,1/2-1/2,draw,9,,,0.1,0.1,0.1,0.1,1,1,a1 b1 a2 b2 c1 b3 c2 c3 a3,random,random"; done; } >draws-$n.csv
  "$arena" report draws-$n.csv --out draws-$n >/dev/null 2>&1
  echo "$n draws: a's interval $(awk -F, '$2=="a" {print "["$4", "$5"]"}' draws-$n/ratings.csv)"
done

echo "== arena report on schema-3 rows edited by hand"
header3="experiment,variant,game,seed,first,second,result,termination,plies,time_control,first_clock_ms,second_clock_ms,third_clock_ms,fourth_clock_ms"
for edit in "garbage here,1.000" "tc=60,NaN" "tc=60,-5" "tc=60,inf"; do
  printf '%s\nt,mnk-3x3k3,0,1,a,b,1-0,win,5,%s,2.000,,\n' "$header3" "$edit" >edited.csv
  "$arena" report edited.csv --out edited --intervals none 2>&1 | tail -1 | cut -c1-110
done

echo "== the report after a run, and a generated round robin of 3,000 agents"
"$arena" run writers.toml --threads 2 --out timed 2>&1 >/dev/null | grep '^report:'
python3 "$root/benches/report_scale.py" 3000 >scale.csv
/usr/bin/time -f '%e s %M KB' timeout 300 "$arena" report scale.csv --out scale 2>&1 | tail -2 | cut -c1-110
rm -f scale.csv
