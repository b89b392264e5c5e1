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
# conf/tiny.graphml (2 nodes, 32 cores). Until the replay writes series
# and nodes (--replay-series), this stands in for its outputs (a job's
# nodes and the series worked out from jobs.csv).
replay_into() {
    mkdir -p "$1"
    series="--replay-series $1/series.csv"
    "$RQ" --help 2>&1 | grep -q -- --replay-series || series=""
    # shellcheck disable=SC2086
    if ! "$RQ" -L "$SRC/conf/tiny.graphml" --replay "$3" --queue-policy "$2" \
        --replay-csv "$1/jobs.csv" $series \
        --replay-summary "$1/summary.json" >"$1/replay.out" 2>&1; then
        fail "replay $2 of $3: $(tail -3 "$1/replay.out")"
    fi
}

# stand_in FOLDER: series.csv and the nodes column from jobs.csv (only while the replay cannot write them).
stand_in() {
    [ -f "$1/series.csv" ] && return
    /usr/bin/python3 - "$1" <<'PY'
import csv, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/jobs.csv")))
events = {}
for r in rows:
    s, e, sub, sz = int(r["start"]), int(r["end"]), int(r["submit"]), int(r["size"])
    for t, k in ((sub, "sub"), (s, "start"), (e, "end")):
        events.setdefault(t, []).append((k, sz))
    r["nodes"] = "tiny0" if sz <= 4 else "tiny[0-1]"
w = csv.DictWriter(open(f"{d}/jobs.csv", "w", newline=""), fieldnames=list(rows[0])); w.writeheader(); w.writerows(rows)
run = cores = pend = st = fin = 0
with open(f"{d}/series.csv", "w") as out:
    out.write("time,running_jobs,busy_cores,busy_nodes,pending_jobs,reserved_jobs,started_jobs,finished_jobs\n")
    for t in sorted(events):
        for k, sz in events[t]:
            if k == "sub": pend += 1
            if k == "start": pend -= 1; run += 1; cores += sz; st += 1
            if k == "end": run -= 1; cores -= sz; fin += 1
        out.write(f"{t},{run},{cores},{min(2, run)},{pend},0,{st},{fin}\n")
PY
}
