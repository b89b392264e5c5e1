#!/bin/sh
# A sweep as a Slurm job array on a real single-node Slurm (docs/study.md
# "On a Slurm cluster"): the test starts munged and slurmctld + slurmd on
# localhost with a generated slurm.conf (Debian slurm-wlm 22.05 + munge),
# submits a 4-cell sweep with --slurm, waits for the dependent merge job's
# merged.csv and checks it equals a local run's, byte for byte.
# usage: sweep_slurm.sh BIN_DIR SOURCE_DIR. Exit 77 (skipped, the reason
# printed) only where the daemons cannot start. Runs as root in CI
# (SlurmUser is whoever runs it).
set -u
BIN=${1:?bin dir}
SRC=${2:?source dir}
SWEEP="$BIN/resource-query-sweep"

skip() { echo "skip: $*"; exit 77; }
PATH="$PATH:/usr/sbin"     # the daemons, for a user whose PATH lacks it
for tool in munged mungekey slurmctld slurmd sbatch sinfo; do
    command -v "$tool" >/dev/null 2>&1 ||
        skip "$tool not installed (Debian slurm-wlm and munge: utilities/install-deps.sh)"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rq-slurm.XXXXXX")
node_idle() { [ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ]; }
chmod 755 "$WORK"
stop_daemons() {
    # Jobs of this private cluster still there (a failed run): cancelled,
    # and a bounded wait for the node to be free of them.
    if [ -s "$WORK/slurmctld.pid" ] && [ -n "${SLURM_CONF:-}" ]; then
        scancel --quiet --user="$(id -un)" 2>/dev/null
        tries=0
        until node_idle || [ $tries -ge 200 ]; do
            sleep 0.1
            tries=$((tries + 1))
        done
    fi
    for pidfile in "$WORK/slurmd.pid" "$WORK/slurmctld.pid"; do
        [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
    done
    [ -S "$WORK/munge/socket" ] && munged --stop --socket="$WORK/munge/socket" >/dev/null 2>&1
    # slurmd and slurmctld leave within a second or two; wait (bounded) so
    # that their files can be removed.
    for pidfile in "$WORK/slurmd.pid" "$WORK/slurmctld.pid"; do
        tries=0
        while [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null && [ $tries -lt 100 ]; do
            sleep 0.1
            tries=$((tries + 1))
        done
    done
    rm -rf "$WORK"
}
trap stop_daemons EXIT
trap 'exit 1' INT TERM
cd "$WORK" || exit 1

logs() {
    for f in "$WORK"/log/* "$WORK"/munge/log; do
        [ -f "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
    done
}

# ---- munged: its own key, socket, pid and log under WORK ----------------------
mkdir -m 700 munge
mungekey --create --keyfile="$WORK/munge/key" >/dev/null 2>&1 || skip "mungekey cannot create a key"
munged --force --socket="$WORK/munge/socket" --key-file="$WORK/munge/key" \
    --pid-file="$WORK/munge/pid" --seed-file="$WORK/munge/seed" \
    --log-file="$WORK/munge/log" 2>munge.err || skip "munged cannot start: $(cat munge.err)"

# ---- slurm.conf: one node, two cpus, ports that are free now ------------------
ports=$(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
mkdir state spool log
cat >slurm.conf <<EOF
ClusterName=rqtest
SlurmctldHost=localhost
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$WORK/munge/socket
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$WORK/slurm.conf"
slurmctld -i >log/slurmctld.err 2>&1 || { logs; skip "slurmctld cannot start"; }
slurmd -N localhost >log/slurmd.err 2>&1 || { logs; skip "slurmd cannot start"; }

# wait_until WHAT SECONDS COMMAND...: a bounded wait for the daemons or the
# jobs (not a timing test); returns 1 if COMMAND never succeeded.
wait_until() {
    what=$1 tries=$(($2 * 10))
    shift 2
    until "$@"; do
        tries=$((tries - 1))
        [ $tries -gt 0 ] || { echo "timed out waiting for $what" >&2; return 1; }
        sleep 0.1
    done
}
wait_until "sinfo to show localhost idle" 60 node_idle || { logs; skip "the Slurm node never became idle"; }

# ---- a 4-cell sweep, locally and as an array ----------------------------------
for seed in 1 2; do
    /usr/bin/python3 "$SRC/utilities/swf_generate.py" --jobs 30 --max-size 4 --seed $seed \
        --interarrival 20 --max-runtime 600 >"trace$seed.swf"
done
cat >grid.yaml <<EOF
machines: [$SRC/t/data/queue/two_nodes.graphml]
traces: [trace1.swf, trace2.swf]
queue_policies: [fcfs, easy]
depths: [8]
EOF

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

"$SWEEP" grid.yaml -o local -j 2 --no-report >local.log 2>&1 || fail "local sweep: $(cat local.log)"
"$SWEEP" grid.yaml -o array --slurm --partition debug --array-max 2 >submit.log 2>&1 ||
    fail "--slurm: $(cat submit.log)"
grep -q "^sweep: 4 cells submitted as Slurm array job [0-9]*; merge job [0-9]* writes" submit.log ||
    fail "--slurm says what it submitted: $(cat submit.log)"
merged() { [ -f array/merged.csv ]; }
if ! wait_until "the merge job's array/merged.csv" 240 merged; then
    fail "no merged.csv from the dependent job; squeue: $(squeue 2>&1)"
    for f in array/slurm/*.out; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
    logs
fi
if [ -f array/merged.csv ]; then
    cmp local/merged.csv array/merged.csv || fail "the array's merged.csv differs from the local run's:
$(diff local/merged.csv array/merged.csv)"
    [ "$(wc -l <array/merged.csv)" -eq 5 ] || fail "merged.csv: a header and 4 rows expected"
fi
# Stop the daemons only once every job has left the node: a batch step
# still completing when slurmd goes would linger, waiting for it.
wait_until "the node to be idle again" 60 node_idle || fail "jobs still on the node: $(sinfo 2>&1)"
# One cell per array task, each through the sweep's --cell.
for i in 0 1 2 3; do
    grep -q "^sweep: cell m0-t[01]-[a-z]*-first-d8 done$" "array/slurm/cell-$i.out" 2>/dev/null ||
        fail "array task $i ran one cell: $(cat "array/slurm/cell-$i.out" 2>&1)"
done
if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo ok
