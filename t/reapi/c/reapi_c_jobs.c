/* reapi_c_test: jobs (cancel, partial cancel, info, update_allocate),
 * the graph (subgraphs, status), clone, stat and messages. */
#define _POSIX_C_SOURCE 200809L
#include "reapi_c_test.h"

#include <stdint.h>

/* An rv1exec R of one rank of the four-node machine. */
static void rank_r (char *buf, size_t n, int rank)
{
    snprintf (buf, n,
              "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"%d\", "
              "\"children\": {\"core\": \"0-3\"}}], \"nodelist\": [\"node%d\"], "
              "\"starttime\": 0, \"expiration\": 3600}}",
              rank, rank);
}

void test_cancel_info (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\", \"match_format\": \"rv1_nosched\"}");
    char *two = fixture (JS ("two-nodes.yaml"));
    char *R = NULL, *mode = NULL, r3[512], r2[512];
    uint64_t id;
    bool res = true, full = true;
    int64_t at = -1;
    double ov = -1;
    int rc, err;

    CHECK (reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov) == 0,
           "allocate job 1");
    CHECK (R && strstr (R, "\"2-3\""), "policy first takes ranks 2-3: %s", R);
    free (R);
    R = NULL;
    rc = reapi_cli_info (ctx, 1, &mode, &res, &at, &ov);
    CHECK (rc == 0 && mode && strcmp (mode, "ALLOCATED") == 0 && !res && at == 0,
           "info 1: %s", mode ? mode : "(null)");
    free (mode);
    mode = NULL;
    rank_r (r3, sizeof r3, 3);
    rank_r (r2, sizeof r2, 2);
    rc = reapi_cli_partial_cancel (ctx, 1, r3, false, &full);
    CHECK (rc == 0 && !full, "partial cancel of rank 3 leaves rank 2: rc %d full %d", rc, full);
    rc = reapi_cli_partial_cancel (ctx, 1, r3, false, &full);
    CHECK (rc == -1, "rank 3 is no longer held");
    rc = reapi_cli_partial_cancel (ctx, 1, r2, false, &full);
    CHECK (rc == 0 && full, "the last rank: full removal");
    rc = reapi_cli_info (ctx, 1, &mode, &res, &at, &ov);
    CHECK (rc == 0 && mode && strcmp (mode, "CANCELED") == 0, "job 1 keeps its record");
    free (mode);
    mode = NULL;
    rc = reapi_cli_cancel (ctx, 1, false);
    err = errno;
    CHECK_ERRNO (rc, err, ENOENT, "cancel after full removal");
    rc = reapi_cli_partial_cancel (ctx, 99, r3, true, &full);
    CHECK (rc == 0, "partial cancel of an unknown job with noent_ok");
    rc = reapi_cli_partial_cancel (ctx, 99, r3, false, &full);
    err = errno;
    CHECK_ERRNO (rc, err, ENOENT, "partial cancel of an unknown job");

    /* reservations cannot be partially cancelled */
    CHECK (reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov) == 0
           && id == 2, "job 2");
    free (R);
    R = NULL;
    CHECK (reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov) == 0
           && id == 3, "job 3 fills the machine");
    free (R);
    R = NULL;
    CHECK (reapi_cli_match_allocate (ctx, true, two, &id, &res, &R, &at, &ov) == 0
           && id == 4 && res && at == 3600, "job 4 is reserved");
    free (R);
    R = NULL;
    rc = reapi_cli_info (ctx, 4, &mode, &res, &at, &ov);
    CHECK (rc == 0 && mode && strcmp (mode, "RESERVED") == 0 && res && at == 3600,
           "info 4");
    free (mode);
    mode = NULL;
    rc = reapi_cli_partial_cancel (ctx, 4, r3, false, &full);
    err = errno;
    CHECK_ERRNO (rc, err, ENOENT, "partial cancel of a reservation");

    reapi_cli_clear_err_msg (ctx);
    rc = reapi_cli_cancel (ctx, 99999, false);
    err = errno;
    CHECK_ERRNO (rc, err, ENOENT, "cancel of an unknown job");
    CHECK (err_contains (ctx, "nonexistent job 99999"), "the message names the job");
    CHECK (reapi_cli_cancel (ctx, 99999, true) == 0, "noent_ok");
    CHECK (reapi_cli_cancel (ctx, 4, false) == 0, "cancel 4");
    rc = reapi_cli_info (ctx, 4, &mode, &res, &at, &ov);
    CHECK (rc == 0 && mode && strcmp (mode, "CANCELED") == 0, "info after cancel");
    free (mode);
    mode = NULL;
    rc = reapi_cli_info (ctx, 12345, &mode, &res, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, ENOENT, "info of an unknown job");
    CHECK (mode == NULL, "mode untouched");
    reapi_cli_destroy (ctx);
    free (two);
}

