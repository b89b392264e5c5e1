#!/bin/sh
# Atlas-shaped replay benchmark (docs/performance.md "Replay on an
# Atlas-shaped machine"; replay: docs/queue.md): a
# generated trace of LLNL-Atlas's size and load on its own machine shape,
# 1,152 nodes x 8 cores (t/bench/atlas_1152x8.graphml, a GRUG recipe),
# matched with -P first, every policy at 1.0x and 1.75x the arrival rate.
#   sh t/bench/atlas_replay.sh RQ_BINARY [RQ_BINARY...]
# Several binaries (e.g. before and after a change) run interleaved, one
# policy and rate at a time, so that a shared machine's load hits both
# alike. Prints one row per run: binary, policy, rate, jobs/s (wall),
# jobs/s (CPU), peak RSS (/usr/bin/time -f %M, KB), wall seconds, and
# "timeout" when a run passed TIMEOUT seconds (default 600).
#
# The trace (utilities/swf_generate.py, seed 26): 5,000 jobs; sizes 8 to
# 4,096 cores in whole 8-core nodes (three in four a power of two);
# run times log-uniform from 1 minute to 4 hours; one submit every 400 s
# on average at 1.0x (an offered load of ~82% of the 9,216 cores) and
# every 229 s at 1.75x (~143%: the queue grows deep and stays so).
# CSV_DIR=DIR keeps each run's --replay-csv as DIR/NAME-POLICY-RATE.csv
# (NAME: the binary's position, 1, 2, ...) to compare start times.
# POLICIES="fcfs easy" restricts the policies (default: all four).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 RQ_BINARY [RQ_BINARY...]" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
TIMEOUT=${TIMEOUT:-600}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rq-atlas.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
for RATE in 1.0 1.75; do
    GAP=$(python3 -c "print(400 / $RATE)")
    python3 "$HERE/../../utilities/swf_generate.py" --jobs 5000 --seed 26 --min-size 8 --max-size 4096 \
        --size-multiple 8 --min-runtime 60 --max-runtime 14400 --interarrival "$GAP" >"$WORK/atlas-$RATE.swf"
done
printf '%-28s %-12s %-5s %9s %9s %9s %8s\n' binary policy rate jobs/s cpu_j/s rss_kb wall_s
for POLICY in ${POLICIES:-fcfs easy hybrid conservative}; do
    EXTRA=
    [ "$POLICY" = hybrid ] && EXTRA="--reservation-depth 4"
    for RATE in 1.0 1.75; do
        N=0
        for BIN in "$@"; do
            N=$((N + 1))
            CSV=/dev/null
            [ -n "${CSV_DIR:-}" ] && CSV="$CSV_DIR/$N-$POLICY-$RATE.csv"
            # shellcheck disable=SC2086
            if /usr/bin/time -f 'RSS %M' -o "$WORK/time" timeout "$TIMEOUT" "$BIN" -L "$HERE/atlas_1152x8.graphml" \
                -P first --replay "$WORK/atlas-$RATE.swf" --queue-policy "$POLICY" $EXTRA ${RQ_OPTS:-} \
                --replay-csv "$CSV" >"$WORK/out" 2>"$WORK/err"; then
                get() { sed -n "s/^SUMMARY $1=//p" "$WORK/out"; }
                printf '%-28s %-12s %-5s %9s %9s %9s %8s\n' "$N:$(basename "$BIN")" "$POLICY" "$RATE" \
                    "$(get jobs_per_second)" "$(get jobs_per_cpu_second)" "$(sed -n 's/^RSS //p' "$WORK/time")" \
                    "$(get wall_seconds)"
            else
                printf '%-28s %-12s %-5s %9s %9s %9s %8s\n' "$N:$(basename "$BIN")" "$POLICY" "$RATE" \
                    timeout - "$(sed -n 's/.*RSS //p' "$WORK/time")" ">$TIMEOUT"
            fi
        done
    done
done
