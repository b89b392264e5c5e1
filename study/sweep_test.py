#!/usr/bin/python3
"""Tests of resource-query-sweep (docs/study.md "The sweep"): grid expansion
(order, ids, path resolution, bad grids), merged.csv, failed cells, the
batch scripts, and resume after a kill -9 in the middle of a sweep.

Run by ctest (study.sweep) as `/usr/bin/python3 study/sweep_test.py` with
RQ_BIN_DIR=build/bin; the tests that replay skip without it.
"""
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)

import sweep_grid  # noqa: E402
from sweep_cell import run_cell  # noqa: E402
from sweep_grid import GridError, load_grid  # noqa: E402
from sweep_local import Progress  # noqa: E402
from sweep_merge import merged_text  # noqa: E402

SWEEP = os.path.join(HERE, "sweep.py")
SOURCE = os.path.dirname(HERE)
RQ_BIN_DIR = os.environ.get("RQ_BIN_DIR", os.path.join(SOURCE, "build", "bin"))
RQ = os.path.join(RQ_BIN_DIR, "resource-query")
MACHINE = os.path.join(SOURCE, "t", "data", "queue", "two_nodes.graphml")
try:
    import yaml  # noqa: F401
    HAVE_YAML = True
except ImportError:
    HAVE_YAML = False


