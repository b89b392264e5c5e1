#!/bin/sh
# Errors that say what and where. Wherever the reference's text is kept
# byte for byte (and the conformance suite pins it), the detail follows on
# a line of its own, indented by two spaces, or goes to the stream the
# reference already uses for it (partial-cancel: stdout).
#
# usage: errors.sh BIN_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
tiny=$SRC/conf/tiny.graphml
core=$SRC/t/data/jobspecs/core.yaml
[ -x "$RQ" ] && [ -r "$tiny" ] || { echo "SKIP: $RQ or $tiny missing"; exit 77; }

startup_err() { "$RQ" "$@" </dev/null 2>&1 >/dev/null; }

# ---- -P: an unknown name lists the valid ones; a bad token is named --------------
err=$(startup_err -L "$tiny" -P hig)
expect_contains "-P unknown name: one line, the valid names" "resource-query: can't create matcher: -P \"hig\": unknown policy (valid: first, firstnodex, high," "$err"
err=$(startup_err -L "$tiny" -P "policy=high node_centrix=true")
expect_contains "-P bad token named" ': -P "policy=high node_centrix=true": unknown key in "node_centrix=true"' "$err"
# the reference would have run with policy=high and dropped the token
expect_eq "-P bad token: no session" "" "$(echo 'match allocate '"$core" | "$RQ" -L "$tiny" -P "policy=high node_centrix=true" 2>/dev/null)"

# ---- -S and -p ------------------------------------------------------------------------
err=$(startup_err -L "$tiny" -S CAX)
expect_contains "-S: the reference's line" "[ERROR] unknown selector for --match-subsystems: CAX" "$err"
expect_contains "-S: valid selectors" "  valid: ALL, C+IBA, C+IBBA, C+P+IBA, C+PA, C+PFS1BA, CA, IB+IBBA, IBA, IBBA, PA, PFS1BA, V+PFS1BA, VA" "$err"
err=$(startup_err -L "$tiny" -p ALLcore)
expect_eq "-p: one line, what and the valid types" \
    "resource-query: can't set pruning filters: -p \"ALLcore\": no ':' in \"ALLcore\" (a filter is HIGH:LOW, comma-separated, HIGH a type or ALL; types here: cluster, core, socket, gpu, node, rack, memory)" "$err"

# ---- -f jgf on a GraphML file names the file ---------------------------------------------
err=$(startup_err -L "$tiny" -f jgf)
expect_contains "-f jgf on GraphML: the reader's words" "resource-query: fetch_jgf: json_loads returned an error:" "$err"
expect_contains "-f jgf on GraphML: the file and a hint" ": $tiny: cannot be loaded as -f jgf; it looks like XML (a GraphML recipe: -f grug)" "$err"

# ---- remove of a path that names nothing ------------------------------------------------------
err=$(printf 'remove /nope true\n' | "$RQ" -L "$tiny" 2>&1 >/dev/null)
expect_eq "remove /nope" "ERROR: can't remove subgraph 
ERROR: remove_subgraph: ERROR: remove_subgraph error: no resource at path /nope
remove_subgraph: ERROR: traverser returned error: " "$err"

# ---- partial-cancel says why (on stdout; stderr keeps the reference's line) -----------------
printf 'match allocate %s\nmatch allocate %s\n' "$core" "$core" | "$RQ" -L "$tiny" -F jgf -t r.out >/dev/null 2>&1
grep '^{' r.out | sed -n 2p >second.json
printf 'match allocate %s\npartial-cancel 1 jgf second.json\n' "$core" | "$RQ" -L "$tiny" >out 2>err
expect_eq "partial-cancel: stderr" "ERROR: error encountered while removing job 1" "$(cat err)"
expect_contains "partial-cancel: why" "partial_cancel: no exclusivity span of job 1 on core15." "$(cat out)"
finish
