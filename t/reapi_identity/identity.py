#!/usr/bin/env python3
"""Byte identity of libreapi_cli and resource-query (spec/reapi.md §7:
R bytes identical to the CLI's writers; docs/library.md).

For every conformance case (read from ../shared/conformance at test time)
whose commands the C API can express (match, cancel, partial-cancel,
update, find, info, set-/get-status, attach, remove PATH true), runs the
case's command file through resource-query and the same sequence through
the library (ctypes), and compares: the R text of every match, update and
find (find: the library's compact JSON against the CLI's, compacted), each
match's success and job id, and the info lines. Exit 77 when the suite is
absent. Prints `covered N, passed P, failed F` last.
"""
import argparse, ctypes, json, os, re, shutil, subprocess, sys, tempfile

EXPRESSIBLE = {"match": "match", "m": "match", "cancel": "cancel", "c": "cancel",
               "partial-cancel": "pc", "pc": "pc", "update": "update", "u": "update",
               "find": "find", "f": "find", "info": "info", "i": "info",
               "set-status": "set", "t": "set", "get-status": "get", "e": "get",
               "attach": "attach", "j": "attach", "remove": "remove", "r": "remove",
               "quit": "quit", "q": "quit"}
OPTS = {"-L": "file", "-f": "load_format", "-S": "matcher_name", "-P": "matcher_policy",
        "-F": "match_format", "-W": "load_allowlist", "-T": "traverser_policy", "-p": "prune_filters",
        "-t": "out", "-r": "reserve_vtx_vec"}
RULE = "INFO: ============================="


class Ctx(ctypes.Structure):
    pass


def load_lib(path):
    lib = ctypes.CDLL(path, use_errno=True)
    P = ctypes.POINTER
    c, b, u64, i64, d = ctypes.c_char_p, ctypes.c_bool, ctypes.c_uint64, ctypes.c_int64, ctypes.c_double
    vp = ctypes.c_void_p
    sig = {"reapi_cli_new": ([], P(Ctx)), "reapi_cli_destroy": ([P(Ctx)], None),
           "reapi_cli_initialize": ([P(Ctx), c, c], ctypes.c_int),
           "reapi_cli_match": ([P(Ctx), ctypes.c_int, c, P(u64), P(b), P(vp), P(i64), P(d)], ctypes.c_int),
           "reapi_cli_match_with_jobid": ([P(Ctx), ctypes.c_int, c, u64, P(b), P(vp), P(i64), P(d)], ctypes.c_int),
           "reapi_cli_cancel": ([P(Ctx), u64, b], ctypes.c_int),
           "reapi_cli_partial_cancel": ([P(Ctx), u64, c, b, P(b)], ctypes.c_int),
           "reapi_cli_update_allocate": ([P(Ctx), u64, c, P(i64), P(d), P(vp)], ctypes.c_int),
           "reapi_cli_find": ([P(Ctx), c, c, P(vp)], ctypes.c_int),
           "reapi_cli_info": ([P(Ctx), u64, P(vp), P(b), P(i64), P(d)], ctypes.c_int),
           "reapi_cli_set_status": ([P(Ctx), c, ctypes.c_int], ctypes.c_int),
           "reapi_cli_get_status": ([P(Ctx), c, P(ctypes.c_int)], ctypes.c_int),
           "reapi_cli_add_subgraph": ([P(Ctx), c], ctypes.c_int),
           "reapi_cli_remove_subgraph": ([P(Ctx), c], ctypes.c_int),
           "reapi_cli_free": ([vp], None), "match_op_from_string": ([c], ctypes.c_int)}
    for name, (args, res) in sig.items():
        f = getattr(lib, name)
        f.argtypes, f.restype = args, res
    return lib


def take(lib, p):
    if not p.value:
        return None
    s = ctypes.string_at(p.value).decode()
    lib.reapi_cli_free(p)
    return s


def compact(text):
    try:
        return json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    except ValueError:
        return text


