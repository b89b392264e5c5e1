"""A sweep as batch jobs (docs/study.md "On a Slurm cluster"): one Slurm
array task per cell, each running the sweep itself with --cell INDEX, and
a job that depends on the whole array (afterok) and merges and reports.
The same for Flux as a printed `flux bulksubmit` line.

Every path in the scripts is absolute: a batch job starts in another
folder, maybe on another node sharing the file system.
"""
import os
import shlex
import subprocess
import sys

PYTHON = "/usr/bin/python3"


class BatchError(Exception):
    pass


def sweep_command(program, grid, outdir, rq, extra):
    """The sweep's own command line, without --cell / --merge-only."""
    argv = [PYTHON, os.path.realpath(program), os.path.abspath(grid),
            "-o", os.path.abspath(outdir), "--rq", os.path.abspath(rq)]
    return argv + extra


def _script(lines):
    return "#!/bin/sh\n" + "\n".join(lines) + "\n"


def cells_script(command, folder):
    logs = os.path.join(folder, "cell-%a.out")
    return _script([
        "# One cell of a sweep per array task (docs/study.md \"On a Slurm cluster\").",
        "#SBATCH --job-name=rq-sweep",
        f"#SBATCH --output={logs}",
        f"exec {shlex.join(command)} --cell \"$SLURM_ARRAY_TASK_ID\"",
    ])


def merge_script(command, folder):
    return _script([
        "# Merges the cells and writes the report once the whole array succeeded.",
        "#SBATCH --job-name=rq-sweep-merge",
        f"#SBATCH --output={os.path.join(folder, 'merge.out')}",
        f"exec {shlex.join(command)} --merge-only",
    ])


def sbatch_lines(count, options, cells_path, merge_path):
    """The two sbatch command lines; JOBID stands for the array's id."""
    common = ["sbatch", "--parsable"]
    if options.partition:
        common += ["--partition", options.partition]
    if options.time:
        common += ["--time", options.time]
    if options.mem:
        common += ["--mem", options.mem]
    array = f"0-{count - 1}" + (f"%{options.array_max}" if options.array_max else "")
    return (common + [f"--array={array}", cells_path],
            common + ["--dependency=afterok:JOBID", merge_path])


def _write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, 0o755)


def submit_slurm(command, outdir, count, options):
    """Writes OUTDIR/slurm/{cells,merge}.sbatch and submits them (or, with
    --dry-run, prints them and the sbatch lines). Returns the exit status."""
    folder = os.path.join(os.path.abspath(outdir), "slurm")
    os.makedirs(folder, exist_ok=True)
    cells_path = os.path.join(folder, "cells.sbatch")
    merge_path = os.path.join(folder, "merge.sbatch")
    scripts = {cells_path: cells_script(command, folder), merge_path: merge_script(command, folder)}
    for path, text in scripts.items():
        _write(path, text)
    array_line, merge_line = sbatch_lines(count, options, cells_path, merge_path)
    if options.dry_run:
        for path, text in scripts.items():
            print(f"# {path}\n{text}")
        print(shlex.join(array_line))
        print(shlex.join(merge_line))
        return 0
    array_id = _sbatch(array_line)
    merge_line = [a.replace("JOBID", array_id) for a in merge_line]
    try:
        merge_id = _sbatch(merge_line)
    except BatchError as e:
        raise BatchError(f"{e}; the cells' array job {array_id} was submitted: once it is done, "
                         "merge with --merge-only")
    print(f"sweep: {count} cells submitted as Slurm array job {array_id}; "
          f"merge job {merge_id} writes {os.path.join(os.path.abspath(outdir), 'merged.csv')}",
          file=sys.stderr)
    with open(os.path.join(folder, "jobs"), "w", encoding="utf-8") as f:
        f.write(f"array {array_id}\nmerge {merge_id}\n")
    return 0


def _sbatch(argv):
    """The job id sbatch --parsable prints (`ID` or `ID;CLUSTER`)."""
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except OSError as e:
        raise BatchError(f"cannot run sbatch: {e.strerror} (is Slurm installed?)")
    if done.returncode != 0:
        raise BatchError(f"{shlex.join(argv)} failed (exit status {done.returncode}): "
                         f"{done.stderr.strip()}")
    job = done.stdout.strip().split(";")[0]
    if not job.isdigit():
        raise BatchError(f"{shlex.join(argv)}: unexpected output '{done.stdout.strip()}'")
    return job


def flux_line(command, outdir, count):
    """`flux bulksubmit` of every cell, then the merge once all succeeded
    (--wait makes bulksubmit's status the worst of the jobs')."""
    logs = os.path.join(os.path.abspath(outdir), "flux", "cell-{}.out")
    cells = ["flux", "bulksubmit", "--wait", "-n1", f"--output={logs}"] + command + ["--cell", "{}"]
    merge = command + ["--merge-only"]
    indexes = " ".join(str(i) for i in range(count))
    mkdir = shlex.join(["mkdir", "-p", os.path.dirname(logs)])
    return f"{mkdir} && {shlex.join(cells)} ::: {indexes} && {shlex.join(merge)}"
