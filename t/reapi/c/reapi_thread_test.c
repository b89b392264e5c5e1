/* Threads against libreapi_cli (reapi.md §8: independent contexts run
 * concurrently; calls on one context are serialized inside). Built as C99
 * with pthreads; CI also builds it with -fsanitize=thread against a TSan
 * build of the library (.ci/run).
 *
 *   reapi_thread_test SRC_DIR [OPS]     (OPS per thread, default 10000)
 *
 * 1. Eight threads, each on its own context, run the same deterministic
 *    sequence of OPS calls; the digest of every result (return codes,
 *    errno, ids, times, R bytes, modes) must equal that of a serial run.
 * 2. Eight threads share one context, OPS calls each, holding at most one
 *    core at a time on a 16-core machine, so that every result but the
 *    placement is independent of the interleaving: the digest of those
 *    results must equal a serial run's, the job ids handed out must be
 *    1..M without a gap or duplicate, and nothing may be left allocated. */
#define _POSIX_C_SOURCE 200809L
#include <resource/reapi/bindings/c/reapi_cli.h>

#include <pthread.h>
#include <stdint.h>

#include "check.h"

int check_failures = 0;
int check_count = 0;

#define NTHREADS 8

static char *machine, *core_js, *two_js, *big_js;
static long ops_per_thread = 10000;

static void digest (uint64_t *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    size_t i;
    for (i = 0; i < n; i++)
        *h = (*h ^ c[i]) * 1099511628211ULL;
}
#define DIGEST_INT(h, v)                                                   \
    do {                                                                   \
        int64_t v_ = (int64_t)(v);                                         \
        digest ((h), &v_, sizeof v_);                                      \
    } while (0)

static reapi_cli_ctx_t *new_ctx (const char *format)
{
    char opts[256];
    reapi_cli_ctx_t *ctx = reapi_cli_new ();
    snprintf (opts, sizeof opts, "{\"load_format\": \"jgf\", \"match_format\": \"%s\"}",
              format);
    if (!ctx || reapi_cli_initialize (ctx, machine, opts) != 0) {
        fprintf (stderr, "initialize failed: errno %d\n", errno);
        exit (2);
    }
    return ctx;
}

/* ---- 1. one context per thread ------------------------------------------ */

/* OPS calls of a fixed mix; returns the digest of everything observed. */
static uint64_t private_sequence (reapi_cli_ctx_t *ctx, long ops)
{
    uint64_t h = 14695981039346656037ULL, held[4];
    int nheld = 0;
    long k;
    for (k = 0; k < ops; k++) {
        uint64_t id = 0;
        bool res = false, sat = false;
        char *R = NULL, *mode = NULL;
        int64_t at = -1;
        double ov;
        int rc, err, i;
        switch (k % 8) {
        case 0:
        case 1:
        case 2:
            rc = reapi_cli_match (ctx, k % 8 == 1 ? MATCH_ALLOCATE_ORELSE_RESERVE
                                                  : MATCH_ALLOCATE,
                                  k % 8 == 2 ? two_js : core_js, &id, &res, &R, &at, &ov);
            err = rc ? errno : 0;
            DIGEST_INT (&h, rc);
            DIGEST_INT (&h, err);
            if (rc == 0) {
                DIGEST_INT (&h, id);
                DIGEST_INT (&h, res);
                DIGEST_INT (&h, at);
                digest (&h, R, strlen (R));
                free (R);
                if (nheld < 4)
                    held[nheld++] = id;
            }
            break;
        case 3:
            rc = reapi_cli_match_satisfy (ctx, k % 16 == 3 ? big_js : two_js, &sat, &ov);
            DIGEST_INT (&h, rc);
            DIGEST_INT (&h, rc ? errno : 0);
            DIGEST_INT (&h, sat);
            break;
        case 4:
        case 5:
            rc = reapi_cli_info (ctx, nheld ? held[nheld - 1] : 1, &mode, &res, &at, &ov);
            DIGEST_INT (&h, rc);
            if (rc == 0) {
                digest (&h, mode, strlen (mode));
                DIGEST_INT (&h, at);
                free (mode);
            }
            break;
        case 6:
            rc = reapi_cli_find (ctx, "sched-now=allocated", NULL, &R);
            DIGEST_INT (&h, rc);
            if (R) {
                digest (&h, R, strlen (R));
                free (R);
            }
            break;
        default:
            for (i = 0; i < nheld; i++) {
                rc = reapi_cli_cancel (ctx, held[i], false);
                DIGEST_INT (&h, rc);
            }
            nheld = 0;
            break;
        }
    }
    return h;
}

struct private_arg {
    long ops;
    uint64_t digest;
};

static void *private_thread (void *p)
{
    struct private_arg *a = p;
    reapi_cli_ctx_t *ctx = new_ctx ("jgf");
    a->digest = private_sequence (ctx, a->ops);
    reapi_cli_destroy (ctx);
    return NULL;
}

static void test_private_contexts (void)
{
    reapi_cli_ctx_t *ctx = new_ctx ("jgf");
    uint64_t serial = private_sequence (ctx, ops_per_thread);
    pthread_t t[NTHREADS];
    struct private_arg a[NTHREADS];
    int i;
    reapi_cli_destroy (ctx);
    for (i = 0; i < NTHREADS; i++) {
        a[i].ops = ops_per_thread;
        CHECK (pthread_create (&t[i], NULL, private_thread, &a[i]) == 0, "create");
    }
    for (i = 0; i < NTHREADS; i++) {
        pthread_join (t[i], NULL);
        CHECK (a[i].digest == serial, "thread %d on its own context: digest %llx, serial %llx",
               i, (unsigned long long)a[i].digest, (unsigned long long)serial);
    }
}

