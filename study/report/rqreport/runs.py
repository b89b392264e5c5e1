"""Reading run folders: jobs.csv, series.csv, summary.json, cell.json.

The formats are those of the replay (docs/queue.md "Replay", docs/study.md
"Run folders"); a file that breaks them stops the report with one line
naming the file, the line and the problem.
"""
import csv
import json
import pathlib
from dataclasses import dataclass, field

JOBS_FILE, SERIES_FILE, SUMMARY_FILE, CELL_FILE = "jobs.csv", "series.csv", "summary.json", "cell.json"

# jobs.csv: `nodes` is optional (replays before it was added lack it).
JOBS_COLUMNS = ("job", "submit", "start", "end", "size", "status")
SERIES_COLUMNS = ("time", "running_jobs", "busy_cores", "busy_nodes", "pending_jobs",
                  "reserved_jobs", "started_jobs", "finished_jobs")


class ReportError(Exception):
    """A problem with the input, said in one line that names the file."""


@dataclass(slots=True)
class Job:
    id: str
    submit: int
    start: object  # int, or None for a job that never ran
    end: object
    size: int
    status: str
    nodes: str

    @property
    def ran(self):
        return self.start is not None and self.end is not None


@dataclass
class Series:
    """Columns of series.csv, one list of ints per column, rows in time order."""
    columns: dict

    def __len__(self):
        return len(self.columns["time"])


@dataclass
class Run:
    folder: pathlib.Path
    summary: dict
    cell: object = None          # dict from cell.json, or None
    jobs: object = None          # list of Job, or None without jobs.csv
    series: object = None        # Series, or None without series.csv
    label: str = ""
    notes: list = field(default_factory=list)


def _int(text, path, line, column, empty_ok=False):
    text = text.strip()
    if empty_ok and (text == "" or text == "-1"):
        return None
    try:
        return int(text)
    except ValueError:
        raise ReportError(f"{path}: line {line}: column '{column}': not an integer: '{text}'") from None


def _header(reader, path, required):
    try:
        header = next(reader)
    except StopIteration:
        raise ReportError(f"{path}: empty file, expected a header line") from None
    index = {name.strip(): i for i, name in enumerate(header)}
    missing = [c for c in required if c not in index]
    if missing:
        raise ReportError(f"{path}: line 1: header lacks column(s) {', '.join(missing)}")
    return index


def _rows(path, required):
    """(line number, row, column index) of each data row of a CSV file."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        index = _header(reader, path, required)
        for row in reader:
            if not row:
                continue
            if len(row) < len(index):
                raise ReportError(f"{path}: line {reader.line_num}: {len(row)} fields, "
                                  f"the header has {len(index)}")
            yield reader.line_num, row, index


def read_jobs(path):
    jobs = []
    for line, row, ix in _rows(path, JOBS_COLUMNS):
        get = lambda c: row[ix[c]]  # noqa: E731
        jobs.append(Job(id=get("job"), submit=_int(get("submit"), path, line, "submit"),
                        start=_int(get("start"), path, line, "start", empty_ok=True),
                        end=_int(get("end"), path, line, "end", empty_ok=True),
                        size=_int(get("size"), path, line, "size"), status=get("status"),
                        nodes=row[ix["nodes"]] if "nodes" in ix else ""))
    return jobs


def read_series(path):
    columns = {c: [] for c in SERIES_COLUMNS}
    previous = None
    for line, row, ix in _rows(path, SERIES_COLUMNS):
        for c in SERIES_COLUMNS:
            columns[c].append(_int(row[ix[c]], path, line, c))
        time = columns["time"][-1]
        if previous is not None and time < previous:
            raise ReportError(f"{path}: line {line}: time {time} is before the previous row's {previous}")
        previous = time
    return Series(columns)


def read_json_object(path):
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
    except json.JSONDecodeError as e:
        raise ReportError(f"{path}: line {e.lineno}: not JSON: {e.msg}") from None
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not UTF-8 text") from None
    if not isinstance(value, dict):
        raise ReportError(f"{path}: expected a JSON object")
    return value


def read_run(folder):
    """A Run from `folder`; summary.json is required, the rest optional."""
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        raise ReportError(f"{folder}: not a folder (expected a run folder holding {SUMMARY_FILE})")
    summary_path = folder / SUMMARY_FILE
    if not summary_path.is_file():
        raise ReportError(f"{summary_path}: missing (a run folder holds the replay's --replay-summary)")
    try:
        run = Run(folder=folder, summary=read_json_object(summary_path))
        if (folder / CELL_FILE).is_file():
            run.cell = read_json_object(folder / CELL_FILE)
        if (folder / JOBS_FILE).is_file():
            run.jobs = read_jobs(folder / JOBS_FILE)
        else:
            run.notes.append(f"{JOBS_FILE} missing: no wait, slowdown or Gantt figures")
        if (folder / SERIES_FILE).is_file():
            run.series = read_series(folder / SERIES_FILE)
        else:
            run.notes.append(f"{SERIES_FILE} missing: no utilization or pending-jobs curve")
    except OSError as e:
        raise ReportError(f"{e.filename}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ReportError(f"{folder}: a file is not UTF-8 text ({e.reason})") from None
    return run