def parse_case(case):
    steps = case.get("steps")
    if steps:
        runs = [s for s in steps if s["op"] == "run"]
        if len(runs) != 1:
            return None
        args, stdin = runs[0]["args"], runs[0]["stdin"]
    else:
        args, stdin = case["args"], {"data": case["commands"], "subst": case.get("commands_subst", True)}
    if "data" not in stdin:
        return None
    opts, i = {}, 0
    while i < len(args):
        key = OPTS.get(args[i])
        if key is None:
            if args[i] == "-d":
                i += 1
                continue
            return None  # -e, -o, --state ...: output the library has no part in
        opts[key] = args[i + 1]
        i += 2
    return opts, stdin


def library_run(lib, graph_text, options, lines, read):
    """The command lines through the library: a list of events."""
    ctx = lib.reapi_cli_new()
    ev = []
    if lib.reapi_cli_initialize(ctx, graph_text.encode(), json.dumps(options).encode()) != 0:
        lib.reapi_cli_destroy(ctx)
        return None
    use_ids = any(l.split()[0] in ("update", "u") for l in lines if l.split())
    nxt, live = 1, set()
    try:
        for line in lines:
            w = line.split()
            cmd = EXPRESSIBLE[w[0]]
            if cmd == "quit":
                break
            if cmd == "match" and len(w) == 3:
                op = lib.match_op_from_string(w[1].encode())
                text = read(w[2])
                if op == 0 or text is None:
                    continue
                jid, res, at, ov, R = ctypes.c_uint64(), ctypes.c_bool(), ctypes.c_int64(), ctypes.c_double(), ctypes.c_void_p()
                while nxt in live:
                    nxt += 1
                if use_ids:
                    rc = lib.reapi_cli_match_with_jobid(ctx, op, text.encode(), nxt, ctypes.byref(res), ctypes.byref(R), ctypes.byref(at), ctypes.byref(ov))
                    jid.value = nxt
                else:
                    rc = lib.reapi_cli_match(ctx, op, text.encode(), ctypes.byref(jid), ctypes.byref(res), ctypes.byref(R), ctypes.byref(at), ctypes.byref(ov))
                err = ctypes.get_errno()
                allocating = w[1] not in ("satisfiability", "without_allocating", "without_allocating_future")
                if rc == 0 and allocating:
                    live.add(jid.value)
                if allocating and (rc == 0 or err in (16, 19)):
                    nxt += 1
                if rc != 0 and err not in (16, 19):  # a jobspec error: no R, no JOBID block
                    continue
                ev.append(("R", take(lib, R) if rc == 0 else ""))
                ev.append(("match", rc == 0, jid.value if rc == 0 and allocating else None))
            elif cmd == "cancel" and len(w) in (2, 3):
                jid = int(w[1])
                if lib.reapi_cli_cancel(ctx, jid, False) == 0:
                    live.discard(jid)
            elif cmd == "pc" and len(w) in (4, 5):
                text = read(w[3])
                if w[2] not in ("jgf", "rv1exec") or text is None:
                    continue
                full = ctypes.c_bool()
                if lib.reapi_cli_partial_cancel(ctx, int(w[1]), text.encode(), False, ctypes.byref(full)) == 0 and full.value:
                    live.discard(int(w[1]))
            elif cmd == "update" and len(w) == 7:
                text = read(w[3])
                if text is None or w[2] not in ("jgf", "rv1exec", "jgf_shorthand"):
                    continue
                jid, start, dur = int(w[4]), int(w[5]), int(w[6])
                doc = json.loads(text)
                if w[2] == "rv1exec":
                    doc.setdefault("execution", {})
                    doc["execution"]["starttime"] = start
                    doc["execution"]["expiration"] = start + dur
                    doc.pop("scheduling", None)
                else:
                    doc = {"version": 1, "execution": {"starttime": start, "expiration": start + dur},
                           "scheduling": dict(doc, writer=w[2]) if False else doc}
                    if w[2] == "jgf_shorthand":
                        doc["scheduling"] = dict(doc["scheduling"], writer="jgf_shorthand")
                at, ov, R = ctypes.c_int64(), ctypes.c_double(), ctypes.c_void_p()
                rc = lib.reapi_cli_update_allocate(ctx, jid, json.dumps(doc).encode(), ctypes.byref(at), ctypes.byref(ov), ctypes.byref(R))
                ev.append(("R", take(lib, R) if rc == 0 else ""))
                if rc == 0:
                    live.add(jid)
                nxt = jid + 1
            elif cmd == "find" and len(w) >= 2:
                R = ctypes.c_void_p()
                rc = lib.reapi_cli_find(ctx, " ".join(w[1:]).encode(), None, ctypes.byref(R))
                if rc == 0:
                    ev.append(("find", take(lib, R)))
            elif cmd == "info" and len(w) == 2:
                mode, res, at, ov = ctypes.c_void_p(), ctypes.c_bool(), ctypes.c_int64(), ctypes.c_double()
                if lib.reapi_cli_info(ctx, int(w[1]), ctypes.byref(mode), ctypes.byref(res), ctypes.byref(at), ctypes.byref(ov)) == 0:
                    ev.append(("info", int(w[1]), take(lib, mode), at.value))
            elif cmd == "set" and len(w) == 3 and w[2] in ("up", "down"):
                lib.reapi_cli_set_status(ctx, w[1].encode(), 0 if w[2] == "up" else 1)
            elif cmd == "get" and len(w) == 2:
                st = ctypes.c_int()
                if lib.reapi_cli_get_status(ctx, w[1].encode(), ctypes.byref(st)) == 0:
                    ev.append(("status", w[1], "up" if st.value == 0 else "down"))
            elif cmd == "attach" and len(w) == 2:
                text = read(w[1])
                if text is not None:
                    lib.reapi_cli_add_subgraph(ctx, text.encode())
            elif cmd == "remove" and len(w) == 3 and w[2] == "true":
                lib.reapi_cli_remove_subgraph(ctx, w[1].encode())
    finally:
        lib.reapi_cli_destroy(ctx)
    return ev


