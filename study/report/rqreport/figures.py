"""The figures, drawn with matplotlib's Agg backend into PNG and SVG.

docs/study.md "Figures" lists them. Each function draws one figure from
prepared data (prepare.py) and returns a Figure record; nothing here reads
files.
"""
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
# SVG text stays text (searchable, smaller) rather than glyph outlines.
matplotlib.rcParams["svg.fonttype"] = "none"
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.figure import Figure as MplFigure  # noqa: E402

from . import prepare  # noqa: E402

MAX_CURVE_POINTS = 20000   # points drawn per curve (prepare.envelope)
DPI = 100
COLOURS = matplotlib.colormaps["tab10"].colors


@dataclass
class Figure:
    stem: str        # file name without .png / .svg
    title: str
    caption: str


def _save(fig, outdir, stem):
    for ext in ("png", "svg"):
        fig.savefig(outdir / f"{stem}.{ext}", dpi=DPI, format=ext)


def _legend(ax):
    """Outside the plot, on its right: it never hides a curve or a bar."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", borderaxespad=0)


def _time_axis(ax, span):
    unit, seconds = prepare.time_unit(span)
    ax.set_xlabel(f"time since the first submit ({unit})")
    return seconds


def curves(outdir, stem, title, ylabel, curves_by_label, t0, percent=False):
    """One step curve per (label, (times, values)), times relative to t0."""
    fig = MplFigure(figsize=(10, 4))
    ax = fig.add_subplot()
    span = max((t[-1] - t0 for t, _ in curves_by_label.values() if t), default=0)
    seconds = _time_axis(ax, span)
    for k, (label, (times, values)) in enumerate(curves_by_label.items()):
        times, values = prepare.envelope(times, values, MAX_CURVE_POINTS)
        xs = [(t - t0) / seconds for t in times]
        ys = [v * 100 for v in values] if percent else values
        ax.step(xs, ys, where="post", label=label, color=COLOURS[k % len(COLOURS)], linewidth=1.2)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    _legend(ax)
    fig.tight_layout()
    _save(fig, outdir, stem)
    return Figure(stem, title, f"{ylabel}, one curve per run, exact steps from series.csv")


def wait_cdf(outdir, stem, title, waits_by_label):
    fig = MplFigure(figsize=(10, 4))
    ax = fig.add_subplot()
    span = max((max(w) for w in waits_by_label.values() if w), default=0)
    unit, seconds = prepare.time_unit(span)
    for k, (label, waits) in enumerate(waits_by_label.items()):
        points = prepare.cdf_points(waits)
        if not points:
            continue
        xs = [0] + [v / seconds for v, _ in points]
        ys = [0] + [f * 100 for _, f in points]
        ax.step(xs, ys, where="post", label=label, color=COLOURS[k % len(COLOURS)], linewidth=1.2)
    ax.set_xlabel(f"wait ({unit})")
    ax.set_ylabel("jobs that waited at most this long (%)")
    ax.set_ylim(0, 101)
    ax.set_xlim(left=0)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    _legend(ax)
    fig.tight_layout()
    _save(fig, outdir, stem)
    return Figure(stem, title, "share of the jobs that waited at most the time on the x axis, one curve per run")


def grouped_bars(outdir, stem, title, ylabel, groups, xlabel):
    """groups: [(group name, [(bar name, value)])]; bars of the same name
    share a colour across groups."""
    fig = MplFigure(figsize=(10, 4.5))
    ax = fig.add_subplot()
    xs, width, centres = prepare.bar_positions(groups)
    colour_of = {}
    for (group, bars), bar_xs in zip(groups, xs):
        for (name, value), x in zip(bars, bar_xs):
            new = name not in colour_of
            colour = colour_of.setdefault(name, COLOURS[len(colour_of) % len(COLOURS)])
            ax.bar(x, value, width * 0.95, color=colour, label=name if new else None)
    ax.set_xticks(centres, [g for g, _ in groups])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.3)
    _legend(ax)
    fig.tight_layout()
    _save(fig, outdir, stem)
    return Figure(stem, title, f"{ylabel}, one group per {xlabel.split(' (')[0]}")


def gantt(outdir, stem, title, hosts, segments, t0):
    rows = len(hosts)
    fig = MplFigure(figsize=(12, min(3 + 0.22 * rows, 40)))
    ax = fig.add_subplot()
    span = max((s[4] for s in segments), default=t0) - t0
    seconds = _time_axis(ax, span)
    boxes, colours = [], []
    job_index = {}
    for host, lane, lanes, start, end, job in segments:
        k = job_index.setdefault(job, len(job_index))
        y0 = host + lane / lanes
        y1 = y0 + 1 / lanes
        x0, x1 = (start - t0) / seconds, (end - t0) / seconds
        boxes.append([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        colours.append(matplotlib.colormaps["tab20"].colors[k % 20])
    ax.add_collection(PolyCollection(boxes, facecolors=colours, edgecolors="black", linewidths=0.3))
    if len(job_index) <= 40:  # few jobs: write each id on its boxes
        for host, lane, lanes, start, end, job in segments:
            ax.text(((start + end) / 2 - t0) / seconds, host + (lane + 0.5) / lanes, job,
                    ha="center", va="center", fontsize=6, clip_on=True)
    if rows <= 200:  # a line between hosts
        ax.hlines(range(1, rows), 0, span / seconds, colors="grey", linewidths=0.5)
    ax.set_xlim(0, max(span / seconds, 1e-9))
    ax.set_ylim(rows, 0)
    step = max(1, rows // 40)
    ax.set_yticks([i + 0.5 for i in range(0, rows, step)], [hosts[i] for i in range(0, rows, step)],
                  fontsize="small")
    ax.set_ylabel("node")
    ax.set_title(title)
    fig.tight_layout()
    _save(fig, outdir, stem)
    return Figure(stem, title, f"{len(job_index)} jobs on {rows} nodes")
