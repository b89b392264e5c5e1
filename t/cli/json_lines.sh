# --json: every line on stdout (and stderr, and the -t file) is one JSON
# value that jq reads, whatever the match format and the commands.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || { echo "jq missing: skipped"; exit 77; }
tiny="$SRC/conf/tiny.graphml"
js="$SRC/t/data/jobspecs/node-socket-core.yaml"
cat >cmds <<END
match allocate $js
match allocate_orelse_reserve $js
match satisfiability $js
match allocate missing.yaml
match fly $js
find status=up and sched-now=allocated
find nokey=1
list
info 1
stat
cancel 1 stats
set-property /tiny0/rack0/node0 class=fast
get-property /tiny0/rack0/node0
get-status /nope
help
help find
cat $js
frobnicate
attach missing.json
quit
END

for format in simple pretty_simple jgf jgf_shorthand rlite rv1 rv1_nosched rv1_shorthand; do
    "$RQ" -L "$tiny" -F "$format" -e --json <cmds >out 2>err; status=$?
    expect_eq "$format: exit status" 0 "$status"
    jq -c . out >/dev/null 2>jqerr || fail "$format: stdout is not JSON lines: $(cat jqerr)"
    jq -c . err >/dev/null 2>jqerr || fail "$format: stderr is not JSON lines: $(cat jqerr)"
    expect_eq "$format: one value per line" "$(wc -l <out)" "$(jq -c . out | wc -l)"
    expect_eq "$format: job 1 allocated" "ALLOCATED" "$(jq -r 'select(.jobid == 1) | .resources' out)"
    expect_eq "$format: -e vertex count" 52 "$(jq -r '.vertex_count // empty' out)"
    expect_eq "$format: list" "1 ALLOCATED" "$(jq -r 'select(.job) | "\(.job.id) \(.job.state)"' out | head -n 1)"
    expect_contains "$format: errors" '"error":"ERROR: can'"'"'t open missing.yaml"' "$(cat err)"
    expect_contains "$format: find expression" '"expression":"status=up and sched-now=allocated"' "$(cat out)"
done

# JSON formats: the match output is an object, text formats a string.
"$RQ" -L "$tiny" -F jgf --json <cmds >out 2>/dev/null
expect_eq "jgf output is an object" "object" "$(jq -r 'select(.jobid == 1) | .output | type' out)"
"$RQ" -L "$tiny" -F rv1 --json <cmds >out 2>/dev/null
expect_eq "rv1 nodelist" '["node1"]' "$(jq -c 'select(.jobid == 1) | .output.execution.nodelist' out)"
"$RQ" -L "$tiny" --json <cmds >out 2>/dev/null
expect_eq "simple output is a string" "string" "$(jq -r 'select(.jobid == 1) | .output | type' out)"

# The -t file gets JSON lines too; stdout keeps only its own lines.
"$RQ" -L "$tiny" -F rv1 --json -t tout <cmds >out 2>/dev/null
jq -c . tout >/dev/null 2>&1 || fail "-t file is not JSON lines"
jq -c . out >/dev/null 2>&1 || fail "stdout with -t is not JSON lines"
expect_eq "-t file has the blocks" 1 "$(jq -r 'select(.jobid == 1) | .jobid' tout)"

# A start-up error is JSON too; --fail-fast's stop message as well.
"$RQ" -L "$tiny" -P "node_centric=true" --json </dev/null >/dev/null 2>err
jq -e '.error' err >/dev/null 2>&1 || fail "start-up error is not JSON: $(cat err)"
printf 'match allocate missing.yaml\n' | "$RQ" -L "$tiny" --json --fail-fast >/dev/null 2>err
expect_eq "--fail-fast message as JSON" 2 "$(jq -r '.error' err | wc -l)"

# Without --json nothing changes.
"$RQ" -L "$tiny" <cmds >out 2>/dev/null
expect_contains "plain text without --json" "INFO: JOBID=1" "$(cat out)"
finish
