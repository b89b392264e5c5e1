"""Python bindings of libreapi_cli, the embeddable matcher (reapi.md).

Standard library only: ctypes over the C ABI, no compiler needed.

    import reapi_cli
    with reapi_cli.Context(open("conf/tiny.graphml").read(),
                           match_format="simple") as ctx:
        job = ctx.match_allocate(open("job.yaml").read())
        print(job.jobid, job.R)
        ctx.cancel(job.jobid)

Every failure raises a subclass of ReapiError chosen by the library's
errno: ResourcesBusy (EBUSY: not enough free resources now), Unsatisfiable
(ENODEV: can never fit), NotFound (ENOENT), InvalidInput (EINVAL),
AlreadyExists (EEXIST), ReaderError (EPROTO), NotImplementedByLibrary
(ENOSYS), OutOfMemory (ENOMEM); the exception's .message is the
context's error text of that call alone. Every string the library hands out is
copied and released at once; a Context releases its C context on close(),
at the end of a with block, or when it is garbage-collected.

The library is looked up in this order: the REAPI_CLI_LIBRARY environment
variable (a path), the install prefix this module sits in
(PREFIX/lib/pythonX/.../reapi_cli.py -> PREFIX/lib/libreapi_cli.so, then
PREFIX/lib/flux/), then the system's loader paths. Calls release the GIL;
several threads may use one Context (the library serializes them) or a
Context each (they run concurrently).
"""

import ctypes
import ctypes.util
import enum
import errno as _errno
import json
import os
from collections import namedtuple

__all__ = [
    "Context", "MatchOp", "ResourceStatus", "MatchResult", "JobInfo",
    "SatResult", "UpdateResult", "Stat", "ReapiError", "ResourcesBusy",
    "Unsatisfiable", "NotFound", "InvalidInput", "AlreadyExists",
    "ReaderError", "NotImplementedByLibrary", "OutOfMemory",
    "match_op_to_string", "match_op_from_string", "match_op_valid",
    "library_path", "version",
]


class MatchOp(enum.IntEnum):
    """match_op_t, values 0 to 7 (reapi.md §2)."""
    UNKNOWN = 0
    ALLOCATE = 1
    ALLOCATE_W_SATISFIABILITY = 2
    ALLOCATE_ORELSE_RESERVE = 3
    SATISFIABILITY = 4
    WITHOUT_ALLOCATING = 5
    WITHOUT_ALLOCATING_FUTURE = 6
    END = 7


class ResourceStatus(enum.IntEnum):
    UP = 0
    DOWN = 1


MatchResult = namedtuple("MatchResult", "jobid reserved R at overhead")
JobInfo = namedtuple("JobInfo", "mode reserved at overhead")
SatResult = namedtuple("SatResult", "satisfiable overhead")
UpdateResult = namedtuple("UpdateResult", "at overhead R")
Stat = namedtuple("Stat", "vertices edges jobs load_time min_match max_match avg_match")


class ReapiError(Exception):
    """A failed library call: .errno (the C errno) and .message (the
    context's error text for this call, possibly empty)."""

    def __init__(self, err, message, call=""):
        self.errno = err
        self.message = message
        self.call = call
        text = "%s: %s" % (call, os.strerror(err)) if call else os.strerror(err)
        if message:
            text += ": " + message.strip()
        super().__init__(text)


class ResourcesBusy(ReapiError):
    """EBUSY: the request does not fit in what is free now."""


class Unsatisfiable(ReapiError):
    """ENODEV: the request can never be satisfied by this graph."""


class NotFound(ReapiError):
    """ENOENT: no such job (or nothing of it to release)."""


class InvalidInput(ReapiError):
    """EINVAL: a bad argument, jobspec, option, path or idset."""


class AlreadyExists(ReapiError):
    """EEXIST: the job id is already allocated or reserved."""


class ReaderError(ReapiError):
    """EPROTO: the graph or R text could not be read."""


class NotImplementedByLibrary(ReapiError):
    """ENOSYS: the library does not implement this call."""


class OutOfMemory(ReapiError, MemoryError):
    """ENOMEM."""


_ERRORS = {
    _errno.EBUSY: ResourcesBusy,
    _errno.ENODEV: Unsatisfiable,
    _errno.ENOENT: NotFound,
    _errno.EINVAL: InvalidInput,
    _errno.EEXIST: AlreadyExists,
    _errno.EPROTO: ReaderError,
    _errno.ENOSYS: NotImplementedByLibrary,
    _errno.ENOMEM: OutOfMemory,
}

