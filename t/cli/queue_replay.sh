# --replay as the Parallel Workloads Archive defines its traces (docs/queue.md
# "Replay"; the Standard Workload Format,
# https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): replay on a
# pool machine, SWF fields read in full, the summary and --replay-summary,
# and a replay stopped by a signal.
. "$(dirname "$0")/lib.sh"

D="$SRC/t/data/queue"
M="$D/two_nodes.graphml"   # 2 nodes x 4 cores

# Fields: 1 number, 2 submit, 3 wait, 4 run, 5 allocated, 6 cpu, 7 used mem,
# 8 requested procs, 9 requested time, 10 requested mem, 11 status, 12 user,
# 13 group, 14 executable, 15 queue, 16 partition, 17 preceding, 18 think.
cat >archive.swf <<END
; Version: 2.2
; MaxProcs: 8
; UnixStartTime: 1000000000
101 0 -1 10 4 -1 -1 4 20 512 1 7 1 -1 1 2 -1 -1
102 0 -1 10 8 -1 -1 -1 10 256 0 8 1 -1 1 2 -1 -1
103 5 -1 0 2 -1 -1 0 10 -1 5 7 1 -1 2 3 -1 -1
104 6 -1 30 2 -1 -1 2 40 128 1 9 1 -1 2 3 -1 -1
END

# A pool machine: each job asks SIZE cpus. Before, every job was skipped
# as "larger than the machine".
out=$("$RQ" --resource "cpus=range(0-7)" --replay archive.swf 2>err)
expect_eq "pool replay status" 0 "$?"
expect_eq "pool replay: nothing skipped" "" "$(cat err)"
# Job ids are the SWF numbers; 102 (field 8 -1: 8 allocated) waits for
# 101, and under fcfs 103 (field 8 0: 2 allocated) and 104 wait behind it.
# A pool machine's node is its worker.
expect_eq "pool replay csv" "job,name,queue,submit,start,end,wait,runtime,estimate,size,status,nodes
101,swf101,1,0,0,10,0,10,20,4,completed,worker0
102,swf102,1,0,10,20,10,10,10,8,completed,worker0
103,swf103,2,5,20,20,15,0,10,2,completed,worker0
104,swf104,2,6,20,50,14,30,40,2,completed,worker0" "$(echo "$out" | grep -v '^SUMMARY')"
expect_contains "zero run times counted apart" "SUMMARY zero_runtime=1" "$out"
# The same on -f hq's machine kind through --replay-request, memory too
# (field 10, else 7; 103 gives neither: skipped with its line).
out=$("$RQ" --resource "cpus=range(0-7)" --resource "mem=sum(1024)" --replay archive.swf \
    --replay-request "cpus={size} mem={mem}" 2>err)
expect_contains "template: skipped with its line" "1 whose --replay-request field is unknown (-1) (first at line 6)" "$(cat err)"
expect_contains "template: jobs" "SUMMARY jobs=3" "$out"
out=$("$RQ" --resource "cpus=range(0-7)" --replay archive.swf --replay-request "gpus={size}" 2>err)
expect_contains "never fits: counted" "skipped 4 job(s) of archive.swf: 4 that the machine can never serve (first at line 4)" "$(cat err)"

# The graph machine, partitions as queues, completed jobs only.
out=$("$RQ" -L "$M" --replay archive.swf --replay-queues partition --replay-status completed 2>err)
expect_contains "status filter" "2 not completed (status other than 1; --replay-status all keeps them) (first at line 5)" "$(cat err)"
expect_eq "partition queues" "101,swf101,2,0,0,10,0,10,20,4,completed,node1
104,swf104,3,6,6,36,0,30,40,2,completed,node0" "$(echo "$out" | grep '^10')"

# --replay-summary: figures per queue and per user (top N by core-seconds).
out=$("$RQ" -L "$M" --replay archive.swf --replay-summary sum.json --replay-top-users 2 \
    --replay-slowdown-bound 20 2>/dev/null)
expect_contains "p90 line" "SUMMARY wait_p90=" "$out"
expect_contains "bound line" "SUMMARY slowdown_bound=20" "$out"
/usr/bin/python3 - sum.json <<'PY' || fail "summary json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["partial"] is False and s["jobs"] == 4, s
assert s["bounded_slowdown"]["bound"] == 20, s
assert set(s["wait"]) == {"mean", "median", "p90", "p99", "max"}, s["wait"]
assert s["wait"] == {"mean": 9.75, "median": 12.0, "p90": 15, "p99": 15, "max": 15}, s["wait"]
assert sorted(s["queues"]) == ["1", "2"] and s["queues"]["1"]["jobs"] == 2, s["queues"]
# user 8's 8 x 10 = 80 core-s, user 7's 4 x 10 + 0, user 9's 2 x 30 = 60
assert [u["user"] for u in s["users"]] == ["8", "9"] and s["users_total"] == 3, s["users"]
assert s["skipped"]["total"] == 0 and s["killed"] == 0 and s["zero_runtime"] == 1, s
PY

