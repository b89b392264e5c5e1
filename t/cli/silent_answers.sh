#!/bin/sh
# Silent wrong answers the reference gives and we do not (docs/differences.md,
# "The original resource-query"):
#  * -F rv1 after a job whose R_lite is empty: that job's vertices must not
#    show up in the next job's R;
#  * `cat DIRECTORY` fails with a clear error instead of printing nothing;
#  * a jobspec error is not reported as "No matching resources found" (nor
#    as "Satisfiable request"): the out stream names the file and the
#    problem; `count: 010` is refused rather than read as 8.
#
# usage: silent_answers.sh BIN_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
tiny=$SRC/conf/tiny.graphml
[ -x "$RQ" ] && [ -r "$tiny" ] || { echo "SKIP: $RQ or $tiny missing"; exit 77; }

# ---- rv1 after an R with no node -----------------------------------------------
# mixed0 -> node0 -> core[2] and mixed0 -> socket0 -> core[2] (no node above).
{
    sed '/<graph id/,$d' "$tiny"
    cat <<'EOF'
  <graph id="mixed" edgedefault="directed">
    <node id="cluster"><data key="root">1</data><data key="type">cluster</data><data key="basename">mixed</data></node>
    <node id="node"><data key="type">node</data><data key="basename">node</data></node>
    <node id="ncore"><data key="type">core</data><data key="basename">core</data></node>
    <node id="socket"><data key="type">socket</data><data key="basename">socket</data></node>
    <node id="score"><data key="type">core</data><data key="basename">core</data></node>
    <edge source="cluster" target="node"><data key="multi_scale">1</data></edge>
    <edge source="node" target="ncore"><data key="multi_scale">2</data></edge>
    <edge source="cluster" target="socket"><data key="multi_scale">1</data></edge>
    <edge source="socket" target="score"><data key="multi_scale">2</data></edge>
  </graph>
</graphml>
EOF
} >mixed.graphml
jobspec() {  # jobspec TOP-TYPE
    printf 'version: 1\nresources:\n  - type: %s\n    count: 1\n    with:\n      - type: slot\n        count: 1\n        label: task\n        with:\n          - type: core\n            count: 1\ntasks:\n  - command: [ "app" ]\n    slot: task\n    count:\n      per_slot: 1\nattributes:\n  system:\n    duration: 3600\n' "$1"
}
jobspec socket >socket.yaml
jobspec node >node.yaml
for format in rv1 rv1_nosched rv1_shorthand; do
    printf 'match allocate socket.yaml\nmatch allocate node.yaml\n' |
        "$RQ" -L mixed.graphml -F "$format" -t out >/dev/null 2>err || fail "$format: exit status"
    r=$(grep '^{' out)
    expect_eq "$format: one R, for the node job" 1 "$(grep -c '^{' out)"
    case "$r" in
    *socket*) fail "$format: the socket job's vertices leak into the next R: $r" ;;
    esac
    expect_contains "$format: the node job's R_lite" '"R_lite": [{"rank": "0", "children": {"core": "1"}}]' "$r"
done

# ---- cat on a directory ------------------------------------------------------------
mkdir adir
printf 'cat adir\ncat node.yaml\n' | "$RQ" -L "$tiny" >out 2>err
expect_eq "cat DIRECTORY error" "$(printf "ERROR: can't open adir\n  adir: Is a directory")" "$(cat err)"
case "$(cat out)" in
*"Jobspec in adir"*) fail "cat DIRECTORY reports success" ;;
esac
expect_contains "cat a file still works" "INFO: Jobspec in node.yaml" "$(cat out)"

# ---- jobspec errors ------------------------------------------------------------------
sed 's/type: node/type: nodes/' node.yaml >unknown-type.yaml
sed 's/^    count: 1$/    count: 010/' node.yaml >octal.yaml
sed 's/^    count: 1$/    count: two/' node.yaml >word.yaml
printf '%s\n' "match allocate unknown-type.yaml" "match satisfiability unknown-type.yaml" \
    "match allocate octal.yaml" "match allocate word.yaml" "match allocate $SRC/t/data/jobspecs/core.yaml" |
    "$RQ" -L "$tiny" -t out >/dev/null 2>err
rule="INFO: ============================="
expect_eq "jobspec errors, stderr keeps the reference's lines" \
    "match_allocate: ERROR: Jobspec error for 1: Value of \"type\" must be a resource type known to fluxion
match_allocate: ERROR: Jobspec error for 1: Value of \"type\" must be a resource type known to fluxion
match_allocate: ERROR: Jobspec error for 1: \"count\" has a leading zero (010), which the original reads as an octal number
match_allocate: ERROR: Jobspec error for 1: yaml-cpp: error at line 4, column 12: bad conversion" "$(cat err)"
expect_eq "jobspec errors, the out stream says what and where" \
    "$rule
INFO: Jobspec error in unknown-type.yaml: Value of \"type\" must be a resource type known to fluxion
INFO:   line 3: unknown resource type \"nodes\" (known: cluster, core, socket, gpu, node, rack, slot, xor_slot, ssd, storage_node, memory)
$rule
$rule
INFO: Jobspec error in unknown-type.yaml: Value of \"type\" must be a resource type known to fluxion
INFO:   line 3: unknown resource type \"nodes\" (known: cluster, core, socket, gpu, node, rack, slot, xor_slot, ssd, storage_node, memory)
$rule
$rule
INFO: Jobspec error in octal.yaml: \"count\" has a leading zero (010), which the original reads as an octal number
INFO:   line 4: write the count in decimal without the leading zero
$rule
$rule
INFO: Jobspec error in word.yaml: yaml-cpp: error at line 4, column 12: bad conversion
INFO:   line 4: \"count\" must be a whole number from 0 to 4294967295, not \"two\"
$rule" "$(head -16 out)"
expect_contains "the counter did not move" "INFO: JOBID=1" "$(cat out)"
finish
