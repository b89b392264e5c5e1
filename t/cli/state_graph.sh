# Resuming from the state file's graph rows (schema 4, state/graph_rows.h):
# on every recipe in conf/ and on JGF, rv1exec, hwloc XML, local hwloc
# and pool sources, a session that matched, attached, removed and changed
# status and properties is saved (whole, and whole then changes), resumed
# from a file whose saved source was blanked out (so the graph can only
# come from the rows), and must print what the uninterrupted session
# prints (find, matches in the -F format, list, ...), write the same -g
# graph in every format as a resume that re-parses the source and replays
# the journal, and keep rows_exact=1 throughout. A corrupt graph row is
# refused with one error naming the file and the row.
. "$(dirname "$0")/lib.sh"

J="$SRC/t/data/jobspecs"
C="$SHARED/conformance/data"
strip_times() { sed -E 's/^(INFO: [0-9]+, [A-Z]+, -?[0-9]+, [^,]*, ).*/\1T/; s/(Match Time: ).*/\1T/; s/(Load Time: ).*/\1T/'; }
sql() { python3 -c "import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); r=db.execute(sys.argv[2]).fetchone(); db.commit(); print(r[0] if r else '')" "$@"; }
meta() { sql "$1" "SELECT value FROM meta WHERE key='$2'"; }

# blank_source FILE: the saved source emptied (with its checksum).
blank_source() {
    python3 - "$1" <<'EOF'
import sqlite3, sys
h = 14695981039346656037
for _ in range(8):
    h = (h * 1099511628211) & (2**64 - 1)
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE source SET content = x''")
db.execute("UPDATE meta SET value = ? WHERE key = 'source_digest'", ("%016x" % h,))
db.commit()
EOF
}

# attach_doc GRAPH.json OUT.json: two copies of the first node's subtree
# under the same parent (node ids + 900 and + 901), as a JGF subgraph;
# prints the two new nodes' paths and the first node's path (nothing when
# the graph has no node).
attach_doc() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))["graph"]
nodes = {n["id"]: n for n in g["nodes"]}
kids = {}
for e in g["edges"]:
    if e.get("metadata", {}).get("subsystem", "containment") == "containment":
        kids.setdefault(e["source"], []).append(e["target"])
parent_of = {t: s for s, ts in kids.items() for t in ts}
all_nodes = [n for n in g["nodes"] if n["metadata"]["type"] == "node" and n["id"] in parent_of]
if not all_nodes:
    sys.exit(0)
top = all_nodes[0]["id"]
par = parent_of[top]
m = nodes[top]["metadata"]
pre = nodes[par]["metadata"]["paths"]["containment"]
old = m["name"]
order, stack = [], [top]
while stack:
    v = stack.pop()
    order.append(v)
    stack.extend(reversed(kids.get(v, [])))
out_nodes, out_edges, news = [nodes[par]], [], []
base = max(n["metadata"]["uniq_id"] for n in g["nodes"]) + 1000
for copy in (900, 901):
    new_id = m["id"] + copy
    new = m["basename"] + str(new_id)
    news.append(pre + "/" + new)
    ids = {v: str(base + i) for i, v in enumerate(order)}
    base += len(order)
    for v in order:
        md = dict(nodes[v]["metadata"])
        md["uniq_id"] = int(ids[v])
        path = md["paths"]["containment"]
        md["paths"] = {"containment": path.replace(pre + "/" + old, pre + "/" + new, 1)}
        if v == top:
            md["id"], md["name"] = new_id, new
            if md.get("rank", -1) >= 0:
                md["rank"] += copy
        out_nodes.append({"id": ids[v], "metadata": md})
        for c in kids.get(v, []):
            out_edges.append({"source": ids[v], "target": ids[c], "metadata": {"subsystem": "containment"}})
    out_edges.append({"source": par, "target": ids[top], "metadata": {"subsystem": "containment"}})
json.dump({"graph": {"nodes": out_nodes, "edges": out_edges}}, open(sys.argv[2], "w"))
print(news[0])
print(news[1])
print(m["paths"]["containment"])
EOF
}