# MaxProcs larger than the machine: one clear error, before any job.
sed 's/MaxProcs: 8/MaxProcs: 16/' archive.swf >wide.swf
out=$("$RQ" -L "$M" --replay wide.swf 2>&1)
expect_eq "MaxProcs status" 1 "$?"
expect_eq "MaxProcs error" "ERROR: --replay: wide.swf:2: MaxProcs: 16 is larger than the machine (8 cores): replay on a machine of at least 16 cores, or give --replay-nodes if the trace's processors are nodes" "$out"

# Out of range: a number past the limit is an error naming the limit; a
# job that cannot end inside the planning window is skipped with its line.
printf '1 9223372036854775000 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n' >huge.swf
out=$("$RQ" -L "$M" --replay huge.swf 2>&1)
expect_eq "huge number" "ERROR: --replay: huge.swf:1: field 2 is out of range: '9223372036854775000', at most 9007199254740992" "$out"
printf '1 0 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n2 3153599999 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n' >late.swf
out=$("$RQ" -L "$M" --replay late.swf 2>&1)
expect_contains "late job counted" "skipped 1 job(s) of late.swf: 1 ending past the planning window (submit or requested time out of range) (first at line 2)" "$out"
expect_contains "late job in the summary" "SUMMARY skipped_out_of_range=1" "$out"
printf '; header\n1 -5 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n' >negative.swf
out=$("$RQ" -L "$M" --replay negative.swf 2>&1)
expect_eq "negative submit" "ERROR: --replay: negative.swf:2: submit time -5 is negative (field 2)" "$out"

# CSV fields are quoted (RFC 4180): a name with a comma, a quote or a line
# break stays one field.
cat >names.yaml <<'END'
- {submit: 0, runtime: 5, size: 1, name: "a,b"}
- {submit: 0, runtime: 5, size: 1, name: "say \"hi\""}
- {submit: 0, runtime: 5, size: 1, name: "two\nlines", queue: "q,1"}
END
"$RQ" -L "$M" --replay names.yaml --replay-csv names.csv >/dev/null 2>&1
/usr/bin/python3 - names.csv <<'PY' || fail "csv quoting"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) == 4 and all(len(r) == 12 for r in rows), rows
assert [r[1] for r in rows[1:]] == ["a,b", 'say "hi"', "two\nlines"], rows
assert rows[3][2] == "q,1", rows
PY

# A pool request in a YAML job list.
printf -- '- {submit: 0, runtime: 5, request: "cpus=3", name: r}\n' >pool.yaml
out=$("$RQ" --resource "cpus=range(0-3)" --replay pool.yaml 2>&1)
expect_contains "yaml pool request" "1,r,default,0,0,5,0,5,5,3,completed,worker0" "$out"

# Graph jobs and a pool request in one list: the replay's leaf holds
# (docs/matching.md "Leaf holds") are written out before the pool matcher
# reads the cores, so the request waits for b's cores, as without holds.
printf -- '- {submit: 0, runtime: 10, size: 4, name: a}\n- {submit: 0, runtime: 3, size: 4, name: b}\n- {submit: 1, runtime: 5, request: "cpus=4", name: p}\n' >mixed.yaml
out=$("$RQ" -L "$M" --replay mixed.yaml 2>&1)
expect_contains "pool request after graph jobs" "3,p,default,1,3,8,2,5,5,4,completed,node0" "$out"
exhaustive=$("$RQ" -L "$M" --replay mixed.yaml --replay-exhaustive 2>&1 | grep -v '^SUMMARY')
expect_contains "same without leaf holds" "$(printf '%s\n' "$out" | grep -v '^SUMMARY')" "$exhaustive"

# SIGINT (or SIGTERM) stops a replay: the summary so far, marked partial,
# and the shell's exit status for the signal. The trace is far too long to
# end first (conservative, 200,000 jobs queueing on 8 cores); the signal is
# sent once the first rows are out.
awk 'BEGIN { for (i = 1; i <= 200000; i++) print i, int(i / 4), -1, 100, 1 + i % 8, -1, -1, 1 + i % 8, 100, -1, 1, 1, 1, -1, 1, 1, -1, -1 }' >long.swf
for sig in INT TERM; do
    rm -f long.csv long.json
    "$RQ" -L "$M" --replay long.swf --queue-policy conservative --replay-csv long.csv --replay-summary long.json >long.out 2>long.err &
    pid=$!
    tries=0
    while [ "$(cat long.csv 2>/dev/null | wc -l)" -lt 3 ] && [ $tries -lt 600 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    kill -$sig $pid
    wait $pid
    status=$?
    [ $sig = INT ] && want=130 || want=143
    expect_eq "$sig exit status" $want $status
    expect_contains "$sig partial" "SUMMARY partial=1" "$(cat long.out)"
    expect_contains "$sig says so" "ERROR: --replay: interrupted at simulated time" "$(cat long.err)"
    /usr/bin/python3 -c 'import json,sys; s=json.load(open("long.json")); assert s["partial"] is True and s["jobs"] > 0, s' ||
        fail "$sig partial json"
done
finish
