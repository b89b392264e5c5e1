# Option parsing and start-up errors (spec/cli.md §1).
. "$(dirname "$0")/lib.sh"

tiny="$SRC/conf/tiny.graphml"

out=$("$RQ" -h 2>&1); status=$?
expect_eq "-h exits 0" 0 "$status"
expect_contains "-h prints usage" "usage: resource-query" "$out"

check_usage_error() {  # WHAT EXPECTED_LINE ARGS...
    what=$1 line=$2
    shift 2
    err=$("$RQ" "$@" </dev/null 2>&1 >/dev/null); status=$?
    expect_eq "$what: exit status" 1 "$status"
    first=$(printf '%s\n' "$err" | head -n 1)
    expect_eq "$what: message" "$line" "$first"
    expect_contains "$what: usage follows" "usage: resource-query" "$err"
}

check_usage_error "missing load file" "[ERROR] file does not exist for --load-file: nope.graphml" -L nope.graphml
mkdir adir
check_usage_error "directory load file" "[ERROR] path passed to --load-file is a directory: adir" -L adir
check_usage_error "bad load format" "[ERROR] unknown format for --load-format: xml" -L "$tiny" -f xml
check_usage_error "bad match format" "[ERROR] unknown format for --match-format: yaml" -L "$tiny" -F yaml
check_usage_error "bad graph format" "[ERROR] unknown format for --graph-format: png" -L "$tiny" -g png

err=$("$RQ" -L "$tiny" extra </dev/null 2>&1 >/dev/null); status=$?
expect_eq "positional argument rejected" 1 "$status"
expect_contains "positional argument: usage" "usage: resource-query" "$err"

err=$("$RQ" -L "$tiny" -P "node_centric=true" </dev/null 2>&1 >/dev/null); status=$?
expect_eq "policy without high/low: exit" 1 "$status"
expect_eq "policy without high/low: message" 'resource-query: can'"'"'t create matcher: -P "node_centric=true": no policy=high or policy=low' \
    "$err"

err=$("$RQ" -L "$tiny" -p "ALL" </dev/null 2>&1 >/dev/null); status=$?
expect_eq "bad prune filter: exit" 1 "$status"
expect_eq "bad prune filter: message" \
    "resource-query: can't set pruning filters: -p \"ALL\": no ':' in \"ALL\" (a filter is HIGH:LOW, comma-separated, HIGH a type or ALL; types here: cluster, core, socket, gpu, node, rack, memory)" \
    "$err"

err=$("$RQ" -L "$tiny" -S PA </dev/null 2>&1 >/dev/null); status=$?
expect_eq "subsystem without root: exit" 1 "$status"
expect_eq "subsystem without root: message" \
    "resource-query: can't initialize traverser" "$err"

err=$("$RQ" -L "$tiny" -r 3000000 </dev/null 2>&1 >/dev/null); status=$?
expect_eq "reserve-vtx-vec out of range still runs" 0 "$status"
expect_eq "reserve-vtx-vec warning" "WARN: out of range specified for --reserve-vtx-vec: 3000000" "$err"

# lower-case selectors and every documented selector on the 5-subsystem recipe
for sel in CA ca IBA PA PFS1BA C+IBA C+PA C+PFS1BA IB+IBBA C+P+IBA ALL; do
    echo quit | "$RQ" -L "$SRC/conf/mini-5subsystems-fine.graphml" -S "$sel" >/dev/null 2>&1 ||
        fail "selector $sel on mini-5subsystems-fine"
done
finish
