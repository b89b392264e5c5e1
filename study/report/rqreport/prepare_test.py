"""prepare.py: the figures' data, checked against values worked by hand."""
import pathlib
import unittest

from rqreport import prepare
from rqreport.runs import Job, Run, Series, SERIES_COLUMNS


def job(id, submit, start, end, size=1, nodes=""):
    return Job(id=str(id), submit=submit, start=start, end=end, size=size, status="completed", nodes=nodes)


class CdfTest(unittest.TestCase):
    def test_points_at_each_distinct_value(self):
        # 4 waits: half are 0, then 5 (3 of 4), then 10 (all).
        self.assertEqual(prepare.cdf_points([10, 0, 5, 0]), [(0, 0.5), (5, 0.75), (10, 1.0)])

    def test_empty(self):
        self.assertEqual(prepare.cdf_points([]), [])

    def test_waits_of_jobs_that_ran(self):
        jobs = [job(1, 0, 4, 9), job(2, 3, None, None), job(3, 10, 10, 12)]
        self.assertEqual(prepare.waits(jobs), [4, 0])


class SlowdownTest(unittest.TestCase):
    def test_size_bins_are_powers_of_two(self):
        bins = {s: prepare.size_bin(s) for s in (1, 2, 3, 4, 5, 8, 9, 16, 17, 1024, 1025)}
        self.assertEqual(bins, {1: (1, 1), 2: (2, 2), 3: (3, 4), 4: (3, 4), 5: (5, 8), 8: (5, 8),
                                9: (9, 16), 16: (9, 16), 17: (17, 32), 1024: (513, 1024),
                                1025: (1025, 2048)})
        self.assertEqual([prepare.bin_label(*prepare.size_bin(s)) for s in (1, 2, 4, 7)], ["1", "2", "3-4", "5-8"])

    def test_bounded_slowdown(self):
        # docs/queue.md "Replay": max(1, (wait + run) / max(run, bound)).
        self.assertEqual(prepare.bounded_slowdown(job(1, 0, 20, 40), 10), 2.0)   # (20+20)/20
        self.assertEqual(prepare.bounded_slowdown(job(1, 0, 15, 20), 10), 2.0)   # (15+5)/10
        self.assertEqual(prepare.bounded_slowdown(job(1, 0, 0, 3), 10), 1.0)     # 3/10 -> 1

    def test_means_by_bin(self):
        jobs = [job(1, 0, 20, 40, size=1),      # 2.0
                job(2, 0, 0, 30, size=3),       # 1.0
                job(3, 0, 30, 40, size=4),      # (30+10)/10 = 4.0
                job(4, 0, None, None, size=4),  # never ran: left out
                job(5, 0, 5, 10, size=2)]       # (5+5)/10 = 1.0
        self.assertEqual(prepare.slowdown_by_size(jobs, 10), [("1", 1, 2.0), ("2", 1, 1.0), ("3-4", 2, 2.5)])


def series(rows):
    return Series({c: [r[i] for r in rows] for i, c in enumerate(SERIES_COLUMNS)})


class SeriesTest(unittest.TestCase):
    ROWS = [(0, 1, 4, 1, 0, 0, 1, 0), (5, 2, 12, 2, 1, 1, 2, 0), (9, 1, 8, 1, 0, 0, 3, 1), (12, 0, 0, 0, 0, 0, 3, 3)]

    def test_steps_of_a_column(self):
        self.assertEqual(prepare.series_steps(series(self.ROWS), "pending_jobs"), ([0, 5, 9, 12], [0, 1, 0, 0]))

    def test_utilization_divides_by_cores(self):
        self.assertEqual(prepare.series_steps(series(self.ROWS), "busy_cores", 16),
                         ([0, 5, 9, 12], [0.25, 0.75, 0.5, 0.0]))

    def test_machine_cores(self):
        self.assertEqual(prepare.machine_cores({"cores": 32}), 32)
        # 1044 core-seconds over 99 s at 0.32954545... of the machine: 32 cores.
        self.assertEqual(prepare.machine_cores({"core_seconds": 1044.0, "makespan": 99,
                                                "utilization": 0.32954545454545453}), 32)
        self.assertIsNone(prepare.machine_cores({"core_seconds": 0.0, "makespan": 0, "utilization": 0.0}))
        self.assertIsNone(prepare.machine_cores({}))

    def test_envelope_keeps_short_curves(self):
        self.assertEqual(prepare.envelope([0, 1, 2], [3, 1, 2], 10), ([0, 1, 2], [3, 1, 2]))

    def test_envelope_keeps_each_buckets_extremes(self):
        times = list(range(100))
        values = [0] * 100
        values[37], values[38] = 9, -4
        t, v = prepare.envelope(times, values, 10)   # 5 buckets of 19.8 s
        self.assertLessEqual(len(t), 20)
        self.assertIn((37, 9), list(zip(t, v)))
        self.assertIn((38, -4), list(zip(t, v)))
        self.assertEqual((t[0], t[-1]), (0, 99))
        self.assertEqual(t, sorted(t))

    def test_time_units(self):
        self.assertEqual(prepare.time_unit(0), ("s", 1))
        self.assertEqual(prepare.time_unit(1199), ("s", 1))
        self.assertEqual(prepare.time_unit(1200), ("min", 60))
        self.assertEqual(prepare.time_unit(20 * 3600), ("h", 3600))
        self.assertEqual(prepare.time_unit(30 * 86400), ("days", 86400))

    def test_run_start(self):
        run = Run(folder=pathlib.Path("r"), summary={}, jobs=[job(1, 7, 7, 9), job(2, 3, 4, 5)],
                  series=series([(4, 1, 1, 1, 0, 0, 1, 0)]))
        self.assertEqual(prepare.run_start(run), 3)