_LIBNAME = "libreapi_cli.so"


def _candidates():
    env = os.environ.get("REAPI_CLI_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    # PREFIX/lib/python3/dist-packages/reapi_cli.py and the like: walk up
    # to the prefix and look in lib/ and lib/flux/ (reapi.md §1).
    d = here
    for _ in range(4):
        d = os.path.dirname(d)
        for sub in ("lib", os.path.join("lib", "flux")):
            p = os.path.join(d, sub, _LIBNAME)
            if os.path.exists(p):
                yield p
    found = ctypes.util.find_library("reapi_cli")
    if found:
        yield found
    yield _LIBNAME


_lib = None
_libpath = None
_free = None


def library_path():
    """The file the library was loaded from."""
    _load()
    return _libpath


def _load():
    global _lib, _libpath, _free
    if _lib is not None:
        return _lib
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path, use_errno=True)
            break
        except OSError as e:
            errors.append(str(e))
    else:
        raise OSError("cannot load libreapi_cli: " + "; ".join(errors))
    _declare(lib)
    _lib, _libpath = lib, path
    # Strings are malloc'd by the library (reapi.md §3); reapi_cli_free is
    # its free() for callers like us, the C library's free the fallback.
    free = getattr(lib, "reapi_cli_free", None) or ctypes.CDLL(None).free
    free.argtypes = [ctypes.c_void_p]
    free.restype = None
    _free = free
    return lib


def _declare(lib):
    c = ctypes
    P = c.c_void_p  # reapi_cli_ctx_t *
    u64, i64, dbl, b = c.c_uint64, c.c_int64, c.c_double, c.c_bool
    s = c.c_char_p
    pp = c.POINTER(c.c_void_p)  # char ** read as a raw pointer, freed by us
    sig = {
        "reapi_cli_new": ([], P),
        "reapi_cli_destroy": ([P], None),
        "reapi_cli_initialize": ([P, s, s], c.c_int),
        "reapi_cli_clone": ([P], P),
        "reapi_cli_match": ([P, c.c_int, s, c.POINTER(u64), c.POINTER(b), pp,
                             c.POINTER(i64), c.POINTER(dbl)], c.c_int),
        "reapi_cli_match_with_jobid": ([P, c.c_int, s, u64, c.POINTER(b), pp,
                                        c.POINTER(i64), c.POINTER(dbl)], c.c_int),
        "reapi_cli_match_allocate": ([P, b, s, c.POINTER(u64), c.POINTER(b), pp,
                                      c.POINTER(i64), c.POINTER(dbl)], c.c_int),
        "reapi_cli_match_satisfy": ([P, s, c.POINTER(b), c.POINTER(dbl)], c.c_int),
        "reapi_cli_update_allocate": ([P, u64, s, c.POINTER(i64), c.POINTER(dbl), pp],
                                      c.c_int),
        "reapi_cli_add_subgraph": ([P, s], c.c_int),
        "reapi_cli_remove_subgraph": ([P, s], c.c_int),
        "reapi_cli_cancel": ([P, u64, b], c.c_int),
        "reapi_cli_partial_cancel": ([P, u64, s, b, c.POINTER(b)], c.c_int),
        "reapi_cli_info": ([P, u64, pp, c.POINTER(b), c.POINTER(i64), c.POINTER(dbl)],
                           c.c_int),
        "reapi_cli_find": ([P, s, s, pp], c.c_int),
        "reapi_cli_stat": ([P] + [c.POINTER(i64)] * 3 + [c.POINTER(dbl)] * 4, c.c_int),
        "reapi_cli_get_err_msg": ([P], c.c_void_p),
        "reapi_cli_clear_err_msg": ([P], None),
        "reapi_cli_set_status": ([P, s, c.c_int], c.c_int),
        "reapi_cli_get_status": ([P, s, c.POINTER(c.c_int)], c.c_int),
        "reapi_cli_set_rank_status": ([P, s, c.c_int], c.c_int),
        "reapi_cli_get_rank_status": ([P, s, c.POINTER(c.c_int)], c.c_int),
        "match_op_to_string": ([c.c_int], c.c_char_p),
        "match_op_from_string": ([s], c.c_int),
        "match_op_valid": ([c.c_int], b),
    }
    # Extras of ours (reapi.md §8); absent from the original's library.
    optional = {
        "reapi_cli_last_error": ([P, c.POINTER(c.c_int)], c.c_void_p),
        "reapi_cli_version": ([], c.c_char_p),
        "reapi_cli_match_all": ([P, c.c_int, c.POINTER(c.c_char_p), c.c_size_t,
                                 c.POINTER(u64), c.POINTER(b), c.POINTER(c.c_void_p),
                                 c.POINTER(i64), c.POINTER(dbl), c.POINTER(c.c_size_t)],
                                c.c_int),
    }
    for table, required in ((sig, True), (optional, False)):
        for name, (args, res) in table.items():
            f = getattr(lib, name, None)
            if f is None:
                if required:
                    raise OSError("libreapi_cli lacks %s" % name)
                continue
            f.argtypes = args
            f.restype = res


