/* The second include style of reapi.md §1: `<reapi_cli.h>` with
 * .../resource/reapi/bindings/c on the include path (the first style,
 * `<resource/reapi/bindings/c/reapi_cli.h>`, is used by reapi_c_test.c).
 * Both translation units end up in one program, so the two styles must
 * also agree with each other. */
#include <reapi_cli.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* 0 when the header seen through this path declares what the program
 * needs; the types are those of reapi.md §2. */
int include_style_short (const char *jobspec, const char *jgf)
{
    reapi_cli_ctx_t *ctx = reapi_cli_new ();
    struct reapi_cli_ctx *same = ctx; /* the struct tag is part of the contract */
    match_op_t op = MATCH_ALLOCATE;
    resource_status_t st = RESOURCE_DOWN;
    uint64_t jobid = 0;
    bool reserved = true;
    char *R = NULL;
    int64_t at = -1;
    double ov = -1.0;
    int bad = 0;

    if (!ctx || same != ctx)
        return 1;
    if (reapi_cli_initialize (ctx, jgf, "{\"load_format\": \"jgf\"}") != 0)
        bad |= 2;
    if (reapi_cli_match (ctx, op, jobspec, &jobid, &reserved, &R, &at, &ov) != 0
        || jobid != 1 || reserved || at != 0 || !R)
        bad |= 4;
    free (R);
    if (reapi_cli_get_status (ctx, "/cluster0/node0", &st) != 0 || st != RESOURCE_UP)
        bad |= 8;
    if ((int)END_MATCH_OP_T != 7 || (int)RESOURCE_DOWN != 1)
        bad |= 16;
    errno = 0;
    reapi_cli_destroy (ctx);
    if (errno != 0)
        bad |= 32; /* destroy keeps errno */
    return bad;
}
