"""labels.py: which name a run, a trace and a bar get (docs/study.md "Labels")."""
import pathlib
import unittest

from rqreport import labels
from rqreport.runs import Run


def run(summary, cell=None, label=""):
    return Run(folder=pathlib.Path("r"), summary=summary, cell=cell, label=label)


class LabelTest(unittest.TestCase):
    def test_policy_and_trace_file_name_without_cell(self):
        self.assertEqual(labels.base_label(run({"policy": "easy", "trace": "/data/kth.swf"})), "easy kth.swf")

    def test_cell_id_when_a_sweep_wrote_cell_json(self):
        cell = {"id": "m0-t1-easy-first-d32", "trace": "b.swf", "queue_policy": "easy"}
        self.assertEqual(labels.base_label(run({"policy": "easy", "trace": "a.swf"}, cell)), "m0-t1-easy-first-d32")

    def test_unknown_fields(self):
        self.assertEqual(labels.base_label(run({})), "? ?")

    def test_repeated_labels_are_numbered(self):
        runs = [run({"policy": "easy", "trace": "a.swf"}) for _ in range(3)]
        self.assertEqual(labels.unique_labels(runs), ["easy a.swf", "easy a.swf #2", "easy a.swf #3"])

    def test_cell_fields_come_before_the_summary(self):
        r = run({"policy": "easy", "trace": "a.swf", "queue_depth": 32, "match_policy": "first"},
                {"trace": "traces/b.swf", "depth": 8})
        self.assertEqual(labels.describe(r), {"machine": "", "trace": "traces/b.swf", "queue_policy": "easy",
                                              "match_policy": "first", "depth": "8"})
        self.assertEqual(labels.trace_name(r), "b.swf")

    def test_a_machine_mapping_by_its_name(self):
        r = run({"policy": "easy"}, {"machine": {"name": "pool", "resource": ["cpus=4x8"]}})
        self.assertEqual(labels.describe(r)["machine"], "pool")


class VariantTest(unittest.TestCase):
    def test_the_queue_policy_when_only_it_varies(self):
        runs = [run({"policy": p, "trace": "a.swf", "queue_depth": 32}) for p in ("easy", "fcfs")]
        self.assertEqual(labels.variant_labels(runs), ["easy", "fcfs"])

    def test_every_varying_setting(self):
        runs = [run({"policy": p, "trace": "a.swf", "queue_depth": d, "machine": "conf/tiny.graphml"})
                for p in ("easy", "fcfs") for d in (8, 32)]
        self.assertEqual(labels.variant_labels(runs), ["easy depth 8", "easy depth 32", "fcfs depth 8",
                                                       "fcfs depth 32"])

    def test_machine_by_file_name(self):
        runs = [run({"policy": "easy", "trace": "a.swf", "machine": m}) for m in ("conf/tiny.graphml", "x/big")]
        self.assertEqual(labels.variant_labels(runs), ["easy tiny.graphml", "easy big"])

    def test_same_settings_fall_back_to_the_label(self):
        runs = [run({"policy": "easy", "trace": "a.swf"}, label=f"run {k}") for k in (1, 2)]
        self.assertEqual(labels.variant_labels(runs), ["run 1", "run 2"])

    def test_one_run(self):
        self.assertEqual(labels.variant_labels([run({"policy": "conservative"})]), ["conservative"])


if __name__ == "__main__":
    unittest.main()
