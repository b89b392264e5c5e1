# -g graphml round trip: a session on a recipe and a session on the graph
# it wrote with -g graphml, loaded back with -f graphml, answer the same
# commands with the same bytes (the graph, its vertex order, uniq_ids,
# units and child order are the same). The per-recipe graph comparison is
# the unit test resource/graphml_reader_test.cc; this checks the CLI path
# and behaviour on top of it.
. "$(dirname "$0")/lib.sh"

cmds() {
    for job in core node-socket-core whole-node core; do
        echo "match allocate $SRC/t/data/jobspecs/$job.yaml"
    done
    echo "match allocate_orelse_reserve $SRC/t/data/jobspecs/whole-node.yaml"
    echo "set-status /medium0/rack0/node1 down"
    echo "find status=down"
    echo "cancel 2"
    echo "match allocate $SRC/t/data/jobspecs/node-socket-core.yaml"
    echo "info 5"
    echo "quit"
}

for format in simple jgf rv1_nosched; do
    cmds | "$RQ" -L "$SRC/conf/medium.graphml" -F "$format" -g graphml -o medium >first.out 2>&1 ||
        fail "session on the recipe ($format): $(tail -3 first.out)"
    cmds | "$RQ" -L medium.graphml -f graphml -F "$format" >second.out 2>&1 ||
        fail "session on the written graph ($format): $(tail -3 second.out)"
    [ "$(grep -c 'INFO:' first.out)" -gt 10 ] || fail "the commands printed too little: $(head -c 300 first.out)"
    grep -q '^ERROR' first.out && fail "a command failed: $(grep '^ERROR' first.out | head -3)"
    # match times are measured
    for f in first second; do
        sed -e 's/^\(INFO: [0-9]*, [A-Z]*, [0-9-]*, [^,]*, \).*/\1T/' -e 's/\(Match Time: \).*/\1T/' $f.out >$f.masked
    done
    cmp -s first.masked second.masked || fail "-F $format: the outputs differ: $(diff first.masked second.masked | head -8)"
done

# The GRUG reader given such a graph, and -f graphml given a recipe: one
# error naming the file and the right format.
out=$(echo quit | "$RQ" -L medium.graphml 2>&1)
expect_contains "-f grug on a written graph" "medium.graphml: cannot be loaded as -f grug; it is a graph written by -g graphml: -f graphml" "$out"
out=$(echo quit | "$RQ" -L "$SRC/conf/tiny.graphml" -f graphml 2>&1)
expect_contains "-f graphml on a recipe" "tiny.graphml: a GRUG recipe (it declares e_subsystem), not a graph written by -g graphml: load it with -f grug" "$out"
printf '<graphml><graph><node id="n0"><data key="x">1</data></node>\n<edge source="n0"\n' >broken.graphml
out=$(echo quit | "$RQ" -L broken.graphml -f graphml 2>&1)
expect_contains "-f graphml on broken XML" "broken.graphml:1: node n0 has no type" "$out"
finish
