"""runs.py: reading a run folder, and one clear line for each bad input."""
import json
import pathlib
import tempfile
import unittest

from rqreport import runs

JOBS = ("job,name,queue,submit,start,end,wait,runtime,estimate,size,status,nodes\n"
        "1,a,q,0,0,10,0,10,20,4,completed,node[0-1]\n"
        "2,\"b,c\",q,5,,,,,,2,completed,\n"
        "3,d,q,6,10,12,4,2,20,2,killed,\"n1,m[2-3]\"\n")
SERIES = ("time,running_jobs,busy_cores,busy_nodes,pending_jobs,reserved_jobs,started_jobs,finished_jobs\n"
          "0,1,4,2,0,0,1,0\n5,1,4,2,1,0,1,0\n10,1,2,1,0,0,2,1\n12,0,0,0,0,0,2,2\n")


class RunFolderTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.folder = pathlib.Path(self.tmp.name)
        self.write("summary.json", json.dumps({"policy": "easy", "trace": "t.swf"}))

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        (self.folder / name).write_text(text)

    def error(self):
        with self.assertRaises(runs.ReportError) as caught:
            runs.read_run(self.folder)
        return str(caught.exception)

    def test_reads_every_file(self):
        self.write("jobs.csv", JOBS)
        self.write("series.csv", SERIES)
        self.write("cell.json", json.dumps({"id": "c1"}))
        run = runs.read_run(self.folder)
        self.assertEqual([(j.id, j.submit, j.start, j.end, j.size, j.status, j.nodes) for j in run.jobs],
                         [("1", 0, 0, 10, 4, "completed", "node[0-1]"), ("2", 5, None, None, 2, "completed", ""),
                          ("3", 6, 10, 12, 2, "killed", "n1,m[2-3]")])
        self.assertEqual(run.series.columns["time"], [0, 5, 10, 12])
        self.assertEqual(run.series.columns["pending_jobs"], [0, 1, 0, 0])
        self.assertEqual(run.series.columns["finished_jobs"], [0, 0, 1, 2])
        self.assertEqual(run.cell, {"id": "c1"})
        self.assertEqual(run.notes, [])

    def test_jobs_csv_without_nodes(self):
        self.write("jobs.csv", "job,name,queue,submit,start,end,wait,runtime,estimate,size,status\n"
                               "1,a,q,0,0,10,0,10,20,4,completed\n")
        self.assertEqual(runs.read_run(self.folder).jobs[0].nodes, "")

    def test_missing_files_are_notes(self):
        run = runs.read_run(self.folder)
        self.assertEqual((run.jobs, run.series), (None, None))
        self.assertEqual(len(run.notes), 2)
        self.assertIn("series.csv missing", run.notes[1])

    def test_missing_summary(self):
        (self.folder / "summary.json").unlink()
        self.assertEqual(self.error(), f"{self.folder}/summary.json: missing (a run folder holds the replay's "
                                       "--replay-summary)")

    def test_not_a_folder(self):
        with self.assertRaises(runs.ReportError) as caught:
            runs.read_run(self.folder / "nothing")
        self.assertIn("nothing: not a folder", str(caught.exception))

    def test_bad_json(self):
        self.write("summary.json", '{\n"policy": }')
        self.assertEqual(self.error(), f"{self.folder}/summary.json: line 2: not JSON: Expecting value")
        self.write("summary.json", "[1]")
        self.assertEqual(self.error(), f"{self.folder}/summary.json: expected a JSON object")

    def test_bad_number(self):
        self.write("jobs.csv", JOBS.replace("5,,,", "x5,,,"))
        self.assertEqual(self.error(), f"{self.folder}/jobs.csv: line 3: column 'submit': not an integer: 'x5'")

    def test_missing_column(self):
        self.write("series.csv", SERIES.replace("busy_nodes,", ""))
        self.assertEqual(self.error(), f"{self.folder}/series.csv: line 1: header lacks column(s) busy_nodes")

    def test_short_row(self):
        self.write("series.csv", SERIES + "13,0\n")
        self.assertEqual(self.error(), f"{self.folder}/series.csv: line 6: 2 fields, the header has 8")

    def test_time_going_back(self):
        self.write("series.csv", SERIES + "11,0,0,0,0,0,2,2\n")
        self.assertEqual(self.error(), f"{self.folder}/series.csv: line 6: time 11 is before the previous row's 12")

    def test_empty_file(self):
        self.write("jobs.csv", "")
        self.assertEqual(self.error(), f"{self.folder}/jobs.csv: empty file, expected a header line")


if __name__ == "__main__":
    unittest.main()
