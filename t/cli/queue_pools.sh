# Pool requests in the simulated queue (docs/queue.md
# "Pool requests in the queue", "JQM's managers are pools"): `submit ... request ITEMS` under easy
# on a HyperQueue pool, beside jobspecs on a GRUG graph under fcfs, under
# JQM's managers, and failed submits that change nothing.
. "$(dirname "$0")/lib.sh"

D="$SRC/t/data/queue"

# easy on 4 indexed cpus: big runs, whole is reserved at 10, small (5 s)
# backfills before it, long (20 s) would delay it and waits.
cat >cmds <<END
submit --name big --duration 10 request cpus=3
submit --name whole --duration 10 request cpus=4
submit --name small --duration 5 request cpus=1
submit --name long --duration 20 request cpus=1
queue
submit --duration 10 request cpus=5
submit request nosuch=1
submit request
submit request cpus=x
submit cpus=4
submit --duration 5 $D/cores2_10.yaml
submit --duration 0 request cpus=1
queue
run
END
out=$("$RQ" --resource "cpus=range(0-3)" --queue-policy easy --events-json events.json <cmds 2>err)
expect_eq "exit status" 0 "$?"
expect_eq "easy on pool requests" "EVENT 0 submit job=1 queue=default name=big priority=5 estimate=10 runtime=10
EVENT 0 submit job=2 queue=default name=whole priority=5 estimate=10 runtime=10
EVENT 0 submit job=3 queue=default name=small priority=5 estimate=5 runtime=5
EVENT 0 submit job=4 queue=default name=long priority=5 estimate=20 runtime=20
EVENT 0 start job=1 queue=default name=big resources=worker0:[0-2]
EVENT 0 reserve job=2 queue=default name=whole at=10 resources=worker0:[0-3]
EVENT 0 start job=3 queue=default name=small resources=worker0:3
QUEUE time=0 policy=easy pending=2 running=2
  job=2 name=whole queue=default priority=5 submit=0 state=reserved reason=\"reserved at 10\"
  job=4 name=long queue=default priority=5 submit=0 state=pending reason=\"resources busy; no reservation left in this pass\"
EVENT 0 reject job=- queue=default name=request cpus=5 reason=\"no worker can ever hold the request\"
EVENT 0 reject job=- queue=default name=request nosuch=1 reason=\"no worker has a pool named nosuch\"
QUEUE time=0 policy=easy pending=2 running=2
  job=2 name=whole queue=default priority=5 submit=0 state=reserved reason=\"reserved at 10\"
  job=4 name=long queue=default priority=5 submit=0 state=pending reason=\"resources busy; no reservation left in this pass\"
EVENT 5 end job=3 queue=default name=small status=completed
EVENT 10 end job=1 queue=default name=big status=completed
EVENT 10 start job=2 queue=default name=whole resources=worker0:[0-3]
EVENT 10 reserve job=4 queue=default name=long at=20 resources=worker0:0
EVENT 20 end job=2 queue=default name=whole status=completed
EVENT 20 start job=4 queue=default name=long resources=worker0:0
EVENT 40 end job=4 queue=default name=long status=completed" "$out"
expect_eq "failed pool submits" "ERROR: submit: request cpus=5: no worker can ever hold the request
ERROR: submit: request nosuch=1: no worker has a pool named nosuch
ERROR: submit: request needs ITEMS, such as cpus=4 (a file named request: ./request)
ERROR: submit: request cpus=x: the amount must be a positive integer up to 2^63-1 or \`all\`, got 'x'
ERROR: submit: cannot read cpus=4 (a pool request is written: submit request cpus=4)
ERROR: submit: --duration is for pool requests; a jobspec's requested time is its duration
ERROR: submit: --duration must be a number of seconds >= 1, not '0'" "$(cat err)"
expect_contains "json resources" '{"at":10,"event":"reserve","job":2,"name":"whole","queue":"default","resources":["worker0:[0-3]"],"time":0}' "$(cat events.json)"

# fcfs on a GRUG graph (2 nodes x 4 cores): a jobspec and pool requests
# share the planner; p2 waits for p1's cores (cpus = core).
cat >cmds <<END
submit --name spec $D/cores4_20.yaml
submit --name p1 --duration 10 request cpus=4
submit --name p2 --duration 5 request cpus=2
queue
run
END
out=$("$RQ" -L "$D/two_nodes.graphml" -d <cmds 2>&1)
expect_eq "jobspecs beside pool requests" "EVENT 0 submit job=1 queue=default name=spec priority=5 estimate=20 runtime=20
EVENT 0 submit job=2 queue=default name=p1 priority=5 estimate=10 runtime=10
EVENT 0 submit job=3 queue=default name=p2 priority=5 estimate=5 runtime=5
EVENT 0 start job=1 queue=default name=spec resources=node1:core[0-3]
EVENT 0 start job=2 queue=default name=p1 resources=node0:core[0-3]
QUEUE time=0 policy=fcfs pending=1 running=2
  job=3 name=p2 queue=default priority=5 submit=0 state=pending reason=\"resources busy (fcfs: the queue waits for this job)\"
EVENT 10 end job=2 queue=default name=p1 status=completed
EVENT 10 start job=3 queue=default name=p2 resources=node0:core[0-1]
EVENT 15 end job=3 queue=default name=p2 status=completed
EVENT 20 end job=1 queue=default name=spec status=completed" "$out"

# JQM's managers (pools of their own graph) serve pool requests too: the
# discrete manager's items are in the start event, highlander holds the
# second "train", jqm-skip starts "other" behind it.
cat >cmds <<END
submit --rm gpu=2 --name train --duration 10 request cpus=1
submit --name train --duration 10 request cpus=1
submit --name other --duration 10 request cpus=1
submit --rm gpu=3 request cpus=1
run
END
out=$("$RQ" --resource "cpus=range(0-3)" --queue-policy jqm-skip -Q "$D/queues.yaml" <cmds 2>err)
expect_eq "jqm pool requests" "EVENT 0 start job=1 queue=default name=train JQM_RM_DISCRETE_GPU_ITEMS=gpu0,gpu1 resources=worker0:0
EVENT 1 start job=3 queue=default name=other resources=worker0:1
EVENT 10 start job=2 queue=default name=train resources=worker0:0" "$(echo "$out" | grep ' start ')"
expect_eq "jqm unsatisfiable" "ERROR: submit: request cpus=1: resource manager gpu can never give 3 (it has 2)" "$(cat err)"

# A discrete manager listing an item twice is an error at -Q.
printf 'queues:\n  - name: default\n    managers:\n      - {type: discrete, key: gpu, items: [a, a]}\n' >dup.yaml
out=$(echo time | "$RQ" --resource "cpus=range(0-3)" --queue-policy jqm -Q dup.yaml 2>&1)
expect_contains "duplicate item" "resource-query: -Q: dup.yaml: queue default: manager gpu: item 'a' is listed twice" "$out"

finish
