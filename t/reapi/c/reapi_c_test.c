/* A C99 client of libreapi_cli, built against the *installed* header and
 * library (t/reapi/c/build.sh): every function of reapi.md §3, both include
 * styles, every errno class of §5, ownership (each returned string is
 * released with free), the extras of §8, and R compared with what resource-query prints for
 * the same operations.
 *
 *   reapi_c_test SRC_DIR RESOURCE_QUERY         the checks
 *   reapi_c_test SRC_DIR RESOURCE_QUERY leak N  N match/cancel cycles (run
 *                                                under ASan/LSan by ctest)
 */
#define _POSIX_C_SOURCE 200809L
#include <resource/reapi/bindings/c/reapi_cli.h>

#include <stdint.h>

#include "check.h"

int include_style_short (const char *jobspec, const char *jgf);

static const char *src_dir;
static const char *rq_bin;

/* Text of SRC_DIR/rel (malloc'd; aborts on error: a missing fixture). */
static char *fixture (const char *rel)
{
    char path[4096];
    char *text;
    snprintf (path, sizeof path, "%s/%s", src_dir, rel);
    text = slurp (path);
    if (!text)
        exit (2);
    return text;
}

#define JGF_MACHINE "t/reapi/data/four-nodes.json"
#define TINY "conf/tiny.graphml"
#define JS(name) "t/reapi/data/" name
#define JOBS(name) "t/data/jobspecs/" name

/* A context on the four-node JGF machine with extra option keys. */
static reapi_cli_ctx_t *jgf_ctx (const char *options)
{
    reapi_cli_ctx_t *ctx = reapi_cli_new ();
    char *g = fixture (JGF_MACHINE);
    int rc = reapi_cli_initialize (ctx, g, options);
    CHECK (rc == 0, "initialize %s: errno %d", options, errno);
    free (g);
    return ctx;
}

/* The error text, checked non-NULL and released: the result is owned. */
static int err_contains (reapi_cli_ctx_t *ctx, const char *needle)
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

static void test_match_op_helpers (void)
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
static void test_null_context (void)
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

static void test_initialize (void)
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
    CHECK_ERRNO (rc, err, EINVAL, "non-string option value");
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

static void test_match (void)
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

/* A CLI command line that feeds `cmds` (printf format, no arguments) to
 * resource-query on `recipe` with extra options; writer output only. */
static char *cli_writer_output (const char *recipe, const char *opts, const char *cmds)
{
    char *cmd = NULL, *out, *w;
    append (&cmd, "printf '");
    append (&cmd, cmds);
    append (&cmd, "quit\\n' | ");
    append (&cmd, rq_bin);
    append (&cmd, " -L '");
    append (&cmd, recipe);
    append (&cmd, "' ");
    append (&cmd, opts);
    append (&cmd, " 2>/dev/null");
    out = run_capture (cmd);
    free (cmd);
    if (!out)
        return NULL;
    w = drop_info_lines (out);
    free (out);
    return w;
}

struct step {
    match_op_t op; /* MATCH_UNKNOWN: cancel `cancel` */
    const char *jobspec;
    uint64_t cancel;
};

/* R of the library, concatenated over a sequence, must be the bytes the
 * CLI writes for the same sequence with -F fmt -P policy. */
static void compare_with_cli (const char *recipe_rel, const char *load_format,
                              const char *fmt, const char *policy)
{
    static const struct step steps[] = {
        {MATCH_ALLOCATE, JOBS ("core.yaml"), 0},
        {MATCH_ALLOCATE, JOBS ("node-socket-core.yaml"), 0},
        {MATCH_ALLOCATE_ORELSE_RESERVE, JOBS ("whole-node.yaml"), 0},
        {MATCH_ALLOCATE_ORELSE_RESERVE, JS ("two-nodes.yaml"), 0},
        {MATCH_ALLOCATE, JOBS ("too-big.yaml"), 0},
        {MATCH_WITHOUT_ALLOCATING, JOBS ("core.yaml"), 0},
        {MATCH_WITHOUT_ALLOCATING_FUTURE, JS ("two-nodes.yaml"), 0},
        {MATCH_UNKNOWN, NULL, 2},
        {MATCH_ALLOCATE_W_SATISFIABILITY, JOBS ("whole-node.yaml"), 0},
        {MATCH_ALLOCATE_ORELSE_RESERVE, JS ("two-nodes.yaml"), 0},
        {MATCH_UNKNOWN, NULL, 4},
        {MATCH_ALLOCATE, JOBS ("core.yaml"), 0},
    };
    char options[512], cliopts[256], line[1024], path[4096];
    char *cmds = NULL, *lib_out = NULL, *cli_out, *graph;
    reapi_cli_ctx_t *ctx = reapi_cli_new ();
    size_t i;

    snprintf (path, sizeof path, "%s/%s", src_dir, recipe_rel);
    graph = fixture (recipe_rel);
    snprintf (options, sizeof options,
              "{\"load_format\": \"%s\", \"match_format\": \"%s\", \"matcher_policy\": \"%s\"}",
              load_format, fmt, policy);
    CHECK (reapi_cli_initialize (ctx, graph, options) == 0, "initialize %s", options);
    append (&lib_out, "");
    for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        if (steps[i].op == MATCH_UNKNOWN) {
            CHECK (reapi_cli_cancel (ctx, steps[i].cancel, false) == 0, "cancel %lu",
                   (unsigned long)steps[i].cancel);
            snprintf (line, sizeof line, "cancel %lu\\n", (unsigned long)steps[i].cancel);
        } else {
            char *js = fixture (steps[i].jobspec);
            uint64_t id;
            bool res;
            char *R = NULL;
            int64_t at;
            double ov;
            if (reapi_cli_match (ctx, steps[i].op, js, &id, &res, &R, &at, &ov) == 0) {
                append (&lib_out, R);
                free (R);
            }
            free (js);
            snprintf (line, sizeof line, "match %s %s/%s\\n",
                      match_op_to_string (steps[i].op), src_dir, steps[i].jobspec);
        }
        append (&cmds, line);
    }
    snprintf (cliopts, sizeof cliopts, "-f %s -F %s -P %s", load_format, fmt, policy);
    cli_out = cli_writer_output (path, cliopts, cmds);
    CHECK (cli_out && strlen (cli_out) > 100, "the CLI wrote R (%s)", cliopts);
    CHECK (cli_out && strcmp (cli_out, lib_out) == 0,
           "R of the library is the CLI's (%s %s)\n--- library:\n%s\n--- CLI:\n%s",
           recipe_rel, cliopts, lib_out, cli_out ? cli_out : "(none)");
    free (cli_out);
    free (lib_out);
    free (cmds);
    free (graph);
    reapi_cli_destroy (ctx);
}