class Folder(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rq-sweep-test.")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text if isinstance(text, str) else json.dumps(text))
        return path

    def sweep(self, *args, env=None):
        return subprocess.run(["/usr/bin/python3", SWEEP] + list(args), capture_output=True,
                              text=True, cwd=self.dir, env=env, stdin=subprocess.DEVNULL)


class Expansion(Folder):
    GRID = {"machines": ["a.graphml", {"resource": ["cpus=2x4"], "name": "pool"}],
            "traces": ["t/one.swf", "/abs/two.swf"],
            "queue_policies": ["fcfs", "easy"],
            "match_policies": ["first", "policy=low node_centric=true"],
            "depths": [32, 0]}

    def test_order_is_the_product_last_key_fastest(self):
        cells = load_grid(self.write("g.json", self.GRID))
        self.assertEqual(32, len(cells))
        self.assertEqual(["m0-t0-fcfs-first-d32", "m0-t0-fcfs-first-d0",
                          "m0-t0-fcfs-p1-d32", "m0-t0-fcfs-p1-d0",
                          "m0-t0-easy-first-d32"], [c.id for c in cells[:5]])
        self.assertEqual("m0-t1-fcfs-first-d32", cells[8].id)
        self.assertEqual("m1-t0-fcfs-first-d32", cells[16].id)
        self.assertEqual("m1-t1-easy-p1-d0", cells[31].id)
        self.assertEqual(list(range(32)), [c.index for c in cells])
        self.assertEqual(len(cells), len({c.id for c in cells}))

    def test_same_grid_same_cells(self):
        first = [c.description() for c in load_grid(self.write("g.json", self.GRID))]
        again = [c.description() for c in load_grid(self.write("h.json", self.GRID))]
        self.assertEqual(first, again)

    @unittest.skipUnless(HAVE_YAML, "PyYAML (python3-yaml) not installed")
    def test_yaml_and_json_expand_alike(self):
        text = ("machines: [a.graphml, {resource: [cpus=2x4], name: pool}]\n"
                "traces: [t/one.swf, /abs/two.swf]\nqueue_policies: [fcfs, easy]\n"
                "match_policies: [first, 'policy=low node_centric=true']\ndepths: [32, 0]\n")
        from_yaml = [(c.id, c.replay_args()) for c in load_grid(self.write("g.yaml", text))]
        from_json = [(c.id, c.replay_args()) for c in load_grid(self.write("g.json", self.GRID))]
        self.assertEqual(from_json, from_yaml)

    def test_paths_resolve_against_the_grid_folder(self):
        grid = self.write("sub/g.json", {"machines": ["m.graphml", {"load": "../w.yaml", "format": "hq"},
                                                      {"format": "local", "resource": "gpus=[0, 1]"}],
                                         "traces": ["t/one.swf", "/abs/two.swf"]})
        cells = load_grid(os.path.relpath(grid, os.getcwd()))
        sub = os.path.join(self.dir, "sub")
        self.assertEqual(["-L", os.path.join(sub, "m.graphml")], cells[0].machine.args)
        self.assertEqual(os.path.join(sub, "t", "one.swf"), cells[0].trace_path)
        self.assertEqual("/abs/two.swf", cells[1].trace_path)
        self.assertEqual(["-L", os.path.join(self.dir, "w.yaml"), "-f", "hq"], cells[2].machine.args)
        self.assertEqual(["-f", "local", "--resource", "gpus=[0, 1]"], cells[4].machine.args)
        # Labels keep the grid's words (cell.json, merged.csv).
        self.assertEqual("m.graphml", cells[0].machine.label)
        self.assertEqual("-f hq ../w.yaml", cells[2].machine.label)
        self.assertEqual("t/one.swf", cells[0].description()["trace"])
        self.assertEqual(["-P", "first", "--queue-policy", "fcfs", "--queue-depth", "32",
                          "--replay", os.path.join(sub, "t", "one.swf")], cells[0].replay_args()[2:])

    def test_defaults(self):
        cells = load_grid(self.write("g.json", {"machines": ["m"], "traces": ["t"]}))
        self.assertEqual(["m0-t0-fcfs-first-d32"], [c.id for c in cells])

    def bad(self, grid, expected, name="bad.json"):
        path = self.write(name, grid)
        with self.assertRaises(GridError) as caught:
            load_grid(path)
        self.assertEqual(f"{path}: {expected}", str(caught.exception))

    def test_bad_grids_name_the_file_and_the_key(self):
        ok = {"machines": ["m"], "traces": ["t"]}
        self.bad({"traces": ["t"]}, "machines: missing (a non-empty list is required)")
        self.bad(dict(ok, machine=["m"]), "unknown key 'machine' (known: machines, traces, "
                 "queue_policies, match_policies, depths, options)")
        self.bad(dict(ok, traces=[]), "traces: must be a non-empty list")
        self.bad(dict(ok, traces="t"), "traces: must be a non-empty list")
        self.bad(dict(ok, machines=["m", {"lod": "x"}]), "machines[1]: unknown key 'lod' "
                 "(known: load, format, resource, name)")
        self.bad(dict(ok, machines=[{"load": "x", "format": "xml"}]),
                 "machines[0].format: unknown format 'xml' (known: " + ", ".join(sweep_grid.LOAD_FORMATS) + ")")
        self.bad(dict(ok, machines=[{"name": "x"}]), "machines[0]: needs load, resource or format: local")
        self.bad(dict(ok, machines=[{"resource": "cpus"}]), "machines[0].resource: must be NAME=DEF or a list of them")
        self.bad(dict(ok, machines=[3]), "machines[0]: must be a path or a mapping with keys load, format, resource, name")
        self.bad(dict(ok, queue_policies=["easy", "backfill"]), "queue_policies[1]: unknown policy "
                 "'backfill' (known: " + ", ".join(sweep_grid.QUEUE_POLICIES) + ")")
        self.bad(dict(ok, match_policies=["lowest"]), "match_policies[0]: unknown policy 'lowest' "
                 "(known: " + ", ".join(sweep_grid.MATCH_POLICIES) + ")")
        self.bad(dict(ok, depths=[32, -1]), "depths[1]: must be a whole number >= 0 (0 = all)")
        self.bad(dict(ok, depths=["32"]), "depths[0]: must be a whole number >= 0 (0 = all)")
        self.bad(dict(ok, depths=[8, 8]), "depths[1]: duplicate of depths[0] (8)")
        self.bad(dict(ok, traces=["a.swf", "./a.swf"]), "traces[1]: duplicate of traces[0] (./a.swf)")
        self.bad(dict(ok, options=["--queue-depth=4"]), "options[0]: --queue-depth is set by the sweep for each cell")
        self.bad(dict(ok, options="--replay-nodes"), "options: must be a list of strings")
        self.bad([1, 2], "the grid must be a mapping with keys machines, traces, queue_policies, "
                 "match_policies, depths, options")
        with self.assertRaises(GridError) as caught:
            load_grid(self.write("broken.json", "{machines: "))
        self.assertRegex(str(caught.exception), r"broken\.json: not JSON: ")
        with self.assertRaises(GridError) as caught:
            load_grid(os.path.join(self.dir, "absent.yaml"))
        self.assertEqual(f"{self.dir}/absent.yaml: cannot read: No such file or directory", str(caught.exception))

    @unittest.skipUnless(HAVE_YAML, "PyYAML (python3-yaml) not installed")
    def test_bad_yaml(self):
        with self.assertRaises(GridError) as caught:
            load_grid(self.write("broken.yaml", "machines: [a\ntraces: b\n"))
        self.assertRegex(str(caught.exception), r"broken\.yaml: not YAML: .*line 2")

    def test_the_program_prints_one_line_and_writes_nothing(self):
        self.write("g.json", {"machines": ["m"], "traces": ["t"], "depths": [-1]})
        done = self.sweep("g.json", "-o", "out", "--rq", "/bin/true")
        self.assertEqual(2, done.returncode)
        self.assertEqual("resource-query-sweep: g.json: depths[0]: must be a whole number >= 0 (0 = all)\n",
                         done.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "out")))