/* A bare JGF (no scheduling key) of one node's subtree of the four-node
 * machine: what a partial release of that node looks like. */
static void node_jgf (char *buf, size_t n, int node)
{
    int base = 1 + node * 7, s, c, len;
    len = snprintf (buf, n, "{\"graph\": {\"nodes\": [");
    for (s = 0; s < 2; s++) {
        for (c = 0; c < 2; c++)
            len += snprintf (buf + len, n - len,
                             "{\"id\": \"%d\", \"metadata\": {\"type\": \"core\", \"id\": %d, "
                             "\"rank\": %d, \"exclusive\": true, \"paths\": {\"containment\": "
                             "\"/cluster0/node%d/socket%d/core%d\"}}}, ",
                             base + 2 + s * 3 + c, s * 2 + c, node, node, s, s * 2 + c);
        len += snprintf (buf + len, n - len,
                         "{\"id\": \"%d\", \"metadata\": {\"type\": \"socket\", \"id\": %d, "
                         "\"rank\": %d, \"exclusive\": true, \"paths\": {\"containment\": "
                         "\"/cluster0/node%d/socket%d\"}}}, ",
                         base + 1 + s * 3, s, node, node, s);
    }
    len += snprintf (buf + len, n - len,
                     "{\"id\": \"%d\", \"metadata\": {\"type\": \"node\", \"id\": %d, "
                     "\"rank\": %d, \"exclusive\": true, \"paths\": {\"containment\": "
                     "\"/cluster0/node%d\"}}}], \"edges\": [",
                     base, node, node, node);
    for (s = 0; s < 2; s++) {
        for (c = 0; c < 2; c++)
            len += snprintf (buf + len, n - len, "{\"source\": \"%d\", \"target\": \"%d\"}, ",
                             base + 1 + s * 3, base + 2 + s * 3 + c);
        len += snprintf (buf + len, n - len, "{\"source\": \"%d\", \"target\": \"%d\"}%s",
                         base, base + 1 + s * 3, s ? "" : ", ");
    }
    snprintf (buf + len, n - len, "]}}");
}

/* reapi.md §8: a bare JGF R (no scheduling key) is recognised by
 * partial_cancel and update_allocate; an rv1exec R without scheduling is
 * read as rv1exec. */
