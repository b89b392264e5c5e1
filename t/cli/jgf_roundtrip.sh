# JGF round trip on the Sierra-sized recipe: match one whole node with
# -F jgf, load that output again with -f jgf, match the same job there: the
# second document must be the first one, vertex for vertex and edge for
# edge. The only thing that may differ is `unit`, which the JGF reader drops
# like the reference's (spec/readers.md; resource/jgf_reader.cc).
. "$(dirname "$0")/lib.sh"

job="$SRC/t/data/jobspecs/whole-node.yaml"
printf 'match allocate %s\nquit\n' "$job" | "$RQ" -L "$SRC/conf/sierra.graphml" -F jgf -d >first.out 2>err ||
    fail "match on sierra: $(cat err)"
grep '^{' first.out >first.json
[ -s first.json ] || fail "no JGF document in: $(head -c 300 first.out)"

out=$(echo quit | "$RQ" -L first.json -f jgf -e -d 2>err) || fail "loading the JGF output: $(cat err)"
nodes=$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["graph"]; print(len(g["nodes"]), len(g["edges"]))' first.json)
expect_contains "vertex count of the reloaded graph" "INFO: Vertex Count: ${nodes% *}" "$out"
expect_contains "edge count of the reloaded graph" "INFO: Edge Count: ${nodes#* }" "$out"

printf 'match allocate %s\nquit\n' "$job" | "$RQ" -L first.json -f jgf -F jgf -d >second.out 2>err ||
    fail "match on the reloaded graph: $(cat err)"
grep '^{' second.out >second.json

python3 - first.json second.json >diff.txt 2>&1 <<'EOF' || fail "round trip differs: $(head -c 600 diff.txt)"
import json, sys
first, second = (json.load(open(p))["graph"] for p in sys.argv[1:3])
for node in first["nodes"]:
    node["metadata"].pop("unit", None)
by_id = lambda g: {n["id"]: n for n in g["nodes"]}
edges = lambda g: sorted((e["source"], e["target"], json.dumps(e.get("metadata"), sort_keys=True)) for e in g["edges"])
a, b = by_id(first), by_id(second)
if len(a) < 2 or a != b:
    missing = sorted(set(a) ^ set(b))[:5]
    changed = [k for k in a if k in b and a[k] != b[k]][:2]
    sys.exit("vertices: only in one of them %s; changed %s" % (missing, [(a[k], b[k]) for k in changed]))
if edges(first) != edges(second):
    sys.exit("edges differ")
EOF
finish