static void test_r_matches_cli (void)
{
    compare_with_cli (TINY, "grug", "jgf", "first");
    compare_with_cli (TINY, "grug", "simple", "high");
    compare_with_cli (TINY, "grug", "pretty_simple", "low");
    compare_with_cli (TINY, "grug", "rlite", "lonode");
    compare_with_cli (TINY, "grug", "rv1", "hinode");
    compare_with_cli (TINY, "grug", "rv1_nosched", "first");
    compare_with_cli (TINY, "grug", "rv1_shorthand", "high");
    compare_with_cli (TINY, "grug", "jgf_shorthand", "locality");
    compare_with_cli (JGF_MACHINE, "jgf", "jgf", "first");
    compare_with_cli (JGF_MACHINE, "jgf", "rv1_nosched", "high");
}

static void test_find (void)
{
    reapi_cli_ctx_t *ctx = jgf_ctx ("{\"load_format\": \"jgf\"}");
    char *two = fixture (JS ("two-nodes.yaml"));
    char *R = NULL, *cli, *a, *b, path[4096];
    uint64_t id;
    bool res;
    int64_t at;
    double ov;
    int rc, err;

    rc = reapi_cli_find (ctx, "sched-now=allocated", NULL, &R);
    CHECK (rc == 0 && R == NULL, "nothing allocated: success and NULL");
    CHECK (reapi_cli_match (ctx, MATCH_ALLOCATE, two, &id, &res, &R, &at, &ov) == 0, "match");
    free (R);
    R = NULL;
    rc = reapi_cli_find (ctx, "sched-now=allocated", NULL, &R);
    CHECK (rc == 0 && R && !strchr (R, ' '), "compact JSON: %s", R ? R : "(null)");
    snprintf (path, sizeof path, "%s/%s", src_dir, JGF_MACHINE);
    {
        char cmds[4096];
        snprintf (cmds, sizeof cmds, "match allocate %s/%s\\nfind sched-now=allocated\\n",
                  src_dir, JS ("two-nodes.yaml"));
        cli = cli_writer_output (path, "-f jgf -F jgf", cmds);
    }
    /* the CLI's output holds the match R, then the find R */
    a = cli ? strrchr (cli, '{') : NULL;
    while (a && a > cli && a[-1] != '\n')
        a--;
    a = json_squeeze (a ? a : "");
    b = json_squeeze (R ? R : "");
    CHECK (strcmp (a, b) == 0, "find R is the CLI's, compacted:\n%s\n%s", a, b);
    free (a);
    free (b);
    free (cli);
    free (R);
    R = NULL;
    rc = reapi_cli_find (ctx, "status=up", "simple", &R);
    CHECK (rc == 0 && R && strstr (R, "core3[1:"), "find in simple format");
    free (R);
    R = NULL;
    rc = reapi_cli_find (ctx, "status=up", "no_such_format", &R);
    err = errno;
    CHECK_ERRNO (rc, err, EINVAL, "find with an unknown format");
    rc = reapi_cli_find (ctx, "bogus=1", NULL, &R);
    err = errno;
    CHECK (rc == -1 && err == EINVAL && R == NULL, "invalid criteria: rc %d errno %d", rc, err);
    reapi_cli_destroy (ctx);
    free (two);
}

/* An rv1exec R of one rank of the four-node machine. */
static void rank_r (char *buf, size_t n, int rank)
{
    snprintf (buf, n,
              "{\"version\": 1, \"execution\": {\"R_lite\": [{\"rank\": \"%d\", "
              "\"children\": {\"core\": \"0-3\"}}], \"nodelist\": [\"node%d\"], "
              "\"starttime\": 0, \"expiration\": 3600}}",
              rank, rank);
}

static void test_cancel_info (void)
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
static void test_bare_r (void)
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

static void test_update_allocate (void)
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

static void test_subgraph (void)
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

static void test_status (void)
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

static void test_clone (void)
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
static void test_stat (void)
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

static void test_err_msg (void)
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

/* The extras of reapi.md §8, under new names. */
static void test_extras (void)
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
static void leak_cycles (long n)
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
