"""Runs a sweep's cells on this machine, N at a time (docs/study.md
"Running locally"), then merges and reports.

Progress: on a terminal one updating bar on stderr; on a pipe or file one
plain line per finished cell (no timings, so that the lines are the same
from run to run with -j 1).
"""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import time

from sweep_cell import cell_folder, is_done, run_cell
from sweep_merge import MergeError, write_merged

BAR_WIDTH = 30


class Progress:
    def __init__(self, total, stream=sys.stderr):
        self.total = total
        self.finished = 0
        self.failed = 0
        self.stream = stream
        self.terminal = stream.isatty()
        self.start = time.monotonic()

    def skipped(self, count):
        self.finished += count
        if count:
            self._line(f"{count} of {self.total} cells already done, skipped")

    def cell_done(self, result):
        self.finished += 1
        if result.status == "failed":
            self.failed += 1
            self._line(f"cell {result.cell.id} failed: {result.message}")
        elif not self.terminal:
            self._line(f"[{self.finished}/{self.total}] {result.cell.id} done")
        self.draw()

    def end(self):
        if self.terminal:
            self.stream.write("\n")
            self.stream.flush()

    def _line(self, text):
        if self.terminal:
            self.stream.write("\r\033[K")
        self.stream.write(f"sweep: {text}\n")
        self.stream.flush()

    def draw(self):
        if not self.terminal:
            return
        filled = BAR_WIDTH * self.finished // max(self.total, 1)
        elapsed = int(time.monotonic() - self.start)
        failed = f", {self.failed} failed" if self.failed else ""
        self.stream.write(f"\r\033[Ksweep [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] "
                          f"{self.finished}/{self.total} cells{failed}, {elapsed} s")
        self.stream.flush()


def run_cells(outdir, cells, rq, jobs):
    """Runs every cell not yet done; returns the number that failed."""
    todo = [c for c in cells if not is_done(outdir, c)]
    progress = Progress(len(cells))
    progress.skipped(len(cells) - len(todo))
    progress.draw()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        pending = {pool.submit(run_cell, outdir, c, rq) for c in todo}
        while pending:
            # Wakes every second so that the bar's clock moves during long cells.
            finished, pending = concurrent.futures.wait(
                pending, timeout=1.0, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: f.result().cell.index):
                progress.cell_done(future.result())
            if not finished:
                progress.draw()
    except KeyboardInterrupt:
        # The running replays got the SIGINT too and stop; start no more.
        pool.shutdown(wait=True, cancel_futures=True)
        progress.end()
        raise
    pool.shutdown()
    progress.end()
    return progress.failed


def find_program(name, beside):
    """NAME beside the given program (the build tree's bin/, an install's
    bin/), else on PATH; None if neither."""
    candidate = os.path.join(os.path.dirname(os.path.realpath(beside)), name)
    if os.access(candidate, os.X_OK) and os.path.isfile(candidate):
        return candidate
    return shutil.which(name)


def merge_and_report(outdir, cells, program, title, report=True):
    """merged.csv, then resource-query-report into OUTDIR/report; exit status."""
    missing = [c.id for c in cells if not is_done(outdir, c)]
    if missing:
        print(f"sweep: {outdir}: {len(missing)} of {len(cells)} cells not done "
              f"(first: {missing[0]}); merged.csv not written", file=sys.stderr)
        return 1
    try:
        path = write_merged(outdir, cells)
    except MergeError as e:
        print(f"sweep: {e}", file=sys.stderr)
        return 1
    print(f"sweep: {len(cells)} cells merged into {path}", file=sys.stderr)
    if not report:
        return 0
    reporter = find_program("resource-query-report", program)
    if reporter is None:
        print("sweep: resource-query-report not found in "
              f"{os.path.dirname(os.path.realpath(program))} nor on PATH; report skipped",
              file=sys.stderr)
        return 0
    folder = os.path.join(outdir, "report")
    argv = [reporter, "-o", folder, "--title", title] + [cell_folder(outdir, c) for c in cells]
    status = subprocess.call(argv, stdin=subprocess.DEVNULL)
    if status != 0:
        print(f"sweep: {reporter} failed (exit status {status}); no report in {folder}",
              file=sys.stderr)
        return 1
    print(f"sweep: report in {os.path.join(folder, 'index.html')}", file=sys.stderr)
    return 0
