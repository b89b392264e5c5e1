# The allocation picture (docs/formats.md "A picture of the allocations"):
# two jobs allocated and one reserved, `dump FILE` and BASE.final.dot
# rendered by Graphviz, and in the SVG every vertex a job holds (the
# exclusive vertices of its R, -F jgf) carries its colour and "job N";
# no other vertex names a job. BASE.dot, the graph as loaded, is unchanged.
. "$(dirname "$0")/lib.sh"
command -v dot >/dev/null 2>&1 || { echo "skip: graphviz dot not installed (utilities/install-deps.sh)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 not found"; exit 77; }
J="$SRC/t/data/jobspecs"
TINY="$SRC/conf/tiny.graphml"

"$RQ" -L "$TINY" -g dot -o loaded </dev/null || fail "-g dot -o at load"
"$RQ" -L "$TINY" -P high -F jgf -t matches.out -g dot -o base >out 2>err <<EOF
match allocate $J/node-socket-core.yaml
match allocate $J/whole-node.yaml
match allocate_orelse_reserve $J/whole-node.yaml
dump jobs.dot
dump held.dot held
EOF
expect_eq "session exit" 0 $?
expect_eq "stderr" "" "$(cat err)"
expect_eq "dump says what it drew" "INFO: drew 52 vertices in jobs.dot
INFO: drew 52 vertices in held.dot" "$(grep '^INFO: drew' matches.out)"
expect_eq "BASE.dot is the graph as loaded, byte for byte" "$(cat loaded.dot)" "$(cat base.dot)"
expect_contains "BASE.dot is the plain picture" '0[label=tiny0];' "$(cat base.dot)"
expect_eq "BASE.final.dot: the allocations at the end" "$(cat jobs.dot)" "$(cat base.final.dot)"

dot -Tsvg -o jobs.svg jobs.dot 2>err || fail "dot -Tsvg rejects the picture: $(cat err)"
dot -Tpng -o jobs.png jobs.dot 2>err || fail "dot -Tpng rejects the picture: $(cat err)"
expect_eq "a PNG" "PNG" "$(head -c 4 jobs.png | tail -c 3)"

python3 - matches.out jobs.svg >check.txt 2>&1 <<'PY' || fail "SVG check: $(cat check.txt)"
import json, re, sys
import xml.etree.ElementTree as ET

# resource/allocation_dot.cc job_palette(): job N takes entry (N-1) mod 12.
PALETTE = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
           "#b3de69", "#fccde5", "#e5c494", "#bc80bd", "#ccebc5", "#ffed6f"]
colour = lambda job: PALETTE[(job - 1) % 12]

# Each match's R (-F jgf) comes before its INFO block: the vertices it
# holds are its exclusive ones (the shared ones it only passes through).
held, kind, pending = {}, {}, None
for line in open(sys.argv[1]):
    if line.startswith("{"):
        pending = {int(n["id"]) for n in json.loads(line)["graph"]["nodes"] if n["metadata"].get("exclusive")}
    elif line.startswith("INFO: JOBID="):
        job = int(line.split("=")[1])
        held[job] = pending
    elif line.startswith("INFO: RESOURCES="):
        kind[job] = line.strip().split("=")[1]
assert sorted(held) == [1, 2, 3], held
assert kind == {1: "ALLOCATED", 2: "ALLOCATED", 3: "RESERVED"}, kind
assert all(held.values()), held

svg = ET.parse(sys.argv[2]).getroot()
nodes = {}
for g in svg.iter("{http://www.w3.org/2000/svg}g"):
    if "node" not in g.get("class", "").split():
        continue
    shapes = [e for e in g.iter() if e.tag.endswith("polygon")]
    nodes[g.get("id")] = {
        "fills": {p.get("fill") for p in shapes} - {"none"},
        "strokes": {p.get("stroke") for p in shapes},
        "dashed": any(p.get("stroke-dasharray") for p in shapes),
        "texts": [t.text for t in g.iter() if t.tag.endswith("text")],
    }
