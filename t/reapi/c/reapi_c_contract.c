/* The contract details where the library once differed from the
 * original's libreapi_cli (spec/reapi.md §3-§5, measured call for call):
 * out-parameters written on entry, the errno of bad options and of an
 * unknown rank, rv1exec_force, a partial cancel R without a nodelist, an
 * update_allocate that starts later, the UINT64_MAX job id. */
#define _POSIX_C_SOURCE 200809L
#include "reapi_c_test.h"

#include <stdint.h>

/* Two nodes of four cores, as an RFC 20 R (rv1exec). */
static const char *const rv1_two_nodes =
    "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-1\","
    " \"children\": {\"core\": \"0-3\"}}], \"nodelist\": [\"node[0-1]\"],"
    " \"starttime\": 0, \"expiration\": 0}}";

static void out_parameters (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    char *two = fixture (JS ("two-nodes.yaml"));
    char placeholder[] = "placeholder";
    uint64_t id = 0;
    bool res = true, full = true;
    char *R = NULL;
    int64_t at = 77;
    double ov = -1;
    int rc, err;

    CHECK (reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov) == 0, "2 nodes");
    free (R);
    CHECK (reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov) == 0, "4 nodes");
    free (R);

    /* a failed match: *at = 0 and *reserved = false, *R untouched */
    R = placeholder;
    at = 77;
    res = true;
    ov = -1;
    rc = reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EBUSY, "no node left");
    CHECK (at == 0 && !res && ov >= 0 && R == placeholder,
           "failed match: at %ld reserved %d (want 0, false)", (long)at, (int)res);

    /* a future probe: at the end of the jobs, and not reserved */
    R = NULL;
    at = 0;
    res = true;
    rc = reapi_cli_match (ctx, MATCH_WITHOUT_ALLOCATING_FUTURE, two, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && at == 3600 && !res,
           "without_allocating_future: rc %d at %ld reserved %d (want 3600, false)", rc,
           (long)at, (int)res);
    free (R);

    /* the "without allocating" job id is not a job id */
    R = placeholder;
    rc = reapi_cli_match_with_jobid (ctx, MATCH_SATISFIABILITY, two, UINT64_MAX, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EINVAL, "match_with_jobid (UINT64_MAX)");
    CHECK (R == placeholder, "*R untouched");

    /* partial_cancel of an unknown job: *full_removal written */
    full = true;
    rc = reapi_cli_partial_cancel (ctx, 99, "{}", false, &full);
    err = errno;
    CHECK_ERRNO (rc, err, ENOENT, "partial_cancel of an unknown job");
    CHECK (!full, "full_removal false on failure");

    /* info of an unknown job: numbers written, mode untouched */
    R = placeholder;
    at = 5;
    res = true;
    rc = reapi_cli_info (ctx, 99, &R, &res, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, ENOENT, "info of an unknown job");
    CHECK (R == placeholder && !res && at == 0, "info on failure: at %ld", (long)at);
    reapi_cli_destroy (ctx);
    free (two);
}

static void errno_classes (void)
{
    static const char *const bad[] = {
        "not json", "", "[1]", "{\"load_format\": \"yaml\"}",
        "{\"matcher_name\": \"nosuch\"}", "{\"matcher_policy\": \"nosuch\"}",
        "{\"reserve_vtx_vec\": -1}", "{\"load_format\": 7}"};
    char *g = fixture (JGF_MACHINE);
    reapi_cli_ctx_t *ctx;
    resource_status_t st = RESOURCE_UP;
    size_t i;
    int rc, err;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ctx = reapi_cli_new ();
        rc = reapi_cli_initialize (ctx, g, bad[i]);
        err = errno;
        CHECK (rc == -1 && err == EPROTO, "options [%s]: rc %d errno %d (want EPROTO)", bad[i],
               rc, err);
        CHECK (err_contains (ctx, "ERROR"), "a message names the problem");
        reapi_cli_destroy (ctx);
    }

    ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    rc = reapi_cli_get_rank_status (ctx, "999", &st);
    err = errno;
    CHECK_ERRNO (rc, err, EINVAL, "get_rank_status of an unknown rank");
    reapi_cli_destroy (ctx);
    free (g);
}

static void rv1exec_graph (void)
{
    static const char rank1[] =
        "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"1\","
        " \"children\": {\"core\": \"0-3\"}}]}}";
    static const char rank0[] =
        "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\","
        " \"children\": {\"core\": \"0-3\"}}]}}";
    static const char later[] =
        "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0\","
        " \"children\": {\"core\": \"0\"}}], \"nodelist\": [\"node0\"],"
        " \"starttime\": 100, \"expiration\": 3700}}";
    char *two = fixture (JS ("two-nodes.yaml"));
    reapi_cli_ctx_t *ctx = reapi_cli_new ();
    uint64_t id = 0;
    bool res = true, full = true;
    char *R = NULL, *mode = NULL;
    const char *Rc = NULL;
    int64_t at = 0;
    double ov = 0;
    int rc;

    rc = reapi_cli_initialize (ctx, rv1_two_nodes, "{\"load_format\": \"rv1exec_force\"}");
    CHECK (rc == 0, "rv1exec_force is accepted: errno %d", errno);
    CHECK (reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov) == 0, "2 nodes");
    free (R);

    /* R_lite by rank only, no nodelist */
    rc = reapi_cli_partial_cancel (ctx, id, rank1, false, &full);
    CHECK (rc == 0 && !full, "partial cancel of rank 1 without nodelist: rc %d errno %d", rc,
           errno);
    rc = reapi_cli_partial_cancel (ctx, id, rank0, false, &full);
    CHECK (rc == 0 && full, "then rank 0: the whole job");

    /* an allocation made elsewhere that starts later is ALLOCATED */
    res = true;
    rc = reapi_cli_update_allocate (ctx, 42, later, &at, &ov, &Rc);
    CHECK (rc == 0 && at == 100, "update_allocate at 100: rc %d errno %d", rc, errno);
    free ((void *)Rc);
    rc = reapi_cli_info (ctx, 42, &mode, &res, &at, &ov);
    CHECK (rc == 0 && mode && strcmp (mode, "ALLOCATED") == 0 && !res,
           "recorded as ALLOCATED, not reserved: %s %d", mode ? mode : "(null)", (int)res);
    free (mode);
    reapi_cli_destroy (ctx);
    free (two);
}

void test_contract (void)
{
    out_parameters ();
    errno_classes ();
    rv1exec_graph ();
}
