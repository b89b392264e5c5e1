# grug2dot renders every recipe (ours and the conformance suite's), and the
# output is valid Graphviz.
. "$(dirname "$0")/lib.sh"
G2D="$BIN/grug2dot"

if ! command -v dot >/dev/null 2>&1; then
    echo "graphviz dot not installed"
    exit 77
fi
recipes="$SRC/conf/*"
[ -d "$SHARED/conformance/data/grugs" ] && recipes="$recipes $(find "$SHARED/conformance/data/grugs" -name '*.graphml')"
for f in $recipes; do
    for more in "" --more; do
        rm -f ./*.dot
        "$G2D" $more "$f" 2>err || { fail "grug2dot $more $f: $(cat err)"; continue; }
        stem=$(basename "$f")
        stem=${stem%.*}
        [ -f "$stem.dot" ] || { fail "grug2dot $more $f wrote no $stem.dot"; continue; }
        dot -Tsvg "$stem.dot" >out.svg 2>err || fail "dot -Tsvg $stem.dot ($more): $(cat err)"
    done
done

"$G2D" "$SRC/conf/tiny.graphml"
expect_eq "tiny.dot" 'digraph G {
0[label="tiny"];
1[label="rack"];
2[label="node"];
3[label="socket"];
4[label="core"];
5[label="gpu"];
6[label="memory"];
0->1 [label="contains"];
1->2 [label="contains"];
2->3 [label="contains"];
3->4 [label="contains"];
3->5 [label="contains"];
3->6 [label="contains"];
}' "$(cat tiny.dot)"
"$G2D" --more "$SRC/conf/tiny.graphml"
expect_contains "--more vertex label" '6[label="containment:memory:4"];' "$(cat tiny.dot)"
expect_contains "--more edge label" '3->4 [label="contains:MULTIPLY:8"];' "$(cat tiny.dot)"

"$G2D" >/dev/null 2>&1; expect_eq "no argument exits 1" 1 $?
"$G2D" -h >/dev/null 2>&1; expect_eq "-h exits 0" 0 $?
"$G2D" nope.graphml 2>err; expect_eq "unreadable exits 255" 255 $?
expect_eq "unreadable message" "Error in reading nope.graphml" "$(cat err)"
finish