SUMMARY = {"policy": "easy", "trace": "/x/a.swf", "cores": 8, "nodes": 2, "jobs": 5, "utilization": 0.5, "makespan": 100,
           "wait": {"mean": 2.5, "median": 2.0, "p90": 4, "p99": 4, "max": 4},
           "bounded_slowdown": {"mean": 1.25, "max": 2.0, "bound": 10},
           "throughput_per_hour": 180.0, "skipped": {"total": 1}, "partial": False,
           "killed": 0, "never_started": 0, "zero_runtime": 0, "core_seconds": 400.0,
           "csv": "jobs.csv", "queues": {"1": {"jobs": 5}}}


class Merge(Folder):
    def test_rows_follow_the_grid_with_cell_columns_first(self):
        cells = load_grid(self.write("g.json", {"machines": ["m.graphml"], "traces": ["a.swf"],
                                                "queue_policies": ["fcfs", "easy"]}))
        # Written in the other order: the rows still follow the grid.
        for cell, jobs in reversed(list(zip(cells, (5, 7)))):
            self.write(f"out/cells/{cell.id}/summary.json", dict(SUMMARY, jobs=jobs, partial=jobs == 7))
        self.write(f"out/cells/{cells[1].id}/summary.json",
                   dict(SUMMARY, jobs=7, partial=True, wait={"mean": 1}))
        self.assertEqual(
            "id,machine,trace,queue_policy,match_policy,depth,cores,nodes,jobs,skipped,never_started,killed,"
            "zero_runtime,makespan,utilization,throughput_per_hour,wait_mean,wait_median,wait_p90,"
            "wait_p99,wait_max,slowdown_bound,bounded_slowdown_mean,bounded_slowdown_max,"
            "core_seconds,partial\n"
            "m0-t0-fcfs-first-d32,m.graphml,a.swf,fcfs,first,32,8,2,5,1,0,0,0,100,0.5,180.0,2.5,2.0,4,4,4,"
            "10,1.25,2.0,400.0,0\n"
            "m0-t0-easy-first-d32,m.graphml,a.swf,easy,first,32,8,2,7,1,0,0,0,100,0.5,180.0,1,,,,,"
            "10,1.25,2.0,400.0,1\n",
            merged_text(os.path.join(self.dir, "out"), cells))

    def test_a_sweep_with_unfinished_cells_is_not_merged(self):
        self.write("g.json", {"machines": ["m.graphml"], "traces": ["a.swf", "b.swf"]})
        cells = load_grid(os.path.join(self.dir, "g.json"))
        self.write(f"out/cells/{cells[0].id}/summary.json", SUMMARY)
        self.write(f"out/cells/{cells[0].id}/done", "")
        self.write(f"out/cells/{cells[1].id}/summary.json", SUMMARY)   # no done: interrupted
        done = self.sweep("g.json", "-o", "out", "--rq", "/bin/true", "--merge-only")
        self.assertEqual(1, done.returncode)
        self.assertEqual("sweep: out: 1 of 2 cells not done (first: m0-t1-fcfs-first-d32); "
                         "merged.csv not written\n", done.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "out", "merged.csv")))


