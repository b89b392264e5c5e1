"""The command line of resource-query-report (docs/study.md "The report")."""
import argparse
import pathlib
import sys

from . import build, runs

USAGE_EXAMPLE = "resource-query-report -o report run-easy run-fcfs"


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="resource-query-report",
        description="Figures and an HTML page (index.html) from one or more replay run folders "
                    "(jobs.csv, series.csv, summary.json; docs/study.md).",
        epilog=f"example: {USAGE_EXAMPLE}")
    parser.add_argument("runs", nargs="+", metavar="RUN_FOLDER",
                        help="a folder holding a replay's jobs.csv, series.csv and summary.json")
    parser.add_argument("-o", "--output", default="report", metavar="OUTDIR",
                        help="folder to write the report into (default: report)")
    parser.add_argument("--gantt-max-jobs", type=int, default=build.DEFAULT_GANTT_MAX_JOBS, metavar="N",
                        help="draw a run's Gantt chart only up to N jobs "
                             f"(default: {build.DEFAULT_GANTT_MAX_JOBS})")
    parser.add_argument("--title", default="Replay report", metavar="T",
                        help="the page's title (default: Replay report)")
    args = parser.parse_args(argv)
    if args.gantt_max_jobs < 0:
        parser.error("--gantt-max-jobs: must be 0 or more")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    outdir = pathlib.Path(args.output)
    try:
        build.build_report(args.runs, outdir, args.title, args.gantt_max_jobs)
    except runs.ReportError as e:
        print(f"resource-query-report: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"resource-query-report: {e.filename or outdir}: {e.strerror}", file=sys.stderr)
        return 1
    print(f"resource-query-report: wrote {outdir / 'index.html'}")
    return 0