void test_bare_r (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    reapi_cli_ctx_t *other = jgf_ctx ("{\"load_format\": \"jgf\", \"match_format\": \"rv1_nosched\"}");
    reapi_cli_ctx_t *dst = jgf_ctx ("{\"load_format\": \"jgf\"}");
    reapi_cli_ctx_t *flat = reapi_cli_new ();
    char *two = fixture (JS ("two-nodes.yaml"));
    char *jgf_r = NULL, *rv1_r = NULL, *R = NULL, node3[4096], node2[4096];
    const char *out = NULL;
    uint64_t id;
    bool res, full = true;
    int64_t at;
    double ov;
    int rc;

    rc = reapi_cli_initialize (flat,
                               "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"0-3\", "
                               "\"children\": {\"core\": \"0-3\"}}], \"nodelist\": [\"node[0-3]\"]}}",
                               "{\"load_format\": \"rv1exec\"}");
    CHECK (rc == 0, "a machine from rv1exec: errno %d", errno);
    CHECK (reapi_cli_match_allocate (ctx, false, two, &id, &res, &jgf_r, &at, &ov) == 0, "jgf R");
    CHECK (jgf_r && !strstr (jgf_r, "scheduling") && strstr (jgf_r, "/cluster0/node3\""),
           "a bare JGF of nodes 2-3");
    node_jgf (node3, sizeof node3, 3);
    node_jgf (node2, sizeof node2, 2);
    rc = reapi_cli_partial_cancel (ctx, 1, node3, false, &full);
    CHECK (rc == 0 && !full, "partial cancel of node3 by a bare JGF: rc %d errno %d", rc, errno);
    rc = reapi_cli_partial_cancel (ctx, 1, node2, false, &full);
    CHECK (rc == 0 && full, "then node2: nothing left: rc %d errno %d", rc, errno);
    rc = reapi_cli_find (ctx, "sched-now=allocated", NULL, &R);
    CHECK (rc == 0 && R == NULL, "nothing allocated: %s", R ? R : "(null)");
    free (R);
    R = NULL;
    rc = reapi_cli_update_allocate (dst, 8, jgf_r, &at, &ov, &out);
    CHECK (rc == 0 && at == 0 && out, "update_allocate with a bare JGF: rc %d errno %d", rc, errno);
    free ((void *)out);
    out = NULL;
    rc = reapi_cli_match_allocate (dst, false, two, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && R && strstr (R, "/cluster0/node1\""), "job 8 holds nodes 2-3: %s", R);
    free (R);
    R = NULL;

    /* rv1exec R on a machine read from rv1exec (its paths are
     * /cluster0/nodeN/coreM, the ones an rv1exec R names) */
    CHECK (reapi_cli_match_allocate (other, false, two, &id, &res, &R, &at, &ov) == 0, "2-3");
    free (R);
    R = NULL;
    CHECK (reapi_cli_match_allocate (other, false, two, &id, &res, &rv1_r, &at, &ov) == 0,
           "rv1_nosched R of nodes 0-1");
    CHECK (rv1_r && strstr (rv1_r, "\"0-1\"") && !strstr (rv1_r, "scheduling"), "%s", rv1_r);
    rc = reapi_cli_update_allocate (flat, 9, rv1_r, &at, &ov, &out);
    CHECK (rc == 0 && at == 0 && out, "update_allocate with rv1exec: rc %d errno %d", rc, errno);
    free ((void *)out);
    CHECK (reapi_cli_match_allocate (flat, false, two, &id, &res, &R, &at, &ov) == 0, "2-3 free");
    free (R);
    R = NULL;
    rc = reapi_cli_match_allocate (flat, false, two, &id, &res, &R, &at, &ov);
    CHECK (rc == -1 && errno == EBUSY, "the replayed job holds nodes 0-1");
    rc = reapi_cli_partial_cancel (flat, 9, rv1_r, false, &full);
    CHECK (rc == 0 && full, "partial cancel of job 9 with its whole rv1exec R: rc %d", rc);
    rc = reapi_cli_match_allocate (flat, false, two, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && R, "nodes 0-1 free again");
    free (R);
    free (jgf_r);
    free (rv1_r);
    free (two);
    reapi_cli_destroy (ctx);
    reapi_cli_destroy (other);
    reapi_cli_destroy (dst);
    reapi_cli_destroy (flat);
}

