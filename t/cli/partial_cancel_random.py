#!/usr/bin/env python3
"""Randomized partial-cancel test against a simple model (docs/differences.md,
the `partial-cancel` rows).

Random jobs are matched on a graph; some are cut down by partial-cancels
whose R is a subset (one rank / one node) of what our own writers printed
for the job (rv1exec from -F rv1_nosched, jgf from -F jgf); some are
cancelled. The model: a job lives while it holds a rank it was not
partially cancelled on. Checks: a partial cancel of the job's own R never
fails, the job's state follows the model, and once every job is gone
nothing is allocated and a whole-machine match succeeds (the planners and
the pruning aggregates are back to a fresh graph's).

Usage: partial_cancel_random.py RESOURCE_QUERY GRAPHML WORKDIR SEED STEPS
"""
import json
import os
import random
import subprocess
import sys

RQ, GRAPH, WORK, SEED, STEPS = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(SEED)
failures = []


def run(cmds, fmt):
    text = "".join(c + "\n" for c in cmds) + "quit\n"
    p = subprocess.run([RQ, "-L", GRAPH, "-F", fmt], input=text, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        failures.append(f"seed {SEED}: exit {p.returncode}: {p.stderr[-500:]}")
    return p.stdout, p.stderr


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def jobspec(i):
    kind = rng.randrange(3)
    if kind == 0:
        res = f"""  - type: node
    count: {rng.randint(1, 2)}
    exclusive: true
    with:
      - type: slot
        count: 1
        label: task
        with:
          - type: core
            count: 1
"""
    elif kind == 1:
        res = f"""  - type: slot
    count: {rng.randint(1, 12)}
    label: task
    with:
      - type: core
        count: {rng.randint(1, 4)}
"""
    else:
        res = f"""  - type: node
    count: 1
    with:
      - type: slot
        count: 1
        label: task
        with:
          - type: core
            count: {rng.randint(1, 8)}
          - type: gpu
            count: {rng.randint(0, 1) or 1}
"""
    body = ("version: 1\nresources:\n" + res + 'tasks:\n  - command: [ "app" ]\n    slot: task\n'
            "    count:\n      per_slot: 1\nattributes:\n  system:\n    duration: 3600\n")
    return write(f"job{i}.yaml", body)


def match_outputs(out):
    """jobid -> printed R line (one JSON line before each allocated JOBID)."""
    result, last = {}, None
    for line in out.splitlines():
        if line.startswith("{"):
            last = line
        elif line.startswith("INFO: JOBID="):
            if last is not None:
                result[int(line.split("=")[1])] = last
            last = None
    return result


def idset(text):
    out = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.update(str(i) for i in range(int(lo), int(hi or lo) + 1))
    return out


def rv1_subset(r, rank):
    doc = json.loads(r)
    doc["execution"]["R_lite"] = [dict(e, rank=rank) for e in doc["execution"]["R_lite"] if rank in idset(e["rank"])]
    return json.dumps(doc)


def jgf_subset(j, node_path):
    doc = json.loads(j)
    nodes = doc["graph"]["nodes"]
    keep = [n for n in nodes
            if n["metadata"]["paths"]["containment"] == node_path
            or n["metadata"]["paths"]["containment"].startswith(node_path + "/")
            or node_path.startswith(n["metadata"]["paths"]["containment"] + "/")]
    ids = {n["id"] for n in keep}
    edges = [e for e in doc["graph"].get("edges", []) if e["source"] in ids and e["target"] in ids]
    return json.dumps({"graph": {"nodes": keep, "edges": edges}})


def job_ranks(r):
    return set().union(*(idset(e["rank"]) for e in json.loads(r)["execution"]["R_lite"]))


def node_of_rank(j, rank):
    for n in json.loads(j)["graph"]["nodes"]:
        m = n["metadata"]
        if m["type"] == "node" and str(m["rank"]) == rank:
            return m["paths"]["containment"]
    return None


cmds, live, next_id = [], {}, 1  # live: jobid -> {"r", "j", "ranks"}
errors_seen = 0
for step in range(STEPS):
    action = rng.random()
    if action < 0.5 or not live:
        cmds.append(f"match allocate {jobspec(next_id)}")
        out, _ = run(cmds, "rv1_nosched")
        rs = match_outputs(out)
        if next_id in rs:
            js = match_outputs(run(cmds, "jgf")[0])
            live[next_id] = {"r": rs[next_id], "j": js[next_id], "ranks": job_ranks(rs[next_id])}
        next_id += 1
    elif action < 0.85:
        jobid = rng.choice(sorted(live))
        job = live[jobid]
        rank = rng.choice(sorted(job["ranks"]))
        if rng.random() < 0.5:
            path = write(f"pc{step}.json", rv1_subset(job["r"], rank))
            cmds.append(f"partial-cancel {jobid} rv1exec {path}")
        else:
            path = write(f"pc{step}.json", jgf_subset(job["j"], node_of_rank(job["j"], rank)))
            cmds.append(f"partial-cancel {jobid} jgf {path}")
        cmds.append(f"info {jobid}")
        out, err = run(cmds, "rv1_nosched")
        job["ranks"].discard(rank)
        want = "ALLOCATED" if job["ranks"] else "CANCELED"
        if err.count("error encountered while removing") > errors_seen:
            errors_seen = err.count("error encountered while removing")
            failures.append(f"seed {SEED} step {step}: {cmds[-2]} failed: {out.splitlines()[-1:]}")
        last_info = [line for line in out.splitlines() if line.startswith(f"INFO: {jobid}, ")][-1:]
        if not last_info or f", {want}," not in last_info[0]:
            failures.append(f"seed {SEED} step {step}: after {cmds[-2]} want {want}, got {last_info}")
        if not job["ranks"]:
            del live[jobid]
    else:
        jobid = rng.choice(sorted(live))
        cmds.append(f"cancel {jobid}")
        del live[jobid]

for jobid in sorted(live):
    cmds.append(f"cancel {jobid}")
cmds.append("find sched-now=allocated")
whole = write("whole.yaml", """version: 1
resources:
  - type: node
    count: 2
    exclusive: true
    with:
      - type: slot
        count: 1
        label: task
        with:
          - type: core
            count: 16
          - type: gpu
            count: 2
tasks:
  - command: [ "app" ]
    slot: task
    count:
      per_slot: 1
attributes:
  system:
    duration: 3600
""")
cmds.append(f"match allocate {whole}")
out, err = run(cmds, "simple")
lines = out.splitlines()
at = max(i for i, line in enumerate(lines) if 'EXPRESSION="sched-now=allocated"' in line)
held, i = [], at - 2  # the vertices find printed, just above its header
while i >= 0 and not lines[i].startswith("INFO:"):
    held.append(lines[i].strip())
    i -= 1
tail = "\n".join(lines[at:])
if held:
    failures.append(f"seed {SEED}: still allocated after cancelling every job: {held[:6]}")
if "No matching resources found" in tail:
    failures.append(f"seed {SEED}: a whole-machine match fails after cancelling every job")
if "nonexistent job" in err or "ERROR" in err:
    failures.append(f"seed {SEED}: {err.strip().splitlines()[-3:]}")
with open(os.path.join(WORK, f"cmds.{SEED}"), "w") as f:
    f.write("\n".join(cmds) + "\n")
for f in failures:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
