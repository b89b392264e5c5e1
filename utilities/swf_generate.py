#!/usr/bin/env python3
"""Seeded synthetic workload in the Standard Workload Format (SWF).

Model (all draws from Python's random.Random(SEED), so a seed always gives
the same trace):
  * arrivals: a Poisson process, exponential inter-arrival times of mean
    --interarrival seconds (rounded down to whole seconds);
  * size (processors, field 8 and 5): with probability 0.75 a power of two
    2^k, k uniform in [log2(--min-size), log2(--max-size)]; otherwise
    uniform in [--min-size, --max-size]; then rounded up to a multiple of
    --size-multiple (8 on a machine allocated by whole 8-core nodes, as
    LLNL-Atlas was);
  * run time (field 4): log-uniform in [--min-runtime, --max-runtime];
  * requested time (field 9): run time x uniform(1, 3), rounded up, except
    that a --overrun fraction of jobs ask for only half their run time
    (they are killed at the requested time by the simulator);
  * user (field 12) uniform in 1..16, queue (field 15) 1, partition 1.
Other fields are -1. Jobs are numbered from 1 in submit order.

Usage: swf_generate.py --jobs N --max-size P [--seed S] [...] > trace.swf
"""
import argparse
import math
import random
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, required=True)
    ap.add_argument("--max-size", type=int, required=True, help="largest job, in processors")
    ap.add_argument("--min-size", type=int, default=1, help="smallest job, in processors")
    ap.add_argument("--size-multiple", type=int, default=1, help="round sizes up to a multiple of this")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--interarrival", type=float, default=10.0, help="mean seconds between submits")
    ap.add_argument("--min-runtime", type=int, default=10)
    ap.add_argument("--max-runtime", type=int, default=36000)
    ap.add_argument("--overrun", type=float, default=0.02, help="fraction of jobs that exceed their request")
    a = ap.parse_args()
    if a.min_size < 1 or a.min_size > a.max_size or a.size_multiple < 1:
        ap.error("need 1 <= min-size <= max-size and size-multiple >= 1")
    if a.jobs < 0 or a.max_size < 1 or a.min_runtime < 1 or a.max_runtime < a.min_runtime or a.interarrival <= 0:
        ap.error("need jobs >= 0, max-size >= 1, 1 <= min-runtime <= max-runtime, interarrival > 0")
    rng = random.Random(a.seed)
    out = sys.stdout
    out.write("; synthetic SWF trace: swf_generate.py seed=%d jobs=%d max-size=%d interarrival=%g\n"
              % (a.seed, a.jobs, a.max_size, a.interarrival))
    out.write("; MaxProcs: %d\n" % a.max_size)
    t = 0.0
    kmin, kmax = int(math.ceil(math.log2(a.min_size))), int(math.log2(a.max_size))
    lo, hi = math.log(a.min_runtime), math.log(a.max_runtime)
    for n in range(1, a.jobs + 1):
        t += rng.expovariate(1.0 / a.interarrival)
        if rng.random() < 0.75:
            size = 2 ** rng.randint(kmin, kmax)
        else:
            size = rng.randint(a.min_size, a.max_size)
        size = -(-size // a.size_multiple) * a.size_multiple
        run = int(math.exp(rng.uniform(lo, hi)))
        if rng.random() < a.overrun:
            req = max(1, run // 2)
        else:
            req = int(math.ceil(run * rng.uniform(1.0, 3.0)))
        user = rng.randint(1, 16)
        fields = [n, int(t), -1, run, size, -1, -1, size, req, -1, 1, user, -1, -1, 1, 1, -1, -1]
        out.write(" ".join(str(f) for f in fields) + "\n")


if __name__ == "__main__":
    main()
