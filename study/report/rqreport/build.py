"""Builds a report: which figures each run and each trace get, the notes
where a figure is left out, and the files written (docs/study.md "The
report")."""
import csv
from dataclasses import dataclass, field

from . import figures, labels, prepare, runs as run_files
from .page import write_index

DEFAULT_GANTT_MAX_JOBS = 2000


@dataclass
class Section:
    title: str
    figures: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def _trace_section(outdir, n, trace, members, names):
    """Utilization, pending jobs, wait CDF and slowdown by size of the runs
    of one trace, each figure overlaying its runs."""
    section = Section(f"Trace {trace}")
    t0 = min(prepare.run_start(r) for r in members)
    with_series = [r for r in members if r.series is not None and len(r.series)]
    utilization, pending = {}, {}
    for run in with_series:
        cores = prepare.machine_cores(run.summary)
        if cores:
            utilization[names[id(run)]] = prepare.series_steps(run.series, "busy_cores", cores)
        else:
            section.notes.append(f"{run.label}: summary.json gives no `cores` (nor core_seconds, "
                                 "utilization and makespan): no utilization curve")
        pending[names[id(run)]] = prepare.series_steps(run.series, "pending_jobs")
    for run in members:
        section.notes.extend(f"{run.label}: {note}" for note in run.notes)
    if utilization:
        section.figures.append(figures.curves(outdir, f"utilization-{n}", f"Utilization, {trace}",
                                              "busy cores (% of the machine)", utilization, t0, percent=True))
    if pending:
        section.figures.append(figures.curves(outdir, f"pending-{n}", f"Pending jobs, {trace}",
                                              "pending jobs", pending, t0))
    with_jobs = [r for r in members if r.jobs]
    if with_jobs:
        waits = {names[id(r)]: prepare.waits(r.jobs) for r in with_jobs}
        section.figures.append(figures.wait_cdf(outdir, f"wait-cdf-{n}", f"Wait time CDF, {trace}", waits))
        groups = _slowdown_groups(with_jobs, names)
        section.figures.append(figures.grouped_bars(outdir, f"slowdown-by-size-{n}",
                                                    f"Bounded slowdown by job size, {trace}",
                                                    "mean bounded slowdown", groups, "job size (bins by powers of two)"))
    return section


def _slowdown_groups(members, names):
    """[(size bin, [(run name, mean)])] over every bin any run has."""
    per_run = {names[id(r)]: {b: mean for b, _, mean in prepare.slowdown_by_size(
        r.jobs, prepare.summary_value(r.summary, ("bounded_slowdown", "bound")) or 10)} for r in members}
    bins = sorted({b for means in per_run.values() for b in means}, key=lambda b: int(b.split("-")[0]))
    return [(b, [(name, means.get(b, 0.0)) for name, means in per_run.items()]) for b in bins]


def _gantt_section(outdir, all_runs, gantt_max_jobs):
    section = Section("Jobs on nodes")
    for n, run in enumerate(all_runs, 1):
        if not run.jobs:
            continue
        if len(run.jobs) > gantt_max_jobs:
            section.notes.append(f"{run.label}: {len(run.jobs)} jobs, more than --gantt-max-jobs "
                                 f"{gantt_max_jobs}: no Gantt chart")
            continue
        try:
            hosts, segments = prepare.gantt_segments(run.jobs)
        except ValueError as e:
            raise run_files.ReportError(f"{run.folder / run_files.JOBS_FILE}: column 'nodes': {e}") from None
        if not segments:
            section.notes.append(f"{run.label}: jobs.csv names no nodes: no Gantt chart")
            continue
        section.figures.append(figures.gantt(outdir, f"gantt-{n}", f"Jobs on nodes, {run.label}",
                                             hosts, segments, prepare.run_start(run)))
    return section


def _comparison_section(outdir, all_runs):
    section = Section("Comparison")
    for stem, title, path in prepare.COMPARISONS:
        groups = prepare.comparison(all_runs, path)
        fig = figures.grouped_bars(outdir, stem, f"{title[0].upper()}{title[1:]} by trace", title, groups, "trace")
        fig.caption = "one group of bars per trace, one bar per run of it"
        section.figures.append(fig)
    return section


def write_summary_csv(path, rows):
    columns = ["label", "folder", *prepare.DESCRIPTION_COLUMNS, *(c[0] for c in prepare.SUMMARY_COLUMNS)]
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def build_report(folders, outdir, title, gantt_max_jobs=DEFAULT_GANTT_MAX_JOBS):
    all_runs = [run_files.read_run(f) for f in folders]
    for run, label in zip(all_runs, labels.unique_labels(all_runs)):
        run.label = label
    outdir.mkdir(parents=True, exist_ok=True)
    names = dict(zip(map(id, all_runs), labels.variant_labels(all_runs)))
    sections = []
    if len(all_runs) > 1:
        sections.append(_comparison_section(outdir, all_runs))
    for n, (trace, members) in enumerate(prepare.trace_groups(all_runs), 1):
        sections.append(_trace_section(outdir, n, trace, members, names))
    sections.append(_gantt_section(outdir, all_runs, gantt_max_jobs))
    rows = prepare.summary_rows(all_runs)
    write_summary_csv(outdir / "summary.csv", rows)
    write_index(outdir / "index.html", title, rows, sections)
    return sections
