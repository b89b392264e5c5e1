"""A sweep's grid: read, check and expand it into cells (docs/study.md "The sweep").

A grid file (YAML or JSON) holds:
  machines:        list; each a -L path (string) or a mapping with
                   `load` (a -L path), `format` (-f), `resource` (a
                   --resource NAME=DEF or a list of them), `name` (label)
  traces:          list of trace paths (SWF or YAML, --replay)
  queue_policies:  list (default [fcfs])
  match_policies:  list (default [first])
  depths:          list of --queue-depth values (default [32])
  options:         list of extra resource-query options for every cell
Relative paths are resolved against the grid file's folder.

Expansion is the cartesian product in this order, the last varying
fastest: machines, traces, queue_policies, match_policies, depths. A cell's
index is its position in that order (the Slurm array task id) and its id
is m<machine>-t<trace>-<queue policy>-<match policy>-d<depth>.
"""
import itertools
import json
import os
import re

GRID_KEYS = ("machines", "traces", "queue_policies", "match_policies", "depths", "options")
MACHINE_KEYS = ("load", "format", "resource", "name")
QUEUE_POLICIES = ("fcfs", "easy", "conservative", "hybrid", "jqm", "jqm-skip")
MATCH_POLICIES = ("first", "firstnodex", "high", "low", "hinode", "lonode",
                  "hinodex", "lonodex", "locality", "variation")
LOAD_FORMATS = ("grug", "hwloc", "jgf", "jgf_shorthand", "rv1exec", "rv1exec_force",
                "graphml", "db", "hq", "canary", "ctest", "local")
# Options the sweep gives each cell itself (docs/study.md "The sweep").
RESERVED_OPTIONS = ("-L", "--load-file", "-f", "--load-format", "--resource", "-P",
                    "--match-policy", "--queue-policy", "--queue-depth", "--replay",
                    "--replay-csv", "--replay-series", "--replay-summary")
READABLE = re.compile(r"^[A-Za-z0-9_.+]+$")


class GridError(Exception):
    """One line: FILE: KEY: problem."""


class Machine:
    def __init__(self, label, args):
        self.label = label      # as the grid wrote it, for cell.json and merged.csv
        self.args = args        # resource-query options, paths absolute


class Cell:
    def __init__(self, index, cell_id, machine, trace_label, trace_path,
                 queue_policy, match_policy, depth, options):
        self.index = index
        self.id = cell_id
        self.machine = machine
        self.trace_label = trace_label
        self.trace_path = trace_path
        self.queue_policy = queue_policy
        self.match_policy = match_policy
        self.depth = depth
        self.options = options

    def description(self):
        """cell.json's content (docs/study.md "Running locally")."""
        return {"id": self.id, "index": self.index, "machine": self.machine.label,
                "trace": self.trace_label, "queue_policy": self.queue_policy,
                "match_policy": self.match_policy, "depth": self.depth,
                "options": list(self.options)}

    def replay_args(self):
        """resource-query's options, outputs not included."""
        return (self.machine.args + ["-P", self.match_policy, "--queue-policy", self.queue_policy,
                                     "--queue-depth", str(self.depth), "--replay", self.trace_path]
                + list(self.options))


