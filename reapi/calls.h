// The reapi_cli operations on a locked context (reapi_cli.cc locks and
// catches; these do the work over session/operations.h). Each returns 0,
// or -1 after fail() has set errno and the context's messages. clone()
// replays the state-changing ones recorded in ctx.history.
#pragma once

#include <cerrno>
#include <mutex>
#include <new>
#include <string>

#include "reapi/context.h"
#include "resource/reapi/bindings/c/reapi_cli.h"

namespace rq::reapi {

// errno `err`, `message` as the last error; also appended (with a newline)
// to the accumulated messages when `accumulate`.
int fail(reapi_cli_ctx& c, int err, const std::string& message, bool accumulate = true);

// Runs one call on a context: NULL context → EINVAL; the context locked;
// exceptions become ENOMEM / EPROTO; the last error reset on success.
class Guard {
public:
    Guard(reapi_cli_ctx* ctx, const char* name) : ctx_(ctx), name_(name) {}

    template <typename F>
    int run(F&& call) {
        if (ctx_ == nullptr) {
            errno = EINVAL;
            return -1;
        }
        int rc = -1, err = 0;
        try {
            std::lock_guard<std::mutex> lock(ctx_->mutex);
            rc = guarded(call);
            if (rc == 0) {
                ctx_->last_error.clear();
                ctx_->last_errno = 0;
            }
            err = ctx_->last_errno;
        } catch (...) {
            err = EPROTO;
        }
        if (rc != 0) errno = err;
        return rc;
    }

private:
    template <typename F>
    int guarded(F& call) {
        try {
            return call(*ctx_);
        } catch (const std::bad_alloc&) {
            return fail(*ctx_, ENOMEM, std::string(name_) + ": ERROR: out of memory");
        } catch (const std::exception& e) {
            return fail(*ctx_, EPROTO, std::string(name_) + ": ERROR: " + e.what());
        } catch (...) {
            return fail(*ctx_, EPROTO, std::string(name_) + ": ERROR: unknown exception");
        }
    }

    reapi_cli_ctx* ctx_;
    const char* name_;
};

int initialize(reapi_cli_ctx& c, const char* rgraph, const char* options);
int clone(reapi_cli_ctx& c, reapi_cli_ctx*& copy);
// `given_id` null: the context's counter (the id is written to *jobid).
int match(reapi_cli_ctx& c, int op, const char* jobspec, const uint64_t* given_id, uint64_t* jobid, bool* reserved,
          char** R, int64_t* at, double* ov);
int match_all(reapi_cli_ctx& c, int op, const char* const* jobspecs, size_t n, uint64_t* jobids, bool* reserved,
              char** R, int64_t* at, double* ov, size_t* failed_index);
int update_allocate(reapi_cli_ctx& c, uint64_t jobid, const char* R, int64_t* at, double* ov, const char** R_out);
int add_subgraph(reapi_cli_ctx& c, const char* jgf);
int remove_subgraph(reapi_cli_ctx& c, const char* path);
int cancel(reapi_cli_ctx& c, uint64_t jobid, bool noent_ok);
int partial_cancel(reapi_cli_ctx& c, uint64_t jobid, const char* R, bool noent_ok, bool* full_removal);
int info(reapi_cli_ctx& c, uint64_t jobid, char** mode, bool* reserved, int64_t* at, double* ov);
int find(reapi_cli_ctx& c, const char* criteria, const char* format, char** R);
int stat(reapi_cli_ctx& c, int64_t* V, int64_t* E, int64_t* J, double* load, double* min, double* max, double* avg);
int set_status(reapi_cli_ctx& c, const char* path, int status);
int get_status(reapi_cli_ctx& c, const char* path, resource_status_t* status);
int set_rank_status(reapi_cli_ctx& c, const char* ranks, int status);
int get_rank_status(reapi_cli_ctx& c, const char* rank, resource_status_t* status);

}  // namespace rq::reapi