def _bytes(text, what):
    if text is None:
        return None
    if isinstance(text, str):
        return text.encode()
    if isinstance(text, (bytes, bytearray)):
        return bytes(text)
    raise TypeError("%s must be str or bytes, not %s" % (what, type(text).__name__))


def _take(ptr):
    """Copy a malloc'd C string into a str and free it."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        _free(ptr)


def _op(op):
    if isinstance(op, str):
        value = match_op_from_string(op)
        if value == MatchOp.UNKNOWN:
            raise InvalidInput(_errno.EINVAL, "unknown match op %r" % op, "match")
        return int(value)
    return int(op)


_MAX_JOBID = 2**64 - 2  # 2**64 - 1 is the "without allocating" marker


def _jobid(jobid):
    """A job id as the C API takes it (uint64_t), refused rather than
    wrapped: ctypes would turn 2**70 into 0 and -1 into 2**64 - 1."""
    if isinstance(jobid, bool) or not isinstance(jobid, int):
        raise TypeError("a job id must be an int, not %s" % type(jobid).__name__)
    if not 0 <= jobid <= _MAX_JOBID:
        raise ValueError("job id %d is outside 0..2**64-2" % jobid)
    return jobid


def _status(status):
    """ResourceStatus, its value, or its name ("up", "down")."""
    if isinstance(status, str):
        named = ResourceStatus.__members__.get(status.upper())
        if named is not None:
            return int(named)
    elif isinstance(status, int) and not isinstance(status, bool):
        if status in (ResourceStatus.UP, ResourceStatus.DOWN):
            return int(status)
    raise InvalidInput(_errno.EINVAL, "status %r is not one of UP (0, 'up'), DOWN (1, 'down')"
                       % (status,), "set_status")


def version():
    """The library's version string (None for a library without it)."""
    f = getattr(_load(), "reapi_cli_version", None)
    return f().decode() if f else None


def match_op_to_string(op):
    s = _load().match_op_to_string(int(op))
    return s.decode() if s is not None else None


def match_op_from_string(name):
    return MatchOp(_load().match_op_from_string(_bytes(name, "name")))


def match_op_valid(op):
    return bool(_load().match_op_valid(int(op)))