class Cells(Folder):
    def fake_rq(self, body):
        """A stand-in for resource-query: a shell script."""
        path = self.write("rq.sh", "#!/bin/sh\n" + body)
        os.chmod(path, 0o755)
        return path

    def test_a_failed_replay_keeps_its_folder_and_says_why(self):
        rq = self.fake_rq("echo SUMMARY jobs=1\nfor i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo line$i >&2; done\nexit 3\n")
        cell = load_grid(self.write("g.json", {"machines": ["m"], "traces": ["t"]}))[0]
        out = os.path.join(self.dir, "out")
        result = run_cell(out, cell, rq)
        self.assertEqual("failed", result.status)
        folder = os.path.join(out, "cells", cell.id + ".failed")
        self.assertEqual(f"exit status 3; folder {folder}; stderr tail:\n"
                         + "\n".join(f"    line{i}" for i in range(3, 13)), result.message)
        self.assertEqual(["cell.json", "stderr.txt", "summary.txt"], sorted(os.listdir(folder)))
        self.assertEqual(["m0-t0-fcfs-first-d32.failed"], os.listdir(os.path.join(out, "cells")))

    def test_leftovers_of_an_interrupted_run_are_removed_and_the_cell_redone(self):
        rq = self.fake_rq('echo "{\\"jobs\\": 1}" > summary.json\necho SUMMARY jobs=1\n')
        cell = load_grid(self.write("g.json", {"machines": ["m"], "traces": ["t"]}))[0]
        out = os.path.join(self.dir, "out")
        self.write(f"out/cells/{cell.id}/summary.json", "half")          # renamed, no done
        self.write(f"out/cells/{cell.id}.tmp.99999/summary.json", "x")   # killed mid-replay
        self.write(f"out/cells/{cell.id}.failed/stderr.txt", "x")
        self.write("out/cells/m9-t0-fcfs-first-d32.tmp.1/x", "")         # another cell's: kept
        self.assertEqual("done", run_cell(out, cell, rq).status)
        self.assertEqual([cell.id, "m9-t0-fcfs-first-d32.tmp.1"], sorted(os.listdir(os.path.join(out, "cells"))))
        folder = os.path.join(out, "cells", cell.id)
        self.assertEqual(["cell.json", "done", "stderr.txt", "summary.json", "summary.txt"],
                         sorted(os.listdir(folder)))
        with open(os.path.join(folder, "summary.txt")) as f:
            self.assertEqual("SUMMARY jobs=1\n", f.read())
        with open(os.path.join(folder, "cell.json")) as f:
            self.assertEqual([rq, "-L", os.path.join(self.dir, "m"), "-P", "first", "--queue-policy",
                              "fcfs", "--queue-depth", "32", "--replay", os.path.join(self.dir, "t"),
                              "--replay-csv", "jobs.csv", "--replay-series", "series.csv",
                              "--replay-summary", "summary.json"],
                             json.load(f)["command"])
        self.assertEqual("skipped", run_cell(out, cell, "/nonexistent").status)

