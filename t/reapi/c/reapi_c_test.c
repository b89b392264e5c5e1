/* A C99 client of libreapi_cli, built against the *installed* header and
 * library (t/reapi/c/build.sh): every function of reapi.md §3, both include
 * styles, every errno class of §5, ownership (each returned string is
 * released with free), the extras of §8, and R compared with what
 * resource-query prints for the same operations. The groups of checks live
 * in reapi_c_{cli,jobs,extras}.c; include_style.c uses <reapi_cli.h>.
 *
 *   reapi_c_test SRC_DIR RESOURCE_QUERY         the checks
 *   reapi_c_test SRC_DIR RESOURCE_QUERY leak N  N match/cancel cycles (run
 *                                                under ASan/LSan by ctest)
 */
#define _POSIX_C_SOURCE 200809L
#include "reapi_c_test.h"

#include <stdint.h>

int check_failures = 0;
int check_count = 0;
const char *src_dir;
const char *rq_bin;

int include_style_short (const char *jobspec, const char *jgf);

/* Text of SRC_DIR/rel (malloc'd; aborts on error: a missing fixture). */
char *fixture (const char *rel)
{
    char path[4096];
    char *text;
    snprintf (path, sizeof path, "%s/%s", src_dir, rel);
    text = slurp (path);
    if (!text)
        exit (2);
    return text;
}

/* A context on the four-node JGF machine with extra option keys. */
reapi_cli_ctx_t *jgf_ctx (const char *options)
{
    reapi_cli_ctx_t *ctx = reapi_cli_new ();
    char *g = fixture (JGF_MACHINE);
    int rc = reapi_cli_initialize (ctx, g, options);
    CHECK (rc == 0, "initialize %s: errno %d", options, errno);
    free (g);
    return ctx;
}

/* The error text, checked non-NULL and released: the result is owned. */
int err_contains (reapi_cli_ctx_t *ctx, const char *needle)
{
    const char *msg = reapi_cli_get_err_msg (ctx);
    int found;
    CHECK (msg != NULL, "get_err_msg returned NULL");
    if (!msg)
        return 0;
    found = strstr (msg, needle) != NULL;
    if (!found)
        fprintf (stderr, "  message was: [%s], wanted [%s]\n", msg, needle);
    free ((void *)msg);
    return found;
}

void test_match_op_helpers (void)
{
    static const char *names[] = {"allocate", "allocate_with_satisfiability",
                                  "allocate_orelse_reserve", "satisfiability",
                                  "without_allocating",
                                  "without_allocating_future"};
    int i;
    CHECK (MATCH_UNKNOWN == 0 && MATCH_ALLOCATE == 1
           && MATCH_ALLOCATE_W_SATISFIABILITY == 2
           && MATCH_ALLOCATE_ORELSE_RESERVE == 3 && MATCH_SATISFIABILITY == 4
           && MATCH_WITHOUT_ALLOCATING == 5
           && MATCH_WITHOUT_ALLOCATING_FUTURE == 6 && END_MATCH_OP_T == 7,
           "match_op_t values");
    CHECK (RESOURCE_UP == 0 && RESOURCE_DOWN == 1, "resource_status_t values");
    for (i = 1; i <= 6; i++) {
        const char *s = match_op_to_string ((match_op_t)i);
        CHECK (s && strcmp (s, names[i - 1]) == 0, "to_string(%d) = %s", i,
               s ? s : "(null)");
        CHECK (match_op_from_string (names[i - 1]) == (match_op_t)i,
               "from_string(%s)", names[i - 1]);
        CHECK (match_op_valid ((match_op_t)i), "valid(%d)", i);
    }
    CHECK (!match_op_valid (MATCH_UNKNOWN) && !match_op_valid (END_MATCH_OP_T),
           "unknown and end are not valid");
    CHECK (match_op_from_string ("bogus") == MATCH_UNKNOWN, "from_string(bogus)");
}