void test_update_allocate (void)
{
    reapi_cli_ctx_t *src = jgf_ctx ("{\"load_format\": \"jgf\", \"match_format\": \"rv1\"}");
    reapi_cli_ctx_t *dst = jgf_ctx ("{\"load_format\": \"jgf\", \"match_format\": \"rv1\"}");
    char *two = fixture (JS ("two-nodes.yaml"));
    char *R1 = NULL, *R2 = NULL, *R = NULL, *mode = NULL;
    const char *out = NULL;
    uint64_t id;
    bool res;
    int64_t at = -1;
    double ov;
    int rc, err;

    CHECK (reapi_cli_match_allocate (src, false, two, &id, &res, &R1, &at, &ov) == 0, "R1");
    CHECK (reapi_cli_match_allocate (src, true, two, &id, &res, &R2, &at, &ov) == 0, "R2");
    CHECK (reapi_cli_match_allocate (src, true, two, &id, &res, &R, &at, &ov) == 0
           && at == 3600, "R3 reserved at 3600");
    free (R);
    R = NULL;
    rc = reapi_cli_update_allocate (dst, 5, R1, &at, &ov, &out);
    CHECK (rc == 0 && at == 0 && out, "replay R1 as job 5: rc %d errno %d", rc, errno);
    CHECK (out && R1 && strcmp (out, R1) == 0, "R as recorded:\n%s\n%s", out, R1);
    free ((void *)out);
    out = NULL;
    rc = reapi_cli_update_allocate (dst, 5, R2, &at, &ov, &out);
    err = errno;
    CHECK_ERRNO (rc, err, EEXIST, "job 5 again");
    CHECK (out == NULL, "R_out untouched");
    rc = reapi_cli_info (dst, 5, &mode, &res, &at, &ov);
    CHECK (rc == 0 && mode && strcmp (mode, "ALLOCATED") == 0, "job 5 recorded");
    free (mode);
    mode = NULL;
    /* the same machine is now as full as src: the next match must land
     * where src put its second job */
    rc = reapi_cli_update_allocate (dst, 6, R2, &at, &ov, &out);
    CHECK (rc == 0 && at == 0, "R2 replayed (a fresh context places it at 0): at %ld",
           (long)at);
    free ((void *)out);
    out = NULL;
    rc = reapi_cli_match_allocate (dst, false, two, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EBUSY, "the replayed jobs fill the machine");
    rc = reapi_cli_update_allocate (dst, 7, "{\"version\": 1", &at, &ov, &out);
    CHECK (rc == -1 && out == NULL, "an R that does not parse");
    free (R1);
    free (R2);
    free (two);
    reapi_cli_destroy (src);
    reapi_cli_destroy (dst);
}

void test_subgraph (void)
{
    reapi_cli_ctx_t *ctx = reapi_cli_new ();
    char *tiny = fixture (TINY);
    char *node2 = fixture (JS ("attach-node2.json"));
    char *whole = fixture (JOBS ("whole-node.yaml"));
    char *R = NULL;
    uint64_t id;
    bool res;
    int64_t at;
    double ov;
    int rc, err, i;

    CHECK (reapi_cli_initialize (ctx, tiny, "{\"match_format\": \"simple\"}") == 0, "tiny");
    rc = reapi_cli_add_subgraph (ctx, node2);
    CHECK (rc == 0, "attach node2: errno %d", errno);
    for (i = 0; i < 3; i++) {
        rc = reapi_cli_match_allocate (ctx, false, whole, &id, &res, &R, &at, &ov);
        CHECK (rc == 0, "whole node %d of 3", i + 1);
        if (i == 0)
            CHECK (R && strstr (R, "node2"), "the attached node is used: %s", R);
        free (R);
        R = NULL;
    }
    for (i = 1; i <= 3; i++)
        CHECK (reapi_cli_cancel (ctx, (uint64_t)i, false) == 0, "cancel %d", i);
    rc = reapi_cli_remove_subgraph (ctx, "/tiny0/rack0/node2");
    CHECK (rc == 0, "remove node2: errno %d", errno);
    for (i = 0; i < 2; i++) {
        rc = reapi_cli_match_allocate (ctx, false, whole, &id, &res, &R, &at, &ov);
        CHECK (rc == 0 && R && !strstr (R, "node2"), "node %d of 2 without node2", i);
        free (R);
        R = NULL;
    }
    rc = reapi_cli_match_allocate (ctx, false, whole, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EBUSY, "no third node after remove");
    rc = reapi_cli_remove_subgraph (ctx, "/tiny0/no/such");
    CHECK (rc == -1, "removing a path that does not exist");
    rc = reapi_cli_add_subgraph (ctx, "{\"graph\": 1}");
    CHECK (rc == -1, "attaching a broken JGF");
    reapi_cli_destroy (ctx);
    free (tiny);
    free (node2);
    free (whole);
}

