"""One cell of a sweep: its run folder, written so that a kill at any
moment leaves either a finished folder or one a rerun redoes
(docs/study.md "Running locally").

OUTDIR/cells/<id>/ is final only once it holds `done`, written last: the
replay runs in OUTDIR/cells/<id>.tmp.<pid> (its own working directory, so
the outputs' names in summary.json are relative), which is renamed to
<id> when the replay succeeded, and then `done` is made by an atomic
rename. A folder without `done` and any <id>.tmp.* are leftovers of an
interrupted run: removed before the cell runs again. A failed replay's
folder is kept as <id>.failed for a look (removed by the next run).
"""
import json
import os
import shutil
import subprocess
import time

STDERR_TAIL_LINES = 10
DONE = "done"


class CellResult:
    def __init__(self, cell, status, seconds=0.0, message=""):
        self.cell = cell
        self.status = status      # "done", "skipped" (already done) or "failed"
        self.seconds = seconds
        self.message = message    # a failure's reason and stderr tail


def cell_folder(outdir, cell):
    return os.path.join(outdir, "cells", cell.id)


def is_done(outdir, cell):
    return os.path.exists(os.path.join(cell_folder(outdir, cell), DONE))


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.lexists(path):
        os.unlink(path)


def _remove_leftovers(outdir, cell):
    cells = os.path.join(outdir, "cells")
    for name in os.listdir(cells):
        if name.startswith(cell.id + ".tmp.") or name == cell.id + ".failed":
            _remove(os.path.join(cells, name))
    _remove(cell_folder(outdir, cell))


def output_args():
    """The run folder's outputs (docs/study.md "Running locally")."""
    return ["--replay-csv", "jobs.csv", "--replay-series", "series.csv",
            "--replay-summary", "summary.json"]


def _write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, sort_keys=True)
        f.write("\n")


def _run_replay(rq, cell, folder):
    """(exit status, stderr text); stdout's SUMMARY lines go to summary.txt."""
    argv = [rq] + cell.replay_args() + output_args()
    description = cell.description()
    description["command"] = argv
    _write_json(os.path.join(folder, "cell.json"), description)
    with open(os.path.join(folder, "stderr.txt"), "w+b") as err, \
            open(os.path.join(folder, "summary.txt"), "wb") as summary:
        try:
            proc = subprocess.Popen(argv, cwd=folder, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=err)
        except OSError as e:
            return 127, f"cannot run {rq}: {e.strerror}"
        with proc:
            for line in proc.stdout:     # one row per job: kept out of memory
                if line.startswith(b"SUMMARY "):
                    summary.write(line)
        status = proc.returncode
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return status, text


def _tail(text):
    lines = text.rstrip("\n").split("\n")[-STDERR_TAIL_LINES:]
    return "\n".join("    " + line for line in lines if line)


def run_cell(outdir, cell, rq):
    """Runs a cell unless it is done; never raises for the replay's failure."""
    if is_done(outdir, cell):
        return CellResult(cell, "skipped")
    start = time.monotonic()
    os.makedirs(os.path.join(outdir, "cells"), exist_ok=True)
    _remove_leftovers(outdir, cell)
    final = cell_folder(outdir, cell)
    work = f"{final}.tmp.{os.getpid()}"
    os.makedirs(work)
    status, stderr = _run_replay(rq, cell, work)
    seconds = time.monotonic() - start
    if status != 0 or not os.path.exists(os.path.join(work, "summary.json")):
        os.rename(work, final + ".failed")
        return CellResult(cell, "failed", seconds, f"{_why(status)}; folder {final}.failed; "
                          f"stderr tail:\n{_tail(stderr)}")
    _sync_folder(work)
    os.rename(work, final)
    marker = os.path.join(final, DONE + ".tmp")
    with open(marker, "w", encoding="utf-8") as f:
        f.write(f"{cell.id}\n")
        f.flush()
        os.fsync(f.fileno())
    os.rename(marker, os.path.join(final, DONE))
    _sync_folder(final, files=False)                     # the marker's rename
    _sync_folder(os.path.dirname(final), files=False)    # the folder's
    return CellResult(cell, "done", seconds)


def _why(status):
    if status == 0:
        return "no summary.json written"
    return f"exit status {status}" if status > 0 else f"killed by signal {-status}"


def _sync_folder(path, files=True):
    """On disk before `done` says so: a node that crashes (not only a killed
    sweep) leaves no finished-looking cell with missing data."""
    names = os.listdir(path) if files else []
    for name in names + ["."]:
        fd = os.open(os.path.join(path, name), os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
