# The simulated queue (docs/queue.md): REPL commands,
# the event line format and --events-json, failed submits that change
# nothing, and --replay of SWF (skipped lines counted) and YAML job lists.
. "$(dirname "$0")/lib.sh"

D="$SRC/t/data/queue"
M="$D/two_nodes.graphml"   # 2 nodes x 4 cores
strip() { sed 's/ resources=.*//'; }

cat >cmds <<END
submit --name a $D/cores4_20.yaml
submit --name b --runtime 30 $D/cores8_10.yaml
submit --name c --priority 9 $D/cores2_10.yaml
queue
submit $D/cores9_10.yaml
submit --priority 11 $D/cores2_10.yaml
submit $D/no-such-file.yaml
queue
advance 15
time
run
time
END
out=$("$RQ" -L "$M" -d --events-json events.json <cmds 2>err)
expect_eq "exit status" 0 "$?"
expect_eq "events and queue" "EVENT 0 submit job=1 queue=default name=a priority=5 estimate=20 runtime=20
EVENT 0 submit job=2 queue=default name=b priority=5 estimate=10 runtime=30
EVENT 0 submit job=3 queue=default name=c priority=9 estimate=10 runtime=10
EVENT 0 start job=3 queue=default name=c
EVENT 0 start job=1 queue=default name=a
QUEUE time=0 policy=fcfs pending=1 running=2
  job=2 name=b queue=default priority=5 submit=0 state=pending reason=\"resources busy (fcfs: the queue waits for this job)\"
EVENT 0 reject job=- queue=default name=$D/cores9_10.yaml reason=\"the request can never be satisfied on this resource graph\"
QUEUE time=0 policy=fcfs pending=1 running=2
  job=2 name=b queue=default priority=5 submit=0 state=pending reason=\"resources busy (fcfs: the queue waits for this job)\"
EVENT 10 end job=3 queue=default name=c status=completed
TIME 15
EVENT 20 end job=1 queue=default name=a status=completed
EVENT 20 start job=2 queue=default name=b
EVENT 30 end job=2 queue=default name=b status=killed
TIME 30" "$(echo "$out" | strip)"
expect_eq "failed submits are reported, one line each" "ERROR: submit: $D/cores9_10.yaml: the request can never be satisfied on this resource graph
ERROR: submit: --priority must be 1 to 10, not '11'
ERROR: submit: cannot read $D/no-such-file.yaml: No such file or directory" "$(cat err)"
expect_contains "start lists the cores" "EVENT 0 start job=3 queue=default name=c resources=node1:core[2-3]" "$out"
python3 - events.json <<'PY' || fail "events.json"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["event"] for r in rows] == ["submit"] * 3 + ["start", "start", "reject", "end", "end", "start", "end"], rows
# A submit that can never fit is a reject event with its name and reason,
# and no job id (none was given out).
reject = rows[5]
assert reject["name"].endswith("cores9_10.yaml") and "job" not in reject, reject
assert reject["reason"] == "the request can never be satisfied on this resource graph", reject
for r in rows:
    assert {"time", "event", "queue"} <= set(r), r
    assert ("job" in r) == (r["event"] != "reject"), r
    assert ("resources" in r) == (r["event"] in ("start", "reserve")), r
assert rows[-1] == {"time": 30, "event": "end", "job": 2, "queue": "default", "name": "b", "status": "killed"}, rows[-1]
PY

# easy: the 8-core job gets a reservation, the 2-core job backfills.
cat >cmds <<END
submit $D/cores4_20.yaml
submit $D/cores8_10.yaml
submit --runtime 5 $D/cores2_10.yaml
queue
END
out=$("$RQ" -L "$M" -d --queue-policy easy <cmds 2>&1)
expect_contains "reserve line" "EVENT 0 reserve job=2 queue=default name=$D/cores8_10.yaml at=20 resources=" "$out"
expect_contains "backfill" "EVENT 0 start job=3" "$out"
expect_contains "reserved state" "state=reserved reason=\"reserved at 20\"" "$out"
out=$("$RQ" -L "$M" -d --queue-policy nosuch <cmds 2>&1)
expect_contains "bad policy" "resource-query: --queue-policy: unknown queue policy 'nosuch'" "$out"

# --replay of an SWF trace: field rules and skipped lines.
cat >trace.swf <<END
; a hand-written trace
1 0 -1 10 4 -1 -1 4 20 -1 1 1 -1 -1 1 1 -1 -1
2 5 -1 10 2 -1 -1 -1 -1 -1 1 1 -1 -1 1 1 -1 -1
3 6 -1 10 0 -1 -1 0 5 -1 1 1 -1 -1 1 1 -1 -1
4 7 -1 -1 2 -1 -1 2 5 -1 1 1 -1 -1 1 1 -1 -1
5 8 -1 10 9 -1 -1 9 5 -1 1 1 -1 -1 1 1 -1 -1
6 100 -1 25 8 -1 -1 8 20 -1 1 1 -1 -1 1 1 -1 -1
END
out=$("$RQ" -L "$M" --replay trace.swf 2>err)
expect_eq "replay status" 0 "$?"
expect_eq "skipped on stderr" "WARN: --replay: skipped 3 job(s) of trace.swf: 1 with size <= 0 (first at line 4), 1 with a negative run time (first at line 5), 1 larger than the machine (first at line 6)" "$(cat err)"
# one row per job as it ends; the job id is the SWF job number (field 1)
# and the nodes it ran on (an RFC 22 hostlist)
expect_eq "csv" "job,name,queue,submit,start,end,wait,runtime,estimate,size,status,nodes
1,swf1,1,0,0,10,0,10,20,4,completed,node1
2,swf2,1,5,5,15,0,10,10,2,completed,node0
6,swf6,1,100,100,120,0,25,20,8,killed,node[0-1]" "$(echo "$out" | grep -v '^SUMMARY')"
expect_contains "summary jobs" "SUMMARY jobs=3" "$out"
expect_contains "summary skipped" "SUMMARY skipped=3" "$out"
expect_contains "makespan" "SUMMARY makespan=120" "$out"
expect_contains "killed" "SUMMARY killed=1" "$out"
# wait 0 everywhere; bounded slowdown max(1, run/max(run,10)) = 1
expect_contains "slowdown" "SUMMARY bounded_slowdown_mean=1.000" "$out"

