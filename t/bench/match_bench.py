#!/usr/bin/env python3
"""One command for the whole performance table (matching per policy, memory
per job, the El Capitan-sized recipe, loading, wide fan-out, mass removal),
for our binary and for any other binary given with --vs, so the rows line up.

    python3 t/bench/match_bench.py --bin build/bin/resource-query
    python3 t/bench/match_bench.py --bin build/bin/resource-query --vs /path/to/other --quick
    python3 t/bench/match_bench.py --bin ... --rows p256-first,mem4096,fanout,remove

Rows (--rows takes a comma list of names or prefixes, e.g. `p256` or `elcap`):
  p256-POLICY   256x32 nodes, 4,096 one-core jobs, each policy
  p1024-POLICY  1,024x32 nodes, 4,096 one-core jobs, each ID-based policy
  p4096-POLICY  4,096x32 nodes, 4,096 one-core jobs, each ID-based policy
                (the *nodex policies place one job per node: at 256 and
                1,024 nodes the rest are failed matches, timed too)
  eshapeN-POLICY  the El Capitan recipe cut to fewer racks (same node shape,
                same rack level: cluster -> 18-node racks -> 2 sockets x
                (22 cores + 2 memory), 4 gpus, 25 bb, the same storage
                racks); N = 252, 1026, 4104 nodes (14, 57, 228 racks), for
                every ID-based policy, with the job counts of the elcap
                rows (the *nodex policies: at most one job a node): next
                to elcap-POLICY (16,398 nodes), time per match against
                machine size for a fixed node shape. The
                recipes are generated from elcap.graphml (its rack count
                changed) in a temporary directory.
  mem4096       4,096x32 nodes, 131,072 one-core jobs, `first`: peak memory
  elcap-first   El Capitan-sized recipe (../shared/bench), 1-core jobs, `first`
  elcap-high    same, `high` (1/10 of the jobs of elcap-first)
  elcap-POLICY  same, each other ID-based policy (as many jobs as elcap-first)
  elcap-load    load of the El Capitan-sized recipe: time and peak RSS
  fanout        load of one node with 100,000 sockets
  remove        `remove 0-24999 false` on 25,000 ranks (time of the removal)

Columns: jobs matched / asked, average match time (from -e), the first
match's time and the average of the others (one-time work, such as the
ordered index of high/low/hinode/lonode, lands in the first), wall time of
the run, peak RSS of that process, and a digest (sha256 of the -t output,
12 hex digits, without the -e timing lines): equal digests mean byte-identical outputs across binaries.
--quick cuts the job counts (digests then differ from full runs).
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from resource_bench import JOBSPEC, RECIPE  # noqa: E402

TIME = "/usr/bin/time"  # GNU time (Debian package `time`)
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "bench"))
POLICIES = ["first", "high", "low", "hinode", "lonode", "hinodex", "lonodex", "firstnodex", "locality",
            "variation"]
# The policies that rank candidates by id (docs/matching.md "Ordered selection").
ID_POLICIES = ["first", "high", "low", "hinode", "lonode", "hinodex", "lonodex", "firstnodex"]
# The eshapeN rows: El Capitan's node shape at fewer racks (racks of 18 nodes).
ESHAPE_RACKS = [14, 57, 228]
ESHAPE_POLICIES = ["first", "high", "low", "hinode", "lonode", "hinodex", "lonodex", "firstnodex"]

FAN_RECIPE = RECIPE.replace(
    '<edge source="cluster" target="node"><data key="multi_scale">{nodes}</data></edge>\n'
    '    <edge source="node" target="core"><data key="multi_scale">32</data></edge>',
    '<edge source="cluster" target="node"><data key="multi_scale">1</data></edge>\n'
    '    <edge source="node" target="core"><data key="multi_scale">{nodes}</data></edge>')


def measure(argv, stdin_text):
    """Runs argv; returns (stdout, wall seconds, peak RSS MB of that child).

    The peak comes from /usr/bin/time (its own small fork): a child forked
    by this script would start from Python's high-water mark, which
    inflates the figure of small runs. Our binary's -e timings are those
    of the ordered walk users get without -e (RQ_ORDERED_VISIT_COUNTS);
    other binaries ignore the variable.
    """
    env = dict(os.environ, RQ_ORDERED_VISIT_COUNTS="1")
    with tempfile.TemporaryFile("w+") as cin, tempfile.TemporaryFile("w+") as cout, \
            tempfile.NamedTemporaryFile("r") as peak_file:
        cin.write(stdin_text)
        cin.seek(0)
        start = time.monotonic()
        subprocess.run([TIME, "-f", "%M", "-o", peak_file.name] + argv, stdin=cin, stdout=cout,
                       stderr=subprocess.DEVNULL, env=env)
        wall = time.monotonic() - start
        cout.seek(0)
        peak = peak_file.read().strip().splitlines()
        return cout.read(), wall, float(peak[-1]) / 1024.0 if peak else float("nan")


def digest(path):
    # -e timing lines (ELAPSE, match/overhead seconds) differ run to run.
    with open(path) as f:
        text = re.sub(r"^INFO: ELAPSE=.*\n", "", f.read(), flags=re.M)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def match_row(binary, work, recipe, jobspec, policy, jobs, prelude=""):
    out_file = os.path.join(work, "out.txt")
    commands = prelude + ("match allocate %s\n" % jobspec) * jobs + "quit\n"
    out, wall, peak = measure([binary, "-L", recipe, "-P", policy, "-e",
                               "-d", "-t", out_file], commands)
    elapses = [float(x) for x in re.findall(r"^INFO: ELAPSE=([0-9.]+)$", out, re.M)]
    with open(out_file) as f:
        matched = len(re.findall(r"^INFO: RESOURCES=ALLOCATED$", f.read(), re.M))
    rest = elapses[1:]
    split = "%.0fus / %.1fus" % (1e6 * elapses[0], 1e6 * sum(rest) / len(rest)) if rest else "-"
    return {"jobs": "%d/%d" % (matched, jobs), "avg": "%.1fus" % (1e6 * sum(elapses) / max(len(elapses), 1)),
            "split": split, "wall": "%.2fs" % wall, "peak": "%.1fMB" % peak, "digest": digest(out_file)}


def load_row(binary, recipe):
    out, wall, peak = measure([binary, "-L", recipe, "-e", "-d"], "quit\n")
    load = re.search(r"^INFO: Graph Load Time: (\S+)$", out, re.M)
    counts = "%s v" % (re.search(r"^INFO: Vertex Count: (\d+)$", out, re.M) or [None, "?"])[1]
    return {"jobs": counts, "avg": "load %.3fs" % float(load.group(1)) if load else "-",
            "wall": "%.2fs" % wall, "peak": "%.1fMB" % peak,
            "digest": hashlib.sha256(re.sub(r"Graph Load Time: \S+", "", out).encode()).hexdigest()[:12]}


def remove_row(binary, work, recipe, jobspec):
    # Time of the removal alone: the same session with and without it.
    out_file = os.path.join(work, "out.txt")
    tail = "match allocate %s\n" % jobspec * 3 + "quit\n"
    _, base, _ = measure([binary, "-L", recipe, "-d", "-t", os.devnull], tail)
    _, wall, peak = measure([binary, "-L", recipe, "-d", "-t", out_file], "remove 0-24999 false\n" + tail)
    return {"jobs": "25000 ranks", "avg": "remove %.3fs" % max(wall - base, 0.0), "wall": "%.2fs" % wall,
            "peak": "%.1fMB" % peak, "digest": digest(out_file)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="our resource-query")
    ap.add_argument("--vs", action="append", default=[], help="another resource-query to compare (repeatable)")
    ap.add_argument("--rows", default="", help="comma list of row names or prefixes (default: all)")
    ap.add_argument("--quick", action="store_true", help="fewer jobs per row (for a fast look)")
    ap.add_argument("--elcap-jobs", type=int, default=0, help="jobs for elcap-first (elcap-high takes 1/10)")
    ap.add_argument("--shared", default=SHARED, help="directory of elcap.graphml and core-in-socket.yaml")
    args = ap.parse_args()

    p256_jobs = 512 if args.quick else 4096
    scale_jobs = 512 if args.quick else 4096  # p1024 and p4096
    mem_jobs = 16384 if args.quick else 131072
    elcap_first = args.elcap_jobs or (100 if args.quick else 1000)
    elcap_high = max(elcap_first // 10, 1)
    elcap = os.path.join(args.shared, "elcap.graphml")

    def eshape_jobs(policy, nodes):
        # The *nodex policies take a node a job: no more jobs than nodes, so
        # that every timed match is a successful one.
        if policy == "high":
            return elcap_high
        return min(elcap_first, nodes) if policy.endswith("nodex") else elcap_first
    elcap_job = os.path.join(args.shared, "core-in-socket.yaml")

    with tempfile.TemporaryDirectory(prefix="match-bench.") as work:
        def write(name, text):
            path = os.path.join(work, name)
            with open(path, "w") as f:
                f.write(text)
            return path
        job = write("job.yaml", JOBSPEC)
        r256 = write("n256.graphml", RECIPE.format(nodes=256))
        r1024 = write("n1024.graphml", RECIPE.format(nodes=1024))
        r4096 = write("n4096.graphml", RECIPE.format(nodes=4096))
        fan = write("fan.graphml", FAN_RECIPE.format(nodes=100000))
        ranks = write("ranks.graphml", RECIPE.format(nodes=25000).replace(
            '<data key="multi_scale">32</data>', '<data key="multi_scale">4</data>'))

        rows = [("p256-" + p, lambda b, p=p: match_row(b, work, r256, job, p, p256_jobs)) for p in POLICIES]
        for size, recipe in (("p1024-", r1024), ("p4096-", r4096)):
            rows += [(size + p, lambda b, p=p, r=recipe: match_row(b, work, r, job, p, scale_jobs))
                     for p in ID_POLICIES]
        elcap_text = open(elcap).read() if os.path.exists(elcap) else ""
        for racks in ESHAPE_RACKS:
            shaped = write("eshape%d.graphml" % racks, elcap_text.replace(
                '<data key="multi_scale">911</data>', '<data key="multi_scale">%d</data>' % racks))
            rows += [("eshape%d-%s" % (18 * racks, p),
                      lambda b, p=p, r=shaped, n=18 * racks: match_row(b, work, r, elcap_job, p, eshape_jobs(p, n)))
                     for p in ESHAPE_POLICIES]
        rows += [("mem4096", lambda b: match_row(b, work, r4096, job, "first", mem_jobs)),
                 ("elcap-first", lambda b: match_row(b, work, elcap, elcap_job, "first", elcap_first)),
                 ("elcap-high", lambda b: match_row(b, work, elcap, elcap_job, "high", elcap_high))]
        rows += [("elcap-" + p, lambda b, p=p: match_row(b, work, elcap, elcap_job, p, elcap_first))
                 for p in ID_POLICIES if p not in ("first", "high")]
        rows += [("elcap-load", lambda b: load_row(b, elcap)),
                 ("fanout", lambda b: load_row(b, fan)),
                 ("remove", lambda b: remove_row(b, work, ranks, job))]
        wanted = [w for w in args.rows.split(",") if w]
        if wanted:
            rows = [r for r in rows if any(r[0] == w or r[0].startswith(w) for w in wanted)]
        binaries = [("ours", args.bin)] + [("vs%d" % (i + 1), b) for i, b in enumerate(args.vs)]
        for label, b in binaries[1:]:
            print("%s = %s" % (label, b))
        print("%-16s %-5s %14s %16s %18s %9s %10s  %s" % ("row", "bin", "jobs", "avg match", "1st / rest",
                                                          "wall", "peak RSS", "digest"))
        for name, run in rows:
            for label, b in binaries:
                if name.startswith(("elcap", "eshape")) and not os.path.exists(elcap):
                    print("%-16s %-5s  (missing %s)" % (name, label, elcap))
                    continue
                try:
                    r = run(b)
                except Exception as e:  # one failing binary should not hide the others
                    print("%-16s %-5s  failed: %s" % (name, label, e))
                    continue
                print("%-16s %-5s %14s %16s %18s %9s %10s  %s" % (name, label, r["jobs"], r["avg"],
                                                                  r.get("split", "-"), r["wall"], r["peak"],
                                                                  r["digest"]))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