problems = []
for job, vertices in held.items():
    word = "job %d" % job + (" (reserved)" if kind[job] == "RESERVED" else "")
    for v in vertices:
        n = nodes.get("v%d" % v)
        if n is None:
            problems.append("vertex %d of job %d not drawn" % (v, job))
            continue
        if word not in n["texts"]:
            problems.append("vertex %d: no '%s' in %s" % (v, word, n["texts"]))
        if kind[job] == "ALLOCATED" and colour(job) not in n["fills"]:
            problems.append("vertex %d: job %d's %s not in fills %s" % (v, job, colour(job), n["fills"]))
        if kind[job] == "RESERVED" and (colour(job) not in n["strokes"] or not n["dashed"]):
            problems.append("vertex %d: not dashed in job %d's colour: %s" % (v, job, n))
    named = [i for i, n in nodes.items() if i.startswith("v") and word in n["texts"]]
    if len(named) != len(vertices):
        problems.append("job %d: %d vertices say '%s', its R holds %d" % (job, len(named), word, len(vertices)))
all_held = set().union(*held.values())
for i, n in nodes.items():
    if i.startswith("v") and int(i[1:]) not in all_held:
        if any(t and t.startswith("job") for t in n["texts"]) or n["fills"] - {"white"}:
            problems.append("free vertex %s looks held: %s" % (i, n))
for job in held:
    legend = nodes.get("legend_job%d" % job)
    if legend is None or not legend["texts"][0].startswith("job %d" % job):
        problems.append("legend of job %d: %s" % (job, legend))
    elif kind[job] == "ALLOCATED" and legend["fills"] != {colour(job)}:
        problems.append("legend of job %d: fill %s" % (job, legend["fills"]))
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY

# Only the held vertices and their ancestors: here every vertex is under a
# job, so the same picture; with one job on node1, node0's subtree goes.
echo "match allocate $J/whole-node.yaml
dump one.dot held" | "$RQ" -L "$TINY" -P high >out 2>err
expect_eq "held: stderr" "" "$(cat err)"
expect_contains "held: vertices drawn" "INFO: drew 27 vertices in one.dot" "$(cat out)"
expect_eq "held: node0 is left out" "" "$(grep 'tooltip="/tiny0/rack0/node0"' one.dot)"
dot -Tsvg one.dot >/dev/null 2>err || fail "dot rejects the held picture: $(cat err)"

# Writes are checked: one line naming the file; the session goes on.
printf 'dump no/such/dir/x.dot\ndump /dev/full\ndump\ndump a.dot b\ndump a.dot held\n' |
    "$RQ" -L "$TINY" >out 2>err
expect_eq "write errors" "ERROR: dump: can't open no/such/dir/x.dot for writing: No such file or directory
ERROR: dump: error writing /dev/full: No space left on device
ERROR: malformed command
ERROR: malformed command" "$(cat err)"
expect_eq "the session goes on (held, no job: the legend alone)" "INFO: drew 0 vertices in a.dot" "$(cat out)"
expect_contains "no job: said in the legend" 'legend_none [label="no job holds a resource"' "$(cat a.dot)"

# BASE.final.dot unwritable at the end: one line, exit status 1.
mkdir gone
hold_session held.out -L "$TINY" -g dot -o gone/base
echo "dump probe.dot" >&3
wait_for held.out "INFO: drew"
rm -rf gone
exec 3>&-
wait "$holder"
expect_eq "unwritable BASE.final.dot: exit" 1 $?
expect_eq "unwritable BASE.final.dot: message" "INFO: drew 52 vertices in probe.dot
resource-query: can't open gone/base.final.dot for writing: No such file or directory" "$(cat held.out)"

# A replay ends with every job finished: BASE.final.dot draws none.
printf '; Version: 2.2\n1 0 -1 10 4 -1 -1 4 20 -1 1 7 1 -1 1 2 -1 -1\n' >one.swf
"$RQ" -L "$SRC/t/data/queue/two_nodes.graphml" --replay one.swf -g dot -o replayed >/dev/null 2>err
expect_eq "replay: exit" 0 $?
expect_eq "replay: stderr" "" "$(cat err)"
expect_contains "replay: BASE.final.dot, no job left" 'legend_none [label="no job holds a resource"' \
    "$(cat replayed.final.dot 2>&1)"

# Large graphs: written all the same, with a warning past 2000 vertices.
echo "dump medium.dot" | "$RQ" -L "$SRC/conf/medium.graphml" >out 2>err
expect_eq "large: warning" "WARNING: dump: medium.dot: 3781 vertices; Graphviz dot may take minutes to lay out more than 2000 (dump FILE held draws only the jobs' vertices and their ancestors)" "$(cat err)"
expect_eq "large: written" "INFO: drew 3781 vertices in medium.dot" "$(cat out)"
finish