class GanttTest(unittest.TestCase):
    def test_lanes_for_jobs_sharing_a_node(self):
        jobs = [job("a", 0, 0, 10, nodes="n[1-2]"),
                job("b", 0, 2, 6, nodes="n1"),
                job("c", 0, 6, 9, nodes="n1"),      # b's lane is free again at 6
                job("d", 0, 3, 4, nodes="n10"),
                job("e", 0, None, None, nodes="")]
        hosts, segments = prepare.gantt_segments(jobs)
        self.assertEqual(hosts, ["n1", "n2", "n10"])
        self.assertEqual(sorted(segments), [(0, 0, 2, 0, 10, "a"), (0, 1, 2, 2, 6, "b"), (0, 1, 2, 6, 9, "c"),
                                            (1, 0, 1, 0, 10, "a"), (2, 0, 1, 3, 4, "d")])

    def test_no_nodes(self):
        self.assertEqual(prepare.gantt_segments([job(1, 0, 0, 1)]), ([], []))


class SummaryRowsTest(unittest.TestCase):
    SUMMARY = {"policy": "easy", "trace": "/t/a.swf", "jobs": 4, "utilization": 0.86111, "makespan": 12,
               "wait": {"mean": 2.25, "median": 2.0, "p90": 5, "p99": 5, "max": 5},
               "bounded_slowdown": {"mean": 1.0, "max": 1.0, "bound": 10}, "throughput_per_hour": 1200.0,
               "skipped": {"total": 0}, "partial": False, "queue_depth": 32}

    def test_one_row_per_run(self):
        run = Run(folder=pathlib.Path("runs/one"), summary=self.SUMMARY, label="easy a.swf")
        other = Run(folder=pathlib.Path("runs/two"), summary={"policy": "fcfs"}, label="fcfs ?")
        rows = prepare.summary_rows([run, other])
        self.assertEqual(len(rows), 2)
        self.assertEqual(rows[0], {
            "label": "easy a.swf", "folder": "runs/one", "trace": "/t/a.swf", "queue_policy": "easy",
            "match_policy": "", "depth": "32", "machine": "", "jobs": "4", "utilization": "0.8611",
            "makespan": "12", "wait_mean": "2.25", "wait_median": "2.0", "wait_p90": "5", "wait_p99": "5",
            "wait_max": "5", "bounded_slowdown_mean": "1.000", "bounded_slowdown_max": "1.000",
            "throughput_per_hour": "1200.00", "skipped": "0", "partial": "no"})
        self.assertEqual((rows[1]["queue_policy"], rows[1]["jobs"], rows[1]["wait_mean"]), ("fcfs", "", ""))


class ComparisonTest(unittest.TestCase):
    def runs(self):
        def run(policy, trace, wait):
            return Run(folder=pathlib.Path(policy + trace), label=f"{policy} {trace}",
                       summary={"policy": policy, "trace": "/x/" + trace, "wait": {"mean": wait}})
        return [run("easy", "a.swf", 1.5), run("fcfs", "a.swf", 4.0), run("easy", "b.swf", 2.0)]

    def test_groups_by_trace_bars_by_policy(self):
        self.assertEqual(prepare.comparison(self.runs(), ("wait", "mean")),
                         [("a.swf", [("easy", 1.5), ("fcfs", 4.0)]), ("b.swf", [("easy", 2.0)])])

    def test_bar_positions_centre_each_group(self):
        groups = [("a", [("x", 1), ("y", 2)]), ("b", [("x", 3)])]
        xs, width, centres = prepare.bar_positions(groups, width=0.8)
        self.assertEqual(width, 0.4)
        self.assertEqual(xs, [[-0.2, 0.2], [1.0]])
        self.assertEqual(centres, [0, 1])

    def test_traces_sharing_a_file_name_keep_their_paths(self):
        runs = self.runs()
        runs[2].summary["trace"] = "/y/a.swf"
        self.assertEqual([name for name, _ in prepare.trace_groups(runs)], ["/x/a.swf", "/y/a.swf"])


if __name__ == "__main__":
    unittest.main()
