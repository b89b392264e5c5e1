#!/usr/bin/python3
"""resource-query-sweep: replays of a grid of machines x traces x policies x
queue depths, run here on N processes or on a Slurm cluster as a job
array, merged into one CSV and reported (docs/study.md "The sweep").

usage: resource-query-sweep GRID.(yaml|json) -o OUTDIR [-j N] [--rq PATH]
         [--slurm [--partition P] [--array-max K] [--time T] [--mem M] [--dry-run]]
         [--flux] [--cell INDEX | --merge-only] [--no-report] [--title T]
"""
import argparse
import os
import sys

# The modules: beside this file in the source tree, in
# share/resource-query/study beside bin/ in a build tree or an install.
_HERE = os.path.dirname(os.path.realpath(__file__))
for _folder in (_HERE, os.path.join(_HERE, "..", "share", "resource-query", "study")):
    if os.path.exists(os.path.join(_folder, "sweep_grid.py")):
        sys.path.insert(0, _folder)
        break

from sweep_batch import BatchError, flux_line, submit_slurm, sweep_command  # noqa: E402
from sweep_cell import run_cell  # noqa: E402
from sweep_grid import GridError, load_grid  # noqa: E402
from sweep_local import find_program, merge_and_report, run_cells  # noqa: E402

PROGRAM = "resource-query-sweep"


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROGRAM, description=__doc__.split("\n\n")[0],
                                 epilog="Grid format, run folders and merged.csv: docs/study.md")
    ap.add_argument("grid", metavar="GRID", help="grid file, YAML or JSON")
    ap.add_argument("-o", "--output", metavar="OUTDIR", required=True, help="sweep folder")
    ap.add_argument("-j", "--jobs", metavar="N", type=int, default=_cores(),
                    help="cells run at once here (default: this machine's cores, %(default)s)")
    ap.add_argument("--rq", metavar="PATH", help="resource-query to run (default: the one "
                    "beside this program, else on PATH)")
    ap.add_argument("--title", help="the report's title (default: the grid's name)")
    ap.add_argument("--no-report", action="store_true", help="merge but do not run "
                    "resource-query-report")
    batch = ap.add_argument_group("batch systems")
    batch.add_argument("--slurm", action="store_true", help="submit one array task per cell "
                       "and a dependent merge job with sbatch")
    batch.add_argument("--partition", metavar="P", help="Slurm partition")
    batch.add_argument("--array-max", metavar="K", type=int, help="Slurm array tasks run at "
                       "once (--array=0-N%%K)")
    batch.add_argument("--time", metavar="T", help="Slurm time limit of each job (sbatch --time)")
    batch.add_argument("--mem", metavar="M", help="Slurm memory of each job (sbatch --mem)")
    batch.add_argument("--dry-run", action="store_true", help="with --slurm: print the "
                       "scripts and sbatch lines, submit nothing")
    batch.add_argument("--flux", action="store_true", help="print a flux bulksubmit line")
    batch.add_argument("--cell", metavar="INDEX", type=int, help="run this one cell (what "
                       "each array task does)")
    batch.add_argument("--merge-only", action="store_true", help="merge and report the "
                       "finished cells (what the merge job does)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error("-j must be at least 1")
    if args.array_max is not None and args.array_max < 1:
        ap.error("--array-max must be at least 1")
    if args.dry_run and not args.slurm:
        ap.error("--dry-run goes with --slurm")
    if sum([args.slurm, args.flux, args.cell is not None, args.merge_only]) > 1:
        ap.error("--slurm, --flux, --cell and --merge-only exclude each other")
    return args


def _cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def resolve_rq(option):
    rq = option or find_program("resource-query", __file__)
    if rq is None:
        raise GridError("resource-query not found beside this program nor on PATH (give --rq)")
    if not (os.path.isfile(rq) and os.access(rq, os.X_OK)):
        raise GridError(f"{rq}: --rq: not an executable file")
    return os.path.abspath(rq)


def one_cell(args, cells, rq):
    if not 0 <= args.cell < len(cells):
        raise GridError(f"{args.grid}: --cell {args.cell}: the grid has cells 0 to {len(cells) - 1}")
    result = run_cell(args.output, cells[args.cell], rq)
    if result.status == "failed":
        print(f"sweep: cell {result.cell.id} failed: {result.message}", file=sys.stderr)
        return 1
    print(f"sweep: cell {result.cell.id} {result.status}", file=sys.stderr)
    return 0


def main(argv):
    args = parse_args(argv)
    title = args.title or f"Sweep {os.path.basename(args.grid)}"
    try:
        cells = load_grid(args.grid)
        rq = resolve_rq(args.rq)
        if args.cell is not None:
            return one_cell(args, cells, rq)
        extra = ["--title", title] + (["--no-report"] if args.no_report else [])
        command = sweep_command(__file__, args.grid, args.output, rq, extra)
        if args.flux:      # printed only: writes nothing
            print(flux_line(command, args.output, len(cells)))
            return 0
        os.makedirs(args.output, exist_ok=True)
        if args.merge_only:
            return merge_and_report(args.output, cells, __file__, title, not args.no_report)
        if args.slurm:
            return submit_slurm(command, args.output, len(cells), args)
        failed = run_cells(args.output, cells, rq, args.jobs)
        if failed:
            print(f"sweep: {failed} of {len(cells)} cells failed; rerun to retry them "
                  "(finished cells are kept)", file=sys.stderr)
            return 1
        return merge_and_report(args.output, cells, __file__, title, not args.no_report)
    except (GridError, BatchError) as e:
        print(f"{PROGRAM}: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"{PROGRAM}: {e.filename or args.output}: {e.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\n{PROGRAM}: interrupted; rerun to finish (finished cells are kept)",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
