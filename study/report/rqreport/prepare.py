"""Data preparation for the figures: pure functions, no plotting.

The definitions follow docs/queue.md "Replay metrics" (bounded slowdown:
max(1, (wait + run) / max(run, bound))) and docs/study.md "Figures".
"""
import os

from . import hostlist, labels

# ---- wait-time CDF -------------------------------------------------------


def cdf_points(values):
    """[(v, fraction of values <= v)] at each distinct value, ascending."""
    ordered = sorted(values)
    n = len(ordered)
    points = []
    for i, v in enumerate(ordered):
        if i + 1 < n and ordered[i + 1] == v:
            continue
        points.append((v, (i + 1) / n))
    return points


def waits(jobs):
    return [j.start - j.submit for j in jobs if j.ran]


# ---- bounded slowdown by job size ---------------------------------------


def bounded_slowdown(job, bound):
    wait, run = job.start - job.submit, job.end - job.start
    return max(1.0, (wait + run) / max(run, bound))


def size_bin(size):
    """(lo, hi) of the power-of-two bin holding `size`: 1, 2, 3-4, 5-8, ..."""
    if size <= 1:
        return (1, 1)
    hi = 1
    while hi < size:
        hi *= 2
    return (hi // 2 + 1, hi)


def bin_label(lo, hi):
    return str(lo) if lo == hi else f"{lo}-{hi}"


def slowdown_by_size(jobs, bound):
    """[(bin label, jobs in bin, mean bounded slowdown)] by ascending size,
    over the jobs that ran."""
    sums = {}
    for job in jobs:
        if not job.ran:
            continue
        key = size_bin(job.size)
        count, total = sums.get(key, (0, 0.0))
        sums[key] = (count + 1, total + bounded_slowdown(job, bound))
    return [(bin_label(*key), count, total / count) for key, (count, total) in sorted(sums.items())]


# ---- time series ---------------------------------------------------------


def series_steps(series, column, divisor=None):
    """(times, values) of one series column as a step function (each value
    holds from its time to the next row's); values divided by `divisor`
    when given (utilization = busy_cores / cores)."""
    times = list(series.columns["time"])
    values = series.columns[column]
    if divisor:
        values = [v / divisor for v in values]
    else:
        values = list(values)
    return times, values


def envelope(times, values, max_points):
    """At most about `max_points` points of a step curve for drawing: the
    time axis is cut into max_points // 2 buckets and each keeps its lowest
    and highest value (in time order), so no peak or trough is lost."""
    if len(times) <= max_points:
        return times, values
    buckets = max(1, max_points // 2)
    t0, t1 = times[0], times[-1]
    width = (t1 - t0) / buckets or 1
    out_t, out_v = [], []
    i, n = 0, len(times)
    while i < n:
        b = int((times[i] - t0) / width)
        j = i
        lo = hi = i
        while j < n and int((times[j] - t0) / width) == b:
            if values[j] < values[lo]:
                lo = j
            if values[j] > values[hi]:
                hi = j
            j += 1
        for k in sorted({i, lo, hi, j - 1}):
            out_t.append(times[k])
            out_v.append(values[k])
        i = j
    return out_t, out_v


def machine_cores(summary):
    """The machine's cores: summary.json's `cores`, else worked back from
    utilization = core_seconds / (cores x makespan) (docs/queue.md
    "Replay"); None when neither is there."""
    cores = summary.get("cores")
    if isinstance(cores, (int, float)) and not isinstance(cores, bool) and cores > 0:
        return cores
    used, utilization, makespan = (summary.get(k) for k in ("core_seconds", "utilization", "makespan"))
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0
                  for v in (used, utilization, makespan))
    return round(used / (utilization * makespan)) if numbers else None


TIME_UNITS = (("s", 1), ("min", 60), ("h", 3600), ("days", 86400))


def time_unit(span):
    """(name, seconds) of the unit for an axis spanning `span` seconds: the
    largest unit that still gives the span at least 20 of them (seconds
    below 20 minutes, minutes below 20 hours, hours below 20 days)."""
    chosen = TIME_UNITS[0]
    for unit in TIME_UNITS:
        if span >= 20 * unit[1]:
            chosen = unit
    return chosen


def run_start(run):
    """The run's first instant: its first submit or series row."""
    starts = []
    if run.jobs:
        starts.append(min(j.submit for j in run.jobs))
    if run.series is not None and len(run.series):
        starts.append(run.series.columns["time"][0])
    return min(starts) if starts else 0


# ---- Gantt chart ---------------------------------------------------------


def gantt_segments(jobs):
    """(hosts in natural order, [(host index, lane, lanes of host, start,
    end, job id)]) of the jobs that ran on named hosts. Jobs that overlap
    in time on one host (each holds some of its cores) get lanes: the
    host's row is split into as many lanes as it ever had jobs at once."""
    per_host = {}
    for job in jobs:
        if not job.ran or not job.nodes:
            continue
        for host in hostlist.expand(job.nodes):
            per_host.setdefault(host, []).append((job.start, job.end, job.id))
    hosts = sorted(per_host, key=hostlist.natural_key)
    segments = []
    for index, host in enumerate(hosts):
        placed = _lanes(sorted(per_host[host], key=lambda s: (s[0], s[1])))
        lanes = 1 + max(lane for lane, _ in placed)
        segments.extend((index, lane, lanes, s[0], s[1], s[2]) for lane, s in placed)
    return hosts, segments


def _lanes(spans):
    """[(lane, span)]: each span (sorted by start) in the lowest lane free
    at its start; a lane is free again at the end of its span."""
    lane_ends, placed = [], []
    for span in spans:
        start, end = span[0], span[1]
        for lane, lane_end in enumerate(lane_ends):
            if lane_end <= start:
                lane_ends[lane] = max(end, start)
                placed.append((lane, span))
                break
        else:
            lane_ends.append(max(end, start))
            placed.append((len(lane_ends) - 1, span))
    return placed


# ---- summary table and comparisons ---------------------------------------

# (column of summary.csv / the table, heading, path in summary.json, digits)
SUMMARY_COLUMNS = (
    ("jobs", "jobs", ("jobs",), None),
    ("utilization", "utilization", ("utilization",), 4),
    ("makespan", "makespan (s)", ("makespan",), None),
    ("wait_mean", "wait mean (s)", ("wait", "mean"), 2),
    ("wait_median", "wait median (s)", ("wait", "median"), 1),
    ("wait_p90", "wait p90 (s)", ("wait", "p90"), None),
    ("wait_p99", "wait p99 (s)", ("wait", "p99"), None),
    ("wait_max", "wait max (s)", ("wait", "max"), None),
    ("bounded_slowdown_mean", "bounded slowdown mean", ("bounded_slowdown", "mean"), 3),
    ("bounded_slowdown_max", "bounded slowdown max", ("bounded_slowdown", "max"), 3),
    ("throughput_per_hour", "jobs per hour", ("throughput_per_hour",), 2),
    ("skipped", "skipped", ("skipped", "total"), None),
    ("partial", "partial", ("partial",), None),
)
DESCRIPTION_COLUMNS = ("trace", "queue_policy", "match_policy", "depth", "machine")


def summary_value(summary, path):
    value = summary
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    if isinstance(value, dict):  # `skipped` written as a bare count
        return None
    return value


def format_value(value, digits):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if digits is not None and isinstance(value, (int, float)):
        return f"{value:.{digits}f}"
    return str(value)


def summary_rows(runs):
    """One row per run: {'label', 'folder', description..., figures...} as
    display strings (the summary table and summary.csv)."""
    rows = []
    for run in runs:
        row = {"label": run.label, "folder": str(run.folder)}
        row.update(labels.describe(run))
        for name, _, path, digits in SUMMARY_COLUMNS:
            value = summary_value(run.summary, path)
            if name == "skipped" and value is None and isinstance(run.summary.get("skipped"), int):
                value = run.summary["skipped"]
            row[name] = format_value(value, digits)
        rows.append(row)
    return rows


def trace_groups(runs):
    """[(trace display name, [runs])] in first-seen order; runs with the
    same trace form one group. The display name is the file name, or the
    whole path where two traces share a file name."""
    groups = {}
    for run in runs:
        groups.setdefault(labels.describe(run)["trace"], []).append(run)
    names = [os.path.basename(t) or "?" for t in groups]
    return [(name if names.count(name) == 1 else (trace or "?"), members)
            for name, (trace, members) in zip(names, groups.items())]


# (file stem, title, path in summary.json)
COMPARISONS = (
    ("compare_wait_mean", "mean wait (s)", ("wait", "mean")),
    ("compare_utilization", "utilization", ("utilization",)),
    ("compare_bounded_slowdown_mean", "mean bounded slowdown", ("bounded_slowdown", "mean")),
)


def comparison(runs, path):
    """[(trace name, [(bar name, value)])]: one group per trace, one bar per
    run of it, named by labels.variant_labels(); missing values are 0."""
    names = dict(zip(map(id, runs), labels.variant_labels(runs)))
    return [(trace, [(names[id(r)], float(summary_value(r.summary, path) or 0)) for r in members])
            for trace, members in trace_groups(runs)]


def bar_positions(groups, width=0.8):
    """(x of each bar, bar width, x of each group's centre) for grouped bars:
    group g is centred on g, its k bars share `width`."""
    xs, centres = [], []
    widest = max((len(bars) for _, bars in groups), default=1)
    bar_width = width / max(widest, 1)
    for g, (_, bars) in enumerate(groups):
        first = g - bar_width * (len(bars) - 1) / 2
        xs.append([first + k * bar_width for k in range(len(bars))])
        centres.append(g)
    return xs, bar_width, centres