def cli_events(out, stdout):
    """The same events from resource-query's output streams."""
    ev = []
    text, block = [], None
    for line in out.splitlines(keepends=True):
        s = line.rstrip("\n")
        if block is not None:
            block.append(s)
            if s == RULE:
                body = block
                if any(b.startswith("INFO: EXPRESSION=") for b in body):
                    ev.append(("find", compact("".join(text)) if text else None))
                elif any(b.startswith("INFO: JOBID=") for b in body) and not any("Jobspec error" in b for b in body):
                    ok = any(b.startswith("INFO: RESOURCES=") for b in body)
                    matched = "INFO: RESOURCES=MATCHED" in body  # without_allocating: the library says UINT64_MAX
                    jid = next((int(b.split("=")[1]) for b in body if b.startswith("INFO: JOBID=")), None)
                    ev.append(("R", "".join(text)))
                    ev.append(("match", ok, jid if ok and not matched else None))
                elif any(b in ("INFO: Satisfiable request", "INFO: Unsatisfiable request") for b in body) and len(body) <= 4:
                    ev.append(("R", "".join(text)))
                    ev.append(("match", body[1] == "INFO: Satisfiable request", None))
                text, block = [], None
            continue
        if s == RULE:
            block = [s]
            continue
        m = re.match(r"^(\S+) is (up|down)$", s)
        if m:
            ev.append(("status", m.group(1), m.group(2)))
            continue
        if out is stdout and re.match(r"^INFO: (\d+), (\w+), (-?\d+), ", s):
            continue  # an info line (compared from stdout below)
        if s.startswith("Could not find path") or s.startswith("Couldn't find path"):
            continue
        text.append(line)
    for s in stdout.splitlines():
        m = re.match(r"^INFO: (\d+), (\w+), (-?\d+), ", s)
        if m:
            ev.append(("info", int(m.group(1)), m.group(2), int(m.group(3))))
    return ev


