# Several queues with their own policies (docs/queue.md
# "Several queues"): -Q entries with policy/queue_depth, the REPL's
# queue-add and queue-manager, their errors (one line, nothing changes),
# and --state resuming a session that declared queues.
. "$(dirname "$0")/lib.sh"

D="$SRC/t/data/queue"
M="$D/two_nodes.graphml"   # 2 nodes x 4 cores
strip() { sed 's/ resources=.*//'; }

jobs="submit --queue batch --name A $D/cores4_20.yaml
submit --queue batch --name B $D/cores8_10.yaml
submit --queue debug --name C $D/cores2_10.yaml
submit --queue debug --name D $D/cores8_10.yaml"

cat >q.yaml <<END
queues:
  - {name: batch, policy: fcfs}
  - {name: debug, policy: easy, queue_depth: 4}
END
# 0: batch (fcfs): A starts, B blocks batch. debug (easy): C starts, D is
# reserved at 20. 20: batch first: B starts; D moves to 30.
expected="EVENT 0 submit job=1 queue=batch name=A priority=5 estimate=20 runtime=20
EVENT 0 submit job=2 queue=batch name=B priority=5 estimate=10 runtime=10
EVENT 0 submit job=3 queue=debug name=C priority=5 estimate=10 runtime=10
EVENT 0 submit job=4 queue=debug name=D priority=5 estimate=10 runtime=10
EVENT 0 start job=1 queue=batch name=A
EVENT 0 start job=3 queue=debug name=C
EVENT 0 reserve job=4 queue=debug name=D at=20
EVENT 10 end job=3 queue=debug name=C status=completed
EVENT 20 end job=1 queue=batch name=A status=completed
EVENT 20 start job=2 queue=batch name=B
EVENT 20 reserve job=4 queue=debug name=D at=30
EVENT 30 end job=2 queue=batch name=B status=completed
EVENT 30 start job=4 queue=debug name=D
EVENT 40 end job=4 queue=debug name=D status=completed"
out=$(printf '%s\nrun\n' "$jobs" | "$RQ" -L "$M" -Q q.yaml 2>err)
expect_eq "-Q: exit status" 0 "$?"
expect_eq "-Q: each queue with its own policy" "$expected" "$(echo "$out" | strip)"
expect_eq "-Q: no error" "" "$(cat err)"

# The same queues declared at the REPL (after the built-in default queue).
out=$(printf 'queue-add batch --policy fcfs\nqueue-add debug --policy easy --queue-depth 4\n%s\nrun\n' "$jobs" |
    "$RQ" -L "$M" 2>err)
expect_eq "queue-add: same events as -Q" "$expected" "$(echo "$out" | strip)"
expect_eq "queue-add: no error" "" "$(cat err)"

# Queues without a policy of their own keep the single pass (labels).
cat >plain.yaml <<END
queues:
  - {name: batch}
  - {name: debug}
END
a=$(printf '%s\nrun\n' "$jobs" | "$RQ" -L "$M" --queue-policy easy 2>&1)
b=$(printf '%s\nrun\n' "$jobs" | "$RQ" -L "$M" --queue-policy easy -Q plain.yaml 2>&1)
expect_eq "-Q without policies: same events as without -Q" "$a" "$b"

