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
finish
