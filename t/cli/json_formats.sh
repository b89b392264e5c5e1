# The JSON match formats (-F jgf, jgf_shorthand, rlite, rv1, rv1_nosched,
# rv1_shorthand): every line they print is a JSON document that both
# python3 and jq accept, and the documents have the expected shape.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null 2>&1 || { echo "skip: jq not found"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found"; exit 77; }

specs="$SRC/t/data/json_formats"
cat >cmds <<END
match allocate $specs/exclusive-node.yaml
match allocate $specs/cores-gpu-memory.yaml
match allocate $specs/too-many-nodes.yaml
find status=up
quit
END

# run FORMAT: runs the session with -F FORMAT; the JSON lines (everything
# but the INFO blocks) go to FORMAT.json, stderr to FORMAT.err.
run() {
    "$RQ" -L "$SRC/conf/tiny.graphml" -F "$1" <cmds >"$1.out" 2>"$1.err"
    expect_eq "$1: exit status" 0 "$?"
    grep -v '^INFO:' "$1.out" >"$1.json"
}

# check_parses FORMAT: each line of FORMAT.json, on its own, parses with
# both tools (json.tool --json-lines and jq's fromjson read line by line).
check_parses() {
    python3 -m json.tool --json-lines "$1.json" >/dev/null 2>"$1.python" ||
        fail "$1: not one JSON document per line for python3: $(cat "$1.python")"
    jq -R 'fromjson' "$1.json" >/dev/null 2>"$1.jq" ||
        fail "$1: not one JSON document per line for jq: $(cat "$1.jq")"
}

# query FORMAT LINE FILTER: jq's raw output of FILTER on line LINE.
query() {
    sed -n "$2p" "$1.json" | jq -r "$3" 2>&1
}

# compact FORMAT LINE [FILTER]: jq's compact output of FILTER (default:
# the whole document) on line LINE.
compact() {
    sed -n "$2p" "$1.json" | jq -c "${3:-.}" 2>&1
}

for format in jgf jgf_shorthand rlite rv1 rv1_nosched rv1_shorthand; do
    run "$format"
    check_parses "$format"
done

# Three documents each: the two matches and the find. The failed match
# prints nothing, except rlite's error (an empty R_lite is invalid).
for format in jgf jgf_shorthand rlite rv1 rv1_nosched rv1_shorthand; do
    expect_eq "$format: number of documents" 3 "$(wc -l <"$format.json" | tr -d ' ')"
done
for format in jgf jgf_shorthand rv1 rv1_nosched rv1_shorthand; do
    expect_eq "$format: stderr" "" "$(cat "$format.err")"
done
expect_eq "rlite: stderr" "match_allocate: ERROR: match writer emit: Invalid argument" "$(cat rlite.err)"

# jgf: the exclusive node comes with everything below it, pools print the
# allocated amount as size.
expect_eq "jgf: top-level keys" "graph" "$(query jgf 1 'keys_unsorted | join(",")')"
expect_eq "jgf: cores of the exclusive node" 16 \
    "$(query jgf 1 '[.graph.nodes[] | select(.metadata.type == "core")] | length')"
expect_eq "jgf: one edge per vertex but the root" \
    "$(query jgf 1 '.graph.nodes | length - 1')" "$(query jgf 1 '.graph.edges | length')"
expect_eq "jgf: metadata key order of a core" "type,id,rank,exclusive,paths" \
    "$(query jgf 1 '[.graph.nodes[] | select(.metadata.type == "core")][0].metadata | keys_unsorted | join(",")')"
expect_eq "jgf: the cluster shows its basename" "tiny" \
    "$(query jgf 1 '.graph.nodes[] | select(.metadata.type == "cluster") | .metadata.basename')"

# jgf_shorthand: nothing below the exclusive node, and the writer tag,
# which stays for the rest of the session.
expect_eq "jgf_shorthand: no cores below an exclusive node" 0 \
    "$(query jgf_shorthand 1 '[.graph.nodes[] | select(.metadata.type == "core")] | length')"
expect_eq "jgf_shorthand: writer tag" "fluxion:jgf_shorthand" "$(query jgf_shorthand 1 '.writer')"
expect_eq "jgf_shorthand: writer tag sticks" "fluxion:jgf_shorthand" "$(query jgf_shorthand 2 '.writer')"

# rlite: one entry per distinct set of children.
expect_eq "rlite: first job" '[{"rank": "1", "children": {"core": "0-15", "gpu": "0-1"}}]' \
    "$(sed -n 1p rlite.json)"
expect_eq "rlite: find of the whole system" "0-1" "$(query rlite 3 '.[0].rank')"

# rv1 family: the execution part, the queue, and the scheduling part.
expect_eq "rv1_nosched: keys" "version,execution,attributes" \
    "$(query rv1_nosched 1 'keys_unsorted | join(",")')"
expect_eq "rv1_nosched: execution keys" "R_lite,nodelist,starttime,expiration" \
    "$(query rv1_nosched 1 '.execution | keys_unsorted | join(",")')"
expect_eq "rv1_nosched: queue" "debug" "$(query rv1_nosched 1 '.attributes.system.scheduler.queue')"
expect_eq "rv1_nosched: expiration" 600 "$(query rv1_nosched 1 '.execution.expiration')"
expect_eq "rv1_nosched: find nodelist" "node[0-1]" "$(query rv1_nosched 3 '.execution.nodelist[0]')"
expect_eq "rv1_nosched: find times" "0 0" "$(query rv1_nosched 3 '"\(.execution.starttime) \(.execution.expiration)"')"
expect_eq "rv1: keys" "version,execution,scheduling,attributes" "$(query rv1 1 'keys_unsorted | join(",")')"
expect_eq "rv1: scheduling is the jgf document" "$(compact jgf 2)" "$(compact rv1 2 .scheduling)"
expect_eq "rv1_shorthand: scheduling is the jgf_shorthand document" \
    "$(compact jgf_shorthand 1)" "$(compact rv1_shorthand 1 .scheduling)"

finish
