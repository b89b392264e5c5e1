#!/bin/sh
# Replay benchmark of the simulated queue (docs/queue.md
# "Replay"): a seeded synthetic SWF trace on 1,024 nodes x 32 cores.
#   sh t/bench/queue_replay.sh BIN_DIR [POLICY] [JOBS] [MAX_SIZE] [INTERARRIVAL]
# Prints the SUMMARY lines (jobs_per_second, jobs_per_cpu_second,
# peak_rss_kb, metrics). Defaults: easy, 100000 jobs, sizes up to 64
# cores, one job every 2 s. hybrid uses --reservation-depth ${RDEPTH:-4}.
#
# Two documented settings:
#   idle (default, INTERARRIVAL 2): the offered load is ~37% of the
#     machine; no job ever waits, so this measures match + release speed.
#   busy (INTERARRIVAL busy = 0.75): the offered load is ~99% of the
#     machine; jobs queue at times and the policies differ (fcfs waits
#     longest, backfill fills the holes), so this measures the passes,
#     reservations and backfill too.
# Extra resource-query options may be given in RQ_OPTS (e.g.
# RQ_OPTS=--replay-exhaustive for the oracle, or --events-json FILE).
# SERIES=1 also writes --replay-series to a temporary file (its cost:
# docs/performance.md "Replay time series").
set -eu
BIN=${1:?bin dir}
POLICY=${2:-easy}
JOBS=${3:-100000}
MAX=${4:-64}
GAP=${5:-2}
case "$GAP" in
idle) GAP=2 ;;
busy) GAP=0.75 ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
TRACE=$(mktemp "${TMPDIR:-/tmp}/rq-trace.XXXXXX")
trap 'rm -f "$TRACE" "$TRACE.series.csv"' EXIT
python3 "$HERE/../../utilities/swf_generate.py" --jobs "$JOBS" --max-size "$MAX" --seed 11 \
    --interarrival "$GAP" --max-runtime 7200 >"$TRACE"
EXTRA=
[ "$POLICY" = hybrid ] && EXTRA="--reservation-depth ${RDEPTH:-4}"
[ "${SERIES:-0}" = 1 ] && EXTRA="$EXTRA --replay-series $TRACE.series.csv"
# shellcheck disable=SC2086
"$BIN/resource-query" -L "$HERE/queue_1024x32.graphml" -P first --replay "$TRACE" \
    --queue-policy "$POLICY" $EXTRA ${RQ_OPTS:-} --replay-csv "${CSV:-/dev/null}"
