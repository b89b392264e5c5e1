#!/usr/bin/env python3
"""resource-bench: match-time figures in the shape of flux-sched's benchmark.

For each size N (nodes of 32 cores, one cluster) and each policy, feed
resource-query a stream of `match allocate` commands for a one-core job
(node[1]->slot[1]->core[1]) with -e timing, and print: jobs matched, average
and maximum match time (from the INFO: ELAPSE lines), total wall time and
peak memory of the process.

    python3 t/bench/resource_bench.py --bin build/bin/resource-query
    python3 t/bench/resource_bench.py --bin ... --sizes 256 --policies first
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

RECIPE = """<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="root" for="node" attr.name="root" attr.type="int"><default>0</default></key>
  <key id="type" for="node" attr.name="type" attr.type="string"/>
  <key id="basename" for="node" attr.name="basename" attr.type="string"/>
  <key id="size" for="node" attr.name="size" attr.type="long"><default>1</default></key>
  <key id="subsystem" for="node" attr.name="subsystem" attr.type="string"><default>containment</default></key>
  <key id="e_subsystem" for="edge" attr.name="e_subsystem" attr.type="string"><default>containment</default></key>
  <key id="id_scope" for="edge" attr.name="id_scope" attr.type="int"><default>0</default></key>
  <key id="id_start" for="edge" attr.name="id_start" attr.type="int"><default>0</default></key>
  <key id="id_stride" for="edge" attr.name="id_stride" attr.type="int"><default>1</default></key>
  <key id="gen_method" for="edge" attr.name="gen_method" attr.type="string"><default>MULTIPLY</default></key>
  <key id="multi_scale" for="edge" attr.name="multi_scale" attr.type="int"><default>1</default></key>
  <graph id="bench" edgedefault="directed">
    <node id="cluster"><data key="root">1</data><data key="type">cluster</data><data key="basename">bench</data></node>
    <node id="node"><data key="type">node</data><data key="basename">node</data></node>
    <node id="core"><data key="type">core</data><data key="basename">core</data></node>
    <edge source="cluster" target="node"><data key="multi_scale">{nodes}</data></edge>
    <edge source="node" target="core"><data key="multi_scale">32</data></edge>
  </graph>
</graphml>
"""

JOBSPEC = """version: 9999
resources:
  - type: node
    count: 1
    with:
      - type: slot
        count: 1
        label: default
        with:
          - type: core
            count: 1
tasks:
  - command: [ "app" ]
    slot: default
    count:
      per_slot: 1
attributes:
  system:
    duration: 3600
"""

# (nodes, jobs): the benchmark's three sizes
SIZES = {256: 4096, 1024: 16384, 4096: 131072}


def run(binary, workdir, nodes, jobs, policy):
    recipe = os.path.join(workdir, "bench-%d.graphml" % nodes)
    if not os.path.exists(recipe):
        with open(recipe, "w") as f:
            f.write(RECIPE.format(nodes=nodes))
    jobspec = os.path.join(workdir, "job.yaml")
    with open(jobspec, "w") as f:
        f.write(JOBSPEC)
    commands = ("match allocate %s\n" % jobspec) * jobs + "quit\n"
    out_file = os.path.join(workdir, "out-%d-%s.txt" % (nodes, policy))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    proc = subprocess.run([binary, "-L", recipe, "-P", policy, "-e", "-d", "-t", out_file],
                          input=commands, stdout=subprocess.PIPE, universal_newlines=True,
                          check=True)
    wall = time.monotonic() - start
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    elapses = [float(x) for x in re.findall(r"^INFO: ELAPSE=([0-9.]+)$", proc.stdout, re.M)]
    with open(out_file) as f:
        matched = len(re.findall(r"^INFO: RESOURCES=ALLOCATED$", f.read(), re.M))
    return {
        "matched": matched,
        "avg_us": 1e6 * sum(elapses) / max(len(elapses), 1),
        "max_us": 1e6 * max(elapses or [0]),
        "wall_s": wall,
        # ru_maxrss of RUSAGE_CHILDREN is the largest child so far: only
        # meaningful when it grew, so report the larger of the two
        "peak_mb": max(peak_kb, before) / 1024.0,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="path to resource-query")
    ap.add_argument("--sizes", default="256,1024,4096", help="node counts (of 256, 1024, 4096)")
    ap.add_argument("--policies", default="first,high,low,hinodex")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each case this many times and print the run with the median average "
                         "(shared machines are noisy)")
    ap.add_argument("--jobs", type=int, default=0,
                    help="cap the jobs per run (the policies that are not 'first' walk every free node "
                         "per match, so a full 4096x32 run takes hours)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    policies = args.policies.split(",")
    print("%-9s %-8s %8s %8s %12s %12s %10s %9s" % ("nodes", "policy", "jobs", "matched", "avg match",
                                                    "max match", "wall", "peak RSS"))
    with tempfile.TemporaryDirectory(prefix="resource-bench.") as workdir:
        # Sizes in increasing order, so each child's peak RSS is its own.
        for nodes in sorted(sizes):
            jobs = SIZES.get(nodes, nodes * 16)
            if args.jobs > 0:
                jobs = min(jobs, args.jobs)
            for policy in policies:
                runs = sorted((run(args.bin, workdir, nodes, jobs, policy) for _ in range(max(args.repeat, 1))),
                              key=lambda r: r["avg_us"])
                r = runs[len(runs) // 2]
                print("%-9s %-8s %8d %8d %10.1fus %10.1fus %9.2fs %7.1fMB" % (
                    "%dx32" % nodes, policy, jobs, r["matched"], r["avg_us"], r["max_us"], r["wall_s"],
                    r["peak_mb"]))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