def read_grid_file(path):
    """The grid's top-level mapping; YAML needs Debian's python3-yaml."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise GridError(f"{path}: cannot read: {e.strerror}")
    if path.endswith(".json"):
        try:
            data = json.loads(text)
        except ValueError as e:
            raise GridError(f"{path}: not JSON: {e}")
    else:
        try:
            import yaml
        except ImportError:
            raise GridError(f"{path}: YAML grids need PyYAML (Debian python3-yaml); "
                            "or write the grid as .json")
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as e:
            raise GridError(f"{path}: not YAML: {' '.join(str(e).split())}")
    if not isinstance(data, dict):
        raise GridError(f"{path}: the grid must be a mapping with keys {', '.join(GRID_KEYS)}")
    return data


def _list(grid_file, data, key, default=None):
    if key not in data:
        if default is None:
            raise GridError(f"{grid_file}: {key}: missing (a non-empty list is required)")
        return default
    value = data[key]
    if not isinstance(value, list) or not value:
        raise GridError(f"{grid_file}: {key}: must be a non-empty list")
    return value


def _unique(grid_file, key, values, compared=None):
    """Refuses a value given twice (two cells would get one id); compared:
    what makes two values the same (resolved paths), default the values."""
    seen = {}
    for i, v in enumerate(compared or values):
        if v in seen:
            raise GridError(f"{grid_file}: {key}[{i}]: duplicate of {key}[{seen[v]}] ({values[i]})")
        seen[v] = i


def _path(folder, text):
    return os.path.normpath(os.path.join(folder, os.path.expanduser(text)))


def _machine(grid_file, folder, i, entry):
    where = f"{grid_file}: machines[{i}]"
    if isinstance(entry, str) and entry:
        return Machine(entry, ["-L", _path(folder, entry)])
    if not isinstance(entry, dict):
        raise GridError(f"{where}: must be a path or a mapping with keys {', '.join(MACHINE_KEYS)}")
    for key in entry:
        if key not in MACHINE_KEYS:
            raise GridError(f"{where}: unknown key '{key}' (known: {', '.join(MACHINE_KEYS)})")
    for key in ("load", "format", "name"):
        if key in entry and (not isinstance(entry[key], str) or not entry[key]):
            raise GridError(f"{where}.{key}: must be a non-empty string")
    resources = entry.get("resource", [])
    if isinstance(resources, str):
        resources = [resources]
    if not isinstance(resources, list) or not all(isinstance(r, str) and "=" in r for r in resources):
        raise GridError(f"{where}.resource: must be NAME=DEF or a list of them")
    fmt = entry.get("format")
    if fmt is not None and fmt not in LOAD_FORMATS:
        raise GridError(f"{where}.format: unknown format '{fmt}' (known: {', '.join(LOAD_FORMATS)})")
    if "load" not in entry and fmt != "local" and not resources:
        raise GridError(f"{where}: needs load, resource or format: local")
    args, label = [], []
    if "load" in entry:
        args += ["-L", _path(folder, entry["load"])]
        label.append(entry["load"])
    if fmt is not None:
        args += ["-f", fmt]
        label.insert(0, f"-f {fmt}")
    for r in resources:
        args += ["--resource", r]
        label.append(f"--resource {r}")
    return Machine(entry.get("name", " ".join(label)), args)


def _strings(grid_file, key, values, known=None):
    for i, v in enumerate(values):
        if not isinstance(v, str) or not v:
            raise GridError(f"{grid_file}: {key}[{i}]: must be a non-empty string")
        if known is not None and v not in known and not (key == "match_policies" and "=" in v):
            raise GridError(f"{grid_file}: {key}[{i}]: unknown policy '{v}' (known: {', '.join(known)})")
    _unique(grid_file, key, values)
    return values


def _depths(grid_file, values):
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise GridError(f"{grid_file}: depths[{i}]: must be a whole number >= 0 (0 = all)")
    _unique(grid_file, "depths", values)
    return values


def _options(grid_file, values):
    for i, v in enumerate(values):
        if not isinstance(v, str) or not v:
            raise GridError(f"{grid_file}: options[{i}]: must be a non-empty string")
        name = v.split("=", 1)[0]
        if name in RESERVED_OPTIONS:
            raise GridError(f"{grid_file}: options[{i}]: {name} is set by the sweep for each cell")
    return values


def _word(value, prefix, i):
    """value itself when it is readable in an id, else prefix + position."""
    return value if READABLE.match(value) else f"{prefix}{i}"


def load_grid(grid_file):
    """The grid's cells in expansion order, or GridError."""
    data = read_grid_file(grid_file)
    for key in data:
        if key not in GRID_KEYS:
            raise GridError(f"{grid_file}: unknown key '{key}' (known: {', '.join(GRID_KEYS)})")
    folder = os.path.dirname(os.path.abspath(grid_file))
    machines = [_machine(grid_file, folder, i, m)
                for i, m in enumerate(_list(grid_file, data, "machines"))]
    _unique(grid_file, "machines", [m.label for m in machines], [" ".join(m.args) for m in machines])
    traces = _strings(grid_file, "traces", _list(grid_file, data, "traces"))
    _unique(grid_file, "traces", traces, [_path(folder, t) for t in traces])
    queue_policies = _strings(grid_file, "queue_policies",
                              _list(grid_file, data, "queue_policies", ["fcfs"]), QUEUE_POLICIES)
    match_policies = _strings(grid_file, "match_policies",
                              _list(grid_file, data, "match_policies", ["first"]), MATCH_POLICIES)
    depths = _depths(grid_file, _list(grid_file, data, "depths", [32]))
    options = data.get("options", [])
    if not isinstance(options, list):
        raise GridError(f"{grid_file}: options: must be a list of strings")
    options = _options(grid_file, options)
    cells = []
    for (mi, machine), (ti, trace), queue_policy, (pi, match_policy), depth in itertools.product(
            enumerate(machines), enumerate(traces), queue_policies, enumerate(match_policies), depths):
        cell_id = f"m{mi}-t{ti}-{queue_policy}-{_word(match_policy, 'p', pi)}-d{depth}"
        cells.append(Cell(len(cells), cell_id, machine, trace, _path(folder, trace),
                          queue_policy, match_policy, depth, options))
    return cells
