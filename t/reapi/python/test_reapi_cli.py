"""unittest of the Python module reapi_cli (reapi/python/reapi_cli.py):
every operation of the Context and every exception class.

ctest runs it twice: against the build tree (REAPI_CLI_LIBRARY names the
built library, the module comes from the source tree) and against an
installed prefix (PYTHONPATH only: the module must find its library by
itself). RQ_SOURCE_DIR names the source tree (default: from this file)."""

import ctypes
import errno
import json
import os
import sys
import threading
import unittest

SRC = os.environ.get("RQ_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", "..", ".."))
if not os.environ.get("REAPI_PY_INSTALLED"):
    sys.path.insert(0, os.path.join(SRC, "reapi", "python"))

import reapi_cli  # noqa: E402
from reapi_cli import (Context, MatchOp, ResourceStatus, ReapiError,  # noqa: E402
                       ResourcesBusy, Unsatisfiable, NotFound, InvalidInput,
                       AlreadyExists, ReaderError)


def text(rel):
    with open(os.path.join(SRC, rel)) as f:
        return f.read()


MACHINE = text("t/reapi/data/four-nodes.json")
TINY = text("conf/tiny.graphml")
CORE = text("t/data/jobspecs/core.yaml")
TWO = text("t/reapi/data/two-nodes.yaml")
BIG = text("t/data/jobspecs/too-big.yaml")
BAD = text("t/data/jobspecs/bad-count.yaml")
WHOLE = text("t/data/jobspecs/whole-node.yaml")
NODE2 = text("t/reapi/data/attach-node2.json")


def rank_r(rank):
    return json.dumps({"version": 1, "execution": {
        "R_lite": [{"rank": str(rank), "children": {"core": "0-3"}}],
        "nodelist": ["node%d" % rank], "starttime": 0, "expiration": 3600}})


def machine(**options):
    options.setdefault("load_format", "jgf")
    return Context(MACHINE, **options)


class Installed(unittest.TestCase):
    def test_module_and_library_location(self):
        path = reapi_cli.library_path()
        self.assertTrue(os.path.exists(path) or "/" not in path, path)
        if os.environ.get("REAPI_PY_INSTALLED"):
            prefix = os.environ["REAPI_PY_INSTALLED"]
            self.assertTrue(os.path.abspath(reapi_cli.__file__).startswith(prefix),
                            reapi_cli.__file__)
            self.assertTrue(os.path.abspath(path).startswith(prefix), path)


class Enums(unittest.TestCase):
    def test_match_ops(self):
        names = ["allocate", "allocate_with_satisfiability", "allocate_orelse_reserve",
                 "satisfiability", "without_allocating", "without_allocating_future"]
        for value, name in enumerate(names, start=1):
            self.assertEqual(reapi_cli.match_op_to_string(value), name)
            self.assertEqual(reapi_cli.match_op_from_string(name), MatchOp(value))
            self.assertTrue(reapi_cli.match_op_valid(value))
        self.assertFalse(reapi_cli.match_op_valid(MatchOp.UNKNOWN))
        self.assertFalse(reapi_cli.match_op_valid(MatchOp.END))
        self.assertEqual(reapi_cli.match_op_from_string("nope"), MatchOp.UNKNOWN)
        self.assertEqual((ResourceStatus.UP, ResourceStatus.DOWN), (0, 1))


