# Loading recipes: every recipe of ours and of the conformance suite loads;
# bad recipes fail with one clear line and exit 1; -g/-o write the graph.
. "$(dirname "$0")/lib.sh"

for f in "$SRC"/conf/*; do
    echo quit | "$RQ" -L "$f" -d >/dev/null 2>err || fail "conf recipe $f: $(cat err)"
done
if [ -d "$SHARED/conformance/data/grugs" ]; then
    for f in $(find "$SHARED/conformance/data/grugs" -name '*.graphml'); do
        echo quit | "$RQ" -L "$f" -d >/dev/null 2>err || fail "conformance recipe $f: $(cat err)"
    done
fi

# end of input without quit exits 0
"$RQ" -L "$SRC/conf/tiny.graphml" </dev/null >/dev/null 2>&1 || fail "EOF does not exit 0"

# malformed XML: one line, where and what, exit 1
printf '<graphml>\n<graph>' >broken.graphml
"$RQ" -L broken.graphml </dev/null >/dev/null 2>err; status=$?
expect_eq "malformed XML exit" 1 "$status"
printf 'resource-query: broken.graphml:2: malformed XML: unexpected end of data\n' >want
cmp -s want err || fail "malformed XML message: $(od -c err | head -8)"

# a value the reference cannot read: file, line, element and key
sed 's|<data key="multi_scale">8</data>|<data key="multi_scale">8x</data>|' "$SRC/conf/tiny.graphml" >value.graphml
"$RQ" -L value.graphml </dev/null >/dev/null 2>err; status=$?
expect_eq "bad value exit" 1 "$status"
line=$(grep -n '8x' value.graphml | cut -d: -f1)
expect_eq "bad value message" "resource-query: value.graphml:$line: edge \"socket->core\": key \"multi_scale\": \"8x\" is not an integer" "$(cat err)"

# a negative size is refused (the reference accepts it)
sed 's|<data key="size">4</data>|<data key="size">-4</data>|' "$SRC/conf/tiny.graphml" >negative.graphml
"$RQ" -L negative.graphml </dev/null >/dev/null 2>err; status=$?
expect_eq "negative size exit" 1 "$status"
line=$(grep -n '>-4<' negative.graphml | cut -d: -f1)
expect_contains "negative size message" "negative.graphml:$line: node \"memory\": key \"size\": -4 is negative; a size is 0 or more" "$(cat err)"

# a recipe with an unknown generation method names the file and the edge
sed 's|<edge source="rack" target="node">|<edge id="r2n" source="rack" target="node"><data key="gen_method">CLONE</data>|' \
    "$SRC/conf/tiny.graphml" >clone.graphml
"$RQ" -L clone.graphml </dev/null >/dev/null 2>err; status=$?
expect_eq "unknown gen_method exit" 1 "$status"
expect_contains "unknown gen_method message" "clone.graphml: edge \"r2n\": unknown gen_method \"CLONE\"" "$(cat err)"

# a recipe far too big is refused at once with its vertex count and memory
# estimate (the reference runs out of memory, or appears to hang)
sed 's|<edge source="rack" target="node"><data key="id_scope">1</data><data key="multi_scale">2</data>|<edge source="rack" target="node"><data key="id_scope">1</data><data key="multi_scale">1000000</data>|; s|<edge source="socket" target="core"><data key="id_scope">1</data><data key="multi_scale">8</data>|<edge source="socket" target="core"><data key="id_scope">1</data><data key="multi_scale">1000000</data>|' \
    "$SRC/conf/tiny.graphml" >huge.graphml
"$RQ" -L huge.graphml </dev/null >/dev/null 2>err; status=$?
expect_eq "huge recipe exit" 1 "$status"
expect_contains "huge recipe message" "resource-query: the recipe would generate 2,000,009,000,002 vertices, about 745061.4 GiB of memory (400 bytes per vertex): more than the limit of 2,000,000,000 vertices" "$(cat err)"
expect_contains "huge recipe names the file" ": huge.graphml: cannot be loaded as -f grug" "$(cat err)"

# -g graphml -o: the written graph has every vertex and edge
echo quit | "$RQ" -L "$SRC/conf/medium.graphml" -g graphml -o medium >/dev/null 2>&1 || fail "-g graphml"
expect_eq "graphml vertices" 3781 "$(grep -c '<node ' medium.graphml)"
expect_eq "graphml edges" 3780 "$(grep -c '<edge ' medium.graphml)"
# the Sierra-sized recipe (grugs/sierra.graphml is not handed out; ours has
# the same shape) and the suite's medium recipe
echo quit | "$RQ" -L "$SRC/conf/sierra.graphml" -g graphml -o sierra >/dev/null 2>&1 || fail "-g graphml sierra"
expect_eq "sierra vertices" 350473 "$(grep -c '<node ' sierra.graphml)"
expect_eq "sierra edges" 350472 "$(grep -c '<edge ' sierra.graphml)"
rm -f sierra.graphml
if [ -f "$SHARED/conformance/data/grugs/medium.graphml" ]; then
    echo quit | "$RQ" -L "$SHARED/conformance/data/grugs/medium.graphml" -g graphml -o grugs-medium >/dev/null 2>&1 ||
        fail "-g graphml grugs/medium"
    expect_eq "grugs/medium vertices" 3533 "$(grep -c '<node ' grugs-medium.graphml)"
fi
echo quit | "$RQ" -L "$SRC/conf/tiny.graphml" -o tiny >/dev/null 2>&1 || fail "-o (dot)"
expect_eq "dot edges" 51 "$(grep -c -- '->' tiny.dot)"
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg tiny.dot >tiny.svg 2>err || fail "dot cannot render the -o output: $(cat err)"
fi

# -e start-up figures
out=$(echo quit | "$RQ" -L "$SRC/conf/tiny.graphml" -e)
expect_contains "-e vertex count" "INFO: Vertex Count: 52" "$out"
expect_contains "-e edge count" "INFO: Edge Count: 51" "$out"
expect_contains "-e ranks" "INFO: number of vertices with rank 1: 1" "$out"
finish
