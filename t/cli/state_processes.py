#!/usr/bin/env python3
"""Randomized save/resume across processes (docs/state.md "How a
resumed session stays exact").

A stream of random commands (match allocate / allocate_orelse_reserve /
satisfiability of four jobspecs, cancel, set-status, set-property, and the
queries list, info, stat, find, allocated, available) runs twice:

* uninterrupted, in one resource-query process, with a `save` at every
  cut point (whole and `changes`, alternating) to its own file;
* cut, one process per segment: the first starts from the recipe, every
  later one resumes the file the previous one saved (`-f db -L s.db`),
  runs its segment and saves the same way.

The two outputs must be identical, measured match times masked (a
resumed process measures its own). Every resume of this stream comes from
the file's rows (meta rows_exact = 1; checked at each cut).

Usage: state_processes.py RESOURCE_QUERY RECIPE JOBSPEC_DIR WORKDIR SEED OPS
"""
import os
import random
import re
import sqlite3
import subprocess
import sys

SPECS = ["core.yaml", "node-socket-core.yaml", "whole-node.yaml", "too-big.yaml"]
NODES = ["/tiny0/rack0/node0", "/tiny0/rack0/node1"]


def commands(rng, jobspecs, count):
    out, jobs = [], 0
    for _ in range(count):
        dice = rng.randrange(100)
        spec = os.path.join(jobspecs, rng.choice(SPECS))
        if dice < 25:
            out.append("match allocate " + spec)
            jobs += 1
        elif dice < 45:
            out.append("match allocate_orelse_reserve " + spec)
            jobs += 1
        elif dice < 48:
            out.append("match satisfiability " + spec)
        elif dice < 70:
            out.append("cancel %d" % (1 + rng.randrange(max(1, jobs))))
        elif dice < 78:
            out.append("set-status %s %s" % (rng.choice(NODES), rng.choice(["up", "up", "down"])))
        elif dice < 82:
            out.append("set-property %s color=c%d" % (rng.choice(NODES), rng.randrange(3)))
        else:
            out.append(rng.choice(["list", "stat", "find sched-now=allocated", "find sched-future=reserved",
                                   "allocated", "available", "info %d" % (1 + rng.randrange(max(1, jobs)))]))
    return out


TIMES = [
    (re.compile(r"^(INFO: \d+, [A-Z]+, -?\d+, [^,]*, ).*$", re.M), r"\1T"),
    (re.compile(r"^(INFO: (Min|Max|Avg)\. Match Time: ).*$", re.M), r"\1T"),
]


def masked(text):
    for pattern, repl in TIMES:
        text = pattern.sub(repl, text)
    return text


def run(rq, args, lines, cwd):
    p = subprocess.run([rq] + args + ["-d"], input="\n".join(lines) + "\n", cwd=cwd,
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit("FAIL: %s exited %d: %s" % (" ".join(args), p.returncode, p.stderr[-2000:]))
    return masked(p.stdout), masked(p.stderr)


def main():
    rq, recipe, jobspecs, work, seed, count = sys.argv[1:7]
    rng = random.Random(int(seed))
    stream = commands(rng, jobspecs, int(count))
    cuts, at = [], 0
    while True:
        at += rng.randrange(50, 400)
        if at >= len(stream):
            break
        cuts.append(at)
    start = ["-L", recipe, "-P", "high"]
    # Uninterrupted: the same saves at the same points, to its own file.
    whole_dir = os.path.join(work, "whole")
    cut_dir = os.path.join(work, "cut")
    os.makedirs(whole_dir, exist_ok=True)
    os.makedirs(cut_dir, exist_ok=True)
    saves = ["save s.db" if i % 2 == 0 else "save s.db changes" for i in range(len(cuts))]
    lines, last = [], 0
    for cut, save in zip(cuts, saves):
        lines += stream[last:cut] + [save]
        last = cut
    lines += stream[last:]
    expected = run(rq, start, lines, whole_dir)
    # Cut: one process per segment. stdout and stderr are compared apart:
    # a process's pipes interleave as its buffers happen to flush.
    got, last, resumes = ["", ""], 0, 0
    bounds = cuts + [len(stream)]
    for i, cut in enumerate(bounds):
        segment = stream[last:cut] + ([saves[i]] if i < len(cuts) else [])
        args = start if i == 0 else ["-f", "db", "-L", "s.db"]
        out, err = run(rq, args, segment, cut_dir)
        got[0] += out
        got[1] += err
        if i < len(cuts):
            db = sqlite3.connect(os.path.join(cut_dir, "s.db"))
            exact = db.execute("SELECT value FROM meta WHERE key = 'rows_exact'").fetchone()[0]
            db.close()
            if exact != "1":
                sys.exit("FAIL: cut %d at op %d: rows_exact=%s" % (i, cut, exact))
        resumes += i > 0
        last = cut
    for name, want, have in (("stdout", expected[0], got[0]), ("stderr", expected[1], got[1])):
        if have == want:
            continue
        a, b = want.splitlines(), have.splitlines()
        n = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
        sys.exit("FAIL: the cut run's %s differs from the uninterrupted one's at line %d:\n"
                 "  uninterrupted: %s\n  cut:           %s" % (name, n + 1, a[n] if n < len(a) else "<end>",
                                                             b[n] if n < len(b) else "<end>"))
    print("%d operations, %d processes (%d resumes), identical output" % (len(stream), len(bounds), resumes))


if __name__ == "__main__":
    main()