class Initialize(unittest.TestCase):
    def test_options_as_keywords_string_and_dict(self):
        for opts in ({"options": '{"load_format": "jgf"}'},
                     {"options": {"load_format": "jgf", "unknown_key": 3}},
                     {"load_format": "jgf", "match_format": "simple"}):
            with Context(MACHINE, **opts) as ctx:
                self.assertEqual(ctx.stat().vertices, 29)

    def test_bytes_graph_and_from_file(self):
        with Context(MACHINE.encode(), load_format="jgf") as ctx:
            self.assertEqual(ctx.stat().edges, 28)
        with Context.from_file(os.path.join(SRC, "conf/tiny.graphml")) as ctx:
            self.assertEqual(ctx.stat().vertices, 52)

    def test_reader_error(self):
        with self.assertRaises(ReaderError) as cm:
            Context('{"graph": ', load_format="jgf")
        self.assertEqual(cm.exception.errno, errno.EPROTO)
        self.assertIn("fetch_jgf", cm.exception.message)

    def test_bad_options(self):
        with self.assertRaises(ReapiError):
            Context(MACHINE, options="")
        with self.assertRaises(ReaderError):  # EPROTO, as the original
            Context(MACHINE, load_format=7)
        for bad in ({"load_format": "yaml"}, {"matcher_name": "nosuch"},
                    {"matcher_policy": "nosuch"}, {"reserve_vtx_vec": -1}):
            with self.assertRaises(ReaderError) as cm:
                Context(MACHINE, **bad)
            self.assertEqual(cm.exception.errno, errno.EPROTO, bad)
            self.assertRegex(cm.exception.message, r"^initialize: .*ERROR")
        with self.assertRaises(TypeError):
            Context(MACHINE, options="{}", load_format="jgf")
        with self.assertRaises(TypeError):
            Context(12)

    def test_second_initialize(self):
        with machine() as ctx:
            with self.assertRaises(InvalidInput):
                ctx.initialize(MACHINE, load_format="jgf")

    def test_closed_context(self):
        ctx = machine()
        ctx.close()
        ctx.close()
        with self.assertRaises(InvalidInput):
            ctx.match(CORE)


class Match(unittest.TestCase):
    def setUp(self):
        self.ctx = machine(match_format="rv1_nosched")

    def tearDown(self):
        self.ctx.close()

    def test_ops_ids_and_times(self):
        ctx = self.ctx
        first = ctx.match(CORE)
        self.assertEqual((first.jobid, first.reserved, first.at), (1, False, 0))
        self.assertIn('"R_lite"', first.R)
        self.assertGreaterEqual(first.overhead, 0)
        probe = ctx.match(CORE, "without_allocating")
        self.assertEqual(probe.jobid, 2**64 - 1)
        probe = ctx.match(TWO, MatchOp.WITHOUT_ALLOCATING_FUTURE)
        self.assertEqual(probe.jobid, 2**64 - 1)
        second = ctx.match_allocate(TWO)
        self.assertEqual(second.jobid, 2)
        with self.assertRaises(ResourcesBusy) as cm:
            ctx.match_allocate(TWO)
        self.assertEqual(cm.exception.errno, errno.EBUSY)
        later = ctx.match_allocate(TWO, orelse_reserve=True)
        self.assertEqual((later.jobid, later.reserved, later.at), (4, True, 3600))
        again = ctx.match(TWO, MatchOp.ALLOCATE_ORELSE_RESERVE)
        self.assertTrue(again.reserved)
        sat = ctx.match(CORE, MatchOp.ALLOCATE_W_SATISFIABILITY)
        self.assertEqual(sat.jobid, 6)

    def test_with_jobid(self):
        r = self.ctx.match(CORE, MatchOp.ALLOCATE, jobid=500)
        self.assertEqual(r.jobid, 500)
        self.assertEqual(self.ctx.info(500).mode, "ALLOCATED")
        self.ctx.match(CORE, "allocate", jobid=500)  # an id in use is not refused

    def test_unsatisfiable(self):
        with self.assertRaises(Unsatisfiable) as cm:
            self.ctx.match_satisfy(BIG)
        self.assertEqual(cm.exception.errno, errno.ENODEV)
        with self.assertRaises(Unsatisfiable):
            self.ctx.match(BIG, MatchOp.SATISFIABILITY)
        with self.assertRaises(Unsatisfiable):
            self.ctx.match(BIG, MatchOp.ALLOCATE_W_SATISFIABILITY)
        with self.assertRaises(ResourcesBusy):
            self.ctx.match(BIG, MatchOp.ALLOCATE)
        self.assertTrue(self.ctx.match_satisfy(TWO).satisfiable)
        self.assertTrue(self.ctx.is_satisfiable(TWO))
        self.assertFalse(self.ctx.is_satisfiable(BIG))

    def test_invalid_input(self):
        with self.assertRaises(InvalidInput) as cm:
            self.ctx.match(BAD)
        self.assertIn("Jobspec error for", cm.exception.message)
        with self.assertRaises(InvalidInput):
            self.ctx.match(CORE, MatchOp.UNKNOWN)
        with self.assertRaises(InvalidInput):
            self.ctx.match(CORE, 42)
        with self.assertRaises(InvalidInput):
            self.ctx.match(CORE, "no_such_op")
        with self.assertRaises(InvalidInput):
            self.ctx.match(None)  # a NULL jobspec
        with self.assertRaises(TypeError):
            self.ctx.match(42)

    def test_every_errno_has_its_exception(self):
        cases = {errno.EBUSY: ResourcesBusy, errno.ENODEV: Unsatisfiable,
                 errno.ENOENT: NotFound, errno.EINVAL: InvalidInput,
                 errno.EEXIST: AlreadyExists, errno.EPROTO: ReaderError,
                 errno.ENOSYS: reapi_cli.NotImplementedByLibrary,
                 errno.ENOMEM: reapi_cli.OutOfMemory, errno.EIO: ReapiError}
        for err, cls in cases.items():
            ctypes.set_errno(err)
            with self.assertRaises(cls) as cm:
                self.ctx._fail("call")
            self.assertIs(type(cm.exception), cls)
            self.assertEqual(cm.exception.errno, err)
        self.assertTrue(issubclass(reapi_cli.OutOfMemory, MemoryError))

    def test_exceptions_are_distinct(self):
        classes = [ResourcesBusy, Unsatisfiable, NotFound, InvalidInput, AlreadyExists,
                   ReaderError, reapi_cli.NotImplementedByLibrary, reapi_cli.OutOfMemory]
        self.assertEqual(len(set(classes)), len(classes))
        for c in classes:
            self.assertTrue(issubclass(c, ReapiError))
            for d in classes:
                if c is not d:
                    self.assertFalse(issubclass(c, d), (c, d))


