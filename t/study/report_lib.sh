# Shared by the report tests (t/study/report_*.sh): the CLI helpers, a
# small trace, and run folders made by the real replay.
. "$(dirname "$0")/../cli/lib.sh"
REPORT="$BIN/resource-query-report"

# require_matplotlib: skip (77) where Debian's Python lacks matplotlib.
require_matplotlib() {
    if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
        echo "skip: /usr/bin/python3 cannot import matplotlib (Debian python3-matplotlib; utilities/install-deps.sh)"
        exit 77
    fi
}

# The trace: 40 jobs of 1 to 16 cores on a 32-core machine, busy enough
# that jobs wait and the policies differ.
TRACE="$SRC/t/data/study/forty_jobs.swf"

# replay_into FOLDER POLICY TRACE: a run folder from the real replay on
# conf/tiny.graphml (2 nodes, 32 cores).
replay_into() {
    mkdir -p "$1"
    if ! "$RQ" -L "$SRC/conf/tiny.graphml" --replay "$3" --queue-policy "$2" \
        --replay-csv "$1/jobs.csv" --replay-series "$1/series.csv" \
        --replay-summary "$1/summary.json" >"$1/replay.out" 2>&1; then
        fail "replay $2 of $3: $(tail -3 "$1/replay.out")"
    fi
}
