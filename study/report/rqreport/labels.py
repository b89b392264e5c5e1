"""Names for runs: the run's label, its trace, and its bar in a comparison.

docs/study.md "Labels": a run is labelled by its cell id (cell.json,
written by the sweep) or else by `policy` and the trace's file name from
summary.json; in the comparison charts runs are grouped by trace and each
bar is named by its queue policy and what else varies between the runs
(match policy, queue depth, machine).
"""
import os

# The settings a run is described by, in the order its bar names them.
VARIANT_FIELDS = ("queue_policy", "match_policy", "depth", "machine")


def describe(run):
    """{machine, trace, queue_policy, match_policy, depth} of a run, from
    cell.json where it has them, else from summary.json ('' if unknown)."""
    cell, summary = run.cell or {}, run.summary
    from_summary = {"machine": summary.get("machine"), "trace": summary.get("trace"),
                    "queue_policy": summary.get("policy"), "match_policy": summary.get("match_policy"),
                    "depth": summary.get("queue_depth")}
    described = {}
    for key, fallback in from_summary.items():
        value = cell.get(key, fallback)
        if isinstance(value, dict):  # a machine given as a mapping: its name or file
            value = value.get("name") or value.get("load") or ""
        described[key] = "" if value is None else str(value)
    return described


def base_label(run):
    cell = run.cell or {}
    if cell.get("id") not in (None, ""):
        return str(cell["id"])
    described = describe(run)
    parts = [described["queue_policy"] or "?", os.path.basename(described["trace"]) or "?"]
    return " ".join(parts)


def unique_labels(runs):
    """Each run's label; a label taken by an earlier run gets ` #2`, ` #3`..."""
    labels, seen = [], {}
    for run in runs:
        label = base_label(run)
        seen[label] = seen.get(label, 0) + 1
        labels.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return labels


def trace_name(run):
    return os.path.basename(describe(run)["trace"]) or "?"


def _field_text(key, value):
    if key == "depth":
        return f"depth {value}"
    if key == "machine":
        return os.path.basename(value)
    return value


def variant_labels(runs):
    """Each run's bar name: its queue policy and the other settings that
    differ between the runs. A name shared inside one trace falls back to
    the run's label, so bars never merge."""
    described = [describe(r) for r in runs]
    varying = [k for k in VARIANT_FIELDS[1:] if len({d[k] for d in described}) > 1]
    names = []
    for d in described:
        fields = [d["queue_policy"] or "?"] + [_field_text(k, d[k]) for k in varying if d[k]]
        names.append(" ".join(fields))
    keys = [(trace_name(r), n) for r, n in zip(runs, names)]
    return [n if keys.count(k) == 1 else r.label or base_label(r)
            for r, n, k in zip(runs, names, keys)]
