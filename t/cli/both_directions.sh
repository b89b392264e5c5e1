# A JGF that lists each containment edge in both directions (a "contains"
# edge and its "in" twin, as fluxion-go's test data does): the reader drops
# the reverse edges with one warning line, and every command returns —
# partial-cancel used to loop for ever walking up from the node. Each run
# is under `timeout`, so a hang fails the test instead of stalling ctest.
. "$(dirname "$0")/lib.sh"
command -v timeout >/dev/null 2>&1 || { echo "skip: timeout not found"; exit 77; }
G="$SRC/t/reapi/data/both-directions.json"
TWO="$SRC/t/reapi/data/two-nodes.yaml"
CORE="$SRC/t/data/jobspecs/core.yaml"
cat >node0.json <<'JGF'
{"graph": {"nodes": [
 {"id": "2", "metadata": {"type": "core", "id": 0, "rank": 0, "exclusive": true, "paths": {"containment": "/cluster0/node0/core0"}}},
 {"id": "1", "metadata": {"type": "node", "id": 0, "rank": 0, "exclusive": true, "paths": {"containment": "/cluster0/node0"}}}],
 "edges": [{"source": "1", "target": "2"}]}}
JGF

out=$(printf 'match allocate %s\npartial-cancel 1 jgf node0.json\ninfo 1\nmatch allocate %s\nfind sched-now=allocated\ncancel 2\nupdate allocate jgf node0.json 9 0 3600\ncancel 1\ncancel 9\nremove /cluster0/node1 true\nmatch allocate %s\nquit\n' \
    "$TWO" "$CORE" "$TWO" | timeout 60 "$RQ" -L "$G" -f jgf -F simple 2>err.txt)
rc=$?
expect_eq "every command returns" 0 "$rc"
expect_contains "the reverse edges are dropped with a warning" \
    "WARNING: $G: dropped 4 edge(s) pointing up the containment tree (first: node0 -> cluster0)" "$(cat err.txt)"
expect_contains "the job keeps node1 after the partial cancel" "1, ALLOCATED" "$out"
# job 2's core is node0's: the tree printed above its JOBID=2 block
expect_contains "node0 is free again: a core fits there" "node0[1:s]" "$out"
expect_eq "jobs 1, 2 and 9 allocated; nothing after the remove" 3 \
    "$(printf '%s\n' "$out" | grep -c 'RESOURCES=ALLOCATED')"
expect_contains "two nodes no longer exist" "No matching resources found" "$out"
finish