def normalise(lib_ev, cli_ev, updates):
    """Library events in the CLI's order of kinds (info lines come from a
    different stream, so each kind is compared as its own sequence)."""
    def by_kind(ev, kind):
        return [e[1:] for e in ev if e[0] == kind]
    lib_ev = [("find", compact(e[1]) if e[1] else None) if e[0] == "find" else e for e in lib_ev]
    problems = []
    for kind in ("R", "find", "info", "status"):
        a, b = by_kind(lib_ev, kind), by_kind(cli_ev, kind)
        if a != b:
            problems.append("%s: library %r vs cli %r" % (kind, a[:3], b[:3]))
    if not updates:
        a = [e for e in by_kind(lib_ev, "match")]
        b = [e for e in by_kind(cli_ev, "match")]
        if a != b:
            problems.append("match outcomes: library %r vs cli %r" % (a[:5], b[:5]))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--only")
    ap.add_argument("--verbose", action="store_true")
    o = ap.parse_args()
    conf = os.path.join(o.shared, "conformance")
    if not os.path.isfile(os.path.join(conf, "manifest.json")):
        print("conformance suite absent: skipped")
        return 77
    data = os.path.abspath(os.path.join(conf, "data"))
    lib = load_lib(os.path.abspath(o.lib))
    root = tempfile.mkdtemp(prefix="rq-reapi-identity.")
    srcdir = os.path.join(root, "srcdir")
    os.makedirs(os.path.join(srcdir, "data"))
    os.symlink(data, os.path.join(srcdir, "data", "resource"))
    os.symlink(os.path.join(data, "hwloc-data"), os.path.join(srcdir, "data", "hwloc-data"))
    subst = lambda s: s.replace("@DATA@", data).replace("@TEST_SRCDIR@", srcdir)
    env = dict(os.environ, LANG="C", LC_ALL="C", TZ="UTC")
    covered = passed = texts = 0
    failures = []
    try:
        for case in json.load(open(os.path.join(conf, "manifest.json")))["cases"]:
            if o.only and not re.search(o.only, case["id"]):
                continue
            parsed = parse_case(case)
            if parsed is None:
                continue
            opts, stdin = parsed
            raw = open(os.path.join(data, stdin["data"]), encoding="utf-8", errors="replace").read()
            if stdin.get("subst", True):
                raw = subst(raw)
            lines = [l for l in raw.splitlines() if l.split() and not l.split()[0].startswith("#")]
            if not lines or any(l.split()[0] not in EXPRESSIBLE for l in lines):
                continue
            if any(l.split()[0] in ("remove", "r") and (len(l.split()) != 3 or l.split()[2] != "true") for l in lines):
                continue
            gfile = subst(opts.get("file", "conf/default"))
            try:
                graph_text = open(gfile, encoding="utf-8").read()
            except OSError:
                continue
            work = tempfile.mkdtemp(dir=root)
            args = [os.path.abspath(o.bin), "-d"] + [x for k, v in opts.items() if k != "out" for x in (
                {v2: k2 for k2, v2 in OPTS.items()}[k], subst(v))]
            if "out" in opts:
                args += ["-t", "out"]
            p = subprocess.run(args, input=raw.encode(), cwd=work, env=env, capture_output=True, timeout=300)
            stdout = p.stdout.decode(errors="replace")
            out = open(os.path.join(work, "out"), encoding="utf-8", errors="replace").read() if "out" in opts else stdout
            if p.returncode != 0:
                continue
            options = {k: v for k, v in opts.items() if k not in ("file", "out", "reserve_vtx_vec")}
            options.setdefault("match_format", "simple")  # the CLI's default, not the library's
            if "reserve_vtx_vec" in opts:
                options["reserve_vtx_vec"] = int(opts["reserve_vtx_vec"])

            def read(path):
                try:
                    return open(os.path.join(work, path) if not os.path.isabs(path) else path, encoding="utf-8").read()
                except (OSError, UnicodeDecodeError):
                    return None
            lib_ev = library_run(lib, graph_text, options, lines, read)
            shutil.rmtree(work, ignore_errors=True)
            if lib_ev is None:
                continue
            covered += 1
            updates = any(l.split()[0] in ("update", "u") for l in lines)
            problems = normalise(lib_ev, cli_events(out, stdout), updates)
            if problems:
                failures.append((case["id"], problems))
            else:
                passed += 1
                texts += sum(1 for e in lib_ev if e[0] in ("R", "find") and e[1])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for cid, problems in failures:
        print("FAIL %s" % cid)
        if o.verbose:
            for pr in problems:
                print("   " + pr[:2000])
    print("%d non-empty R texts identical" % texts)
    print("covered %d, passed %d, failed %d" % (covered, passed, len(failures)))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