/* A NULL context is EINVAL everywhere, and get_err_msg still answers. */
void test_null_context (void)
{
    uint64_t id = 0;
    bool b = false;
    char *R = NULL;
    const char *Rc = NULL;
    int64_t at = 0, v = 0, e = 0, j = 0;
    double ov = 0, l = 0, mn = 0, mx = 0, av = 0;
    resource_status_t st;
    const char *msg;
    int rc;

#define NULL_EINVAL(call)                                                  \
    do {                                                                   \
        errno = 0;                                                         \
        rc = (call);                                                       \
        CHECK_ERRNO (rc, errno, EINVAL, #call);                            \
    } while (0)
    NULL_EINVAL (reapi_cli_initialize (NULL, "{}", "{}"));
    NULL_EINVAL (reapi_cli_match (NULL, MATCH_ALLOCATE, "x", &id, &b, &R, &at, &ov));
    NULL_EINVAL (reapi_cli_match_with_jobid (NULL, MATCH_ALLOCATE, "x", 3, &b, &R, &at, &ov));
    NULL_EINVAL (reapi_cli_match_allocate (NULL, false, "x", &id, &b, &R, &at, &ov));
    NULL_EINVAL (reapi_cli_match_satisfy (NULL, "x", &b, &ov));
    NULL_EINVAL (reapi_cli_update_allocate (NULL, 1, "{}", &at, &ov, &Rc));
    NULL_EINVAL (reapi_cli_add_subgraph (NULL, "{}"));
    NULL_EINVAL (reapi_cli_remove_subgraph (NULL, "/x"));
    NULL_EINVAL (reapi_cli_cancel (NULL, 1, true));
    NULL_EINVAL (reapi_cli_partial_cancel (NULL, 1, "{}", true, &b));
    NULL_EINVAL (reapi_cli_info (NULL, 1, &R, &b, &at, &ov));
    NULL_EINVAL (reapi_cli_find (NULL, "status=up", NULL, &R));
    NULL_EINVAL (reapi_cli_stat (NULL, &v, &e, &j, &l, &mn, &mx, &av));
    NULL_EINVAL (reapi_cli_set_status (NULL, "/x", RESOURCE_DOWN));
    NULL_EINVAL (reapi_cli_get_status (NULL, "/x", &st));
    NULL_EINVAL (reapi_cli_set_rank_status (NULL, "0", RESOURCE_DOWN));
    NULL_EINVAL (reapi_cli_get_rank_status (NULL, "0", &st));
#undef NULL_EINVAL
    CHECK (R == NULL && Rc == NULL, "outputs untouched on failure");
    errno = 0;
    CHECK (reapi_cli_clone (NULL) == NULL && errno == EINVAL, "clone(NULL)");
    msg = reapi_cli_get_err_msg (NULL);
    CHECK (msg != NULL && *msg, "get_err_msg(NULL) gives a fixed message");
    free ((void *)msg);
    reapi_cli_clear_err_msg (NULL); /* must not crash */
    reapi_cli_destroy (NULL);
}

void test_initialize (void)
{
    char *g = fixture (JGF_MACHINE);
    char *tiny = fixture (TINY);
    reapi_cli_ctx_t *ctx;
    int rc, err;

    ctx = reapi_cli_new ();
    CHECK (ctx != NULL, "new");
    errno = 0;
    rc = reapi_cli_initialize (ctx, g, "");
    CHECK (rc == -1 && errno != 0, "empty options refused (errno %d)", errno);
    rc = reapi_cli_initialize (ctx, g, "not json");
    CHECK (rc == -1, "non-JSON options refused");
    rc = reapi_cli_initialize (ctx, g, "{\"load_format\": 7}");
    err = errno;
    CHECK_ERRNO (rc, err, EPROTO, "non-string option value");
    rc = reapi_cli_initialize (ctx, "{\"graph\": ", "{\"load_format\": \"jgf\"}");
    err = errno;
    CHECK_ERRNO (rc, err, EPROTO, "broken JGF text");
    CHECK (err_contains (ctx, "fetch_jgf"), "the reader's message is kept");
    reapi_cli_destroy (ctx);

    ctx = reapi_cli_new ();
    rc = reapi_cli_initialize (ctx, tiny, "<graphml>");
    CHECK (rc == -1, "options that are not an object");
    reapi_cli_destroy (ctx);

    /* unknown keys are ignored; a JGF without load_format is recognised
     * (reapi.md §8); a second initialize is EINVAL */
    ctx = reapi_cli_new ();
    rc = reapi_cli_initialize (ctx, g, "{\"no_such_key\": 1, \"elapse_time\": true}");
    CHECK (rc == 0, "JGF with the grug default and an unknown key: errno %d", errno);
    rc = reapi_cli_initialize (ctx, g, "{\"load_format\": \"jgf\"}");
    err = errno;
    CHECK_ERRNO (rc, err, EINVAL, "second initialize");
    reapi_cli_destroy (ctx);

    ctx = reapi_cli_new ();
    rc = reapi_cli_initialize (ctx, tiny,
                               "{\"load_format\": \"grug\", \"matcher_name\": \"ca\","
                               " \"matcher_policy\": \"high\", \"traverser_policy\": \"simple\","
                               " \"match_format\": \"simple\","
                               " \"prune_filters\": \"ALL:core,ALL:node\","
                               " \"reserve_vtx_vec\": 64, \"load_allowlist\": \"\"}");
    CHECK (rc == 0, "every option of §4: errno %d", errno);
    reapi_cli_destroy (ctx);
    free (g);
    free (tiny);
}

void test_match (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\", \"match_format\": \"rv1_nosched\"}");
    char *core = fixture (JOBS ("core.yaml"));
    char *two = fixture (JS ("two-nodes.yaml"));
    char *big = fixture (JOBS ("too-big.yaml"));
    char *bad = fixture (JOBS ("bad-count.yaml"));
    char placeholder[] = "placeholder";
    uint64_t id = 0;
    bool res = true, sat = true;
    char *R = NULL;
    int64_t at = -1;
    double ov = -1;
    int rc, err;

    rc = reapi_cli_match (ctx, MATCH_ALLOCATE, core, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && id == 1 && !res && at == 0 && ov >= 0 && R, "first id is 1");
    CHECK (R && strstr (R, "\"R_lite\""), "R in the context's format: %s", R);
    free (R);
    R = NULL;
    id = 0;
    rc = reapi_cli_match (ctx, MATCH_WITHOUT_ALLOCATING, core, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && id == UINT64_MAX && R, "without_allocating uses UINT64_MAX");
    free (R);
    R = NULL;
    rc = reapi_cli_match (ctx, MATCH_WITHOUT_ALLOCATING_FUTURE, two, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && id == UINT64_MAX && R, "without_allocating_future");
    free (R);
    R = NULL;
    rc = reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && id == 2, "without_allocating consumed no id: %d %lu", rc,
           (unsigned long)id);
    free (R);
    R = NULL;

    /* the machine now has one free node: two more nodes do not fit now */
    R = placeholder;
    id = 77;
    rc = reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EBUSY, "allocate that does not fit now");
    CHECK (R == placeholder && id == 77, "*R and *jobid untouched on failure");
    /* structurally impossible allocate is EBUSY; satisfiability is ENODEV */
    rc = reapi_cli_match (ctx, MATCH_ALLOCATE, big, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EBUSY, "allocate of 1000 nodes");
    rc = reapi_cli_match (ctx, MATCH_ALLOCATE_W_SATISFIABILITY, big, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, ENODEV, "allocate_with_satisfiability of 1000 nodes");
    rc = reapi_cli_match_satisfy (ctx, big, &sat, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, ENODEV, "match_satisfy of 1000 nodes");
    CHECK (!sat, "unsatisfiable: sat false");
    rc = reapi_cli_match_satisfy (ctx, two, &sat, &ov);
    CHECK (rc == 0 && sat, "two nodes are satisfiable even when busy");
    rc = reapi_cli_match (ctx, MATCH_SATISFIABILITY, big, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, ENODEV, "MATCH_SATISFIABILITY of 1000 nodes");
    CHECK (R == placeholder, "R untouched");

    /* invalid ops and jobspecs are EINVAL */
    rc = reapi_cli_match (ctx, MATCH_UNKNOWN, core, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EINVAL, "MATCH_UNKNOWN");
    rc = reapi_cli_match (ctx, (match_op_t)42, core, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EINVAL, "op 42");
    reapi_cli_clear_err_msg (ctx);
    rc = reapi_cli_match (ctx, MATCH_ALLOCATE, bad, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EINVAL, "bad jobspec");
    CHECK (err_contains (ctx, "Jobspec error for"), "jobspec message");
    rc = reapi_cli_match (ctx, MATCH_ALLOCATE, NULL, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EINVAL, "NULL jobspec");
    CHECK (R == placeholder && id == 77, "still untouched");

    /* failed allocating ops consumed ids 3, 4 and 5 (EBUSY, EBUSY, ENODEV):
     * the next one is 6; a reservation starts when job 2 ends */
    R = NULL;
    rc = reapi_cli_match_allocate (ctx, true, two, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && res && at == 3600, "reservation at 3600: rc %d at %ld",
           rc, (long)at);
    CHECK (id == 6, "failed allocating ops consume ids: got %lu", (unsigned long)id);
    free (R);
    R = NULL;

    /* the caller's id; an id in use is not refused */
    rc = reapi_cli_match_with_jobid (ctx, MATCH_ALLOCATE, core, 1000, &res, &R, &at, &ov);
    CHECK (rc == 0 && !res && at == 0 && R, "match_with_jobid 1000");
    free (R);
    R = NULL;
    rc = reapi_cli_match_with_jobid (ctx, MATCH_ALLOCATE_ORELSE_RESERVE, core, 1000,
                                     &res, &R, &at, &ov);
    CHECK (rc == 0 && R, "an id in use is not refused");
    free (R);
    reapi_cli_destroy (ctx);
    free (core);
    free (two);
    free (big);
    free (bad);
}

int main (int argc, char **argv)
{
    if (argc < 3) {
        fprintf (stderr, "usage: %s SRC_DIR RESOURCE_QUERY [leak N]\n", argv[0]);
        return 2;
    }
    src_dir = argv[1];
    rq_bin = argv[2];
    if (argc >= 5 && strcmp (argv[3], "leak") == 0) {
        leak_cycles (atol (argv[4]));
        return check_summary ("reapi_c_test leak");
    }
    test_match_op_helpers ();
    test_null_context ();
    test_initialize ();
    test_match ();
    test_r_matches_cli ();
    test_find ();
    test_cancel_info ();
    test_update_allocate ();
    test_bare_r ();
    test_subgraph ();
    test_status ();
    test_clone ();
    test_stat ();
    test_err_msg ();
    test_extras ();
    test_contract ();
    test_edges_both_ways ();
    {
        char *core = fixture (JOBS ("core.yaml"));
        char *g = fixture (JGF_MACHINE);
        int r = include_style_short (core, g);
        CHECK (r == 0, "the <reapi_cli.h> include style: code %d", r);
        free (core);
        free (g);
    }
    return check_summary ("reapi_c_test");
}

