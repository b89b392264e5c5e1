"""page.py: the summary table and the page's parts, escaped."""
import pathlib
import tempfile
import unittest

from rqreport import page, prepare
from rqreport.build import Section
from rqreport.figures import Figure


def row(label, **figures):
    r = {c: "" for c in ("folder", *prepare.DESCRIPTION_COLUMNS)}
    r.update({name: "" for name, _, _, _ in prepare.SUMMARY_COLUMNS})
    r.update(label=label, **figures)
    return r


class PageTest(unittest.TestCase):
    def test_one_table_row_per_run_and_empty_columns_left_out(self):
        table = page.summary_table([row("easy <a>", queue_policy="easy", jobs="4"), row("fcfs", queue_policy="fcfs")])
        self.assertEqual(table.count('<tr class="run">'), 2)
        self.assertIn('<td class="text">easy &lt;a&gt;</td><td class="text">easy</td><td>4</td>', table)
        self.assertIn("<th>queue policy</th>", table)
        self.assertNotIn("<th>machine</th>", table)   # no run has one

    def test_paths_shown_by_file_name(self):
        table = page.summary_table([row("r", trace="/data/a.swf", machine="tiny")])
        self.assertIn('<td class="text" title="/data/a.swf">a.swf</td><td class="text">tiny</td>', table)

    def test_page_has_figures_notes_and_the_image_check(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "index.html"
            sections = [Section("Trace a.swf", [Figure("wait-cdf-1", "Wait & see", "caption")], ["a note"]),
                        Section("Empty")]
            page.write_index(path, "T <1>", [row("x")], sections)
            text = path.read_text()
        self.assertIn("<title>T &lt;1&gt;</title>", text)
        self.assertIn('<img src="wait-cdf-1.png" alt="Wait &amp; see">', text)
        self.assertIn('<a href="wait-cdf-1.svg">SVG</a>', text)
        self.assertIn('<p class="note">a note</p>', text)
        self.assertIn('<p id="image-check">', text)
        self.assertNotIn("<h2>Empty</h2>", text)      # a section with nothing in it
        self.assertNotIn("http", text)                # nothing fetched


if __name__ == "__main__":
    unittest.main()
