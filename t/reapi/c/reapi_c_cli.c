/* reapi_c_test: R of the library against what resource-query writes for
 * the same operations, in every format; find. */
#define _POSIX_C_SOURCE 200809L
#include "reapi_c_test.h"

#include <stdint.h>

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

void test_r_matches_cli (void)
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

void test_find (void)
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