/* ---- 2. one context shared by all threads ------------------------------- */

struct shared_arg {
    reapi_cli_ctx_t *ctx;
    long ops;
    uint64_t digest;
    uint64_t *ids; /* the ids this thread was given */
    long nids;
};

/* At most one core held at a time per caller: with 8 callers on 16 cores
 * every allocation fits whatever the others do. */
static void *shared_sequence (void *p)
{
    struct shared_arg *a = p;
    uint64_t h = 14695981039346656037ULL, mine = 0;
    long k;
    for (k = 0; k < a->ops; k++) {
        uint64_t id = 0;
        bool res = true, sat = false;
        char *R = NULL, *mode = NULL;
        int64_t at = -1;
        double ov;
        int rc;
        switch (k % 6) {
        case 0:
            rc = reapi_cli_match (a->ctx, MATCH_ALLOCATE, core_js, &id, &res, &R, &at, &ov);
            DIGEST_INT (&h, rc);
            DIGEST_INT (&h, rc ? errno : 0);
            if (rc == 0) {
                DIGEST_INT (&h, res);
                DIGEST_INT (&h, at);
                /* where the core is depends on the others; that it is one
                 * core does not */
                DIGEST_INT (&h, strstr (R, "\"core\"") != NULL);
                free (R);
                mine = id;
                a->ids[a->nids++] = id;
            }
            break;
        case 1:
        case 4:
            rc = reapi_cli_info (a->ctx, mine, &mode, &res, &at, &ov);
            DIGEST_INT (&h, rc);
            if (rc == 0) {
                digest (&h, mode, strlen (mode));
                DIGEST_INT (&h, at);
                free (mode);
            }
            break;
        case 2:
            rc = reapi_cli_match_satisfy (a->ctx, k % 12 == 2 ? big_js : two_js, &sat, &ov);
            DIGEST_INT (&h, rc);
            DIGEST_INT (&h, rc ? errno : 0);
            DIGEST_INT (&h, sat);
            break;
        case 3:
            rc = reapi_cli_cancel (a->ctx, mine, false);
            DIGEST_INT (&h, rc);
            break;
        default:
            rc = reapi_cli_cancel (a->ctx, mine, false); /* again: ENOENT */
            DIGEST_INT (&h, rc);
            DIGEST_INT (&h, rc ? errno : 0);
            break;
        }
    }
    a->digest = h;
    return NULL;
}

static int cmp_u64 (const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static void test_shared_context (void)
{
    reapi_cli_ctx_t *ctx = new_ctx ("simple");
    struct shared_arg serial, a[NTHREADS];
    pthread_t t[NTHREADS];
    uint64_t *all;
    long total = 0, i, per = ops_per_thread / 6 + 1;
    char *R = NULL;
    int n;

    serial.ctx = ctx;
    serial.ops = ops_per_thread;
    serial.ids = malloc (per * sizeof (uint64_t));
    serial.nids = 0;
    shared_sequence (&serial);
    reapi_cli_destroy (ctx);

    ctx = new_ctx ("simple");
    for (n = 0; n < NTHREADS; n++) {
        a[n].ctx = ctx;
        a[n].ops = ops_per_thread;
        a[n].ids = malloc (per * sizeof (uint64_t));
        a[n].nids = 0;
        CHECK (pthread_create (&t[n], NULL, shared_sequence, &a[n]) == 0, "create");
    }
    for (n = 0; n < NTHREADS; n++) {
        pthread_join (t[n], NULL);
        CHECK (a[n].digest == serial.digest, "thread %d on the shared context: %llx, serial %llx",
               n, (unsigned long long)a[n].digest, (unsigned long long)serial.digest);
        total += a[n].nids;
    }
    all = malloc ((total + 1) * sizeof (uint64_t));
    total = 0;
    for (n = 0; n < NTHREADS; n++) {
        memcpy (all + total, a[n].ids, a[n].nids * sizeof (uint64_t));
        total += a[n].nids;
        free (a[n].ids);
    }
    qsort (all, total, sizeof (uint64_t), cmp_u64);
    for (i = 0; i < total; i++)
        if (all[i] != (uint64_t)i + 1)
            break;
    CHECK (i == total && total == NTHREADS * serial.nids,
           "ids 1..%ld handed out once each (first gap at %ld)", total, i);
    CHECK (reapi_cli_find (ctx, "sched-now=allocated", "jgf", &R) == 0 && R == NULL,
           "nothing left allocated: %s", R ? R : "(null)");
    free (R);
    free (all);
    free (serial.ids);
    reapi_cli_destroy (ctx);
}

int main (int argc, char **argv)
{
    char path[4096];
    if (argc < 2) {
        fprintf (stderr, "usage: %s SRC_DIR [OPS]\n", argv[0]);
        return 2;
    }
    if (argc > 2)
        ops_per_thread = atol (argv[2]);
#define LOAD(var, rel)                                                     \
    snprintf (path, sizeof path, "%s/%s", argv[1], rel);                   \
    if (!(var = slurp (path)))                                             \
        return 2;
    LOAD (machine, "t/reapi/data/four-nodes.json");
    LOAD (core_js, "t/data/jobspecs/core.yaml");
    LOAD (two_js, "t/reapi/data/two-nodes.yaml");
    LOAD (big_js, "t/data/jobspecs/too-big.yaml");
#undef LOAD
    test_private_contexts ();
    test_shared_context ();
    free (machine);
    free (core_js);
    free (two_js);
    free (big_js);
    return check_summary ("reapi_thread_test");
}
