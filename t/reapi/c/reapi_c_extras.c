/* reapi_c_test: the extras of reapi.md §8 (version, last_error, free,
 * match_all, the legacy switch) and the match/cancel cycles of the leak
 * run. */
#define _POSIX_C_SOURCE 200809L
#include "reapi_c_test.h"

#include <stdint.h>

/* The extras of reapi.md §8, under new names. */
void test_extras (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\", \"match_format\": \"rv1_nosched\"}");
    const char *jobs[3];
    char *core = fixture (JOBS ("core.yaml"));
    char *two = fixture (JS ("two-nodes.yaml"));
    char *R3[3] = {NULL, NULL, NULL}, *R = NULL, *last;
    uint64_t ids[3] = {0, 0, 0}, id = 0;
    bool res3[3], res;
    int64_t at3[3], at;
    double ov;
    size_t failed = 99;
    int rc, err, num = -1, i;
    const char *v = reapi_cli_version ();

    CHECK (v && *v >= '0' && *v <= '9' && strchr (v, '.'), "version: %s", v ? v : "(null)");

    /* last error: not accumulated, with its errno */
    reapi_cli_cancel (ctx, 41, false);
    reapi_cli_cancel (ctx, 42, false);
    last = reapi_cli_last_error (ctx, &num);
    CHECK (last && strstr (last, "42") && !strstr (last, "41") && num == ENOENT,
           "last error: [%s] %d", last ? last : "(null)", num);
    reapi_cli_free (last);
    CHECK (reapi_cli_cancel (ctx, 42, true) == 0, "a success");
    last = reapi_cli_last_error (ctx, NULL);
    CHECK (last && *last == '\0', "no error after a success: [%s]", last ? last : "(null)");
    reapi_cli_free (last);
    last = reapi_cli_last_error (ctx, &num);
    CHECK (num == 0, "errnum 0 after a success: %d", num);
    reapi_cli_free (last);
    errno = 0;
    last = reapi_cli_last_error (NULL, &num);
    CHECK (num == EINVAL, "last_error(NULL): errnum %d", num);
    reapi_cli_free (last);

    /* all or nothing: three that fit */
    jobs[0] = core;
    jobs[1] = two;
    jobs[2] = core;
    rc = reapi_cli_match_all (ctx, MATCH_ALLOCATE, jobs, 3, ids, res3, R3, at3, &ov, &failed);
    CHECK (rc == 0 && ids[0] == 1 && ids[1] == 2 && ids[2] == 3, "match_all: rc %d ids %lu %lu %lu",
           rc, (unsigned long)ids[0], (unsigned long)ids[1], (unsigned long)ids[2]);
    for (i = 0; i < 3; i++) {
        CHECK (rc != 0 || (R3[i] && !res3[i] && at3[i] == 0), "match_all result %d", i);
        reapi_cli_free (R3[i]);
        R3[i] = NULL;
    }
    /* then a core and two nodes: at most one node is left whole, so the
     * second does not fit, the core is taken back and no id is consumed */
    jobs[0] = core;
    jobs[1] = two;
    rc = reapi_cli_find (ctx, "sched-now=allocated", NULL, &R);
    CHECK (rc == 0 && R, "find before the failed gang");
    rc = reapi_cli_match_all (ctx, MATCH_ALLOCATE, jobs, 2, ids, res3, R3, at3, &ov, &failed);
    err = errno;
    CHECK_ERRNO (rc, err, EBUSY, "match_all that cannot all fit");
    CHECK (failed == 1, "failed index %lu", (unsigned long)failed);
    CHECK (R3[0] == NULL && R3[1] == NULL, "no R on failure");
    last = NULL;
    CHECK (reapi_cli_find (ctx, "sched-now=allocated", NULL, &last) == 0 && last && R
           && strcmp (last, R) == 0, "the core of the failed gang was released");
    reapi_cli_free (last);
    reapi_cli_free (R);
    R = NULL;
    rc = reapi_cli_match (ctx, MATCH_ALLOCATE, core, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && id == 4, "no id consumed by the failed gang: rc %d id %lu",
           rc, (unsigned long)id);
    reapi_cli_free (R);
    R = NULL;
    rc = reapi_cli_match_all (ctx, MATCH_ALLOCATE, jobs, 0, NULL, NULL, NULL, NULL, &ov, NULL);
    CHECK (rc == 0 || errno == EINVAL, "an empty gang: rc %d errno %d", rc, errno);
    reapi_cli_destroy (ctx);

    /* the legacy switch: a failed match is 0 with an empty R */
    setenv ("REAPI_CLI_LEGACY_MATCH", "1", 1);
    ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    unsetenv ("REAPI_CLI_LEGACY_MATCH");
    for (i = 0; i < 2; i++) {
        rc = reapi_cli_match (ctx, MATCH_ALLOCATE, two, &id, &res, &R, &at, &ov);
        CHECK (rc == 0 && R && *R, "legacy: a match that fits");
        free (R);
        R = NULL;
    }
    rc = reapi_cli_match (ctx, MATCH_ALLOCATE, two, &id, &res, &R, &at, &ov);
    CHECK (rc == 0 && R && *R == '\0', "legacy: EBUSY is 0 with an empty R: rc %d", rc);
    free (R);
    R = NULL;
    reapi_cli_destroy (ctx);
    ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    for (i = 0; i < 3; i++) {
        rc = reapi_cli_match (ctx, MATCH_ALLOCATE, two, &id, &res, &R, &at, &ov);
        free (R);
        R = NULL;
    }
    CHECK (rc == -1, "without the switch (read at reapi_cli_new) EBUSY is -1");
    reapi_cli_destroy (ctx);
    free (core);
    free (two);
}

/* Match/cancel cycles with every string released: under LSan this must
 * leave 0 bytes behind. */
void leak_cycles (long n)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    char *core = fixture (JOBS ("core.yaml"));
    char *two = fixture (JS ("two-nodes.yaml"));
    long i, ok = 0;
    for (i = 0; i < n; i++) {
        uint64_t id;
        bool res;
        char *R = NULL, *mode = NULL;
        int64_t at;
        double ov;
        const char *msg;
        if (reapi_cli_match (ctx, i % 2 ? MATCH_ALLOCATE_ORELSE_RESERVE : MATCH_ALLOCATE,
                             i % 3 ? core : two, &id, &res, &R, &at, &ov) == 0) {
            free (R);
            if (reapi_cli_info (ctx, id, &mode, &res, &at, &ov) == 0)
                free (mode);
            if (reapi_cli_cancel (ctx, id, false) == 0)
                ok++;
        }
        if (i % 100 == 0) {
            reapi_cli_cancel (ctx, UINT64_MAX - 1, false);
            msg = reapi_cli_get_err_msg (ctx);
            free ((void *)msg);
            reapi_cli_clear_err_msg (ctx);
        }
    }
    CHECK (ok == n, "%ld of %ld cycles matched and cancelled", ok, n);
    free (core);
    free (two);
    reapi_cli_destroy (ctx);
}

