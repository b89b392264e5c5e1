"""OUTDIR/merged.csv: one row per cell in grid order (docs/study.md
"merged.csv"). Cell columns, then the summary figures under their SUMMARY
line names (docs/queue.md "Replay"); nothing that depends on the run
(folders, wall time), so that a resumed sweep, a Slurm sweep and a local
one write the same bytes.
"""
import csv
import io
import json
import os

from sweep_cell import cell_folder

CELL_COLUMNS = ("id", "machine", "trace", "queue_policy", "match_policy", "depth")
# (column, path in summary.json)
SUMMARY_COLUMNS = (
    ("cores", ("cores",)),
    ("nodes", ("nodes",)),
    ("jobs", ("jobs",)),
    ("skipped", ("skipped", "total")),
    ("never_started", ("never_started",)),
    ("killed", ("killed",)),
    ("zero_runtime", ("zero_runtime",)),
    ("makespan", ("makespan",)),
    ("utilization", ("utilization",)),
    ("throughput_per_hour", ("throughput_per_hour",)),
    ("wait_mean", ("wait", "mean")),
    ("wait_median", ("wait", "median")),
    ("wait_p90", ("wait", "p90")),
    ("wait_p99", ("wait", "p99")),
    ("wait_max", ("wait", "max")),
    ("slowdown_bound", ("bounded_slowdown", "bound")),
    ("bounded_slowdown_mean", ("bounded_slowdown", "mean")),
    ("bounded_slowdown_max", ("bounded_slowdown", "max")),
    ("core_seconds", ("core_seconds",)),
    ("partial", ("partial",)),
)


class MergeError(Exception):
    pass


def _figure(summary, path):
    value = summary
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return ""
        value = value[key]
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return repr(value)
    return ""


def merged_row(outdir, cell):
    path = os.path.join(cell_folder(outdir, cell), "summary.json")
    try:
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
    except OSError as e:
        raise MergeError(f"{path}: cannot read: {e.strerror}")
    except ValueError as e:
        raise MergeError(f"{path}: not JSON: {e}")
    description = cell.description()
    return ([str(description[c]) for c in CELL_COLUMNS]
            + [_figure(summary, p) for _, p in SUMMARY_COLUMNS])


def merged_text(outdir, cells):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(list(CELL_COLUMNS) + [name for name, _ in SUMMARY_COLUMNS])
    for cell in cells:
        writer.writerow(merged_row(outdir, cell))
    return out.getvalue()


def write_merged(outdir, cells):
    """Writes OUTDIR/merged.csv atomically; returns its path."""
    text = merged_text(outdir, cells)
    path = os.path.join(outdir, "merged.csv")
    with open(path + ".tmp", "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.rename(path + ".tmp", path)
    return path