void test_status (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    char *two = fixture (JS ("two-nodes.yaml"));
    resource_status_t st = RESOURCE_UP;
    char *R = NULL;
    uint64_t id;
    bool res;
    int64_t at;
    double ov;
    int rc, err;

    CHECK (reapi_cli_set_status (ctx, "/cluster0/node0", RESOURCE_DOWN) == 0, "node0 down");
    CHECK (reapi_cli_get_status (ctx, "/cluster0/node0", &st) == 0 && st == RESOURCE_DOWN,
           "get node0");
    CHECK (reapi_cli_set_rank_status (ctx, "1-2", RESOURCE_DOWN) == 0, "ranks 1-2 down");
    CHECK (reapi_cli_get_rank_status (ctx, "2", &st) == 0 && st == RESOURCE_DOWN, "rank 2");
    CHECK (reapi_cli_get_status (ctx, "/cluster0/node1", &st) == 0 && st == RESOURCE_DOWN,
           "rank 1 is node1");
    CHECK (reapi_cli_get_rank_status (ctx, "3", &st) == 0 && st == RESOURCE_UP, "rank 3 up");
    rc = reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EBUSY, "three nodes down: two do not fit");
    CHECK (reapi_cli_set_rank_status (ctx, "all", RESOURCE_UP) == 0, "all up");
    CHECK (reapi_cli_set_rank_status (ctx, "7-9", RESOURCE_DOWN) == 0,
           "unknown ranks are ignored");
    CHECK (reapi_cli_get_status (ctx, "/cluster0/node0", &st) == 0 && st == RESOURCE_UP,
           "node0 up again");
    rc = reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov);
    CHECK (rc == 0, "two nodes fit again");
    free (R);

#define EXPECT_EINVAL(call, what)                                          \
    do {                                                                   \
        rc = (call);                                                       \
        err = errno;                                                       \
        CHECK_ERRNO (rc, err, EINVAL, what);                               \
    } while (0)
    EXPECT_EINVAL (reapi_cli_set_status (ctx, "/cluster0/node9", RESOURCE_DOWN), "unknown path");
    EXPECT_EINVAL (reapi_cli_get_status (ctx, "/nowhere", &st), "get unknown path");
    EXPECT_EINVAL (reapi_cli_set_status (ctx, "/cluster0/node0", (resource_status_t)5), "status 5");
    EXPECT_EINVAL (reapi_cli_set_rank_status (ctx, "", RESOURCE_DOWN), "empty idset");
    EXPECT_EINVAL (reapi_cli_set_rank_status (ctx, "1-x", RESOURCE_DOWN), "invalid idset");
    EXPECT_EINVAL (reapi_cli_get_rank_status (ctx, "0-1", &st), "two ranks");
    EXPECT_EINVAL (reapi_cli_get_rank_status (ctx, NULL, &st), "NULL rank");
#undef EXPECT_EINVAL
    reapi_cli_destroy (ctx);
    free (two);
}