# check NAME START-OPTIONS...: the stream below, cut after its first part.
check() {
    name=$1
    shift
    rm -rf s.db* c.db* j.db* g.* r.* q.* att.json
    echo quit | "$RQ" "$@" -d -g jgf -o g >/dev/null 2>&1
    paths=$(attach_doc g.json att.json 2>/dev/null)
    new=$(printf '%s\n' "$paths" | sed -n 1p) other=$(printf '%s\n' "$paths" | sed -n 2p) one=$(printf '%s\n' "$paths" | sed -n 3p)
    first="match allocate $J/core.yaml
match allocate $J/whole-node.yaml"
    if [ -n "$new" ]; then
        first="$first
attach att.json
set-status $new down
set-property $one color=red
remove $other true"
    fi
    first="$first
match allocate_orelse_reserve $J/node-socket-core.yaml
cancel 1"
    rest="find status=up
find status=down
find sched-now=allocated
match allocate $J/core.yaml
match allocate_orelse_reserve $J/whole-node.yaml
match allocate_orelse_reserve $J/whole-node.yaml
find sched-future=reserved
list
stat"
    [ -n "$new" ] && rest="$rest
get-property $one
set-status $new up
match allocate $J/whole-node.yaml
remove $new true
find status=up"
    whole=$(printf '%s\n%s\n' "$first" "$rest" | "$RQ" "$@" -d 2>&1 | strip_times)
    # --state: a journal from the first command (a session without it
    # records none until its first save), which j.db below replays.
    printf '%s\n' "$first" | "$RQ" "$@" -d --state s.db >/dev/null 2>&1
    printf '%s\nsave c.db\n%s\nsave c.db changes\n' "$(printf '%s\n' "$first" | sed -n 1p)" \
        "$(printf '%s\n' "$first" | sed 1d)" | "$RQ" "$@" -d >/dev/null 2>&1
    for f in s.db c.db; do
        expect_eq "$name: $f holds the session as rows" 1 "$(meta $f rows_exact)"
        expect_eq "$name: $f holds graph rows" 1 "$(sql $f 'SELECT count(*) FROM graph_count')"
    done
    cp s.db j.db
    sql j.db "UPDATE meta SET value = '0' WHERE key = 'rows_exact'" >/dev/null
    blank_source s.db
    blank_source c.db
    for f in s.db c.db; do
        resumed=$(printf '%s\n' "$rest" | "$RQ" -f db -L $f -d 2>&1 | strip_times)
        tail=$(printf '%s\n' "$whole" | tail -n "$(printf '%s\n' "$resumed" | wc -l)")
        expect_eq "$name: $f resumed from graph rows prints the uninterrupted run's tail" "$tail" "$resumed"
    done
    for format in dot graphml jgf; do
        echo quit | "$RQ" -f db -L s.db -d -g $format -o r >/dev/null 2>&1
        echo quit | "$RQ" -f db -L j.db -d -g $format -o q >/dev/null 2>&1
        ext=$format
        [ $format = jgf ] && ext=json
        if ! cmp -s r.$ext q.$ext || [ ! -s r.$ext ]; then fail "$name: -g $format of the rows differs from the replayed journal's"; fi
    done
}

for recipe in "$SRC"/conf/*.graphml; do
    # sierra makes a graph whose -g outputs take hundreds of MB: under the
    # sanitizers (.ci/run sets RQ_SANITIZED) that is minutes of CI for what
    # the Release run already checks.
    if [ -n "${RQ_SANITIZED:-}" ] && [ "$(basename "$recipe")" = sierra.graphml ]; then continue; fi
    check "$(basename "$recipe")" -L "$recipe" -P high
done
# jgf_shorthand and rv1_shorthand: their writer's "something was left out
# earlier in the session" flag resumes from meta writer_left_out.
for format in pretty_simple jgf jgf_shorthand rlite rv1 rv1_nosched rv1_shorthand; do
    check "tiny -F $format" -L "$SRC/conf/tiny.graphml" -P first -F $format
done
[ -f "$C/jgfs/4node.rank0123.nid0123.orig.json" ] && check "jgf" -f jgf -L "$C/jgfs/4node.rank0123.nid0123.orig.json"
[ -f "$C/rv1exec/tiny_rv1exec.json" ] && check "rv1exec" -f rv1exec -L "$C/rv1exec/tiny_rv1exec.json" -F rv1_nosched
[ -f "$C/hwloc-data/001N/amd_gpu/corona11.xml" ] && check "hwloc" -f hwloc -L "$C/hwloc-data/001N/amd_gpu/corona11.xml"
check "hwloc (this machine)" -f hwloc -W node,socket,core,pu
check "pools" --resource "gpus/nvidia=range(1-3)" --resource "cpus=range(0-3)"

# A corrupt graph row: one error naming the file and the row.
printf 'match allocate %s\nsave s.db\n' "$J/core.yaml" | "$RQ" -L "$SRC/conf/tiny.graphml" -d >/dev/null 2>&1
for edit in "UPDATE graph_vertex SET kind = kind + 1 WHERE v = (SELECT min(v) FROM graph_vertex WHERE v > 2)" \
    "UPDATE graph_vertex SET parent = 999999, digest = 0 WHERE v = (SELECT min(v) FROM graph_vertex WHERE v > 0)" \
    "DELETE FROM graph_vertex WHERE v = (SELECT max(v) FROM graph_vertex)" "UPDATE graph_type SET name = 'x' WHERE id = 2"; do
    cp s.db bad.db
    sql bad.db "$edit" >/dev/null
    out=$(echo list | "$RQ" -f db -L bad.db -d 2>&1)
    status=$?
    expect_eq "corrupt row ($edit): exit" 1 "$status"
    expect_contains "corrupt row ($edit): the file" "bad.db" "$out"
    expect_contains "corrupt row ($edit): the row" "graph_" "$out"
done
finish