# Errors: one line naming the problem; nothing changes (the run after them
# is the run without them).
cat >cmds <<END
queue-add
queue-add --policy easy
queue-add batch --policy easy
queue-add x --policy lifo
queue-add x --queue-depth -1
queue-add x --reservation-depth 0
queue-add x --policy hybrid
queue-add x --policy jqm
queue-add x --colour red
queue-manager batch
queue-manager nope quantity t 3
queue-manager batch quantity t -3
queue-manager batch quantity t many
queue-manager batch ration t 3
queue-manager batch highlander hl extra
queue-manager batch quantity t 3
queue-manager batch quantity t 4
$jobs
queue-manager debug highlander hl
run
END
out=$("$RQ" -L "$M" -Q q.yaml <cmds 2>err)
expect_eq "errors: the run is unchanged" "$expected" "$(echo "$out" | strip)"
expect_eq "errors: one line each" "ERROR: queue-add: usage: queue-add NAME [--policy P] [--queue-depth N] [--reservation-depth N]
ERROR: queue-add: usage: queue-add NAME [--policy P] [--queue-depth N] [--reservation-depth N]
ERROR: queue-add: queue 'batch' exists already
ERROR: queue-add: unknown queue policy 'lifo' (fcfs, easy, conservative, hybrid, jqm, jqm-skip)
ERROR: queue-add: queue-depth must be 0 (all) or positive, not '-1'
ERROR: queue-add: reservation-depth must be >= 1, not '0'
ERROR: queue-add: queue x: hybrid needs --reservation-depth N with N >= 1, not 0
ERROR: queue-add: queue x: policy jqm cannot share a session with queue batch's fcfs (JQM's polls and the planner's passes do not mix)
ERROR: queue-add: unknown option '--colour' (--policy, --queue-depth, --reservation-depth)
ERROR: queue-manager: usage: queue-manager QUEUE quantity KEY N | discrete KEY ITEM... | highlander KEY
ERROR: queue-manager: no queue 'nope'
ERROR: queue-manager: queue batch: t: quantity must be >= 0
ERROR: queue-manager: queue batch: t: quantity must be a number, not 'many'
ERROR: queue-manager: queue batch: unknown manager type 'ration' (quantity, discrete, highlander)
ERROR: queue-manager: usage: queue-manager QUEUE quantity KEY N | discrete KEY ITEM... | highlander KEY
ERROR: queue-manager: queue batch: manager key 't' twice
ERROR: queue-manager: queue debug has jobs (job 3); add its managers before the first submit to it" "$(cat err)"

# -Q errors name the file and the queue.
printf 'queues:\n  - {name: a, policy: lifo}\n' >bad1.yaml
printf 'queues:\n  - {name: a, queue_depth: -1}\n' >bad2.yaml
printf 'queues:\n  - {name: a, policy: hybrid}\n' >bad3.yaml
printf 'queues:\n  - {name: a, policy: jqm}\n  - {name: b, policy: easy}\n' >bad4.yaml
for f in bad1 bad2 bad3 bad4; do
    echo "submit --queue a $D/cores2_10.yaml" | "$RQ" -L "$M" -Q $f.yaml >/dev/null 2>>qerr
done
expect_eq "-Q errors" "resource-query: -Q: bad1.yaml: queue a: unknown queue policy 'lifo' (fcfs, easy, conservative, hybrid, jqm, jqm-skip)
resource-query: -Q: bad2.yaml: queue a: queue-depth must be 0 (all) or positive, not -1
resource-query: -Q: bad3.yaml: queue a: hybrid needs --reservation-depth N with N >= 1, not 0
resource-query: -Q: bad4.yaml: queue b: policy easy cannot share a session with queue a's jqm (JQM's polls and the planner's passes do not mix)" "$(cat qerr)"

# JQM managers declared at the REPL: a quantity manager of 1 runs one job
# at a time in its queue.
out=$(printf 'queue-add one --policy jqm-skip\nqueue-manager one quantity slots 1
submit --queue one --name p %s\nsubmit --queue one --name q %s\nrun\n' "$D/cores2_10.yaml" "$D/cores2_10.yaml" |
    "$RQ" -L "$M" --queue-policy jqm 2>&1 | grep ' start ' | strip)
expect_eq "queue-manager: quantity 1" "EVENT 0 start job=1 queue=one name=p
EVENT 10 start job=2 queue=one name=q" "$out"

# --state journals queue-add and queue-manager like the other commands (the
# pass of instant 0 runs in the resumed session, when time is observed).
rm -f st.db st.db-*
printf 'queue-add batch --policy fcfs\nqueue-add debug --policy easy --queue-depth 4\n%s\n' "$jobs" |
    "$RQ" -L "$M" --state st.db >/dev/null 2>&1
out=$(printf 'run\n' | "$RQ" -L "$M" --state st.db 2>&1)
expect_eq "--state: resumed queues" "$(echo "$expected" | grep -v ' submit ')" "$(echo "$out" | strip)"

finish