void test_clone (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    reapi_cli_ctx_t *copy, *empty = reapi_cli_new ();
    char *two = fixture (JS ("two-nodes.yaml"));
    char *R = NULL, *mode = NULL;
    uint64_t id;
    bool res;
    int64_t at;
    double ov;
    int rc, err;

    errno = 0;
    CHECK (reapi_cli_clone (empty) == NULL && errno == EINVAL, "clone of an uninitialised ctx");
    reapi_cli_destroy (empty);
    CHECK (reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov) == 0, "job 1");
    free (R);
    R = NULL;
    CHECK (reapi_cli_set_status (ctx, "/cluster0/node0", RESOURCE_DOWN) == 0, "node0 down");
    copy = reapi_cli_clone (ctx);
    CHECK (copy != NULL, "clone");
    if (!copy) {
        reapi_cli_destroy (ctx);
        free (two);
        return;
    }
    rc = reapi_cli_info (copy, 1, &mode, &res, &at, &ov);
    CHECK (rc == 0 && mode && strcmp (mode, "ALLOCATED") == 0, "the copy has job 1");
    free (mode);
    mode = NULL;
    /* node0 down and ranks 2-3 taken in both: no room for two nodes */
    rc = reapi_cli_match_allocate (copy, false, two, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EBUSY, "the copy keeps jobs and statuses");
    CHECK (reapi_cli_cancel (copy, 1, false) == 0, "cancel 1 in the copy");
    CHECK (reapi_cli_set_status (copy, "/cluster0/node0", RESOURCE_UP) == 0, "node0 up in copy");
    rc = reapi_cli_match_allocate (copy, false, two, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && id == 3, "the copy continues the id counter: %lu", (unsigned long)id);
    free (R);
    R = NULL;
    rc = reapi_cli_info (ctx, 1, &mode, &res, &at, &ov);
    CHECK (rc == 0 && mode && strcmp (mode, "ALLOCATED") == 0, "the original is untouched");
    free (mode);
    rc = reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov);
    err = errno;
    CHECK_ERRNO (rc, err, EBUSY, "the original is still full");
    reapi_cli_destroy (ctx);
    /* the copy outlives its source */
    CHECK (reapi_cli_cancel (copy, 3, false) == 0, "cancel in the copy after the source died");
    reapi_cli_destroy (copy);
    free (two);
}

/* stat is implemented (reapi.md §8): counts as the CLI's -e prints them. */
void test_stat (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    char *two = fixture (JS ("two-nodes.yaml"));
    char *R = NULL, *cli, *cmd = NULL, path[4096];
    int64_t V = -1, E = -1, J = -1, cliV = -2, cliE = -2;
    double load = -1, mn = -1, mx = -1, avg = -1, ov;
    uint64_t id;
    bool res;
    int64_t at;
    int rc;
    const char *p;

    CHECK (reapi_cli_match_allocate (ctx, false, two, &id, &res, &R, &at, &ov) == 0, "job 1");
    free (R);
    rc = reapi_cli_stat (ctx, &V, &E, &J, &load, &mn, &mx, &avg);
    CHECK (rc == 0, "stat: errno %d", errno);
    snprintf (path, sizeof path, "%s/%s", src_dir, JGF_MACHINE);
    append (&cmd, rq_bin);
    append (&cmd, " -f jgf -e -L '");
    append (&cmd, path);
    append (&cmd, "' </dev/null 2>&1");
    cli = run_capture (cmd);
    if (cli && (p = strstr (cli, "Vertex Count: ")))
        cliV = strtoll (p + 14, NULL, 10);
    if (cli && (p = strstr (cli, "Edge Count: ")))
        cliE = strtoll (p + 12, NULL, 10);
    CHECK (V == cliV && E == cliE && V == 29, "V %ld E %ld, CLI %ld %ld", (long)V, (long)E,
           (long)cliV, (long)cliE);
    CHECK (J == 1, "one job: %ld", (long)J);
    CHECK (load >= 0 && mn >= 0 && mx >= mn && avg >= mn && avg <= mx,
           "times: load %g min %g max %g avg %g", load, mn, mx, avg);
    free (cli);
    free (cmd);
    free (two);
    reapi_cli_destroy (ctx);
}

void test_err_msg (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    const char *msg;

    msg = reapi_cli_get_err_msg (ctx);
    CHECK (msg && *msg == '\0', "no message yet: [%s]", msg ? msg : "(null)");
    free ((void *)msg);
    reapi_cli_cancel (ctx, 41, false);
    reapi_cli_cancel (ctx, 42, false);
    CHECK (err_contains (ctx, "41") && err_contains (ctx, "nonexistent job 42"),
           "messages accumulate");
    reapi_cli_clear_err_msg (ctx);
    msg = reapi_cli_get_err_msg (ctx);
    CHECK (msg && *msg == '\0', "cleared: [%s]", msg ? msg : "(null)");
    free ((void *)msg);
    reapi_cli_destroy (ctx);
}

