// The reapi_cli C API (spec/reapi.md) over the session layer: each entry
// point checks its arguments, locks the context, runs the shared session
// operation (session/operations.h) and turns its outcome into the C
// contract (errno, malloc'd strings, messages). No exception crosses the
// boundary. The calls themselves are in calls.cc (unlocked, replayable).
#include "resource/reapi/bindings/c/reapi_cli.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "reapi/calls.h"
#include "reapi/raw_op.h"

using rq::reapi::Call;
using rq::reapi::Guard;

namespace {

const char* const kNullContext = "reapi_cli: ERROR: null context\n";

char* dup_or_null(const std::string& s) {
    char* p = static_cast<char*>(std::malloc(s.size() + 1));
    if (p != nullptr) std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

}  // namespace

extern "C" {

reapi_cli_ctx_t* reapi_cli_new(void) {
    auto* ctx = new (std::nothrow) reapi_cli_ctx();
    if (ctx == nullptr) {
        errno = ENOMEM;
        return nullptr;
    }
    const char* legacy = std::getenv("REAPI_CLI_LEGACY_MATCH");
    ctx->legacy = legacy != nullptr && *legacy != '\0' && std::strcmp(legacy, "0") != 0;
    return ctx;
}

void reapi_cli_destroy(reapi_cli_ctx_t* ctx) {
    int saved = errno;
    delete ctx;
    errno = saved;
}

int reapi_cli_initialize(reapi_cli_ctx_t* ctx, const char* rgraph, const char* options) {
    return Guard(ctx, "initialize").run([&](reapi_cli_ctx& c) {
        return rq::reapi::initialize(c, rgraph, options);
    });
}

reapi_cli_ctx_t* reapi_cli_clone(reapi_cli_ctx_t* ctx) {
    reapi_cli_ctx_t* copy = nullptr;
    int rc = Guard(ctx, "clone").run([&](reapi_cli_ctx& c) { return rq::reapi::clone(c, copy); });
    return rc == 0 ? copy : nullptr;
}

int reapi_cli_match(reapi_cli_ctx_t* ctx, match_op_t match_op, const char* jobspec, uint64_t* jobid,
                    bool* reserved, char** R, int64_t* at, double* ov) {
    return Guard(ctx, "match").run([&](reapi_cli_ctx& c) {
        return rq::reapi::match(c, rq::reapi::raw_match_op(match_op), jobspec, nullptr, jobid, reserved, R, at, ov);
    });
}

int reapi_cli_match_with_jobid(reapi_cli_ctx_t* ctx, match_op_t match_op, const char* jobspec, uint64_t jobid,
                               bool* reserved, char** R, int64_t* at, double* ov) {
    return Guard(ctx, "match").run([&](reapi_cli_ctx& c) {
        uint64_t id = jobid;
        return rq::reapi::match(c, rq::reapi::raw_match_op(match_op), jobspec, &id, nullptr, reserved, R, at, ov);
    });
}

int reapi_cli_match_allocate(reapi_cli_ctx_t* ctx, bool orelse_reserve, const char* jobspec, uint64_t* jobid,
                             bool* reserved, char** R, int64_t* at, double* ov) {
    match_op_t op = orelse_reserve ? MATCH_ALLOCATE_ORELSE_RESERVE : MATCH_ALLOCATE;
    return reapi_cli_match(ctx, op, jobspec, jobid, reserved, R, at, ov);
}

int reapi_cli_match_satisfy(reapi_cli_ctx_t* ctx, const char* jobspec, bool* sat, double* ov) {
    if (sat != nullptr) *sat = false;
    return Guard(ctx, "match").run([&](reapi_cli_ctx& c) {
        if (sat == nullptr) return rq::reapi::fail(c, EINVAL, "match_satisfy: ERROR: null argument");
        uint64_t jobid = 0;
        bool reserved = false;
        char* R = nullptr;
        int64_t at = 0;
        bool legacy = c.legacy;  // (its empty-R success would read as satisfiable)
        c.legacy = false;
        int rc = rq::reapi::match(c, MATCH_SATISFIABILITY, jobspec, nullptr, &jobid, &reserved, &R, &at, ov);
        c.legacy = legacy;
        std::free(R);
        *sat = rc == 0;
        return rc;
    });
}

int reapi_cli_update_allocate(reapi_cli_ctx_t* ctx, const uint64_t jobid, const char* R, int64_t* at, double* ov,
                              const char** R_out) {
    return Guard(ctx, "update_allocate").run([&](reapi_cli_ctx& c) {
        return rq::reapi::update_allocate(c, jobid, R, at, ov, R_out);
    });
}

int reapi_cli_add_subgraph(reapi_cli_ctx_t* ctx, const char* R_subgraph) {
    return Guard(ctx, "add_subgraph").run([&](reapi_cli_ctx& c) { return rq::reapi::add_subgraph(c, R_subgraph); });
}

int reapi_cli_remove_subgraph(reapi_cli_ctx_t* ctx, const char* subgraph_path) {
    return Guard(ctx, "remove_subgraph").run([&](reapi_cli_ctx& c) {
        return rq::reapi::remove_subgraph(c, subgraph_path);
    });
}

int reapi_cli_cancel(reapi_cli_ctx_t* ctx, const uint64_t jobid, bool noent_ok) {
    return Guard(ctx, "cancel").run([&](reapi_cli_ctx& c) { return rq::reapi::cancel(c, jobid, noent_ok); });
}

int reapi_cli_partial_cancel(reapi_cli_ctx_t* ctx, const uint64_t jobid, const char* R, bool noent_ok,
                             bool* full_removal) {
    return Guard(ctx, "partial_cancel").run([&](reapi_cli_ctx& c) {
        return rq::reapi::partial_cancel(c, jobid, R, noent_ok, full_removal);
    });
}

int reapi_cli_info(reapi_cli_ctx_t* ctx, const uint64_t jobid, char** mode, bool* reserved, int64_t* at,
                   double* ov) {
    return Guard(ctx, "info").run([&](reapi_cli_ctx& c) { return rq::reapi::info(c, jobid, mode, reserved, at, ov); });
}

int reapi_cli_find(reapi_cli_ctx_t* ctx, const char* criteria, const char* format, char** R) {
    return Guard(ctx, "find").run([&](reapi_cli_ctx& c) { return rq::reapi::find(c, criteria, format, R); });
}

int reapi_cli_stat(reapi_cli_ctx_t* ctx, int64_t* V, int64_t* E, int64_t* J, double* load, double* min,
                   double* max, double* avg) {
    return Guard(ctx, "stat").run([&](reapi_cli_ctx& c) {
        return rq::reapi::stat(c, V, E, J, load, min, max, avg);
    });
}

const char* reapi_cli_get_err_msg(reapi_cli_ctx_t* ctx) {
    if (ctx == nullptr) {
        errno = EINVAL;
        return dup_or_null(kNullContext);
    }
    try {
        std::lock_guard<std::mutex> lock(ctx->mutex);
        return dup_or_null(ctx->err_msg);
    } catch (...) {
        errno = ENOMEM;
        return nullptr;
    }
}

void reapi_cli_clear_err_msg(reapi_cli_ctx_t* ctx) {
    if (ctx == nullptr) return;
    std::lock_guard<std::mutex> lock(ctx->mutex);
    ctx->err_msg.clear();
}

int reapi_cli_set_status(reapi_cli_ctx_t* ctx, const char* resource_path, resource_status_t status) {
    return Guard(ctx, "set_status").run([&](reapi_cli_ctx& c) {
        return rq::reapi::set_status(c, resource_path, rq::reapi::raw_status(status));
    });
}

int reapi_cli_get_status(reapi_cli_ctx_t* ctx, const char* resource_path, resource_status_t* status) {
    return Guard(ctx, "get_status").run([&](reapi_cli_ctx& c) {
        return rq::reapi::get_status(c, resource_path, status);
    });
}

int reapi_cli_set_rank_status(reapi_cli_ctx_t* ctx, const char* ranks, resource_status_t status) {
    return Guard(ctx, "set_rank_status").run([&](reapi_cli_ctx& c) {
        return rq::reapi::set_rank_status(c, ranks, rq::reapi::raw_status(status));
    });
}

int reapi_cli_get_rank_status(reapi_cli_ctx_t* ctx, const char* rank, resource_status_t* status) {
    return Guard(ctx, "get_rank_status").run([&](reapi_cli_ctx& c) {
        return rq::reapi::get_rank_status(c, rank, status);
    });
}

char* reapi_cli_last_error(reapi_cli_ctx_t* ctx, int* errnum) {
    if (ctx == nullptr) {
        if (errnum != nullptr) *errnum = EINVAL;
        errno = EINVAL;
        return dup_or_null(kNullContext);
    }
    try {
        std::lock_guard<std::mutex> lock(ctx->mutex);
        if (errnum != nullptr) *errnum = ctx->last_errno;
        return dup_or_null(ctx->last_error);
    } catch (...) {
        errno = ENOMEM;
        return nullptr;
    }
}

void reapi_cli_free(void* p) { std::free(p); }

const char* reapi_cli_version(void) { return RQ_VERSION; }

int reapi_cli_match_all(reapi_cli_ctx_t* ctx, match_op_t match_op, const char* const* jobspecs, size_t n,
                        uint64_t* jobids, bool* reserved, char** R, int64_t* at, double* ov,
                        size_t* failed_index) {
    return Guard(ctx, "match_all").run([&](reapi_cli_ctx& c) {
        return rq::reapi::match_all(c, rq::reapi::raw_match_op(match_op), jobspecs, n, jobids, reserved, R, at, ov, failed_index);
    });
}

}  // extern "C"