class Jobs(unittest.TestCase):
    def test_info_partial_cancel_cancel(self):
        with machine(match_format="rv1_nosched") as ctx:
            job = ctx.match_allocate(TWO)
            self.assertIn('"2-3"', job.R)
            self.assertEqual(ctx.info(1), ("ALLOCATED", False, 0, ctx.info(1).overhead))
            self.assertFalse(ctx.partial_cancel(1, rank_r(3)))
            self.assertTrue(ctx.partial_cancel(1, rank_r(2)))
            self.assertEqual(ctx.info(1).mode, "CANCELED")
            with self.assertRaises(NotFound) as cm:
                ctx.cancel(1)
            self.assertEqual(cm.exception.errno, errno.ENOENT)
            with self.assertRaises(NotFound):
                ctx.partial_cancel(77, rank_r(3))
            ctx.partial_cancel(77, rank_r(3), noent_ok=True)
            with self.assertRaises(NotFound) as cm:
                ctx.cancel(99999)
            self.assertIn("nonexistent job 99999", cm.exception.message)
            ctx.cancel(99999, noent_ok=True)
            with self.assertRaises(NotFound):
                ctx.info(12345)
            ctx.match_allocate(TWO)
            ctx.match_allocate(TWO)
            held = ctx.match_allocate(TWO, orelse_reserve=True)
            info = ctx.info(held.jobid)
            self.assertEqual((info.mode, info.reserved, info.at), ("RESERVED", True, 3600))
            with self.assertRaises(NotFound):
                ctx.partial_cancel(held.jobid, rank_r(3))
            ctx.cancel(held.jobid)
            self.assertEqual(ctx.info(held.jobid).mode, "CANCELED")

    def test_update_allocate(self):
        with machine(match_format="rv1") as src, machine(match_format="rv1") as dst:
            r1 = src.match_allocate(TWO).R
            r2 = src.match_allocate(TWO).R
            up = dst.update_allocate(5, r1)
            self.assertEqual(up.at, 0)
            self.assertEqual(up.R, r1)
            with self.assertRaises(AlreadyExists) as cm:
                dst.update_allocate(5, r2)
            self.assertEqual(cm.exception.errno, errno.EEXIST)
            self.assertEqual(dst.info(5).mode, "ALLOCATED")
            dst.update_allocate(6, r2)
            with self.assertRaises(ResourcesBusy):
                dst.match_allocate(TWO)
            with self.assertRaises(ReapiError):
                dst.update_allocate(7, '{"version": 1')


