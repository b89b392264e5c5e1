#!/bin/sh
# match OP FILE --explain: when nothing matches, the first level of the
# jobspec that no vertex can hold, and where the resources are instead
# (traversers/explain.h; docs/matching.md "Writing a jobspec"). The shipped GPU
# examples in t/data/jobspecs/ are the cases.
#
# usage: explain.sh BIN_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
tiny=$SRC/conf/tiny.graphml
J=$SRC/t/data/jobspecs
[ -x "$RQ" ] && [ -r "$tiny" ] || { echo "SKIP: $RQ or $tiny missing"; exit 77; }

# tiny: 2 nodes, each 2 sockets of 8 cores and 1 gpu.
out=$(printf '%s\n' "match allocate $J/gpu-per-socket.yaml --explain" | "$RQ" -L "$tiny" 2>&1)
expect_contains "gpu per socket: no match" "INFO: No matching resources found" "$out"
expect_contains "gpu per socket: the level, what it lacked, the shape to ask" \
    "INFO: explain: node[1]->socket[1]->slot[1]->gpu[2]: no socket holds 2 free gpus (the best holds 1); a node holds 2 under 2 sockets: ask node->slot[1]->gpu[2]" \
    "$out"

# the suggested shape matches; without --explain nothing is added
out=$(printf '%s\n' "match allocate $J/gpu-per-node.yaml --explain" "match allocate $J/gpu-per-socket.yaml" \
    | "$RQ" -L "$tiny" 2>&1)
expect_contains "gpu per node: matched" "INFO: JOBID=1" "$out"
case "$out" in *"explain:"*) fail "an explanation without a failure or without --explain: $out" ;; esac

# busy, not impossible: every gpu is taken, the graph has them
out=$(printf '%s\n' "match allocate $J/gpu-per-slot.yaml" "match allocate $J/gpu-per-slot.yaml --explain" \
    | "$RQ" -L "$tiny" 2>&1)
expect_contains "all gpus taken: named" \
    "INFO: explain: slot[4]->gpu[1]: the cluster holds 0 free gpus, not 4; no single vertex holds 4 free (allocated, or spread out)" \
    "$out"

# more than the graph has
sed 's/count: 4/count: 5/' "$J/gpu-per-slot.yaml" >five.yaml
out=$(printf '%s\n' "match allocate five.yaml --explain" | "$RQ" -L "$tiny" 2>&1)
expect_contains "more gpus than the graph has" \
    "INFO: explain: slot[5]->gpu[1]: the cluster holds 4 free gpus, not 5; the whole graph has 4" "$out"

# a malformed --explain is still a malformed command
out=$(printf '%s\n' "match allocate $J/gpu-per-node.yaml --explane" | "$RQ" -L "$tiny" 2>&1)
expect_contains "a misspelt flag" "ERROR: malformed command" "$out"

finish