class Context:
    """One reapi_cli context: a resource graph, its planners and jobs.

    Context(graph_text, load_format="jgf", match_format="simple", ...)
    takes the graph as text (not a file name) and the options of reapi.md
    §4 as keywords (or a ready JSON string as `options`)."""

    def __init__(self, graph=None, options=None, **keywords):
        self._lib = _load()
        self._ctx = None
        ctx = self._lib.reapi_cli_new()
        if not ctx:
            raise OutOfMemory(_errno.ENOMEM, "", "reapi_cli_new")
        self._ctx = ctx
        if graph is not None:
            self.initialize(graph, options, **keywords)

    @classmethod
    def from_file(cls, path, options=None, **keywords):
        with open(path, "rb") as f:
            return cls(f.read(), options, **keywords)

    @classmethod
    def _adopt(cls, ptr):
        obj = cls.__new__(cls)
        obj._lib = _load()
        obj._ctx = ptr
        return obj

    # -- life cycle ----------------------------------------------------------
    def close(self):
        if self._ctx:
            self._lib.reapi_cli_destroy(self._ctx)
            self._ctx = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _handle(self):
        if not self._ctx:
            raise InvalidInput(_errno.EINVAL, "the context is closed")
        return self._ctx

    def _fail(self, call):
        err = ctypes.get_errno()
        raise _ERRORS.get(err, ReapiError)(err, self.last_error()[0], call)

    def _check(self, rc, call):
        if rc != 0:
            self._fail(call)

    def initialize(self, graph, options=None, **keywords):
        if options is None:
            options = json.dumps(keywords)
        elif keywords:
            raise TypeError("give options either as a string or as keywords")
        elif not isinstance(options, (str, bytes)):
            options = json.dumps(options)
        ctypes.set_errno(0)
        rc = self._lib.reapi_cli_initialize(self._handle(), _bytes(graph, "graph"),
                                            _bytes(options, "options"))
        self._check(rc, "initialize")

    def clone(self):
        """An independent deep copy (graph, planners, jobs, statuses)."""
        ptr = self._lib.reapi_cli_clone(self._handle())
        if not ptr:
            self._fail("clone")
        return Context._adopt(ptr)

    # -- matching ------------------------------------------------------------
    def _match_out(self):
        return (ctypes.c_uint64(0), ctypes.c_bool(False), ctypes.c_void_p(None),
                ctypes.c_int64(0), ctypes.c_double(0.0))

    def match(self, jobspec, op=MatchOp.ALLOCATE, jobid=None):
        """Match `jobspec` (text) with op (MatchOp, its int or its name).
        With jobid, the caller's id is used (match_with_jobid)."""
        jid, res, R, at, ov = self._match_out()
        refs = (ctypes.byref(res), ctypes.byref(R), ctypes.byref(at), ctypes.byref(ov))
        js = _bytes(jobspec, "jobspec")
        if jobid is None:
            rc = self._lib.reapi_cli_match(self._handle(), _op(op), js, ctypes.byref(jid), *refs)
        else:
            jid.value = _jobid(jobid)
            rc = self._lib.reapi_cli_match_with_jobid(self._handle(), _op(op), js,
                                                      ctypes.c_uint64(jobid), *refs)
        text = _take(R.value)
        self._check(rc, "match")
        return MatchResult(jid.value, res.value, text, at.value, ov.value)

    def match_allocate(self, jobspec, orelse_reserve=False):
        jid, res, R, at, ov = self._match_out()
        rc = self._lib.reapi_cli_match_allocate(
            self._handle(), bool(orelse_reserve), _bytes(jobspec, "jobspec"),
            ctypes.byref(jid), ctypes.byref(res), ctypes.byref(R), ctypes.byref(at),
            ctypes.byref(ov))
        text = _take(R.value)
        self._check(rc, "match_allocate")
        return MatchResult(jid.value, res.value, text, at.value, ov.value)

    def match_satisfy(self, jobspec):
        """SatResult(True, overhead); raises Unsatisfiable (ENODEV)."""
        sat, ov = ctypes.c_bool(False), ctypes.c_double(0.0)
        rc = self._lib.reapi_cli_match_satisfy(self._handle(), _bytes(jobspec, "jobspec"),
                                               ctypes.byref(sat), ctypes.byref(ov))
        self._check(rc, "match_satisfy")
        return SatResult(sat.value, ov.value)

    def is_satisfiable(self, jobspec):
        try:
            return self.match_satisfy(jobspec).satisfiable
        except Unsatisfiable:
            return False

    def update_allocate(self, jobid, R):
        """Record an allocation made elsewhere; UpdateResult(at, overhead, R)."""
        at, ov, out = ctypes.c_int64(0), ctypes.c_double(0.0), ctypes.c_void_p(None)
        rc = self._lib.reapi_cli_update_allocate(self._handle(), _jobid(jobid), _bytes(R, "R"),
                                                 ctypes.byref(at), ctypes.byref(ov),
                                                 ctypes.byref(out))
        text = _take(out.value)
        self._check(rc, "update_allocate")
        return UpdateResult(at.value, ov.value, text)

    # -- jobs ----------------------------------------------------------------
    def cancel(self, jobid, noent_ok=False):
        rc = self._lib.reapi_cli_cancel(self._handle(), _jobid(jobid), bool(noent_ok))
        self._check(rc, "cancel")

    def partial_cancel(self, jobid, R, noent_ok=False):
        """Release part of a job; True when nothing of it is left."""
        full = ctypes.c_bool(False)
        rc = self._lib.reapi_cli_partial_cancel(self._handle(), _jobid(jobid), _bytes(R, "R"),
                                                bool(noent_ok), ctypes.byref(full))
        self._check(rc, "partial_cancel")
        return full.value

    def info(self, jobid):
        """JobInfo(mode, reserved, at, overhead); mode is ALLOCATED,
        RESERVED, CANCELED, INIT or ERROR."""
        mode, res = ctypes.c_void_p(None), ctypes.c_bool(False)
        at, ov = ctypes.c_int64(0), ctypes.c_double(0.0)
        rc = self._lib.reapi_cli_info(self._handle(), _jobid(jobid), ctypes.byref(mode),
                                      ctypes.byref(res), ctypes.byref(at), ctypes.byref(ov))
        text = _take(mode.value)
        self._check(rc, "info")
        return JobInfo(text, res.value, at.value, ov.value)

    # -- the graph -----------------------------------------------------------
    def find(self, criteria, format=None):
        """Resources matching a find expression, or None when none do."""
        R = ctypes.c_void_p(None)
        rc = self._lib.reapi_cli_find(self._handle(), _bytes(criteria, "criteria"),
                                      _bytes(format, "format"), ctypes.byref(R))
        text = _take(R.value)
        self._check(rc, "find")
        return text

    def add_subgraph(self, jgf):
        self._check(self._lib.reapi_cli_add_subgraph(self._handle(), _bytes(jgf, "jgf")),
                    "add_subgraph")

    def remove_subgraph(self, path):
        self._check(self._lib.reapi_cli_remove_subgraph(self._handle(), _bytes(path, "path")),
                    "remove_subgraph")

    def set_status(self, path, status):
        self._check(self._lib.reapi_cli_set_status(self._handle(), _bytes(path, "path"),
                                                   _status(status)), "set_status")

    def get_status(self, path):
        st = ctypes.c_int(0)
        rc = self._lib.reapi_cli_get_status(self._handle(), _bytes(path, "path"),
                                            ctypes.byref(st))
        self._check(rc, "get_status")
        return ResourceStatus(st.value)

    def set_rank_status(self, ranks, status):
        """ranks: an RFC 22 idset ("0-3,7") or "all"."""
        self._check(self._lib.reapi_cli_set_rank_status(self._handle(), _bytes(ranks, "ranks"),
                                                        _status(status)), "set_rank_status")

    def get_rank_status(self, rank):
        st = ctypes.c_int(0)
        rc = self._lib.reapi_cli_get_rank_status(self._handle(), _bytes(str(rank), "rank"),
                                                 ctypes.byref(st))
        self._check(rc, "get_rank_status")
        return ResourceStatus(st.value)

    def stat(self):
        ints = [ctypes.c_int64(0) for _ in range(3)]
        dbls = [ctypes.c_double(0.0) for _ in range(4)]
        rc = self._lib.reapi_cli_stat(self._handle(), *[ctypes.byref(v) for v in ints + dbls])
        self._check(rc, "stat")
        return Stat(*[v.value for v in ints + dbls])

    # -- messages ------------------------------------------------------------
    def err_msg(self):
        """Every message since the last clear (the library accumulates)."""
        return _take(self._lib.reapi_cli_get_err_msg(self._handle())) or ""

    def clear_err_msg(self):
        self._lib.reapi_cli_clear_err_msg(self._handle())

    def last_error(self):
        """(message, errno) of the last failed call on this context alone
        ("", 0 after a success); with a library lacking the call, the
        accumulated messages and the thread's errno."""
        f = getattr(self._lib, "reapi_cli_last_error", None)
        if f is None or not self._ctx:
            return (self.err_msg() if self._ctx else ""), ctypes.get_errno()
        num = ctypes.c_int(0)
        return _take(f(self._ctx, ctypes.byref(num))) or "", num.value

    # -- gang scheduling -----------------------------------------------------
    def match_all(self, jobspecs, op=MatchOp.ALLOCATE):
        """All or nothing: a MatchResult per jobspec, with consecutive ids.
        If one fails, those before it are cancelled, no id is consumed,
        and the exception's .failed_index says which one failed."""
        n = len(jobspecs)
        specs = (ctypes.c_char_p * max(n, 1))(*[_bytes(j, "jobspec") for j in jobspecs])
        ids = (ctypes.c_uint64 * max(n, 1))()
        res = (ctypes.c_bool * max(n, 1))()
        Rs = (ctypes.c_void_p * max(n, 1))()
        ats = (ctypes.c_int64 * max(n, 1))()
        ov, failed = ctypes.c_double(0.0), ctypes.c_size_t(0)
        rc = self._lib.reapi_cli_match_all(self._handle(), _op(op), specs, n, ids, res, Rs,
                                           ats, ctypes.byref(ov), ctypes.byref(failed))
        texts = [_take(Rs[i]) for i in range(n)]
        if rc != 0:
            try:
                self._fail("match_all")
            except ReapiError as e:
                e.failed_index = failed.value
                raise
        return [MatchResult(ids[i], res[i], texts[i], ats[i], ov.value) for i in range(n)]