class Graph(unittest.TestCase):
    def test_find(self):
        with machine() as ctx:
            self.assertIsNone(ctx.find("sched-now=allocated"))
            ctx.match_allocate(TWO)
            found = ctx.find("sched-now=allocated")
            self.assertNotIn(" ", found)
            paths = {n["metadata"]["paths"]["containment"]
                     for n in json.loads(found)["graph"]["nodes"]}
            self.assertIn("/cluster0/node3", paths)
            self.assertNotIn("/cluster0/node0", paths)
            self.assertIn("core3[1:", ctx.find("status=up", "simple"))
            with self.assertRaises(InvalidInput):
                ctx.find("status=up", "no_such_format")
            with self.assertRaises(InvalidInput):
                ctx.find("bogus=1")

    def test_subgraph(self):
        with Context(TINY, match_format="simple") as ctx:
            ctx.add_subgraph(NODE2)
            jobs = [ctx.match_allocate(WHOLE) for _ in range(3)]
            self.assertIn("node2", jobs[0].R)
            for j in jobs:
                ctx.cancel(j.jobid)
            ctx.remove_subgraph("/tiny0/rack0/node2")
            ctx.match_allocate(WHOLE)
            ctx.match_allocate(WHOLE)
            with self.assertRaises(ResourcesBusy):
                ctx.match_allocate(WHOLE)
            with self.assertRaises(ReapiError):
                ctx.remove_subgraph("/tiny0/no/such")
            with self.assertRaises(ReapiError):
                ctx.add_subgraph('{"graph": 1}')

    def test_status(self):
        with machine() as ctx:
            ctx.set_status("/cluster0/node0", ResourceStatus.DOWN)
            self.assertEqual(ctx.get_status("/cluster0/node0"), ResourceStatus.DOWN)
            ctx.set_rank_status("1-2", ResourceStatus.DOWN)
            self.assertEqual(ctx.get_rank_status(2), ResourceStatus.DOWN)
            self.assertEqual(ctx.get_rank_status("3"), ResourceStatus.UP)
            with self.assertRaises(ResourcesBusy):
                ctx.match_allocate(TWO)
            ctx.set_rank_status("all", ResourceStatus.UP)
            ctx.set_rank_status("7-9", ResourceStatus.DOWN)
            ctx.match_allocate(TWO)
            for call in (lambda: ctx.set_status("/cluster0/node9", ResourceStatus.DOWN),
                         lambda: ctx.get_status("/nowhere"),
                         lambda: ctx.set_rank_status("", ResourceStatus.DOWN),
                         lambda: ctx.get_rank_status("0-1")):
                with self.assertRaises(InvalidInput):
                    call()

    def test_stat_and_messages(self):
        with machine() as ctx:
            ctx.match_allocate(TWO)
            st = ctx.stat()
            self.assertEqual((st.vertices, st.edges, st.jobs), (29, 28, 1))
            self.assertLessEqual(st.min_match, st.max_match)
            self.assertEqual(ctx.err_msg(), "")
            with self.assertRaises(NotFound) as cm:
                ctx.cancel(41)
            with self.assertRaises(NotFound) as cm2:
                ctx.cancel(42)
            # the exception holds its own call's message; the context's
            # messages accumulate until cleared
            self.assertIn("41", cm.exception.message)
            self.assertNotIn("41", cm2.exception.message)
            self.assertEqual(ctx.last_error()[1], errno.ENOENT)
            self.assertIn("41", ctx.err_msg())
            self.assertIn("nonexistent job 42", ctx.err_msg())
            ctx.cancel(42, noent_ok=True)
            self.assertEqual(ctx.last_error(), ("", 0))
            ctx.clear_err_msg()
            self.assertEqual(ctx.err_msg(), "")

    def test_clone(self):
        with machine() as ctx:
            ctx.match_allocate(TWO)
            ctx.set_status("/cluster0/node0", ResourceStatus.DOWN)
            with ctx.clone() as copy:
                self.assertEqual(copy.info(1).mode, "ALLOCATED")
                with self.assertRaises(ResourcesBusy):
                    copy.match_allocate(TWO)
                copy.cancel(1)
                copy.set_status("/cluster0/node0", ResourceStatus.UP)
                self.assertEqual(copy.match_allocate(TWO).jobid, 3)
            self.assertEqual(ctx.info(1).mode, "ALLOCATED")
            with self.assertRaises(ResourcesBusy):
                ctx.match_allocate(TWO)
        with self.assertRaises(InvalidInput):
            Context().clone()


