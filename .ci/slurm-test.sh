#!/usr/bin/env bash
# Runs a small experiment through a real single-node Slurm cluster on loopback, as a 4-shard
# job array submitted by `arena slurm --submit`, merged by the dependent merge job, and checks
# the merged games.csv against the same experiment run on one machine (outside the timing
# columns); then a tune (.ci/slurm-tune.toml) as one job of two tasks started together, each a
# shard that waits for the other every iteration, merged and compared with the unsharded tune. Installs Slurm and munge from Debian's packages when they are missing, starts the
# daemons in a private folder, and stops them by PID at the end.
#
# Usage: .ci/slurm-test.sh PATH/TO/arena
set -euo pipefail

arena=$(realpath "$1")
repo=$(cd "$(dirname "$0")/.." && pwd)
experiment="$repo/.ci/slurm-small.toml"
tune="$repo/.ci/slurm-tune.toml"

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "slurm-test: installing slurm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
fi
[ -z "${INSTALL_ONLY:-}" ] || exit 0

work=$(mktemp -d /tmp/arena-slurm.XXXXXX)
pids=()
cleanup() {
  status=$?
  if [ -n "${SLURM_CONF:-}" ]; then scancel --full --quiet -u root 2>/dev/null || true; fi
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    echo "slurm-test: FAILED; logs:"
    tail -n 30 "$work"/*.log "$work"/sharded/slurm/*.log "$work"/tuned/slurm/*.log 2>/dev/null || true
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

# munge: its run directory, its key, and the daemon as the munge user (it refuses root).
chmod 755 "$work"
mkdir -p /run/munge
chown munge:munge /run/munge
if [ ! -s /etc/munge/munge.key ]; then runuser -u munge -- mungekey -c; fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  setpriv --reuid=munge --regid=munge --init-groups munged -F >"$work/munged.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
fi
munge -n | unmunge >/dev/null || { echo "slurm-test: munge does not work"; exit 1; }

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=arena-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
MailProg=/bin/true
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"

slurmctld -D -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)

state=""
for _ in $(seq 100); do
  state=$(sinfo -h -o %T 2>/dev/null | head -n 1 || true)
  case "$state" in
    idle) break ;;
    down*|drain*) scontrol update NodeName="$host" State=RESUME 2>/dev/null || true ;;
  esac
  sleep 0.2
done
if [ "$state" != idle ]; then
  echo "slurm-test: the node did not come up (state: '$state')"
  exit 1
fi
echo "slurm-test: single-node cluster up ($host, $cpus CPUs)"

cd "$work"
# Waits up to 5 minutes for the queue to empty; WHAT names the jobs in the failure.
wait_for_queue() {
  for _ in $(seq 600); do
    [ -z "$(squeue -h -o %i 2>/dev/null)" ] && return 0
    sleep 0.5
  done
  echo "slurm-test: $1 still queued after 5 minutes:"; squeue
  exit 1
}

"$arena" run "$experiment" --out single --threads 2 --no-report >single.log 2>&1
"$arena" slurm "$experiment" --shards 4 --out sharded --cpus-per-task 1 --submit | tee submit.log
merge_job=$(sed -n 's/^merge job: //p' submit.log)

# Wait for every job (the four shards and the merge) to leave the queue.
wait_for_queue "jobs"
for i in 0 1 2 3; do
  [ -s "sharded/games.shard-$i-of-4.csv" ] || { echo "slurm-test: shard $i wrote no CSV"; exit 1; }
done
[ -s sharded/games.csv ] || { echo "slurm-test: merge job $merge_job wrote no games.csv"; exit 1; }

python3 - single/games.csv sharded/games.csv <<'EOF'
import csv, sys
timing = {"first_ms", "second_ms", "first_max_ms", "second_max_ms"}
def rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        return [tuple((k, v) for k, v in row.items() if k not in timing) for row in reader]
single, merged = rows(sys.argv[1]), rows(sys.argv[2])
if single != merged:
    print(f"slurm-test: merged CSV differs from the single-machine run ({len(single)} vs {len(merged)} rows)")
    sys.exit(1)
print(f"slurm-test: OK, {len(merged)} games merged from 4 shards equal the single-machine run")
EOF

# The tune: one job of two tasks (tune.sbatch, srun), then the merge job.
"$arena" tune "$tune" --out tune-single --threads 2 >tune-single.log 2>&1
"$arena" slurm "$tune" --shards 2 --out tuned --cpus-per-task 1 --submit | tee tune-submit.log
wait_for_queue "tune jobs"
[ -s tuned/games.csv ] || { echo "slurm-test: the tune's merge job wrote no games.csv"; exit 1; }
cmp tuned/trajectory.csv tune-single/trajectory.csv \
  || { echo "slurm-test: the sharded tune's trajectory differs from the unsharded one"; exit 1; }
"$arena" verify tuned --against tune-single | tail -n 3
echo "slurm-test: OK, the tune's 2 shards (one job, two tasks) merged to the unsharded tune"
