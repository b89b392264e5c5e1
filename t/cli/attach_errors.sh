#!/bin/sh
# attach failures (spec/cli.md §5.4): exact stderr bytes for every failure
# class, including the errno the reference leaves behind and the two empty
# lines after the reader's message.
#
# usage: attach_errors.sh BIN_DIR SOURCE_DIR
. "$(dirname "$0")/lib.sh"
graph=$SRC/conf/tiny.graphml
[ -x "$RQ" ] && [ -r "$graph" ] || { echo "SKIP: $RQ or $graph missing"; exit 77; }

node() {  # node JGF-ID BASENAME PATH
    printf '{"id": "%s", "metadata": {"type": "cluster", "basename": "%s", "id": 0, "rank": -1, "paths": {"containment": "%s"}}}' "$1" "$2" "$3"
}
printf '{"graph": {\n' >unparseable.json
printf '{"graph": {"nodes": [%s], "edges": [{"source": "0", "target": "99"}]}}\n' \
    "$(node 0 tiny /tiny0)" >bad-edge.json
printf '{"graph": {"nodes": [%s], "edges": []}}\n' "$(node 0 other /other0)" >duplicate-root.json
printf '{"graph": {"nodes": [%s, %s], "edges": []}}\n' \
    "$(node 0 tiny /tiny0)" "$(node 0 tiny /tiny0)" >repeated-id.json
mkdir directory.json

# attach_err FILE [EXTRA...]: stderr of one attach, as hex so every byte counts.
attach_err() {
    echo "attach $*" | "$RQ" -L "$graph" 2>&1 >/dev/null | od -An -c | tr -s ' \n' ' '
}
hex() { printf "$1" | od -An -c | tr -s ' \n' ' '; }

head="ERROR: can't attach JGF subgraph \nERROR: add_subgraph: ERROR: add subgraph error: "
reader="add_subgraph: ERROR: reader returned error: "

# The parser's own reason text is not jansson's; everything around it is pinned.
attach_err_unparseable() {
    echo "attach unparseable.json" | "$RQ" -L "$graph" 2>&1 >/dev/null |
        sed 's/returned an error: .*: <string>/returned an error: REASON: <string>/' | od -An -c | tr -s ' \n' ' '
}
expect_eq "unparseable JSON" \
    "$(hex "${head}Invalid argument\n${reader}fetch_jgf: json_loads returned an error: REASON: <string>@2:0.\n\n\n")" \
    "$(attach_err_unparseable)"
expect_eq "edge to an unknown vertex" \
    "$(hex "${head}Invalid argument\n${reader}unpack_edge: source and/or target vertex not found0 -> 99.\n\n\n")" \
    "$(attach_err bad-edge.json)"
expect_eq "duplicate root" \
    "$(hex "${head}Invalid argument\n${reader}add_graph_metadata: failed to add root metadata for containment subsystem. Possible duplicate root.\n\n\n")" \
    "$(attach_err duplicate-root.json)"
expect_eq "repeated JGF id on a reused vertex" \
    "$(hex "${head}Success\n${reader}update_vmap: can't insert into vmap for 0.\n\n\n")" \
    "$(attach_err repeated-id.json)"
expect_eq "unreadable file" "$(hex "ERROR: can't open nope.json\n")" "$(attach_err nope.json)"
expect_eq "a directory" "$(hex "ERROR: can't open directory.json\n")" "$(attach_err directory.json)"
expect_eq "extra token" "$(hex "ERROR: malformed command\n")" "$(attach_err repeated-id.json invalid-option)"
expect_eq "no file" "$(hex "ERROR: malformed command\n")" "$(attach_err)"
# A failed attach changes nothing (no vertex, edge, path or schedule entry
# of the elements before the failing one stays): the session answers
# exactly as one that never tried. Each document grows rack0 by a node9
# with a core, then fails: an edge to an unknown vertex, a second root, a
# child key clash (the new core's uniq_id is core0's), a malformed element.
grow() {  # grow LAST-NODE-ELEMENT LAST-EDGE
    printf '{"graph": {"nodes": [%s, %s, %s%s], "edges": [{"source": "1", "target": "90"}, {"source": "90", "target": "91"}%s]}}\n' \
        '{"id": "1", "metadata": {"type": "rack", "id": 0, "paths": {"containment": "/tiny0/rack0"}}}' \
        '{"id": "90", "metadata": {"type": "node", "id": 9, "rank": 9, "paths": {"containment": "/tiny0/rack0/node9"}}}' \
        "{\"id\": \"91\", \"metadata\": {\"type\": \"core\", \"id\": 0, \"rank\": 9, \"uniq_id\": $1, \"paths\": {\"containment\": \"/tiny0/rack0/node9/core0\"}}}" \
        "$2" "$3"
}
grow 91 '' ', {"source": "90", "target": "99"}' >grow-bad-edge.json
grow 91 ', {"id": "92", "metadata": {"type": "cluster", "paths": {"containment": "/other0"}}}' '' >grow-second-root.json
grow 91 ', {"id": "93", "metadata": {"type": "core", "id": 1, "rank": 9, "uniq_id": 91, "paths": {"containment": "/tiny0/rack0/node9/core1"}}}' \
    ', {"source": "90", "target": "93"}' >grow-key-clash.json
grow 91 ', {"id": "94"}' '' >grow-malformed.json
grow 91 '' '' >grow-fine.json
cat >node.yaml <<'YAML'
version: 1
resources:
  - type: node
    count: 1
    with:
      - type: core
        count: 1
tasks:
  - command: [ "app" ]
    slot: task
    count:
      per_slot: 1
attributes:
  system:
    duration: 3600
YAML
# Three one-node matches (tiny has two nodes, node9 would be a third), then
# what is up and what is allocated.
session() {  # session [ATTACHED-FILE]
    { [ $# -gt 0 ] && echo "attach $1"
      printf 'match allocate node.yaml\nmatch allocate node.yaml\nmatch allocate node.yaml\n'
      printf 'find status=up\nfind sched-now=allocated\nstat\n'; } | "$RQ" -L "$graph" 2>/dev/null | grep -v '^INFO: .*TIME'
}
untouched=$(session)
expect_contains "the baseline finds no third node" "No matching resources found" "$untouched"
for doc in grow-bad-edge grow-second-root grow-key-clash grow-malformed; do
    expect_eq "a failed attach ($doc) changes nothing" "$untouched" "$(session $doc.json)"
done
grown=$(session grow-fine.json)
expect_contains "the fine document grows the machine" "node9" "$grown"
finish