class Extras(unittest.TestCase):
    def test_version(self):
        self.assertRegex(reapi_cli.version(), r"^[0-9]+\.[0-9]+")

    def test_match_all(self):
        with machine(match_format="rv1_nosched") as ctx:
            jobs = ctx.match_all([CORE, TWO, CORE])
            self.assertEqual([j.jobid for j in jobs], [1, 2, 3])
            self.assertTrue(all(j.R and not j.reserved for j in jobs))
            before = ctx.find("sched-now=allocated")
            with self.assertRaises(ResourcesBusy) as cm:
                ctx.match_all([CORE, TWO])
            self.assertEqual(cm.exception.failed_index, 1)
            self.assertEqual(ctx.find("sched-now=allocated"), before)
            self.assertEqual(ctx.match_allocate(CORE).jobid, 4)
            with self.assertRaises(Unsatisfiable):
                ctx.match_all([CORE, BIG], MatchOp.ALLOCATE_W_SATISFIABILITY)
            self.assertEqual(ctx.match_allocate(CORE).jobid, 5)


class Threads(unittest.TestCase):
    def test_contexts_in_threads(self):
        results = {}

        def run(n):
            with machine(match_format="rv1_nosched") as ctx:
                out = []
                for _ in range(50):
                    job = ctx.match_allocate(CORE)
                    out.append(job.R)
                    ctx.cancel(job.jobid)
                results[n] = out

        threads = [threading.Thread(target=run, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(results), 4)
        for n in range(1, 4):
            self.assertEqual(results[n], results[0])


class Ownership(unittest.TestCase):
    def test_every_returned_string_is_freed(self):
        """Each non-NULL char * the library hands out goes to free once."""
        freed = []
        real_free = reapi_cli._free

        def counting_free(ptr):
            freed.append(ptr)
            real_free(ptr)

        reapi_cli._free = counting_free
        try:
            with machine() as ctx:
                job = ctx.match_allocate(TWO)                 # R
                ctx.info(job.jobid)                           # mode
                ctx.find("sched-now=allocated")               # R
                self.assertIsNone(ctx.find("status=down"))
                with self.assertRaises(NotFound):
                    ctx.cancel(10**12)                        # last_error
                ctx.err_msg()                                 # err_msg
                with machine(match_format="rv1") as other:
                    r = other.match_allocate(TWO).R           # R
                    with machine() as third:
                        third.update_allocate(9, r)           # R_out
                with self.assertRaises(ResourcesBusy):
                    ctx.match_allocate(BIG)                   # last_error only
        finally:
            reapi_cli._free = real_free
        self.assertEqual(len(freed), 8, freed)
        self.assertNotIn(None, freed)


if __name__ == "__main__":
    unittest.main()


class Refusals(unittest.TestCase):
    """Inputs the module refuses instead of passing them on wrapped or
    unchecked (job ids are uint64_t; UINT64_MAX marks "without
    allocating")."""

    def test_job_ids_out_of_range(self):
        with machine() as ctx:
            for bad in (2**70, 2**64 - 1, -1):
                for call in (lambda: ctx.match(CORE, jobid=bad),
                             lambda: ctx.cancel(bad),
                             lambda: ctx.info(bad),
                             lambda: ctx.partial_cancel(bad, rank_r(0)),
                             lambda: ctx.update_allocate(bad, rank_r(0))):
                    with self.assertRaises(ValueError):
                        call()
            with self.assertRaises(NotFound):  # job 0 was never made
                ctx.info(0)
            self.assertEqual(ctx.match(CORE, jobid=2**64 - 2).jobid, 2**64 - 2)

    def test_no_jobspecs(self):
        with machine() as ctx:
            with self.assertRaises(InvalidInput) as cm:
                ctx.match_all([])
            self.assertIn("no jobspecs", cm.exception.message)

    def test_status_names(self):
        with machine() as ctx:
            with self.assertRaises(InvalidInput) as cm:
                ctx.set_status("/cluster0/node0", "sideways")
            self.assertIn("UP", cm.exception.message)
            self.assertIn("DOWN", cm.exception.message)
            ctx.set_status("/cluster0/node0", "down")
            self.assertEqual(ctx.get_status("/cluster0/node0"), ResourceStatus.DOWN)

    def test_after_removing_the_root(self):
        with machine() as ctx:
            ctx.remove_subgraph("/cluster0")
            with self.assertRaises(ResourcesBusy) as cm:
                ctx.match_allocate(CORE)
            self.assertIn("no resources left", cm.exception.message)
            with self.assertRaises(Unsatisfiable):
                ctx.match_satisfy(CORE)
            with self.assertRaises(Unsatisfiable):
                ctx.match(CORE, MatchOp.ALLOCATE_W_SATISFIABILITY)