sed 's/^\([0-9]*\) \([0-9]*\) /\1 1000\2 /' trace.swf >late.swf
out=$("$RQ" -L "$M" --replay late.swf 2>/dev/null | grep '^1,')
expect_eq "times kept by default" "1,swf1,1,10000,10000,10010,0,10,20,4,completed,node1" "$out"
out=$("$RQ" -L "$M" --replay late.swf --replay-shift 2>/dev/null | grep '^1,')
expect_eq "--replay-shift" "1,swf1,1,0,0,10,0,10,20,4,completed,node1" "$out"

printf '1 0 -1 10 x\n' >bad.swf
out=$("$RQ" -L "$M" --replay bad.swf 2>&1)
expect_eq "malformed line" "1" "$?"
expect_contains "names file and line" "ERROR: --replay: bad.swf:1: an SWF line needs at least 9 fields, found 5" "$out"

# --replay of a YAML job list.
cat >jobs.yaml <<END
- submit: 0
  runtime: 10
  size: 8
  name: wide
- submit: 0
  runtime: 5
  jobspec: $D/cores2_10.yaml
  priority: 9
  name: urgent
END
out=$("$RQ" -L "$M" --replay jobs.yaml 2>&1)
expect_contains "urgent first" "2,urgent,default,0,0,5,0,5,10,2,completed,node1" "$out"
expect_contains "wide after" "1,wide,default,0,5,15,5,10,10,8,completed,node[0-1]" "$out"

# Graph vs flat pool (docs/queue.md): on 3 individual cores j4 starts at 6 under
# conservative; a flat pool of 3 cores would start it at 5.
out=$("$RQ" -L "$D/three_cores.graphml" --replay "$D/flat_vs_graph.yaml" --queue-policy conservative 2>&1)
expect_contains "graph ties j4 to a core" "4,j4,default,2,6,12,4,6,6,1,completed,node0" "$out"

# JQM: -Q queues, discrete items in the start event, --rm overrides.
cat >cmds <<END
submit --rm gpu=2 --name train $D/cores2_10.yaml
submit --name train $D/cores2_10.yaml
submit --name other $D/cores2_10.yaml
submit --rm gpu=3 $D/cores2_10.yaml
submit --rm nosuch=1 $D/cores2_10.yaml
submit --queue nosuch $D/cores2_10.yaml
run
END
out=$("$RQ" -L "$M" -d --queue-policy jqm-skip -Q "$D/queues.yaml" <cmds 2>err)
# poll 0: job 1 takes both GPUs, so no second tour; poll 1: job 2 is
# refused by highlander and skipped, job 3 starts.
expect_eq "jqm starts" "EVENT 0 start job=1 queue=default name=train JQM_RM_DISCRETE_GPU_ITEMS=gpu0,gpu1
EVENT 1 start job=3 queue=default name=other
EVENT 10 start job=2 queue=default name=train" "$(echo "$out" | grep ' start ' | strip)"
expect_eq "jqm submit errors" "ERROR: submit: $D/cores2_10.yaml: resource manager gpu can never give 3 (it has 2)
ERROR: submit: $D/cores2_10.yaml: queue 'default' has no resource manager 'nosuch'
ERROR: submit: $D/cores2_10.yaml: no queue 'nosuch'" "$(cat err)"
printf 'queues: []\n' >bad-queues.yaml
out=$(echo time | "$RQ" -L "$M" -d --queue-policy jqm -Q bad-queues.yaml 2>&1)
expect_contains "bad -Q" "resource-query: -Q: bad-queues.yaml: no queue" "$out"

# The generator is seeded, and its traces replay under every policy.
python3 "$SRC/utilities/swf_generate.py" --jobs 200 --max-size 8 --seed 5 --max-runtime 500 >g1.swf
python3 "$SRC/utilities/swf_generate.py" --jobs 200 --max-size 8 --seed 5 --max-runtime 500 >g2.swf
cmp -s g1.swf g2.swf || fail "generator is not deterministic for a seed"
for p in fcfs easy conservative; do
    out=$("$RQ" -L "$M" --replay g1.swf --queue-policy $p 2>&1)
    expect_contains "$p replays all" "SUMMARY jobs=200" "$out"
done
out=$("$RQ" -L "$M" --replay g1.swf --queue-policy hybrid --reservation-depth 2 2>&1)
expect_contains "hybrid" "SUMMARY jobs=200" "$out"
finish
