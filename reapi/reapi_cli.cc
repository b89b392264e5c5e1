// The reapi_cli C API (spec/reapi.md): placeholder entry points. Every
// function not yet implemented fails with ENOSYS.
#include "resource/reapi/bindings/c/reapi_cli.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

struct reapi_cli_ctx {
    int unused = 0;
};

extern "C" {

static int enosys() {
    errno = ENOSYS;
    return -1;
}

reapi_cli_ctx_t* reapi_cli_new(void) { return new (std::nothrow) reapi_cli_ctx(); }
void reapi_cli_destroy(reapi_cli_ctx_t* ctx) {
    int saved = errno;
    delete ctx;
    errno = saved;
}
int reapi_cli_initialize(reapi_cli_ctx_t*, const char*, const char*) { return enosys(); }
reapi_cli_ctx_t* reapi_cli_clone(reapi_cli_ctx_t*) {
    errno = ENOSYS;
    return nullptr;
}
int reapi_cli_match(reapi_cli_ctx_t*, match_op_t, const char*, uint64_t*, bool*, char**, int64_t*, double*) {
    return enosys();
}
int reapi_cli_match_with_jobid(reapi_cli_ctx_t*, match_op_t, const char*, uint64_t, bool*, char**, int64_t*,
                               double*) {
    return enosys();
}
int reapi_cli_match_allocate(reapi_cli_ctx_t*, bool, const char*, uint64_t*, bool*, char**, int64_t*, double*) {
    return enosys();
}
int reapi_cli_match_satisfy(reapi_cli_ctx_t*, const char*, bool*, double*) { return enosys(); }
int reapi_cli_update_allocate(reapi_cli_ctx_t*, const uint64_t, const char*, int64_t*, double*, const char**) {
    return enosys();
}
int reapi_cli_add_subgraph(reapi_cli_ctx_t*, const char*) { return enosys(); }
int reapi_cli_remove_subgraph(reapi_cli_ctx_t*, const char*) { return enosys(); }
int reapi_cli_cancel(reapi_cli_ctx_t*, const uint64_t, bool) { return enosys(); }
int reapi_cli_partial_cancel(reapi_cli_ctx_t*, const uint64_t, const char*, bool, bool*) { return enosys(); }
int reapi_cli_info(reapi_cli_ctx_t*, const uint64_t, char**, bool*, int64_t*, double*) { return enosys(); }
int reapi_cli_find(reapi_cli_ctx_t*, const char*, const char*, char**) { return enosys(); }
int reapi_cli_stat(reapi_cli_ctx_t*, int64_t*, int64_t*, int64_t*, double*, double*, double*, double*) {
    return enosys();
}
const char* reapi_cli_get_err_msg(reapi_cli_ctx_t*) { return strdup(""); }
void reapi_cli_clear_err_msg(reapi_cli_ctx_t*) {}
int reapi_cli_set_status(reapi_cli_ctx_t*, const char*, resource_status_t) { return enosys(); }
int reapi_cli_get_status(reapi_cli_ctx_t*, const char*, resource_status_t*) { return enosys(); }
int reapi_cli_set_rank_status(reapi_cli_ctx_t*, const char*, resource_status_t) { return enosys(); }
int reapi_cli_get_rank_status(reapi_cli_ctx_t*, const char*, resource_status_t*) { return enosys(); }
char* reapi_cli_last_error(reapi_cli_ctx_t*, int* errnum) {
    if (errnum) *errnum = 0;
    return strdup("");
}
void reapi_cli_free(void* p) { std::free(p); }
const char* reapi_cli_version(void) { return RQ_VERSION; }
int reapi_cli_match_all(reapi_cli_ctx_t*, match_op_t, const char* const*, size_t, uint64_t*, bool*, char**,
                        int64_t*, double*, size_t*) {
    return enosys();
}

}  // extern "C"
