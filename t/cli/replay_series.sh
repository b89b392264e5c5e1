# --replay-series, the per-job CSV's nodes column, the run's description
# in --replay-summary, and the progress line: on a terminal's stderr, never
# on a pipe (docs/queue.md "Replay time series" and "Replay").
. "$(dirname "$0")/lib.sh"

D="$SRC/t/data/queue"
M="$D/two_nodes.graphml"   # 2 nodes x 4 cores

# Fields: 1 number, 2 submit, 3 wait, 4 run, 5 allocated, 6 cpu, 7 used mem,
# 8 requested procs, 9 requested time, 10 requested mem, 11 status, ...
cat >archive.swf <<END
; MaxProcs: 8
101 0 -1 10 4 -1 -1 4 20 -1 1 7 1 -1 1 2 -1 -1
102 0 -1 10 8 -1 -1 -1 10 -1 1 8 1 -1 1 2 -1 -1
103 5 -1 0 2 -1 -1 0 10 -1 1 7 1 -1 2 3 -1 -1
104 6 -1 30 2 -1 -1 2 40 -1 1 9 1 -1 2 3 -1 -1
END

# fcfs on 8 cores: 101 (4 cores, one node) starts at 0, 102 (8) waits for
# it and 103, 104 wait behind 102 (5, 6); at 10 101 ends and 102 takes
# both nodes; at 20 102 ends, 103 (run 0) starts and ends, 104 (2 cores)
# starts; it ends at 50.
out=$("$RQ" -L "$M" --replay archive.swf --replay-series series.csv --replay-csv jobs.csv \
    --replay-summary summary.json 2>err)
expect_eq "status" 0 "$?"
expect_eq "no progress line on a pipe" "" "$(cat err)"
expect_eq "series" "time,running_jobs,busy_cores,busy_nodes,pending_jobs,reserved_jobs,started_jobs,finished_jobs
0,1,4,1,1,0,1,0
5,1,4,1,2,0,1,0
6,1,4,1,3,0,1,0
10,1,8,2,2,0,2,1
20,1,2,1,0,0,4,3
50,0,0,0,0,0,4,4" "$(cat series.csv)"
expect_eq "csv nodes" "job,name,queue,submit,start,end,wait,runtime,estimate,size,status,nodes
101,swf101,1,0,0,10,0,10,20,4,completed,node1
102,swf102,1,0,10,20,10,10,10,8,completed,node[0-1]
103,swf103,2,5,20,20,15,0,10,2,completed,node1
104,swf104,2,6,20,50,14,30,40,2,completed,node1" "$(cat jobs.csv)"
/usr/bin/python3 - summary.json "$M" <<'PY' || fail "summary keys"
import json, sys
j = json.load(open(sys.argv[1]))
want = {"machine": sys.argv[2], "cores": 8, "nodes": 2, "queue_depth": 32, "match_policy": "first",
        "series": "series.csv", "csv": "jobs.csv", "policy": "fcfs"}
got = {k: j.get(k, "MISSING") for k in want}
assert got == want, got
PY
"$RQ" -L "$M" -P low --replay archive.swf --replay-summary s2.json >/dev/null 2>&1
/usr/bin/python3 - s2.json <<'PY' || fail "summary: files not written are null"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["series"] is None and j["csv"] is None and j["match_policy"] == "low", j
PY

# A pool machine (one worker of 8 cpus): busy_cores counts cpus and the
# worker is the one node; the same story, times and all.
"$RQ" --resource "cpus=range(0-7)" --replay archive.swf --replay-series pool.csv >/dev/null 2>&1
expect_eq "pool series" "time,running_jobs,busy_cores,busy_nodes,pending_jobs,reserved_jobs,started_jobs,finished_jobs
0,1,4,1,1,0,1,0
5,1,4,1,2,0,1,0
6,1,4,1,3,0,1,0
10,1,8,1,2,0,2,1
20,1,2,1,0,0,4,3
50,0,0,0,0,0,4,4" "$(cat pool.csv)"

# A series that cannot be written: one error line naming the file.
out=$("$RQ" -L "$M" --replay archive.swf --replay-series /nonexistent/series.csv 2>&1 >/dev/null)
expect_eq "unwritable series status" 1 "$?"
expect_eq "unwritable series" "ERROR: --replay: --replay-series: cannot open /nonexistent/series.csv for writing" "$out"

# A full disk (/dev/full takes no byte) is an error, not a short file.
if [ -w /dev/full ]; then
    out=$("$RQ" -L "$M" --replay archive.swf --replay-series /dev/full 2>&1 >/dev/null)
    expect_eq "full disk status" 1 "$?"
    expect_eq "full disk" "ERROR: --replay: --replay-series: error writing /dev/full" "$out"
fi

# The progress line: on a terminal (a pseudo-terminal made by script(1),
# util-linux), stderr shows "\rreplay: N/4 jobs done, ..." and ends with the
# final figures; stdout's CSV is the same as without it.
if command -v script >/dev/null 2>&1; then
    script -qec "'$RQ' -L '$M' --replay archive.swf --replay-csv tty.csv" /dev/null >tty.out </dev/null
    expect_contains "progress on a terminal" "replay: 4/4 jobs done, simulated time 50 s," "$(cat tty.out)"
    expect_eq "progress rewrites its line" 1 "$(grep -c "$(printf '\r')replay: " tty.out)"
    expect_eq "csv the same under a terminal" "$(cat jobs.csv)" "$(cat tty.csv)"
    # stderr to a file (stdout a terminal): still none.
    script -qec "'$RQ' -L '$M' --replay archive.swf --replay-csv /dev/null 2>tty.err" /dev/null >/dev/null </dev/null
    expect_eq "no progress line in a file" "" "$(cat tty.err)"
else
    echo "script(1) missing: the terminal half is not checked"
fi
finish
