# grug2dot renders every recipe (ours and the conformance suite's), and the
# output is valid Graphviz (the program: grug2dot/main.cc).
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

rm -f ./*.dot
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
"$G2D" --more "$SRC/conf/tiny.graphml" 2>err
expect_eq "an existing file is not replaced: exit" 255 $?
expect_eq "an existing file is not replaced: message" "Error in writing tiny.dot
  it already exists (--force replaces it)" "$(cat err)"
expect_contains "an existing file is not replaced: content" '0[label="tiny"];' "$(cat tiny.dot)"
"$G2D" --more --force "$SRC/conf/tiny.graphml"
expect_eq "--force replaces: exit" 0 $?
expect_contains "--more vertex label" '6[label="containment:memory:4"];' "$(cat tiny.dot)"
expect_contains "--more edge label" '3->4 [label="contains:MULTIPLY:8"];' "$(cat tiny.dot)"

# -o FILE (and -o - for stdout); the same refusal to replace a file.
"$G2D" -o picture.gv "$SRC/conf/tiny.graphml"
expect_eq "-o writes FILE" '0[label="tiny"];' "$(sed -n 2p picture.gv)"
"$G2D" --output=picture.gv "$SRC/conf/tiny.graphml" 2>/dev/null
expect_eq "-o FILE exists: exit" 255 $?
expect_eq "-o - writes stdout" "digraph G {" "$("$G2D" -o - "$SRC/conf/tiny.graphml" | head -n 1)"
"$G2D" -o no/such/dir.dot "$SRC/conf/tiny.graphml" 2>err
expect_eq "unwritable -o: message" "Error in writing no/such/dir.dot
  No such file or directory" "$(cat err)"

# Names with quotes, backslashes and line breaks still make valid DOT.
sed 's|<data key="basename">tiny</data>|<data key="basename">ti"ny\\</data>|; s|<data key="basename">rack</data>|<data key="basename">ra\\"ck\&#10;x</data>|' \
    "$SRC/conf/tiny.graphml" >odd.graphml
"$G2D" odd.graphml
expect_eq "quote and trailing backslash escaped" '0[label="ti\"ny\\"];' "$(sed -n 2p odd.dot)"
expect_eq "backslash-quote and line break escaped" '1[label="ra\\\"ck\nx"];' "$(sed -n 3p odd.dot)"
dot -Tsvg odd.dot >odd.svg 2>err || fail "dot rejects escaped names: $(cat err)"
"$G2D" -m -o odd-more.dot odd.graphml
dot -Tsvg odd-more.dot >odd.svg 2>err || fail "dot rejects escaped names (--more): $(cat err)"

"$G2D" >/dev/null 2>&1; expect_eq "no argument exits 1" 1 $?
"$G2D" -h >/dev/null 2>&1; expect_eq "-h exits 0" 0 $?
"$G2D" nope.graphml 2>err; expect_eq "unreadable exits 255" 255 $?
expect_eq "unreadable message" "Error in reading nope.graphml
  No such file or directory" "$(cat err)"
finish