class Batch(Folder):
    def test_slurm_dry_run_prints_scripts_and_submits_nothing(self):
        self.write("g.json", {"machines": ["m"], "traces": ["a", "b"], "queue_policies": ["fcfs", "easy"]})
        self.write("bin/sbatch", "#!/bin/sh\ntouch " + self.dir + "/submitted\n")
        os.chmod(os.path.join(self.dir, "bin", "sbatch"), 0o755)
        env = dict(os.environ, PATH=os.path.join(self.dir, "bin") + ":" + os.environ["PATH"])
        done = self.sweep("g.json", "-o", "out", "--rq", "/bin/true", "--slurm", "--dry-run",
                          "--partition", "debug", "--array-max", "2", "--time", "5", env=env)
        self.assertEqual(0, done.returncode, done.stderr)
        out = os.path.join(self.dir, "out")
        self.assertIn(f'--cell "$SLURM_ARRAY_TASK_ID"\n', done.stdout)
        self.assertIn(f"#SBATCH --output={out}/slurm/cell-%a.out\n", done.stdout)
        self.assertIn(f"sbatch --parsable --partition debug --time 5 --array=0-3%2 {out}/slurm/cells.sbatch\n"
                      f"sbatch --parsable --partition debug --time 5 --dependency=afterok:JOBID "
                      f"{out}/slurm/merge.sbatch\n", done.stdout)
        self.assertIn(f"/usr/bin/python3 {SWEEP} {self.dir}/g.json -o {out} --rq /bin/true "
                      "--title 'Sweep g.json' --merge-only\n", done.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "submitted")))
        self.assertFalse(os.path.exists(os.path.join(out, "cells")))

    def fake_sbatch(self, second_exit):
        """An sbatch that logs its arguments, answers job 41 then 42 (or
        fails the second time)."""
        log = os.path.join(self.dir, "sbatch.log")
        self.write("bin/sbatch", f"#!/bin/sh\necho \"$@\" >>{log}\nn=$(wc -l <{log})\n"
                   f"[ \"$n\" -eq 2 ] && [ {second_exit} -ne 0 ] && {{ echo 'sbatch: error: no partition' >&2; exit 1; }}\n"
                   "echo \"$((40 + n));cluster\"\n")
        os.chmod(os.path.join(self.dir, "bin", "sbatch"), 0o755)
        return dict(os.environ, PATH=os.path.join(self.dir, "bin") + ":" + os.environ["PATH"]), log

    def test_slurm_submits_the_array_then_the_merge_after_it(self):
        self.write("g.json", {"machines": ["m"], "traces": ["a", "b"]})
        env, log = self.fake_sbatch(0)
        done = self.sweep("g.json", "-o", "out", "--rq", "/bin/true", "--slurm", env=env)
        self.assertEqual(0, done.returncode, done.stderr)
        out = os.path.join(self.dir, "out")
        with open(log) as f:
            self.assertEqual([f"--parsable --array=0-1 {out}/slurm/cells.sbatch",
                              f"--parsable --dependency=afterok:41 {out}/slurm/merge.sbatch"],
                             f.read().splitlines())
        self.assertEqual(f"sweep: 2 cells submitted as Slurm array job 41; merge job 42 writes "
                         f"{out}/merged.csv\n", done.stderr)
        with open(os.path.join(out, "slurm", "jobs")) as f:
            self.assertEqual("array 41\nmerge 42\n", f.read())

    def test_a_refused_merge_job_says_the_array_was_submitted(self):
        self.write("g.json", {"machines": ["m"], "traces": ["a", "b"]})
        env, _ = self.fake_sbatch(1)
        done = self.sweep("g.json", "-o", "out", "--rq", "/bin/true", "--slurm", env=env)
        self.assertEqual(2, done.returncode)
        self.assertRegex(done.stderr, r"^resource-query-sweep: sbatch --parsable --dependency=afterok:41 "
                         r".*merge.sbatch failed \(exit status 1\): sbatch: error: no partition; the cells' "
                         r"array job 41 was submitted: once it is done, merge with --merge-only\n$")

    def test_flux_prints_a_bulksubmit_line(self):
        self.write("g.json", {"machines": ["m"], "traces": ["a", "b"]})
        done = self.sweep("g.json", "-o", "out", "--rq", "/bin/true", "--flux")
        self.assertEqual(0, done.returncode, done.stderr)
        out = os.path.join(self.dir, "out")
        command = f"/usr/bin/python3 {SWEEP} {self.dir}/g.json -o {out} --rq /bin/true --title 'Sweep g.json'"
        self.assertFalse(os.path.exists(out))   # printed only
        self.assertEqual(f"mkdir -p {out}/flux && flux bulksubmit --wait -n1 '--output={out}/flux/cell-{{}}.out' "
                         f"{command} --cell '{{}}' ::: 0 1 && {command} --merge-only\n", done.stdout)


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


class ProgressLines(unittest.TestCase):
    def test_a_terminal_gets_a_bar_a_pipe_plain_lines(self):
        class Result:
            def __init__(self, cell_id):
                self.status, self.cell, self.message = "done", type("C", (), {"id": cell_id}), ""
        pipe, terminal = io.StringIO(), FakeTerminal()
        for stream in (pipe, terminal):
            progress = Progress(3, stream)
            progress.skipped(1)
            progress.cell_done(Result("m0-t1"))
            progress.end()
        self.assertEqual("sweep: 1 of 3 cells already done, skipped\nsweep: [2/3] m0-t1 done\n",
                         pipe.getvalue())
        self.assertIn("\r\033[Ksweep [####################..........] 2/3 cells, 0 s", terminal.getvalue())
        self.assertNotIn("[2/3] m0-t1 done", terminal.getvalue())


