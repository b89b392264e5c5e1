#!/usr/bin/env python3
"""Load-time and memory benchmark: how long resource-query takes to load a
GRUG recipe, and its peak resident memory once the graph and the pruning
filters are in place.

    python3 t/bench/load_bench.py --bin build/bin/resource-query
    python3 t/bench/load_bench.py --bin ... --recipe conf/sierra.graphml --runs 5

Prints, per recipe: vertices, edges, the load time reported by `-e`
(min and median of the runs), wall time of the whole start-up, peak RSS and
peak RSS per vertex.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_RECIPE = os.path.join(HERE, "..", "..", "conf", "sierra.graphml")


def one_run(binary, recipe):
    start = time.monotonic()
    proc = subprocess.run([binary, "-L", recipe, "-e", "-d"], input="quit\n", stdout=subprocess.PIPE,
                          universal_newlines=True, check=True)
    wall = time.monotonic() - start
    load = float(re.search(r"^INFO: Graph Load Time: (\S+)$", proc.stdout, re.M).group(1))
    vertices = int(re.search(r"^INFO: Vertex Count: (\d+)$", proc.stdout, re.M).group(1))
    edges = int(re.search(r"^INFO: Edge Count: (\d+)$", proc.stdout, re.M).group(1))
    return load, wall, vertices, edges


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--recipe", action="append", help="GRUG recipe(s); default conf/sierra.graphml")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    recipes = args.recipe or [DEFAULT_RECIPE]
    print("%-28s %9s %9s %10s %10s %10s %9s %9s" % ("recipe", "vertices", "edges", "load min", "load med",
                                                      "wall med", "peak RSS", "B/vertex"))
    for recipe in recipes:
        # Each recipe in its own child process tree: ru_maxrss of
        # RUSAGE_CHILDREN is the largest child so far, so measure a recipe
        # in a fresh interpreter to keep the figures apart.
        if len(recipes) > 1:
            subprocess.run([sys.executable, __file__, "--bin", args.bin, "--recipe", recipe, "--runs",
                            str(args.runs)], check=True)
            continue
        loads, walls = [], []
        for _ in range(args.runs):
            load, wall, vertices, edges = one_run(args.bin, recipe)
            loads.append(load)
            walls.append(wall)
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print("%-28s %9d %9d %9.3fs %9.3fs %9.3fs %7.1fMB %9.0f" % (
            os.path.basename(recipe), vertices, edges, min(loads), statistics.median(loads),
            statistics.median(walls), peak_kb / 1024.0, peak_kb * 1024.0 / vertices))


if __name__ == "__main__":
    main()