@unittest.skipUnless(os.access(RQ, os.X_OK), f"{RQ} not built")
class Resume(Folder):
    """kill -9 in the middle of a sweep, rerun: merged.csv is byte for byte
    an uninterrupted run's (docs/study.md "Running locally")."""

    def setUp(self):
        super().setUp()
        generate = os.path.join(SOURCE, "utilities", "swf_generate.py")
        for name, seed in (("a.swf", 1), ("b.swf", 2)):
            with open(os.path.join(self.dir, name), "w") as f:
                subprocess.run(["/usr/bin/python3", generate, "--jobs", "30", "--max-size", "4",
                                "--seed", str(seed), "--interarrival", "20", "--max-runtime", "600"],
                               stdout=f, check=True)
        self.write("g.json", {"machines": [MACHINE], "traces": ["a.swf", "b.swf"],
                              "queue_policies": ["fcfs", "easy"], "depths": [4]})

    def test_rerun_after_kill_9_gives_the_same_merged_csv(self):
        whole = self.sweep("g.json", "-o", "whole", "--rq", RQ, "-j", "2", "--no-report")
        self.assertEqual(0, whole.returncode, whole.stderr)
        # A resource-query that hangs once two cells are done: the kill lands
        # while the third cell runs, whatever the machine's speed.
        cells = os.path.join(self.dir, "cut", "cells")
        gate = self.write("gated-rq.sh", f"#!/bin/sh\nn=$(ls {cells}/*/done 2>/dev/null | wc -l)\n"
                                         f"[ \"$n\" -ge 2 ] && exec sleep 600\nexec {RQ} \"$@\"\n")
        os.chmod(gate, 0o755)
        sweep = subprocess.Popen(["/usr/bin/python3", SWEEP, "g.json", "-o", "cut", "--rq", gate,
                                  "-j", "1", "--no-report"], cwd=self.dir, start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self.assertTrue(self.wait_for(lambda: self.count(cells, ".tmp.") == 1
                                          and self.count(cells, "done") == 2))
        finally:
            os.killpg(sweep.pid, signal.SIGKILL)
            sweep.wait()
        self.assertFalse(os.path.exists(os.path.join(self.dir, "cut", "merged.csv")))
        finished = {name: os.stat(os.path.join(cells, name, "done")).st_ino
                    for name in os.listdir(cells) if os.path.exists(os.path.join(cells, name, "done"))}
        rerun = self.sweep("g.json", "-o", "cut", "--rq", RQ, "-j", "2", "--no-report")
        self.assertEqual(0, rerun.returncode, rerun.stderr)
        self.assertIn("sweep: 2 of 4 cells already done, skipped\n", rerun.stderr)
        for name, inode in finished.items():   # kept, not redone
            self.assertEqual(inode, os.stat(os.path.join(cells, name, "done")).st_ino)
        self.assertEqual(sorted(["m0-t0-fcfs-first-d4", "m0-t0-easy-first-d4",
                                 "m0-t1-fcfs-first-d4", "m0-t1-easy-first-d4"]), sorted(os.listdir(cells)))
        for name in os.listdir(cells):   # the run folder layout (docs/study.md "Running locally")
            self.assertEqual(["cell.json", "done", "jobs.csv", "series.csv", "stderr.txt", "summary.json",
                              "summary.txt"], sorted(os.listdir(os.path.join(cells, name))))
            with open(os.path.join(cells, name, "summary.json")) as f:
                summary = json.load(f)
            self.assertEqual(("jobs.csv", "series.csv"), (summary["csv"], summary["series"]))
        with open(os.path.join(self.dir, "whole", "merged.csv"), "rb") as a, \
                open(os.path.join(self.dir, "cut", "merged.csv"), "rb") as b:
            whole_bytes = a.read()
            self.assertEqual(whole_bytes, b.read())
        self.assertEqual(5, whole_bytes.count(b"\n"))

    def test_a_failed_cell_fails_the_sweep_after_the_others(self):
        self.write("bad.swf", "1 2 3\n")
        self.write("g.json", {"machines": [MACHINE], "traces": ["bad.swf", "a.swf"]})
        done = self.sweep("g.json", "-o", "out", "--rq", RQ, "-j", "1", "--no-report")
        self.assertEqual(1, done.returncode)
        self.assertIn("sweep: cell m0-t0-fcfs-first-d32 failed: exit status 1; folder out/cells/"
                      "m0-t0-fcfs-first-d32.failed; stderr tail:\n    ERROR: --replay: ", done.stderr)
        self.assertIn("sweep: [2/2] m0-t1-fcfs-first-d32 done\n", done.stderr)
        self.assertTrue(done.stderr.endswith("sweep: 1 of 2 cells failed; rerun to retry them "
                                             "(finished cells are kept)\n"))
        self.assertFalse(os.path.exists(os.path.join(self.dir, "out", "merged.csv")))

    @staticmethod
    def count(folder, part):
        if not os.path.isdir(folder):
            return 0
        names = os.listdir(folder)
        if part == "done":
            return sum(os.path.exists(os.path.join(folder, n, "done")) for n in names)
        return sum(part in n for n in names)

    @staticmethod
    def wait_for(condition):
        """Bounded (60 s) wait for another process; not a timing test."""
        for _ in range(600):
            if condition():
                return True
            time.sleep(0.1)
        return False


if __name__ == "__main__":
    unittest.main(verbosity=2)
